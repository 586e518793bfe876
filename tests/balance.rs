//! The bundled 1813 battles, played by the AI on both sides: every game ends,
//! neither side wins every seed, a seed replays to the same log, and combat
//! (not only the scripted shocks) makes units check morale and rout.
//!
//! Win counts with the tuned scenarios (`sauve simulate FILE --seed N`),
//! `normal` on both sides as of 2026-12-07 (docs/benchmarks.md, "Balance"):
//!
//! | scenario | seeds 1..=10 | seeds 1..=40 |
//! |---|---|---|
//! | grossbeeren-1813 | Prussians 8, French 2 | Prussians 31, French 9 |
//! | hagelberg-1813 | Allies 8, French 2 | Allies 25, French 15 |
//! | dennewitz-1813 | Allies 6, French 4 | Allies 20, French 20 |

use std::path::Path;
use std::sync::Arc;

use sauve::events::{Cause, EventKind};

use sauve::sim::{Seats, Simulation};
use sauve::vocab::State;

const SCENARIOS: [&str; 3] =
    ["scenarios/grossbeeren-1813.ron", "scenarios/hagelberg-1813.ron", "scenarios/dennewitz-1813.ron"];
const SEEDS: std::ops::RangeInclusive<u64> = 1..=10;

fn play(path: &str, seed: u64) -> Simulation {
    let scenario = sauve::scenario::load(Path::new(path)).unwrap_or_else(|e| panic!("{path}: {e:?}"));
    let mut sim = Simulation::new(Arc::new(scenario), seed, vec![], Seats::Watch);
    sim.run();
    sim
}

#[test]
fn each_side_wins_some_seeds_and_combat_routs_units() {
    for path in SCENARIOS {
        let sides: Vec<String> = sauve::scenario::load(Path::new(path))
            .unwrap_or_else(|e| panic!("{path}: {e:?}"))
            .sides
            .iter()
            .map(|s| s.id.clone())
            .collect();
        let mut wins = vec![0; sides.len()];
        let mut draws = 0;
        let (mut combat_checks, mut routs) = (0, 0);
        for seed in SEEDS {
            let sim = play(path, seed);
            let events = &sim.log().events;
            assert!(
                matches!(events.last().map(|e| &e.kind), Some(EventKind::Final { .. })),
                "{path} seed {seed}: the game did not finish"
            );
            let winner = events
                .iter()
                .find_map(|e| match &e.kind {
                    EventKind::GameOver { winner, .. } => Some(winner.clone()),
                    _ => None,
                })
                .unwrap_or_else(|| panic!("{path} seed {seed}: no GameOver"));
            match winner {
                Some(w) => wins[sides.iter().position(|s| *s == w).expect("winner is a side")] += 1,
                None => draws += 1,
            }
            for e in events {
                match &e.kind {
                    EventKind::MoraleCheck { cause: Cause::Fire | Cause::Melee | Cause::Charge, .. } => {
                        combat_checks += 1
                    }
                    EventKind::StateChange { to: State::Routed, .. } => routs += 1,
                    _ => {}
                }
            }
        }
        println!("{path}: {sides:?} won {wins:?}, {draws} drawn, seeds {SEEDS:?}");
        for (side, n) in sides.iter().zip(&wins) {
            assert!(*n >= 1, "{path}: {side} never wins over seeds {SEEDS:?} (wins {wins:?}, {draws} drawn)");
        }
        assert!(combat_checks > 0, "{path}: fire, melee and charges never forced a morale check");
        assert!(routs > 0, "{path}: no unit ever routed");
    }
}

#[test]
fn a_seed_replays_to_the_same_log() {
    for path in SCENARIOS {
        let a = play(path, 3).log().to_jsonl();
        let b = play(path, 3).log().to_jsonl();
        assert!(!a.is_empty());
        assert!(a == b, "{path}: seed 3 played twice gave different logs");
    }
}

/// The 1815 tables played to their end by the free-space AI on both sides:
/// each side wins some of seeds 1 to 40 (`normal` on both sides as of
/// 2026-12-07, no melee fought whose loss would carry friends along:
/// Ligny: Prussians 31, French 7, 2 drawn; Plancenoit: French 22,
/// Prussians 16, 2 drawn),
/// and fire and melee, not only the scripted shocks, make units flee, each
/// flight running from the unit whose volley or melee broke it.
#[test]
fn both_sides_win_some_seeds_on_the_1815_tables_and_flights_run_from_their_cause() {
    for path in ["scenarios/ligny-1815.ron", "scenarios/plancenoit-1815.ron"] {
        let scenario = Arc::new(sauve::scenario::load(Path::new(path)).unwrap_or_else(|e| panic!("{path}: {e:?}")));
        let sides: Vec<String> = scenario.sides.iter().map(|s| s.id.clone()).collect();
        let mut wins = vec![0; sides.len()];
        let mut fought_flights = 0;
        for seed in 1..=40 {
            let mut sim = Simulation::new(scenario.clone(), seed, vec![], Seats::Watch);
            sim.run();
            let events = &sim.log().events;
            let winner = events.iter().find_map(|e| match &e.kind {
                EventKind::GameOver { winner, .. } => Some(winner.clone()),
                _ => None,
            });
            let winner = winner.unwrap_or_else(|| panic!("{path} seed {seed}: no GameOver"));
            if let Some(w) = winner {
                wins[sides.iter().position(|s| *s == w).expect("winner is a side")] += 1;
            }
            // A flight from a volley or a melee: its unit ends farther from
            // the centre of what broke it than it began.
            for e in events {
                let EventKind::Move { unit, reason: sauve::events::MoveReason::Flight, from, to, .. } = &e.kind else {
                    continue;
                };
                let broke = e
                    .because
                    .iter()
                    .map(|&b| &events[b as usize])
                    .find(|c| matches!(c.kind, EventKind::StateChange { cause: Cause::Fire | Cause::Melee, .. }));
                let Some(change) = broke else { continue };
                let cause = change.because.iter().map(|&b| &events[b as usize]).find_map(|c| match &c.kind {
                    EventKind::Fire { units, .. } => Some(units.clone()),
                    EventKind::Melee { attackers, defenders, .. } => {
                        Some(if attackers.contains(unit) { defenders.clone() } else { attackers.clone() })
                    }
                    _ => None,
                });
                let Some(cause) = cause else { continue };
                let at = |id: &str| {
                    // Where the cause stood when it broke the unit: its last
                    // move before the flight, or where the scenario put it.
                    let moved = events[..e.seq as usize].iter().rev().find_map(|x| match &x.kind {
                        EventKind::Move { unit, to, .. } if unit == id => Some(*to),
                        _ => None,
                    });
                    let start = scenario.units.iter().find(|u| u.id == id).and_then(|u| match u.place {
                        sauve::scenario::Place::Table { x, y } => Some(sauve::events::Pos::Cm([x, y])),
                        _ => None,
                    });
                    moved.or(start)
                };
                let xy = |p: &sauve::events::Pos| match *p {
                    sauve::events::Pos::Cm([x, y]) => (x, y),
                    sauve::events::Pos::Hex([c, r]) => (c as f32, r as f32),
                };
                let centres: Vec<(f32, f32)> = cause.iter().filter_map(|c| at(c)).map(|p| xy(&p)).collect();
                if centres.is_empty() {
                    continue;
                }
                let n = centres.len() as f32;
                let c = (centres.iter().map(|p| p.0).sum::<f32>() / n, centres.iter().map(|p| p.1).sum::<f32>() / n);
                let (f, t) = (xy(from), xy(to));
                let d = |p: (f32, f32)| (p.0 - c.0).hypot(p.1 - c.1);
                // Within 45 degrees of straight away, any move gains distance.
                // A flight blocked where it stood makes no way to check: its
                // flight square is only shifted clear of what blocked it,
                // back along its line by at most the square's side (2.2.6).
                let spec = scenario.units.iter().find(|u| u.id == *unit).expect("a unit of the scenario");
                let left = events[..e.seq as usize]
                    .iter()
                    .rev()
                    .find_map(|x| match &x.kind {
                        EventKind::Losses { unit: u, lost } if u == unit => Some(lost.counts().1),
                        _ => None,
                    })
                    .unwrap_or(spec.strength);
                let (side, _) = sauve::belle_alliance::footprint(
                    spec.arm,
                    left,
                    sauve::vocab::Formation::Flight,
                    &scenario.rules.belle_alliance,
                );
                if (t.0 - f.0).hypot(t.1 - f.1) < side.max(3.0) {
                    continue;
                }
                assert!(
                    d(t) > d(f),
                    "{path} seed {seed}: {unit} fled towards what broke it ({:?} from {f:?} to {t:?})",
                    cause
                );
                fought_flights += 1;
            }
        }
        println!("{path}: {sides:?} won {wins:?} of seeds 1..=40");
        for (side, n) in sides.iter().zip(&wins) {
            assert!(*n >= 1, "{path}: {side} never wins over seeds 1..=40 (wins {wins:?})");
        }
        assert!(fought_flights > 0, "{path}: fire and melee never made a unit flee");
    }
}
