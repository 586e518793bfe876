//! What the fork panel offers (pure): the rolled events of the log up to
//! the moment shown, worded as the log words them, and for one of them
//! every roll its die could have shown instead, each marked with what a
//! morale check would have made of it (docs/rules.md 1.1).

use crate::dice::{D66, morale_check};
use crate::events::{Event, EventKind};
use crate::scenario::{Mode, Scenario};
use crate::sentences::ScenarioNames;
use crate::whatif::reroll::{RollAt, Which, roll_of, rolls_of};
use crate::why::text::{said, stamp};

/// A roll the panel lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rolled {
    pub at: RollAt,
    pub roll: u32,
    /// "turn 1, shocks: ..." as the log says it.
    pub text: String,
}

/// The last `n` rolls among the first `cursor` events of `events`, newest
/// first: one line for each roll, so a free-space melee lists its
/// attacker's and its defender's.
pub fn rolled_before(scenario: &Scenario, events: &[Event], cursor: usize, n: usize) -> Vec<Rolled> {
    let names = &ScenarioNames(scenario);
    events[..cursor.min(events.len())]
        .iter()
        .rev()
        .flat_map(|e| {
            let rolls = rolls_of(e);
            let two = rolls.len() > 1;
            rolls.into_iter().rev().map(move |(which, roll)| {
                let whose = if two { format!(" ({which}: {roll})") } else { String::new() };
                Rolled {
                    at: RollAt { seq: e.seq, which },
                    roll,
                    text: format!("{}: {}{whose}", stamp(e, names), said(e, names)),
                }
            })
        })
        .take(n)
        .collect()
}

/// One roll the picker offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub roll: u32,
    /// What a hex morale check would make of it (pass or fail); `None`
    /// for a volley, a melee or a free-space check.
    pub passes: Option<bool>,
    /// The roll the event made (no fork: the same history).
    pub same: bool,
}

/// Every roll the event's die can show: the 36 d66 results in hex mode
/// (in rows of six, 11 to 66), the 3d6 totals 3 to 18 in free space.
pub fn roll_choices(scenario: &Scenario, e: &Event, which: Which) -> Vec<Choice> {
    let was = roll_of(e, which);
    let check = match &e.kind {
        EventKind::MoraleCheck { morale, modifier, .. } if scenario.mode == Mode::Hex => Some((*morale, *modifier)),
        _ => None,
    };
    let rolls: Vec<u32> = match scenario.mode {
        Mode::Hex => (1..=6).flat_map(|t| (1..=6).map(move |u| t * 10 + u)).collect(),
        Mode::FreeSpace => (3..=18).collect(),
    };
    rolls
        .into_iter()
        .map(|roll| {
            let passes = check.and_then(|(morale, modifier)| {
                let d = D66::from_value(roll)?;
                Some(morale_check(morale, modifier, d, scenario.rules.natural_extremes).passed)
            });
            Choice { roll, passes, same: was == Some(roll) }
        })
        .collect()
}
