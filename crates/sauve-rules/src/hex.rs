//! Hex geometry of the scenario contract: flat-top hexes, offset `(c, r)`
//! coordinates with odd columns half a hex lower, row 0 at the top.
//!
//! Everything else in the crate talks in [`Offset`]; this module is the one
//! place that knows how it maps onto cube/axial coordinates (via `hexx`).

use hexx::{Hex, HexOrientation, OffsetHexMode};
use serde::{Deserialize, Serialize};

/// A hex in the contract's offset coordinates: column `c`, row `r`, 0-based,
/// row 0 at the top of the map, odd columns half a hex lower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Offset {
    pub c: i32,
    pub r: i32,
}

impl Offset {
    pub const fn new(c: i32, r: i32) -> Self {
        Self { c, r }
    }

    /// Axial/cube coordinates (`hexx`), per docs/scenario-format.md (Hex coordinates): x = c,
    /// z = r - (c - (c & 1)) / 2.
    pub fn to_hex(self) -> Hex {
        Hex::from_offset_coordinates([self.c, self.r], OffsetHexMode::Odd, HexOrientation::Flat)
    }

    pub fn from_hex(hex: Hex) -> Self {
        let [c, r] = hex.to_offset_coordinates(OffsetHexMode::Odd, HexOrientation::Flat);
        Self { c, r }
    }

    /// Cube coordinates x and z (y is -x - z), per docs/scenario-format.md (Hex coordinates): x = c,
    /// z = r - (c - (c & 1)) / 2; the same as [`Offset::to_hex`], as plain
    /// integers for the hot paths that measure many distances.
    #[inline]
    pub fn cube(self) -> (i32, i32) {
        (self.c, self.r - (self.c - (self.c & 1)) / 2)
    }

    /// Hex distance (number of steps) between two hexes.
    pub fn distance(self, other: Offset) -> u32 {
        self.to_hex().unsigned_distance_to(other.to_hex())
    }

    /// The neighbour across the given hexside.
    pub fn neighbour(self, dir: Dir) -> Offset {
        let odd = self.c & 1;
        let (dc, dr) = match dir {
            Dir::N => (0, -1),
            Dir::S => (0, 1),
            // Even columns sit higher, so their diagonal neighbours to the
            // north are one row up; odd columns' southern ones one row down.
            Dir::NE => (1, odd - 1),
            Dir::SE => (1, odd),
            Dir::SW => (-1, odd),
            Dir::NW => (-1, odd - 1),
        };
        Offset::new(self.c + dc, self.r + dr)
    }

    /// The six neighbours, in [`Dir::ALL`] order.
    pub fn neighbours(self) -> [Offset; 6] {
        Dir::ALL.map(|d| self.neighbour(d))
    }

    /// The hexside of `self` whose normal points nearest the straight line
    /// to `other`, however far (ties to the clockwise side); `self` itself
    /// gives [`Dir::N`].
    pub fn bearing_to(self, other: Offset) -> Dir {
        // Flat-top centres: columns 1.5 apart, rows sqrt(3), odd columns
        // half a row lower; y grows downwards.
        let centre = |o: Offset| (1.5 * o.c as f32, 3f32.sqrt() * (o.r as f32 + 0.5 * (o.c & 1) as f32));
        let ((x0, y0), (x1, y1)) = (centre(self), centre(other));
        Dir::from_degrees((x1 - x0).atan2(y0 - y1).to_degrees())
    }

    /// The hexside of `self` that `other` lies across, if they are adjacent.
    pub fn direction_to(self, other: Offset) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| self.neighbour(d) == other)
    }
}

impl std::fmt::Display for Offset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.c, self.r)
    }
}

/// The six hexsides of a flat-top hex, clockwise from the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Dir {
    N,
    NE,
    SE,
    S,
    SW,
    NW,
}

impl Dir {
    pub const ALL: [Dir; 6] = [Dir::N, Dir::NE, Dir::SE, Dir::S, Dir::SW, Dir::NW];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn opposite(self) -> Dir {
        Dir::ALL[(self.index() + 3) % 6]
    }

    /// Compass bearing of the hexside's normal, degrees clockwise from north.
    pub fn degrees(self) -> f32 {
        self.index() as f32 * 60.0
    }

    /// The hexside whose normal is nearest a bearing (degrees clockwise from
    /// north); used to read a hex-mode unit's `facing`.
    pub fn from_degrees(deg: f32) -> Dir {
        let d = deg.rem_euclid(360.0);
        Dir::ALL[((d / 60.0).round() as usize) % 6]
    }
}

/// A map edge, used for each side's rear and for off-map recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Edge {
    North,
    South,
    East,
    West,
}

impl Edge {
    /// How many hexes (rows or columns) `at` lies from this edge of a
    /// `width` x `height` map; 0 on the edge itself.
    pub fn distance(self, at: Offset, width: i32, height: i32) -> i32 {
        match self {
            Edge::North => at.r,
            Edge::South => height - 1 - at.r,
            Edge::West => at.c,
            Edge::East => width - 1 - at.c,
        }
    }

    /// Like [`Edge::distance`] but in half hexes, so that on the north and
    /// south edges an odd column's hex (half a hex lower) counts as nearer
    /// the south edge than its even neighbour on the same row.
    pub fn half_distance(self, at: Offset, width: i32, height: i32) -> i32 {
        let down = 2 * at.r + (at.c & 1);
        match self {
            Edge::North => down,
            Edge::South => 2 * (height - 1) + 1 - down,
            Edge::West => 2 * at.c,
            Edge::East => 2 * (width - 1 - at.c),
        }
    }

    /// The edge a step in `dir` leaves the map through, for a hex on the
    /// border (used to name where a router went off the map).
    pub fn crossed_by(dir: Dir, at: Offset, width: i32, height: i32) -> Option<Edge> {
        let n = at.neighbour(dir);
        if n.r < 0 {
            Some(Edge::North)
        } else if n.r >= height {
            Some(Edge::South)
        } else if n.c < 0 {
            Some(Edge::West)
        } else if n.c >= width {
            Some(Edge::East)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The formula of docs/scenario-format.md (Hex coordinates), written out independently of hexx.
    fn contract_distance(a: Offset, b: Offset) -> u32 {
        let cube = |o: Offset| {
            let x = o.c;
            let z = o.r - (o.c - (o.c & 1)) / 2;
            (x, -x - z, z)
        };
        let (ax, ay, az) = cube(a);
        let (bx, by, bz) = cube(b);
        (ax - bx).abs().max((ay - by).abs()).max((az - bz).abs()) as u32
    }

    #[test]
    fn bearing_to_a_neighbour_is_the_hexside_between() {
        for at in [Offset::new(4, 4), Offset::new(5, 4)] {
            for d in Dir::ALL {
                assert_eq!(at.bearing_to(at.neighbour(d)), d, "{at} {d:?}");
                // Two hexes straight out along a hexside too.
                assert_eq!(at.bearing_to(at.neighbour(d).neighbour(d)), d, "{at} {d:?} x2");
            }
        }
        // Far off, the hexside nearest the line: 5 columns east, 1 row up.
        assert_eq!(Offset::new(2, 6).bearing_to(Offset::new(7, 3)), Dir::NE);
        assert_eq!(Offset::new(2, 6).bearing_to(Offset::new(2, 0)), Dir::N);
    }

    #[test]
    fn offset_to_axial_follows_the_contract_formula() {
        for c in -3..12 {
            for r in -3..12 {
                let h = Offset::new(c, r).to_hex();
                assert_eq!(h.x, c);
                assert_eq!(h.y, r - (c - (c & 1)) / 2, "z for ({c},{r})");
                assert_eq!(Offset::from_hex(h), Offset::new(c, r));
            }
        }
    }

    #[test]
    fn cube_coordinates_give_the_hex_distance() {
        for (a, b) in [((0, 0), (5, 3)), ((1, 1), (4, 0)), ((-1, 2), (3, 7)), ((7, -1), (2, 2)), ((3, 3), (3, 3))] {
            let (a, b) = (Offset::new(a.0, a.1), Offset::new(b.0, b.1));
            let ((ax, az), (bx, bz)) = (a.cube(), b.cube());
            let (dx, dz) = (ax - bx, az - bz);
            assert_eq!(dx.abs().max(dz.abs()).max((dx + dz).abs()) as u32, a.distance(b), "{a} {b}");
            let h = a.to_hex();
            assert_eq!(a.cube(), (h.x, h.y), "{a}");
        }
    }

    #[test]
    fn distances_match_the_contract_on_a_grid() {
        let pts: Vec<Offset> = (0..9).flat_map(|c| (0..7).map(move |r| Offset::new(c, r))).collect();
        for &a in &pts {
            for &b in &pts {
                assert_eq!(a.distance(b), contract_distance(a, b), "{a} -> {b}");
            }
        }
        // A few by hand: straight down a column, and across odd/even columns.
        assert_eq!(Offset::new(2, 0).distance(Offset::new(2, 5)), 5);
        assert_eq!(Offset::new(0, 0).distance(Offset::new(1, 0)), 1);
        assert_eq!(Offset::new(1, 0).distance(Offset::new(2, 0)), 1);
        assert_eq!(Offset::new(0, 0).distance(Offset::new(2, 1)), 2);
        assert_eq!(Offset::new(0, 0).distance(Offset::new(4, 0)), 4);
    }

    #[test]
    fn odd_columns_sit_lower_so_their_southern_diagonals_drop_a_row() {
        // Even column: NE is one row up, SE on the same row.
        assert_eq!(Offset::new(2, 4).neighbour(Dir::NE), Offset::new(3, 3));
        assert_eq!(Offset::new(2, 4).neighbour(Dir::SE), Offset::new(3, 4));
        // Odd column: NE on the same row, SE one row down.
        assert_eq!(Offset::new(3, 4).neighbour(Dir::NE), Offset::new(4, 4));
        assert_eq!(Offset::new(3, 4).neighbour(Dir::SE), Offset::new(4, 5));
        assert_eq!(Offset::new(3, 4).neighbour(Dir::SW), Offset::new(2, 5));
        assert_eq!(Offset::new(3, 4).neighbour(Dir::NW), Offset::new(2, 4));
    }

    #[test]
    fn every_neighbour_is_one_step_away_and_opposites_return() {
        for c in 0..6 {
            for r in 0..6 {
                let o = Offset::new(c, r);
                for d in Dir::ALL {
                    let n = o.neighbour(d);
                    assert_eq!(o.distance(n), 1);
                    assert_eq!(n.neighbour(d.opposite()), o);
                    assert_eq!(o.direction_to(n), Some(d));
                }
            }
        }
    }

    #[test]
    fn facing_degrees_snap_to_the_nearest_hexside() {
        assert_eq!(Dir::from_degrees(0.0), Dir::N);
        assert_eq!(Dir::from_degrees(170.0), Dir::S);
        assert_eq!(Dir::from_degrees(-60.0), Dir::NW);
        assert_eq!(Dir::from_degrees(89.0), Dir::NE);
        assert_eq!(Dir::from_degrees(91.0), Dir::SE);
    }

    #[test]
    fn edge_distance_counts_rows_or_columns() {
        let at = Offset::new(3, 2);
        assert_eq!(Edge::North.distance(at, 10, 8), 2);
        assert_eq!(Edge::South.distance(at, 10, 8), 5);
        assert_eq!(Edge::West.distance(at, 10, 8), 3);
        assert_eq!(Edge::East.distance(at, 10, 8), 6);
        assert!(
            Edge::South.half_distance(Offset::new(7, 15), 10, 30)
                < Edge::South.half_distance(Offset::new(6, 15), 10, 30)
        );
        assert!(
            Edge::North.half_distance(Offset::new(6, 15), 10, 30)
                < Edge::North.half_distance(Offset::new(7, 15), 10, 30)
        );
        assert_eq!(Edge::crossed_by(Dir::N, Offset::new(0, 0), 10, 8), Some(Edge::North));
        assert_eq!(Edge::crossed_by(Dir::S, Offset::new(0, 0), 10, 8), None);
    }
}
