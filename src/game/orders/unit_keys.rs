//! The movement phase's keys for the selected unit: formations and limbers,
//! turning one hexside, and marching off the map by the side's exit edge.

use bevy::ecs::system::SystemState;
use bevy::prelude::*;

use super::decide::{UnitView, exit_edge, order_for_key, turn_order, unit_views};
use super::give::give;
use super::keys::{Intent, ready, unread};
use crate::game::input::MapPointer;
use crate::game::playback::Playback;
use crate::game::turn::{Notice, PlayerTurn};
use crate::labataille::orders::Order;
use crate::sim;
use crate::turn::Phase;

pub(super) fn unit_keys(world: &mut World, reader: &mut SystemState<MessageReader<'static, 'static, Intent>>) {
    let asked = unread(world, reader);
    if asked.is_empty() {
        return;
    }
    if ready(world).is_none() {
        // A key that does nothing says why.
        if asked.iter().any(|i| matches!(i, Intent::Formation(_) | Intent::Turn { .. } | Intent::Exit)) {
            let notice = super::keys::not_now(world);
            world.resource_mut::<PlayerTurn>().say(notice);
        }
        return;
    }
    if super::table::table_mode(world) {
        for intent in asked {
            let order = match intent {
                Intent::Formation(k) => super::table::key_order(world, Some(k), None),
                Intent::Turn { counter_clockwise } => super::table::key_order(world, None, Some(counter_clockwise)),
                _ => continue,
            };
            let notice = match order {
                Ok(o) => give(world, &o),
                Err(text) => Notice::error(text),
            };
            world.resource_mut::<PlayerTurn>().say(notice);
            world.resource_mut::<Playback>().follow = true;
        }
        return;
    }
    let Some((phase, side)) = ready(world) else { return };
    for intent in asked {
        let units = unit_views(world);
        let selected = world.resource::<MapPointer>().selected;
        let own = selected.and_then(|i| units.get(i)).filter(|u| u.side == side);
        let notice = match intent {
            Intent::Formation(k) => {
                unit_order(world, phase, own, "Formations change in your movement phase.", |_, u| {
                    Ok(order_for_key(k, u))
                })
            }
            Intent::Turn { counter_clockwise } => {
                unit_order(world, phase, own, "Units turn in your movement phase.", |_, u| {
                    Ok(turn_order(u, counter_clockwise))
                })
            }
            Intent::Exit => unit_order(world, phase, own, "Units march off the map in your movement phase.", |w, u| {
                let s = w.resource::<sim::Battle>().scenario.clone();
                let edge = exit_edge(&s.exits, side, u.at, s.map.width, s.map.height)?;
                Ok(Order::Exit { unit: u.id.clone(), edge })
            }),
            _ => continue,
        };
        world.resource_mut::<PlayerTurn>().say(notice);
        world.resource_mut::<Playback>().follow = true;
    }
}

/// Gives `unit` the order `order` makes for it in the movement phase, or
/// says why there is none: no unit of yours selected, or another phase
/// (`elsewhere`).
fn unit_order(
    world: &mut World,
    phase: Phase,
    unit: Option<&UnitView>,
    elsewhere: &str,
    order: impl FnOnce(&World, &UnitView) -> Result<Order, String>,
) -> Notice {
    match (phase, unit) {
        (Phase::Movement, Some(u)) => match order(world, u) {
            Ok(o) => give(world, &o),
            Err(text) => Notice::error(text),
        },
        (Phase::Movement, None) => Notice::error("Select one of your units first."),
        _ => Notice::error(elsewhere),
    }
}
