//! Opening scenarios: the built-in ones (embedded, so the binary works from
//! any directory), a file named on the command line or dropped on the
//! window, and restarting (the hot reload is `reload`'s). An invalid file
//! opens as its list of located errors.

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::window::FileDragAndDrop;

use super::opened::{BUNDLED, Opened, Source, clear_battle};
use super::request::Request;
use super::seats::{Seats, seat};
use super::sets::GameSet;
use super::state::{Screen, battle_keys};
use crate::scenario::{Scenario, parse_bytes};
use crate::sim::Clock;

/// A scenario to open at the start of the next frame.
#[derive(Resource, Default)]
pub struct Pending(pub Option<Source>);

/// The files dropped on the window this session, which the menu lists.
#[derive(Resource, Default)]
pub struct Dropped(pub Vec<PathBuf>);

pub(super) fn plugin(app: &mut App) {
    // The editor (`sauve edit`) opens no battle of its own.
    let req = &app.world().resource::<Request>().0;
    let first = match (&req.file, &req.edit) {
        (_, Some(_)) => None,
        (Some(p), None) => Some(Source::File(p.clone())),
        (None, None) => Some(Source::Bundled(0)),
    };
    app.insert_resource(Pending(first))
        .init_resource::<Dropped>()
        .init_resource::<ScenarioText>()
        .insert_resource(Opened::failed(Source::Bundled(0), Vec::new()));
    app.add_systems(Update, (dropped, open_pending).chain().in_set(GameSet::Open));
    app.add_systems(Update, restart.in_set(GameSet::Input).run_if(battle_keys));
}

/// What a source holds: a scenario, or a saved game (with its scenario).
pub struct Game {
    pub scenario: Scenario,
    pub save: Option<crate::save::SaveGame>,
    /// The scenario file's text, which a save keeps whole.
    pub text: String,
}

/// Reads and validates a source: a scenario or a saved game, or the
/// located error lines that stopped it opening.
pub fn read_game(source: &Source) -> Result<Game, Vec<String>> {
    let (name, bytes) = match source {
        Source::Bundled(i) => {
            let Some((name, text)) = BUNDLED.get(*i) else { return Err(vec![format!("no bundled scenario {i}")]) };
            (format!("scenarios/{name}"), text.as_bytes().to_vec())
        }
        Source::File(p) => {
            let name = p.display().to_string();
            match std::fs::read(p) {
                Ok(bytes) => (name, bytes),
                Err(e) => return Err(vec![format!("{name}: error: cannot read: {e}")]),
            }
        }
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if crate::save::is_save(&text) {
        let (save, scenario) = crate::save::SaveGame::parse(&text, &name).map_err(|e| e.lines())?;
        let text = save.scenario.clone();
        return Ok(Game { scenario, save: Some(save), text });
    }
    let scenario = parse_bytes(&bytes, &name).map_err(|e| e.lines())?;
    Ok(Game { scenario, save: None, text })
}

/// The text of the open scenario (what a save keeps).
#[derive(Resource, Default)]
pub struct ScenarioText(pub String);

/// Opens the pending scenario: restarts the simulation with it, or keeps
/// its errors to show. Exclusive, because the simulation lives in the world.
fn open_pending(world: &mut World) {
    let Some(source) = world.resource_mut::<Pending>().0.take() else { return };
    let shot = world.resource::<Request>().0.shot.clone();
    clear_battle(world);
    let opened = match read_game(&source) {
        Ok(Game { scenario, save: Some(save), text }) => {
            // A saved game: its orders played again up to where it stood,
            // with its own seats.
            let s = Arc::new(scenario);
            crate::save::restore(world, &save, s.clone());
            world.insert_resource(ScenarioText(text));
            Opened::battle(source, s)
        }
        Ok(Game { scenario, save: None, text }) => {
            let s = Arc::new(scenario);
            world.insert_resource(ScenarioText(text));
            let seed = shot.as_ref().and_then(|r| r.seed).unwrap_or(s.seed);
            // `sauve shot --ai`: who plays the turns before the picture (the
            // command line has checked a side id against this file).
            let choice = shot.as_ref().and_then(|r| crate::cli::ai::ai_choice(&r.ai, &s.sides).ok());
            let ai = choice.as_ref().map_or(Seats::Nobody, |c| c.seats);
            let s = match choice {
                Some(c) => Arc::new(c.apply((*s).clone())),
                None => s,
            };
            crate::sim::reset(world, s.clone(), seed, Vec::new(), ai);
            // A picture shows the battle as the rules alone play it (or the
            // AI, as `--ai` asked), unless asked for the player's seats (to
            // picture a turn of orders).
            let seats = match (&shot, std::env::var("SAUVE_SHOT_SEATS").ok().as_deref()) {
                (None, _) => Some(*world.resource::<Seats>()),
                (Some(_), Some("player")) => Some(Seats::Player),
                (Some(_), Some("hotseat")) => Some(Seats::HotSeat),
                (Some(_), _) => None,
            };
            if let Some(seats) = seats {
                seat(world, seats);
            }
            if let Some(r) = &shot {
                simulate_turns(world, r.turns);
            }
            Opened::battle(source, s)
        }
        Err(errors) => {
            let units: Vec<Entity> =
                world.query_filtered::<Entity, With<crate::sim::UnitIndex>>().iter(world).collect();
            for e in units {
                world.despawn(e);
            }
            Opened::failed(source, errors)
        }
    };
    world.insert_resource(opened);
    world.resource_mut::<NextState<Screen>>().set(Screen::Battle);
}

/// Runs the whole battle's first `turns` turns at once (for `sauve shot`),
/// stopping early at a phase that waits for a player.
pub fn simulate_turns(world: &mut World, turns: u32) {
    while world.get_resource::<Clock>().is_some_and(|c| !c.finished && c.turn <= turns) {
        if crate::sim::awaiting_orders(world).is_some() {
            break;
        }
        if !crate::sim::step_phase(world) {
            break;
        }
    }
}

fn dropped(
    mut drops: MessageReader<FileDragAndDrop>,
    mut pending: ResMut<Pending>,
    mut dropped: ResMut<Dropped>,
    screen: Res<State<Screen>>,
) {
    // In the editor a dropped file opens in the editor (editor/input.rs).
    if *screen.get() == Screen::Editor {
        drops.clear();
        return;
    }
    for d in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = d {
            if !dropped.0.contains(path_buf) {
                dropped.0.push(path_buf.clone());
            }
            pending.0 = Some(Source::File(path_buf.clone()));
        }
    }
}

/// Shift+R (not in the menu) opens the open scenario again from the start.
fn restart(
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    opened: Res<Opened>,
    mut pending: ResMut<Pending>,
) {
    if restart_asked(&keys, *screen.get(), opened.scenario.is_some()) {
        pending.0 = Some(opened.source.clone());
    }
}

/// Whether the keys ask for a restart: Shift+R; or R alone where there is
/// no battle to preview a rout on (the end-of-battle card, a file that
/// would not open), since in the battle R shows a unit's rout.
pub fn restart_asked(keys: &ButtonInput<KeyCode>, screen: Screen, battle_open: bool) -> bool {
    // Read at the key's moment: a Shift let go in the same frame counts.
    let shift = super::input::modifier(keys, super::input::SHIFT);
    keys.just_pressed(KeyCode::KeyR) && (shift || screen == Screen::GameOver || !battle_open)
}

#[cfg(test)]
mod tests;
