//! Belle Alliance rules, clause by clause (docs/rules.md section 2), checked
//! through the event log of tiny free-space tables with scripted 3d6 totals.

mod common;

use common::*;
use sauve::belle_alliance::broad::BroadPhaseKind;
use sauve::belle_alliance::engine::FsEngine;
use sauve::belle_alliance::{FsCtx, Table};
use sauve::dice::Dice;
use sauve::events::EventLog;
use serde_json::Value;

fn xy(p: &Value) -> (f64, f64) {
    (p[0].as_f64().unwrap_or(f64::NAN), p[1].as_f64().unwrap_or(f64::NAN))
}

fn moves<'a>(log: &'a [Value], unit: &str) -> Vec<&'a Value> {
    for_unit(log, "Move", unit)
}

/// The carry-along tests, in order (morale checks with cause CarryAlong).
fn carry_tests(log: &[Value]) -> Vec<&Value> {
    of_kind(log, "MoraleCheck").into_iter().filter(|e| e["cause"] == "CarryAlong").collect()
}

fn final_state(log: &[Value], unit: &str) -> String {
    final_of(log, unit).0
}

fn final_pos(log: &[Value], unit: &str) -> (f64, f64) {
    let fin = log.iter().rev().find(|e| e["kind"] == "Final").expect("Final");
    let u = fin["units"].as_array().and_then(|us| us.iter().find(|u| u["id"] == unit)).expect("unit");
    xy(&u["at"])
}

fn length(mv: &Value) -> f64 {
    let (a, b) = (xy(&mv["from"]), xy(&mv["to"]));
    (b.0 - a.0).hypot(b.1 - a.1)
}

const A1_FLEES_FROM_B1: &str = "(turn: 1, unit: \"a1\", to: FU, cause: \"b1\")";

// --- 2.2.1-2.2.3 Flight: length, direction, parallel displacement ---------

#[test]
fn flight_is_a_whole_march_straight_away_from_the_cause() {
    let text = table(
        &rows(20, 20, &[]),
        &[fsu("a1", "a", "Infantry", 100.0, 100.0, 24, ""), fsu("b1", "b", "Infantry", 100.0, 40.0, 24, "")],
        &[A1_FLEES_FROM_B1],
        "",
    );
    let log = run(&text, &[]);
    let mv = moves(&log, "a1");
    assert_eq!(mv.len(), 1);
    assert_eq!(mv[0]["reason"], "Flight");
    let (from, to) = (xy(&mv[0]["from"]), xy(&mv[0]["to"]));
    assert_eq!(from, (100.0, 100.0));
    assert!((to.0 - 100.0).abs() < 1e-3 && (to.1 - 120.0).abs() < 1e-3, "20 cm straight away: {to:?}");
    assert_eq!(final_state(&log, "a1"), "FU");
}

#[test]
fn cavalry_flees_forty_centimetres() {
    let text = table(
        &rows(20, 20, &[]),
        &[fsu("a1", "a", "Cavalry", 100.0, 60.0, 8, ""), fsu("b1", "b", "Infantry", 40.0, 60.0, 24, "")],
        &[A1_FLEES_FROM_B1],
        "",
    );
    let log = run(&text, &[]);
    let mv = moves(&log, "a1");
    assert!((length(mv[0]) - 40.0).abs() < 1e-3, "{}", mv[0]);
    assert!((xy(&mv[0]["to"]).0 - 140.0).abs() < 1e-3, "east, away from the cause to the west");
}

#[test]
fn flight_keeps_facing_and_forms_a_square_at_the_end() {
    let text = table(
        &rows(20, 20, &[]),
        &[
            fsu("a1", "a", "Infantry", 100.0, 100.0, 24, ", facing: 30.0"),
            fsu("b1", "b", "Infantry", 100.0, 40.0, 24, ""),
        ],
        &[A1_FLEES_FROM_B1],
        "",
    );
    let s = load(&text);
    let mut sim = sauve::sim::Simulation::new(s, 7, vec![], sauve::sim::Seats::Nobody);
    sim.run();
    let t = sim.table();
    let u = &t.units[0];
    assert_eq!(u.facing, 30.0, "a parallel displacement keeps the facing");
    assert_eq!(u.formation, sauve::scenario::Formation::Flight);
    let r = u.rect(&sauve::rules::BelleAllianceRules::default());
    assert!((r.width - r.depth).abs() < 1e-4 && (r.width * r.depth - 96.0).abs() < 1e-2, "as wide as deep");
}

#[test]
fn flight_takes_the_longest_line_within_the_cone() {
    // An enemy line straight behind: the straight line is short, so the unit
    // slants off, but never more than 45 degrees.
    let text = table(
        &rows(20, 20, &[]),
        &[
            fsu("a1", "a", "Infantry", 100.0, 100.0, 24, ""),
            fsu("b1", "b", "Infantry", 100.0, 40.0, 24, ""),
            fsu("b2", "b", "Infantry", 100.0, 115.0, 12, ""),
        ],
        &[A1_FLEES_FROM_B1],
        "",
    );
    let log = run(&text, &[]);
    let mv = moves(&log, "a1")[0];
    let (from, to) = (xy(&mv["from"]), xy(&mv["to"]));
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let angle = dx.atan2(dy).to_degrees().abs();
    assert!(angle > 1.0 && angle <= 45.0 + 1e-3, "slanted within the cone: {angle}");
    assert!(length(mv) > 10.0, "longer than the straight line's 7 cm: {mv}");
}

#[test]
fn woods_halve_the_flight_march() {
    let text = table(
        &rows(20, 20, &[(9, 10, 'w'), (10, 10, 'w'), (9, 11, 'w'), (10, 11, 'w'), (9, 12, 'w'), (10, 12, 'w')]),
        &[fsu("a1", "a", "Infantry", 100.0, 110.0, 8, ""), fsu("b1", "b", "Infantry", 100.0, 40.0, 24, "")],
        &[A1_FLEES_FROM_B1],
        ", rules: (belle_alliance: (flight_cone_degrees: 0.0))",
    );
    let log = run(&text, &[]);
    let mv = moves(&log, "a1")[0];
    assert!((length(mv) - 10.0).abs() < 0.05, "20 cm at half rate inside the wood: {mv}");
}

#[test]
fn a_river_stops_the_flight_and_the_square_shifts_to_fit() {
    let river: Vec<(usize, usize, char)> = (0..20).map(|c| (c, 11, '~')).collect();
    let text = table(
        &rows(20, 20, &river),
        &[fsu("a1", "a", "Infantry", 100.0, 100.0, 24, ""), fsu("b1", "b", "Infantry", 100.0, 40.0, 24, "")],
        &[A1_FLEES_FROM_B1],
        "",
    );
    let log = run(&text, &[]);
    let mv = moves(&log, "a1")[0];
    let p = mv["path"].as_array().expect("path").iter().map(xy).collect::<Vec<_>>();
    assert!(p.iter().all(|q| q.1 <= 108.0 + 1e-3), "never into the river: {p:?}");
    let side = 96f64.sqrt();
    let (_, y) = final_pos(&log, "a1");
    assert!(y + side / 2.0 <= 110.0 + 1e-3, "the square stands short of the river: {y}");
    assert_eq!(final_state(&log, "a1"), "FU");
}

#[test]
fn an_enemy_that_is_not_pushed_back_stops_the_flight() {
    let text = table(
        &rows(30, 20, &[]),
        &[
            fsu("a1", "a", "Infantry", 150.0, 100.0, 24, ""),
            fsu("b1", "b", "Infantry", 150.0, 40.0, 24, ""),
            fsu("b2", "b", "Infantry", 150.0, 112.0, 80, ""),
        ],
        &[A1_FLEES_FROM_B1],
        "",
    );
    let log = run(&text, &[]);
    let mv = moves(&log, "a1")[0];
    assert!(length(mv) < 12.0, "stopped by the enemy line: {mv}");
    let (_, y) = final_pos(&log, "a1");
    assert!(y + 96f64.sqrt() / 2.0 <= 110.0 + 1e-2, "the square does not stand on the enemy: {y}");
}

#[test]
fn the_table_edge_stops_the_flight() {
    let text = table(
        &rows(20, 12, &[]),
        &[fsu("a1", "a", "Infantry", 100.0, 110.0, 24, ""), fsu("b1", "b", "Infantry", 100.0, 40.0, 24, "")],
        &[A1_FLEES_FROM_B1],
        ", rules: (belle_alliance: (flight_cone_degrees: 0.0))",
    );
    let log = run(&text, &[]);
    let (_, y) = final_pos(&log, "a1");
    assert!(y + 96f64.sqrt() / 2.0 <= 120.0 + 1e-3, "still on the table: {y}");
    assert!(y > 110.0);
}

// --- 2.2.4 Free direction ----------------------------------------------------

#[test]
fn a_shock_without_cause_flees_towards_the_own_rear() {
    let text = table(
        &rows(20, 20, &[]),
        &[fsu("a1", "a", "Infantry", 100.0, 100.0, 24, ""), fsu("b1", "b", "Infantry", 100.0, 40.0, 24, "")],
        &["(turn: 1, unit: \"a1\", to: FU)", "(turn: 1, unit: \"b1\", to: FU)"],
        "",
    );
    let log = run(&text, &[]);
    assert!(xy(&moves(&log, "a1")[0]["to"]).1 > 110.0, "a's rear is South");
    assert!(xy(&moves(&log, "b1")[0]["to"]).1 < 30.0, "b's rear is North");
}

// --- 2.2.7 Artillery ------------------------------------------------------------

#[test]
fn unlimbered_artillery_leaves_its_guns() {
    let text = table(
        &rows(20, 20, &[]),
        &[
            fsu("a1", "a", "Artillery", 100.0, 100.0, 4, ", limbered: false"),
            fsu("a2", "a", "Artillery", 40.0, 100.0, 4, ", limbered: true, horse: true"),
            fsu("b1", "b", "Infantry", 100.0, 40.0, 24, ""),
        ],
        &[A1_FLEES_FROM_B1, "(turn: 1, unit: \"a2\", to: FU, cause: \"b1\")"],
        "",
    );
    let log = run(&text, &[]);
    let s = load(&text);
    let mut sim = sauve::sim::Simulation::new(s, 7, vec![], sauve::sim::Seats::Nobody);
    sim.run();
    let t = sim.table();
    assert_eq!(t.units[0].guns_left, Some((100.0, 100.0)), "the guns stay where they stood");
    assert_eq!(t.units[1].guns_left, None, "limbered guns go with the battery");
    assert!((length(moves(&log, "a1")[0]) - 20.0).abs() < 1e-3, "the crew flees on foot");
    assert!((length(moves(&log, "a2")[0]) - 40.0).abs() < 1e-3, "limbered horse artillery with its guns");
}

// --- 2.3 Spread of rout -------------------------------------------------------

fn carry_table(a2_figures: u32) -> String {
    table(
        &rows(20, 30, &[]),
        &[
            fsu("a1", "a", "Infantry", 100.0, 100.0, 24, ""),
            fsu("a2", "a", "Infantry", 100.0, 112.0, a2_figures, ""),
            fsu("b1", "b", "Infantry", 100.0, 40.0, 24, ""),
        ],
        &[A1_FLEES_FROM_B1],
        "",
    )
}

#[test]
fn a_low_roll_carries_the_friend_along() {
    let log = run(&carry_table(24), &[3]);
    let t = carry_tests(&log);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0]["unit"], "a2");
    assert_eq!(t[0]["source"], "a1");
    assert_eq!(t[0]["roll"], 3);
    assert_eq!(t[0]["result"], 3);
    assert_eq!(t[0]["morale"], 10, "the carry-along threshold");
    assert_eq!(t[0]["passed"], false, "carried along");
    assert_eq!(final_state(&log, "a2"), "FU");
    let m2 = moves(&log, "a2")[0];
    assert_eq!(m2["reason"], "CarriedAlong");
    assert!((length(m2) - 20.0).abs() < 1.0, "its own march: {m2}");
    // The first unit stopped at contact and then followed as one mass.
    let p1: Vec<_> = moves(&log, "a1")[0]["path"].as_array().expect("path").iter().map(xy).collect();
    assert!(p1.len() >= 3, "start, contact, end: {p1:?}");
    assert!((p1[1].1 - 108.0).abs() < 0.05, "contact when the two lines touch: {p1:?}");
    let (e1, e2) = (final_pos(&log, "a1"), final_pos(&log, "a2"));
    assert!(e2.1 > e1.1 + 5.0, "the carried unit leads: {e1:?} {e2:?}");
}

#[test]
fn a_high_roll_lets_the_fleeing_unit_pass_through() {
    let log = run(&carry_table(24), &[18]);
    let t = carry_tests(&log);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0]["passed"], true);
    assert_eq!(final_state(&log, "a2"), "Order");
    assert!(moves(&log, "a2").is_empty());
    assert!((length(moves(&log, "a1")[0]) - 20.0).abs() < 3.0, "the whole march, through the friend");
}

#[test]
fn a_total_just_above_the_threshold_shakes_into_u_and_retreats_after_the_flight() {
    let log = run(&carry_table(24), &[11]);
    assert_eq!(carry_tests(&log)[0]["passed"], true, "not carried along");
    let sc = for_unit(&log, "StateChange", "a2");
    assert_eq!((sc[0]["to"].as_str(), sc[0]["cause"].as_str()), (Some("U"), Some("CarryAlong")));
    let seq_of = |kind: &str, unit: &str| for_unit(&log, kind, unit)[0]["seq"].as_u64().unwrap_or(0);
    let retreat = moves(&log, "a2");
    assert!(!retreat.is_empty(), "a2 retreats or flees");
    assert!(seq_of("Move", "a2") > seq_of("Move", "a1"), "after the first unit's flight");
}

#[test]
fn a_blocked_u_retreat_flees_and_may_carry_the_first_unit_along() {
    // 11 shakes a2 into U; a1 passes through and ends behind it, so a2's
    // retreat runs into a1: a2 flees instead, meets a1, and 3 carries a1
    // along in turn.
    let log = run(&carry_table(24), &[11, 3]);
    let t = carry_tests(&log);
    assert_eq!(t.len(), 2, "{t:?}");
    assert_eq!((t[1]["unit"].as_str(), t[1]["source"].as_str()), (Some("a1"), Some("a2")));
    assert_eq!(t[1]["passed"], false);
    let sc = for_unit(&log, "StateChange", "a2");
    let states: Vec<_> = sc.iter().map(|c| c["to"].as_str().unwrap_or("")).collect();
    assert_eq!(states, ["U", "FU"], "U from the test, FU when the retreat was blocked");
    let m1 = moves(&log, "a1");
    assert_eq!(m1.len(), 2, "its own flight, then carried along by a2");
    assert_eq!(m1[1]["reason"], "CarriedAlong");
    assert_eq!(moves(&log, "a2")[0]["reason"], "Flight");
    assert_eq!(final_state(&log, "a1"), "FU");
}

#[test]
fn figure_ratios_modify_the_carry_along_test() {
    let log = run(&carry_table(48), &[9]);
    let t = carry_tests(&log);
    assert_eq!(t[0]["modifier"], 4, "twice the fleeing mass");
    assert_eq!(t[0]["result"], 13);
    assert_eq!(final_state(&log, "a2"), "Order");
    let log = run(&carry_table(12), &[9]);
    assert_eq!(carry_tests(&log)[0]["modifier"], -4);
}

#[test]
fn a_carried_mass_counts_both_units_figures() {
    let text = table(
        &rows(20, 40, &[]),
        &[
            fsu("a1", "a", "Infantry", 100.0, 100.0, 24, ""),
            fsu("a2", "a", "Infantry", 100.0, 112.0, 24, ""),
            fsu("a3", "a", "Infantry", 100.0, 135.0, 48, ""),
            fsu("b1", "b", "Infantry", 100.0, 40.0, 24, ""),
        ],
        &[A1_FLEES_FROM_B1],
        "",
    );
    let log = run(&text, &[3, 3]);
    let t = carry_tests(&log);
    assert_eq!(t.len(), 2, "{t:?}");
    assert_eq!(t[1]["unit"], "a3");
    assert_eq!(t[1]["source"], "a2", "the carried unit leads the mass");
    assert_eq!(t[1]["modifier"], 0, "48 against the mass of 24 + 24");
    for u in ["a1", "a2", "a3"] {
        assert_eq!(final_state(&log, u), "FU", "{u}");
    }
}

/// A table of `w` x `h` cm in 2 cm cells, the terrain at each cell's
/// top-left corner given by `ground` (x, y in cm); flights go straight away
/// from their cause (no cone), so that distances are easy to work out.
fn fine_table(w: u32, h: u32, ground: impl Fn(u32, u32) -> char, units: &[String], shocks: &[&str]) -> String {
    let rows: Vec<String> =
        (0..h / 2).map(|r| format!("\"{}\"", (0..w / 2).map(|c| ground(2 * c, 2 * r)).collect::<String>())).collect();
    format!(
        "Scenario(format: 1, name: \"t\", mode: FreeSpace, seed: 7, turns: 1,\n sides: [(id: \"a\", rear: South), (id: \"b\", rear: North)],\n map: (rows: [{}], cell_cm: 2.0),\n units: [{}],\n shocks: [{}],\n rules: (belle_alliance: (flight_cone_degrees: 0.0)))",
        rows.join(",\n "),
        units.join(",\n "),
        shocks.join(", ")
    )
}

/// Every waypoint of a unit's moves, in order.
fn waypoints(log: &[Value], unit: &str) -> Vec<(f64, f64)> {
    moves(log, unit).iter().flat_map(|m| m["path"].as_array().cloned().unwrap_or_default()).map(|p| xy(&p)).collect()
}

/// 2.3: the first unit follows the carried one at the carried one's march
/// length. Cavalry (40 cm) meets infantry 8 cm on; carried along, the
/// infantry leads its own 20 cm and the cavalry keeps in contact: 8 + 20.
#[test]
fn the_carried_mass_marches_at_the_second_units_march_length() {
    let text = table(
        &rows(20, 30, &[]),
        &[
            fsu("a1", "a", "Cavalry", 100.0, 100.0, 8, ""),
            fsu("a2", "a", "Infantry", 100.0, 114.5, 24, ""),
            fsu("b1", "b", "Infantry", 100.0, 40.0, 24, ""),
        ],
        &[A1_FLEES_FROM_B1],
        "",
    );
    let log = run(&text, &[3]);
    assert_eq!(carry_tests(&log)[0]["passed"], false, "carried along");
    let p1 = waypoints(&log, "a1");
    // Cavalry in line: 20 x 5 cm; a2 24 x 4. Contact after 114.5 - 2 - 2.5 - 100 = 10 cm.
    assert!((p1[1].1 - 110.0).abs() < 0.05, "contact: {p1:?}");
    assert!((p1[2].1 - 130.0).abs() < 0.05, "then the infantry's 20 cm, not the cavalry's 40: {p1:?}");
    let p2 = waypoints(&log, "a2");
    assert!((p2[1].1 - p2[0].1 - 20.0).abs() < 0.05, "{p2:?}");
}

/// 2.3: the reduction is counted for all figures of both units: village
/// cells under the follower's wide line alone halve the leader's march.
#[test]
fn the_reduction_counts_every_figure_of_the_mass() {
    // A1: 14 limbered guns, 56 cm wide (x 72..128); a2: 24 cm (88..112).
    // Village strips at x 72..80 and 120..128 from y 106 down: under a1 only.
    let village = |x: u32, y: u32| {
        let flank = (72..80).contains(&x) || (120..128).contains(&x);
        if flank && y >= 106 { 'v' } else { '.' }
    };
    let units = [
        fsu("a1", "a", "Artillery", 100.0, 100.0, 14, ", limbered: true"),
        fsu("a2", "a", "Infantry", 100.0, 112.0, 24, ""),
        fsu("b1", "b", "Infantry", 100.0, 40.0, 24, ""),
    ];
    let log = run(&fine_table(200, 300, village, &units, &[A1_FLEES_FROM_B1]), &[3]);
    assert_eq!(carry_tests(&log)[0]["passed"], false);
    let p2 = waypoints(&log, "a2");
    // Contact at once in the village edge; then the mass is reduced for
    // its whole 20 cm march: 10 cm made good.
    assert!((p2[1].1 - 122.0).abs() < 0.1, "half of 20 cm: {p2:?}");
    // Without the village the pair goes the whole 20 cm.
    let log = run(&fine_table(200, 300, |_, _| '.', &units, &[A1_FLEES_FROM_B1]), &[3]);
    assert!((waypoints(&log, "a2")[1].1 - 132.0).abs() < 0.1);
}

/// 2.3: a first unit that cannot pass terrain the second can stops at that
/// terrain, moved up to it, and the second flees on alone with its march
/// reduction counted for its own figures only.
#[test]
fn a_follower_that_cannot_pass_stops_at_the_terrain_and_the_leader_flees_on_alone() {
    // The guns' flanks (x 72..80 and 120..128) run into village then
    // woods, which artillery may not enter; the infantry's ground is clear.
    let ground = |x: u32, y: u32| {
        let flank = (72..80).contains(&x) || (120..128).contains(&x);
        match y {
            _ if !flank => '.',
            110..=113 => 'v',
            114.. => 'w',
            _ => '.',
        }
    };
    let units = [
        fsu("a1", "a", "Artillery", 100.0, 100.0, 14, ", limbered: true"),
        fsu("a2", "a", "Infantry", 100.0, 112.0, 24, ""),
        fsu("b1", "b", "Infantry", 100.0, 40.0, 24, ""),
    ];
    let log = run(&fine_table(200, 300, ground, &units, &[A1_FLEES_FROM_B1]), &[3]);
    assert_eq!(carry_tests(&log)[0]["passed"], false, "carried along");
    let p1 = waypoints(&log, "a1");
    // Its own flight to contact (8 cm), then with a2 until its front
    // (y 110 at contact) meets the woods at 114: moved up to them, 4 cm.
    assert!((p1[1].1 - 108.0).abs() < 0.05, "contact: {p1:?}");
    assert!(p1.iter().any(|p| (p.1 - 112.0).abs() < 0.05), "moved up to the woods, not left at contact: {p1:?}");
    assert!(p1.iter().all(|p| p.1 < 112.1), "never into the woods: {p1:?}");
    // a2: 4 cm in the mass, every one reduced (the guns in the village),
    // so 8 of its 20 cm spent; then alone on clear ground, 12 cm at full
    // rate: 16 cm in all. (Left reduced for both, it would make 10.)
    let p2 = waypoints(&log, "a2");
    assert!(p2.iter().any(|p| (p.1 - 116.0).abs() < 0.1), "4 cm with the guns: {p2:?}");
    assert!((final_pos(&log, "a2").1 - 128.0).abs() < 0.1, "4 + 12 cm: {p2:?}");
    assert_eq!(final_state(&log, "a1"), "FU");
    assert_eq!(final_state(&log, "a2"), "FU");
}

/// 2.3 whatever the facing: a fleeing cavalry unit (40 cm) meets a friend
/// that stands clear in its path and gives it a carry-along test, and
/// never one that stands clear outside its path, at every facing of both
/// units (every 15 degrees), every flight direction (every 15 degrees) and
/// several distances. The sweep that finds the friends must not depend on
/// how the rectangles are turned.
#[test]
fn the_carry_along_test_falls_on_friends_in_the_path_whatever_the_facing() {
    use sauve::belle_alliance::geometry::bearing_vector;
    use sauve::scenario::{Shock, State};
    // A 400 x 400 cm open table; the units are placed by hand below.
    let text = table(
        &rows(40, 40, &[]),
        &[
            fsu("flee", "a", "Cavalry", 200.0, 200.0, 8, ""),
            fsu("friend", "a", "Infantry", 200.0, 170.0, 24, ""),
            fsu("cause", "b", "Infantry", 200.0, 300.0, 24, ""),
        ],
        &[],
        "",
    );
    let s = load(&text);
    let ctx = FsCtx::new(&s);
    let base = Table::from_scenario(&s);
    let (mut hits, mut misses) = (0, 0);
    for flight in (0..360).step_by(15) {
        let dir = bearing_vector(flight as f32);
        for facing in (0..360).step_by(15) {
            for friend_facing in [facing, (facing + 90) % 360, (facing + 45) % 360] {
                // Half extents at most 10.3 (the 20 x 5 cavalry line) and
                // 12.1 (the 24 x 4 infantry line) in any direction: 25 cm
                // apart they never touch at the start; 40 cm of flight always
                // reaches a friend 35 cm on; 30 cm to the side is always
                // clear of the sweep.
                for (along, aside, in_path) in
                    [(25.0, 0.0, true), (30.0, 0.0, true), (35.0, 0.0, true), (30.0, 30.0, false), (20.0, -30.0, false)]
                {
                    let mut t = base.clone();
                    let (x, y) = (200.0, 200.0);
                    let side = (-dir.1, dir.0);
                    t.units[0].x = x;
                    t.units[0].y = y;
                    t.units[0].facing = facing as f32;
                    t.units[1].x = x + dir.0 * along + side.0 * aside;
                    t.units[1].y = y + dir.1 * along + side.1 * aside;
                    t.units[1].facing = friend_facing as f32;
                    // The cause stands 60 cm behind, so the flight runs along `dir`.
                    t.units[2].x = x - dir.0 * 60.0;
                    t.units[2].y = y - dir.1 * 60.0;
                    let mut e = FsEngine::new(&ctx, &t, BroadPhaseKind::Grid);
                    let mut dice = Dice::new(1, vec![18]);
                    let mut log = EventLog::default();
                    let shock = Shock { turn: 1, unit: 0, to: State::FU, cause: Some(2) };
                    e.apply_shock(&ctx, &mut t, &mut log, &shock, 1);
                    e.resolve(&ctx, &mut t, &mut dice, &mut log, 1);
                    let moved = (t.units[0].x - x).hypot(t.units[0].y - y);
                    let case =
                        format!("flight {flight}, facings {facing}/{friend_facing}, friend {along} on, {aside} aside");
                    assert!((moved - 40.0).abs() < 0.5, "{case}: the full 40 cm straight on, moved {moved}");
                    if in_path {
                        assert_eq!(e.carry_tests, 1, "{case}: the friend in the path tests");
                        hits += 1;
                    } else {
                        assert_eq!(e.carry_tests, 0, "{case}: the friend aside does not");
                        misses += 1;
                    }
                }
            }
        }
    }
    assert_eq!((hits, misses), (24 * 24 * 3 * 3, 24 * 24 * 3 * 2));
}

/// Without a `facing`, a free-space unit faces away from its own rear edge
/// (docs/scenario-format.md), for every rear edge.
#[test]
fn the_default_facing_is_away_from_the_own_rear() {
    for (rear, facing) in [("South", 0.0), ("North", 180.0), ("East", 270.0), ("West", 90.0)] {
        let other = if rear == "South" { "North" } else { "South" };
        let text = format!(
            "Scenario(format: 1, name: \"t\", mode: FreeSpace, sides: [(id: \"a\", rear: {rear}), (id: \"b\", rear: {other})],\n map: (rows: [{}], cell_cm: 10.0),\n units: [{}])",
            rows(20, 20, &[]).iter().map(|r| format!("\"{r}\"")).collect::<Vec<_>>().join(","),
            fsu("a1", "a", "Infantry", 100.0, 100.0, 24, "")
        );
        let t = Table::from_scenario(&load(&text));
        assert_eq!(t.units[0].facing, facing, "rear {rear}");
    }
}

// --- Determinism and the broad phase -------------------------------------------

fn crowd() -> String {
    let mut units = vec![fsu("b1", "b", "Infantry", 150.0, 20.0, 24, "")];
    let mut shocks = Vec::new();
    for r in 0..5 {
        for c in 0..8 {
            let id = format!("a{r}{c}");
            units.push(fsu(&id, "a", "Infantry", 20.0 + c as f32 * 36.0, 50.0 + r as f32 * 14.0, 16, ""));
            if r == 0 {
                shocks.push(format!("(turn: 1, unit: \"{id}\", to: FU, cause: \"b1\")"));
            }
        }
    }
    units.push(fsu("b2", "b", "Cavalry", 150.0, 160.0, 8, ""));
    let shocks: Vec<&str> = shocks.iter().map(String::as_str).collect();
    table(&rows(30, 20, &[(5, 10, 'w'), (6, 10, 'w'), (20, 11, 'm')]), &units, &shocks, "")
}

#[test]
fn the_log_is_the_same_on_every_run() {
    let text = crowd();
    let a = run(&text, &[]);
    let b = run(&text, &[]);
    assert_eq!(a, b);
    assert!(carry_tests(&a).len() >= 5, "a cascade happened");
}

#[test]
fn the_broad_phase_changes_nothing_but_speed() {
    let s = load(&crowd());
    let ctx = FsCtx::new(&s);
    let mut logs = Vec::new();
    for kind in [BroadPhaseKind::Grid, BroadPhaseKind::AllPairs] {
        let mut t = Table::from_scenario(&s);
        let mut e = FsEngine::new(&ctx, &t, kind);
        let mut dice = Dice::new(11, vec![]);
        let mut log = EventLog::default();
        for sh in &s.shocks {
            e.apply_shock(&ctx, &mut t, &mut log, sh, 1);
        }
        e.resolve(&ctx, &mut t, &mut dice, &mut log, 1);
        logs.push((log.to_jsonl(), t));
    }
    assert_eq!(logs[0].0, logs[1].0);
    assert_eq!(logs[0].1, logs[1].1);
}

// --- 2.4 Reorganisation -----------------------------------------------------------

fn reorg_table(staff: &str) -> String {
    table(
        &rows(20, 20, &[]),
        &[
            fsu("a1", "a", "Infantry", 100.0, 100.0, 24, ", state: FU"),
            fsu("a2", "a", "Infantry", 100.0, 140.0, 24, ", state: FU"),
            fsu("b1", "b", "Infantry", 100.0, 40.0, 24, ""),
        ],
        &[],
        staff,
    )
}

/// The reorganisation roll's total (natural roll + valour + staff) and the
/// unit's state after it.
fn reorg_result(log: &[Value], unit: &str) -> (i64, String) {
    let e = for_unit(log, "MoraleCheck", unit)
        .into_iter()
        .find(|e| e["cause"] == "Reorganisation")
        .unwrap_or_else(|| panic!("{unit} never reorganised"));
    let state = for_unit(log, "StateChange", unit)
        .into_iter()
        .find(|c| c["cause"] == "Reorganisation")
        .map_or("FU", |c| c["to"].as_str().unwrap_or(""));
    (e["result"].as_i64().unwrap_or(-99), state.to_owned())
}

#[test]
fn reorganisation_follows_table_16() {
    for (roll, want) in [(8, "FU"), (9, "U"), (12, "U"), (13, "LU"), (15, "LU"), (16, "Order")] {
        let log = run(&reorg_table(""), &[roll, 3]);
        assert_eq!(reorg_result(&log, "a1"), (roll as i64, want.to_owned()), "roll {roll}");
        assert_eq!(final_state(&log, "a1"), want);
        if want != "FU" {
            let sc = for_unit(&log, "StateChange", "a1");
            assert_eq!(sc[0]["cause"], "Reorganisation");
            assert!(moves(&log, "a1").is_empty(), "FU -> U does not force a retreat");
        }
    }
}

#[test]
fn a_staff_figure_in_contact_adds_its_bonus_to_one_unit_only() {
    // The staff figure stands between the two units, touching both.
    let log = run(
        &reorg_table(
            ", staff: [(side: \"a\", pos: (100.0, 102.0))], rules: (belle_alliance: (staff_contact_cm: 40.0))",
        ),
        &[14, 14],
    );
    assert_eq!(reorg_result(&log, "a1"), (16, "Order".to_owned()), "14 + 2");
    assert_eq!(reorg_result(&log, "a2"), (14, "LU".to_owned()), "the figure is spent");
    let far = run(&reorg_table(", staff: [(side: \"a\", pos: (10.0, 10.0))]"), &[14, 14]);
    assert_eq!(reorg_result(&far, "a1"), (14, "LU".to_owned()), "out of contact");
}

#[test]
fn a_unit_that_fled_this_bound_waits_for_the_next_to_reorganise() {
    let text = table(
        &rows(20, 20, &[]),
        &[fsu("a1", "a", "Infantry", 100.0, 100.0, 24, ""), fsu("b1", "b", "Infantry", 100.0, 40.0, 24, "")],
        &[A1_FLEES_FROM_B1],
        "",
    )
    .replace("turns: 1", "turns: 2");
    let log = run(&text, &[16]);
    let r: Vec<_> = of_kind(&log, "MoraleCheck").into_iter().filter(|e| e["cause"] == "Reorganisation").collect();
    assert_eq!(r.len(), 1, "only in turn 2: {r:?}");
    assert_eq!(r[0]["turn"], 2);
    assert_eq!(final_state(&log, "a1"), "Order");
}

// --- The bundled tables ------------------------------------------------------------

#[test]
fn the_bundled_free_space_scenarios_break_a_line() {
    for file in ["scenarios/plancenoit-1815.ron", "scenarios/ligny-1815.ron"] {
        let text = std::fs::read_to_string(file).expect("bundled scenario");
        let log = run(&text, &[]);
        let flights = log.iter().filter(|e| e["kind"] == "Move" && e["reason"] != "Disorder").count();
        let tests = carry_tests(&log).len();
        let carried = carry_tests(&log).iter().filter(|e| e["passed"] == false).count();
        assert!(
            flights >= 3 && tests >= 2 && carried >= 1,
            "{file}: {flights} flights, {tests} tests, {carried} carried"
        );
    }
}
