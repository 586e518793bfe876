//! Victory, corps morale and the end-of-game summary on the bundled 1813
//! battles: every unit answers to one corps, nobody starts beaten, and the
//! summary after a headless battle agrees with the event log; and the AI
//! scores a scenario's exits.

use std::path::Path;
use std::sync::Arc;

use sauve::events::EventKind;
use sauve::labataille::Board;
use sauve::labataille::victory::{
    army_broken, corps_status, exit_tally, initial_holders, score, summary, update_holders,
};
use sauve::scenario::{Scenario, load, parse};
use sauve::sim::{Seats, Simulation};

const BATTLES: [&str; 3] = ["grossbeeren-1813.ron", "hagelberg-1813.ron", "dennewitz-1813.ron"];

fn bundled(name: &str) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios").join(name);
    load(&path).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_unit_answers_to_exactly_one_corps_and_no_army_starts_broken() {
    for name in BATTLES {
        let s = bundled(name);
        for u in 0..s.units.len() {
            let n = s.corps.iter().filter(|c| c.units.contains(&u)).count();
            assert_eq!(n, 1, "{name}: unit {} is in {n} corps", s.units[u].id);
        }
        for side in 0..s.sides.len() {
            assert!(s.corps_of_side(side).count() >= 2, "{name}: side {side} has fewer than two corps");
            assert!(!s.leaders.iter().all(|l| l.side != side), "{name}: side {side} has no leader");
        }
        let board = Board::from_scenario(&s);
        assert!(corps_status(&s, &board).iter().all(|c| !c.broken), "{name}");
        assert!((0..2).all(|side| !army_broken(&s, &board, side)), "{name}");
        assert!(!s.objectives.is_empty(), "{name}");
    }
}

#[test]
fn the_summary_after_a_battle_agrees_with_the_event_log() {
    for name in BATTLES {
        let s = Arc::new(bundled(name));
        let mut sim = Simulation::new(s.clone(), s.seed, Vec::new(), Seats::Nobody);
        sim.run();
        let board = sim.board();
        let log = sim.log().clone();
        let sum = summary(&s, &board, &log);

        let count = |kind: fn(&EventKind) -> Option<&str>, side: usize| {
            log.events
                .iter()
                .filter_map(|e| kind(&e.kind))
                .filter(|id| s.unit_index(id).is_some_and(|u| s.units[u].side == side))
                .count() as u32
        };
        for side in 0..2 {
            let surrendered = count(|k| if let EventKind::Surrendered { unit } = k { Some(unit) } else { None }, side);
            assert_eq!(sum.sides[side].surrendered, surrendered, "{name}");
        }
        assert!(sum.cascades.iter().all(|c| c.size >= 2 && c.size <= sum.largest_cascade), "{name}");
        // The scripted shocks rout someone on each side's turn 1 or 2.
        assert!(sum.sides.iter().map(|x| x.routed).sum::<u32>() >= 1, "{name}");

        let mut holders = initial_holders(&s);
        update_holders(&s, &board, &mut holders);
        let start: Vec<u32> = s.units.iter().map(|u| u.strength).collect();
        let sc = score(&s, &board, &holders, &exit_tally(&s), &start);
        assert_eq!(sc.points.len(), 2);
        let text = format!("{sum}{sc}");
        assert!(text.contains("Losses") && text.contains("Cascades") && text.contains("Score"), "{text}");
    }
}

#[test]
fn the_ai_marches_off_by_an_exit_and_its_side_scores_the_points() {
    // The French exit is the north edge, 3 points an increment. Three
    // French battalions stand on it: one free to go, one holding an
    // objective there and one disordered (which falls back along the edge
    // rather than leave by order).
    let rows = format!("\"{}\",", ".".repeat(12)).repeat(12);
    let text = format!(
        r#"Scenario(format: 1, name: "exit", turns: 1, seed: 1,
             sides: [(id: "fr", name: "French", rear: South, control: Ai),
                     (id: "ru", name: "Russians", rear: North, control: Ai)],
             map: (rows: [{rows}]),
             units: [
                 (id: "fr-free", side: "fr", arm: Infantry, at: (2, 0), morale: 44, strength: 4),
                 (id: "fr-hold", side: "fr", arm: Infantry, at: (6, 0), morale: 44, strength: 4),
                 (id: "fr-shaken", side: "fr", arm: Infantry, at: (9, 0), morale: 44, strength: 4, state: Disordered),
                 (id: "ru", side: "ru", arm: Infantry, at: (6, 10), morale: 44, strength: 4),
             ],
             objectives: [(at: (6, 0), points: 2, held_by: "fr")],
             exits: [(side: "fr", edge: North, points: 3)])"#
    );
    let s = Arc::new(parse(&text, "exit.ron").unwrap_or_else(|e| panic!("{e}")));
    let mut sim = Simulation::new(s.clone(), s.seed, Vec::new(), Seats::Watch);
    sim.run();
    let exited: Vec<(&str, u32)> = sim
        .log()
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Exited { unit, increments, .. } => Some((unit.as_str(), *increments)),
            _ => None,
        })
        .collect();
    assert_eq!(exited, [("fr-free", 4)], "only the unit nothing holds back leaves");
    let (points, detail) = sim
        .log()
        .events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::GameOver { points, detail, .. } => Some((points.clone(), detail.clone())),
            _ => None,
        })
        .expect("the battle ends");
    assert!(detail.iter().any(|d| d == "French: 4 increments off the North edge (+12)"), "{detail:?}");
    assert_eq!(points[0], 12 + 2, "the exit and the objective: {detail:?}");
    let board = sim.board();
    let at = |id: &str| board.units[board.index_of(id).expect("unit")].at.map(|o| (o.c, o.r));
    assert_eq!(at("fr-free"), None);
    assert_eq!(at("fr-hold"), Some((6, 0)), "the objective's garrison stays");
}
