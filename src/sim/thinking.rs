//! The planning AI's deliberation handed to the window. The command line
//! deliberates in place: a `hard` side's movement phase weighs its scripts
//! and gives its orders in one step. The window cannot wait that long
//! between frames, so around its own steps it sets [`Thinking::defer`]:
//! the phase then begins, asks its question (the [`Position`], owned) and
//! waits; the window weighs it on another thread and hands the answer
//! back through [`super::answer`], which gives the phase's orders with it. Any
//! other step (a fork's replay, a screenshot's turns) that finds a
//! question waiting answers it in place, so nothing hangs on the window.
//!
//! The answer is the one the command line would give from the same
//! position, so a game played in the window replays byte for byte, unless
//! the player hurried the AI (Esc).

use std::sync::Arc;

use bevy::prelude::*;

use crate::labataille::ai::{Deliberation, Position};
use crate::turn::OrderStamp;

/// The deliberation asked for and not yet answered, and the answer.
#[derive(Resource, Default)]
pub struct Thinking {
    /// Set by the window around its own step: a `hard` movement phase then
    /// asks its question and waits, instead of deliberating in place.
    pub defer: bool,
    asked: Option<Question>,
    answered: Option<(OrderStamp, Deliberation)>,
    /// Questions asked since the battle was set up, so that an answer to
    /// an older one is known and dropped.
    count: u64,
}

/// A phase's question: what to weigh, for which phase.
#[derive(Clone)]
pub struct Question {
    /// Tells the questions apart ([`super::answer`] names the one it answers).
    pub id: u64,
    pub stamp: OrderStamp,
    pub position: Arc<Position>,
}

impl Thinking {
    /// The question waiting for its answer, if any.
    pub fn asked(&self) -> Option<&Question> {
        self.asked.as_ref()
    }

    /// Drops the question and answer of a battle set up again (its count
    /// goes on, so that an answer coming back later is known as old).
    pub(super) fn forget(&mut self) {
        self.asked = None;
        self.answered = None;
    }

    /// Asks `position`'s question for the phase `stamp`.
    pub(super) fn ask(&mut self, stamp: OrderStamp, position: Position) {
        self.count += 1;
        self.asked = Some(Question { id: self.count, stamp, position: Arc::new(position) });
    }

    /// Takes the waiting question if it is question `id`.
    pub(super) fn take_question(&mut self, id: u64) -> Option<Question> {
        self.asked.take_if(|q| q.id == id)
    }

    /// Leaves `d` as the answer for the phase `stamp`.
    pub(super) fn answered(&mut self, stamp: OrderStamp, d: Deliberation) {
        self.answered = Some((stamp, d));
    }

    /// The answer given for the phase `stamp`, taken.
    pub(super) fn take_answer(&mut self, stamp: OrderStamp) -> Option<Deliberation> {
        match self.answered.take() {
            Some((at, d)) if at == stamp => Some(d),
            _ => None,
        }
    }
}

/// Whether a question waits for the window's answer (its step deferred).
pub(super) fn waits_for_window(world: &World) -> bool {
    world.get_resource::<Thinking>().is_some_and(|t| t.defer && t.asked.is_some())
}

/// What the planning AI weighed at each decision, in both modes, kept when
/// the resource is there (`simulate --explain` inserts it).
#[derive(Resource, Default, Debug)]
pub struct Deliberations(pub Vec<Deliberation>);
