//! One AI-against-AI battle's row of a batch, and a batch's table as CSV:
//! `seed,winner,decisive,turns,largest_cascade,corps_broken`, then the
//! points, losses (strength increments, or figures on a free-space table)
//! and units routed of each side
//! (`points_ID,...,losses_ID,...,routs_ID,...`), then who played each side
//! (`ai_ID,...`: an AI level, `easy` or `normal`, or `none`; files written
//! before levels existed have no such columns and read as `easy`, which
//! played them), then who held each objective at the end (`held:NAME,...`,
//! one column per objective, named after it: a side's id or `nobody`;
//! older files have none). `winner` is a side's id or `draw`;
//! `corps_broken` the broken corps' ids joined by `;`.

use std::fmt;

use serde::Serialize;

use crate::vocab::AiLevel;

/// One battle of a batch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BatchRow {
    pub seed: u64,
    /// A side's index, `None` for a draw.
    pub winner: Option<usize>,
    /// Won because the other army broke.
    pub decisive: bool,
    /// The turn the battle ended in.
    pub turns: u32,
    pub largest_cascade: u32,
    /// The broken corps' ids, in scenario order.
    pub corps_broken: Vec<String>,
    /// Per side: victory points, increments lost, units routed at some point.
    pub points: Vec<u32>,
    pub losses: Vec<u32>,
    pub routs: Vec<u32>,
    /// Per objective (the table's `objectives`), the side holding it at
    /// the end, `None` for nobody.
    pub held: Vec<Option<usize>>,
}

/// A batch: the sides its rows name (ids), and the rows in seed order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BatchTable {
    pub sides: Vec<String>,
    /// Who played each side: an AI level's word, or `none`.
    pub ai: Vec<String>,
    /// The objectives' names, in scenario order (none in files written
    /// before the `held:` columns).
    pub objectives: Vec<String>,
    pub rows: Vec<BatchRow>,
}

/// A batch file that cannot be read, placed at its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvError {
    pub file: String,
    pub line: u64,
    pub message: String,
}

impl fmt::Display for CsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: error: {}", self.file, self.line, self.message)
    }
}

const FIXED: [&str; 6] = ["seed", "winner", "decisive", "turns", "largest_cascade", "corps_broken"];

/// Who holds an objective, in a `held:` column, when no side does.
pub const NOBODY: &str = "nobody";

impl BatchTable {
    /// The header of a batch of `sides`.
    pub fn header(sides: &[String]) -> Vec<String> {
        let mut h: Vec<String> = FIXED.iter().map(|s| (*s).to_owned()).collect();
        for what in ["points", "losses", "routs", "ai"] {
            h.extend(sides.iter().map(|s| format!("{what}_{s}")));
        }
        h
    }

    /// The header of files written before the `ai_ID` columns.
    fn header_before_levels(sides: &[String]) -> Vec<String> {
        let mut h = Self::header(sides);
        h.truncate(h.len() - sides.len());
        h
    }

    /// The table as CSV text (RFC 4180: a field with a comma or quote is
    /// quoted).
    pub fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut header = Self::header(&self.sides);
        header.extend(self.objectives.iter().map(|o| format!("held:{o}")));
        // Writing to a Vec cannot fail.
        let _ = w.write_record(header);
        for r in &self.rows {
            let mut rec = vec![
                r.seed.to_string(),
                r.winner.and_then(|w| self.sides.get(w)).map_or_else(|| "draw".to_owned(), Clone::clone),
                r.decisive.to_string(),
                r.turns.to_string(),
                r.largest_cascade.to_string(),
                r.corps_broken.join(";"),
            ];
            for list in [&r.points, &r.losses, &r.routs] {
                rec.extend(list.iter().map(u32::to_string));
            }
            rec.extend(self.ai.iter().cloned());
            rec.extend(
                (0..self.objectives.len())
                    .map(|o| r.held.get(o).copied().flatten().and_then(|s| self.sides.get(s)).map_or(NOBODY, |s| s))
                    .map(str::to_owned),
            );
            let _ = w.write_record(rec);
        }
        String::from_utf8_lossy(&w.into_inner().unwrap_or_default()).into_owned()
    }

    /// Reads a batch file; `file` names it in errors.
    pub fn from_csv(text: &str, file: &str) -> Result<BatchTable, CsvError> {
        let err = |line: u64, message: String| CsvError { file: file.to_owned(), line, message };
        let mut r = csv::ReaderBuilder::new().has_headers(true).from_reader(text.as_bytes());
        let header = r.headers().map_err(|e| err(1, e.to_string()))?.clone();
        let names: Vec<&str> = header.iter().collect();
        if names.len() < FIXED.len() || names[..FIXED.len()] != FIXED {
            return Err(err(1, format!("not a sauve batch: the header must begin {}", FIXED.join(","))));
        }
        let rest = &names[FIXED.len()..];
        let sides: Vec<String> = rest.iter().map_while(|c| c.strip_prefix("points_")).map(str::to_owned).collect();
        let n = sides.len();
        // The objectives' columns close the header.
        let held_from = names.iter().position(|c| c.starts_with("held:")).unwrap_or(names.len());
        let objectives: Vec<String> =
            names[held_from..].iter().map(|c| c.strip_prefix("held:").unwrap_or(c).to_owned()).collect();
        let names = &names[..held_from];
        let levels = Self::header(&sides) == names;
        if n == 0 || !(levels || Self::header_before_levels(&sides) == names) {
            return Err(err(
                1,
                "the side columns must be points_ID..., losses_ID..., routs_ID... (then ai_ID...) for the same sides"
                    .into(),
            ));
        }
        let mut table = BatchTable { sides, ai: vec!["easy".to_owned(); n], objectives, rows: Vec::new() };
        let mut ai_seen: Option<Vec<String>> = None;
        for rec in r.records() {
            let rec = rec.map_err(|e| err(e.position().map_or(0, |p| p.line()), e.to_string()))?;
            let line = rec.position().map_or(0, |p| p.line());
            let field = |i: usize| rec.get(i).unwrap_or("");
            let num = |i: usize| -> Result<u64, CsvError> {
                field(i)
                    .trim()
                    .parse()
                    .map_err(|_| err(line, format!("{} {:?} is not a whole number", names[i], field(i))))
            };
            let small = |i: usize| -> Result<u32, CsvError> {
                u32::try_from(num(i)?).map_err(|_| err(line, format!("{} {} is too large", names[i], field(i))))
            };
            let winner = match field(1) {
                "draw" => None,
                id => Some(table.sides.iter().position(|s| s == id).ok_or_else(|| {
                    err(line, format!("winner {id:?} is not one of the sides ({}) or draw", table.sides.join(", ")))
                })?),
            };
            let decisive = match field(2) {
                "true" => true,
                "false" => false,
                other => return Err(err(line, format!("decisive {other:?} must be true or false"))),
            };
            let corps_broken = field(5).split(';').filter(|s| !s.is_empty()).map(str::to_owned).collect();
            let side_cols =
                |k: usize| -> Result<Vec<u32>, CsvError> { (0..n).map(|s| small(FIXED.len() + k * n + s)).collect() };
            if levels {
                let ai: Vec<String> = (0..n).map(|s| field(FIXED.len() + 3 * n + s).to_owned()).collect();
                if let Some(bad) = ai.iter().find(|w| *w != "none" && AiLevel::from_word(w).is_none()) {
                    return Err(err(line, format!("ai {bad:?} must be an AI level (easy, normal) or none")));
                }
                match &ai_seen {
                    Some(first) if *first != ai => {
                        return Err(err(
                            line,
                            format!("ai {} differs from the first row's {}", ai.join(","), first.join(",")),
                        ));
                    }
                    Some(_) => {}
                    None => ai_seen = Some(ai),
                }
            }
            let held = (0..table.objectives.len())
                .map(|o| match field(held_from + o) {
                    NOBODY => Ok(None),
                    id => table.sides.iter().position(|s| s == id).map(Some).ok_or_else(|| {
                        err(
                            line,
                            format!(
                                "held:{} {id:?} is not one of the sides ({}) or {NOBODY}",
                                table.objectives[o],
                                table.sides.join(", ")
                            ),
                        )
                    }),
                })
                .collect::<Result<Vec<_>, _>>()?;
            table.rows.push(BatchRow {
                seed: num(0)?,
                winner,
                decisive,
                turns: small(3)?,
                largest_cascade: small(4)?,
                corps_broken,
                points: side_cols(0)?,
                losses: side_cols(1)?,
                routs: side_cols(2)?,
                held,
            });
        }
        if let Some(ai) = ai_seen {
            table.ai = ai;
        }
        Ok(table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::whatif::merge::summarise;

    fn row(seed: u64, held: Vec<Option<usize>>) -> BatchRow {
        BatchRow {
            seed,
            winner: Some(0),
            decisive: false,
            turns: 3,
            largest_cascade: 1,
            corps_broken: Vec::new(),
            points: vec![5, 2],
            losses: vec![1, 0],
            routs: vec![0, 1],
            held,
        }
    }

    fn table() -> BatchTable {
        BatchTable {
            sides: vec!["fr".into(), "pr".into()],
            ai: vec!["normal".into(), "easy".into()],
            objectives: vec!["Saint-Amand, the church".into(), "la Haye".into()],
            rows: vec![row(1, vec![Some(0), None]), row(2, vec![Some(0), Some(1)]), row(3, vec![Some(1), None])],
        }
    }

    #[test]
    fn who_held_each_objective_reads_back_as_written_and_is_counted() {
        let t = table();
        let csv = t.to_csv();
        let header = csv.lines().next().unwrap_or("");
        assert!(header.ends_with(",\"held:Saint-Amand, the church\",held:la Haye"), "{header}");
        assert!(csv.lines().nth(1).is_some_and(|l| l.ends_with(",normal,easy,fr,nobody")), "{csv}");
        assert_eq!(BatchTable::from_csv(&csv, "b.csv"), Ok(t.clone()));
        let s = summarise(&t);
        let held: Vec<(u64, u64)> = s.held.iter().map(|(_, r)| (r[0].count, r[1].count)).collect();
        assert_eq!(held, vec![(2, 1), (0, 1)], "Saint-Amand: fr twice, pr once; la Haye: pr once");
        assert!(s.to_string().contains("Objectives held at the end"), "{s}");
    }

    #[test]
    fn a_file_without_held_columns_has_no_objectives_and_a_bad_holder_is_placed() {
        let mut t = table();
        t.objectives.clear();
        for r in &mut t.rows {
            r.held.clear();
        }
        assert_eq!(BatchTable::from_csv(&t.to_csv(), "old.csv"), Ok(t));
        let bad = table().to_csv().replacen(",fr,nobody", ",fr,ru", 1);
        let e = BatchTable::from_csv(&bad, "bad.csv").unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("bad.csv", 2));
        assert!(e.message.contains("held:la Haye \"ru\" is not one of the sides"), "{}", e.message);
    }
}
