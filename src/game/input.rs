//! The pointer as the map reads it: the world point and hex under the
//! cursor, the unit selected, and a click on the map left for the orders
//! while a phase waits for the player.

use bevy::prelude::*;

use crate::hex::Offset;

/// Which mouse button clicked the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapButton {
    /// Selects your unit under the pointer, otherwise gives the order.
    Primary,
    /// Always gives the order (to march onto friends, for instance).
    Secondary,
}

/// Where the pointer is, and what is selected.
#[derive(Resource, Default)]
pub struct MapPointer {
    pub world: Option<Vec2>,
    pub hex: Option<Offset>,
    pub selected: Option<usize>,
    /// The pointer is on the map: over the window, no panel over it.
    pub over_map: bool,
    /// The last press on the map has moved far enough to be a drag, not a
    /// click.
    pub dragged: bool,
    /// A press grabbed a unit to drag its march (free space): a drag then
    /// moves the unit, not the map.
    pub grab: bool,
}

/// A click on the map while a phase waits for the player's orders (then
/// it does not select by itself): the orders read it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapClick {
    pub hex: Offset,
    pub button: MapButton,
}

/// Whether a modifier (both its keys given) is down at the moment of a
/// key or click: held, or let go in the same frame, as a quick Shift+R or
/// Ctrl+Z at a low frame rate is.
pub fn modifier(keys: &ButtonInput<KeyCode>, which: [KeyCode; 2]) -> bool {
    keys.any_pressed(which) || keys.any_just_released(which)
}

/// The two Shift keys, and the two Ctrl keys, for [`modifier`].
pub const SHIFT: [KeyCode; 2] = [KeyCode::ShiftLeft, KeyCode::ShiftRight];
pub const CTRL: [KeyCode; 2] = [KeyCode::ControlLeft, KeyCode::ControlRight];

/// Where the pointer and its clicks are read, for systems that use them.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PointSet;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MapPointer>().add_message::<MapClick>();
}
