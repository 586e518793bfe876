//! The planning AI (`hard`, docs/rules.md "Hard"): before its movement
//! phase a side splits its units into groups (its corps, a large one cut
//! along its front), and weighs a script for each group ([`Script`]) by
//! playing the battle on from here: the movement with those scripts, then
//! the rest of its turn and the enemy's reply, with `normal` giving every
//! other order on both sides ([`super::rollout`]). Each choice is played
//! over the same continuations (the same dice), so two choices differ by
//! what they are alone. The search is a portfolio greedy search: from every
//! group on `Advance`, each group in turn takes the script that does best
//! with the others as they stand, over `rules.ai.hard.passes` passes.
//!
//! The continuations' dice are seeded from the game's seed, the turn, the
//! side and the continuation's number, never drawn from the game's own
//! dice, so a game and its replay are the same, on any number of threads.

use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use crate::labataille::Board;
use crate::labataille::combat::Battlefield;
use crate::labataille::engine::Engine;
use crate::labataille::orders::Activity;
use crate::rules::hard::HardRules;
use crate::scenario::Scenario;
use crate::vocab::{AiLevel, State};

use super::goals::{AiGoals, Foresight};
use super::rollout::Rollout;
use super::script::Script;

/// Units given one script together.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The corps' name, with its part when it was split ("II Korps (2/3)").
    pub name: String,
    /// Unit indices.
    pub units: Vec<usize>,
    /// Units of a corps that has broken: they fall back as `normal`'s do
    /// (`advance`) unless held where they stand (`hold`), the one other
    /// script weighed for them.
    pub broken: bool,
}

impl Group {
    /// The scripts weighed for the group.
    pub fn choices(&self) -> &'static [Script] {
        const BROKEN: [Script; 2] = [Script::Advance, Script::Hold];
        if self.broken { &BROKEN } else { &Script::ALL }
    }
}

/// One choice weighed: a group's script, the others as they stood.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// Index into [`Deliberation::groups`].
    pub group: usize,
    pub script: Script,
    /// The mean worth of its continuations (points, see docs/rules.md "Hard").
    pub worth: f32,
    /// How many continuations that mean is over: the first look's, or all
    /// of them for the one that led it.
    pub rollouts: u32,
    /// Whether it became the group's script.
    pub kept: bool,
}

/// What `hard` weighed for one movement phase and what it chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Deliberation {
    pub side: usize,
    pub turn: u32,
    pub groups: Vec<Group>,
    /// The worth of every group on `Advance` (the `normal` AI's play).
    pub baseline: f32,
    /// Every choice tried, in the order tried.
    pub tried: Vec<Trial>,
    /// Each group's script, by [`Deliberation::groups`].
    pub chosen: Vec<Script>,
    /// The worth of the chosen scripts.
    pub worth: f32,
    /// Continuations played.
    pub rollouts: u32,
    /// The search was asked to stop early ([`DeliberationProgress::hurry`]) and gave
    /// the best scripts found so far.
    pub hurried: bool,
}

impl Deliberation {
    /// Each unit's script (by unit index, `units` long).
    pub fn scripts(&self, units: usize) -> Vec<Script> {
        unit_scripts(&self.groups, &self.chosen, units)
    }

    /// The deliberation in lines, for `--explain`.
    pub fn lines(&self, scenario: &Scenario) -> Vec<String> {
        let side = scenario.sides.get(self.side).map_or("?", |s| s.name.as_str());
        let hurried = if self.hurried { " (hurried)" } else { "" };
        let mut out = vec![format!(
            "turn {}, {side}: {} continuations{hurried}; every group advancing is worth {:+.2}, the chosen scripts {:+.2}",
            self.turn, self.rollouts, self.baseline, self.worth
        )];
        for (g, group) in self.groups.iter().enumerate() {
            let tried: Vec<String> = self
                .tried
                .iter()
                .filter(|t| t.group == g)
                .map(|t| {
                    let kept = if t.kept { ", kept" } else { "" };
                    format!("{} {:+.2} ({} runs{kept})", t.script.word(), t.worth, t.rollouts)
                })
                .collect();
            out.push(format!(
                "  {} ({} units{}): {}; tried {}",
                group.name,
                group.units.len(),
                if group.broken { ", broken" } else { "" },
                self.chosen[g].word(),
                if tried.is_empty() { "nothing else".to_owned() } else { tried.join(", ") }
            ));
        }
        out
    }
}

/// How far a deliberation has gone, read from another thread (the
/// window's progress bar), and a wish to have it stop early (Esc).
#[derive(Debug, Default)]
pub struct DeliberationProgress {
    done: AtomicU32,
    planned: AtomicU32,
    hurry: AtomicBool,
}

impl DeliberationProgress {
    /// The share of the continuations planned that have been played,
    /// 0 ..= 1 (1 once the search is over).
    pub fn fraction(&self) -> f32 {
        let planned = self.planned.load(Ordering::Relaxed);
        if planned == 0 { 0.0 } else { (self.done.load(Ordering::Relaxed) as f32 / planned as f32).min(1.0) }
    }

    /// Asks the search to stop after the group it is weighing and give the
    /// best scripts found so far.
    pub fn hurry(&self) {
        self.hurry.store(true, Ordering::Relaxed);
    }

    fn hurried(&self) -> bool {
        self.hurry.load(Ordering::Relaxed)
    }

    fn played(&self, n: u32) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }
}

/// Each unit's script (by unit index, `units` long) when `groups` have
/// the scripts `chosen`; a unit in no group advances.
fn unit_scripts(groups: &[Group], chosen: &[Script], units: usize) -> Vec<Script> {
    let mut out = vec![Script::Advance; units];
    for (g, &s) in groups.iter().zip(chosen) {
        for &u in &g.units {
            if let Some(x) = out.get_mut(u) {
                *x = s;
            }
        }
    }
    out
}

/// The groups of side `side`'s units that a script can move: its units in
/// good order on the map by corps, a corps of more than `group_size` cut
/// into nearly equal parts along the map's columns; the corps not broken
/// first, then those broken (whose groups may only fall back or hold).
pub fn groups(scenario: &Scenario, board: &Board, side: usize, corps_broken: &[bool], group_size: u32) -> Vec<Group> {
    let of = |broken: bool| {
        board.units.iter().enumerate().filter_map(move |(i, u)| {
            let at = u.at.filter(|_| u.side == side && u.state == State::GoodOrder)?;
            let corps = scenario.corps_of_unit(i);
            let is_broken = corps.is_some_and(|c| corps_broken.get(c) == Some(&true));
            (is_broken == broken).then_some((i, corps, (at.c as f32, at.r as f32)))
        })
    };
    let mut out = split_groups(scenario, of(false), group_size);
    let mut broken = split_groups(scenario, of(true), group_size);
    for g in &mut broken {
        g.broken = true;
    }
    out.append(&mut broken);
    out
}

/// Units `(index, corps, place)` grouped by corps (units of no corps
/// first, then the corps in the scenario's order), a corps of more than `group_size` cut
/// into nearly equal parts from west to east (by `place`, then north to
/// south). Shared by both modes: a hex's column and row, a table's cm.
pub(crate) fn split_groups(
    scenario: &Scenario,
    movable: impl Iterator<Item = (usize, Option<usize>, (f32, f32))>,
    group_size: u32,
) -> Vec<Group> {
    let size = group_size.max(1) as usize;
    // Each corps' units with their places, in the order first met.
    type Placed = Vec<(usize, (f32, f32))>;
    let mut by_corps: Vec<(Option<usize>, Placed)> = Vec::new();
    for (i, corps, place) in movable {
        match by_corps.iter_mut().find(|(c, _)| *c == corps) {
            Some((_, units)) => units.push((i, place)),
            None => by_corps.push((corps, vec![(i, place)])),
        }
    }
    by_corps.sort_by_key(|(c, _)| *c);
    let mut out = Vec::new();
    for (corps, mut units) in by_corps {
        let name = corps.and_then(|c| scenario.corps.get(c)).map_or_else(|| "units".to_owned(), |c| c.name.clone());
        units.sort_by(|a, b| a.1.0.total_cmp(&b.1.0).then(a.1.1.total_cmp(&b.1.1)).then(a.0.cmp(&b.0)));
        let units: Vec<usize> = units.into_iter().map(|(i, _)| i).collect();
        let parts = units.len().div_ceil(size);
        let (base, extra) = (units.len() / parts, units.len() % parts);
        let mut rest = &units[..];
        for p in 0..parts {
            let (part, tail) = rest.split_at(base + usize::from(p < extra));
            rest = tail;
            let name = if parts > 1 { format!("{name} ({}/{parts})", p + 1) } else { name.clone() };
            out.push(Group { name, units: part.to_vec(), broken: false });
        }
    }
    out
}

/// Weighs scripts for side `side`'s groups before its movement phase (see
/// the module's text) and returns what it weighed and chose. `goals` are
/// the side's own, at any level (the continuations play `normal`).
#[allow(clippy::too_many_arguments)] // the position, as the orders see it
pub fn deliberate(
    bf: &Battlefield,
    index: &HashMap<String, usize>,
    activity: &Activity,
    engine: &Engine,
    board: &Board,
    side: usize,
    goals: &AiGoals,
    f: &Foresight,
) -> Deliberation {
    deliberate_watched(bf, index, activity, engine, board, side, goals, f, &DeliberationProgress::default())
}

/// As [`deliberate`], telling `progress` how far it has gone and stopping
/// early when it is hurried.
#[allow(clippy::too_many_arguments)] // as `deliberate`
pub fn deliberate_watched(
    bf: &Battlefield,
    index: &HashMap<String, usize>,
    activity: &Activity,
    engine: &Engine,
    board: &Board,
    side: usize,
    goals: &AiGoals,
    f: &Foresight,
    progress: &DeliberationProgress,
) -> Deliberation {
    let hard = &f.scenario.rules.ai.hard;
    let groups = groups(&f.scenario, board, side, &f.corps_broken, hard.group_size);
    let base = AiGoals { level: AiLevel::Normal, scripts: Vec::new(), foresight: None, ..goals.clone() };
    let start_strength = f.scenario.units.iter().map(|u| u.strength).collect();
    let rollout = Rollout { bf, index, activity, engine, board, side, goals: &base, f, hard, start_strength };
    search(groups, board.units.len(), hard, side, f.turn, progress, |scripts, k| rollout.play(scripts, k))
}

/// The portfolio greedy search (see the module's text) over `groups`'
/// scripts, for side `side` on turn `turn`, each choice of scripts (by
/// unit index, `units` long) weighed by `play`, the worth of continuation
/// `k` played with them. Shared by both modes: each brings its own
/// continuations.
#[allow(clippy::too_many_arguments)] // the groups, the budget and the forward model
pub(crate) fn search(
    groups: Vec<Group>,
    units: usize,
    hard: &HardRules,
    side: usize,
    turn: u32,
    progress: &DeliberationProgress,
    play: impl Fn(&[Script], u32) -> f32 + Sync,
) -> Deliberation {
    let k = hard.rollouts;
    let n = units;
    let mut chosen = vec![Script::Advance; groups.len()];
    let scripts_of = |chosen: &[Script]| unit_scripts(&groups, chosen, n);
    // The worth of each choice in continuations `ks`, played side by side
    // and returned in order (the same on any number of threads).
    let weigh = |choices: &[Vec<Script>], ks: std::ops::Range<u32>| -> Vec<Vec<f32>> {
        let per = ks.len();
        let worths: Vec<f32> = (0..choices.len() * per)
            .into_par_iter()
            .map(|j| play(&choices[j / per], ks.start + (j % per) as u32))
            .collect();
        progress.played(worths.len() as u32);
        worths.chunks(per.max(1)).map(<[f32]>::to_vec).collect()
    };
    let mean = |w: &[f32]| w.iter().sum::<f32>() / w.len().max(1) as f32;
    let screen = hard.screen.clamp(1, k);
    let per_group: u32 =
        groups.iter().map(|g| g.choices().len().saturating_sub(1) as u32 * screen + (k - screen)).sum();
    progress.planned.store(k + hard.passes * per_group, Ordering::Relaxed);
    let mut hurried = false;
    let mut current = weigh(&[scripts_of(&chosen)], 0..k).remove(0);
    let baseline = mean(&current);
    let mut rollouts = k;
    let mut best = baseline;
    let mut tried = Vec::new();
    'passes: for _ in 0..hard.passes {
        let mut changed = false;
        for g in 0..groups.len() {
            if progress.hurried() {
                hurried = true;
                break 'passes;
            }
            let others: Vec<Script> = groups[g].choices().iter().copied().filter(|&s| s != chosen[g]).collect();
            let choices: Vec<Vec<Script>> = others
                .iter()
                .map(|&s| {
                    let mut c = chosen.clone();
                    c[g] = s;
                    scripts_of(&c)
                })
                .collect();
            // A first look over the first `screen` continuations; the best
            // of them, if it beats the script it would replace there, is
            // played over the rest too.
            let first = weigh(&choices, 0..screen);
            rollouts += screen * choices.len() as u32;
            let here = mean(&current[..screen as usize]);
            let from = tried.len();
            let mut lead: Option<(usize, f32)> = None;
            for (c, (&script, w)) in others.iter().zip(&first).enumerate() {
                let worth = mean(w);
                tried.push(Trial { group: g, script, worth, rollouts: screen, kept: false });
                if worth > here && lead.is_none_or(|(_, lw)| worth > lw) {
                    lead = Some((c, worth));
                }
            }
            let Some((c, _)) = lead else {
                progress.played(k - screen);
                continue;
            };
            let mut all = first[c].clone();
            if screen < k {
                all.extend(weigh(&choices[c..=c], screen..k).remove(0));
                rollouts += k - screen;
            }
            let worth = mean(&all);
            let t = &mut tried[from + c];
            (t.worth, t.rollouts) = (worth, k);
            if worth > best + hard.min_gain {
                t.kept = true;
                chosen[g] = t.script;
                best = worth;
                current = all;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    progress.done.store(progress.planned.load(Ordering::Relaxed), Ordering::Relaxed);
    Deliberation { side, turn, groups, baseline, tried, chosen, worth: best, rollouts, hurried }
}
