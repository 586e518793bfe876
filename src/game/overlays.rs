//! Overlays the player toggles with keys 1-4: distance to the nearest enemy
//! as a heat map, enemy zones of influence, the selected unit's movement
//! range, and this turn's rout moves as arrows; plus the outline of the hex
//! under the cursor and of the selected unit. Computed from the board as the
//! event log has shown it, with the rules' own fields
//! ([`crate::labataille::fields::SideFields`]).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;

use super::input::MapPointer;
use super::layout::Layout;
use super::lines::Lines;
use super::map::{HexAtlas, atlas_for, spawn_tilemap};
use super::opened::Opened;
use super::sets::GameSet;
use super::shown::{Shown, ShownUnit};
use super::state::battle_keys;
use super::turn::PlayerTurn;
use super::units::Counter;
use crate::events::{EventKind, MoveReason, Pos, StateLabel};
use crate::hex::{Dir, Offset};
use crate::labataille::fields::{FAR, SideFields};
use crate::labataille::grid::{BLOCKED, Grid};
use crate::labataille::{Board, HexState};
use crate::scenario::Scenario;
use crate::sim::Battle;
use crate::terrain::Arm;

/// Which overlays are on.
#[derive(Resource, Default, Clone, Copy, PartialEq, Eq)]
pub struct Overlays {
    pub heat: bool,
    pub zones: bool,
    pub range: bool,
    pub arrows: bool,
}

/// Movement allowance shown for a unit whose scenario gives none, in
/// movement points. A display default only (no rule moves units by it yet).
pub fn default_movement(arm: Arm) -> f32 {
    match arm {
        Arm::Infantry => 6.0,
        Arm::Cavalry => 10.0,
        Arm::Artillery => 6.0,
    }
}

/// Hexes within the heat map's colour ramp; further is drawn as the last
/// colour.
const HEAT_RANGE: f32 = 20.0;

#[derive(Component)]
struct OverlayMap;

/// Arrows and outlines go above the counters.
const ARROW_Z: f32 = super::map::z::FLASH - 1.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Overlays>();
    app.add_systems(Update, keys.in_set(GameSet::Input).run_if(battle_keys));
    app.add_systems(Update, (recolour, draw_arrows, draw_pointer).in_set(GameSet::Draw));
}

fn keys(keys: Res<ButtonInput<KeyCode>>, mut o: ResMut<Overlays>) {
    let mut toggles = *o;
    if keys.just_pressed(KeyCode::Digit1) {
        toggles.heat = !toggles.heat;
    }
    if keys.just_pressed(KeyCode::Digit2) {
        toggles.zones = !toggles.zones;
    }
    if keys.just_pressed(KeyCode::Digit3) {
        toggles.range = !toggles.range;
    }
    if keys.just_pressed(KeyCode::Digit4) {
        toggles.arrows = !toggles.arrows;
    }
    o.set_if_neq(toggles);
}

fn hex_state(s: StateLabel) -> HexState {
    match s {
        StateLabel::Disordered | StateLabel::U | StateLabel::LU => HexState::Disordered,
        StateLabel::Routed | StateLabel::FU => HexState::Routed,
        StateLabel::Surrendered => HexState::Surrendered,
        StateLabel::Eliminated => HexState::Eliminated,
        StateLabel::GoodOrder | StateLabel::Order => HexState::GoodOrder,
    }
}

/// The rules' board as the event log has shown it so far.
pub fn shown_board(s: &Scenario, units: &[ShownUnit]) -> Board {
    let mut b = Board::from_scenario(s);
    for (u, shown) in b.units.iter_mut().zip(units) {
        u.at = if shown.gone { None } else { shown.at };
        u.state = hex_state(shown.state);
        u.readiness = shown.readiness;
    }
    b
}

/// Movement points left on reaching each cell, by the terrain chart, never
/// into enemy-occupied hexes, stopping on entering an enemy zone; `None`
/// where it cannot reach. Dijkstra over the rules' own step costs.
pub fn movement_range(grid: &Grid, fields: &SideFields, arm: Arm, from: Offset, mp: f32) -> Vec<Option<u16>> {
    let budget = (mp * 100.0).round() as u32;
    let mut best: Vec<Option<u32>> = vec![None; grid.len()];
    let start = grid.idx(from);
    best[start] = Some(0);
    let mut heap = BinaryHeap::from([Reverse((0u32, start))]);
    while let Some(Reverse((cost, i))) = heap.pop() {
        if best[i].is_some_and(|b| b < cost) {
            continue;
        }
        if i != start && fields.zone[i] > 0 {
            continue;
        }
        for dir in Dir::ALL {
            let Some(j) = grid.neighbour(i, dir) else { continue };
            let step = grid.step_cost(arm, i, dir);
            if step == BLOCKED || !grid.on_map[j] || fields.enemy[j] {
                continue;
            }
            let next = cost + step as u32;
            if next <= budget && best[j].is_none_or(|b| next < b) {
                best[j] = Some(next);
                heap.push(Reverse((next, j)));
            }
        }
    }
    best.into_iter().map(|b| b.map(|c| (budget - c.min(budget)) as u16)).collect()
}

/// The heat map's colour for a distance in hexes: red next to the enemy,
/// through yellow, to transparent far away.
pub fn heat_colour(d: u16) -> Color {
    if d == FAR {
        return Color::NONE;
    }
    let t = (d as f32 / HEAT_RANGE).clamp(0.0, 1.0);
    Color::srgba(0.95, 0.15 + 0.8 * t, 0.1 + 0.3 * t, 0.55 * (1.0 - t) + 0.08)
}

fn recolour(
    mut commands: Commands,
    o: Res<Overlays>,
    opened: Res<Opened>,
    shown: Res<Shown>,
    pointer: Res<MapPointer>,
    battle: Option<Res<Battle>>,
    hex: Res<HexAtlas>,
    mut images: ResMut<Assets<Image>>,
    maps: Query<(Entity, &TileStorage), With<OverlayMap>>,
    mut tiles: Query<&mut TileColor>,
    mut vis: Query<&mut Visibility, With<OverlayMap>>,
    mut fresh: Local<bool>,
    turn: Res<PlayerTurn>,
    mut had_reach: Local<bool>,
) {
    // In the player's movement phase the selected unit's range is the
    // rules' own, and shown without asking.
    let reach = turn.reach.as_ref().map(|(_, r)| r);
    let any = o.heat || o.zones || o.range || reach.is_some();
    let toggled = *had_reach != reach.is_some();
    *had_reach = reach.is_some();
    let stale = *fresh || shown.is_changed() || pointer.is_changed() || opened.is_changed() || turn.is_changed();
    if !(o.is_changed() || toggled || (any && stale)) {
        return;
    }
    *fresh = false;
    let (Some(s), Some(battle)) = (&opened.scenario, battle) else { return };
    if !opened.hex_mode() {
        return;
    }
    let Ok((map, storage)) = maps.single() else {
        if any {
            let layout = opened.layout;
            let texture = atlas_for(layout, &hex, &mut images);
            let e = spawn_tilemap(&mut commands, layout, texture, super::map::z::HEXSIDE + 1.0, |_| {
                (super::art::WHITE_TILE, Color::NONE)
            });
            commands.entity(e).insert(OverlayMap);
            // Colour it next frame, once it exists.
            *fresh = true;
        }
        return;
    };
    if let Ok(mut v) = vis.get_mut(map) {
        *v = if any { Visibility::Inherited } else { Visibility::Hidden };
    }
    if !any {
        return;
    }
    let board = shown_board(s, &shown.units);
    let selected = pointer.selected.and_then(|i| board.units.get(i).map(|u| (i, u.clone())));
    let side = selected
        .as_ref()
        .map(|(_, u)| u.side)
        .unwrap_or_else(|| shown.side.as_deref().and_then(|id| s.sides.iter().position(|x| x.id == id)).unwrap_or(0));
    let enemy_rear = s.sides.get(if side == 0 { 1 } else { 0 }).map_or(crate::hex::Edge::North, |x| x.rear);
    let fields = SideFields::build(&battle.grid, &board, side, enemy_rear);
    let range = match (&selected, o.range, reach) {
        (_, _, Some(r)) => {
            let mut cells = vec![None; battle.grid.len()];
            for &(at, cost) in &r.ends {
                cells[battle.grid.idx(at)] = Some(cost.min(u16::MAX as u32) as u16);
            }
            Some(cells)
        }
        (Some((i, u)), true, None) => u.at.map(|at| {
            let mp = s.units.get(*i).and_then(|x| x.movement).unwrap_or_else(|| default_movement(u.arm));
            movement_range(&battle.grid, &fields, u.arm, at, mp)
        }),
        _ => None,
    };
    let layout: Layout = opened.layout;
    for r in 0..s.map.height {
        for c in 0..s.map.width {
            let at = Offset::new(c, r);
            let Some(tp) = layout.tile_pos(at) else { continue };
            let Some(e) = storage.get(&tp) else { continue };
            let i = battle.grid.idx(at);
            let mut colour = Color::NONE;
            if o.heat {
                colour = heat_colour(fields.dist[i]);
            }
            if o.zones && fields.zone[i] > 0 {
                colour = if fields.cav_zone[i] {
                    Color::srgba(0.6, 0.0, 0.5, 0.45)
                } else {
                    Color::srgba(0.8, 0.0, 0.0, 0.4)
                };
            }
            if range.as_ref().is_some_and(|rg| rg[i].is_some()) {
                colour = Color::srgba(0.1, 0.55, 0.95, 0.42);
            }
            if let Ok(mut t) = tiles.get_mut(e) {
                // Only touch tiles that change, so the map is not re-sent whole.
                if t.0 != colour {
                    t.0 = colour;
                }
            }
        }
    }
}

fn world_of(layout: Layout, p: &Pos) -> Vec2 {
    match *p {
        Pos::Hex([c, r]) => layout.world(Offset::new(c, r)),
        Pos::Cm([x, y]) => layout.table_world(x, y),
    }
}

/// This turn's rout moves as arrows along their paths.
fn draw_arrows(
    o: Res<Overlays>,
    opened: Res<Opened>,
    shown: Res<Shown>,
    log: Option<Res<crate::sim::BattleLog>>,
    mut lines: ResMut<Lines>,
) {
    let Some(log) = log else { return };
    if !o.arrows {
        return;
    }
    let seen = &log.events[..shown.cursor.min(log.events.len())];
    for e in seen.iter().rev().take_while(|e| e.turn == shown.turn) {
        let EventKind::Move { reason, path, .. } = &e.kind else { continue };
        if !matches!(reason, MoveReason::Rout | MoveReason::Flight) || path.len() < 2 {
            continue;
        }
        let pts: Vec<Vec2> = path.iter().map(|p| world_of(opened.layout, p)).collect();
        let colour = Color::srgba(0.85, 0.05, 0.05, 0.85);
        lines.polyline(&pts[..pts.len() - 1], 5.0, colour, ARROW_Z);
        lines.arrow(pts[pts.len() - 2], pts[pts.len() - 1], 5.0, colour, ARROW_Z);
    }
}

/// The hex under the cursor and the selected unit, outlined.
fn draw_pointer(
    pointer: Res<MapPointer>,
    opened: Res<Opened>,
    counters: Query<(&Counter, &GlobalTransform)>,
    mut lines: ResMut<Lines>,
) {
    let layout = opened.layout;
    if let Some(h) = pointer.hex {
        let colour = Color::srgb(1.0, 0.95, 0.3);
        match layout {
            Layout::Hex { .. } => {
                for d in Dir::ALL {
                    let (a, b) = layout.hexside(h, d);
                    lines.line(a, b, 3.0, colour, ARROW_Z);
                }
            }
            Layout::Table { .. } => {
                let g = layout.grid_size();
                lines.rect(layout.world(h), Vec2::new(g.x, g.y), 0.0, 2.0, colour, ARROW_Z);
            }
        }
    }
    if let Some(sel) = pointer.selected
        && let Some((_, t)) = counters.iter().find(|(c, _)| c.unit == sel)
    {
        let (_, rot, pos) = t.to_scale_rotation_translation();
        let size = match layout {
            Layout::Hex { .. } => Vec2::splat(super::units::COUNTER + 10.0),
            Layout::Table { .. } => Vec2::splat(30.0),
        };
        let angle = rot.to_euler(EulerRot::XYZ).2;
        lines.rect(pos.truncate(), size, angle, 3.0, Color::srgb(0.2, 1.0, 1.0), ARROW_Z);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::TerrainMap;
    use crate::rules::Rules;

    #[test]
    fn movement_range_pays_the_terrain_and_stops_at_enemies() {
        let map = TerrainMap::from_rows(&[".......", "..www..", ".......", "......."]);
        let rules = Rules::default();
        let grid = Grid::new(&map, &rules);
        let board = Board::default();
        let fields = SideFields::build(&grid, &board, 0, crate::hex::Edge::North);
        let from = Offset::new(3, 3);
        let r = movement_range(&grid, &fields, Arm::Infantry, from, 2.0);
        let at = |c, row| r[grid.idx(Offset::new(c, row))];
        assert_eq!(at(3, 3), Some(200), "its own hex with everything left");
        assert_eq!(at(3, 2), Some(100), "one clear hex costs one point");
        assert_eq!(at(3, 1), None, "woods cost two, and one is left");
        assert_eq!(at(3, 0), None);
    }

    #[test]
    fn the_heat_map_fades_with_distance() {
        assert!(heat_colour(0).alpha() > heat_colour(10).alpha());
        assert_eq!(heat_colour(FAR), Color::NONE);
    }
}
