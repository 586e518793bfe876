//! A history forked at one die: a save's game played again with one roll
//! changed and every other roll as it came ([`reroll`]), the players'
//! orders replayed where that history still allows them and the AI's
//! sides deciding afresh; written as a save of its own and compared with
//! the original.

use std::sync::Arc;

use super::compare::{Comparison, compare};
use super::reroll::{ForkError, Which, forked_script};
use crate::events::{EventLog, Seq};
use crate::labataille::orders::LoggedOrder;
use crate::save::SaveGame;
use crate::scenario::{Mode, Scenario};
use crate::sim::{self, Controls, Seats, Simulation};

/// A fork and what it changed.
pub struct Forked {
    /// The fork as a save: the original's seed, the forked dice script,
    /// and the orders the fork gave.
    pub save: SaveGame,
    pub original: EventLog,
    pub fork: EventLog,
    pub comparison: Comparison,
    /// The players' orders the fork's history no longer allowed, with why.
    pub dropped: Vec<(LoggedOrder, String)>,
    /// Players' orders never reached (the fork's battle ended sooner).
    pub unreached: Vec<LoggedOrder>,
}

/// The game of `save` played to its save point.
pub fn original(save: &SaveGame, scenario: &Arc<Scenario>) -> Simulation {
    let mut sim = Simulation::new(scenario.clone(), save.seed, save.dice.clone(), Seats::Nobody);
    crate::save::restore(sim.app.world_mut(), save, scenario.clone());
    sim
}

/// Forks the game of `save` at event `at`, whose roll `which` (its only
/// one when `None`) reads `roll` instead. The two histories must agree on
/// every event before `at`: one that parts sooner is an error, for it
/// would be another game (a roll the log did not give back).
pub fn fork(
    save: &SaveGame,
    scenario: &Arc<Scenario>,
    at: Seq,
    which: Option<Which>,
    roll: u32,
) -> Result<Forked, ForkError> {
    let original = original(save, scenario).log().clone();
    let script = forked_script(&original.events, at, which, roll, scenario.mode == Mode::Hex)?;
    let mut sim = Simulation::new(scenario.clone(), save.seed, script, Seats::Nobody);
    {
        let world = sim.app.world_mut();
        world.insert_resource(Controls(save.controls.clone()));
        sim::start_fork_replay(world, save.orders.clone(), save.at);
        if save.begun {
            sim::run_to(world, save.at);
        } else {
            sim::run_to_boundary(world, save.at);
        }
    }
    let world = sim.app.world();
    let dropped = sim::dropped_orders(world);
    let unreached = sim::orders_not_replayed(world);
    let fork_save = crate::save::capture(world, &save.scenario).unwrap_or_else(|| save.clone());
    let fork = sim.log().clone();
    let comparison = compare(scenario, &original.events, &fork.events);
    if comparison.agree_before < at {
        return Err(ForkError::PartedEarly { at, parted: comparison.agree_before });
    }
    Ok(Forked { save: fork_save, original, fork, comparison, dropped, unreached })
}
