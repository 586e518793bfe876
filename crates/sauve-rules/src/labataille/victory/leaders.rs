//! Leaders (hex mode): where each rides, the morale bonus it lends the
//! units near it, and how it moves to a new host when its own is lost.

use crate::scenario::Scenario;
use crate::vocab::State;

use super::super::Board;

/// Where each leader rides at the start: `attached[i]` is the unit index of
/// leader `i`'s host.
pub fn initial_attachment(scenario: &Scenario) -> Vec<usize> {
    scenario.leaders.iter().map(|l| l.with).collect()
}

/// The leader bonus for a morale check by `unit`: the best bonus among its
/// side's leaders whose host is on the board within `radius` hexes of it
/// (the host itself included, at distance 0). 0 when none is near, or when
/// the unit is off the board.
pub fn leader_bonus(scenario: &Scenario, board: &Board, attached: &[usize], unit: usize, radius: u32) -> i32 {
    let Some(u) = board.units.get(unit) else { return 0 };
    let Some(at) = u.at else { return 0 };
    scenario
        .leaders
        .iter()
        .zip(attached)
        .filter(|(l, _)| l.side == u.side)
        .filter_map(|(l, &host)| {
            let host_at = board.units.get(host)?.at?;
            (host_at.distance(at) <= radius).then_some(l.bonus)
        })
        .max()
        .unwrap_or(0)
}

/// Leaders whose host has left the board or is routed ride over to the
/// nearest friendly good-order unit on the board (ties: the lowest unit
/// index); with none left, a leader stays where it is. Distance is measured
/// from the host's hex, or from its starting hex once it is off the board
/// (the board keeps no last position). Returns each move as
/// `(leader index, new host)`.
pub fn reattach(scenario: &Scenario, board: &Board, attached: &mut [usize]) -> Vec<(usize, usize)> {
    let mut moves = Vec::new();
    for (i, (leader, host)) in scenario.leaders.iter().zip(attached.iter_mut()).enumerate() {
        let Some(h) = board.units.get(*host) else { continue };
        if h.on_board() && h.state != State::Routed {
            continue;
        }
        let from = h.at.or_else(|| match scenario.units.get(*host).map(|s| s.place) {
            Some(crate::scenario::Place::Hex(o)) => Some(o),
            _ => None,
        });
        let Some(from) = from else { continue };
        let best = board
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.side == leader.side && u.state == State::GoodOrder)
            .filter_map(|(j, u)| u.at.map(|at| (at.distance(from), j)))
            .min();
        if let Some((_, j)) = best {
            *host = j;
            moves.push((i, j));
        }
    }
    moves
}
