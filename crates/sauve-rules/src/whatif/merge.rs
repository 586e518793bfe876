//! Batches merged: shards joined into one table (checked to be of the same
//! battle, with no seed played twice), and the table summed up: win
//! rates and scores with 95% confidence intervals, how often each corps
//! broke, and the distribution of the largest cascade's size.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::stats::{mean95, wilson95};
use super::table::{BatchRow, BatchTable};

/// Joins batch tables (each with the file it came from) into one, rows in
/// seed order. The tables must name the same sides in the same order, and
/// no seed may appear twice (two shards overlapping, or a file given
/// twice): either is an error naming both places.
pub fn join(tables: Vec<(String, BatchTable)>) -> Result<BatchTable, String> {
    // The first table's file, and the table with no rows: what the others
    // must match.
    let mut first: Option<(String, BatchTable)> = None;
    let mut seen: BTreeMap<u64, (String, BatchRow)> = BTreeMap::new();
    for (file, mut table) in tables {
        let rows = std::mem::take(&mut table.rows);
        match &first {
            None => first = Some((file.clone(), table)),
            Some((name, f)) if f.sides != table.sides => {
                return Err(format!(
                    "{file}: error: its sides ({}) are not those of {name} ({}): not the same battle",
                    table.sides.join(", "),
                    f.sides.join(", ")
                ));
            }
            Some((name, f)) if f.ai != table.ai => {
                return Err(format!(
                    "{file}: error: its sides were played by {} and those of {name} by {}: not the same match",
                    table.ai.join(", "),
                    f.ai.join(", ")
                ));
            }
            Some((name, f)) if f.objectives != table.objectives => {
                return Err(format!(
                    "{file}: error: its objectives ({}) are not those of {name} ({}): not the same battle",
                    table.objectives.join(", "),
                    f.objectives.join(", ")
                ));
            }
            Some(_) => {}
        }
        for row in rows {
            if let Some((other, _)) = seen.get(&row.seed) {
                return Err(format!("{file}: error: seed {} was already played in {other}", row.seed));
            }
            seen.insert(row.seed, (file.clone(), row));
        }
    }
    let mut out = first.map(|(_, t)| t).unwrap_or(BatchTable {
        sides: Vec::new(),
        ai: Vec::new(),
        objectives: Vec::new(),
        rows: Vec::new(),
    });
    out.rows = seen.into_values().map(|(_, r)| r).collect();
    Ok(out)
}

/// A rate with its 95% interval (Wilson).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rate {
    pub count: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub fn of(count: u64, n: u64) -> Rate {
        let (low, high) = wilson95(count, n);
        Rate { count, rate: if n == 0 { 0.0 } else { count as f64 / n as f64 }, low, high }
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:5.1}% [{:.1}%, {:.1}%]", self.rate * 100.0, self.low * 100.0, self.high * 100.0)
    }
}

/// A mean with its 95% interval (normal).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mean {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

impl Mean {
    pub fn of(xs: &[f64]) -> Mean {
        let (mean, low, high) = mean95(xs);
        Mean { mean, low, high }
    }
}

impl fmt::Display for Mean {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:+.3} [{:+.3}, {:+.3}]", self.mean, self.low, self.high)
    }
}

/// A side's score in one game: 1 for a win, 1/2 for a draw, 0 for a loss.
pub fn score_of(row: &BatchRow, side: usize) -> f64 {
    match row.winner {
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideStats {
    pub id: String,
    /// Who played it: an AI level or `none`.
    pub ai: String,
    /// Its mean score (win 1, draw 1/2) with its 95% interval.
    pub score: Mean,
    pub wins: Rate,
    pub decisive_wins: u64,
    pub mean_points: f64,
    pub mean_losses: f64,
    pub mean_routs: f64,
}

/// A batch summed up.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BatchSummary {
    pub games: u64,
    pub first_seed: Option<u64>,
    pub last_seed: Option<u64>,
    pub sides: Vec<SideStats>,
    pub draws: Rate,
    pub mean_turns: f64,
    /// How often each corps broke (those that broke at least once).
    pub corps_broken: Vec<(String, Rate)>,
    /// Per objective: its name, and how often each side held it at the end.
    pub held: Vec<(String, Vec<Rate>)>,
    /// `largest_cascade[k]`: games whose largest cascade took k units.
    pub largest_cascade: Vec<u64>,
    pub mean_largest_cascade: f64,
}

pub fn summarise(t: &BatchTable) -> BatchSummary {
    let n = t.rows.len() as u64;
    let mean = |f: &dyn Fn(&BatchRow) -> u64| {
        if n == 0 { 0.0 } else { t.rows.iter().map(f).sum::<u64>() as f64 / n as f64 }
    };
    let sides = t
        .sides
        .iter()
        .enumerate()
        .map(|(s, id)| SideStats {
            id: id.clone(),
            ai: t.ai.get(s).cloned().unwrap_or_default(),
            score: Mean::of(&t.rows.iter().map(|r| score_of(r, s)).collect::<Vec<_>>()),
            wins: Rate::of(t.rows.iter().filter(|r| r.winner == Some(s)).count() as u64, n),
            decisive_wins: t.rows.iter().filter(|r| r.winner == Some(s) && r.decisive).count() as u64,
            mean_points: mean(&|r| u64::from(r.points.get(s).copied().unwrap_or(0))),
            mean_losses: mean(&|r| u64::from(r.losses.get(s).copied().unwrap_or(0))),
            mean_routs: mean(&|r| u64::from(r.routs.get(s).copied().unwrap_or(0))),
        })
        .collect();
    let mut corps: BTreeMap<&str, u64> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for r in &t.rows {
        for c in &r.corps_broken {
            let k = corps.entry(c).or_insert_with(|| {
                order.push(c);
                0
            });
            *k += 1;
        }
    }
    let mut largest = Vec::new();
    for r in &t.rows {
        let k = r.largest_cascade as usize;
        if largest.len() <= k {
            largest.resize(k + 1, 0);
        }
        largest[k] += 1;
    }
    BatchSummary {
        games: n,
        first_seed: t.rows.iter().map(|r| r.seed).min(),
        last_seed: t.rows.iter().map(|r| r.seed).max(),
        sides,
        draws: Rate::of(t.rows.iter().filter(|r| r.winner.is_none()).count() as u64, n),
        mean_turns: mean(&|r| u64::from(r.turns)),
        corps_broken: order.iter().map(|c| ((*c).to_owned(), Rate::of(corps[c], n))).collect(),
        held: t
            .objectives
            .iter()
            .enumerate()
            .map(|(o, name)| {
                let by = |s: usize| t.rows.iter().filter(|r| r.held.get(o) == Some(&Some(s))).count() as u64;
                (name.clone(), (0..t.sides.len()).map(|s| Rate::of(by(s), n)).collect())
            })
            .collect(),
        largest_cascade: largest,
        mean_largest_cascade: mean(&|r| u64::from(r.largest_cascade)),
    }
}

impl fmt::Display for BatchSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seeds = match (self.first_seed, self.last_seed) {
            (Some(a), Some(b)) => format!(", seeds {a}..={b}"),
            _ => String::new(),
        };
        writeln!(f, "{} games{seeds}; each ended on turn {:.1} on average", self.games, self.mean_turns)?;
        writeln!(f, "Wins (95% confidence interval):")?;
        for s in &self.sides {
            writeln!(
                f,
                "  {:<10} {}  ({} outright); mean points {:.1}, losses {:.1}, units routed {:.1}",
                s.id, s.wins, s.decisive_wins, s.mean_points, s.mean_losses, s.mean_routs
            )?;
        }
        writeln!(f, "Score (win 1, draw 1/2; 95% interval):")?;
        for s in &self.sides {
            writeln!(
                f,
                "  {:<10} {:.3} [{:.3}, {:.3}]  played by {}",
                s.id, s.score.mean, s.score.low, s.score.high, s.ai
            )?;
        }
        writeln!(f, "  {:<10} {}", "draw", self.draws)?;
        if !self.corps_broken.is_empty() {
            writeln!(f, "Corps broken:")?;
            for (c, r) in &self.corps_broken {
                writeln!(f, "  {c:<14} {r}")?;
            }
        }
        if !self.held.is_empty() {
            writeln!(f, "Objectives held at the end (95% interval):")?;
            for (name, rates) in &self.held {
                let by: Vec<String> =
                    self.sides.iter().zip(rates).map(|(s, r)| format!("{} {}", s.id, r.to_string().trim())).collect();
                writeln!(f, "  {name:<28} {}", by.join(", "))?;
            }
        }
        writeln!(f, "Largest cascade per game (mean {:.2} units):", self.mean_largest_cascade)?;
        let most = self.largest_cascade.iter().copied().max().unwrap_or(0).max(1);
        for (k, &g) in self.largest_cascade.iter().enumerate() {
            let bar = "#".repeat(((g * 40).div_ceil(most)) as usize);
            writeln!(f, "  {k:>3} units: {g:>6} {bar}")?;
        }
        Ok(())
    }
}
