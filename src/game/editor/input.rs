//! The editor's input: its keys (undo, redo, save, open, quit, copy and
//! paste, playtest, the selected unit's fields) and the mouse on the map,
//! read each frame from the buttons' state so that no press is lost at a
//! low frame rate: a press starts the tool's stroke, moving with the
//! button held drags it, the release ends it (in place: a click). Space
//! held, or the middle button, pans the map instead.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::files::open_in;
use super::model::{Editor, Then, UnitAct};
use super::playtest::toggle_playtest;
use super::tools::Edge;
use crate::edit::forces::{self, Spot};
use crate::edit::paint;
use crate::game::input::MapPointer;
use crate::game::layout::Layout;
use crate::game::opened::Opened;
use crate::game::state::Screen;

/// How far (logical pixels) a press may move and still be a click.
const CLICK_SLOP: f32 = 4.0;

/// Whether keys typed now are a text field's.
fn typing(world: &World) -> bool {
    let focused = world.get_resource::<bevy::input_focus::InputFocus>().and_then(|f| f.get());
    focused.is_some_and(|e| world.get::<bevy::text::EditableText>(e).is_some())
}

/// The editor's keys.
pub(super) fn keys(world: &mut World) {
    let k = world.resource::<ButtonInput<KeyCode>>().clone();
    // Read at the key's moment: a modifier let go in its frame counts.
    let ctrl = crate::game::input::modifier(&k, crate::game::input::CTRL);
    let shift = crate::game::input::modifier(&k, crate::game::input::SHIFT);
    let Some(playtest) = world.get_resource::<Editor>().map(|e| e.playtest) else { return };
    if k.just_pressed(KeyCode::F8) {
        toggle_playtest(world);
        return;
    }
    if playtest || *world.resource::<State<Screen>>().get() != Screen::Editor || typing(world) {
        return;
    }
    // A question waiting has the keys (dialog.rs).
    if world.resource::<Editor>().ask.is_some() {
        return;
    }
    let hex = world.resource::<MapPointer>().hex;
    let cm = world_cm(world.resource::<Opened>().layout, world.resource::<MapPointer>().world);
    let mut e = world.resource_mut::<Editor>();
    if ctrl && (k.just_pressed(KeyCode::KeyY) || (shift && k.just_pressed(KeyCode::KeyZ))) {
        e.message = if e.redo() { "Redone." } else { "Nothing to redo." }.into();
    } else if ctrl && k.just_pressed(KeyCode::KeyZ) {
        e.message = if e.undo() { "Undone." } else { "Nothing to undo." }.into();
    } else if ctrl && k.just_pressed(KeyCode::KeyS) {
        e.message = e.save_words(shift);
    } else if ctrl && k.just_pressed(KeyCode::KeyO) {
        e.ask_open();
    } else if ctrl && k.just_pressed(KeyCode::KeyQ) {
        if e.leave(Then::Quit).is_some() {
            e.quit = true;
        }
    } else if ctrl && k.just_pressed(KeyCode::KeyC) {
        e.copy_region();
    } else if ctrl && k.just_pressed(KeyCode::KeyV) {
        e.paste_at(hex);
    } else if ctrl && k.just_pressed(KeyCode::KeyD) {
        let Some(id) = e.selected.clone() else {
            e.message = "Ctrl+D copies the selected unit to where the pointer is: select one first.".into();
            return;
        };
        let to = match (e.file().mode, hex, cm) {
            (crate::scenario::Mode::Hex, Some(at), _) => Spot::Hex(at),
            (crate::scenario::Mode::FreeSpace, _, Some((x, y))) => e.snapped(Spot::Cm(x, y)),
            _ => {
                e.message = "Ctrl+D copies the selected unit to where the pointer is: point at the map.".into();
                return;
            }
        };
        let r = e.edit(|f| forces::duplicate(f, &id, to));
        e.message = match r {
            Ok(new) => format!("{} copied as {new}.", e.unit_name(&id)),
            Err(err) => format!("Cannot copy: {err}"),
        };
    } else if k.just_pressed(KeyCode::Escape) {
        e.stroke = None;
        e.region = None;
        e.select(None);
        e.staff = None;
        e.message = "Nothing selected.".into();
    } else if k.any_just_pressed([KeyCode::Delete, KeyCode::Backspace]) {
        e.unit_act(UnitAct::Delete);
    } else if k.just_pressed(KeyCode::KeyG) && !ctrl {
        e.snap = next_snap(e.snap);
        e.message = match e.snap {
            0.0 => "Positions on a table are kept to a tenth of a cm.".into(),
            g => format!("Positions on a table snap to a {g} cm grid (G changes it)."),
        };
    } else if k.just_pressed(KeyCode::KeyT) {
        e.unit_act(if shift { UnitAct::TurnLeft } else { UnitAct::TurnRight });
    } else if k.any_just_pressed([KeyCode::Equal, KeyCode::NumpadAdd]) {
        e.unit_act(UnitAct::MoraleUp);
    } else if k.any_just_pressed([KeyCode::Minus, KeyCode::NumpadSubtract]) {
        e.unit_act(UnitAct::MoraleDown);
    } else if !ctrl {
        // The selected unit's other fields, one key each.
        let act = [
            (KeyCode::BracketRight, UnitAct::Stronger),
            (KeyCode::BracketLeft, UnitAct::Weaker),
            (KeyCode::KeyS, UnitAct::State),
            (KeyCode::KeyF, UnitAct::Formation),
            (KeyCode::KeyL, UnitAct::Limbered),
            (KeyCode::KeyH, UnitAct::Horse),
            (KeyCode::KeyK, if shift { UnitAct::LaterShock } else { UnitAct::Shock }),
            (KeyCode::KeyA, UnitAct::Arm),
            (KeyCode::KeyO, UnitAct::Side),
            (KeyCode::KeyJ, UnitAct::Leader),
        ]
        .into_iter()
        .find(|(key, _)| k.just_pressed(*key));
        if let Some((_, act)) = act {
            e.unit_act(act);
        }
    }
}

/// The table grids G steps through, in cm (0: none, a tenth).
const SNAPS: [f32; 5] = [0.0, 0.5, 1.0, 2.0, 5.0];

fn next_snap(now: f32) -> f32 {
    let k = SNAPS.iter().position(|&s| s == now).unwrap_or(0);
    SNAPS[(k + 1) % SNAPS.len()]
}

/// A world point in cm on a table.
fn world_cm(layout: Layout, world: Option<Vec2>) -> Option<(f32, f32)> {
    let w = world?;
    let Layout::Table { .. } = layout else { return None };
    let o = layout.table_world(0.0, 0.0);
    let ppc = layout.px_per_cm();
    Some(((w.x - o.x) / ppc, (o.y - w.y) / ppc))
}

/// The spot under a world point, in hex or table terms, and on a hex
/// map the hexside nearest it.
pub fn spot_at(layout: Layout, world: Vec2) -> Option<(Spot, Option<Edge>)> {
    match layout {
        Layout::Hex { .. } => {
            let at = layout.hex_at(world)?;
            let d = (world - layout.world(at)) / crate::game::layout::HEX_W;
            let dir = paint::nearest_side(d.x, -d.y);
            Some((Spot::Hex(at), Some(Edge { dir, out: d.length() })))
        }
        Layout::Table { .. } => world_cm(layout, Some(world)).map(|(x, y)| (Spot::Cm(x, y), None)),
    }
}

/// A click at a world point (the tests' way in).
#[cfg(test)]
pub fn click_at(editor: &mut Editor, layout: Layout, world: Vec2, moving: bool) {
    if let Some((spot, edge)) = spot_at(layout, world) {
        editor.click(spot, edge.map(|e| e.dir), moving);
    }
}

/// The press on the map the left button is held from, if any, and where
/// the cursor was then (window pixels).
#[derive(Resource, Default)]
pub(super) struct PressedAt(Option<Option<Vec2>>);

/// The mouse on the map, each frame: press, drag and release with the
/// tool in hand. A press and release within one frame still count.
pub(super) fn mouse(world: &mut World) {
    let Some(e) = world.get_resource::<Editor>() else { return };
    if e.playtest || e.ask.is_some() || *world.resource::<State<Screen>>().get() != Screen::Editor {
        return;
    }
    let Some(buttons) = world.get_resource::<ButtonInput<MouseButton>>().cloned() else { return };
    let keys = world.resource::<ButtonInput<KeyCode>>();
    let (panning, moving) = (keys.pressed(KeyCode::Space), keys.pressed(KeyCode::KeyM));
    let pointer = world.resource::<MapPointer>();
    let (over, at) = (pointer.over_map, pointer.world);
    let layout = world.resource::<Opened>().layout;
    let cursor =
        world.query_filtered::<&Window, With<PrimaryWindow>>().iter(world).next().and_then(Window::cursor_position);
    let here = at.and_then(|w| spot_at(layout, w));
    if buttons.just_pressed(MouseButton::Left) && over && !panning {
        // A click on the map leaves a text field: the keys are the editor's again.
        if let Some(mut f) = world.get_resource_mut::<bevy::input_focus::InputFocus>() {
            f.clear();
        }
        world.resource_mut::<PressedAt>().0 = Some(cursor);
        if let Some((spot, edge)) = here {
            let grab = !moving && world.resource_mut::<Editor>().press(spot, edge);
            world.resource_mut::<MapPointer>().grab = grab;
        }
    }
    let Some(pressed_at) = world.resource::<PressedAt>().0 else { return };
    if buttons.pressed(MouseButton::Left)
        && world.resource::<Editor>().stroke.is_some()
        && let Some((spot, edge)) = here
    {
        world.resource_mut::<Editor>().drag_to(spot, edge);
    }
    if buttons.just_released(MouseButton::Left) || !buttons.pressed(MouseButton::Left) {
        world.resource_mut::<PressedAt>().0 = None;
        world.resource_mut::<MapPointer>().grab = false;
        let click = match (pressed_at, cursor) {
            (Some(a), Some(b)) => a.distance(b) <= CLICK_SLOP,
            _ => true,
        };
        match here {
            Some((spot, edge)) => world.resource_mut::<Editor>().release(spot, edge, click, moving),
            None => {
                let mut e = world.resource_mut::<Editor>();
                e.stroke = None;
                e.end_stroke();
            }
        }
    }
}

/// Files dropped on the window open in the editor (after asking if
/// edits are unsaved), not as a battle.
pub(super) fn dropped(mut drops: MessageReader<bevy::window::FileDragAndDrop>, editor: Option<ResMut<Editor>>) {
    let Some(mut e) = editor else {
        drops.clear();
        return;
    };
    for d in drops.read() {
        if let bevy::window::FileDragAndDrop::DroppedFile { path_buf, .. } = d
            && !e.playtest
            && let Some(Then::Open(p)) = e.leave(Then::Open(path_buf.clone()))
        {
            open_in(&mut e, &p);
        }
    }
}

/// The window's close button (and Ctrl+Q): in the editor, unsaved edits
/// are asked about first (back in the editor from a playtest, where the
/// question shows); otherwise the window closes.
pub(super) fn close_requested(
    mut closes: MessageReader<bevy::window::WindowCloseRequested>,
    editor: Option<ResMut<Editor>>,
    mut exit: MessageWriter<AppExit>,
    mut commands: Commands,
) {
    let asked = closes.read().count() > 0;
    let Some(mut e) = editor else {
        if asked {
            exit.write(AppExit::Success);
        }
        return;
    };
    if asked && e.leave(Then::Quit).is_some() {
        e.quit = true;
    }
    if asked && e.ask.is_some() && e.playtest {
        commands.queue(toggle_playtest);
    }
    if e.quit {
        exit.write(AppExit::Success);
    }
}
