//! Hunting, at `Normal`: an attacker with no enemy near sent after each
//! enemy unit that still counts towards breaking its corps but that none
//! of the side's units stands near, so that a corps whose last units
//! rallied in a far corner still breaks.

use crate::hex::Offset;
use crate::terrain::Arm;
use crate::vocab::State;

use super::goal_fields::goal_field_near;
use super::phase::Ai;
use super::plan::{Plan, Role};
use crate::labataille::grid::{Grid, centi};

impl Ai<'_, '_, '_> {
    /// At `Normal`, once `rules.ai.hunt_from` of the battle's turns have
    /// gone: every enemy unit that counts (in good order or
    /// disordered, of a corps not counted broken) with none of the side's
    /// units in good order or disordered within `rules.ai.hunt_beyond`
    /// hexes is hunted by one attacker (foot or horse in good order) that
    /// has no such enemy within that distance itself, nor an objective to
    /// take (`to_take`) within it and nearer than the quarry: of all the
    /// pairs, the nearest are matched first, up to `rules.ai.hunters_max`
    /// of them. Each hunter's role becomes [`Role::Hunt`], towards a goal
    /// field of its quarry's hex.
    pub(super) fn send_hunters(&mut self, plan: &mut Plan, role: &mut [Role], to_take: &[Offset]) {
        if !self.goals.mended() {
            return;
        }
        let (beyond, most) = (u32::from(self.bf.ctx.rules.ai.hunt_beyond), self.bf.ctx.rules.ai.hunters_max as usize);
        // The pursuit waits until the battle is under way: while the
        // armies close, most enemy units stand apart from the side's, and
        // hunters would go in piecemeal.
        if most == 0 || self.goals.progress < self.bf.ctx.rules.ai.hunt_from {
            return;
        }
        let grid = self.bf.ctx.grid;
        let side = self.side;
        let units = &self.board.units;
        let steady = |state: State| matches!(state, State::GoodOrder | State::Disordered);
        let placed = |keep: &dyn Fn(usize) -> bool| -> Vec<(usize, Offset)> {
            units.iter().enumerate().filter(|&(j, _)| keep(j)).filter_map(|(j, u)| Some((j, u.at?))).collect()
        };
        let ours = placed(&|i| units[i].side == side && steady(units[i].state));
        let counting = placed(&|j| units[j].side != side && steady(units[j].state) && !self.goals.broken(j));
        let near_ours = within(grid, &ours, beyond);
        let quarries: Vec<Offset> =
            counting.iter().filter(|&&(_, at)| !near_ours[grid.idx(at)]).map(|&(_, at)| at).collect();
        if quarries.is_empty() {
            return;
        }
        let near_counting = within(grid, &counting, beyond);
        // A hunter with an objective to take within that distance, nearer
        // than the quarry, keeps to its goal: each with the farthest it may
        // go for a quarry.
        let hunters: Vec<(usize, Offset, u32)> = ours
            .iter()
            .filter(|&&(i, at)| {
                role[i] == Role::Attack
                    && units[i].state == State::GoodOrder
                    && units[i].arm != Arm::Artillery
                    && !near_counting[grid.idx(at)]
            })
            .map(|&(i, at)| {
                let objective = to_take.iter().map(|&t| t.distance(at)).min().unwrap_or(u32::MAX);
                (i, at, if objective <= beyond { objective } else { u32::MAX })
            })
            .collect();
        // Pair by pair, the nearest quarry not yet hunted and hunter not yet
        // sent, ties to the quarry first in the scenario, then the hunter:
        // each hunter's nearest quarry, worked out again only when it is
        // taken.
        let mut hunted = vec![false; quarries.len()];
        let nearest_quarry = |at: Offset, farthest: u32, hunted: &[bool]| {
            quarries
                .iter()
                .enumerate()
                .filter(|&(q, _)| !hunted[q])
                .map(|(q, &quarry)| (quarry.distance(at), q))
                .min()
                .filter(|&(d, _)| d <= farthest)
        };
        let mut best: Vec<Option<(u32, usize)>> =
            hunters.iter().map(|&(_, at, farthest)| nearest_quarry(at, farthest, &hunted)).collect();
        while plan.hunts.len() < most {
            let Some((h, (_, q))) =
                best.iter().enumerate().filter_map(|(h, b)| Some((h, (*b)?))).min_by_key(|&(h, (d, q))| (d, q, h))
            else {
                break;
            };
            hunted[q] = true;
            let (i, at, _) = hunters[h];
            role[i] = Role::Hunt(plan.hunts.len());
            // The field need reach no farther than the hunter can march
            // this phase, with room to spare.
            let own = self.bf.movement.get(i).copied().flatten();
            let margin = centi(self.bf.ctx.rules.combat.allowance(units[i].arm, own)).saturating_mul(3);
            let source = [(grid.idx(quarries[q]), 0)];
            plan.hunts.push(goal_field_near(grid, Arm::Infantry, &source, grid.idx(at), margin));
            best[h] = None;
            for (k, b) in best.iter_mut().enumerate() {
                if matches!(*b, Some((_, taken)) if taken == q) {
                    *b = nearest_quarry(hunters[k].1, hunters[k].2, &hunted);
                }
            }
        }
    }
}

/// Which cells (by the grid's index) lie within `radius` hexes of one of
/// `units`' hexes.
fn within(grid: &Grid, units: &[(usize, Offset)], radius: u32) -> Vec<bool> {
    let mut near = vec![false; grid.len()];
    for &(_, at) in units {
        for o in at.to_hex().range(radius).map(Offset::from_hex) {
            if grid.in_padded(o) {
                near[grid.idx(o)] = true;
            }
        }
    }
    near
}
