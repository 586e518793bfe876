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

use crate::belle_alliance::foresight::{self, TablePosition};
use crate::labataille::ai::{self, Deliberation, DeliberationProgress};
use crate::turn::OrderStamp;

/// What a question asks to weigh, owned: a hex board or a table.
pub enum Position {
    Hexes(Box<ai::Position>),
    Table(Box<TablePosition>),
}

impl Position {
    /// The side deciding.
    pub fn side(&self) -> usize {
        match self {
            Position::Hexes(p) => p.side(),
            Position::Table(p) => p.side,
        }
    }

    /// Weighs the side's scripts, telling `progress` how far it has gone.
    pub fn deliberate(&self, progress: &DeliberationProgress) -> Deliberation {
        match self {
            Position::Hexes(p) => p.deliberate(progress),
            Position::Table(p) => foresight::deliberate(p, progress),
        }
    }
}

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

/// How the AI's orders for a phase are decided.
pub(super) enum Plan {
    /// By the AI there and then (deliberating in place, for `hard`).
    InPlace,
    /// With the deliberation the window made for this phase.
    Answered(Deliberation),
    /// Not yet: `hard`'s question goes to the window ([`Thinking::defer`]).
    Ask,
}

/// What became of the AI's turn to give a phase's orders.
pub(super) enum Outcome {
    /// The orders were given (with what `hard` weighed, when it did).
    Given(Option<Deliberation>),
    /// They wait for the answer to this question.
    Asked(Position),
}

/// How the phase `stamp`'s orders are decided, when the AI `deliberates`
/// before them: with the window's answer if it gave one, by asking the
/// window if the step is the window's, else in place.
pub(super) fn plan(world: &mut World, deliberates: bool, stamp: OrderStamp) -> Plan {
    if !deliberates {
        return Plan::InPlace;
    }
    let Some(mut t) = world.get_resource_mut::<Thinking>() else { return Plan::InPlace };
    match t.take_answer(stamp) {
        Some(d) => Plan::Answered(d),
        None if t.defer => Plan::Ask,
        None => Plan::InPlace,
    }
}

/// Keeps what was weighed (for `--explain`), or asks the question.
pub(super) fn settle(world: &mut World, stamp: OrderStamp, outcome: Outcome) {
    match outcome {
        Outcome::Given(Some(d)) => {
            if let Some(mut kept) = world.get_resource_mut::<Deliberations>() {
                kept.0.push(d);
            }
        }
        Outcome::Given(None) => {}
        Outcome::Asked(p) => {
            if let Some(mut t) = world.get_resource_mut::<Thinking>() {
                t.ask(stamp, p);
            }
        }
    }
}
