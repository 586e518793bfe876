//! The AI's fire phases: concentrated fire, the target with the best
//! expected effect for the volley its firers could make going first (a
//! lazy greedy over a heap, rescoring a target only when its turn comes).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use crate::hex::Offset;
use crate::labataille::combat::{FireOdds, fire_odds, line_of_sight};
use crate::labataille::movement;
use crate::labataille::orders::Order;
use crate::labataille::rout_preview::preview_rout;
use crate::terrain::Arm;
use crate::vocab::State;

use super::phase::{Ai, KEY_SCALE};

impl Ai<'_, '_, '_> {
    /// Range in hexes at which a unit may fire now, if it may.
    fn fire_range(&self, i: usize) -> Option<u32> {
        let u = &self.board.units[i];
        let c = &self.bf.ctx.rules.combat;
        let ok = u.at.is_some()
            && u.side == self.side
            && matches!(u.state, State::GoodOrder | State::Disordered)
            && !self.orders.activity.fired[i]
            && !(u.arm == Arm::Artillery && u.limbered);
        let range = c.fire_range.get(u.arm).floor().max(0.0) as u32;
        (ok && range > 0).then_some(range)
    }

    /// Firepower of one unit at a range (rule 1.9 numbers, as `fire_odds`
    /// adds them); only to rank and cap a volley, the odds are the rules'.
    fn firepower(&self, i: usize, range: u32) -> f32 {
        let u = &self.board.units[i];
        let c = &self.bf.ctx.rules.combat;
        match u.arm {
            Arm::Artillery => c.artillery_per_increment(range).unwrap_or(0.0) * u.strength as f32,
            _ => c.infantry_fire.get(u.formation) * u.strength as f32,
        }
    }

    pub(super) fn fire(&mut self) {
        let ctx = self.bf.ctx;
        let grid = ctx.grid;
        // Every (firer, target) in range, then line of sight.
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        {
            let firers: Vec<(usize, Offset, u32)> = (0..self.board.units.len())
                .filter_map(|i| Some((i, self.board.units[i].at?, self.fire_range(i)?)))
                .collect();
            if firers.is_empty() {
                return;
            }
            let occ = &self.engine.occupancy;
            let mut hexes = Vec::new();
            for (i, at, range) in firers {
                hexes.clear();
                movement::enemies_within(grid, occ, self.board, self.side, at, range, |e| hexes.push(e));
                hexes.sort();
                hexes.dedup();
                for &e in &hexes {
                    for &v in occ.at(grid.idx(e)) {
                        if self.board.units[v as usize].side != self.side {
                            pairs.push((v as usize, i));
                        }
                    }
                }
            }
        }
        let mut candidates: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (t, i) in pairs {
            candidates.entry(t).or_default().push(i);
        }
        // At `Normal`, a target whose rout would carry contagion to its
        // friends is worth more: its rout preview's expected failures.
        let w = ctx.rules.ai.volley_contagion_weight;
        if self.goals.mended() && w > 0.0 {
            let mut spread = vec![1.0f32; self.board.units.len()];
            for &t in candidates.keys() {
                if let Some(p) = preview_rout(ctx, self.engine, self.board, t) {
                    spread[t] = 1.0 + w * p.expected_failures() as f32;
                }
            }
            self.spread = spread;
        }
        let mut heap: BinaryHeap<(i64, Reverse<usize>)> = BinaryHeap::new();
        for (&t, firers) in &candidates {
            if let Some((_, value)) = self.volley(t, firers) {
                heap.push((value_key(value), Reverse(t)));
            }
        }
        // Lazy greedy: a target's volley is rescored when it comes up; if
        // earlier volleys made it worse than the next in line, it waits.
        while let Some((key, Reverse(t))) = heap.pop() {
            let Some((group, value)) = self.volley(t, &candidates[&t]) else { continue };
            let now = value_key(value);
            if now < key && heap.peek().is_some_and(|&(next, _)| next > now) {
                heap.push((now, Reverse(t)));
                continue;
            }
            let order = Order::Fire { units: group.iter().map(|&f| self.id(f)).collect(), target: self.id(t) };
            self.give(order);
        }
    }

    /// The volley the AI would fire at `t` from `candidates` now, and its
    /// value: good-order firers first (a disordered one shifts the column
    /// down), strongest first, stopping once the top column's firepower is
    /// reached, so that the others stay free for the next target.
    fn volley(&self, t: usize, candidates: &[usize]) -> Option<(Vec<usize>, f32)> {
        let target = &self.board.units[t];
        let to = target.at?;
        if target.side == self.side {
            return None;
        }
        let mut ready: Vec<(bool, Reverse<u32>, usize)> = Vec::new();
        for &i in candidates {
            let Some(range) = self.fire_range(i) else { continue };
            let Some(from) = self.board.units[i].at else { continue };
            let r = from.distance(to);
            if r > range || (r > 1 && !line_of_sight(self.bf, self.engine, from, to)) {
                continue;
            }
            let power = (self.firepower(i, r) * 100.0) as u32;
            ready.push((self.board.units[i].state == State::Disordered, Reverse(power), i));
        }
        ready.sort_unstable();
        let steady = ready.iter().filter(|r| !r.0).count();
        if steady > 0 {
            ready.truncate(steady);
        }
        let top = self.bf.ctx.rules.combat.fire_columns.last().copied().unwrap_or(0.0);
        let mut group = Vec::new();
        let mut power = 0.0;
        for &(_, Reverse(p), i) in &ready {
            if power >= top {
                break;
            }
            group.push(i);
            power += p as f32 / 100.0;
        }
        let odds = fire_odds(self.bf, self.board, self.engine, &group, t).ok()?;
        let value = self.volley_value(&odds, t);
        (value > 0.0).then_some((group, value))
    }

    /// Expected effect of a volley: increments lost plus the chance of a
    /// morale check, worth more on a disordered target (a failed check
    /// routs it), on a weakened one (losses may finish it) and, at
    /// `Normal`, on one whose rout would put its friends to contagion
    /// checks (`Ai::spread`).
    fn volley_value(&self, odds: &FireOdds, t: usize) -> f32 {
        let u = &self.board.units[t];
        let ai = &self.bf.ctx.rules.ai;
        let mut value = odds.expected_losses() + odds.check_chance();
        if u.state == State::Disordered {
            value *= ai.volley_disordered_factor;
        }
        if u.strength <= ai.volley_weak_strength {
            value *= ai.volley_weak_factor;
        }
        value * self.spread.get(t).copied().unwrap_or(1.0)
    }
}

fn value_key(value: f32) -> i64 {
    (value * KEY_SCALE).round() as i64
}
