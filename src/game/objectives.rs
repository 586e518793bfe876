//! The objectives drawn on the battle map: each hex objective ringed, each
//! free-space objective area (every point within
//! `rules.belle_alliance.victory.objective_radius_cm` of its cell's centre,
//! docs/rules.md 2.11) drawn as its circle, in the colour of the side that
//! holds it now (pale gold while nobody does), so a player sees what the
//! battle is fought for and where it stands.

use bevy::prelude::*;

use crate::belle_alliance::FsCtx;
use crate::belle_alliance::victory::objective_centres;
use crate::game::layout::{HEX_W, Layout};
use crate::game::lines::Lines;
use crate::game::map::z;
use crate::game::opened::Opened;
use crate::game::sets::GameSet;
use crate::game::state::Screen;
use crate::game::theme;
use crate::scenario::{Mode, Scenario};
use crate::sim;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, draw.in_set(GameSet::Draw).run_if(not(in_state(Screen::Editor))));
}

/// Where each objective is drawn and how large: its centre in world units
/// and the radius of its ring (a hex's, or the table's objective area).
pub fn rings(s: &Scenario, layout: Layout) -> Vec<(Vec2, f32)> {
    match s.mode {
        Mode::Hex => s.objectives.iter().map(|o| (layout.world(o.at), HEX_W * 0.45)).collect(),
        Mode::FreeSpace => {
            let r = s.rules.belle_alliance.victory.objective_radius_cm * layout.px_per_cm();
            objective_centres(&FsCtx::new(s)).into_iter().map(|(x, y)| (layout.table_world(x, y), r)).collect()
        }
    }
}

fn draw(
    opened: Res<Opened>,
    victory: Option<Res<sim::Victory>>,
    fs: Option<Res<sim::FsState>>,
    mut lines: ResMut<Lines>,
) {
    let Some(s) = opened.scenario.as_ref() else { return };
    let holders: Vec<Option<usize>> = match s.mode {
        Mode::Hex => victory.map(|v| v.holders.clone()).unwrap_or_default(),
        Mode::FreeSpace => fs.map(|f| f.holders.clone()).unwrap_or_default(),
    };
    for (k, (c, r)) in rings(s, opened.layout).into_iter().enumerate() {
        let colour = match holders.get(k).copied().flatten().and_then(|h| s.sides.get(h).map(|x| (h, x))) {
            Some((h, side)) => theme::side_colour(&side.id, &side.name, h),
            None => theme::OBJECTIVE_UNHELD,
        };
        // A light casing under the holder's colour reads on every terrain.
        lines.circle(c, r, 6.0, theme::OBJECTIVE_CASING, z::COUNTER - 1.0);
        lines.circle(c, r, 3.0, colour, z::COUNTER - 0.9);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_objective_is_drawn_as_its_area_round_its_cells_centre() {
        let text = include_str!("../../scenarios/ligny-1815.ron");
        let s = crate::game::testing::parse(text, "ligny-1815.ron");
        let layout = crate::game::opened::layout_of(&s);
        let r = rings(&s, layout);
        assert_eq!(r.len(), s.objectives.len());
        // Saint-Amand is cell (5, 7): its centre is (55, 75) cm; the area's
        // radius is 20 cm.
        let (c, radius) = r[0];
        assert!((c - layout.table_world(55.0, 75.0)).length() < 1e-3, "{c:?}");
        assert!((radius - 20.0 * layout.px_per_cm()).abs() < 1e-3);
    }
}
