//! Keeping the player's turn up to date: which phase waits for whose
//! orders, whether the player is looking back at the log, and the last
//! message's age outside a waiting phase.

use bevy::prelude::*;

use crate::game::opened::Opened;
use crate::game::playback::Playback;
use crate::game::shown::Shown;
use crate::game::turn::{MESSAGE_SECONDS, PlayerTurn};
use crate::sim;

/// Follows the simulation: the phase waiting for orders (a new one starts
/// with nobody picked and no message), and whether the shown log is behind
/// the present while it waits. Exclusive: the simulation is asked in the
/// same world.
pub(super) fn follow_phase(world: &mut World) {
    if world.resource::<Opened>().scenario.is_none() || world.get_resource::<sim::Battle>().is_none() {
        let turn = world.resource::<PlayerTurn>();
        if turn.awaiting.is_some() || turn.message.is_some() || !turn.group.is_empty() || turn.key.is_some() {
            world.insert_resource(PlayerTurn::default());
        }
        return;
    }
    let mut awaiting = sim::awaiting_orders(world);
    let mut passed = None;
    // A charge phase for a side with no cavalry has nothing to wait for:
    // it passes, and says so.
    if let Some((crate::turn::Phase::Charge, side)) = awaiting {
        let scenario = world.resource::<sim::Battle>().scenario.clone();
        let horse = scenario.units.iter().any(|u| u.side == side && u.arm == crate::terrain::Arm::Cavalry);
        if !horse {
            sim::end_phase(world);
            let mut pb = world.resource_mut::<Playback>();
            pb.playing = true;
            pb.follow = false;
            let name = scenario.sides.get(side).map_or("?", |s| s.name.as_str());
            passed = Some(crate::game::turn::Notice::said(format!(
                "The {name} have no cavalry: their charge phase passes."
            )));
            awaiting = sim::awaiting_orders(world);
        }
    }
    let len = world.resource::<sim::BattleLog>().events.len();
    let cursor = world.get_resource::<Shown>().map_or(len, |s| s.cursor);
    // The present board cannot change while the player looks back (no
    // order can be given): what was picked stays picked for the return.
    let reviewing = awaiting.is_some() && world.resource::<Playback>().reviewing(cursor, len);
    let turn = world.resource::<PlayerTurn>();
    if (turn.awaiting, turn.reviewing) == (awaiting, reviewing) {
        if let Some(n) = passed {
            world.resource_mut::<PlayerTurn>().say(n);
        }
        return;
    }
    let mut turn = world.resource_mut::<PlayerTurn>();
    if turn.awaiting != awaiting {
        turn.group.clear();
        if awaiting.is_some() {
            turn.message = None;
        }
    }
    turn.awaiting = awaiting;
    turn.reviewing = reviewing;
    if let Some(n) = passed {
        turn.say(n);
    }
}

/// Outside a waiting phase a message (saved, seats changed) goes after
/// [`MESSAGE_SECONDS`].
pub(super) fn age_message(time: Res<Time>, mut turn: ResMut<PlayerTurn>) {
    if turn.message.is_none() || turn.awaiting.is_some() {
        return;
    }
    // Ageing alone is nothing to redraw.
    let t = turn.bypass_change_detection();
    t.message_age += time.delta_secs();
    if t.message_age > MESSAGE_SECONDS {
        turn.message = None;
    }
}
