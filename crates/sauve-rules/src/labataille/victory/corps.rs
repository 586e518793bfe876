//! Corps and army morale (docs/rules.md 1.6): how many units each corps has
//! lost, whether it has broken, what broke it, and whether a side's army
//! has broken.

use crate::events::{EventLog, Seq};
use crate::scenario::Scenario;
use crate::vocab::State;

use super::super::Board;

/// How one corps stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpsStatus {
    /// Index into [`Scenario::corps`].
    pub corps: usize,
    /// Units lost to it: surrendered, eliminated, or routed off the map.
    pub gone: u32,
    /// Units routed and still on the board.
    pub routed: u32,
    /// `gone + routed` has reached the corps' `breaks_at`.
    pub broken: bool,
}

/// A unit the corps can no longer count on for good: surrendered,
/// eliminated, or a router that ran off the map. A unit that marched off in
/// order (an exit) is not lost.
pub(super) fn is_gone(board: &Board, unit: usize) -> bool {
    board.units.get(unit).is_some_and(|u| match u.state {
        State::Surrendered | State::Eliminated => true,
        State::Routed => !u.on_board(),
        // Standing, or a free-space state, which no hex board holds.
        State::GoodOrder | State::Disordered | State::Order | State::LU | State::U | State::FU => false,
    })
}

pub(super) fn is_routed_on_board(board: &Board, unit: usize) -> bool {
    board.units.get(unit).is_some_and(|u| u.state == State::Routed && u.on_board())
}

/// Every corps' standing, in [`Scenario::corps`] order.
pub fn corps_status(scenario: &Scenario, board: &Board) -> Vec<CorpsStatus> {
    scenario
        .corps
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let gone = c.units.iter().filter(|&&u| is_gone(board, u)).count() as u32;
            let routed = c.units.iter().filter(|&&u| is_routed_on_board(board, u)).count() as u32;
            CorpsStatus { corps: i, gone, routed, broken: gone + routed >= c.breaks_at }
        })
        .collect()
}

/// What a corps' break follows from (the cause graph): for each unit it
/// has lost (see [`corps_status`]), the event that made it so, in log order.
pub fn break_causes(scenario: &Scenario, board: &Board, log: &EventLog, corps: usize) -> Vec<Seq> {
    let Some(c) = scenario.corps.get(corps) else { return Vec::new() };
    let mut seqs: Vec<Seq> = c
        .units
        .iter()
        .filter(|&&u| is_gone(board, u) || is_routed_on_board(board, u))
        .filter_map(|&u| board.units.get(u))
        .filter_map(|u| log.last_fall(&u.id))
        .collect();
    seqs.sort_unstable();
    seqs
}

/// A side's army is broken when every one of its corps is. A side with no
/// units has no corps and is never broken: there is nothing to break.
pub fn army_broken(scenario: &Scenario, board: &Board, side: usize) -> bool {
    let status = corps_status(scenario, board);
    let mut any = false;
    for (i, _) in scenario.corps_of_side(side) {
        any = true;
        if !status[i].broken {
            return false;
        }
    }
    any
}
