//! Objectives, exits and the score (hex mode): who holds each objective,
//! what marched off by each exit, and the points and verdict at the end.

use std::fmt;

use crate::events::{Event, EventKind};
use crate::hex::Edge;
use crate::report::counted;
use crate::scenario::Scenario;
use crate::vocab::State;

use super::super::Board;
use super::corps::{army_broken, is_gone};

/// Who holds each objective at the start (the scenario's `held_by`).
pub fn initial_holders(scenario: &Scenario) -> Vec<Option<usize>> {
    scenario.objectives.iter().map(|o| o.held_by).collect()
}

/// An objective changes hands only when units of one side in good order or
/// disorder stand on it and no unit of the other side does; an empty hex, or
/// one with only routers on it, stays with its last holder.
pub fn update_holders(scenario: &Scenario, board: &Board, holders: &mut [Option<usize>]) {
    for (o, holder) in scenario.objectives.iter().zip(holders.iter_mut()) {
        let mut holding = None;
        let mut contested = false;
        for u in board.units.iter().filter(|u| u.at == Some(o.at)) {
            if !matches!(u.state, State::GoodOrder | State::Disordered) {
                continue;
            }
            match holding {
                None => holding = Some(u.side),
                Some(s) if s != u.side => contested = true,
                Some(_) => {}
            }
        }
        let present_enemy = |side: usize| board.units.iter().any(|u| u.at == Some(o.at) && u.side != side);
        if let Some(side) = holding
            && !contested
            && !present_enemy(side)
        {
            *holder = Some(side);
        }
    }
}

/// A zeroed exit tally, one count per [`Scenario::exits`] entry.
pub fn exit_tally(scenario: &Scenario) -> Vec<u32> {
    vec![0; scenario.exits.len()]
}

/// The exit (index into [`Scenario::exits`]) that scores for a unit of
/// `side` leaving across `edge` in `state`: none for routers, or where the
/// scenario names no such exit.
pub fn exit_for(scenario: &Scenario, side: usize, edge: Edge, state: State) -> Option<usize> {
    if !matches!(state, State::GoodOrder | State::Disordered) {
        return None;
    }
    scenario.exits.iter().position(|e| e.side == side && e.edge == edge)
}

/// Records a unit of `side` with `increments` leaving across `edge` in
/// `state` (the movement code calls this as the unit leaves). Returns the
/// points it earned; 0 when no exit scores for it.
pub fn record_exit(
    scenario: &Scenario,
    exited: &mut [u32],
    side: usize,
    edge: Edge,
    state: State,
    increments: u32,
) -> u32 {
    match exit_for(scenario, side, edge, state) {
        Some(i) if i < exited.len() => {
            exited[i] += increments;
            increments * scenario.exits[i].points
        }
        _ => 0,
    }
}

/// Counts every unit that marched off in `events` (its `Exited` events) in
/// `exited`, as [`record_exit`] does: what the battle tallies after each
/// phase, over the events written since the last tally.
pub fn tally_exits(scenario: &Scenario, events: &[Event], exited: &mut [u32]) {
    for e in events {
        if let EventKind::Exited { unit, edge, increments } = &e.kind
            && let Some(u) = scenario.unit_index(unit)
        {
            record_exit(scenario, exited, scenario.units[u].side, *edge, State::GoodOrder, *increments);
        }
    }
}

/// The result of a battle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// Side names, for printing.
    pub sides: Vec<String>,
    /// Victory points, per side.
    pub points: Vec<u32>,
    /// `None` for a draw.
    pub winner: Option<usize>,
    /// Won outright because the other army broke, whatever the points.
    pub decisive: bool,
    /// One line per source of points, and one for the verdict.
    pub detail: Vec<String>,
}

/// Increments a unit has lost: all of them once it has surrendered, been
/// eliminated or routed off the map; otherwise what its strength has fallen
/// by since the start.
pub(super) fn increments_lost(board: &Board, unit: usize, start: u32) -> u32 {
    match board.units.get(unit) {
        None => 0,
        Some(_) if is_gone(board, unit) => start,
        Some(u) => start.saturating_sub(u.strength),
    }
}

/// The score at the end of a battle.
///
/// - Each objective's points go to its holder (`holders`, kept up to date
///   with [`update_holders`]).
/// - Each exit pays its points for every increment counted in `exited`
///   (indexed like [`Scenario::exits`], kept with [`record_exit`]).
/// - A side earns `rules.points_per_increment` for each increment the enemy lost
///   since the start (`start_strength`, per unit).
/// - An army that has broken ([`army_broken`]) loses outright to an army that
///   has not; otherwise more points win and equal points are a draw (as is
///   both armies breaking with equal points).
pub fn score(
    scenario: &Scenario,
    board: &Board,
    holders: &[Option<usize>],
    exited: &[u32],
    start_strength: &[u32],
) -> Score {
    let n = scenario.sides.len();
    let mut points = vec![0u32; n];
    let mut detail = Vec::new();
    let side_name = |s: usize| scenario.sides.get(s).map_or("?", |x| x.name.as_str());

    for (o, holder) in scenario.objectives.iter().zip(holders) {
        if let Some(s) = *holder
            && s < n
        {
            points[s] += o.points;
            detail.push(format!("{}: holds {} {} (+{})", side_name(s), o.name, o.at, o.points));
        }
    }
    for (e, &count) in scenario.exits.iter().zip(exited) {
        if count > 0 && e.side < n {
            let p = count * e.points;
            points[e.side] += p;
            let off = counted(count, "increment");
            detail.push(format!("{}: {off} off the {:?} edge (+{p})", side_name(e.side), e.edge));
        }
    }
    let mut lost = vec![0u32; n];
    for (i, u) in board.units.iter().enumerate() {
        if u.side < n {
            lost[u.side] += increments_lost(board, i, start_strength.get(i).copied().unwrap_or(u.strength));
        }
    }
    for (s, &l) in lost.iter().enumerate() {
        // Every other side gains from this side's losses (there are two).
        for (t, pts) in points.iter_mut().enumerate() {
            if t != s && l > 0 {
                let per = scenario.rules.points_per_increment;
                *pts += l * per;
                detail.push(format!("{}: {} lost (+{})", side_name(t), counted(l, "enemy increment"), l * per));
            }
        }
    }

    let broken: Vec<bool> = (0..n).map(|s| army_broken(scenario, board, s)).collect();
    for s in (0..n).filter(|&s| broken[s]) {
        detail.push(format!("{}: army broken", side_name(s)));
    }
    let standing: Vec<usize> = (0..n).filter(|&s| !broken[s]).collect();
    let (winner, decisive) = if standing.len() == 1 && broken.iter().any(|&b| b) {
        (Some(standing[0]), true)
    } else {
        let best = points.iter().copied().max().unwrap_or(0);
        let leaders: Vec<usize> = (0..n).filter(|&s| points[s] == best).collect();
        (if leaders.len() == 1 { Some(leaders[0]) } else { None }, false)
    };
    detail.push(match (winner, decisive) {
        (Some(w), true) => format!("winner: {}, outright (the enemy army has broken)", side_name(w)),
        (Some(w), false) => format!("winner: {}, on points", side_name(w)),
        (None, _) => "result: a draw".to_owned(),
    });
    Score { sides: scenario.sides.iter().map(|s| s.name.clone()).collect(), points, winner, decisive, detail }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pts: Vec<String> = self.sides.iter().zip(&self.points).map(|(name, p)| format!("{name} {p}")).collect();
        writeln!(f, "Score: {}", pts.join(", "))?;
        for line in &self.detail {
            writeln!(f, "  {line}")?;
        }
        Ok(())
    }
}
