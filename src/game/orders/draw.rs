//! The orders drawn on the map: the march (or a charge's approach) under
//! the pointer, the units picked to act together, and the lines from them
//! to the enemy they would fire at or charge.

use bevy::prelude::*;

use crate::game::input::MapPointer;
use crate::game::layout::Layout;
use crate::game::lines::Lines;
use crate::game::map::z;
use crate::game::opened::Opened;
use crate::game::theme;
use crate::game::turn::PlayerTurn;
use crate::game::units::{COUNTER, Counter};
use crate::turn::Phase;

/// The march (or a charge's approach) under the pointer, the picked units
/// and the line to the enemy they would fire at or charge.
pub(super) fn draw_orders(
    turn: Res<PlayerTurn>,
    opened: Res<Opened>,
    pointer: Res<MapPointer>,
    counters: Query<(&Counter, &GlobalTransform)>,
    mut lines: ResMut<Lines>,
) {
    let Some((phase, _)) = turn.awaiting.filter(|_| !turn.reviewing && opened.hex_mode()) else { return };
    let layout: Layout = opened.layout;
    let z = z::FLASH - 3.0;
    if let Some(path) = &turn.preview
        && path.len() > 1
    {
        let pts: Vec<Vec2> = path.iter().map(|&o| layout.world(o)).collect();
        // A light casing under a dark line reads on the blue range and on
        // every terrain.
        for (width, colour, dz) in [(9.0, theme::MARCH_CASING, 0.0), (4.5, theme::MARCH, 0.1)] {
            lines.polyline(&pts[..pts.len() - 1], width, colour, z + dz);
            lines.arrow(pts[pts.len() - 2], pts[pts.len() - 1], width, colour, z + dz);
        }
    }
    let pos = |u: usize| counters.iter().find(|(c, _)| c.unit == u).map(|(_, t)| t.translation().truncate());
    for &g in &turn.group {
        if Some(g) != pointer.selected
            && let Some(p) = pos(g)
        {
            lines.rect(p, Vec2::splat(COUNTER + 8.0), 0.0, 2.5, theme::GROUP, z);
        }
    }
    if turn.odds.is_some()
        && phase != Phase::Movement
        && let Some(h) = pointer.hex
    {
        let to = layout.world(h);
        // A charge's approach ends next to the target: the arrow goes on
        // from there.
        let approach = turn.preview.as_ref().filter(|p| phase == Phase::Charge && p.len() > 1);
        for &g in &turn.group {
            let from = match approach.and_then(|p| p.last()) {
                Some(&stop) => Some(layout.world(stop)),
                None => pos(g),
            };
            if let Some(p) = from {
                lines.arrow(p, to, 2.5, theme::TARGET_ARROW, z);
            }
        }
    }
}
