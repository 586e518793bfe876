//! What the window's tests share: a scenario from text, a battle stepped
//! to a phase, a key pressed for a frame, and a battle set up at a window
//! without a window or renderer (the pointer, the playback and what they
//! need), to which each test adds the features it tries.

use std::sync::Arc;

use bevy::prelude::*;

use super::input;
use super::lines::Lines;
use super::opened::{Opened, Source, layout_of};
use super::playback;
use super::request::Request;
use super::seats::Seats;
use super::sets;
use super::state::Screen;
use super::turn::PlayerTurn;
use crate::scenario::Scenario;
use crate::sim::{self, Simulation};
use crate::turn::Phase;

/// A scenario from its text, `name` its file's for errors.
pub fn parse(text: &str, name: &str) -> Arc<Scenario> {
    match crate::scenario::parse_bytes(text.as_bytes(), name) {
        Ok(s) => Arc::new(s),
        Err(e) => panic!("{e}"),
    }
}

/// Steps the battle, ending other order phases, until `phase` waits; the
/// side whose orders it waits for.
pub fn go_to(w: &mut World, phase: Phase) -> usize {
    for _ in 0..100 {
        if let Some((p, side)) = sim::awaiting_orders(w) {
            if p == phase {
                return side;
            }
            sim::end_phase(w);
        }
        sim::step_phase(w);
    }
    panic!("never reached {phase:?}");
}

/// One frame with `key` down, then one with it up.
pub fn press(app: &mut App, key: KeyCode) {
    app.world_mut().resource_mut::<ButtonInput<KeyCode>>().press(key);
    app.update();
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    keys.release(key);
    keys.clear();
    app.update();
}

/// Keyboard input with `keys` held down this frame.
pub fn pressed(keys: &[KeyCode]) -> ButtonInput<KeyCode> {
    let mut input = ButtonInput::default();
    for k in keys {
        input.press(*k);
    }
    input
}

/// The battle at a window, in the game's frame order, with the pointer
/// and the playback; the caller adds the features under test.
pub fn battle_app(sim: Simulation) -> App {
    let mut app = sim.app;
    let s = app.world().resource::<sim::Battle>().scenario.clone();
    let ids = s.units.iter().enumerate().map(|(i, u)| (u.id.clone(), i)).collect();
    let layout = layout_of(&s);
    sets::plugin(&mut app);
    app.add_plugins(bevy::state::app::StatesPlugin).init_state::<Screen>();
    app.init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<Seats>()
        .init_resource::<Lines>()
        .init_resource::<PlayerTurn>()
        .insert_resource(Request(crate::cli::WindowRequest { file: None, shot: None, edit: None }))
        .insert_resource(Opened { source: Source::Bundled(0), scenario: Some(s), errors: Vec::new(), layout, ids });
    input::plugin(&mut app);
    playback::plugin(&mut app);
    app
}
