//! Bounds on a rout move, so the programme drops the walks that cannot
//! win: a quick greedy move in hand, the terrain's lower bounds on what
//! the rest of a walk can cost, and whether any refuge is a possible end.

use crate::hex::{Dir, Edge, Offset};
use crate::labataille::fields::{CellFacts, FAR};
use crate::labataille::grid::{BLOCKED, Grid, StepBounds};
use crate::labataille::rout::keys::{EndKey, Rank, TERRAIN_AT};
use crate::labataille::rout::planner::RoutPlanner;
use crate::labataille::rout::query::{Near, RoutQuery};
use crate::rules::RoutRefuge;

/// What a greedy step is scored by: its step key plus the least the
/// remaining hexes could cost from there, to any end (`least`) or to a
/// refuge end (`refuge`, `u64::MAX` if none is in reach), and its half hexes
/// from the own rear edge (sign bit flipped, so unsigned order is the
/// signed order).
#[derive(Clone, Copy, Debug)]
struct GreedyStep {
    least: u64,
    refuge: u64,
    half: u64,
}

/// A full move already in hand (found greedily) and the lower bounds that
/// show which walks cannot beat it: a walk is dropped when even the least
/// its remaining hexes could cost, with the best end it could reach, comes
/// after that move in the preferences' order. The move itself always
/// passes, and so does the best simple path, so the answer is unchanged.
pub(super) struct Cut<'a> {
    pub(super) grid: &'a Grid,
    pub(super) bounds: &'a StepBounds,
    pub(super) own_rear: Edge,
    pub(super) order: Rank,
    /// Whether any refuge hex could be a legal end (see
    /// [`RoutPlanner::refuge_in_reach`]); if none, no walk ends in one.
    pub(super) refuges: bool,
    /// The move's rank (the top half of its end key) and its tie-breaks
    /// (the rest).
    pub(super) rank: u64,
    pub(super) low: u64,
}

impl Cut<'_> {
    /// No walk on from padded cell `cell`, there at `cost` with `r` hexes
    /// still to move, can beat the move in hand. Any end it reaches is in
    /// the open at no less than the least cost, or a refuge at no less than
    /// the least cost of ending in one: the better of the two ranks bounds
    /// every end.
    #[inline(always)]
    pub(super) fn hopeless(&self, cost: u64, cell: usize, r: usize) -> bool {
        let [least, refuge] = self.bounds.cells[cell * self.bounds.steps + r];
        let mut best = self.order.of(cost + ((least as u64) << TERRAIN_AT), false);
        if self.refuges && refuge != u16::MAX {
            best = best.min(self.order.of(cost + ((refuge as u64) << TERRAIN_AT), true));
        }
        if best != self.rank {
            return best > self.rank;
        }
        self.hopeless_at_equal_rank(cell, r)
    }

    /// At an equal rank our tie-breaks decide: nearness to the own rear
    /// edge first, which a hex step changes by at most two half hexes.
    #[inline(never)]
    fn hopeless_at_equal_rank(&self, cell: usize, r: usize) -> bool {
        let half = self.grid.edge_half_distance(self.own_rear, self.grid.offset(cell)) - 2 * r as i32;
        let low = (((half as u32) ^ (1 << 31)) as u64) << 16;
        low > self.low
    }
}

/// The guesses tried as bounds where a refuge end ranks first: the least
/// terrain cost of ending in a refuge, then that plus 1 MP, plus 3 MP (in
/// hundredths; see [`RoutPlanner::plan`]).
pub(super) const GUESS_SLACK: [u64; 3] = [0, 100, 300];

impl RoutPlanner {
    /// A quick full move that bounds the programme: from the start, each
    /// step is the legal one into a hex not yet on the path that is best by
    /// `score` (of a [`GreedyStep`]). Its end key if it makes a full move
    /// that also meets the end limit (it need not be the best; it only
    /// bounds); the path is left in `path`.
    fn greedy(
        q: &RoutQuery,
        bounds: &StepBounds,
        forbidden: u8,
        hexes: usize,
        near: &[Near],
        path: &mut Vec<usize>,
        score: impl Fn(GreedyStep) -> (u64, u64),
    ) -> Option<EndKey> {
        let grid = q.grid;
        path.clear();
        let (mut at, mut here) = (grid.idx(q.start), q.start);
        path.push(at);
        let mut cost = 0u64;
        for j in 0..hexes {
            let r = hexes - j - 1;
            let mut best: Option<((u64, u64), usize, u64, Offset)> = None;
            for d in Dir::ALL {
                let Some((to, key)) = Self::fresh_step(q, forbidden, at, d, path) else { continue };
                let [least, refuge] = bounds.cells[to * bounds.steps + r];
                let least = key + ((least as u64) << TERRAIN_AT);
                let refuge = if refuge == u16::MAX { u64::MAX } else { key + ((refuge as u64) << TERRAIN_AT) };
                // Flipping the sign bit keeps the order of the signed distance.
                let there = here.neighbour(d);
                let half = (grid.edge_half_distance(q.own_rear, there) as u32 ^ (1 << 31)) as u64;
                let s = score(GreedyStep { least, refuge, half });
                if best.is_none_or(|b| s < b.0) {
                    best = Some((s, to, key, there));
                }
            }
            let (_, to, key, there) = best?;
            cost += key;
            path.push(to);
            (at, here) = (to, there);
        }
        q.ends_further(here, near).then(|| q.end_key(cost, here))
    }

    /// A legal step from padded cell `at` across `d` into a hex not yet on
    /// `path`: the cell and its step key.
    #[inline]
    fn fresh_step(q: &RoutQuery, forbidden: u8, at: usize, d: Dir, path: &[usize]) -> Option<(usize, u64)> {
        let cells = &q.fields.cells;
        let to = q.grid.neighbour(at, d)?;
        let (a, b, step) = (cells[at], cells[to], q.grid.step_cost(q.arm(), at, d));
        let legal = b.has(CellFacts::ON_MAP) && b.bits & forbidden == 0 && b.dist >= a.dist && step != BLOCKED;
        (legal && !path.contains(&to)).then(|| (to, q.step_key(to, step)))
    }

    /// A greedy move (see [`Self::greedy`]): where a refuge end ranks first
    /// and one lies within reach, the cheapest into a refuge; otherwise
    /// (or if that ends in the open) the cheapest by the bounds, or if that
    /// fails the end limit (straying towards an enemy), the straightest
    /// towards the own rear edge. The path is left in `greedy`.
    pub(super) fn bound_move(
        &mut self,
        q: &RoutQuery,
        bounds: &StepBounds,
        forbidden: u8,
        hexes: usize,
        near: &[Near],
        refuges: bool,
    ) -> Option<EndKey> {
        let mut path = std::mem::take(&mut self.greedy);
        let order = Rank(q.refuge);
        let into_refuge = (q.refuge == RoutRefuge::Destination && refuges)
            .then(|| Self::greedy(q, bounds, forbidden, hexes, near, &mut path, |s| (s.refuge, s.half)))
            .flatten()
            .filter(|&key| order.refuge((key >> 64) as u64));
        // The straight one only where the cheapest fails the end limit (it
        // seldom bounds better, and costs as much again); each overwrites
        // the path of the one before, which failed.
        let best = into_refuge
            .or_else(|| Self::greedy(q, bounds, forbidden, hexes, near, &mut path, |s| (s.least, s.half)))
            .or_else(|| Self::greedy(q, bounds, forbidden, hexes, near, &mut path, |s| (s.half, s.least)));
        self.greedy = path;
        best
    }

    /// Whether any woods or built-up hex within the move's reach could be
    /// its legal end: not an enemy's, not behind the lines (unless the move
    /// starts there), and meeting the end limit. Most moves have none, and
    /// then no walk need be kept for the refuge it might reach.
    pub(super) fn refuge_in_reach(&self, q: &RoutQuery, hexes: usize, forbidden: u8, near: &[Near]) -> bool {
        let grid = q.grid;
        let (h, s) = (hexes as i32, q.start);
        let d0 = q.fields.cells[grid.idx(s)].dist;
        for r in (s.r - h).max(0)..=(s.r + h).min(grid.height - 1) {
            for c in (s.c - h).max(0)..=(s.c + h).min(grid.width - 1) {
                let o = Offset::new(c, r);
                let i = grid.idx(o);
                if !grid.refuge[i] {
                    continue;
                }
                let cell = q.fields.cells[i];
                if cell.bits & forbidden == 0
                    && (cell.dist > d0 || d0 == FAR)
                    && s.distance(o) as usize <= hexes
                    && q.ends_further(o, near)
                {
                    return true;
                }
            }
        }
        false
    }
}
