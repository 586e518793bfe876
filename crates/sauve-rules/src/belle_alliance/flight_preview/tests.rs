//! The flight preview read against the rule book (docs/rules.md 2.2, 2.3)
//! and against the flight the engine then makes on the same table.

use super::*;
use crate::belle_alliance::geometry::bearing_of;
use crate::belle_alliance::testing::{table_of, table_on, unit};
use crate::scenario::{Scenario, Shock};
use crate::terrain::Arm;

fn preview(s: &Scenario, t: &Table, u: usize) -> FlightPreview {
    match flight_preview(&FsCtx::new(s), t, u, None) {
        Some(p) => p,
        None => panic!("a preview of unit {u}"),
    }
}

/// Degrees between the flight's line (start to end) and `bearing`.
fn off_bearing(p: &FlightPreview, bearing: f32) -> f32 {
    let (a, b) = (p.start(), p.end());
    let d = (bearing_of(b.0 - a.0, b.1 - a.1) - bearing).rem_euclid(360.0);
    d.min(360.0 - d)
}

/// A flight's path and the friends it tested as (index, modifier, carried
/// along).
type Flown = (Vec<(f32, f32)>, Vec<(usize, i32, bool)>);

/// What the engine does when `u` is shocked into FU by `cause` on this
/// table with these 3d6 totals: the path of its flight and the friends it
/// tested, as (index, modifier, carried along).
fn engine_flight(s: &Scenario, t: &Table, u: usize, cause: usize, rolls: &[u32]) -> Flown {
    let ctx = FsCtx::new(s);
    let mut table = t.clone();
    let mut engine = FsEngine::new(&ctx, &table, BroadPhaseKind::Grid);
    let mut log = EventLog::default();
    let mut dice = Dice::new(1, rolls.to_vec());
    engine.apply_shock(&ctx, &mut table, &mut log, &Shock { turn: 1, unit: u, to: State::FU, cause: Some(cause) }, 1);
    engine.resolve(&ctx, &mut table, &mut dice, &mut log, 1);
    let mut path = Vec::new();
    let mut tests = Vec::new();
    for e in &log.events {
        match &e.kind {
            EventKind::Move { unit, reason: MoveReason::Flight, path: p, .. }
                if *unit == t.units[u].id && path.is_empty() =>
            {
                path = p.iter().filter_map(|q| if let Pos::Cm([x, y]) = *q { Some((x, y)) } else { None }).collect();
            }
            EventKind::MoraleCheck { unit, cause: Cause::CarryAlong, modifier, passed, .. } => {
                tests.push((t.index_of(unit).unwrap_or(usize::MAX), *modifier, !passed));
            }
            _ => {}
        }
    }
    (path, tests)
}

/// 2.2.2: a unit fleeing from an enemy to its north goes south, within 45
/// degrees of the line from the enemy, its whole march on open ground; the
/// nearest enemy is taken as the cause and the preview says so.
#[test]
fn a_unit_fleeing_from_an_enemy_to_its_north_goes_south_within_45_degrees() {
    let (s, t) = table_of(vec![
        unit("a1", 0, Arm::Infantry, 100.0, 100.0, 0.0),
        unit("b1", 1, Arm::Infantry, 100.0, 40.0, 180.0),
        unit("b2", 1, Arm::Infantry, 20.0, 20.0, 180.0),
    ]);
    let p = preview(&s, &t, 0);
    assert_eq!(p.whence, Whence::Enemy { unit: 1, nearest: true }, "the nearer enemy is the cause");
    assert!(!p.fleeing);
    assert_eq!(p.start(), (100.0, 100.0));
    assert!(off_bearing(&p, 180.0) <= 45.0 + 1e-3, "{:?}", p.path);
    assert!((p.fled_cm() - 20.0).abs() < 1e-3, "an infantry flight march of 20 cm: {:?}", p.path);
    assert_eq!(p.march_cm, 20.0);
    assert_eq!(p.stopped, None, "nothing in the way");
    assert!(p.carried.is_empty(), "no friend in the way");
    // An enemy line straight behind: the unit slants off, still within 45.
    let (s, t) = table_of(vec![
        unit("a1", 0, Arm::Infantry, 100.0, 100.0, 0.0),
        unit("b1", 1, Arm::Infantry, 100.0, 40.0, 180.0),
        FsUnit { figures: 12, ..unit("b2", 1, Arm::Infantry, 100.0, 115.0, 0.0) },
    ]);
    let p = preview(&s, &t, 0);
    assert_eq!(p.whence, Whence::Enemy { unit: 2, nearest: true }, "the enemy behind is nearer");
    let p = flight_preview(&FsCtx::new(&s), &t, 0, Some(1)).expect("a preview");
    assert_eq!(p.whence, Whence::Enemy { unit: 1, nearest: false }, "the cause asked for");
    let off = off_bearing(&p, 180.0);
    assert!(off > 1.0 && off <= 45.0 + 1e-3, "slanted within the cone: {off}");
    assert_eq!(engine_flight(&s, &t, 0, 1, &[]).0, p.path, "the engine's own flight");
}

/// 2.2.4: with no enemy to flee from, the line is free: towards the unit's
/// own rear edge (side "a" has its rear to the south).
#[test]
fn with_no_enemy_the_flight_heads_for_its_own_rear() {
    let (s, t) = table_of(vec![unit("a1", 0, Arm::Cavalry, 100.0, 60.0, 0.0)]);
    let p = preview(&s, &t, 0);
    assert_eq!(p.whence, Whence::Free);
    assert!(off_bearing(&p, 180.0) < 1e-3 && (p.fled_cm() - 40.0).abs() < 1e-3, "40 cm of horse: {:?}", p.path);
}

/// 2.2.6: a river across the whole way stops the flight at its bank (the
/// longest line in the cone is then the 45-degree slant); a single river
/// cell straight behind is skirted by a slanted line of the whole march.
#[test]
fn a_river_stops_the_flight_or_is_skirted_as_the_rules_say() {
    let ctx_rows = |cells: &[(usize, usize)]| {
        let mut rows = vec![".".repeat(20); 20];
        for &(c, r) in cells {
            rows[r].replace_range(c..=c, "~");
        }
        rows
    };
    let narrow = || FsUnit { figures: 8, ..unit("a1", 0, Arm::Infantry, 105.0, 95.0, 0.0) };
    let enemy = || unit("b1", 1, Arm::Infantry, 105.0, 40.0, 180.0);
    // Row 11 (y 110 to 120) is river from edge to edge.
    let across: Vec<(usize, usize)> = (0..20).map(|c| (c, 11)).collect();
    let (s, t) = table_on(ctx_rows(&across), vec![narrow(), enemy()]);
    let p = preview(&s, &t, 0);
    assert_eq!(p.stopped, Some(Obstacle::Ground(Terrain::River)), "{:?}", p.path);
    assert!(p.fled_cm() < 20.0 - 1.0, "short of its march: {:?}", p.path);
    assert!(p.square.aabb().3 <= 110.0 + 1e-3, "the square ends on this bank: {:?}", p.square);
    assert!(off_bearing(&p, 180.0) <= 45.0 + 1e-3);
    assert_eq!(engine_flight(&s, &t, 0, 1, &[]).0, p.path, "the engine's own flight");
    // One river cell (column 10, row 11) right behind: straight south it
    // would stop after 13 cm, so the unit slants past it for all 20.
    let (s, t) = table_on(ctx_rows(&[(10, 11)]), vec![narrow(), enemy()]);
    let p = preview(&s, &t, 0);
    assert_eq!(p.stopped, None, "{:?}", p.path);
    assert!((p.fled_cm() - 20.0).abs() < 1e-3, "the whole march: {:?}", p.path);
    let off = off_bearing(&p, 180.0);
    assert!(off > 1.0 && off <= 45.0 + 1e-3, "skirted within the cone: {off}");
    assert_eq!(engine_flight(&s, &t, 0, 1, &[]).0, p.path, "the engine's own flight");
}

/// 2.3: a friend in the path is listed with its chance to be carried along
/// as the 3d6 count says: 3d6 + valour + size modifier of 10 or less (108
/// of the 216 rolls for an equal friend, 20 for one twice the size, which
/// adds 4), shaken into U on 11 or 12 (house default); the paths match the
/// engine's flight when it rolls 18 and 3.
#[test]
fn a_friend_in_the_path_is_listed_with_its_3d6_chance() {
    let carry = |figures| {
        table_of(vec![
            unit("a1", 0, Arm::Infantry, 100.0, 100.0, 0.0),
            FsUnit { figures, ..unit("a2", 0, Arm::Infantry, 100.0, 112.0, 0.0) },
            unit("b1", 1, Arm::Infantry, 100.0, 40.0, 180.0),
        ])
    };
    let (s, t) = carry(24);
    let p = preview(&s, &t, 0);
    assert_eq!(p.carried.len(), 1, "{:?}", p.carried);
    let r = &p.carried[0];
    assert_eq!((r.unit, r.at, r.modifier), (1, (100.0, 112.0), 0));
    assert_eq!(r.fails, Chance { ways: 1 + 3 + 6 + 10 + 15 + 21 + 25 + 27, outcomes: 216 });
    assert_eq!(r.fails.ways, 108, "half the rolls");
    assert_eq!(r.shaken, Chance { ways: 27 + 25, outcomes: 216 }, "11 and 12");
    assert!((r.overall - 0.5).abs() < 1e-12);
    let (held, tests) = engine_flight(&s, &t, 0, 2, &[18]);
    assert_eq!((held, tests), (p.path.clone(), vec![(1, 0, false)]), "18: it passes through");
    let (carried, tests) = engine_flight(&s, &t, 0, 2, &[3]);
    assert_eq!((carried, tests), (r.path_if_carried.clone(), vec![(1, 0, true)]), "3: carried along");
    assert_ne!(p.path, r.path_if_carried, "carried along, it stops in contact and follows");
    let (s, t) = carry(48);
    let r = &preview(&s, &t, 0).carried[0];
    assert_eq!(r.modifier, 4, "twice the figures of the fleeing unit");
    assert_eq!(r.fails.ways, 1 + 3 + 6 + 10, "3d6 of 6 or less");
    // A friend already in U is never shaken into it.
    let (s, mut t) = carry(24);
    t.units[1].state = State::U;
    assert_eq!(preview(&s, &t, 0).carried[0].shaken.ways, 0);
}

/// 2.3: a second friend is met only if the first is carried along; its
/// chance all told is the product, and its size modifier counts the
/// figures of the whole fleeing mass, as the engine's test does.
#[test]
fn a_friend_further_on_is_met_only_if_the_first_is_carried_along() {
    let (s, t) = table_of(vec![
        unit("a1", 0, Arm::Infantry, 100.0, 100.0, 0.0),
        unit("a2", 0, Arm::Infantry, 100.0, 112.0, 0.0),
        unit("a3", 0, Arm::Infantry, 100.0, 126.0, 0.0),
        unit("b1", 1, Arm::Infantry, 100.0, 40.0, 180.0),
    ]);
    let p = preview(&s, &t, 0);
    let ids: Vec<usize> = p.carried.iter().map(|r| r.unit).collect();
    assert_eq!(ids, vec![1, 2], "{:?}", p.carried);
    let second = &p.carried[1];
    assert_eq!(second.modifier, -4, "a mass of 48 figures is twice its 24");
    assert_eq!(second.fails.ways, 216 - 10 - 6 - 3 - 1, "3d6 - 4 of 10 or less: all but 15 or more");
    assert!((second.overall - 0.5 * second.fails.fraction()).abs() < 1e-12);
    let (_, tests) = engine_flight(&s, &t, 0, 3, &[3, 3]);
    assert_eq!(tests, vec![(1, 0, true), (2, -4, true)], "the engine meets them in this order");
}

/// 2.2.6: the table's edge stops a flight; a unit near its rear edge flees
/// to the edge (along the longest line the cone allows) and stops there,
/// on the table: the engine never takes a fleeing unit off it.
#[test]
fn a_unit_near_its_rear_edge_flees_to_the_edge_and_stops_there() {
    let (s, t) = table_of(vec![
        unit("a1", 0, Arm::Infantry, 100.0, 190.0, 0.0),
        unit("b1", 1, Arm::Infantry, 100.0, 130.0, 180.0),
    ]);
    let p = preview(&s, &t, 0);
    assert_eq!(p.stopped, Some(Obstacle::Edge(Edge::South)), "{:?}", p.path);
    assert!(p.fled_cm() < 20.0, "short of its march: {:?}", p.path);
    let b = p.square.aabb();
    assert!(b.3 <= 200.0 + 1e-3 && b.3 > 198.0, "its square stands at the edge: {b:?}");
    assert_eq!(engine_flight(&s, &t, 0, 1, &[]).0, p.path, "the engine's own flight");
}

/// A unit in FU already stands (2.2.1): nothing puts it into FU again, so
/// it has no flight to show. A preview changes nothing on the table.
#[test]
fn a_fleeing_unit_stands_and_a_preview_changes_nothing() {
    let (s, mut t) = table_of(vec![
        unit("a1", 0, Arm::Infantry, 100.0, 100.0, 0.0),
        unit("a2", 0, Arm::Infantry, 100.0, 112.0, 0.0),
        unit("b1", 1, Arm::Infantry, 100.0, 40.0, 180.0),
    ]);
    let before = t.clone();
    let p = preview(&s, &t, 0);
    assert_eq!(t, before, "the table as it was");
    assert!(!p.fleeing && !p.carried.is_empty());
    t.units[0].state = State::FU;
    let p = preview(&s, &t, 0);
    assert!(p.fleeing && p.path == vec![(100.0, 100.0)] && p.carried.is_empty());
    assert!(flight_preview(&FsCtx::new(&s), &t, 9, None).is_none(), "no such unit");
}

/// The friends of `u` left fleeing, on average, when the engine puts `u`
/// to flight from `cause` and resolves everything that follows: every
/// 3d6 total of every carry-along test played out, each weighed by its
/// ways of 216.
fn engine_fled(s: &Scenario, t: &Table, u: usize, cause: usize) -> f64 {
    fn after(ctx: &FsCtx, t: &Table, u: usize, cause: usize, rolls: &[u32]) -> (Table, usize) {
        let mut table = t.clone();
        let mut engine = FsEngine::new(ctx, &table, BroadPhaseKind::Grid);
        let mut log = EventLog::default();
        let mut script = rolls.to_vec();
        script.resize(rolls.len() + 50, 18);
        let mut dice = Dice::new(1, script);
        let shock = Shock { turn: 1, unit: u, to: State::FU, cause: Some(cause) };
        engine.apply_shock(ctx, &mut table, &mut log, &shock, 1);
        engine.resolve(ctx, &mut table, &mut dice, &mut log, 1);
        let tests = log
            .events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::MoraleCheck { cause: Cause::CarryAlong, .. }))
            .count();
        (table, tests)
    }
    fn go(ctx: &FsCtx, t: &Table, u: usize, cause: usize, rolls: &mut Vec<u32>) -> f64 {
        let (table, tests) = after(ctx, t, u, cause, rolls);
        if tests <= rolls.len() {
            let side = t.units[u].side;
            return (0..t.units.len())
                .filter(|&f| f != u && t.units[f].side == side && table.units[f].state == State::FU)
                .count() as f64;
        }
        let mut sum = 0.0;
        for roll in 3..=18u32 {
            rolls.push(roll);
            sum += f64::from(THREE_D6[(roll - 3) as usize]) / 216.0 * go(ctx, t, u, cause, rolls);
            rolls.pop();
        }
        sum
    }
    go(&FsCtx::new(s), t, u, cause, &mut Vec::new())
}

/// 2.3: a friend the flight shakes into U retreats, and with no room to
/// retreat (a friend close behind it, or the fleeing unit itself come to
/// a stop there) it flees in turn and may carry others along. The friends
/// expected to flee all told count that way too, and are the engine's own
/// average over every 3d6 total of every test; the chain of `carried`
/// alone falls short of it. A friend in U already is never shaken, and
/// then the two agree.
#[test]
fn a_friend_shaken_with_no_room_to_retreat_is_counted_among_those_who_flee() {
    let with_rear = |rear_y: f32| {
        table_of(vec![
            unit("a1", 0, Arm::Infantry, 100.0, 100.0, 0.0),
            unit("a2", 0, Arm::Infantry, 100.0, 112.0, 0.0),
            unit("b1", 1, Arm::Infantry, 100.0, 40.0, 180.0),
            FsUnit { figures: 12, ..unit("a3", 0, Arm::Infantry, 100.0, rear_y, 0.0) },
        ])
    };
    let chain = |p: &FlightPreview| p.carried.iter().map(|r| r.overall).sum::<f64>();
    // Hemmed in: a3 stands just behind a2.
    let (s, t) = with_rear(118.0);
    let ctx = FsCtx::new(&s);
    let mut engine = FsEngine::new(&ctx, &t, BroadPhaseKind::Grid);
    assert!(engine.retreat_blocked(&ctx, &t, 1, Some((100.0, 100.0))), "a2 has no room to retreat");
    let p = preview(&s, &t, 0);
    let exact = engine_fled(&s, &t, 0, 2);
    assert!((p.fled_all_told - exact).abs() < 1e-9, "all told {} against the engine's {exact}", p.fled_all_told);
    assert!(
        p.fled_all_told > chain(&p) + 0.1,
        "the shaken friend's flight counts: {} > {}",
        p.fled_all_told,
        chain(&p)
    );
    // a3 far off: the lead, passing through a2, stops in its way.
    let (s, t) = with_rear(190.0);
    let p = preview(&s, &t, 0);
    let exact = engine_fled(&s, &t, 0, 2);
    assert!((p.fled_all_told - exact).abs() < 1e-9, "all told {} against the engine's {exact}", p.fled_all_told);
    assert!(p.fled_all_told > chain(&p) + 0.1, "{} > {}", p.fled_all_told, chain(&p));
    // a2 in U already: carried along or standing, never shaken.
    let (s, mut t) = with_rear(190.0);
    t.units[1].state = State::U;
    let p = preview(&s, &t, 0);
    assert!((p.fled_all_told - engine_fled(&s, &t, 0, 2)).abs() < 1e-9);
    assert!((p.fled_all_told - chain(&p)).abs() < 1e-9, "{} and {}", p.fled_all_told, chain(&p));
}
