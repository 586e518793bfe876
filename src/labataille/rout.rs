//! La Bataille rout move (the 10-hex rule, RULES.md 1.3).
//!
//! A routing unit moves exactly `rout_hexes` hexes; terrain does not shorten
//! the move, but the path is chosen by the rule book's priorities, in order:
//!
//! 1. never into an enemy-occupied hex or prohibited terrain (a river without
//!    a bridge, a hexside its arm cannot cross), and never a step that brings
//!    it closer to the nearest enemy;
//! 2. end strictly further from the nearest enemy than it started, and no
//!    closer to any enemy within `rout_enemy_radius` hexes of its start
//!    (house default);
//! 3. never into hexes behind enemy lines: nearer the enemy's rear edge than
//!    the nearest enemy unit (house default), unless it starts there;
//! 4. the fewest hexes in enemy zones of influence;
//! 5. the least total terrain cost along the path;
//! 6. the fewest hexes holding friendly units;
//! 7. a woods or built-up end hex;
//!
//! then, as our tie-breaks: the end hex nearest its own rear edge, then the
//! end hex furthest from the enemy, then a fixed order of hexes.
//!
//! If no full move exists but the map edge can be reached with hexes to
//! spare, the unit routs off the map; otherwise it surrenders.
//!
//! Technique: priorities 1 and 3 are hard filters, 4-6 an additive cost, 2
//! and 7 depend only on the end hex. So a layered dynamic programme over
//! (hex, hexes moved) inside the 21x21 window around the start finds the best
//! path to every possible end hex at once, reading the shared per-side
//! [`SideFields`] instead of searching the map per unit. Paths never revisit
//! a hex; in the rare case the layered search finds no full move, an exact
//! depth-first search over simple paths confirms it before surrender.

use crate::hex::{Dir, Edge, Offset};
use crate::labataille::Board;
use crate::labataille::fields::{CellFacts, FAR, SideFields};
use crate::labataille::grid::{BLOCKED, Grid, Occupancy};
use crate::terrain::Arm;

/// Where a rout move goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoutPlan {
    /// The full move: every hex from start to end.
    Full(Vec<Offset>),
    /// The path to the map edge, and the edge it then leaves by.
    OffMap(Vec<Offset>, Edge),
    /// No legal move of full length: the unit surrenders.
    Surrender,
}

/// Order of end hexes: path cost (priorities 4-6), not a refuge (7), half
/// hexes from the own rear edge, closeness to the enemy; packed into one
/// integer (in that order from the top bits) so that a comparison is cheap.
type EndKey = u128;
/// Order of off-map exits: not across the own rear edge, then path cost.
type ExitKey = (bool, u64);

/// Everything a rout move reads.
pub struct RoutQuery<'a> {
    pub grid: &'a Grid,
    pub fields: &'a SideFields,
    pub occupancy: &'a Occupancy,
    pub board: &'a Board,
    /// The routing unit (its arm and side are read from the board).
    pub unit: usize,
    pub start: Offset,
    pub hexes: u32,
    pub enemy_radius: u32,
    pub own_rear: Edge,
}

impl RoutQuery<'_> {
    fn arm(&self) -> Arm {
        self.board.units[self.unit].arm
    }

    #[inline(always)]
    fn friends_at(&self, cell: usize) -> bool {
        let side = self.board.units[self.unit].side;
        // The occupancy's per-side tallies answer without touching the
        // stack or the units, except for a side past 1.
        self.occupancy.others_of_side(cell, side, self.unit).unwrap_or_else(|| {
            self.occupancy
                .at(cell)
                .iter()
                .any(|&u| u as usize != self.unit && self.board.units[u as usize].side == side)
        })
    }

    /// The additive part of the priorities for entering `cell` at `step`
    /// hundredths of an MP: zones (4), terrain (5), friends (6), packed so
    /// that integer order is the priority order.
    #[inline(always)]
    fn step_key(&self, cell: usize, step: u16) -> u64 {
        let zone = self.fields.cells[cell].has(CellFacts::ZONE) as u64;
        let friends = self.friends_at(cell) as u64;
        (zone << 48) | ((step as u64) << 16) | friends
    }

    /// Hard filters of priorities 1 and 3 for a step from `from` into `to`.
    /// `None` if illegal, else the step cost.
    #[inline]
    fn legal_step(&self, from: usize, to: usize, dir: Dir, start_behind: bool) -> Option<u16> {
        let (a, b) = (self.fields.cells[from], self.fields.cells[to]);
        if b.has(CellFacts::ENEMY) || b.dist < a.dist || (b.has(CellFacts::BEHIND) && !start_behind) {
            return None;
        }
        let cost = self.grid.step_cost(self.arm(), from, dir);
        (cost != BLOCKED).then_some(cost)
    }

    /// A step off the map from the edge hex `from` (border cell `to`) is
    /// legal under priorities 1 and 3; returns the edge it crosses.
    fn exit_step(&self, from: usize, to: usize, here: Offset, dir: Dir, start_behind: bool) -> Option<Edge> {
        let f = self.fields;
        if f.dist[to] < f.dist[from] || (f.behind[to] && !start_behind) {
            return None;
        }
        Edge::crossed_by(dir, here, self.grid.width, self.grid.height)
    }

    /// Priority 2: strictly further from the nearest enemy, and no closer to
    /// any enemy that was within the radius at the start.
    fn ends_further(&self, end: Offset, near: &[Near]) -> bool {
        let (d0, d1) = (self.fields.dist[self.grid.idx(self.start)], self.fields.dist[self.grid.idx(end)]);
        if !(d0 == FAR || d1 > d0) {
            return false;
        }
        let (x, z) = cube(end);
        near.iter().all(|n| {
            let (dx, dz) = (x - n.x, z - n.z);
            dx.abs().max(dz.abs()).max((dx + dz).abs()) >= n.d
        })
    }

    /// Ordering of legal end hexes: path cost, then refuge (7), then our
    /// tie-breaks (nearest own rear, furthest from the enemy).
    fn end_key(&self, cost: u64, end: Offset) -> EndKey {
        let i = self.grid.idx(end);
        // Flipping the sign bit keeps the order of the signed distance.
        let half = self.grid.edge_half_distance(self.own_rear, end) as u32 ^ (1 << 31);
        ((cost as u128) << 64)
            | ((!self.grid.refuge[i] as u128) << 48)
            | ((half as u128) << 16)
            | (u16::MAX - self.fields.dist[i]) as u128
    }

    /// Off-map exits: across the side's own rear edge first, then the
    /// cheapest path.
    fn exit_key(&self, cost: u64, edge: Edge) -> ExitKey {
        (edge != self.own_rear, cost)
    }

    /// Fills `near` with the enemies within the radius of the start (a
    /// buffer kept by the planner, so no allocation per move).
    fn near_enemies(&self, near: &mut Vec<Near>) {
        near.clear();
        let start = self.start;
        self.fields.enemies_within(start, self.enemy_radius, |e| {
            let (x, z) = cube(e);
            near.push(Near { x, z, d: start.distance(e) as i32 });
        });
        // A stack of enemies is one hex to keep away from.
        near.sort_unstable_by_key(|n| (n.x, n.z));
        near.dedup_by_key(|n| (n.x, n.z));
    }
}

/// An enemy within the radius at the start of a rout (priority 2): its cube
/// coordinates and its distance from the start, worked out once per move
/// because every candidate end hex is tested against every such enemy.
#[derive(Clone, Copy, Debug, Default)]
struct Near {
    x: i32,
    z: i32,
    d: i32,
}

/// Cube x and z of an offset hex (CONTRACT.md's distance formula).
#[inline]
fn cube(o: Offset) -> (i32, i32) {
    (o.c, o.r - (o.c - (o.c & 1)) / 2)
}

/// Reusable scratch space for rout moves (no allocation per move once warm).
#[derive(Clone, Debug, Default)]
pub struct RoutPlanner {
    radius: i32,
    side: i32,
    layer: usize,
    /// Per window hex, the cost of the best path so far of `k` hexes, for
    /// two layers at a time (`k` even, then odd): a layer's costs are never
    /// read once the next one is done. An entry is [`NONE`] until reached,
    /// and is set back to NONE as its layer is left, so no stamp is needed.
    best: Vec<u64>,
    /// Per window hex, in two rows like `best`: how many of the last hexes
    /// of the best path so far share its end's enemy distance (the only
    /// ones a step that keeps the distance could revisit).
    runs: Vec<u8>,
    /// Per (hexes moved, window hex): the window hex before it on its best
    /// path. Read only for states reached in this move.
    parent: Vec<u16>,
    /// Per window hex: its outgoing steps (see [`Out`]), valid when its
    /// stamp is this move's generation.
    outs: Vec<Out>,
    out_stamp: Vec<u32>,
    generation: u32,
    /// Per window hex: its padded grid index less the window corner's
    /// (fixed for a window size and grid width, `win_pw`), and its column
    /// and row in the window; so a state needs no more than its window hex,
    /// and finding its place needs no division.
    win_off: Vec<i32>,
    win_pw: i32,
    win_cr: Vec<(u16, u16)>,
    /// The states (window hexes) of layers `k` and `k + 1`, in the order
    /// first reached (which sets the tie-breaks), in two alternating rows
    /// of `layer + 1` slots: one spare, so that a step may write its state
    /// unconditionally and count it only if new. `count` says how many of
    /// each row are set.
    nodes: Vec<u16>,
    count: [usize; 2],
    ends: Vec<(EndKey, u16)>,
    near: Vec<Near>,
    /// Nodes visited by the exact fallback search in the last move (for tests).
    pub fallback_nodes: usize,
}

const NONE: u64 = u64::MAX;

/// A window hex's outgoing steps, worked out once per move however many
/// layers it appears in: per side, the step key and the window hex across;
/// and bit masks of the legal sides, the sides off the map, and the legal
/// sides that keep the enemy distance unchanged.
#[derive(Clone, Copy, Debug, Default)]
struct Out {
    key: [u64; 6],
    to: [u16; 6],
    legal: u8,
    exits: u8,
    same: u8,
}

/// Node budget of the exact fallback search.
const FALLBACK_BUDGET: usize = 400_000;

/// Is window hex `l`, at the enemy distance of (`k`, `u`), on the best
/// path to (`k`, `u`)? Only the path's last `run` hexes are at that
/// distance (distances never fall along a path), and `u` is not `l`, so
/// only the `run - 1` before it are looked at. `parent` must hold layers
/// `0..=k`.
fn on_path(parent: &[u16], layer: usize, mut k: usize, mut u: u16, l: u16, run: u8) -> bool {
    for _ in 1..run {
        u = parent[k * layer + u as usize];
        k -= 1;
        if u == l {
            return true;
        }
    }
    false
}

impl RoutPlanner {
    pub fn new() -> Self {
        Self::default()
    }

    fn prepare(&mut self, radius: i32) {
        if radius != self.radius || self.parent.is_empty() {
            self.radius = radius;
            self.side = 2 * radius + 1;
            self.layer = (self.side * self.side) as usize;
            let n = self.layer * (radius as usize + 1);
            self.best = vec![NONE; 2 * self.layer];
            self.runs = vec![0; 2 * self.layer];
            self.parent = vec![0; n];
            self.outs = vec![Out::default(); self.layer];
            self.win_cr =
                (0..self.side * self.side).map(|l| ((l % self.side) as u16, (l / self.side) as u16)).collect();
            self.win_pw = 0;
            self.out_stamp = vec![0; self.layer];
            self.generation = 0;
            self.nodes = vec![0; 2 * (self.layer + 1)];
        } else {
            // The last move left its final layer's costs set; unset them
            // (the earlier layers were unset as the search left them).
            for row in 0..2 {
                for &l in &self.nodes[row * (self.layer + 1)..][..self.count[row]] {
                    self.best[row * self.layer + l as usize] = NONE;
                }
            }
        }
        self.count = [0; 2];
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.out_stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
    }

    #[inline]
    fn local(&self, start: Offset, o: Offset) -> Option<u16> {
        let (dc, dr) = (o.c - start.c + self.radius, o.r - start.r + self.radius);
        (dc >= 0 && dr >= 0 && dc < self.side && dr < self.side).then(|| (dr * self.side + dc) as u16)
    }

    #[inline]
    fn global(&self, start: Offset, l: u16) -> Offset {
        let (dc, dr) = self.win_cr[l as usize];
        Offset::new(start.c + dc as i32 - self.radius, start.r + dr as i32 - self.radius)
    }

    fn path_to(&self, start: Offset, k: usize, l: u16) -> Vec<Offset> {
        let mut path = Vec::with_capacity(k + 1);
        let (mut k, mut l) = (k, l);
        loop {
            path.push(self.global(start, l));
            if k == 0 {
                break;
            }
            l = self.parent[k * self.layer + l as usize];
            k -= 1;
        }
        path.reverse();
        path
    }

    /// Plans one rout move.
    pub fn plan(&mut self, q: &RoutQuery) -> RoutPlan {
        let hexes = q.hexes.max(1) as usize;
        self.prepare(hexes as i32);
        self.fallback_nodes = 0;
        let grid = q.grid;
        let f = q.fields;
        let cells = &f.cells[..];
        let steps = grid.step_costs(q.arm());
        let start_cell = grid.idx(q.start);
        let start_behind = f.behind[start_cell];
        // Priorities 1 and 3 as one bit test on the hex entered: never an
        // enemy's, and behind enemy lines only for a unit that starts there.
        let forbidden = CellFacts::ENEMY | if start_behind { 0 } else { CellFacts::BEHIND };
        let Some(centre) = self.local(q.start, q.start) else { return RoutPlan::Surrender };
        let layer = self.layer;
        let generation = self.generation;
        let side = self.side;
        if self.win_pw != grid.pw {
            self.win_pw = grid.pw;
            self.win_off = (0..side * side).map(|l| l / side * grid.pw + l % side).collect();
        }
        // The window's corner, which may lie outside the padded grid; every
        // hex a state reaches or looks at lies inside it.
        let corner = start_cell as i64 - (self.radius * grid.pw + self.radius) as i64;
        let corner_par = ((q.start.c - self.radius) & 1) as u8;
        // Neighbour offsets by column parity: within the window every state
        // lies at most k <= hexes from the start, so its neighbours are still
        // inside the window and inside the padded grid; no bounds checks.
        let mut local_step = [[0i32; 6]; 2];
        let mut global_step = [[0i32; 6]; 2];
        for (p, (ls, gs)) in local_step.iter_mut().zip(global_step.iter_mut()).enumerate() {
            for dir in Dir::ALL {
                let o = Offset::new(p as i32, 1).neighbour(dir);
                let (dc, dr) = (o.c - p as i32, o.r - 1);
                ls[dir.index()] = dr * side + dc;
                gs[dir.index()] = dr * grid.pw + dc;
            }
        }
        self.best[centre as usize] = 0;
        self.runs[centre as usize] = 1;
        self.parent[centre as usize] = centre;
        self.nodes[0] = centre;
        self.count[0] = 1;
        let mut exit: Option<(ExitKey, usize, u16, Edge)> = None;

        for k in 0..hexes {
            let (even, odd_layer) = self.best.split_at_mut(layer);
            let (cur, nxt) = if k & 1 == 0 { (even, odd_layer) } else { (odd_layer, even) };
            let (even, odd_layer) = self.runs.split_at_mut(layer);
            let (cur_runs, nxt_runs) = if k & 1 == 0 { (even, odd_layer) } else { (odd_layer, even) };
            let (even, odd_layer) = self.nodes.split_at_mut(layer + 1);
            let (frontier, next) = if k & 1 == 0 { (even, odd_layer) } else { (odd_layer, even) };
            let frontier = &frontier[..self.count[k & 1]];
            let mut reached = 0;
            let (done, later) = self.parent.split_at_mut((k + 1) * layer);
            let next_parent = &mut later[..layer];
            for &u in frontier {
                let ci = u as usize;
                // Frontier states are always set this move.
                let cost_u = cur[ci];
                if self.out_stamp[ci] != generation {
                    self.out_stamp[ci] = generation;
                    let gu = (corner + self.win_off[ci] as i64) as usize;
                    let odd = ((self.win_cr[ci].0 & 1) as u8 ^ corner_par) as usize;
                    let a = cells[gu];
                    let o = &mut self.outs[ci];
                    (o.same, o.legal, o.exits) = (0, 0, 0);
                    for d in 0..6 {
                        let gv = (gu as i32 + global_step[odd][d]) as usize;
                        let b = cells[gv];
                        if !b.has(CellFacts::ON_MAP) {
                            o.exits |= 1 << d;
                            continue;
                        }
                        if b.bits & forbidden != 0 || b.dist < a.dist {
                            continue;
                        }
                        let step = steps[gu * 6 + d];
                        if step == BLOCKED {
                            continue;
                        }
                        o.legal |= 1 << d;
                        if b.dist == a.dist {
                            o.same |= 1 << d;
                        }
                        o.key[d] = q.step_key(gv, step);
                        o.to[d] = (ci as i32 + local_step[odd][d]) as u16;
                    }
                }
                let o = &self.outs[ci];
                // Off-map steps first (rare: only on the map's edge hexes).
                let mut exits = o.exits;
                while exits != 0 {
                    let d = exits.trailing_zeros() as usize;
                    exits &= exits - 1;
                    // Stepping off the map with hexes still to move.
                    let gu = (corner + self.win_off[ci] as i64) as usize;
                    let odd = ((self.win_cr[ci].0 & 1) as u8 ^ corner_par) as usize;
                    let gv = (gu as i32 + global_step[odd][d]) as usize;
                    if let Some(edge) = q.exit_step(gu, gv, grid.offset(gu), Dir::ALL[d], start_behind) {
                        let key = q.exit_key(cost_u, edge);
                        if exit.as_ref().is_none_or(|e| key < e.0) {
                            exit = Some((key, k, u, edge));
                        }
                    }
                }
                // Then the legal steps, by bit mask rather than by testing
                // all six sides.
                let (mut legal, same, run) = (o.legal, o.same, cur_runs[ci]);
                while legal != 0 {
                    let d = legal.trailing_zeros() as usize;
                    legal &= legal - 1;
                    let lv = o.to[d];
                    let cost_v = cost_u + o.key[d];
                    let old = nxt[lv as usize];
                    // A step that keeps the enemy distance may return to a
                    // hex of the path, so it is checked; a strictly further
                    // one cannot (distances never fall along a path).
                    let same_d = same & (1 << d) != 0;
                    if cost_v >= old || (same_d && on_path(done, layer, k, u, lv, run)) {
                        continue;
                    }
                    nxt_runs[lv as usize] = if same_d { run + 1 } else { 1 };
                    next[reached] = lv;
                    reached += (old == NONE) as usize;
                    nxt[lv as usize] = cost_v;
                    next_parent[lv as usize] = u;
                }
            }
            // This layer's costs are not read again: unset them for layer
            // k + 2, which reuses their row.
            for &l in frontier {
                cur[l as usize] = NONE;
            }
            self.count[k & 1] = 0;
            self.count[(k + 1) & 1] = reached;
        }

        // Choose the end hex among full moves: the best key whose end also
        // satisfies priority 2 (checked lazily, best first).
        let mut near = std::mem::take(&mut self.near);
        q.near_enemies(&mut near);
        let mut ends = std::mem::take(&mut self.ends);
        ends.clear();
        let last = &self.best[(hexes & 1) * layer..][..layer];
        // Only ends of the least cost left are ever compared beyond their
        // cost, so the rest of a key (priority 7 and the tie-breaks) is
        // worked out for a whole cost group when it first comes up; until
        // then a key's low half is PENDING, above any worked-out one.
        const PENDING: u128 = u64::MAX as u128;
        for &l in &self.nodes[(hexes & 1) * (layer + 1)..][..self.count[hexes & 1]] {
            ends.push(((last[l as usize] as u128) << 64 | PENDING, l));
        }
        let mut chosen = None;
        while let Some((i, &(key, l))) = ends.iter().enumerate().min_by(|a, b| a.1.cmp(b.1)) {
            if key & PENDING == PENDING {
                let cost = (key >> 64) as u64;
                for e in ends.iter_mut().filter(|e| e.0 >> 64 == cost as u128) {
                    e.0 = q.end_key(cost, self.global(q.start, e.1));
                }
                continue;
            }
            if q.ends_further(self.global(q.start, l), &near) {
                chosen = Some(l);
                break;
            }
            ends.swap_remove(i);
        }
        self.ends = ends;
        let plan = if let Some(l) = chosen {
            RoutPlan::Full(self.path_to(q.start, hexes, l))
        } else if let Some(plan) = self.exact(q, hexes, &near) {
            // The layered search forbids revisits only along each cell's
            // best path; before giving up on a full move, it searches simple
            // paths exactly.
            plan
        } else if let Some((_, k, u, edge)) = exit {
            RoutPlan::OffMap(self.path_to(q.start, k, u), edge)
        } else {
            RoutPlan::Surrender
        };
        self.near = near;
        plan
    }

    /// Exhaustive search over simple paths (bounded by a node budget):
    /// returns a full move if one exists, or the best off-map exit.
    fn exact(&mut self, q: &RoutQuery, hexes: usize, near: &[Near]) -> Option<RoutPlan> {
        struct Search<'q, 'a> {
            q: &'q RoutQuery<'a>,
            hexes: usize,
            near: &'q [Near],
            start_behind: bool,
            path: Vec<Offset>,
            best_full: Option<(EndKey, Vec<Offset>)>,
            best_exit: Option<(ExitKey, Vec<Offset>, Edge)>,
            nodes: usize,
        }
        impl Search<'_, '_> {
            fn go(&mut self, cost: u64) {
                self.nodes += 1;
                if self.nodes > FALLBACK_BUDGET {
                    return;
                }
                let grid = self.q.grid;
                let Some(&here) = self.path.last() else { return };
                let k = self.path.len() - 1;
                if k == self.hexes {
                    if self.q.ends_further(here, self.near) {
                        let key = self.q.end_key(cost, here);
                        if self.best_full.as_ref().is_none_or(|b| key < b.0) {
                            self.best_full = Some((key, self.path.clone()));
                        }
                    }
                    return;
                }
                let iu = grid.idx(here);
                for dir in Dir::ALL {
                    let next = here.neighbour(dir);
                    let iv = grid.idx(next);
                    if !grid.on_map[iv] {
                        if let Some(edge) = self.q.exit_step(iu, iv, here, dir, self.start_behind) {
                            let key = self.q.exit_key(cost, edge);
                            if self.best_exit.as_ref().is_none_or(|b| key < b.0) {
                                self.best_exit = Some((key, self.path.clone(), edge));
                            }
                        }
                        continue;
                    }
                    if self.path.contains(&next) {
                        continue;
                    }
                    let Some(step) = self.q.legal_step(iu, iv, dir, self.start_behind) else { continue };
                    self.path.push(next);
                    self.go(cost + self.q.step_key(iv, step));
                    self.path.pop();
                }
            }
        }
        let mut s = Search {
            q,
            hexes,
            near,
            start_behind: q.fields.behind[q.grid.idx(q.start)],
            path: vec![q.start],
            best_full: None,
            best_exit: None,
            nodes: 0,
        };
        s.go(0);
        self.fallback_nodes = s.nodes;
        if let Some((_, path)) = s.best_full {
            return Some(RoutPlan::Full(path));
        }
        s.best_exit.map(|(_, path, edge)| RoutPlan::OffMap(path, edge))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::Edge;
    use crate::labataille::HexState;
    use crate::rules::Rules;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn cube_coordinates_give_the_hex_distance() {
        for (a, b) in [((0, 0), (5, 3)), ((1, 1), (4, 0)), ((-1, 2), (3, 7)), ((7, -1), (2, 2)), ((3, 3), (3, 3))] {
            let (a, b) = (Offset::new(a.0, a.1), Offset::new(b.0, b.1));
            let ((ax, az), (bx, bz)) = (cube(a), cube(b));
            let (dx, dz) = (ax - bx, az - bz);
            assert_eq!(dx.abs().max(dz.abs()).max((dx + dz).abs()) as u32, a.distance(b), "{a} {b}");
        }
    }

    /// A battle on a generated map: the rout benchmark's ranks of routers
    /// south of an enemy line, plus units of both sides scattered at random
    /// (so that some routers end up cornered, at the edge or behind lines).
    fn battle(w: i32, h: i32, routers: usize, seed: u64) -> (Grid, Board) {
        let map = crate::generate::terrain(w, h, seed);
        let mut board = crate::generate::rout_board(&map, routers);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for i in 0..routers / 4 {
            let side = rng.random_range(0..2);
            let mut u = board.units[board.units.len() - 1].clone();
            u.id = format!("x{i}");
            u.side = side;
            u.arm = Arm::ALL[rng.random_range(0..3)];
            u.at = Some(Offset::new(rng.random_range(0..w), rng.random_range(0..h)));
            u.state = if side == 0 { HexState::Routed } else { HexState::GoodOrder };
            u.facing = Dir::ALL[rng.random_range(0..6)];
            board.units.push(u);
        }
        (Grid::new(&map, &Rules::default()), board)
    }

    fn occupancy(grid: &Grid, board: &Board) -> Occupancy {
        let mut occ = Occupancy::new(grid);
        for (i, u) in board.units.iter().enumerate() {
            if let Some(at) = u.at {
                occ.insert(grid.idx(at), i, u.side);
            }
        }
        occ
    }

    fn query<'a>(
        grid: &'a Grid,
        fields: &'a SideFields,
        occupancy: &'a Occupancy,
        board: &'a Board,
        unit: usize,
        hexes: u32,
    ) -> Option<RoutQuery<'a>> {
        let start = board.units[unit].at?;
        (board.units[unit].side == 0 && board.units[unit].state == HexState::Routed).then_some(RoutQuery {
            grid,
            fields,
            occupancy,
            board,
            unit,
            start,
            hexes,
            enemy_radius: 15,
            own_rear: Edge::South,
        })
    }

    /// The planner keeps scratch state between moves (cost rows unset as
    /// it goes, stamps, per-window tables); a planner reused across moves
    /// of varying length on maps of varying width must plan exactly as a
    /// fresh one does.
    #[test]
    fn a_reused_planner_plans_exactly_as_a_fresh_one() {
        let mut reused = RoutPlanner::new();
        let mut plans = 0;
        for (w, h, seed) in [(60, 50, 1), (41, 60, 2), (60, 50, 3)] {
            let (grid, board) = battle(w, h, 150, seed);
            let fields = SideFields::build(&grid, &board, 0, Edge::North);
            let occ = occupancy(&grid, &board);
            for unit in 0..board.units.len() {
                let hexes = [10, 10, 4, 10, 1, 7][unit % 6];
                let Some(q) = query(&grid, &fields, &occ, &board, unit, hexes) else { continue };
                assert_eq!(reused.plan(&q), RoutPlanner::new().plan(&q), "unit {unit} on map {seed}");
                plans += 1;
            }
        }
        assert!(plans > 400);
    }

    /// End keys are packed into one integer; its order must be the
    /// lexicographic order of (cost, not a refuge, half hexes from the own
    /// rear edge, closeness to the enemy), negative edge distances included
    /// (the border ring).
    #[test]
    fn packed_end_keys_order_as_their_parts() {
        let map = crate::generate::terrain(30, 20, 5);
        let grid = Grid::new(&map, &Rules::default());
        let board = crate::generate::rout_board(&map, 20);
        let fields = SideFields::build(&grid, &board, 0, Edge::North);
        let occ = occupancy(&grid, &board);
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut keyed = Vec::new();
        for _ in 0..2000 {
            let own_rear = [Edge::North, Edge::South, Edge::East, Edge::West][rng.random_range(0..4)];
            let Some(q) = query(&grid, &fields, &occ, &board, board.units.len() - 1, 10) else { panic!("a router") };
            let q = RoutQuery { own_rear, ..q };
            let end = Offset::new(rng.random_range(-1..=30), rng.random_range(-1..=20));
            let cost = [0, 1, 1 << 16, u64::MAX / 2, rng.random()][rng.random_range(0..5)];
            let i = grid.idx(end);
            let parts = (cost, !grid.refuge[i], grid.edge_half_distance(own_rear, end), u16::MAX - fields.dist[i]);
            keyed.push((parts, q.end_key(cost, end)));
        }
        for a in &keyed {
            for b in keyed.iter().step_by(7) {
                assert_eq!(a.0.cmp(&b.0), a.1.cmp(&b.1), "{:?} vs {:?}", a.0, b.0);
            }
        }
    }
}
