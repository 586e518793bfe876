//! The pointer as the map reads it: the world point and hex under the
//! cursor, the unit selected, and a click on the map left for the orders
//! while a phase waits for the player.

use bevy::prelude::*;
use bevy::ui::RelativeCursorPosition;

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
pub struct Pointer {
    pub world: Option<Vec2>,
    pub hex: Option<Offset>,
    pub selected: Option<usize>,
    /// Where the button went down, if on the map (not on a panel over it).
    pub press: Option<Vec2>,
    /// The press has moved far enough to be a drag, not a click.
    pub dragged: bool,
}

/// A click on the map while a phase waits for the player's orders (then
/// it does not select by itself): the orders read it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapClick {
    pub hex: Offset,
    pub button: MapButton,
}

/// Where the pointer and its clicks are read, for systems that use them.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PointSet;

/// A panel over the map with buttons or text to click (the orders banner,
/// the game-over card, the menu): while the cursor is over it, the map
/// under it shows no hex, takes no click and does not pan or zoom; and a
/// press that began on it (a button that closes the panel, say) is no click
/// on the map when it is released. The map is drawn by sprites and read by
/// the cursor's position, not by Bevy's picking, so UI nodes do not block
/// it by themselves; Bevy's UI focus system (PreUpdate) keeps the required
/// [`RelativeCursorPosition`] up to date.
#[derive(Component, Default)]
#[require(RelativeCursorPosition)]
pub struct ShieldsMap;

/// Whether the cursor is over a shown [`ShieldsMap`] panel (a hidden one,
/// `Display::None`, has no size and never holds it).
pub fn over_panel(panels: &Query<&RelativeCursorPosition, With<ShieldsMap>>) -> bool {
    panels.iter().any(RelativeCursorPosition::cursor_over)
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Pointer>().add_message::<MapClick>();
}
