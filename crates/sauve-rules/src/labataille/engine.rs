//! La Bataille morale engine: checks, forced moves, contagion cascades,
//! shocks and the Morale Recovery Segment (docs/rules.md 1.1-1.5).
//!
//! Cascade order (documented in docs/rules.md): forced moves wait in one
//! first-in, first-out queue. A move is made whole; then the good-order
//! friends in each hex of its path, start to end, check for contagion; every
//! failure queues that unit's own forced move behind the ones already
//! waiting. So a cascade spreads breadth-first, one wave of checks per move.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::dice::{Dice, morale_check};
use crate::events::{Cause, EliminationReason, EventKind, EventLog, Lost, MoveReason, Pos, Seq};
use crate::hex::{Dir, Edge, Offset};
use crate::labataille::Board;
use crate::labataille::ai::goal_fields::GoalFields;
use crate::labataille::fields::{FAR, Mark, SideFields};
use crate::labataille::grid::{Grid, Occupancy, centi};
use crate::labataille::retreat::{RefugeQuery, RetreatPlanner, RetreatQuery};
use crate::labataille::rout::{RoutPlan, RoutPlanner, RoutQuery};
use crate::rules::{Rules, StackContagion};
use crate::scenario::{Shock, Side};
use crate::terrain::Arm;
use crate::vocab::State;
use crate::vocab::{Formation, Readiness};

/// Above this many changed enemy units, the fields are built afresh.
const MEND_AT_MOST: usize = 16;

/// The fixed context of a battle: map arrays, rules and sides.
pub struct Ctx<'a> {
    pub grid: &'a Grid,
    pub rules: &'a Rules,
    pub sides: &'a [Side],
}

impl Ctx<'_> {
    fn enemy_rear(&self, side: usize) -> Edge {
        let other = if side == 0 { 1 } else { 0 };
        self.sides.get(other).map_or(Edge::North, |s| s.rear)
    }

    fn own_rear(&self, side: usize) -> Edge {
        self.sides.get(side).map_or(Edge::South, |s| s.rear)
    }
}

/// A forced move waiting its turn in the cascade.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forced {
    /// Disorder retreat (rule 1.3).
    Retreat,
    /// The 10-hex rout move (rule 1.3).
    Rout,
    /// A far router's walk towards refuge (rule 1.5).
    Refuge,
}

/// A morale check as written to the log: whether it passed, and its `seq`
/// (what the state change it causes follows from).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    pub passed: bool,
    pub seq: Seq,
}

/// Mutable engine state beside the board: who stands where, cached fields,
/// the cascade queue and scratch space.
pub struct Engine {
    pub occupancy: Occupancy,
    /// Shared, so that a caller may keep a side's fields through a phase
    /// (the AI's plan) without copying them; a mend or rebuild while one is
    /// kept works on a copy.
    fields: Vec<Option<Arc<SideFields>>>,
    /// For each side, the enemy generation its fields were built from.
    built_from: Vec<u64>,
    /// Bumped whenever a unit of the side moves or changes state.
    generation: Vec<u64>,
    planner: RoutPlanner,
    /// Scratch of the disorder retreats and far routers' walks.
    retreats: RetreatPlanner,
    /// Each forced move with the event it follows from (its state change).
    queue: VecDeque<(usize, Forced, Option<Seq>)>,
    /// Number of field builds so far (benchmarks and tests read it).
    pub field_builds: u64,
    /// Position and state of every unit as the engine last left them, to
    /// notice changes made outside the engine (orders, the editor).
    known: Vec<(Option<Offset>, State, Formation, Dir)>,
    /// Per side, every unit as that side's fields last saw it.
    seen: Vec<Vec<Mark>>,
    /// Each unit's leader bonus to morale checks (set by the caller from
    /// the scenario's leaders before a phase; empty means none).
    pub bonus: Vec<i32>,
    /// The AI's last goal fields, kept from one phase to the next.
    pub goal_fields: GoalFields,
    /// Fields a probe mended and gave back, kept for the next mend to copy
    /// into rather than allocate (see [`Engine::restore_probe`]).
    spare: Vec<SideFields>,
}

/// Fields to mend, unshared first: copied into a spare when there is one
/// (`Arc::make_mut`, without the allocation).
fn to_mend<'f>(fields: &'f mut Option<Arc<SideFields>>, spare: &mut Vec<SideFields>) -> Option<&'f mut SideFields> {
    let arc = fields.as_mut()?;
    if Arc::get_mut(arc).is_none() {
        let copy = match spare.pop() {
            Some(mut f) => {
                f.clone_from(arc);
                f
            }
            None => SideFields::clone(arc),
        };
        *arc = Arc::new(copy);
    }
    Arc::get_mut(arc)
}

fn other(side: usize) -> usize {
    if side == 0 { 1 } else { 0 }
}

impl Engine {
    pub fn new(grid: &Grid, board: &Board) -> Self {
        let mut occupancy = Occupancy::new(grid);
        for (i, u) in board.units.iter().enumerate() {
            if let Some(at) = u.at {
                occupancy.insert(grid.idx(at), i, u.side);
            }
        }
        Self {
            occupancy,
            fields: vec![None, None],
            built_from: vec![u64::MAX, u64::MAX],
            generation: vec![0, 0],
            planner: RoutPlanner::new(),
            retreats: RetreatPlanner::new(),
            queue: VecDeque::new(),
            field_builds: 0,
            known: board.units.iter().map(|u| (u.at, u.state, u.formation, u.facing)).collect(),
            bonus: Vec::new(),
            seen: vec![Vec::new(), Vec::new()],
            goal_fields: GoalFields::default(),
            spare: Vec::new(),
        }
    }

    /// A copy to try something on and throw away (the odds of an attack
    /// play its checks on one): the same occupancy, fields (shared until a
    /// side's change rebuilds them), queue and bonuses; fresh scratch, and
    /// none of the AI's goal fields.
    pub fn probe(&self) -> Self {
        let mut occupancy = self.occupancy.clone();
        occupancy.track_changes();
        Self {
            occupancy,
            fields: self.fields.clone(),
            built_from: self.built_from.clone(),
            generation: self.generation.clone(),
            planner: RoutPlanner::new(),
            retreats: RetreatPlanner::new(),
            queue: self.queue.clone(),
            field_builds: self.field_builds,
            known: self.known.clone(),
            bonus: self.bonus.clone(),
            seen: self.seen.clone(),
            goal_fields: GoalFields::default(),
            spare: Vec::new(),
        }
    }

    /// Makes `probe`, a probe of this engine that has since been played
    /// on, a fresh probe of it again, keeping its buffers: the odds play
    /// each way an attack's checks can go on one probe. Fields the probe
    /// mended go to its spares and it shares this engine's again.
    pub(crate) fn restore_probe(&self, probe: &mut Engine) {
        let Self {
            occupancy,
            fields,
            built_from,
            generation,
            planner: _,
            retreats: _,
            queue,
            field_builds,
            known,
            seen,
            bonus,
            goal_fields: _,
            spare,
        } = probe;
        occupancy.restore_from(&self.occupancy);
        fields.resize(self.fields.len(), None);
        for (mine, theirs) in fields.iter_mut().zip(&self.fields) {
            let same = match (&*mine, theirs) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            };
            if !same && let Some(f) = mine.take().and_then(|a| Arc::try_unwrap(a).ok()) {
                spare.push(f);
            }
            mine.clone_from(theirs);
        }
        built_from.clone_from(&self.built_from);
        generation.clone_from(&self.generation);
        queue.clone_from(&self.queue);
        *field_builds = self.field_builds;
        known.clone_from(&self.known);
        seen.clone_from(&self.seen);
        bonus.clone_from(&self.bonus);
    }

    /// Brings the engine up to date with a board that may have changed since
    /// it last saw it: rebuilds who stands where, and marks the fields of any
    /// side whose units moved or changed state as stale.
    pub fn sync(&mut self, grid: &Grid, board: &Board) {
        let now: Vec<(Option<Offset>, State, Formation, Dir)> =
            board.units.iter().map(|u| (u.at, u.state, u.formation, u.facing)).collect();
        if now == self.known {
            return;
        }
        for (i, u) in board.units.iter().enumerate() {
            if self.known.get(i) != Some(&(u.at, u.state, u.formation, u.facing)) {
                self.touched(u.side.min(1));
            }
        }
        self.occupancy.clear();
        for (i, u) in board.units.iter().enumerate() {
            if let Some(at) = u.at {
                self.occupancy.insert(grid.idx(at), i, u.side);
            }
        }
        self.known = now;
    }

    /// Records the board as the engine leaves it (see [`Engine::sync`]).
    pub fn remember(&mut self, board: &Board) {
        self.known.clear();
        self.known.extend(board.units.iter().map(|u| (u.at, u.state, u.formation, u.facing)));
    }

    /// Rebuilds `side`'s fields if an enemy has moved since they were built.
    pub fn ensure_fields(&mut self, ctx: &Ctx, board: &Board, side: usize) {
        let enemy_gen = self.generation[other(side)];
        if self.fields[side].is_some() && self.built_from[side] == enemy_gen {
            return;
        }
        // A few enemies changed since the fields were made (a charge and the
        // retreat it caused): mend them where those units were and are,
        // rather than walk the whole map again.
        let seen = &self.seen[side];
        let changed: Vec<usize> = if self.fields[side].is_some() && seen.len() == board.units.len() {
            (0..board.units.len())
                .filter(|&i| board.units[i].side != side && seen[i] != Mark::of(&board.units[i]))
                .take(MEND_AT_MOST + 1)
                .collect()
        } else {
            Vec::new()
        };
        let kept = self.fields[side].is_some();
        // On a small map a fresh build is cheaper than mending.
        let mend = !changed.is_empty() && changed.len() <= MEND_AT_MOST && changed.len() * 512 <= ctx.grid.len();
        if kept && mend {
            if let Some(f) = to_mend(&mut self.fields[side], &mut self.spare) {
                for &i in &changed {
                    let now = Mark::of(&board.units[i]);
                    f.apply_change(ctx.grid, self.seen[side][i], now);
                    self.seen[side][i] = now;
                }
            }
        } else if !(kept && changed.is_empty() && self.seen[side].len() == board.units.len()) {
            let rear = ctx.enemy_rear(side);
            // Rebuilt in place, unless kept elsewhere: then built anew
            // rather than copied only to be overwritten.
            match self.fields[side].as_mut().and_then(Arc::get_mut) {
                Some(f) => f.rebuild(ctx.grid, board, side, rear),
                None => self.fields[side] = Some(Arc::new(SideFields::build(ctx.grid, board, side, rear))),
            }
            self.seen[side] = board.units.iter().map(Mark::of).collect();
            self.field_builds += 1;
        }
        self.built_from[side] = enemy_gen;
    }

    /// The side's fields, rebuilt first if stale.
    pub fn fields(&mut self, ctx: &Ctx, board: &Board, side: usize) -> Option<&SideFields> {
        self.ensure_fields(ctx, board, side);
        self.fields[side].as_deref()
    }

    /// The side's fields, rebuilt first if stale, shared: to keep through a
    /// phase in which they stay true (the side's own moves leave them so).
    pub fn shared_fields(&mut self, ctx: &Ctx, board: &Board, side: usize) -> Option<Arc<SideFields>> {
        self.ensure_fields(ctx, board, side);
        self.fields[side].clone()
    }

    /// The side's fields (rebuilt first if stale) beside who stands where,
    /// for searches that read both.
    pub fn fields_and_occupancy(&mut self, ctx: &Ctx, board: &Board, side: usize) -> Option<(&SideFields, &Occupancy)> {
        self.ensure_fields(ctx, board, side);
        self.fields[side].as_deref().map(|f| (f, &self.occupancy))
    }

    /// Per side (0 and 1), how many times its units have moved or changed
    /// state or formation as far as the engine knows.
    pub fn generations(&self) -> [u64; 2] {
        [self.generation[0], self.generation[1]]
    }

    /// The side's fields if no enemy has changed since they were made (no
    /// rebuild, no mending: for searches that can read the board instead).
    pub fn fresh_fields(&self, side: usize) -> Option<&SideFields> {
        if side > 1 {
            return None;
        }
        (self.built_from[side] == self.generation[other(side)]).then_some(self.fields[side].as_deref()).flatten()
    }

    /// Marks that a unit of `side` moved, changed state, formation (a
    /// square exerts no zone) or facing, so the enemy's fields go stale.
    pub fn touched(&mut self, side: usize) {
        self.generation[side] += 1;
    }

    /// Morale modifier for a unit's state (rule 1.2).
    pub fn state_modifier(rules: &Rules, state: State) -> i32 {
        match state {
            State::Disordered => rules.disordered_modifier,
            State::Routed => rules.routed_modifier,
            _ => 0,
        }
    }

    /// One morale check (rule 1.1), written to the log as following from
    /// `by` (the fire, melee or move that demanded it; empty when an order
    /// did).
    #[allow(clippy::too_many_arguments)] // the rule's inputs, each needed once
    pub fn check(
        &mut self,
        ctx: &Ctx,
        board: &Board,
        dice: &mut Dice,
        log: &mut EventLog,
        unit: usize,
        cause: Cause,
        source: Option<usize>,
        by: &[Seq],
    ) -> Checked {
        self.check_with(ctx, board, dice, log, unit, cause, source, 0, by)
    }

    /// A morale check with an extra modifier from its cause (a fire result,
    /// forming square), plus the state and leader modifiers.
    #[allow(clippy::too_many_arguments)] // as `check`, with the cause's modifier
    pub fn check_with(
        &mut self,
        ctx: &Ctx,
        board: &Board,
        dice: &mut Dice,
        log: &mut EventLog,
        unit: usize,
        cause: Cause,
        source: Option<usize>,
        extra: i32,
        by: &[Seq],
    ) -> Checked {
        let u = &board.units[unit];
        let modifier = Self::state_modifier(ctx.rules, u.state) + extra + self.bonus.get(unit).copied().unwrap_or(0);
        let roll = dice.check_d66(unit, u.morale, modifier, ctx.rules.natural_extremes);
        let r = morale_check(u.morale, modifier, roll, ctx.rules.natural_extremes);
        let seq = log.push_because(
            EventKind::MoraleCheck {
                unit: u.id.clone(),
                cause,
                morale: u.morale,
                modifier,
                roll: r.roll.value(),
                result: r.result.value(),
                passed: r.passed,
                source: source.map(|s| board.units[s].id.clone()),
            },
            by,
        );
        Checked { passed: r.passed, seq }
    }

    /// Changes a unit's state, logging it as following from `by`; the
    /// change's `seq`, or `None` when the unit was in that state already.
    pub fn set_state(
        &mut self,
        board: &mut Board,
        log: &mut EventLog,
        unit: usize,
        to: State,
        cause: Cause,
        by: &[Seq],
    ) -> Option<Seq> {
        let from = board.units[unit].state;
        if from == to {
            return None;
        }
        board.units[unit].state = to;
        board.units[unit].rested = false;
        self.touched(board.units[unit].side);
        Some(log.push_because(EventKind::StateChange { unit: board.units[unit].id.clone(), from, to, cause }, by))
    }

    /// The result of a failed check by a good-order unit (rule 1.2):
    /// infantry and artillery disorder and retreat; cavalry, never
    /// disordered, routs.
    /// `by`: the failed check. The forced move follows from the state change.
    pub fn fail(&mut self, board: &mut Board, log: &mut EventLog, unit: usize, cause: Cause, by: &[Seq]) {
        let (to, forced) = if board.units[unit].arm == Arm::Cavalry {
            (State::Routed, Forced::Rout)
        } else {
            (State::Disordered, Forced::Retreat)
        };
        let changed = self.set_state(board, log, unit, to, cause, by);
        self.queue.push_back((unit, forced, changed.or(by.last().copied())));
    }

    /// Queues a forced move for a unit (its state already set), following
    /// from `by` (the state change that demands it).
    pub fn push(&mut self, unit: usize, forced: Forced, by: Option<Seq>) {
        self.queue.push_back((unit, forced, by));
    }

    pub(crate) fn relocate(&mut self, ctx: &Ctx, board: &mut Board, unit: usize, to: Option<Offset>) {
        let u = &mut board.units[unit];
        if let Some(at) = u.at {
            self.occupancy.remove(ctx.grid.idx(at), unit, u.side);
        }
        if let Some(to) = to {
            self.occupancy.insert(ctx.grid.idx(to), unit, u.side);
        }
        u.at = to;
        u.rested = false;
        let side = u.side;
        self.touched(side);
    }

    /// Writes a move along `path` following from `by`; its `seq`, or `None`
    /// for an empty path.
    pub(crate) fn log_move(
        board: &Board,
        log: &mut EventLog,
        unit: usize,
        reason: MoveReason,
        path: &[Offset],
        by: &[Seq],
    ) -> Option<Seq> {
        let (Some(&from), Some(&to)) = (path.first(), path.last()) else { return None };
        Some(log.push_because(
            EventKind::Move {
                unit: board.units[unit].id.clone(),
                reason,
                from: from.into(),
                to: to.into(),
                path: path.iter().map(|&o| Pos::from(o)).collect(),
            },
            by,
        ))
    }

    /// Increments lost to fire or melee; a unit with none left is
    /// eliminated and leaves the board. `by`: the fire or melee.
    pub fn lose(&mut self, ctx: &Ctx, board: &mut Board, log: &mut EventLog, unit: usize, increments: u32, by: &[Seq]) {
        let u = &mut board.units[unit];
        if increments == 0 || u.at.is_none() {
            return;
        }
        let lost = increments.min(u.strength);
        u.strength -= lost;
        u.rested = false;
        let losses = log.push_because(
            EventKind::Losses { unit: u.id.clone(), lost: Lost::Increments { increments: lost, strength: u.strength } },
            by,
        );
        if u.strength == 0 {
            let id = u.id.clone();
            self.relocate(ctx, board, unit, None);
            board.units[unit].state = State::Eliminated;
            log.push_because(EventKind::Eliminated { unit: id, reason: EliminationReason::Losses }, &[losses]);
        }
    }

    /// Drains the cascade queue: every forced move, and every contagion check
    /// it causes, until nothing is left to move.
    pub fn resolve(&mut self, ctx: &Ctx, board: &mut Board, dice: &mut Dice, log: &mut EventLog) {
        while let Some((unit, forced, by)) = self.queue.pop_front() {
            let u = &board.units[unit];
            if u.at.is_none() {
                continue;
            }
            let by: Vec<Seq> = by.into_iter().collect();
            match forced {
                Forced::Rout if u.state == State::Routed => self.rout(ctx, board, dice, log, unit, &by),
                Forced::Retreat if u.state == State::Disordered => self.retreat(ctx, board, dice, log, unit, &by),
                Forced::Refuge if u.state == State::Routed => self.refuge(ctx, board, dice, log, unit, &by),
                // Its state changed while it waited (e.g. a disordered unit
                // that routed on later): the later move supersedes this one.
                _ => {}
            }
        }
    }

    /// Rout move (rule 1.3), with surrender and routing off the map.
    /// `by`: the state change that sent it; the move follows from it, and
    /// so does a surrender (the move that could not be made).
    fn rout(&mut self, ctx: &Ctx, board: &mut Board, dice: &mut Dice, log: &mut EventLog, unit: usize, by: &[Seq]) {
        let Some(plan) = self.plan_rout(ctx, board, unit) else { return };
        match plan {
            RoutPlan::Full(path) => {
                let moved = Self::log_move(board, log, unit, MoveReason::Rout, &path, by);
                self.relocate(ctx, board, unit, path.last().copied());
                self.contagion(ctx, board, dice, log, unit, &path, moved);
            }
            RoutPlan::OffMap(path, edge) => {
                let moved = Self::log_move(board, log, unit, MoveReason::Rout, &path, by);
                self.relocate(ctx, board, unit, None);
                let id = board.units[unit].id.clone();
                let after: Vec<Seq> = moved.into_iter().collect();
                if ctx.rules.off_map_recovery.contains(&edge) {
                    log.push_because(EventKind::LeftMap { unit: id, edge }, &after);
                } else {
                    board.units[unit].state = State::Eliminated;
                    log.push_because(EventKind::Eliminated { unit: id, reason: EliminationReason::OffMap }, &after);
                }
                self.contagion(ctx, board, dice, log, unit, &path, moved);
            }
            RoutPlan::Surrender => {
                self.relocate(ctx, board, unit, None);
                board.units[unit].state = State::Surrendered;
                log.push_because(EventKind::Surrendered { unit: board.units[unit].id.clone() }, by);
            }
        }
    }

    /// Where `unit` would rout to from where it stands, on the board as it
    /// is (rule 1.3): the one planner both the rout move and the rout
    /// preview ask, so a preview shows the move that would be made. Rolls
    /// no dice and changes nothing on the board (only the engine's caches).
    /// `None` when the unit is off the board.
    pub fn plan_rout(&mut self, ctx: &Ctx, board: &Board, unit: usize) -> Option<RoutPlan> {
        let start = board.units[unit].at?;
        let side = board.units[unit].side;
        self.ensure_fields(ctx, board, side);
        let fields = self.fields[side].as_deref()?;
        Some(self.planner.plan(&RoutQuery {
            grid: ctx.grid,
            fields,
            occupancy: &self.occupancy,
            board,
            unit,
            start,
            hexes: ctx.rules.rout_hexes,
            enemy_radius: ctx.rules.rout_enemy_radius,
            own_rear: ctx.own_rear(side),
            refuge: ctx.rules.rout_refuge,
        }))
    }

    /// Disorder retreat (rule 1.3); infantry or limbered artillery that
    /// retreats through an enemy cavalry zone routs (rule 1.4).
    fn retreat(&mut self, ctx: &Ctx, board: &mut Board, dice: &mut Dice, log: &mut EventLog, unit: usize, by: &[Seq]) {
        let Some(start) = board.units[unit].at else { return };
        let side = board.units[unit].side;
        self.ensure_fields(ctx, board, side);
        let Some(fields) = self.fields[side].as_deref() else { return };
        let plan = self.retreats.retreat(&RetreatQuery {
            grid: ctx.grid,
            fields,
            occupancy: &self.occupancy,
            board,
            unit,
            start,
            budget: centi(ctx.rules.retreat_mp),
            own_rear: ctx.own_rear(side),
        });
        let Some(plan) = plan else { return };
        let moved = Self::log_move(board, log, unit, MoveReason::Disorder, &plan.path, by);
        self.relocate(ctx, board, unit, plan.path.last().copied());
        self.contagion(ctx, board, dice, log, unit, &plan.path, moved);
        let u = &board.units[unit];
        let vulnerable = u.arm == Arm::Infantry || (u.arm == Arm::Artillery && u.limbered);
        if plan.through_cavalry_zone && vulnerable && u.state == State::Disordered {
            let after: Vec<Seq> = moved.into_iter().collect();
            let changed = self.set_state(board, log, unit, State::Routed, Cause::CavalryZone, &after);
            self.queue.push_back((unit, Forced::Rout, changed));
        }
    }

    /// Far router's walk to refuge (rule 1.5).
    fn refuge(&mut self, ctx: &Ctx, board: &mut Board, dice: &mut Dice, log: &mut EventLog, unit: usize, by: &[Seq]) {
        let Some(start) = board.units[unit].at else { return };
        let side = board.units[unit].side;
        self.ensure_fields(ctx, board, side);
        let Some(fields) = self.fields[side].as_deref() else { return };
        let Some(path) = self.retreats.refuge(&RefugeQuery {
            grid: ctx.grid,
            fields,
            board,
            unit,
            start,
            safe: ctx.rules.safe_distance,
            max_hexes: ctx.rules.far_router_hexes,
        }) else {
            return;
        };
        if path.len() < 2 {
            return;
        }
        let moved = Self::log_move(board, log, unit, MoveReason::Recovery, &path, by);
        self.relocate(ctx, board, unit, path.last().copied());
        self.contagion(ctx, board, dice, log, unit, &path, moved);
    }

    /// Contagion (rule 1.4): good-order friends in every hex the mover began
    /// in, passed through or ended in check morale; with the house-default
    /// stack rule the top unit checks first and the rest only if it fails.
    /// Each check follows from the move (`moved`); a stack-mate's, under the
    /// house default, from the top unit's failure too.
    #[allow(clippy::too_many_arguments)] // the rule's inputs, each needed once
    fn contagion(
        &mut self,
        ctx: &Ctx,
        board: &mut Board,
        dice: &mut Dice,
        log: &mut EventLog,
        mover: usize,
        path: &[Offset],
        moved: Option<Seq>,
    ) {
        let by: Vec<Seq> = moved.into_iter().collect();
        let side = board.units[mover].side;
        for &hex in path {
            let stack: Vec<usize> = self
                .occupancy
                .at(ctx.grid.idx(hex))
                .iter()
                .map(|&u| u as usize)
                .filter(|&u| u != mover && board.units[u].side == side && board.units[u].state == State::GoodOrder)
                .collect();
            let Some((&top, rest)) = stack.split_first() else { continue };
            let top_check = self.check(ctx, board, dice, log, top, Cause::Contagion, Some(mover), &by);
            let top_failed = !top_check.passed;
            if top_failed {
                self.fail(board, log, top, Cause::Contagion, &[top_check.seq]);
            }
            let each = ctx.rules.contagion_stack == StackContagion::EachUnit;
            if top_failed || each {
                let mut rest_by = by.clone();
                if !each {
                    rest_by.push(top_check.seq);
                }
                for &u in rest {
                    if board.units[u].state != State::GoodOrder {
                        continue;
                    }
                    let c = self.check(ctx, board, dice, log, u, Cause::Contagion, Some(mover), &rest_by);
                    if !c.passed {
                        self.fail(board, log, u, Cause::Contagion, &[c.seq]);
                    }
                }
            }
        }
    }

    /// A scripted shock (docs/scenario-format.md, Shocks): the unit takes the state as
    /// if a combat result had caused it, then makes the forced move, and the
    /// cascade runs its course. A disordering result on cavalry routs it
    /// (rule 1.2: cavalry is never disordered).
    pub fn apply_shock(&mut self, ctx: &Ctx, board: &mut Board, dice: &mut Dice, log: &mut EventLog, shock: &Shock) {
        let unit = shock.unit;
        let u = &board.units[unit];
        if u.at.is_none() || !matches!(u.state, State::GoodOrder | State::Disordered | State::Routed) {
            return;
        }
        let mut to = shock.to.hex();
        if u.arm == Arm::Cavalry && to == State::Disordered {
            to = State::Routed;
        }
        // A scripted shock is a root of the cause graph. One that finds the
        // unit in that state already writes no change: its move then
        // follows from the shocks segment's start.
        let changed = self.set_state(board, log, unit, to, Cause::Shock, &[]).or(log.phase_start().first().copied());
        self.queue.push_back((unit, if to == State::Routed { Forced::Rout } else { Forced::Retreat }, changed));
        self.resolve(ctx, board, dice, log);
    }

    /// The Morale Recovery Segment of `side` (rule 1.5). Works through the
    /// units that are disordered or routed when the segment begins, in
    /// scenario order, finishing each one's cascade before the next.
    pub fn recovery_segment(&mut self, ctx: &Ctx, board: &mut Board, dice: &mut Dice, log: &mut EventLog, side: usize) {
        let shaken: Vec<usize> = (0..board.units.len())
            .filter(|&i| board.units[i].side == side && board.units[i].at.is_some() && board.units[i].state.is_shaken())
            .collect();
        let mut recovered_cavalry = Vec::new();
        for unit in shaken {
            let u = &board.units[unit];
            let Some(at) = u.at else { continue };
            if !u.state.is_shaken() {
                continue;
            }
            let dist = match self.fields(ctx, board, side) {
                Some(f) => f.dist[ctx.grid.idx(at)],
                None => FAR,
            };
            // The segment demands the check of a unit its fall left shaken:
            // it follows from both.
            let mut by = log.phase_start();
            by.extend(log.last_fall(&board.units[unit].id));
            let checked = self.check(ctx, board, dice, log, unit, Cause::Recovery, None, &by);
            let after = [checked.seq];
            if checked.passed {
                let from = board.units[unit].state;
                let changed = self.set_state(board, log, unit, State::GoodOrder, Cause::Recovery, &after);
                let u = &mut board.units[unit];
                u.formation =
                    if ctx.grid.close[ctx.grid.idx(at)] { Formation::GeneralOrder } else { Formation::Column };
                if u.arm == Arm::Cavalry && from == State::Routed {
                    recovered_cavalry.push(unit);
                    if u.readiness != Readiness::Exhausted {
                        log.push_because(
                            EventKind::Readiness { unit: u.id.clone(), from: u.readiness, to: Readiness::Exhausted },
                            &changed.map_or(after.to_vec(), |c| vec![c]),
                        );
                        u.readiness = Readiness::Exhausted;
                    }
                }
            } else if board.units[unit].state == State::Disordered {
                let changed = self.set_state(board, log, unit, State::Routed, Cause::Recovery, &after);
                self.queue.push_back((unit, Forced::Rout, changed));
            } else if dist == FAR || dist as u32 > ctx.rules.safe_distance {
                self.queue.push_back((unit, Forced::Refuge, Some(checked.seq)));
            } else {
                self.queue.push_back((unit, Forced::Rout, Some(checked.seq)));
            }
            self.resolve(ctx, board, dice, log);
        }
        // Cavalry readiness (rule 1.2): one step back per turn of full rest.
        for (i, u) in board.units.iter_mut().enumerate() {
            if u.side != side || u.at.is_none() {
                continue;
            }
            if u.arm == Arm::Cavalry && u.rested && u.state == State::GoodOrder && !recovered_cavalry.contains(&i) {
                let to = match u.readiness {
                    Readiness::Exhausted => Some(Readiness::Tired),
                    Readiness::Tired => Some(Readiness::Fresh),
                    Readiness::Fresh => None,
                };
                if let Some(to) = to {
                    log.push(EventKind::Readiness { unit: u.id.clone(), from: u.readiness, to });
                    u.readiness = to;
                }
            }
            u.rested = true;
        }
    }
}
