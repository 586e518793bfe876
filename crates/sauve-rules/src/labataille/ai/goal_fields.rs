//! The AI's goal fields: least MP from every hex to the nearest of some
//! goals (objectives, the enemy, an exit edge), over the grid's step costs.

use crate::hex::Dir;
use crate::labataille::grid::{BLOCKED, Grid};
use crate::terrain::Arm;

/// Sentinel of a goal field: no goal reachable from here.
pub const UNREACHED: u32 = u32::MAX;

/// Ring size of the bucket queue; step costs are clamped below it (a field
/// is a guide, and no real step costs 40 MP).
const RING: usize = 4096;

/// Multi-source Dijkstra over the grid's step costs for `arm`, towards the
/// sources: `field[cell]` is the least MP (hundredths) to walk from `cell`
/// to any source, counting each source's start cost. Steps are read in the
/// walking direction (from the cell towards the source), so hexsides and
/// entry costs count as a unit would pay them. A bucket queue (Dial's
/// algorithm): costs are small integers, so this is linear in the map.
pub fn goal_field(grid: &Grid, arm: Arm, sources: &[(usize, u32)]) -> Vec<u32> {
    goal_field_until(grid, arm, sources, None)
}

/// [`goal_field`], worked out only as far as a unit at `cell` needs it: the
/// walk stops once every cell within `margin` (hundredths of MP) of the
/// field at `cell` is final, and farther cells are [`UNREACHED`].
/// With `margin` above what the unit may spend in a phase, each hex it can
/// reach has its true value.
pub fn goal_field_near(grid: &Grid, arm: Arm, sources: &[(usize, u32)], cell: usize, margin: u32) -> Vec<u32> {
    goal_field_until(grid, arm, sources, Some((cell, margin)))
}

fn goal_field_until(grid: &Grid, arm: Arm, sources: &[(usize, u32)], until: Option<(usize, u32)>) -> Vec<u32> {
    let mut dist = vec![UNREACHED; grid.len()];
    let mut ring: Vec<Vec<u32>> = vec![Vec::new(); RING];
    let mut pending = 0usize;
    let mut cur = u32::MAX;
    for &(cell, start) in sources {
        // Start costs must fit in the ring's window with the steps.
        let start = start.min(RING as u32 / 2);
        if start < dist[cell] {
            dist[cell] = start;
            ring[start as usize % RING].push(cell as u32);
            pending += 1;
            cur = cur.min(start);
        }
    }
    while pending > 0 {
        if let Some((cell, margin)) = until
            && dist[cell] != UNREACHED
            && cur > dist[cell].saturating_add(margin)
        {
            break;
        }
        let slot = cur as usize % RING;
        let bucket = std::mem::take(&mut ring[slot]);
        for &cell in &bucket {
            pending -= 1;
            let cell = cell as usize;
            if dist[cell] != cur {
                continue;
            }
            for dir in Dir::ALL {
                let Some(from) = grid.neighbour(cell, dir) else { continue };
                if !grid.on_map[from] {
                    continue;
                }
                let step = grid.step_cost(arm, from, dir.opposite());
                if step == BLOCKED {
                    continue;
                }
                let next = cur + (step as u32).min(RING as u32 - 1);
                if next < dist[from] {
                    dist[from] = next;
                    ring[next as usize % RING].push(from as u32);
                    pending += 1;
                }
            }
        }
        let mut bucket = bucket;
        bucket.clear();
        if ring[slot].is_empty() {
            ring[slot] = bucket;
        }
        cur += 1;
    }
    // Beyond the margin nothing is kept, final or not.
    if let Some((cell, margin)) = until {
        let last = dist[cell].saturating_add(margin);
        for d in dist.iter_mut().filter(|d| **d > last) {
            *d = UNREACHED;
        }
    }
    dist
}

/// How many goal fields [`GoalFields`] keeps.
const KEEP: usize = 4;

/// The last few goal fields worked out, each with what it was worked out
/// for: a field depends only on the terrain (the grid's
/// [`uid`](Grid::uid)), the arm and the sources, which change seldom (an
/// objective taken or lost), so a phase mostly asks again for a field of
/// the phase before. The engine keeps them for the AI, which keeps nothing
/// of its own from one phase to the next.
#[derive(Clone, Debug, Default)]
pub struct GoalFields {
    known: Vec<(FieldKey, Vec<u32>)>,
}

/// What a goal field was worked out for: the grid's uid, the arm and the
/// sources with their start costs.
type FieldKey = (u64, Arm, Vec<(usize, u32)>);

impl GoalFields {
    /// [`goal_field`], from the kept ones if it is one of them; else worked
    /// out and kept in place of the oldest.
    pub fn field(&mut self, grid: &Grid, arm: Arm, sources: &[(usize, u32)]) -> Vec<u32> {
        let key = |k: &FieldKey| k.0 == grid.uid() && k.1 == arm && k.2 == sources;
        if let Some((_, field)) = self.known.iter().find(|(k, _)| key(k)) {
            return field.clone();
        }
        let field = goal_field(grid, arm, sources);
        if self.known.len() == KEEP {
            self.known.remove(0);
        }
        self.known.push(((grid.uid(), arm, sources.to_vec()), field.clone()));
        field
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::Offset;
    use crate::map::TerrainMap;
    use crate::rules::Rules;

    #[test]
    fn goal_field_is_the_cheapest_walk_to_the_nearest_source() {
        let map = TerrainMap::from_rows(&[".....", ".www.", "....."]);
        let rules = Rules::default();
        let grid = Grid::new(&map, &rules);
        let f =
            goal_field(&grid, Arm::Infantry, &[(grid.idx(Offset::new(0, 0)), 0), (grid.idx(Offset::new(4, 2)), 50)]);
        assert_eq!(f[grid.idx(Offset::new(0, 0))], 0);
        assert_eq!(f[grid.idx(Offset::new(1, 0))], 100, "one clear hex");
        assert_eq!(f[grid.idx(Offset::new(4, 2))], 50, "a source keeps its start cost");
        assert_eq!(f[grid.idx(Offset::new(2, 1))], 200, "leaving the woods costs only the clear hexes entered");
        assert_eq!(f[grid.idx(Offset::new(2, 0))], 200, "around the woods rather than through");
        assert_eq!(f[grid.idx(Offset::new(-1, -1))], UNREACHED, "off the map");
    }

    /// A field worked out only near a unit holds the full field's values
    /// wherever they lie within the margin of the unit's own, and nothing
    /// farther off.
    #[test]
    fn a_field_near_a_unit_is_the_full_field_within_its_margin() {
        let map = TerrainMap::from_rows(&["..........", "..www.....", "..www..~..", "......~...", ".........."]);
        let rules = Rules::default();
        let grid = Grid::new(&map, &rules);
        let source = [(grid.idx(Offset::new(9, 4)), 0)];
        let full = goal_field(&grid, Arm::Infantry, &source);
        let unit = grid.idx(Offset::new(5, 2));
        for margin in [0, 150, 400] {
            let near = goal_field_near(&grid, Arm::Infantry, &source, unit, margin);
            let last = full[unit] + margin;
            for cell in 0..grid.len() {
                let want = if full[cell] <= last { full[cell] } else { UNREACHED };
                assert_eq!(near[cell], want, "cell {:?}, margin {margin}", grid.offset(cell));
            }
        }
        assert!(full.iter().filter(|&&d| d != UNREACHED).count() > 30, "the map is walked");
    }

    /// Remembered goal fields must be the fields of that very grid, arm and
    /// sources: two maps of one size, the same sources on both, and sources
    /// changed on one, asked in turn.
    #[test]
    fn remembered_goal_fields_belong_to_their_grid_and_sources() {
        let rules = Rules::default();
        let open = Grid::new(&TerrainMap::from_rows(&["......"; 5]), &rules);
        let woods = Grid::new(&TerrainMap::from_rows(&["..ww..", "..ww..", "..ww..", "..ww..", "..ww.."]), &rules);
        let a = [(open.idx(Offset::new(0, 2)), 0)];
        let b = [(open.idx(Offset::new(5, 2)), 0)];
        let mut kept = GoalFields::default();
        for _ in 0..2 {
            for grid in [&open, &woods] {
                for sources in [&a[..], &b[..], &a[..]] {
                    for arm in Arm::ALL {
                        assert_eq!(kept.field(grid, arm, sources), goal_field(grid, arm, sources));
                    }
                }
            }
        }
        // The two maps do differ, so a field given for the wrong one fails.
        assert_ne!(goal_field(&open, Arm::Infantry, &a), goal_field(&woods, Arm::Infantry, &a));
        // A clone is the same grid.
        assert_eq!(kept.field(&open.clone(), Arm::Cavalry, &b), goal_field(&open, Arm::Cavalry, &b));
    }
}
