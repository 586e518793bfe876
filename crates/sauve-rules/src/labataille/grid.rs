//! The hex map as flat arrays for the hot paths: a one-hex border ring around
//! the map (the "off-map" cells a router can step into), per-arm step costs
//! in hundredths of a movement point, and who stands where.

use std::sync::{Arc, OnceLock};

use crate::hex::{Dir, Offset};
use crate::map::TerrainMap;
use crate::rules::Rules;
use crate::terrain::Arm;

static NEXT_UID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Step cost of a prohibited move.
pub const BLOCKED: u16 = u16::MAX;

/// A padded grid: cell `(c, r)` of the map lives at `(c + 1, r + 1)`; the
/// border ring is off the map.
#[derive(Clone, Debug)]
pub struct Grid {
    pub width: i32,
    pub height: i32,
    /// Padded width and height.
    pub pw: i32,
    pub ph: i32,
    pub on_map: Vec<bool>,
    /// Woods or built-up: a router's preferred end hex (priority 7).
    pub refuge: Vec<bool>,
    /// Close terrain: recovered units take general order here.
    pub close: Vec<bool>,
    /// `step[arm][cell * 6 + dir]`: hundredths of an MP, or [`BLOCKED`].
    step: [Vec<u16>; 3],
    /// `stand[arm][cell]`: the arm may be in this hex at all.
    stand: [Vec<bool>; 3],
    /// `nbr[cell][dir]`: the padded cell across `dir`, or `u32::MAX` outside
    /// the padding (see [`Grid::neighbour`]).
    nbr: Vec<[u32; 6]>,
    /// The rules' rout move in hexes, to size the bounds below.
    rout_hexes: u32,
    /// Names this grid (and its clones, which are the same) for caches of
    /// what depends only on the terrain.
    uid: u64,
    /// Per arm, the rout planner's lower bounds (see [`StepBounds`]), worked
    /// out on the first rout of that arm and kept with the grid.
    bounds: [OnceLock<Arc<StepBounds>>; 3],
}

/// Lower bounds on what the rest of a rout move can cost, for one arm: per
/// cell and number of steps `r`, the least terrain cost of any `r` steps
/// from the cell (ignoring every rule but the map and prohibited steps),
/// and the least of any `r` steps that end in a refuge. Terrain never
/// changes, so they are worked out once per map and arm; the planner uses
/// them to drop walks that cannot beat a move it already has.
#[derive(Clone, Debug)]
pub struct StepBounds {
    /// Values of `r` covered: `0..steps`.
    pub steps: usize,
    /// `cells[cell * steps + r]`: `[least, least ending in a refuge]`, in
    /// hundredths of an MP, saturating (so still a lower bound);
    /// `u16::MAX` in the second where no refuge can be reached at all.
    pub cells: Vec<[u16; 2]>,
}

impl StepBounds {
    fn build(grid: &Grid, arm: Arm, steps: usize) -> Self {
        let n = grid.len();
        let step = &grid.step[arm.index()];
        // Layer by layer: r steps from a cell are one step and then r - 1.
        let mut prev: Vec<[u16; 2]> =
            (0..n).map(|i| [0, if grid.refuge[i] && grid.on_map[i] { 0 } else { u16::MAX }]).collect();
        let mut cells = vec![[0u16; 2]; n * steps];
        for (i, b) in prev.iter().enumerate() {
            cells[i * steps] = *b;
        }
        let mut next = vec![[u16::MAX; 2]; n];
        for r in 1..steps {
            for i in 0..n {
                let mut best = [u16::MAX; 2];
                if grid.on_map[i] {
                    for d in 0..6 {
                        let s = step[i * 6 + d];
                        let j = grid.nbr[i][d];
                        if s == BLOCKED || j == u32::MAX || !grid.on_map[j as usize] {
                            continue;
                        }
                        let [l, lr] = prev[j as usize];
                        best[0] = best[0].min(s.saturating_add(l));
                        if lr != u16::MAX {
                            best[1] = best[1].min(s.saturating_add(lr).min(u16::MAX - 1));
                        }
                    }
                }
                next[i] = best;
                cells[i * steps + r] = best;
            }
            std::mem::swap(&mut prev, &mut next);
        }
        StepBounds { steps, cells }
    }
}

/// Movement points in hundredths, as the grid's step costs are: whole
/// numbers, so that sums and comparisons of costs are exact.
pub type Centi = u32;

/// An MP figure of the rules in hundredths, to the nearest; the one place
/// the rules' MP become [`Centi`]. Negative (and NaN) figures give 0.
#[inline]
pub fn centi(mp: f32) -> Centi {
    (mp * 100.0).round() as Centi
}

/// A step's cost as the grid keeps it: at least one hundredth (a step is
/// never free, so every search's costs grow), below [`BLOCKED`]. The rules
/// allow costs above 0 and at most 100 MP, which fit without the clamp.
fn step_centi(mp: f32) -> u16 {
    centi(mp).clamp(1, BLOCKED as Centi - 1) as u16
}

impl Grid {
    pub fn new(map: &TerrainMap, rules: &Rules) -> Self {
        let (pw, ph) = (map.width + 2, map.height + 2);
        let n = (pw * ph) as usize;
        let mut g = Grid {
            width: map.width,
            height: map.height,
            pw,
            ph,
            on_map: vec![false; n],
            refuge: vec![false; n],
            close: vec![false; n],
            step: [vec![BLOCKED; n * 6], vec![BLOCKED; n * 6], vec![BLOCKED; n * 6]],
            stand: [vec![false; n], vec![false; n], vec![false; n]],
            nbr: Vec::new(),
            rout_hexes: rules.rout_hexes,
            uid: NEXT_UID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            bounds: Default::default(),
        };
        g.nbr = (0..n)
            .map(|i| {
                let o = g.offset(i);
                Dir::ALL.map(|d| {
                    let m = o.neighbour(d);
                    if g.in_padded(m) { g.idx(m) as u32 } else { u32::MAX }
                })
            })
            .collect();
        for r in 0..map.height {
            for c in 0..map.width {
                let at = Offset::new(c, r);
                let i = g.idx(at);
                let Some(t) = map.terrain(at) else { continue };
                g.on_map[i] = true;
                g.refuge[i] = t.is_refuge();
                g.close[i] = t.is_close();
                for arm in Arm::ALL {
                    g.stand[arm.index()][i] = rules.terrain_cost(t, arm).is_some();
                    for dir in Dir::ALL {
                        if let Some(cost) = map.step_cost(rules, arm, at, dir) {
                            g.step[arm.index()][i * 6 + dir.index()] = step_centi(cost);
                        }
                    }
                }
            }
        }
        g
    }

    pub fn len(&self) -> usize {
        (self.pw * self.ph) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Padded index of a hex on the map or in the border ring.
    #[inline]
    pub fn idx(&self, o: Offset) -> usize {
        ((o.r + 1) * self.pw + o.c + 1) as usize
    }

    /// Whether `o` is on the map or in the border ring.
    #[inline]
    pub fn in_padded(&self, o: Offset) -> bool {
        o.c >= -1 && o.r >= -1 && o.c <= self.width && o.r <= self.height
    }

    #[inline]
    pub fn offset(&self, i: usize) -> Offset {
        let i = i as i32;
        Offset::new(i % self.pw - 1, i / self.pw - 1)
    }

    /// The padded cell across `dir` from cell `i`, if inside the padding
    /// (every neighbour of a hex on the map is): the one way from a cell to
    /// its neighbours, read from a table worked out with the grid, as the
    /// offset arithmetic was most of the cost of the searches.
    #[inline]
    pub fn neighbour(&self, i: usize, dir: Dir) -> Option<usize> {
        let n = self.nbr[i][dir.index()];
        (n != u32::MAX).then_some(n as usize)
    }

    /// Names this grid (and its clones) for caches of what depends only on
    /// the terrain: no other grid has it.
    pub fn uid(&self) -> u64 {
        self.uid
    }

    /// The rout planner's lower bounds for `arm`, if they cover `steps`
    /// values of `r` (the first call works out enough for the rules' rout
    /// move, or for `steps` if more).
    pub fn step_bounds(&self, arm: Arm, steps: usize) -> Option<&StepBounds> {
        let b = self.bounds[arm.index()]
            .get_or_init(|| Arc::new(StepBounds::build(self, arm, steps.max(self.rout_hexes as usize + 1))));
        (b.steps >= steps).then_some(&**b)
    }

    /// Every step cost of `arm`, indexed `cell * 6 + dir`, for loops that
    /// read many of them.
    #[inline]
    pub fn step_costs(&self, arm: Arm) -> &[u16] {
        &self.step[arm.index()]
    }

    /// Cost in hundredths of an MP for `arm` to step from `i` across `dir`.
    #[inline]
    pub fn step_cost(&self, arm: Arm, i: usize, dir: Dir) -> u16 {
        self.step[arm.index()][i * 6 + dir.index()]
    }

    #[inline]
    pub fn can_stand(&self, arm: Arm, i: usize) -> bool {
        self.stand[arm.index()][i]
    }

    /// How far `o` is from a map edge (rows or columns; may be -1 in the ring).
    pub fn edge_distance(&self, edge: crate::hex::Edge, o: Offset) -> i32 {
        edge.distance(o, self.width, self.height)
    }

    /// Distance from a map edge in half hexes (see [`crate::hex::Edge::half_distance`]).
    pub fn edge_half_distance(&self, edge: crate::hex::Edge, o: Offset) -> i32 {
        edge.half_distance(o, self.width, self.height)
    }
}

/// Which units stand in each padded cell, in unit-index order (the stack
/// order: the first listed is the top of the stack).
#[derive(Debug, Default)]
pub struct Occupancy {
    cells: Vec<Vec<u32>>,
    /// Units per cell of side 0, side 1 and any other side, for the hot
    /// paths (kept apart so that a count is exact for sides 0 and 1), and
    /// the (wrapping) sum of their indices, which names a lone unit without
    /// a look at the stack.
    counts: Vec<[u16; 3]>,
    sums: Vec<[u32; 3]>,
    /// Per cell, bit `s` set while `counts[cell][s]` is not 0: a byte per
    /// cell for the rout planner, which asks of many cells.
    present: Vec<u8>,
    /// On a copy that tracks its changes, what changed since it was copied.
    changed: Changes,
}

/// What a copy of an [`Occupancy`] has changed since it was copied.
#[derive(Debug, Default)]
enum Changes {
    /// Not tracked (an engine's own occupancy).
    #[default]
    Untracked,
    /// These cells (perhaps more than once).
    Cells(Vec<u32>),
    /// Every cell: it was cleared.
    All,
}

/// Written out so that `clone_from` reuses the copy's stacks (see
/// `SideFields`' `Clone`).
impl Clone for Occupancy {
    fn clone(&self) -> Self {
        let mut out = Self::default();
        out.clone_from(self);
        out
    }

    fn clone_from(&mut self, source: &Self) {
        let Self { cells, counts, sums, present, changed } = self;
        cells.clone_from(&source.cells);
        counts.clone_from(&source.counts);
        sums.clone_from(&source.sums);
        present.clone_from(&source.present);
        // Equal to the source again: nothing changed since.
        match changed {
            Changes::Untracked => {}
            Changes::Cells(c) => c.clear(),
            Changes::All => *changed = Changes::Cells(Vec::new()),
        }
    }
}

impl Occupancy {
    pub fn new(grid: &Grid) -> Self {
        let n = grid.len();
        Self {
            cells: vec![Vec::new(); n],
            counts: vec![[0; 3]; n],
            sums: vec![[0; 3]; n],
            present: vec![0; n],
            changed: Changes::Untracked,
        }
    }

    /// From now on, notes the cells that change, so that
    /// [`Occupancy::restore_from`] copies back only those.
    pub fn track_changes(&mut self) {
        self.changed = Changes::Cells(Vec::new());
    }

    /// Makes this copy of `source` (tracking changes since it was copied)
    /// equal to it again: cell by changed cell, or all of it when it was
    /// cleared or not tracking.
    pub fn restore_from(&mut self, source: &Self) {
        match &mut self.changed {
            Changes::Cells(changed) if self.cells.len() == source.cells.len() => {
                for &c in changed.iter() {
                    let c = c as usize;
                    self.cells[c].clone_from(&source.cells[c]);
                    self.counts[c] = source.counts[c];
                    self.sums[c] = source.sums[c];
                    self.present[c] = source.present[c];
                }
                changed.clear();
            }
            _ => self.clone_from(source),
        }
    }

    fn note(&mut self, cell: usize) {
        if let Changes::Cells(c) = &mut self.changed {
            c.push(cell as u32);
        }
    }

    pub fn clear(&mut self) {
        if !matches!(self.changed, Changes::Untracked) {
            self.changed = Changes::All;
        }
        for c in &mut self.cells {
            c.clear();
        }
        self.counts.iter_mut().for_each(|c| *c = [0; 3]);
        self.sums.iter_mut().for_each(|c| *c = [0; 3]);
        self.present.iter_mut().for_each(|c| *c = 0);
    }

    /// Puts `unit` of `side` into `cell`, keeping the stack in unit order.
    pub fn insert(&mut self, cell: usize, unit: usize, side: usize) {
        self.note(cell);
        let v = &mut self.cells[cell];
        let pos = v.partition_point(|&u| (u as usize) < unit);
        if v.get(pos) != Some(&(unit as u32)) {
            v.insert(pos, unit as u32);
            self.counts[cell][side.min(2)] += 1;
            self.sums[cell][side.min(2)] = self.sums[cell][side.min(2)].wrapping_add(unit as u32);
            self.present[cell] |= 1 << side.min(2);
        }
    }

    pub fn remove(&mut self, cell: usize, unit: usize, side: usize) {
        self.note(cell);
        let v = &mut self.cells[cell];
        if let Some(pos) = v.iter().position(|&u| u as usize == unit) {
            v.remove(pos);
            self.counts[cell][side.min(2)] -= 1;
            self.sums[cell][side.min(2)] = self.sums[cell][side.min(2)].wrapping_sub(unit as u32);
            if self.counts[cell][side.min(2)] == 0 {
                self.present[cell] &= !(1 << side.min(2));
            }
        }
    }

    /// How many units of `side` stand in `cell` (for a side past 1, of all
    /// the sides past 1 together).
    #[inline]
    pub fn count(&self, cell: usize, side: usize) -> u16 {
        self.counts[cell][side.min(2)]
    }

    /// Whether a unit of `side` other than `unit` stands in `cell`, from the
    /// tallies alone; `None` for a side past 1, whose tallies are shared.
    #[inline]
    pub fn others_of_side(&self, cell: usize, side: usize, unit: usize) -> Option<bool> {
        (side <= 1).then(|| match self.counts[cell][side] {
            0 => false,
            1 => self.sums[cell][side] != unit as u32,
            _ => true,
        })
    }

    /// Whether a unit of `side` (0 or 1) stands in `cell`: one byte read.
    #[inline]
    pub fn side_present(&self, cell: usize, side: usize) -> bool {
        debug_assert!(side <= 1);
        self.present[cell] >> side & 1 != 0
    }

    /// Whether a unit of a side other than `side` may stand in `cell`: exact
    /// for sides 0 and 1; for a side past 1 (whose tallies are shared with
    /// the others past 1) any unit at all counts. One byte read.
    #[inline]
    pub fn others_may_stand(&self, cell: usize, side: usize) -> bool {
        let own = if side <= 1 { 1 << side } else { 0 };
        self.present[cell] & !own != 0
    }

    /// Whether any unit stands in `cell` (one byte read, without a look at
    /// the stack).
    #[inline]
    pub fn occupied(&self, cell: usize) -> bool {
        self.present[cell] != 0
    }

    #[inline]
    pub fn at(&self, cell: usize) -> &[u32] {
        &self.cells[cell]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};

    /// A copy that tracks its changes is its source again after a
    /// restore: after moves (only the cells moved in are copied back) and
    /// after a clear (all of them).
    #[test]
    fn a_tracked_copy_restores_to_its_source() {
        let map = TerrainMap::filled(4, 3, crate::terrain::Terrain::Clear);
        let grid = Grid::new(&map, &Rules::default());
        let mut source = Occupancy::new(&grid);
        source.insert(1, 0, 0);
        source.insert(1, 2, 1);
        source.insert(5, 1, 0);
        let same = |a: &Occupancy, b: &Occupancy| {
            (0..grid.len()).all(|c| a.at(c) == b.at(c) && (0..3).all(|s| a.count(c, s) == b.count(c, s)))
                && a.present == b.present
                && a.sums == b.sums
        };
        let mut copy = source.clone();
        copy.track_changes();
        copy.remove(1, 2, 1);
        copy.insert(7, 2, 1);
        copy.insert(5, 3, 0);
        assert!(!same(&copy, &source));
        copy.restore_from(&source);
        assert!(same(&copy, &source), "moves undone");
        copy.clear();
        copy.insert(9, 0, 0);
        copy.restore_from(&source);
        assert!(same(&copy, &source), "a clear undone");
        copy.remove(5, 1, 0);
        copy.restore_from(&source);
        assert!(same(&copy, &source), "and it tracks again after");
    }

    /// The tallies must answer "another unit of this side here?" exactly as
    /// a look at the stack would, through any sequence of moves.
    #[test]
    fn tallies_name_the_other_units_of_a_side_as_the_stack_does() {
        let map = TerrainMap::filled(4, 3, crate::terrain::Terrain::Clear);
        let grid = Grid::new(&map, &Rules::default());
        let mut occ = Occupancy::new(&grid);
        let sides: Vec<usize> = (0..12).map(|u| [0, 1, 0, 1, 2][u % 5]).collect();
        let mut at = vec![None; sides.len()];
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..3000 {
            let unit = rng.random_range(0..sides.len());
            if let Some(cell) = at[unit].take() {
                occ.remove(cell, unit, sides[unit]);
            }
            if rng.random_range(0..4) > 0 {
                let cell = rng.random_range(0..grid.len());
                occ.insert(cell, unit, sides[unit]);
                at[unit] = Some(cell);
            }
            for cell in 0..grid.len() {
                for side in 0..3 {
                    for who in 0..sides.len() {
                        let look = occ.at(cell).iter().any(|&u| u as usize != who && sides[u as usize] == side);
                        let tally = occ.others_of_side(cell, side, who);
                        assert_eq!(tally, (side <= 1).then_some(look), "cell {cell} side {side} unit {who}");
                    }
                    let n = occ.at(cell).iter().filter(|&&u| sides[u as usize] == side).count();
                    assert_eq!(occ.count(cell, side) as usize, n);
                    if side <= 1 {
                        assert_eq!(occ.side_present(cell, side), n > 0, "cell {cell} side {side}");
                        let others = occ.at(cell).iter().any(|&u| sides[u as usize] != side);
                        assert_eq!(occ.others_may_stand(cell, side), others, "cell {cell} side {side}");
                    } else if occ.at(cell).iter().any(|&u| sides[u as usize] != side) {
                        assert!(occ.others_may_stand(cell, side), "cell {cell} side {side}");
                    }
                }
            }
        }
    }

    /// The rout planner's bounds must be the least cost of any `r` steps
    /// (and of any ending in a refuge), found here by trying every walk.
    #[test]
    fn step_bounds_are_the_least_costs_of_any_walk() {
        let map = TerrainMap::from_rows(&[".w.m..", "r~=.g.", ".t~.w.", "..~v..", "m.~..r"]);
        let grid = Grid::new(&map, &Rules::default());
        fn least(grid: &Grid, arm: Arm, i: usize, r: usize, refuge: bool) -> u32 {
            if r == 0 {
                return if !refuge || grid.refuge[i] { 0 } else { u32::MAX };
            }
            let mut best = u32::MAX;
            for d in Dir::ALL {
                let s = grid.step_cost(arm, i, d);
                let Some(j) = grid.neighbour(i, d) else { continue };
                if s == BLOCKED || !grid.on_map[j] {
                    continue;
                }
                best = best.min(least(grid, arm, j, r - 1, refuge).saturating_add(s as u32));
            }
            best
        }
        let mut walled = 0;
        for arm in Arm::ALL {
            let b = grid.step_bounds(arm, 5).expect("bounds for 5 values of r");
            for i in (0..grid.len()).filter(|&i| grid.on_map[i]) {
                for r in 0..5 {
                    let [l, lr] = b.cells[i * b.steps + r];
                    assert_eq!(l as u32, least(&grid, arm, i, r, false), "{arm:?} cell {i} r {r}");
                    let want = least(&grid, arm, i, r, true);
                    assert_eq!(lr as u32, want.min(u16::MAX as u32), "{arm:?} cell {i} r {r} to a refuge");
                    walled += (want == u32::MAX) as usize;
                }
            }
        }
        // Some hexes cannot reach a refuge in few steps (else the second
        // bound would go unchecked where it says "none").
        assert!(walled > 0);
    }
}
