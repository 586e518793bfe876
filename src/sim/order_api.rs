//! What the window asks of the battle while a player gives orders: the
//! phase waiting for them, orders and undo, and the previews drawn before
//! an order is given (reach, odds, a charge's path, a rout), all from the
//! rules.

use bevy::prelude::*;

use super::clock::Clock;
use super::control::Controls;
use super::play::{PlayState, Snapshot, with_orders};
use crate::labataille::orders::LoggedOrder;
use crate::labataille::orders::{Order, OrderError};
use crate::turn::OrderStamp;
use crate::turn::Phase;
use crate::vocab::Control;

fn free_space(world: &World) -> bool {
    world.get_resource::<super::battle::Battle>().is_some_and(|b| b.scenario.mode == crate::scenario::Mode::FreeSpace)
}

/// The order phase waiting for a player, with the side that acts in it.
pub fn awaiting_orders(world: &World) -> Option<(Phase, usize)> {
    let clock = world.get_resource::<Clock>()?;
    let play = world.get_resource::<PlayState>()?;
    if clock.finished || !play.begun || play.replaying() {
        return None;
    }
    let phase = clock.phase.order_phase()?;
    let acting = phase.acting_side(clock.side?);
    (world.resource::<Controls>().of(acting) == Control::Player).then_some((phase, acting))
}

/// A player's order in the phase that waits for them. On success it is in
/// the order book; an order that rolls no dice can be taken back with
/// [`undo`] until the phase ends or dice are rolled.
pub fn issue_order(world: &mut World, order: &Order) -> Result<(), OrderError> {
    let Some((phase, acting)) = awaiting_orders(world) else { return Err(OrderError::NotAwaited) };
    if free_space(world) {
        return super::free_space::fs_issue_order(world, phase, acting, order);
    }
    let clock = *world.resource::<Clock>();
    let stamp = OrderStamp { turn: clock.turn, side: clock.side.unwrap_or(0), phase };
    with_orders(world, |o, engine, board, dice, log, pb| {
        let before = Snapshot {
            board: board.clone(),
            log_len: log.events.len(),
            dice: dice.clone(),
            activity: o.activity.clone(),
            book_len: pb.book.len(),
        };
        match o.apply(engine, board, dice, log, phase, acting, order) {
            Ok(()) => {
                pb.book.push(LoggedOrder { at: stamp, order: order.clone() });
                if order.rolls_dice() {
                    pb.undo.clear();
                } else {
                    pb.undo.push(before);
                }
                Ok(())
            }
            Err(e) => {
                // Nothing of a refused order may stay behind.
                *board = before.board;
                log.truncate(before.log_len);
                *dice = before.dice;
                *o.activity = before.activity;
                Err(e)
            }
        }
    })
}

/// Takes back the last order of this phase if no dice have been rolled
/// since; `false` if there is nothing to take back.
pub fn undo(world: &mut World) -> bool {
    if free_space(world) {
        return super::free_space::fs_undo(world);
    }
    if world.resource::<PlayState>().undo.is_empty() {
        return false;
    }
    with_orders(world, |o, _engine, board, dice, log, pb| {
        let Some(s) = pb.undo.pop() else { return false };
        *board = s.board;
        log.truncate(s.log_len);
        *dice = s.dice;
        *o.activity = s.activity;
        o.search.forget();
        pb.book.truncate(s.book_len);
        true
    })
}

/// Where a reachable hex costs: the movement range of a unit now, for the
/// window's overlay and path preview.
pub fn movement_range(world: &mut World, unit: usize) -> crate::labataille::movement::Reach {
    with_orders(world, |o, engine, board, _, _, _| {
        if unit < board.units.len() { (*o.reach(engine, board, unit)).clone() } else { Default::default() }
    })
}

/// Where a unit would run if it routed now, and the friends it would shake
/// with their chances to fail contagion, on the board as it stands
/// ([`crate::labataille::rout_preview::preview_rout`]): no dice rolled,
/// nothing moved. `None` off the board, or outside hex mode.
pub fn rout_preview(world: &mut World, unit: usize) -> Option<crate::labataille::rout_preview::RoutPreview> {
    let hex = world.get_resource::<super::battle::Battle>().is_some_and(|b| b.scenario.mode == crate::vocab::Mode::Hex);
    if !hex {
        return None;
    }
    with_orders(world, |o, engine, board, _, _, _| {
        crate::labataille::rout_preview::preview_rout(o.bf.ctx, engine, board, unit)
    })
}

/// The rout preview of a charge's target on the board at contact: the
/// charger `unit` at the end of the approach it would ride, next to the
/// target, where it stands when the melee is rolled
/// ([`crate::labataille::combat::target_rout_at_contact`]). A charge that
/// cannot be made shows the board as it stands.
pub fn charge_target_rout(
    world: &mut World,
    unit: usize,
    target: usize,
) -> Option<crate::labataille::rout_preview::RoutPreview> {
    let hex = world.get_resource::<super::battle::Battle>().is_some_and(|b| b.scenario.mode == crate::vocab::Mode::Hex);
    if !hex {
        return None;
    }
    with_orders(world, |o, engine, board, _, _, _| {
        if unit >= board.units.len() || target >= board.units.len() {
            return None;
        }
        match crate::labataille::combat::charge_path(o.bf, engine, board, o.search, unit, target) {
            Ok(path) => crate::labataille::combat::target_rout_at_contact(o.bf, engine, board, unit, target, &path),
            Err(_) => crate::labataille::rout_preview::preview_rout(o.bf.ctx, engine, board, target),
        }
    })
}

/// Movement points (hundredths) a unit has left in this turn's movement.
pub fn mp_left(world: &mut World, unit: usize) -> u32 {
    with_orders(world, |o, _, board, _, _, _| if unit < board.units.len() { o.budget(board, unit) } else { 0 })
}

/// The odds of a volley, shown before the player commits.
pub fn fire_odds(
    world: &mut World,
    firers: &[usize],
    target: usize,
) -> Result<crate::labataille::combat::FireOdds, OrderError> {
    with_orders(world, |o, engine, board, _, _, _| {
        crate::labataille::combat::fire_odds(o.bf, board, engine, firers, target).map_err(OrderError::from)
    })
}

/// The approach of a charge, shown before the player commits: every hex
/// from the charger to where it stops next to its target (only its own
/// hex when it stands next to it already), as the charge would ride it.
pub fn charge_path(world: &mut World, unit: usize, target: usize) -> Result<Vec<crate::hex::Offset>, OrderError> {
    with_orders(world, |o, engine, board, _, _, _| {
        for i in [unit, target] {
            if i >= board.units.len() {
                return Err(OrderError::UnknownUnit(format!("#{i}")));
            }
        }
        crate::labataille::combat::charge_path(o.bf, engine, board, o.search, unit, target).map_err(OrderError::from)
    })
}

/// The odds of an order to attack, every die counted (the attackers' own
/// checks, the defenders', the table: [`crate::labataille::combat::attack_odds`]),
/// shown before the player commits.
pub fn attack_odds(
    world: &mut World,
    attackers: &[usize],
    target: usize,
) -> Result<crate::labataille::combat::AttackOdds, OrderError> {
    with_orders(world, |o, engine, board, _, _, _| {
        if let Some(&bad) = attackers.iter().chain([&target]).find(|&&i| i >= board.units.len()) {
            return Err(OrderError::UnknownUnit(format!("#{bad}")));
        }
        crate::labataille::combat::attack_odds(o.bf, engine, board, attackers, target).map_err(OrderError::from)
    })
}

/// A charge before it rides: the approach it would ride and its odds at
/// the hex of contact, every die counted (the target's square, its check,
/// the table: [`crate::labataille::combat::charge_odds`]).
pub fn charge_odds(
    world: &mut World,
    unit: usize,
    target: usize,
) -> Result<(Vec<crate::hex::Offset>, crate::labataille::combat::AttackOdds), OrderError> {
    with_orders(world, |o, engine, board, _, _, _| {
        for i in [unit, target] {
            if i >= board.units.len() {
                return Err(OrderError::UnknownUnit(format!("#{i}")));
            }
        }
        let path = crate::labataille::combat::charge_path(o.bf, engine, board, o.search, unit, target)?;
        let odds = crate::labataille::combat::charge_odds(o.bf, engine, board, unit, target, &path)?;
        Ok((path, odds))
    })
}
