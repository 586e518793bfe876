//! The planning AI's forward model: one continuation of the battle from a
//! side's movement phase to the end of the enemy's reply, played by the
//! rules as the simulation plays them (shocks, the command segment,
//! the order phases with `normal` on both sides, morale recovery, who holds
//! each objective and what marched off), on copies, and what it comes to
//! worth for the side (docs/rules.md "Hard").
//!
//! Left out, as too small to change a choice: leaders riding to another
//! unit (their bonuses stay as they were when the phase began).

use std::collections::HashMap;

use crate::dice::Dice;
use crate::events::EventLog;
use crate::labataille::Board;
use crate::labataille::combat::Battlefield;
use crate::labataille::engine::Engine;
use crate::labataille::movement::MoveSearch;
use crate::labataille::orders::{Activity, Orders};
use crate::labataille::victory::{corps_status, score, tally_exits, update_holders};
use crate::rules::hard::HardRules;
use crate::turn::{Phase, SavePoint};
use crate::vocab::{AiLevel, State};
use crate::whatif::seeds::foresight_seed;

use super::goals::{AiGoals, Foresight, corps_broken_for_orders};
use super::phase::play;
use super::script::Script;

/// The position a continuation starts from, shared by all of them.
pub(super) struct Rollout<'r, 'b> {
    pub(super) bf: &'r Battlefield<'b>,
    pub(super) index: &'r HashMap<String, usize>,
    pub(super) activity: &'r Activity,
    pub(super) engine: &'r Engine,
    pub(super) board: &'r Board,
    /// The side deciding, at its movement phase.
    pub(super) side: usize,
    /// Its goals for the movement phase, at `Normal`, with no scripts.
    pub(super) goals: &'r AiGoals,
    pub(super) f: &'r Foresight,
    /// How far to play on and what a position is worth.
    pub(super) hard: &'r HardRules,
    /// Every unit's strength as the battle began (the scenario's), from
    /// which the enemy's losses are counted.
    pub(super) start_strength: Vec<u32>,
}

/// One continuation as it goes.
struct Line {
    engine: Engine,
    board: Board,
    activity: Activity,
    search: MoveSearch,
    dice: Dice,
    log: EventLog,
    /// Events of `log` already tallied (exits).
    seen: usize,
    holders: Vec<Option<usize>>,
    exited: Vec<u32>,
    corps_broken: Vec<bool>,
    /// An army broke: the battle is over.
    over: bool,
}

impl Rollout<'_, '_> {
    /// Plays continuation `k` with the deciding side's units on `scripts`
    /// (by unit index) and returns what it comes to worth for that side.
    pub(super) fn play(&self, scripts: &[Script], k: u32) -> f32 {
        let f = self.f;
        let mut line = Line {
            engine: self.engine.probe(),
            board: self.board.clone(),
            activity: self.activity.clone(),
            search: MoveSearch::default(),
            dice: Dice::new(foresight_seed(f.seed, f.turn, self.side, k), Vec::new()).by_unit(),
            log: EventLog::default(),
            seen: 0,
            holders: f.holders.clone(),
            exited: f.exited.clone(),
            corps_broken: f.corps_broken.clone(),
            over: false,
        };
        let scripted = AiGoals { scripts: scripts.to_vec(), ..self.goals.clone() };
        let mut at = SavePoint { turn: f.turn, side: Some(self.side), phase: Phase::Movement, finished: false };
        self.order_phase(&mut line, at, &scripted);
        self.tally(&mut line);
        let (sides, turns) = (f.scenario.sides.len(), f.scenario.turns);
        let mut left = self.hard.turns;
        while let Some(next) = at.next(sides, turns) {
            at = next;
            if at.side == Some(self.side) && at.phase == Phase::Charge {
                left = left.saturating_sub(1);
                if left == 0 {
                    break;
                }
            }
            self.phase(&mut line, at);
            if line.over {
                break;
            }
            self.tally(&mut line);
        }
        self.worth(&line)
    }

    /// Plays the phase `at` points at.
    fn phase(&self, line: &mut Line, at: SavePoint) {
        let s = &*self.f.scenario;
        let ctx = self.bf.ctx;
        match (at.phase, at.side) {
            (Phase::Shocks, _) => {
                if at.turn >= s.rules.first_command_turn {
                    line.corps_broken = corps_broken_for_orders(s, &corps_status(s, &line.board), &line.corps_broken);
                    if (0..s.sides.len()).any(|side| crate::labataille::victory::army_broken(s, &line.board, side)) {
                        line.over = true;
                        return;
                    }
                }
                for shock in s.shocks.iter().filter(|x| x.turn == at.turn) {
                    line.engine.apply_shock(ctx, &mut line.board, &mut line.dice, &mut line.log, shock);
                }
            }
            (Phase::MoraleRecovery, Some(side)) => {
                line.engine.recovery_segment(ctx, &mut line.board, &mut line.dice, &mut line.log, side);
            }
            (phase, Some(phasing)) if phase.takes_orders() => {
                line.activity.phase_begins(&line.board, phase, phasing);
                let acting = phase.acting_side(phasing);
                let goals = AiGoals::for_side(s, &line.holders, &line.corps_broken, acting, AiLevel::Normal, at.turn);
                self.order_phase(line, at, &goals);
            }
            _ => {}
        }
    }

    fn order_phase(&self, line: &mut Line, at: SavePoint, goals: &AiGoals) {
        let Some(phasing) = at.side else { return };
        let acting = at.phase.acting_side(phasing);
        let mut orders =
            Orders { bf: self.bf, index: self.index, search: &mut line.search, activity: &mut line.activity };
        play(&mut orders, &mut line.engine, &mut line.board, &mut line.dice, &mut line.log, at.phase, acting, goals);
    }

    /// After each phase: what marched off is counted, objectives change hands.
    fn tally(&self, line: &mut Line) {
        let s = &*self.f.scenario;
        tally_exits(s, &line.log.events[line.seen..], &mut line.exited);
        line.seen = line.log.events.len();
        update_holders(s, &line.board, &mut line.holders);
    }

    /// What the position comes to for the deciding side, in points: its
    /// victory points less the enemy's; each corps' share of the losses
    /// that break it, times `corps_weight`, the enemy's for and its own
    /// against; an army broken, `army_weight`; each unit disordered or
    /// routed on the map, `shaken_weight` against its side.
    fn worth(&self, line: &Line) -> f32 {
        let s = &*self.f.scenario;
        let h = self.hard;
        let me = self.side;
        let sign = |side: usize| if side == me { 1.0 } else { -1.0 };
        let sc = score(s, &line.board, &line.holders, &line.exited, &self.start_strength);
        let mut v: f32 = sc.points.iter().enumerate().map(|(side, &p)| sign(side) * p as f32).sum();
        for st in corps_status(s, &line.board) {
            let Some(c) = s.corps.get(st.corps) else { continue };
            let broken = st.broken || line.corps_broken.get(st.corps) == Some(&true);
            let share = if broken { 1.0 } else { ((st.gone + st.routed) as f32 / c.breaks_at.max(1) as f32).min(1.0) };
            v -= sign(c.side) * h.corps_weight * share;
        }
        if sc.decisive {
            v += if sc.winner == Some(me) { h.army_weight } else { -h.army_weight };
        }
        for u in line.board.units.iter().filter(|u| u.at.is_some()) {
            if matches!(u.state, State::Disordered | State::Routed) {
                v -= sign(u.side) * h.shaken_weight;
            }
        }
        v
    }
}
