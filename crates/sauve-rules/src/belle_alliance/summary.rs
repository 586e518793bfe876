//! The end-of-battle account of a free-space table, read off the event log:
//! flights, carry-along tests and what they did (docs/rules.md 2.3), and the
//! cascades of rout, each a flight that was not itself a carry-along and
//! every unit carried along, in turn, behind it.

use std::collections::BTreeMap;
use std::fmt;

use crate::events::{Cause, EventKind, EventLog, MoveReason};

use crate::report::{Cascade, CascadeTally, counted, write_cascades};
use crate::scenario::Scenario;
use crate::vocab::State;

/// Flights and spread of rout over a whole free-space battle.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FlightSummary {
    /// Flight marches made (a unit's own flight, not its share of another's).
    pub flights: u32,
    /// Carry-along tests rolled.
    pub carry_tests: u32,
    /// Of those, units carried along into FU.
    pub carried_along: u32,
    /// Of those, units shaken into U instead.
    pub shaken: u32,
    /// Reorganisation rolls, and how many left FU.
    pub reorganisation_rolls: u32,
    pub reorganised: u32,
    /// Largest cascade (1 for a lone flight, 0 when nobody fled).
    pub largest_cascade: u32,
    /// Cascades of two units or more, in the order they began.
    pub cascades: Vec<Cascade>,
}

/// Reads the flights and cascades off a free-space battle's log.
pub fn summary(scenario: &Scenario, log: &EventLog) -> FlightSummary {
    let index: BTreeMap<&str, usize> = scenario.units.iter().enumerate().map(|(i, u)| (u.id.as_str(), i)).collect();
    let n = scenario.units.len();
    let mut out = FlightSummary::default();
    // `leader[u]`: the unit leading the mass that u's latest failed
    // carry-along test met.
    let mut cascades = CascadeTally::new(n);
    let mut leader: Vec<Option<usize>> = vec![None; n];
    for e in &log.events {
        match &e.kind {
            EventKind::MoraleCheck { unit, cause: Cause::CarryAlong, passed, source, .. } => {
                out.carry_tests += 1;
                if let Some(&u) = index.get(unit.as_str()) {
                    leader[u] = (!passed).then(|| source.as_deref().and_then(|s| index.get(s).copied())).flatten();
                }
            }
            EventKind::MoraleCheck { cause: Cause::Reorganisation, .. } => out.reorganisation_rolls += 1,
            EventKind::Move { reason: MoveReason::Flight, .. } => out.flights += 1,
            EventKind::StateChange { unit, from, to, cause } => {
                let Some(&u) = index.get(unit.as_str()) else { continue };
                if *cause == Cause::Reorganisation && *from == State::FU {
                    out.reorganised += 1;
                }
                if *cause == Cause::CarryAlong && *to == State::U {
                    out.shaken += 1;
                }
                if *to != State::FU {
                    continue;
                }
                // Carried along: the cascade of the mass that carried it.
                // Any other way into FU (a shock, fire, a blocked retreat of
                // its own) begins a cascade, unless the unit was shaken into
                // U by one and is now fleeing from that same blow.
                let carried = *cause == Cause::CarryAlong && leader[u].is_some();
                if carried {
                    out.carried_along += 1;
                }
                let parent = match cause {
                    Cause::CarryAlong => leader[u].take().or(Some(u)).and_then(|m| cascades.of(m)),
                    _ => None,
                };
                let name = scenario.units.get(u).map_or(unit.as_str(), |s| s.name.as_str());
                cascades.fail(u, parent, (unit, name), *cause, e.turn);
            }
            _ => {}
        }
    }
    (out.largest_cascade, out.cascades) = cascades.finish();
    out
}

impl fmt::Display for FlightSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Flight and spread of rout")?;
        writeln!(
            f,
            "  {}; {}: {} carried along, {} shaken into U",
            counted(self.flights, "flight"),
            counted(self.carry_tests, "carry-along test"),
            self.carried_along,
            self.shaken
        )?;
        writeln!(f, "  {}, {} out of FU", counted(self.reorganisation_rolls, "reorganisation roll"), self.reorganised)?;
        write_cascades(f, self.largest_cascade, &self.cascades, "no flight carried a second unit along")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::Pos;

    fn scenario() -> Scenario {
        let units: String = ["a1", "a2", "a3", "a4"]
            .iter()
            .enumerate()
            .map(|(i, id)| {
                format!(
                    "(id: \"{id}\", side: \"a\", arm: Infantry, pos: ({}.0, 50.0), figures: 24, valour: 0),",
                    30 * i + 20
                )
            })
            .collect();
        let text = format!(
            "Scenario(format: 1, name: \"t\", mode: FreeSpace, sides: [(id: \"a\"), (id: \"b\")],
              map: (rows: [\"..........\", \"..........\", \"..........\"], cell_cm: 20.0),
              units: [{units} (id: \"b1\", side: \"b\", arm: Infantry, pos: (100.0, 10.0), figures: 24)])"
        );
        match crate::scenario::parse(&text, "t.ron") {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        }
    }

    fn log(kinds: Vec<EventKind>) -> EventLog {
        let mut log = EventLog::default();
        log.set_stamp(1, None, crate::turn::Phase::Shocks);
        for kind in kinds {
            log.push(kind);
        }
        log
    }

    fn fu(unit: &str, cause: Cause) -> EventKind {
        EventKind::StateChange { unit: unit.into(), from: State::Order, to: State::FU, cause }
    }

    fn test(unit: &str, source: &str, passed: bool) -> EventKind {
        EventKind::MoraleCheck {
            unit: unit.into(),
            cause: Cause::CarryAlong,
            morale: 10,
            modifier: 0,
            roll: if passed { 15 } else { 5 },
            result: if passed { 15 } else { 5 },
            passed,
            source: Some(source.into()),
        }
    }

    fn flight(unit: &str) -> EventKind {
        let p = vec![Pos::Cm([0.0, 0.0]), Pos::Cm([0.0, 20.0])];
        EventKind::Move { unit: unit.into(), reason: MoveReason::Flight, from: p[0], to: p[1], path: p }
    }

    #[test]
    fn a_chain_of_carry_alongs_is_one_cascade() {
        // a1 flees (shock), carries a2, the pair carries a3; a4 holds.
        let l = log(vec![
            fu("a1", Cause::Shock),
            test("a2", "a1", false),
            fu("a2", Cause::CarryAlong),
            test("a3", "a2", false),
            fu("a3", Cause::CarryAlong),
            test("a4", "a3", true),
            flight("a1"),
        ]);
        let s = summary(&scenario(), &l);
        assert_eq!((s.flights, s.carry_tests, s.carried_along, s.shaken), (1, 3, 2, 0));
        assert_eq!(s.largest_cascade, 3);
        assert_eq!(s.cascades.len(), 1);
        assert_eq!((s.cascades[0].root_name.as_str(), s.cascades[0].cause), ("a1", Cause::Shock));
        let text = s.to_string();
        assert!(text.contains("1 flight; 3 carry-along tests: 2 carried along, 0 shaken into U"), "{text}");
        assert!(text.contains("3 units, from a1 (Shock) on turn 1"), "{text}");
    }

    #[test]
    fn separate_flights_are_separate_cascades() {
        let l = log(vec![fu("a1", Cause::Shock), flight("a1"), fu("a4", Cause::Shock), flight("a4")]);
        let s = summary(&scenario(), &l);
        assert_eq!((s.flights, s.largest_cascade), (2, 1));
        assert!(s.cascades.is_empty());
        assert!(s.to_string().contains("largest: 1 unit\n"), "{s}");
    }
}
