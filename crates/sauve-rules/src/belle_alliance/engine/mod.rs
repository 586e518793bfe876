//! Belle Alliance morale engine: flight (RULES.md 2.2), spread of rout
//! (2.3), U retreats, reorganisation (2.4) and the queue that resolves them
//! at the end of the phase that caused them (2.5).
//!
//! Resolution order (documented in docs/rules.md): forced moves wait in one
//! first-in, first-out queue, filled in the order their causes happened
//! (shocks in file order). A flight is resolved whole, with every unit it
//! carries along; a unit it shakes into U queues its retreat behind the
//! moves already waiting, so the retreat comes after the flight (2.3).

use std::collections::VecDeque;

use crate::belle_alliance::broad::{BroadPhase, BroadPhaseKind};
use crate::belle_alliance::geometry::{OrientedRect, bearing_of, bearing_vector};
use crate::belle_alliance::tables::{CarryResult, carry_along, carry_ratio_modifier, reorganisation, severity};
use crate::belle_alliance::{FsCtx, FsUnit, Table};
use crate::dice::Dice;
use crate::events::{Cause, EventKind, EventLog, MoveReason, Pos, StateLabel};
use crate::scenario::Shock;
use crate::terrain::Arm;
use crate::vocab::{Formation, StateName};

/// Length of one step of the terrain walk along a flight line, cm.
const STEP_CM: f32 = 1.0;
/// Side of a broad-phase bucket, cm: about one battalion's depth.
const BUCKET_CM: f32 = 10.0;
/// Distances closer than this are the same distance.
const EPS: f32 = 1e-3;

/// A forced move waiting its turn.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Job {
    /// A flight march (2.2). `from`: the centre of the cause at the time,
    /// `None` for a free direction (2.2.4). `blocker`: a fleeing friend that
    /// blocked this unit's U retreat and may be carried along in turn (2.3).
    Flight { unit: usize, from: Option<(f32, f32)>, blocker: Option<usize> },
    /// The retreat of a unit that dropped into U (house default).
    /// `cause`: what shook it, which its FU also counts as if it is blocked.
    Retreat { unit: usize, from: Option<(f32, f32)>, cause: Cause },
}

/// One unit's share of a flight: its move reason, waypoints, last
/// direction and the distance it slid.
struct Leg {
    unit: usize,
    reason: MoveReason,
    path: Vec<(f32, f32)>,
    dir: (f32, f32),
    moved: f32,
}

/// Engine state beside the table: the broad phase, the rectangles it was
/// filed with, the queue and scratch space.
pub struct FsEngine {
    pub broad: BroadPhase,
    rects: Vec<OrientedRect>,
    /// Each rectangle's axis-aligned box.
    boxes: Vec<(f32, f32, f32, f32)>,
    queue: VecDeque<Job>,
    near: Vec<usize>,
    pts: Vec<(f32, f32)>,
    /// Flights made so far (benchmarks and tests read it).
    pub flights: u64,
    /// Carry-along tests rolled so far.
    pub carry_tests: u64,
}

fn cm(p: (f32, f32)) -> Pos {
    Pos::Cm([p.0, p.1])
}

/// A total as the log's `u8` fields hold it.
fn clamp_u8(v: i32) -> u8 {
    v.clamp(0, u8::MAX as i32) as u8
}

fn overlap(a: (f32, f32, f32, f32), b: (f32, f32, f32, f32)) -> bool {
    a.0 <= b.2 && b.0 <= a.2 && a.1 <= b.3 && b.1 <= a.3
}

impl FsEngine {
    pub fn new(ctx: &FsCtx, table: &Table, kind: BroadPhaseKind) -> Self {
        let (w, h) = ctx.table_cm();
        let mut e = Self {
            broad: BroadPhase::new(kind, w, h, BUCKET_CM),
            rects: Vec::new(),
            boxes: Vec::new(),
            queue: VecDeque::new(),
            near: Vec::new(),
            pts: Vec::new(),
            flights: 0,
            carry_tests: 0,
        };
        e.sync(ctx, table);
        e
    }

    /// Re-files every unit (after the table was changed from outside).
    pub fn sync(&mut self, ctx: &FsCtx, table: &Table) {
        self.rects.clear();
        self.boxes.clear();
        for i in 0..table.units.len() {
            self.rects.push(table.units[i].rect(ctx.ba()));
            self.boxes.push(self.rects[i].aabb());
            self.broad.update(i, self.boxes[i]);
        }
    }

    fn refile(&mut self, ctx: &FsCtx, table: &Table, i: usize) {
        self.rects[i] = table.units[i].rect(ctx.ba());
        self.boxes[i] = self.rects[i].aabb();
        self.broad.update(i, self.boxes[i]);
    }

    /// Forced moves still waiting.
    pub fn pending(&self) -> usize {
        self.queue.len()
    }

    // -----------------------------------------------------------------------
    // Entry points.
    // -----------------------------------------------------------------------

    /// A scenario shock: the unit is put into the given state as if `cause`
    /// had done it, and its forced move is queued. A shock that would not
    /// make the unit worse does nothing.
    pub fn apply_shock(&mut self, ctx: &FsCtx, table: &mut Table, log: &mut EventLog, shock: &Shock, turn: u32) {
        let u = shock.unit;
        if u >= table.units.len() || severity(shock.to) <= severity(table.units[u].state) {
            return;
        }
        let from = shock.cause.and_then(|c| table.units.get(c)).map(|c| (c.x, c.y));
        match shock.to {
            StateName::FU | StateName::Routed => {
                self.enter_fu(ctx, table, log, u, Cause::Shock, turn);
                self.queue.push_back(Job::Flight { unit: u, from, blocker: None });
            }
            StateName::U | StateName::Disordered => {
                self.set_state(table, log, u, StateName::U, Cause::Shock, turn);
                self.queue.push_back(Job::Retreat { unit: u, from, cause: Cause::Shock });
            }
            _ => self.set_state(table, log, u, StateName::LU, Cause::Shock, turn),
        }
    }

    /// Resolves every queued forced move, in order, with all they cause:
    /// "retreat, rout and spread of rout" at the end of a phase (2.5).
    pub fn resolve(&mut self, ctx: &FsCtx, table: &mut Table, dice: &mut Dice, log: &mut EventLog, turn: u32) {
        while let Some(job) = self.queue.pop_front() {
            match job {
                Job::Flight { unit, from, blocker } => self.flight(ctx, table, dice, log, turn, unit, from, blocker),
                Job::Retreat { unit, from, cause } => self.retreat(ctx, table, log, turn, unit, from, cause),
            }
        }
    }

    /// Reorganisation (RULES.md 2.4) at the end of `side`'s announcement
    /// phase: each FU unit of the side that was already in FU when the bound
    /// began, in unit order, rolls 3d6 + valour (+ staff bonus) on the
    /// table. House default: LU and U units roll too (`reorg_lu_and_u`),
    /// keeping only a better result. A staff figure touches one unit at
    /// most: the first in unit order.
    pub fn reorganisation_segment(
        &mut self,
        ctx: &FsCtx,
        table: &mut Table,
        dice: &mut Dice,
        log: &mut EventLog,
        turn: u32,
        side: usize,
    ) {
        let ba = ctx.ba();
        let mut staff_used = vec![false; ctx.staff.len()];
        for u in 0..table.units.len() {
            let unit = &table.units[u];
            let eligible = unit.side == side
                && unit.shaken_in.is_none_or(|t| t < turn)
                && match unit.state {
                    StateName::FU => true,
                    StateName::U | StateName::LU => ba.reorg_lu_and_u,
                    _ => false,
                };
            if !eligible {
                continue;
            }
            let rect = self.rects[u];
            let staff = ctx.staff.iter().enumerate().position(|(i, s)| {
                !staff_used[i] && s.side == side && rect.distance_to_point(s.x, s.y) <= ba.staff_contact_cm
            });
            if let Some(i) = staff {
                staff_used[i] = true;
            }
            let bonus = if staff.is_some() { ba.reorg_staff_bonus } else { 0 };
            let roll = dice.three_d6();
            let total = roll as i32 + unit.valour + bonus;
            let before = unit.state;
            let reached = reorganisation(total, ba);
            let after = if severity(reached) < severity(before) { reached } else { before };
            // The log's morale check, read the 3d6 way: `morale` is the
            // highest total that stays in FU, `modifier` valour + staff.
            log.push(EventKind::MoraleCheck {
                unit: unit.id.clone(),
                cause: Cause::Reorganisation,
                morale: clamp_u8(ba.reorg_stay_fu_max),
                modifier: unit.valour + bonus,
                roll: roll as u8,
                result: clamp_u8(total),
                passed: total > ba.reorg_stay_fu_max,
                source: None,
            });
            if after != before {
                log.push(EventKind::StateChange {
                    unit: unit.id.clone(),
                    from: StateLabel::free_space(before),
                    to: StateLabel::free_space(after),
                    cause: Cause::Reorganisation,
                });
                let unit = &mut table.units[u];
                unit.state = after;
                if before == StateName::FU {
                    // 2.4: re-formed without time in a closed formation; house
                    // default column. FU -> U does not force a retreat.
                    let was = unit.formation;
                    unit.formation = Formation::Column;
                    Self::log_formation(log, &table.units[u], was);
                    self.refile(ctx, table, u);
                }
            }
        }
        self.resolve(ctx, table, dice, log, turn);
    }

    // -----------------------------------------------------------------------
    // State changes.
    // -----------------------------------------------------------------------

    fn set_state(&mut self, table: &mut Table, log: &mut EventLog, u: usize, to: StateName, cause: Cause, turn: u32) {
        let unit = &mut table.units[u];
        if unit.state == to {
            return;
        }
        log.push(EventKind::StateChange {
            unit: unit.id.clone(),
            from: StateLabel::free_space(unit.state),
            to: StateLabel::free_space(to),
            cause,
        });
        if severity(to) > severity(unit.state) {
            unit.shaken_in = Some(turn);
        }
        unit.state = to;
    }

    /// A unit enters FU: figure loss (2.6), and unlimbered artillery leaves
    /// its guns where they stand (2.2.7), its gunners fleeing from there on
    /// foot.
    fn enter_fu(&mut self, ctx: &FsCtx, table: &mut Table, log: &mut EventLog, u: usize, cause: Cause, turn: u32) {
        self.set_state(table, log, u, StateName::FU, cause, turn);
        let loss = ctx.ba().figure_loss_on_fu;
        let unit = &mut table.units[u];
        unit.figures = unit.figures.saturating_sub(loss).max(1);
        if unit.arm == Arm::Artillery && !unit.limbered && unit.guns_left.is_none() {
            unit.guns_left = Some((unit.x, unit.y));
        }
        self.refile(ctx, table, u);
    }

    // -----------------------------------------------------------------------
    // Flight (2.2) and spread of rout (2.3).
    // -----------------------------------------------------------------------

    /// One flight, with every unit it carries along. The mass is a list of
    /// units, its leader first: the last unit carried along leads, the ones
    /// it carried follow in base contact with the same displacement.
    #[allow(clippy::too_many_arguments)] // the rule's inputs, each needed once
    fn flight(
        &mut self,
        ctx: &FsCtx,
        table: &mut Table,
        dice: &mut Dice,
        log: &mut EventLog,
        turn: u32,
        leader: usize,
        from: Option<(f32, f32)>,
        blocker: Option<usize>,
    ) {
        if table.units[leader].state != StateName::FU {
            return;
        }
        self.flights += 1;
        let ba = ctx.ba();
        let start = (table.units[leader].x, table.units[leader].y);
        let mut legs =
            vec![Leg { unit: leader, reason: MoveReason::Flight, path: vec![start], dir: (0.0, 1.0), moved: 0.0 }];
        let mut mass = vec![leader];
        let mut origin = from;
        let mut testing = true;
        let mut tested: Vec<usize> = Vec::new();
        loop {
            let lead = &table.units[mass[0]];
            let march = lead.flight_march_cm(ba);
            let base = match origin {
                Some((cx, cy)) if (lead.x - cx).hypot(lead.y - cy) > EPS => bearing_of(lead.x - cx, lead.y - cy),
                _ => ctx.rear_bearing(lead.side),
            };
            let (dir, dist) = self.best_direction(ctx, table, &mass, base, march);
            for leg in legs.iter_mut().filter(|l| mass.contains(&l.unit)) {
                leg.dir = dir;
            }
            let mut travelled = dist;
            let mut carried = None;
            if testing
                && dist > EPS
                && let Some((f, toi)) = self.first_friend(table, &mass, &tested, dir, dist, blocker)
            {
                tested.push(f);
                let before = table.units[f].state;
                match self.carry_test(ctx, table, dice, log, f, &mass, turn) {
                    CarryResult::Carried => {
                        travelled = toi;
                        carried = Some(f);
                    }
                    CarryResult::Shaken => {
                        testing = false;
                        let c = self.rects[mass[0]];
                        let contact = (c.x + dir.0 * toi, c.y + dir.1 * toi);
                        if before != StateName::U && table.units[f].state == StateName::U {
                            self.queue.push_back(Job::Retreat {
                                unit: f,
                                from: Some(contact),
                                cause: Cause::CarryAlong,
                            });
                        }
                    }
                    CarryResult::Holds => testing = false,
                }
            }
            // A friend carried along stops the mass at contact; otherwise it
            // goes as far as its march takes it, which may be further than
            // `dist` if a follower drops off (2.3).
            let cap = if carried.is_some() { travelled } else { march };
            self.slide_mass(ctx, table, &mut mass, &mut legs, dir, march, cap);
            let Some(f) = carried else { break };
            // 2.3: the carried unit flees anew, in a free direction (2.2.4),
            // at its own march length; the mass follows it in base contact.
            if table.units[f].state != StateName::FU {
                self.enter_fu(ctx, table, log, f, Cause::CarryAlong, turn);
            }
            mass.insert(0, f);
            let p = (table.units[f].x, table.units[f].y);
            legs.push(Leg { unit: f, reason: MoveReason::CarriedAlong, path: vec![p], dir, moved: 0.0 });
            origin = None;
        }
        // 2.2.5: the flight formation, shifted to fit (2.2.6), then the log.
        // The last unit carried along leads, so the squares form from the
        // front back: each follower settles behind the ones formed, in base
        // contact, and a follower not yet formed never pushes a leader back.
        let was: Vec<Formation> = legs.iter().map(|l| table.units[l.unit].formation).collect();
        for k in (0..legs.len()).rev() {
            let pending: Vec<usize> = legs[..k].iter().map(|l| l.unit).collect();
            let end = self.form_flight(ctx, table, legs[k].unit, legs[k].dir, legs[k].moved, &pending);
            let leg = &mut legs[k];
            if leg.path.last().is_none_or(|&p| (p.0 - end.0).hypot(p.1 - end.1) > EPS) {
                leg.path.push(end);
            }
        }
        for (leg, was) in legs.iter().zip(was) {
            let unit = &table.units[leg.unit];
            let (first, last) = (leg.path[0], leg.path[leg.path.len() - 1]);
            log.push(EventKind::Move {
                unit: unit.id.clone(),
                reason: leg.reason,
                from: cm(first),
                to: cm(last),
                path: leg.path.iter().copied().map(cm).collect(),
            });
            Self::log_formation(log, unit, was);
        }
    }

    /// A `Formation` event if `unit` now stands in another formation than
    /// `was` (the window redraws its footprint from these).
    fn log_formation(log: &mut EventLog, unit: &FsUnit, was: Formation) {
        if unit.formation != was {
            log.push(EventKind::Formation {
                unit: unit.id.clone(),
                from: format!("{was:?}"),
                to: format!("{:?}", unit.formation),
            });
        }
    }

    /// Slides the mass along `dir` on a march of `march` cm, at most `cap`
    /// cm, with the march reduced for every figure of the mass (2.3: the
    /// followers use the leader's march length, reductions counted for all
    /// figures). A follower that cannot go where the leader goes (its own
    /// prohibited terrain, the table edge, an enemy) moves up to that
    /// obstacle and stops there; the rest flee on, the march left to them
    /// reduced for their own figures only.
    #[allow(clippy::too_many_arguments)] // the rule's inputs, each needed once
    fn slide_mass(
        &mut self,
        ctx: &FsCtx,
        table: &mut Table,
        mass: &mut Vec<usize>,
        legs: &mut [Leg],
        dir: (f32, f32),
        march: f32,
        cap: f32,
    ) {
        let (mut moved, mut budget) = (0.0f32, march);
        while moved < cap - EPS && budget > EPS {
            let room = cap - moved;
            // Where each follower would have to stop on its own.
            let mut stops = Vec::with_capacity(mass.len());
            for &m in &mass[1..] {
                let hard = self.hard_stop(table, m, dir, room);
                stops.push(self.walk(ctx, table, &[m], dir, room, hard, false).0);
            }
            let drop = stops.iter().copied().fold(f32::MAX, f32::min);
            let hard = self.hard_stop(table, mass[0], dir, room).min(drop);
            let (go, left) = self.walk(ctx, table, mass, dir, budget, hard, true);
            if go <= EPS {
                break;
            }
            for &m in mass.iter() {
                let unit = &mut table.units[m];
                unit.x += dir.0 * go;
                unit.y += dir.1 * go;
                let p = (unit.x, unit.y);
                self.refile(ctx, table, m);
                if let Some(leg) = legs.iter_mut().rev().find(|l| l.unit == m) {
                    leg.path.push(p);
                    leg.moved += go;
                }
            }
            (moved, budget) = (moved + go, left);
            if go < drop - EPS || moved >= cap - EPS {
                break;
            }
            // The followers stopped by their ground drop off here.
            let lead = mass[0];
            let mut k = 0;
            mass.retain(|&m| {
                let keep = m == lead || stops[k - 1] > drop + EPS;
                k += 1;
                keep
            });
        }
    }

    /// 2.2.2: the straight line within the cone around `base` (degrees)
    /// that gives the longest move; ties go to the direction nearest
    /// `base`, clockwise before anticlockwise. Returns the direction and the
    /// distance.
    fn best_direction(
        &mut self,
        ctx: &FsCtx,
        table: &Table,
        mass: &[usize],
        base: f32,
        march: f32,
    ) -> ((f32, f32), f32) {
        let ba = ctx.ba();
        let mut bb = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for &m in mass {
            let a = self.boxes[m];
            bb = (bb.0.min(a.0), bb.1.min(a.1), bb.2.max(a.2), bb.3.max(a.3));
        }
        let reach = (bb.0 - march, bb.1 - march, bb.2 + march, bb.3 + march);
        let mut near = std::mem::take(&mut self.near);
        self.broad.query(reach, &mut near);
        self.near = near;
        let step = ba.direction_step_degrees.max(0.5);
        let n = (ba.flight_cone_degrees / step + EPS).floor() as i32;
        let mut best = (bearing_vector(base), -1.0f32);
        for k in 0..=n {
            for sign in [1.0f32, -1.0] {
                if k == 0 && sign < 0.0 {
                    continue;
                }
                let dir = bearing_vector(base + sign * k as f32 * step);
                let hard = self.hard_stop(table, mass[0], dir, march);
                let d = self.walk(ctx, table, mass, dir, march, hard, true).0;
                if d > best.1 + EPS {
                    best = (dir, d);
                }
            }
        }
        (best.0, best.1.max(0.0))
    }

    /// How far unit `u` may slide along `dir` (at most `max`) before it
    /// touches an enemy (2.2.6: an enemy that is not pushed back stops it).
    /// Candidates come from the last broad-phase query.
    fn hard_stop(&self, table: &Table, u: usize, dir: (f32, f32), max: f32) -> f32 {
        let side = table.units[u].side;
        let rect = self.rects[u];
        let swept = self.swept_box(u, dir, max);
        let mut limit = max;
        for &j in &self.near {
            if table.units[j].side != side
                && self.may_touch(j, swept)
                && let Some(t) = rect.time_of_impact(dir, limit, &self.rects[j])
            {
                limit = limit.min(t);
            }
        }
        limit
    }

    /// The box swept by unit `u` sliding `dist` along `dir`.
    fn swept_box(&self, u: usize, dir: (f32, f32), dist: f32) -> (f32, f32, f32, f32) {
        let a = self.boxes[u];
        let (dx, dy) = (dir.0 * dist, dir.1 * dist);
        (a.0 + dx.min(0.0), a.1 + dy.min(0.0), a.2 + dx.max(0.0), a.3 + dy.max(0.0))
    }

    /// Broad phase, last step: with the grid, a unit whose box misses the
    /// swept box cannot be touched and skips the time-of-impact test. Without
    /// a broad phase every pair goes to the narrow phase.
    fn may_touch(&self, j: usize, swept: (f32, f32, f32, f32)) -> bool {
        self.broad.kind == BroadPhaseKind::AllPairs || overlap(self.boxes[j], swept)
    }

    /// Walks the mass along `dir` for a march of `march` cm, stopping at
    /// `limit`, at the table edge, or before the leader's prohibited terrain;
    /// with `reduce`, every centimetre in which any part of any unit of the
    /// mass is in reducing terrain costs `1 / terrain_reduction` (2.2.3,
    /// 2.6). Returns the distance made good and the march left.
    #[allow(clippy::too_many_arguments)] // the rule's inputs, each needed once
    fn walk(
        &mut self,
        ctx: &FsCtx,
        table: &Table,
        mass: &[usize],
        dir: (f32, f32),
        march: f32,
        limit: f32,
        reduce: bool,
    ) -> (f32, f32) {
        let ba = ctx.ba();
        let arm = table.units[mass[0]].moving_arm();
        let (w, h) = ctx.table_cm();
        // The table edge stops the leader where its box would leave the
        // table: found exactly, not by stepping.
        let a = self.boxes[mass[0]];
        let mut limit = limit;
        for (d, lo, hi, size) in [(dir.0, a.0, a.2, w), (dir.1, a.1, a.3, h)] {
            if d > EPS {
                limit = limit.min(((size - hi) / d).max(0.0));
            } else if d < -EPS {
                limit = limit.min((lo / -d).max(0.0));
            }
        }
        // Fast path: nothing but open, passable ground under the whole sweep.
        let mut bb = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for &m in mass {
            let b = self.swept_box(m, dir, limit);
            bb = (bb.0.min(b.0), bb.1.min(b.1), bb.2.max(b.2), bb.3.max(b.3));
        }
        let inside = (bb.0.max(0.0), bb.1.max(0.0), bb.2.min(w), bb.3.min(h));
        if self.all_open(ctx, inside, arm) {
            let go = limit.min(march);
            return (go, march - go);
        }
        let lead = self.rects[mass[0]];
        let mut t = 0.0f32;
        let mut budget = march;
        while t < limit - EPS && budget > EPS {
            let step = STEP_CM.min(limit - t);
            let next = t + step;
            let r = lead.shifted(dir.0 * next, dir.1 * next);
            let a = r.aabb();
            if a.0 < -EPS || a.1 < -EPS || a.2 > w + EPS || a.3 > h + EPS || !self.rect_passable(ctx, &r, arm) {
                break;
            }
            let mut reducing = false;
            if reduce {
                for &m in mass {
                    let r = self.rects[m].shifted(dir.0 * next, dir.1 * next);
                    if self.rect_reducing(ctx, &r) {
                        reducing = true;
                        break;
                    }
                }
            }
            let rate = if reducing { ba.terrain_reduction } else { 1.0 };
            if rate <= 0.0 {
                break;
            }
            let cost = step / rate;
            if cost > budget {
                t += budget * rate;
                budget = 0.0;
                break;
            }
            budget -= cost;
            t = next;
        }
        (t, budget)
    }

    /// Every cell under the box is passable for `arm` and not reducing.
    fn all_open(&self, ctx: &FsCtx, bb: (f32, f32, f32, f32), arm: Arm) -> bool {
        let c = ctx.cell_cm;
        let (c0, r0) = ((bb.0 / c) as i32, (bb.1 / c) as i32);
        let (c1, r1) = (((bb.2 - EPS) / c) as i32, ((bb.3 - EPS) / c) as i32);
        for r in r0..=r1 {
            for col in c0..=c1 {
                match ctx.map.terrain(crate::hex::Offset::new(col, r)) {
                    Some(t) if ctx.passable(t, arm) && !ctx.ba().reducing_terrain.contains(&t) => {}
                    _ => return false,
                }
            }
        }
        true
    }

    fn rect_passable(&mut self, ctx: &FsCtx, r: &OrientedRect, arm: Arm) -> bool {
        r.sample_points(ctx.cell_cm / 2.0, &mut self.pts);
        self.pts.iter().all(|&(x, y)| ctx.terrain_at(x, y).is_some_and(|t| ctx.passable(t, arm)))
    }

    fn rect_reducing(&mut self, ctx: &FsCtx, r: &OrientedRect) -> bool {
        r.sample_points(ctx.cell_cm / 2.0, &mut self.pts);
        self.pts.iter().any(|&(x, y)| ctx.terrain_at(x, y).is_some_and(|t| ctx.ba().reducing_terrain.contains(&t)))
    }

    /// The first friend the mass would meet along `dir` within `dist`: not
    /// of the mass, and not already fleeing unless it is the `blocker`.
    fn first_friend(
        &self,
        table: &Table,
        mass: &[usize],
        tested: &[usize],
        dir: (f32, f32),
        dist: f32,
        blocker: Option<usize>,
    ) -> Option<(usize, f32)> {
        let side = table.units[mass[0]].side;
        let mut best: Option<(usize, f32)> = None;
        for &j in &self.near {
            let f = &table.units[j];
            if f.side != side
                || mass.contains(&j)
                || tested.contains(&j)
                || (f.state == StateName::FU && blocker != Some(j))
            {
                continue;
            }
            for &m in mass {
                let max = best.map_or(dist, |b| b.1);
                if self.may_touch(j, self.swept_box(m, dir, max))
                    && let Some(t) = self.rects[m].time_of_impact(dir, max, &self.rects[j])
                    && best.is_none_or(|b| t < b.1)
                {
                    best = Some((j, t));
                }
            }
        }
        best
    }

    /// 2.3: the carry-along test of `f` met by the fleeing `mass` (its
    /// figures counted together, whatever their valour).
    #[allow(clippy::too_many_arguments)] // the rule's inputs, each needed once
    fn carry_test(
        &mut self,
        ctx: &FsCtx,
        table: &mut Table,
        dice: &mut Dice,
        log: &mut EventLog,
        f: usize,
        mass: &[usize],
        turn: u32,
    ) -> CarryResult {
        self.carry_tests += 1;
        let ba = ctx.ba();
        let figures: u32 = mass.iter().map(|&m| table.units[m].figures).sum();
        let unit = &table.units[f];
        let modifier = carry_ratio_modifier(unit.figures, figures, ba);
        let roll = dice.three_d6();
        let total = roll as i32 + unit.valour + modifier;
        let result = carry_along(total, ba);
        let after = match result {
            CarryResult::Carried => StateName::FU,
            CarryResult::Shaken if severity(unit.state) < severity(StateName::U) => StateName::U,
            _ => unit.state,
        };
        // The log's morale check, read the 3d6 way: `morale` is the highest
        // total that is carried along, `modifier` valour + size modifier,
        // `passed` false when carried along; `source` leads the mass.
        log.push(EventKind::MoraleCheck {
            unit: unit.id.clone(),
            cause: Cause::CarryAlong,
            morale: clamp_u8(ba.carry_along_max),
            modifier: unit.valour + modifier,
            roll: roll as u8,
            result: clamp_u8(total),
            passed: result != CarryResult::Carried,
            source: Some(table.units[mass[0]].id.clone()),
        });
        if result == CarryResult::Shaken && after == StateName::U {
            self.set_state(table, log, f, StateName::U, Cause::CarryAlong, turn);
        }
        result
    }

    /// 2.2.5-2.2.6: the unit forms the flight formation (as wide as deep)
    /// where it stopped; if the square would stand on impassable ground, off
    /// the table or on an enemy, it shifts back along its line of flight (at
    /// most the way it came plus the square's side, so never across ground
    /// it did not cross) until it fits, preferring a place clear of friends
    /// too. Returns its final centre.
    /// Friends in `pending` (units of the same flight still to form) are not
    /// looked at.
    fn form_flight(
        &mut self,
        ctx: &FsCtx,
        table: &mut Table,
        u: usize,
        dir: (f32, f32),
        moved: f32,
        pending: &[usize],
    ) -> (f32, f32) {
        table.units[u].formation = Formation::Flight;
        let square = table.units[u].rect(ctx.ba());
        let arm = table.units[u].moving_arm();
        let side = table.units[u].side;
        let max_back = moved + square.width;
        let a = square.aabb();
        let mut near = std::mem::take(&mut self.near);
        self.broad.query((a.0 - max_back, a.1 - max_back, a.2 + max_back, a.3 + max_back), &mut near);
        let (w, h) = ctx.table_cm();
        let mut found = None;
        'search: for strict in [true, false] {
            // Clear of friends too is looked for within one side of the
            // square; clear of obstacles, as far back as it came.
            let reach = if strict { square.width.min(max_back) } else { max_back };
            for k in 0..=(reach / STEP_CM) as i32 {
                let back = k as f32 * STEP_CM;
                let r = square.shifted(-dir.0 * back, -dir.1 * back);
                let b = r.aabb();
                if b.0 < 0.0 || b.1 < 0.0 || b.2 > w || b.3 > h || !self.rect_passable(ctx, &r, arm) {
                    continue;
                }
                let clash = near.iter().any(|&j| {
                    j != u
                        && (strict || table.units[j].side != side)
                        && !pending.contains(&j)
                        && overlap(b, self.boxes[j])
                        && r.intersects(&self.rects[j])
                });
                if !clash {
                    found = Some((r.x, r.y));
                    break 'search;
                }
            }
        }
        self.near = near;
        if let Some((x, y)) = found {
            table.units[u].x = x;
            table.units[u].y = y;
        }
        self.refile(ctx, table, u);
        (table.units[u].x, table.units[u].y)
    }

    // -----------------------------------------------------------------------
    // U retreat (house default).
    // -----------------------------------------------------------------------

    /// A unit in U retreats `u_retreat_cm` straight away from the cause,
    /// keeping formation and facing. Any unit, friend or foe, impassable
    /// ground or the table edge in the way blocks it: it then enters FU and
    /// flees in a free direction (2.2.4); a fleeing friend that blocked it
    /// may be carried along in turn (2.3).
    #[allow(clippy::too_many_arguments)] // the rule's inputs, each needed once
    fn retreat(
        &mut self,
        ctx: &FsCtx,
        table: &mut Table,
        log: &mut EventLog,
        turn: u32,
        u: usize,
        from: Option<(f32, f32)>,
        cause: Cause,
    ) {
        if table.units[u].state != StateName::U {
            return;
        }
        let ba = ctx.ba();
        let unit = &table.units[u];
        let base = match from {
            Some((cx, cy)) if (unit.x - cx).hypot(unit.y - cy) > EPS => bearing_of(unit.x - cx, unit.y - cy),
            _ => ctx.rear_bearing(unit.side),
        };
        let dir = bearing_vector(base);
        let d = ba.u_retreat_cm;
        let rect = self.rects[u];
        let a = rect.aabb();
        let mut near = std::mem::take(&mut self.near);
        self.broad.query((a.0 - d, a.1 - d, a.2 + d, a.3 + d), &mut near);
        self.near = near;
        let mut first: Option<(usize, f32)> = None;
        for &j in &self.near {
            if j != u
                && let Some(t) = rect.time_of_impact(dir, d, &self.rects[j])
                && first.is_none_or(|f| t < f.1)
            {
                first = Some((j, t));
            }
        }
        let walk = self.walk(ctx, table, &[u], dir, d, d, false).0;
        if first.is_none() && walk >= d - EPS {
            let unit = &mut table.units[u];
            let start = (unit.x, unit.y);
            unit.x += dir.0 * d;
            unit.y += dir.1 * d;
            let end = (unit.x, unit.y);
            log.push(EventKind::Move {
                unit: unit.id.clone(),
                reason: MoveReason::Disorder,
                from: cm(start),
                to: cm(end),
                path: vec![cm(start), cm(end)],
            });
            self.refile(ctx, table, u);
            return;
        }
        let side = table.units[u].side;
        let blocker =
            first.map(|f| f.0).filter(|&j| table.units[j].side == side && table.units[j].state == StateName::FU);
        self.enter_fu(ctx, table, log, u, cause, turn);
        self.queue.push_back(Job::Flight { unit: u, from: None, blocker });
    }
}
