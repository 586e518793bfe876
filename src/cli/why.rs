//! `sauve why`: the chain of causes behind a unit's fall, read from an event
//! log, as a tree in sentences (or JSON, or a Graphviz digraph); or the
//! log's cascades by size. The reading and the words are the rules crate's
//! (`why`); here are the arguments and the errors a person meets.

use std::path::PathBuf;

use clap::{ArgGroup, Args};

use crate::scenario::{self, Scenario};
use crate::sentences::Names;
use crate::why::cascades::cascades;
use crate::why::graph::Graph;
use crate::why::names::{Ids, ScenarioNames};
use crate::why::tree::Tree;
use crate::why::{dot, json, text};

/// The arguments of `sauve why`.
#[derive(Args, Debug)]
#[command(
    group(ArgGroup::new("what").required(true).args(["unit", "event", "cascades"])),
    override_usage = "sauve why LOG UNIT [--turn N] [--json | --dot] [--scenario FILE]\n       \
                      sauve why LOG --event SEQ [--json | --dot] [--scenario FILE]\n       \
                      sauve why LOG --cascades [--turn N] [--json] [--scenario FILE]"
)]
pub struct WhyArgs {
    /// The event log (JSON Lines, as `sauve simulate --events` writes it).
    pub log: PathBuf,
    /// The unit (its id) whose fall to explain: its worst (surrender,
    /// elimination or leaving the map, then rout, then disorder), the
    /// latest of equals.
    pub unit: Option<String>,
    /// Only that turn's falls; with --cascades, the cascades that started
    /// in it.
    #[arg(long, conflicts_with = "event")]
    pub turn: Option<u32>,
    /// Explain the event of this `seq` instead: another fall of a unit
    /// than its worst, a volley, a corps breaking.
    #[arg(long, value_name = "SEQ")]
    pub event: Option<u64>,
    /// List the log's cascades instead, the largest first: where each
    /// started, how many units it took, how deep it went, and which.
    #[arg(long)]
    pub cascades: bool,
    /// Write JSON for scripts instead of sentences.
    #[arg(long, conflicts_with = "dot")]
    pub json: bool,
    /// Write a Graphviz digraph of the chain (`| dot -Tsvg`), causes
    /// pointing at what they caused.
    #[arg(long, conflicts_with = "cascades")]
    pub dot: bool,
    /// The scenario the log was played from, for the units' and sides'
    /// names (otherwise the log's ids are used).
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<PathBuf>,
}

/// What the command prints: the answer on stdout, notes on stderr.
pub struct Answer {
    pub out: String,
    pub notes: Vec<String>,
}

/// Why no answer came: error lines for stderr (each naming the file it is
/// about).
pub struct Refusal(pub Vec<String>);

fn refuse(line: String) -> Refusal {
    Refusal(vec![line])
}

/// Runs `sauve why`.
pub fn why(args: &WhyArgs) -> Result<Answer, Refusal> {
    let file = args.log.display().to_string();
    let text = std::fs::read(&args.log)
        .map_err(|e| refuse(format!("{file}: error: cannot read the event log: {e}")))
        .and_then(|bytes| {
        String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            refuse(format!("{file}: error: the event log is not UTF-8 text (a bad byte at offset {at})"))
        })
    })?;
    let g = Graph::read(&text).map_err(|e| refuse(format!("{file}:{e}")))?;
    if g.is_empty() {
        return Err(refuse(format!("{file}: error: the event log is empty")));
    }
    let mut notes = Vec::new();
    if g.len() > 1 && (0..g.len()).all(|i| g.because(i).is_empty()) {
        notes.push(format!(
            "{file}: warning: no event in this log names a cause (`because`, written since the cause graph): each stands alone"
        ));
    }
    let scenario = args.scenario.as_deref().map(scenario::load).transpose().map_err(|e| Refusal(e.lines()))?;
    if let (Some(s), Some(path)) = (&scenario, &args.scenario)
        && !g.units().iter().any(|u| s.unit_index(u).is_some())
    {
        notes.push(format!(
            "{}: warning: none of the log's units is in this scenario: the log's ids are said as they are",
            path.display()
        ));
    }
    let names: Box<dyn Names + '_> = match &scenario {
        Some(s) => Box::new(ScenarioNames(s)),
        None => Box::new(Ids { free_space: g.free_space }),
    };
    let turns = (g.nodes[0].turn, g.nodes[g.len() - 1].turn);
    if let Some(t) = args.turn
        && !g.nodes.iter().any(|n| n.turn == t)
    {
        return Err(refuse(format!(
            "{file}: error: --turn {t}: the log runs from turn {} to turn {}",
            turns.0, turns.1
        )));
    }
    let out = match (&args.unit, args.event) {
        (Some(unit), _) => explain(&g, &file, unit, scenario.as_ref(), args, names.as_ref()),
        (None, Some(seq)) => explain_event(&g, &file, seq, args, names.as_ref()),
        (None, None) => list_cascades(&g, args, names.as_ref()),
    }?;
    Ok(Answer { out, notes })
}

/// The log's cascades, in words or JSON.
fn list_cascades(g: &Graph, args: &WhyArgs, names: &dyn Names) -> Result<String, Refusal> {
    let file = args.log.display().to_string();
    let mut found = cascades(g);
    if let Some(t) = args.turn {
        found.retain(|c| g.nodes[c.start as usize].turn == t);
    }
    let written = if args.json {
        json::cascades(g, &found, names)
    } else if found.is_empty() && args.turn.is_some() {
        Ok(format!("No cascade started on turn {}\n", args.turn.unwrap_or_default()))
    } else {
        text::cascades(g, &found, names)
    };
    written.map_err(|e| refuse(format!("{file}:{e}")))
}

/// The tree behind one unit's fall.
fn explain(
    g: &Graph,
    file: &str,
    asked: &str,
    scenario: Option<&Scenario>,
    args: &WhyArgs,
    names: &dyn Names,
) -> Result<String, Refusal> {
    let unit = find_unit(g, file, asked, scenario)?;
    let id = g.unit_id(unit);
    let Some(target) = g.fate(unit, args.turn) else {
        return Err(refuse(nothing_befell(g, file, unit, args.turn)));
    };
    let tree = Tree::new(g, target).ok_or_else(|| refuse(format!("{file}: error: no event #{target}")))?;
    let written = if args.json {
        json::tree(g, &tree, names)
    } else if args.dot {
        dot::tree(g, &tree, names)
    } else {
        text::tree(g, &tree, names).and_then(|t| Ok(t + &text::other_falls(g, unit, &tree)?))
    };
    written.map_err(|e| refuse(format!("{file}:{e} (while reading what befell {id})")))
}

/// The tree behind one event, asked for by its `seq`.
fn explain_event(g: &Graph, file: &str, seq: u64, args: &WhyArgs, names: &dyn Names) -> Result<String, Refusal> {
    let tree = Tree::new(g, seq).ok_or_else(|| {
        refuse(format!("{file}: error: --event {seq}: the log's events are #0 to #{}", g.len().saturating_sub(1)))
    })?;
    let written = if args.json {
        json::tree(g, &tree, names)
    } else if args.dot {
        dot::tree(g, &tree, names)
    } else {
        text::tree(g, &tree, names)
    };
    written.map_err(|e| refuse(format!("{file}:{e}")))
}

/// The unit asked about: an id the log knows, or, with a scenario, a
/// unit's name; otherwise an error that offers the ids nearest it.
fn find_unit(g: &Graph, file: &str, asked: &str, scenario: Option<&Scenario>) -> Result<u32, Refusal> {
    if let Some(u) = g.unit(asked) {
        return Ok(u);
    }
    let by_name = scenario.and_then(|s| s.units.iter().find(|u| u.name.eq_ignore_ascii_case(asked)));
    if let Some(u) = by_name.and_then(|u| g.unit(&u.id)) {
        return Ok(u);
    }
    let close = g.close_ids(asked, 5);
    let hint = if close.is_empty() {
        let some: Vec<&str> = g.units().iter().take(5).map(String::as_str).collect();
        let more = if g.units().len() > some.len() { ", ..." } else { "" };
        format!("it knows {} units: {}{more}", g.units().len(), some.join(", "))
    } else {
        format!("did you mean {}?", close.join(", "))
    };
    Err(refuse(format!("{file}: error: no unit '{asked}' in this log; {hint}")))
}

/// Why there is no fall to explain: none at all, or none that turn.
fn nothing_befell(g: &Graph, file: &str, unit: u32, turn: Option<u32>) -> String {
    let id = g.unit_id(unit);
    let mut turns: Vec<u32> = g.falls(unit).map(|n| n.turn).collect();
    turns.dedup();
    match turn {
        Some(t) if !turns.is_empty() => {
            let list: Vec<String> = turns.iter().map(u32::to_string).collect();
            format!(
                "{file}: error: nothing befell {id} on turn {t}; it fell on turn{} {} (try --turn {})",
                if turns.len() == 1 { "" } else { "s" },
                list.join(", "),
                turns[0]
            )
        }
        _ => {
            let fell =
                if g.free_space { "was never unformed (LU, U or FU)" } else { "never fell into disorder or rout" };
            format!(
                "{file}: error: nothing befell {id}{}: it {fell}, surrendered, was eliminated or left the map",
                turn.map(|t| format!(" on turn {t}")).unwrap_or_default()
            )
        }
    }
}
