//! The victory rules, clause by clause, on small made-up battles.

use super::*;
use crate::events::{Cause, EventKind, EventLog};
use crate::hex::Edge;
use crate::hex::Offset;
use crate::labataille::Board;
use crate::report::counted;
use crate::scenario::Scenario;
use crate::scenario::parse;
use crate::vocab::State;

/// Two sides on a 12x12 clear map; units `f0..` (side "fr") and `r0..`
/// (side "ru") in a row, with `extra` top-level fields.
fn scenario(fr: usize, ru: usize, extra: &str) -> Scenario {
    let row = format!("\"{}\",", ".".repeat(12));
    let mut units = String::new();
    for i in 0..fr {
        units += &format!("(id: \"f{i}\", side: \"fr\", arm: Infantry, at: ({i}, 8), morale: 44, strength: 4),");
    }
    for i in 0..ru {
        units += &format!("(id: \"r{i}\", side: \"ru\", arm: Infantry, at: ({i}, 2), morale: 44, strength: 4),");
    }
    let text = format!(
        "Scenario(format: 1, name: \"t\", sides: [(id: \"fr\", name: \"French\"), (id: \"ru\", name: \"Russians\")],
          map: (rows: [{}]), units: [{units}], {extra})",
        row.repeat(12)
    );
    match parse(&text, "t.ron") {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    }
}

fn set(board: &mut Board, id: &str, state: State, at: Option<(i32, i32)>) {
    let i = board.index_of(id).expect("unit");
    board.units[i].state = state;
    board.units[i].at = at.map(|(c, r)| Offset::new(c, r));
}

#[test]
fn corps_breaks_when_enough_battalions_are_routed_or_gone() {
    let s = scenario(4, 1, r#"corps: [(id: "I", side: "fr", units: ["f0", "f1", "f2", "f3"], breaks_at: 2)]"#);
    let mut b = Board::from_scenario(&s);
    set(&mut b, "f0", State::Routed, Some((0, 8)));
    let st = corps_status(&s, &b);
    assert_eq!((st[0].routed, st[0].gone, st[0].broken), (1, 0, false));
    set(&mut b, "f1", State::Surrendered, None);
    let st = corps_status(&s, &b);
    assert_eq!((st[0].routed, st[0].gone, st[0].broken), (1, 1, true));
    assert!(army_broken(&s, &b, 0));
    assert!(!army_broken(&s, &b, 1));
}

#[test]
fn routers_off_the_map_are_gone_but_units_that_exit_in_order_are_not() {
    let s = scenario(2, 1, r#"corps: [(id: "I", side: "fr", units: ["f0", "f1"], breaks_at: 1)]"#);
    let mut b = Board::from_scenario(&s);
    set(&mut b, "f0", State::GoodOrder, None);
    assert!(!corps_status(&s, &b)[0].broken);
    set(&mut b, "f1", State::Routed, None);
    assert_eq!(corps_status(&s, &b)[0].gone, 1);
}

#[test]
fn units_in_no_corps_form_their_sides_implicit_corps_breaking_at_half() {
    let s = scenario(5, 3, r#"corps: [(id: "I", side: "fr", units: ["f0", "f1"])]"#);
    let fr: Vec<_> = s.corps_of_side(0).map(|(_, c)| (c.id.clone(), c.units.len(), c.breaks_at)).collect();
    assert_eq!(fr, [("I".to_owned(), 2, 1), ("fr".to_owned(), 3, 2)]);
    let ru: Vec<_> = s.corps_of_side(1).map(|(_, c)| (c.id.clone(), c.breaks_at, c.implicit)).collect();
    assert_eq!(ru, [("ru".to_owned(), 2, true)]);
    assert_eq!(s.corps_of_unit(4), Some(1));
}

#[test]
fn an_army_breaks_only_when_every_corps_has() {
    let s = scenario(4, 1, r#"corps: [(id: "I", side: "fr", units: ["f0", "f1"], breaks_at: 1)]"#);
    let mut b = Board::from_scenario(&s);
    set(&mut b, "f0", State::Routed, Some((0, 8)));
    assert!(!army_broken(&s, &b, 0), "the implicit corps of f2, f3 still holds");
    set(&mut b, "f2", State::Eliminated, None);
    assert!(army_broken(&s, &b, 0));
}

#[test]
fn objective_changes_hands_only_when_one_side_alone_holds_it() {
    let s = scenario(2, 2, r#"objectives: [(at: (5, 5), points: 3, name: "church", held_by: "ru")]"#);
    let mut b = Board::from_scenario(&s);
    let mut holders = initial_holders(&s);
    assert_eq!(holders, [Some(1)]);
    // Empty: stays Russian.
    update_holders(&s, &b, &mut holders);
    assert_eq!(holders, [Some(1)]);
    // A French router on it takes nothing.
    set(&mut b, "f0", State::Routed, Some((5, 5)));
    update_holders(&s, &b, &mut holders);
    assert_eq!(holders, [Some(1)]);
    // Both sides on it: contested, unchanged.
    set(&mut b, "f0", State::Disordered, Some((5, 5)));
    set(&mut b, "r0", State::GoodOrder, Some((5, 5)));
    update_holders(&s, &b, &mut holders);
    assert_eq!(holders, [Some(1)]);
    // The French alone, even disordered: French.
    set(&mut b, "r0", State::GoodOrder, Some((0, 2)));
    update_holders(&s, &b, &mut holders);
    assert_eq!(holders, [Some(0)]);
    // They leave: still French.
    set(&mut b, "f0", State::GoodOrder, Some((0, 8)));
    update_holders(&s, &b, &mut holders);
    assert_eq!(holders, [Some(0)]);
}

#[test]
fn leader_bonus_applies_within_radius() {
    let s = scenario(
        4,
        1,
        r#"leaders: [(id: "ney", side: "fr", with: "f0", bonus: 2), (id: "reynier", side: "fr", with: "f3", bonus: 1),
                    (id: "bulow", side: "ru", with: "r0", bonus: 3)]"#,
    );
    let b = Board::from_scenario(&s);
    let attached = initial_attachment(&s);
    // f0..f3 stand at (0..3, 8): f2 is 2 hexes from Ney, 1 from Reynier.
    assert_eq!(leader_bonus(&s, &b, &attached, 2, 2), 2, "the best bonus within reach");
    assert_eq!(leader_bonus(&s, &b, &attached, 2, 1), 1, "Ney is out of reach");
    assert_eq!(leader_bonus(&s, &b, &attached, 0, 0), 2, "the host itself");
    assert_eq!(leader_bonus(&s, &b, &attached, 3, 1), 1);
    assert_eq!(leader_bonus(&s, &b, &attached, 4, 20), 3, "only friendly leaders count");
}

#[test]
fn a_leader_leaves_a_routed_host_for_the_nearest_good_order_friend() {
    let s = scenario(4, 1, r#"leaders: [(id: "ney", side: "fr", with: "f1", bonus: 2)]"#);
    let mut b = Board::from_scenario(&s);
    let mut attached = initial_attachment(&s);
    assert!(reattach(&s, &b, &mut attached).is_empty());
    set(&mut b, "f1", State::Routed, Some((1, 8)));
    // f0 and f2 are both one hex away: the lower index wins.
    assert_eq!(reattach(&s, &b, &mut attached), [(0, 0)]);
    assert_eq!(attached, [0]);
    // Host gone off the board, f1 still routed: measured from f0's start.
    set(&mut b, "f0", State::Surrendered, None);
    set(&mut b, "f2", State::Disordered, Some((2, 8)));
    assert_eq!(reattach(&s, &b, &mut attached), [(0, 3)]);
    // Nobody left in good order: the leader stays.
    set(&mut b, "f3", State::Routed, Some((3, 8)));
    assert!(reattach(&s, &b, &mut attached).is_empty());
    assert_eq!(attached, [3]);
}

fn push(log: &mut EventLog, turn: u32, kind: EventKind) {
    log.set_stamp(turn, None, crate::turn::Phase::Shocks);
    log.push(kind);
}

fn fail(log: &mut EventLog, turn: u32, unit: &str, to: State, cause: Cause, source: Option<&str>) {
    if cause == Cause::Contagion {
        push(
            log,
            turn,
            EventKind::MoraleCheck {
                unit: unit.into(),
                cause,
                morale: 44,
                modifier: 0,
                roll: 11,
                result: 11,
                passed: false,
                source: source.map(str::to_owned),
            },
        );
    }
    push(log, turn, EventKind::StateChange { unit: unit.into(), from: State::GoodOrder, to, cause });
}

#[test]
fn cascade_sizes_follow_contagion_sources() {
    let s = scenario(6, 2, "");
    let b = Board::from_scenario(&s);
    let mut log = EventLog::default();
    use State::{Disordered as D, Routed as R};
    // f0 routs (shock); f1 and f2 catch it from f0, f3 from f2.
    fail(&mut log, 1, "f0", R, Cause::Shock, None);
    fail(&mut log, 1, "f1", D, Cause::Contagion, Some("f0"));
    fail(&mut log, 1, "f2", R, Cause::Contagion, Some("f0"));
    fail(&mut log, 1, "f3", D, Cause::Contagion, Some("f2"));
    // A separate blow: r0 routs and shakes r1.
    fail(&mut log, 2, "r0", R, Cause::Melee, None);
    fail(&mut log, 2, "r1", D, Cause::Contagion, Some("r0"));
    // f4 fails alone on recovery; f5 later catches it from f4.
    fail(&mut log, 3, "f4", R, Cause::Fire, None);
    fail(&mut log, 4, "f1", R, Cause::Recovery, None);
    fail(&mut log, 4, "f5", D, Cause::Contagion, Some("f1"));
    let sum = summary(&s, &b, &log);
    let sizes: Vec<(String, u32)> = sum.cascades.iter().map(|c| (c.root.clone(), c.size)).collect();
    assert_eq!(sizes, [("f0".to_owned(), 4), ("r0".to_owned(), 2), ("f1".to_owned(), 2)]);
    assert_eq!(sum.largest_cascade, 4);
    assert_eq!(sum.sides[0].routed, 4, "f0, f2, f4 and f1 routed at some point");
    assert_eq!(sum.sides[1].routed, 1);
}

#[test]
fn summary_counts_losses_and_reads_plainly() {
    let s = scenario(3, 1, "");
    let mut b = Board::from_scenario(&s);
    set(&mut b, "f0", State::Surrendered, None);
    b.units[1].strength = 3;
    let sum = summary(&s, &b, &EventLog::default());
    assert_eq!(sum.sides[0].increments_lost, 5);
    assert_eq!(sum.sides[0].surrendered, 1);
    let text = sum.to_string();
    assert!(text.contains("French: 5 increments lost; 0 units routed, 1 surrendered, 0 eliminated"), "{text}");
    assert!(text.contains("no failure spread"), "{text}");
}

#[test]
fn summary_says_one_increment_and_one_unit_in_the_singular() {
    let s = scenario(2, 1, "");
    let mut b = Board::from_scenario(&s);
    b.units[0].strength -= 1;
    let text = summary(&s, &b, &EventLog::default()).to_string();
    assert!(text.contains("French: 1 increment lost; 0 units routed,"), "{text}");
    assert!(text.contains("largest: 0 units"), "{text}");
    assert_eq!((counted(1, "unit"), counted(2, "unit")), ("1 unit".to_owned(), "2 units".to_owned()));
}

#[test]
fn objectives_exits_and_enemy_losses_make_the_points() {
    let s = scenario(
        3,
        3,
        r#"objectives: [(at: (5, 5), points: 3, held_by: "ru")], exits: [(side: "fr", edge: North, points: 2)]"#,
    );
    let mut b = Board::from_scenario(&s);
    let start: Vec<u32> = s.units.iter().map(|u| u.strength).collect();
    let mut exited = exit_tally(&s);
    assert_eq!(record_exit(&s, &mut exited, 0, Edge::North, State::Routed, 4), 0, "routers score nothing");
    assert_eq!(record_exit(&s, &mut exited, 0, Edge::South, State::GoodOrder, 4), 0, "no exit there");
    assert_eq!(record_exit(&s, &mut exited, 0, Edge::North, State::Disordered, 4), 8);
    set(&mut b, "f0", State::GoodOrder, None);
    b.units[3].strength = 1; // r0 lost 3 increments
    let sc = score(&s, &b, &initial_holders(&s), &exited, &start);
    assert_eq!(sc.points, [8 + 3, 3]);
    assert_eq!((sc.winner, sc.decisive), (Some(0), false));
}

#[test]
fn enemy_losses_are_worth_the_rules_block_points_per_increment() {
    let mut s = scenario(2, 2, "");
    s.rules.points_per_increment = 3;
    let mut b = Board::from_scenario(&s);
    let start: Vec<u32> = s.units.iter().map(|u| u.strength).collect();
    b.units[2].strength = start[2] - 2; // a Russian unit lost 2 increments
    let sc = score(&s, &b, &[], &[], &start);
    assert_eq!(sc.points, [6, 0]);
    assert!(sc.detail.iter().any(|d| d == "French: 2 enemy increments lost (+6)"), "{:?}", sc.detail);
    b.units[2].strength = start[2] - 1;
    let sc = score(&s, &b, &[], &[], &start);
    assert!(sc.detail.iter().any(|d| d == "French: 1 enemy increment lost (+3)"), "{:?}", sc.detail);
}

#[test]
fn equal_points_are_a_draw() {
    let s = scenario(2, 2, "");
    let b = Board::from_scenario(&s);
    let start: Vec<u32> = s.units.iter().map(|u| u.strength).collect();
    let sc = score(&s, &b, &[], &[], &start);
    assert_eq!((sc.points.clone(), sc.winner), (vec![0, 0], None));
    assert!(sc.to_string().contains("a draw"));
}

#[test]
fn broken_army_loses_outright() {
    let s = scenario(2, 2, r#"objectives: [(at: (5, 5), points: 50, held_by: "fr")]"#);
    let mut b = Board::from_scenario(&s);
    let start: Vec<u32> = s.units.iter().map(|u| u.strength).collect();
    // The French implicit corps (2 units) breaks at 1.
    set(&mut b, "f0", State::Routed, Some((0, 8)));
    let sc = score(&s, &b, &initial_holders(&s), &[], &start);
    assert!(sc.points[0] > sc.points[1]);
    assert_eq!((sc.winner, sc.decisive), (Some(1), true));
    // Both broken: back to points.
    set(&mut b, "r0", State::Routed, Some((0, 2)));
    let sc = score(&s, &b, &initial_holders(&s), &[], &start);
    assert_eq!((sc.winner, sc.decisive), (Some(0), false));
}
