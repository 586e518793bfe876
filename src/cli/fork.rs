//! `sauve fork`: a save's game with one roll changed, written as a save
//! of its own and compared with the original.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use super::exit::{fail, usage_error};
use crate::save::SaveGame;
use crate::whatif::compare::Words;
use crate::whatif::fork::fork;
use crate::whatif::reroll::{Which, roll_of};

/// The arguments of `sauve fork`.
#[derive(Args, Debug)]
pub struct ForkArgs {
    /// The save (a finished game's save is its replay).
    pub save: PathBuf,
    /// The rolled event to change (its `seq` in the game's event log: a
    /// morale check, a fire combat or a melee).
    #[arg(long, value_name = "SEQ")]
    pub at: u64,
    /// Which of the event's rolls: `attack` or `defence` for a free-space
    /// melee, where each side rolls; an event with one roll needs none.
    #[arg(long, value_name = "attack|defence")]
    pub which: Option<Which>,
    /// What it rolls instead: a d66 result (11..66) in hex mode, a 3d6
    /// total (3..18) in free space.
    #[arg(long)]
    pub roll: u32,
    /// Where to write the fork's save (default: beside the save, named
    /// `NAME.fork-SEQ-ROLL.ron`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write the fork's event log (JSON Lines) here.
    #[arg(long)]
    pub events: Option<PathBuf>,
    /// Write the comparison as JSON instead of sentences.
    #[arg(long)]
    pub json: bool,
}

fn default_out(save: &Path, at: u64, which: Option<Which>, roll: u32) -> PathBuf {
    let stem = save.file_stem().map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned());
    let which = which.filter(|&w| w != Which::Roll).map_or_else(String::new, |w| format!("-{w}"));
    save.with_file_name(format!("{stem}.fork-{at}{which}-{roll}.ron"))
}

pub fn run(a: &ForkArgs) -> ExitCode {
    let (save, scenario) = match SaveGame::load(&a.save) {
        Ok(x) => x,
        Err(e) => return fail(e.lines()),
    };
    let out = a.out.clone().unwrap_or_else(|| default_out(&a.save, a.at, a.which, a.roll));
    if out.canonicalize().ok().is_some_and(|o| a.save.canonicalize().ok() == Some(o)) {
        return usage_error("--out is the save being forked; the fork is written to a file of its own");
    }
    let scenario = std::sync::Arc::new(scenario);
    let forked = match fork(&save, &scenario, a.at, a.which, a.roll) {
        Ok(f) => f,
        Err(e) => return fail(vec![format!("{}: error: {e}", a.save.display())]),
    };
    if let Err(e) = forked.save.write(&out) {
        return fail(vec![format!("{}: error: cannot write the fork's save: {e}", out.display())]);
    }
    if let Some(path) = &a.events
        && let Err(e) = crate::save::write_atomically(path, &forked.fork.to_jsonl())
    {
        return fail(vec![format!("{}: error: cannot write the event log: {e}", path.display())]);
    }
    if a.json {
        let j = serde_json::json!({
            "save": out.display().to_string(),
            "at": a.at,
            "which": a.which,
            "roll": a.roll,
            "dice": forked.save.dice,
            "comparison": forked.comparison,
            "dropped_orders": forked.dropped.iter().map(|(o, why)| serde_json::json!({
                "turn": o.at.turn, "phase": format!("{:?}", o.at.phase), "units": o.order.units(), "why": why,
            })).collect::<Vec<_>>(),
            "unreached_orders": forked.unreached.len(),
        });
        println!("{}", serde_json::to_string_pretty(&j).unwrap_or_default());
    } else {
        let before = forked.original.events.get(a.at as usize);
        let which = before.and_then(|e| crate::whatif::reroll::pick(e, a.which).ok()).unwrap_or(Which::Roll);
        let whose = if which == Which::Roll { String::new() } else { format!(", the {which} roll") };
        let was = before.and_then(|e| roll_of(e, which)).map_or_else(String::new, |r| format!(" (it rolled {r})"));
        println!("Fork of {} at event {}{whose}{was}, rolling {} instead.", a.save.display(), a.at, a.roll);
        print!("{}", Words(&forked.comparison, &scenario));
        for (o, why) in &forked.dropped {
            println!(
                "Dropped: the order of turn {}, {:?} phase to {} (this history no longer allows it: {why})",
                o.at.turn,
                o.at.phase,
                o.order.units().join(", ")
            );
        }
        if !forked.unreached.is_empty() {
            println!("{} saved orders were never reached (the fork's battle ended sooner).", forked.unreached.len());
        }
        println!("The fork's save: {} (sauve replay plays it again; sauve play opens it)", out.display());
    }
    ExitCode::SUCCESS
}
