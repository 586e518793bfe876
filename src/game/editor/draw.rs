//! What the editor draws: its map and counters again after each edit, the
//! rings of problems, objectives and the selection, and the map fitted
//! beside the palette.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::model::Editor;
use crate::edit::forces::{self, Spot};
use crate::edit::paint::{self};
use crate::edit::{blank, places};
use crate::game::layout::Layout;
use crate::game::lines::Lines;
use crate::game::map::{HexAtlas, spawn_ground, z};
use crate::game::opened::{OnBattle, Opened, Source, clear_battle};
use crate::game::screen::MainCamera;
use crate::game::theme;
use crate::hex::Offset;
use crate::scenario::Mode;
use crate::terrain::Arm;

/// Width of the editor's palette on the left, which the map is fitted
/// beside.
pub const PALETTE_W: f32 = 118.0;

/// The map, just fitted into the window beside the side panel, fitted
/// beside the palette too.
pub(super) fn beside_palette(
    editor: Option<Res<Editor>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cam: Query<(&mut Transform, &mut Projection), With<MainCamera>>,
) {
    if editor.is_none_or(|e| e.playtest) {
        return;
    }
    let (Ok(window), Ok((mut t, mut p))) = (windows.single(), cam.single_mut()) else { return };
    let Projection::Orthographic(o) = p.as_mut() else { return };
    use crate::game::screen::{BAR_H, PANEL_W};
    let free = (window.width() - PANEL_W).max(PALETTE_W + 100.0);
    let old = o.scale;
    o.scale *= free / (free - PALETTE_W);
    // The map's centre, which the fit put in the middle of the part of the
    // window right of nothing and left of the side panel, goes in the
    // middle of the part between the palette and the side panel.
    t.translation.x += (PANEL_W - PALETTE_W) / 2.0 * o.scale - PANEL_W / 2.0 * old;
    t.translation.y += BAR_H / 2.0 * (o.scale - old);
}

/// The counter of a unit in the editor.
#[derive(Component)]
pub(super) struct EditorCounter;

pub(super) fn opened_for(e: &Editor) -> Opened {
    let layout = match e.file().mode {
        Mode::Hex => {
            let (w, h) = paint::size(&e.file().map);
            Layout::Hex { width: w.max(1) as u32, height: h.max(1) as u32 }
        }
        Mode::FreeSpace => {
            let (w, h) = paint::size(&e.file().map);
            Layout::Table {
                width: w.max(1) as u32,
                height: h.max(1) as u32,
                cell_cm: e.file().map.cell_cm.unwrap_or(blank::NEW_CELL_CM),
            }
        }
    };
    Opened { layout, ..Opened::failed(Source::File(e.path.clone()), Vec::new()) }
}

/// Entering the editor (at start, or back from a playtest): the map is
/// the editor's.
pub(super) fn show_editor(world: &mut World) {
    let Some(e) = world.get_resource::<Editor>() else { return };
    if e.playtest || !e.redraw {
        return;
    }
    let want = opened_for(e);
    let o = world.resource::<Opened>();
    if o.scenario.is_some() || o.layout != want.layout || o.source != want.source {
        world.insert_resource(want);
    }
}

/// The map and the counters drawn again after an edit.
pub(super) fn redraw(
    mut commands: Commands,
    editor: Option<ResMut<Editor>>,
    opened: Res<Opened>,
    hex: Res<HexAtlas>,
    mut images: ResMut<Assets<Image>>,
) {
    let Some(mut e) = editor else { return };
    if e.playtest || !e.redraw || opened.scenario.is_some() {
        return;
    }
    e.redraw = false;
    commands.queue(clear_battle);
    let f = e.file();
    let layout = opened.layout;
    spawn_ground(&mut commands, layout, &paint::terrain_map(&f.map, f.mode), &hex, &mut images);
    for u in &f.units {
        let Some(spot) = forces::spot(u) else { continue };
        let at = world_of(layout, spot);
        // The map's colours (a side's army's, or by its index), as the
        // battle will show them; the side's name is its id when it has none.
        let side = f.sides.iter().position(|s| s.id == u.side).unwrap_or(0);
        let (id, name) = match f.sides.get(side) {
            Some(s) => (s.id.as_str(), s.name.as_deref().unwrap_or(&s.id)),
            None => ("", ""),
        };
        let (colour, ink) = (theme::side_colour(id, name, side), theme::side_ink(id, name, side));
        let arm = match u.arm {
            Arm::Infantry => "I",
            Arm::Cavalry => "C",
            Arm::Artillery => "A",
        };
        let value = match (u.morale, u.strength, u.valour, u.figures) {
            (Some(m), s, _, _) => format!("{m} {}", s.unwrap_or(0)),
            (None, _, v, fig) => format!("{:+} {}", v.unwrap_or(0), fig.unwrap_or(0)),
        };
        commands.spawn((
            EditorCounter,
            OnBattle,
            Sprite::from_color(colour, Vec2::new(40.0, 34.0)),
            Transform::from_translation(at.extend(z::COUNTER)),
            children![(
                Text2d::new(format!("{arm}\n{value}")),
                TextFont::from_font_size(11.0),
                TextColor(ink),
                Transform::from_xyz(0.0, 0.0, 0.1),
            )],
        ));
    }
}

fn world_of(layout: Layout, spot: Spot) -> Vec2 {
    match spot {
        Spot::Hex(o) => layout.world(o),
        Spot::Cm(x, y) => layout.table_world(x, y),
    }
}

/// Rings, every frame: the problems (red), the selected unit (gold), the
/// objectives (white).
pub(super) fn marks(editor: Option<Res<Editor>>, opened: Res<Opened>, mut lines: ResMut<Lines>) {
    let Some(e) = editor else { return };
    let layout = opened.layout;
    for p in &e.problems {
        if let Some(spot) = p.path.as_deref().and_then(|path| places::spot_of(e.file(), path)) {
            lines.circle(world_of(layout, spot), 26.0, 3.0, theme::PROBLEM, z::FLASH);
        }
    }
    for o in &e.file().objectives {
        lines.circle(layout.world(Offset::new(o.at.0 as i32, o.at.1 as i32)), 20.0, 2.5, Color::WHITE, z::FLASH - 1.0);
    }
    let selected = e.selected.as_ref().and_then(|id| e.file().units.iter().find(|u| u.id == *id));
    if let Some(spot) = selected.and_then(forces::spot) {
        lines.circle(world_of(layout, spot), 30.0, 3.0, theme::GOLD, z::FLASH);
    }
}
