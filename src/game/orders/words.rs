//! The orders' words: movement points, chances, the odds of a volley or a
//! melee before it is committed, a march before it is ordered, and the
//! banner's line while the player looks back at the log.

use crate::hex::Offset;
use crate::labataille::combat::{FireOdds, MeleeOdds};
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
        "Fire at {target}: firepower {}, column {}\n  losses {} (expected {:.1} increments), morale check {}",
        o.firepower,
        o.column + 1,
        pct(o.loss_chance()),
        o.expected_losses(),
        pct(o.check_chance())
    )
}

/// The odds of a melee (or a charge's melee) before it is fought.
pub fn melee_odds_text(o: &MeleeOdds, target: &str, charge: bool) -> String {
    let what = if charge { "Charge" } else { "Melee with" };
    if o.walkover {
        return format!("{what} {target}: every defender is routed and surrenders without a fight");
    }
    let mut out = format!(
        "{what} {target} at {} ({} against {}, modifier {:+}): you win {}",
        o.label,
        o.attack,
        o.defence,
        o.modifier,
        pct(o.win_chance())
    );
    for (r, p) in &o.outcomes {
        if *p > 0.0 {
            out += &format!("\n  {:>8}  {}", pct(*p), r.words());
        }
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
        };
        let t = fire_odds_text(&fire, "2e Ligne");
        assert!(t.starts_with("Fire at 2e Ligne: firepower 6, column 4"), "{t}");
        assert!(t.contains("losses 25% (expected 0.2 increments), morale check 50%"), "{t}");
        let melee = MeleeOdds {
            attack: 6,
            defence: 4,
            column: 3,
            label: "3:2".into(),
            modifier: 1,
            outcomes: vec![(MeleeResult::AR, 0.25), (MeleeResult::DR, 0.75)],
            walkover: false,
        };
        let t = melee_odds_text(&melee, "the Guard", false);
        assert!(t.starts_with("Melee with the Guard at 3:2 (6 against 4, modifier +1): you win 75%"), "{t}");
        assert!(t.contains("25%  attackers repulsed"), "{t}");
        assert!(move_text(Offset::new(2, 4), 350).ends_with("3.5 MP"));
    }
}
