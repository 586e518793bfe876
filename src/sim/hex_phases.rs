//! The hex-mode (La Bataille) systems of each phase: shocks, the order
//! phases (replay, AI, or waiting for a player) and morale recovery.

use std::sync::Arc;

use bevy::ecs::system::{SystemChangeTick, SystemParam};
use bevy::prelude::*;

use super::battle::{Battle, BattleLog, DiceBox, EngineState};
use super::clock::{Clock, Origin};
use super::control::{AiLevels, Controls};
use super::play::{PlayBook, replay_stamped, with_orders};
use super::thinking::{self, Outcome, Plan, Position, settle};
use super::victory::Victory;
use super::view::{BoardView, UnitQuery};
use crate::dice::Dice;
use crate::events::EventLog;
use crate::labataille::Board;
use crate::labataille::ai::{self, AiGoals, Foresight};
use crate::labataille::engine::{Ctx, Engine};
use crate::labataille::orders::{LoggedOrder, Orders};
use crate::scenario::{Mode, Scenario};
use crate::turn::OrderStamp;
use crate::vocab::{AiLevel, Control};

/// Everything a hex segment between orders needs: the units, the board
/// view, the battle, its engine, dice and log.
#[derive(SystemParam)]
pub(super) struct Segment<'w, 's> {
    q: UnitQuery<'w, 's>,
    ticks: SystemChangeTick,
    view: ResMut<'w, BoardView>,
    battle: Res<'w, Battle>,
    engine: ResMut<'w, EngineState>,
    dice: ResMut<'w, DiceBox>,
    log: ResMut<'w, BattleLog>,
}

impl Segment<'_, '_> {
    /// Runs `rule` on the board brought up to date, then writes back.
    fn run(&mut self, rule: impl FnOnce(&Scenario, &Ctx, &mut Engine, &mut Board, &mut Dice, &mut EventLog)) {
        let Segment { q, ticks, view, battle, engine, dice, log } = self;
        let scenario = &battle.scenario;
        view.with_board(q, *ticks, battle, &mut engine.0, |ctx, engine, board| {
            rule(scenario, ctx, engine, board, &mut dice.0, log);
        });
    }
}

/// Shocks of this turn, in file order, each with its whole cascade.
pub(super) fn shocks_system(mut segment: Segment, clock: Res<Clock>) {
    let turn = clock.turn;
    if !segment.battle.scenario.shocks.iter().any(|s| s.turn == turn) {
        return;
    }
    segment.run(|scenario, ctx, engine, board, dice, log| {
        for s in scenario.shocks.iter().filter(|s| s.turn == turn) {
            engine.apply_shock(ctx, board, dice, log, s);
        }
    });
}

/// The phasing side's Morale Recovery Segment.
pub(super) fn recovery_system(mut segment: Segment, clock: Res<Clock>) {
    let Some(side) = clock.side else { return };
    segment.run(|_, ctx, engine, board, dice, log| engine.recovery_segment(ctx, board, dice, log, side));
}

/// An order phase begins: reset what units did, then take the phase's
/// orders from the replay, or from the AI if it controls the acting side.
/// A human side's orders come later, through [`super::issue_order`]. In a
/// fork's replay (players' orders only) the AI's sides decide afresh.
pub(super) fn order_phase_system(world: &mut World) {
    let clock = *world.resource::<Clock>();
    let (Some(phasing), Some(phase)) = (clock.side, clock.phase.order_phase()) else { return };
    let acting = phase.acting_side(phasing);
    let control = world.resource::<Controls>().of(acting);
    let stamp = OrderStamp { turn: clock.turn, side: phasing, phase };
    let goals = (control == Control::Ai).then(|| ai_goals(world, acting));
    let plan = goals.as_ref().map_or(Plan::InPlace, |g| plan(world, g, stamp));
    let outcome = with_orders(world, |o, engine, board, dice, log, pb| {
        o.activity.phase_begins(board, phase, phasing);
        if pb.replay_until.is_some() && !(pb.players_only && goals.is_some()) {
            let mut state = (o, engine, board, dice, log);
            replay_stamped(
                pb.replay,
                pb.book,
                pb.dropped,
                pb.players_only,
                stamp,
                &mut state,
                |(o, engine, board, dice, log), order| o.apply(engine, board, dice, log, phase, acting, order),
                |state| state.4,
            );
            return Outcome::Given(None);
        }
        match &goals {
            Some(goals) => ai_phase(o, engine, board, dice, log, pb, stamp, acting, goals, plan),
            None => Outcome::Given(None),
        }
    });
    settle(world, stamp, outcome);
}

fn plan(world: &mut World, goals: &AiGoals, stamp: OrderStamp) -> Plan {
    thinking::plan(world, ai::deliberates(goals, stamp.phase), stamp)
}

/// The AI's orders for the phase `stamp` by `plan`, each kept in the book.
#[allow(clippy::too_many_arguments)] // what an order needs, and the AI's part
fn ai_phase(
    o: &mut Orders,
    engine: &mut Engine,
    board: &mut Board,
    dice: &mut Dice,
    log: &mut EventLog,
    pb: &mut PlayBook,
    stamp: OrderStamp,
    acting: usize,
    goals: &AiGoals,
    plan: Plan,
) -> Outcome {
    let phase = stamp.phase;
    let (given, weighed) = match plan {
        Plan::InPlace => ai::play_phase_weighed(o, engine, board, dice, log, phase, acting, goals),
        Plan::Answered(d) => (ai::play_phase_planned(o, engine, board, dice, log, phase, acting, goals, &d), Some(d)),
        Plan::Ask => {
            if let Some(p) = ai::Position::new(o.bf, o.index, o.activity, engine, board, acting, goals) {
                return Outcome::Asked(Position::Hexes(Box::new(p)));
            }
            ai::play_phase_weighed(o, engine, board, dice, log, phase, acting, goals)
        }
    };
    for order in given {
        pb.book.push(LoggedOrder { at: stamp, order });
    }
    Outcome::Given(weighed)
}

/// The AI gives the orders of the order phase begun, with the answer
/// [`super::answer`] left for it.
pub(super) fn ai_orders(world: &mut World) {
    let clock = *world.resource::<Clock>();
    let (Some(phasing), Some(phase)) = (clock.side, clock.phase.order_phase()) else { return };
    let acting = phase.acting_side(phasing);
    let stamp = OrderStamp { turn: clock.turn, side: phasing, phase };
    let goals = ai_goals(world, acting);
    let plan = plan(world, &goals, stamp);
    let outcome = with_orders(world, |o, engine, board, dice, log, pb| {
        ai_phase(o, engine, board, dice, log, pb, stamp, acting, &goals, plan)
    });
    settle(world, stamp, outcome);
}

/// What the AI plays for: the objectives and who holds them, its
/// aggression, the broken corps' units and its exits; for `hard`, the
/// battle to look ahead in.
fn ai_goals(world: &World, acting: usize) -> AiGoals {
    let scenario = world.resource::<Battle>().scenario.clone();
    let v = world.resource::<Victory>();
    let level = world.get_resource::<AiLevels>().map_or_else(Default::default, |l| l.of_side(acting));
    let turn = world.resource::<Clock>().turn;
    // The mended levels send a corps forward again once it has mended
    // (docs/rules.md "The AI"); `easy` counts it broken for good.
    let broken = if level.mended() { &v.ai_broken } else { &v.broken };
    let mut goals = AiGoals::for_side(&scenario, &v.holders, broken, acting, level, turn);
    if level == AiLevel::Hard {
        goals.foresight = Some(Arc::new(Foresight {
            seed: world.resource::<Origin>().seed,
            turn,
            holders: v.holders.clone(),
            exited: v.exited.clone(),
            corps_broken: broken.clone(),
            scenario,
        }));
    }
    goals
}

/// The AI gives the rest of the orders of an order phase already begun
/// (a player's phase handed to the AI, as a forecast from a save does):
/// what units did so far in the phase stands. Nothing happens outside an
/// order phase or when the acting side is not the AI's.
pub fn ai_rest_of_phase(world: &mut World) {
    let clock = *world.resource::<Clock>();
    let (Some(phasing), Some(phase)) = (clock.side, clock.phase.order_phase()) else { return };
    if clock.finished || !world.resource::<super::play::PlayState>().begun {
        return;
    }
    let acting = phase.acting_side(phasing);
    if world.resource::<Controls>().of(acting) != Control::Ai {
        return;
    }
    if !hex_mode_world(world) {
        super::free_space::fs_ai_rest_of_phase(world);
        return;
    }
    let stamp = OrderStamp { turn: clock.turn, side: phasing, phase };
    let goals = ai_goals(world, acting);
    with_orders(world, |o, engine, board, dice, log, pb| {
        for order in ai::play_phase(o, engine, board, dice, log, phase, acting, &goals) {
            pb.book.push(LoggedOrder { at: stamp, order });
        }
    });
}

fn hex_mode_world(world: &World) -> bool {
    world.resource::<Battle>().scenario.mode == Mode::Hex
}

pub(super) fn hex_mode(battle: Res<Battle>) -> bool {
    battle.scenario.mode == Mode::Hex
}

pub(super) fn free_space_mode(battle: Res<Battle>) -> bool {
    battle.scenario.mode == Mode::FreeSpace
}
