//! Who won, and what it cost (hex mode): leaders' morale bonus, corps and
//! army morale (docs/rules.md 1.6), objectives, exits, the final score and the
//! end-of-game summary. Pure functions over the scenario, the board and the
//! event log; the callers keep the little state there is (which unit each
//! leader rides with, who holds each objective, what left by each exit).

use std::collections::BTreeMap;
use std::fmt;

use crate::events::{Cause, EventKind, EventLog, Seq};

use crate::hex::Edge;
use crate::report::{Cascade, CascadeTally, counted, write_cascades};
use crate::scenario::Scenario;
use crate::vocab::State;

use super::Board;

// ---------------------------------------------------------------------------
// Leaders.
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Corps and army morale (docs/rules.md 1.6).
// ---------------------------------------------------------------------------

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
fn is_gone(board: &Board, unit: usize) -> bool {
    board.units.get(unit).is_some_and(|u| match u.state {
        State::Surrendered | State::Eliminated => true,
        State::Routed => !u.on_board(),
        // Standing, or a free-space state, which no hex board holds.
        State::GoodOrder | State::Disordered | State::Order | State::LU | State::U | State::FU => false,
    })
}

fn is_routed_on_board(board: &Board, unit: usize) -> bool {
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

// ---------------------------------------------------------------------------
// Objectives and exits.
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// The score.
// ---------------------------------------------------------------------------

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
fn increments_lost(board: &Board, unit: usize, start: u32) -> u32 {
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

// ---------------------------------------------------------------------------
// The end-of-game summary.
// ---------------------------------------------------------------------------

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::Offset;
    use crate::scenario::parse;

    /// Two sides on a 12x12 clear map; units `f0..` (side "fr") and `r0..`
    /// (side "ru") in a row, with `extra` top-level fields.
    fn scenario(fr: usize, ru: usize, extra: &str) -> Scenario {
        let row = format!("\"{}\",", ".".repeat(12));
        let mut units = String::new();
        for i in 0..fr {
            units += &format!("(id: \"f{i}\", side: \"fr\", arm: Infantry, at: ({i}, 8), morale: 44, strength: 4),");
        }
        for i in 0..ru {
            units += &format!("(id: \"r{i}\", side: \"ru\", arm: Infantry, at: ({i}, 2), morale: 44, strength: 4),");
        }
        let text = format!(
            "Scenario(format: 1, name: \"t\", sides: [(id: \"fr\", name: \"French\"), (id: \"ru\", name: \"Russians\")],
              map: (rows: [{}]), units: [{units}], {extra})",
            row.repeat(12)
        );
        match parse(&text, "t.ron") {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        }
    }

    fn set(board: &mut Board, id: &str, state: State, at: Option<(i32, i32)>) {
        let i = board.index_of(id).expect("unit");
        board.units[i].state = state;
        board.units[i].at = at.map(|(c, r)| Offset::new(c, r));
    }

    #[test]
    fn corps_breaks_when_enough_battalions_are_routed_or_gone() {
        let s = scenario(4, 1, r#"corps: [(id: "I", side: "fr", units: ["f0", "f1", "f2", "f3"], breaks_at: 2)]"#);
        let mut b = Board::from_scenario(&s);
        set(&mut b, "f0", State::Routed, Some((0, 8)));
        let st = corps_status(&s, &b);
        assert_eq!((st[0].routed, st[0].gone, st[0].broken), (1, 0, false));
        set(&mut b, "f1", State::Surrendered, None);
        let st = corps_status(&s, &b);
        assert_eq!((st[0].routed, st[0].gone, st[0].broken), (1, 1, true));
        assert!(army_broken(&s, &b, 0));
        assert!(!army_broken(&s, &b, 1));
    }

    #[test]
    fn routers_off_the_map_are_gone_but_units_that_exit_in_order_are_not() {
        let s = scenario(2, 1, r#"corps: [(id: "I", side: "fr", units: ["f0", "f1"], breaks_at: 1)]"#);
        let mut b = Board::from_scenario(&s);
        set(&mut b, "f0", State::GoodOrder, None);
        assert!(!corps_status(&s, &b)[0].broken);
        set(&mut b, "f1", State::Routed, None);
        assert_eq!(corps_status(&s, &b)[0].gone, 1);
    }

    #[test]
    fn units_in_no_corps_form_their_sides_implicit_corps_breaking_at_half() {
        let s = scenario(5, 3, r#"corps: [(id: "I", side: "fr", units: ["f0", "f1"])]"#);
        let fr: Vec<_> = s.corps_of_side(0).map(|(_, c)| (c.id.clone(), c.units.len(), c.breaks_at)).collect();
        assert_eq!(fr, [("I".to_owned(), 2, 1), ("fr".to_owned(), 3, 2)]);
        let ru: Vec<_> = s.corps_of_side(1).map(|(_, c)| (c.id.clone(), c.breaks_at, c.implicit)).collect();
        assert_eq!(ru, [("ru".to_owned(), 2, true)]);
        assert_eq!(s.corps_of_unit(4), Some(1));
    }

    #[test]
    fn an_army_breaks_only_when_every_corps_has() {
        let s = scenario(4, 1, r#"corps: [(id: "I", side: "fr", units: ["f0", "f1"], breaks_at: 1)]"#);
        let mut b = Board::from_scenario(&s);
        set(&mut b, "f0", State::Routed, Some((0, 8)));
        assert!(!army_broken(&s, &b, 0), "the implicit corps of f2, f3 still holds");
        set(&mut b, "f2", State::Eliminated, None);
        assert!(army_broken(&s, &b, 0));
    }

    #[test]
    fn objective_changes_hands_only_when_one_side_alone_holds_it() {
        let s = scenario(2, 2, r#"objectives: [(at: (5, 5), points: 3, name: "church", held_by: "ru")]"#);
        let mut b = Board::from_scenario(&s);
        let mut holders = initial_holders(&s);
        assert_eq!(holders, [Some(1)]);
        // Empty: stays Russian.
        update_holders(&s, &b, &mut holders);
        assert_eq!(holders, [Some(1)]);
        // A French router on it takes nothing.
        set(&mut b, "f0", State::Routed, Some((5, 5)));
        update_holders(&s, &b, &mut holders);
        assert_eq!(holders, [Some(1)]);
        // Both sides on it: contested, unchanged.
        set(&mut b, "f0", State::Disordered, Some((5, 5)));
        set(&mut b, "r0", State::GoodOrder, Some((5, 5)));
        update_holders(&s, &b, &mut holders);
        assert_eq!(holders, [Some(1)]);
        // The French alone, even disordered: French.
        set(&mut b, "r0", State::GoodOrder, Some((0, 2)));
        update_holders(&s, &b, &mut holders);
        assert_eq!(holders, [Some(0)]);
        // They leave: still French.
        set(&mut b, "f0", State::GoodOrder, Some((0, 8)));
        update_holders(&s, &b, &mut holders);
        assert_eq!(holders, [Some(0)]);
    }

    #[test]
    fn leader_bonus_applies_within_radius() {
        let s = scenario(
            4,
            1,
            r#"leaders: [(id: "ney", side: "fr", with: "f0", bonus: 2), (id: "reynier", side: "fr", with: "f3", bonus: 1),
                        (id: "bulow", side: "ru", with: "r0", bonus: 3)]"#,
        );
        let b = Board::from_scenario(&s);
        let attached = initial_attachment(&s);
        // f0..f3 stand at (0..3, 8): f2 is 2 hexes from Ney, 1 from Reynier.
        assert_eq!(leader_bonus(&s, &b, &attached, 2, 2), 2, "the best bonus within reach");
        assert_eq!(leader_bonus(&s, &b, &attached, 2, 1), 1, "Ney is out of reach");
        assert_eq!(leader_bonus(&s, &b, &attached, 0, 0), 2, "the host itself");
        assert_eq!(leader_bonus(&s, &b, &attached, 3, 1), 1);
        assert_eq!(leader_bonus(&s, &b, &attached, 4, 20), 3, "only friendly leaders count");
    }

    #[test]
    fn a_leader_leaves_a_routed_host_for_the_nearest_good_order_friend() {
        let s = scenario(4, 1, r#"leaders: [(id: "ney", side: "fr", with: "f1", bonus: 2)]"#);
        let mut b = Board::from_scenario(&s);
        let mut attached = initial_attachment(&s);
        assert!(reattach(&s, &b, &mut attached).is_empty());
        set(&mut b, "f1", State::Routed, Some((1, 8)));
        // f0 and f2 are both one hex away: the lower index wins.
        assert_eq!(reattach(&s, &b, &mut attached), [(0, 0)]);
        assert_eq!(attached, [0]);
        // Host gone off the board, f1 still routed: measured from f0's start.
        set(&mut b, "f0", State::Surrendered, None);
        set(&mut b, "f2", State::Disordered, Some((2, 8)));
        assert_eq!(reattach(&s, &b, &mut attached), [(0, 3)]);
        // Nobody left in good order: the leader stays.
        set(&mut b, "f3", State::Routed, Some((3, 8)));
        assert!(reattach(&s, &b, &mut attached).is_empty());
        assert_eq!(attached, [3]);
    }

    fn push(log: &mut EventLog, turn: u32, kind: EventKind) {
        log.set_stamp(turn, None, crate::turn::Phase::Shocks);
        log.push(kind);
    }

    fn fail(log: &mut EventLog, turn: u32, unit: &str, to: State, cause: Cause, source: Option<&str>) {
        if cause == Cause::Contagion {
            push(
                log,
                turn,
                EventKind::MoraleCheck {
                    unit: unit.into(),
                    cause,
                    morale: 44,
                    modifier: 0,
                    roll: 11,
                    result: 11,
                    passed: false,
                    source: source.map(str::to_owned),
                },
            );
        }
        push(log, turn, EventKind::StateChange { unit: unit.into(), from: State::GoodOrder, to, cause });
    }

    #[test]
    fn cascade_sizes_follow_contagion_sources() {
        let s = scenario(6, 2, "");
        let b = Board::from_scenario(&s);
        let mut log = EventLog::default();
        use State::{Disordered as D, Routed as R};
        // f0 routs (shock); f1 and f2 catch it from f0, f3 from f2.
        fail(&mut log, 1, "f0", R, Cause::Shock, None);
        fail(&mut log, 1, "f1", D, Cause::Contagion, Some("f0"));
        fail(&mut log, 1, "f2", R, Cause::Contagion, Some("f0"));
        fail(&mut log, 1, "f3", D, Cause::Contagion, Some("f2"));
        // A separate blow: r0 routs and shakes r1.
        fail(&mut log, 2, "r0", R, Cause::Melee, None);
        fail(&mut log, 2, "r1", D, Cause::Contagion, Some("r0"));
        // f4 fails alone on recovery; f5 later catches it from f4.
        fail(&mut log, 3, "f4", R, Cause::Fire, None);
        fail(&mut log, 4, "f1", R, Cause::Recovery, None);
        fail(&mut log, 4, "f5", D, Cause::Contagion, Some("f1"));
        let sum = summary(&s, &b, &log);
        let sizes: Vec<(String, u32)> = sum.cascades.iter().map(|c| (c.root.clone(), c.size)).collect();
        assert_eq!(sizes, [("f0".to_owned(), 4), ("r0".to_owned(), 2), ("f1".to_owned(), 2)]);
        assert_eq!(sum.largest_cascade, 4);
        assert_eq!(sum.sides[0].routed, 4, "f0, f2, f4 and f1 routed at some point");
        assert_eq!(sum.sides[1].routed, 1);
    }

    #[test]
    fn summary_counts_losses_and_reads_plainly() {
        let s = scenario(3, 1, "");
        let mut b = Board::from_scenario(&s);
        set(&mut b, "f0", State::Surrendered, None);
        b.units[1].strength = 3;
        let sum = summary(&s, &b, &EventLog::default());
        assert_eq!(sum.sides[0].increments_lost, 5);
        assert_eq!(sum.sides[0].surrendered, 1);
        let text = sum.to_string();
        assert!(text.contains("French: 5 increments lost; 0 units routed, 1 surrendered, 0 eliminated"), "{text}");
        assert!(text.contains("no failure spread"), "{text}");
    }

    #[test]
    fn summary_says_one_increment_and_one_unit_in_the_singular() {
        let s = scenario(2, 1, "");
        let mut b = Board::from_scenario(&s);
        b.units[0].strength -= 1;
        let text = summary(&s, &b, &EventLog::default()).to_string();
        assert!(text.contains("French: 1 increment lost; 0 units routed,"), "{text}");
        assert!(text.contains("largest: 0 units"), "{text}");
        assert_eq!((counted(1, "unit"), counted(2, "unit")), ("1 unit".to_owned(), "2 units".to_owned()));
    }

    #[test]
    fn objectives_exits_and_enemy_losses_make_the_points() {
        let s = scenario(
            3,
            3,
            r#"objectives: [(at: (5, 5), points: 3, held_by: "ru")], exits: [(side: "fr", edge: North, points: 2)]"#,
        );
        let mut b = Board::from_scenario(&s);
        let start: Vec<u32> = s.units.iter().map(|u| u.strength).collect();
        let mut exited = exit_tally(&s);
        assert_eq!(record_exit(&s, &mut exited, 0, Edge::North, State::Routed, 4), 0, "routers score nothing");
        assert_eq!(record_exit(&s, &mut exited, 0, Edge::South, State::GoodOrder, 4), 0, "no exit there");
        assert_eq!(record_exit(&s, &mut exited, 0, Edge::North, State::Disordered, 4), 8);
        set(&mut b, "f0", State::GoodOrder, None);
        b.units[3].strength = 1; // r0 lost 3 increments
        let sc = score(&s, &b, &initial_holders(&s), &exited, &start);
        assert_eq!(sc.points, [8 + 3, 3]);
        assert_eq!((sc.winner, sc.decisive), (Some(0), false));
    }

    #[test]
    fn enemy_losses_are_worth_the_rules_block_points_per_increment() {
        let mut s = scenario(2, 2, "");
        s.rules.points_per_increment = 3;
        let mut b = Board::from_scenario(&s);
        let start: Vec<u32> = s.units.iter().map(|u| u.strength).collect();
        b.units[2].strength = start[2] - 2; // a Russian unit lost 2 increments
        let sc = score(&s, &b, &[], &[], &start);
        assert_eq!(sc.points, [6, 0]);
        assert!(sc.detail.iter().any(|d| d == "French: 2 enemy increments lost (+6)"), "{:?}", sc.detail);
        b.units[2].strength = start[2] - 1;
        let sc = score(&s, &b, &[], &[], &start);
        assert!(sc.detail.iter().any(|d| d == "French: 1 enemy increment lost (+3)"), "{:?}", sc.detail);
    }

    #[test]
    fn equal_points_are_a_draw() {
        let s = scenario(2, 2, "");
        let b = Board::from_scenario(&s);
        let start: Vec<u32> = s.units.iter().map(|u| u.strength).collect();
        let sc = score(&s, &b, &[], &[], &start);
        assert_eq!((sc.points.clone(), sc.winner), (vec![0, 0], None));
        assert!(sc.to_string().contains("a draw"));
    }

    #[test]
    fn broken_army_loses_outright() {
        let s = scenario(2, 2, r#"objectives: [(at: (5, 5), points: 50, held_by: "fr")]"#);
        let mut b = Board::from_scenario(&s);
        let start: Vec<u32> = s.units.iter().map(|u| u.strength).collect();
        // The French implicit corps (2 units) breaks at 1.
        set(&mut b, "f0", State::Routed, Some((0, 8)));
        let sc = score(&s, &b, &initial_holders(&s), &[], &start);
        assert!(sc.points[0] > sc.points[1]);
        assert_eq!((sc.winner, sc.decisive), (Some(1), true));
        // Both broken: back to points.
        set(&mut b, "r0", State::Routed, Some((0, 2)));
        let sc = score(&s, &b, &initial_holders(&s), &[], &start);
        assert_eq!((sc.winner, sc.decisive), (Some(0), false));
    }
}
