//! The orders' words: movement points, chances, the odds of a volley or a
//! melee before it is committed, a march before it is ordered, and the
//! banner's line while the player looks back at the log.

use crate::events::Cause;
use crate::hex::Offset;
use crate::labataille::combat::{AttackOdds, FireOdds};
use crate::labataille::movement::Centi;

/// Movement points (hundredths) in words: 350 -> "3.5 MP", 300 -> "3 MP".
pub fn mp_words(centi: u32) -> String {
    let text = format!("{}.{:02}", centi / 100, centi % 100);
    format!("{} MP", text.trim_end_matches('0').trim_end_matches('.'))
}

/// A chance in words: whole percents, "under 1%" for the rare ones.
pub fn pct(p: f32) -> String {
    let p = p.clamp(0.0, 1.0) * 100.0;
    if p > 0.0 && p < 1.0 { "under 1%".into() } else { format!("{p:.0}%") }
}

/// The odds of a volley before it is fired.
pub fn fire_odds_text(o: &FireOdds, target: &str) -> String {
    format!(
        "Fire at {target}: firepower {}, column {}\n  losses {} (expected {:.1} increments), morale check {} \
         (it fails one {})",
        o.firepower,
        o.column + 1,
        pct(o.loss_chance()),
        o.expected_losses(),
        pct(o.check_chance()),
        pct(o.check_fails)
    )
}

/// The odds of an attack (or a charge) before it is made, every die
/// counted: the chance to win, each check the attack demands (`name` words
/// a unit), how often it goes in, then each table result.
pub fn attack_odds_text(o: &AttackOdds, target: &str, charge: bool, name: &dyn Fn(usize) -> String) -> String {
    let what = if charge { "Charge" } else { "Melee with" };
    let t = &o.table;
    if t.walkover {
        return format!("{what} {target}: every defender is routed and surrenders without a fight");
    }
    let mut out = format!(
        "{what} {target} at {} ({} against {}, {:+}): you win {}",
        t.label,
        t.attack,
        t.defence,
        t.modifier,
        pct(o.win_chance())
    );
    // Four lines at most, so that the banner shows them all: the checks,
    // whether the attack goes in, then the results.
    // A unit's checks one after the other under its name once.
    let mut checks = String::new();
    for (k, c) in o.checks.iter().enumerate() {
        let why = match c.cause {
            Cause::Charge => "forms square",
            Cause::Contagion => "holds as a friend runs past",
            _ => "passes",
        };
        let when = if c.rolled < 0.999 { format!(" (if it checks: {} do)", pct(c.rolled)) } else { String::new() };
        let same = k > 0 && o.checks[k - 1].unit == c.unit;
        checks += &match (k, same) {
            (0, _) => format!("{} {why} {}{when}", name(c.unit), pct(c.passes)),
            (_, true) => format!(", then {why} {}{when}", pct(c.passes)),
            (_, false) => format!("; {} {why} {}{when}", name(c.unit), pct(c.passes)),
        };
    }
    if !checks.is_empty() {
        out += &format!("\n  checks: {checks}");
    }
    out += &format!("\n  it goes in {}", pct(o.goes_in));
    if o.cleared > 0.0 {
        out += &format!(", they give way first {}", pct(o.cleared));
    }
    if o.called_off > 0.0 {
        out += &format!(", called off {}", pct(o.called_off));
    }
    let results: Vec<String> =
        o.outcomes.iter().filter(|(_, p)| *p > 0.0).map(|(r, p)| format!("{} {}", r.words(), pct(*p))).collect();
    if !results.is_empty() {
        out += &format!("\n  {}", results.join(", "));
    }
    out
}

/// A march before it is ordered.
pub fn move_text(to: Offset, cost: Centi) -> String {
    format!("March to {to}: {:.1} MP", cost as f32 / 100.0)
}

/// The banner's words while the player looks back at the log.
pub const REVIEWING_HINT: &str = "Looking back at the log: the counters stand where they stood then, and no order \
                                  can be given.\n. steps forward, Space plays on, End returns to the present.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movement_points_read_without_trailing_zeros() {
        assert_eq!(mp_words(350), "3.5 MP");
        assert_eq!(mp_words(300), "3 MP");
        assert_eq!(mp_words(333), "3.33 MP");
        assert_eq!(mp_words(5), "0.05 MP");
        assert_eq!(mp_words(0), "0 MP");
    }

    #[test]
    fn odds_read_as_percentages() {
        use crate::rules::combat::{FireResult, MeleeResult};
        assert_eq!(pct(0.4166), "42%");
        assert_eq!(pct(0.001), "under 1%");
        assert_eq!(pct(0.0), "0%");
        let fire = FireOdds {
            firepower: 6.0,
            column: 3,
            outcomes: vec![
                (FireResult { losses: 1, check: Some(0) }, 0.25),
                (FireResult { losses: 0, check: Some(-1) }, 0.25),
                (FireResult::default(), 0.5),
            ],
            check_fails: 0.3,
        };
        let t = fire_odds_text(&fire, "2e Ligne");
        assert!(t.starts_with("Fire at 2e Ligne: firepower 6, column 4"), "{t}");
        assert!(t.contains("losses 25% (expected 0.2 increments), morale check 50% (it fails one 30%)"), "{t}");
        let table = crate::labataille::combat::MeleeOdds {
            attack: 6,
            defence: 4,
            column: 3,
            label: "3:2".into(),
            modifier: 1,
            outcomes: vec![(MeleeResult::AR, 0.25), (MeleeResult::DR, 0.75)],
            walkover: false,
        };
        let check =
            |unit, rolled, passes| crate::labataille::combat::CheckOdds { unit, cause: Cause::Melee, rolled, passes };
        let square = crate::labataille::combat::CheckOdds { unit: 1, cause: Cause::Charge, rolled: 1.0, passes: 0.5 };
        let melee = AttackOdds {
            table,
            checks: vec![check(0, 1.0, 0.5), square, check(1, 0.5, 0.6)],
            goes_in: 0.3,
            cleared: 0.2,
            called_off: 0.5,
            outcomes: vec![(MeleeResult::AR, 0.075), (MeleeResult::DR, 0.225)],
        };
        let names = |u: usize| ["1er Bn", "the Guard"][u].to_owned();
        let t = attack_odds_text(&melee, "the Guard", false, &names);
        // The chance to win counts the hex cleared before the table and the results that favour the attacker.
        assert!(t.starts_with("Melee with the Guard at 3:2 (6 against 4, +1): you win 42%"), "{t}");
        assert!(
            t.contains(
                "\n  checks: 1er Bn passes 50%; the Guard forms square 50%, then passes 60% (if it checks: 50% do)\n"
            ),
            "{t}"
        );
        assert!(t.contains("\n  it goes in 30%, they give way first 20%, called off 50%\n"), "{t}");
        assert!(t.ends_with("\n  attackers repulsed 8%, defenders fall back 22%"), "{t}");
        assert_eq!(t.lines().count(), 4, "four lines fit the banner: {t}");
        assert!(move_text(Offset::new(2, 4), 350).ends_with("3.5 MP"));
    }
}
