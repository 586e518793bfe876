//! What is wrong with a scenario file: one [`Problem`] per mistake, with
//! what it is about and where it lies in the text, and the errors that
//! gather them.

use std::fmt;

use crate::scenario::locate::Pos;

/// One problem found in a scenario: what it is about (a unit by id, a field
/// by path), what is wrong, and where in the file it lies.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problem {
    pub subject: String,
    pub message: String,
    /// The place it is about, as a path into the file: `units[3]`,
    /// `units[3].facing`, `sides[1].rear`, `map.rows[2]`, `rules.rout_hexes`.
    /// `None` for a problem with no one place.
    pub path: Option<String>,
    /// A second place the problem involves: a duplicate's earlier twin, the
    /// other of two overlapping units. The message names both places.
    pub other: Option<Other>,
    /// Where `path` lies in the text: filled in by [`locate`], `None` while
    /// unknown (the message then keeps the `FILE: error:` form).
    pub at: Option<Pos>,
}

/// The second place of a [`Problem`]: what it is (`first` for a duplicate's
/// earlier twin, `unit 'fr-a'`), its path, and where that lies once located.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Other {
    pub what: String,
    pub path: String,
    pub at: Option<Pos>,
}

impl Problem {
    /// A problem about `subject` with no place in the file.
    pub fn new(subject: impl Into<String>, message: impl Into<String>) -> Self {
        Problem { subject: subject.into(), message: message.into(), ..Problem::default() }
    }
}

impl Problem {
    /// The problem as one line of `sauve check` output: `FILE:LINE:COL: KIND:
    /// subject: message`, or `FILE: KIND: ...` when it has no place.
    pub fn line(&self, file: &str, kind: &str) -> String {
        match self.at {
            Some(at) => format!("{file}:{at}: {kind}: {self}"),
            None => format!("{file}: {kind}: {self}"),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.subject, self.message)?;
        match &self.other {
            Some(Other { what, at: Some(at), .. }) => write!(f, " ({what} at {at})"),
            Some(Other { what, path, at: None }) => write!(f, " ({what} at {path})"),
            None => Ok(()),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{file}: error: cannot read: {source}")]
    Io { file: String, source: std::io::Error },
    #[error("{file}:{line}:{col}: error: {message}")]
    Syntax { file: String, line: usize, col: usize, message: String },
    #[error("{}", render_problems(file, problems))]
    Invalid { file: String, problems: Vec<Problem> },
}

fn render_problems(file: &str, problems: &[Problem]) -> String {
    problems.iter().map(|p| p.line(file, "error")).collect::<Vec<_>>().join("\n")
}

impl LoadError {
    /// One line per problem, in the command line's `FILE:LINE:COL: error: ...`
    /// form (`FILE: error: ...` for a problem with no place in the file).
    pub fn lines(&self) -> Vec<String> {
        self.to_string().lines().map(str::to_owned).collect()
    }
}

/// What a problem is about: the subject its message names and the path of
/// its place in the file.
#[derive(Clone, Debug)]
pub(crate) struct About {
    pub(crate) subject: String,
    pub(crate) path: String,
}

impl About {
    /// A list entry with an id (a unit, side, corps, leader): named `kind
    /// 'id'`, or by its path while the id is empty; placed at the entry.
    pub(crate) fn entry(kind: &str, id: &str, path: String) -> About {
        let subject = if id.trim().is_empty() { path.clone() } else { format!("{kind} '{id}'") };
        About { subject, path }
    }

    /// One field of it: the same subject, placed at the field.
    pub(crate) fn field(&self, name: &str) -> About {
        About { subject: self.subject.clone(), path: format!("{}.{name}", self.path) }
    }
}

/// A field named by its path (`format`, `map.rows[3]`, `shocks[0]`).
impl From<&str> for About {
    fn from(path: &str) -> About {
        About { subject: path.to_owned(), path: path.to_owned() }
    }
}

impl From<String> for About {
    fn from(path: String) -> About {
        About { subject: path.clone(), path }
    }
}

impl From<&About> for About {
    fn from(a: &About) -> About {
        a.clone()
    }
}

/// The longest name a unit, objective, corps or leader may have, in
/// characters.
pub(super) const MAX_NAME_CHARS: usize = 200;

/// The problems found so far, each with its place in the file.
pub(super) struct Collector(pub(super) Vec<Problem>);

impl Collector {
    /// Records a problem. Control characters (a newline inside a quoted id,
    /// say) are escaped so that every problem stays on one line.
    pub(super) fn add(&mut self, about: impl Into<About>, message: impl Into<String>) {
        let about = about.into();
        self.0.push(Problem {
            subject: one_line(about.subject),
            message: one_line(message.into()),
            path: Some(about.path),
            ..Problem::default()
        });
    }

    /// Refuses a name longer than [`MAX_NAME_CHARS`].
    pub(super) fn name_length(&mut self, about: &About, name: Option<&str>) {
        if name.is_some_and(|n| n.chars().count() > MAX_NAME_CHARS) {
            self.add(about.field("name"), format!("name is longer than {MAX_NAME_CHARS} characters"));
        }
    }

    /// A second entry with an id already used at `first` (a path).
    pub(super) fn duplicate(&mut self, about: &About, first: String, message: &str) {
        self.add(about, message);
        if let Some(p) = self.0.last_mut() {
            p.other = Some(Other { what: "first".into(), path: first, at: None });
        }
    }
}

/// Escapes control characters (a newline inside a quoted id, say) so that
/// every message stays on one line.
pub(super) fn one_line(s: String) -> String {
    if s.chars().any(char::is_control) { s.chars().flat_map(char::escape_default).collect() } else { s }
}

/// Items joined by commas, for a message.
pub(super) fn list<S: AsRef<str>>(items: impl Iterator<Item = S>) -> String {
    items.map(|s| s.as_ref().to_owned()).collect::<Vec<_>>().join(", ")
}
