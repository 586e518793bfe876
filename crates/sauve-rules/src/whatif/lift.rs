//! A batch against another of the same seeds: how much each side's score
//! rose or fell from the base to this batch, paired seed by seed, with its
//! 95% interval. The measure of a change to the AI: play the same seeds
//! with the old and the new, and the pairs cancel most of the dice's noise.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::merge::{Mean, score_of};
use super::table::BatchTable;

/// One side's lift.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideLift {
    pub id: String,
    /// Who played it in the batch and in its base.
    pub ai: String,
    pub base_ai: String,
    /// Its mean score in the base and in the batch, over the paired seeds.
    pub base_score: f64,
    pub score: f64,
    /// The mean of the batch's score less the base's, seed by seed.
    pub lift: Mean,
}

/// A batch's lift over its base.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lift {
    /// Seeds played in both.
    pub paired: u64,
    /// Seeds played in only one of them, left out.
    pub unpaired: u64,
    pub sides: Vec<SideLift>,
}

/// The lift of `table` over `base`, on the seeds both played. They must be
/// the same battle (the same sides) and share at least one seed.
pub fn lift(table: &BatchTable, base: &BatchTable) -> Result<Lift, String> {
    if table.sides != base.sides {
        return Err(format!(
            "the base's sides ({}) are not the batch's ({}): not the same battle",
            base.sides.join(", "),
            table.sides.join(", ")
        ));
    }
    let base_rows: BTreeMap<u64, _> = base.rows.iter().map(|r| (r.seed, r)).collect();
    let pairs: Vec<_> = table.rows.iter().filter_map(|r| base_rows.get(&r.seed).map(|b| (r, *b))).collect();
    if pairs.is_empty() {
        return Err("the batch and its base share no seed".into());
    }
    let paired = pairs.len() as u64;
    let unpaired = (table.rows.len() + base.rows.len()) as u64 - 2 * paired;
    let n = paired as f64;
    let sides = table
        .sides
        .iter()
        .enumerate()
        .map(|(s, id)| {
            let diffs: Vec<f64> = pairs.iter().map(|(r, b)| score_of(r, s) - score_of(b, s)).collect();
            SideLift {
                id: id.clone(),
                ai: table.ai.get(s).cloned().unwrap_or_default(),
                base_ai: base.ai.get(s).cloned().unwrap_or_default(),
                base_score: pairs.iter().map(|(_, b)| score_of(b, s)).sum::<f64>() / n,
                score: pairs.iter().map(|(r, _)| score_of(r, s)).sum::<f64>() / n,
                lift: Mean::of(&diffs),
            }
        })
        .collect();
    Ok(Lift { paired, unpaired, sides })
}

impl fmt::Display for Lift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let left = if self.unpaired > 0 { format!(" ({} unpaired left out)", self.unpaired) } else { String::new() };
        writeln!(f, "Against the base, {} paired seeds{left} (score change, 95% interval):", self.paired)?;
        for s in &self.sides {
            writeln!(
                f,
                "  {:<10} {:.3} -> {:.3}: {}  ({} -> {})",
                s.id, s.base_score, s.score, s.lift, s.base_ai, s.ai
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::whatif::table::BatchRow;

    fn table(ai: &str, winners: &[(u64, Option<usize>)]) -> BatchTable {
        let row = |&(seed, winner): &(u64, Option<usize>)| BatchRow {
            seed,
            winner,
            decisive: false,
            turns: 1,
            largest_cascade: 0,
            corps_broken: Vec::new(),
            points: vec![0, 0],
            losses: vec![0, 0],
            routs: vec![0, 0],
            held: Vec::new(),
        };
        BatchTable {
            sides: vec!["fr".into(), "pr".into()],
            ai: vec![ai.into(), "easy".into()],
            objectives: Vec::new(),
            rows: winners.iter().map(row).collect(),
        }
    }

    #[test]
    fn the_lift_pairs_seeds_and_counts_a_draw_as_half() {
        let base = table("easy", &[(1, Some(1)), (2, Some(1)), (3, None), (4, Some(0)), (9, Some(0))]);
        let new = table("normal", &[(1, Some(0)), (2, None), (3, Some(0)), (4, Some(0)), (5, Some(1))]);
        let l = lift(&new, &base).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((l.paired, l.unpaired), (4, 2), "seeds 1-4 pair; 5 and 9 do not");
        // fr: 0 -> 1, 0 -> 1/2, 1/2 -> 1, 1 -> 1: differences 1, 1/2, 1/2, 0.
        let fr = &l.sides[0];
        assert!((fr.lift.mean - 0.5).abs() < 1e-12 && (fr.base_score - 0.375).abs() < 1e-12);
        assert!(fr.lift.low < 0.5 && fr.lift.high > 0.5 && (fr.lift.high - fr.lift.mean - 0.4).abs() < 1e-3);
        assert!((l.sides[1].lift.mean + 0.5).abs() < 1e-12, "what one side gains the other loses");
        assert_eq!((fr.base_ai.as_str(), fr.ai.as_str()), ("easy", "normal"));
    }

    #[test]
    fn a_base_of_another_battle_or_other_seeds_is_refused() {
        let base = table("easy", &[(1, Some(1))]);
        let mut other = table("easy", &[(1, Some(1))]);
        other.sides = vec!["a".into(), "b".into()];
        assert!(lift(&other, &base).is_err_and(|e| e.contains("not the same battle")));
        assert!(lift(&table("easy", &[(2, None)]), &base).is_err_and(|e| e.contains("share no seed")));
    }
}
