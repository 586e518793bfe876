//! The editor's input: its keys (undo, redo, save, playtest and the
//! selected unit's fields) and a click on the map with the tool in hand.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::model::{Editor, UnitAct};
use super::playtest::toggle_playtest;
use crate::edit::forces::{self, Spot};
use crate::edit::paint::{self};
use crate::game::input::MapPointer;
use crate::game::layout::Layout;
use crate::game::opened::Opened;
use crate::game::screen::MainCamera;
use crate::game::state::Screen;

/// The editor's keys: undo, redo, save, playtest and back, and the
/// selected unit's turn, delete, copy and morale.
pub(super) fn keys(world: &mut World) {
    let (ctrl, shift, k) = {
        let k = world.resource::<ButtonInput<KeyCode>>();
        let ctrl = k.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
        let shift = k.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
        (ctrl, shift, k.clone())
    };
    let Some(playtest) = world.get_resource::<Editor>().map(|e| e.playtest) else { return };
    if k.just_pressed(KeyCode::F8) {
        toggle_playtest(world);
        return;
    }
    if playtest || *world.resource::<State<Screen>>().get() != Screen::Editor {
        return;
    }
    // Keys typed into a text field are the field's.
    let focused = world.get_resource::<bevy::input_focus::InputFocus>().and_then(|f| f.get());
    if focused.is_some_and(|e| world.get::<bevy::text::EditableText>(e).is_some()) {
        return;
    }
    let hex = world.resource::<MapPointer>().hex;
    let mut e = world.resource_mut::<Editor>();
    if ctrl && (k.just_pressed(KeyCode::KeyY) || (shift && k.just_pressed(KeyCode::KeyZ))) {
        e.message = if e.redo() { "Redone." } else { "Nothing to redo." }.into();
    } else if ctrl && k.just_pressed(KeyCode::KeyZ) {
        e.message = if e.undo() { "Undone." } else { "Nothing to undo." }.into();
    } else if ctrl && k.just_pressed(KeyCode::KeyS) {
        e.message = e.save_words(shift);
    } else if ctrl && k.just_pressed(KeyCode::KeyD) {
        let (Some(id), Some(at)) = (e.selected.clone(), hex) else { return };
        let r = e.edit(|f| forces::duplicate(f, &id, Spot::Hex(at)));
        e.message = match r {
            Ok(new) => format!("{id} copied as {new}."),
            Err(err) => format!("Cannot copy: {err}"),
        };
    } else if k.just_pressed(KeyCode::Delete) || k.just_pressed(KeyCode::Backspace) {
        e.unit_act(UnitAct::Delete);
    } else if k.just_pressed(KeyCode::KeyT) {
        e.unit_act(if shift { UnitAct::TurnLeft } else { UnitAct::TurnRight });
    } else if k.any_just_pressed([KeyCode::Equal, KeyCode::NumpadAdd]) {
        e.nudge_morale(true);
    } else if k.any_just_pressed([KeyCode::Minus, KeyCode::NumpadSubtract]) {
        e.nudge_morale(false);
    } else if e.selected.is_some() {
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
    // Asked without touching the editor, which would count as a change
    // every frame (and rebuild the panels under the pointer).
    if e.autosave_due()
        && let Some(p) = e.autosave()
    {
        e.message = format!("{} (autosaved to {})", e.message, p.display());
    }
}

/// A click on the map (not on a panel over it) with the tool chosen.
pub(super) fn click(
    ev: On<Pointer<Click>>,
    windows: Query<(), With<PrimaryWindow>>,
    cam: Query<(&Camera, &GlobalTransform), With<MainCamera>>,
    opened: Res<Opened>,
    pointer: Res<MapPointer>,
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    editor: Option<ResMut<Editor>>,
    focus: Option<ResMut<bevy::input_focus::InputFocus>>,
) {
    let Some(mut editor) = editor else { return };
    let on_map = ev.original_event_target() == ev.entity && windows.contains(ev.entity);
    // A click on the map leaves a text field: the keys are the editor's again.
    if on_map && let Some(mut f) = focus {
        f.clear();
    }
    if !on_map || pointer.dragged || editor.playtest || *screen.get() != Screen::Editor {
        return;
    }
    if ev.button != PointerButton::Primary {
        return;
    }
    let Ok((camera, gt)) = cam.single() else { return };
    let Some(world) = camera.viewport_to_world_2d(gt, ev.pointer_location.position).ok() else { return };
    let moving = keys.pressed(KeyCode::KeyM);
    click_at(&mut editor, opened.layout, world, moving);
}

/// A click at a world point, in hex or table terms.
pub fn click_at(editor: &mut Editor, layout: Layout, world: Vec2, moving: bool) {
    match layout {
        Layout::Hex { .. } => {
            let Some(at) = layout.hex_at(world) else { return };
            let d = (world - layout.world(at)) / crate::game::layout::HEX_W;
            let side = paint::nearest_side(d.x, -d.y);
            editor.click(Spot::Hex(at), Some(side), moving);
        }
        Layout::Table { .. } => {
            let o = layout.table_world(0.0, 0.0);
            let ppc = layout.px_per_cm();
            let (x, y) = ((world.x - o.x) / ppc, (o.y - world.y) / ppc);
            editor.click(Spot::Cm(x, y), None, moving);
        }
    }
}
