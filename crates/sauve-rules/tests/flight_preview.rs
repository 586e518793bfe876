//! The flight preview against the flight itself: on the bundled tables,
//! for every unit, the previewed path is the path the engine's flight then
//! takes when the unit is shocked into FU by the same cause and the friends
//! it meets stand (rolls of 18), the path if the first friend is carried
//! along is the engine's when it rolls 3, and the friends and modifiers
//! are those the engine tests (docs/rules.md 2.2, 2.3).

use std::path::PathBuf;

use sauve_rules::belle_alliance::broad::BroadPhaseKind;
use sauve_rules::belle_alliance::engine::FsEngine;
use sauve_rules::belle_alliance::flight_preview::{FlightPreview, Whence, flight_preview};
use sauve_rules::belle_alliance::{FsCtx, Table};
use sauve_rules::dice::Dice;
use sauve_rules::events::{Cause, EventKind, EventLog, MoveReason, Pos};
use sauve_rules::scenario::{Scenario, Shock};
use sauve_rules::vocab::State;

const TABLES: [&str; 2] = ["ligny-1815", "plancenoit-1815"];

fn battle(name: &str) -> Scenario {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios").join(format!("{name}.ron"));
    match sauve_rules::scenario::load(&path) {
        Ok(s) => s,
        Err(e) => panic!("{name}: {e}"),
    }
}

/// A flight's path and the friends it tested as (index, modifier).
type Flown = (Vec<(f32, f32)>, Vec<(usize, i32)>);

/// The engine's flight of `unit` shocked into FU by `cause`, every carry
/// test rolled `rolls` in turn then 18: its path and the tests as (unit,
/// modifier).
fn flight(s: &Scenario, table: &Table, unit: usize, cause: Option<usize>, rolls: &[u32]) -> Flown {
    let ctx = FsCtx::new(s);
    let mut t = table.clone();
    let mut engine = FsEngine::new(&ctx, &t, BroadPhaseKind::Grid);
    let mut script = rolls.to_vec();
    script.resize(rolls.len() + t.units.len() + 1, 18);
    let mut dice = Dice::new(9, script);
    let mut log = EventLog::default();
    engine.apply_shock(&ctx, &mut t, &mut log, &Shock { turn: 1, unit, to: State::FU, cause }, 1);
    engine.resolve(&ctx, &mut t, &mut dice, &mut log, 1);
    let id = &table.units[unit].id;
    let mut path = Vec::new();
    let mut tests = Vec::new();
    for e in &log.events {
        match &e.kind {
            EventKind::Move { unit: u, reason: MoveReason::Flight, path: p, .. } if u == id && path.is_empty() => {
                path = p.iter().filter_map(|q| if let Pos::Cm([x, y]) = *q { Some((x, y)) } else { None }).collect();
            }
            // Only the first flight's tests, logged before its moves: a
            // retreat it forces may end in a flight with tests of its own.
            EventKind::MoraleCheck { unit: u, cause: Cause::CarryAlong, modifier, .. } if path.is_empty() => {
                tests.push((table.index_of(u).unwrap_or(usize::MAX), *modifier));
            }
            _ => {}
        }
    }
    (path, tests)
}

fn cause_of(p: &FlightPreview) -> Option<usize> {
    match p.whence {
        Whence::Enemy { unit, .. } => Some(unit),
        Whence::Free => None,
    }
}

#[test]
fn every_units_previewed_flight_is_the_engines_on_the_bundled_tables() {
    let mut friends = 0;
    for name in TABLES {
        let s = battle(name);
        let ctx = FsCtx::new(&s);
        let table = Table::from_scenario(&s);
        for u in 0..table.units.len() {
            let Some(p) = flight_preview(&ctx, &table, u, None) else { panic!("{name}: no preview of {u}") };
            assert_eq!(p.path.first(), Some(&(table.units[u].x, table.units[u].y)), "{name} {u}: starts at the unit");
            let (path, tests) = flight(&s, &table, u, cause_of(&p), &[]);
            assert_eq!(path, p.path, "{name} {u}: the friends stand");
            if let Some(first) = p.carried.first() {
                friends += 1;
                assert_eq!(tests.first(), Some(&(first.unit, first.modifier)), "{name} {u}: the first friend met");
                assert_eq!(table.units[first.unit].side, table.units[u].side, "{name} {u}: a friend");
                if first.fails.ways > 0 {
                    let (carried, tests) = flight(&s, &table, u, cause_of(&p), &[3]);
                    assert_eq!(carried, first.path_if_carried, "{name} {u}: the first friend carried along");
                    let second = p.carried.get(1).map(|r| (r.unit, r.modifier));
                    assert_eq!(tests.get(1).copied(), second, "{name} {u}: the friend met next");
                }
            } else {
                assert!(tests.is_empty(), "{name} {u}: the engine tested {tests:?}");
            }
        }
    }
    assert!(friends > 0, "some flight on the bundled tables meets a friend");
}
