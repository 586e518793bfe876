//! What the rules start from: the roots of the cause graph (events that
//! follow from nothing) in words, and where a cascade starts (see
//! docs/why.md, Cascades).

use crate::events::{Cause, Event, EventKind, MoveReason};
use crate::turn::Phase;
use crate::vocab::Readiness;

use super::graph::Graph;

/// What kind of root an event with no cause is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Root {
    /// A phase or segment begins: what the segment's own checks follow
    /// from (recovery, reorganisation).
    PhaseStart,
    /// A scenario's scripted shock.
    Shock,
    /// A player's or the AI's order: a volley, an attack, a march, a
    /// charge, a change of formation or facing, a march off the map.
    Order,
    /// Cavalry that rested its turn through.
    Rest,
    /// A leader riding to another unit when nothing befell its own.
    Ride,
    /// The battle's end: the result, the roll call, an order a replay
    /// could not carry out.
    End,
    /// An event the rules always write with a cause, written without one:
    /// a log cut by hand, or one from before causes were written.
    Uncaused,
}

impl Root {
    pub fn words(self) -> &'static str {
        match self {
            Root::PhaseStart => "phase start",
            Root::Shock => "scripted shock",
            Root::Order => "order",
            Root::Rest => "rest",
            Root::Ride => "leader's ride",
            Root::End => "end of the battle",
            Root::Uncaused => "no cause written",
        }
    }
}

/// What kind of root `e` is, read as a root (an event with a cause gets
/// the kind it would have had without one).
pub fn root_kind(e: &Event) -> Root {
    match &e.kind {
        EventKind::PhaseStart {} => Root::PhaseStart,
        EventKind::StateChange { cause: Cause::Shock, .. } => Root::Shock,
        EventKind::StateChange { .. } => Root::Uncaused,
        // Resting freshens cavalry; a charge from the next hex (no
        // approach to follow from) tires it.
        EventKind::Readiness { from, to, .. } => match (from, to) {
            (Readiness::Exhausted, Readiness::Tired) | (Readiness::Tired, Readiness::Fresh) => Root::Rest,
            _ => Root::Order,
        },
        EventKind::LeaderJoined { .. } => Root::Ride,
        EventKind::GameOver { .. } | EventKind::Final { .. } | EventKind::ReplayError { .. } => Root::End,
        EventKind::Move { reason, .. } => match reason {
            MoveReason::Order | MoveReason::Charge | MoveReason::Advance => Root::Order,
            MoveReason::Rout
            | MoveReason::Disorder
            | MoveReason::Recovery
            | MoveReason::Flight
            | MoveReason::CarriedAlong => Root::Uncaused,
        },
        // The checks an ordered attack demands before the melee.
        EventKind::MoraleCheck { cause, .. } => match cause {
            Cause::Melee | Cause::Charge => Root::Order,
            Cause::Recovery
            | Cause::Contagion
            | Cause::Fire
            | Cause::Shock
            | Cause::CavalryZone
            | Cause::CarryAlong
            | Cause::Reorganisation
            | Cause::Valour => Root::Uncaused,
        },
        // A routed defender caught by an ordered attack surrenders.
        EventKind::Fire { .. }
        | EventKind::Melee { .. }
        | EventKind::Attack { .. }
        | EventKind::Surrendered { .. }
        | EventKind::Formation { .. }
        | EventKind::Facing { .. }
        | EventKind::Exited { .. } => Root::Order,
        EventKind::Eliminated { .. }
        | EventKind::LeftMap { .. }
        | EventKind::Losses { .. }
        | EventKind::Valour { .. }
        | EventKind::GunsCaptured { .. }
        | EventKind::CorpsBroken { .. } => Root::Uncaused,
    }
}

/// Where a cascade starts: a root other than a phase start, or an event
/// that follows from a phase start (a unit's own check in a segment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    Root(Root),
    /// A check the segment of this phase demanded.
    Segment(Phase),
}

impl Start {
    /// In words, for a cascade's listing.
    pub fn words(self) -> String {
        match self {
            Start::Root(r) => r.words().to_owned(),
            Start::Segment(p) => format!("own check in the {} segment", p.words()),
        }
    }
}

/// Whether node `i` of `g` starts a cascade: it follows from nothing and is
/// not a phase start, or it follows from a phase start. A segment's start
/// is no cause of a cascade: each unit's check in it starts its own.
pub fn starts_cascade(g: &Graph, i: usize) -> bool {
    let node = &g.nodes[i];
    if g.because(i).is_empty() {
        return !node.phase_start;
    }
    g.causes(i).any(|c| g.nodes[c].phase_start)
}

/// What kind of start event `e` (a node for which [`starts_cascade`]
/// holds) is.
pub fn start_kind(e: &Event) -> Start {
    if e.because.is_empty() { Start::Root(root_kind(e)) } else { Start::Segment(e.phase) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::EventLog;
    use crate::vocab::State;

    #[test]
    fn a_segment_start_hands_the_cascade_to_each_check_it_demands() {
        let mut log = EventLog::default();
        log.set_stamp(1, Some("fr"), Phase::MoraleRecovery);
        let start = log.push(EventKind::PhaseStart {});
        let check = log.push_because(
            EventKind::MoraleCheck {
                unit: "a".into(),
                cause: Cause::Recovery,
                morale: 40,
                modifier: -3,
                roll: 22,
                result: 19,
                passed: false,
                source: None,
            },
            &[start],
        );
        let rout = log.push_because(
            EventKind::StateChange {
                unit: "a".into(),
                from: State::Disordered,
                to: State::Routed,
                cause: Cause::Recovery,
            },
            &[check],
        );
        let shock = log.push(EventKind::StateChange {
            unit: "b".into(),
            from: State::GoodOrder,
            to: State::Routed,
            cause: Cause::Shock,
        });
        let g = Graph::from_events(&log.events);
        let starts: Vec<u64> = (0..g.len()).filter(|&i| starts_cascade(&g, i)).map(|i| i as u64).collect();
        assert_eq!(starts, vec![check, shock]);
        assert!(!starts.contains(&rout) && !starts.contains(&start));
        assert_eq!(start_kind(&log.events[check as usize]), Start::Segment(Phase::MoraleRecovery));
        assert_eq!(start_kind(&log.events[shock as usize]), Start::Root(Root::Shock));
        assert_eq!(root_kind(&log.events[start as usize]), Root::PhaseStart);
        let readiness = |from, to| EventKind::Readiness { unit: "h".into(), from, to };
        let rested = log.push(readiness(Readiness::Tired, Readiness::Fresh));
        let charged = log.push(readiness(Readiness::Fresh, Readiness::Tired));
        assert_eq!(root_kind(&log.events[rested as usize]), Root::Rest);
        assert_eq!(root_kind(&log.events[charged as usize]), Root::Order);
    }
}
