//! Semantic validation of a scenario file: every problem found in one pass,
//! each placed at its entry or field, in the file's order of blocks. The
//! units are checked in `units`, the victory conditions in `victory`, the
//! map in `map`; the rest here.

use std::collections::BTreeMap;

use crate::hex::Edge;
use crate::rules::MAX_TURNS;
use crate::scenario::file::{FORMAT_VERSION, ScenarioFile};
use crate::scenario::map::build_map;
use crate::scenario::problem::{About, Collector, Problem, list};
use crate::scenario::spec::{DEFAULT_AGGRESSION, Scenario, Shock, Side, Staff};
use crate::scenario::units::units;
use crate::scenario::victory::victory;
use crate::vocab::Mode;
use crate::vocab::State;

/// Semantic validation: collects every problem in one pass.
pub fn validate(raw: ScenarioFile) -> Result<Scenario, Vec<Problem>> {
    let mut p = Collector(Vec::new());
    let mode = raw.mode;
    header(&raw, &mut p);
    let sides = sides(&raw, &mut p);
    let map = build_map(&raw.map, mode, &mut p);
    let cell_cm = raw.map.cell_cm.unwrap_or(10.0);
    map_mode(&raw, cell_cm, &mut p);
    for (field, msg) in raw.rules.problems() {
        p.add(field, msg);
    }
    let (units, unit_ids) = units(&raw, &sides, &map, cell_cm, &mut p);
    let shocks = shocks(&raw, &unit_ids, &mut p);
    let staff = staff(&raw, &sides, (map.width as f32 * cell_cm, map.height as f32 * cell_cm), &mut p);
    let victory = victory(&raw, &map, &sides, &units, &unit_ids, &mut p);

    if p.0.is_empty() {
        Ok(Scenario {
            name: raw.name,
            description: raw.description,
            mode,
            turns: raw.turns,
            seed: raw.seed,
            sides,
            map,
            cell_cm,
            units,
            shocks,
            staff,
            objectives: victory.objectives,
            exits: victory.exits,
            corps: victory.corps,
            leaders: victory.leaders,
            rules: raw.rules,
        })
    } else {
        Err(p.0)
    }
}

/// The file's format, name and length.
fn header(raw: &ScenarioFile, p: &mut Collector) {
    if raw.format != FORMAT_VERSION {
        p.add("format", format!("unsupported format {} (this build reads format {FORMAT_VERSION})", raw.format));
    }
    if raw.name.trim().is_empty() {
        p.add("name", "must not be empty");
    }
    if !(1..=MAX_TURNS).contains(&raw.turns) {
        p.add("turns", format!("{} must be 1..={MAX_TURNS}", raw.turns));
    }
}

/// The two sides, with their defaults filled in: the first falls back
/// south, the second north, unless the file says otherwise.
fn sides(raw: &ScenarioFile, p: &mut Collector) -> Vec<Side> {
    if raw.sides.len() != 2 {
        p.add("sides", format!("exactly two sides are needed, found {}", raw.sides.len()));
    }
    let mut sides: Vec<Side> = Vec::new();
    let mut side_ids: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, s) in raw.sides.iter().enumerate() {
        let about = About::entry("side", &s.id, format!("sides[{i}]"));
        if s.id.trim().is_empty() {
            p.add(about.field("id"), "id must not be empty");
        } else if let Some(&first) = side_ids.get(s.id.as_str()) {
            p.duplicate(&about, format!("sides[{first}]"), "duplicate side id");
        } else {
            side_ids.insert(s.id.as_str(), i);
        }
        let rear = s.rear.unwrap_or(if i == 0 { Edge::South } else { Edge::North });
        let aggression = s.aggression.unwrap_or(DEFAULT_AGGRESSION);
        if !(0.0..=1.0).contains(&aggression) {
            p.add(about.field("aggression"), format!("aggression {aggression} must be 0.0..=1.0"));
        }
        sides.push(Side {
            id: s.id.clone(),
            name: s.name.clone().unwrap_or_else(|| s.id.clone()),
            rear,
            control: s.control,
            aggression,
            level: s.level.unwrap_or_default(),
        });
    }
    // Routers run for their own rear and away from the enemy's; with one
    // edge for both, a rout would run towards the enemy's line of retreat.
    if let [first, second] = sides.as_slice()
        && first.rear == second.rear
    {
        p.add(
            About::entry("side", &second.id, "sides[1]".into()).field("rear"),
            format!(
                "rear {:?} is also the rear of side '{}': the two sides must fall back towards different edges",
                second.rear, first.id
            ),
        );
    }
    sides
}

/// The map fields that only one mode reads: the free-space cell size, the
/// hex-mode hexsides.
fn map_mode(raw: &ScenarioFile, cell_cm: f32, p: &mut Collector) {
    match raw.mode {
        Mode::Hex => {
            if raw.map.cell_cm.is_some() {
                p.add("map.cell_cm", "only used in FreeSpace mode");
            }
        }
        Mode::FreeSpace => {
            if !(cell_cm.is_finite() && cell_cm > 0.0 && cell_cm <= 1000.0) {
                p.add("map.cell_cm", format!("{cell_cm} must be above 0 and at most 1000"));
            }
            if !raw.map.hexsides.is_empty() {
                p.add("map.hexsides", "only used in Hex mode");
            }
        }
    }
}

/// The scripted shocks, their units and causes by index.
fn shocks(raw: &ScenarioFile, unit_ids: &BTreeMap<&str, usize>, p: &mut Collector) -> Vec<Shock> {
    let mode = raw.mode;
    let mut shocks = Vec::new();
    for (i, s) in raw.shocks.iter().enumerate() {
        let subject = About::from(format!("shocks[{i}]"));
        let unit = unit_ids.get(s.unit.as_str()).copied();
        if unit.is_none() {
            p.add(subject.field("unit"), format!("unit '{}' does not exist", s.unit));
        }
        let cause = match &s.cause {
            None => None,
            Some(c) => {
                let idx = unit_ids.get(c.as_str()).copied();
                if idx.is_none() {
                    p.add(subject.field("cause"), format!("cause '{c}' is not a unit id"));
                }
                idx
            }
        };
        if s.turn == 0 || s.turn > raw.turns {
            p.add(subject.field("turn"), format!("turn {} is outside the scenario's turns 1..={}", s.turn, raw.turns));
        }
        let allowed: &[State] = match mode {
            Mode::Hex => &[State::Disordered, State::Routed],
            Mode::FreeSpace => &[State::LU, State::U, State::FU],
        };
        if !allowed.contains(&s.to) {
            p.add(
                subject.field("to"),
                format!(
                    "`to: {:?}` is not a {mode:?}-mode shock (use {})",
                    s.to,
                    list(allowed.iter().map(|a| format!("{a:?}")))
                ),
            );
        }
        if let Some(u) = unit
            && cause == Some(u)
        {
            p.add(subject.field("cause"), "a unit cannot be its own cause");
        }
        if let Some(u) = unit {
            shocks.push(Shock { turn: s.turn, unit: u, to: s.to, cause });
        }
    }
    shocks
}

/// The staff figures of a free-space table `(w, h)` cm large.
fn staff(raw: &ScenarioFile, sides: &[Side], (w, h): (f32, f32), p: &mut Collector) -> Vec<Staff> {
    let mut staff = Vec::new();
    for (i, f) in raw.staff.iter().enumerate() {
        let subject = About::from(format!("staff[{i}]"));
        if raw.mode != Mode::FreeSpace {
            p.add(&subject, "staff figures stand on FreeSpace tables only");
            continue;
        }
        let Some(side) = sides.iter().position(|s| s.id == f.side) else {
            p.add(subject.field("side"), format!("side '{}' does not exist", f.side));
            continue;
        };
        let (x, y) = f.pos;
        if !(x.is_finite() && y.is_finite() && (0.0..=w).contains(&x) && (0.0..=h).contains(&y)) {
            p.add(subject.field("pos"), format!("pos ({x}, {y}) is off the {w}x{h} cm table"));
            continue;
        }
        staff.push(Staff { side, x, y, name: f.name.clone().unwrap_or_else(|| format!("staff {i}")) });
    }
    staff
}
