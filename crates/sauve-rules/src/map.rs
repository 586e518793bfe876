//! The terrain map: hexes (La Bataille) or square cells (Belle Alliance),
//! with hexside features, bounds and per-arm movement costs.

use crate::hex::{Dir, Offset};
use crate::rules::Rules;
use crate::terrain::{Arm, HexsideKind, Terrain};

/// Terrain of every hex or cell, row-major, row 0 at the top.
#[derive(Clone, Debug, PartialEq)]
pub struct TerrainMap {
    pub width: i32,
    pub height: i32,
    terrain: Vec<Terrain>,
    /// Per hex, per hexside direction: bit set of [`HexsideKind`]s. Stored on
    /// both hexes that share the side.
    sides: Vec<[u8; 6]>,
}

impl TerrainMap {
    /// A map of one terrain everywhere.
    pub fn filled(width: i32, height: i32, t: Terrain) -> Self {
        let n = (width.max(0) * height.max(0)) as usize;
        Self { width, height, terrain: vec![t; n], sides: vec![[0; 6]; n] }
    }

    /// Builds a map from rows of terrain characters, with the default legend;
    /// for tests and generators (scenario files go through validation).
    pub fn from_rows(rows: &[&str]) -> Self {
        let height = rows.len() as i32;
        let width = rows.first().map_or(0, |r| r.chars().count()) as i32;
        let mut map = Self::filled(width, height, Terrain::Clear);
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let t = Terrain::from_default_char(ch).unwrap_or(Terrain::Clear);
                map.set(Offset::new(c as i32, r as i32), t);
            }
        }
        map
    }

    pub fn contains(&self, at: Offset) -> bool {
        at.c >= 0 && at.r >= 0 && at.c < self.width && at.r < self.height
    }

    fn index(&self, at: Offset) -> usize {
        (at.r * self.width + at.c) as usize
    }

    /// Terrain at `at`; `None` off the map.
    pub fn terrain(&self, at: Offset) -> Option<Terrain> {
        self.contains(at).then(|| self.terrain[self.index(at)])
    }

    pub fn set(&mut self, at: Offset, t: Terrain) {
        if self.contains(at) {
            let i = self.index(at);
            self.terrain[i] = t;
        }
    }

    /// Puts a hexside feature between `at` and its neighbour across `dir`.
    pub fn add_hexside(&mut self, at: Offset, dir: Dir, kind: HexsideKind) {
        if self.contains(at) {
            let i = self.index(at);
            self.sides[i][dir.index()] |= kind.bit();
        }
        let n = at.neighbour(dir);
        if self.contains(n) {
            let j = self.index(n);
            self.sides[j][dir.opposite().index()] |= kind.bit();
        }
    }

    /// The hexside features on side `dir` of `at`, as a bit set.
    pub fn hexside_bits(&self, at: Offset, dir: Dir) -> u8 {
        if self.contains(at) { self.sides[self.index(at)][dir.index()] } else { 0 }
    }

    pub fn has_hexside(&self, at: Offset, dir: Dir, kind: HexsideKind) -> bool {
        self.hexside_bits(at, dir) & kind.bit() != 0
    }

    /// Every hexside feature once, as (hex, direction, kind), for drawing.
    pub fn hexsides(&self) -> Vec<(Offset, Dir, HexsideKind)> {
        let mut out = Vec::new();
        for r in 0..self.height {
            for c in 0..self.width {
                let at = Offset::new(c, r);
                for dir in [Dir::N, Dir::NE, Dir::SE] {
                    for kind in HexsideKind::ALL {
                        if self.has_hexside(at, dir, kind) {
                            out.push((at, dir, kind));
                        }
                    }
                }
                // Sides facing off the map or west/south are only stored here.
                for dir in [Dir::S, Dir::SW, Dir::NW] {
                    if !self.contains(at.neighbour(dir)) {
                        for kind in HexsideKind::ALL {
                            if self.has_hexside(at, dir, kind) {
                                out.push((at, dir, kind));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Movement points for `arm` to step from `from` into its neighbour across
    /// `dir` (docs/rules.md 1.8): the entered hex's terrain, road rate only from
    /// road to road, plus hexside features. `None` if prohibited or off-map.
    pub fn step_cost(&self, rules: &Rules, arm: Arm, from: Offset, dir: Dir) -> Option<f32> {
        let to = from.neighbour(dir);
        let t = self.terrain(to)?;
        let t = if t == Terrain::Road && !self.terrain(from).is_some_and(Terrain::carries_road) {
            // Entering a road from across country is cross-country movement.
            Terrain::Clear
        } else {
            t
        };
        let mut cost = rules.terrain_cost(t, arm)?;
        let bits = self.hexside_bits(from, dir);
        for kind in HexsideKind::ALL {
            if bits & kind.bit() != 0 {
                cost += rules.hexside_cost(kind, arm)?;
            }
        }
        Some(cost)
    }

    /// Whether `arm` may stand in `at` at all.
    pub fn passable(&self, rules: &Rules, arm: Arm, at: Offset) -> bool {
        self.terrain(at).is_some_and(|t| rules.terrain_cost(t, arm).is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_top_first_with_the_default_legend() {
        let m = TerrainMap::from_rows(&["..w", "~=t"]);
        assert_eq!((m.width, m.height), (3, 2));
        assert_eq!(m.terrain(Offset::new(2, 0)), Some(Terrain::Woods));
        assert_eq!(m.terrain(Offset::new(1, 1)), Some(Terrain::Bridge));
        assert_eq!(m.terrain(Offset::new(3, 0)), None);
        assert_eq!(m.terrain(Offset::new(0, -1)), None);
    }

    #[test]
    fn step_costs_follow_the_chart_and_hexsides() {
        let rules = Rules::default();
        let mut m = TerrainMap::from_rows(&["...", ".w.", "rrr"]);
        let centre = Offset::new(1, 0);
        assert_eq!(m.step_cost(&rules, Arm::Cavalry, centre, Dir::S), Some(4.0));
        assert_eq!(m.step_cost(&rules, Arm::Artillery, centre, Dir::S), None);
        m.add_hexside(centre, Dir::S, HexsideKind::Slope);
        assert_eq!(m.step_cost(&rules, Arm::Infantry, centre, Dir::S), Some(5.0));
        // The slope is seen from the other side too.
        assert!(m.has_hexside(Offset::new(1, 1), Dir::N, HexsideKind::Slope));
        // Road rate only along the road.
        assert_eq!(m.step_cost(&rules, Arm::Infantry, Offset::new(0, 2), Dir::SE), Some(0.5));
        assert_eq!(m.step_cost(&rules, Arm::Infantry, Offset::new(1, 1), Dir::S), Some(1.0));
        // Off the map.
        assert_eq!(m.step_cost(&rules, Arm::Infantry, Offset::new(1, 2), Dir::S), None);
    }
}
