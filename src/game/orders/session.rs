//! The session keys, which work whatever the phase: F5 saves the game to a
//! new file, F9 opens the newest save of this battle (both the `saves` feature's), P
//! changes who sits at the window.

use bevy::ecs::system::SystemState;
use bevy::prelude::*;

use super::keys::{Intent, unread};
use crate::game::playback::Playback;
use crate::game::saves;
use crate::game::seats::{Seats, seat};
use crate::game::turn::{Notice, PlayerTurn};
use crate::sim;

pub(super) fn session_keys(world: &mut World, reader: &mut SystemState<MessageReader<'static, 'static, Intent>>) {
    for intent in unread(world, reader) {
        let notice = match intent {
            Intent::Save => saves::save_new(world),
            Intent::LoadNewest => saves::load_newest(world),
            Intent::NextSeats => next_seats(world),
            _ => continue,
        };
        world.resource_mut::<PlayerTurn>().say(notice);
    }
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
