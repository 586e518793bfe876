//! The dice of a fork: every roll a game made, in the order the dice gave
//! them, with one changed. Every roll the dice make is written in exactly
//! one event (a morale check, a volley, a melee), so the log gives them
//! all back; played as a `--dice` script with the game's seed, they are
//! the same game, and with one changed they are its fork: that roll
//! reads otherwise and the rest come as they would (past the game's last
//! roll the seed's generator continues, as after any script).

use std::fmt;

use crate::dice::D66;
use crate::events::{Event, EventKind, Seq};

/// The roll an event made, as `--dice` reads it (a d66 value in hex mode,
/// a 3d6 total in free space); `None` for an event that rolled nothing.
pub fn roll_of(e: &Event) -> Option<u32> {
    match &e.kind {
        EventKind::MoraleCheck { roll, .. } | EventKind::Fire { roll, .. } | EventKind::Melee { roll, .. } => {
            Some(u32::from(*roll))
        }
        _ => None,
    }
}

/// Every roll of a log with the event that made it, in the order rolled.
pub fn rolls(events: &[Event]) -> Vec<(Seq, u32)> {
    events.iter().filter_map(|e| roll_of(e).map(|r| (e.seq, r))).collect()
}

/// Why a fork cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForkError {
    /// No event has that `seq` (the log has `len` events).
    NoEvent { seq: Seq, len: usize },
    /// The event rolled no die; the rolled events nearest it.
    NotRolled { seq: Seq, kind: String, nearest: Vec<Seq> },
    /// The new roll is not one the die can show.
    BadRoll { roll: u32, d66: bool },
    /// The event already rolled that.
    SameRoll { seq: Seq, roll: u32 },
}

impl fmt::Display for ForkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ForkError::NoEvent { seq, len } => write!(f, "--at {seq}: the game has events 0..{len}, no event {seq}"),
            ForkError::NotRolled { seq, kind, nearest } => {
                let near: Vec<String> = nearest.iter().map(Seq::to_string).collect();
                write!(
                    f,
                    "--at {seq}: event {seq} is a {kind}, which rolls no die; the nearest rolled events are {}",
                    if near.is_empty() { "none (nothing was rolled)".to_owned() } else { near.join(", ") }
                )
            }
            ForkError::BadRoll { roll, d66: true } => {
                write!(f, "--roll {roll}: not a d66 result (11..66, each digit 1..6)")
            }
            ForkError::BadRoll { roll, d66: false } => write!(f, "--roll {roll}: not a 3d6 total (3..18)"),
            ForkError::SameRoll { seq, roll } => {
                write!(f, "--roll {roll}: event {seq} rolled {roll} already; a fork needs another roll")
            }
        }
    }
}

/// The dice script of the fork of `events` where event `at` rolls `roll`
/// instead: every roll of the game in order, that one changed. `d66`
/// says which die the game rolls (hex mode).
pub fn forked_script(events: &[Event], at: Seq, roll: u32, d66: bool) -> Result<Vec<u32>, ForkError> {
    let Some(event) = events.get(at as usize).filter(|e| e.seq == at) else {
        return Err(ForkError::NoEvent { seq: at, len: events.len() });
    };
    let all = rolls(events);
    let Some(index) = all.iter().position(|&(s, _)| s == at) else {
        let mut nearest: Vec<Seq> = all.iter().map(|&(s, _)| s).collect();
        nearest.sort_by_key(|&s| (s.abs_diff(at), s));
        nearest.truncate(3);
        nearest.sort_unstable();
        let kind = serde_json::to_value(&event.kind)
            .ok()
            .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_owned))
            .unwrap_or_else(|| "event".to_owned());
        return Err(ForkError::NotRolled { seq: at, kind, nearest });
    };
    let legal = if d66 { D66::from_value(roll).is_some() } else { (3..=18).contains(&roll) };
    if !legal {
        return Err(ForkError::BadRoll { roll, d66 });
    }
    if all[index].1 == roll {
        return Err(ForkError::SameRoll { seq: at, roll });
    }
    let mut script: Vec<u32> = all.into_iter().map(|(_, r)| r).collect();
    script[index] = roll;
    Ok(script)
}
