//! What a rout move reads (the query, with the hard limits and the keys
//! of its steps and ends) and what it gives (the plan).

use crate::hex::{Dir, Edge, Offset};
use crate::labataille::Board;
use crate::labataille::fields::{CellFacts, FAR, SideFields};
#[cfg(test)]
use crate::labataille::grid::BLOCKED;
use crate::labataille::grid::{Grid, Occupancy};
use crate::labataille::rout::keys::{EndKey, ExitKey, FRIENDS_AT, Rank, TERRAIN_AT, ZONES_AT};
use crate::rules::RoutRefuge;
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
    pub(super) fn arm(&self) -> Arm {
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
    pub(super) fn step_key(&self, cell: usize, step: u16) -> u64 {
        let zone = self.fields.cells[cell].has(CellFacts::ZONE) as u64;
        let friends = self.friends_at(cell) as u64;
        ((step as u64) << TERRAIN_AT) | (friends << FRIENDS_AT) | (zone << ZONES_AT)
    }

    /// The hard limits on a step from `from` into `to` (enemies, prohibited
    /// ground, closer to the enemy, behind the lines).
    /// `None` if illegal, else the step cost. (The planner reads the same
    /// tests off the cell facts; the tests' reference search uses this.)
    #[cfg(test)]
    pub(super) fn legal_step(&self, from: usize, to: usize, dir: Dir, start_behind: bool) -> Option<u16> {
        let (a, b) = (self.fields.cells[from], self.fields.cells[to]);
        if b.has(CellFacts::ENEMY) || b.dist < a.dist || (b.has(CellFacts::BEHIND) && !start_behind) {
            return None;
        }
        let cost = self.grid.step_cost(self.arm(), from, dir);
        (cost != BLOCKED).then_some(cost)
    }

    /// A step off the map from the edge hex `from` (border cell `to`) keeps
    /// the hard limits; returns the edge it crosses.
    pub(super) fn exit_step(&self, from: usize, to: usize, here: Offset, dir: Dir, start_behind: bool) -> Option<Edge> {
        let f = self.fields;
        if f.dist[to] < f.dist[from] || (f.behind[to] && !start_behind) {
            return None;
        }
        Edge::crossed_by(dir, here, self.grid.width, self.grid.height)
    }

    /// The end limit: strictly further from the nearest enemy, and no closer
    /// to any enemy that was within the radius at the start.
    pub(super) fn ends_further(&self, end: Offset, near: &[Near]) -> bool {
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
    pub(super) fn rank(&self, cost: u64, end: Offset) -> u64 {
        Rank(self.refuge).of(cost, self.grid.refuge[self.grid.idx(end)])
    }

    /// Our tie-breaks for an end hex (5): nearest the own rear edge, then
    /// furthest from the enemy.
    #[inline]
    pub(super) fn tie(&self, end: Offset) -> u64 {
        // Flipping the sign bit keeps the order of the signed distance.
        let half = self.grid.edge_half_distance(self.own_rear, end) as u32 ^ (1 << 31);
        ((half as u64) << 16) | (u16::MAX - self.fields.dist[self.grid.idx(end)]) as u64
    }

    /// Ordering of legal end hexes: the rank of preferences 1-4, then our
    /// tie-breaks.
    pub(super) fn end_key(&self, cost: u64, end: Offset) -> EndKey {
        ((self.rank(cost, end) as u128) << 64) | self.tie(end) as u128
    }

    /// Off-map exits: across the side's own rear edge first, then the
    /// cheapest path.
    pub(super) fn exit_key(&self, cost: u64, edge: Edge) -> ExitKey {
        ((edge != self.own_rear) as u128) << 64 | cost as u128
    }

    /// Fills `near` with the enemies within the radius of the start (a
    /// buffer kept by the planner, so no allocation per move).
    pub(super) fn near_enemies(&self, near: &mut Vec<Near>) {
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
pub(super) struct Near {
    x: i32,
    z: i32,
    d: i32,
}
