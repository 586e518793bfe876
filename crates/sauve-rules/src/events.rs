//! The event log (docs/event-log.md): the single record every rule writes
//! to. The command line, the battle log panel, replays and the tests all read
//! it. Written as JSON Lines.

use std::io::Write;

use serde::{Deserialize, Serialize};

use crate::rules::combat::{FireResult, MeleeResult};
use crate::turn::Phase;
use crate::vocab::{Readiness, Shape, State};

/// A position: `[c, r]` in hex mode, `[x, y]` in cm in free-space mode.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
    /// Free space: losses cost the unit a point of valour and it failed the
    /// test that follows (docs/rules.md 2.2.4, docs/rules.md 2.10).
    Valour,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EliminationReason {
    OffMap,
    Losses,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinalUnit {
    pub id: String,
    pub side: String,
    pub state: State,
    pub at: Option<Pos>,
}

/// What a unit lost: strength increments (hex mode) or figures (free
/// space), and how many it has left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Lost {
    Increments { increments: u32, strength: u32 },
    Figures { figures: u32, left: u32 },
}

impl Lost {
    /// (lost, left), whatever they count.
    pub fn counts(self) -> (u32, u32) {
        match self {
            Lost::Increments { increments, strength } => (increments, strength),
            Lost::Figures { figures, left } => (figures, left),
        }
    }
}

/// How a fire combat read its roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FireRoll {
    /// Hex mode (docs/rules.md 1.9): the
    /// firers' firepower and table column, the d66 rolled, its two dice
    /// added, and the table's cell.
    Hex { firepower: f32, column: usize, roll: u8, total: u8, result: FireResult },
    /// Free space (docs/rules.md 2.8): the fire points, the modifier they
    /// and the target give, the natural 3d6, the total, and the figures
    /// and state it costs.
    FreeSpace { points: f32, modifier: i32, roll: u8, total: i32, figures: u32, state: State },
}

impl FireRoll {
    /// The natural roll.
    pub fn roll(&self) -> u8 {
        match self {
            FireRoll::Hex { roll, .. } | FireRoll::FreeSpace { roll, .. } => *roll,
        }
    }
}

/// How a melee was rolled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MeleeRolls {
    /// Hex mode (docs/rules.md 1.9): one d66 read as two dice added, on
    /// the odds column, with the modifier, the total and the table's
    /// result.
    Hex { odds: String, roll: u8, modifier: i32, total: i32, result: MeleeResult },
    /// Free space (docs/rules.md 2.9): each side's natural 3d6 and total;
    /// the loser (`None`: a draw), the figures and state it costs.
    FreeSpace {
        attack_roll: u8,
        attack_total: i32,
        defence_roll: u8,
        defence_total: i32,
        loser: Option<String>,
        figures: u32,
        state: State,
    },
}

/// Which way a unit faces: a hexside in hex mode, degrees clockwise from
/// north on a table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Heading {
    Hexside(crate::hex::Dir),
    Degrees(f32),
}

/// What happened. The variant name is the event's `kind`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// Strength lost to fire or melee: increments in hex mode, figures on
    /// a table, and what the unit has left.
    Losses {
        unit: String,
        #[serde(flatten)]
        lost: Lost,
    },
    /// A fire combat: who fired at whom and the roll; the table's reading
    /// of it is each mode's (see [`FireRoll`]).
    Fire {
        units: Vec<String>,
        target: String,
        #[serde(flatten)]
        rolled: FireRoll,
    },
    /// A melee: attackers and defenders, the dice and the result, each
    /// mode's (see [`MeleeRolls`]).
    Melee {
        attackers: Vec<String>,
        defenders: Vec<String>,
        #[serde(flatten)]
        rolls: MeleeRolls,
    },
    /// A unit marched off the map by order across an exit edge (victory).
    Exited {
        unit: String,
        edge: crate::hex::Edge,
        increments: u32,
    },
    /// A corps has lost enough battalions, routed or gone, to break
    /// (checked at the start of each turn, docs/rules.md 1.6).
    CorpsBroken {
        corps: String,
        /// The side whose corps (or, on a table, whose army) it is.
        army: String,
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
    /// A unit turned to face another hexside (rule 1.7) or, on a table, a
    /// new bearing, by order or for a charge.
    Facing {
        unit: String,
        from: Heading,
        to: Heading,
    },
    /// An order to attack (a melee, or a charge and the melee it rides
    /// into): the units sent and the enemy they go for. The attack's own
    /// checks (pre-melee checks, a charged battalion's square) follow
    /// from it.
    Attack {
        attackers: Vec<String>,
        target: String,
        charge: bool,
    },
    /// Free space: losses cost a unit valour (one point per 20% of its
    /// starting figures lost, docs/rules.md 2.10).
    Valour {
        unit: String,
        from: i32,
        to: i32,
    },
    /// Free space: an enemy took the guns a battery's fleeing crew left
    /// (docs/rules.md 2.2.7); `at` where they stood.
    GunsCaptured {
        unit: String,
        by: String,
        at: Pos,
    },
    Final {
        units: Vec<FinalUnit>,
    },
}

/// An event's place in the log: its `seq`.
pub type Seq = u64;

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    pub seq: Seq,
    pub turn: u32,
    pub side: Option<String>,
    pub phase: Phase,
    #[serde(flatten)]
    pub kind: EventKind,
    /// The events this one follows from (docs/event-log.md), all
    /// earlier in the log; empty for a root: a phase start, an order, a
    /// scripted shock. Left out of the line when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub because: Vec<Seq>,
}

/// The envelope of a line, read apart from its kind.
#[derive(Deserialize)]
struct Envelope {
    seq: Seq,
    turn: u32,
    #[serde(default)]
    side: Option<String>,
    phase: Phase,
    #[serde(default)]
    because: Vec<Seq>,
}

/// The kinds of the first vocabulary (before one kind per idea, docs/why.md)
/// and the kind each is now: a log written then reads as if written now.
const RENAMED: [(&str, &str); 4] =
    [("Volley", "Fire"), ("Clash", "Melee"), ("Casualties", "Losses"), ("Turned", "Facing")];

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        use serde_json::Value;
        let mut map = serde_json::Map::<String, Value>::deserialize(d)?;
        let mut envelope = serde_json::Map::new();
        for key in ["seq", "turn", "phase", "because", "side"] {
            if let Some(v) = map.remove(key) {
                envelope.insert(key.to_owned(), v);
            }
        }
        if let Some(Value::String(kind)) = map.get_mut("kind") {
            if let Some((_, now)) = RENAMED.iter().find(|(was, _)| kind == was) {
                *kind = (*now).to_owned();
            }
            // The first vocabulary wrote a corps' side under the envelope's
            // key, twice in one object; a JSON object keeps the last, the
            // corps' (the envelope's was always null: corps break in the
            // shocks segment, which no side has).
            if kind == "CorpsBroken" && !map.contains_key("army") {
                let army = envelope.insert("side".to_owned(), Value::Null).unwrap_or(Value::Null);
                map.insert("army".to_owned(), army);
            }
        }
        let e = Envelope::deserialize(Value::Object(envelope)).map_err(D::Error::custom)?;
        let kind = EventKind::deserialize(Value::Object(map)).map_err(D::Error::custom)?;
        Ok(Event { seq: e.seq, turn: e.turn, side: e.side, phase: e.phase, kind, because: e.because })
    }
}

/// The gravity of a surrender, an elimination or leaving the map.
pub const GONE: u8 = 3;

/// How bad a change of state to `to` is for its unit: [`GONE`], 2 routed
/// or fleeing (FU), 1 shaken (disordered, U, LU), 0 for a rally.
pub fn state_gravity(to: State) -> u8 {
    match to {
        State::Surrendered | State::Eliminated => GONE,
        State::Routed | State::FU => 2,
        State::Disordered | State::U | State::LU => 1,
        State::GoodOrder | State::Order => 0,
    }
}

impl Event {
    /// How bad a fall this event is for its unit (see [`state_gravity`]);
    /// 0 for an event that is no fall.
    pub fn gravity(&self) -> u8 {
        match &self.kind {
            EventKind::Surrendered { .. } | EventKind::Eliminated { .. } | EventKind::LeftMap { .. } => GONE,
            EventKind::StateChange { to, .. } => state_gravity(*to),
            _ => 0,
        }
    }

    /// The unit whose lot this event changes for the worse (its gravity is
    /// above 0): a state change to a shaken state, a surrender, an
    /// elimination, leaving the map.
    pub fn worsens(&self) -> Option<&str> {
        if self.gravity() == 0 {
            return None;
        }
        match &self.kind {
            EventKind::StateChange { unit, .. }
            | EventKind::Surrendered { unit }
            | EventKind::Eliminated { unit, .. }
            | EventKind::LeftMap { unit, .. } => Some(unit),
            _ => None,
        }
    }
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
    /// The latest `PhaseStart` written (see [`EventLog::phase_start`]).
    phase_start: Option<Seq>,
    /// Per unit id, its latest fall (see [`EventLog::last_fall`]).
    falls: std::collections::HashMap<String, Seq>,
}

impl EventLog {
    pub fn set_stamp(&mut self, turn: u32, side: Option<&str>, phase: Phase) {
        self.stamp = Stamp { turn, side: side.map(str::to_owned), phase };
    }

    /// Writes a root event (one that follows from no other) and returns its
    /// `seq`.
    pub fn push(&mut self, kind: EventKind) -> Seq {
        self.push_because(kind, &[])
    }

    /// Writes an event that follows from `because` (earlier events' `seq`)
    /// and returns its own `seq`.
    pub fn push_because(&mut self, kind: EventKind, because: &[Seq]) -> Seq {
        let seq = self.events.len() as Seq;
        debug_assert!(because.iter().all(|&b| b < seq), "a cause comes before its effect");
        if matches!(kind, EventKind::PhaseStart {}) {
            self.phase_start = Some(seq);
        }
        let e = Event {
            seq,
            turn: self.stamp.turn,
            side: self.stamp.side.clone(),
            phase: self.stamp.phase,
            kind,
            because: because.to_vec(),
        };
        if let Some(unit) = e.worsens() {
            self.falls.insert(unit.to_owned(), seq);
        }
        self.events.push(e);
        seq
    }

    /// The latest event that made `unit`'s lot worse ([`Event::worsens`]):
    /// what a recovery or reorganisation roll of a shaken unit follows
    /// from, beside its segment.
    pub fn last_fall(&self, unit: &str) -> Option<Seq> {
        self.falls.get(unit).copied()
    }

    /// Keeps only the first `len` events (an order refused or taken back).
    pub fn truncate(&mut self, len: usize) {
        if len >= self.events.len() {
            return;
        }
        self.events.truncate(len);
        self.phase_start = self.events.iter().rev().find(|e| matches!(e.kind, EventKind::PhaseStart {})).map(|e| e.seq);
        self.falls.clear();
        for e in &self.events {
            if let Some(unit) = e.worsens() {
                self.falls.insert(unit.to_owned(), e.seq);
            }
        }
    }

    /// The `seq` of the latest `PhaseStart`: what a segment's own checks
    /// (recovery, reorganisation) follow from. Empty when none was written.
    pub fn phase_start(&self) -> Vec<Seq> {
        self.phase_start.into_iter().collect()
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

    /// A log of the first vocabulary (before one kind per idea) reads as
    /// the same events written now: its table kinds renamed, a broken
    /// corps' side, written then under the envelope's key, as its army.
    #[test]
    fn a_log_of_the_first_vocabulary_reads_as_the_same_events() {
        let old = [
            r#"{"seq":44,"turn":1,"side":"fr","phase":"OffensiveFire","kind":"Volley","units":["a","b"],"target":"t","points":6.5,"modifier":2,"roll":11,"total":13,"figures":2,"state":"LU"}"#,
            r#"{"seq":45,"turn":1,"side":"fr","phase":"Melee","kind":"Clash","attackers":["a"],"defenders":["t"],"attack_roll":9,"attack_total":12,"defence_roll":7,"defence_total":8,"loser":"t","figures":1,"state":"U","because":[44]}"#,
            r#"{"seq":46,"turn":1,"side":"fr","phase":"Melee","kind":"Casualties","unit":"t","figures":1,"left":5,"because":[45]}"#,
            r#"{"seq":47,"turn":1,"side":"fr","phase":"Movement","kind":"Turned","unit":"a","from":0.0,"to":45.0}"#,
            r#"{"seq":48,"turn":2,"side":null,"phase":"Shocks","kind":"CorpsBroken","corps":"I","side":"fr","gone":2,"routed":1,"because":[46]}"#,
        ];
        let new = [
            r#"{"seq":44,"turn":1,"side":"fr","phase":"OffensiveFire","kind":"Fire","units":["a","b"],"target":"t","points":6.5,"modifier":2,"roll":11,"total":13,"figures":2,"state":"LU"}"#,
            r#"{"seq":45,"turn":1,"side":"fr","phase":"Melee","kind":"Melee","attackers":["a"],"defenders":["t"],"attack_roll":9,"attack_total":12,"defence_roll":7,"defence_total":8,"loser":"t","figures":1,"state":"U","because":[44]}"#,
            r#"{"seq":46,"turn":1,"side":"fr","phase":"Melee","kind":"Losses","unit":"t","figures":1,"left":5,"because":[45]}"#,
            r#"{"seq":47,"turn":1,"side":"fr","phase":"Movement","kind":"Facing","unit":"a","from":0.0,"to":45.0}"#,
            r#"{"seq":48,"turn":2,"side":null,"phase":"Shocks","kind":"CorpsBroken","corps":"I","army":"fr","gone":2,"routed":1,"because":[46]}"#,
        ];
        for (o, n) in old.iter().zip(new) {
            let e: Event = serde_json::from_str(o).unwrap_or_else(|err| panic!("{o}: {err}"));
            assert_eq!(serde_json::to_string(&e).expect("writes"), n);
            let again: Event = serde_json::from_str(n).expect("the new line reads");
            assert_eq!(again, e);
        }
        let e: Event = serde_json::from_str(old[4]).expect("reads");
        assert_eq!(
            (e.side, e.kind),
            (None, EventKind::CorpsBroken { corps: "I".into(), army: "fr".into(), gone: 2, routed: 1 })
        );
        let e: Event = serde_json::from_str(old[1]).expect("reads");
        assert!(matches!(e.kind, EventKind::Melee { rolls: MeleeRolls::FreeSpace { attack_roll: 9, .. }, .. }));
        // An unknown kind is refused with its name.
        let err = serde_json::from_str::<Event>(r#"{"seq":0,"turn":1,"side":null,"phase":"Shocks","kind":"Salvo"}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("Salvo"), "{err}");
    }

    #[test]
    fn hex_fire_writes_its_typed_result_as_the_table_writes_it() {
        let mut log = EventLog::default();
        log.push(EventKind::Fire {
            units: vec!["a".into()],
            target: "t".into(),
            rolled: FireRoll::Hex {
                firepower: 4.0,
                column: 2,
                roll: 36,
                total: 9,
                result: FireResult { losses: 1, check: Some(-1) },
            },
        });
        let line = log.to_jsonl();
        assert!(line.contains(r#""firepower":4.0,"column":2,"roll":36,"total":9,"result":"1M-1""#), "{line}");
        let back: Event = serde_json::from_str(line.trim()).expect("reads");
        assert_eq!(back, log.events[0]);
    }

    #[test]
    fn a_units_last_fall_and_the_phase_start_survive_taking_events_back() {
        let change = |to| EventKind::StateChange { unit: "a".into(), from: State::GoodOrder, to, cause: Cause::Fire };
        let mut log = EventLog::default();
        let start = log.push(EventKind::PhaseStart {});
        let dis = log.push(change(State::Disordered));
        assert_eq!(log.last_fall("a"), Some(dis));
        let next = log.push(EventKind::PhaseStart {});
        let rout = log.push_because(change(State::Routed), &[dis]);
        assert_eq!((log.last_fall("a"), log.phase_start()), (Some(rout), vec![next]));
        assert_eq!(log.events[rout as usize].because, vec![dis]);
        log.truncate(2);
        assert_eq!((log.last_fall("a"), log.phase_start()), (Some(dis), vec![start]));
        log.truncate(1);
        assert_eq!(log.last_fall("a"), None);
        assert_eq!(log.last_fall("b"), None);
    }
}
