//! The dice of a fork: every roll a game made, in the order the dice gave
//! them, with one changed. Every roll the dice make is written in exactly
//! one event (a morale check, a fire combat, a melee), and [`rolls_of`]
//! says which rolls each kind of event holds, so the log gives them all
//! back; played as a `--dice` script with the game's seed, they are the
//! same game, and with one changed they are its fork: that roll reads
//! otherwise and the rest come as they would (past the game's last roll
//! the seed's generator continues, as after any script).

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::dice::D66;
use crate::events::{Event, EventKind, MeleeRolls, Seq};

/// Which of an event's rolls: the only roll of a check or a fire combat
/// (and of a hex melee, one d66 on the table), or one side's 3d6 of a
/// free-space melee, where attacker and defender each roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Which {
    Roll,
    Attack,
    Defence,
}

impl Which {
    pub fn word(self) -> &'static str {
        match self {
            Which::Roll => "roll",
            Which::Attack => "attack",
            Which::Defence => "defence",
        }
    }
}

impl fmt::Display for Which {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl FromStr for Which {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "roll" => Ok(Which::Roll),
            "attack" | "attacker" => Ok(Which::Attack),
            "defence" | "defense" | "defender" => Ok(Which::Defence),
            _ => Err(format!("'{s}' is not a roll of an event: roll, attack or defence")),
        }
    }
}

/// One roll of the game: the event that holds it and which of its rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct RollAt {
    pub seq: Seq,
    pub which: Which,
}

/// The rolls an event holds, in the order the dice made them, as `--dice`
/// reads them (a d66 value in hex mode, a 3d6 total in free space); empty
/// for an event that rolled nothing. Every kind is named here, so a new
/// kind cannot hold a roll this function forgets.
pub fn rolls_of(e: &Event) -> Vec<(Which, u32)> {
    match &e.kind {
        EventKind::MoraleCheck { roll, .. } => vec![(Which::Roll, u32::from(*roll))],
        EventKind::Fire { rolled, .. } => vec![(Which::Roll, u32::from(rolled.roll()))],
        EventKind::Melee { rolls, .. } => match rolls {
            MeleeRolls::Hex { roll, .. } => vec![(Which::Roll, u32::from(*roll))],
            MeleeRolls::FreeSpace { attack_roll, defence_roll, .. } => {
                vec![(Which::Attack, u32::from(*attack_roll)), (Which::Defence, u32::from(*defence_roll))]
            }
        },
        EventKind::PhaseStart {}
        | EventKind::StateChange { .. }
        | EventKind::Move { .. }
        | EventKind::Readiness { .. }
        | EventKind::Surrendered { .. }
        | EventKind::Eliminated { .. }
        | EventKind::LeftMap { .. }
        | EventKind::Losses { .. }
        | EventKind::Exited { .. }
        | EventKind::CorpsBroken { .. }
        | EventKind::LeaderJoined { .. }
        | EventKind::GameOver { .. }
        | EventKind::ReplayError { .. }
        | EventKind::Formation { .. }
        | EventKind::Facing { .. }
        | EventKind::Attack { .. }
        | EventKind::Valour { .. }
        | EventKind::GunsCaptured { .. }
        | EventKind::Final { .. } => Vec::new(),
    }
}

/// The roll `which` of an event, if it holds one.
pub fn roll_of(e: &Event, which: Which) -> Option<u32> {
    rolls_of(e).into_iter().find(|&(w, _)| w == which).map(|(_, r)| r)
}

/// Every roll of a log with where it is, in the order rolled.
pub fn rolls(events: &[Event]) -> Vec<(RollAt, u32)> {
    events
        .iter()
        .flat_map(|e| rolls_of(e).into_iter().map(move |(which, r)| (RollAt { seq: e.seq, which }, r)))
        .collect()
}

/// Every roll of a log as a `--dice` script: played with the game's seed,
/// the same game.
pub fn script(events: &[Event]) -> Vec<u32> {
    rolls(events).into_iter().map(|(_, r)| r).collect()
}

/// Why a fork cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForkError {
    /// No event has that `seq` (the log has `len` events).
    NoEvent { seq: Seq, len: usize },
    /// The event rolled no die; the rolled events nearest it.
    NotRolled { seq: Seq, kind: String, nearest: Vec<Seq> },
    /// The event holds more than one roll and none was named, or another
    /// than it holds was: the rolls it has.
    WhichRoll { seq: Seq, asked: Option<Which>, has: Vec<Which> },
    /// The new roll is not one the die can show.
    BadRoll { roll: u32, d66: bool },
    /// The event already rolled that.
    SameRoll { seq: Seq, roll: u32 },
    /// The fork's history parted from the original's before the changed
    /// roll (at event `parted`): it would not be the same game up to it.
    PartedEarly { at: Seq, parted: Seq },
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
            ForkError::WhichRoll { seq, asked, has } => {
                let has: Vec<&str> = has.iter().map(|w| w.word()).collect();
                match asked {
                    None => write!(
                        f,
                        "--at {seq}: event {seq} holds two rolls; say which with --which {}",
                        has.join(" or ")
                    ),
                    Some(w) => write!(f, "--which {w}: event {seq} has no {w} roll; it has {}", has.join(", ")),
                }
            }
            ForkError::BadRoll { roll, d66: true } => {
                write!(f, "--roll {roll}: not a d66 result (11..66, each digit 1..6)")
            }
            ForkError::BadRoll { roll, d66: false } => write!(f, "--roll {roll}: not a 3d6 total (3..18)"),
            ForkError::SameRoll { seq, roll } => {
                write!(f, "--roll {roll}: event {seq} rolled {roll} already; a fork needs another roll")
            }
            ForkError::PartedEarly { at, parted } => write!(
                f,
                "--at {at}: the fork's history parts from the original's at event {parted}, before the changed roll; \
                 this game's log does not give back all its dice (please report it)"
            ),
        }
    }
}

/// Which roll of `event` a fork at `which` (or at its only roll) changes.
pub fn pick(event: &Event, which: Option<Which>) -> Result<Which, ForkError> {
    let has: Vec<Which> = rolls_of(event).into_iter().map(|(w, _)| w).collect();
    match which {
        None if has.len() == 1 => Ok(has[0]),
        Some(w) if has.contains(&w) => Ok(w),
        // A roll named `roll` of an event with only one means that one.
        Some(Which::Roll) if has.len() == 1 => Ok(has[0]),
        asked => Err(ForkError::WhichRoll { seq: event.seq, asked, has }),
    }
}

/// The dice script of the fork of `events` where event `at`'s roll
/// `which` (its only roll when `None`) reads `roll` instead: every roll of
/// the game in order, that one changed. `d66` says which die the game
/// rolls (hex mode).
pub fn forked_script(
    events: &[Event],
    at: Seq,
    which: Option<Which>,
    roll: u32,
    d66: bool,
) -> Result<Vec<u32>, ForkError> {
    let Some(event) = events.get(at as usize).filter(|e| e.seq == at) else {
        return Err(ForkError::NoEvent { seq: at, len: events.len() });
    };
    let all = rolls(events);
    if rolls_of(event).is_empty() {
        let mut nearest: Vec<Seq> = all.iter().map(|&(r, _)| r.seq).collect();
        nearest.dedup();
        nearest.sort_by_key(|&s| (s.abs_diff(at), s));
        nearest.truncate(3);
        nearest.sort_unstable();
        let kind = serde_json::to_value(&event.kind)
            .ok()
            .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_owned))
            .unwrap_or_else(|| "event".to_owned());
        return Err(ForkError::NotRolled { seq: at, kind, nearest });
    }
    let which = pick(event, which)?;
    let legal = if d66 { D66::from_value(roll).is_some() } else { (3..=18).contains(&roll) };
    if !legal {
        return Err(ForkError::BadRoll { roll, d66 });
    }
    let Some(index) = all.iter().position(|&(r, _)| r == RollAt { seq: at, which }) else {
        return Err(ForkError::WhichRoll { seq: at, asked: Some(which), has: Vec::new() });
    };
    if all[index].1 == roll {
        return Err(ForkError::SameRoll { seq: at, roll });
    }
    let mut script: Vec<u32> = all.into_iter().map(|(_, r)| r).collect();
    script[index] = roll;
    Ok(script)
}
