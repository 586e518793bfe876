//! The board as the event log has shown it so far ([`Shown`]): the
//! scenario's set-up folded with the events shown, one at a time, and their
//! lines in the battle log. What the window draws of the battle is rebuilt
//! from the events alone, so the picture is exactly what the log says
//! happened. Pure: no system lives here.

use bevy::prelude::*;

use crate::events::{Event, EventKind, Heading, Pos};

use crate::hex::Offset;
use crate::scenario::{Formation, Place, Readiness, Scenario, State};
use crate::sentences::{self, Category, Names};
use crate::turn::Phase;

/// A unit as the event log has shown it so far.
#[derive(Clone, Debug, PartialEq)]
pub struct ShownUnit {
    pub at: Option<Offset>,
    /// Free space: centre in cm and facing in degrees.
    pub cm: Option<(f32, f32, f32)>,
    /// Hex mode: the hexside the unit faces (rule 1.7); `None` in free space.
    pub facing: Option<crate::hex::Dir>,
    pub state: State,
    pub readiness: Readiness,
    /// Strength increments (hex) or figures (free space) left.
    pub strength: u32,
    /// Formation as the log names it (`Line`, `Column`, `Square`, ...).
    pub formation: Formation,
    /// Artillery with its limbers on.
    pub limbered: bool,
    /// Surrendered, eliminated or gone off the map.
    pub gone: bool,
}

impl ShownUnit {
    /// Where it stands, as the event log writes a place: its hex, or its
    /// centre on the table; `None` for a unit not on the map.
    pub fn pos(&self) -> Option<crate::events::Pos> {
        use crate::events::Pos;
        match (self.at, self.cm) {
            (Some(h), _) => Some(Pos::Hex([h.c, h.r])),
            (None, Some((x, y, _))) => Some(Pos::Cm([x, y])),
            _ => None,
        }
    }
}

/// One line of the battle log panel.
#[derive(Clone, Debug)]
pub struct LogLine {
    pub category: Category,
    pub unit: Option<usize>,
    pub text: String,
}

/// The battle as shown: the units after the first `cursor` events, and the
/// log lines of those events.
#[derive(Resource, Default)]
pub struct Shown {
    pub units: Vec<ShownUnit>,
    pub cursor: usize,
    pub turn: u32,
    pub side: Option<String>,
    /// The phase of the last event shown; `None` before the first.
    pub phase: Option<Phase>,
    /// Index of the current phase's `PhaseStart` in the event log.
    pub phase_at: usize,
    pub log: Vec<LogLine>,
}

/// The units as the scenario sets them up.
pub fn initial(s: &Scenario) -> Vec<ShownUnit> {
    s.units
        .iter()
        .map(|u| {
            let rear = s.sides.get(u.side).map_or(crate::hex::Edge::South, |side| side.rear);
            let (at, cm) = match u.place {
                Place::Hex(o) => (Some(o), None),
                // The same default the simulation gives: away from its rear edge.
                Place::Table { x, y } => (None, Some((x, y, crate::belle_alliance::FsUnit::from_spec(u, rear).facing))),
            };
            let state = u.state;
            let formation = u.formation.unwrap_or(Formation::Line);
            // The same default the simulation gives a hex unit: away from its rear edge.
            let facing = at.map(|_| crate::labataille::HexUnit::from_spec(u, rear).facing);
            ShownUnit {
                at,
                cm,
                facing,
                state,
                readiness: u.readiness,
                strength: u.strength,
                formation,
                limbered: u.limbered,
                gone: false,
            }
        })
        .collect()
}

/// What one event does to the shown board. Pure: the board after `n`
/// events is `initial` folded with the first `n`.
pub fn apply(units: &mut [ShownUnit], index: impl Fn(&str) -> Option<usize>, e: &Event) {
    let Some(u) = sentences::unit_id(e).as_deref().and_then(index).and_then(|i| units.get_mut(i)) else { return };
    match &e.kind {
        EventKind::StateChange { to, .. } => u.state = *to,
        EventKind::Move { to, .. } => match *to {
            Pos::Hex([c, r]) => u.at = Some(Offset::new(c, r)),
            Pos::Cm([x, y]) => {
                let facing = u.cm.map_or(0.0, |c| c.2);
                u.cm = Some((x, y, facing));
            }
        },
        EventKind::Readiness { to, .. } => u.readiness = *to,
        EventKind::Facing { to: Heading::Hexside(to), .. } => u.facing = Some(*to),
        EventKind::Facing { to: Heading::Degrees(to), .. } => {
            if let Some(c) = u.cm.as_mut() {
                c.2 = *to;
            }
        }
        EventKind::Surrendered { .. } => {
            u.state = State::Surrendered;
            u.gone = true;
        }
        EventKind::Eliminated { .. } => {
            u.state = State::Eliminated;
            u.gone = true;
        }
        EventKind::LeftMap { .. } | EventKind::Exited { .. } => u.gone = true,
        EventKind::Losses { lost, .. } => u.strength = lost.counts().1,
        EventKind::Formation { to, .. } => {
            if let Some(limbered) = to.limbered() {
                u.limbered = limbered;
            }
            if let Some(f) = to.formation() {
                u.formation = f;
            }
        }
        EventKind::PhaseStart {}
        | EventKind::MoraleCheck { .. }
        | EventKind::Fire { .. }
        | EventKind::Melee { .. }
        | EventKind::Attack { .. }
        | EventKind::Valour { .. }
        | EventKind::GunsCaptured { .. }
        | EventKind::ReplayError { .. }
        | EventKind::CorpsBroken { .. }
        | EventKind::LeaderJoined { .. }
        | EventKind::GameOver { .. }
        | EventKind::Final { .. } => {}
    }
}

pub use crate::sentences::ScenarioNames;

/// Shows one more event: the board, the phase it belongs to, and its line
/// in the battle log. The one path by which events reach the screen, for
/// playing forwards and for rebuilding after a step back.
pub fn show_event(shown: &mut Shown, e: &Event, index: &impl Fn(&str) -> Option<usize>, names: &dyn Names) {
    apply(&mut shown.units, index, e);
    if let EventKind::PhaseStart {} = e.kind {
        shown.turn = e.turn;
        shown.side.clone_from(&e.side);
        shown.phase = Some(e.phase);
        shown.phase_at = shown.cursor;
    }
    if let Some((category, text)) = sentences::sentence(e, names) {
        let unit = sentences::unit_id(e).as_deref().and_then(index);
        shown.log.push(LogLine { category, unit, text });
    }
    shown.cursor += 1;
}

/// The battle as shown after the first `upto` events of the log: the
/// scenario's set-up folded with them. Stepping backwards rebuilds from the
/// start rather than undoing events, so it cannot drift from playing
/// forwards.
pub fn shown_after(
    scenario: &Scenario,
    events: &[Event],
    upto: usize,
    index: &impl Fn(&str) -> Option<usize>,
    names: &dyn Names,
) -> Shown {
    let mut shown = Shown { units: initial(scenario), ..default() };
    for e in &events[..upto.min(events.len())] {
        show_event(&mut shown, e, index, names);
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::Lost;
    use std::sync::Arc;

    use crate::sim::{Seats, Simulation};

    fn cascade() -> Arc<Scenario> {
        let text = include_str!("../../scenarios/cascade.ron");
        match crate::scenario::parse_bytes(text.as_bytes(), "cascade.ron") {
            Ok(s) => Arc::new(s),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn replaying_the_log_ends_where_the_simulation_ends() {
        let s = cascade();
        let mut sim = Simulation::new(s.clone(), s.seed, vec![], Seats::Nobody);
        for _ in 0..26 {
            sim.step();
        }
        let mut units = initial(&s);
        for e in &sim.log().events {
            apply(&mut units, |id| s.unit_index(id), e);
        }
        let board = sim.board();
        assert!(sim.log().events.len() > 20, "the cascade happened");
        for (shown, real) in units.iter().zip(&board.units) {
            assert_eq!(shown.gone, real.at.is_none(), "{}", real.id);
            if !shown.gone {
                assert_eq!(shown.at, real.at, "{}", real.id);
                assert_eq!(shown.state, real.state, "{}", real.id);
                assert_eq!(shown.facing, Some(real.facing), "{}", real.id);
            }
        }
        assert!(units.iter().any(|u| u.state == State::Routed), "some routed");
    }

    fn same(a: &Shown, b: &Shown) -> bool {
        let lines = |s: &Shown| s.log.iter().map(|l| (l.category, l.unit, l.text.clone())).collect::<Vec<_>>();
        a.units == b.units
            && a.cursor == b.cursor
            && (a.turn, &a.side, &a.phase, a.phase_at) == (b.turn, &b.side, &b.phase, b.phase_at)
            && lines(a) == lines(b)
    }

    #[test]
    fn stepping_back_and_forth_shows_what_a_fresh_fold_shows() {
        let s = cascade();
        let mut sim = Simulation::new(s.clone(), s.seed, vec![], Seats::Nobody);
        for _ in 0..26 {
            sim.step();
        }
        let events = &sim.log().events;
        let index = |id: &str| s.unit_index(id);
        let names = ScenarioNames(&s);
        // Forwards one event at a time, as the window plays.
        let mut played = Shown { units: initial(&s), ..Default::default() };
        for e in events {
            show_event(&mut played, e, &index, &names);
        }
        let all = shown_after(&s, events, events.len(), &index, &names);
        assert!(same(&played, &all), "playing forwards is the fold of the whole log");
        // Back a dozen events, then forward again to the end.
        let mut back = shown_after(&s, events, events.len() - 12, &index, &names);
        assert!(!same(&back, &all));
        assert_eq!(back.cursor, events.len() - 12);
        for e in &events[back.cursor..] {
            show_event(&mut back, e, &index, &names);
        }
        assert!(same(&back, &all), "and forwards again ends where it was");
    }

    #[test]
    fn losses_formations_and_exits_reach_the_counters() {
        let s = cascade();
        let mut units = initial(&s);
        let id = s.units[0].id.clone();
        let index = |x: &str| s.unit_index(x);
        let ev =
            |kind: EventKind| Event { seq: 0, turn: 1, side: None, phase: Phase::Movement, kind, because: Vec::new() };
        apply(
            &mut units,
            index,
            &ev(EventKind::Losses { unit: id.clone(), lost: Lost::Increments { increments: 1, strength: 3 } }),
        );
        apply(
            &mut units,
            index,
            &ev(EventKind::Formation { unit: id.clone(), from: Formation::Line.into(), to: Formation::Square.into() }),
        );
        assert_eq!((units[0].strength, units[0].formation), (3, Formation::Square));
        let edge = crate::hex::Edge::North;
        apply(&mut units, index, &ev(EventKind::Exited { unit: id, edge, increments: 3 }));
        assert!(units[0].gone, "a unit that marched off the map leaves the board");
    }

    #[test]
    fn a_facing_event_turns_the_shown_counter() {
        use crate::hex::Dir;
        let s = cascade();
        let mut units = initial(&s);
        let index = |x: &str| s.unit_index(x);
        // Hex units start facing away from their side's rear edge, as the
        // simulation sets them up.
        let mut sim = Simulation::new(s.clone(), s.seed, vec![], Seats::Nobody);
        for (shown, real) in units.iter().zip(&sim.board().units) {
            assert_eq!(shown.facing, Some(real.facing), "{}", real.id);
        }
        let id = s.units[0].id.clone();
        let from = units[0].facing.unwrap_or(Dir::N);
        let to = from.opposite();
        let ev =
            |kind: EventKind| Event { seq: 0, turn: 1, side: None, phase: Phase::Movement, kind, because: Vec::new() };
        let before = units.clone();
        apply(
            &mut units,
            index,
            &ev(EventKind::Facing { unit: id.clone(), from: Heading::Hexside(from), to: Heading::Hexside(to) }),
        );
        assert_eq!(units[0].facing, Some(to));
        assert_eq!(units[1..], before[1..], "only that unit turns");
        // Stepping back shows the facing of that moment.
        let events = [
            ev(EventKind::Facing { unit: id.clone(), from: Heading::Hexside(from), to: Heading::Hexside(to) }),
            ev(EventKind::Facing { unit: id, from: Heading::Hexside(to), to: Heading::Hexside(Dir::SW) }),
        ];
        let names = ScenarioNames(&s);
        let at = |n| shown_after(&s, &events, n, &index, &names).units[0].facing;
        assert_eq!((at(2), at(1), at(0)), (Some(Dir::SW), Some(to), Some(from)));
    }
}
