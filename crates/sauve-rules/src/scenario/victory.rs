//! What decides a battle and who leads: the objectives, exits, corps and
//! leaders of a scenario file, validated. Free space has objectives (on its
//! terrain cells) but no exits, corps or leaders.

use std::collections::{BTreeMap, BTreeSet};

use crate::hex::Offset;
use crate::map::TerrainMap;
use crate::scenario::file::ScenarioFile;
use crate::scenario::problem::{About, Collector, list};
use crate::scenario::spec::{Corps, Exit, Leader, Objective, Side, UnitSpec};
use crate::vocab::Mode;

/// The most victory points an objective or exit may be worth.
const MAX_POINTS: i64 = 100;

/// The largest leader bonus to morale checks.
const MAX_LEADER_BONUS: i64 = 6;

/// What decides the battle and who leads, validated.
#[derive(Default)]
pub(super) struct Victory {
    pub(super) objectives: Vec<Objective>,
    pub(super) exits: Vec<Exit>,
    pub(super) corps: Vec<Corps>,
    pub(super) leaders: Vec<Leader>,
}

/// Objectives, exits, corps and leaders, in that order. Hex only: in free
/// space any of them is a problem and nothing is built.
pub(super) fn victory(
    raw: &ScenarioFile,
    map: &TerrainMap,
    sides: &[Side],
    units: &[UnitSpec],
    unit_ids: &BTreeMap<&str, usize>,
    p: &mut Collector,
) -> Victory {
    if raw.mode != Mode::Hex {
        // Free space: an objective's `at` names a terrain cell, the centre
        // of its area (docs/rules.md 2.11).
        for (present, field) in
            [(!raw.exits.is_empty(), "exits"), (!raw.corps.is_empty(), "corps"), (!raw.leaders.is_empty(), "leaders")]
        {
            if present {
                p.add(field, "only used in Hex mode");
            }
        }
        return Victory { objectives: objectives(raw, map, sides, p), ..Victory::default() };
    }
    Victory {
        objectives: objectives(raw, map, sides, p),
        exits: exits(raw, sides, p),
        corps: corps(raw, sides, units, unit_ids, p),
        leaders: leaders(raw, sides, units, unit_ids, p),
    }
}

/// The index of the side with this id.
fn side_of(sides: &[Side], id: &str) -> Option<usize> {
    sides.iter().position(|s| s.id == id)
}

/// The sides' ids, for a message.
fn side_list(sides: &[Side]) -> String {
    list(sides.iter().map(|s| s.id.as_str()))
}

/// Half of `n`, rounded up, and at least 1: the default corps break point.
fn half_rounded_up(n: usize) -> u32 {
    n.div_ceil(2).max(1) as u32
}

/// The victory-point hexes: on the map, one objective a hex.
fn objectives(raw: &ScenarioFile, map: &TerrainMap, sides: &[Side], p: &mut Collector) -> Vec<Objective> {
    let mut objectives = Vec::new();
    let mut objective_hexes = BTreeSet::new();
    for (i, o) in raw.objectives.iter().enumerate() {
        let subject = About::from(format!("objectives[{i}]"));
        let (c, r) = o.at;
        let at = match (i32::try_from(c), i32::try_from(r)) {
            (Ok(c), Ok(r)) if map.contains(Offset::new(c, r)) => Some(Offset::new(c, r)),
            _ => {
                p.add(subject.field("at"), format!("at ({c}, {r}) is off the {}x{} map", map.width, map.height));
                None
            }
        };
        if let Some(at) = at
            && !objective_hexes.insert(at)
        {
            p.add(subject.field("at"), format!("a second objective at {at}"));
        }
        if !(1..=MAX_POINTS).contains(&o.points) {
            p.add(subject.field("points"), format!("points {} must be 1..={MAX_POINTS}", o.points));
        }
        p.name_length(&subject, o.name.as_deref());
        let held_by = match &o.held_by {
            None => None,
            Some(h) => {
                let side = side_of(sides, h);
                if side.is_none() {
                    p.add(
                        subject.field("held_by"),
                        format!("held_by '{h}' is not a side (sides: {})", side_list(sides)),
                    );
                }
                side
            }
        };
        if let Some(at) = at {
            objectives.push(Objective {
                at,
                points: o.points.clamp(0, MAX_POINTS) as u32,
                name: o.name.clone().unwrap_or_else(|| format!("objective {at}")),
                held_by,
            });
        }
    }

    objectives
}

/// The exits: one a side and edge, so that its points are never ambiguous.
fn exits(raw: &ScenarioFile, sides: &[Side], p: &mut Collector) -> Vec<Exit> {
    let mut exits = Vec::new();
    let mut exit_keys = BTreeSet::new();
    for (i, e) in raw.exits.iter().enumerate() {
        let subject = About::from(format!("exits[{i}]"));
        let side = side_of(sides, &e.side);
        if side.is_none() {
            p.add(subject.field("side"), format!("side '{}' does not exist (sides: {})", e.side, side_list(sides)));
        }
        if !(1..=MAX_POINTS).contains(&e.points) {
            p.add(subject.field("points"), format!("points {} must be 1..={MAX_POINTS}", e.points));
        }
        if let Some(side) = side {
            // Two exits for one side and edge would leave the points ambiguous.
            if !exit_keys.insert((side, e.edge)) {
                p.add(
                    subject.field("edge"),
                    format!("side '{}' already has an exit across the {:?} edge", e.side, e.edge),
                );
            }
            exits.push(Exit { side, edge: e.edge, points: e.points.clamp(0, MAX_POINTS) as u32 });
        }
    }

    exits
}

/// The listed corps, each unit in one at most, then an implicit corps per
/// side of the units no corps lists, so that every unit is in one.
fn corps(
    raw: &ScenarioFile,
    sides: &[Side],
    units: &[UnitSpec],
    unit_ids: &BTreeMap<&str, usize>,
    p: &mut Collector,
) -> Vec<Corps> {
    let mut corps = Vec::new();
    let mut corps_ids: BTreeMap<&str, usize> = BTreeMap::new();
    let mut corps_of: BTreeMap<usize, &str> = BTreeMap::new();
    for (i, k) in raw.corps.iter().enumerate() {
        let subject = About::entry("corps", &k.id, format!("corps[{i}]"));
        if k.id.trim().is_empty() {
            p.add(subject.field("id"), "id must not be empty");
        } else if let Some(&first) = corps_ids.get(k.id.as_str()) {
            p.duplicate(&subject, format!("corps[{first}]"), "duplicate corps id");
        } else {
            corps_ids.insert(k.id.as_str(), i);
            if side_of(sides, &k.id).is_some() {
                // The implicit corps of a side's unlisted units goes by the side's id.
                p.add(
                    subject.field("id"),
                    "a corps id may not be a side id (that name is kept for the side's other units)",
                );
            }
        }
        let side = side_of(sides, &k.side);
        if side.is_none() {
            p.add(subject.field("side"), format!("side '{}' does not exist (sides: {})", k.side, side_list(sides)));
        }
        p.name_length(&subject, k.name.as_deref());
        if k.units.is_empty() {
            p.add(subject.field("units"), "lists no units");
        }
        let mut members = Vec::new();
        for (j, id) in k.units.iter().enumerate() {
            let listed = subject.field(&format!("units[{j}]"));
            let Some(&u) = unit_ids.get(id.as_str()) else {
                p.add(&listed, format!("unit '{id}' does not exist"));
                continue;
            };
            if let Some(s) = side
                && units[u].side != s
            {
                p.add(&listed, format!("unit '{id}' is on side '{}'", sides[units[u].side].id));
            }
            if let Some(other) = corps_of.insert(u, k.id.as_str()) {
                if other == k.id {
                    p.add(&listed, format!("unit '{id}' is listed twice"));
                } else {
                    p.add(&listed, format!("unit '{id}' is already in corps '{other}'"));
                }
                continue;
            }
            members.push(u);
        }
        let breaks_at = match k.breaks_at {
            None => half_rounded_up(k.units.len()),
            Some(b) if b < 1 || b > k.units.len() as i64 => {
                p.add(
                    subject.field("breaks_at"),
                    format!("breaks_at {b} must be 1..={} (its number of units)", k.units.len()),
                );
                1
            }
            Some(b) => b as u32,
        };
        if let Some(side) = side {
            members.sort_unstable();
            corps.push(Corps {
                id: k.id.clone(),
                name: k.name.clone().unwrap_or_else(|| k.id.clone()),
                side,
                units: members,
                breaks_at,
                implicit: false,
            });
        }
    }
    // Every unit in some corps, so army morale never has to ask about strays.
    for (s, side) in sides.iter().enumerate() {
        let rest: Vec<usize> = (0..units.len()).filter(|u| units[*u].side == s && !corps_of.contains_key(u)).collect();
        if !rest.is_empty() {
            corps.push(Corps {
                id: side.id.clone(),
                name: side.name.clone(),
                side: s,
                breaks_at: half_rounded_up(rest.len()),
                units: rest,
                implicit: true,
            });
        }
    }

    corps
}

/// The leaders, each with a unit of its own side.
fn leaders(
    raw: &ScenarioFile,
    sides: &[Side],
    units: &[UnitSpec],
    unit_ids: &BTreeMap<&str, usize>,
    p: &mut Collector,
) -> Vec<Leader> {
    let mut leaders = Vec::new();
    let mut leader_ids: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, l) in raw.leaders.iter().enumerate() {
        let subject = About::entry("leader", &l.id, format!("leaders[{i}]"));
        if l.id.trim().is_empty() {
            p.add(subject.field("id"), "id must not be empty");
        } else if let Some(&first) = leader_ids.get(l.id.as_str()) {
            p.duplicate(&subject, format!("leaders[{first}]"), "duplicate leader id");
        } else {
            leader_ids.insert(l.id.as_str(), i);
        }
        let side = side_of(sides, &l.side);
        if side.is_none() {
            p.add(subject.field("side"), format!("side '{}' does not exist (sides: {})", l.side, side_list(sides)));
        }
        if !(1..=MAX_LEADER_BONUS).contains(&l.bonus) {
            p.add(subject.field("bonus"), format!("bonus {} must be 1..={MAX_LEADER_BONUS}", l.bonus));
        }
        p.name_length(&subject, l.name.as_deref());
        let with = unit_ids.get(l.with.as_str()).copied();
        match (with, side) {
            (None, _) => p.add(subject.field("with"), format!("with '{}' is not a unit id", l.with)),
            (Some(u), Some(s)) if units[u].side != s => p.add(
                subject.field("with"),
                format!("with '{}' is a unit of side '{}'", l.with, sides[units[u].side].id),
            ),
            (Some(u), Some(s)) => leaders.push(Leader {
                id: l.id.clone(),
                name: l.name.clone().unwrap_or_else(|| l.id.clone()),
                side: s,
                with: u,
                bonus: l.bonus.clamp(0, MAX_LEADER_BONUS) as i32,
            }),
            (Some(_), None) => {}
        }
    }
    leaders
}
