//! The AI's charge phase: cavalry in good order charges the reachable
//! target with the best chance of a favourable melee, the form-square
//! check counted in, if that chance clears the side's threshold (at
//! `Normal`, less what the charge may lose, and the targets ranked by the
//! contagion their rout would spread).

use std::cmp::Reverse;

use crate::hex::{Dir, Offset};
use crate::labataille::combat::{charge_odds_on, charge_reach};
use crate::labataille::grid::{BLOCKED, Centi};
use crate::labataille::orders::Order;
use crate::labataille::probe::Probe;
use crate::labataille::rout_preview::preview_rout;
use crate::terrain::Arm;
use crate::vocab::State;
use crate::vocab::{Formation, Readiness};

use super::phase::{Ai, KEY_SCALE};

impl Ai<'_, '_, '_> {
    pub(super) fn charge(&mut self) {
        let ctx = self.bf.ctx;
        let grid = ctx.grid;
        for i in 0..self.board.units.len() {
            let u = &self.board.units[i];
            if !self.ours(i)
                || u.arm != Arm::Cavalry
                || u.state != State::GoodOrder
                || u.readiness == Readiness::Exhausted
                || self.orders.activity.fought[i]
                || self.goals.broken(i)
            {
                continue;
            }
            let Some(at) = u.at else { continue };
            // Half-point roads can double the reach in hexes.
            let radius = self.orders.budget(self.board, i) / 50 + 1;
            // Read from where the enemy units stand, not the side's fields:
            // every charge moves units, and a field rebuild per charger
            // would cost more than the whole phase. (A pass over the units
            // is cheaper than looking at every hex of so wide a circle.)
            let side = self.side;
            let near = |e: Offset| at.distance(e) <= radius;
            if !self.board.units.iter().any(|e| e.side != side && e.at.is_some_and(near)) {
                continue;
            }
            // The targets: enemy hexes next to the charger, which it charges
            // from where it stands, and enemy hexes next to a hex it can
            // reach and cross from, which it charges from the cheapest such
            // hex (as `charge_path` chooses: cost, then cell). Found from
            // the reach's ends, so no list of every enemy in range is made.
            let reach = charge_reach(self.bf, self.engine, self.board, self.orders.search, i);
            let occupancy = &self.engine.occupancy;
            let enemy_in = |e: Offset| {
                let c = grid.idx(e);
                occupancy.others_may_stand(c, side) && self.enemy_at(c).is_some()
            };
            let mut stops: Vec<(usize, Centi, usize, Offset)> = Vec::new();
            for e in at.neighbours() {
                if grid.in_padded(e) && enemy_in(e) {
                    stops.push((grid.idx(e), 0, 0, at));
                }
            }
            let adjacent = stops.len();
            for &(h, cost) in &reach.ends {
                let hc = grid.idx(h);
                for dir in Dir::ALL {
                    let e = h.neighbour(dir);
                    if near(e) && at.distance(e) > 1 && enemy_in(e) && grid.step_cost(Arm::Cavalry, hc, dir) != BLOCKED
                    {
                        stops.push((grid.idx(e), cost, hc, h));
                    }
                }
            }
            stops[adjacent..].sort_unstable();
            // Screen: a quick score from strengths and the target's state.
            let mut screened: Vec<(i64, usize, Offset)> = Vec::new();
            let mut last = None;
            for &(e, _, _, stop) in &stops {
                if last == Some(e) {
                    continue;
                }
                last = Some(e);
                let Some(t) = self.enemy_at(e) else { continue };
                screened.push((self.charge_screen(i, e), t, stop));
            }
            screened.sort_by_key(|&(s, t, _)| (Reverse(s), t));
            screened.truncate(ctx.rules.ai.charge_candidates as usize);
            // The candidates whose chance clears the threshold, with their
            // scores; one copy of the board for all their odds.
            let mut cleared: Vec<(f32, usize)> = Vec::new();
            // The side's fields brought up to date first: each way played
            // on the copy starts from them, and the rout previews of the
            // chargers ask them, so the copy does not build them anew for
            // every one.
            self.engine.ensure_fields(ctx, self.board, side);
            let mut probe = Probe::new(self.engine, self.board);
            for (_, t, stop) in screened {
                let win = self.charge_win(&mut probe, i, stop, t);
                if win < self.tuning.charge_threshold {
                    continue;
                }
                let tu = &self.board.units[t];
                let mut score = win;
                if tu.state == State::Disordered {
                    score += ctx.rules.ai.charge_disordered_bonus;
                }
                if tu.arm == Arm::Artillery {
                    score += ctx.rules.ai.charge_guns_bonus;
                }
                cleared.push((score, t));
            }
            drop(probe);
            // At `Normal`, a target whose rout would carry contagion to its
            // friends is worth more, as for a volley: its rout preview's
            // expected failures.
            let w = ctx.rules.ai.charge_contagion_weight;
            let mut best: Option<(i64, usize)> = None;
            for (mut score, t) in cleared {
                if w > 0.0
                    && self.goals.mended()
                    && let Some(p) = preview_rout(ctx, self.engine, self.board, t)
                {
                    score *= 1.0 + w * p.expected_failures() as f32;
                }
                let key = (score * KEY_SCALE) as i64;
                if best.is_none_or(|(k, _)| key > k) {
                    best = Some((key, t));
                }
            }
            if let Some((_, t)) = best {
                let order = Order::Charge { unit: self.id(i), target: self.id(t) };
                self.give(order);
            }
        }
    }

    /// A cheap ranking of charge targets before their odds: strength ratio,
    /// with bonuses for shaken, gun and open-ground targets, and a large
    /// penalty for squares (the `rules.ai.charge_screen_*` points).
    fn charge_screen(&self, unit: usize, cell: usize) -> i64 {
        let grid = self.bf.ctx.grid;
        let ai = &self.bf.ctx.rules.ai;
        let mut defence = 0;
        let mut score = 0i64;
        for &v in self.engine.occupancy.at(cell) {
            let v = &self.board.units[v as usize];
            if v.side == self.side {
                continue;
            }
            match v.state {
                State::Routed => score += ai.charge_screen_routed as i64,
                State::Disordered => score += ai.charge_screen_disordered as i64,
                _ => {}
            }
            if v.state != State::Routed {
                defence += v.strength;
            }
            if v.formation == Formation::Square {
                score -= ai.charge_screen_square as i64;
            }
            if v.arm == Arm::Artillery {
                score += ai.charge_screen_guns as i64;
            }
        }
        if !grid.close[cell] {
            score += ai.charge_screen_open as i64;
        }
        let attack = self.board.units[unit].strength as i64;
        score + attack * ai.charge_screen_ratio as i64 / (defence as i64).max(1)
    }

    /// Chance a charge from `stop` at `target` ends favourably, every die
    /// counted (the target's square test and its pre-melee check, then the
    /// table at the hex of contact: `charge_odds`); at `Normal`, less the
    /// expected failures of its own side's checks and
    /// `rules.ai.charge_loss_weight` times the chance the table goes
    /// against the charger.
    fn charge_win(&self, probe: &mut Probe, unit: usize, stop: Offset, target: usize) -> f32 {
        let Some(at) = self.board.units[unit].at else { return 0.0 };
        let path = if at == stop { vec![at] } else { vec![at, stop] };
        let Ok(odds) = charge_odds_on(self.bf, probe, unit, target, &path) else { return 0.0 };
        let win = odds.win_chance();
        if !self.goals.mended() {
            return win;
        }
        // The mended AI weighs what the charge may cost its own side, as
        // for a melee: each failure of a check it brings on them, and the
        // table going against the charger (driven off, a horse unit routs),
        // with the friends its rout from the hex of contact would rout too.
        let ai = &self.bf.ctx.rules.ai;
        let lose = odds.lose_chance();
        let failures = odds.expected_failures(self.board, self.side);
        let worth = win - failures - ai.charge_loss_weight * lose;
        // Only a charge that clears the threshold without the friends can
        // be turned down for them, so no other asks for the preview.
        if worth < self.tuning.charge_threshold || lose <= 0.0 || ai.charge_rout_weight <= 0.0 {
            return worth;
        }
        let routs = self.routs_from(probe, unit, stop);
        win - failures - ai.charge_loss_weight * lose * (1.0 + ai.charge_rout_weight * routs)
    }

    /// How many friends a rout of `unit` from `hex` is expected to rout as
    /// well (its rout preview there, played on the probe's copy): none
    /// when no friend in good order stands within a rout move of `hex`,
    /// for only those could check.
    fn routs_from(&self, probe: &mut Probe, unit: usize, hex: Offset) -> f32 {
        let ctx = self.bf.ctx;
        let reach = ctx.rules.rout_hexes;
        let near = |(i, u): (usize, &crate::labataille::HexUnit)| {
            i != unit
                && u.side == self.side
                && u.state == State::GoodOrder
                && u.at.is_some_and(|at| at.distance(hex) <= reach)
        };
        if !self.board.units.iter().enumerate().any(near) {
            return 0.0;
        }
        let (engine, board) = probe.fresh();
        engine.relocate(ctx, board, unit, Some(hex));
        preview_rout(ctx, engine, board, unit).map_or(0.0, |p| p.expected_routs(ctx, board) as f32)
    }
}
