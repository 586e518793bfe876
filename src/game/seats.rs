//! Who sits at the window: the scenario's player against the AI, both sides
//! at one window (hot-seat), or nobody (the AI plays both sides and the
//! window watches). The seats themselves and the control each gives a side
//! are the simulation's ([`crate::sim::Seats`]); the window keeps its choice.

use bevy::prelude::*;

use crate::sim;
pub use crate::sim::Seats;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Seats>();
}

/// Gives the controls of `seats` to the battle in `world` (after a reset,
/// or when the player switches seats).
pub fn seat(world: &mut World, seats: Seats) {
    let Some(s) = world.get_resource::<sim::Battle>().map(|b| b.scenario.clone()) else { return };
    world.insert_resource(seats.controls(&s));
}
