//! What the hex and the table previews draw alike: the path as a cased
//! line with an arrowhead, and a label on a dark plate.

use bevy::prelude::*;

use crate::game::lines::Lines;
use crate::game::map::z;
use crate::game::opened::OnBattle;
use crate::game::theme::{ROUT_CASING, ROUT_LABEL, ROUT_PATH};

/// The path through `pts` (world), its arrowhead at the last.
pub(super) fn cased_path(lines: &mut Lines, pts: &[Vec2], z: f32) {
    if let [.., a, b] = pts[..] {
        // The casing under the whole line, the arrowhead in the path's
        // colour only (a cased head would show dark barbs past it).
        lines.polyline(pts, 8.0, ROUT_CASING, z);
        lines.polyline(&pts[..pts.len() - 1], 4.0, ROUT_PATH, z + 0.1);
        lines.arrow(a, b, 4.0, ROUT_PATH, z + 0.1);
    }
}

/// A label on a dark plate above `at` (world), its lines centred: the hex
/// preview's and the table's alike.
pub(super) fn spawn_label(commands: &mut Commands, marker: impl Component, at: Vec2, words: &str) {
    let lines = words.lines().count().max(1) as f32;
    let width = 10.0 + 6.5 * words.lines().map(str::len).max().unwrap_or(0) as f32;
    let at = at + Vec2::new(0.0, -22.0 - 8.0 * lines);
    commands.spawn((
        marker,
        Sprite::from_color(ROUT_LABEL, Vec2::new(width, 4.0 + 16.0 * lines)),
        Transform::from_translation(at.extend(z::FLASH - 1.0)),
        OnBattle,
        children![(
            Text2d::new(words),
            TextLayout::justify(Justify::Center),
            TextFont::from_font_size(13.0),
            TextColor(Color::WHITE),
            Transform::from_xyz(0.0, 0.0, 0.1)
        )],
    ));
}
