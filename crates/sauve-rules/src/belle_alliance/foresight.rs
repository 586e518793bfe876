//! The planning AI on a table (`hard`, docs/rules.md "Hard"): before its
//! movement phase a side's units in order are grouped (by corps, a large
//! one cut from west to east) and the hex mode's search weighs the same
//! scripts for them ([`crate::labataille::ai::foresight`]), each choice
//! played on by the free-space rules, as the simulation plays them: the
//! movement with the scripts, then the rest of the side's bound and the
//! enemy's whole bound, `normal` giving every other order on both sides,
//! with the shocks, army morale (2.11), the close of each phase (forced
//! moves, guns taken) and who holds each objective.
//!
//! The continuations' dice are seeded as the hex mode's are, from the
//! game's seed, the turn, the side and the continuation's number.

use std::sync::Arc;

use crate::belle_alliance::ai::{self, FsGoals};
use crate::belle_alliance::broad::BroadPhaseKind;
use crate::belle_alliance::engine::FsEngine;
use crate::belle_alliance::play::{At, Bound, FsPlay, close_phase, open_phase};
use crate::belle_alliance::victory::{army_broken, fled, score, update_holders};
use crate::belle_alliance::{FsCtx, Table};
use crate::dice::Dice;
use crate::events::EventLog;
use crate::labataille::ai::Script;
use crate::labataille::ai::foresight::{Deliberation, DeliberationProgress, Group, search, split_groups};
use crate::rules::hard::HardRules;
use crate::scenario::Scenario;
use crate::turn::{Phase, SavePoint};
use crate::vocab::{AiLevel, State};
use crate::whatif::seeds::foresight_seed;

/// The table as a side's movement phase begins, and the battle beyond it,
/// owned, so that it can be weighed on another thread (the window's).
#[derive(Clone, Debug)]
pub struct TablePosition {
    pub scenario: Arc<Scenario>,
    /// The game's seed, from which the continuations' seeds are made.
    pub seed: u64,
    pub turn: u32,
    /// The side deciding, at its movement phase.
    pub side: usize,
    pub table: Table,
    pub play: FsPlay,
    /// Each objective's holder (by [`Scenario::objectives`]).
    pub holders: Vec<Option<usize>>,
    /// Each side's army broken.
    pub broken: Vec<bool>,
}

/// The groups of side `side`'s units a script can move: those in order or
/// lightly unformed, by corps, a corps of more than `group_size` cut into
/// nearly equal parts from west to east.
pub fn groups(scenario: &Scenario, table: &Table, side: usize, group_size: u32) -> Vec<Group> {
    let movable = table
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.side == side && matches!(u.state, State::Order | State::LU))
        .map(|(i, u)| (i, scenario.corps_of_unit(i), (u.x, u.y)));
    split_groups(scenario, movable, group_size)
}

/// Weighs scripts for the side's groups from `p` (see the module's text),
/// telling `progress` how far it has gone.
pub fn deliberate(p: &TablePosition, progress: &DeliberationProgress) -> Deliberation {
    let hard = &p.scenario.rules.ai.hard;
    let ctx = FsCtx::new(&p.scenario);
    let groups = groups(&p.scenario, &p.table, p.side, hard.group_size);
    let c = Continuation { p, ctx: &ctx, hard };
    search(groups, p.table.units.len(), hard, p.side, p.turn, progress, |scripts, k| c.play(scripts, k))
}

struct Continuation<'p> {
    p: &'p TablePosition,
    ctx: &'p FsCtx<'p>,
    hard: &'p HardRules,
}

/// One continuation as it goes.
struct Line {
    table: Table,
    play: FsPlay,
    dice: Dice,
    log: EventLog,
    holders: Vec<Option<usize>>,
    broken: Vec<bool>,
}

impl Continuation<'_> {
    fn play(&self, scripts: &[Script], k: u32) -> f32 {
        let p = self.p;
        let mut line = Line {
            table: p.table.clone(),
            play: p.play.clone(),
            dice: Dice::new(foresight_seed(p.seed, p.turn, p.side, k), Vec::new()).by_unit(),
            log: EventLog::default(),
            holders: p.holders.clone(),
            broken: p.broken.clone(),
        };
        let mut at = SavePoint { turn: p.turn, side: Some(p.side), phase: Phase::Movement, finished: false };
        let mut goals = FsGoals::for_side(self.ctx, &line.holders, &line.broken, p.side, AiLevel::Normal);
        goals.scripts = scripts.to_vec();
        // The movement phase has begun: only its orders are left to give.
        self.order_phase(&mut line, at, &goals, false);
        let (sides, turns) = (p.scenario.sides.len(), p.scenario.turns);
        let mut left = self.hard.turns;
        while let Some(next) = at.next(sides, turns) {
            at = next;
            if at.side == Some(p.side) && at.phase == Phase::Charge {
                left = left.saturating_sub(1);
                if left == 0 {
                    break;
                }
            }
            match (at.phase, at.side) {
                (Phase::Shocks, _) if !self.shocks(&mut line, at.turn) => break,
                (phase, Some(phasing)) if phase.takes_orders() => {
                    let acting = phase.acting_side(phasing);
                    let goals = FsGoals::for_side(self.ctx, &line.holders, &line.broken, acting, AiLevel::Normal);
                    self.order_phase(&mut line, at, &goals, true);
                }
                _ => {}
            }
        }
        self.worth(&line)
    }

    /// The shocks phase of `turn`: army morale first (from
    /// `rules.first_command_turn`), then the turn's shocks with their
    /// flights. Whether the battle goes on (no army has broken).
    fn shocks(&self, line: &mut Line, turn: u32) -> bool {
        let s = &*self.p.scenario;
        if turn >= s.rules.first_command_turn {
            for side in 0..s.sides.len() {
                if army_broken(self.ctx, &line.table, side)
                    && let Some(b) = line.broken.get_mut(side)
                {
                    *b = true;
                }
            }
            if line.broken.iter().any(|&b| b) {
                return false;
            }
        }
        let shocks: Vec<_> = s.shocks.iter().filter(|x| x.turn == turn).collect();
        if !shocks.is_empty() {
            let mut engine = FsEngine::new(self.ctx, &line.table, BroadPhaseKind::Grid);
            for shock in shocks {
                engine.apply_shock(self.ctx, &mut line.table, &mut line.log, shock, turn);
            }
            engine.resolve(self.ctx, &mut line.table, &mut line.dice, &mut line.log, turn);
        }
        true
    }

    /// An order phase with `normal` (or the scripts) giving the orders,
    /// opened first unless it has begun, then closed as the simulation
    /// closes it: forced moves, guns taken, objectives changing hands.
    fn order_phase(&self, line: &mut Line, at: SavePoint, goals: &FsGoals, open: bool) {
        let Some(phasing) = at.side else { return };
        let acting = at.phase.acting_side(phasing);
        {
            let mut engine = FsEngine::new(self.ctx, &line.table, BroadPhaseKind::Grid);
            let mut b = Bound {
                ctx: self.ctx,
                engine: &mut engine,
                table: &mut line.table,
                play: &mut line.play,
                dice: &mut line.dice,
                log: &mut line.log,
            };
            if open {
                open_phase(&mut b, at.phase, phasing, at.turn);
            }
            ai::play_phase(&mut b, At { turn: at.turn, phase: at.phase, side: acting }, goals);
        }
        let mut engine = FsEngine::new(self.ctx, &line.table, BroadPhaseKind::Grid);
        close_phase(self.ctx, &mut engine, &mut line.table, &mut line.play, &mut line.dice, &mut line.log, at.turn);
        update_holders(self.ctx, &line.table, &mut line.holders);
    }

    /// What the table comes to for the deciding side, in points, as the
    /// hex mode weighs a board: its score less the enemy's (2.11); each
    /// army's share of the flight that breaks it, times `corps_weight`, the
    /// enemy's for and its own against; an army broken, `army_weight`;
    /// each unit unformed or fleeing, `shaken_weight` against its side.
    fn worth(&self, line: &Line) -> f32 {
        let h = self.hard;
        let me = self.p.side;
        let sign = |side: usize| if side == me { 1.0 } else { -1.0 };
        let sc = score(self.ctx, &line.table, &line.holders, &line.play.captured, &line.broken);
        let mut v: f32 = sc.points.iter().enumerate().map(|(side, &p)| sign(side) * p as f32).sum();
        let breaks_at = self.ctx.ba().victory.army_breaks_at;
        for side in 0..self.p.scenario.sides.len() {
            let (gone, n) = fled(&line.table, side);
            let share = if line.broken.get(side) == Some(&true) {
                1.0
            } else {
                (gone as f32 / (breaks_at * n as f32).max(1.0)).min(1.0)
            };
            v -= sign(side) * h.corps_weight * share;
        }
        if sc.decisive {
            v += if sc.winner == Some(me) { h.army_weight } else { -h.army_weight };
        }
        for u in &line.table.units {
            if matches!(u.state, State::LU | State::U | State::FU) {
                v -= sign(u.side) * h.shaken_weight;
            }
        }
        v
    }
}
