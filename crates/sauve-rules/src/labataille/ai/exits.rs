//! The AI's exits: which of the side's exits pay, the goal field towards
//! each, and leaving the map by one.

use std::cmp::Reverse;

use crate::hex::Edge;
use crate::labataille::orders::Order;
use crate::terrain::Arm;
use crate::vocab::State;

use super::phase::Ai;
use super::plan::{ExitRoute, Plan};

impl Ai<'_, '_, '_> {
    /// The side's exits that the orders allow and that pay, best paying
    /// first, each with its goal field (cheapest walk to any hex of its
    /// edge). Empty, and no field built, when the scenario gives none.
    pub(super) fn exit_routes(&mut self) -> Vec<ExitRoute> {
        let grid = self.bf.ctx.grid;
        let mut exits: Vec<(Edge, u32)> = self
            .goals
            .exits
            .iter()
            .copied()
            .filter(|&(edge, points)| points > 0 && self.orders.activity.exits.contains(&(self.side, edge)))
            .collect();
        exits.sort_unstable_by_key(|&(edge, points)| (Reverse(points), edge));
        exits.dedup_by_key(|e| e.0);
        let kept = &mut self.engine.goal_fields;
        exits
            .into_iter()
            .map(|(edge, points)| {
                let sources: Vec<(usize, u32)> = (0..grid.len())
                    .filter(|&c| grid.on_map[c] && grid.edge_distance(edge, grid.offset(c)) == 0)
                    .map(|c| (c, 0))
                    .collect();
                ExitRoute { edge, points, field: kept.field(grid, Arm::Infantry, &sources) }
            })
            .collect()
    }

    /// Whether `unit` leaving by `exit` would earn `rules.ai.exit_min_points`.
    pub(super) fn exit_pays(&self, unit: usize, exit: &ExitRoute) -> bool {
        self.board.units[unit].strength.saturating_mul(exit.points) >= self.bf.ctx.rules.ai.exit_min_points
    }

    /// Leaves the map if the unit stands in good order on the edge of an
    /// exit that pays for it and has movement left (as `Orders::apply`
    /// asks), by the best paying such exit.
    pub(super) fn leave(&mut self, plan: &Plan, i: usize) -> bool {
        let grid = self.bf.ctx.grid;
        let u = &self.board.units[i];
        let Some(at) = u.at else { return false };
        if u.state != State::GoodOrder || self.goals.broken(i) || self.orders.budget(self.board, i) == 0 {
            return false;
        }
        let Some(edge) =
            plan.exits.iter().find(|e| grid.edge_distance(e.edge, at) == 0 && self.exit_pays(i, e)).map(|e| e.edge)
        else {
            return false;
        };
        let order = Order::Exit { unit: self.id(i), edge };
        self.give(order)
    }
}
