//! What the editor draws: its map (roads and hexsides too) and counters
//! again after each edit, each side's rear edge and exits along the map's
//! edges, and every frame the rings of problems, objectives and the
//! selection, the region marked, the line or rectangle being drawn and the
//! brush under the pointer.

use bevy::prelude::*;

use super::counters::{self, drawn_at};
use super::model::{Editor, Shape, Stroke, Tool};
use crate::edit::forces::Spot;
use crate::edit::paint::{self, Brush};
use crate::edit::{blank, places, region};
use crate::game::input::MapPointer;
use crate::game::layout::{HEX_W, Layout};
use crate::game::lines::Lines;
use crate::game::map::{HexAtlas, spawn_ground, z};
use crate::game::opened::{OnBattle, Opened, Source, clear_battle};
use crate::game::theme;
use crate::game::units::Symbols;
use crate::hex::{Edge, Offset};
use crate::scenario::Mode;

/// Width of the editor's palette on the left, which the map is fitted
/// beside.
pub const PALETTE_W: f32 = 132.0;

pub(super) fn opened_for(e: &Editor) -> Opened {
    let (w, h) = paint::size(&e.file().map);
    let layout = match e.file().mode {
        Mode::Hex => Layout::Hex { width: w.max(1) as u32, height: h.max(1) as u32 },
        Mode::FreeSpace => Layout::Table {
            width: w.max(1) as u32,
            height: h.max(1) as u32,
            cell_cm: e.file().map.cell_cm.unwrap_or(blank::NEW_CELL_CM),
        },
    };
    Opened { layout, ..Opened::failed(Source::File(e.path.clone()), Vec::new()) }
}

/// The map is the editor's: its layout follows the file's size, mode and
/// cell (a change refits the map).
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

/// The map, the counters and the edges drawn again after an edit.
pub(super) fn redraw(
    mut commands: Commands,
    editor: Option<ResMut<Editor>>,
    opened: Res<Opened>,
    hex: Res<HexAtlas>,
    symbols: Option<Res<Symbols>>,
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
    counters::spawn_all(&mut commands, f, layout, symbols.as_ref().map(|s| &s.0));
    // The objectives' names under their rings.
    for (o, (c, r)) in f.objectives.iter().zip(objective_rings(e.as_ref(), layout)) {
        let name = o.name.clone().unwrap_or_else(|| "objective".into());
        let words = format!("{name} ({} pt)", o.points);
        spawn_label(&mut commands, words, c - Vec2::new(0.0, r + 11.0), theme::OBJECTIVE_UNHELD);
    }
    // Each side's rear edge and exits, named where they lie.
    let (lo, hi) = layout.bounds();
    for (i, s) in f.sides.iter().enumerate() {
        let name = s.name.as_deref().unwrap_or(&s.id);
        let colour = theme::side_colour(&s.id, name, i);
        let rear = s.rear.unwrap_or(if i == 0 { Edge::South } else { Edge::North });
        let (a, b, out) = edge_line(rear, lo, hi);
        let inset = -out * (8.0 + 10.0 * i as f32);
        commands.spawn((crate::game::map::stroke(a + inset, b + inset, 5.0, colour, z::FLASH - 3.0), OnBattle));
        let mid = (a + b) / 2.0 + inset * 2.2;
        let label = format!("{name}'s rear");
        spawn_label(&mut commands, label, mid, colour);
        for x in f.exits.iter().filter(|x| x.side == s.id) {
            let (a, b, out) = edge_line(x.edge, lo, hi);
            // A quarter of the way along the edge, clear of the rear's label
            // in its middle; the other side's three quarters.
            let m = a.lerp(b, 0.25 + 0.5 * i as f32);
            commands.spawn((
                crate::game::map::stroke(m - out * 30.0, m + out * 10.0, 6.0, colour, z::FLASH - 3.0),
                OnBattle,
            ));
            spawn_label(&mut commands, format!("{name} exit ({} pt)", x.points), m - out * 44.0, colour);
        }
    }
}

/// Words on the map on a dark plate, so they read on any ground; `colour`
/// tints the plate's edge.
fn spawn_label(commands: &mut Commands, words: String, at: Vec2, colour: Color) {
    let width = words.chars().count() as f32 * 7.0 + 10.0;
    commands.spawn((
        Sprite::from_color(colour, Vec2::new(width + 2.0, 20.0)),
        Transform::from_translation(at.extend(z::FLASH - 2.2)),
        OnBattle,
    ));
    commands.spawn((
        Sprite::from_color(theme::STEP_LABEL, Vec2::new(width, 18.0)),
        Transform::from_translation(at.extend(z::FLASH - 2.1)),
        OnBattle,
    ));
    commands.spawn((
        Text2d::new(words),
        TextFont::from_font_size(13.0),
        TextColor(Color::WHITE),
        Transform::from_translation(at.extend(z::FLASH - 2.0)),
        OnBattle,
    ));
}

/// A map edge as a line along the map's bounds, and the way out of it.
fn edge_line(edge: Edge, lo: Vec2, hi: Vec2) -> (Vec2, Vec2, Vec2) {
    match edge {
        Edge::North => (Vec2::new(lo.x, hi.y), hi, Vec2::Y),
        Edge::South => (lo, Vec2::new(hi.x, lo.y), Vec2::NEG_Y),
        Edge::West => (lo, Vec2::new(lo.x, hi.y), Vec2::NEG_X),
        Edge::East => (Vec2::new(hi.x, lo.y), hi, Vec2::X),
    }
}

/// Each objective's ring: its hex's, or on a table its area round its
/// cell's centre (docs/rules.md 2.11).
fn objective_rings(e: &Editor, layout: Layout) -> Vec<(Vec2, f32)> {
    let f = e.file();
    let r = match f.mode {
        Mode::Hex => HEX_W * 0.45,
        Mode::FreeSpace => f.rules.belle_alliance.victory.objective_radius_cm * layout.px_per_cm(),
    };
    f.objectives.iter().map(|o| (layout.world(Offset::new(o.at.0 as i32, o.at.1 as i32)), r)).collect()
}

fn world_of(layout: Layout, spot: Spot) -> Vec2 {
    match spot {
        Spot::Hex(o) => layout.world(o),
        Spot::Cm(x, y) => layout.table_world(x, y),
    }
}

/// The outline of a hex or cell.
fn outline(lines: &mut Lines, layout: Layout, at: Offset, colour: Color, width: f32) {
    match layout {
        Layout::Hex { .. } => {
            for d in crate::hex::Dir::ALL {
                let (a, b) = layout.hexside(at, d);
                lines.line(a, b, width, colour, z::FLASH - 0.5);
            }
        }
        Layout::Table { .. } => {
            let g = layout.grid_size();
            lines.rect(layout.world(at), Vec2::new(g.x, g.y), 0.0, width, colour, z::FLASH - 0.5);
        }
    }
}

/// Rings and outlines, every frame: the problems (red), the selection
/// (gold), the objectives (white), the region (cyan), the line or
/// rectangle being drawn and the brush under the pointer (yellow).
pub(super) fn marks(
    editor: Option<Res<Editor>>,
    opened: Res<Opened>,
    pointer: Res<MapPointer>,
    mut lines: ResMut<Lines>,
) {
    let Some(e) = editor else { return };
    if e.playtest {
        return;
    }
    let layout = opened.layout;
    let f = e.file();
    let drawn = drawn_at(f, layout);
    let place_of = |path: &str| -> Option<Vec2> {
        if let Some(i) = path.strip_prefix("units[").and_then(|x| x.split(']').next()?.parse::<usize>().ok()) {
            return drawn.get(i).copied().flatten().map(|(p, _)| p);
        }
        places::spot_of(f, path).map(|s| world_of(layout, s))
    };
    // Problems in a thick red ring; warnings in a thin orange one, inside
    // the selection's gold.
    for (p, bad) in e.problems.iter().map(|p| (p, true)).chain(e.warnings.iter().map(|p| (p, false))) {
        if let Some(at) = p.path.as_deref().and_then(place_of) {
            let (r, w, colour) = if bad { (28.0, 3.5, theme::PROBLEM) } else { (25.0, 2.0, theme::STRIKE_FIRE) };
            lines.circle(at, r, w, colour, z::FLASH);
        }
    }
    for (c, r) in objective_rings(&e, layout) {
        lines.circle(c, r, 5.0, theme::OBJECTIVE_CASING, z::FLASH - 1.0);
        lines.circle(c, r, 2.5, theme::OBJECTIVE_UNHELD, z::FLASH - 0.9);
    }
    if let Some((p, _)) = e.selected_index().and_then(|i| drawn.get(i).copied().flatten()) {
        lines.circle(p, 33.0, 4.0, theme::GOLD, z::FLASH + 0.1);
    }
    if let Some(s) = e.staff.and_then(|i| f.staff.get(i)) {
        lines.circle(layout.table_world(s.pos.0, s.pos.1), 14.0, 3.0, theme::GOLD, z::FLASH);
    }
    if let Some((a, b)) = e.region {
        for at in region::rect(a, b) {
            outline(&mut lines, layout, at, theme::SELECTED, 2.0);
        }
    }
    if let Some(Stroke::Shape { from, to }) = &e.stroke {
        let cells = if e.shape == Shape::Rect { region::rect(*from, *to) } else { region::line(f.mode, *from, *to) };
        for at in cells {
            outline(&mut lines, layout, at, theme::POINTED, 2.5);
        }
    }
    // The brush's reach under the pointer.
    if let (Tool::Terrain(_), Some(at)) = (e.tool, pointer.hex) {
        let brush = if e.brush == Brush::Fill { Brush::One } else { e.brush };
        for c in paint::covered(&f.map, f.mode, at, brush) {
            outline(&mut lines, layout, c, theme::POINTED, 1.5);
        }
    }
}
