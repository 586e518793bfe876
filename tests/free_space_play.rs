//! The free-space game beyond morale (docs/rules.md 2.7-2.12): orders,
//! fire, melee, valour, captured guns, pushed-back enemies, the AI and a
//! player's orders, each on a tiny table with scripted 3d6 totals.

mod common;

use std::sync::Arc;

use common::*;
use sauve::belle_alliance::broad::BroadPhaseKind;
use sauve::belle_alliance::engine::FsEngine;
use sauve::belle_alliance::play::{At, Bound, FsPlay, close_phase};
use sauve::belle_alliance::{FsCtx, Table, ai};
use sauve::dice::Dice;
use sauve::events::{Cause, EventKind, EventLog, FireRoll, MeleeRolls, MoveReason, Pos};
use sauve::labataille::orders::Order;
use sauve::scenario::Scenario;
use sauve::sim::{self, Seats, Simulation};
use sauve::turn::Phase;
use sauve::vocab::{Formation, State};

/// A table with its engine, game state, dice and log.
struct Game {
    s: Arc<Scenario>,
    table: Table,
    play: FsPlay,
    dice: Dice,
    log: EventLog,
}

impl Game {
    fn new(units: &[String], dice: &[u32]) -> Self {
        Self::on(&rows(20, 20, &[]), units, dice)
    }

    fn on(rows: &[String], units: &[String], dice: &[u32]) -> Self {
        Self::of(&table(rows, units, &[], ""), dice)
    }

    /// The game of a whole scenario text.
    fn of(text: &str, dice: &[u32]) -> Self {
        let s = load(text);
        let table = Table::from_scenario(&s);
        let play = FsPlay::new(s.units.len());
        Self { s, table, play, dice: Dice::new(1, dice.to_vec()), log: EventLog::default() }
    }

    /// Runs `f` on the bound, then closes the phase (its forced moves, guns).
    fn bound<R>(&mut self, f: impl FnOnce(&mut Bound) -> R) -> R {
        let ctx = FsCtx::new(&self.s);
        let mut engine = FsEngine::new(&ctx, &self.table, BroadPhaseKind::Grid);
        let r = f(&mut Bound {
            ctx: &ctx,
            engine: &mut engine,
            table: &mut self.table,
            play: &mut self.play,
            dice: &mut self.dice,
            log: &mut self.log,
        });
        close_phase(&ctx, &mut engine, &mut self.table, &mut self.play, &mut self.dice, &mut self.log, 1);
        r
    }

    /// Gives `order` as side `side` in `phase`, then closes the phase.
    fn order(&mut self, phase: Phase, side: usize, order: Order) -> Result<(), String> {
        self.bound(|b| b.apply(At { turn: 1, phase, side }, &order).map_err(|e| e.to_string()))
    }

    fn ai(&mut self, phase: Phase, side: usize) -> Vec<Order> {
        let goals = ai::FsGoals {
            aggression: 0.5,
            objectives: Vec::new(),
            broken: false,
            level: Default::default(),
            scripts: Vec::new(),
        };
        self.bound(|b| ai::play_phase(b, At { turn: 1, phase, side }, &goals))
    }

    /// Plays side 0's movement phase of `turn` with `goals` on a fresh bound.
    fn movement(&mut self, turn: u32, goals: &ai::FsGoals) -> Vec<Order> {
        self.play.new_bound(&self.table, 0);
        self.bound(|b| ai::play_phase(b, At { turn, phase: Phase::Movement, side: 0 }, goals))
    }

    /// Plays `turns` movement phases of side 0 at `level` and `aggression`,
    /// making for one objective worth 2 that the enemy holds; where unit
    /// `c` then stands, and its facing.
    fn march_c(
        &mut self,
        level: sauve::vocab::AiLevel,
        aggression: f32,
        objective: (f32, f32),
        turns: u32,
    ) -> (f32, f32, f32) {
        let goals = ai::FsGoals {
            aggression,
            objectives: vec![(objective, 2, Some(1))],
            broken: false,
            level,
            scripts: Vec::new(),
        };
        for turn in 1..=turns {
            self.movement(turn, &goals);
        }
        let c = self.unit("c");
        (c.x, c.y, c.facing)
    }

    fn unit(&self, id: &str) -> &sauve::belle_alliance::FsUnit {
        &self.table.units[self.table.index_of(id).expect("unit")]
    }

    fn kinds(&self) -> Vec<&EventKind> {
        self.log.events.iter().map(|e| &e.kind).collect()
    }
}

/// The ground of generated table 14 (`sauve generate --free-space --seed
/// 14`), its northern half: the brook with its two bridges.
fn table_14() -> Vec<String> {
    [
        "....................................",
        "....................................",
        "....................................",
        "...........................w........",
        "...........................w........",
        "....................................",
        ".............................vv.....",
        ".~~~........~~==~~~~.........vv.....",
        "~~.~~~~~~~~~~.....w~~~~~==~~www.....",
        "..................www.vv...~~~~~~~~~",
        "..................www.vv............",
        ".......vv...........................",
        ".......vv...........................",
        "....................................",
    ]
    .map(String::from)
    .to_vec()
}

/// The ground of generated table 1 (`sauve generate --free-space --seed
/// 1`): the brook with its two bridges, the villages south of it.
fn table_1() -> Vec<String> {
    [
        "....................................",
        "....................................",
        "....................................",
        "....................................",
        "...............................wwwww",
        "..................................ww",
        "..................................ww",
        "ww...................~~~~.........w.",
        "ww.~~~~..www....~~.~~~..~~~~~www~~~~",
        "~~~~..~~~~==~~~~~~~~.......w~~==~ww.",
        "wwwww...............................",
        "w....................vv.............",
        "w...vv...............vvvv...........",
        "....vv.................vv...........",
        "....................................",
        "....................................",
        "....................................",
        "....................................",
    ]
    .map(String::from)
    .to_vec()
}

fn fire(units: &[&str], target: &str) -> Order {
    Order::Fire { units: units.iter().map(|u| u.to_string()).collect(), target: target.into() }
}

#[test]
fn a_volley_that_breaks_its_target_sends_it_away_from_the_firers() {
    // a (south, facing north) fires at b 5 cm away: 24 points, +3; a natural
    // 18 makes 21, the FU row. b flees north, away from a's centre.
    let mut g = Game::new(
        &[fsu("a", "a", "Infantry", 100.0, 100.0, 24, ""), fsu("b", "b", "Infantry", 100.0, 91.0, 24, "")],
        &[18],
    );
    g.order(Phase::OffensiveFire, 0, fire(&["a"], "b")).expect("in range");
    let volley = g.kinds().into_iter().find_map(|k| match k {
        EventKind::Fire { rolled: FireRoll::FreeSpace { modifier, total, figures, state, .. }, .. } => {
            Some((*modifier, *total, *figures, *state))
        }
        _ => None,
    });
    assert_eq!(volley, Some((3, 21, 5, State::FU)));
    let b = g.unit("b");
    assert_eq!((b.state, b.figures), (State::FU, 19));
    assert!(b.y < 91.0 - 10.0, "fled north, away from the firer: {b:?}");
    assert!(!g.play.ordered[1], "a flight is no march by order: the unit has not come on (2.12)");
    let change = g.log.events.iter().find(|e| matches!(e.kind, EventKind::StateChange { cause: Cause::Fire, .. }));
    let flight = g.log.events.iter().find(|e| matches!(e.kind, EventKind::Move { reason: MoveReason::Flight, .. }));
    let (change, flight) = (change.expect("state change"), flight.expect("flight"));
    assert!(flight.because.contains(&change.seq), "the flight follows from the volley's result");
    assert_eq!(
        g.order(Phase::OffensiveFire, 0, fire(&["a"], "b")),
        Err("unit 'a': has already fired this phase".into())
    );
}

#[test]
fn losses_cost_valour_and_a_failed_valour_test_flees_in_a_free_direction() {
    // 20 figures; a total of 17 takes 4 (20%): valour 0 -> -1, then the
    // test 3 - 1 = 2 <= 7 fails. The free direction is b's own rear
    // (north), although the fire came from the east.
    let mut g = Game::new(
        &[
            fsu("a", "a", "Infantry", 112.0, 100.0, 24, ", facing: 270.0"),
            fsu("b", "b", "Infantry", 100.0, 100.0, 20, ", facing: 90.0"),
        ],
        &[14, 3],
    );
    g.order(Phase::OffensiveFire, 0, fire(&["a"], "b")).expect("in range");
    let b = g.unit("b");
    assert_eq!((b.valour, b.figures, b.state), (-1, 16, State::FU), "{:?}", g.kinds());
    assert!(g.kinds().iter().any(|k| matches!(k, EventKind::StateChange { cause: Cause::Valour, to: State::FU, .. })));
    assert!(g.kinds().iter().any(|k| matches!(k, EventKind::Valour { from: 0, to: -1, .. })));
    assert!(b.y < 90.0 && (b.x - 100.0).abs() < 15.0, "fled towards its rear, not west away from the fire: {b:?}");
}

#[test]
fn the_loser_of_a_melee_retreats_from_the_winner_and_a_draw_costs_both() {
    // a attacks b, fronts touching: 10 against 4 is a difference of 6: FU.
    let units = [fsu("a", "a", "Infantry", 100.0, 100.0, 24, ""), fsu("b", "b", "Infantry", 100.0, 95.5, 24, "")];
    let mut g = Game::new(&units, &[10, 4]);
    g.order(Phase::Melee, 0, Order::Melee { units: vec!["a".into()], target: "b".into() }).expect("in contact");
    let b = g.unit("b");
    assert_eq!((b.state, b.figures), (State::FU, 21));
    assert!(b.y < 90.0, "fled away from a: {b:?}");
    assert_eq!(g.unit("a").figures, 24, "a clean win costs the winner nothing");
    let mut g = Game::new(&units, &[9, 9]);
    g.order(Phase::Melee, 0, Order::Melee { units: vec!["a".into()], target: "b".into() }).expect("in contact");
    assert_eq!((g.unit("a").figures, g.unit("b").figures), (23, 23));
    assert_eq!((g.unit("a").state, g.unit("b").state), (State::Order, State::Order));
    let far = [fsu("a", "a", "Infantry", 100.0, 100.0, 24, ""), fsu("b", "b", "Infantry", 100.0, 80.0, 24, "")];
    let mut g = Game::new(&far, &[]);
    let err = g.order(Phase::Melee, 0, Order::Melee { units: vec!["a".into()], target: "b".into() }).unwrap_err();
    assert!(err.contains("must touch it"), "{err}");
}

#[test]
fn a_charge_rides_into_contact_and_melees_with_its_bonus() {
    // Horse 30 cm south-east, facing the line's flank (west).
    let mut g = Game::new(
        &[
            fsu("h", "a", "Cavalry", 140.0, 100.0, 12, ", facing: 270.0"),
            fsu("b", "b", "Infantry", 100.0, 100.0, 24, ", facing: 180.0"),
        ],
        // The line's try at forming square (5 < 11) fails, then the melee.
        &[5, 11, 10],
    );
    g.order(Phase::Charge, 0, Order::Charge { unit: "h".into(), target: "b".into() }).expect("a charge");
    let moved = g.kinds().into_iter().find_map(|k| match k {
        EventKind::Move { reason: MoveReason::Charge, to: Pos::Cm([x, _]), .. } => Some(*x),
        _ => None,
    });
    let x = moved.expect("the charge's approach");
    assert!((x - 114.5).abs() < 0.1, "stops in contact with the line's end (112) plus half its depth: {x}");
    // Ratio 12 v 24 -4, flank +2, horse on foot +3, charge +2: 11 + 3 = 14 v 10.
    let clash = g.kinds().into_iter().find_map(|k| match k {
        EventKind::Melee { rolls: MeleeRolls::FreeSpace { attack_total, defence_total, .. }, .. } => {
            Some((*attack_total, *defence_total))
        }
        _ => None,
    });
    assert_eq!(clash, Some((14, 10)));
    assert_eq!(g.unit("b").state, State::U);
    let err = g.order(Phase::Movement, 0, Order::March { unit: "h".into(), to: (140.0, 100.0), facing: 270.0 });
    assert!(err.unwrap_err().contains("has charged"));
}

#[test]
fn foot_charged_by_horse_may_form_square_first_and_the_horse_breaks_on_it() {
    // 12 + valour 0 reaches 11: the line forms square before the contact;
    // the horse rides at the square (ratio -4, horse on a square -4, charge
    // +2: 10 - 6 = 4 against 10) and loses by 6: it flees.
    let mut g = Game::new(
        &[
            fsu("h", "a", "Cavalry", 140.0, 100.0, 12, ", facing: 270.0"),
            fsu("b", "b", "Infantry", 100.0, 100.0, 24, ", facing: 180.0"),
        ],
        &[12, 10, 10],
    );
    g.order(Phase::Charge, 0, Order::Charge { unit: "h".into(), target: "b".into() }).expect("a charge");
    assert_eq!(g.unit("b").formation, Formation::Square);
    let check = g.kinds().into_iter().find_map(|k| match k {
        EventKind::MoraleCheck { unit, cause: Cause::Charge, result, passed, .. } if unit == "b" => {
            Some((*result, *passed))
        }
        _ => None,
    });
    assert_eq!(check, Some((12, true)));
    let clash = g.kinds().into_iter().find_map(|k| match k {
        EventKind::Melee { rolls: MeleeRolls::FreeSpace { attack_total, defence_total, loser, .. }, .. } => {
            Some((*attack_total, *defence_total, loser.clone()))
        }
        _ => None,
    });
    assert_eq!(clash, Some((4, 10, Some("h".into()))));
    assert_eq!(g.unit("h").state, State::FU);
}

#[test]
fn a_march_too_long_is_refused_and_changes_nothing() {
    let mut g = Game::new(
        &[fsu("a", "a", "Infantry", 100.0, 100.0, 24, ""), fsu("b", "b", "Infantry", 100.0, 20.0, 24, "")],
        &[],
    );
    let before = g.table.clone();
    let err = g.order(Phase::Movement, 0, Order::March { unit: "a".into(), to: (100.0, 85.0), facing: 0.0 });
    assert!(err.unwrap_err().contains("costs 15.0 cm and 10.0 cm are left"));
    assert_eq!(g.table, before);
    // Forming column takes half the line's 10 cm; the column marches 15: 10 left.
    g.order(Phase::Movement, 0, Order::Formation { unit: "a".into(), to: Formation::Column }).expect("re-forms");
    let err = g.order(Phase::Movement, 0, Order::March { unit: "a".into(), to: (100.0, 89.0), facing: 0.0 });
    assert!(err.unwrap_err().contains("10.0 cm are left"));
    g.order(Phase::Movement, 0, Order::March { unit: "a".into(), to: (100.0, 90.0), facing: 0.0 }).expect("10 cm");
    assert_eq!((g.unit("a").x, g.unit("a").y), (100.0, 90.0));
}

#[test]
fn guns_left_by_a_fleeing_crew_fall_to_an_enemy_that_touches_them_unless_a_friend_guards_them() {
    let shocked = |guard: bool| {
        let mut units = vec![
            fsu("g", "a", "Artillery", 100.0, 100.0, 4, ""),
            fsu("e", "b", "Infantry", 100.0, 88.0, 24, ", facing: 180.0"),
            fsu("c", "b", "Infantry", 160.0, 100.0, 24, ", facing: 270.0"),
        ];
        if guard {
            units.push(fsu("f", "a", "Infantry", 100.0, 106.0, 24, ""));
        }
        let mut g = Game::new(&units, &[]);
        // The crew breaks under c's fire from the east: its guns stay at
        // (100, 100) and the gunners flee west.
        let ctx = FsCtx::new(&g.s);
        let mut engine = FsEngine::new(&ctx, &g.table, BroadPhaseKind::Grid);
        let shock = sauve::scenario::Shock { turn: 1, unit: 0, to: State::FU, cause: Some(2) };
        engine.apply_shock(&ctx, &mut g.table, &mut g.log, &shock, 1);
        engine.resolve(&ctx, &mut g.table, &mut g.dice, &mut g.log, 1);
        assert_eq!(g.unit("g").guns_left, Some((100.0, 100.0)));
        // The enemy marches up to the guns: 8 cm straight on, its front touching them.
        g.order(Phase::Movement, 1, Order::March { unit: "e".into(), to: (100.0, 96.0), facing: 180.0 })
            .map(|_| g.play.captured[0])
    };
    assert_eq!(shocked(false), Ok(true));
    assert_eq!(shocked(true), Ok(false), "a friend in order guards them");
}

#[test]
fn a_pushed_back_enemy_no_longer_stops_a_flight() {
    // a flees north from b's fire; c, an enemy in its way, stops it in
    // order but not once shaken into U.
    let flight_end = |c_state: &str| {
        let units = [
            fsu("a", "a", "Infantry", 100.0, 100.0, 24, ""),
            fsu("b", "b", "Infantry", 100.0, 130.0, 24, ", facing: 0.0"),
            fsu("c", "b", "Infantry", 100.0, 88.0, 24, &format!(", state: {c_state}")),
        ];
        let text = table(&rows(20, 20, &[]), &units, &["(turn: 1, unit: \"a\", to: FU, cause: \"b\")"], "");
        let log = run(&text, &[]);
        let mv = for_unit(&log, "Move", "a")[0].clone();
        mv["to"][1].as_f64().unwrap_or(f64::NAN)
    };
    let stopped = flight_end("Order");
    let passed = flight_end("U");
    assert!(stopped > 88.0, "stopped at c: {stopped}");
    assert!(passed < 85.0, "passed c: {passed}");
}

#[test]
fn the_ai_forms_square_against_horse_and_concentrates_its_fire() {
    let mut g = Game::new(
        &[
            fsu("a", "a", "Infantry", 100.0, 120.0, 24, ""),
            fsu("h", "b", "Cavalry", 100.0, 95.0, 12, ", facing: 180.0"),
        ],
        &[],
    );
    let orders = g.ai(Phase::Movement, 0);
    assert_eq!(orders, vec![Order::Formation { unit: "a".into(), to: Formation::Square }]);
    // Two battalions and a battery facing two targets: the first volley takes
    // all the firers one target needs to reach the top modifier.
    let mut g = Game::new(
        &[
            fsu("a1", "a", "Infantry", 90.0, 110.0, 24, ""),
            fsu("a2", "a", "Infantry", 115.0, 110.0, 24, ""),
            fsu("b1", "b", "Infantry", 102.0, 95.0, 24, ", facing: 180.0, state: U"),
            fsu("b2", "b", "Infantry", 140.0, 60.0, 24, ", facing: 180.0"),
        ],
        &[3, 3, 3, 3],
    );
    let orders = g.ai(Phase::OffensiveFire, 0);
    assert_eq!(orders.first(), Some(&fire(&["a1", "a2"], "b1")), "both fire at the disordered b1: {orders:?}");
}

#[test]
fn a_player_gives_orders_on_a_table_and_takes_a_march_back() {
    let units = [fsu("a", "a", "Infantry", 100.0, 100.0, 24, ""), fsu("b", "b", "Infantry", 100.0, 20.0, 24, "")];
    let text = table(&rows(20, 20, &[]), &units, &[], "")
        .replace("(id: \"a\", rear: South)", "(id: \"a\", rear: South, control: Player)");
    let s = load(&text);
    let mut sim = Simulation::new(s, 1, Vec::new(), Seats::Player);
    let world = sim.app.world_mut();
    while sim::awaiting_orders(world) != Some((Phase::Movement, 0)) {
        if sim::awaiting_orders(world).is_some() {
            sim::end_phase(world);
        } else {
            sim::step_phase(world);
        }
    }
    let march = Order::March { unit: "a".into(), to: (100.0, 92.0), facing: 0.0 };
    sim::issue_order(world, &march).expect("a legal march");
    let at = |world: &mut bevy::prelude::World| {
        sim::view::table_scope(world, |_, t| (t.units[0].x, t.units[0].y)).expect("a table")
    };
    assert_eq!(at(world), (100.0, 92.0));
    assert!(sim::undo(world), "no dice were rolled");
    assert_eq!(at(world), (100.0, 100.0));
    let err = sim::issue_order(world, &Order::March { unit: "a".into(), to: (100.0, 80.0), facing: 0.0 });
    assert!(err.is_err(), "too far");
    assert_eq!(at(world), (100.0, 100.0));
    sim::issue_order(world, &march).expect("again");
    while !world.resource::<sim::Clock>().finished {
        if sim::awaiting_orders(world).is_some() {
            sim::end_phase(world);
        } else {
            sim::step_phase(world);
        }
    }
    let log = sim.log();
    assert!(log.events.iter().any(|e| matches!(e.kind, EventKind::GameOver { .. })), "a played table is judged");
}

#[test]
fn the_ai_goes_for_guns_an_enemy_crew_left_and_takes_them() {
    let mut g = Game::new(
        &[
            fsu("a", "a", "Infantry", 100.0, 120.0, 24, ""),
            fsu("g", "b", "Artillery", 100.0, 108.0, 4, ", facing: 180.0"),
            fsu("b", "b", "Infantry", 100.0, 20.0, 24, ""),
        ],
        &[],
    );
    let ctx = FsCtx::new(&g.s);
    let mut engine = FsEngine::new(&ctx, &g.table, BroadPhaseKind::Grid);
    let shock = sauve::scenario::Shock { turn: 1, unit: 1, to: State::FU, cause: Some(0) };
    engine.apply_shock(&ctx, &mut g.table, &mut g.log, &shock, 1);
    engine.resolve(&ctx, &mut g.table, &mut g.dice, &mut g.log, 1);
    assert_eq!(g.unit("g").guns_left, Some((100.0, 108.0)), "the crew fled north without its guns");
    let orders = g.ai(Phase::Movement, 0);
    assert!(orders.iter().any(|o| matches!(o, Order::March { unit, .. } if unit == "a")), "{orders:?}");
    assert!(g.play.captured[1], "{orders:?} {:?}", g.unit("a"));
    assert!(
        g.kinds().iter().any(|k| matches!(k, EventKind::GunsCaptured { unit, by, .. } if unit == "g" && by == "a"))
    );
}

#[test]
fn the_ai_charges_a_shaken_line_but_not_a_square() {
    // Horse 30 cm from a line in U: the edge (ratio -4, horse on foot +3,
    // charge +2, U +2 for it) clears the threshold; a square's does not.
    let run = |extra: &str| {
        let mut g = Game::new(
            &[fsu("h", "a", "Cavalry", 100.0, 140.0, 12, ""), fsu("b", "b", "Infantry", 100.0, 110.0, 24, extra)],
            &[10, 10],
        );
        g.ai(Phase::Charge, 0)
    };
    assert_eq!(run(", state: U"), vec![Order::Charge { unit: "h".into(), target: "b".into() }]);
    assert_eq!(run(", formation: Square"), vec![]);
}

#[test]
fn a_cautious_ai_keeps_a_reserve_back() {
    // Four battalions in line facing the enemy, aggression 0: 30% of them
    // (one), the farthest from the enemy, closes only to 40 cm.
    let mut g = Game::new(
        &[
            fsu("a1", "a", "Infantry", 72.0, 55.0, 24, ""),
            fsu("a2", "a", "Infantry", 100.0, 50.0, 24, ""),
            fsu("a3", "a", "Infantry", 128.0, 55.0, 24, ""),
            fsu("a4", "a", "Infantry", 100.0, 66.0, 24, ""),
            fsu("b", "b", "Infantry", 100.0, 20.0, 24, ""),
        ],
        &[],
    );
    let ctx_goals = ai::FsGoals {
        aggression: 0.0,
        objectives: Vec::new(),
        broken: false,
        level: Default::default(),
        scripts: Vec::new(),
    };
    let orders = g.bound(|b| ai::play_phase(b, At { turn: 1, phase: Phase::Movement, side: 0 }, &ctx_goals));
    let moved: Vec<&str> = orders
        .iter()
        .filter_map(|o| match o {
            Order::March { unit, .. } => Some(unit.as_str()),
            _ => None,
        })
        .collect();
    assert!(moved.contains(&"a1") && moved.contains(&"a2") && moved.contains(&"a3"), "{orders:?}");
    let a4 = g.unit("a4");
    let gap = (a4.x - 100.0).hypot(a4.y - 20.0);
    // It began 46 cm off and could march 11: it stops at 40.
    assert!(
        moved.contains(&"a4") && (39.5..40.5).contains(&gap),
        "the reserve closes to 40 cm and no nearer: {gap} {orders:?}"
    );
    let a2 = g.unit("a2");
    assert_eq!((a2.x, a2.y), (100.0, 40.0), "the others close on the enemy a whole march");
}

/// A charge's odds with every die in them (docs/rules.md 2.7, 2.9): the
/// target's square test, then the melee against the line or the square,
/// agree with the charge ridden with random dice, within 4.5 standard
/// errors of each ending.
#[test]
fn a_charges_odds_count_the_square_test_and_agree_with_charges_ridden() {
    let units = [
        fsu("h", "a", "Cavalry", 140.0, 100.0, 12, ", facing: 270.0"),
        fsu("b", "b", "Infantry", 100.0, 100.0, 24, ", facing: 180.0"),
    ];
    let mut g = Game::new(&units, &[]);
    let odds = g.bound(|b| sauve::belle_alliance::play::charge_odds(b, 0, 1)).expect("a charge in reach");
    let p = odds.square.expect("a line charged by horse tries to form square");
    // 3d6 + valour 0 reaching 11: 108 of the 216 rolls.
    assert!((p - 108.0 / 216.0).abs() < 1e-6, "{p}");
    let square = odds.against_square.clone().expect("the square is still in reach");
    assert!(square.attack - square.defence < odds.fight.attack - odds.fight.defence, "horse fares worse on a square");
    let sum = odds.win + odds.draw + odds.lose + odds.called_off;
    assert!((sum - 1.0).abs() < 1e-4, "{sum}");
    let runs: u32 = 6000;
    let (mut win, mut draw, mut lose) = (0u32, 0u32, 0u32);
    for seed in 0..runs {
        let mut g = Game::new(&units, &[]);
        g.dice = Dice::new(u64::from(seed), Vec::new());
        g.order(Phase::Charge, 0, Order::Charge { unit: "h".into(), target: "b".into() }).expect("a charge");
        let loser = g.kinds().into_iter().find_map(|k| match k {
            EventKind::Melee { rolls: MeleeRolls::FreeSpace { loser, .. }, .. } => Some(loser.clone()),
            _ => None,
        });
        match loser.expect("the charge rode in") {
            Some(l) if l == "b" => win += 1,
            Some(_) => lose += 1,
            None => draw += 1,
        }
    }
    for (name, seen, p) in [("win", win, odds.win), ("draw", draw, odds.draw), ("lose", lose, odds.lose)] {
        let (seen, p) = (f64::from(seen) / f64::from(runs), f64::from(p));
        let se = (p * (1.0 - p) / f64::from(runs)).sqrt();
        assert!((seen - p).abs() <= 4.5 * se + 1e-9, "{name}: odds {p:.4}, seen {seen:.4}");
    }
}

/// A volley's odds count the valour tests its losses demand (docs/rules.md
/// 2.10): the chance the target is left fleeing agrees with volleys fired
/// with random dice, within 4.5 standard errors.
#[test]
fn a_volleys_chance_to_put_its_target_to_flight_counts_the_valour_tests() {
    let units = [
        fsu("a", "a", "Infantry", 112.0, 100.0, 24, ", facing: 270.0"),
        fsu("b", "b", "Infantry", 100.0, 100.0, 12, ", facing: 90.0"),
    ];
    let mut g = Game::new(&units, &[]);
    let flees = g.bound(|b| {
        let v = sauve::belle_alliance::combat::volley(b.ctx, b.engine, b.table, &[0], 1).expect("in range");
        let by_row = sauve::belle_alliance::combat::fire_flight(b.ctx, b.table, 1, v.modifier);
        let (_, rows) = sauve::belle_alliance::combat::odds(&b.ctx.ba().fire.results, v.modifier);
        let fu_row: f32 =
            b.ctx.ba().fire.results.iter().zip(&rows).filter(|(r, _)| r.state == State::FU).map(|(_, p)| p).sum();
        assert!(by_row > fu_row + 0.01, "the valour tests add to the table's own flight: {by_row} against {fu_row}");
        by_row
    });
    let runs: u32 = 6000;
    let mut fled = 0u32;
    for seed in 0..runs {
        let mut g = Game::new(&units, &[]);
        g.dice = Dice::new(u64::from(seed), Vec::new());
        g.order(Phase::OffensiveFire, 0, fire(&["a"], "b")).expect("in range");
        fled += u32::from(g.unit("b").state == State::FU);
    }
    let (seen, p) = (f64::from(fled) / f64::from(runs), f64::from(flees));
    let se = (p * (1.0 - p) / f64::from(runs)).sqrt();
    assert!((seen - p).abs() <= 4.5 * se + 1e-9, "odds {p:.4}, seen {seen:.4}");
}

/// A melee's odds count the valour tests each side's losses demand: the
/// chances the target and the attacker are left fleeing agree with melees
/// fought with random dice, within 4.5 standard errors.
#[test]
fn a_melees_chances_to_put_either_side_to_flight_count_the_valour_tests() {
    // Small units: every figure lost is a tenth of one, so losses cost valour.
    let units = [fsu("a", "a", "Infantry", 100.0, 100.0, 10, ""), fsu("b", "b", "Infantry", 100.0, 95.5, 8, "")];
    let mut g = Game::new(&units, &[]);
    let (they, we) = g.bound(|b| {
        let f = sauve::belle_alliance::combat::fight(b.ctx, b.engine, b.table, &[0], 1, false).expect("in contact");
        sauve::belle_alliance::combat::fight_flight(b.ctx, b.table, &f, 0, 1)
    });
    assert!(they > 0.05 && we > 0.05, "both may flee: {they} {we}");
    let runs: u32 = 6000;
    let (mut b_fled, mut a_fled) = (0u32, 0u32);
    for seed in 0..runs {
        let mut g = Game::new(&units, &[]);
        g.dice = Dice::new(u64::from(seed), Vec::new());
        g.order(Phase::Melee, 0, Order::Melee { units: vec!["a".into()], target: "b".into() }).expect("in contact");
        b_fled += u32::from(g.unit("b").state == State::FU);
        a_fled += u32::from(g.unit("a").state == State::FU);
    }
    for (who, fled, p) in [("target", b_fled, they), ("attacker", a_fled, we)] {
        let (seen, p) = (f64::from(fled) / f64::from(runs), f64::from(p));
        let se = (p * (1.0 - p) / f64::from(runs)).sqrt();
        assert!((seen - p).abs() <= 4.5 * se + 1e-9, "{who}: odds {p:.4}, seen {seen:.4}");
    }
}

/// A battalion in column, 16 cm wide, on its way to a village beyond a
/// brook with a bridge 20 cm wide (docs/rules.md 2.12, routes at `Normal`):
/// its way keeps its whole front on open ground, so it lines up on the
/// bridge's middle and crosses, where a way for its centre alone led it
/// to the middle of a bridge cell, 5 cm off, and every march from there
/// was refused; off the bridge it marches straight on until it may wheel.
/// The easy AI marches straight and stays south of the brook.
#[test]
fn the_normal_ai_lines_a_column_up_on_a_narrow_bridge_and_crosses() {
    // The village to take, north of the brook, held by the enemy.
    let goals = |level| ai::FsGoals {
        aggression: 0.5,
        objectives: vec![((45.0, 45.0), 1, Some(1))],
        broken: false,
        level,
        scripts: Vec::new(),
    };
    let (_, y) = march_over_the_brook(&goals(sauve::vocab::AiLevel::Normal));
    assert!(y < 80.0, "the normal AI crossed the brook and went on: it stands at y = {y}");
    let (_, y) = march_over_the_brook(&goals(sauve::vocab::AiLevel::Easy));
    assert!(y > 100.0, "the easy AI stays south of it: y = {y}");
}

/// Where a column of side `a`, 40 cm from the left edge south of a brook
/// bridged 20 cm wide in its middle (row 10, x 90-110 cm), stands after
/// twelve movement phases with `goals`, the enemy far off to the
/// north-east.
fn march_over_the_brook(goals: &ai::FsGoals) -> (f32, f32) {
    let mut marks: Vec<(usize, usize, char)> = (0..20).map(|c| (c, 10, '~')).collect();
    marks[9].2 = '=';
    marks[10].2 = '=';
    let mut g = Game::on(
        &rows(20, 20, &marks),
        &[
            fsu("a", "a", "Infantry", 40.0, 160.0, 32, ", formation: Column"),
            fsu("b", "b", "Infantry", 180.0, 15.0, 24, ""),
        ],
        &[],
    );
    for turn in 1..=12 {
        g.movement(turn, goals);
    }
    let a = g.unit("a");
    (a.x, a.y)
}

/// At `Normal` a bold side goes round a brook to the enemy by its bridge
/// (docs/rules.md 2.12, routes); to a cautious side the brook is ground to
/// hold, and it stays south of it.
#[test]
fn a_bold_side_goes_round_the_brook_to_the_enemy_and_a_cautious_one_holds_it() {
    let goals = |aggression| ai::FsGoals {
        aggression,
        objectives: Vec::new(),
        broken: false,
        level: sauve::vocab::AiLevel::Normal,
        scripts: Vec::new(),
    };
    let (_, y) = march_over_the_brook(&goals(0.7));
    assert!(y < 90.0, "the bold side crossed the brook: it stands at y = {y}");
    let (_, y) = march_over_the_brook(&goals(0.3));
    assert!(y > 100.0, "the cautious side holds the brook: y = {y}");
}

/// The AI's goals for side `a` at `level` and `aggression`: one objective
/// of 1 point at `objective`, held by side `b`.
fn held_by_b(objective: (f32, f32), aggression: f32, level: sauve::vocab::AiLevel) -> ai::FsGoals {
    ai::FsGoals { aggression, objectives: vec![(objective, 1, Some(1))], broken: false, level, scripts: Vec::new() }
}

/// Foot of a bold side standing in the area of an objective that an enemy
/// garrison still holds storms the garrison at `Normal` (docs/rules.md
/// 2.12): it had made for the area's centre and stood there beside the
/// enemy, and the place never changed hands. The easy AI and a cautious
/// side stand at the centre.
#[test]
fn foot_inside_an_objective_the_enemy_still_holds_storms_its_garrison() {
    use sauve::vocab::AiLevel;
    let objective = (150.0, 100.0);
    // `a` stands at the objective's centre, facing north; the garrison `g`
    // stands 14 cm north of it, inside the area (20 cm), facing south.
    let gap_after = |level: AiLevel, aggression: f32| {
        let units = [
            fsu("a", "a", "Infantry", objective.0, objective.1, 24, ""),
            fsu("g", "b", "Infantry", objective.0, objective.1 - 14.0, 24, ", facing: 180.0"),
        ];
        let mut g = Game::of(&table(&rows(30, 20, &[]), &units, &[], ""), &[]);
        g.movement(1, &held_by_b(objective, aggression, level));
        let (a, t) = (g.unit("a"), g.unit("g"));
        (a.x - t.x).hypot(a.y - t.y)
    };
    let stormed = gap_after(AiLevel::Normal, 0.7);
    assert!(stormed < 10.0, "the bold side closes on the garrison: {stormed} cm off");
    for (level, aggression) in [(AiLevel::Easy, 0.7), (AiLevel::Normal, 0.3)] {
        let stood = gap_after(level, aggression);
        assert!((stood - 14.0).abs() < 0.01, "{level:?} at {aggression} stands at the centre: {stood} cm off");
    }
}

/// A bold side storms an objective at `Normal` (docs/rules.md 2.12): its
/// foot within `storm_within_cm` of the objective makes for the enemy
/// standing in it, not for a nearer enemy outside it. A cautious side (below
/// `bold_from`), the easy AI and a storm reach of 0 make for the nearer enemy.
#[test]
fn a_bold_side_storms_the_enemy_holding_an_objective_instead_of_a_nearer_one() {
    use sauve::vocab::AiLevel;
    // `a` faces north; `n` stands 57 cm off to the north-west, `g` 71 cm off
    // to the north-east, in the objective.
    let objective = (150.0, 100.0);
    let march = |level: AiLevel, aggression: f32, ai: &str| {
        let units = [
            fsu("a", "a", "Infantry", 100.0, 150.0, 24, ", formation: Column"),
            fsu("n", "b", "Infantry", 60.0, 110.0, 24, ""),
            fsu("g", "b", "Infantry", objective.0, objective.1, 24, ""),
        ];
        let rules = format!(",\n rules: (belle_alliance: (ai: ({ai})))");
        let mut g = Game::of(&table(&rows(20, 20, &[]), &units, &[], &rules), &[]);
        g.movement(1, &held_by_b(objective, aggression, level));
        let (a, n, t) = (g.unit("a"), g.unit("n"), g.unit("g"));
        ((a.x - t.x).hypot(a.y - t.y), (a.x - n.x).hypot(a.y - n.y))
    };
    let (to_garrison, to_nearer) = march(AiLevel::Normal, 0.7, "storm_within_cm: 80.0");
    assert!(to_garrison < 62.0 && to_nearer > 56.0, "the bold side storms: {to_garrison} {to_nearer}");
    // A temper of 0.7 is not bold where `bold_from` is 0.8. (The cautious
    // side is told to deploy where a bold one does, so that its march is
    // as long: a cautious side at `Normal` would form line at once.)
    for (level, aggression, ai) in [
        (AiLevel::Normal, 0.3, "storm_within_cm: 80.0, cautious_column_beyond_cm: 50.0"),
        (AiLevel::Easy, 0.7, "storm_within_cm: 80.0"),
        (AiLevel::Normal, 0.7, "storm_within_cm: 0.0"),
        (AiLevel::Normal, 0.7, "bold_from: 0.8, cautious_column_beyond_cm: 50.0"),
    ] {
        let (to_garrison, to_nearer) = march(level, aggression, ai);
        assert!(
            to_garrison > 70.0 && to_nearer < 50.0,
            "{level:?} at {aggression}, {ai}: makes for the nearer enemy ({to_garrison} {to_nearer})"
        );
    }
}

/// At `Normal` a cautious side deploys farther out (docs/rules.md 2.12,
/// `cautious_column_beyond_cm`): its column 65 cm from the enemy forms
/// line; a bold side, `easy`, and a cautious side told to deploy at 50 cm
/// keep the column until 50 cm.
#[test]
fn a_cautious_side_deploys_into_line_before_a_bold_one() {
    use sauve::vocab::AiLevel;
    let formation = |level: AiLevel, aggression: f32, ai: &str| {
        let units = [
            fsu("a", "a", "Infantry", 100.0, 150.0, 24, ", formation: Column"),
            fsu("b", "b", "Infantry", 100.0, 85.0, 24, ""),
        ];
        let rules = format!(",\n rules: (belle_alliance: (ai: ({ai})))");
        let mut g = Game::of(&table(&rows(20, 20, &[]), &units, &[], &rules), &[]);
        let goals = ai::FsGoals { aggression, objectives: Vec::new(), broken: false, level, scripts: Vec::new() };
        g.movement(1, &goals);
        g.unit("a").formation
    };
    assert_eq!(formation(AiLevel::Normal, 0.3, ""), Formation::Line, "a cautious side deploys");
    for (level, aggression, ai) in [
        (AiLevel::Normal, 0.7, ""),
        (AiLevel::Easy, 0.3, ""),
        (AiLevel::Normal, 0.3, "cautious_column_beyond_cm: 50.0"),
    ] {
        assert_eq!(
            formation(level, aggression, ai),
            Formation::Column,
            "{level:?} at {aggression}, {ai}: keeps its column"
        );
    }
}

/// At `Normal` the AI silences the enemy's guns first (docs/rules.md 2.12,
/// `volley_guns_factor`): a battery with an enemy battalion close in front
/// and an enemy battery farther off fires at the battery; `easy`, and
/// `normal` with the factor at 1, fire at the nearer battalion, where the
/// table's modifier is higher.
#[test]
fn the_normal_ai_fires_at_the_enemy_guns_before_a_nearer_battalion() {
    use sauve::vocab::AiLevel;
    let fired = |level: AiLevel, factor: &str| {
        let units = [
            fsu("g", "a", "Artillery", 100.0, 150.0, 4, ", limbered: false"),
            fsu("i", "b", "Infantry", 100.0, 130.0, 24, ""),
            fsu("h", "b", "Artillery", 125.0, 100.0, 4, ", limbered: false"),
        ];
        let rules = format!(",\n rules: (belle_alliance: (ai: (volley_guns_factor: {factor})))");
        let mut g = Game::of(&table(&rows(20, 20, &[]), &units, &[], &rules), &[10]);
        let goals = ai::FsGoals { aggression: 0.5, objectives: Vec::new(), broken: false, level, scripts: Vec::new() };
        g.bound(|b| ai::play_phase(b, At { turn: 1, phase: Phase::OffensiveFire, side: 0 }, &goals))
    };
    assert_eq!(fired(AiLevel::Normal, "4.0"), vec![fire(&["g"], "h")], "normal fires at the guns");
    assert_eq!(fired(AiLevel::Easy, "4.0"), vec![fire(&["g"], "i")], "easy fires at the nearer battalion");
    assert_eq!(fired(AiLevel::Normal, "1.0"), vec![fire(&["g"], "i")], "a factor of 1 weighs guns as foot");
}

/// `hold` on a table (docs/rules.md, "The AI"): the march `normal` makes on
/// an objective and the charge it makes are not made; a volley in range is.
#[test]
fn hold_on_a_table_stands_and_fires() {
    use sauve::vocab::AiLevel;
    let objective = vec![((100.0, 40.0), 1, Some(1))];
    let marched = |level: AiLevel| {
        let mut g = Game::new(
            &[fsu("a", "a", "Infantry", 100.0, 160.0, 24, ""), fsu("b", "b", "Infantry", 180.0, 15.0, 24, "")],
            &[],
        );
        let goals =
            ai::FsGoals { aggression: 0.5, objectives: objective.clone(), broken: false, level, scripts: Vec::new() };
        let orders = g.movement(1, &goals);
        (orders, (g.unit("a").x, g.unit("a").y))
    };
    let (orders, at) = marched(AiLevel::Normal);
    assert!(!orders.is_empty() && at.1 < 160.0, "normal marches on the objective: {at:?}");
    let (orders, at) = marched(AiLevel::Hold);
    assert!(orders.is_empty() && at == (100.0, 160.0), "hold stands: {orders:?} {at:?}");

    let fired = |level: AiLevel| {
        let mut g = Game::new(
            &[fsu("a", "a", "Infantry", 100.0, 100.0, 24, ""), fsu("b", "b", "Infantry", 100.0, 91.0, 24, "")],
            &[10],
        );
        let goals = ai::FsGoals { aggression: 0.5, objectives: Vec::new(), broken: false, level, scripts: Vec::new() };
        g.bound(|b| ai::play_phase(b, At { turn: 1, phase: Phase::OffensiveFire, side: 0 }, &goals))
    };
    assert_eq!(fired(AiLevel::Hold), vec![fire(&["a"], "b")], "hold fires");
    assert_eq!(fired(AiLevel::Hold), fired(AiLevel::Normal));
}

/// The planning AI's scripts on a table (docs/rules.md "Hard"): `hold`
/// stands, `withdraw` falls back towards the rear, `objective` makes for
/// the objective and not the enemy, `assault` closes nearer than
/// `advance` does, and a unit given no script advances.
#[test]
fn each_script_moves_a_table_unit_as_it_says() {
    use sauve::labataille::ai::Script;
    use sauve::vocab::AiLevel;
    let moved = |script: Script, enemy_y: f32| {
        let mut g = Game::new(
            &[
                fsu("a", "a", "Infantry", 100.0, 120.0, 24, ", formation: Line"),
                fsu("b", "b", "Infantry", 100.0, enemy_y, 24, ", formation: Line"),
            ],
            &[],
        );
        let goals = ai::FsGoals {
            aggression: 0.0,
            objectives: vec![((30.0, 50.0), 1, Some(1))],
            broken: false,
            level: AiLevel::Normal,
            scripts: vec![script],
        };
        g.movement(1, &goals);
        (g.unit("a").x, g.unit("a").y)
    };
    let start = (100.0, 120.0);
    // 90 cm off: beyond where even a cautious side deploys, so it marches
    // in column and can turn to the objective (99 cm off, farther than the
    // enemy, so `advance` makes for the enemy).
    let far = 30.0;
    let (advance, hold) = (moved(Script::Advance, far), moved(Script::Hold, far));
    assert!(advance.1 < start.1, "advance closes on the enemy: {advance:?}");
    assert_eq!(hold, start, "hold stands");
    let withdraw = moved(Script::Withdraw, far);
    assert!(withdraw.1 > start.1, "withdraw falls back: {withdraw:?}");
    let objective = moved(Script::Objective, far);
    let to_objective = |p: (f32, f32)| (p.0 - 30.0).hypot(p.1 - 50.0);
    assert!(objective.0 < start.0 - 1.0, "objective makes for it: {objective:?}");
    assert!(to_objective(objective) < to_objective(advance) - 0.5, "nearer it than advance: {objective:?} {advance:?}");
    let near = 106.0;
    let (advance, assault) = (moved(Script::Advance, near), moved(Script::Assault, near));
    assert!(assault.1 < advance.1 - 1.0, "assault closes nearer: {assault:?} against {advance:?}");
}

/// Cover is worth a halt at a unit's goal only, not on its way (docs/rules.md
/// 2.12, routes at `Normal`). On the ground of `sauve generate --free-space
/// --seed 1` a column storming a village beyond the brook stood on the
/// bridge (x 100-120), its rear in the woods at the bridge's north end and
/// an enemy 30 cm off, from the fourth turn to the tenth: the woods were
/// worth more to it than the next step. Now it marches on over.
#[test]
fn a_column_on_its_way_over_a_bridge_is_not_held_there_by_woods_at_its_back() {
    let ground = table_1();
    let mut g = Game::on(
        &ground,
        &[
            fsu("a", "a", "Infantry", 110.8, 92.8, 32, ", formation: Column, facing: 176.7"),
            fsu("n", "b", "Infantry", 89.6, 114.0, 29, ""),
            fsu("g", "b", "Infantry", 38.9, 121.0, 25, ""),
        ],
        &[],
    );
    // The village south-west of the bridge, held by the enemy `g`.
    let goals = ai::FsGoals {
        aggression: 0.9,
        objectives: vec![((45.0, 125.0), 1, Some(1))],
        broken: false,
        level: sauve::vocab::AiLevel::Normal,
        scripts: Vec::new(),
    };
    let mut ys = Vec::new();
    for turn in 1..=3 {
        g.movement(turn, &goals);
        ys.push(g.unit("a").y);
    }
    let y = g.unit("a").y;
    assert!(y > 100.0, "the column crossed the brook: it stands at y = {y} ({ys:?})");
}

/// On generated table 14 (`sauve generate --free-space --seed 14`, seed 1
/// against a side that gives no orders) a column that had crossed to the
/// bridge's north end (x 240-260, y 80-90) stood there from the eighth
/// turn to the last: its enemy stood up and to the left, and every march
/// towards it, wheeled or oblique, took the column's rear over the brook.
/// At `Normal` it now marches a cell straight on, off the bridge, and
/// then on the enemy; at `Easy` it stands as before.
#[test]
fn a_column_that_may_not_wheel_off_a_bridge_marches_straight_on_off_it() {
    use sauve::vocab::AiLevel;
    let ground = table_14();
    let at_turn = |level: AiLevel, turns: u32| {
        let mut g = Game::on(
            &ground,
            &[
                fsu("c", "a", "Infantry", 252.0, 88.3, 30, ", formation: Column, facing: 0.0"),
                fsu("e", "b", "Infantry", 241.0, 59.0, 25, ", facing: 180.0"),
            ],
            &[],
        );
        let goals = ai::FsGoals { aggression: 0.47, objectives: Vec::new(), broken: false, level, scripts: Vec::new() };
        for turn in 1..=turns {
            g.movement(turn, &goals);
        }
        let (c, e) = (g.unit("c"), g.unit("e"));
        (c.x, c.y, (c.x - e.x).hypot(c.y - e.y))
    };
    let (_, y, _) = at_turn(AiLevel::Easy, 2);
    assert!(y > 88.0, "at `Easy` the column stands on the bridge: y = {y}");
    let (x, y, _) = at_turn(AiLevel::Normal, 1);
    assert!(y < 85.0 && (x - 252.0).abs() < 0.1, "the column marched straight on: ({x}, {y})");
    let (x, y, d) = at_turn(AiLevel::Normal, 3);
    assert!(y < 75.0 && d < 20.0, "and on, off the bridge, on the enemy: ({x}, {y}), {d} cm from it");
}

/// On generated table 7 (`sauve generate --free-space --seed 7`, against a
/// side that gives no orders) a column north of the eastern bridge (x
/// 310-330, y 70-80), 16 cm wide and 3 cm west of the bridge's line, stood
/// where it was set out all battle: its way led over the bridge, but every
/// wheel towards it swung a flank over the brook, and straight ahead its
/// west flank stood over the water. At `Normal` a unit so wedged now steps
/// towards its way keeping its facing, obliquely or sideways at their cost
/// (docs/rules.md 2.12, routes), and crosses; at `Easy` it stands as before.
#[test]
fn a_column_that_may_not_wheel_onto_a_bridge_steps_across_keeping_its_facing() {
    use sauve::vocab::AiLevel;
    let ground: Vec<String> = [
        "................................www.",
        "................................www.",
        "...............w.....w..........www.",
        "...............w.....w..........www.",
        "...............wwwwwww..........www.",
        "..................................ww",
        "..................................ww",
        "....~~~~~~...........~~~~~~~~~==~~ww",
        "~~~~~....~~~~...~~~~~~...........~~~",
        "............~==~~..vv...............",
        "...................vv........vv.....",
        ".............................vv.....",
        "......vv............................",
        "......vv............................",
        "....................................",
        "....................................",
    ]
    .map(String::from)
    .to_vec();
    let after = |level: AiLevel, turns: u32| {
        let mut g = Game::on(
            &ground,
            &[
                fsu("c", "a", "Infantry", 317.3, 64.0, 30, ", formation: Column, facing: 180.0"),
                fsu("e", "b", "Infantry", 321.0, 140.0, 24, ", facing: 0.0"),
            ],
            &[],
        );
        // The village south of the bridge, worth taking, held by the enemy.
        g.march_c(level, 0.57, (295.0, 105.0), turns)
    };
    let (_, y, _) = after(AiLevel::Easy, 4);
    assert!(y < 66.0, "at `Easy` the column stands north of the bridge: y = {y}");
    let (x, y, facing) = after(AiLevel::Normal, 1);
    assert!(
        (x - 317.3).abs() > 1.0 && y < 70.0 && facing == 180.0,
        "the column stepped towards the bridge's line, still facing south: ({x}, {y}), facing {facing}"
    );
    let (x, y, _) = after(AiLevel::Normal, 5);
    assert!(y > 90.0, "and crossed the brook: ({x}, {y})");
}

/// At `Normal` foot keeps to column while any part of it stands on a
/// bridge (docs/rules.md 2.12, movement): on generated table 11 a column
/// that had wheeled on a bridge to face an enemy 30 cm off deployed into
/// line there and stood to the end of the battle, able to march nowhere.
/// Here a column on a bridge 80 cm wide, 45 cm from the enemy, stays in
/// column at `Normal` and forms line at `Easy`; off the bridge, as near
/// the enemy, `Normal` forms line too.
#[test]
fn the_normal_ai_keeps_a_column_on_a_bridge_in_column() {
    use sauve::vocab::AiLevel;
    // The brook on row 10 (y 100-110), bridged from x 60 to 140.
    let marks: Vec<(usize, usize, char)> =
        (0..20).map(|c| (c, 10, if (6..14).contains(&c) { '=' } else { '~' })).collect();
    let formation = |level: AiLevel, y: f32| {
        let mut g = Game::on(
            &rows(20, 20, &marks),
            &[
                fsu("a", "a", "Infantry", 100.0, y, 24, ", formation: Column, facing: 0.0"),
                fsu("b", "b", "Infantry", 100.0, y - 45.0, 24, ", facing: 180.0"),
            ],
            &[],
        );
        let goals = ai::FsGoals { aggression: 0.5, objectives: Vec::new(), broken: false, level, scripts: Vec::new() };
        g.movement(1, &goals);
        g.unit("a").formation
    };
    assert_eq!(formation(AiLevel::Normal, 105.0), Formation::Column, "on the bridge `Normal` keeps column");
    assert_eq!(formation(AiLevel::Easy, 105.0), Formation::Line, "`Easy` deploys on the bridge");
    assert_eq!(formation(AiLevel::Normal, 125.0), Formation::Line, "off the bridge `Normal` deploys");
}

/// At `Normal` foot on its way round keeps to column within
/// `bridge_column_cm` of a bridge while a friend stands on that bridge
/// behind it (docs/rules.md 2.12, movement): at Saint-Amand the first French
/// battalion over deployed into line at the bridge's northern end to storm
/// the village, and the next stood on the bridge behind it to the end.
/// Here a column just over a bridge 20 cm wide, 45 cm from the enemy,
/// keeps to column while a friend is on the bridge, and deploys without
/// one, as it does at `Easy`.
#[test]
fn a_column_just_over_a_bridge_keeps_to_column_while_a_friend_crosses_behind_it() {
    use sauve::vocab::AiLevel;
    // The brook on row 10 (y 100-110), bridged from x 90 to 110.
    let marks: Vec<(usize, usize, char)> =
        (0..20).map(|c| (c, 10, if (9..11).contains(&c) { '=' } else { '~' })).collect();
    let formation = |level: AiLevel, followed: bool| {
        let mut units = vec![
            fsu("a", "a", "Infantry", 100.0, 92.0, 24, ", formation: Column, facing: 0.0"),
            fsu("b", "b", "Infantry", 100.0, 47.0, 24, ", facing: 180.0"),
        ];
        if followed {
            units.push(fsu("c", "a", "Infantry", 100.0, 110.0, 24, ", formation: Column, facing: 0.0"));
        }
        let mut g = Game::on(&rows(20, 20, &marks), &units, &[]);
        let goals = ai::FsGoals { aggression: 0.8, objectives: Vec::new(), broken: false, level, scripts: Vec::new() };
        g.movement(1, &goals);
        g.unit("a").formation
    };
    assert_eq!(formation(AiLevel::Normal, true), Formation::Column, "a friend on the bridge behind: it keeps column");
    assert_eq!(formation(AiLevel::Normal, false), Formation::Line, "nobody crossing behind: it deploys");
    assert_eq!(formation(AiLevel::Easy, true), Formation::Line, "`Easy` deploys whoever follows");
}

/// At `Normal` a cautious side that cannot win by waiting attacks as a bold
/// side does once the enemy has had a bound to come on in and has not
/// (docs/rules.md 2.12): it keeps to column until 50 cm from the enemy, not
/// 80, and its foot closes to contact on an enemy in LU where a cautious
/// side stands off. On the first turn, moving first, it still waits; ahead
/// on the score it keeps its stand-off. (On generated table 14 Red, behind
/// and cautious, stood south of the brook against a side that gives no
/// orders and won none of 100 games.)
#[test]
fn a_cautious_side_behind_with_the_enemy_standing_attacks_as_a_bold_one() {
    use sauve::vocab::AiLevel;
    // `a` 70 cm south of `b` (in LU) on open ground; the enemy's village far
    // off in a corner, ours (worth 2) in the other.
    let play = |ours: bool, turns: std::ops::RangeInclusive<u32>| {
        let units = [
            fsu("a", "a", "Infantry", 100.0, 180.0, 24, ""),
            fsu("b", "b", "Infantry", 100.0, 110.0, 24, ", state: LU"),
        ];
        let theirs = "(at: (1, 1), points: 1, name: \"Theirs\", held_by: \"b\")";
        let objectives = if ours {
            format!("{theirs}, (at: (18, 1), points: 2, name: \"Ours\", held_by: \"a\")")
        } else {
            theirs.to_string()
        };
        let holders: &[Option<usize>] = if ours { &[Some(1), Some(0)] } else { &[Some(1)] };
        let mut g = Game::of(&table(&rows(20, 20, &[]), &units, &[], &format!(",\n objectives: [{objectives}]")), &[]);
        let mut goals = ai::FsGoals::for_side(&FsCtx::new(&g.s), holders, &[false, false], 0, AiLevel::Normal);
        goals.aggression = 0.3;
        for turn in turns {
            g.movement(turn, &goals);
        }
        let (a, b) = (g.unit("a"), g.unit("b"));
        (a.formation, (a.x - b.x).hypot(a.y - b.y))
    };
    let (f, _) = play(false, 1..=1);
    assert_eq!(f, Formation::Line, "the first turn, the enemy yet to move: it deploys as a cautious side, at 80 cm");
    let (f, _) = play(false, 2..=2);
    assert_eq!(f, Formation::Column, "the enemy stood a bound: it keeps to column, as a bold side, beyond 50 cm");
    let (_, d) = play(false, 2..=12);
    assert!(d < 5.0, "behind, it closes to contact on the enemy in LU: {d} cm between centres");
    let (f, d) = play(true, 2..=12);
    assert_eq!(f, Formation::Line);
    assert!(d > 8.0, "ahead on the score it stands off: {d} cm between centres");
}

/// At `Normal` a cautious side waits for the enemy only while waiting can
/// win (docs/rules.md 2.12): behind on the score, with the enemy standing
/// where the scenario set it out beyond the brook, a column makes for the
/// village the enemy holds by the bridge. It holds the brook once the enemy
/// has come on, once it leads on the score, and with `coming_cm` 0. An
/// enemy unit that stands away from where it was set out but has not
/// marched or charged by order (it fled there, or was pushed back) has not
/// come on. (On generated table 1, Blue, behind, had stopped its attack
/// once its own fire had put an enemy that gave no orders to flight.)
#[test]
fn a_cautious_side_that_cannot_win_by_waiting_crosses_the_brook_for_a_village() {
    use sauve::vocab::AiLevel;
    // The brook on row 10 (y 100-110), bridged 20 cm wide (x 90-110).
    let mut marks: Vec<(usize, usize, char)> = (0..20).map(|c| (c, 10, '~')).collect();
    marks[9].2 = '=';
    marks[10].2 = '=';
    // Where the column stands after ten movement phases: `objectives` as
    // the scenario writes them, with their holders by side; `came` cm the
    // enemy stands from where it was set out, and whether it marched there
    // by order; `ai` the side's rules.
    let march = |objectives: &str, holders: &[Option<usize>], (came, ordered): (f32, bool), ai: &str| {
        let units = [
            fsu("a", "a", "Infantry", 40.0, 160.0, 32, ", formation: Column"),
            fsu("b", "b", "Infantry", 40.0, 75.0, 24, ""),
        ];
        let extra = format!(",\n objectives: [{objectives}],\n rules: (belle_alliance: (ai: ({ai})))");
        let mut g = Game::of(&table(&rows(20, 20, &marks), &units, &[], &extra), &[]);
        g.table.units[1].y -= came;
        g.play.ordered[1] = ordered;
        let mut goals = ai::FsGoals::for_side(&FsCtx::new(&g.s), holders, &[false, false], 0, AiLevel::Normal);
        goals.aggression = 0.3;
        for turn in 1..=10 {
            g.movement(turn, &goals);
        }
        assert!(g.play.ordered[0] && g.play.ordered[1] == ordered, "the column's marches count as its own");
        g.unit("a").y
    };
    // The enemy's village north of the brook, and one of its own south of it.
    let theirs = "(at: (15, 3), points: 1, name: \"Theirs\", held_by: \"b\")";
    let ours = "(at: (15, 15), points: 2, name: \"Ours\", held_by: \"a\")";
    let y = march(theirs, &[Some(1)], (0.0, false), "");
    assert!(y < 100.0, "behind, the enemy standing: it crossed the brook (y = {y})");
    let y = march(theirs, &[Some(1)], (20.0, true), "");
    assert!(y > 110.0, "the enemy came on: it holds the brook (y = {y})");
    let y = march(theirs, &[Some(1)], (20.0, false), "");
    assert!(y < 100.0, "the enemy only fled or was pushed there: it crossed the brook (y = {y})");
    let y = march(&format!("{theirs}, {ours}"), &[Some(1), Some(0)], (0.0, false), "");
    assert!(y > 110.0, "ahead on the score: it holds the brook (y = {y})");
    let y = march(theirs, &[Some(1)], (0.0, false), "coming_cm: 0.0");
    assert!(y > 110.0, "with coming_cm 0 the enemy always counts as coming (y = {y})");
}

/// On generated table 14 (`sauve generate --free-space --seed 14`, against
/// a side that gives no orders) Red's horse, in column, charged guns north
/// of the western bridge (x 140-160, y 70-80) and came back onto it turned
/// 50 degrees off its run: its corners stood over the brook at either side,
/// and no wheel or step from there that `advance` tries was legal, so it
/// stood there while the guns its charge had left went untaken. At
/// `Normal` a unit on a bridge more than 10 degrees off its run that finds
/// no march squares up to the run and marches straight along it
/// (docs/rules.md 2.12, routes); at `Easy` it stays as it was.
#[test]
fn a_column_wedged_askew_on_a_bridge_squares_up_and_marches_off_it() {
    use sauve::vocab::AiLevel;
    let ground = table_14();
    let after = |level: AiLevel, turns: u32| {
        let mut g = Game::on(
            &ground,
            &[
                fsu("c", "a", "Cavalry", 145.65, 71.64, 12, ", formation: Column, facing: 49.64"),
                fsu("e", "b", "Infantry", 320.0, 20.0, 24, ", facing: 180.0"),
            ],
            &[],
        );
        // A village north of the brook, held by the enemy.
        let (_, y, facing) = g.march_c(level, 0.6, (150.0, 25.0), turns);
        (y, facing)
    };
    let (y, facing) = after(AiLevel::Easy, 3);
    assert!(y > 70.0 && facing == 49.64, "at `Easy` it stays on the bridge, askew: y = {y}, facing {facing}");
    let (y, _) = after(AiLevel::Normal, 1);
    assert!(y < 60.0, "it squared up to the bridge's run and marched off it, north: y = {y}");
    let (y, _) = after(AiLevel::Normal, 3);
    assert!(y < 40.0, "and on to the village: y = {y}");
}

/// The same horse on the same ground turned a quarter about (the table's
/// rows made its columns): the bridge now runs across the table, and the
/// horse squares up to that run and marches off it, west.
#[test]
fn a_column_wedged_askew_on_a_bridge_that_runs_across_the_table_squares_up_to_it() {
    use sauve::vocab::AiLevel;
    let rows = table_14();
    let ground: Vec<String> =
        (0..rows[0].len()).map(|c| rows.iter().map(|r| r.as_bytes()[c] as char).collect()).collect();
    let after = |level: AiLevel, turns: u32| {
        let mut g = Game::on(
            &ground,
            &[
                fsu("c", "a", "Cavalry", 71.64, 145.65, 12, ", formation: Column, facing: 220.36"),
                fsu("e", "b", "Infantry", 20.0, 320.0, 24, ", facing: 90.0"),
            ],
            &[],
        );
        // A village west of the brook, held by the enemy.
        let (x, _, facing) = g.march_c(level, 0.6, (25.0, 150.0), turns);
        (x, facing)
    };
    let (x, facing) = after(AiLevel::Easy, 3);
    assert!(x > 70.0 && facing == 220.36, "at `Easy` it stays on the bridge, askew: x = {x}, facing {facing}");
    let (x, _) = after(AiLevel::Normal, 1);
    assert!(x < 60.0, "it squared up to the bridge's run and marched off it, west: x = {x}");
    let (x, _) = after(AiLevel::Normal, 3);
    assert!(x < 40.0, "and on to the village: x = {x}");
}

/// On generated table 1 (seed 6) Blue's horse came out of a melee shaken
/// (LU) just south of the western bridge, nearer the enemy than its
/// stand-off, and stood there; the foot column behind it on the bridge,
/// on its way round to a village, could march nowhere, and stood on the
/// bridge to the end. At `Normal` a unit standing idle at the front of a
/// friend held on a bridge on its way round steps aside (docs/rules.md
/// 2.12, routes).
#[test]
fn a_horse_idle_at_the_mouth_of_a_bridge_makes_way_for_the_column_behind_it() {
    use sauve::vocab::AiLevel;
    let ground = table_1();
    let after = |level: AiLevel, turns: u32| {
        let mut g = Game::on(
            &ground,
            &[
                fsu("h", "a", "Cavalry", 105.0, 104.0, 10, ", formation: Column, facing: 180.0, state: LU"),
                fsu("c", "a", "Infantry", 111.66, 91.24, 32, ", formation: Column, facing: 178.0"),
                fsu("e", "b", "Infantry", 89.6, 114.0, 29, ", facing: 0.0"),
            ],
            &[],
        );
        // A village south-west of the bridge, held by the enemy.
        let (_, y, _) = g.march_c(level, 0.37, (45.0, 125.0), turns);
        let h = g.unit("h");
        (y, (h.x, h.y))
    };
    // The bridge's cells end at y = 100; the column is 8 cm deep.
    let (y, horse) = after(AiLevel::Easy, 8);
    assert!(y < 100.0 && horse == (105.0, 104.0), "at `Easy` both stand: y = {y}, the horse at {horse:?}");
    let (y, horse) = after(AiLevel::Normal, 1);
    assert_ne!(horse, (105.0, 104.0), "at `Normal` the horse makes way");
    assert!(y < 100.0, "while the column, held, is still on the bridge: y = {y}");
    let (y, _) = after(AiLevel::Normal, 8);
    assert!(y > 104.0, "the column, the horse stepping aside as it comes, is off the bridge: y = {y}");
}

/// How a friend makes way is the scenario's to say
/// (`rules.belle_alliance.ai`, docs/rules.md 2.12). The horse stands at
/// the mouth of the bridge a little east of the column's line: with no
/// reach it is not in the way and stands; each cm more of clearance takes
/// it a cm farther aside; a flatter angle takes it farther on along the
/// column's way; and with no angle to march at it still makes the first
/// march it can.
#[test]
fn how_a_friend_makes_way_is_the_scenarios_to_say() {
    use sauve::vocab::AiLevel;
    let horse_after = |ai: &str| {
        let units = [
            fsu("h", "a", "Cavalry", 116.0, 104.0, 10, ", formation: Column, facing: 180.0, state: LU"),
            fsu("c", "a", "Infantry", 111.66, 91.24, 32, ", formation: Column, facing: 178.0"),
            fsu("e", "b", "Infantry", 89.6, 114.0, 29, ", facing: 0.0"),
        ];
        let extra = format!(",\n rules: (belle_alliance: (ai: ({ai})))");
        let mut g = Game::of(&table(&table_1(), &units, &[], &extra), &[]);
        g.march_c(AiLevel::Normal, 0.37, (45.0, 125.0), 1);
        let h = g.unit("h");
        (h.x, h.y)
    };
    assert_eq!(horse_after("make_way_reach_cells: 0.0"), (116.0, 104.0), "out of reach: it stands");
    let (near, far) = (horse_after("make_way_clearance_cm: 1.0"), horse_after("make_way_clearance_cm: 3.0"));
    assert!(near.0 > 120.0 && far.0 > near.0 + 1.5, "2 cm more clearance, farther aside: {near:?} then {far:?}");
    let (steep, flat) = (horse_after("make_way_degrees: [60.0]"), horse_after("make_way_degrees: [30.0]"));
    assert!(flat.1 > steep.1 + 5.0, "slanting on at 30 degrees, farther on than at 60: {steep:?}, {flat:?}");
    assert_ne!(horse_after("make_way_degrees: []"), (116.0, 104.0), "no angle given: it still makes way");
}

/// The ground of generated table 11 (`sauve generate --free-space --seed
/// 11`): the brook with its two bridges, the villages south of it.
fn table_11() -> Vec<String> {
    [
        "....................................",
        "....................................",
        "....................................",
        "....................................",
        ".......................wwwww........",
        ".......................w............",
        ".......................w............",
        "....................................",
        "~~~~..~~............................",
        "...~~~~~~~...............~~~.......~",
        "wwwwvv...~~~==~~~~~~~~==~~.~~~~~~~~~",
        "ww..vv.................vv...........",
        "ww..............vv.....vv...........",
        "................vv..................",
        "....................................",
        "....................................",
        "......www...........................",
        "......www...........................",
    ]
    .map(String::from)
    .to_vec()
}

/// A column wedged askew across a bridge's mouth (generated table 11,
/// seed 1 at `Normal`: 16 cm wide, turned 40 degrees across a bridge 20
/// cm wide, its far corner a few mm short of the brook) stood there to
/// the end of the battle: each wheel or step put a corner over the water.
/// At `Normal` it backs off to where it can wheel, squares up and crosses
/// (docs/rules.md 2.12, routes); at `Easy` it stands.
#[test]
fn a_column_wedged_askew_at_a_bridges_mouth_backs_off_and_crosses() {
    use sauve::vocab::AiLevel;
    let after = |level: AiLevel, turns: u32, ai: &str| {
        let units = [
            "(id: \"c\", side: \"a\", arm: Infantry, pos: (132.7149, 102.120926), facing: 139.53775, \
             figures: 32, valour: 0, formation: Column)"
                .to_string(),
            fsu("e", "b", "Infantry", 150.3, 122.0, 31, ", facing: 0.0"),
        ];
        let extra = format!(",\n rules: (belle_alliance: (ai: ({ai})))");
        let mut g = Game::of(&table(&table_11(), &units, &[], &extra), &[]);
        let (x, y, _) = g.march_c(level, 0.69, (45.0, 105.0), turns);
        (x, y)
    };
    // The bridge's cells end at y = 110; the column is 8 cm deep.
    let (_, y) = after(AiLevel::Easy, 4, "");
    assert!(y < 110.0, "at `Easy` it is still on the bridge after four turns: y = {y}");
    let (_, y) = after(AiLevel::Normal, 3, "");
    assert!(y > 114.0, "at `Normal` it is over the bridge within three turns: y = {y}");
    let wedged = (132.7149, 102.120926);
    assert_eq!(after(AiLevel::Normal, 3, "back_off_cm: 0.0"), wedged, "with no room to back off it stands");
    assert_eq!(after(AiLevel::Normal, 3, "back_off_degrees: []"), wedged, "with no way back it stands");
}

/// Foot whose way to an objective crosses a bridge narrower than its line
/// keeps to column at `Normal` however near the enemy (docs/rules.md
/// 2.12, routes): with an enemy 26 cm off on its own bank, a column
/// marching on an objective over the brook crosses by a bridge 20 cm wide
/// and reaches the objective. (It had deployed into a line 32 cm wide once
/// the enemy was within `cover_within_cm`, and stood at the brook.)
#[test]
fn a_column_whose_way_winds_keeps_to_column_with_the_enemy_near() {
    use sauve::vocab::AiLevel;
    let rows: Vec<String> = [
        "............",
        "............",
        "............",
        "............",
        "~~~~~==~~~~~",
        "............",
        "............",
        "............",
        "............",
        "............",
    ]
    .map(String::from)
    .to_vec();
    let mut g = Game::on(
        &rows,
        &[
            fsu("c", "a", "Infantry", 60.0, 30.0, 32, ", formation: Column, facing: 180.0"),
            fsu("e", "b", "Infantry", 85.0, 22.0, 29, ", facing: 270.0"),
        ],
        &[],
    );
    for turn in 1..=3 {
        g.march_c(AiLevel::Normal, 0.37, (60.0, 55.0), 1);
        let c = g.unit("c");
        assert_eq!(c.formation, Formation::Column, "turn {turn}: still in column");
    }
    let c = g.unit("c");
    assert!((c.x, c.y) == (60.0, 55.0), "over the bridge, on the objective: ({}, {})", c.x, c.y);
}

/// A target in LU or U is attacked whatever the melee threshold, but at
/// `normal` only while the chance to win is at least the chance to lose
/// (`melee_disordered_edge`, docs/rules.md 2.12): six figures in contact
/// with a disordered battalion of thirty are sent in by `easy`, not by
/// `normal`; thirty against six are sent in by both, and with the edge
/// lowered to -1 `normal` sends in the six as well.
#[test]
fn the_normal_ai_attacks_a_disordered_enemy_only_on_odds_that_favour_it() {
    use sauve::vocab::AiLevel;
    let attacks = |level: AiLevel, mine: u32, theirs: u32, extra: &str| {
        let units = vec![
            fsu("a", "a", "Infantry", 100.0, 100.0, mine, ""),
            fsu("b", "b", "Infantry", 100.0, 95.5, theirs, ", state: LU"),
        ];
        let mut g = Game::of(&table(&rows(20, 20, &[]), &units, &[], extra), &[]);
        let goals = ai::FsGoals { aggression: 0.0, objectives: Vec::new(), broken: false, level, scripts: Vec::new() };
        let orders = g.bound(|b| ai::play_phase(b, At { turn: 1, phase: Phase::Melee, side: 0 }, &goals));
        orders == vec![Order::Melee { units: vec!["a".into()], target: "b".into() }]
    };
    assert!(attacks(AiLevel::Easy, 6, 30, ""), "easy attacks a disordered enemy whatever the odds");
    assert!(!attacks(AiLevel::Normal, 6, 30, ""), "normal does not, on odds against it");
    assert!(attacks(AiLevel::Normal, 30, 6, ""), "on odds for it, normal attacks");
    let lowered = ",\n rules: (belle_alliance: (ai: (melee_disordered_edge: -1.0)))";
    assert!(attacks(AiLevel::Normal, 6, 30, lowered), "with the edge at -1, normal attacks whatever the odds");
}

/// At `normal` no melee is fought whose loss is expected to carry more
/// friends along than `melee_cascade_max` (docs/rules.md 2.12): an even
/// fight at the head of a file of small battalions, whose retreat they
/// block and whose flight they stand in, is not fought; `easy` fights it,
/// and so does `normal` with no friends behind or with the limit raised.
/// Against a garrison (the enemy standing in an objective its side holds)
/// the limit is `garrison_cascade_factor` times as high, and only there.
#[test]
fn the_normal_ai_fights_no_melee_whose_loss_would_carry_friends_along() {
    use sauve::vocab::AiLevel;
    let attacks_at = |level: AiLevel, behind: bool, extra: &str, garrison: bool| {
        let mut units =
            vec![fsu("a", "a", "Infantry", 100.0, 100.0, 24, ""), fsu("b", "b", "Infantry", 100.0, 95.5, 24, "")];
        if behind {
            for (k, y) in [104.5, 109.0, 113.5].iter().enumerate() {
                units.push(fsu(&format!("f{k}"), "a", "Infantry", 100.0, *y, 12, ""));
            }
        }
        let mut g = Game::of(&table(&rows(20, 20, &[]), &units, &[], extra), &[]);
        // An objective whose area takes in b's centre, held by b's side.
        let objectives = if garrison { vec![((100.0, 90.0), 1, Some(1))] } else { Vec::new() };
        let goals = ai::FsGoals { aggression: 0.5, objectives, broken: false, level, scripts: Vec::new() };
        let orders = g.bound(|b| ai::play_phase(b, At { turn: 1, phase: Phase::Melee, side: 0 }, &goals));
        orders == vec![Order::Melee { units: vec!["a".into()], target: "b".into() }]
    };
    let attacks = |level: AiLevel, behind: bool, extra: &str| attacks_at(level, behind, extra, false);
    assert!(attacks(AiLevel::Easy, true, ""), "easy fights the even melee");
    assert!(!attacks(AiLevel::Normal, true, ""), "normal does not: its loss would spread down the file");
    assert!(attacks(AiLevel::Normal, false, ""), "with nobody behind, normal fights it");
    let raised = ",\n rules: (belle_alliance: (ai: (melee_cascade_max: 5.0)))";
    assert!(attacks(AiLevel::Normal, true, raised), "with the limit raised, normal fights it");
    let factor = |f: f32| format!(",\n rules: (belle_alliance: (ai: (garrison_cascade_factor: {f:.1})))");
    assert!(attacks_at(AiLevel::Normal, true, &factor(20.0), true), "a garrison is worth twenty times the risk");
    assert!(!attacks_at(AiLevel::Normal, true, &factor(1.0), true), "a garrison worth no more than any enemy");
    assert!(!attacks_at(AiLevel::Normal, true, &factor(20.0), false), "the factor is for a garrison only");
}
