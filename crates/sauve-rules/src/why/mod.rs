//! Why did it happen? The log's cause graph (docs/event-log.md,
//! `because`) read backwards: the chain of events behind a unit's rout,
//! disorder or surrender, back to the roots the rules started from (a
//! phase start, an order, a scripted shock). The command line's `sauve why`
//! and the window's why view both ask here.
//!
//! The command line reads a log file through [`graph`] (a light reading
//! of each line, all a why needs), prints the chain as a tree ([`tree`],
//! [`text`], [`json`], [`dot`]) and finds the log's cascades
//! ([`cascades`]); [`roots`] says what each root is, [`names`] gives the
//! sentences their names. docs/why.md tells the story.

pub mod cascades;
pub mod dot;
pub mod graph;
pub mod json;
pub mod names;
pub mod roots;
pub mod text;
pub mod tree;

use crate::events::{Event, Seq};

/// The events behind one event: its causes, their causes, and so on back to
/// the roots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    /// The event asked about.
    pub target: Seq,
    /// Every event of the chain, the target included, in log order (so
    /// roots first, the target last).
    pub events: Vec<Seq>,
    /// The events of the chain that follow from nothing, in log order.
    pub roots: Vec<Seq>,
}

impl Chain {
    /// Whether `seq` is part of the chain.
    pub fn contains(&self, seq: Seq) -> bool {
        self.events.binary_search(&seq).is_ok()
    }
}

/// The chain behind `target` in `events` (a log whose `seq` is each event's
/// index, as every log `sauve` writes). `None` if there is no such event.
/// A `because` that points nowhere (a hand-cut log) is passed over.
pub fn chain(events: &[Event], target: Seq) -> Option<Chain> {
    chain_by(events.len(), target, |i| &events[i].because)
}

/// [`chain`] over any record of a log of `len` events that can say what
/// event `i` follows from (the light reading of a log file, [`graph`]).
pub fn chain_by<'a>(len: usize, target: Seq, because: impl Fn(usize) -> &'a [Seq]) -> Option<Chain> {
    let t = usize::try_from(target).ok().filter(|&t| t < len)?;
    let mut seen = vec![false; t + 1];
    let mut stack = vec![t];
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        stack.extend(because(i).iter().filter_map(|&b| usize::try_from(b).ok()).filter(|&b| b < i));
    }
    let events_in: Vec<Seq> = (0..=t).filter(|&i| seen[i]).map(|i| i as Seq).collect();
    let roots = events_in.iter().copied().filter(|&s| because(s as usize).is_empty()).collect();
    Some(Chain { target, events: events_in, roots })
}

/// What a player asks "why?" about: a unit's fall into disorder (or U),
/// rout (or FU), surrender, elimination or leaving the map.
pub fn is_fate(e: &Event) -> bool {
    e.gravity() > 0
}

/// The event to explain for `unit`: its worst fall (surrender or
/// elimination, then rout or flight, then disorder: [`Event::gravity`]),
/// the latest of equals; with `turn`, only that turn's. `None` if nothing
/// befell it.
pub fn fate_event(events: &[Event], unit: &str, turn: Option<u32>) -> Option<Seq> {
    events
        .iter()
        .filter(|e| turn.is_none_or(|t| e.turn == t))
        .filter(|e| e.worsens() == Some(unit))
        .max_by_key(|e| (e.gravity(), e.seq))
        .map(|e| e.seq)
}

pub use crate::events::{GONE, state_gravity};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{Cause, EventKind, EventLog};
    use crate::turn::Phase;
    use crate::vocab::State;

    fn change(unit: &str, to: State) -> EventKind {
        EventKind::StateChange { unit: unit.into(), from: State::GoodOrder, to, cause: Cause::Contagion }
    }

    #[test]
    fn a_chain_is_every_ancestor_in_log_order_with_its_roots() {
        let mut log = EventLog::default();
        log.set_stamp(1, None, Phase::Shocks);
        let a = log.push(EventKind::PhaseStart {});
        let b = log.push(change("x", State::Routed));
        let _unrelated = log.push(change("z", State::Disordered));
        let c = log.push_because(change("y", State::Disordered), &[b]);
        let d = log.push_because(change("y", State::Routed), &[c, a]);
        let ch = chain(&log.events, d).expect("the event exists");
        assert_eq!(ch.events, vec![a, b, c, d]);
        assert_eq!(ch.roots, vec![a, b]);
        assert!(ch.contains(c) && !ch.contains(2));
        assert!(chain(&log.events, 99).is_none());
    }

    #[test]
    fn the_fate_asked_about_is_the_worst_then_the_latest() {
        let mut log = EventLog::default();
        log.set_stamp(1, None, Phase::Shocks);
        let dis = log.push(change("y", State::Disordered));
        log.set_stamp(2, None, Phase::Shocks);
        let rout = log.push(change("y", State::Routed));
        log.push(EventKind::StateChange {
            unit: "y".into(),
            from: State::Routed,
            to: State::GoodOrder,
            cause: Cause::Recovery,
        });
        let dis2 = log.push(change("y", State::Disordered));
        assert_eq!(fate_event(&log.events, "y", None), Some(rout));
        assert_eq!(fate_event(&log.events, "y", Some(1)), Some(dis));
        assert_eq!(fate_event(&log.events, "y", Some(2)), Some(rout));
        assert_ne!(fate_event(&log.events, "y", None), Some(dis2));
        assert_eq!(fate_event(&log.events, "nobody", None), None);
    }
}
