//! Where things are drawn: the one place that turns the contract's hex
//! coordinates (flat-top, odd columns half a hex lower, row 0 at the top) and
//! the free-space table's centimetres into Bevy world positions (y up), and
//! back. Pure arithmetic, tested without a window.

use bevy::math::Vec2;
use bevy_ecs_tilemap::prelude::*;

use crate::events::Pos;
use crate::hex::Offset;

/// Width of a hex, corner to corner, in world units (pixels at zoom 1).
pub const HEX_W: f32 = 64.0;
/// Height of a flat-top hex, flat side to flat side: `HEX_W * sqrt(3) / 2`.
pub const HEX_H: f32 = HEX_W * 0.866_025_4;
/// Pixels of one terrain tile image. A pixel taller than the grid step so
/// that neighbouring rows overlap rather than leave a seam.
pub const TILE_PX: (u32, u32) = (64, 56);
/// World units per centimetre of a free-space table.
pub const PX_PER_CM: f32 = 4.0;

/// The coordinate system of the hex tilemap. bevy_ecs_tilemap counts rows
/// upwards and shifts *even*-offset columns by half a hex in its own y-up
/// frame; with our rows flipped (tile y = height - 1 - r) `ColumnEven` is the
/// variant that puts odd columns half a hex lower on screen, as the contract
/// says. Pinned by `odd_columns_are_drawn_half_a_hex_lower`.
pub const HEX_SYSTEM: HexCoordSystem = HexCoordSystem::ColumnEven;

/// The geometry of the open map.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Layout {
    /// A hex map of `width` x `height` hexes.
    Hex { width: u32, height: u32 },
    /// A free-space table of `width` x `height` square cells of `cell_cm`.
    Table { width: u32, height: u32, cell_cm: f32 },
}

impl Layout {
    pub fn size(self) -> TilemapSize {
        match self {
            Layout::Hex { width, height } | Layout::Table { width, height, .. } => {
                TilemapSize { x: width.max(1), y: height.max(1) }
            }
        }
    }

    pub fn map_type(self) -> TilemapType {
        match self {
            Layout::Hex { .. } => TilemapType::Hexagon(HEX_SYSTEM),
            Layout::Table { .. } => TilemapType::Square,
        }
    }

    /// Distance between neighbouring tile centres as bevy_ecs_tilemap
    /// understands it (for flat-top hexes: the hex's width and height).
    pub fn grid_size(self) -> TilemapGridSize {
        match self {
            Layout::Hex { .. } => TilemapGridSize { x: HEX_W, y: HEX_H },
            Layout::Table { cell_cm, .. } => {
                let px = cell_px(cell_cm) as f32;
                TilemapGridSize { x: px, y: px }
            }
        }
    }

    /// World units per centimetre of table (free space); the cell's pixel
    /// size is rounded, so this is close to, not exactly, [`PX_PER_CM`].
    pub fn px_per_cm(self) -> f32 {
        match self {
            Layout::Table { cell_cm, .. } => cell_px(cell_cm) as f32 / cell_cm.max(0.1),
            Layout::Hex { .. } => PX_PER_CM,
        }
    }

    pub fn tile_size(self) -> TilemapTileSize {
        match self {
            Layout::Hex { .. } => TilemapTileSize { x: TILE_PX.0 as f32, y: TILE_PX.1 as f32 },
            Layout::Table { cell_cm, .. } => {
                let px = cell_px(cell_cm) as f32;
                TilemapTileSize { x: px, y: px }
            }
        }
    }

    /// The tile holding a hex or cell (rows flipped: tile y counts upwards).
    pub fn tile_pos(self, at: Offset) -> Option<TilePos> {
        let size = self.size();
        if at.c < 0 || at.r < 0 || at.c as u32 >= size.x || at.r as u32 >= size.y {
            return None;
        }
        Some(TilePos { x: at.c as u32, y: size.y - 1 - at.r as u32 })
    }

    pub fn offset_of(self, tile: TilePos) -> Offset {
        Offset::new(tile.x as i32, self.size().y as i32 - 1 - tile.y as i32)
    }

    /// World position of a hex's (or cell's) centre, with the tilemap's
    /// transform at the origin and no anchor. Works off the map too (for
    /// rout paths that leave it).
    pub fn world(self, at: Offset) -> Vec2 {
        let ty = self.size().y as f32 - 1.0 - at.r as f32;
        match self {
            Layout::Hex { .. } => {
                let odd = (at.c & 1) as f32;
                Vec2::new(at.c as f32 * 0.75 * HEX_W, (ty - 0.5 * odd) * HEX_H)
            }
            Layout::Table { .. } => {
                let g = self.grid_size();
                Vec2::new(at.c as f32 * g.x, ty * g.y)
            }
        }
    }

    /// The hex or cell under a world position, if on the map.
    pub fn hex_at(self, world: Vec2) -> Option<Offset> {
        let tile = TilePos::from_world_pos(
            &world,
            &self.size(),
            &self.grid_size(),
            &self.tile_size(),
            &self.map_type(),
            &TilemapAnchor::None,
        )?;
        Some(self.offset_of(tile))
    }

    /// World position of a position as the event log writes it: a hex's
    /// centre, or a point on the table.
    pub fn at(self, p: &Pos) -> Vec2 {
        match *p {
            Pos::Hex([c, r]) => self.world(Offset::new(c, r)),
            Pos::Cm([x, y]) => self.table_world(x, y),
        }
    }

    /// World position of a free-space point in cm (x right, y down the
    /// table from the top-left corner).
    pub fn table_world(self, x_cm: f32, y_cm: f32) -> Vec2 {
        let g = self.grid_size();
        // Tile centres sit at whole grid steps; the table's corner is half a
        // cell up and left of the top-left cell's centre.
        let top_left = self.world(Offset::new(0, 0)) + Vec2::new(-g.x / 2.0, g.y / 2.0);
        top_left + Vec2::new(x_cm, -y_cm) * self.px_per_cm()
    }

    /// The map's bounding box in world units: (min, max).
    pub fn bounds(self) -> (Vec2, Vec2) {
        let size = self.size();
        let g = self.grid_size();
        let last = Offset::new(size.x as i32 - 1, size.y as i32 - 1);
        match self {
            Layout::Hex { .. } => {
                let lo = Vec2::new(-HEX_W / 2.0, self.world(Offset::new(1, last.r)).y - HEX_H / 2.0);
                let hi = Vec2::new(self.world(last).x + HEX_W / 2.0, self.world(Offset::new(0, 0)).y + HEX_H / 2.0);
                (lo, hi)
            }
            Layout::Table { .. } => {
                let lo = self.world(Offset::new(0, last.r)) - g.x / 2.0 * Vec2::ONE;
                let hi = self.world(Offset::new(last.c, 0)) + g.x / 2.0 * Vec2::ONE;
                (lo, hi)
            }
        }
    }

    /// The two corners of a hexside, going clockwise; `dir` as in
    /// [`crate::hex::Dir`] (N is the top flat side).
    pub fn hexside(self, at: Offset, dir: crate::hex::Dir) -> (Vec2, Vec2) {
        let c = self.world(at);
        // Corners of a flat-top hex, clockwise from the upper-left one; the
        // side towards Dir i joins corners i and i+1.
        let corner = |k: usize| {
            let deg = 120.0 - 60.0 * k as f32;
            let rad = deg.to_radians();
            c + Vec2::new(rad.cos() * HEX_W / 2.0, rad.sin() * HEX_W / 2.0)
        };
        let i = dir.index();
        (corner(i), corner(i + 1))
    }
}

/// Pixels of one square table cell in the terrain image: whole pixels, so
/// the atlas can be cut exactly, and bounded so a silly `cell_cm` cannot ask
/// for a huge texture.
pub fn cell_px(cell_cm: f32) -> u32 {
    (cell_cm * PX_PER_CM).round().clamp(8.0, 128.0) as u32
}

/// Scale that fits a `bounds` box into a viewport of `view` pixels, with a
/// margin; the camera's orthographic scale (world units per pixel).
pub fn fit_scale(bounds: (Vec2, Vec2), view: Vec2, margin: f32) -> f32 {
    let size = (bounds.1 - bounds.0).max(Vec2::splat(1.0));
    let avail = (view - Vec2::splat(2.0 * margin)).max(Vec2::splat(1.0));
    (size.x / avail.x).max(size.y / avail.y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::Dir;

    const L: Layout = Layout::Hex { width: 10, height: 8 };

    fn library_world(l: Layout, at: Offset) -> Vec2 {
        let Some(tile) = l.tile_pos(at) else { panic!("{at} is on the map") };
        tile.center_in_world(&l.size(), &l.grid_size(), &l.tile_size(), &l.map_type(), &TilemapAnchor::None)
    }

    #[test]
    fn odd_columns_are_drawn_half_a_hex_lower() {
        let y = |c, r| L.world(Offset::new(c, r)).y;
        assert!(y(1, 0) < y(0, 0), "(1,0) is below (0,0)");
        assert!((y(0, 0) - y(1, 0) - HEX_H / 2.0).abs() < 1e-3, "by half a hex");
        assert!(y(1, 0) > y(2, 1) - 1e-3 && y(2, 0) > y(1, 0));
        assert!(y(0, 1) < y(0, 0), "row 0 is at the top");
        assert!((y(0, 0) - y(0, 1) - HEX_H).abs() < 1e-3);
        assert!(L.world(Offset::new(1, 0)).x > L.world(Offset::new(0, 0)).x);
    }

    #[test]
    fn our_positions_are_the_tilemaps_positions() {
        for c in 0..10 {
            for r in 0..8 {
                let at = Offset::new(c, r);
                let ours = L.world(at);
                let theirs = library_world(L, at);
                assert!((ours - theirs).length() < 1e-3, "{at}: {ours} vs {theirs}");
                assert_eq!(L.hex_at(ours), Some(at), "round trip of {at}");
                assert_eq!(L.offset_of(L.tile_pos(at).unwrap_or_default()), at);
            }
        }
        let t = Layout::Table { width: 36, height: 18, cell_cm: 10.0 };
        for (c, r) in [(0, 0), (5, 3), (35, 17)] {
            let at = Offset::new(c, r);
            assert!((t.world(at) - library_world(t, at)).length() < 1e-3);
            assert_eq!(t.hex_at(t.world(at)), Some(at));
        }
    }

    #[test]
    fn neighbours_in_the_rules_are_neighbours_on_screen() {
        for c in 0..9 {
            for r in 0..7 {
                let at = Offset::new(c, r);
                for d in Dir::ALL {
                    let n = at.neighbour(d);
                    let gap = (L.world(n) - L.world(at)).length();
                    assert!((gap - HEX_H).abs() < 1e-2, "{at} -> {n} ({d:?}) is {gap}");
                    // The hexside towards `d` lies between the two centres.
                    let (a, b) = L.hexside(at, d);
                    let mid = (a + b) / 2.0;
                    let half = (L.world(at) + L.world(n)) / 2.0;
                    assert!((mid - half).length() < 1e-2, "{at} side {d:?}");
                }
            }
        }
        // North is straight up.
        let (a, b) = L.hexside(Offset::new(2, 2), Dir::N);
        assert!((a.y - b.y).abs() < 1e-3 && a.y > L.world(Offset::new(2, 2)).y);
    }

    #[test]
    fn the_table_keeps_its_top_left_corner_at_zero_cm() {
        let t = Layout::Table { width: 36, height: 18, cell_cm: 10.0 };
        let (lo, hi) = t.bounds();
        let corner = t.table_world(0.0, 0.0);
        assert!((corner - Vec2::new(lo.x, hi.y)).length() < 1e-3);
        let far = t.table_world(360.0, 180.0);
        assert!((far - Vec2::new(hi.x, lo.y)).length() < 1e-3);
        // The centre of cell (2, 1) is 25 cm right, 15 cm down.
        assert!((t.table_world(25.0, 15.0) - t.world(Offset::new(2, 1))).length() < 1e-3);
    }

    #[test]
    fn fitting_keeps_the_whole_map_in_view() {
        let b = L.bounds();
        let s = fit_scale(b, Vec2::new(1280.0, 720.0), 20.0);
        let size = b.1 - b.0;
        assert!(size.x / s <= 1240.0 + 1e-3 && size.y / s <= 680.0 + 1e-3);
        assert!(size.x / s > 1239.0 || size.y / s > 679.0, "and uses the space");
    }
}
