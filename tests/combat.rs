//! Combat, movement and orders (issue 6; docs/rules.md 1.7 and 1.9 with the house
//! tables of docs/rules.md), played through the same world functions the
//! window uses, with scripted dice.

mod common;

use common::{load, rows, scenario_text, unit};
use sauve::hex::Dir;
use sauve::labataille::orders::{Order, OrderError};
use sauve::scenario::Formation;
use sauve::sim::{self, Control, Controls, Seats, Simulation};
use sauve::turn::Phase;
use sauve::vocab::State;
use serde_json::Value;

/// A battle in which both sides are players, with scripted dice.
fn human_battle(text: &str, dice: &[u32]) -> Simulation {
    let s = load(text);
    let mut sim = Simulation::new(s, 7, dice.to_vec(), Seats::Nobody);
    sim.app.world_mut().insert_resource(Controls(vec![Control::Player; 2]));
    sim
}

/// Steps (ending every other order phase) until `phasing`'s `phase` waits.
fn go_to(sim: &mut Simulation, phase: Phase, phasing: usize) {
    let w = sim.app.world_mut();
    for _ in 0..500 {
        sim::step_phase(w);
        if sim::awaiting_orders(w).is_some() {
            let clock = *w.resource::<sim::Clock>();
            if clock.phase.order_phase() == Some(phase) && clock.side == Some(phasing) {
                return;
            }
            sim::end_phase(w);
        }
        assert!(!w.resource::<sim::Clock>().finished, "the battle ended before {phase:?}");
    }
    panic!("never reached {phase:?}");
}

fn order(sim: &mut Simulation, o: Order) -> Result<(), OrderError> {
    sim::issue_order(sim.app.world_mut(), &o)
}

fn events(sim: &Simulation) -> Vec<Value> {
    sim.log().to_jsonl().lines().filter_map(|l| serde_json::from_str(l).ok()).collect()
}

fn last<'a>(log: &'a [Value], kind: &str) -> &'a Value {
    log.iter().rev().find(|e| e["kind"] == kind).unwrap_or_else(|| panic!("no {kind} event"))
}

fn fire(units: &[&str], target: &str) -> Order {
    Order::Fire { units: units.iter().map(|u| u.to_string()).collect(), target: target.into() }
}

fn melee(units: &[&str], target: &str) -> Order {
    Order::Melee { units: units.iter().map(|u| u.to_string()).collect(), target: target.into() }
}

/// French battalion at (3, 5) facing north; a Russian one at `ru_at`.
fn duel(ru_at: (i32, i32), marks: &[(usize, usize, char)], ru_extra: &str) -> String {
    scenario_text(
        &rows(8, 9, marks),
        &[unit("fr-a", "fr", "Infantry", 3, 5, 32, ""), unit("ru-a", "ru", "Infantry", ru_at.0, ru_at.1, 32, ru_extra)],
        &[],
        "",
        2,
    )
}

#[test]
fn a_volley_rolls_two_dice_on_its_firepower_column() {
    // 4 increments in line fire 4 points: the second column (3-4). Dice 55
    // read as 5 + 5 = 10: "1M" there. The check then rolls 66 and passes.
    let mut sim = human_battle(&duel((3, 3), &[], ""), &[55, 66]);
    go_to(&mut sim, Phase::OffensiveFire, 0);
    order(&mut sim, fire(&["fr-a"], "ru-a")).expect("in range two hexes away");
    let log = events(&sim);
    let f = last(&log, "Fire");
    assert_eq!((f["firepower"].as_f64(), f["column"].as_u64(), f["total"].as_u64()), (Some(4.0), Some(1), Some(10)));
    assert_eq!(f["result"], "1M");
    let loss = last(&log, "Losses");
    assert_eq!((loss["unit"].as_str(), loss["strength"].as_u64()), (Some("ru-a"), Some(3)));
    let check = last(&log, "MoraleCheck");
    assert_eq!((check["cause"].as_str(), check["passed"].as_bool()), (Some("Fire"), Some(true)));
}

#[test]
fn cover_shifts_the_volley_one_column_left() {
    // The same volley at a battalion in woods lands on the first column,
    // where 10 is only a morale check.
    let mut sim = human_battle(&duel((3, 3), &[(3, 3, 'w')], ""), &[55, 66]);
    go_to(&mut sim, Phase::OffensiveFire, 0);
    order(&mut sim, fire(&["fr-a"], "ru-a")).expect("legal");
    let log = events(&sim);
    assert_eq!(last(&log, "Fire")["column"], 0);
    assert_eq!(last(&log, "Fire")["result"], "M");
    assert!(log.iter().all(|e| e["kind"] != "Losses"));
}

#[test]
fn a_failed_check_under_fire_disorders_and_retreats() {
    let mut sim = human_battle(&duel((3, 3), &[], ""), &[55, 11]);
    go_to(&mut sim, Phase::OffensiveFire, 0);
    order(&mut sim, fire(&["fr-a"], "ru-a")).expect("legal");
    let log = events(&sim);
    let change = last(&log, "StateChange");
    assert_eq!((change["unit"].as_str(), change["to"].as_str()), (Some("ru-a"), Some("Disordered")));
    let mv = last(&log, "Move");
    assert_eq!((mv["unit"].as_str(), mv["reason"].as_str()), (Some("ru-a"), Some("Disorder")));
}

#[test]
fn fire_beyond_range_or_through_woods_is_refused() {
    let mut sim = human_battle(&duel((3, 2), &[], ""), &[]);
    go_to(&mut sim, Phase::OffensiveFire, 0);
    let e = order(&mut sim, fire(&["fr-a"], "ru-a")).expect_err("three hexes: beyond musket range");
    assert!(e.to_string().contains("range is 2"), "{e}");
    let mut sim = human_battle(&duel((3, 3), &[(3, 4, 'w')], ""), &[]);
    go_to(&mut sim, Phase::OffensiveFire, 0);
    let e = order(&mut sim, fire(&["fr-a"], "ru-a")).expect_err("woods in between");
    assert!(e.to_string().contains("cannot see"), "{e}");
    assert!(sim.log().events.iter().all(|e| !matches!(e.kind, sauve::events::EventKind::Fire { .. })));
}

#[test]
fn a_routed_unit_caught_in_melee_surrenders_and_the_attacker_advances() {
    let mut sim = human_battle(&duel((3, 4), &[], ", state: Routed"), &[]);
    go_to(&mut sim, Phase::Melee, 0);
    order(&mut sim, melee(&["fr-a"], "ru-a")).expect("adjacent");
    let log = events(&sim);
    assert_eq!(last(&log, "Surrendered")["unit"], "ru-a");
    let mv = last(&log, "Move");
    assert_eq!((mv["unit"].as_str(), mv["reason"].as_str()), (Some("fr-a"), Some("Advance")));
    assert_eq!(common::path(mv), vec![(3, 5), (3, 4)]);
}

#[test]
fn melee_checks_both_sides_then_reads_the_table() {
    // Both pass their pre-melee checks (66, 66); 44 reads 8 at 1:1: "DR",
    // the defenders fall back disordered and the attacker takes the hex.
    let mut sim = human_battle(&duel((3, 4), &[], ""), &[66, 66, 44]);
    go_to(&mut sim, Phase::Melee, 0);
    order(&mut sim, melee(&["fr-a"], "ru-a")).expect("adjacent");
    let log = events(&sim);
    let checks: Vec<&str> =
        log.iter().filter(|e| e["kind"] == "MoraleCheck").filter_map(|e| e["unit"].as_str()).collect();
    assert_eq!(checks, vec!["fr-a", "ru-a"]);
    let m = last(&log, "Melee");
    assert_eq!((m["odds"].as_str(), m["total"].as_i64(), m["result"].as_str()), (Some("1:1"), Some(8), Some("DR")));
    let board = sim.board();
    let ru = &board.units[1];
    assert_eq!(ru.state, State::Disordered);
    assert_ne!(ru.at, Some(sauve::hex::Offset::new(3, 4)));
    assert_eq!(board.units[0].at, Some(sauve::hex::Offset::new(3, 4)), "the attacker advanced");
}

#[test]
fn an_attacker_failing_its_pre_melee_check_is_disordered_and_does_not_attack() {
    let mut sim = human_battle(&duel((3, 4), &[], ""), &[11]);
    go_to(&mut sim, Phase::Melee, 0);
    order(&mut sim, melee(&["fr-a"], "ru-a")).expect("adjacent");
    let log = events(&sim);
    assert!(log.iter().all(|e| e["kind"] != "Melee"));
    assert_eq!(sim.board().units[0].state, State::Disordered);
    assert_eq!(sim.board().units[1].state, State::GoodOrder);
}

#[test]
fn infantry_charged_by_cavalry_forms_square_and_the_horse_fight_at_minus_four() {
    let text = scenario_text(
        &rows(8, 9, &[]),
        &[unit("fr-h", "fr", "Cavalry", 3, 7, 32, ""), unit("ru-a", "ru", "Infantry", 3, 4, 32, "")],
        &[],
        "",
        2,
    );
    // 66: the battalion forms square; 66: it passes its pre-melee check;
    // 44: the melee roll.
    let mut sim = human_battle(&text, &[66, 66, 44]);
    go_to(&mut sim, Phase::Charge, 0);
    order(&mut sim, Order::Charge { unit: "fr-h".into(), target: "ru-a".into() }).expect("within reach");
    let log = events(&sim);
    let approach = log.iter().find(|e| e["kind"] == "Move" && e["reason"] == "Charge").expect("an approach");
    assert_eq!(common::path(approach).last(), Some(&(3, 5)));
    let f = last(&log, "Formation");
    assert_eq!((f["unit"].as_str(), f["to"].as_str()), (Some("ru-a"), Some("Square")));
    assert_eq!(last(&log, "Melee")["modifier"], -4);
    let r = last(&log, "Readiness");
    assert_eq!((r["unit"].as_str(), r["to"].as_str()), (Some("fr-h"), Some("Tired")));
    assert_eq!(sim.board().units[1].formation, Formation::Square);
}

#[test]
fn infantry_failing_to_form_square_is_caught_disordered() {
    let text = scenario_text(
        &rows(8, 9, &[]),
        &[unit("fr-h", "fr", "Cavalry", 3, 7, 32, ""), unit("ru-a", "ru", "Infantry", 3, 4, 32, "")],
        &[],
        "",
        2,
    );
    let mut sim = human_battle(&text, &[11, 44]);
    go_to(&mut sim, Phase::Charge, 0);
    order(&mut sim, Order::Charge { unit: "fr-h".into(), target: "ru-a".into() }).expect("within reach");
    let log = events(&sim);
    let m = last(&log, "Melee");
    // Charging cavalry +1, defender disordered +2.
    assert_eq!(m["modifier"], 3);
}

#[test]
fn a_move_stops_in_an_enemy_zone() {
    let mut sim = human_battle(&duel((3, 1), &[], ""), &[]);
    go_to(&mut sim, Phase::Movement, 0);
    // The Russian at (3, 1) faces south: (3, 2) is in its zone, so the
    // French cannot go on past it to (2, 2)... by way of (3, 2).
    order(&mut sim, Order::Formation { unit: "fr-a".into(), to: Formation::Column }).expect("in good order");
    let e = order(&mut sim, Order::Move { unit: "fr-a".into(), to: (3, 1) }).expect_err("enemy hex");
    assert!(e.to_string().contains("cannot reach"), "{e}");
    order(&mut sim, Order::Move { unit: "fr-a".into(), to: (3, 2) }).expect("into the zone");
    assert_eq!(sim.board().units[0].at, Some(sauve::hex::Offset::new(3, 2)));
}

#[test]
fn undo_takes_back_a_move_but_nothing_once_dice_are_rolled() {
    let mut sim = human_battle(&duel((3, 1), &[], ""), &[]);
    go_to(&mut sim, Phase::Movement, 0);
    let before = sim.log().events.len();
    order(&mut sim, Order::Move { unit: "fr-a".into(), to: (3, 4) }).expect("one hex in line");
    assert_eq!(sim.board().units[0].at, Some(sauve::hex::Offset::new(3, 4)));
    assert!(sim::undo(sim.app.world_mut()));
    assert_eq!(sim.board().units[0].at, Some(sauve::hex::Offset::new(3, 5)));
    assert_eq!(sim.log().events.len(), before, "the move left no event behind");
    assert!(!sim::undo(sim.app.world_mut()), "nothing more to undo");
    sim::end_phase(sim.app.world_mut());
    go_to(&mut sim, Phase::OffensiveFire, 0);
    let _ = order(&mut sim, fire(&["fr-a"], "ru-a"));
    assert!(!sim::undo(sim.app.world_mut()), "a volley cannot be taken back");
}

#[test]
fn orders_out_of_their_phase_or_for_the_enemy_are_refused() {
    let mut sim = human_battle(&duel((3, 4), &[], ""), &[]);
    go_to(&mut sim, Phase::Movement, 0);
    assert!(matches!(order(&mut sim, melee(&["fr-a"], "ru-a")), Err(OrderError::WrongPhase { .. })));
    assert!(matches!(
        order(&mut sim, Order::Move { unit: "ru-a".into(), to: (3, 3) }),
        Err(OrderError::NotYours { .. })
    ));
    assert!(matches!(
        order(&mut sim, Order::Move { unit: "nobody".into(), to: (3, 3) }),
        Err(OrderError::UnknownUnit(_))
    ));
}

#[test]
fn the_defending_side_fires_in_the_defensive_fire_phase() {
    let mut sim = human_battle(&duel((3, 3), &[], ""), &[22]);
    go_to(&mut sim, Phase::DefensiveFire, 0);
    assert!(matches!(order(&mut sim, fire(&["fr-a"], "ru-a")), Err(OrderError::NotYours { .. })));
    order(&mut sim, fire(&["ru-a"], "fr-a")).expect("the Russians defend");
    assert_eq!(last(&events(&sim), "Fire")["target"], "fr-a");
}

#[test]
fn losses_down_to_nothing_eliminate_the_unit() {
    // 1 increment left; 66 reads 12 on the second column: "2M".
    let text = duel((3, 3), &[], "").replace("morale: 32, strength: 4)]", "morale: 32, strength: 1)]");
    assert!(text.contains("strength: 1)]"));
    let mut sim = human_battle(&text, &[66]);
    go_to(&mut sim, Phase::OffensiveFire, 0);
    order(&mut sim, fire(&["fr-a"], "ru-a")).expect("legal");
    let log = events(&sim);
    let e = last(&log, "Eliminated");
    assert_eq!((e["unit"].as_str(), e["reason"].as_str()), (Some("ru-a"), Some("Losses")));
    assert_eq!(sim.board().units[1].at, None);
}

#[test]
fn an_enemy_forming_square_drops_its_zone_from_the_cached_fields() {
    use sauve::labataille::engine::{Ctx, Engine};
    use sauve::labataille::grid::Grid;
    let s = load(&duel((3, 3), &[], ""));
    let grid = Grid::new(&s.map, &s.rules);
    let mut board = sauve::labataille::Board::from_scenario(&s);
    let ctx = Ctx { grid: &grid, rules: &s.rules, sides: &s.sides };
    let mut engine = Engine::new(&grid, &board);
    // The Russians at (3, 3) face south: (3, 4) is in their zone.
    let front = grid.idx(sauve::hex::Offset::new(3, 4));
    assert!(engine.fields(&ctx, &board, 0).is_some_and(|f| f.zone[front] > 0));
    board.units[1].formation = Formation::Square;
    engine.sync(&grid, &board);
    assert!(engine.fields(&ctx, &board, 0).is_some_and(|f| f.zone[front] == 0), "a square exerts no zone");
}

#[test]
fn a_face_order_moves_the_zone_that_stops_the_enemy_march() {
    // A one-hex road north between rivers, with a pocket at (4, 3) for the
    // Russians: their south-west hexside looks onto (3, 3), their
    // north-west onto (3, 2).
    let mut marks: Vec<(usize, usize, char)> = Vec::new();
    for r in 0..9 {
        for c in [0, 1, 2, 4, 5, 6, 7] {
            if (c, r) != (4, 3) {
                marks.push((c, r, '~'));
            }
        }
    }
    let text = scenario_text(
        &rows(8, 9, &marks),
        &[
            unit("fr-a", "fr", "Infantry", 3, 7, 32, ", formation: Column"),
            unit("ru-a", "ru", "Infantry", 4, 3, 32, ""),
        ],
        &[],
        "",
        3,
    );
    let mut sim = human_battle(&text, &[]);
    let reach = |sim: &mut Simulation| sim::movement_range(sim.app.world_mut(), 0);
    let (road2, road3) = (sauve::hex::Offset::new(3, 2), sauve::hex::Offset::new(3, 3));
    go_to(&mut sim, Phase::Movement, 0);
    // Facing south (away from their northern rear), the Russians' zone
    // covers (3, 3): the French column of 6 MP stops there.
    let r = reach(&mut sim);
    assert!(r.cost_to(road3).is_some() && r.cost_to(road2).is_none());
    sim::end_phase(sim.app.world_mut());
    go_to(&mut sim, Phase::Movement, 1);
    let e = order(&mut sim, Order::Face { unit: "fr-a".into(), facing: Dir::S }).expect_err("not theirs");
    assert!(matches!(e, OrderError::NotYours { .. }));
    order(&mut sim, Order::Face { unit: "ru-a".into(), facing: Dir::N }).expect("in good order");
    assert_eq!(sim.board().units[1].facing, Dir::N);
    let log = events(&sim);
    let f = last(&log, "Facing");
    assert_eq!((f["unit"].as_str(), f["from"].as_str(), f["to"].as_str()), (Some("ru-a"), Some("S"), Some("N")));
    // Taken back, then given again: the board follows both ways.
    assert!(sim::undo(sim.app.world_mut()));
    assert_eq!(sim.board().units[1].facing, Dir::S);
    order(&mut sim, Order::Face { unit: "ru-a".into(), facing: Dir::N }).expect("again");
    sim::end_phase(sim.app.world_mut());
    go_to(&mut sim, Phase::Movement, 0);
    // Now the zone covers (3, 2) and no longer (3, 3): one hex further.
    let r = reach(&mut sim);
    assert!(r.cost_to(road2).is_some(), "past the old front");
    assert!(r.cost_to(sauve::hex::Offset::new(3, 1)).is_none(), "stopped in the new one");
    order(&mut sim, Order::Move { unit: "fr-a".into(), to: (3, 2) }).expect("into the new front");
}

/// Plays to the end, ending every phase that waits for orders.
fn play_out(sim: &mut Simulation) {
    let w = sim.app.world_mut();
    while sim::step_phase(w) {
        if sim::awaiting_orders(w).is_some() {
            sim::end_phase(w);
        }
    }
}

#[test]
fn corps_are_first_checked_on_the_rules_block_command_turn() {
    // The lone Russian battalion starts routed and fails its recovery (11):
    // its corps is broken, and a played battle ends at the first command
    // segment that sees it.
    let ended_in = |rules_line: &str| {
        let text = duel((3, 1), &[], ", state: Routed").replace("rules: ()", &format!("rules: ({rules_line})"));
        let mut sim = human_battle(&text, &[11, 11, 11, 11]);
        play_out(&mut sim);
        let log = events(&sim);
        let broken = log.iter().find(|e| e["kind"] == "CorpsBroken").map(|e| e["turn"].as_u64());
        (broken, last(&log, "Final")["turn"].as_u64())
    };
    assert_eq!(ended_in(""), (Some(Some(2)), Some(2)), "default: checked from turn 2");
    assert_eq!(ended_in("first_command_turn: 3"), (None, Some(2)), "never checked in a 2-turn battle");
}
