//! Where a forecast or a fork begins: a scenario's opening (with a seed)
//! or a save (the game as it stood), and a continuation played from
//! there with dice of its own and the AI on every side.

use std::sync::Arc;

use crate::dice::Dice;
use crate::save::SaveGame;
use crate::scenario::{self, LoadError, Scenario};
use crate::sim::{self, DiceBox, Seats, Simulation};
use crate::turn::{Phase, SavePoint};

/// Where the continuations begin.
#[derive(Clone, Debug)]
pub enum Start {
    /// A scenario's opening, with the game's seed.
    Opening { scenario: Arc<Scenario>, seed: u64 },
    /// A saved game, where it was saved.
    Saved { save: SaveGame, scenario: Arc<Scenario> },
}

impl Start {
    /// Reads a scenario or a save file (`seed` overrides a scenario's own).
    pub fn load(path: &std::path::Path, seed: Option<u64>) -> Result<Start, LoadError> {
        let text = crate::save::read_text(path)?;
        if crate::save::is_save(&text) {
            let (save, scenario) = SaveGame::parse(&text, &path.display().to_string())?;
            Ok(Start::Saved { save, scenario: Arc::new(scenario) })
        } else {
            let s = scenario::parse(&text, &path.display().to_string())?;
            let seed = seed.unwrap_or(s.seed);
            Ok(Start::Opening { scenario: Arc::new(s), seed })
        }
    }

    /// The same start with `scenario` in place of its own (the AI levels
    /// the command line asked for).
    pub fn with_scenario(self, scenario: Scenario) -> Start {
        let scenario = Arc::new(scenario);
        match self {
            Start::Opening { seed, .. } => Start::Opening { scenario, seed },
            Start::Saved { save, .. } => Start::Saved { save, scenario },
        }
    }

    pub fn scenario(&self) -> &Arc<Scenario> {
        match self {
            Start::Opening { scenario, .. } | Start::Saved { scenario, .. } => scenario,
        }
    }

    /// The game's seed, from which every run's seed is derived.
    pub fn seed(&self) -> u64 {
        match self {
            Start::Opening { seed, .. } => *seed,
            Start::Saved { save, .. } => save.seed,
        }
    }

    /// Where the continuations begin.
    pub fn point(&self) -> SavePoint {
        match self {
            Start::Opening { .. } => SavePoint { turn: 1, side: None, phase: Phase::Shocks, finished: false },
            Start::Saved { save, .. } => save.at,
        }
    }

    /// The last turn of a horizon of `turns` turns from here (the current
    /// turn counts as the first), no later than the battle's last.
    pub fn to_turn(&self, turns: u32) -> u32 {
        (self.point().turn + turns.max(1) - 1).min(self.scenario().turns)
    }

    /// The battle cut to end with turn `to_turn`: what every continuation
    /// to that horizon plays (made once, so the runs share its ground).
    pub fn horizon(&self, to_turn: u32) -> Arc<Scenario> {
        let mut s = (**self.scenario()).clone();
        s.turns = to_turn;
        Arc::new(s)
    }

    /// Plays continuation `seed` in `sim` (whatever it held before) to the
    /// end of `horizon` (see [`Start::horizon`]), the AI on every side, and
    /// returns the index of the first event it wrote. From the opening it
    /// is exactly the game `sauve simulate FILE --seed SEED --turns TO_TURN`
    /// plays.
    pub fn continue_in(&self, sim: &mut Simulation, seed: u64, horizon: &Arc<Scenario>) -> usize {
        let world = sim.app.world_mut();
        let from = match self {
            Start::Opening { .. } => {
                sim::reset(world, horizon.clone(), seed, Vec::new(), Seats::Watch);
                0
            }
            Start::Saved { save, .. } => {
                crate::save::restore(world, save, horizon.clone());
                let players_phase = sim::awaiting_orders(world).is_some();
                world.insert_resource(DiceBox(Dice::new(seed, Vec::new())));
                world.insert_resource(Seats::Watch.controls(horizon));
                // A player's phase under way is finished by the AI (an AI's
                // phase gave all its orders when it began).
                if players_phase {
                    sim::ai_rest_of_phase(world);
                }
                world.resource::<sim::BattleLog>().events.len()
            }
        };
        sim.run();
        from
    }
}
