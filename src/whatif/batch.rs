//! Batch runs: one AI-against-AI battle per seed, played on every core,
//! one row each ([`BatchRow`]).

use std::ops::Range;
use std::sync::Arc;

use super::outcome::{ROUTED, falls};
use super::table::{BatchRow, BatchTable};
use super::{Progress, pool};
use crate::events::{EventKind, Lost};
use crate::scenario::Scenario;
use crate::sim::{self, BattleSummary, Seats, Simulation};

/// Plays the battle of `seed` in `sim` (whatever it held before) with
/// `seats` (the AI on every side: [`Seats::Watch`], at the scenario's
/// levels): exactly `sauve simulate FILE --seed SEED --ai ...`.
pub fn play(scenario: &Arc<Scenario>, seed: u64, seats: Seats, sim: &mut Simulation) -> BatchRow {
    sim::reset(sim.app.world_mut(), scenario.clone(), seed, Vec::new(), seats);
    sim.run();
    let n = scenario.sides.len();
    let mut row = BatchRow {
        seed,
        winner: None,
        decisive: false,
        turns: sim.log().events.last().map_or(0, |e| e.turn),
        largest_cascade: 0,
        corps_broken: Vec::new(),
        points: vec![0; n],
        losses: vec![0; n],
        routs: vec![0; n],
        held: sim::holders(sim.app.world()),
    };
    if let Some(EventKind::GameOver { winner, decisive, points, .. }) =
        sim.log().events.iter().rev().map(|e| &e.kind).find(|k| matches!(k, EventKind::GameOver { .. }))
    {
        row.winner = winner.as_deref().and_then(|w| scenario.sides.iter().position(|s| s.id == w));
        row.decisive = *decisive;
        row.points = points.clone();
    }
    match sim::summary(sim.app.world_mut()) {
        Some(BattleSummary::Hex(s)) => {
            row.largest_cascade = s.largest_cascade;
            for (i, side) in s.sides.iter().enumerate().take(n) {
                row.losses[i] = side.increments_lost;
                row.routs[i] = side.routed;
            }
            row.corps_broken = s
                .corps
                .iter()
                .filter(|(_, st, _)| st.broken)
                .filter_map(|(_, st, _)| scenario.corps.get(st.corps).map(|c| c.id.clone()))
                .collect();
        }
        Some(BattleSummary::FreeSpace(s)) => {
            row.largest_cascade = s.largest_cascade;
            // Units that fled at some point, per side; losses are figures.
            for (u, f) in scenario.units.iter().zip(falls(scenario, &sim.log().events, 0)) {
                if f & ROUTED != 0 {
                    row.routs[u.side] += 1;
                }
            }
            for e in &sim.log().events {
                if let EventKind::Losses { unit, lost: Lost::Figures { figures, .. } } = &e.kind
                    && let Some(u) = scenario.unit_index(unit)
                {
                    row.losses[scenario.units[u].side] += figures;
                }
            }
        }
        None => {}
    }
    row
}

/// One battle per seed of `seeds` with `seats`, on rayon's threads, rows
/// in seed order; `players` says who played each side (an AI level or
/// `none`). `None` if cancelled through `progress`.
pub fn batch(
    scenario: &Arc<Scenario>,
    seeds: Range<u64>,
    seats: Seats,
    players: Vec<String>,
    progress: &Progress,
) -> Option<BatchTable> {
    let (start, n) = (seeds.start, seeds.end.saturating_sub(seeds.start));
    let make = || Simulation::new(scenario.clone(), start, Vec::new(), Seats::Nobody);
    let rows: Vec<Option<BatchRow>> = pool::each(n, make, |sim, i| {
        if progress.cancelled() {
            return None;
        }
        let row = play(scenario, start + i, seats, sim);
        progress.tick();
        Some(row)
    });
    if progress.cancelled() {
        return None;
    }
    Some(BatchTable {
        sides: scenario.sides.iter().map(|s| s.id.clone()).collect(),
        ai: players,
        objectives: scenario.objectives.iter().map(|o| o.name.clone()).collect(),
        rows: rows.into_iter().flatten().collect(),
    })
}
