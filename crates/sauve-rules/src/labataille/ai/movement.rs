//! The AI's movement phase: the side's goal fields, each unit's role
//! (garrison, reserve, attacker, bound for an exit, hunter), and each unit's move
//! by its role and arm: formation, guns limbered or not, then the hex.

use std::cmp::Reverse;

use crate::hex::Offset;
use crate::labataille::fields::FAR;
use crate::terrain::Arm;
use crate::vocab::Formation;
use crate::vocab::State;

use super::goal_fields::UNREACHED;
use super::goals::Tuning;
use super::phase::Ai;
use super::plan::{Plan, Role};
use super::script::Script;

impl Ai<'_, '_, '_> {
    pub(super) fn movement(&mut self) {
        let ctx = self.bf.ctx;
        let grid = ctx.grid;
        let side = self.side;
        let Some(sight) = self.engine.shared_fields(ctx, self.board, side) else { return };
        let mut objectives: Vec<usize> = Vec::new();
        let mut take: Vec<(usize, u32)> = Vec::new();
        let mut threatened: Vec<(usize, u32)> = Vec::new();
        for &(at, _, holder) in &self.goals.objectives {
            if !grid.in_padded(at) || !grid.on_map[grid.idx(at)] {
                continue;
            }
            let cell = grid.idx(at);
            objectives.push(cell);
            let held = holder == Some(side) || self.engine.occupancy.count(cell, side) > 0;
            let threat = sight.dist[cell] <= ctx.rules.ai.threat_radius;
            if !held || threat {
                take.push((cell, 0));
            }
            if held && threat {
                threatened.push((cell, 0));
            }
        }
        objectives.sort_unstable();
        objectives.dedup();
        let bias = if take.is_empty() { 0 } else { self.tuning.objective_bias };
        let scripted = |s: Script| {
            self.board
                .units
                .iter()
                .enumerate()
                .any(|(i, u)| u.side == side && u.at.is_some() && self.goals.script(i) == s)
        };
        let objective_sources: Vec<(usize, u32)> =
            if take.is_empty() { objectives.iter().map(|&c| (c, 0)).collect() } else { take.clone() };
        let wants_objective = !objective_sources.is_empty() && scripted(Script::Objective);
        let to_take: Vec<Offset> = take.iter().map(|&(c, _)| grid.offset(c)).collect();
        let mut sources = take;
        for u in &self.board.units {
            if u.side != side
                && let Some(at) = u.at
            {
                sources.push((grid.idx(at), bias));
            }
        }
        let kept = &mut self.engine.goal_fields;
        let attack = kept.field(grid, Arm::Infantry, &sources);
        let defend = (!threatened.is_empty()).then(|| kept.field(grid, Arm::Infantry, &threatened));
        let objective = wants_objective.then(|| kept.field(grid, Arm::Infantry, &objective_sources));
        let exits = self.exit_routes();
        let lanes = self.rout_lanes(&sight);
        let squares = self.squares_needed(&sight);
        let mut plan = Plan { sight, attack, defend, objective, objectives, exits, lanes, squares, hunts: Vec::new() };

        // Roles: the first good-order unit on an objective holds it; the
        // rearmost share of the rest is the reserve.
        let n = self.board.units.len();
        let mut role = vec![Role::Attack; n];
        let mut garrisoned: Vec<usize> = Vec::new();
        let mut eligible: Vec<(Reverse<u16>, usize)> = Vec::new();
        for (i, u) in self.board.units.iter().enumerate() {
            let Some(at) = u.at else { continue };
            if u.side != side || u.state != State::GoodOrder {
                continue;
            }
            if self.goals.broken(i) {
                // The planning AI may hold a unit of a broken corps where
                // it stands, as a garrison (it still forms square against
                // horse and fires), rather than fall back. Its own scripts
                // are read, not `script`, which gives the `hold` yardstick
                // `Hold` everywhere: that level's broken corps fall back.
                if self.goals.scripts.get(i) == Some(&Script::Hold) {
                    role[i] = Role::Garrison;
                }
                continue;
            }
            let cell = grid.idx(at);
            if plan.objectives.binary_search(&cell).is_ok() && !garrisoned.contains(&cell) {
                garrisoned.push(cell);
                role[i] = Role::Garrison;
                continue;
            }
            // The planning AI's script for the unit, if not `Advance`.
            role[i] = match self.goals.script(i) {
                Script::Advance => Role::Attack,
                Script::Hold => Role::Garrison,
                Script::Assault => Role::Assault,
                Script::Objective => Role::Objective,
                Script::Withdraw => Role::Withdraw,
            };
            if role[i] != Role::Attack {
                continue;
            }
            eligible.push((Reverse(plan.sight.dist[cell]), i));
        }
        eligible.sort_unstable();
        let reserves = (eligible.len() as f32 * self.tuning.reserve_share).floor() as usize;
        for &(_, i) in eligible.iter().take(reserves) {
            role[i] = Role::Reserve;
        }
        // Of the attackers, the share nearest an exit that pays makes for it.
        let attackers = &eligible[reserves.min(eligible.len())..];
        let sent = (attackers.len() as f32 * ctx.rules.ai.exit_share).floor() as usize;
        if sent > 0 && !plan.exits.is_empty() {
            let mut nearest: Vec<(u32, usize, usize)> = attackers
                .iter()
                .filter_map(|&(_, i)| {
                    let cell = grid.idx(self.board.units[i].at?);
                    plan.exits
                        .iter()
                        .enumerate()
                        .filter(|(_, e)| self.exit_pays(i, e) && e.field[cell] != UNREACHED)
                        .map(|(k, e)| (e.field[cell], i, k))
                        .min()
                })
                .collect();
            nearest.sort_unstable();
            for &(_, i, k) in nearest.iter().take(sent) {
                role[i] = Role::Exit(k);
            }
        }
        // Last, an attacker with no enemy near goes after each lone enemy
        // unit that still counts.
        self.send_hunters(&mut plan, &mut role, &to_take);
        for (i, &r) in role.iter().enumerate() {
            if self.ours(i) {
                self.move_unit(&plan, i, r);
            }
        }
        // Last, with every move made, fronts turn to the nearest enemy.
        for i in 0..n {
            if self.ours(i) {
                self.face_enemy(&plan, i);
            }
        }
    }

    fn move_unit(&mut self, plan: &Plan, i: usize, role: Role) {
        let grid = self.bf.ctx.grid;
        let ai = &self.bf.ctx.rules.ai;
        let (column_beyond, reserve_follow) = (ai.column_beyond, ai.reserve_follow);
        let u = &self.board.units[i];
        let Some(at) = u.at else { return };
        match u.state {
            State::GoodOrder if !self.goals.broken(i) && role == Role::Withdraw => {
                self.fall_back(plan, i);
                return;
            }
            State::GoodOrder if !self.goals.broken(i) || role == Role::Garrison => {}
            // The mended AI keeps a good-order garrison on its objective
            // when its corps breaks: leaving gives the points away.
            State::GoodOrder if self.goals.mended() && plan.objectives.binary_search(&grid.idx(at)).is_ok() => {
                return;
            }
            State::GoodOrder | State::Disordered => {
                self.fall_back(plan, i);
                return;
            }
            _ => return,
        }
        let (arm, formation, limbered) = (u.arm, u.formation, u.limbered);
        let cell = grid.idx(at);
        let d = plan.sight.dist[cell];
        let standoff = self.tuning.standoff(arm);
        // Garrisons and the reserve are needed where they are; the rest
        // leave by an exit that pays once they stand on its edge.
        let may_exit = matches!(role, Role::Attack | Role::Exit(_) | Role::Assault | Role::Hunt(_));
        if may_exit && self.leave(plan, i) {
            return;
        }
        // Where the unit is headed, if anywhere.
        let goal: Option<(&[u32], u16)> = match role {
            Role::Garrison | Role::Withdraw => None,
            Role::Attack => Some((&plan.attack, standoff)),
            Role::Assault => Some((&plan.attack, Tuning::new(1.0, ai).standoff(arm))),
            Role::Objective => Some((plan.objective.as_deref().unwrap_or(&plan.attack), standoff)),
            Role::Exit(k) => Some((&plan.exits[k].field, standoff)),
            Role::Hunt(k) => Some((&plan.hunts[k], standoff)),
            Role::Reserve => match &plan.defend {
                Some(f) => Some((f, standoff)),
                None if d != FAR && d > reserve_follow => Some((&plan.attack, reserve_follow)),
                None => None,
            },
        };
        match arm {
            Arm::Infantry => {
                let close = grid.close[cell];
                let threatened = if self.goals.mended() {
                    plan.squares.get(i) == Some(&true)
                } else {
                    !self.horse_near(&plan.sight, at).is_empty()
                };
                if !close && threatened {
                    self.formation(i, Formation::Square);
                    return;
                }
                if formation == Formation::Square {
                    self.formation(i, if d <= column_beyond { Formation::Line } else { Formation::Column });
                }
                let Some((field, standoff)) = goal else {
                    if !close && d <= column_beyond {
                        self.formation(i, Formation::Line);
                    }
                    return;
                };
                if !close && d > column_beyond && self.board.units[i].formation == Formation::Line {
                    self.formation(i, Formation::Column);
                }
                self.advance(plan, i, field, standoff);
                if may_exit && self.leave(plan, i) {
                    return;
                }
                if let Some(now) = self.board.units[i].at {
                    let c = grid.idx(now);
                    if !grid.close[c] && plan.sight.dist[c] <= column_beyond {
                        self.formation(i, Formation::Line);
                    }
                }
            }
            Arm::Cavalry => {
                let Some((field, standoff)) = goal else { return };
                if d > column_beyond && formation == Formation::Line {
                    self.formation(i, Formation::Column);
                }
                self.advance(plan, i, field, standoff);
                if may_exit {
                    self.leave(plan, i);
                }
            }
            Arm::Artillery => {
                let range = self.bf.ctx.rules.combat.fire_range.artillery.floor().max(0.0) as u16;
                if limbered && d <= ai.unlimber_within.min(range) {
                    self.limber(i, false);
                    return;
                }
                let Some((field, standoff)) = goal else {
                    if limbered && d <= range {
                        self.limber(i, false);
                    }
                    return;
                };
                if !limbered {
                    if d <= range {
                        return;
                    }
                    if !self.limber(i, true) {
                        return;
                    }
                }
                self.advance(plan, i, field, standoff);
                if may_exit && self.leave(plan, i) {
                    return;
                }
                if let Some(now) = self.board.units[i].at
                    && plan.sight.dist[grid.idx(now)] <= range
                {
                    self.limber(i, false);
                }
            }
        }
    }
}
