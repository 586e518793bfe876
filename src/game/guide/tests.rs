//! The guide walks the first battle as a newcomer would play it: each
//! step moves on only when the battle shows it done.

use bevy::prelude::*;

use super::{GUIDED, Guide, STEPS};
use crate::game::input::MapPointer;
use crate::game::seats::{Seats, seat};
use crate::game::testing::{battle_app, go_to, parse};
use crate::labataille::orders::Order;
use crate::sim::{self, Simulation};
use crate::turn::Phase;

fn app() -> App {
    let s = parse(include_str!("../../../scenarios/first-battle.ron"), "first-battle.ron");
    assert_eq!(s.name, GUIDED);
    let mut sim = Simulation::new(s, 1812, vec![], Seats::Nobody);
    seat(sim.app.world_mut(), Seats::Player);
    let mut app = battle_app(sim);
    crate::game::rout_preview::plugin(&mut app);
    crate::game::why::plugin(&mut app);
    super::plugin(&mut app);
    app.update();
    app
}

fn step(app: &App) -> usize {
    app.world().resource::<Guide>().step
}

#[test]
fn the_guide_moves_on_only_as_the_battle_shows_each_step_done() {
    let mut app = app();
    assert!(app.world().resource::<Guide>().on, "the guided battle turns the guide on");
    assert_eq!(step(&app), 0);
    assert_eq!(go_to(app.world_mut(), Phase::Movement), 0, "the French move first");
    app.update();
    assert_eq!(step(&app), 0, "nothing done yet");
    // A Russian unit selected is not one of yours.
    app.world_mut().resource_mut::<MapPointer>().selected = Some(5);
    app.update();
    assert_eq!(step(&app), 0);
    app.world_mut().resource_mut::<MapPointer>().selected = Some(1);
    app.update();
    assert_eq!(step(&app), 1, "a battalion of yours selected");
    let line = app.world().resource::<Guide>().banner_line().unwrap_or_default();
    assert!(line.starts_with("Guide 2/7: March it"), "{line}");
    // A march in the log.
    let r = sim::issue_order(app.world_mut(), &Order::Move { unit: "fr-2-12".into(), to: (7, 9) });
    assert!(r.is_ok(), "{r:?}");
    app.update();
    assert_eq!(step(&app), 2);
    // The phase ended: on to the fire phase.
    sim::end_phase(app.world_mut());
    go_to(app.world_mut(), Phase::OffensiveFire);
    app.update();
    app.update();
    assert_eq!(step(&app), 3);
    // F2 hides the guide, and shows it again.
    crate::game::testing::press(&mut app, KeyCode::F2);
    assert!(app.world().resource::<Guide>().hidden);
    assert_eq!(app.world().resource::<Guide>().banner_line(), None);
    crate::game::testing::press(&mut app, KeyCode::F2);
    assert!(!app.world().resource::<Guide>().hidden);
    assert!(STEPS.len() == 7);
}
