//! The session keys, which work whatever the phase: F5 saves the game to
//! [`QUICK_SAVE`], F9 opens it again, P changes who sits at the window.

use std::path::{Path, PathBuf};

use bevy::ecs::system::SystemState;
use bevy::prelude::*;

use super::keys::{Intent, unread};
use crate::game::opened::Source;
use crate::game::playback::Playback;
use crate::game::scenarios::{Pending, ScenarioText};
use crate::game::seats::{Seats, seat};
use crate::game::turn::{Notice, PlayerTurn};
use crate::sim;

/// Where F5 saves and F9 loads.
pub const QUICK_SAVE: &str = "saves/quick.save.ron";

pub(super) fn session_keys(world: &mut World, reader: &mut SystemState<MessageReader<'static, 'static, Intent>>) {
    for intent in unread(world, reader) {
        let notice = match intent {
            Intent::QuickSave => quick_save(world),
            Intent::QuickLoad => quick_load(world),
            Intent::NextSeats => next_seats(world),
            _ => continue,
        };
        world.resource_mut::<PlayerTurn>().say(notice);
    }
}

/// Saves the game to [`QUICK_SAVE`] and says so.
fn quick_save(world: &mut World) -> Notice {
    let text = world.resource::<ScenarioText>().0.clone();
    let Some(save) = crate::save::capture(world, &text) else { return Notice::error("Nothing to save.") };
    match save.write(Path::new(QUICK_SAVE)) {
        Ok(()) => Notice::said(format!("Saved to {QUICK_SAVE} (F9 loads it).")),
        Err(e) => Notice::error(format!("Cannot save to {QUICK_SAVE}: {e}")),
    }
}

/// Opens [`QUICK_SAVE`] at the start of the next frame.
fn quick_load(world: &mut World) -> Notice {
    let path = PathBuf::from(QUICK_SAVE);
    if !path.exists() {
        return Notice::error("No quick save yet (F5 saves).");
    }
    world.resource_mut::<Pending>().0 = Some(Source::File(path));
    Notice::said(format!("Loading {QUICK_SAVE}"))
}

/// The next seats, given to the battle at once; the battle plays on to
/// the new seats' first orders.
fn next_seats(world: &mut World) -> Notice {
    let seats = world.resource::<Seats>().next();
    world.insert_resource(seats);
    seat(world, seats);
    let awaiting = sim::awaiting_orders(world);
    let mut turn = world.resource_mut::<PlayerTurn>();
    turn.awaiting = awaiting;
    turn.group.clear();
    world.resource_mut::<Playback>().playing = true;
    Notice::said(format!("Seats: {} (P to change)", seats.words()))
}
