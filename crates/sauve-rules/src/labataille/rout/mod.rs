//! La Bataille rout move (the 10-hex rule, RULES.md 1.3).
//!
//! A routing unit moves exactly `rout_hexes` hexes; terrain does not shorten
//! the move. First the hard limits, which a path must keep to be a rout path
//! at all:
//!
//! - never into an enemy-occupied hex or prohibited terrain (a river without
//!   a bridge, a hexside its arm cannot cross), and never a step that brings
//!   it closer to the nearest enemy;
//! - end strictly further from the nearest enemy than it started, and no
//!   closer to any enemy within `rout_enemy_radius` hexes of its start
//!   (house default);
//! - never into hexes behind enemy lines: nearer the enemy's rear edge than
//!   the nearest enemy unit (house default), unless it starts there.
//!
//! Then the preferences among the legal paths, in the order the source
//! gives them:
//!
//! 1. a woods or built-up end hex, when any legal path ends in one (house
//!    default `rout_refuge: Destination`; with `TieBreak` this comes after
//!    2 and 3);
//! 2. the least total terrain cost along the path;
//! 3. the fewest hexes holding friendly units;
//! 4. the fewest hexes in enemy zones of influence (the source subordinates
//!    this one to all the others);
//! 5. our tie-breaks: the end hex nearest its own rear edge, then the end
//!    hex furthest from the enemy, then a fixed order of hexes.
//!
//! If no full move exists but the map edge can be reached with hexes to
//! spare, the unit routs off the map; otherwise it surrenders.
//!
//! Technique: the limits are filters, 2-4 an additive cost, 1 and 5 depend
//! only on the end hex. So a layered dynamic programme over (hexes moved,
//! hex) inside the window around the start finds the cheapest walks to every
//! possible end hex at once, reading the shared per-side [`SideFields`]
//! instead of searching the map per unit.
//!
//! A path may not visit a hex twice, but the programme counts walks, which
//! may (only along hexes at one enemy distance, since a step never brings the
//! router closer). It keeps, per state, the two cheapest walks that arrive
//! from different hexes, so no walk steps straight back where it came from;
//! its costs are lower bounds on every simple path's. When the best end's
//! walk is itself a simple path, it is the exact answer. Otherwise (a walk
//! round a triangle of hexes, say) a branch-and-bound search over simple
//! paths, backwards from the ends in order and cut by those bounds, finds the
//! exact best. A test checks the planner against brute force.

use crate::hex::{Dir, Edge, Offset};
use crate::labataille::Board;
use crate::labataille::fields::{CellFacts, FAR, SideFields};
use crate::labataille::grid::{BLOCKED, Grid, Occupancy, StepBounds};
use crate::rules::{MAX_ROUT_HEXES, RoutRefuge};
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

/// Order of end hexes: the rank of preferences 1-4 (see [`Rank`]) in the
/// top half, then half hexes from the own rear edge and closeness to the
/// enemy (5); packed into one integer so that a comparison is cheap.
type EndKey = u128;
/// Order of off-map exits: not across the own rear edge, then path cost;
/// packed like [`EndKey`] (the rear flag above the cost).
type ExitKey = u128;

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
    /// Where the refuge preference ranks (`rules.rout_refuge`).
    pub refuge: RoutRefuge,
}

impl RoutQuery<'_> {
    fn arm(&self) -> Arm {
        self.board.units[self.unit].arm
    }

    #[inline(always)]
    fn friends_at(&self, cell: usize) -> bool {
        let side = self.board.units[self.unit].side;
        // Away from its own hex the unit is not among them, and one byte
        // answers for sides 0 and 1.
        if side <= 1 && cell != self.grid.idx(self.start) {
            return self.occupancy.side_present(cell, side);
        }
        // The occupancy's per-side tallies answer without touching the
        // stack or the units, except for a side past 1.
        self.occupancy.others_of_side(cell, side, self.unit).unwrap_or_else(|| {
            self.occupancy
                .at(cell)
                .iter()
                .any(|&u| u as usize != self.unit && self.board.units[u as usize].side == side)
        })
    }

    /// The additive part of the preferences for entering `cell` at `step`
    /// hundredths of an MP: terrain (2), friends (3), zones (4), packed so
    /// that integer order is the preference order (the lowest bits stay
    /// clear for the planner's [`FROM`]).
    #[inline(always)]
    fn step_key(&self, cell: usize, step: u16) -> u64 {
        let zone = self.fields.cells[cell].has(CellFacts::ZONE) as u64;
        let friends = self.friends_at(cell) as u64;
        ((step as u64) << TERRAIN_AT) | (friends << FRIENDS_AT) | (zone << ZONES_AT)
    }

    /// The hard limits on a step from `from` into `to` (enemies, prohibited
    /// ground, closer to the enemy, behind the lines).
    /// `None` if illegal, else the step cost. (The planner reads the same
    /// tests off the cell facts; the tests' reference search uses this.)
    #[cfg(test)]
    fn legal_step(&self, from: usize, to: usize, dir: Dir, start_behind: bool) -> Option<u16> {
        let (a, b) = (self.fields.cells[from], self.fields.cells[to]);
        if b.has(CellFacts::ENEMY) || b.dist < a.dist || (b.has(CellFacts::BEHIND) && !start_behind) {
            return None;
        }
        let cost = self.grid.step_cost(self.arm(), from, dir);
        (cost != BLOCKED).then_some(cost)
    }

    /// A step off the map from the edge hex `from` (border cell `to`) keeps
    /// the hard limits; returns the edge it crosses.
    fn exit_step(&self, from: usize, to: usize, here: Offset, dir: Dir, start_behind: bool) -> Option<Edge> {
        let f = self.fields;
        if f.dist[to] < f.dist[from] || (f.behind[to] && !start_behind) {
            return None;
        }
        Edge::crossed_by(dir, here, self.grid.width, self.grid.height)
    }

    /// The end limit: strictly further from the nearest enemy, and no closer
    /// to any enemy that was within the radius at the start.
    fn ends_further(&self, end: Offset, near: &[Near]) -> bool {
        let (d0, d1) = (self.fields.dist[self.grid.idx(self.start)], self.fields.dist[self.grid.idx(end)]);
        if !(d0 == FAR || d1 > d0) {
            return false;
        }
        let (x, z) = end.cube();
        near.iter().all(|n| {
            let (dx, dz) = (x - n.x, z - n.z);
            dx.abs().max(dz.abs()).max((dx + dz).abs()) >= n.d
        })
    }

    /// The rank of a path of cost `cost` ending in `end` (preferences 1-4).
    #[inline]
    fn rank(&self, cost: u64, end: Offset) -> u64 {
        Rank(self.refuge).of(cost, self.grid.refuge[self.grid.idx(end)])
    }

    /// Our tie-breaks for an end hex (5): nearest the own rear edge, then
    /// furthest from the enemy.
    #[inline]
    fn tie(&self, end: Offset) -> u64 {
        // Flipping the sign bit keeps the order of the signed distance.
        let half = self.grid.edge_half_distance(self.own_rear, end) as u32 ^ (1 << 31);
        ((half as u64) << 16) | (u16::MAX - self.fields.dist[self.grid.idx(end)]) as u64
    }

    /// Ordering of legal end hexes: the rank of preferences 1-4, then our
    /// tie-breaks.
    fn end_key(&self, cost: u64, end: Offset) -> EndKey {
        ((self.rank(cost, end) as u128) << 64) | self.tie(end) as u128
    }

    /// Off-map exits: across the side's own rear edge first, then the
    /// cheapest path.
    fn exit_key(&self, cost: u64, edge: Edge) -> ExitKey {
        ((edge != self.own_rear) as u128) << 64 | cost as u128
    }

    /// Fills `near` with the enemies within the radius of the start (a
    /// buffer kept by the planner, so no allocation per move).
    fn near_enemies(&self, near: &mut Vec<Near>) {
        near.clear();
        let start = self.start;
        self.fields.enemies_within(start, self.enemy_radius, |e| {
            let (x, z) = e.cube();
            near.push(Near { x, z, d: start.distance(e) as i32 });
        });
        // A stack of enemies is one hex to keep away from.
        near.sort_unstable_by_key(|n| (n.x, n.z));
        near.dedup_by_key(|n| (n.x, n.z));
    }
}

/// An enemy within the radius at the start of a rout (the end limit): its cube
/// coordinates and its distance from the start, worked out once per move
/// because every candidate end hex is tested against every such enemy.
#[derive(Clone, Copy, Debug, Default)]
struct Near {
    x: i32,
    z: i32,
    d: i32,
}

/// How preferences 1-4 rank a path, as one integer below 2^50: its cost
/// (terrain, friends, zones, packed as by [`RoutQuery::step_key`]) with
/// the end's refuge flag put in its place, above the cost for
/// `Destination`, between friends and zones for `TieBreak`.
#[derive(Clone, Copy, Debug)]
struct Rank(RoutRefuge);

/// Where the refuge flag sits in a rank, by rule.
const DESTINATION_AT: u32 = 49;
const TIE_BREAK_AT: u32 = 8;

impl Rank {
    #[inline(always)]
    fn of(self, cost: u64, refuge: bool) -> u64 {
        let (route, zones) = (cost >> FRIENDS_AT, (cost >> ZONES_AT) & 0xFF);
        let open = !refuge as u64;
        let flag = match self.0 {
            RoutRefuge::Destination => open << DESTINATION_AT,
            RoutRefuge::TieBreak => open << TIE_BREAK_AT,
        };
        flag | (route << 9) | zones
    }

    /// Whether a rank is that of a path ending in a refuge.
    #[inline(always)]
    fn refuge(self, rank: u64) -> bool {
        let at = match self.0 {
            RoutRefuge::Destination => DESTINATION_AT,
            RoutRefuge::TieBreak => TIE_BREAK_AT,
        };
        rank >> at & 1 == 0
    }
}

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

/// Reusable scratch space for rout moves (no allocation per move once warm).
#[derive(Clone, Debug, Default)]
pub struct RoutPlanner {
    radius: i32,
    side: i32,
    layer: usize,
    /// Per (hexes moved, window hex): the two cheapest walks there (see
    /// [`Walks`]). Unreached until a step reaches it; the states a move
    /// reached are unset when the next one starts, so no stamp is needed.
    walk: Vec<Walks>,
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
    /// Per layer (hexes moved), the states reached, in the order first
    /// reached (which sets the tie-breaks), in rows of `layer + 1` slots:
    /// one spare, so that a step may write its state unconditionally and
    /// count it only if new. `count` says how many of each row are set.
    nodes: Vec<u16>,
    count: Vec<usize>,
    ends: Vec<(EndKey, u16)>,
    /// Off-map steps found: key, hexes moved before the step, window hex,
    /// edge crossed.
    exits: Vec<(ExitKey, u16, u16, Edge)>,
    near: Vec<Near>,
    /// Per window hex: on the path being built (simplicity tests).
    on: Vec<bool>,
    /// The greedy move of the last plan (padded cells), if it found one.
    greedy: Vec<usize>,
    /// Run the whole programme, dropping no walks (tests compare the two).
    exhaustive: bool,
    /// States visited by the exact search in the last move (for tests and
    /// benchmarks); 0 when the cheapest walk was already a simple path.
    pub searched: usize,
    /// Hexes the programme took further in the last move (for tests and
    /// benchmarks: the cut shows here).
    pub expanded: usize,
}

const NONE: u64 = u64::MAX;
/// No window hex (the start's parent).
const NO_HEX: u16 = u16::MAX;

/// A walk is kept as one integer: its path cost, with the window hex it
/// came from in the low bits (the window of the rules' longest rout move,
/// [`MAX_ROUT_HEXES`]). Comparing two such integers orders walks by cost,
/// then by that hex, with one instruction.
const FROM_BITS: u32 = 14;
const FROM: u64 = (1 << FROM_BITS) - 1;
/// Where each part of a step key sits, in the preferences' order from the
/// top: terrain (hundredths of an MP, 32 bits), friends (up to 255 hexes),
/// zones (up to 255 hexes).
const ZONES_AT: u32 = FROM_BITS;
const FRIENDS_AT: u32 = ZONES_AT + 8;
const TERRAIN_AT: u32 = FRIENDS_AT + 8;
// Every window hex fits below `FROM` (which names none), a whole move's
// terrain, friends and zones fit their places, and a rank fits below the
// `Destination` refuge flag.
const _: () = {
    let side = 2 * MAX_ROUT_HEXES as u64 + 1;
    assert!(side * side < FROM);
    assert!(MAX_ROUT_HEXES < 1 << (FRIENDS_AT - ZONES_AT));
    assert!(MAX_ROUT_HEXES < 1 << (TERRAIN_AT - FRIENDS_AT));
    assert!(((MAX_ROUT_HEXES as u64) * (u16::MAX as u64)) < 1 << 32);
    assert!(TERRAIN_AT + 32 <= 63);
    assert!(TERRAIN_AT + 32 - FRIENDS_AT + 9 <= DESTINATION_AT);
};

#[inline(always)]
fn cost_of(walk: u64) -> u64 {
    walk & !FROM
}

#[inline(always)]
fn from_of(walk: u64) -> u16 {
    (walk & FROM) as u16
}

/// The two cheapest walks of exactly k legal steps from the start to a
/// hex that arrive from different hexes, and where each came from. A walk
/// never steps straight back to the hex it just left (it may come back
/// later), so no simple path to the hex is cheaper than `cost`, and none
/// that continues to hex `v` is cheaper than [`Walks::avoiding`]`(v)`:
/// its last step did not come from `v`, which it has not yet visited.
/// Both are packed with the hex they came from (see [`FROM`]).
#[derive(Clone, Copy, Debug)]
struct Walks {
    best: u64,
    also: u64,
}

impl Default for Walks {
    /// No walk: `NONE`, whose hex bits name no window hex.
    fn default() -> Self {
        Self { best: NONE, also: NONE }
    }
}

impl Walks {
    /// The cheapest walk here whose last step did not come from `v`, and
    /// the hex it came from.
    #[inline(always)]
    fn avoiding(&self, v: u16) -> u64 {
        if from_of(self.best) == v { self.also } else { self.best }
    }

    /// Whether a packed walk would be kept (it beats the second). Equal
    /// costs go to the lower window hex, so which walks are kept depends
    /// neither on the order hexes are taken in nor on which other walks the
    /// bound dropped.
    #[inline(always)]
    fn takes(&self, walk: u64) -> bool {
        walk < self.also
    }

    /// Offers a packed walk (each hex offers once per layer).
    #[inline(always)]
    fn offer(&mut self, walk: u64) {
        if walk < self.best {
            (self.also, self.best) = (self.best, walk);
        } else if walk < self.also {
            self.also = walk;
        }
    }
}

/// A window hex's outgoing steps, worked out once per move however many
/// layers it appears in: per side, the step key and the window hex across;
/// and bit masks of the legal sides and of the sides off the map.
#[derive(Clone, Copy, Debug, Default)]
struct Out {
    /// Eight slots for six sides, so that a side read off a bit mask of
    /// eight bits needs no bounds check.
    key: [u64; 8],
    to: [u16; 8],
    legal: u8,
    exits: u8,
}

/// A full move already in hand (found greedily) and the lower bounds that
/// show which walks cannot beat it: a walk is dropped when even the least
/// its remaining hexes could cost, with the best end it could reach, comes
/// after that move in the preferences' order. The move itself always
/// passes, and so does the best simple path, so the answer is unchanged.
struct Cut<'a> {
    grid: &'a Grid,
    bounds: &'a StepBounds,
    own_rear: Edge,
    order: Rank,
    /// Whether any refuge hex could be a legal end (see
    /// [`RoutPlanner::refuge_in_reach`]); if none, no walk ends in one.
    refuges: bool,
    /// The move's rank (the top half of its end key) and its tie-breaks
    /// (the rest).
    rank: u64,
    low: u64,
}

impl Cut<'_> {
    /// No walk on from padded cell `cell`, there at `cost` with `r` hexes
    /// still to move, can beat the move in hand. Any end it reaches is in
    /// the open at no less than the least cost, or a refuge at no less than
    /// the least cost of ending in one: the better of the two ranks bounds
    /// every end.
    #[inline(always)]
    fn hopeless(&self, cost: u64, cell: usize, r: usize) -> bool {
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
const GUESS_SLACK: [u64; 3] = [0, 100, 300];

/// State budget of the exact search of one move, a guard against a
/// pathological map: the generated battles of the tests stay far below it
/// (a test checks); past it the best path found so far stands.
const SEARCH_BUDGET: usize = 2_000_000;

/// The exact search: depth-first over simple paths, backwards from a
/// target state (an end hex after all the hexes, or an edge hex before an
/// off-map step) to the start, cut wherever the cheapest walk to the
/// current hex plus the path behind it cannot beat the best path found.
struct Back<'p> {
    walk: &'p [Walks],
    outs: &'p [Out],
    out_stamp: &'p [u32],
    generation: u32,
    win_cr: &'p [(u16, u16)],
    layer: usize,
    side: i32,
    corner_par: u8,
    /// Window column and row steps to each neighbour, by the neighbour's
    /// column parity on the map.
    towards: [[(i32, i32); 6]; 2],
    on: &'p mut [bool],
    /// The path so far, from the target back.
    path: Vec<u16>,
    best: Option<(u128, Vec<u16>)>,
    visited: usize,
}

impl Back<'_> {
    fn go(&mut self, v: u16, j: usize, behind: u64, key: &dyn Fn(u64) -> u128) {
        self.visited += 1;
        if j == 0 {
            // Only the start has a walk of no hexes.
            let k = key(behind);
            if self.best.as_ref().is_none_or(|b| k < b.0) {
                let mut path = self.path.clone();
                path.reverse();
                self.best = Some((k, path));
            }
            return;
        }
        if self.visited > SEARCH_BUDGET {
            return;
        }
        let (c, r) = self.win_cr[v as usize];
        let odd = ((c & 1) as u8 ^ self.corner_par) as usize;
        let mut steps = [(0u64, 0u16, 0u64); 6];
        let mut n = 0;
        for d in 0..6 {
            let (dc, dr) = self.towards[odd][d];
            let (uc, ur) = (c as i32 + dc, r as i32 + dr);
            if uc < 0 || ur < 0 || uc >= self.side || ur >= self.side {
                continue;
            }
            let u = (ur * self.side + uc) as usize;
            let w = self.walk[(j - 1) * self.layer + u].avoiding(v);
            if w == NONE || self.on[u] {
                continue;
            }
            let w = cost_of(w);
            // A hex never taken further had only walks the cut dropped (the
            // greedy move beats any path through it), and no steps worked
            // out. The step from u back into v crosses the opposite side.
            if self.out_stamp[u] != self.generation {
                continue;
            }
            let back = (d + 3) % 6;
            let out = &self.outs[u];
            if out.legal & (1 << back) == 0 {
                continue;
            }
            debug_assert_eq!(out.to[back], v);
            let bound = w + out.key[back] + behind;
            steps[n] = (bound, u as u16, out.key[back]);
            n += 1;
        }
        steps[..n].sort_unstable();
        for &(bound, u, step) in &steps[..n] {
            if self.best.as_ref().is_some_and(|b| key(bound) >= b.0) {
                break;
            }
            self.on[u as usize] = true;
            self.path.push(u);
            self.go(u, j - 1, behind + step, key);
            self.path.pop();
            self.on[u as usize] = false;
        }
    }
}

impl RoutPlanner {
    pub fn new() -> Self {
        Self::default()
    }

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
    fn bound_move(
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
    fn refuge_in_reach(&self, q: &RoutQuery, hexes: usize, forbidden: u8, near: &[Near]) -> bool {
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

    fn prepare(&mut self, radius: i32) {
        if radius != self.radius || self.walk.is_empty() {
            self.radius = radius;
            self.side = 2 * radius + 1;
            self.layer = (self.side * self.side) as usize;
            let layers = radius as usize + 1;
            self.walk = vec![Walks::default(); layers * self.layer];
            self.outs = vec![Out::default(); self.layer];
            self.win_cr =
                (0..self.side * self.side).map(|l| ((l % self.side) as u16, (l / self.side) as u16)).collect();
            self.win_pw = 0;
            self.out_stamp = vec![0; self.layer];
            self.generation = 0;
            self.nodes = vec![0; layers * (self.layer + 1)];
            self.count = vec![0; layers];
            self.on = vec![false; self.layer];
        } else {
            self.unset_walks();
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.out_stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
    }

    /// Unsets the states the last programme reached, for the next one.
    /// The hexes' outgoing steps stay worked out: they depend on the move,
    /// not on the cut, so a second programme of the same move reuses them.
    fn unset_walks(&mut self) {
        for (j, &n) in self.count.iter().enumerate() {
            for &l in &self.nodes[j * (self.layer + 1)..][..n] {
                self.walk[j * self.layer + l as usize] = Walks::default();
            }
        }
        self.count.iter_mut().for_each(|n| *n = 0);
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

    /// The cheapest walk of `k` hexes to window hex `l`, start first.
    fn walk_to(&self, k: usize, l: u16) -> Vec<u16> {
        let mut path = Vec::with_capacity(k + 1);
        let (mut k, mut l, mut next) = (k, l, NO_HEX);
        loop {
            path.push(l);
            if k == 0 {
                break;
            }
            (next, l) = (l, from_of(self.walk[k * self.layer + l as usize].avoiding(next)));
            k -= 1;
        }
        path.reverse();
        path
    }

    /// Does the walk visit each hex once?
    fn simple(&mut self, path: &[u16]) -> bool {
        let mut simple = true;
        for &l in path {
            simple &= !std::mem::replace(&mut self.on[l as usize], true);
        }
        for &l in path {
            self.on[l as usize] = false;
        }
        simple
    }

    fn offsets(&self, start: Offset, path: &[u16]) -> Vec<Offset> {
        path.iter().map(|&l| self.global(start, l)).collect()
    }

    /// The exact search, over `targets` (key of the cheapest walk, hexes
    /// moved, window hex, and how a path cost gives the full key) taken in
    /// key order: a target is searched only while its walk's key can still
    /// beat the best path found, since no path there is cheaper than the walk.
    fn search(
        &mut self,
        start: Offset,
        targets: &[(u128, usize, u16)],
        key: &dyn Fn(u128, u64) -> u128,
    ) -> Option<(usize, u128, Vec<u16>)> {
        let towards = [0, 1].map(|p: i32| {
            Dir::ALL.map(|d| {
                let o = Offset::new(p, 1).neighbour(d);
                (o.c - p, o.r - 1)
            })
        });
        let mut back = Back {
            walk: &self.walk,
            outs: &self.outs,
            out_stamp: &self.out_stamp,
            generation: self.generation,
            win_cr: &self.win_cr,
            layer: self.layer,
            side: self.side,
            corner_par: ((start.c - self.radius) & 1) as u8,
            towards,
            on: &mut self.on,
            path: Vec::with_capacity(self.radius as usize + 1),
            best: None,
            visited: 0,
        };
        let mut found = None;
        for (i, &(walk_key, k, l)) in targets.iter().enumerate() {
            if back.best.as_ref().is_some_and(|b| b.0 <= walk_key) {
                break;
            }
            let before = back.best.as_ref().map(|b| b.0);
            back.on[l as usize] = true;
            back.path.clear();
            back.path.push(l);
            back.go(l, k, 0, &|cost| key(walk_key, cost));
            back.on[l as usize] = false;
            if back.best.as_ref().map(|b| b.0) != before {
                found = Some(i);
            }
        }
        self.searched += back.visited;
        found.zip(back.best).map(|(i, (key, path))| (i, key, path))
    }

    /// Plans one rout move.
    ///
    /// A layered dynamic programme over (hexes moved, window hex) finds the
    /// cheapest walk of every length to every hex; the best end hex by the
    /// priorities is then read off. A walk that stays simple is the answer:
    /// no simple path can beat the walk bound anywhere. Only when the
    /// cheapest walk comes back on itself does an exact search run, using
    /// the walk costs to cut every branch that cannot win.
    pub fn plan(&mut self, q: &RoutQuery) -> RoutPlan {
        let hexes = q.hexes.max(1) as usize;
        self.prepare(hexes as i32);
        self.searched = 0;
        self.expanded = 0;
        let grid = q.grid;
        let start_behind = q.fields.behind[grid.idx(q.start)];
        // The hard limits as one bit test on the hex entered: never an
        // enemy's, and behind enemy lines only for a unit that starts there.
        let forbidden = CellFacts::ENEMY | if start_behind { 0 } else { CellFacts::BEHIND };
        if self.local(q.start, q.start).is_none() {
            return RoutPlan::Surrender;
        }
        let mut near = std::mem::take(&mut self.near);
        q.near_enemies(&mut near);
        let bounds = if !self.exhaustive { grid.step_bounds(q.arm(), hexes + 1) } else { None };
        let order = Rank(q.refuge);
        let refuges = self.refuge_in_reach(q, hexes, forbidden, &near);

        // Where a refuge end ranks first, most moves that can end in one
        // end in one at about the least cost any walk could reach one for
        // (the bounds' own figure; on the benchmark's battle, seven in ten
        // exactly, nine in ten within 3 MP). So first try such guesses as
        // the bound, tightest first: a programme cut to a guess finds the
        // best move whenever the best ranks no worse, and a move it finds
        // that ranks no worse is the best. Only when every guess fails is
        // the programme run once more, bounded by a real move in hand.
        let mut in_hand: Option<(RoutPlan, EndKey)> = None;
        if let Some(bounds) = bounds
            && q.refuge == RoutRefuge::Destination
            && refuges
        {
            let least = bounds.cells[grid.idx(q.start) * bounds.steps + hexes][1];
            for slack in GUESS_SLACK.into_iter().filter(|_| least != u16::MAX) {
                let guess = ((least as u64 + slack) << TERRAIN_AT) | (0xFF << FRIENDS_AT) | (0xFF << ZONES_AT);
                let rank = order.of(guess, true);
                let cut = Cut { grid, bounds, own_rear: q.own_rear, order, refuges, rank, low: u64::MAX };
                self.programme(q, Some(&cut), hexes, forbidden, start_behind);
                match self.full_move(q, hexes, &near) {
                    Some((plan, key)) if (key >> 64) as u64 <= rank => {
                        self.near = near;
                        return plan;
                    }
                    Some(found) if in_hand.as_ref().is_none_or(|(_, key)| found.1 < *key) => in_hand = Some(found),
                    _ => {}
                }
                self.unset_walks();
            }
        }

        // Bounded by a move in hand: the guess's, else a greedy one.
        self.greedy.clear();
        let greedy = bounds.and_then(|bounds| self.bound_move(q, bounds, forbidden, hexes, &near, refuges));
        if greedy.is_some_and(|g| in_hand.as_ref().is_none_or(|(_, key)| g < *key)) {
            in_hand = None;
        }
        let best = in_hand.as_ref().map(|(_, key)| *key).or(greedy);
        let cut = bounds.zip(best).map(|(bounds, best)| Cut {
            grid,
            bounds,
            own_rear: q.own_rear,
            order,
            refuges,
            rank: (best >> 64) as u64,
            low: best as u64,
        });
        self.programme(q, cut.as_ref(), hexes, forbidden, start_behind);

        let plan = self.full_move(q, hexes, &near).map(|(plan, _)| plan);
        // With a move in hand a full move is always found (that one at
        // worst, should the exact search run out of budget).
        let plan = match (plan, in_hand) {
            (Some(plan), _) => Some(plan),
            (None, Some((plan, _))) => Some(plan),
            (None, None) if cut.is_some() => {
                Some(RoutPlan::Full(self.greedy.iter().map(|&c| grid.offset(c)).collect()))
            }
            (None, None) => None,
        };
        let plan = plan.or_else(|| self.off_map(q)).unwrap_or(RoutPlan::Surrender);

        self.near = near;
        plan
    }

    /// The layered programme: from the start, layer by layer, the two
    /// cheapest walks to every (hexes moved, hex) that `cut` leaves, and the
    /// off-map steps met on the way. The planner must be freshly prepared.
    fn programme(&mut self, q: &RoutQuery, cut: Option<&Cut>, hexes: usize, forbidden: u8, start_behind: bool) {
        let grid = q.grid;
        let f = q.fields;
        let cells = &f.cells[..];
        let steps = grid.step_costs(q.arm());
        let start_cell = grid.idx(q.start);
        let Some(centre) = self.local(q.start, q.start) else { return };
        let layer = self.layer;
        let row = layer + 1;
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
        // The start: no cost, and from no hex (all hex bits set name none).
        self.walk[centre as usize] = Walks { best: FROM, ..Walks::default() };
        self.nodes[0] = centre;
        self.count[0] = 1;
        self.exits.clear();

        for k in 0..hexes {
            let (done, later) = self.walk.split_at_mut((k + 1) * layer);
            let cur = &done[k * layer..];
            let nxt = &mut later[..layer];
            let (done, later) = self.nodes.split_at_mut((k + 1) * row);
            let frontier = &done[k * row..][..self.count[k]];
            let next = &mut later[..row];
            let mut reached = 0;
            for &u in frontier {
                let ci = u as usize;
                let here = cur[ci];
                // A hex reached only by walks that cannot beat the move in
                // hand is not taken further (nor is anything after it: the
                // bound only grows along a walk).
                if let Some(cut) = cut
                    && cut.hopeless(cost_of(here.best), (corner + self.win_off[ci] as i64) as usize, hexes - k)
                {
                    continue;
                }
                self.expanded += 1;
                if self.out_stamp[ci] != generation {
                    self.out_stamp[ci] = generation;
                    let gu = (corner + self.win_off[ci] as i64) as usize;
                    let odd = ((self.win_cr[ci].0 & 1) as u8 ^ corner_par) as usize;
                    let a = cells[gu];
                    let o = &mut self.outs[ci];
                    (o.legal, o.exits) = (0, 0);
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
                        o.key[d] = q.step_key(gv, step);
                        o.to[d] = (ci as i32 + local_step[odd][d]) as u16;
                    }
                }
                let o = &self.outs[ci];
                // Off-map steps (rare: only from the map's edge hexes).
                let mut exits = o.exits;
                while exits != 0 {
                    let d = exits.trailing_zeros() as usize;
                    exits &= exits - 1;
                    let gu = (corner + self.win_off[ci] as i64) as usize;
                    let odd = ((self.win_cr[ci].0 & 1) as u8 ^ corner_par) as usize;
                    let gv = (gu as i32 + global_step[odd][d]) as usize;
                    if let Some(edge) = q.exit_step(gu, gv, grid.offset(gu), Dir::ALL[d], start_behind) {
                        self.exits.push((q.exit_key(cost_of(here.best), edge), k as u16, u, edge));
                    }
                }
                // Then the legal steps, by bit mask rather than by testing
                // all six sides.
                let mut legal = o.legal;
                while legal != 0 {
                    let d = legal.trailing_zeros() as usize & 7;
                    legal &= legal - 1;
                    let lv = o.to[d];
                    // From no walk (`NONE`) the sum saturates to `NONE`:
                    // every step key is at least 1 << TERRAIN_AT.
                    let walk = cost_of(here.avoiding(lv)).saturating_add(o.key[d]) | u as u64;
                    let there = &mut nxt[lv as usize];
                    if !there.takes(walk) {
                        continue;
                    }
                    next[reached] = lv;
                    reached += (there.best == NONE) as usize;
                    there.offer(walk);
                }
            }
            self.count[k + 1] = reached;
        }
    }

    /// The best full move, if any, and its key: the best end hex whose
    /// cheapest walk meets the end limit, if that walk is simple; else the
    /// exact search.
    fn full_move(&mut self, q: &RoutQuery, hexes: usize, near: &[Near]) -> Option<(RoutPlan, EndKey)> {
        let layer = self.layer;
        let mut ends = std::mem::take(&mut self.ends);
        ends.clear();
        let last = &self.walk[hexes * layer..][..layer];
        // Only ends of the best rank left are ever compared beyond their
        // rank, so the rest of a key (our tie-breaks) is worked out for a
        // whole rank group when it first comes up; until then a key's low
        // half is PENDING, above any worked-out one.
        const PENDING: u128 = u64::MAX as u128;
        for &l in &self.nodes[hexes * (layer + 1)..][..self.count[hexes]] {
            let rank = q.rank(cost_of(last[l as usize].best), self.global(q.start, l));
            ends.push(((rank as u128) << 64 | PENDING, l));
        }
        let tie = |key: u128, end: Offset| key & !PENDING | q.tie(end) as u128;
        let mut chosen = None;
        while let Some((i, &(key, l))) = ends.iter().enumerate().min_by(|a, b| a.1.cmp(b.1)) {
            if key & PENDING == PENDING {
                for e in ends.iter_mut().filter(|e| e.0 >> 64 == key >> 64) {
                    e.0 = tie(e.0, self.global(q.start, e.1));
                }
                continue;
            }
            if q.ends_further(self.global(q.start, l), near) {
                chosen = Some((l, key));
                break;
            }
            ends.swap_remove(i);
        }
        let plan = chosen.and_then(|(l, key)| {
            let path = self.walk_to(hexes, l);
            if self.simple(&path) {
                return Some((RoutPlan::Full(self.offsets(q.start, &path)), key));
            }
            // The cheapest walk comes back on itself: search simple paths
            // to every end that meets the end limit, best walk first.
            for e in ends.iter_mut().filter(|e| e.0 & PENDING == PENDING) {
                e.0 = tie(e.0, self.global(q.start, e.1));
            }
            ends.sort_unstable();
            let targets: Vec<(u128, usize, u16)> = ends
                .iter()
                .filter(|e| q.ends_further(self.global(q.start, e.1), near))
                .map(|&(key, l)| (key, hexes, l))
                .collect();
            // A path's key: its own cost ranked with its end's refuge flag,
            // and its end's tie-breaks.
            let order = Rank(q.refuge);
            let parts = |walk_key: u128, cost: u64| {
                let refuge = order.refuge((walk_key >> 64) as u64);
                (order.of(cost, refuge) as u128) << 64 | (walk_key & PENDING)
            };
            self.search(q.start, &targets, &parts)
                .map(|(_, key, path)| (RoutPlan::Full(self.offsets(q.start, &path)), key))
        });
        self.ends = ends;
        plan
    }

    /// The best off-map exit when no full move exists (the same way: the
    /// cheapest walk if simple, else the exact search).
    fn off_map(&mut self, q: &RoutQuery) -> Option<RoutPlan> {
        let mut exits = std::mem::take(&mut self.exits);
        exits.sort_unstable();
        let plan = exits.first().and_then(|&(_, k, l, edge)| {
            let path = self.walk_to(k as usize, l);
            if self.simple(&path) {
                return Some(RoutPlan::OffMap(self.offsets(q.start, &path), edge));
            }
            let targets: Vec<(u128, usize, u16)> = exits.iter().map(|&(key, k, l, _)| (key, k as usize, l)).collect();
            let parts = |walk_key: u128, cost: u64| (walk_key & !(u64::MAX as u128)) | cost as u128;
            self.search(q.start, &targets, &parts)
                .map(|(i, _, path)| RoutPlan::OffMap(self.offsets(q.start, &path), exits[i].3))
        });
        self.exits = exits;
        plan
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
            refuge: RoutRefuge::Destination,
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

    /// The cut (greedy move plus lower bounds) must never change a plan:
    /// against the whole programme, move for move, on crowded battles with
    /// every arm, at the edges and behind lines; and it must cut a good
    /// deal of the programme, or it is not doing its work.
    #[test]
    fn the_cut_plans_exactly_as_the_whole_programme() {
        let mut cut = RoutPlanner::new();
        let mut whole = RoutPlanner { exhaustive: true, ..RoutPlanner::new() };
        let (mut plans, mut with_cut, mut without) = (0, 0, 0);
        for (w, h, seed) in [(60, 50, 11), (41, 60, 12), (60, 50, 13), (30, 40, 14)] {
            let (grid, board) = battle(w, h, 150, seed);
            let fields = SideFields::build(&grid, &board, 0, Edge::North);
            let occ = occupancy(&grid, &board);
            for unit in 0..board.units.len() {
                let hexes = [10, 10, 6, 10, 3][unit % 5];
                let Some(q) = query(&grid, &fields, &occ, &board, unit, hexes) else { continue };
                for refuge in [RoutRefuge::Destination, RoutRefuge::TieBreak] {
                    let q = RoutQuery { refuge, ..q };
                    assert_eq!(cut.plan(&q), whole.plan(&q), "unit {unit} on map {seed}, {refuge:?}");
                    (with_cut, without) = (with_cut + cut.expanded, without + whole.expanded);
                    plans += 1;
                }
            }
        }
        assert!(plans > 800, "{plans}");
        // On these scattered, crowded battles it skips about a third.
        assert!(with_cut * 4 < without * 3, "the cut took {with_cut} hexes further, the whole programme {without}");
    }

    /// The reference: every simple path of the move's length, by brute
    /// force, keyed as the planner keys them. Returns the best full move's
    /// key, else the best exit's, as `(full?, key)`; `None` to surrender.
    fn reference(q: &RoutQuery) -> Option<(bool, u128)> {
        fn go(q: &RoutQuery, path: &mut Vec<Offset>, cost: u64, near: &[Near], best: &mut [Option<u128>; 2]) {
            let here = *path.last().expect("the start");
            let k = path.len() - 1;
            let start_behind = q.fields.behind[q.grid.idx(q.start)];
            if k == q.hexes as usize {
                if q.ends_further(here, near) {
                    let key = q.end_key(cost, here);
                    best[0] = Some(best[0].map_or(key, |b| b.min(key)));
                }
                return;
            }
            let iu = q.grid.idx(here);
            for dir in Dir::ALL {
                let next = here.neighbour(dir);
                let iv = q.grid.idx(next);
                if !q.grid.on_map[iv] {
                    if let Some(edge) = q.exit_step(iu, iv, here, dir, start_behind) {
                        let key = q.exit_key(cost, edge);
                        best[1] = Some(best[1].map_or(key, |b| b.min(key)));
                    }
                    continue;
                }
                if path.contains(&next) {
                    continue;
                }
                let Some(step) = q.legal_step(iu, iv, dir, start_behind) else { continue };
                path.push(next);
                go(q, path, cost + q.step_key(iv, step), near, best);
                path.pop();
            }
        }
        let mut near = Vec::new();
        q.near_enemies(&mut near);
        let mut best = [None, None];
        go(q, &mut vec![q.start], 0, &near, &mut best);
        best[0].map(|k| (true, k)).or(best[1].map(|k| (false, k)))
    }

    /// A plan's key, recomputed from its path: every step legal, no hex
    /// twice, the right length.
    fn plan_key(q: &RoutQuery, plan: &RoutPlan) -> Option<(bool, u128)> {
        let (path, edge) = match plan {
            RoutPlan::Full(p) => (p, None),
            RoutPlan::OffMap(p, e) => (p, Some(*e)),
            RoutPlan::Surrender => return None,
        };
        assert_eq!(path[0], q.start);
        let start_behind = q.fields.behind[q.grid.idx(q.start)];
        let mut cost = 0;
        for (i, w) in path.windows(2).enumerate() {
            assert!(!path[..=i].contains(&w[1]), "{} visited twice", w[1]);
            let dir = Dir::ALL.into_iter().find(|&d| w[0].neighbour(d) == w[1]).expect("adjacent hexes");
            let (iu, iv) = (q.grid.idx(w[0]), q.grid.idx(w[1]));
            let step = q.legal_step(iu, iv, dir, start_behind).expect("a legal step");
            cost += q.step_key(iv, step);
        }
        let end = *path.last().expect("a hex");
        Some(match edge {
            None => {
                assert_eq!(path.len(), q.hexes as usize + 1);
                (true, q.end_key(cost, end))
            }
            Some(edge) => (false, q.exit_key(cost, edge)),
        })
    }

    /// The planner is exact: on crowded generated battles (routers among
    /// friends, enemies scattered about them, map edges near), every move
    /// it plans is as good by the priorities as the best of all simple
    /// paths found by brute force, and it surrenders only when brute force
    /// finds neither a full move nor an exit. Moves are kept short enough
    /// for brute force.
    #[test]
    fn planned_moves_are_the_best_simple_paths() {
        let mut planner = RoutPlanner::new();
        let (mut plans, mut searched) = (0, 0);
        for (w, h, seed) in [(30, 40, 7), (24, 36, 8), (30, 40, 9), (20, 30, 10)] {
            let (grid, board) = battle(w, h, 120, seed);
            let fields = SideFields::build(&grid, &board, 0, Edge::North);
            let occ = occupancy(&grid, &board);
            for unit in 0..board.units.len() {
                let hexes = [6, 7, 5][unit % 3];
                let Some(q) = query(&grid, &fields, &occ, &board, unit, hexes) else { continue };
                for refuge in [RoutRefuge::Destination, RoutRefuge::TieBreak] {
                    let q = RoutQuery { refuge, ..q };
                    let plan = planner.plan(&q);
                    searched += (planner.searched > 0) as usize;
                    assert_eq!(plan_key(&q, &plan), reference(&q), "unit {unit} on map {seed}, {refuge:?}: {plan:?}");
                    plans += 1;
                }
            }
        }
        assert!(plans > 600, "{plans}");
        // The exact search ran on some of them (else this checks little).
        assert!(searched > 0);
    }

    /// Full-length moves on crowded battles never come near the exact
    /// search's budget, so its guard never decides a move.
    #[test]
    fn the_exact_search_stays_far_below_its_budget() {
        let mut planner = RoutPlanner::new();
        let (mut most, mut searched) = (0, 0);
        for seed in 20..26 {
            let (grid, board) = battle(60, 50, 300, seed);
            let fields = SideFields::build(&grid, &board, 0, Edge::North);
            let occ = occupancy(&grid, &board);
            for unit in 0..board.units.len() {
                let Some(q) = query(&grid, &fields, &occ, &board, unit, 10) else { continue };
                planner.plan(&q);
                most = most.max(planner.searched);
                searched += (planner.searched > 0) as usize;
            }
        }
        assert!(searched > 0, "no move needed the exact search");
        assert!(most * 20 < SEARCH_BUDGET, "{most} states in one move");
    }

    /// End keys are packed into one integer; its order must be the
    /// lexicographic order of the preferences: (not a refuge, terrain,
    /// friends, zones) under `Destination`, (terrain, friends, not a refuge,
    /// zones) under `TieBreak`, then half hexes from the own rear edge and
    /// closeness to the enemy, negative edge distances included (the border
    /// ring).
    #[test]
    fn packed_end_keys_order_as_their_parts() {
        let map = crate::generate::terrain(30, 20, 5);
        let grid = Grid::new(&map, &Rules::default());
        let board = crate::generate::rout_board(&map, 20);
        let fields = SideFields::build(&grid, &board, 0, Edge::North);
        let occ = occupancy(&grid, &board);
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for refuge_rule in [RoutRefuge::Destination, RoutRefuge::TieBreak] {
            let mut keyed = Vec::new();
            for _ in 0..2000 {
                let own_rear = [Edge::North, Edge::South, Edge::East, Edge::West][rng.random_range(0..4)];
                let Some(q) = query(&grid, &fields, &occ, &board, board.units.len() - 1, 10) else {
                    panic!("a router")
                };
                let q = RoutQuery { own_rear, refuge: refuge_rule, ..q };
                let end = Offset::new(rng.random_range(-1..=30), rng.random_range(-1..=20));
                let (terrain, friends, zones) = (
                    [0u64, 1, 99, 1 << 20, u32::MAX as u64][rng.random_range(0..5)],
                    rng.random_range(0..=MAX_ROUT_HEXES as u64),
                    rng.random_range(0..=MAX_ROUT_HEXES as u64),
                );
                let cost = (terrain << TERRAIN_AT) | (friends << FRIENDS_AT) | (zones << ZONES_AT);
                let i = grid.idx(end);
                let open = !grid.refuge[i];
                let (half, far) = (grid.edge_half_distance(own_rear, end), u16::MAX - fields.dist[i]);
                let parts = match refuge_rule {
                    RoutRefuge::Destination => (open, terrain, friends, false, zones, half, far),
                    RoutRefuge::TieBreak => (false, terrain, friends, open, zones, half, far),
                };
                keyed.push((parts, q.end_key(cost, end)));
            }
            for a in &keyed {
                for b in keyed.iter().step_by(7) {
                    assert_eq!(a.0.cmp(&b.0), a.1.cmp(&b.1), "{:?} vs {:?}", a.0, b.0);
                }
            }
        }
    }
}
