//! The orders of a free-space bound (docs/rules.md 2.5, 2.7-2.10): what each
//! unit did this bound, and carrying out a march, a change of formation,
//! limbering, a charge, a volley or a melee on the table, with the losses,
//! valour falls and forced moves they cause. Forced moves wait in the
//! engine's queue for the phase's end ([`close_phase`]), as 2.5 asks.

use crate::belle_alliance::combat::{self, clash_result, fight, read, volley};
use crate::belle_alliance::engine::{FsEngine, Pending, cm};
use crate::belle_alliance::geometry::{OrientedRect, bearing_of, bearing_vector};
use crate::belle_alliance::march::{self, allowance, may_march, turn_between};
use crate::belle_alliance::tables::severity;
use crate::belle_alliance::{FsCtx, Table};
use crate::dice::{Dice, Roll};
use crate::events::{Cause, EventKind, EventLog, FireRoll, Heading, Lost, MeleeRolls, MoveReason, Seq};
use crate::labataille::orders::{Order, OrderError, allows};
use crate::terrain::Arm;
use crate::turn::Phase;
use crate::vocab::{Formation, Shape, State};

const EPS: f32 = 1e-3;

/// What each unit did this bound (by unit index), and what lasts the battle.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FsPlay {
    /// March used this bound, cm.
    pub used_cm: Vec<f32>,
    pub reformed: Vec<bool>,
    pub charged: Vec<bool>,
    pub fought: Vec<bool>,
    /// Fired this fire phase.
    pub fired: Vec<bool>,
    /// Batteries whose guns the enemy took (2.2.7).
    pub captured: Vec<bool>,
    /// Units that have marched or charged by order (not only fled or been
    /// pushed back): whether the enemy has come on (2.12).
    pub ordered: Vec<bool>,
    /// Forced moves waiting for the phase's end.
    pub pending: Pending,
}

impl FsPlay {
    pub fn new(units: usize) -> Self {
        Self {
            used_cm: vec![0.0; units],
            reformed: vec![false; units],
            charged: vec![false; units],
            fought: vec![false; units],
            fired: vec![false; units],
            captured: vec![false; units],
            ordered: vec![false; units],
            pending: Pending::default(),
        }
    }

    /// A side's bound begins: its units may march, re-form, charge and fight again.
    pub fn new_bound(&mut self, table: &Table, side: usize) {
        for (i, u) in table.units.iter().enumerate() {
            if u.side == side {
                self.used_cm[i] = 0.0;
                self.reformed[i] = false;
                self.charged[i] = false;
                self.fought[i] = false;
            }
        }
    }

    pub fn new_fire_phase(&mut self) {
        self.fired.iter_mut().for_each(|f| *f = false);
    }

    /// March left to unit `u` this bound (a change of formation takes its share).
    pub fn march_left(&self, ctx: &FsCtx, table: &Table, u: usize) -> f32 {
        let full = allowance(&table.units[u], ctx);
        (full - self.used_cm[u]).max(0.0)
    }
}

/// Where in the battle an order is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At {
    pub turn: u32,
    pub phase: Phase,
    /// The side giving orders.
    pub side: usize,
}

fn illegal(unit: &str, why: impl Into<String>) -> OrderError {
    OrderError::Illegal { unit: unit.into(), why: why.into() }
}

/// The index of a unit of the acting side by id.
fn own(table: &Table, id: &str, side: usize) -> Result<usize, OrderError> {
    let i = table.index_of(id).ok_or_else(|| OrderError::UnknownUnit(id.into()))?;
    if table.units[i].side != side {
        return Err(OrderError::NotYours { unit: id.into() });
    }
    Ok(i)
}

fn enemy(table: &Table, id: &str, side: usize) -> Result<usize, OrderError> {
    let i = table.index_of(id).ok_or_else(|| OrderError::UnknownUnit(id.into()))?;
    if table.units[i].side == side {
        return Err(illegal(id, "is a friend"));
    }
    Ok(i)
}

/// The whole table's state during one order: everything an order changes.
pub struct Bound<'a, 'c> {
    pub ctx: &'a FsCtx<'c>,
    pub engine: &'a mut FsEngine,
    pub table: &'a mut Table,
    pub play: &'a mut FsPlay,
    pub dice: &'a mut Dice,
    pub log: &'a mut EventLog,
}

impl Bound<'_, '_> {
    /// Carries out one order of the side `at.side`, or says why not. An
    /// order that is refused changes nothing.
    pub fn apply(&mut self, at: At, order: &Order) -> Result<(), OrderError> {
        if !allows(at.phase, order) || matches!(order, Order::Move { .. } | Order::Face { .. } | Order::Exit { .. }) {
            return Err(OrderError::WrongPhase { order: order.kind(), phase: at.phase });
        }
        self.engine.restore(std::mem::take(&mut self.play.pending));
        let r = match order {
            Order::March { unit, to, facing } => self.march(at, unit, *to, *facing),
            Order::Formation { unit, to } => self.reform(at, unit, *to),
            Order::Limber { unit, limbered } => self.limber(at, unit, *limbered),
            Order::Charge { unit, target } => self.charge(at, unit, target),
            Order::Fire { units, target } => self.fire(at, units, target),
            Order::Melee { units, target } => self.melee(at, units, target, false),
            Order::Move { .. } | Order::Face { .. } | Order::Exit { .. } => unreachable!("refused above"),
        };
        self.play.pending = self.engine.take_pending();
        r
    }

    fn march(&mut self, at: At, id: &str, to: (f32, f32), facing: f32) -> Result<(), OrderError> {
        let u = own(self.table, id, at.side)?;
        may_march(self.table.units[u].state).map_err(|w| illegal(id, w))?;
        if self.play.charged[u] {
            return Err(illegal(id, "has charged this bound"));
        }
        if !(to.0.is_finite() && to.1.is_finite() && facing.is_finite()) {
            return Err(illegal(id, "a march needs a place and a facing"));
        }
        let left = self.play.march_left(self.ctx, self.table, u);
        let mut near = Vec::new();
        let plan =
            march::plan(self.ctx, self.engine, self.table, u, to, facing, &mut near).map_err(|w| illegal(id, w))?;
        if plan.cost > left + EPS {
            return Err(illegal(id, format!("the march costs {:.1} cm and {left:.1} cm are left", plan.cost)));
        }
        self.play.used_cm[u] += plan.cost;
        self.play.ordered[u] = true;
        let unit = &mut self.table.units[u];
        let (from, was) = ((unit.x, unit.y), unit.facing);
        unit.facing = facing.rem_euclid(360.0);
        unit.x = to.0;
        unit.y = to.1;
        if turn_between(was, unit.facing) > EPS {
            self.log.push(EventKind::Facing {
                unit: id.into(),
                from: Heading::Degrees(was),
                to: Heading::Degrees(unit.facing),
            });
        }
        if (from.0 - to.0).hypot(from.1 - to.1) > EPS {
            self.log.push(EventKind::Move {
                unit: id.into(),
                reason: MoveReason::Order,
                from: cm(from),
                to: cm(to),
                path: plan.path.iter().copied().map(cm).collect(),
            });
        }
        self.engine.moved(self.ctx, self.table, u);
        Ok(())
    }

    /// The share of its march a change of formation or limbering uses.
    fn reform_cost(&self, u: usize) -> f32 {
        allowance(&self.table.units[u], self.ctx) * self.ctx.ba().march_costs.formation_change_share
    }

    fn reform(&mut self, at: At, id: &str, to: Formation) -> Result<(), OrderError> {
        let u = own(self.table, id, at.side)?;
        let unit = &self.table.units[u];
        if unit.state == State::FU {
            return Err(illegal(id, "a fleeing unit stands for the rest of the bound (2.2.1)"));
        }
        if !march::formation_allowed(unit.arm, to) {
            let arm = format!("{:?}", unit.arm).to_lowercase();
            return Err(illegal(id, format!("{arm} cannot form {}", to.words())));
        }
        if unit.formation == to {
            return Err(illegal(id, format!("is already in {}", to.words())));
        }
        if self.play.reformed[u] || self.play.charged[u] {
            return Err(illegal(id, "has already re-formed or charged this bound"));
        }
        let cost = self.reform_cost(u);
        let left = self.play.march_left(self.ctx, self.table, u);
        if cost > left + EPS {
            return Err(illegal(id, format!("re-forming takes {cost:.1} cm of march and {left:.1} cm are left")));
        }
        let mut near = Vec::new();
        march::reform_room(self.ctx, self.engine, self.table, u, to, &mut near).map_err(|w| illegal(id, w))?;
        let was = unit.formation;
        self.table.units[u].formation = to;
        // The new formation's own march: what is used stays used.
        self.play.used_cm[u] += cost;
        self.play.reformed[u] = true;
        self.log.push(EventKind::Formation { unit: id.into(), from: was.into(), to: to.into() });
        self.engine.moved(self.ctx, self.table, u);
        Ok(())
    }

    fn limber(&mut self, at: At, id: &str, limbered: bool) -> Result<(), OrderError> {
        let u = own(self.table, id, at.side)?;
        let unit = &self.table.units[u];
        if unit.arm != Arm::Artillery || unit.guns_left.is_some() {
            return Err(illegal(id, "has no guns to limber"));
        }
        if unit.state == State::FU {
            return Err(illegal(id, "a fleeing unit stands for the rest of the bound (2.2.1)"));
        }
        if unit.limbered == limbered {
            return Err(illegal(id, if limbered { "is limbered already" } else { "is unlimbered already" }));
        }
        if self.play.reformed[u] {
            return Err(illegal(id, "has already limbered or unlimbered this bound"));
        }
        let cost = self.reform_cost(u);
        let left = self.play.march_left(self.ctx, self.table, u);
        if cost > left + EPS {
            return Err(illegal(id, format!("it takes {cost:.1} cm of march and {left:.1} cm are left")));
        }
        self.table.units[u].limbered = limbered;
        self.play.used_cm[u] += cost;
        self.play.reformed[u] = true;
        let (from, to) =
            if limbered { (Shape::Unlimbered, Shape::Limbered) } else { (Shape::Limbered, Shape::Unlimbered) };
        self.log.push(EventKind::Formation { unit: id.into(), from, to });
        Ok(())
    }

    /// Where a charge of `u` at `t` makes contact, facing the target's
    /// centre, or why it cannot (2.7): horse in line or column, in order or
    /// LU, that has not marched; the target in its front arc within
    /// `charge_factor` times its march; nothing else in the way.
    pub fn charge_contact(&self, u: usize, t: usize) -> Result<((f32, f32), f32), String> {
        let (ctx, engine, table, play) = (self.ctx, &*self.engine, &*self.table, &*self.play);
        let unit = &table.units[u];
        let target = &table.units[t];
        if unit.arm != Arm::Cavalry {
            return Err("only horse charges".into());
        }
        if !matches!(unit.state, State::Order | State::LU) {
            return Err(format!("it cannot charge while {}", crate::sentences::state_words(unit.state.free_space())));
        }
        if !matches!(unit.formation, Formation::Line | Formation::Column) {
            return Err("it must be in line or column to charge".into());
        }
        if play.charged[u] || play.used_cm[u] > EPS || play.fought[u] {
            return Err("it has marched, charged or fought this bound".into());
        }
        if !march::in_front_arc(unit, (target.x, target.y), ctx) {
            return Err(format!("{} is not in its front arc", target.id));
        }
        let facing = bearing_of(target.x - unit.x, target.y - unit.y);
        let dir = bearing_vector(facing);
        let rect = OrientedRect { facing, ..engine.rect(u) };
        let reach = allowance(unit, ctx) * ctx.ba().march_costs.charge_factor;
        let Some(hit) = rect.time_of_impact(dir, reach + 1000.0, &engine.rect(t)) else {
            return Err(format!("{} cannot be reached", target.id));
        };
        if hit > reach + EPS {
            return Err(format!("{} is {hit:.0} cm away; a charge rides {reach:.0} cm", target.id));
        }
        let mut near = Vec::new();
        let end = rect.shifted(dir.0 * hit, dir.1 * hit);
        let a = rect.aabb();
        let b = end.aabb();
        engine.near((a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3)), &mut near);
        for &j in &near {
            if j != u && j != t && rect.time_of_impact(dir, hit, &engine.rect(j)).is_some_and(|x| x < hit - EPS) {
                return Err(format!("{} is in the way", table.units[j].id));
            }
        }
        let (w, h) = ctx.table_cm();
        if b.0 < 0.0 || b.1 < 0.0 || b.2 > w || b.3 > h {
            return Err("it would leave the table".into());
        }
        Ok(((end.x, end.y), facing))
    }

    fn charge(&mut self, at: At, id: &str, target: &str) -> Result<(), OrderError> {
        let u = own(self.table, id, at.side)?;
        let t = enemy(self.table, target, at.side)?;
        self.charge_contact(u, t).map_err(|w| illegal(id, w))?;
        // The order is an event of its own: the target's square test and
        // the ride follow from it.
        let attack =
            self.log.push(EventKind::Attack { attackers: vec![id.into()], target: target.into(), charge: true });
        let reacted = self.square_against(t, u, attack);
        // A square stands where the line stood but is shaped otherwise: the
        // charge rides at it, or is called off if it is now out of reach.
        let contact = self.charge_contact(u, t);
        self.play.charged[u] = true;
        self.play.ordered[u] = true;
        self.play.used_cm[u] = f32::MAX / 4.0;
        let Ok((to, facing)) = contact else { return Ok(()) };
        let unit = &mut self.table.units[u];
        let (from, was) = ((unit.x, unit.y), unit.facing);
        unit.x = to.0;
        unit.y = to.1;
        unit.facing = facing;
        let turned = (turn_between(was, facing) > EPS).then(|| {
            self.log.push_because(
                EventKind::Facing { unit: id.into(), from: Heading::Degrees(was), to: Heading::Degrees(facing) },
                &[attack],
            )
        });
        let ride: Vec<Seq> = match turned {
            Some(turned) => vec![turned],
            None => vec![attack],
        };
        let moved = self.log.push_because(
            EventKind::Move {
                unit: id.into(),
                reason: MoveReason::Charge,
                from: cm(from),
                to: cm(to),
                path: vec![cm(from), cm(to)],
            },
            &ride.into_iter().chain(reacted).collect::<Vec<_>>(),
        );
        self.engine.moved(self.ctx, self.table, u);
        self.clash(&[u], t, true, &[moved]).map_err(|w| illegal(id, w))
    }

    /// Foot charged by horse tries to form square before the contact
    /// (house default, docs/rules.md 2.7): in line or column, in order or
    /// LU, 3d6 + valour reaching `melee.square_test`, with room to form it.
    /// The test follows from the charge's `attack` by `charger`. Returns
    /// the test's or the square's `seq` (none if it could not try).
    fn square_against(&mut self, t: usize, charger: usize, attack: Seq) -> Option<Seq> {
        let target = &self.table.units[t];
        if !tries_square(target) {
            return None;
        }
        let need = self.ctx.ba().melee.square_test;
        let roll = self.dice.three_d6_for(t, Roll::Check) as i32;
        let total = roll + target.valour;
        let passed = total >= need;
        let check = self.log.push_because(
            EventKind::MoraleCheck {
                unit: target.id.clone(),
                cause: Cause::Charge,
                morale: need.clamp(0, 255) as u8,
                modifier: target.valour,
                roll: roll as u8,
                result: total.clamp(0, 255) as u8,
                passed,
                source: Some(self.table.units[charger].id.clone()),
            },
            &[attack],
        );
        let mut near = Vec::new();
        if !passed || march::reform_room(self.ctx, self.engine, self.table, t, Formation::Square, &mut near).is_err() {
            return Some(check);
        }
        let was = self.table.units[t].formation;
        self.table.units[t].formation = Formation::Square;
        let id = self.table.units[t].id.clone();
        let formed = self
            .log
            .push_because(EventKind::Formation { unit: id, from: was.into(), to: Formation::Square.into() }, &[check]);
        self.engine.moved(self.ctx, self.table, t);
        Some(formed)
    }

    /// The units an order names, each of the acting side, named once and
    /// not yet `done` (with `why` if it is).
    fn group(&self, at: At, ids: &[String], done: &[bool], why: &str) -> Result<Vec<usize>, OrderError> {
        let mut group = Vec::new();
        for id in ids {
            let i = own(self.table, id, at.side)?;
            if done[i] {
                return Err(illegal(id, why));
            }
            if group.contains(&i) {
                return Err(illegal(id, "is named twice"));
            }
            group.push(i);
        }
        Ok(group)
    }

    fn fire(&mut self, at: At, ids: &[String], target: &str) -> Result<(), OrderError> {
        let firers = self.group(at, ids, &self.play.fired, "has already fired this phase")?;
        let t = enemy(self.table, target, at.side)?;
        let v = volley(self.ctx, self.engine, self.table, &firers, t)
            .map_err(|w| illegal(ids.first().map_or("", String::as_str), w))?;
        let roll = self.dice.three_d6_for(t, Roll::FireAt) as i32;
        let total = roll + v.modifier;
        let row = read(&self.ctx.ba().fire.results, total);
        let (figures, state) = row.map_or((0, State::Order), |r| (r.figures, r.state));
        let fired = self.log.push(EventKind::Fire {
            units: ids.to_vec(),
            target: target.into(),
            rolled: FireRoll::FreeSpace {
                points: v.points,
                modifier: v.modifier,
                roll: roll as u8,
                total,
                figures,
                state,
            },
        });
        for i in firers {
            self.play.fired[i] = true;
        }
        self.suffer(t, figures, state, Cause::Fire, Some(v.from), at.turn, &[fired]);
        Ok(())
    }

    fn melee(&mut self, at: At, ids: &[String], target: &str, charged: bool) -> Result<(), OrderError> {
        let attackers = self.group(at, ids, &self.play.fought, "has already fought this bound")?;
        let t = enemy(self.table, target, at.side)?;
        let first = ids.first().map_or("", String::as_str);
        fight(self.ctx, self.engine, self.table, &attackers, t, charged).map_err(|w| illegal(first, w))?;
        // The order is an event of its own, which the melee follows from.
        let attack = self.log.push(EventKind::Attack { attackers: ids.to_vec(), target: target.into(), charge: false });
        self.clash(&attackers, t, charged, &[attack]).map_err(|w| illegal(first, w))
    }

    /// A melee (2.9), rolled and suffered: the loser takes its row, the
    /// winner a figure unless it won cleanly; a draw costs each a figure.
    fn clash(&mut self, attackers: &[usize], t: usize, charged: bool, by: &[Seq]) -> Result<(), String> {
        let f = fight(self.ctx, self.engine, self.table, attackers, t, charged)?;
        let m = &self.ctx.ba().melee;
        let (ar, dr) =
            (self.dice.three_d6_for(t, Roll::MeleeAt) as i32, self.dice.three_d6_for(t, Roll::MeleeAt) as i32);
        let (at_total, de_total) = (ar + f.attack, dr + f.defence);
        let diff = at_total - de_total;
        let lead = attackers[0];
        let result = clash_result(diff, &m.results);
        let loser = result.map(|(defender_lost, _)| if defender_lost { t } else { lead });
        let (figures, state) = result.map_or((0, State::Order), |(_, r)| (r.figures, r.state));
        let clash = self.log.push_because(
            EventKind::Melee {
                attackers: attackers.iter().map(|&a| self.table.units[a].id.clone()).collect(),
                defenders: vec![self.table.units[t].id.clone()],
                rolls: MeleeRolls::FreeSpace {
                    attack_roll: ar as u8,
                    attack_total: at_total,
                    defence_roll: dr as u8,
                    defence_total: de_total,
                    loser: loser.map(|l| self.table.units[l].id.clone()),
                    figures,
                    state,
                },
            },
            by,
        );
        for &a in attackers {
            self.play.fought[a] = true;
        }
        let turn = self.log.stamp.turn;
        let winner_figures = m.winner_figures;
        let clean = diff.abs() >= m.clean_win;
        match loser {
            Some(l) => {
                let w = if l == t { lead } else { t };
                let from = (self.table.units[w].x, self.table.units[w].y);
                self.suffer(l, figures, state, Cause::Melee, Some(from), turn, &[clash]);
                if !clean {
                    self.suffer(w, winner_figures, State::Order, Cause::Melee, None, turn, &[clash]);
                }
            }
            None => {
                self.suffer(lead, 1, State::Order, Cause::Melee, None, turn, &[clash]);
                self.suffer(t, 1, State::Order, Cause::Melee, None, turn, &[clash]);
            }
        }
        Ok(())
    }

    /// A unit takes a result: figures lost (it keeps one at least), then
    /// the state, fleeing or retreating from `from`, then a valour test for
    /// every point of valour its losses cost (docs/rules.md 2.10).
    #[allow(clippy::too_many_arguments)] // the result, its cause and its place in the log
    pub fn suffer(
        &mut self,
        u: usize,
        figures: u32,
        state: State,
        cause: Cause,
        from: Option<(f32, f32)>,
        turn: u32,
        by: &[Seq],
    ) {
        let ctx = self.ctx;
        let mut after: Vec<Seq> = by.to_vec();
        let lost = figures.min(self.table.units[u].figures.saturating_sub(1));
        if lost > 0 {
            let unit = &mut self.table.units[u];
            unit.figures -= lost;
            let seq = self.log.push_because(
                EventKind::Losses { unit: unit.id.clone(), lost: Lost::Figures { figures: lost, left: unit.figures } },
                by,
            );
            after = vec![seq];
            self.engine.moved(ctx, self.table, u);
        }
        if severity(state) > 0 {
            self.engine.hit(ctx, self.table, self.log, u, state, cause, from, turn, by);
        }
        let Some(valour) = combat::valour_with(ctx, u, self.table.units[u].figures) else { return };
        let was = self.table.units[u].valour;
        if valour >= was {
            return;
        }
        let id = self.table.units[u].id.clone();
        self.table.units[u].valour = valour;
        let fell = self.log.push_because(EventKind::Valour { unit: id.clone(), from: was, to: valour }, &after);
        for _ in valour..was {
            if self.table.units[u].state == State::FU {
                break;
            }
            let roll = self.dice.three_d6_for(u, Roll::Check) as i32;
            let total = roll + valour;
            let max = ctx.ba().valour_loss.flight_max;
            let passed = total > max;
            let check = self.log.push_because(
                EventKind::MoraleCheck {
                    unit: id.clone(),
                    cause: Cause::Valour,
                    morale: max.clamp(0, 255) as u8,
                    modifier: valour,
                    roll: roll as u8,
                    result: total.clamp(0, 255) as u8,
                    passed,
                    source: None,
                },
                &[fell],
            );
            if !passed {
                // 2.2.4: a valour reduction gives a free direction.
                self.engine.hit(ctx, self.table, self.log, u, State::FU, Cause::Valour, None, turn, &[check]);
            }
        }
    }
}

/// A phase of `phasing`'s bound opens (2.4, 2.5): the announcement phase
/// (the `Charge` slot) starts the side's bound and reorganises its units;
/// each fire phase lets every unit fire again. Orders come after.
pub fn open_phase(b: &mut Bound, phase: Phase, phasing: usize, turn: u32) {
    match phase {
        Phase::Charge => {
            b.play.new_bound(b.table, phasing);
            b.engine.reorganisation_segment(b.ctx, b.table, b.dice, b.log, turn, phasing);
        }
        Phase::DefensiveFire | Phase::OffensiveFire => b.play.new_fire_phase(),
        _ => {}
    }
}

/// The melee a charge of `u` at `t` would fight, worked out from where it
/// would make contact (the charger put there for a moment, then back): the
/// window's odds and the AI's choice of target.
pub fn charge_fight(b: &mut Bound, u: usize, t: usize) -> Result<crate::belle_alliance::combat::Fight, String> {
    let (to, facing) = b.charge_contact(u, t)?;
    let keep = (b.table.units[u].x, b.table.units[u].y, b.table.units[u].facing);
    (b.table.units[u].x, b.table.units[u].y, b.table.units[u].facing) = (to.0, to.1, facing);
    b.engine.moved(b.ctx, b.table, u);
    let f = fight(b.ctx, b.engine, b.table, &[u], t, true);
    (b.table.units[u].x, b.table.units[u].y, b.table.units[u].facing) = keep;
    b.engine.moved(b.ctx, b.table, u);
    f
}

/// Whether foot charged by horse tries to form square (house default,
/// docs/rules.md 2.7): in line or column, in order or LU.
fn tries_square(u: &crate::belle_alliance::FsUnit) -> bool {
    u.arm == Arm::Infantry
        && matches!(u.state, State::Order | State::LU)
        && matches!(u.formation, Formation::Line | Formation::Column)
}

/// A charge's odds with every die in them (docs/rules.md 2.7, 2.9).
#[derive(Clone, Debug, PartialEq)]
pub struct ChargeOdds {
    /// The melee against the target as it stands.
    pub fight: crate::belle_alliance::combat::Fight,
    /// Chance the target forms square before the contact (its 3d6 and
    /// valour reach `melee.square_test` and it has room); `None` when it
    /// does not try.
    pub square: Option<f32>,
    /// The melee against the square, if it forms one the charge still
    /// reaches.
    pub against_square: Option<crate::belle_alliance::combat::Fight>,
    /// Chances the charge beats the target, draws, is beaten, all dice
    /// counted, and is called off (the square out of its reach).
    pub win: f32,
    pub draw: f32,
    pub lose: f32,
    pub called_off: f32,
    /// Chances the target and the charger are left fleeing, the valour
    /// tests of their losses counted (2.10).
    pub target_flees: f32,
    pub charger_flees: f32,
}

/// The odds of a charge of `u` at `t`: the target's square test, then the
/// melee from where the charge makes contact, against the line or the
/// square (the window's odds, the AI's and `sauve odds`).
pub fn charge_odds(b: &mut Bound, u: usize, t: usize) -> Result<ChargeOdds, String> {
    let fight = charge_fight(b, u, t)?;
    let rows = b.ctx.ba().melee.results.clone();
    let (win, draw, lose) = combat::fight_odds(&fight, &rows);
    let (tf, cf) = combat::fight_flight(b.ctx, b.table, &fight, u, t);
    let mut odds = ChargeOdds {
        fight,
        square: None,
        against_square: None,
        win,
        draw,
        lose,
        called_off: 0.0,
        target_flees: tf,
        charger_flees: cf,
    };
    if !tries_square(&b.table.units[t]) {
        return Ok(odds);
    }
    let need = b.ctx.ba().melee.square_test - b.table.units[t].valour;
    let mut near = Vec::new();
    let room = march::reform_room(b.ctx, b.engine, b.table, t, Formation::Square, &mut near).is_ok();
    let p = if room { combat::at_least(need) } else { 0.0 };
    odds.square = Some(p);
    if p <= 0.0 {
        return Ok(odds);
    }
    let was = b.table.units[t].formation;
    b.table.units[t].formation = Formation::Square;
    b.engine.moved(b.ctx, b.table, t);
    let square = charge_fight(b, u, t);
    let (stf, scf) = square.as_ref().map_or((0.0, 0.0), |f| combat::fight_flight(b.ctx, b.table, f, u, t));
    b.table.units[t].formation = was;
    b.engine.moved(b.ctx, b.table, t);
    let (sw, sd, sl, off) = match &square {
        Ok(f) => {
            let (w, d, l) = combat::fight_odds(f, &rows);
            (w, d, l, 0.0)
        }
        Err(_) => (0.0, 0.0, 0.0, 1.0),
    };
    odds.target_flees = (1.0 - p) * tf + p * stf;
    odds.charger_flees = (1.0 - p) * cf + p * scf;
    odds.against_square = square.ok();
    odds.win = (1.0 - p) * win + p * sw;
    odds.draw = (1.0 - p) * draw + p * sd;
    odds.lose = (1.0 - p) * lose + p * sl;
    odds.called_off = p * off;
    Ok(odds)
}

/// The end of a phase (2.5): every forced move waiting is made, with all
/// it causes; then guns left by fleeing crews are taken by an enemy in
/// order or LU touching them while no friend in order or LU guards them
/// (2.2.7).
pub fn close_phase(
    ctx: &FsCtx,
    engine: &mut FsEngine,
    table: &mut Table,
    play: &mut FsPlay,
    dice: &mut Dice,
    log: &mut EventLog,
    turn: u32,
) {
    engine.restore(std::mem::take(&mut play.pending));
    engine.resolve(ctx, table, dice, log, turn);
    capture_guns(ctx, engine, table, play, log);
}

/// Guns left where no friend guards them and an enemy stands (2.2.7): the
/// guns keep the battery's footprint where they stood; a unit within
/// `capture_cm` of it touches them.
pub fn capture_guns(ctx: &FsCtx, engine: &FsEngine, table: &Table, play: &mut FsPlay, log: &mut EventLog) {
    let reach = ctx.ba().valour_loss.capture_cm;
    for g in 0..table.units.len() {
        let Some(p) = table.units[g].guns_left else { continue };
        if play.captured[g] {
            continue;
        }
        let battery = &table.units[g];
        let (w, d) = crate::belle_alliance::footprint(Arm::Artillery, battery.figures, Formation::Line, ctx.ba());
        let guns = OrientedRect::new(p.0, p.1, w, d, battery.facing);
        let b = guns.aabb();
        let mut near = Vec::new();
        engine.near((b.0 - reach, b.1 - reach, b.2 + reach, b.3 + reach), &mut near);
        near.sort_unstable();
        let touching = |j: &usize| {
            let u = &table.units[*j];
            *j != g && matches!(u.state, State::Order | State::LU) && combat::gap(&engine.rect(*j), &guns) <= reach
        };
        if near.iter().any(|j| touching(j) && table.units[*j].side == battery.side) {
            continue;
        }
        if let Some(&by) = near.iter().find(|j| touching(j) && table.units[**j].side != battery.side) {
            play.captured[g] = true;
            let because: Vec<Seq> = log.last_fall(&battery.id).into_iter().collect();
            log.push_because(
                EventKind::GunsCaptured { unit: battery.id.clone(), by: table.units[by].id.clone(), at: cm(p) },
                &because,
            );
        }
    }
}
