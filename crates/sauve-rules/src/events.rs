//! The event log (CONTRACT.md section 3): the single record every rule writes
//! to. The command line, the battle log panel, replays and the tests all read
//! it. Written as JSON Lines.

use std::io::Write;

use serde::Serialize;

use crate::rules::combat::MeleeResult;
use crate::turn::Phase;
use crate::vocab::{Readiness, Shape, State};

/// A position: `[c, r]` in hex mode, `[x, y]` in cm in free-space mode.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Pos {
    Hex([i32; 2]),
    Cm([f32; 2]),
}

impl From<crate::hex::Offset> for Pos {
    fn from(o: crate::hex::Offset) -> Self {
        Pos::Hex([o.c, o.r])
    }
}

/// What made a unit check morale or change state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Cause {
    Recovery,
    Contagion,
    Fire,
    Melee,
    Charge,
    Shock,
    /// Retreating involuntarily through an enemy cavalry zone (rule 1.4).
    CavalryZone,
    CarryAlong,
    Reorganisation,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MoveReason {
    Rout,
    Disorder,
    Recovery,
    Order,
    Flight,
    CarriedAlong,
    /// Into the hex a defeated defender left.
    Advance,
    /// A cavalry charge's approach.
    Charge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum EliminationReason {
    OffMap,
    Losses,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FinalUnit {
    pub id: String,
    pub side: String,
    pub state: State,
    pub at: Option<Pos>,
}

/// What happened. The variant name is the event's `kind`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind")]
pub enum EventKind {
    /// A phase begins (lets viewers step phase by phase).
    PhaseStart {},
    MoraleCheck {
        unit: String,
        cause: Cause,
        morale: u8,
        modifier: i32,
        roll: u8,
        result: u8,
        passed: bool,
        /// The unit whose move caused a contagion check.
        #[serde(skip_serializing_if = "Option::is_none")]
        source: Option<String>,
    },
    StateChange {
        unit: String,
        from: State,
        to: State,
        cause: Cause,
    },
    Move {
        unit: String,
        reason: MoveReason,
        from: Pos,
        to: Pos,
        path: Vec<Pos>,
    },
    Readiness {
        unit: String,
        from: Readiness,
        to: Readiness,
    },
    Surrendered {
        unit: String,
    },
    Eliminated {
        unit: String,
        reason: EliminationReason,
    },
    /// A router left the map across an edge that allows off-map recovery.
    LeftMap {
        unit: String,
        edge: crate::hex::Edge,
    },
    /// Strength increments lost to fire or melee.
    Losses {
        unit: String,
        increments: u32,
        strength: u32,
    },
    /// A fire combat: who fired at whom, the table column and the roll.
    Fire {
        units: Vec<String>,
        target: String,
        firepower: f32,
        column: usize,
        roll: u8,
        total: u8,
        result: String,
    },
    /// A melee: attackers, defenders, odds column, modified total and result.
    Melee {
        attackers: Vec<String>,
        defenders: Vec<String>,
        odds: String,
        roll: u8,
        modifier: i32,
        total: i32,
        result: MeleeResult,
    },
    /// A unit marched off the map by order across an exit edge (victory).
    Exited {
        unit: String,
        edge: crate::hex::Edge,
        increments: u32,
    },
    /// A corps has lost enough battalions, routed or gone, to break
    /// (checked at the start of each turn, RULES.md 1.6).
    CorpsBroken {
        corps: String,
        side: String,
        gone: u32,
        routed: u32,
    },
    /// A leader whose unit left the board or routed rides to another.
    LeaderJoined {
        leader: String,
        unit: String,
    },
    /// The battle is over: the winner (none for a draw), whether outright
    /// (the enemy army broke), each side's points and how they were made.
    GameOver {
        winner: Option<String>,
        decisive: bool,
        points: Vec<u32>,
        detail: Vec<String>,
    },
    /// A saved order that could not be carried out on replay: the order,
    /// why not, its place in the save's `orders` (from 0) and the units it
    /// was given to.
    ReplayError {
        order: String,
        error: String,
        index: usize,
        units: Vec<String>,
    },
    /// A change of formation, or limbering (`Limbered`/`Unlimbered`).
    Formation {
        unit: String,
        from: Shape,
        to: Shape,
    },
    /// A unit turned to face another hexside (rule 1.7), by order.
    Facing {
        unit: String,
        from: crate::hex::Dir,
        to: crate::hex::Dir,
    },
    Final {
        units: Vec<FinalUnit>,
    },
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    pub seq: u64,
    pub turn: u32,
    pub side: Option<String>,
    pub phase: Phase,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// Where in the turn events are being written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stamp {
    pub turn: u32,
    pub side: Option<String>,
    pub phase: Phase,
}

/// The log itself: events in order, stamped with the current turn, side and
/// phase.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    pub events: Vec<Event>,
    pub stamp: Stamp,
}

impl EventLog {
    pub fn set_stamp(&mut self, turn: u32, side: Option<&str>, phase: Phase) {
        self.stamp = Stamp { turn, side: side.map(str::to_owned), phase };
    }

    pub fn push(&mut self, kind: EventKind) {
        let seq = self.events.len() as u64;
        self.events.push(Event {
            seq,
            turn: self.stamp.turn,
            side: self.stamp.side.clone(),
            phase: self.stamp.phase,
            kind,
        });
    }

    /// JSON Lines, one event per line.
    pub fn write_jsonl(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for e in &self.events {
            serde_json::to_writer(&mut *out, e)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    pub fn to_jsonl(&self) -> String {
        let mut buf = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = self.write_jsonl(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_serialise_flat_with_the_envelope_first() {
        let mut log = EventLog::default();
        log.set_stamp(2, Some("fr"), Phase::MoraleRecovery);
        log.push(EventKind::Move {
            unit: "a".into(),
            reason: MoveReason::Rout,
            from: Pos::Hex([1, 2]),
            to: Pos::Hex([1, 3]),
            path: vec![Pos::Hex([1, 2]), Pos::Hex([1, 3])],
        });
        log.set_stamp(3, None, Phase::Shocks);
        log.push(EventKind::Surrendered { unit: "b".into() });
        let text = log.to_jsonl();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            r#"{"seq":0,"turn":2,"side":"fr","phase":"MoraleRecovery","kind":"Move","unit":"a","reason":"Rout","from":[1,2],"to":[1,3],"path":[[1,2],[1,3]]}"#
        );
        assert_eq!(lines[1], r#"{"seq":1,"turn":3,"side":null,"phase":"Shocks","kind":"Surrendered","unit":"b"}"#);
    }
}
