//! The camera and the pointer: the map fitted to the window when a battle
//! opens, panned by dragging or the arrow keys, zoomed by the wheel about
//! the cursor; the hex under the cursor, and the unit selected by clicking.
//! Panels drawn over the map (`ShieldsMap`) keep the pointer to
//! themselves.

use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::ui::RelativeCursorPosition;
use bevy::window::PrimaryWindow;

use super::input::{MapButton, MapClick, PointSet, Pointer, ShieldsMap, over_panel};
use super::layout::fit_scale;
use super::opened::Opened;
use super::request::Request;
use super::screen::{BAR_H, MainCamera, PANEL_W};
use super::sets::GameSet;
use super::shown::Shown;
use super::turn::PlayerTurn;
use super::units::units_at;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, |mut commands: Commands| {
        commands.spawn((Camera2d, MainCamera));
    });
    app.add_systems(Update, fit.in_set(GameSet::Build).run_if(resource_changed::<Opened>));
    app.add_systems(Update, (pan_zoom, point).chain().in_set(GameSet::Input).in_set(PointSet));
}

/// Fits the map into the part of the window the panels leave free.
fn fit(
    opened: Res<Opened>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cam: Query<(&mut Transform, &mut Projection), With<MainCamera>>,
    mut pointer: ResMut<Pointer>,
) {
    pointer.selected = None;
    let Ok(window) = windows.single() else { return };
    let Ok((mut t, mut p)) = cam.single_mut() else { return };
    let view = Vec2::new((window.width() - PANEL_W).max(100.0), (window.height() - BAR_H).max(100.0));
    let bounds = opened.layout.bounds();
    let scale = fit_scale(bounds, view, 16.0);
    let centre = (bounds.0 + bounds.1) / 2.0;
    // The free area is left of the panel and below the bar: shift the
    // camera so the map's centre lands in its middle.
    t.translation = (centre + Vec2::new(PANEL_W / 2.0, BAR_H / 2.0) * scale).extend(t.translation.z);
    if let Projection::Orthographic(o) = p.as_mut() {
        o.scale = scale;
    }
}

pub(super) fn pan_zoom(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    scroll: Res<AccumulatedMouseScroll>,
    time: Res<Time>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cam: Query<(&mut Transform, &mut Projection, &Camera, &GlobalTransform), With<MainCamera>>,
    mut pointer: ResMut<Pointer>,
    mut last_cursor: Local<Option<Vec2>>,
    opened: Res<Opened>,
    panels: Query<&RelativeCursorPosition, With<ShieldsMap>>,
) {
    let Ok(window) = windows.single() else { return };
    let Ok((mut t, mut p, camera, gt)) = cam.single_mut() else { return };
    let Projection::Orthographic(o) = p.as_mut() else { return };
    let cursor = window.cursor_position();
    let shielded = over_panel(&panels);
    // Arrow keys: a third of the view per second.
    let mut dir = Vec2::ZERO;
    for (k, d) in [
        (KeyCode::ArrowLeft, Vec2::NEG_X),
        (KeyCode::ArrowRight, Vec2::X),
        (KeyCode::ArrowUp, Vec2::Y),
        (KeyCode::ArrowDown, Vec2::NEG_Y),
    ] {
        if keys.pressed(k) {
            dir += d;
        }
    }
    t.translation += (dir * 600.0 * o.scale * time.delta_secs()).extend(0.0);
    if keys.just_pressed(KeyCode::KeyF) {
        // Refit by pretending the battle reopened.
        let bounds = opened.layout.bounds();
        let view = Vec2::new((window.width() - PANEL_W).max(100.0), (window.height() - BAR_H).max(100.0));
        o.scale = fit_scale(bounds, view, 16.0);
        let centre = (bounds.0 + bounds.1) / 2.0;
        t.translation = (centre + Vec2::new(PANEL_W / 2.0, BAR_H / 2.0) * o.scale).extend(t.translation.z);
    }
    // Drag with any button; a press that does not move is a click.
    let any = [MouseButton::Left, MouseButton::Right, MouseButton::Middle];
    if buttons.any_just_pressed(any) {
        pointer.press = cursor.filter(|_| !shielded);
        pointer.dragged = false;
    }
    if let (Some(now), Some(before)) = (cursor, *last_cursor)
        && buttons.any_pressed(any)
        && pointer.press.is_some()
    {
        let moved = pointer.press.is_some_and(|p| p.distance(now) > 4.0);
        if moved {
            pointer.dragged = true;
        }
        if pointer.dragged {
            let d = now - before;
            t.translation += Vec3::new(-d.x, d.y, 0.0) * o.scale;
        }
    }
    *last_cursor = cursor;
    // Wheel: zoom about the point under the cursor.
    let lines = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
    };
    if lines != 0.0
        && !shielded
        && let Some(c) = cursor
        && c.x < window.width() - PANEL_W
    {
        let before = camera.viewport_to_world_2d(gt, c).ok();
        let factor = 0.85f32.powf(lines);
        let new_scale = (o.scale * factor).clamp(0.05, 50.0);
        if let Some(w) = before {
            let centre = t.translation.truncate();
            let kept = w + (centre - w) * (new_scale / o.scale);
            t.translation = kept.extend(t.translation.z);
        }
        o.scale = new_scale;
    }
}

/// The hex under the cursor, and clicks that select a unit there (again to
/// go down the stack). A click is a press and release on the map, without
/// a drag, neither on a panel over it.
pub(super) fn point(
    windows: Query<&Window, With<PrimaryWindow>>,
    cam: Query<(&Camera, &GlobalTransform), With<MainCamera>>,
    buttons: Res<ButtonInput<MouseButton>>,
    opened: Res<Opened>,
    shown: Res<Shown>,
    mut pointer: ResMut<Pointer>,
    req: Res<Request>,
    turn: Res<PlayerTurn>,
    panels: Query<&RelativeCursorPosition, With<ShieldsMap>>,
    mut clicks: MessageWriter<MapClick>,
) {
    let Ok(window) = windows.single() else { return };
    let Ok((camera, gt)) = cam.single() else { return };
    // A screenshot is not about wherever the display's pointer happens to be.
    let live = req.0.shot.is_none() && !over_panel(&panels);
    let cursor = window.cursor_position().filter(|c| live && c.x < window.width() - PANEL_W && c.y > BAR_H);
    pointer.world = cursor.and_then(|c| camera.viewport_to_world_2d(gt, c).ok());
    pointer.hex = pointer.world.and_then(|w| opened.layout.hex_at(w));
    let released = if buttons.just_released(MouseButton::Left) {
        Some(MapButton::Primary)
    } else if buttons.just_released(MouseButton::Right) {
        Some(MapButton::Secondary)
    } else {
        None
    };
    let on_map = cursor.is_some() && pointer.press.is_some();
    // While orders are awaited a click is the orders' to read; while the
    // player looks back at the log it does nothing (the selection and the
    // units picked stay as they were on the present board).
    if let (Some(button), false, Some(hex)) = (released, pointer.dragged, pointer.hex)
        && on_map
        && turn.awaiting.is_some()
    {
        if !turn.reviewing {
            clicks.write(MapClick { hex, button });
        }
        return;
    }
    if buttons.just_released(MouseButton::Left) && !pointer.dragged && on_map {
        let here = units_at(&opened, &shown, pointer.world, pointer.hex);
        pointer.selected = match pointer.selected.and_then(|s| here.iter().position(|&u| u == s)) {
            Some(k) => here.get((k + 1) % here.len()).copied(),
            None => here.first().copied(),
        };
    }
}
