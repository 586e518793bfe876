//! Belle Alliance morale engine: flight (docs/rules.md 2.2), spread of rout
//! (2.3), U retreats, reorganisation (2.4) and the queue that resolves them
//! at the end of the phase that caused them (2.5).
//!
//! Resolution order (documented in docs/rules.md): forced moves wait in one
//! first-in, first-out queue, filled in the order their causes happened
//! (shocks in file order). A flight is resolved whole, with every unit it
//! carries along; a unit it shakes into U queues its retreat behind the
//! moves already waiting, so the retreat comes after the flight (2.3).
//!
//! Here the engine's state, the entry points and the state changes; the
//! flight and its spread in `flight`, the U retreat in `retreat`, and how
//! far a unit may slide (enemies, the table edge, terrain) in `sweep`.

mod flight;
mod retreat;
mod sweep;

use std::collections::VecDeque;

use crate::belle_alliance::broad::{BroadPhase, BroadPhaseKind};
use crate::belle_alliance::geometry::OrientedRect;
use crate::belle_alliance::tables::{reorganisation, severity};
use crate::belle_alliance::{FsCtx, FsUnit, Table};
use crate::dice::{Dice, Roll};
use crate::events::{Cause, EventKind, EventLog, Pos, Seq};
use crate::scenario::Shock;
use crate::terrain::Arm;
use crate::vocab::Formation;
use crate::vocab::State;

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
    /// `by`: the state change the flight follows from.
    Flight { unit: usize, from: Option<(f32, f32)>, blocker: Option<usize>, by: Option<Seq> },
    /// The retreat of a unit that dropped into U (house default).
    /// `cause`: what shook it, which its FU also counts as if it is blocked.
    Retreat { unit: usize, from: Option<(f32, f32)>, cause: Cause, by: Option<Seq> },
}

/// Forced moves still waiting, kept between the orders of a phase (each
/// order may lend the table to a fresh engine): they are resolved at the
/// phase's end (2.5).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pending(VecDeque<Job>);

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

/// A table point as the log writes it.
pub(crate) fn cm(p: (f32, f32)) -> Pos {
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

    /// Hands the waiting forced moves over, to be given back by
    /// [`Self::restore`] to the engine of the next order of the phase.
    pub fn take_pending(&mut self) -> Pending {
        Pending(std::mem::take(&mut self.queue))
    }

    /// Puts forced moves taken by [`Self::take_pending`] back in the queue, first.
    pub fn restore(&mut self, p: Pending) {
        let mut q = p.0;
        q.extend(self.queue.drain(..));
        self.queue = q;
    }

    // -----------------------------------------------------------------------
    // Entry points.
    // -----------------------------------------------------------------------

    /// A scenario shock: the unit is put into the given state as if `cause`
    /// had done it, and its forced move is queued. A shock that would not
    /// make the unit worse does nothing.
    pub fn apply_shock(&mut self, ctx: &FsCtx, table: &mut Table, log: &mut EventLog, shock: &Shock, turn: u32) {
        let u = shock.unit;
        if u >= table.units.len() {
            return;
        }
        let from = shock.cause.and_then(|c| table.units.get(c)).map(|c| (c.x, c.y));
        // A scripted shock is a root of the cause graph.
        self.hit(ctx, table, log, u, shock.to, Cause::Shock, from, turn, &[]);
    }

    /// A unit is put into state `to` by `cause` (fire, melee, a shock, a
    /// valour fall), whose centre was at `from` (`None`: a free direction,
    /// 2.2.4); the change follows from `by`. FU queues a flight from `from`,
    /// U a retreat away from it. A result that would not make the unit worse
    /// does nothing. Returns the state change's `seq`.
    #[allow(clippy::too_many_arguments)] // the result, its cause and its place in the log
    pub fn hit(
        &mut self,
        ctx: &FsCtx,
        table: &mut Table,
        log: &mut EventLog,
        u: usize,
        to: State,
        cause: Cause,
        from: Option<(f32, f32)>,
        turn: u32,
        by: &[Seq],
    ) -> Option<Seq> {
        if u >= table.units.len() || severity(to) <= severity(table.units[u].state) {
            return None;
        }
        match to {
            State::FU | State::Routed => {
                let changed = self.enter_fu(ctx, table, log, u, cause, turn, by);
                self.queue.push_back(Job::Flight { unit: u, from, blocker: None, by: changed });
                changed
            }
            State::U | State::Disordered => {
                let changed = self.set_state(table, log, u, State::U, cause, turn, by);
                self.queue.push_back(Job::Retreat { unit: u, from, cause, by: changed });
                changed
            }
            _ => self.set_state(table, log, u, State::LU, cause, turn, by),
        }
    }

    /// The unit's rectangle as the engine last filed it.
    pub fn rect(&self, u: usize) -> OrientedRect {
        self.rects[u]
    }

    /// Re-files unit `u` after an order moved or re-formed it.
    pub fn moved(&mut self, ctx: &FsCtx, table: &Table, u: usize) {
        self.refile(ctx, table, u);
    }

    /// The units whose boxes meet `aabb` (broad phase), into `out`.
    pub fn near(&self, aabb: (f32, f32, f32, f32), out: &mut Vec<usize>) {
        self.broad.query(aabb, out);
    }

    /// Resolves every queued forced move, in order, with all they cause:
    /// "retreat, rout and spread of rout" at the end of a phase (2.5).
    pub fn resolve(&mut self, ctx: &FsCtx, table: &mut Table, dice: &mut Dice, log: &mut EventLog, turn: u32) {
        while let Some(job) = self.queue.pop_front() {
            match job {
                Job::Flight { unit, from, blocker, by } => {
                    self.flight(ctx, table, dice, log, turn, unit, from, blocker, by)
                }
                Job::Retreat { unit, from, cause, by } => self.retreat(ctx, table, log, turn, unit, from, cause, by),
            }
        }
    }

    /// One flight of unit `u` from `from` (docs/rules.md 2.2, 2.3), run at
    /// once and alone: the unit enters FU as [`Self::hit`] puts it there
    /// (unless it is fleeing already) and flees as its queued flight would,
    /// with every friend it carries along; a friend it shakes into U has its
    /// retreat queued, not made. The flight preview runs this on a copy of
    /// the table with scripted dice, so that what it shows is the flight.
    #[allow(clippy::too_many_arguments)] // as `hit`, with the dice
    pub fn flee_now(
        &mut self,
        ctx: &FsCtx,
        table: &mut Table,
        dice: &mut Dice,
        log: &mut EventLog,
        turn: u32,
        u: usize,
        from: Option<(f32, f32)>,
    ) {
        if u >= table.units.len() {
            return;
        }
        // Entering FU again would take its figure loss twice.
        let by = if table.units[u].state == State::FU {
            None
        } else {
            self.enter_fu(ctx, table, log, u, Cause::Shock, turn, &[])
        };
        self.flight(ctx, table, dice, log, turn, u, from, None, by);
    }

    /// Reorganisation (docs/rules.md 2.4) at the end of `side`'s announcement
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
                    State::FU => true,
                    State::U | State::LU => ba.reorg_lu_and_u,
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
            let roll = dice.three_d6_for(u, Roll::Check);
            let total = roll as i32 + unit.valour + bonus;
            let before = unit.state;
            let reached = reorganisation(total, ba);
            let after = if severity(reached) < severity(before) { reached } else { before };
            // The log's morale check, read the 3d6 way: `morale` is the
            // highest total that stays in FU, `modifier` valour + staff.
            // The segment demands the roll of a unit its fall left shaken:
            // it follows from both.
            let mut by = log.phase_start();
            by.extend(log.last_fall(&unit.id));
            let checked = log.push_because(
                EventKind::MoraleCheck {
                    unit: unit.id.clone(),
                    cause: Cause::Reorganisation,
                    morale: clamp_u8(ba.reorg_stay_fu_max),
                    modifier: unit.valour + bonus,
                    roll: roll as u8,
                    result: clamp_u8(total),
                    passed: total > ba.reorg_stay_fu_max,
                    source: None,
                },
                &by,
            );
            if after != before {
                let changed = log.push_because(
                    EventKind::StateChange {
                        unit: unit.id.clone(),
                        from: before.free_space(),
                        to: after.free_space(),
                        cause: Cause::Reorganisation,
                    },
                    &[checked],
                );
                let unit = &mut table.units[u];
                unit.state = after;
                if before == State::FU {
                    // 2.4: re-formed without time in a closed formation; house
                    // default column. FU -> U does not force a retreat.
                    let was = unit.formation;
                    unit.formation = Formation::Column;
                    Self::log_formation(log, &table.units[u], was, &[changed]);
                    self.refile(ctx, table, u);
                }
            }
        }
        self.resolve(ctx, table, dice, log, turn);
    }

    // -----------------------------------------------------------------------
    // State changes.
    // -----------------------------------------------------------------------

    /// Changes a unit's state, logged as following from `by`: the change's
    /// `seq`, or `None` when it was in that state already.
    #[allow(clippy::too_many_arguments)] // the change, its cause and its place in the log
    fn set_state(
        &mut self,
        table: &mut Table,
        log: &mut EventLog,
        u: usize,
        to: State,
        cause: Cause,
        turn: u32,
        by: &[Seq],
    ) -> Option<Seq> {
        let unit = &mut table.units[u];
        if unit.state == to {
            return None;
        }
        let seq = log.push_because(
            EventKind::StateChange { unit: unit.id.clone(), from: unit.state.free_space(), to: to.free_space(), cause },
            by,
        );
        if severity(to) > severity(unit.state) {
            unit.shaken_in = Some(turn);
        }
        unit.state = to;
        Some(seq)
    }

    /// A unit enters FU: figure loss (2.6), and unlimbered artillery leaves
    /// its guns where they stand (2.2.7), its gunners fleeing from there on
    /// foot. Returns the state change's `seq` (`None` if already in FU).
    #[allow(clippy::too_many_arguments)] // as `set_state`, with the table's context
    fn enter_fu(
        &mut self,
        ctx: &FsCtx,
        table: &mut Table,
        log: &mut EventLog,
        u: usize,
        cause: Cause,
        turn: u32,
        by: &[Seq],
    ) -> Option<Seq> {
        let changed = self.set_state(table, log, u, State::FU, cause, turn, by);
        let loss = ctx.ba().figure_loss_on_fu;
        let unit = &mut table.units[u];
        unit.figures = unit.figures.saturating_sub(loss).max(1);
        if unit.arm == Arm::Artillery && !unit.limbered && unit.guns_left.is_none() {
            unit.guns_left = Some((unit.x, unit.y));
        }
        self.refile(ctx, table, u);
        changed
    }

    /// A `Formation` event if `unit` now stands in another formation than
    /// `was` (the window redraws its footprint from these).
    /// It follows from `by` (the move or state change that ended in it).
    fn log_formation(log: &mut EventLog, unit: &FsUnit, was: Formation, by: &[Seq]) {
        if unit.formation != was {
            log.push_because(
                EventKind::Formation { unit: unit.id.clone(), from: was.into(), to: unit.formation.into() },
                by,
            );
        }
    }
}
