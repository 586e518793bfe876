//! Clicks on the map while a phase waits for the player: select a unit of
//! yours (shift adds firers or attackers), look at an enemy, march, fire,
//! attack or charge, as [`order_for_click`] reads them.

use bevy::ecs::system::SystemState;
use bevy::prelude::*;

use super::decide::{Click, order_for_click, unit_views};
use super::give::give;
use super::keys::{ready, unread};
use crate::game::input::{MapClick, MapPointer};
use crate::game::playback::Playback;
use crate::game::turn::{Notice, PlayerTurn};

pub(super) fn map_clicks(world: &mut World, reader: &mut SystemState<MessageReader<'static, 'static, MapClick>>) {
    let clicks = unread(world, reader);
    let Some((phase, side)) = ready(world).filter(|_| !clicks.is_empty()) else { return };
    let keys = world.resource::<ButtonInput<KeyCode>>();
    let shift = crate::game::input::modifier(keys, crate::game::input::SHIFT);
    if super::table::table_mode(world) {
        if let Some(at) = world.resource::<MapPointer>().world {
            super::table::table_click(world, at, shift);
        }
        return;
    }
    for MapClick { hex, button } in clicks {
        let units = unit_views(world);
        let selected = world.resource::<MapPointer>().selected;
        let group = world.resource::<PlayerTurn>().group.clone();
        match order_for_click(&units, phase, side, &group, selected, hex, button, shift) {
            Click::Select { unit, group } => {
                world.resource_mut::<MapPointer>().selected = Some(unit);
                world.resource_mut::<PlayerTurn>().group = group;
            }
            Click::Clear => {
                world.resource_mut::<MapPointer>().selected = None;
                world.resource_mut::<PlayerTurn>().group.clear();
            }
            Click::Say(text) => world.resource_mut::<PlayerTurn>().say(Notice::error(text)),
            Click::Order(order) => {
                let notice = give(world, &order);
                let mut turn = world.resource_mut::<PlayerTurn>();
                if !notice.error && order.rolls_dice() {
                    turn.group.clear();
                }
                turn.say(notice);
                world.resource_mut::<Playback>().follow = true;
            }
        }
    }
}
