//! `sauve batch`: one AI-against-AI battle per seed, a row each, written
//! as CSV; sharded by `--shard` or a scheduler's environment; and
//! `sauve batch merge`, which joins shards and sums them up.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, Subcommand};

use super::ai::ai_choice;
use super::bar;
use super::exit::{fail, pool, usage_error};
use crate::scenario;
use crate::whatif::lift::lift;
use crate::whatif::merge::{join, summarise};
use crate::whatif::seeds::{parse_range, parse_shard, shard, shard_from_env};
use crate::whatif::table::BatchTable;
use crate::whatif::{Progress, batch, plot};

/// The arguments of `sauve batch`.
#[derive(Args, Debug)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    override_usage = "sauve batch FILE --seeds A..B [--ai fr=normal,pr=easy] [--shard K/N] --out FILE.csv\n       \
                      sauve batch merge FILE.csv... [--against BASE.csv] [--json] [--plot FILE.svg]"
)]
pub struct BatchArgs {
    #[command(subcommand)]
    pub merge: Option<BatchCommand>,
    /// The scenario to play.
    #[arg(required = true)]
    pub file: Option<PathBuf>,
    /// The seeds, one battle each: `A..B` (B left out) or `A..=B`.
    #[arg(long, required = true)]
    pub seeds: Option<String>,
    /// Play only shard K of N (K from 0) of the seeds: contiguous blocks
    /// that partition the range exactly. Without it, a Slurm array task
    /// (`SLURM_ARRAY_TASK_ID` of `SLURM_ARRAY_TASK_COUNT`) or a Kubernetes
    /// Indexed Job (`JOB_COMPLETION_INDEX` of `JOB_COMPLETIONS`) plays its
    /// own shard; otherwise the whole range.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Where to write the rows (CSV).
    #[arg(long, required = true)]
    pub out: Option<PathBuf>,
    /// Threads to play on (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Who the AI plays, and how well, as for `simulate` (e.g.
    /// `fr=normal,pr=easy`); written in the rows' `ai_ID` columns.
    #[arg(long, default_value = "both")]
    pub ai: String,
}

#[derive(Subcommand, Debug)]
pub enum BatchCommand {
    /// Join batch files (shards) and sum them up: win rates with 95%
    /// confidence intervals, corps broken, the largest cascades.
    Merge {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write JSON instead of sentences.
        #[arg(long)]
        json: bool,
        /// Also draw the win rates and the cascade sizes (SVG).
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
        /// Write the joined rows here (CSV), in seed order.
        #[arg(long)]
        out: Option<PathBuf>,
        /// A base batch of the same seeds (its shards, the option given
        /// again): each side's score change from it, paired seed by seed,
        /// with its 95% interval.
        #[arg(long, value_name = "BASE.csv")]
        against: Vec<PathBuf>,
    },
}

pub fn run(a: &BatchArgs) -> ExitCode {
    if let Some(BatchCommand::Merge { files, json, plot, out, against }) = &a.merge {
        return merge(files, *json, plot.as_ref(), out.as_ref(), against);
    }
    let (Some(file), Some(seeds), Some(out)) = (&a.file, &a.seeds, &a.out) else {
        return usage_error("sauve batch FILE --seeds A..B --out FILE.csv");
    };
    let range = match parse_range(seeds) {
        Ok(r) => r,
        Err(msg) => return usage_error(&msg),
    };
    let given = match a.shard.as_deref().map(parse_shard).transpose() {
        Ok(s) => s,
        Err(msg) => return usage_error(&msg),
    };
    let from_env = match given {
        Some(s) => Some(s),
        None => match shard_from_env(|name| std::env::var(name).ok()) {
            Ok(s) => s,
            Err(msg) => return usage_error(&msg),
        },
    };
    let seeds = match from_env {
        Some((k, n)) => shard(range, k, n).unwrap_or(0..0),
        None => range,
    };
    let scenario = match scenario::load(file) {
        Ok(s) => s,
        Err(e) => return fail(e.lines()),
    };
    let choice = match ai_choice(&a.ai, &scenario.sides) {
        Ok(c) => c,
        Err(msg) => return usage_error(&msg),
    };
    let scenario = Arc::new(choice.apply(scenario));
    let players = choice.players(&scenario);
    let pool = match pool(a.threads) {
        Ok(p) => p,
        Err(msg) => return usage_error(&msg),
    };
    let games = seeds.end - seeds.start;
    let progress = Progress::default();
    let started = std::time::Instant::now();
    let table = bar::with_bar(games, "games", &progress, || {
        pool.install(|| batch::batch(&scenario, seeds.clone(), choice.seats, players.clone(), &progress))
    });
    let Some(table) = table else { return fail(vec!["sauve: the batch was cancelled".into()]) };
    if let Err(e) = crate::save::write_atomically(out, &table.to_csv()) {
        return fail(vec![format!("{}: error: cannot write the batch: {e}", out.display())]);
    }
    let secs = started.elapsed().as_secs_f64();
    let shard = from_env.map_or_else(String::new, |(k, n)| format!(" (shard {k} of {n})"));
    eprintln!(
        "{}: {games} games, seeds {}..{}{shard}, in {secs:.1} s on {} threads ({:.0} games/s)",
        out.display(),
        seeds.start,
        seeds.end,
        pool.current_num_threads(),
        games as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}

/// Reads and joins batch files (shards of one batch).
fn read_joined(files: &[PathBuf]) -> Result<BatchTable, Vec<String>> {
    let mut tables = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let text = crate::save::read_text(f).map_err(|e| e.lines())?;
        tables.push((name.clone(), BatchTable::from_csv(&text, &name).map_err(|e| vec![e.to_string()])?));
    }
    join(tables).map_err(|msg| vec![msg])
}

fn merge(
    files: &[PathBuf],
    json: bool,
    plot_to: Option<&PathBuf>,
    out: Option<&PathBuf>,
    against: &[PathBuf],
) -> ExitCode {
    let table = match read_joined(files) {
        Ok(t) => t,
        Err(lines) => return fail(lines),
    };
    let lifted = if against.is_empty() {
        None
    } else {
        let base = match read_joined(against) {
            Ok(t) => t,
            Err(lines) => return fail(lines),
        };
        match lift(&table, &base) {
            Ok(l) => Some(l),
            Err(msg) => return fail(vec![format!("--against: error: {msg}")]),
        }
    };
    let summary = summarise(&table);
    if let Some(path) = out
        && let Err(e) = crate::save::write_atomically(path, &table.to_csv())
    {
        return fail(vec![format!("{}: error: cannot write the rows: {e}", path.display())]);
    }
    if let Some(path) = plot_to {
        let title = files
            .first()
            .and_then(|f| f.file_stem())
            .map_or_else(|| "batch".into(), |s| s.to_string_lossy().into_owned());
        let written = plot::svg(&summary, &title).and_then(|svg| {
            crate::save::write_atomically(path, &svg).map_err(|e| format!("cannot write the picture: {e}"))
        });
        if let Err(msg) = written {
            return fail(vec![format!("{}: error: {msg}", path.display())]);
        }
    }
    if json {
        let value = match &lifted {
            Some(l) => serde_json::json!({ "summary": summary, "lift": l }),
            None => serde_json::to_value(&summary).unwrap_or_default(),
        };
        println!("{}", serde_json::to_string_pretty(&value).unwrap_or_default());
    } else {
        print!("{summary}");
        if let Some(l) = &lifted {
            print!("{l}");
        }
    }
    ExitCode::SUCCESS
}
