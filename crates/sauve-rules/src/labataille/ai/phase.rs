//! One phase of the AI's play: what it reads, the orders it gave, and the
//! one way it gives an order (through the rules, as a player would).

use crate::dice::Dice;
use crate::events::EventLog;
use crate::labataille::Board;
use crate::labataille::combat::Battlefield;
use crate::labataille::engine::Engine;
use crate::labataille::orders::{Order, Orders};
use crate::turn::Phase;
use crate::vocab::AiLevel;

use super::goals::{AiGoals, Tuning};

/// Scores and chances become integers, to order them in keys, in steps of
/// one ten-thousandth.
pub(super) const KEY_SCALE: f32 = 10_000.0;

/// The AI playing one side through one phase: the rules' state it reads
/// and changes (through its orders only), and the orders it gave.
pub(super) struct Ai<'x, 'a, 'b> {
    pub(super) bf: &'a Battlefield<'b>,
    pub(super) orders: &'x mut Orders<'a, 'b>,
    pub(super) engine: &'x mut Engine,
    pub(super) board: &'x mut Board,
    pub(super) dice: &'x mut Dice,
    pub(super) log: &'x mut EventLog,
    pub(super) phase: Phase,
    pub(super) side: usize,
    pub(super) goals: &'x AiGoals,
    pub(super) tuning: Tuning,
    pub(super) done: Vec<Order>,
    /// In a fire phase at `Normal`: what a volley at each unit (by index)
    /// is multiplied by for the friends its rout would put to contagion
    /// checks; empty, all 1, otherwise.
    pub(super) spread: Vec<f32>,
}

/// The rules of thumb for one phase (every level's play, its scripts
/// given): decides and carries out the side's orders one at a time.
#[allow(clippy::too_many_arguments)] // as `super::play_phase`
pub(super) fn play(
    orders: &mut Orders,
    engine: &mut Engine,
    board: &mut Board,
    dice: &mut Dice,
    log: &mut EventLog,
    phase: Phase,
    side: usize,
    goals: &AiGoals,
) -> Vec<Order> {
    let bf = orders.bf;
    let mut ai = Ai {
        bf,
        orders,
        engine,
        board,
        dice,
        log,
        phase,
        side,
        goals,
        tuning: Tuning::at_level(goals.aggression, &bf.ctx.rules.ai, goals.level, goals.progress),
        done: Vec::new(),
        spread: Vec::new(),
    };
    // `Hold` stands (its units' script) and fires; it neither charges nor
    // attacks.
    let holds = goals.level == AiLevel::Hold;
    match phase {
        Phase::Charge if !holds => ai.charge(),
        Phase::Movement => ai.movement(),
        Phase::DefensiveFire | Phase::OffensiveFire => ai.fire(),
        Phase::Melee if !holds => ai.melee(),
        Phase::Charge | Phase::Melee => {}
        // No orders are given in these.
        Phase::Shocks | Phase::MoraleRecovery | Phase::End => {}
    }
    ai.done
}

impl Ai<'_, '_, '_> {
    /// Applies one order; a refused one is skipped.
    pub(super) fn give(&mut self, order: Order) -> bool {
        let ok = self.orders.apply(self.engine, self.board, self.dice, self.log, self.phase, self.side, &order).is_ok();
        if ok {
            self.done.push(order);
        }
        ok
    }

    pub(super) fn id(&self, unit: usize) -> String {
        self.board.units[unit].id.clone()
    }

    pub(super) fn ours(&self, unit: usize) -> bool {
        let u = &self.board.units[unit];
        u.side == self.side && u.at.is_some()
    }

    /// The first enemy unit in a cell (the top of its stack).
    pub(super) fn enemy_at(&self, cell: usize) -> Option<usize> {
        self.engine.occupancy.at(cell).iter().map(|&v| v as usize).find(|&v| self.board.units[v].side != self.side)
    }
}
