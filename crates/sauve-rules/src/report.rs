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
