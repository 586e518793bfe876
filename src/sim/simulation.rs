//! A headless battle: the simulation in a Bevy app of its own, for the
//! command line, the tests and the benchmarks.

use std::sync::Arc;

use bevy::app::App;
use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;

use super::battle::BattleLog;
use super::clock::Clock;
use super::control::Seats;
use super::driver::step_phase;
use super::setup::install;
use super::view::{board_scope, table_scope};
use crate::belle_alliance::Table;
use crate::events::EventLog;
use crate::labataille::Board;
use crate::scenario::Scenario;

/// A headless battle: a Bevy app with `MinimalPlugins` and the battle
/// installed, stepped phase by phase.
pub struct Simulation {
    pub app: App,
}

impl Simulation {
    pub fn new(scenario: Arc<Scenario>, seed: u64, dice: Vec<u32>, ai: Seats) -> Self {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        install(&mut app, scenario, seed, dice, ai);
        // A headless battle runs its phases on the calling thread: the
        // systems of a phase are few and run one after another anyway, and
        // forecasts and batches play many battles side by side on their own
        // threads (handing each system to Bevy's task pool only made them
        // wait on each other).
        let mut schedules = app.world_mut().resource_mut::<Schedules>();
        for (_, schedule) in schedules.iter_mut() {
            schedule.set_executor(SingleThreadedExecutor::default()).set_apply_final_deferred(true);
        }
        Self { app }
    }

    /// Runs one phase; `false` once finished.
    pub fn step(&mut self) -> bool {
        step_phase(self.app.world_mut())
    }

    /// Plays every remaining phase to the end of the last turn.
    pub fn run(&mut self) {
        while self.step() {}
    }

    pub fn log(&self) -> &EventLog {
        self.app.world().resource::<BattleLog>()
    }

    pub fn clock(&self) -> Clock {
        *self.app.world().resource::<Clock>()
    }

    /// The free-space units as the rules see them (for tests and summaries).
    pub fn table(&mut self) -> Table {
        table_scope(self.app.world_mut(), |_, t| t.clone()).unwrap_or_default()
    }

    /// The hex units as the rules see them (for tests and summaries).
    pub fn board(&mut self) -> Board {
        board_scope(self.app.world_mut(), |_, b| b.clone()).unwrap_or_default()
    }
}
