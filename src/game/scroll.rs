//! The panels that scroll: the wheel over one moves it, and not the map
//! under it (the editor's palette, page and questions; the cards of the
//! right-hand column).

use bevy::input::mouse::MouseScrollUnit;
use bevy::picking::events::Scroll;
use bevy::prelude::*;

/// A panel that scrolls with the wheel.
#[derive(Component)]
pub struct Scrolls;

/// How far one notch of the wheel moves a panel, in pixels.
const NOTCH: f32 = 28.0;

pub(crate) fn plugin(app: &mut App) {
    app.add_observer(scroll);
}

fn scroll(mut ev: On<Pointer<Scroll>>, mut q: Query<&mut ScrollPosition, With<Scrolls>>) {
    let Ok(mut at) = q.get_mut(ev.entity) else { return };
    let dy = match ev.unit {
        MouseScrollUnit::Line => ev.y * NOTCH,
        MouseScrollUnit::Pixel => ev.y,
    };
    at.y = (at.y - dy).max(0.0);
    ev.propagate(false);
}
