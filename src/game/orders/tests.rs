//! A player's turn through the simulation: the window's helpers (clicks,
//! keys, odds, range) on a real battle, and the orders' systems in an app
//! without a window, driven by keys and map clicks as a player would.

use std::sync::Arc;

use bevy::prelude::*;

use crate::game::testing::{battle_app, go_to, press};

use super::decide::{Click, OrderKey, exit_edge, order_for_click, order_for_key, unit_views};
use super::give::give;
use super::preview::refresh;
use super::words::{attack_odds_text, fire_odds_text};
use crate::game::input::{MapButton, MapClick, MapPointer};
use crate::game::seats::{Seats, seat};
use crate::game::shown::Shown;
use crate::game::turn::PlayerTurn;
use crate::hex::{Edge, Offset};
use crate::labataille::orders::Order;
use crate::scenario::{Formation, Scenario};
use crate::sim::{self, Simulation};
use crate::turn::Phase;

fn parse(text: &str) -> Arc<Scenario> {
    crate::game::testing::parse(text, "test.ron")
}

/// A French battalion at (3, 5) and a Russian one at `ru`, both sides at
/// the window.
fn duel() -> Simulation {
    duel_at((3, 1), vec![])
}

/// `dice`: scripted d66 rolls first (66 passes every check).
fn duel_at(ru: (i32, i32), dice: Vec<u32>) -> Simulation {
    duel_with((3, 5), ru, dice, "")
}

/// The duel with the French at `fr` and `extra` top-level fields.
fn duel_with(fr: (i32, i32), ru: (i32, i32), dice: Vec<u32>, extra: &str) -> Simulation {
    let rows: Vec<String> = (0..9).map(|_| format!("\"{}\"", ".".repeat(8))).collect();
    let text = format!(
        "Scenario(format: 1, name: \"duel\", turns: 2, seed: 7,\n sides: [(id: \"fr\", rear: South), (id: \"ru\", rear: North)],\n map: (rows: [{}]),\n units: [(id: \"fr-a\", side: \"fr\", arm: Infantry, at: ({}, {}), morale: 32, strength: 4), (id: \"ru-a\", side: \"ru\", arm: Infantry, at: ({}, {}), morale: 32, strength: 4)],\n shocks: [],{extra}\n rules: ())",
        rows.join(",\n "),
        fr.0,
        fr.1,
        ru.0,
        ru.1
    );
    let mut sim = Simulation::new(parse(&text), 7, dice, Seats::Nobody);
    let w = sim.app.world_mut();
    seat(w, Seats::HotSeat);
    sim
}

fn click(w: &mut World, group: &[usize], selected: Option<usize>, hex: Offset, shift: bool) -> Click {
    let (phase, side) = sim::awaiting_orders(w).expect("a phase waits");
    let units = unit_views(w);
    order_for_click(&units, phase, side, group, selected, hex, MapButton::Primary, shift)
}

#[test]
fn a_player_turn_selects_marches_takes_back_and_fires_through_the_window_helpers() {
    let mut sim = duel();
    let w = sim.app.world_mut();
    assert_eq!(go_to(w, Phase::Movement), 0);
    let Click::Select { unit, group } = click(w, &[], None, Offset::new(3, 5), false) else { panic!("select") };
    assert_eq!((unit, group.clone()), (0, vec![0]));
    // Into column first (a key of the movement phase), then march.
    let key = order_for_key(OrderKey::Column, &unit_views(w)[0]);
    assert!(!give(w, &key).error);
    assert_eq!(unit_views(w)[0].formation, Formation::Column);
    let reach = sim::movement_range(w, unit);
    let to = Offset::new(3, 3);
    assert!(reach.cost_to(to).is_some(), "two hexes north is in range");
    let Click::Order(order) = click(w, &group, Some(unit), to, false) else { panic!("an order") };
    assert!(!give(w, &order).error);
    assert_eq!(unit_views(w)[0].at, Some(to));
    // Too far: the simulation's words reach the player.
    let far = click(w, &group, Some(unit), Offset::new(3, 0), false);
    let Click::Order(far) = far else { panic!("an order") };
    let m = give(w, &far);
    assert!(m.error && m.text.contains("fr-a"), "{}", m.text);
    assert!(sim::undo(w), "the march is taken back");
    assert_eq!(unit_views(w)[0].at, Some(Offset::new(3, 5)));
    assert!(!give(w, &order).error);
    let limber = order_for_key(OrderKey::Limber, &unit_views(w)[0]);
    let refused = give(w, &limber);
    assert!(refused.error && refused.text.contains("artillery"), "{}", refused.text);
    // Fire at the Russians, two hexes away, with the odds first.
    assert_eq!(go_to(w, Phase::OffensiveFire), 0);
    let odds = sim::fire_odds(w, &group, 1).map(|o| fire_odds_text(&o, "ru-a"));
    assert!(odds.as_ref().is_ok_and(|t| t.contains("firepower")), "{odds:?}");
    let Click::Order(fire) = click(w, &group, Some(0), Offset::new(3, 1), false) else { panic!("fire") };
    let before = w.resource::<crate::sim::BattleLog>().events.len();
    assert!(!give(w, &fire).error);
    let log = &w.resource::<crate::sim::BattleLog>().events[before..];
    assert!(log.iter().any(|e| matches!(e.kind, crate::events::EventKind::Fire { .. })));
    assert!(!sim::undo(w), "no undo once the dice rolled");
}

#[test]
fn a_melee_shows_its_odds_then_is_fought_on_a_click() {
    let mut sim = duel_at((3, 4), vec![66, 66, 66, 66]);
    let w = sim.app.world_mut();
    assert_eq!(go_to(w, Phase::Melee), 0);
    let Click::Select { group, .. } = click(w, &[], None, Offset::new(3, 5), false) else { panic!("select") };
    let odds = sim::attack_odds(w, &group, 1).map(|o| attack_odds_text(&o, "ru-a", false, &|u| format!("#{u}")));
    assert!(odds.as_ref().is_ok_and(|t| t.starts_with("Melee with ru-a at ") && t.contains("you win")), "{odds:?}");
    // The attacker's own check and the defender's are in the odds.
    let t = odds.as_deref().unwrap_or_default();
    assert!(t.contains("#0 passes ") && t.contains("#1 passes "), "{t}");
    let Click::Order(order) = click(w, &group, Some(0), Offset::new(3, 4), false) else { panic!("melee") };
    assert!(matches!(order, Order::Melee { .. }));
    let m = give(w, &order);
    assert!(!m.error, "{}", m.text);
    assert!(m.text.contains("close with"), "the player reads what happened: {}", m.text);
}

#[test]
fn a_distant_charge_shows_the_approach_it_then_rides() {
    // French hussars five hexes south of a Russian battalion.
    let rows: Vec<String> = (0..9).map(|_| format!("\"{}\"", ".".repeat(8))).collect();
    let text = format!(
        "Scenario(format: 1, name: \"charge\", turns: 2, seed: 7,\n sides: [(id: \"fr\", rear: South), (id: \"ru\", rear: North)],\n map: (rows: [{}]),\n units: [(id: \"fr-hus\", side: \"fr\", arm: Cavalry, at: (3, 7), morale: 44, strength: 4), (id: \"ru-a\", side: \"ru\", arm: Infantry, at: (3, 2), morale: 32, strength: 4)])",
        rows.join(",\n ")
    );
    let mut sim = Simulation::new(parse(&text), 7, vec![], Seats::Nobody);
    let w = sim.app.world_mut();
    seat(w, Seats::HotSeat);
    assert_eq!(go_to(w, Phase::Charge), 0);
    let target = Offset::new(3, 2);
    let mut pointer = MapPointer::default();
    (pointer.hex, pointer.selected) = (Some(target), Some(0));
    w.insert_resource(pointer);
    let mut turn = PlayerTurn { awaiting: sim::awaiting_orders(w), group: vec![0], ..default() };
    refresh(w, &mut turn);
    let path = turn.preview.clone().expect("the approach is drawn");
    assert_eq!(path.first(), Some(&Offset::new(3, 7)), "{path:?}");
    assert_eq!(path.last().map(|h| h.distance(target)), Some(1), "it stops next to the target: {path:?}");
    assert!(path.windows(2).all(|p| p[0].distance(p[1]) == 1), "hex by hex: {path:?}");
    // The odds before the ride, at the hex of contact, with the target's
    // square test in them.
    let odds = turn.odds.clone().unwrap_or_default();
    assert!(odds.contains("Charge ru-a (5 hexes off; odds at contact) at "), "{odds}");
    assert!(odds.contains("you win") && odds.contains("forms square"), "{odds}");

    // The charge rides exactly that path.
    let before = w.resource::<crate::sim::BattleLog>().events.len();
    let m = give(w, &Order::Charge { unit: "fr-hus".into(), target: "ru-a".into() });
    assert!(!m.error, "{}", m.text);
    let ridden = w.resource::<crate::sim::BattleLog>().events[before..].iter().find_map(|e| match &e.kind {
        crate::events::EventKind::Move { reason: crate::events::MoveReason::Charge, path, .. } => Some(path.clone()),
        _ => None,
    });
    let drawn: Vec<crate::events::Pos> = path.iter().map(|h| crate::events::Pos::Hex([h.c, h.r])).collect();
    assert_eq!(ridden, Some(drawn));

    // Next to the target there is no approach to draw: the odds say it all.
    let mut sim = Simulation::new(parse(&text.replace("at: (3, 7)", "at: (3, 3)")), 7, vec![], Seats::Nobody);
    let w = sim.app.world_mut();
    seat(w, Seats::HotSeat);
    go_to(w, Phase::Charge);
    let mut pointer = MapPointer::default();
    (pointer.hex, pointer.selected) = (Some(target), Some(0));
    w.insert_resource(pointer);
    let mut turn = PlayerTurn { awaiting: sim::awaiting_orders(w), group: vec![0], ..default() };
    refresh(w, &mut turn);
    assert_eq!(turn.preview, None);
    assert!(turn.odds.as_ref().is_some_and(|t| t.starts_with("Charge ")), "{:?}", turn.odds);
}

/// The battle at the window: its world with the playback's systems and
/// the orders' input, in the game's order (no window or renderer).
fn window_app(sim: Simulation) -> App {
    let mut app = battle_app(sim);
    super::plugin(&mut app);
    app
}

fn click_at(app: &mut App, hex: Offset) {
    app.world_mut().write_message(MapClick { hex, button: MapButton::Primary });
    app.update();
}

#[test]
fn looking_back_at_the_log_shows_no_odds_and_gives_no_orders_until_back_at_the_present() {
    let mut sim = duel();
    assert_eq!(go_to(sim.app.world_mut(), Phase::Movement), 0);
    let mut app = window_app(sim);
    app.update();
    let len = |app: &App| app.world().resource::<crate::sim::BattleLog>().events.len();
    let cursor = |app: &App| app.world().resource::<Shown>().cursor;
    let french = |app: &mut App| unit_views(app.world_mut())[0].clone();
    assert_eq!(cursor(&app), len(&app), "the log so far is shown at once");

    // In the present: select the battalion, form column, point at a hex
    // in range for the path and its cost.
    let home = Offset::new(3, 5);
    click_at(&mut app, home);
    assert_eq!(app.world().resource::<MapPointer>().selected, Some(0));
    press(&mut app, KeyCode::KeyC);
    assert_eq!(french(&mut app).formation, Formation::Column);
    assert_eq!(cursor(&app), len(&app), "the order is shown as it happens");
    let to = Offset::new(3, 3);
    app.world_mut().resource_mut::<MapPointer>().hex = Some(to);
    app.update();
    let t = app.world().resource::<PlayerTurn>();
    assert!(!t.reviewing && t.reach.is_some() && t.preview.is_some() && t.odds.is_some());

    // One event back: the counter is in line again on the screen, and
    // nothing is worked out on the present board.
    press(&mut app, KeyCode::Comma);
    assert!(cursor(&app) < len(&app), "the shown log is behind");
    assert_eq!(app.world().resource::<Shown>().units[0].formation, Formation::Line);
    let t = app.world().resource::<PlayerTurn>();
    assert!(t.reviewing, "looking back");
    assert_eq!((t.reach.is_none(), &t.preview, &t.odds, t.mp_left), (true, &None, &None, None));

    // Order keys, undo, end of phase and a click on the map do nothing.
    let events = len(&app);
    for key in [KeyCode::KeyL, KeyCode::KeyK, KeyCode::KeyX, KeyCode::KeyU, KeyCode::KeyE, KeyCode::Enter] {
        press(&mut app, key);
    }
    click_at(&mut app, to);
    assert_eq!(len(&app), events, "no order given, taken back or ended");
    let u = french(&mut app);
    assert_eq!((u.formation, u.at), (Formation::Column, Some(home)));
    assert_eq!(sim::awaiting_orders(app.world_mut()), Some((Phase::Movement, 0)));
    assert!(app.world().resource::<PlayerTurn>().reviewing, "still looking back");

    // End: back to the present, where the same click marches.
    press(&mut app, KeyCode::End);
    assert_eq!(cursor(&app), len(&app));
    let t = app.world().resource::<PlayerTurn>();
    assert!(!t.reviewing && t.preview.is_some() && t.odds.is_some(), "the path and cost are back");
    click_at(&mut app, to);
    assert_eq!(french(&mut app).at, Some(to), "the march is ordered");
    assert!(len(&app) > events);
    assert!(!app.world().resource::<PlayerTurn>().reviewing, "showing the march is no looking back");

    // Stepping forward to the end is a return to the present too.
    press(&mut app, KeyCode::Comma);
    assert!(app.world().resource::<PlayerTurn>().reviewing);
    while cursor(&app) < len(&app) {
        press(&mut app, KeyCode::Period);
    }
    app.update();
    assert!(!app.world().resource::<PlayerTurn>().reviewing);
    press(&mut app, KeyCode::KeyU);
    assert_eq!(french(&mut app).at, Some(home), "the march is taken back");
}

#[test]
fn a_march_spends_movement_points_and_x_exits_by_the_sides_edge() {
    let extra = "\n exits: [(side: \"fr\", edge: North, points: 2)],";
    let mut sim = duel_with((3, 2), (7, 8), vec![], extra);
    let w = sim.app.world_mut();
    assert_eq!(go_to(w, Phase::Movement), 0);
    let full = sim::mp_left(w, 0);
    assert!(full > 0);
    let s = w.resource::<sim::Battle>().scenario.clone();
    let u = unit_views(w)[0].clone();
    let (width, height) = (s.map.width, s.map.height);
    assert!(exit_edge(&s.exits, 0, u.at, width, height).is_err_and(|e| e.contains("north edge")), "not on it yet");
    assert!(!give(w, &Order::Move { unit: u.id.clone(), to: (3, 1) }).error);
    let left = sim::mp_left(w, 0);
    assert!(left < full, "the banner's MP left goes down: {left} of {full}");
    assert!(!give(w, &Order::Move { unit: u.id.clone(), to: (3, 0) }).error);
    let u = unit_views(w)[0].clone();
    let edge = exit_edge(&s.exits, 0, u.at, width, height);
    assert_eq!(edge, Ok(Edge::North));
    let Ok(edge) = edge else { return };
    let m = give(w, &Order::Exit { unit: u.id.clone(), edge });
    assert!(!m.error && m.text.contains("marches off the map by the north edge"), "{}", m.text);
    assert_eq!(unit_views(w)[0].at, None, "gone from the board");
    assert!(exit_edge(&s.exits, 1, Some(Offset::new(3, 8)), width, height).is_err_and(|e| e.contains("no exit")));
}

#[test]
fn an_order_key_pressed_when_no_phase_waits_says_why_it_does_nothing() {
    let mut sim = duel();
    seat(sim.app.world_mut(), Seats::Watch);
    let mut app = window_app(sim);
    app.update();
    assert!(app.world().resource::<PlayerTurn>().awaiting.is_none(), "the computer plays both sides");
    for key in [KeyCode::KeyU, KeyCode::KeyE, KeyCode::KeyC] {
        app.world_mut().resource_mut::<PlayerTurn>().message = None;
        press(&mut app, key);
        let said = app.world().resource::<PlayerTurn>().message.clone();
        assert!(
            said.as_ref().is_some_and(|m| m.error && m.text.contains("No phase waits for your orders")),
            "{key:?}: {said:?}"
        );
    }
}

#[test]
fn a_modifier_let_go_in_the_keys_own_frame_still_counts() {
    let mut keys = ButtonInput::<KeyCode>::default();
    keys.press(KeyCode::ShiftLeft);
    keys.press(KeyCode::KeyR);
    keys.release(KeyCode::ShiftLeft);
    assert!(crate::game::input::modifier(&keys, crate::game::input::SHIFT), "a quick Shift+R is a Shift+R");
    assert!(crate::game::scenarios::restart_asked(&keys, crate::game::state::Screen::Battle, true));
    keys.clear();
    keys.reset_all();
    keys.press(KeyCode::KeyR);
    assert!(!crate::game::input::modifier(&keys, crate::game::input::SHIFT));
    assert!(
        !crate::game::scenarios::restart_asked(&keys, crate::game::state::Screen::Battle, true),
        "R alone previews"
    );
}

#[test]
fn every_button_acts_on_its_press_so_a_quick_click_is_never_lost() {
    let mut world = World::new();
    let b = world.spawn(crate::game::theme::button("End phase (E)", 14.0, Color::BLACK, Node::default())).id();
    let i = world
        .spawn(crate::game::theme::inked_button("a why line", 12.0, Color::BLACK, Color::WHITE, Node::default()))
        .id();
    for e in [b, i] {
        assert!(world.get::<bevy::ui_widgets::ActivateOnPress>(e).is_some());
        assert!(world.get::<bevy::ui_widgets::Button>(e).is_some());
    }
}
