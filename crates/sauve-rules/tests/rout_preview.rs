//! The rout preview against the rout itself: on the bundled battles the
//! previewed path, end and contagion checks are those the engine then
//! makes when the unit routs on the same board (rules 1.3, 1.4); the
//! chances are the d66 counts (rule 1.1); and a preview changes nothing.

use std::path::PathBuf;

use sauve_rules::dice::Dice;
use sauve_rules::events::{Cause, EventKind, EventLog, MoveReason, Pos};
use sauve_rules::hex::{Dir, Edge, Offset};
use sauve_rules::labataille::engine::{Ctx, Engine};
use sauve_rules::labataille::grid::Grid;
use sauve_rules::labataille::rout_preview::{Chance, RoutEnd, RoutPreview, preview_rout};
use sauve_rules::labataille::{Board, HexUnit, victory};
use sauve_rules::map::TerrainMap;
use sauve_rules::rules::{Rules, StackContagion};
use sauve_rules::scenario::{Control, Mode, Scenario, Shock, Side};
use sauve_rules::terrain::{Arm, Terrain};
use sauve_rules::vocab::State;

const HEX_BATTLES: [&str; 4] = ["cascade", "dennewitz-1813", "grossbeeren-1813", "hagelberg-1813"];

fn battle(name: &str) -> Scenario {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios").join(format!("{name}.ron"));
    match sauve_rules::scenario::load(&path) {
        Ok(s) => s,
        Err(e) => panic!("{name}: {e}"),
    }
}

/// Each unit's leader bonus, as the sim sets it before a phase.
fn leader_bonus(s: &Scenario, board: &Board) -> Vec<i32> {
    let attached = victory::initial_attachment(s);
    (0..board.units.len())
        .map(|u| victory::leader_bonus(s, board, &attached, u, s.rules.combat.leader_radius))
        .collect()
}

/// What the engine did when `unit` routed: the path of its rout move (only
/// its start if it surrendered), how it ended, and every contagion check it
/// caused as (unit, modifier, passed).
struct Routed {
    path: Vec<Pos>,
    end: RoutEnd,
    checks: Vec<(String, i32, bool)>,
}

fn rout_now(ctx: &Ctx, engine: &mut Engine, board: &mut Board, unit: usize, roll: u32) -> Routed {
    let id = board.units[unit].id.clone();
    let start = board.units[unit].at.map(Pos::from);
    let mut dice = Dice::new(7, vec![roll; 400]);
    let mut log = EventLog::default();
    engine.apply_shock(ctx, board, &mut dice, &mut log, &Shock { turn: 1, unit, to: State::Routed, cause: None });
    let mut path = start.into_iter().collect::<Vec<_>>();
    let mut end = RoutEnd::Full;
    let mut checks = Vec::new();
    for e in &log.events {
        match &e.kind {
            EventKind::Move { unit: u, reason: MoveReason::Rout, path: p, .. } if *u == id && path.len() == 1 => {
                path = p.clone();
            }
            EventKind::LeftMap { unit: u, edge, .. } if *u == id => {
                end = RoutEnd::OffMap { edge: *edge, recovers: true }
            }
            EventKind::Eliminated { unit: u, .. } if *u == id && matches!(end, RoutEnd::Full) => {
                end = RoutEnd::OffMap { edge: Edge::North, recovers: false };
            }
            EventKind::Surrendered { unit: u, .. } if *u == id => end = RoutEnd::Surrender,
            EventKind::MoraleCheck { unit: u, cause: Cause::Contagion, modifier, passed, source, .. }
                if source.as_deref() == Some(id.as_str()) =>
            {
                checks.push((u.clone(), *modifier, *passed));
            }
            _ => {}
        }
    }
    Routed { path, end, checks }
}

/// The edge is checked apart: the log names it only when the router recovers.
fn same_end(preview: RoutEnd, real: RoutEnd) -> bool {
    match (preview, real) {
        (RoutEnd::OffMap { edge: a, recovers: true }, RoutEnd::OffMap { edge: b, recovers: true }) => a == b,
        (RoutEnd::OffMap { recovers: a, .. }, RoutEnd::OffMap { recovers: b, .. }) => a == b,
        (a, b) => a == b,
    }
}

fn ids(board: &Board, p: &RoutPreview, all: bool) -> Vec<(String, i32)> {
    p.risks.iter().filter(|r| all || !r.after_top).map(|r| (board.units[r.unit].id.clone(), r.modifier)).collect()
}

/// The heart of it: for every unit of every bundled hex battle, the preview
/// is the rout that then happens on the same board and the same engine.
/// With every die a 11 every check fails, so every friend the preview names
/// checks; with every die a 66 every check passes, so under the house stack
/// rule only the stack tops check.
#[test]
fn the_previewed_rout_is_the_rout_then_made() {
    let (mut previews, mut passed_friends, mut after_top, mut ends) = (0, 0, 0, [0; 3]);
    for name in HEX_BATTLES {
        let s = battle(name);
        assert_eq!(s.mode, Mode::Hex);
        let grid = Grid::new(&s.map, &s.rules);
        let ctx = Ctx { grid: &grid, rules: &s.rules, sides: &s.sides };
        let board = Board::from_scenario(&s);
        for unit in 0..board.units.len() {
            if board.units[unit].at.is_none() {
                continue;
            }
            for roll in [11, 66] {
                let mut engine = Engine::new(&grid, &board);
                engine.bonus = leader_bonus(&s, &board);
                let Some(p) = preview_rout(&ctx, &mut engine, &board, unit) else {
                    panic!("{name}: no preview of {} on the board", board.units[unit].id)
                };
                let mut real_board = board.clone();
                let real = rout_now(&ctx, &mut engine, &mut real_board, unit, roll);
                let who = format!("{name}: {} (dice {roll})", board.units[unit].id);
                let previewed: Vec<Pos> = p.path.iter().map(|&o| Pos::from(o)).collect();
                assert_eq!(previewed, real.path, "{who}: path");
                assert!(same_end(p.end, real.end), "{who}: end {:?} against {:?}", p.end, real.end);
                let checked: Vec<(String, i32)> = real.checks.iter().map(|(u, m, _)| (u.clone(), *m)).collect();
                let expected = ids(&board, &p, roll == 11 || s.rules.contagion_stack == StackContagion::EachUnit);
                assert_eq!(checked, expected, "{who}: contagion checks (unit, modifier)");
                assert!(real.checks.iter().all(|c| c.2 == (roll == 66)), "{who}: every check went as its die");
                if roll == 11 {
                    previews += 1;
                    passed_friends += p.risks.len();
                    after_top += p.risks.iter().filter(|r| r.after_top).count();
                    ends[match p.end {
                        RoutEnd::Full => 0,
                        RoutEnd::OffMap { .. } => 1,
                        RoutEnd::Surrender => 2,
                    }] += 1;
                }
            }
        }
    }
    // Not a vacuous pass: many moves, many of them through friends.
    assert!(previews > 100, "{previews} previews");
    assert!(passed_friends > 20, "{passed_friends} friends passed in all");
    assert!(ends[0] > 50, "ends (full, off the map, surrender): {ends:?}");
    eprintln!("{previews} previews, {passed_friends} friends passed ({after_top} after a stack top), ends {ends:?}");
}

/// A routed unit that fails to recover near the enemy routs again in the
/// Morale Recovery Segment (rule 1.5) by the same rout move: the preview
/// of a unit already routed is where it then goes.
#[test]
fn a_router_that_fails_to_recover_goes_where_the_preview_said() {
    let s = battle("cascade");
    let grid = Grid::new(&s.map, &s.rules);
    let ctx = Ctx { grid: &grid, rules: &s.rules, sides: &s.sides };
    let mut board = Board::from_scenario(&s);
    let mut engine = Engine::new(&grid, &board);
    // The first-side unit nearest the enemy, well within the safe distance
    // (further off, a router walks to refuge instead).
    let near = |u: usize, engine: &mut Engine| {
        let at = board.units[u].at?;
        let d = engine.fields(&ctx, &board, 0)?.dist[grid.idx(at)];
        (board.units[u].side == 0).then_some((d, u))
    };
    let nearest = (0..board.units.len()).filter_map(|u| near(u, &mut engine)).min();
    let Some((d, unit)) = nearest else { panic!("no unit of the first side on the board") };
    assert!(u32::from(d) <= s.rules.safe_distance, "{} is {d} hexes from the enemy", board.units[unit].id);
    board.units[unit].state = State::Routed;
    let mut engine = Engine::new(&grid, &board);
    let Some(p) = preview_rout(&ctx, &mut engine, &board, unit) else { panic!("no preview") };
    // Every die a 11: the recovery check fails.
    let mut dice = Dice::new(3, vec![11; 100]);
    let mut log = EventLog::default();
    engine.recovery_segment(&ctx, &mut board, &mut dice, &mut log, 0);
    let id = board.units[unit].id.clone();
    let moved = log.events.iter().find_map(|e| match &e.kind {
        EventKind::Move { unit: u, reason: MoveReason::Rout, path, .. } if *u == id => Some(path.clone()),
        _ => None,
    });
    assert_eq!(moved, Some(p.path.iter().map(|&o| Pos::from(o)).collect()));
}

fn infantry(id: &str, side: usize, at: (i32, i32), morale: u8) -> HexUnit {
    let mut u =
        HexUnit::marching(id, side, Arm::Infantry, Offset::new(at.0, at.1), if side == 0 { Dir::N } else { Dir::S });
    u.morale = morale;
    u
}

fn two_sides() -> Vec<Side> {
    vec![
        Side {
            id: "fr".into(),
            name: "French".into(),
            rear: Edge::South,
            control: Control::Ai,
            aggression: 0.5,
            level: Default::default(),
        },
        Side {
            id: "ru".into(),
            name: "Russians".into(),
            rear: Edge::North,
            control: Control::Ai,
            aggression: 0.5,
            level: Default::default(),
        },
    ]
}

/// A router at (5, 3) with the enemy to the north, on a road straight south
/// (cheapest ground, rule 1.3 preference 2) through a stack of two friends
/// at (5, 5), a lone friend at (5, 7) and a disordered one at (5, 9).
fn road_board() -> (Grid, Board) {
    let mut rows = vec!["...........".to_string(); 20];
    for row in rows.iter_mut().skip(3) {
        row.replace_range(5..6, "r");
    }
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let map = TerrainMap::from_rows(&rows);
    let grid = Grid::new(&map, &Rules::default());
    let mut shaken = infantry("shaken", 0, (5, 9), 44);
    shaken.state = State::Disordered;
    let board = Board {
        units: vec![
            infantry("router", 0, (5, 3), 44),
            infantry("top", 0, (5, 5), 32),
            infantry("mate", 0, (5, 5), 44),
            infantry("lone", 0, (5, 7), 53),
            shaken,
            infantry("enemy", 1, (5, 1), 44),
        ],
    };
    (grid, board)
}

/// Rule 1.4 with the house stack rule: the top of a stack checks, the rest
/// only if it fails; a disordered friend does not check at all. The chances
/// are the d66 counts worked out by hand (rule 1.1), the leader's bonus
/// included.
#[test]
fn the_chances_are_the_d66_counts_and_the_stack_rule_multiplies_them() {
    let (grid, board) = road_board();
    let rules = Rules::default();
    assert_eq!(rules.contagion_stack, StackContagion::TopThenAll);
    let sides = two_sides();
    let ctx = Ctx { grid: &grid, rules: &rules, sides: &sides };
    let mut engine = Engine::new(&grid, &board);
    // A leader near the mate: +3.
    engine.bonus = vec![0, 0, 3, 0, 0, 0];
    let Some(p) = preview_rout(&ctx, &mut engine, &board, 0) else { panic!("no preview") };
    assert_eq!(p.end, RoutEnd::Full);
    assert_eq!(p.path.len(), 11, "ten hexes from the start: {:?}", p.path);
    assert!(p.path.iter().all(|h| h.c == 5), "down the road: {:?}", p.path);
    let got: Vec<(usize, Offset, i32, Chance, bool, Chance)> =
        p.risks.iter().map(|r| (r.unit, r.hex, r.modifier, r.fails, r.after_top, r.overall)).collect();
    let of36 = |ways| Chance { ways, outcomes: 36 };
    assert_eq!(
        got,
        vec![
            // Morale 32: 11-16, 21-26, 31, 32 fail.
            (1, Offset::new(5, 5), 0, of36(14), false, of36(14)),
            // Morale 44 with +3 needs a natural 42: the 19 results below fail,
            // and it checks only on the top's 14 failures in 36.
            (2, Offset::new(5, 5), 3, of36(19), true, Chance { ways: 14 * 19, outcomes: 36 * 36 }),
            // Morale 53: everything up to 53 fails, 11..53 is 27 results.
            (3, Offset::new(5, 7), 0, of36(27), false, of36(27)),
        ]
    );
    assert!((p.risks[1].overall.percent() - 100.0 * 266.0 / 1296.0).abs() < 1e-9);
}

/// The friends a rout is expected to rout as well: each friend's chance to
/// fail its contagion check, times, for foot, its chance to fail its
/// recovery check as a disordered unit (rules 1.4 and 1.5: -3, the leader's
/// bonus kept); a horse unit that fails routs at once. The chances are
/// the d66 counts worked out by hand (rule 1.1).
#[test]
fn the_friends_expected_to_rout_are_the_contagion_failures_that_do_not_recover() {
    let (grid, mut board) = road_board();
    let rules = Rules::default();
    let sides = two_sides();
    let ctx = Ctx { grid: &grid, rules: &rules, sides: &sides };
    let mut engine = Engine::new(&grid, &board);
    engine.bonus = vec![0, 0, 3, 0, 0, 0];
    let Some(p) = preview_rout(&ctx, &mut engine, &board, 0) else { panic!("no preview") };
    // Disordered, morale 32 needs 36 (17 of 36 fail); morale 44 with +3
    // and -3 needs 45 (22 fail); morale 53 needs 61 (30 fail).
    let foot = 14.0 / 36.0 * 17.0 / 36.0 + 266.0 / 1296.0 * 22.0 / 36.0 + 27.0 / 36.0 * 30.0 / 36.0;
    assert!((p.expected_routs(&ctx, &board) - foot).abs() < 1e-9, "{}", p.expected_routs(&ctx, &board));
    assert!(p.expected_routs(&ctx, &board) < p.expected_failures(), "some of the shaken rally");
    // The lone friend as horse: its failure is a rout.
    board.units[3].arm = Arm::Cavalry;
    let horse = 14.0 / 36.0 * 17.0 / 36.0 + 266.0 / 1296.0 * 22.0 / 36.0 + 27.0 / 36.0;
    assert!((p.expected_routs(&ctx, &board) - horse).abs() < 1e-9, "{}", p.expected_routs(&ctx, &board));
}

/// With `EachUnit` every good-order unit of a stack checks on its own.
#[test]
fn each_unit_of_a_stack_checks_on_its_own_when_the_rules_say_so() {
    let (grid, board) = road_board();
    let rules = Rules { contagion_stack: StackContagion::EachUnit, ..Rules::default() };
    let sides = two_sides();
    let ctx = Ctx { grid: &grid, rules: &rules, sides: &sides };
    let mut engine = Engine::new(&grid, &board);
    let Some(p) = preview_rout(&ctx, &mut engine, &board, 0) else { panic!("no preview") };
    let mate = p.risks.iter().find(|r| r.unit == 2).copied();
    let Some(mate) = mate else { panic!("the mate checks: {:?}", p.risks) };
    assert!(!mate.after_top);
    assert_eq!(mate.overall, Chance { ways: 22, outcomes: 36 });
    // And the engine agrees: with every die passing, both stack units check.
    let mut real = board.clone();
    let r = rout_now(&ctx, &mut engine, &mut real, 0, 66);
    let checked: Vec<&str> = r.checks.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(checked, ["top", "mate", "lone"]);
}

/// A router whose only way is off the map by an edge that takes routers
/// back recovers there; by another edge it is lost (rule 1.3, off-map).
/// Three rows of three hexes behind it leave no room for ten hexes.
#[test]
fn the_end_says_whether_the_edge_saves_or_loses_the_router() {
    let map = TerrainMap::filled(3, 5, Terrain::Clear);
    let board = Board { units: vec![infantry("router", 0, (1, 2), 44), infantry("enemy", 1, (1, 0), 44)] };
    let sides = two_sides();
    for (recovery, recovers) in [(vec![], false), (vec![Edge::South], true)] {
        let rules = Rules { off_map_recovery: recovery, ..Rules::default() };
        let grid = Grid::new(&map, &rules);
        let ctx = Ctx { grid: &grid, rules: &rules, sides: &sides };
        let mut engine = Engine::new(&grid, &board);
        let Some(p) = preview_rout(&ctx, &mut engine, &board, 0) else { panic!("no preview") };
        assert_eq!(p.end, RoutEnd::OffMap { edge: Edge::South, recovers });
        assert_eq!(p.last_hex(), None);
        let mut real = board.clone();
        let r = rout_now(&ctx, &mut engine, &mut real, 0, 66);
        assert_eq!(r.path, p.path.iter().map(|&o| Pos::from(o)).collect::<Vec<_>>());
        assert!(same_end(p.end, r.end), "{:?} against {:?}", p.end, r.end);
    }
}

/// Ringed by enemies a router has no legal step: it surrenders where it
/// stands, and a surrender is no move, so it shakes no friend (rule 1.3).
#[test]
fn a_router_with_no_way_out_surrenders_in_the_preview_as_in_the_game() {
    let map = TerrainMap::filled(7, 7, Terrain::Clear);
    let at = Offset::new(3, 3);
    let mut units = vec![infantry("router", 0, (3, 3), 44), infantry("friend", 0, (3, 3), 44)];
    for (i, d) in Dir::ALL.iter().enumerate() {
        let n = at.neighbour(*d);
        units.push(infantry(&format!("enemy{i}"), 1, (n.c, n.r), 44));
    }
    let board = Board { units };
    let rules = Rules::default();
    let grid = Grid::new(&map, &rules);
    let sides = two_sides();
    let ctx = Ctx { grid: &grid, rules: &rules, sides: &sides };
    let mut engine = Engine::new(&grid, &board);
    let Some(p) = preview_rout(&ctx, &mut engine, &board, 0) else { panic!("no preview") };
    assert_eq!((p.end, p.path.clone(), p.risks.len()), (RoutEnd::Surrender, vec![at], 0));
    let mut real = board.clone();
    let r = rout_now(&ctx, &mut engine, &mut real, 0, 11);
    assert_eq!((r.end, r.checks.len()), (RoutEnd::Surrender, 0));
    assert_eq!(real.units[0].state, State::Surrendered);
}

/// A preview leaves the board as it was and the game that follows exactly
/// as it would have gone: the same log, byte for byte, with or without
/// previews of every unit first.
#[test]
fn a_preview_changes_nothing_that_follows() {
    for name in HEX_BATTLES {
        let s = battle(name);
        let grid = Grid::new(&s.map, &s.rules);
        let ctx = Ctx { grid: &grid, rules: &s.rules, sides: &s.sides };
        let start = Board::from_scenario(&s);
        let shocked: Vec<usize> = (0..start.units.len()).filter(|&u| start.units[u].at.is_some()).step_by(5).collect();
        let play = |preview_first: bool| {
            let mut board = start.clone();
            let mut engine = Engine::new(&grid, &board);
            let mut dice = Dice::new(s.seed, Vec::new());
            let mut log = EventLog::default();
            for &u in &shocked {
                if preview_first {
                    let before = board.clone();
                    for v in 0..board.units.len() {
                        let _ = preview_rout(&ctx, &mut engine, &board, v);
                    }
                    assert_eq!(board, before, "{name}: a preview changed the board");
                }
                engine.apply_shock(
                    &ctx,
                    &mut board,
                    &mut dice,
                    &mut log,
                    &Shock { turn: 1, unit: u, to: State::Routed, cause: None },
                );
                let side = board.units[u].side;
                engine.recovery_segment(&ctx, &mut board, &mut dice, &mut log, side);
            }
            (log.to_jsonl(), board, dice.rolled())
        };
        let (plain, with) = (play(false), play(true));
        assert!(plain.0.lines().count() > shocked.len(), "{name}: something happened");
        assert_eq!(plain.0, with.0, "{name}: the log");
        assert_eq!(plain.1, with.1, "{name}: the board");
        assert_eq!(plain.2, with.2, "{name}: dice rolled");
    }
}

#[test]
fn no_preview_for_a_unit_off_the_board() {
    let (grid, mut board) = road_board();
    board.units[3].at = None;
    let rules = Rules::default();
    let sides = two_sides();
    let ctx = Ctx { grid: &grid, rules: &rules, sides: &sides };
    let mut engine = Engine::new(&grid, &board);
    assert_eq!(preview_rout(&ctx, &mut engine, &board, 3), None);
    assert_eq!(preview_rout(&ctx, &mut engine, &board, 99), None);
}
