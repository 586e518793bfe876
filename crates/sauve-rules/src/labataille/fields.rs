//! Per-side fields over the whole map, built once and shared by every forced
//! move of that side until an enemy moves (the "safety map" technique of
//! docs/rules.md 1.3): distance to the nearest enemy, enemy zones of influence,
//! enemy-occupied hexes, and the hexes behind enemy lines.

use crate::hex::{Dir, Edge, Offset};
use crate::labataille::Board;
use crate::labataille::grid::Grid;
use crate::terrain::Arm;
use crate::vocab::Formation;
use crate::vocab::State;

/// Distance when there is no enemy on the map.
pub const FAR: u16 = u16::MAX;

/// Size of a spatial bucket, in hexes.
const BUCKET: i32 = 16;

/// One cell's facts in four bytes: enemy distance and flag bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellFacts {
    pub dist: u16,
    pub bits: u8,
}

impl CellFacts {
    pub const ON_MAP: u8 = 1;
    pub const ENEMY: u8 = 2;
    pub const BEHIND: u8 = 4;
    pub const ZONE: u8 = 8;

    #[inline]
    pub fn has(self, bit: u8) -> bool {
        self.bits & bit != 0
    }
}

/// Scratch of [`SideFields::remove_source`]: the hexes whose nearest enemy
/// was the one that left (with their offsets), those of them left with no
/// distance, and the refill's layers by distance.
#[derive(Clone, Debug, Default)]
struct Mend {
    region: Vec<(usize, Offset)>,
    lost: Vec<usize>,
    layers: Vec<Vec<usize>>,
}

/// What the units of one side see of their enemies.
#[derive(Debug)]
pub struct SideFields {
    pub side: usize,
    /// Hexes to the nearest enemy unit on the map (over the padded grid, so
    /// off-map border cells have a distance too; see [`sweep`]).
    pub dist: Vec<u16>,
    /// How many enemy units exert a zone of influence into the cell (1.7).
    pub zone: Vec<u8>,
    /// Some enemy cavalry unit exerts a zone into the cell (1.4).
    pub cav_zone: Vec<bool>,
    /// An enemy unit stands in the cell.
    pub enemy: Vec<bool>,
    /// The cell is nearer the enemy's rear edge than the nearest enemy unit:
    /// behind enemy lines (rout priority 3, house default).
    pub behind: Vec<bool>,
    /// The same facts packed per cell for the rout planner's inner loop,
    /// so that one load answers them all.
    pub cells: Vec<CellFacts>,
    /// Enemy positions, bucketed for "every enemy within N hexes" queries.
    buckets: Vec<Vec<Offset>>,
    bw: i32,
    /// What [`SideFields::apply_change`] needs beside the public fields: the
    /// nearest enemy's depth, enemy units and cavalry zones per cell, and
    /// the enemy's rear edge.
    depth: Vec<i32>,
    enemy_n: Vec<u16>,
    cav_n: Vec<u8>,
    enemy_rear: Edge,
    /// Scratch for mending: the cells of the region being refilled (all
    /// false between mends).
    inside: Vec<bool>,
    /// Scratch for building: each cell's distance and depth as one key,
    /// column by column (see [`sweep`]).
    key: Vec<u32>,
    /// Scratch for mending after an enemy leaves a hex.
    mend: Mend,
}

/// Written out so that `clone_from` reuses the copy's buffers: the odds
/// play each way an attack's checks can go on one copy of the engine,
/// restored between them, and a fresh copy of every field per way cost
/// more than the ways themselves.
impl Clone for SideFields {
    fn clone(&self) -> Self {
        let mut out = Self::empty(self.side, self.enemy_rear);
        out.clone_from(self);
        out
    }

    fn clone_from(&mut self, source: &Self) {
        // Every field named, so a new one cannot be left out.
        let Self {
            side,
            dist,
            zone,
            cav_zone,
            enemy,
            behind,
            cells,
            buckets,
            bw,
            depth,
            enemy_n,
            cav_n,
            enemy_rear,
            inside,
            key,
            mend,
        } = self;
        *side = source.side;
        dist.clone_from(&source.dist);
        zone.clone_from(&source.zone);
        cav_zone.clone_from(&source.cav_zone);
        enemy.clone_from(&source.enemy);
        behind.clone_from(&source.behind);
        cells.clone_from(&source.cells);
        buckets.clone_from(&source.buckets);
        *bw = source.bw;
        depth.clone_from(&source.depth);
        enemy_n.clone_from(&source.enemy_n);
        cav_n.clone_from(&source.cav_n);
        *enemy_rear = source.enemy_rear;
        inside.clone_from(&source.inside);
        key.clone_from(&source.key);
        mend.region.clone_from(&source.mend.region);
        mend.lost.clone_from(&source.mend.lost);
        mend.layers.clone_from(&source.mend.layers);
    }
}

/// One enemy unit as the fields see it, before or after a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    pub at: Option<Offset>,
    pub cavalry: bool,
    pub facing: Dir,
    pub exerts: bool,
}

impl Mark {
    pub fn of(u: &crate::labataille::HexUnit) -> Self {
        Mark { at: u.at, cavalry: u.arm == Arm::Cavalry, facing: u.facing, exerts: exerts_zone(u.state, u.formation) }
    }
}

#[inline]
fn hex_distance(a: Offset, b: Offset) -> i32 {
    let ((ax, az), (bx, bz)) = (a.cube(), b.cube());
    let (dx, dz) = (ax - bx, az - bz);
    dx.abs().max(dz.abs()).max((dx + dz).abs())
}

/// The front hexsides of a unit facing `facing`: that side and its two
/// neighbours (docs/rules.md 1.7, house default for hex facing).
pub fn front_sides(facing: Dir) -> [Dir; 3] {
    let i = facing.index();
    [Dir::ALL[(i + 5) % 6], facing, Dir::ALL[(i + 1) % 6]]
}

/// Whether a unit exerts a zone of influence: not routed, not in square.
pub fn exerts_zone(state: State, formation: Formation) -> bool {
    !matches!(state, State::Routed | State::Surrendered | State::Eliminated) && formation != Formation::Square
}

/// One cell's distance to the nearest source and, among the sources that
/// near, the deepest one's depth, in one integer ordered as the build
/// prefers them: the distance in the high half, the depth subtracted from
/// 0xFFFF in the low half (so the smaller key is the nearer, then the
/// deeper). One step farther adds [`KEY_STEP`]; no source is `u32::MAX`.
const KEY_STEP: u32 = 1 << 16;

fn key(dist: u16, depth: i32) -> u32 {
    u32::from(dist) << 16 | (0xFFFF - depth.clamp(0, 0xFFFF) as u32)
}

/// The distance and depth a key holds; no depth where no source is near.
fn unkey(k: u32) -> (u16, i32) {
    let dist = (k >> 16) as u16;
    (dist, if dist == FAR { i32::MIN } else { 0xFFFF - (k & 0xFFFF) as i32 })
}

/// Distance to the nearest source (keys at distance 0) over the padded
/// rectangle, ties keeping the deepest source's depth. `key` holds the
/// padded cells column by column (`cc * ph + rr`), so that a column is one
/// run of memory. Two sweeps: columns left to right, each taking from the
/// column before (its north-west and south-west neighbours) and then from
/// the north, top down; then right to left, taking from the column after
/// (north-east, south-east) and then from the south, bottom up. Exact, with
/// no obstacles: the six directions fall into those two sets of three, a
/// shortest line between hexes uses at most two neighbouring directions,
/// and its steps can be taken in any order, so every nearest source is
/// reached by steps of the first set and then of the second (the corner
/// stays inside the rectangle). The same answer as a breadth-first search
/// from every source, taken layer by layer, with each step one minimum of
/// two keys over memory read in order.
fn sweep(grid: &Grid, key: &mut [u32]) {
    let (pw, ph) = (grid.pw as usize, grid.ph as usize);
    // Padded column `cc` is map column cc - 1; odd columns sit half a row
    // lower, so their side neighbours are in rows r and r + 1, even ones'
    // in rows r - 1 and r.
    let lower = |cc: usize| (cc + 1) & 1 == 1;
    let from_side = |col: &mut [u32], side: &[u32], lower: bool| {
        for (k, s) in col.iter_mut().zip(side) {
            *k = (*k).min(s.saturating_add(KEY_STEP));
        }
        let (col, side) = if lower { (&mut col[..ph - 1], &side[1..]) } else { (&mut col[1..], &side[..ph - 1]) };
        for (k, s) in col.iter_mut().zip(side) {
            *k = (*k).min(s.saturating_add(KEY_STEP));
        }
    };
    let along = |run: &mut u32, k: &mut u32| {
        *run = (*k).min(run.saturating_add(KEY_STEP));
        *k = *run;
    };
    for cc in 0..pw {
        let (before, rest) = key.split_at_mut(cc * ph);
        let col = &mut rest[..ph];
        if cc > 0 {
            from_side(col, &before[(cc - 1) * ph..], lower(cc));
        }
        let mut run = u32::MAX;
        col.iter_mut().for_each(|k| along(&mut run, k));
    }
    for cc in (0..pw).rev() {
        let (upto, after) = key.split_at_mut((cc + 1) * ph);
        let col = &mut upto[cc * ph..];
        if cc + 1 < pw {
            from_side(col, &after[..ph], lower(cc));
        }
        let mut run = u32::MAX;
        col.iter_mut().rev().for_each(|k| along(&mut run, k));
    }
}

impl SideFields {
    /// Fields for `side` with nothing in them yet.
    fn empty(side: usize, enemy_rear: Edge) -> Self {
        SideFields {
            side,
            dist: Vec::new(),
            zone: Vec::new(),
            cav_zone: Vec::new(),
            enemy: Vec::new(),
            behind: Vec::new(),
            cells: Vec::new(),
            buckets: Vec::new(),
            bw: 0,
            depth: Vec::new(),
            enemy_n: Vec::new(),
            cav_n: Vec::new(),
            enemy_rear,
            inside: Vec::new(),
            key: Vec::new(),
            mend: Mend::default(),
        }
    }

    /// Builds every field for `side`, whose enemies have `enemy_rear` as rear.
    pub fn build(grid: &Grid, board: &Board, side: usize, enemy_rear: Edge) -> Self {
        let mut f = SideFields::empty(side, enemy_rear);
        f.rebuild(grid, board, side, enemy_rear);
        f
    }

    /// Builds every field afresh, as [`SideFields::build`] does, in the
    /// arrays already held (no allocation once they have the map's size).
    pub fn rebuild(&mut self, grid: &Grid, board: &Board, side: usize, enemy_rear: Edge) {
        fn reset<T: Copy>(v: &mut Vec<T>, n: usize, x: T) {
            v.clear();
            v.resize(n, x);
        }
        let n = grid.len();
        let f = self;
        f.side = side;
        f.enemy_rear = enemy_rear;
        reset(&mut f.zone, n, 0);
        reset(&mut f.cav_zone, n, false);
        reset(&mut f.enemy, n, false);
        reset(&mut f.enemy_n, n, 0);
        reset(&mut f.cav_n, n, 0);
        reset(&mut f.inside, n, false);
        // The nearest enemy's distance and depth (its distance from its own
        // rear edge: a hex nearer that edge than the nearest enemy is behind
        // the lines), as keys first; every cell of them and of `behind` is
        // written below.
        reset(&mut f.key, n, u32::MAX);
        f.dist.resize(n, FAR);
        f.depth.resize(n, i32::MIN);
        f.behind.resize(n, false);
        f.bw = (grid.pw + BUCKET - 1) / BUCKET;
        let bh = (grid.ph + BUCKET - 1) / BUCKET;
        f.buckets.resize((f.bw * bh) as usize, Vec::new());
        f.buckets.truncate((f.bw * bh) as usize);
        f.buckets.iter_mut().for_each(Vec::clear);
        for u in board.units.iter().filter(|u| u.side != side) {
            let Some(at) = u.at else { continue };
            let i = grid.idx(at);
            let t = ((at.c + 1) * grid.ph + at.r + 1) as usize;
            f.key[t] = f.key[t].min(key(0, grid.edge_distance(enemy_rear, at)));
            f.enemy[i] = true;
            f.enemy_n[i] = f.enemy_n[i].saturating_add(1);
            let b = (((at.r + 1) / BUCKET) * f.bw + (at.c + 1) / BUCKET) as usize;
            f.buckets[b].push(at);
            if exerts_zone(u.state, u.formation) {
                for dir in front_sides(u.facing) {
                    if let Some(j) = grid.neighbour(i, dir) {
                        f.zone[j] = f.zone[j].saturating_add(1);
                        if u.arm == Arm::Cavalry {
                            f.cav_zone[j] = true;
                            f.cav_n[j] = f.cav_n[j].saturating_add(1);
                        }
                    }
                }
            }
        }
        sweep(grid, &mut f.key);
        // Row by row, so no cell's place needs a division: distance and
        // depth from the key, behind the lines, then the packed facts, in
        // the one pass.
        let mut cells = std::mem::take(&mut f.cells);
        cells.clear();
        cells.reserve(n);
        let mut i = 0;
        let ph = grid.ph as usize;
        for r in -1..grid.ph - 1 {
            for c in -1..grid.pw - 1 {
                (f.dist[i], f.depth[i]) = unkey(f.key[(c + 1) as usize * ph + (r + 1) as usize]);
                f.behind[i] = f.depth[i] != i32::MIN && grid.edge_distance(enemy_rear, Offset::new(c, r)) < f.depth[i];
                cells.push(f.pack(grid, i));
                i += 1;
            }
        }
        f.cells = cells;
    }

    fn pack(&self, grid: &Grid, i: usize) -> CellFacts {
        let bit = |on: bool, b: u8| if on { b } else { 0 };
        CellFacts {
            dist: self.dist[i],
            bits: bit(grid.on_map[i], CellFacts::ON_MAP)
                | bit(self.enemy[i], CellFacts::ENEMY)
                | bit(self.behind[i], CellFacts::BEHIND)
                | bit(self.zone[i] > 0, CellFacts::ZONE),
        }
    }

    fn refresh(&mut self, grid: &Grid, i: usize) {
        self.behind[i] =
            self.depth[i] != i32::MIN && grid.edge_distance(self.enemy_rear, grid.offset(i)) < self.depth[i];
        self.cells[i] = self.pack(grid, i);
    }

    /// After a change of distance or depth only (a mend's waves), for a
    /// cell whose offset `o` is known: behind the lines and the packed
    /// distance and bit, leaving the other bits as they are.
    #[inline]
    fn refresh_dist(&mut self, grid: &Grid, i: usize, o: Offset) {
        let behind = self.depth[i] != i32::MIN && grid.edge_distance(self.enemy_rear, o) < self.depth[i];
        self.behind[i] = behind;
        let c = &mut self.cells[i];
        c.dist = self.dist[i];
        c.bits = c.bits & !CellFacts::BEHIND | if behind { CellFacts::BEHIND } else { 0 };
    }

    /// Brings the fields up to date after one enemy unit changed from
    /// `old` to `new` (moved, left the board, routed, formed square), the
    /// same as a fresh [`SideFields::build`] would give, without walking the
    /// whole map: zones and counts change at the two hexes, and the distance
    /// field is mended only where the old hex was a nearest enemy and around
    /// the new one.
    pub fn apply_change(&mut self, grid: &Grid, old: Mark, new: Mark) {
        if old == new {
            return;
        }
        // The counts and lists first, then the distances: where the unit
        // arrives first, so that hexes it is still as near to keep their
        // distance when it leaves, and fewer are lost and refilled.
        let mut left = None;
        if let Some(a) = old.at {
            let i = grid.idx(a);
            self.zones(grid, i, old, false);
            self.enemy_n[i] = self.enemy_n[i].saturating_sub(1);
            self.enemy[i] = self.enemy_n[i] > 0;
            let b = self.bucket_of(a);
            if let Some(k) = self.buckets[b].iter().position(|&e| e == a) {
                self.buckets[b].swap_remove(k);
            }
            left = Some(a);
        }
        if let Some(b) = new.at {
            let i = grid.idx(b);
            self.zones(grid, i, new, true);
            self.enemy_n[i] = self.enemy_n[i].saturating_add(1);
            self.enemy[i] = true;
            let k = self.bucket_of(b);
            self.buckets[k].push(b);
            // Not where it stood itself (a turn or change of formation in
            // place): that hex has not stopped being a source.
            if self.enemy_n[i] == 1 && self.dist[i] != 0 {
                self.add_source(grid, b);
            }
            self.refresh(grid, i);
        }
        if let Some(a) = left {
            let i = grid.idx(a);
            if self.enemy_n[i] == 0 {
                self.remove_source(grid, a);
            }
            self.refresh(grid, i);
        }
    }

    fn zones(&mut self, grid: &Grid, i: usize, m: Mark, add: bool) {
        if !m.exerts {
            return;
        }
        for dir in front_sides(m.facing) {
            let Some(j) = grid.neighbour(i, dir) else { continue };
            if add {
                self.zone[j] = self.zone[j].saturating_add(1);
                if m.cavalry {
                    self.cav_n[j] = self.cav_n[j].saturating_add(1);
                }
            } else {
                self.zone[j] = self.zone[j].saturating_sub(1);
                if m.cavalry {
                    self.cav_n[j] = self.cav_n[j].saturating_sub(1);
                }
            }
            self.cav_zone[j] = self.cav_n[j] > 0;
            self.refresh(grid, j);
        }
    }

    /// The hex `a` holds no enemy any more. Only hexes for which it was a
    /// nearest enemy (those at exactly their distance from it, a region
    /// joined to `a` along shortest lines) can change. Taken in order of
    /// distance, such a hex keeps its distance if a neighbour one nearer
    /// still keeps its own (another enemy is as near), and its depth becomes
    /// the deepest of those neighbours'; the rest lose their distance, and
    /// are filled again from the hexes around them, in order of distance,
    /// by the same rule as the build (the smallest distance, the deepest
    /// enemy among ties).
    fn remove_source(&mut self, grid: &Grid, a: Offset) {
        let start = grid.idx(a);
        // Scratch kept with the fields, so that a mend allocates nothing
        // once warm; each hex of the region goes with its offset, which its
        // neighbours' offsets follow from without a division.
        let mut mend = std::mem::take(&mut self.mend);
        let Mend { region, lost, layers } = &mut mend;
        region.clear();
        lost.clear();
        layers.iter_mut().for_each(Vec::clear);
        region.push((start, a));
        let mut inside = std::mem::take(&mut self.inside);
        inside[start] = true;
        let mut k = 0;
        while k < region.len() {
            let (i, o) = region[k];
            k += 1;
            for dir in Dir::ALL {
                let Some(j) = grid.neighbour(i, dir) else { continue };
                if inside[j] || self.dist[j] == FAR {
                    continue;
                }
                let oj = o.neighbour(dir);
                if self.dist[j] as i32 == hex_distance(a, oj) {
                    inside[j] = true;
                    region.push((j, oj));
                }
            }
        }
        // The region was found breadth first from `a`, so in order of
        // distance: a hex's nearer neighbours in it are settled before it.
        // `inside` stays set only on the hexes that lose their distance.
        for &(i, _) in region.iter() {
            let d = self.dist[i];
            let mut deepest = None;
            if i != start {
                for dir in Dir::ALL {
                    let Some(j) = grid.neighbour(i, dir) else { continue };
                    if !inside[j] && self.dist[j] != FAR && self.dist[j] + 1 == d {
                        deepest = deepest.max(Some(self.depth[j]));
                    }
                }
            }
            match deepest {
                Some(depth) => {
                    self.depth[i] = depth;
                    inside[i] = false;
                }
                None => lost.push(i),
            }
        }
        for &i in lost.iter() {
            self.dist[i] = FAR;
            self.depth[i] = i32::MIN;
        }
        // Seeds: the hexes bordering the lost ones, by distance.
        for &i in lost.iter() {
            for dir in Dir::ALL {
                let Some(j) = grid.neighbour(i, dir) else { continue };
                if !inside[j] && self.dist[j] != FAR {
                    let d = self.dist[j] as usize;
                    if layers.len() <= d {
                        layers.resize(d + 1, Vec::new());
                    }
                    layers[d].push(j);
                }
            }
        }
        let mut d = 0;
        let mut layer = Vec::new();
        while d < layers.len() {
            std::mem::swap(&mut layer, &mut layers[d]);
            layer.sort_unstable();
            layer.dedup();
            for &i in &layer {
                for dir in Dir::ALL {
                    let Some(j) = grid.neighbour(i, dir) else { continue };
                    if !inside[j] {
                        continue;
                    }
                    let next = self.dist[i] + 1;
                    if self.dist[j] == FAR || next < self.dist[j] {
                        self.dist[j] = next;
                        self.depth[j] = self.depth[i];
                        if layers.len() <= next as usize {
                            layers.resize(next as usize + 1, Vec::new());
                        }
                        layers[next as usize].push(j);
                    } else if next == self.dist[j] && self.depth[i] > self.depth[j] {
                        self.depth[j] = self.depth[i];
                    }
                }
            }
            // Hand the buffer back to its layer, empty, for the next mend.
            layer.clear();
            std::mem::swap(&mut layer, &mut layers[d]);
            d += 1;
        }
        for &i in lost.iter() {
            inside[i] = false;
        }
        for &(i, o) in region.iter() {
            self.refresh_dist(grid, i, o);
        }
        self.inside = inside;
        self.mend = mend;
    }

    /// The hex `b` now holds an enemy: distances fall (and depths rise on
    /// ties) outwards from it, as far as they change. First in, first out,
    /// so by distance: when a hex is taken, every neighbour one nearer has
    /// been taken and has offered it its depth, so the hex's own is final
    /// and is passed on. A hex whose distance fell has only hexes of the
    /// wave one nearer (an unchanged one would have kept it as near), so
    /// those offers are all it needs.
    fn add_source(&mut self, grid: &Grid, b: Offset) {
        let start = grid.idx(b);
        self.dist[start] = 0;
        // A source's depth is its own edge distance, whatever its neighbours'.
        self.depth[start] = grid.edge_distance(self.enemy_rear, b);
        // A scratch vector read from `head`, each cell with its offset as in
        // the mend's region; `queued` (all false between mends) keeps a hex
        // from going in twice.
        let mut queue = std::mem::take(&mut self.mend.region);
        let mut queued = std::mem::take(&mut self.inside);
        queue.clear();
        queue.push((start, b));
        queued[start] = true;
        let mut head = 0;
        while head < queue.len() {
            let (i, o) = queue[head];
            head += 1;
            self.refresh_dist(grid, i, o);
            let (next, depth) = (self.dist[i] + 1, self.depth[i]);
            for dir in Dir::ALL {
                let Some(j) = grid.neighbour(i, dir) else { continue };
                let now = self.dist[j];
                if now == FAR || next < now {
                    self.dist[j] = next;
                    self.depth[j] = depth;
                } else if next == now && depth > self.depth[j] {
                    self.depth[j] = depth;
                } else {
                    continue;
                }
                if !queued[j] {
                    queued[j] = true;
                    queue.push((j, o.neighbour(dir)));
                }
            }
        }
        for &(i, _) in queue.iter() {
            queued[i] = false;
        }
        self.inside = queued;
        self.mend.region = queue;
    }

    /// Adds one enemy zone of influence to a cell (what a new enemy front
    /// would do), keeping the packed facts in step.
    pub fn add_zone(&mut self, cell: usize) {
        self.zone[cell] = self.zone[cell].saturating_add(1);
        self.cells[cell].bits |= CellFacts::ZONE;
    }

    fn bucket_of(&self, o: Offset) -> usize {
        (((o.r + 1) / BUCKET) * self.bw + (o.c + 1) / BUCKET) as usize
    }

    /// Are there any enemies on the map?
    pub fn has_enemies(&self) -> bool {
        self.buckets.iter().any(|b| !b.is_empty())
    }

    /// Calls `f` with every enemy position within `radius` hexes of `at`.
    pub fn enemies_within(&self, at: Offset, radius: u32, mut f: impl FnMut(Offset)) {
        let r = radius as i32;
        let bh = self.buckets.len() as i32 / self.bw.max(1);
        let (c0, c1) = (((at.c + 1 - r).max(0)) / BUCKET, ((at.c + 1 + r).max(0)) / BUCKET);
        let (r0, r1) = (((at.r + 1 - r).max(0)) / BUCKET, ((at.r + 1 + r).max(0)) / BUCKET);
        for br in r0..=r1.min(bh - 1) {
            for bc in c0..=c1.min(self.bw - 1) {
                for &e in &self.buckets[(br * self.bw + bc) as usize] {
                    if at.distance(e) <= radius {
                        f(e);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labataille::HexUnit;
    use crate::map::TerrainMap;
    use crate::rules::Rules;
    use crate::vocab::Readiness;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};

    fn same(a: &SideFields, b: &SideFields, what: &str) {
        assert_eq!(a.dist, b.dist, "dist after {what}");
        assert_eq!(a.zone, b.zone, "zone after {what}");
        assert_eq!(a.cav_zone, b.cav_zone, "cav_zone after {what}");
        assert_eq!(a.enemy, b.enemy, "enemy after {what}");
        assert_eq!(a.behind, b.behind, "behind after {what}");
        assert_eq!(a.cells, b.cells, "cells after {what}");
        assert_eq!(a.depth, b.depth, "depth after {what}");
        assert_eq!(a.enemy_n, b.enemy_n, "enemy counts after {what}");
        assert_eq!(a.cav_n, b.cav_n, "cavalry zone counts after {what}");
        assert!(!a.inside.contains(&true), "mending scratch left set after {what}");
        let sorted = |f: &SideFields| {
            f.buckets
                .iter()
                .map(|v| {
                    let mut v = v.clone();
                    v.sort();
                    v
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(sorted(a), sorted(b), "buckets after {what}");
    }

    #[test]
    fn mending_the_fields_after_each_change_equals_building_them_afresh() {
        let map = TerrainMap::from_rows(&["........................"; 20]);
        let grid = Grid::new(&map, &Rules::default());
        for seed in 1..=4 {
            mend_and_compare(&grid, seed, false);
        }
        // Lines of enemies moving a hex or two: hexes with many nearest
        // enemies at once, where a removed enemy is mostly replaced by
        // another as near.
        for seed in 5..=8 {
            mend_and_compare(&grid, seed, true);
        }
    }

    /// Rebuilt in place, over arrays left by another board on another map
    /// (a bigger one, then a smaller one), the fields equal fresh ones.
    #[test]
    fn rebuilding_in_place_equals_building_afresh() {
        let rules = Rules::default();
        let grids = [
            Grid::new(&TerrainMap::from_rows(&["........................"; 20]), &rules),
            Grid::new(&TerrainMap::from_rows(&["..............."; 12]), &rules),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut kept = SideFields::build(&grids[0], &Board { units: Vec::new() }, 1, Edge::South);
        for round in 0..40 {
            let grid = &grids[round % 2];
            let (w, h) = (grid.width, grid.height);
            let units = (0..30)
                .map(|k| {
                    let mut u = unit(
                        usize::from(k >= 8),
                        Arm::ALL[k % 3],
                        (rng.random_range(0..w), rng.random_range(0..h)),
                        Dir::ALL[k % 6],
                    );
                    u.state = [State::GoodOrder, State::Routed, State::Disordered][rng.random_range(0..3)];
                    u
                })
                .collect();
            let board = Board { units };
            let edge = [Edge::North, Edge::South, Edge::East, Edge::West][round % 4];
            kept.rebuild(grid, &board, 0, edge);
            same(&kept, &SideFields::build(grid, &board, 0, edge), &format!("rebuild {round}"));
        }
    }

    fn mend_and_compare(grid: &Grid, seed: u64, lines: bool) {
        let grid = grid.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut board = Board { units: Vec::new() };
        for k in 0..40 {
            let side = usize::from(k >= 6);
            let arm = Arm::ALL[k % 3];
            let at = if lines && k >= 6 {
                // Two lines, every other hex of rows 6 and 13.
                (((k - 6) % 12 * 2) as i32, if k < 18 { 6 } else { 13 })
            } else {
                (rng.random_range(0..24), rng.random_range(0..20))
            };
            board.units.push(unit(side, arm, at, Dir::ALL[k % 6]));
        }
        let mut fields = SideFields::build(&grid, &board, 0, Edge::North);
        for step in 0..600 {
            let u = rng.random_range(6..40);
            let before = Mark::of(&board.units[u]);
            let unit = &mut board.units[u];
            let what = match rng.random_range(0..10) {
                0 => {
                    unit.at = None;
                    "leaving the board"
                }
                1 => {
                    unit.state = State::Routed;
                    "a rout"
                }
                2 => {
                    unit.formation =
                        if unit.formation == Formation::Square { Formation::Line } else { Formation::Square };
                    "a change of formation"
                }
                3 => {
                    unit.state = State::GoodOrder;
                    "a rally"
                }
                _ if lines => {
                    let at = unit.at.unwrap_or(Offset::new(12, 10));
                    let to = Offset::new(at.c + rng.random_range(-2..=2), at.r + rng.random_range(-2..=2));
                    unit.at = Some(Offset::new(to.c.clamp(0, 23), to.r.clamp(0, 19)));
                    "a short move"
                }
                _ => {
                    unit.at = Some(Offset::new(rng.random_range(0..24), rng.random_range(0..20)));
                    "a move"
                }
            };
            fields.apply_change(&grid, before, Mark::of(&board.units[u]));
            same(&fields, &SideFields::build(&grid, &board, 0, Edge::North), &format!("{what} (step {step})"));
        }
    }

    fn unit(side: usize, arm: Arm, at: (i32, i32), facing: Dir) -> HexUnit {
        HexUnit {
            id: format!("u{}{}", at.0, at.1),
            side,
            arm,
            at: Some(Offset::new(at.0, at.1)),
            morale: 33,
            strength: 4,
            state: State::GoodOrder,
            readiness: Readiness::Fresh,
            formation: Formation::Line,
            facing,
            limbered: false,
            rested: true,
        }
    }

    #[test]
    fn distance_field_is_the_hex_distance_to_the_nearest_enemy() {
        let map = TerrainMap::filled(12, 9, crate::terrain::Terrain::Clear);
        let grid = Grid::new(&map, &Rules::default());
        let board = Board {
            units: vec![
                unit(1, Arm::Infantry, (2, 1), Dir::S),
                unit(1, Arm::Cavalry, (9, 6), Dir::S),
                unit(0, Arm::Infantry, (5, 5), Dir::N),
            ],
        };
        let f = SideFields::build(&grid, &board, 0, Edge::North);
        for r in -1..=9 {
            for c in -1..=12 {
                let o = Offset::new(c, r);
                let want = o.distance(Offset::new(2, 1)).min(o.distance(Offset::new(9, 6)));
                assert_eq!(f.dist[grid.idx(o)] as u32, want, "at {o}");
            }
        }
        // Own units are not sources.
        assert_ne!(f.dist[grid.idx(Offset::new(5, 5))], 0);
    }

    /// The two sweeps against the definition, over every padded cell of
    /// odd and even sized maps with scattered enemies: the distance to the
    /// nearest, and among the nearest the deepest one's depth (what makes a
    /// hex "behind the lines").
    #[test]
    fn the_sweeps_give_the_nearest_enemy_and_the_deepest_among_the_nearest() {
        let rules = Rules::default();
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        for (w, h) in [(13, 9), (8, 14), (1, 6), (7, 1)] {
            let grid = Grid::new(&TerrainMap::filled(w, h, crate::terrain::Terrain::Clear), &rules);
            for round in 0..30 {
                let units: Vec<HexUnit> = (0..rng.random_range(1..6))
                    .map(|k| unit(1, Arm::Infantry, (rng.random_range(0..w), rng.random_range(0..h)), Dir::ALL[k % 6]))
                    .collect();
                let edge = [Edge::North, Edge::South, Edge::East, Edge::West][round % 4];
                let f = SideFields::build(&grid, &Board { units: units.clone() }, 0, edge);
                for r in -1..=h {
                    for c in -1..=w {
                        let o = Offset::new(c, r);
                        let at = |u: &HexUnit| u.at.expect("placed");
                        let near = units.iter().map(|u| o.distance(at(u))).min().expect("units");
                        let deepest = units
                            .iter()
                            .filter(|u| o.distance(at(u)) == near)
                            .map(|u| grid.edge_distance(edge, at(u)))
                            .max()
                            .expect("a nearest");
                        let i = grid.idx(o);
                        assert_eq!(u32::from(f.dist[i]), near, "distance at {o}, {w}x{h} round {round}");
                        assert_eq!(f.depth[i], deepest, "depth at {o}, {w}x{h} round {round}");
                    }
                }
            }
        }
    }

    #[test]
    fn zones_cover_the_three_front_hexes_and_cavalry_zones_are_marked() {
        let map = TerrainMap::filled(10, 10, crate::terrain::Terrain::Clear);
        let grid = Grid::new(&map, &Rules::default());
        let mut sq = unit(1, Arm::Infantry, (7, 7), Dir::N);
        sq.formation = Formation::Square;
        let mut routed = unit(1, Arm::Infantry, (2, 7), Dir::N);
        routed.state = State::Routed;
        let board = Board { units: vec![unit(1, Arm::Cavalry, (4, 4), Dir::S), sq, routed] };
        let f = SideFields::build(&grid, &board, 0, Edge::North);
        let at = Offset::new(4, 4);
        for d in Dir::ALL {
            let i = grid.idx(at.neighbour(d));
            let front = matches!(d, Dir::SE | Dir::S | Dir::SW);
            assert_eq!(f.zone[i] == 1, front, "{d:?}");
            assert_eq!(f.cav_zone[i], front, "{d:?}");
        }
        assert_eq!(f.zone.iter().map(|&z| z as u32).sum::<u32>(), 3, "squares and routers exert none");
    }

    #[test]
    fn behind_enemy_lines_is_nearer_their_rear_than_the_nearest_enemy() {
        // Enemy (rear North) holds row 3; we flee south.
        let map = TerrainMap::filled(10, 10, crate::terrain::Terrain::Clear);
        let grid = Grid::new(&map, &Rules::default());
        let board = Board { units: (0..10).step_by(3).map(|c| unit(1, Arm::Infantry, (c, 3), Dir::S)).collect() };
        let f = SideFields::build(&grid, &board, 0, Edge::North);
        assert!(f.behind[grid.idx(Offset::new(4, 1))]);
        assert!(!f.behind[grid.idx(Offset::new(4, 3))]);
        assert!(!f.behind[grid.idx(Offset::new(4, 6))]);
        let mut seen = Vec::new();
        f.enemies_within(Offset::new(0, 8), 5, |e| seen.push(e));
        assert_eq!(seen, vec![Offset::new(0, 3)]);
    }
}
