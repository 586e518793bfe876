//! Overlays the player toggles with keys 1-4: distance to the nearest enemy
//! as a heat map, enemy zones of influence, the selected unit's movement
//! range, and this turn's rout moves as arrows; plus the outline of the hex
//! under the cursor and of the selected unit. The heat map and the zones
//! are the rules' own fields ([`crate::labataille::fields::SideFields`]) on
//! the board as the event log has shown it; the movement range is the
//! engine's own reach ([`crate::sim::movement_range`]: the unit's real
//! allowance, its formation, the movement points it has left, zones and
//! stacking), so no rule is worked out a second time here.

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
use super::theme;
use super::turn::PlayerTurn;
use super::units::Counter;
use crate::events::{EventKind, MoveReason};
use crate::hex::{Dir, Offset};
use crate::labataille::Board;
use crate::labataille::fields::{FAR, SideFields};
use crate::labataille::grid::Grid;
use crate::labataille::movement::Reach;
use crate::scenario::Scenario;
use crate::sim::{self, Battle};
use crate::vocab::State;

/// Which overlays are on.
#[derive(Resource, Default, Clone, Copy, PartialEq, Eq)]
pub struct Overlays {
    pub heat: bool,
    pub zones: bool,
    pub range: bool,
    pub arrows: bool,
}

/// The selected unit's movement range for key 3, as the engine reaches it
/// on the board as it stands: shown only while the shown log is at the
/// present (the counters stand where the engine has them).
#[derive(Resource, Default)]
pub struct OverlayReach {
    /// The unit and the length of the log it was worked out for.
    key: Option<(usize, usize)>,
    pub reach: Option<Reach>,
}

/// Hexes within the heat map's colour ramp; further is drawn as the last
/// colour.
const HEAT_RANGE: f32 = 20.0;

#[derive(Component)]
struct OverlayMap;

/// Arrows and outlines go above the counters.
const ARROW_Z: f32 = super::map::z::FLASH - 1.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Overlays>().init_resource::<OverlayReach>();
    app.add_systems(Update, keys.in_set(GameSet::Input).run_if(battle_keys));
    app.add_systems(Update, engine_reach.after(GameSet::Playback).before(GameSet::Draw));
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

fn hex_state(s: State) -> State {
    match s {
        State::Disordered | State::U | State::LU => State::Disordered,
        State::Routed | State::FU => State::Routed,
        State::Surrendered => State::Surrendered,
        State::Eliminated => State::Eliminated,
        State::GoodOrder | State::Order => State::GoodOrder,
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

/// Asks the engine for the selected unit's reach when key 3 wants it and
/// what it depends on changed. Exclusive: the engine lives in the world.
fn engine_reach(world: &mut World) {
    let key = wanted_reach(world);
    if world.resource::<OverlayReach>().key == key {
        return;
    }
    let reach = key.map(|(unit, _)| sim::movement_range(world, unit));
    *world.resource_mut::<OverlayReach>() = OverlayReach { key, reach };
}

/// The unit whose reach key 3 shows, with the log's length: a hex battle
/// open, a unit selected, and the shown log at the present.
fn wanted_reach(world: &World) -> Option<(usize, usize)> {
    let opened = world.resource::<Opened>();
    let unit = world.resource::<MapPointer>().selected?;
    if !world.resource::<Overlays>().range || !opened.hex_mode() || world.get_resource::<Battle>().is_none() {
        return None;
    }
    let len = world.get_resource::<sim::BattleLog>()?.events.len();
    (world.resource::<Shown>().cursor == len && opened.scenario.as_ref().is_some_and(|s| unit < s.units.len()))
        .then_some((unit, len))
}

/// The cells of a reach: every end hex it allows.
pub fn range_cells(grid: &Grid, reach: &Reach) -> Vec<bool> {
    let mut cells = vec![false; grid.len()];
    for &(at, _) in &reach.ends {
        cells[grid.idx(at)] = true;
    }
    cells
}

/// The heat map's colour for a distance in hexes: red next to the enemy,
/// through yellow, to transparent far away.
pub fn heat_colour(d: u16) -> Color {
    if d == FAR {
        return Color::NONE;
    }
    let t = (d as f32 / HEAT_RANGE).clamp(0.0, 1.0);
    theme::distance_heat(t)
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
    overlay_reach: Res<OverlayReach>,
    mut had_reach: Local<bool>,
) {
    // In the player's movement phase the selected unit's range is shown
    // without asking; key 3 shows it at any time.
    let reach = turn.reach.as_ref().map(|(_, r)| r).or(overlay_reach.reach.as_ref().filter(|_| o.range));
    let any = o.heat || o.zones || o.range || reach.is_some();
    let toggled = *had_reach != reach.is_some();
    *had_reach = reach.is_some();
    let stale = *fresh
        || shown.is_changed()
        || pointer.is_changed()
        || opened.is_changed()
        || turn.is_changed()
        || overlay_reach.is_changed();
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
    let range = reach.map(|r| range_cells(&battle.grid, r));
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
                colour = if fields.cav_zone[i] { theme::ZONE_CAVALRY } else { theme::ZONE };
            }
            if range.as_ref().is_some_and(|rg| rg[i]) {
                colour = theme::RANGE;
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
        let pts: Vec<Vec2> = path.iter().map(|p| opened.layout.at(p)).collect();
        let colour = theme::ROUT_ARROW;
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
        let colour = theme::POINTED;
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
        lines.rect(pos.truncate(), size, angle, 3.0, theme::SELECTED, ARROW_Z);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Key 3 shows the engine's own reach: the hexes the overlay colours
    /// are exactly the ends `sim::movement_range` allows, with each unit's
    /// real allowance (the hussars reach further than the battalion), and
    /// none while the shown log is behind the present.
    #[test]
    fn the_range_overlay_colours_the_engines_own_reach() {
        let text = r#"Scenario(format: 1, name: "t", sides: [(id: "fr"), (id: "ru")],
            map: (rows: ["..........", "..........", "...www....", "..........", "..........", "..........", ".........."]),
            units: [(id: "fr-a", side: "fr", arm: Infantry, at: (3, 6), morale: 44, strength: 4),
                    (id: "fr-h", side: "fr", arm: Cavalry, at: (6, 6), morale: 44, strength: 4),
                    (id: "ru-a", side: "ru", arm: Infantry, at: (9, 0), morale: 44, strength: 4)])"#;
        let s = match crate::scenario::parse(text, "t.ron") {
            Ok(s) => std::sync::Arc::new(s),
            Err(e) => panic!("{e}"),
        };
        let mut sim = sim::Simulation::new(s.clone(), 7, vec![], sim::Seats::Nobody);
        sim.step();
        let w = sim.app.world_mut();
        let len = w.resource::<sim::BattleLog>().events.len();
        w.insert_resource(Overlays { range: true, ..default() });
        w.insert_resource(MapPointer { selected: Some(0), ..default() });
        w.insert_resource(Opened::battle(crate::game::opened::Source::Bundled(0), s.clone()));
        w.insert_resource(Shown { units: crate::game::shown::initial(&s), cursor: len, ..default() });
        w.init_resource::<OverlayReach>();
        let shown_reach = |w: &mut World, unit: usize| {
            w.resource_mut::<MapPointer>().selected = Some(unit);
            engine_reach(w);
            w.resource::<OverlayReach>().reach.clone()
        };
        let mut ends = Vec::new();
        for unit in [0, 1] {
            let overlay = shown_reach(w, unit).expect("a range");
            let engine = sim::movement_range(w, unit);
            assert!(!engine.ends.is_empty(), "unit {unit} can march");
            assert_eq!(overlay.ends, engine.ends, "unit {unit}");
            let grid = &w.resource::<Battle>().grid;
            let cells = range_cells(grid, &overlay);
            let coloured: Vec<Offset> = (0..grid.len()).filter(|&i| cells[i]).map(|i| grid.offset(i)).collect();
            let mut reached: Vec<Offset> = engine.ends.iter().map(|&(at, _)| at).collect();
            reached.sort_by_key(|o| grid.idx(*o));
            assert_eq!(coloured, reached, "unit {unit}: the coloured hexes are the reach");
            ends.push(engine.ends.len());
        }
        assert!(ends[1] > ends[0], "cavalry's allowance is larger: {ends:?}");
        w.resource_mut::<Shown>().cursor = len - 1;
        assert!(shown_reach(w, 0).is_none(), "looking back: no range worked out on the present board");
    }

    #[test]
    fn the_heat_map_fades_with_distance() {
        assert!(heat_colour(0).alpha() > heat_colour(10).alpha());
        assert_eq!(heat_colour(FAR), Color::NONE);
    }
}
