//! The end-of-game summary (hex mode): each side's losses, routs and
//! surrenders, the corps' standings and the battle's cascades.

use std::collections::BTreeMap;
use std::fmt;

use crate::events::{Cause, EventKind, EventLog};
use crate::report::{Cascade, CascadeTally, counted, write_cascades};
use crate::scenario::Scenario;
use crate::vocab::State;

use super::super::Board;
use super::corps::{CorpsStatus, corps_status};
use super::objectives::increments_lost;

/// One side's losses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideSummary {
    pub name: String,
    /// Increments lost since the start (see [`score`] for what counts).
    pub increments_lost: u32,
    /// Distinct units that were routed at some point (those that began the
    /// battle routed included).
    pub routed: u32,
    pub surrendered: u32,
    pub eliminated: u32,
}

/// The end-of-game summary the command line prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub sides: Vec<SideSummary>,
    /// Largest cascade (1 for a lone failure, 0 when nothing failed).
    pub largest_cascade: u32,
    /// Cascades that shook two units or more, in the order they began.
    pub cascades: Vec<Cascade>,
    /// Corps standings, with their names, in [`Scenario::corps`] order.
    pub corps: Vec<(String, CorpsStatus, u32)>,
}

/// Losses, routs and cascades of a finished (or unfinished) battle.
pub fn summary(scenario: &Scenario, board: &Board, log: &EventLog) -> Summary {
    let index: BTreeMap<&str, usize> = board.units.iter().enumerate().map(|(i, u)| (u.id.as_str(), i)).collect();
    let mut ever_routed: Vec<bool> = board
        .units
        .iter()
        .enumerate()
        .map(|(i, _)| scenario.units.get(i).is_some_and(|s| s.state.hex() == State::Routed))
        .collect();

    // Cascades; `pending[u]` is the mover named by u's latest failed
    // contagion check.
    let mut cascades = CascadeTally::new(board.units.len());
    let mut pending: Vec<Option<usize>> = vec![None; board.units.len()];
    for e in &log.events {
        match &e.kind {
            EventKind::MoraleCheck { unit, cause: Cause::Contagion, passed: false, source, .. } => {
                if let Some(&u) = index.get(unit.as_str()) {
                    pending[u] = source.as_deref().and_then(|s| index.get(s).copied());
                }
            }
            EventKind::StateChange { unit, to, cause, .. } if matches!(to, State::Disordered | State::Routed) => {
                let Some(&u) = index.get(unit.as_str()) else { continue };
                if *to == State::Routed {
                    ever_routed[u] = true;
                }
                let parent = match cause {
                    Cause::Contagion => pending[u].take().and_then(|m| cascades.of(m)),
                    // Routed at the end of its own disorder retreat: still the
                    // same blow, so the same cascade.
                    Cause::CavalryZone => cascades.of(u),
                    _ => None,
                };
                let name = scenario.units.get(u).map_or(unit.as_str(), |s| s.name.as_str());
                cascades.fail(u, parent, (unit, name), *cause, e.turn);
            }
            _ => {}
        }
    }

    let (largest_cascade, cascades) = cascades.finish();
    let sides = scenario
        .sides
        .iter()
        .enumerate()
        .map(|(s, side)| {
            let mine = || board.units.iter().enumerate().filter(move |(_, u)| u.side == s);
            let start = |i: usize| scenario.units.get(i).map_or(0, |u| u.strength);
            SideSummary {
                name: side.name.clone(),
                increments_lost: mine().map(|(i, _)| increments_lost(board, i, start(i))).sum(),
                routed: mine().filter(|(i, _)| ever_routed[*i]).count() as u32,
                surrendered: mine().filter(|(_, u)| u.state == State::Surrendered).count() as u32,
                eliminated: mine().filter(|(_, u)| u.state == State::Eliminated).count() as u32,
            }
        })
        .collect();
    let corps = corps_status(scenario, board)
        .into_iter()
        .map(|st| {
            let c = &scenario.corps[st.corps];
            (c.name.clone(), st, c.units.len() as u32)
        })
        .collect();
    Summary { sides, largest_cascade, cascades, corps }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Losses")?;
        for s in &self.sides {
            writeln!(
                f,
                "  {}: {} lost; {} routed, {} surrendered, {} eliminated",
                s.name,
                counted(s.increments_lost, "increment"),
                counted(s.routed, "unit"),
                s.surrendered,
                s.eliminated
            )?;
        }
        if !self.corps.is_empty() {
            writeln!(f, "Corps")?;
            for (name, st, units) in &self.corps {
                let verdict = if st.broken { "broken" } else { "holding" };
                writeln!(f, "  {name}: {verdict} ({} gone, {} routed of {units})", st.gone, st.routed)?;
            }
        }
        write_cascades(f, self.largest_cascade, &self.cascades, "no failure spread to a second unit")
    }
}
