//! The cause graph of a log as the why reads it: for every line only its
//! place, turn, kind, unit, whether it is a fall and what it follows from.
//! A whole [`Event`] is read only for the few lines a why prints, so a
//! long log file is read in a fraction of the time a full reading takes
//! (the `why` bench measures both).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, IgnoredAny, IntoDeserializer};

use crate::events::{Event, EventKind, Seq};
use crate::sentences::unit_id;
use crate::vocab::{Mode, State};

/// One event, as much of it as a why needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub seq: Seq,
    pub turn: u32,
    /// Its kind: an index into [`Graph::kind_name`].
    pub kind: u16,
    /// The unit it is about (its `unit`, or a volley's target): an index
    /// into [`Graph::unit_id`].
    pub unit: Option<u32>,
    /// How bad a fall it is for its unit (`why::fate_event`'s order), 0
    /// when it is none.
    pub gravity: u8,
    /// Whether it is a phase start.
    pub phase_start: bool,
    /// Its causes: a range of the graph's flat list.
    because: (u32, u32),
}

/// What a reading of a log stood on: the lines of its file, to read
/// whole when a why prints them, or the events themselves.
#[derive(Clone, Debug)]
enum Source<'a> {
    Lines(Vec<(usize, &'a str)>),
    Events(&'a [Event]),
}

/// A log's cause graph; `seq` is each node's index.
#[derive(Clone, Debug)]
pub struct Graph<'a> {
    pub nodes: Vec<Node>,
    because: Vec<Seq>,
    kinds: Vec<String>,
    units: Vec<String>,
    unit_index: HashMap<String, u32>,
    /// Whether the log is of a free-space battle (a state of free space
    /// was written), so its checks are read as 3d6 totals.
    pub free_space: bool,
    source: Source<'a>,
}

/// A line of a log file that cannot be read: its number (from 1), the
/// column where reading stopped (0 when the line as a whole is wrong) and
/// why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub line: usize,
    pub column: usize,
    pub why: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            0 => write!(f, "{}: error: {}", self.line, self.why),
            c => write!(f, "{}:{c}: error: {}", self.line, self.why),
        }
    }
}

impl std::error::Error for ReadError {}

/// The fields of a line a why reads; serde skips the rest unread into
/// memory (a `CorpsBroken`'s second `side` among them).
#[derive(Deserialize)]
struct Skim<'a> {
    seq: Seq,
    turn: u32,
    #[serde(borrow)]
    kind: Text<'a>,
    #[serde(default, borrow)]
    unit: Option<Text<'a>>,
    #[serde(default, borrow)]
    target: Option<Text<'a>>,
    #[serde(default)]
    to: Option<Word>,
    #[serde(default)]
    because: Vec<Seq>,
}

/// A string borrowed from the line, or copied when the line escapes a
/// character in it.
struct Text<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> de::Visitor<'de> for V {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(s.to_owned())))
            }
        }
        d.deserialize_str(V)
    }
}

/// A `to` that names a state; any other `to` (a move's hex, a formation)
/// is skipped.
struct Word(Option<State>);

impl<'de> Deserialize<'de> for Word {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> de::Visitor<'de> for V {
            type Value = Word;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a state or any other value")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Word, E> {
                let read: Result<State, de::value::Error> = State::deserialize(s.into_deserializer());
                Ok(Word(read.ok()))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut a: A) -> Result<Word, A::Error> {
                while a.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Word(None))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut a: A) -> Result<Word, A::Error> {
                while a.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Word(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Word, E> {
                Ok(Word(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Word, E> {
                Ok(Word(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Word, E> {
                Ok(Word(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Word, E> {
                Ok(Word(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Word, E> {
                Ok(Word(None))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'a> Graph<'a> {
    fn empty(source: Source<'a>) -> Self {
        Graph {
            nodes: Vec::new(),
            because: Vec::new(),
            kinds: Vec::new(),
            units: Vec::new(),
            unit_index: HashMap::new(),
            free_space: false,
            source,
        }
    }

    /// Reads a JSON Lines log (as `sauve simulate --events` writes it).
    /// Blank lines are passed over; every other line must be an event,
    /// numbered from 0 in order (the why walks `because` by `seq`).
    pub fn read(text: &'a str) -> Result<Self, ReadError> {
        let mut g = Graph::empty(Source::Lines(Vec::new()));
        let mut lines = Vec::new();
        let mut kind_index: HashMap<Cow<'a, str>, u16> = HashMap::new();
        for (k, line) in text.lines().enumerate() {
            let number = k + 1;
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.trim().is_empty() {
                continue;
            }
            let s: Skim<'a> = serde_json::from_str(line).map_err(|e| ReadError {
                line: number,
                column: e.column(),
                why: not_an_event(&e),
            })?;
            let expected = g.nodes.len() as Seq;
            if s.seq != expected {
                return Err(ReadError {
                    line: number,
                    column: 0,
                    why: format!("seq {} where {expected} was expected: a log is read whole, numbered from 0", s.seq),
                });
            }
            let name = s.kind.0;
            let kind = match kind_index.get(&name) {
                Some(&k) => k,
                None => {
                    let k = u16::try_from(g.kinds.len()).map_err(|_| ReadError {
                        line: number,
                        column: 0,
                        why: "too many kinds of event".into(),
                    })?;
                    g.kinds.push(name.clone().into_owned());
                    kind_index.insert(name.clone(), k);
                    k
                }
            };
            let state = s.to.and_then(|w| w.0);
            let gravity = match name.as_ref() {
                "StateChange" => state.map_or(0, super::state_gravity),
                "Surrendered" | "Eliminated" | "LeftMap" => super::GONE,
                _ => 0,
            };
            g.free_space |= name == "StateChange" && state.is_some_and(|s| s.allowed_in(Mode::FreeSpace));
            let unit = s.unit.or(if name == "Fire" { s.target } else { None });
            let unit = unit.map(|u| g.intern(&u.0));
            if name == "Final" {
                g.final_units(line, number)?;
            }
            let phase_start = name == "PhaseStart";
            g.push(Node { seq: s.seq, turn: s.turn, kind, unit, gravity, phase_start, because: (0, 0) }, &s.because);
            lines.push((number, line));
        }
        g.source = Source::Lines(lines);
        Ok(g)
    }

    /// The graph of events already read (a log in memory, the tests' hand
    /// built logs). Their `seq` must be their index, as [`Graph::read`]
    /// demands of a file; an event out of place is left out with all after.
    pub fn from_events(events: &'a [Event]) -> Self {
        let mut g = Graph::empty(Source::Events(events));
        let mut kind_index: HashMap<std::mem::Discriminant<EventKind>, u16> = HashMap::new();
        let in_place = events.iter().enumerate().take_while(|(i, e)| e.seq == *i as Seq).count();
        for e in &events[..in_place] {
            let kind = *kind_index.entry(std::mem::discriminant(&e.kind)).or_insert_with(|| {
                g.kinds.push(kind_name(&e.kind));
                (g.kinds.len() - 1) as u16
            });
            let gravity = e.gravity();
            if let EventKind::StateChange { to, .. } = &e.kind {
                g.free_space |= to.allowed_in(Mode::FreeSpace);
            }
            if let EventKind::Final { units } = &e.kind {
                for u in units {
                    g.intern(&u.id);
                }
            }
            // As a line is read: its `unit`, or a volley's target (a melee
            // names no one unit).
            let unit = match &e.kind {
                EventKind::Melee { .. } => None,
                _ => unit_id(e),
            };
            let unit = unit.map(|u| g.intern(&u));
            let phase_start = matches!(e.kind, EventKind::PhaseStart {});
            g.push(Node { seq: e.seq, turn: e.turn, kind, unit, gravity, phase_start, because: (0, 0) }, &e.because);
        }
        g
    }

    fn push(&mut self, mut node: Node, because: &[Seq]) {
        let start = self.because.len() as u32;
        self.because.extend_from_slice(because);
        node.because = (start, self.because.len() as u32);
        self.nodes.push(node);
    }

    fn intern(&mut self, id: &str) -> u32 {
        if let Some(&i) = self.unit_index.get(id) {
            return i;
        }
        let i = self.units.len() as u32;
        self.units.push(id.to_owned());
        self.unit_index.insert(id.to_owned(), i);
        i
    }

    /// Every unit of the roll call, so a unit to which nothing happened is
    /// still known to the log.
    fn final_units(&mut self, line: &str, number: usize) -> Result<(), ReadError> {
        let e: Event = serde_json::from_str(line).map_err(|e| ReadError {
            line: number,
            column: e.column(),
            why: not_an_event(&e),
        })?;
        if let EventKind::Final { units } = e.kind {
            for u in units {
                self.intern(&u.id);
            }
        }
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// What node `i` follows from, as written (a cause that is not
    /// earlier is the walks' to pass over).
    pub fn because(&self, i: usize) -> &[Seq] {
        let (a, b) = self.nodes[i].because;
        &self.because[a as usize..b as usize]
    }

    /// The causes of node `i` that the walks follow: earlier events.
    pub fn causes(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.because(i).iter().filter_map(|&b| usize::try_from(b).ok()).filter(move |&b| b < i)
    }

    pub fn kind_name(&self, node: &Node) -> &str {
        &self.kinds[node.kind as usize]
    }

    pub fn unit_id(&self, unit: u32) -> &str {
        &self.units[unit as usize]
    }

    /// The unit of this id, if the log knows it.
    pub fn unit(&self, id: &str) -> Option<u32> {
        self.unit_index.get(id).copied()
    }

    /// Every unit the log names, in the order it first names them.
    pub fn units(&self) -> &[String] {
        &self.units
    }

    /// The line of the file node `i` came from (from 1), if it came from
    /// a file.
    pub fn line_of(&self, i: usize) -> Option<usize> {
        match &self.source {
            Source::Lines(lines) => lines.get(i).map(|l| l.0),
            Source::Events(_) => None,
        }
    }

    /// Event `i` read whole, for its sentence.
    pub fn event(&self, i: usize) -> Result<Cow<'a, Event>, ReadError> {
        match &self.source {
            Source::Events(events) => Ok(Cow::Borrowed(&events[i])),
            Source::Lines(lines) => {
                let (number, line) = lines[i];
                serde_json::from_str(line).map(Cow::Owned).map_err(|e| ReadError {
                    line: number,
                    column: e.column(),
                    why: not_an_event(&e),
                })
            }
        }
    }

    /// `why::fate_event` on this graph: the unit's worst fall, the latest
    /// of equals; with `turn`, only that turn's.
    pub fn fate(&self, unit: u32, turn: Option<u32>) -> Option<Seq> {
        self.nodes
            .iter()
            .filter(|n| n.gravity > 0 && n.unit == Some(unit) && turn.is_none_or(|t| n.turn == t))
            .max_by_key(|n| (n.gravity, n.seq))
            .map(|n| n.seq)
    }

    /// Every fall of `unit`, in log order.
    pub fn falls(&self, unit: u32) -> impl Iterator<Item = &Node> + '_ {
        self.nodes.iter().filter(move |n| n.gravity > 0 && n.unit == Some(unit))
    }

    /// The chain behind `target` (see `why::chain`).
    pub fn chain(&self, target: Seq) -> Option<super::Chain> {
        super::chain_by(self.len(), target, |i| self.because(i))
    }

    /// The ids the log knows that look most like `id` (a slip of the
    /// keyboard, a battalion number off by one), the closest first, at
    /// most `most`.
    pub fn close_ids(&self, id: &str, most: usize) -> Vec<&str> {
        let wanted = id.to_lowercase();
        let mut scored: Vec<(usize, &str)> = self
            .units
            .iter()
            .filter_map(|u| {
                let d = edit_distance(&wanted, &u.to_lowercase());
                let near = d <= 2.max(wanted.chars().count() / 4) || u.to_lowercase().contains(&wanted);
                near.then_some((d, u.as_str()))
            })
            .collect();
        scored.sort();
        scored.into_iter().take(most).map(|(_, u)| u).collect()
    }
}

/// Why a line is no event, in serde's words less its place (a line of
/// one line, which the error gives as line and column already).
fn not_an_event(e: &serde_json::Error) -> String {
    let said = e.to_string();
    let why = said.rsplit_once(" at line ").map_or(said.as_str(), |(why, _)| why);
    format!("not an event: {why}")
}

/// An event's `kind`, as its line names it.
fn kind_name(kind: &EventKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_owned))
        .unwrap_or_default()
}

/// Levenshtein distance, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diagonal + usize::from(ca != cb)).min(row[j] + 1).min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{Cause, EliminationReason, EventLog, FinalUnit, MoveReason, Pos};
    use crate::turn::Phase;
    use crate::why::fate_event;

    /// One event of every kind a fall can be, and of the kinds whose `to`
    /// or `side` is not a state's, with causes.
    fn log() -> EventLog {
        let mut log = EventLog::default();
        log.set_stamp(1, None, Phase::Shocks);
        let start = log.push(EventKind::PhaseStart {});
        let shock = log.push(EventKind::StateChange {
            unit: "a".into(),
            from: State::GoodOrder,
            to: State::Routed,
            cause: Cause::Shock,
        });
        let moved = log.push_because(
            EventKind::Move {
                unit: "a".into(),
                reason: MoveReason::Rout,
                from: Pos::Hex([1, 1]),
                to: Pos::Hex([1, 3]),
                path: vec![Pos::Hex([1, 1]), Pos::Hex([1, 2]), Pos::Hex([1, 3])],
            },
            &[shock],
        );
        log.push_because(EventKind::LeftMap { unit: "a".into(), edge: crate::hex::Edge::South }, &[moved]);
        log.push_because(EventKind::Surrendered { unit: "b".into() }, &[start]);
        log.push_because(EventKind::Eliminated { unit: "c".into(), reason: EliminationReason::OffMap }, &[moved]);
        log.push_because(
            EventKind::CorpsBroken { corps: "I".into(), army: "fr".into(), gone: 2, routed: 1 },
            &[shock, moved],
        );
        log.set_stamp(2, Some("fr"), Phase::MoraleRecovery);
        log.push(EventKind::StateChange { unit: "d".into(), from: State::Order, to: State::FU, cause: Cause::Shock });
        log.push(EventKind::StateChange {
            unit: "a".into(),
            from: State::Routed,
            to: State::GoodOrder,
            cause: Cause::Recovery,
        });
        log.push(EventKind::Final {
            units: vec![FinalUnit { id: "quiet".into(), side: "fr".into(), state: State::GoodOrder, at: None }],
        });
        log
    }

    #[test]
    fn a_light_reading_agrees_with_the_whole_events() {
        let log = log();
        let text = log.to_jsonl();
        let read = Graph::read(&text).expect("the log reads");
        let built = Graph::from_events(&log.events);
        assert_eq!(read.len(), log.events.len());
        for (i, e) in log.events.iter().enumerate() {
            let (r, b) = (read.nodes[i], built.nodes[i]);
            assert_eq!((r.seq, r.turn, r.gravity, r.phase_start), (b.seq, b.turn, b.gravity, b.phase_start), "{e:?}");
            assert_eq!(read.kind_name(&r), built.kind_name(&b), "{e:?}");
            assert_eq!(r.unit.map(|u| read.unit_id(u)), b.unit.map(|u| built.unit_id(u)), "{e:?}");
            assert_eq!(read.because(i), e.because.as_slice());
            assert_eq!(r.gravity > 0, crate::why::is_fate(e), "{e:?}");
            assert_eq!(read.event(i).expect("reads whole").as_ref(), e);
        }
        for unit in ["a", "b", "c", "d", "quiet"] {
            let u = read.unit(unit).expect("a known unit");
            for turn in [None, Some(1), Some(2)] {
                assert_eq!(read.fate(u, turn), fate_event(&log.events, unit, turn), "{unit} {turn:?}");
            }
        }
        assert!(read.free_space && built.free_space, "an FU was written");
        assert_eq!(read.fate(read.unit("quiet").expect("in the roll call"), None), None);
    }

    #[test]
    fn a_bad_line_is_placed_and_a_log_out_of_order_refused() {
        let good = log().to_jsonl();
        let mut lines: Vec<&str> = good.lines().collect();
        lines[2] = r#"{"seq":2,"turn":1,"kind":"Move","unit":"a""#;
        let err = Graph::read(&lines.join("\n")).expect_err("a cut line");
        assert_eq!(err.line, 3);
        assert!(err.column > 0 && err.why.starts_with("not an event: "), "{err}");
        assert!(!err.why.contains("line 1"), "the place is given once: {err}");
        let mut lines: Vec<&str> = good.lines().collect();
        lines.remove(1);
        let err = Graph::read(&lines.join("\n")).expect_err("a line missing");
        assert_eq!((err.line, err.column), (2, 0));
        assert!(err.why.contains("seq 2 where 1 was expected"), "{err}");
        let spaced = good.replacen('\n', "\n\n", 1);
        let g = Graph::read(&spaced).expect("a blank line is passed over");
        assert_eq!(g.line_of(1), Some(3));
    }

    #[test]
    fn close_ids_are_the_nearest_spellings() {
        let mut log = EventLog::default();
        for u in ["fr-1-2", "fr-2-2", "fr-1-9", "ru-uhlans"] {
            log.push(EventKind::Surrendered { unit: u.into() });
        }
        let g = Graph::from_events(&log.events);
        assert_eq!(g.close_ids("fr-1-3", 5), vec!["fr-1-2", "fr-1-9", "fr-2-2"]);
        assert_eq!(g.close_ids("uhlans", 5), vec!["ru-uhlans"]);
        assert!(g.close_ids("prussians", 5).is_empty());
    }
}
