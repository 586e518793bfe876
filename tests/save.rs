//! Save, load and replay (issue 6, part 5): a save resumes exactly, and the
//! save of a finished game is its replay.

mod common;

use std::sync::Arc;

use common::{rows, scenario_text, unit};
use sauve::hex::Dir;
use sauve::labataille::orders::Order;
use sauve::save::{self, SaveGame};
use sauve::sim::{self, Control, Controls, Seats, Simulation};
use sauve::turn::Phase;

fn battle_text() -> String {
    scenario_text(
        &rows(10, 10, &[(5, 2, 'w')]),
        &[
            unit("fr-a", "fr", "Infantry", 3, 6, 32, ""),
            unit("fr-b", "fr", "Infantry", 4, 6, 32, ""),
            unit("fr-h", "fr", "Cavalry", 6, 8, 32, ""),
            unit("ru-a", "ru", "Infantry", 3, 3, 32, ""),
            unit("ru-b", "ru", "Infantry", 4, 3, 32, ""),
        ],
        &[],
        "",
        3,
    )
}

fn new_battle(text: &str) -> Simulation {
    let s = common::load(text);
    let mut sim = Simulation::new(s, 11, vec![], Seats::Nobody);
    sim.app.world_mut().insert_resource(Controls(vec![Control::Player; 2]));
    sim
}

/// Steps until a phase waits for a player; returns it, or `None` at the end.
fn next_wait(sim: &mut Simulation) -> Option<(u32, usize, Phase)> {
    let w = sim.app.world_mut();
    while sim::step_phase(w) {
        if let Some((phase, _)) = sim::awaiting_orders(w) {
            let c = *w.resource::<sim::Clock>();
            return Some((c.turn, c.side.unwrap_or(9), phase));
        }
    }
    None
}

/// The same scripted player: advances, fires and melees when it can.
fn play_phase(sim: &mut Simulation, at: (u32, usize, Phase)) {
    let (turn, side, phase) = at;
    let mine = if side == 0 { ["fr-a", "fr-b"] } else { ["ru-a", "ru-b"] };
    let theirs = if side == 0 { ["ru-a", "ru-b"] } else { ["fr-a", "fr-b"] };
    let w = sim.app.world_mut();
    let orders: Vec<Order> = match phase {
        Phase::Movement if turn == 1 => {
            let dr = if side == 0 { -1 } else { 1 };
            vec![
                Order::Formation { unit: mine[0].into(), to: sauve::scenario::Formation::Column },
                Order::Move { unit: mine[0].into(), to: (3, if side == 0 { 6 } else { 3 } + dr) },
                // A turn to face, saved and replayed like any order.
                Order::Face { unit: mine[1].into(), facing: if side == 0 { Dir::NW } else { Dir::SE } },
            ]
        }
        Phase::OffensiveFire | Phase::DefensiveFire => {
            let firers = if phase == Phase::DefensiveFire { theirs } else { mine };
            let targets = if phase == Phase::DefensiveFire { mine } else { theirs };
            firers
                .iter()
                .flat_map(|f| {
                    targets.iter().map(move |t| Order::Fire { units: vec![f.to_string()], target: t.to_string() })
                })
                .collect()
        }
        Phase::Melee => vec![Order::Melee { units: vec![mine[1].into()], target: theirs[1].into() }],
        _ => vec![],
    };
    for o in orders {
        // Illegal ones (out of range, not adjacent) are simply refused.
        let _ = sim::issue_order(w, &o);
    }
}

#[test]
fn a_saved_game_resumes_exactly() {
    let text = battle_text();
    let mut a = new_battle(&text);
    // Play into turn 2 and save in the middle of a phase, orders given.
    let mut saved = None;
    while let Some(at) = next_wait(&mut a) {
        play_phase(&mut a, at);
        if at.0 == 2 && at.2 == Phase::Movement {
            saved = save::capture(a.app.world(), &text);
            break;
        }
        sim::end_phase(a.app.world_mut());
    }
    let saved = saved.expect("reached turn 2");
    assert!(!saved.orders.is_empty(), "orders were recorded");
    // Through the file format and back.
    let (loaded, scenario) = SaveGame::parse(&saved.to_ron(), "t.save.ron").expect("reads back");
    assert_eq!(loaded, saved);
    let mut b = new_battle(&text);
    save::restore(b.app.world_mut(), &loaded, Arc::new(scenario));
    assert_eq!(b.log().to_jsonl(), a.log().to_jsonl(), "the same log up to the save");
    assert_eq!(b.board(), a.board());
    // And the same game afterwards: same dice, same results.
    for sim in [&mut a, &mut b] {
        sim::end_phase(sim.app.world_mut());
        while let Some(at) = next_wait(sim) {
            play_phase(sim, at);
            sim::end_phase(sim.app.world_mut());
        }
    }
    assert!(a.clock().finished && b.clock().finished);
    assert_eq!(b.log().to_jsonl(), a.log().to_jsonl());
    assert!(a.log().events.iter().any(|e| matches!(e.kind, sauve::events::EventKind::Fire { .. })));
}

#[test]
fn the_save_of_a_finished_game_replays_it_exactly() {
    let text = battle_text();
    let mut a = new_battle(&text);
    while let Some(at) = next_wait(&mut a) {
        play_phase(&mut a, at);
        sim::end_phase(a.app.world_mut());
    }
    let saved = save::capture(a.app.world(), &text).expect("a battle");
    assert!(saved.at.finished);
    assert!(saved.to_ron().contains("Face("), "the turns are in the save");
    assert_eq!(a.log().events.iter().filter(|e| matches!(e.kind, sauve::events::EventKind::Facing { .. })).count(), 2);
    let (loaded, scenario) = SaveGame::parse(&saved.to_ron(), "t.save.ron").expect("reads back");
    let mut b = Simulation::new(Arc::new(scenario.clone()), 0, vec![], Seats::Watch);
    // The replay gives its own orders, whoever controls the sides.
    save::restore(b.app.world_mut(), &loaded, Arc::new(scenario));
    assert!(b.clock().finished);
    assert_eq!(b.log().to_jsonl(), a.log().to_jsonl());
}

#[test]
fn saves_are_written_whole_and_bad_ones_name_the_file() {
    let text = battle_text();
    let a = new_battle(&text);
    let saved = save::capture(a.app.world(), &text).expect("a battle");
    let dir = std::env::temp_dir().join(format!("sauve-save-test-{}", std::process::id()));
    let path = dir.join("slot1.save.ron");
    saved.write(&path).expect("writes");
    let written = std::fs::read_to_string(&path).expect("there");
    assert!(save::is_save(&written));
    assert!(std::fs::read_dir(&dir).expect("dir").all(|e| e.is_ok_and(|e| e.path() == path)), "no temporary left");
    assert_eq!(SaveGame::load(&path).expect("loads").0, saved);

    let newer = written.replacen("format: 1", "format: 99", 1);
    let e = SaveGame::parse(&newer, "slot1.save.ron").expect_err("a newer format");
    // Placed at the save's own `format` field, on its second line.
    assert!(e.to_string().starts_with("slot1.save.ron:2:5: error: format: unsupported save format 99"), "{e}");
    let broken = written.replacen("units: [", "units: [(id: \\\"x\\\"),", 1);
    let e = SaveGame::parse(&broken, "slot1.save.ron").expect_err("a broken scenario inside");
    assert!(e.to_string().contains("slot1.save.ron (scenario)"), "{e}");
    let e = SaveGame::parse("SaveGame(format: 1,", "cut.save.ron").expect_err("cut short");
    assert!(e.to_string().starts_with("cut.save.ron:1:"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game the AI plays, saved between two phases (as the window's watch
/// mode stands after each phase): it resumes there, before the next phase
/// begins, and plays on to the same game, rather than running past.
#[test]
fn a_game_saved_between_phases_resumes_there() {
    let text = battle_text();
    let s = common::load(&text);
    let mut whole = Simulation::new(s.clone(), 11, vec![], Seats::Watch);
    whole.run();
    let mut a = Simulation::new(s.clone(), 11, vec![], Seats::Watch);
    while a.clock().turn < 2 && a.step() {}
    let saved = save::capture(a.app.world(), &text).expect("a battle");
    assert!(!saved.begun, "saved between phases");
    let ron = saved.to_ron();
    assert!(ron.contains("begun: false"), "{ron}");
    let (back, s2) = SaveGame::parse(&ron, "between.save.ron").expect("reads back");
    assert_eq!(back, saved);
    let s2 = Arc::new(s2);
    let mut b = Simulation::new(s2.clone(), 0, vec![], Seats::Nobody);
    save::restore(b.app.world_mut(), &back, s2);
    assert_eq!(b.log().to_jsonl(), a.log().to_jsonl(), "resumed where it was saved");
    assert_eq!(b.clock(), a.clock());
    b.run();
    assert_eq!(b.log().to_jsonl(), whole.log().to_jsonl(), "and plays on to the same game");
    // A save taken in a phase writes no `begun` (old saves read as before).
    let mut c = Simulation::new(s.clone(), 11, vec![], Seats::Watch);
    c.run();
    let done = save::capture(c.app.world(), &text).expect("a battle");
    assert!(!done.to_ron().contains("begun"));
}

/// A free-space battle played by the AI: saved part-way, the save resumes
/// to the same log; the save of the finished game replays it (marches,
/// charges, volleys and melees in cm are orders like any other).
#[test]
fn a_table_battle_saves_resumes_and_replays_exactly() {
    let text = include_str!("../scenarios/ligny-1815.ron");
    let scenario = Arc::new(sauve::scenario::parse(text, "ligny-1815.ron").expect("Ligny reads"));
    let mut a = Simulation::new(scenario.clone(), 5, vec![], Seats::Watch);
    for _ in 0..40 {
        a.step();
    }
    let saved = save::capture(a.app.world(), text).expect("a battle");
    assert!(saved.orders.iter().any(|o| matches!(o.order, Order::March { .. })), "marches were recorded");
    let (loaded, parsed) = SaveGame::parse(&saved.to_ron(), "l.save.ron").expect("reads back");
    assert_eq!(loaded, saved);
    let mut b = Simulation::new(Arc::new(parsed.clone()), 0, vec![], Seats::Watch);
    save::restore(b.app.world_mut(), &loaded, Arc::new(parsed.clone()));
    assert_eq!(b.log().to_jsonl(), a.log().to_jsonl(), "the same log up to the save");
    assert_eq!(b.table(), a.table());
    a.run();
    b.run();
    assert_eq!(b.log().to_jsonl(), a.log().to_jsonl(), "the same game afterwards");
    let kinds = |sim: &Simulation, k: &str| sim.log().to_jsonl().lines().filter(|l| l.contains(k)).count();
    assert!(kinds(&a, "\"kind\":\"Fire\"") > 0 && kinds(&a, "\"kind\":\"GameOver\"") == 1);
    let done = save::capture(a.app.world(), text).expect("a battle");
    let (loaded, parsed) = SaveGame::parse(&done.to_ron(), "l.save.ron").expect("reads back");
    let mut c = Simulation::new(Arc::new(parsed.clone()), 0, vec![], Seats::Nobody);
    save::restore(c.app.world_mut(), &loaded, Arc::new(parsed));
    assert!(c.clock().finished);
    assert_eq!(c.log().to_jsonl(), a.log().to_jsonl(), "the finished game's save is its replay");
}
