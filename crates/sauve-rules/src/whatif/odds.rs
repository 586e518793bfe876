//! Many continuations summed into odds: per unit the chance of each fall,
//! per corps the chance it breaks, per side the chance it wins, and the
//! cascades to expect. Only whole counts are kept, so a forecast summed in
//! any order (on any number of threads) is the same forecast.

use std::fmt;

use serde::Serialize;

use super::outcome::{BROKEN, ELIMINATED, Outcome, ROUTED, SHAKEN, SURRENDERED};
use crate::scenario::Scenario;
use crate::turn::SavePoint;
use crate::vocab::State;

/// Where a forecast stands and how far it looks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Horizon {
    /// The game's seed, from which each run's seed is derived
    /// ([`super::seeds::run_seed`]).
    pub seed: u64,
    /// Where the continuations begin.
    pub from: SavePoint,
    /// They play to the end of this turn.
    pub to_turn: u32,
}

/// Counts over the runs of a forecast.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forecast {
    pub horizon: Horizon,
    pub runs: u64,
    /// Per unit (scenario order): its state where the runs begin.
    pub now: Vec<State>,
    /// Per unit, runs in which it was shaken, routed, surrendered,
    /// eliminated, and broken (any of the last three).
    pub falls: Vec<[u64; 5]>,
    /// Per corps, runs in which it ended broken.
    pub corps_broken: Vec<u64>,
    /// Per side, runs it won; then draws, and runs with a verdict at all.
    pub wins: Vec<u64>,
    pub draws: u64,
    pub decided: u64,
    /// `largest[k]`: runs whose largest cascade took `k` units.
    pub largest: Vec<u64>,
    /// Units taken by all cascades of all runs.
    pub cascade_units: u64,
}

const BITS: [u8; 5] = [SHAKEN, ROUTED, SURRENDERED, ELIMINATED, BROKEN];

impl Forecast {
    pub fn new(scenario: &Scenario, horizon: Horizon, now: Vec<State>) -> Self {
        Forecast {
            horizon,
            runs: 0,
            now,
            falls: vec![[0; 5]; scenario.units.len()],
            corps_broken: vec![0; scenario.corps.len()],
            wins: vec![0; scenario.sides.len()],
            draws: 0,
            decided: 0,
            largest: Vec::new(),
            cascade_units: 0,
        }
    }

    /// Counts one run.
    pub fn add(&mut self, o: &Outcome) {
        self.runs += 1;
        for (count, &fate) in self.falls.iter_mut().zip(&o.fates) {
            for (c, bit) in count.iter_mut().zip(BITS) {
                *c += u64::from(fate & bit != 0);
            }
        }
        for (c, &b) in self.corps_broken.iter_mut().zip(&o.corps_broken) {
            *c += u64::from(b);
        }
        if o.decided {
            self.decided += 1;
            match o.winner.and_then(|w| self.wins.get_mut(w)) {
                Some(w) => *w += 1,
                None => self.draws += 1,
            }
        }
        let largest = o.largest_cascade() as usize;
        if self.largest.len() <= largest {
            self.largest.resize(largest + 1, 0);
        }
        self.largest[largest] += 1;
        self.cascade_units += o.cascades.iter().map(|&c| u64::from(c)).sum::<u64>();
    }

    fn chance(&self, k: u64) -> f64 {
        if self.runs == 0 { 0.0 } else { k as f64 / self.runs as f64 }
    }

    /// The chance unit `u` is routed, surrendered or eliminated within the
    /// horizon (its state now counts: a routed unit is 1).
    pub fn broken_chance(&self, u: usize) -> f64 {
        self.falls.get(u).map_or(0.0, |f| self.chance(f[4]))
    }

    /// The chance corps `c` has broken by the horizon.
    pub fn corps_chance(&self, c: usize) -> f64 {
        self.corps_broken.get(c).map_or(0.0, |&k| self.chance(k))
    }

    /// The chance side `s` wins at the horizon.
    pub fn win_chance(&self, s: usize) -> f64 {
        self.wins.get(s).map_or(0.0, |&k| self.chance(k))
    }

    /// The mean size of a run's largest cascade.
    pub fn mean_largest(&self) -> f64 {
        let total: u64 = self.largest.iter().enumerate().map(|(k, &n)| k as u64 * n).sum();
        self.chance(total)
    }

    /// The forecast as its JSON report (docs/whatif.md), with each
    /// scenario id named.
    pub fn report(&self, scenario: &Scenario) -> Report {
        let p = |k: u64| round4(self.chance(k));
        Report {
            seed: self.horizon.seed,
            from: self.horizon.from,
            to_turn: self.horizon.to_turn,
            runs: self.runs,
            units: scenario
                .units
                .iter()
                .enumerate()
                .map(|(i, u)| {
                    let f = self.falls.get(i).copied().unwrap_or_default();
                    UnitOdds {
                        id: u.id.clone(),
                        side: scenario.sides.get(u.side).map_or_else(String::new, |s| s.id.clone()),
                        now: self.now.get(i).copied().unwrap_or(u.state),
                        shaken: p(f[0]),
                        routed: p(f[1]),
                        surrendered: p(f[2]),
                        eliminated: p(f[3]),
                        broken: p(f[4]),
                    }
                })
                .collect(),
            corps: scenario
                .corps
                .iter()
                .zip(&self.corps_broken)
                .map(|(c, &k)| CorpsOdds {
                    id: c.id.clone(),
                    side: scenario.sides.get(c.side).map_or_else(String::new, |s| s.id.clone()),
                    breaks: p(k),
                })
                .collect(),
            sides: scenario
                .sides
                .iter()
                .zip(&self.wins)
                .map(|(s, &k)| SideOdds { id: s.id.clone(), wins: p(k) })
                .collect(),
            draws: p(self.draws),
            decided: p(self.decided),
            largest_cascade: self.largest.clone(),
            mean_largest_cascade: round4(self.mean_largest()),
            mean_cascade_units: round4(self.chance(self.cascade_units)),
        }
    }
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// A forecast as written with `--json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub seed: u64,
    pub from: SavePoint,
    pub to_turn: u32,
    pub runs: u64,
    pub units: Vec<UnitOdds>,
    pub corps: Vec<CorpsOdds>,
    pub sides: Vec<SideOdds>,
    pub draws: f64,
    /// The share of runs with a verdict (hex mode: all of them).
    pub decided: f64,
    /// `largest_cascade[k]`: runs whose largest cascade took k units.
    pub largest_cascade: Vec<u64>,
    pub mean_largest_cascade: f64,
    pub mean_cascade_units: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnitOdds {
    pub id: String,
    pub side: String,
    pub now: State,
    pub shaken: f64,
    pub routed: f64,
    pub surrendered: f64,
    pub eliminated: f64,
    /// Routed, surrendered or eliminated.
    pub broken: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CorpsOdds {
    pub id: String,
    pub side: String,
    pub breaks: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideOdds {
    pub id: String,
    pub wins: f64,
}

fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// The forecast in words: the sides' odds, the corps', the units most
/// likely to break, and the cascades.
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let from = &self.from;
        let side = from.side.map_or_else(String::new, |s| format!(", side {s}"));
        writeln!(
            f,
            "Forecast from turn {}{side} {:?} to the end of turn {}: {} runs, the AI playing every side (seed {})",
            from.turn, from.phase, self.to_turn, self.runs, self.seed
        )?;
        if self.decided > 0.0 {
            let wins: Vec<String> = self.sides.iter().map(|s| format!("{} {}", s.id, pct(s.wins))).collect();
            writeln!(f, "Wins at the horizon: {}, draw {}", wins.join(", "), pct(self.draws))?;
        }
        if !self.corps.is_empty() {
            writeln!(f, "Corps broken by the horizon:")?;
            for c in &self.corps {
                writeln!(f, "  {:<14} ({}) {:>4}", c.id, c.side, pct(c.breaks))?;
            }
        }
        let mut units: Vec<&UnitOdds> = self.units.iter().filter(|u| u.broken > 0.0 || u.shaken > 0.0).collect();
        units.sort_by(|a, b| b.broken.total_cmp(&a.broken).then(b.shaken.total_cmp(&a.shaken)));
        writeln!(f, "Units most likely to break (routed, surrendered or eliminated):")?;
        if units.is_empty() {
            writeln!(f, "  none falls in any run")?;
        }
        for u in units.iter().take(12) {
            writeln!(
                f,
                "  {:<14} ({}) broken {:>4}  [shaken {}, routed {}, surrendered {}, eliminated {}]{}",
                u.id,
                u.side,
                pct(u.broken),
                pct(u.shaken),
                pct(u.routed),
                pct(u.surrendered),
                pct(u.eliminated),
                if u.now.hex() == State::GoodOrder { String::new() } else { format!(" now {:?}", u.now) }
            )?;
        }
        if units.len() > 12 {
            writeln!(f, "  ... {} more units fall in some run (--json lists all)", units.len() - 12)?;
        }
        writeln!(
            f,
            "Cascades: the largest takes {:.1} units on average, {:.1} units fall in cascades per run",
            self.mean_largest_cascade, self.mean_cascade_units
        )?;
        let dist: Vec<String> = self
            .largest_cascade
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(k, &n)| format!("{k}: {}", pct(n as f64 / self.runs.max(1) as f64)))
            .collect();
        writeln!(f, "  largest cascade size (units: share of runs): {}", dist.join(", "))
    }
}
