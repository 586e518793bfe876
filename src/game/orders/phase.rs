//! Undo and end of phase, asked by their keys or the banner's buttons,
//! while a phase waits for orders and the player is not looking back.

use bevy::ecs::system::SystemState;
use bevy::prelude::*;

use super::keys::{Intent, ready, unread};
use crate::game::playback::Playback;
use crate::game::turn::{Notice, PlayerTurn};
use crate::sim;

pub(super) fn undo_or_end(world: &mut World, reader: &mut SystemState<MessageReader<'static, 'static, Intent>>) {
    let asked = unread(world, reader);
    if ready(world).is_none() {
        // A key that does nothing says why.
        if asked.iter().any(|i| matches!(i, Intent::Undo | Intent::EndPhase)) {
            let notice = super::keys::not_now(world);
            world.resource_mut::<PlayerTurn>().say(notice);
        }
        return;
    }
    for intent in asked {
        match intent {
            Intent::Undo => {
                let notice = if sim::undo(world) {
                    Notice::said("Order taken back.")
                } else {
                    Notice::error("Nothing to take back: no order yet, or dice were rolled since.")
                };
                world.resource_mut::<PlayerTurn>().say(notice);
            }
            Intent::EndPhase => {
                sim::end_phase(world);
                let mut turn = world.resource_mut::<PlayerTurn>();
                turn.group.clear();
                turn.message = None;
                let mut pb = world.resource_mut::<Playback>();
                pb.playing = true;
                pb.follow = false;
                // The next phase is another's (or the same side's next):
                // nothing more of this one.
                return;
            }
            _ => {}
        }
    }
}
