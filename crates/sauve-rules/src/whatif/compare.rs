//! Two histories of one battle side by side (a game and its fork): the
//! units whose fate differs, the cascades found in one and not the other
//! (read off each log's cause graph), and the score of each.

use std::collections::BTreeSet;
use std::fmt;

use serde::Serialize;

use super::outcome::{ELIMINATED, ROUTED, SHAKEN, SURRENDERED, falls, states_after};
use crate::events::{Event, EventKind, Seq};
use crate::scenario::Scenario;
use crate::sentences::{Names, ScenarioNames};
use crate::vocab::State;
use crate::why::cascades::cascades;
use crate::why::graph::Graph;
use crate::why::text::{said, stamp};

/// A unit whose fate differs between the two histories.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FateDiff {
    pub unit: String,
    /// Where it ended in each history, and the falls it took (words).
    pub original: Fate,
    pub fork: Fate,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fate {
    pub state: State,
    pub falls: Vec<&'static str>,
}

/// A cascade of one history: what started it and the units it took.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CascadeDesc {
    pub start: Seq,
    pub turn: u32,
    pub said: String,
    pub units: Vec<String>,
}

/// The result each history came to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub winner: Option<String>,
    pub decisive: bool,
    pub points: Vec<u32>,
}

/// Two histories compared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Comparison {
    /// The events both share (the histories agree before it).
    pub agree_before: Seq,
    pub fates: Vec<FateDiff>,
    /// Cascades of the fork that the original does not have, and the
    /// original's that the fork lost (the same start and units count as
    /// the same cascade).
    pub appear: Vec<CascadeDesc>,
    pub vanish: Vec<CascadeDesc>,
    pub original: Option<Verdict>,
    pub fork: Option<Verdict>,
}

fn fate(scenario: &Scenario, events: &[Event]) -> Vec<Fate> {
    let bits = falls(scenario, events, 0);
    let words = [(SHAKEN, "shaken"), (ROUTED, "routed"), (SURRENDERED, "surrendered"), (ELIMINATED, "eliminated")];
    states_after(scenario, events)
        .into_iter()
        .zip(bits)
        .map(|(state, b)| Fate { state, falls: words.iter().filter(|(w, _)| b & w != 0).map(|(_, s)| *s).collect() })
        .collect()
}

fn described(scenario: &Scenario, events: &[Event]) -> Vec<CascadeDesc> {
    let names = ScenarioNames(scenario);
    let g = Graph::from_events(events);
    cascades(&g)
        .into_iter()
        .filter(|c| c.size() >= 2)
        .filter_map(|c| {
            let e = events.get(c.start as usize)?;
            Some(CascadeDesc {
                start: c.start,
                turn: e.turn,
                said: format!("{}: {}", stamp(e, &names), said(e, &names)),
                units: c.units.iter().map(|&u| g.unit_id(u).to_owned()).collect(),
            })
        })
        .collect()
}

fn verdict(events: &[Event]) -> Option<Verdict> {
    events.iter().rev().find_map(|e| match &e.kind {
        EventKind::GameOver { winner, decisive, points, .. } => {
            Some(Verdict { winner: winner.clone(), decisive: *decisive, points: points.clone() })
        }
        _ => None,
    })
}

/// Where two logs part: the first event that differs (by everything but
/// its place), or the shorter one's length.
fn parting(a: &[Event], b: &[Event]) -> Seq {
    a.iter().zip(b).take_while(|(x, y)| x == y).count() as Seq
}

/// Compares a game's log with its fork's.
pub fn compare(scenario: &Scenario, original: &[Event], fork: &[Event]) -> Comparison {
    let (a, b) = (fate(scenario, original), fate(scenario, fork));
    let fates = scenario
        .units
        .iter()
        .zip(a.into_iter().zip(b))
        .filter(|(_, (x, y))| x != y)
        .map(|(u, (original, fork))| FateDiff { unit: u.id.clone(), original, fork })
        .collect();
    let (ca, cb) = (described(scenario, original), described(scenario, fork));
    // The same cascade in both: started by the same words at the same
    // moment, taking the same units.
    let key = |c: &CascadeDesc| (c.said.clone(), c.units.iter().cloned().collect::<BTreeSet<_>>());
    let keys_a: BTreeSet<_> = ca.iter().map(key).collect();
    let keys_b: BTreeSet<_> = cb.iter().map(key).collect();
    Comparison {
        agree_before: parting(original, fork),
        fates,
        appear: cb.iter().filter(|c| !keys_a.contains(&key(c))).cloned().collect(),
        vanish: ca.iter().filter(|c| !keys_b.contains(&key(c))).cloned().collect(),
        original: verdict(original),
        fork: verdict(fork),
    }
}

/// The comparison in words, with the scenario's names.
pub struct Words<'a>(pub &'a Comparison, pub &'a Scenario);

impl fmt::Display for Words<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (c, s) = (self.0, self.1);
        let names = ScenarioNames(s);
        let fate_words = |x: &Fate| {
            let falls = if x.falls.is_empty() { "no fall".to_owned() } else { x.falls.join(", ") };
            format!("ends {} ({falls})", crate::sentences::state_words(x.state))
        };
        writeln!(f, "The histories agree up to event {}.", c.agree_before)?;
        if c.fates.is_empty() {
            writeln!(f, "No unit's fate differs.")?;
        } else {
            match c.fates.len() {
                1 => writeln!(f, "1 unit's fate differs:")?,
                n => writeln!(f, "{n} units' fates differ:")?,
            }
            for d in &c.fates {
                writeln!(
                    f,
                    "  {}: original {}; fork {}",
                    names.name(&d.unit),
                    fate_words(&d.original),
                    fate_words(&d.fork)
                )?;
            }
        }
        for (title, list) in [("Cascades that appear in the fork", &c.appear), ("Cascades that vanish", &c.vanish)] {
            if list.is_empty() {
                writeln!(f, "{title}: none.")?;
                continue;
            }
            writeln!(f, "{title}:")?;
            for k in list {
                writeln!(f, "  {} units from {} (#{}): {}", k.units.len(), k.said, k.start, k.units.join(", "))?;
            }
        }
        let verdict = |v: &Option<Verdict>| match v {
            None => "no result (the game goes on)".to_owned(),
            Some(v) => {
                let pts: Vec<String> =
                    s.sides.iter().zip(&v.points).map(|(side, p)| format!("{} {p}", side.id)).collect();
                let who =
                    v.winner.as_deref().map_or_else(|| "a draw".to_owned(), |w| format!("{} wins", names.side(w)));
                format!("{who}{}, points {}", if v.decisive { " outright" } else { "" }, pts.join(", "))
            }
        };
        writeln!(f, "Score: original {}; fork {}.", verdict(&c.original), verdict(&c.fork))
    }
}
