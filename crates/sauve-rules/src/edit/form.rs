//! What a form of the editor is made of, shared by the forms of the
//! file's fields ([`crate::edit::fields`]) and of its rules block
//! ([`crate::edit::rules_form`]): what a form is about, its rows, how a
//! value is given, and why one is refused.

use std::fmt;

/// What a form is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Subject {
    Scenario,
    Map,
    Side(usize),
    Unit(usize),
    Shock(usize),
    Staff(usize),
    Objective(usize),
    Exit(usize),
    Corps(usize),
    Leader(usize),
    /// The rules block ([`crate::edit::rules_form`]).
    Rules,
}

impl Subject {
    /// The subject's place as the checker's paths name it (`units[3]`).
    pub fn path(self) -> String {
        match self {
            Subject::Scenario => String::new(),
            Subject::Map => "map".into(),
            Subject::Side(i) => format!("sides[{i}]"),
            Subject::Unit(i) => format!("units[{i}]"),
            Subject::Shock(i) => format!("shocks[{i}]"),
            Subject::Staff(i) => format!("staff[{i}]"),
            Subject::Objective(i) => format!("objectives[{i}]"),
            Subject::Exit(i) => format!("exits[{i}]"),
            Subject::Corps(i) => format!("corps[{i}]"),
            Subject::Leader(i) => format!("leaders[{i}]"),
            Subject::Rules => "rules".into(),
        }
    }

    /// The path of one of its fields (`units[3].morale`, `turns`).
    pub fn field_path(self, field: &str) -> String {
        match self {
            Subject::Scenario => field.to_owned(),
            other => format!("{}.{field}", other.path()),
        }
    }
}

/// How a field's value is given.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// Typed text: a name, an id, a description.
    Text,
    /// Typed number, or pair of numbers (`5, 7`).
    Number,
    /// One of these words; the first is what an empty field means when
    /// the field may be left out.
    Choice(Vec<String>),
    /// Shown, not set here; the hint says why.
    Fixed,
}

/// One field of a form.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The field's name in the file (`morale`, `rear`; a path inside the
    /// rules block, `combat.leader_radius`).
    pub field: String,
    /// What the form calls it.
    pub label: String,
    /// Its value as an author would type it; empty for a field left out.
    pub value: String,
    pub kind: Kind,
    /// Its place, as the checker names it (`units[3].morale`).
    pub path: String,
    /// A few words on what it means or takes.
    pub hint: String,
}

/// Why a field cannot take what was typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError(pub String);

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
