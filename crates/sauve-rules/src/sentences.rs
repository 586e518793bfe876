//! The battle log in plain sentences, built from the event log (one sentence
//! per event, or none for bookkeeping events). Pure functions, so the words
//! are tested without a window.

use crate::dice::needed_roll;
use crate::events::{Cause, EliminationReason, Event, EventKind, FireRoll, Heading, Lost, MeleeRolls, MoveReason, Pos};
use crate::vocab::{Formation, Shape, State};

/// What kind of line a sentence is, for the log's filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    Phase,
    Check,
    Failure,
    Move,
    Loss,
}

/// Names units for the sentences: the scenario's display name of an id.
pub trait Names {
    fn name(&self, id: &str) -> String;
    /// A side's display name from its id.
    fn side(&self, id: &str) -> String;
    /// Whether checks are d66 rolls against morale (hex mode), so the
    /// sentence can say what roll was needed; free-space checks are 3d6.
    fn d66(&self) -> bool {
        true
    }
    /// Whether a natural 11 always fails and a natural 66 always passes
    /// (the scenario's `natural_extremes`).
    fn natural_extremes(&self) -> bool {
        true
    }
    /// A corps' display name from its id.
    fn corps(&self, id: &str) -> String {
        id.to_owned()
    }
    /// A leader's display name from its id.
    fn leader(&self, id: &str) -> String {
        id.to_owned()
    }
}

pub fn state_words(s: State) -> &'static str {
    match s {
        State::GoodOrder => "good order",
        State::Disordered => "disordered",
        State::Routed => "routed",
        State::Surrendered => "surrendered",
        State::Eliminated => "eliminated",
        State::Order => "order",
        State::LU => "lightly unformed (LU)",
        State::U => "unformed (U)",
        State::FU => "fully unformed (FU)",
    }
}

fn cause_words(c: Cause) -> &'static str {
    match c {
        Cause::Recovery => "in the recovery segment",
        Cause::Contagion => "for contagion",
        Cause::Fire => "under fire",
        Cause::Melee => "in melee",
        Cause::Charge => "facing a charge",
        Cause::Shock => "from a shock",
        Cause::CavalryZone => "retreating through enemy cavalry",
        Cause::CarryAlong => "carried along by fugitives",
        Cause::Reorganisation => "in reorganisation",
        Cause::Valour => "as its valour fell",
    }
}

/// A free-space fire or melee result in words.
fn effect_words(figures: u32, state: State) -> String {
    let lost = if figures == 0 { "no loss".to_owned() } else { plural(figures as usize, "figure") };
    match state {
        State::Order | State::GoodOrder => lost,
        s => format!("{lost} and {}", state_words(s)),
    }
}

fn pos(p: &Pos) -> String {
    match p {
        Pos::Hex([c, r]) => format!("({c}, {r})"),
        Pos::Cm([x, y]) => format!("({x:.0}, {y:.0}) cm"),
    }
}

/// A length on the table in cm as the log and the previews both say it:
/// to a tenth, without a trailing `.0` (`6 cm`, `7.6 cm`).
pub fn cm_words(v: f32) -> String {
    let t = (v * 10.0).round() / 10.0;
    if t.fract() == 0.0 { format!("{t:.0} cm") } else { format!("{t:.1} cm") }
}

/// Length of a free-space path in cm.
fn cm_along(path: &[Pos]) -> f32 {
    path.windows(2)
        .map(|w| match (w[0], w[1]) {
            (Pos::Cm([x0, y0]), Pos::Cm([x1, y1])) => ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt(),
            _ => 0.0,
        })
        .sum()
}

fn plural(n: usize, one: &str) -> String {
    let ending = if one.ends_with('x') { "es" } else { "s" };
    if n == 1 { format!("1 {one}") } else { format!("{n} {one}{ending}") }
}

/// The scenario's display names of units, sides, corps and leaders; an id
/// it does not know is said as it is.
pub struct ScenarioNames<'a>(pub &'a crate::scenario::Scenario);

impl Names for ScenarioNames<'_> {
    fn name(&self, id: &str) -> String {
        self.0.unit_index(id).and_then(|i| self.0.units.get(i)).map_or_else(|| id.to_owned(), |u| u.name.clone())
    }
    fn side(&self, id: &str) -> String {
        self.0.sides.iter().find(|s| s.id == id).map_or_else(|| id.to_owned(), |s| s.name.clone())
    }
    fn d66(&self) -> bool {
        self.0.mode == crate::scenario::Mode::Hex
    }
    fn natural_extremes(&self) -> bool {
        self.0.rules.natural_extremes
    }
    fn corps(&self, id: &str) -> String {
        // A free-space army breaks as a whole, named after its side.
        let army = || self.0.sides.iter().find(|x| x.id == id).map(|x| format!("The {} army", x.name));
        self.0.corps.iter().find(|c| c.id == id).map(|c| c.name.clone()).or_else(army).unwrap_or_else(|| id.to_owned())
    }
    fn leader(&self, id: &str) -> String {
        self.0.leaders.iter().find(|l| l.id == id).map_or_else(|| id.to_owned(), |l| l.name.clone())
    }
}

/// `text` with every unit id in it written as the unit's name, for a
/// player to read: a refusal the rules word with ids (`unit 'pr-1-9':
/// is not next to 'sx-2'`) reads `1/9th Reserve is not next to Prinz
/// Anton`. `ids` are the ids to look for (the battle's units).
pub fn named(text: &str, names: &dyn Names, ids: &[&str]) -> String {
    let token = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(token) {
        let (before, from) = rest.split_at(start);
        let end = from.find(|c: char| !token(c)).unwrap_or(from.len());
        let (word, after) = from.split_at(end);
        if ids.contains(&word) {
            // `unit 'x': ` and `'x'` lose their quotes and the word `unit`.
            let quoted = before.ends_with('\'') && after.starts_with('\'');
            out.push_str(if quoted { &before[..before.len() - 1] } else { before });
            if quoted && out.ends_with("unit ") {
                out.truncate(out.len() - 5);
            }
            out.push_str(&names.name(word));
            rest = if quoted { &after[1..] } else { after };
            if let Some(r) = rest.strip_prefix(": ").filter(|_| quoted) {
                out.push(' ');
                rest = r;
            }
        } else {
            out.push_str(before);
            out.push_str(word);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// One event in words, with its category; `None` for events a reader does
/// not need (the final roll call).
pub fn sentence(e: &Event, names: &dyn Names) -> Option<(Category, String)> {
    Some(match &e.kind {
        EventKind::PhaseStart {} => {
            let who = e.side.as_deref().map(|s| format!("{}: ", names.side(s))).unwrap_or_default();
            (Category::Phase, format!("Turn {}, {who}{}", e.turn, e.phase.words()))
        }
        EventKind::MoraleCheck { unit, cause, morale, modifier, roll, result, passed, source } => {
            let who = names.name(unit);
            let why = match (cause, source) {
                (Cause::Contagion, Some(src)) => format!("for contagion from {}", names.name(src)),
                _ => cause_words(*cause).to_owned(),
            };
            let verb = if *passed { "passes" } else { "fails" };
            let cat = if *passed { Category::Check } else { Category::Failure };
            // d66: the natural roll beside the natural roll it needed, so
            // both read on one scale; the modifier and morale say why.
            let detail = if names.d66() {
                let at = if *modifier == 0 { String::new() } else { format!(" at {modifier:+}") };
                match needed_roll(*morale, *modifier, names.natural_extremes()) {
                    Some(n) => format!("rolled {roll}; needed {} or better: morale {morale}{at}", n.value()),
                    None => format!("rolled {roll}; no roll passes: morale {morale}{at}"),
                }
            } else if result != roll {
                format!("rolled {roll}, {result} after modifiers")
            } else {
                format!("rolled {roll}")
            };
            (cat, format!("{who} {verb} its morale check {why} ({detail})"))
        }
        EventKind::StateChange { unit, from, to, cause } => {
            let who = names.name(unit);
            let text = match to {
                State::Routed => format!("{who} routs"),
                State::Disordered => format!("{who} falls into disorder"),
                State::GoodOrder | State::Order => format!("{who} rallies to good order"),
                other => format!("{who} goes from {} to {}", state_words(*from), state_words(*other)),
            };
            let cause = match cause {
                Cause::CavalryZone => " (it retreated through an enemy cavalry zone)".to_owned(),
                Cause::Shock => " (a shock)".to_owned(),
                Cause::Valour => " (its losses broke its valour)".to_owned(),
                _ => String::new(),
            };
            (Category::Failure, format!("{text}{cause}"))
        }
        EventKind::Move { unit, reason, to, path, .. } => {
            let who = names.name(unit);
            let n = path.len().saturating_sub(1);
            // Hexes are counted; a free-space move is measured along its path.
            let hexes = match to {
                Pos::Hex(_) => plural(n, "hex"),
                Pos::Cm(_) => cm_words(cm_along(path)),
            };
            let text = match reason {
                // A router already on the edge leaves at once (the next event says how).
                MoveReason::Rout if n == 0 => format!("{who} routs from {}", pos(to)),
                MoveReason::Rout => format!("{who} routs {hexes} to {}", pos(to)),
                MoveReason::Disorder => format!("{who} falls back {hexes} to {}", pos(to)),
                MoveReason::Recovery => format!("{who} walks {hexes} towards refuge at {}", pos(to)),
                MoveReason::Order => format!("{who} marches {hexes} to {}", pos(to)),
                MoveReason::Flight => format!("{who} flees {hexes} to {}", pos(to)),
                MoveReason::CarriedAlong => format!("{who} is carried along {hexes} to {}", pos(to)),
                MoveReason::Advance => format!("{who} advances into {}", pos(to)),
                MoveReason::Charge => format!("{who} charges {hexes} to {}", pos(to)),
            };
            (Category::Move, text)
        }
        EventKind::Readiness { unit, from, to } => (
            Category::Check,
            format!("{} goes from {from:?} to {to:?}", names.name(unit)).replace("Exhausted", "exhausted"),
        ),
        EventKind::Surrendered { unit } => (Category::Loss, format!("{} surrenders", names.name(unit))),
        EventKind::Eliminated { unit, reason } => {
            let how = match reason {
                EliminationReason::OffMap => "routs off the map and is lost",
                EliminationReason::Losses => "is destroyed",
            };
            (Category::Loss, format!("{} {how}", names.name(unit)))
        }
        EventKind::LeftMap { unit, edge } => {
            (Category::Loss, format!("{} leaves the map by the {edge:?} edge to recover", names.name(unit)))
        }
        EventKind::Losses { unit, lost } => {
            let ((n, left), what) = match lost {
                Lost::Increments { .. } => (lost.counts(), "increment"),
                Lost::Figures { .. } => (lost.counts(), "figure"),
            };
            (Category::Loss, format!("{} loses {} ({left} left)", names.name(unit), plural(n as usize, what)))
        }
        EventKind::Fire { units, target, rolled } => {
            let who: Vec<String> = units.iter().map(|u| names.name(u)).collect();
            let how = match rolled {
                FireRoll::Hex { firepower, column, total, result, .. } => {
                    format!("firepower {firepower}, column {}, rolled {total}: {result}", column + 1)
                }
                FireRoll::FreeSpace { points, modifier, total, figures, state, .. } => {
                    format!("{points:.1} points, {modifier:+}; total {total}: {}", effect_words(*figures, *state))
                }
            };
            (Category::Check, format!("{} fire at {} ({how})", who.join(" and "), names.name(target)))
        }
        EventKind::Melee { attackers, defenders, rolls } => {
            let a: Vec<String> = attackers.iter().map(|u| names.name(u)).collect();
            let d: Vec<String> = defenders.iter().map(|u| names.name(u)).collect();
            let how = match rolls {
                MeleeRolls::Hex { odds, total, result, .. } => format!(" at {odds}: {total}, {}", result.words()),
                MeleeRolls::FreeSpace { attack_total, defence_total, loser, figures, state, .. } => {
                    let outcome = match loser {
                        Some(l) => format!("{} loses, {}", names.name(l), effect_words(*figures, *state)),
                        None => "neither gives ground".to_owned(),
                    };
                    format!(" ({attack_total} against {defence_total}): {outcome}")
                }
            };
            (Category::Failure, format!("{} close with {}{how}", a.join(" and "), d.join(" and ")))
        }
        EventKind::Attack { attackers, target, charge } => {
            let a: Vec<String> = attackers.iter().map(|u| names.name(u)).collect();
            let verb = if *charge { "charge" } else { "attack" };
            (Category::Check, format!("{} ordered to {verb} {}", a.join(" and "), names.name(target)))
        }
        EventKind::Valour { unit, from, to } => {
            (Category::Loss, format!("{}'s valour falls from {from:+} to {to:+}", names.name(unit)))
        }
        EventKind::GunsCaptured { unit, by, .. } => {
            (Category::Loss, format!("{} takes the guns {} left", names.name(by), names.name(unit)))
        }
        EventKind::Formation { unit, to: Shape::Formed(Formation::Flight), .. } => {
            (Category::Move, format!("{} huddles into a flight formation, as wide as deep", names.name(unit)))
        }
        EventKind::Formation { unit, from, to } => {
            (Category::Move, format!("{} changes from {} to {}", names.name(unit), from.words(), to.words()))
        }
        EventKind::Facing { unit, from, to } => match (from, to) {
            (Heading::Degrees(from), Heading::Degrees(to)) => {
                (Category::Move, format!("{} turns from {from:.0} to {to:.0} degrees", names.name(unit)))
            }
            (Heading::Hexside(from), Heading::Hexside(to)) => {
                (Category::Move, format!("{} turns from {from:?} to face {to:?}", names.name(unit)))
            }
            (from, to) => (Category::Move, format!("{} turns from {from:?} to {to:?}", names.name(unit))),
        },
        EventKind::Exited { unit, edge, increments } => (
            Category::Move,
            format!(
                "{} marches off the map by the {} edge with {}",
                names.name(unit),
                format!("{edge:?}").to_lowercase(),
                plural(*increments as usize, "increment")
            ),
        ),
        EventKind::CorpsBroken { corps, gone, routed, .. } => (
            Category::Failure,
            format!("{} breaks: {} gone, {routed} routed", names.corps(corps), plural(*gone as usize, "battalion")),
        ),
        EventKind::LeaderJoined { leader, unit } => {
            (Category::Move, format!("{} rides to {}", names.leader(leader), names.name(unit)))
        }
        EventKind::GameOver { winner, decisive, .. } => {
            (Category::Phase, winner_sentence(winner.as_deref(), *decisive, names))
        }
        EventKind::ReplayError { order, error, .. } => {
            (Category::Failure, format!("A saved order could not be carried out ({error}): {order}"))
        }
        EventKind::Final { .. } => return None,
        // Kinds this window does not word yet are still logged, generically.
    })
}

/// Who won and how, in one sentence ("The battle is over: outright victory
/// for the French, the enemy army broke"). Side names may be singular or
/// plural ("Girard's division", "Prussians"), so no verb agrees with them.
pub fn winner_sentence(winner: Option<&str>, decisive: bool, names: &dyn Names) -> String {
    match (winner, decisive) {
        (Some(w), true) => format!("The battle is over: outright victory for {}, the enemy army broke", names.side(w)),
        (Some(w), false) => format!("The battle is over: victory for {} on points", names.side(w)),
        (None, _) => "The battle is over: a draw".to_owned(),
    }
}

/// The game-over card's title and body: the winner (or a draw), outright or
/// on points, each side's points (`sides` are the display names in scenario
/// order, matching `points`), how they were made, then the end-of-game
/// summary if there is one.
pub fn game_over_card(
    winner: Option<&str>,
    decisive: bool,
    points: &[u32],
    detail: &[String],
    sides: &[String],
    names: &dyn Names,
    summary: Option<&str>,
) -> (String, String) {
    let title = match winner {
        Some(w) => format!("Victory: {}", names.side(w)),
        None => "A draw".to_owned(),
    };
    let how = match (winner, decisive) {
        (Some(_), true) => "Won outright — the enemy army broke.",
        (Some(_), false) => "Won on points.",
        (None, _) => "Neither side ahead on points.",
    };
    let mut body = format!("{how}\n");
    for (k, p) in points.iter().enumerate() {
        let side = sides.get(k).map_or_else(|| format!("side {}", k + 1), Clone::clone);
        body += &format!("\n{side}: {}", plural(*p as usize, "point"));
    }
    if !detail.is_empty() {
        body += "\n";
        for d in detail {
            body += &format!("\n  {d}");
        }
    }
    if let Some(s) = summary.map(str::trim_end).filter(|s| !s.is_empty()) {
        body += &format!("\n\n{s}");
    }
    (title, body)
}

/// The unit an event is about, if any.
pub fn unit_id(e: &Event) -> Option<String> {
    match &e.kind {
        EventKind::MoraleCheck { unit, .. }
        | EventKind::StateChange { unit, .. }
        | EventKind::Move { unit, .. }
        | EventKind::Readiness { unit, .. }
        | EventKind::Surrendered { unit }
        | EventKind::Eliminated { unit, .. }
        | EventKind::LeftMap { unit, .. }
        | EventKind::Losses { unit, .. }
        | EventKind::Valour { unit, .. }
        | EventKind::GunsCaptured { unit, .. }
        | EventKind::Formation { unit, .. }
        | EventKind::Facing { unit, .. }
        | EventKind::Exited { unit, .. } => Some(unit.clone()),
        EventKind::Fire { target, .. } | EventKind::Attack { target, .. } => Some(target.clone()),
        EventKind::Melee { defenders, .. } => defenders.first().cloned(),
        EventKind::LeaderJoined { unit, .. } => Some(unit.clone()),
        EventKind::PhaseStart {}
        | EventKind::ReplayError { .. }
        | EventKind::Final { .. }
        | EventKind::CorpsBroken { .. }
        | EventKind::GameOver { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Ids;
    impl Names for Ids {
        fn name(&self, id: &str) -> String {
            match id {
                "fr-9L" => "1st Bn 9e Léger".into(),
                other => other.into(),
            }
        }
        fn side(&self, id: &str) -> String {
            match id {
                "fr" => "French".into(),
                "ru" => "Russians".into(),
                other => other.into(),
            }
        }
        fn corps(&self, id: &str) -> String {
            if id == "fr-3" { "III Corps".into() } else { id.into() }
        }
        fn leader(&self, id: &str) -> String {
            if id == "ney" { "Marshal Ney".into() } else { id.into() }
        }
    }

    fn ev(kind: EventKind) -> Event {
        Event {
            seq: 0,
            turn: 2,
            side: Some("fr".into()),
            phase: crate::turn::Phase::MoraleRecovery,
            kind,
            because: Vec::new(),
        }
    }

    #[test]
    fn a_refusal_worded_with_ids_reads_with_names() {
        let ids = ["fr-9L", "ru-b"];
        assert_eq!(
            named("unit 'fr-9L': is not next to 'ru-b'", &Ids, &ids),
            "1st Bn 9e Léger is not next to ru-b",
            "ids the names know become names; the word unit and the quotes go"
        );
        assert_eq!(named("fr-9L: is 17 cm away", &Ids, &ids), "1st Bn 9e Léger: is 17 cm away");
        assert_eq!(named("fr-9Lx and 9L stay", &Ids, &ids), "fr-9Lx and 9L stay", "whole ids only");
        assert_eq!(named("no ids here", &Ids, &ids), "no ids here");
    }

    #[test]
    fn a_failed_check_says_what_was_rolled_and_needed() {
        let e = ev(EventKind::MoraleCheck {
            unit: "fr-9L".into(),
            cause: Cause::Recovery,
            morale: 32,
            modifier: -6,
            roll: 24,
            result: 14,
            passed: false,
            source: None,
        });
        let (cat, s) = sentence(&e, &Ids).unwrap_or((Category::Phase, String::new()));
        assert_eq!(cat, Category::Failure);
        assert_eq!(
            s,
            "1st Bn 9e Léger fails its morale check in the recovery segment (rolled 24; needed 43 or better: morale 32 at -6)"
        );
    }

    /// Without natural extremes a routed unit of morale 56 cannot pass, and
    /// the sentence says so rather than naming a roll that would not do.
    #[test]
    fn a_check_no_roll_can_pass_says_so() {
        struct Strict;
        impl Names for Strict {
            fn name(&self, id: &str) -> String {
                id.into()
            }
            fn side(&self, id: &str) -> String {
                id.into()
            }
            fn natural_extremes(&self) -> bool {
                false
            }
        }
        let e = ev(EventKind::MoraleCheck {
            unit: "fr-g".into(),
            cause: Cause::Recovery,
            morale: 56,
            modifier: -6,
            roll: 66,
            result: 56,
            passed: false,
            source: None,
        });
        let s = sentence(&e, &Strict).map(|x| x.1).unwrap_or_default();
        assert_eq!(
            s,
            "fr-g fails its morale check in the recovery segment (rolled 66; no roll passes: morale 56 at -6)"
        );
        let s = sentence(&e, &Ids).map(|x| x.1).unwrap_or_default();
        assert!(s.ends_with("(rolled 66; needed 66 or better: morale 56 at -6)"), "{s}");
    }

    #[test]
    fn contagion_names_its_source_and_moves_count_hexes() {
        let e = ev(EventKind::MoraleCheck {
            unit: "ru-1".into(),
            cause: Cause::Contagion,
            morale: 43,
            modifier: 0,
            roll: 55,
            result: 55,
            passed: true,
            source: Some("fr-9L".into()),
        });
        let s = sentence(&e, &Ids).map(|x| x.1).unwrap_or_default();
        assert_eq!(
            s,
            "ru-1 passes its morale check for contagion from 1st Bn 9e Léger (rolled 55; needed 44 or better: morale 43)"
        );
        let path: Vec<Pos> = (0..11).map(|r| Pos::Hex([3, r])).collect();
        let m = ev(EventKind::Move {
            unit: "fr-9L".into(),
            reason: MoveReason::Rout,
            from: Pos::Hex([3, 0]),
            to: Pos::Hex([3, 10]),
            path,
        });
        assert_eq!(sentence(&m, &Ids).map(|x| x.1).as_deref(), Some("1st Bn 9e Léger routs 10 hexes to (3, 10)"));
    }

    #[test]
    fn free_space_moves_are_measured_in_centimetres() {
        let m = ev(EventKind::Move {
            unit: "fr-9L".into(),
            reason: MoveReason::Flight,
            from: Pos::Cm([0.0, 0.0]),
            to: Pos::Cm([30.0, 40.0]),
            path: vec![Pos::Cm([0.0, 0.0]), Pos::Cm([30.0, 40.0])],
        });
        assert_eq!(sentence(&m, &Ids).map(|x| x.1).as_deref(), Some("1st Bn 9e Léger flees 50 cm to (30, 40) cm"));
    }

    #[test]
    fn a_router_on_the_edge_routs_from_its_hex() {
        let m = ev(EventKind::Move {
            unit: "fr-9L".into(),
            reason: MoveReason::Rout,
            from: Pos::Hex([3, 9]),
            to: Pos::Hex([3, 9]),
            path: vec![Pos::Hex([3, 9])],
        });
        assert_eq!(sentence(&m, &Ids).map(|x| x.1).as_deref(), Some("1st Bn 9e Léger routs from (3, 9)"));
    }

    #[test]
    fn phases_and_losses_read_as_words() {
        let p = ev(EventKind::PhaseStart {});
        assert_eq!(sentence(&p, &Ids).map(|x| x.1).as_deref(), Some("Turn 2, French: morale recovery"));
        let s = ev(EventKind::Eliminated { unit: "fr-9L".into(), reason: EliminationReason::OffMap });
        assert_eq!(sentence(&s, &Ids).map(|x| x.0), Some(Category::Loss));
        assert!(sentence(&ev(EventKind::Final { units: vec![] }), &Ids).is_none());
    }

    #[test]
    fn losses_and_exits_count_increments() {
        let l = ev(EventKind::Losses { unit: "fr-9L".into(), lost: Lost::Increments { increments: 2, strength: 3 } });
        assert_eq!(sentence(&l, &Ids).map(|x| x.1).as_deref(), Some("1st Bn 9e Léger loses 2 increments (3 left)"));
        let x = ev(EventKind::Exited { unit: "fr-9L".into(), edge: crate::hex::Edge::North, increments: 1 });
        assert_eq!(
            sentence(&x, &Ids).map(|x| x.1).as_deref(),
            Some("1st Bn 9e Léger marches off the map by the north edge with 1 increment")
        );
        assert_eq!(unit_id(&x).as_deref(), Some("fr-9L"));
    }

    #[test]
    fn a_corps_breaks_and_a_leader_rides_by_name() {
        let b = ev(EventKind::CorpsBroken { corps: "fr-3".into(), army: "fr".into(), gone: 4, routed: 2 });
        assert_eq!(
            sentence(&b, &Ids),
            Some((Category::Failure, "III Corps breaks: 4 battalions gone, 2 routed".into()))
        );
        let one = ev(EventKind::CorpsBroken { corps: "ru-x".into(), army: "ru".into(), gone: 1, routed: 0 });
        assert_eq!(sentence(&one, &Ids).map(|x| x.1).as_deref(), Some("ru-x breaks: 1 battalion gone, 0 routed"));
        let j = ev(EventKind::LeaderJoined { leader: "ney".into(), unit: "fr-9L".into() });
        assert_eq!(sentence(&j, &Ids).map(|x| x.1).as_deref(), Some("Marshal Ney rides to 1st Bn 9e Léger"));
        assert_eq!(unit_id(&j).as_deref(), Some("fr-9L"));
    }

    #[test]
    fn the_game_over_says_who_won_and_how() {
        let won = |winner: Option<&str>, decisive| {
            ev(EventKind::GameOver { winner: winner.map(Into::into), decisive, points: vec![3, 1], detail: vec![] })
        };
        let say = |e: &Event| sentence(e, &Ids).map(|x| x.1).unwrap_or_default();
        assert_eq!(
            say(&won(Some("fr"), true)),
            "The battle is over: outright victory for French, the enemy army broke"
        );
        assert_eq!(say(&won(Some("ru"), false)), "The battle is over: victory for Russians on points");
        assert_eq!(say(&won(None, false)), "The battle is over: a draw");
    }

    #[test]
    fn the_game_over_card_lists_points_detail_and_summary() {
        let sides = ["French".to_owned(), "Russians".to_owned()];
        let detail = vec!["French: 2 for the village".to_owned()];
        let (title, body) =
            game_over_card(Some("fr"), false, &[2, 1], &detail, &sides, &Ids, Some("Losses\n  French: 1 lost\n"));
        assert_eq!(title, "Victory: French");
        assert_eq!(
            body,
            "Won on points.\n\nFrench: 2 points\nRussians: 1 point\n\n  French: 2 for the village\n\nLosses\n  French: 1 lost"
        );
        let (title, body) = game_over_card(Some("ru"), true, &[0, 0], &[], &sides, &Ids, None);
        assert_eq!(title, "Victory: Russians");
        assert!(body.starts_with("Won outright — the enemy army broke.\n"), "{body}");
        let (title, _) = game_over_card(None, false, &[1, 1], &[], &sides, &Ids, None);
        assert_eq!(title, "A draw");
    }
}
