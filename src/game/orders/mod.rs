//! The player's orders, one concern a file (on a free-space table: [`table`]): the banner of a
//! phase that waits for orders ([`banner`]), the keys read into intents
//! ([`keys`]) and carried out by small systems (the session keys, undo and
//! end of phase, the unit keys, clicks on the map), the movement range,
//! path preview and odds worked out before an order is committed
//! ([`preview`]), and the orders drawn on the map.
//!
//! The decisions are plain functions ([`decide::order_for_click`],
//! [`decide::order_for_key`], [`words::fire_odds_text`], ...) over
//! [`decide::UnitView`]s read from the simulation's components, so a
//! player's turn can be driven and tested without a window; the Bevy
//! systems only gather input and show results.

mod banner;
mod clicks;
pub mod decide;
mod draw;
pub mod give;
pub mod keys;
mod phase;
pub mod preview;
pub mod session;
pub mod table;
mod unit_keys;
mod watch;
pub mod words;

use bevy::prelude::*;

use crate::game::input::PointSet;
use crate::game::opened::Opened;
use crate::game::sets::GameSet;
use crate::game::turn::PlayerTurn;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PlayerTurn>().init_resource::<table::TableDrag>().add_message::<keys::Intent>();
    // F5 and F9 need the saves' folder (`saves` sets it up too).
    app.init_resource::<crate::game::saves::SaveFolder>();
    app.add_systems(Startup, banner::spawn_card);
    app.add_observer(banner::press);
    // Session keys before the phase is followed (P may seat a player whose
    // phase waits), the phase before the orders that need it, the preview
    // last, on the board as the orders left it. Without a battle open
    // (a file that would not open) only the turn is kept clear.
    app.add_systems(
        Update,
        (
            (keys::read_keys, session::session_keys).chain().run_if(battle_open),
            watch::follow_phase,
            (
                phase::undo_or_end,
                unit_keys::unit_keys,
                table::table_pointer,
                clicks::map_clicks,
                watch::age_message,
                preview::refresh_preview,
            )
                .chain()
                .run_if(battle_open),
        )
            .chain()
            .in_set(GameSet::Input)
            .after(PointSet),
    );
    app.add_systems(Update, (draw::draw_orders, table::draw_table_orders).in_set(GameSet::Draw));
    app.add_systems(Update, banner::show_card.in_set(GameSet::Panels));
}

/// A battle is open and its simulation installed (not a file that would
/// not open).
fn battle_open(opened: Res<Opened>, battle: Option<Res<crate::sim::Battle>>) -> bool {
    opened.scenario.is_some() && battle.is_some()
}

#[cfg(test)]
mod table_tests;
#[cfg(test)]
mod tests;
