//! The terrain: a bevy_ecs_tilemap map of hexes (or of square table cells in
//! free space) painted with [`super::art`], with roads joining road hexes,
//! and streams and slopes drawn on the hexsides they run along.

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;

use super::art;
use super::layout::{Layout, TILE_PX, cell_px};
use super::opened::{OnBattle, Opened};
use super::sets::GameSet;
use super::theme;
use crate::hex::{Dir, Offset};
use crate::terrain::{HexsideKind, Terrain};

/// Height of each layer above the terrain.
pub mod z {
    pub const TERRAIN: f32 = 0.0;
    pub const ROAD: f32 = 1.0;
    pub const HEXSIDE: f32 = 2.0;
    pub const COUNTER: f32 = 10.0;
    pub const FLASH: f32 = 60.0;
}

/// The generated hex terrain atlas, made once at startup.
#[derive(Resource)]
pub struct HexAtlas(pub Handle<Image>);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, make_atlas);
    app.add_systems(Update, spawn_map.in_set(GameSet::Build).run_if(resource_changed::<Opened>));
}

fn make_atlas(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    let image = art::hex_atlas(TILE_PX.0, TILE_PX.1).into_image();
    commands.insert_resource(HexAtlas(images.add(image)));
}

/// The texture of a layout's tiles: the shared hex atlas, or a square one
/// cut to the table's cell size.
pub fn atlas_for(layout: Layout, hex: &HexAtlas, images: &mut Assets<Image>) -> Handle<Image> {
    match layout {
        Layout::Hex { .. } => hex.0.clone(),
        Layout::Table { cell_cm, .. } => images.add(art::square_atlas(cell_px(cell_cm)).into_image()),
    }
}

/// Spawns a tilemap over the whole layout; `tile` gives each tile's index
/// and colour. Used for the terrain and for the overlays.
pub fn spawn_tilemap(
    commands: &mut Commands,
    layout: Layout,
    texture: Handle<Image>,
    z: f32,
    mut tile: impl FnMut(Offset) -> (u32, Color),
) -> Entity {
    let size = layout.size();
    let mut storage = TileStorage::empty(size);
    let map = commands.spawn_empty().id();
    for y in 0..size.y {
        for x in 0..size.x {
            let position = TilePos { x, y };
            let (index, color) = tile(layout.offset_of(position));
            let e = commands
                .spawn(TileBundle {
                    position,
                    tilemap_id: TilemapId(map),
                    texture_index: TileTextureIndex(index),
                    color: TileColor(color),
                    ..default()
                })
                .id();
            storage.set(&position, e);
        }
    }
    commands.entity(map).insert((
        TilemapBundle {
            grid_size: layout.grid_size(),
            size,
            storage,
            texture: TilemapTexture::Single(texture),
            tile_size: layout.tile_size(),
            map_type: layout.map_type(),
            anchor: TilemapAnchor::None,
            transform: Transform::from_xyz(0.0, 0.0, z),
            ..default()
        },
        OnBattle,
    ));
    map
}

/// A straight stroke from `a` to `b` as a rotated sprite.
pub fn stroke(a: Vec2, b: Vec2, width: f32, color: Color, z: f32) -> (Sprite, Transform) {
    let d = b - a;
    let mid = (a + b) / 2.0;
    (
        Sprite::from_color(color, Vec2::new(d.length(), width)),
        Transform::from_translation(mid.extend(z)).with_rotation(Quat::from_rotation_z(d.y.atan2(d.x))),
    )
}

fn spawn_map(mut commands: Commands, opened: Res<Opened>, hex: Res<HexAtlas>, mut images: ResMut<Assets<Image>>) {
    let Some(s) = &opened.scenario else { return };
    spawn_ground(&mut commands, opened.layout, &s.map, &hex, &mut images);
}

/// The terrain, roads and hexsides of `map` drawn over `layout` (the
/// battle's, or the editor's map as it is being painted).
pub fn spawn_ground(
    commands: &mut Commands,
    layout: Layout,
    map: &crate::map::TerrainMap,
    hex: &HexAtlas,
    images: &mut Assets<Image>,
) {
    let texture = atlas_for(layout, hex, images);
    spawn_tilemap(commands, layout, texture, z::TERRAIN, |at| {
        (map.terrain(at).unwrap_or(Terrain::Clear) as u32, Color::WHITE)
    });
    match layout {
        Layout::Hex { .. } => {
            spawn_roads(commands, layout, map);
            spawn_hexsides(commands, layout, map);
        }
        Layout::Table { cell_cm, .. } => spawn_table_roads(commands, layout, map, cell_px(cell_cm) as f32),
    }
}

/// Roads on a table run from the middle of a road (or bridge) cell to the
/// middle of each road cell beside it, and across a corner where the two
/// cells beside the corner carry none (a diagonal road, not a staircase);
/// a road that comes to the table's edge runs on off it.
fn spawn_table_roads(commands: &mut Commands, layout: Layout, map: &crate::map::TerrainMap, cell: f32) {
    let road = |c: i32, r: i32| map.terrain(Offset::new(c, r)).is_some_and(Terrain::carries_road);
    let (wide, narrow) = ((cell * 0.3).max(4.0), (cell * 0.18).max(2.5));
    let draw = |commands: &mut Commands, a: Vec2, b: Vec2| {
        commands.spawn((stroke(a, b, wide, theme::ROAD_EDGE, z::ROAD), OnBattle));
        commands.spawn((stroke(a, b, narrow, theme::ROAD_FILL, z::ROAD + 0.1), OnBattle));
    };
    for r in 0..map.height {
        for c in 0..map.width {
            if !road(c, r) {
                continue;
            }
            let a = layout.world(Offset::new(c, r));
            // Each pair once: to the east, south-east, south and south-west.
            for (dc, dr) in [(1, 0), (1, 1), (0, 1), (-1, 1)] {
                let diagonal = dc != 0 && dr != 0;
                if road(c + dc, r + dr) && !(diagonal && (road(c + dc, r) || road(c, r + dr))) {
                    draw(commands, a, layout.world(Offset::new(c + dc, r + dr)));
                }
            }
            // Off an edge the road comes to from the cells behind it.
            for (dc, dr) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
                let out = Offset::new(c + dc, r + dr);
                let behind = road(c - dc, r - dr) || road(c - dc - dr, r - dr - dc) || road(c - dc + dr, r - dr + dc);
                if !map.contains(out) && behind {
                    draw(commands, a, (a + layout.world(out)) / 2.0);
                }
            }
            let lone = (-1..=1).all(|dr| (-1..=1).all(|dc| (dc, dr) == (0, 0) || !road(c + dc, r + dr)));
            if lone {
                commands.spawn((
                    Sprite::from_color(theme::ROAD_FILL, Vec2::splat(narrow * 1.6)),
                    Transform::from_translation(a.extend(z::ROAD)),
                    OnBattle,
                ));
            }
        }
    }
}

/// Roads run from centre to centre of neighbouring road or bridge hexes.
fn spawn_roads(commands: &mut Commands, layout: Layout, map: &crate::map::TerrainMap) {
    let road = |at: Offset| map.terrain(at).is_some_and(Terrain::carries_road);
    let (edge, fill) = (theme::ROAD_EDGE, theme::ROAD_FILL);
    for r in 0..map.height {
        for c in 0..map.width {
            let at = Offset::new(c, r);
            if !road(at) {
                continue;
            }
            let a = layout.world(at);
            let mut joined = false;
            for d in Dir::ALL {
                let n = at.neighbour(d);
                // A road on the map's border runs on off the edge.
                let off = !map.contains(n) && matches!(d, Dir::N | Dir::S) && (at.r == 0 || at.r == map.height - 1);
                if (road(n) && matches!(d, Dir::N | Dir::NE | Dir::SE)) || off {
                    let b = if off { (a + layout.world(n)) / 2.0 } else { layout.world(n) };
                    commands.spawn((stroke(a, b, 11.0, edge, z::ROAD), OnBattle));
                    commands.spawn((stroke(a, b, 7.0, fill, z::ROAD + 0.1), OnBattle));
                }
                joined |= road(n);
            }
            if !joined {
                commands.spawn((
                    Sprite::from_color(fill, Vec2::splat(10.0)),
                    Transform::from_translation(a.extend(z::ROAD)),
                    OnBattle,
                ));
            }
        }
    }
}

/// Streams: a blue line on the hexside. Slopes: a brown line with short
/// hachures falling towards the neighbour the side faces.
fn spawn_hexsides(commands: &mut Commands, layout: Layout, map: &crate::map::TerrainMap) {
    for (at, dir, kind) in map.hexsides() {
        let (a, b) = layout.hexside(at, dir);
        match kind {
            HexsideKind::Stream => {
                commands.spawn((stroke(a, b, 7.0, theme::STREAM_CASING, z::HEXSIDE), OnBattle));
                commands.spawn((stroke(a, b, 4.5, theme::STREAM, z::HEXSIDE + 0.1), OnBattle));
            }
            HexsideKind::Slope => {
                let brown = theme::SLOPE;
                commands.spawn((stroke(a, b, 2.5, brown, z::HEXSIDE), OnBattle));
                let down = (layout.world(at.neighbour(dir)) - layout.world(at)).normalize_or_zero();
                for k in 0..5 {
                    let p = a.lerp(b, (k as f32 + 0.5) / 5.0);
                    commands.spawn((stroke(p, p + down * 8.0, 2.0, brown, z::HEXSIDE), OnBattle));
                }
            }
        }
    }
}
