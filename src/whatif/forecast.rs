//! The break forecast: N continuations from one point, each with its own
//! seed ([`run_seed`]), played on every core (rayon), summed into odds.

use std::sync::Arc;

use super::odds::{Forecast, Horizon};
use super::outcome::{Outcome, states_after};
use super::pool;
use super::seeds::run_seed;
use super::{Progress, Start};
use crate::labataille::victory::corps_status;
use crate::scenario::{Mode, Scenario};
use crate::sim::{Seats, Simulation};

/// Plays run `index` of a forecast in `sim` and reads what it came to.
pub fn run(start: &Start, sim: &mut Simulation, index: u64, horizon: &Arc<Scenario>) -> Outcome {
    let seed = run_seed(start.seed(), index);
    let from = start.continue_in(sim, seed, horizon);
    let scenario = start.scenario();
    let corps = if scenario.mode == Mode::Hex {
        let board = sim.board();
        corps_status(scenario, &board).into_iter().map(|c| c.broken).collect()
    } else {
        vec![false; scenario.corps.len()]
    };
    Outcome::read(scenario, &sim.log().events, from, corps)
}

/// `runs` continuations of `turns` turns (the current one the first) from
/// `start`, on rayon's threads. `None` if cancelled through `progress`.
/// Runs are summed in index order, so any number of threads gives the
/// same forecast.
pub fn forecast(start: &Start, runs: u64, turns: u32, progress: &Progress) -> Option<Forecast> {
    let to_turn = start.to_turn(turns);
    let horizon = start.horizon(to_turn);
    let make = || Simulation::new(start.scenario().clone(), start.seed(), Vec::new(), Seats::Nobody);
    let outcomes: Vec<Option<Outcome>> = pool::each(runs, make, |sim, i| {
        if progress.cancelled() {
            return None;
        }
        let o = run(start, sim, i, &horizon);
        progress.tick();
        Some(o)
    });
    if progress.cancelled() {
        return None;
    }
    let scenario = start.scenario();
    let now = match start {
        Start::Opening { .. } => scenario.units.iter().map(|u| u.state).collect(),
        // The state where the runs begin: the saved game's.
        Start::Saved { save, .. } => states_after(scenario, &super::fork::original(save, scenario).log().events),
    };
    let horizon = Horizon { seed: start.seed(), from: start.point(), to_turn };
    let mut f = Forecast::new(scenario, horizon, now);
    for o in outcomes.iter().flatten() {
        f.add(o);
    }
    Some(f)
}
