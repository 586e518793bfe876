//! How the AI's units stand: square near enemy cavalry, column or line,
//! guns limbered or not, and fronts turned to the nearest enemy.

use crate::hex::Offset;
use crate::labataille::combat::charge_odds_on;
use crate::labataille::fields::{FAR, SideFields, front_sides};
use crate::labataille::grid::BLOCKED;
use crate::labataille::orders::{Order, change_cost, face_cost};
use crate::labataille::probe::Probe;
use crate::terrain::Arm;
use crate::vocab::State;
use crate::vocab::{Formation, Readiness};

use super::goals::Tuning;
use super::phase::Ai;
use super::plan::Plan;

impl Ai<'_, '_, '_> {
    /// A unit in good order, not in square and not yet in combat, with an
    /// enemy within `rules.ai.face_within` outside its three front hexsides
    /// turns to face the nearest (rule 1.7), if it has the movement points.
    /// Ties between equally near enemies go to the lowest (c, r).
    pub(super) fn face_enemy(&mut self, plan: &Plan, i: usize) -> bool {
        let ctx = self.bf.ctx;
        let u = &self.board.units[i];
        let Some(at) = u.at else { return false };
        if u.state != State::GoodOrder || u.formation == Formation::Square || self.orders.activity.fought[i] {
            return false;
        }
        let d = plan.sight.dist[ctx.grid.idx(at)];
        if d == FAR || d == 0 || d > ctx.rules.ai.face_within {
            return false;
        }
        let mut nearest: Option<(u32, Offset)> = None;
        plan.sight.enemies_within(at, d as u32, |e| {
            let key = (at.distance(e), e);
            if nearest.is_none_or(|n| key < n) {
                nearest = Some(key);
            }
        });
        let Some((_, enemy)) = nearest else { return false };
        let to = at.bearing_to(enemy);
        if front_sides(u.facing).contains(&to) {
            return false;
        }
        let cost = face_cost(ctx.rules);
        if self.orders.budget(self.board, i) < cost {
            return false;
        }
        let order = Order::Face { unit: self.id(i), facing: to };
        self.give(order)
    }

    /// The enemy horse able to charge (in good order, not exhausted) within
    /// `rules.ai.square_radius` of `at`, each once, by index.
    pub(super) fn horse_near(&self, sight: &SideFields, at: Offset) -> Vec<usize> {
        let grid = self.bf.ctx.grid;
        let radius = self.bf.ctx.rules.ai.square_radius;
        let mut horse: Vec<usize> = Vec::new();
        if sight.dist[grid.idx(at)] as u32 > radius {
            return horse;
        }
        sight.enemies_within(at, radius, |e| {
            for &v in self.engine.occupancy.at(grid.idx(e)) {
                let u = &self.board.units[v as usize];
                if u.side != self.side
                    && u.arm == Arm::Cavalry
                    && u.state == State::GoodOrder
                    && u.readiness != Readiness::Exhausted
                {
                    horse.push(v as usize);
                }
            }
        });
        horse.sort_unstable();
        horse.dedup();
        horse
    }

    /// At `Normal`, by unit, for the phase: whether a battalion of the
    /// side in good order in the open, with enemy horse near it
    /// ([`Self::horse_near`]), should form square. Only when one of those
    /// horse units has a charge at it that would pay: from a hex next to
    /// it, as it would stand out of square (line within `column_beyond`
    /// of the enemy, column farther off), the charge's chance to end in
    /// the horse's favour, every die counted (the square test first),
    /// reaches the charging side's threshold at its aggression. Worked out
    /// on one copy of the board before any unit moves (each battalion
    /// decides from where it stands then): a copy for every battalion cost
    /// the 2,000-unit turn a tenth of its time. Empty at `Easy`, which
    /// squares before any horse near.
    pub(super) fn squares_needed(&self, sight: &SideFields) -> Vec<bool> {
        let ctx = self.bf.ctx;
        let grid = ctx.grid;
        let n = self.board.units.len();
        if !self.goals.mended() {
            return Vec::new();
        }
        let mut threats: Vec<(usize, Offset, Vec<usize>)> = Vec::new();
        for i in 0..n {
            let u = &self.board.units[i];
            let Some(at) = u.at else { continue };
            if u.side != self.side || u.arm != Arm::Infantry || u.state != State::GoodOrder || grid.close[grid.idx(at)]
            {
                continue;
            }
            let horse = self.horse_near(sight, at);
            if !horse.is_empty() {
                threats.push((i, at, horse));
            }
        }
        let mut out = vec![false; n];
        if threats.is_empty() {
            return out;
        }
        // Battalions in square are weighed as they would stand out of it.
        let mut board = self.board.clone();
        for &(i, at, _) in &threats {
            if board.units[i].formation == Formation::Square {
                let near = sight.dist[grid.idx(at)] <= ctx.rules.ai.column_beyond;
                board.units[i].formation = if near { Formation::Line } else { Formation::Column };
            }
        }
        let mut probe = Probe::new(self.engine, &board);
        for (i, at, horse) in threats {
            out[i] = horse.into_iter().any(|v| self.charge_would_pay(&mut probe, v, i, at));
        }
        out
    }

    /// Whether enemy horse `v` has a charge at unit `i` at `at` (as the
    /// probe's board has it) that clears the horse's side's charge
    /// threshold (raw chance: at `Normal` that side weighs its losses too,
    /// so it charges no more often than this), from the hex next to `at`
    /// nearest the horse that it may charge from (as its charge path
    /// would end: the nearest, then the lowest cell).
    fn charge_would_pay(&self, probe: &mut Probe, v: usize, i: usize, at: Offset) -> bool {
        let ctx = self.bf.ctx;
        let grid = ctx.grid;
        let Some(from) = self.board.units[v].at else { return false };
        let theirs = self.board.units[v].side;
        let aggression = ctx.sides.get(theirs).map_or(crate::scenario::DEFAULT_AGGRESSION, |s| s.aggression);
        let threshold = Tuning::new(aggression, &ctx.rules.ai).charge_threshold;
        let stop = at
            .neighbours()
            .into_iter()
            .filter(|&n| {
                grid.in_padded(n)
                    && grid.on_map[grid.idx(n)]
                    && n.direction_to(at).is_some_and(|d| grid.step_cost(Arm::Cavalry, grid.idx(n), d) != BLOCKED)
                    && (n == from || self.engine.occupancy.count(grid.idx(n), self.side) == 0)
            })
            .min_by_key(|&n| (from.distance(n), grid.idx(n)));
        let Some(stop) = stop else { return false };
        let path = if stop == from { vec![from] } else { vec![from, stop] };
        charge_odds_on(self.bf, probe, v, i, &path).is_ok_and(|o| o.win_chance() >= threshold)
    }

    /// Changes formation if the rules allow it now (checked first, so that
    /// the AI does not flood the log with refused orders).
    pub(super) fn formation(&mut self, i: usize, to: Formation) -> bool {
        let u = &self.board.units[i];
        let allowed = matches!(
            (u.arm, to),
            (Arm::Infantry, Formation::Line | Formation::Column | Formation::Square)
                | (Arm::Cavalry, Formation::Line | Formation::Column)
        );
        if !allowed || u.state != State::GoodOrder || u.formation == to || !self.can_change(i) {
            return false;
        }
        let order = Order::Formation { unit: self.id(i), to };
        self.give(order)
    }

    fn can_change(&self, i: usize) -> bool {
        let change = change_cost(self.bf.ctx.rules);
        !self.orders.activity.moved[i] || self.orders.budget(self.board, i) >= change
    }

    pub(super) fn limber(&mut self, i: usize, limbered: bool) -> bool {
        let u = &self.board.units[i];
        if u.arm != Arm::Artillery
            || u.state != State::GoodOrder
            || u.limbered == limbered
            || (limbered && self.orders.activity.moved[i])
        {
            return false;
        }
        let order = Order::Limber { unit: self.id(i), limbered };
        self.give(order)
    }
}
