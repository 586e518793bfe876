//! What the summaries of both rule systems share: a cascade of failures as
//! one record, counted nouns in the singular or plural, and the lines that
//! list cascades, so that a hex battle and a free-space table read alike.

use std::fmt;

use crate::events::Cause;

/// One cascade: a failure that no other failure caused (the root) and every
/// failure that followed from it (contagion in hex mode, carry-along in
/// free space).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cascade {
    /// The unit whose failure started it (its id).
    pub root: String,
    /// That unit's name, for the summary.
    pub root_name: String,
    /// What made the root fail.
    pub cause: Cause,
    pub turn: u32,
    /// Distinct units it took, the root included.
    pub size: u32,
}

/// Cascades as they are read off a log, failure by failure: each unit's
/// latest failure belongs to one cascade, which it began or joined.
#[derive(Debug, Default)]
pub struct CascadeTally {
    /// Each cascade and its distinct units.
    cascades: Vec<(Cascade, Vec<usize>)>,
    /// Per unit, the cascade of its latest failure.
    of: Vec<Option<usize>>,
}

impl CascadeTally {
    pub fn new(units: usize) -> Self {
        Self { cascades: Vec::new(), of: vec![None; units] }
    }

    /// The cascade of unit `u`'s latest failure, if it failed.
    pub fn of(&self, u: usize) -> Option<usize> {
        self.of.get(u).copied().flatten()
    }

    /// Unit `u` fails: it joins cascade `parent`, or with none begins a new
    /// one rooted at it (`root` its id and name).
    pub fn fail(&mut self, u: usize, parent: Option<usize>, root: (&str, &str), cause: Cause, turn: u32) {
        let c = parent.unwrap_or_else(|| {
            let (root, root_name) = (root.0.to_owned(), root.1.to_owned());
            self.cascades.push((Cascade { root, root_name, cause, turn, size: 0 }, Vec::new()));
            self.cascades.len() - 1
        });
        let (cascade, members) = &mut self.cascades[c];
        if !members.contains(&u) {
            members.push(u);
            cascade.size += 1;
        }
        self.of[u] = Some(c);
    }

    /// The largest cascade's size (0 when nothing failed) and the cascades
    /// of two units or more, in the order they began.
    pub fn finish(self) -> (u32, Vec<Cascade>) {
        let largest = self.cascades.iter().map(|(c, _)| c.size).max().unwrap_or(0);
        (largest, self.cascades.into_iter().map(|(c, _)| c).filter(|c| c.size >= 2).collect())
    }
}

/// `n` and a noun that agrees with it ("1 increment", "2 increments"):
/// summaries are read by people, and "1 increments lost" reads as a slip.
pub fn counted(n: u32, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// The "Cascades" block of a summary: the largest, then every cascade of two
/// units or more, or `none` when there is none.
pub fn write_cascades(f: &mut fmt::Formatter<'_>, largest: u32, cascades: &[Cascade], none: &str) -> fmt::Result {
    writeln!(f, "Cascades")?;
    writeln!(f, "  largest: {}", counted(largest, "unit"))?;
    if cascades.is_empty() {
        writeln!(f, "  {none}")?;
    }
    for c in cascades {
        writeln!(f, "  {} units, from {} ({:?}) on turn {}", c.size, c.root_name, c.cause, c.turn)?;
    }
    Ok(())
}
