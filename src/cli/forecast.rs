//! `sauve forecast`: the break forecast from a scenario's opening or a
//! save, with a progress bar on a terminal.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::ai::ai_choice;
use super::bar;
use super::exit::{fail, pool, usage_error};
use crate::whatif::{Progress, Start, forecast};

/// The arguments of `sauve forecast`.
#[derive(Args, Debug)]
pub struct ForecastArgs {
    /// A scenario (forecast from its opening) or a save (from where it
    /// was saved).
    pub file: PathBuf,
    /// Continuations to play.
    #[arg(long, default_value_t = 500)]
    pub runs: u64,
    /// Turns to look ahead, the current one the first (1: to the end of
    /// this turn); never past the battle's last.
    #[arg(long, default_value_t = 1)]
    pub turns: u32,
    /// The game's seed for a scenario (default: the scenario's `seed`); a
    /// save keeps its own. Run i plays with a seed derived from it and i.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Threads to play on (default: one per core); the forecast is the
    /// same whatever the number.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write JSON for scripts instead of sentences.
    #[arg(long)]
    pub json: bool,
    /// How well the AI plays each side in the continuations: a level
    /// (`easy`, `normal`, `hard`) for every side, or `SIDE=LEVEL,...`; default the
    /// scenario's levels (a save's own). The AI plays every side of a
    /// continuation.
    #[arg(long, value_name = "LEVELS")]
    pub ai: Option<String>,
}

pub fn run(a: &ForecastArgs) -> ExitCode {
    if a.runs == 0 || a.runs > 10_000_000 {
        return usage_error("--runs must be 1..=10000000");
    }
    if a.turns == 0 || a.turns > 1000 {
        return usage_error("--turns must be 1..=1000");
    }
    let start = match Start::load(&a.file, a.seed) {
        Ok(s) => s,
        Err(e) => return fail(e.lines()),
    };
    let start = match &a.ai {
        None => start,
        Some(ai) => match ai_choice(ai, &start.scenario().sides) {
            Ok(c) if c.levels.iter().all(Option::is_some) => {
                let s = c.apply((**start.scenario()).clone());
                start.with_scenario(s)
            }
            Ok(_) => return usage_error(&format!("--ai {ai:?}: a continuation plays every side: give each a level")),
            Err(msg) => return usage_error(&msg),
        },
    };
    if let Start::Saved { save, .. } = &start
        && save.at.finished
    {
        return fail(vec![format!(
            "{}: error: the saved game is over; there is nothing to forecast",
            a.file.display()
        )]);
    }
    let progress = Progress::default();
    let pool = match pool(a.threads) {
        Ok(p) => p,
        Err(msg) => return usage_error(&msg),
    };
    let result = bar::with_bar(a.runs, "runs", &progress, || {
        pool.install(|| forecast::forecast(&start, a.runs, a.turns, &progress))
    });
    let Some(f) = result else { return fail(vec!["sauve: the forecast was cancelled".into()]) };
    let report = f.report(start.scenario());
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        print!("{report}");
    }
    ExitCode::SUCCESS
}
