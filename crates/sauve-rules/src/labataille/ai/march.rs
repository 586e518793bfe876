//! Where the AI's units go: towards their goal field by a place score
//! (stand-off, cavalry zones, cover), or back from the enemy to rally.

use std::cmp::Reverse;

use crate::hex::Offset;
use crate::labataille::Board;
use crate::labataille::engine::Engine;
use crate::labataille::fields::FAR;
use crate::labataille::fields::SideFields;
use crate::labataille::orders::Order;
use crate::labataille::rout_preview::{RoutEnd, preview_rout};
use crate::terrain::Arm;
use crate::vocab::State;

use super::goal_fields::UNREACHED;
use super::phase::Ai;
use super::plan::{Lane, Plan};

impl Ai<'_, '_, '_> {
    /// Where a unit would like to stand: field distance to its goal, plus
    /// penalties for standing nearer the enemy than its stand-off (except on
    /// an objective), for infantry in an enemy cavalry zone and (at
    /// `Normal`) for standing in a friend's rout lane (except on an
    /// objective), less a bonus for cover near the enemy. Lower is better.
    fn place_score(&self, plan: &Plan, i: usize, field: &[u32], standoff: u16, cell: usize) -> i64 {
        let arm = self.board.units[i].arm;
        let f = field[cell];
        if f == UNREACHED {
            return i64::MAX / 4;
        }
        let ai = &self.bf.ctx.rules.ai;
        let mut s = f as i64;
        let d = plan.sight.dist[cell];
        if d < standoff && plan.objectives.binary_search(&cell).is_err() {
            s += (standoff - d) as i64 * ai.too_close_penalty as i64;
        }
        if arm == Arm::Infantry && plan.sight.cav_zone[cell] {
            s += ai.cavalry_zone_penalty as i64;
        }
        if d <= ai.cover_within && self.bf.ctx.grid.refuge[cell] {
            s -= ai.cover_bonus as i64;
        }
        if plan.lanes.get(cell).is_some_and(|l| l.others_than(i)) && plan.objectives.binary_search(&cell).is_err() {
            s += ai.rout_lane_penalty as i64;
        }
        s
    }

    /// At `Normal`, whose rout lanes each hex (by cell) lies in: the hexes
    /// the side's units near the enemy would rout through, their own
    /// included: the rout preview (1.3) of each unit of the side in good
    /// order or disorder within `rout_lane_within` hexes of the enemy. A
    /// friend that stands in one when that unit routs checks for contagion
    /// (1.4). Empty at `Easy`.
    pub(super) fn rout_lanes(&mut self, sight: &SideFields) -> Vec<Lane> {
        let grid = self.bf.ctx.grid;
        if !self.goals.mended() {
            return Vec::new();
        }
        let mut lanes = vec![Lane::default(); grid.len()];
        let exposure = self.bf.ctx.rules.ai.rout_lane_within;
        for i in 0..self.board.units.len() {
            let u = &self.board.units[i];
            let Some(at) = u.at else { continue };
            if u.side != self.side || !matches!(u.state, State::GoodOrder | State::Disordered) {
                continue;
            }
            if sight.dist[grid.idx(at)] > exposure {
                continue;
            }
            if let Some(p) = preview_rout(self.bf.ctx, self.engine, self.board, i) {
                for &h in &p.path {
                    if grid.in_padded(h) {
                        lanes[grid.idx(h)].add(i);
                    }
                }
            }
        }
        lanes
    }

    /// Moves towards the goal: the reachable hex with the best place score,
    /// ties to cover, then the cheaper move; only if it beats staying.
    pub(super) fn advance(&mut self, plan: &Plan, i: usize, field: &[u32], standoff: u16) -> bool {
        let grid = self.bf.ctx.grid;
        let u = &self.board.units[i];
        let Some(at) = u.at else { return false };
        let here = self.place_score(plan, i, field, standoff, grid.idx(at));
        let reach = self.orders.reach(self.engine, self.board, i);
        let best = reach
            .ends
            .iter()
            .map(|&(o, cost)| {
                let c = grid.idx(o);
                (self.place_score(plan, i, field, standoff, c), !grid.refuge[c], cost, c, o)
            })
            .min();
        match best {
            Some((score, _, _, _, to)) if score < here => {
                let order = Order::Move { unit: self.id(i), to: (to.c, to.r) };
                self.give(order)
            }
            _ => false,
        }
    }

    /// Rallying: a disordered unit, or one whose corps has broken, moves to
    /// the reachable hex farthest from the enemy, cover breaking ties, then
    /// the cheaper move; at `Normal`, the best of those from which a rout
    /// would stay on the map.
    pub(super) fn fall_back(&mut self, plan: &Plan, i: usize) -> bool {
        let grid = self.bf.ctx.grid;
        let Some(at) = self.board.units[i].at else { return false };
        let here = plan.sight.dist[grid.idx(at)];
        if here == FAR {
            return false;
        }
        let reach = self.orders.reach(self.engine, self.board, i);
        let mut ranked: Vec<_> = reach
            .ends
            .iter()
            .map(|&(o, cost)| {
                let c = grid.idx(o);
                (Reverse(plan.sight.dist[c]), !grid.refuge[c], cost, c, o)
            })
            .filter(|&(Reverse(d), ..)| d > here)
            .collect();
        ranked.sort_unstable();
        // The mended AI asks the rout preview of the best few: a shaken
        // unit is not sent where its rout would run it off the map (or
        // make it surrender), unless nowhere better is in reach.
        let pick = if self.goals.mended() {
            // One copy of the board and the engine for all the candidates:
            // only the unit's hex changes between them.
            let mut copy = (self.board.clone(), self.engine.probe());
            ranked
                .iter()
                .take(self.bf.ctx.rules.ai.fall_back_candidates as usize)
                .find(|&&(.., o)| self.rout_stays_from(&mut copy, i, o))
                .or(ranked.first())
        } else {
            ranked.first()
        };
        match pick {
            Some(&(.., to)) => {
                let order = Order::Move { unit: self.id(i), to: (to.c, to.r) };
                self.give(order)
            }
            None => false,
        }
    }

    /// Whether unit `i`, standing at `at`, would rout to a hex of the map
    /// (or off it by an edge where routers recover): the rout preview on
    /// `copy`, a copy of the board and its engine, the unit put at `at`.
    fn rout_stays_from(&self, copy: &mut (Board, Engine), i: usize, at: Offset) -> bool {
        let (board, engine) = copy;
        board.units[i].at = Some(at);
        match preview_rout(self.bf.ctx, engine, board, i).map(|p| p.end) {
            Some(RoutEnd::Full) | None => true,
            Some(RoutEnd::OffMap { recovers, .. }) => recovers,
            Some(RoutEnd::Surrender) => false,
        }
    }
}
