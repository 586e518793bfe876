//! A player's orders, one path for both modes: the phase waiting for them,
//! an order carried out (or refused, leaving nothing behind) and kept in
//! the order book, and undo of the orders that rolled no dice. Each mode
//! lends its game ([`HexGame`], [`TableGame`]) to the same [`carry_out`]
//! and [`take_back`].

use bevy::prelude::*;

use super::clock::Clock;
use super::control::Controls;
use super::free_space::{FsSnapshot, with_bound};
use super::play::{PlayState, Snapshot, Undo, with_orders};
use crate::belle_alliance::play::{At, Bound};
use crate::dice::Dice;
use crate::events::EventLog;
use crate::labataille::Board;
use crate::labataille::engine::Engine;
use crate::labataille::orders::{LoggedOrder, Order, OrderError, Orders};
use crate::turn::{OrderStamp, Phase};
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

/// A game an order can be carried out on and taken back from.
trait OrderGame {
    /// What taking an order back restores.
    type Snapshot;
    fn snapshot(&self) -> Self::Snapshot;
    fn restore(&mut self, s: Self::Snapshot);
}

/// The hex board with what its orders need.
struct HexGame<'a, 'b, 'c> {
    orders: &'a mut Orders<'b, 'c>,
    engine: &'a mut Engine,
    board: &'a mut Board,
    dice: &'a mut Dice,
    log: &'a mut EventLog,
}

impl OrderGame for HexGame<'_, '_, '_> {
    type Snapshot = Snapshot;
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            board: self.board.clone(),
            log_len: self.log.events.len(),
            dice: self.dice.clone(),
            activity: self.orders.activity.clone(),
        }
    }
    fn restore(&mut self, s: Snapshot) {
        *self.board = s.board;
        self.log.truncate(s.log_len);
        *self.dice = s.dice;
        *self.orders.activity = s.activity;
        // The reach worked out on the board taken back no longer holds.
        self.orders.search.forget();
    }
}

/// The table's bound.
struct TableGame<'a, 'b, 'c> {
    bound: &'a mut Bound<'b, 'c>,
}

impl OrderGame for TableGame<'_, '_, '_> {
    type Snapshot = FsSnapshot;
    fn snapshot(&self) -> FsSnapshot {
        FsSnapshot {
            table: self.bound.table.clone(),
            play: self.bound.play.clone(),
            log_len: self.bound.log.events.len(),
            dice: self.bound.dice.clone(),
        }
    }
    fn restore(&mut self, s: FsSnapshot) {
        *self.bound.table = s.table;
        *self.bound.play = s.play;
        self.bound.log.truncate(s.log_len);
        *self.bound.dice = s.dice;
    }
}

/// Carries out `order` on `game` with `apply` (the mode's rules): kept in
/// the `book` on success, with a
/// way back in `undo` unless it rolled dice (which ends undo for the
/// phase); refused, it leaves nothing behind.
fn carry_out<G: OrderGame>(
    game: &mut G,
    book: &mut Vec<LoggedOrder>,
    undo: &mut Vec<Undo<G::Snapshot>>,
    stamp: OrderStamp,
    order: &Order,
    apply: impl FnOnce(&mut G, &Order) -> Result<(), OrderError>,
) -> Result<(), OrderError> {
    let before = Undo { state: game.snapshot(), book_len: book.len() };
    match apply(game, order) {
        Ok(()) => {
            book.push(LoggedOrder { at: stamp, order: order.clone() });
            if order.rolls_dice() {
                undo.clear();
            } else {
                undo.push(before);
            }
            Ok(())
        }
        Err(e) => {
            game.restore(before.state);
            Err(e)
        }
    }
}

/// Takes the last order in `undo` back; `false` if there is none.
fn take_back<G: OrderGame>(game: &mut G, book: &mut Vec<LoggedOrder>, undo: &mut Vec<Undo<G::Snapshot>>) -> bool {
    let Some(u) = undo.pop() else { return false };
    game.restore(u.state);
    book.truncate(u.book_len);
    true
}

/// A player's order in the phase that waits for them. On success it is in
/// the order book; an order that rolls no dice can be taken back with
/// [`undo`] until the phase ends or dice are rolled.
pub fn issue_order(world: &mut World, order: &Order) -> Result<(), OrderError> {
    let Some((phase, acting)) = awaiting_orders(world) else { return Err(OrderError::NotAwaited) };
    let clock = *world.resource::<Clock>();
    let stamp = OrderStamp { turn: clock.turn, side: clock.side.unwrap_or(0), phase };
    if free_space(world) {
        let at = At { turn: clock.turn, phase, side: acting };
        return with_bound(world, |bound, pb, fs| {
            carry_out(&mut TableGame { bound }, &mut pb.book, &mut fs.undo, stamp, order, |g, o| g.bound.apply(at, o))
        });
    }
    with_orders(world, |orders, engine, board, dice, log, pb| {
        let mut game = HexGame { orders, engine, board, dice, log };
        carry_out(&mut game, pb.book, pb.undo, stamp, order, |g, o| {
            g.orders.apply(g.engine, g.board, g.dice, g.log, phase, acting, o)
        })
    })
}

/// Takes back the last order of this phase if no dice have been rolled
/// since; `false` if there is nothing to take back.
pub fn undo(world: &mut World) -> bool {
    if free_space(world) {
        return with_bound(world, |bound, pb, fs| take_back(&mut TableGame { bound }, &mut pb.book, &mut fs.undo));
    }
    if world.resource::<PlayState>().undo.is_empty() {
        return false;
    }
    with_orders(world, |orders, engine, board, dice, log, pb| {
        take_back(&mut HexGame { orders, engine, board, dice, log }, pb.book, pb.undo)
    })
}
