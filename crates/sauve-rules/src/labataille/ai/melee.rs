//! The AI's melee phase: routed and disordered targets always, others when
//! the combined attack's chance clears the side's threshold; every
//! adjacent eligible unit joins in.

use std::cmp::Reverse;
use std::collections::BTreeMap;

use crate::labataille::combat::{attack_odds_on, melee_odds};
use crate::labataille::grid::BLOCKED;
use crate::labataille::orders::Order;
use crate::labataille::probe::Probe;
use crate::terrain::Arm;
use crate::vocab::Formation;
use crate::vocab::State;

use super::phase::{Ai, KEY_SCALE};

impl Ai<'_, '_, '_> {
    fn can_attack(&self, i: usize) -> bool {
        let u = &self.board.units[i];
        u.side == self.side
            && u.at.is_some()
            && u.state == State::GoodOrder
            && u.arm != Arm::Artillery
            && u.formation != Formation::Square
            && !self.orders.activity.fought[i]
            && !self.goals.broken(i)
    }

    /// Our units that may attack into `cell` now, in index order.
    fn attackers_of(&self, cell: usize, from: &[usize]) -> Vec<usize> {
        let grid = self.bf.ctx.grid;
        let target = grid.offset(cell);
        from.iter()
            .copied()
            .filter(|&i| self.can_attack(i))
            .filter(|&i| {
                let Some(at) = self.board.units[i].at else { return false };
                at.direction_to(target)
                    .is_some_and(|d| grid.step_cost(self.board.units[i].arm, grid.idx(at), d) != BLOCKED)
            })
            .collect()
    }

    pub(super) fn melee(&mut self) {
        let grid = self.bf.ctx.grid;
        let other = if self.side == 0 { 1 } else { 0 };
        let mut by_hex: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for i in 0..self.board.units.len() {
            if !self.can_attack(i) {
                continue;
            }
            let Some(at) = self.board.units[i].at else { continue };
            for n in at.neighbours() {
                if grid.in_padded(n) && self.engine.occupancy.count(grid.idx(n), other) > 0 {
                    by_hex.entry(grid.idx(n)).or_default().push(i);
                }
            }
        }
        // Rank the fights: walkovers, then shaken defenders, then the odds.
        let mut fights: Vec<(Rank, usize)> = Vec::new();
        // One copy of the board for all the fights' odds while none is fought.
        let mut probe = Probe::new(self.engine, self.board);
        for (&cell, from) in &by_hex {
            if let Some((rank, _)) = self.assess(&mut probe, cell, from) {
                fights.push((rank, cell));
            }
        }
        fights.sort_unstable();
        for (_, cell) in fights {
            let from = &by_hex[&cell];
            let Some((_, attackers)) = self.assess(&mut Probe::new(self.engine, self.board), cell, from) else {
                continue;
            };
            let Some(t) = self.enemy_at(cell) else { continue };
            let order = Order::Melee { units: attackers.iter().map(|&a| self.id(a)).collect(), target: self.id(t) };
            self.give(order);
        }
    }

    /// Whether to attack the hex now, with whom, and how it ranks.
    fn assess(&self, probe: &mut Probe, cell: usize, from: &[usize]) -> Option<(Rank, Vec<usize>)> {
        let t = self.enemy_at(cell)?;
        let attackers = self.attackers_of(cell, from);
        let first = *attackers.first()?;
        let odds = melee_odds(self.bf, self.board, self.engine, &attackers, t, false).ok()?;
        if odds.walkover {
            // Routed defenders surrender to anyone: one attacker suffices.
            return Some(((0, Reverse(0)), vec![first]));
        }
        let shaken = self.engine.occupancy.at(cell).iter().any(|&v| {
            let v = &self.board.units[v as usize];
            v.side != self.side && v.state == State::Disordered
        });
        // Every die counted: the attackers' own checks, the defenders', the table.
        let full = attack_odds_on(self.bf, probe, &attackers, t).ok()?;
        let mut win = full.win_chance();
        if self.goals.mended() {
            // The mended AI counts what the attack may cost its own side:
            // each of its units' failures of a check the attack brings on
            // (its own pre-melee checks, contagion) weighs against the win,
            // and a shaken target is attacked only when that still pays.
            win -= full.expected_failures(self.board, self.side);
            if shaken && win < self.tuning.melee_threshold * self.bf.ctx.rules.ai.shaken_share {
                return None;
            }
        }
        let key = Reverse((win.max(0.0) * KEY_SCALE) as i64);
        if shaken {
            Some(((1, key), attackers))
        } else if win >= self.tuning.melee_threshold {
            Some(((2, key), attackers))
        } else {
            None
        }
    }
}

/// Order of the melee phase's fights: the kind (0 walkover, 1 shaken
/// defenders, 2 good odds), then the better chance first.
type Rank = (u8, Reverse<i64>);
