//! The command line (docs/cli.md).

pub mod ai;
mod bar;
mod batch;
mod exit;
mod forecast;
mod fork;
mod odds;
mod why;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};

use exit::usage_error;

use crate::dice::parse_script;
use crate::events::{EventKind, EventLog};
use crate::scenario::{self, Mode, Scenario};
use crate::sim::{Seats, Simulation};
use crate::vocab::State;

#[derive(Parser, Debug)]
#[command(
    name = "sauve",
    version,
    about = "Napoleonic morale, rout and cascades: La Bataille hexes and Belle Alliance tables"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Open the game window on FILE (or the built-in default scenario).
    Play { file: Option<PathBuf> },
    /// Validate scenario files: exit 0 when all are valid, otherwise one line
    /// per problem on stderr.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Run a scenario headless and print a summary.
    Simulate {
        file: PathBuf,
        /// Seed for the dice (default: the scenario's `seed`).
        #[arg(long)]
        seed: Option<u64>,
        /// Number of turns to play (default: the scenario's `turns`).
        #[arg(long)]
        turns: Option<u32>,
        /// Who the AI plays, and how well: `both` (at each side's scenario
        /// level), `none` (only forced moves and morale segments run), a
        /// side id (the other side gives no orders), a level (`easy`,
        /// `normal`, `hard`) for every side, or `SIDE=LEVEL,...` (e.g.
        /// `fr=normal,pr=easy`; `none` for a side that gives no orders).
        #[arg(long, default_value = "both")]
        ai: String,
        /// Scripted dice, used first, in order: d66 results in hex mode
        /// (e.g. 11,36,66), 3d6 totals in free-space mode.
        #[arg(long)]
        dice: Option<String>,
        /// Write the event log (JSON Lines) here; `-` for stdout.
        #[arg(long)]
        events: Option<PathBuf>,
        /// Write a save of the finished game here (its replay).
        #[arg(long)]
        save: Option<PathBuf>,
        /// Print what the planning AI (`hard`) weighed before each of its
        /// movement phases: its groups, the scripts tried with their worth,
        /// and the ones it chose.
        #[arg(long)]
        explain: bool,
    },
    /// Play a save file's orders again up to where it was saved, headless,
    /// and print the summary: a finished game's save reproduces it exactly.
    Replay {
        file: PathBuf,
        /// Write the event log (JSON Lines) here; `-` for stdout.
        #[arg(long)]
        events: Option<PathBuf>,
    },
    /// Render the battle to a PNG, after N simulated turns, and exit; needs a
    /// display (Xvfb is fine). By default nobody gives orders in those turns,
    /// as with `simulate --ai none`: only shocks, forced moves, cascades and
    /// the morale segments run. A save file is pictured where it was saved
    /// (`--turns`, `--seed` and `--ai` then do not apply). An invalid file
    /// is pictured as the window's error card, its errors go to stderr and
    /// the exit status is not 0.
    Shot {
        /// The scenario (or save) to picture.
        file: PathBuf,
        /// Where to write the picture (PNG).
        #[arg(long)]
        out: PathBuf,
        /// Turns to play before the picture is taken; 0 (the default) shows
        /// the opening position. Stops early if the battle ends.
        #[arg(long, default_value_t = 0)]
        turns: u32,
        /// Seed for the dice (default: the scenario's `seed`).
        #[arg(long)]
        seed: Option<u64>,
        /// Who gives orders in the turns played: `none` (the default: nobody,
        /// the rules alone), `both` (the AI plays every side), a side id
        /// (the AI plays that side, the other gives no orders), a level, or
        /// `SIDE=LEVEL,...` as for `simulate`.
        #[arg(long, default_value = "none")]
        ai: String,
        /// Picture the why view of this unit (its id): the chain of events
        /// behind its latest fall, drawn on the map, with its panel.
        #[arg(long, value_name = "UNIT")]
        why: Option<String>,
    },
    /// Why did it happen? The chain of events behind a unit's fall
    /// (disorder, rout, surrender, elimination), read from an event log
    /// and printed as a tree from the fall down to its roots (the scripted
    /// shocks, orders and segment starts it follows from); or, with
    /// --cascades, the log's cascades by size.
    Why(why::WhyArgs),
    /// What if? The break forecast: N continuations from a scenario's
    /// opening or a save, to the end of the turn (or K turns), each with a
    /// seed of its own and the AI on every side, played on every core:
    /// per unit the chance to be disordered, routed, surrendered or
    /// eliminated, per corps to break, per side to win, and the cascades
    /// to expect.
    Forecast(forecast::ForecastArgs),
    /// What if that die had rolled otherwise? A save's game played again
    /// with the roll of one event changed and the rest as they came,
    /// written as a save of its own and compared with the original: the
    /// units whose fate differs, the cascades that appear or vanish, the
    /// score.
    Fork(fork::ForkArgs),
    /// The odds of an order before it is given, as the window shows them:
    /// a volley, a melee or a charge of the named units at a target, on a
    /// scenario's opening board or a save's, every die counted (the
    /// attackers' own checks, the defenders', a square, the table).
    Odds(odds::OddsArgs),
    /// One AI-against-AI battle per seed, one CSV row each (shards for a
    /// cluster scheduler); `batch merge` sums shards up.
    Batch(batch::BatchArgs),
    /// A battle the AI was never tuned on: a hex scenario made from a seed
    /// (a map with woods, marsh and often a bridged brook, three villages
    /// to fight for, two armies of two or three corps), or with
    /// --free-space a table (a 360 x 180 cm table, woods, often a brook
    /// with two bridges, three villages, two armies in two lines); the same
    /// file for the same seed. For measuring a change of the AI beyond the
    /// bundled battles (docs/whatif.md, "Measuring a change of the AI").
    Generate {
        /// Which battle.
        #[arg(long)]
        seed: u64,
        /// A free-space table (Belle Alliance), not hexes.
        #[arg(long)]
        free_space: bool,
        /// Write the scenario here (default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// The scenario editor: FILE to change, or a new map to be saved there
    /// (default: new-scenario.ron here).
    Edit {
        file: Option<PathBuf>,
        /// A new map's size, WIDTHxHEIGHT, in hexes (cells in free space).
        #[arg(long, default_value = "30x20")]
        size: String,
        /// A new map is a free-space table (Belle Alliance), not hexes.
        #[arg(long)]
        free_space: bool,
        /// The terrain a new map is laid with.
        #[arg(long, default_value = "Clear")]
        fill: String,
        /// Take a picture of the editor's screen once drawn, save it as
        /// this PNG, and exit (for tests and docs).
        #[arg(long, value_name = "PNG")]
        shot: Option<PathBuf>,
    },
}

/// `--size WIDTHxHEIGHT`, each 1 to 2000.
fn map_size(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--size {s:?}: expected WIDTHxHEIGHT, each 1 to 2000 (30x20)");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (u32, u32) = (w.trim().parse().map_err(|_| bad())?, h.trim().parse().map_err(|_| bad())?);
    if !(1..=2000).contains(&w) || !(1..=2000).contains(&h) {
        return Err(bad());
    }
    Ok((w, h))
}

/// `--fill TERRAIN`, by its name in any case.
fn terrain_named(s: &str) -> Result<crate::terrain::Terrain, String> {
    use crate::terrain::Terrain;
    Terrain::ALL.into_iter().find(|t| format!("{t:?}").eq_ignore_ascii_case(s)).ok_or_else(|| {
        let names: Vec<String> = Terrain::ALL.iter().map(|t| format!("{t:?}")).collect();
        format!("--fill {s:?}: expected one of {}", names.join(", "))
    })
}

/// What the binary does with a parsed command line. The window is passed in
/// by `main` so the library stays headless.
pub fn run(cli: Cli, window: impl FnOnce(WindowRequest) -> ExitCode) -> ExitCode {
    match cli.command {
        None => window(WindowRequest { file: None, shot: None, edit: None }),
        Some(Command::Play { file }) => window(WindowRequest { file, shot: None, edit: None }),
        Some(Command::Edit { file, size, free_space, fill, shot }) => {
            let (size, fill) = match (map_size(&size), terrain_named(&fill)) {
                (Ok(s), Ok(f)) => (s, f),
                (Err(m), _) | (_, Err(m)) => return usage_error(&m),
            };
            let mode = if free_space { Mode::FreeSpace } else { Mode::Hex };
            let file = file.unwrap_or_else(|| PathBuf::from("new-scenario.ron"));
            window(WindowRequest { file: None, shot: None, edit: Some(EditRequest { file, mode, size, fill, shot }) })
        }
        Some(Command::Shot { file, out, turns, seed, ai, why }) => {
            // A side id is checked here, before a window opens, when the
            // file can be read; a file that cannot is left to the window,
            // which pictures its errors.
            if let Some(sides) = sides_of(&file)
                && let Err(msg) = ai::ai_choice(&ai, &sides)
            {
                return usage_error(&msg);
            }
            window(WindowRequest {
                file: Some(file),
                shot: Some(ShotRequest { out, turns, seed, ai, why }),
                edit: None,
            })
        }
        Some(Command::Check { files }) => check(&files),
        Some(Command::Simulate { file, seed, turns, ai, dice, events, save, explain }) => {
            let out = Written { events: events.as_deref(), save: save.as_deref(), explain };
            simulate(&file, seed, turns, &ai, dice.as_deref(), out)
        }
        Some(Command::Replay { file, events }) => replay(&file, events.as_deref()),
        Some(Command::Forecast(args)) => forecast::run(&args),
        Some(Command::Fork(args)) => fork::run(&args),
        Some(Command::Odds(args)) => odds::run(&args),
        Some(Command::Batch(args)) => batch::run(&args),
        Some(Command::Generate { seed, free_space, out }) => generate(seed, free_space, out.as_deref()),
        Some(Command::Why(args)) => match why::why(&args) {
            Ok(answer) => {
                for note in &answer.notes {
                    eprintln!("{note}");
                }
                // A reader that stops early (`| head`) is no error.
                let _ = std::io::stdout().lock().write_all(answer.out.as_bytes());
                ExitCode::SUCCESS
            }
            Err(why::Refusal(lines)) => {
                for line in lines {
                    eprintln!("{line}");
                }
                ExitCode::FAILURE
            }
        },
    }
}

/// What the window should open, and whether to take a screenshot and exit.
#[derive(Clone, Debug)]
pub struct WindowRequest {
    pub file: Option<PathBuf>,
    pub shot: Option<ShotRequest>,
    /// `sauve edit`: the editor, on this file.
    pub edit: Option<EditRequest>,
}

/// `sauve edit FILE`: the file, and a new map's mode, size and terrain
/// if it does not exist yet.
#[derive(Clone, Debug)]
pub struct EditRequest {
    pub file: PathBuf,
    pub mode: Mode,
    pub size: (u32, u32),
    pub fill: crate::terrain::Terrain,
    /// `--shot PNG`: a picture of the editor, then exit.
    pub shot: Option<PathBuf>,
}

#[derive(Clone, Debug)]
pub struct ShotRequest {
    pub out: PathBuf,
    pub turns: u32,
    pub seed: Option<u64>,
    /// `--ai` as given (see [`ai::ai_choice`]).
    pub ai: String,
    /// `--why`: the unit whose why view is pictured.
    pub why: Option<String>,
}

/// The sides of a scenario or save file, if it reads and validates.
fn sides_of(file: &Path) -> Option<Vec<scenario::Side>> {
    let text = crate::save::read_text(file).ok()?;
    let scenario = if crate::save::is_save(&text) {
        crate::save::SaveGame::parse(&text, "").ok()?.1
    } else {
        scenario::parse(&text, "").ok()?
    };
    Some(scenario.sides)
}

/// `sauve generate`: generated battle (or table) `seed`, to `out` or
/// standard output.
fn generate(seed: u64, free_space: bool, out: Option<&Path>) -> ExitCode {
    let text =
        if free_space { crate::generate::table::table_text(seed) } else { crate::generate::battle::battle_text(seed) };
    let written = match out {
        Some(path) => crate::save::write_atomically(path, &text),
        None => std::io::stdout().lock().write_all(text.as_bytes()),
    };
    match (written, out) {
        (Ok(()), _) => ExitCode::SUCCESS,
        (Err(e), Some(path)) => exit::fail(vec![format!("{}: error: cannot write the scenario: {e}", path.display())]),
        // A reader that stops early (`| head`) is no error.
        (Err(_), None) => ExitCode::SUCCESS,
    }
}

/// `sauve check`: each file validated; problems are errors (non-zero exit),
/// and a valid file's warnings (legal, almost surely not meant) are printed
/// after its `ok` line without changing the exit status.
fn check(files: &[PathBuf]) -> ExitCode {
    let mut bad = false;
    for f in files {
        let name = f.display().to_string();
        let loaded = std::fs::read(f)
            .map_err(|source| scenario::LoadError::Io { file: name.clone(), source })
            .and_then(|bytes| scenario::parse_bytes(&bytes, &name).map(|s| (s, bytes)));
        match loaded {
            Ok((s, bytes)) => {
                println!("{name}: ok ({}, {:?} mode, {} units)", s.name, s.mode, s.units.len());
                let mut warnings = crate::checks::warnings(&s);
                scenario::locate(&mut warnings, &String::from_utf8_lossy(&bytes));
                for w in warnings {
                    eprintln!("{}", w.line(&name, "warning"));
                }
            }
            Err(e) => {
                bad = true;
                for line in e.lines() {
                    eprintln!("{line}");
                }
            }
        }
    }
    if bad { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

/// What `simulate` writes besides its summary.
struct Written<'a> {
    events: Option<&'a Path>,
    save: Option<&'a Path>,
    explain: bool,
}

fn simulate(
    file: &Path,
    seed: Option<u64>,
    turns: Option<u32>,
    ai: &str,
    dice: Option<&str>,
    out: Written,
) -> ExitCode {
    let Written { events, save, explain } = out;
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let mut scenario = match scenario::load(file) {
        Ok(s) => s,
        Err(e) => {
            for line in e.lines() {
                eprintln!("{line}");
            }
            return ExitCode::FAILURE;
        }
    };
    if let Some(t) = turns {
        if t == 0 || t > 1000 {
            return usage_error("--turns must be 1..=1000");
        }
        scenario.turns = t;
    }
    let ai = match ai::ai_choice(ai, &scenario.sides) {
        Ok(choice) => {
            scenario = choice.apply(scenario);
            choice.seats
        }
        Err(msg) => return usage_error(&msg),
    };
    let script = match dice.map(|d| parse_script(d, scenario.mode == Mode::Hex)).transpose() {
        Ok(s) => s.unwrap_or_default(),
        Err(msg) => return usage_error(&msg),
    };
    let seed = seed.unwrap_or(scenario.seed);
    let scenario = Arc::new(scenario);
    let mut sim = Simulation::new(scenario.clone(), seed, script, ai);
    if explain {
        sim.app.world_mut().insert_resource(crate::sim::Deliberations::default());
    }
    sim.run();
    if let Some(weighed) = sim.app.world_mut().remove_resource::<crate::sim::Deliberations>() {
        println!("What the planning AI weighed ({} decisions):", weighed.0.len());
        for d in &weighed.0 {
            for line in d.lines(&scenario) {
                println!("{line}");
            }
        }
        println!();
    }
    if let Some(path) = save {
        let written = match crate::save::capture(sim.app.world(), &text) {
            Some(s) => s.write(path),
            None => Err(std::io::Error::other("no battle to save")),
        };
        if let Err(e) = written {
            eprintln!("{}: error: cannot write the save: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    report(&scenario, seed, &mut sim, events)
}

/// `sauve replay`: a save's game played again to its save point. A save
/// whose orders cannot all be carried out is not the game it claims to be:
/// the first failing order is named and the exit status is not 0 (the log
/// and summary are still written, to look into).
fn replay(file: &Path, events: Option<&Path>) -> ExitCode {
    let loaded = crate::save::read_text(file)
        .and_then(|text| crate::save::SaveGame::parse(&text, &file.display().to_string()).map(|l| (l, text)));
    let ((save, scenario), text) = match loaded {
        Ok(x) => x,
        Err(e) => {
            for line in e.lines() {
                eprintln!("{line}");
            }
            return ExitCode::FAILURE;
        }
    };
    let scenario = Arc::new(scenario);
    let mut sim = Simulation::new(scenario.clone(), save.seed, save.dice.clone(), Seats::Nobody);
    crate::save::restore(sim.app.world_mut(), &save, scenario.clone());
    let failed = crate::save::failed_order(sim.app.world(), &save, &text);
    if let Some(p) = &failed {
        eprintln!("{}", p.line(&file.display().to_string(), "error"));
    }
    match report(&scenario, save.seed, &mut sim, events) {
        _ if failed.is_some() => ExitCode::FAILURE,
        code => code,
    }
}

/// Writes the event log if asked and prints the summary.
fn report(scenario: &Scenario, seed: u64, sim: &mut Simulation, events: Option<&Path>) -> ExitCode {
    let mut extra = String::new();
    if let Some(s) = crate::sim::summary(sim.app.world_mut()) {
        extra += &s.to_string();
    }
    if let Some(s) = crate::sim::score(sim.app.world_mut()) {
        extra += &s.to_string();
    }
    // A free-space table is judged only when it was played (a `GameOver`).
    let judged = sim.log().events.iter().any(|e| matches!(e.kind, crate::events::EventKind::GameOver { .. }));
    if judged && let Some(s) = crate::sim::fs_score(sim.app.world_mut()) {
        extra += &s.words(&scenario.sides);
    }
    let log = sim.log();
    let to_stdout = events.is_some_and(|p| p == Path::new("-"));
    if let Some(path) = events {
        let written = if to_stdout {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            log.write_jsonl(&mut lock).and_then(|_| lock.flush())
        } else {
            crate::save::write_atomically(path, &log.to_jsonl())
        };
        if let Err(e) = written {
            eprintln!("{}: error: cannot write the event log: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    let summary = summary(scenario, seed, log) + &extra;
    if to_stdout {
        eprint!("{summary}");
    } else {
        print!("{summary}");
    }
    ExitCode::SUCCESS
}

/// A plain-text account of a finished simulation.
pub fn summary(scenario: &Scenario, seed: u64, log: &EventLog) -> String {
    let mut out = format!("{} ({:?} mode), seed {seed}, {} turns\n", scenario.name, scenario.mode, scenario.turns);
    let (mut checks, mut failed, mut contagion, mut moves) = (0, 0, 0, 0);
    for e in &log.events {
        match &e.kind {
            EventKind::MoraleCheck { passed, cause, .. } => {
                checks += 1;
                failed += usize::from(!passed);
                contagion += usize::from(*cause == crate::events::Cause::Contagion);
            }
            EventKind::Move { .. } => moves += 1,
            _ => {}
        }
    }
    out += &format!(
        "{} events: {checks} morale checks ({failed} failed, {contagion} for contagion), {moves} forced or ordered moves\n",
        log.events.len()
    );
    if let Some(EventKind::Final { units }) = log.events.last().map(|e| &e.kind) {
        for side in &scenario.sides {
            let mine: Vec<_> = units.iter().filter(|u| u.side == side.id).collect();
            let count = |s: State| mine.iter().filter(|u| u.state == s).count();
            let off = mine.iter().filter(|u| u.at.is_none() && u.state == State::Routed).count();
            out += &format!("  {} ({}): {} units", side.name, side.id, mine.len());
            let states: &[(State, &str)] = if scenario.mode == Mode::Hex {
                &[
                    (State::GoodOrder, "good order"),
                    (State::Disordered, "disordered"),
                    (State::Routed, "routed"),
                    (State::Surrendered, "surrendered"),
                    (State::Eliminated, "eliminated"),
                ]
            } else {
                &[(State::Order, "order"), (State::LU, "LU"), (State::U, "U"), (State::FU, "FU")]
            };
            for (s, name) in states {
                out += &format!(", {} {name}", count(*s));
            }
            if off > 0 {
                out += &format!(" ({off} recovering off the map)");
            }
            out += "\n";
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn shot_takes_ai_and_by_default_nobody_gives_orders() {
        let shot = |args: &[&str]| match Cli::try_parse_from(args).map(|c| c.command) {
            Ok(Some(Command::Shot { ai, turns, seed, .. })) => (ai, turns, seed),
            other => panic!("{other:?}"),
        };
        assert_eq!(shot(&["sauve", "shot", "f.ron", "--out", "f.png"]), ("none".into(), 0, None));
        assert_eq!(
            shot(&["sauve", "shot", "f.ron", "--out", "f.png", "--turns", "2", "--seed", "5", "--ai", "fr"]),
            ("fr".into(), 2, Some(5))
        );
    }

    #[test]
    fn shot_help_says_what_each_option_does_and_who_gives_orders() {
        let mut cmd = Cli::command();
        let help = cmd.find_subcommand_mut("shot").map(|c| c.render_long_help().to_string()).unwrap_or_default();
        for needle in [
            "--out <OUT>",
            "Where to write the picture (PNG)",
            "--turns <TURNS>",
            "Turns to play before the picture is taken",
            "--seed <SEED>",
            "Seed for the dice",
            "--ai <AI>",
            "nobody gives orders in those turns",
            "`both` (the AI plays every side)",
        ] {
            assert!(help.contains(needle), "{needle:?} missing from:\n{help}");
        }
    }
}
