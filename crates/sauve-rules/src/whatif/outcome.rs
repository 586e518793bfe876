//! What one continuation of a game came to: for each unit the falls it
//! took, for each corps whether it has broken, the side that won and the
//! cascades, read off the event log from the point the continuation began.

use std::collections::HashMap;

use crate::events::{Event, EventKind};
use crate::scenario::Scenario;
use crate::vocab::State;
use crate::why::cascades::cascades;
use crate::why::graph::Graph;

/// A unit was disordered (shaken: U or LU in free space).
pub const SHAKEN: u8 = 1;
/// A unit was routed (FU in free space), on the map or off it.
pub const ROUTED: u8 = 2;
pub const SURRENDERED: u8 = 4;
pub const ELIMINATED: u8 = 8;
/// Routed, surrendered or eliminated: the unit is lost to its line.
pub const BROKEN: u8 = ROUTED | SURRENDERED | ELIMINATED;

/// The fate a unit in state `s` is in.
pub fn fate_of(s: State) -> u8 {
    match s.hex() {
        State::Disordered => SHAKEN,
        State::Routed => ROUTED,
        State::Surrendered => SURRENDERED,
        State::Eliminated => ELIMINATED,
        _ => 0,
    }
}

/// The state an event puts its unit in, if it changes one.
pub fn new_state(e: &Event) -> Option<(&str, State)> {
    match &e.kind {
        EventKind::StateChange { unit, to, .. } => Some((unit, *to)),
        EventKind::Surrendered { unit } => Some((unit, State::Surrendered)),
        EventKind::Eliminated { unit, .. } => Some((unit, State::Eliminated)),
        _ => None,
    }
}

/// Every unit's state after `events` (in scenario order): each starts as
/// its scenario gives it and takes each change the log records.
pub fn states_after(scenario: &Scenario, events: &[Event]) -> Vec<State> {
    let index = unit_index(scenario);
    let mut states: Vec<State> = scenario.units.iter().map(|u| u.state).collect();
    for (unit, to) in events.iter().filter_map(new_state) {
        if let Some(&u) = index.get(unit) {
            states[u] = to;
        }
    }
    states
}

/// Per unit, the fates it is in at event `from` of `events` and those it
/// falls into after (bits of [`SHAKEN`], [`ROUTED`], [`SURRENDERED`],
/// [`ELIMINATED`]).
pub fn falls(scenario: &Scenario, events: &[Event], from: usize) -> Vec<u8> {
    let from = from.min(events.len());
    let index = unit_index(scenario);
    let mut fates: Vec<u8> = states_after(scenario, &events[..from]).into_iter().map(fate_of).collect();
    for (unit, to) in events[from..].iter().filter_map(new_state) {
        if let Some(&u) = index.get(unit) {
            fates[u] |= fate_of(to);
        }
    }
    fates
}

/// Unit ids to their index in the scenario.
fn unit_index(scenario: &Scenario) -> HashMap<&str, usize> {
    scenario.units.iter().enumerate().map(|(i, u)| (u.id.as_str(), i)).collect()
}

/// What one continuation came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Per unit (scenario order), the fates it was in at some moment of
    /// the continuation, its state where it began included: bits of
    /// [`SHAKEN`], [`ROUTED`], [`SURRENDERED`], [`ELIMINATED`].
    pub fates: Vec<u8>,
    /// Per corps (scenario order), broken where the continuation ended
    /// (the command segment would find it so).
    pub corps_broken: Vec<bool>,
    /// The winner the game's end gave, if it gave one (`None` for a draw).
    pub winner: Option<usize>,
    /// Whether a verdict was written at all (a `GameOver`: a played battle
    /// of either mode writes one when it ends).
    pub decided: bool,
    /// Sizes of the cascades that began in the continuation (units each
    /// took), the largest first.
    pub cascades: Vec<u32>,
}

impl Outcome {
    /// Reads the continuation that begins at event `from` of `events`.
    /// `corps_broken` is the corps' standing where it ended (from the
    /// board: a break is written only at the next command segment).
    pub fn read(scenario: &Scenario, events: &[Event], from: usize, corps_broken: Vec<bool>) -> Outcome {
        let from = from.min(events.len());
        let fates = falls(scenario, events, from);
        let verdict = events[from..].iter().rev().find_map(|e| match &e.kind {
            EventKind::GameOver { winner, .. } => {
                Some(winner.as_deref().and_then(|id| scenario.sides.iter().position(|s| s.id == id)))
            }
            _ => None,
        });
        let (winner, decided) = (verdict.flatten(), verdict.is_some());
        let graph = Graph::from_events(events);
        let cascades =
            cascades(&graph).into_iter().filter(|c| c.start as usize >= from).map(|c| c.size() as u32).collect();
        Outcome { fates, corps_broken, winner, decided, cascades }
    }

    /// The largest cascade's size (0 when none began).
    pub fn largest_cascade(&self) -> u32 {
        self.cascades.first().copied().unwrap_or(0)
    }
}
