//! A player's orders on a free-space table through the window's systems,
//! driven as a player would: press on a battalion and drag it, keys for a
//! formation, point at an enemy for the odds and click it.

use bevy::prelude::*;

use super::table::{TableDrag, pointer_cm};
use crate::game::input::{MapButton, MapClick, MapPointer};
use crate::game::opened::Opened;
use crate::game::seats::{Seats, seat};
use crate::game::testing::{battle_app, go_to, parse, press};
use crate::game::turn::PlayerTurn;
use crate::labataille::orders::Order;
use crate::sim::{self, Simulation};
use crate::turn::Phase;
use crate::vocab::Formation;

/// Two battalions 8 cm apart front to front on a 200 x 200 cm table, both
/// sides at the window.
fn duel(dice: Vec<u32>) -> App {
    let rows: Vec<String> = (0..20).map(|_| format!("\"{}\"", ".".repeat(20))).collect();
    let text = format!(
        "Scenario(format: 1, name: \"t\", mode: FreeSpace, turns: 2, seed: 7,\n sides: [(id: \"a\", rear: South), (id: \"b\", rear: North)],\n map: (rows: [{}], cell_cm: 10.0),\n units: [(id: \"a1\", side: \"a\", arm: Infantry, pos: (100.0, 120.0), figures: 24, valour: 0), (id: \"b1\", side: \"b\", arm: Infantry, pos: (100.0, 100.0), figures: 24, valour: 0)])",
        rows.join(",\n ")
    );
    let mut sim = Simulation::new(parse(&text, "t.ron"), 7, dice, Seats::Nobody);
    seat(sim.app.world_mut(), Seats::HotSeat);
    let mut app = battle_app(sim);
    super::plugin(&mut app);
    app.init_resource::<ButtonInput<MouseButton>>();
    app
}

/// Puts the pointer over the table point `(x, y)` cm.
fn point(app: &mut App, x: f32, y: f32) {
    let layout = app.world().resource::<Opened>().layout;
    let mut p = app.world_mut().resource_mut::<MapPointer>();
    p.world = Some(layout.table_world(x, y));
    p.over_map = true;
}

fn mouse(app: &mut App, down: bool) {
    let mut m = app.world_mut().resource_mut::<ButtonInput<MouseButton>>();
    m.clear();
    if down {
        m.press(MouseButton::Left);
    } else {
        m.release(MouseButton::Left);
    }
    app.update();
}

fn a1(app: &mut App) -> crate::belle_alliance::FsUnit {
    sim::view::table_scope(app.world_mut(), |_, t| t.units[0].clone()).expect("a table")
}

#[test]
fn dragging_a_battalion_marches_it_and_a_refused_place_says_why() {
    let mut app = duel(vec![]);
    assert_eq!(go_to(app.world_mut(), Phase::Movement), 0);
    app.update();
    // Press on a1, drag 6 cm straight back: backwards costs double, 12 cm
    // of its 10: shown red with the reason.
    point(&mut app, 100.0, 120.0);
    mouse(&mut app, true);
    point(&mut app, 100.0, 126.0);
    app.update();
    let drag = app.world().resource::<TableDrag>().clone();
    assert_eq!(drag.unit, Some(0));
    assert!(drag.verdict.as_ref().is_some_and(|v| v.is_err()), "{drag:?}");
    let odds = app.world().resource::<PlayerTurn>().odds.clone().unwrap_or_default();
    assert!(odds.contains("Cannot march there: the march costs 12.0 cm and 10.0 cm are left"), "{odds}");
    // 4 cm back is 8: green, and the release marches it.
    point(&mut app, 100.0, 124.0);
    app.update();
    let odds = app.world().resource::<PlayerTurn>().odds.clone().unwrap_or_default();
    assert!(odds.starts_with("March 4 cm: it costs 8 cm of the 10 cm left"), "the way, and its cost: {odds}");
    mouse(&mut app, false);
    let a = a1(&mut app);
    assert_eq!((a.x, a.y), (100.0, 124.0), "marched 4 cm back");
    assert_eq!(app.world().resource::<TableDrag>().unit, None);
    // Onto the enemy: refused, nothing moves.
    point(&mut app, 100.0, 124.0);
    mouse(&mut app, true);
    point(&mut app, 100.0, 116.0);
    app.update();
    let odds = app.world().resource::<PlayerTurn>().odds.clone().unwrap_or_default();
    assert!(odds.contains("Cannot march there"), "{odds}");
    mouse(&mut app, false);
    assert_eq!((a1(&mut app).x, a1(&mut app).y), (100.0, 124.0));
    // U takes the march back; C forms column.
    press(&mut app, KeyCode::KeyU);
    assert_eq!(a1(&mut app).y, 120.0);
    press(&mut app, KeyCode::KeyC);
    assert_eq!(a1(&mut app).formation, Formation::Column);
    press(&mut app, KeyCode::KeyT);
    assert_eq!(a1(&mut app).facing, 15.0, "T wheels 15 degrees clockwise");
}

#[test]
fn pointing_at_an_enemy_shows_the_odds_and_a_click_fires() {
    let mut app = duel(vec![12]);
    assert_eq!(go_to(app.world_mut(), Phase::OffensiveFire), 0);
    app.update();
    point(&mut app, 100.0, 120.0);
    app.world_mut().write_message(MapClick { hex: crate::hex::Offset::new(10, 12), button: MapButton::Primary });
    app.update();
    assert_eq!(app.world().resource::<MapPointer>().selected, Some(0));
    point(&mut app, 100.0, 100.0);
    app.update();
    let odds = app.world().resource::<PlayerTurn>().odds.clone().unwrap_or_default();
    // 16 cm between the fronts: long range, 12 points, +1.
    assert!(odds.starts_with("Fire at b1: 12.0 fire points, modifier +1."), "{odds}");
    assert!(odds.contains("one figure lost 25%") && odds.contains("3 figures lost and unformed"), "in words: {odds}");
    app.world_mut().write_message(MapClick { hex: crate::hex::Offset::new(10, 10), button: MapButton::Primary });
    app.update();
    let log = app.world().resource::<sim::BattleLog>();
    let volley = log.events.iter().find(|e| matches!(e.kind, crate::events::EventKind::Fire { .. }));
    assert!(volley.is_some(), "the click fired");
    let book = app.world().resource::<sim::PlayState>().book.clone();
    assert!(book.iter().any(|o| o.order == Order::Fire { units: vec!["a1".into()], target: "b1".into() }));
    // Pointing at it again says the battalion has fired, not the odds.
    point(&mut app, 100.0, 101.0);
    app.update();
    let odds = app.world().resource::<PlayerTurn>().odds.clone().unwrap_or_default();
    assert_eq!(odds, "b1: a1 has already fired this phase.");
}

#[test]
fn the_pointer_cm_is_the_layout_inverse() {
    let app = duel(vec![]);
    let layout = app.world().resource::<Opened>().layout;
    let (x, y) = pointer_cm(layout, layout.table_world(37.5, 142.0));
    assert!((x - 37.5).abs() < 1e-3 && (y - 142.0).abs() < 1e-3);
}
