//! The units of a scenario file, validated: what every unit needs, then
//! its place and numbers by mode (a hex with morale and strength, or a
//! table position with valour and figures).

use std::collections::BTreeMap;

use crate::hex::Offset;
use crate::map::TerrainMap;
use crate::rules::{MAX_MP, Rules};
use crate::scenario::file::{FacingFile, ScenarioFile, UnitFile};
use crate::scenario::problem::{About, Collector, list};
use crate::scenario::spec::{Place, Side, UnitSpec};
use crate::terrain::{Arm, Terrain};
use crate::vocab::Mode;
use crate::vocab::State;

/// A free-space unit's valour: -5 (worst) to +5 (best)
/// (docs/scenario-format.md, Free-space mode).
pub const VALOUR: std::ops::RangeInclusive<i64> = -5..=5;

/// Is `v` a d66 number (both digits 1..=6)?
pub fn is_d66(v: i64) -> bool {
    (11..=66).contains(&v) && (1..=6).contains(&(v / 10)) && (1..=6).contains(&(v % 10))
}

/// The units, and the index of each id (the first, for a duplicate).
pub(super) fn units<'r>(
    raw: &'r ScenarioFile,
    sides: &[Side],
    map: &TerrainMap,
    cell_cm: f32,
    p: &mut Collector,
) -> (Vec<UnitSpec>, BTreeMap<&'r str, usize>) {
    let mode = raw.mode;
    let mut unit_ids: BTreeMap<&str, usize> = BTreeMap::new();
    let mut units = Vec::new();
    // The side standing in each hex so far: enemies may not share one.
    let mut occupant: BTreeMap<Offset, usize> = BTreeMap::new();
    for (i, u) in raw.units.iter().enumerate() {
        let subject = About::entry("unit", &u.id, format!("units[{i}]"));
        if u.id.trim().is_empty() {
            p.add(subject.field("id"), "id must not be empty");
        } else if let Some(&first) = unit_ids.get(u.id.as_str()) {
            p.duplicate(&subject, format!("units[{first}]"), "duplicate unit id");
        } else {
            unit_ids.insert(u.id.as_str(), i);
        }
        let side = sides.iter().position(|s| s.id == u.side);
        if side.is_none() {
            p.add(
                subject.field("side"),
                format!("side '{}' does not exist (sides: {})", u.side, list(sides.iter().map(|s| s.id.as_str()))),
            );
        }
        p.name_length(&subject, u.name.as_deref());
        let state = u.state.unwrap_or(if mode == Mode::Hex { State::GoodOrder } else { State::Order });
        if !state.allowed_in(mode) {
            p.add(subject.field("state"), format!("state {state:?} is not a {mode:?}-mode state"));
        }
        if mode == Mode::Hex && u.arm == Arm::Cavalry && state == State::Disordered {
            p.add(subject.field("state"), "cavalry is never Disordered (rule 1.2): use Routed or GoodOrder");
        }
        if let Some(f) = u.formation
            && !f.allowed_in(mode)
        {
            p.add(subject.field("formation"), format!("formation {f:?} is not used in {mode:?} mode"));
        }
        if let Some(m) = u.movement
            && !(m.is_finite() && m > 0.0 && m <= MAX_MP)
        {
            p.add(subject.field("movement"), format!("movement {m} must be above 0 and at most {MAX_MP}"));
        }
        let facing = facing(u, mode, &subject, p);
        let placed = match mode {
            Mode::Hex => on_hex(u, side, map, &raw.rules, &mut occupant, &subject, p),
            Mode::FreeSpace => on_table(u, map, cell_cm, &subject, p),
        };
        units.push(UnitSpec {
            id: u.id.clone(),
            name: u.name.clone().unwrap_or_else(|| u.id.clone()),
            side: side.unwrap_or(0),
            arm: u.arm,
            place: placed.place,
            morale: placed.morale,
            valour: placed.valour,
            strength: placed.strength,
            state,
            movement: u.movement,
            formation: u.formation,
            readiness: u.readiness.unwrap_or_default(),
            facing,
            limbered: u.limbered.unwrap_or(false),
            horse: u.horse.unwrap_or(false),
        });
    }
    if units.is_empty() {
        p.add("units", "a scenario needs at least one unit");
    }
    (units, unit_ids)
}

/// A unit's facing in degrees clockwise from north, if it gives one that
/// its mode reads.
fn facing(u: &UnitFile, mode: Mode, subject: &About, p: &mut Collector) -> Option<f32> {
    match u.facing {
        None => None,
        Some(FacingFile::Degrees(f)) if !f.is_finite() => {
            p.add(subject.field("facing"), "facing must be a finite number of degrees");
            None
        }
        Some(FacingFile::Degrees(f)) => Some(f),
        Some(FacingFile::Hexside(d)) if mode == Mode::FreeSpace => {
            p.add(
                subject.field("facing"),
                format!("facing {d:?} is a hexside name, for Hex mode: give degrees clockwise from north"),
            );
            None
        }
        Some(FacingFile::Hexside(d)) => Some(d.degrees()),
    }
}

/// Where a unit stands and its numbers, as far as they are valid (the
/// rest stay at their zero defaults: the scenario is refused anyway).
struct Placed {
    place: Place,
    morale: u8,
    valour: i32,
    strength: u32,
}

impl Default for Placed {
    fn default() -> Self {
        Placed { place: Place::Hex(Offset::new(0, 0)), morale: 0, valour: 0, strength: 0 }
    }
}

/// A hex-mode unit: its hex (on the map, on ground its arm may stand on,
/// not shared with an enemy), morale and strength.
fn on_hex(
    u: &UnitFile,
    side: Option<usize>,
    map: &TerrainMap,
    rules: &Rules,
    occupant: &mut BTreeMap<Offset, usize>,
    subject: &About,
    p: &mut Collector,
) -> Placed {
    let mut placed = Placed::default();
    for (present, field) in [(u.pos.is_some(), "pos"), (u.valour.is_some(), "valour"), (u.figures.is_some(), "figures")]
    {
        if present {
            p.add(subject.field(field), format!("`{field}` is a FreeSpace field; Hex mode uses at/morale/strength"));
        }
    }
    match u.at {
        None => p.add(subject, "missing `at: (c, r)`"),
        Some((c, r)) => {
            let at = Offset::new(c.clamp(-1, i32::MAX as i64) as i32, r.clamp(-1, i32::MAX as i64) as i32);
            if !map.contains(at) || c != at.c as i64 || r != at.r as i64 {
                p.add(subject.field("at"), format!("at ({c}, {r}) is off the {}x{} map", map.width, map.height));
            } else {
                placed.place = Place::Hex(at);
                if let Some(t) = map.terrain(at)
                    && rules.terrain_cost(t, u.arm).is_none()
                {
                    p.add(subject.field("at"), format!("at ({c}, {r}) is {t:?}, prohibited terrain for {:?}", u.arm));
                }
                if let Some(s) = side {
                    if let Some(&other) = occupant.get(&at)
                        && other != s
                    {
                        p.add(subject.field("at"), format!("shares hex ({c}, {r}) with an enemy unit"));
                    }
                    occupant.insert(at, s);
                }
            }
        }
    }
    match u.morale {
        None => p.add(subject, "missing `morale` (a d66 value such as 32)"),
        Some(m) if !is_d66(m) => {
            p.add(subject.field("morale"), format!("morale {m} is not a d66 number (11..66, each digit 1..6)"))
        }
        Some(m) => placed.morale = m as u8,
    }
    match u.strength {
        None => p.add(subject, "missing `strength` (increments)"),
        Some(s) if s <= 0 => p.add(subject.field("strength"), format!("strength {s} must be at least 1")),
        Some(s) if s > 1000 => p.add(subject.field("strength"), format!("strength {s} is more than 1000 increments")),
        Some(s) => placed.strength = s as u32,
    }
    placed
}

/// A free-space unit: its position on the table (not in a river), valour
/// and figures.
fn on_table(u: &UnitFile, map: &TerrainMap, cell_cm: f32, subject: &About, p: &mut Collector) -> Placed {
    let mut placed = Placed::default();
    for (present, field) in [(u.at.is_some(), "at"), (u.morale.is_some(), "morale"), (u.strength.is_some(), "strength")]
    {
        if present {
            p.add(subject.field(field), format!("`{field}` is a Hex field; FreeSpace mode uses pos/valour/figures"));
        }
    }
    let (w, h) = (map.width as f32 * cell_cm, map.height as f32 * cell_cm);
    match u.pos {
        None => p.add(subject, "missing `pos: (x, y)` in cm"),
        Some((x, y)) if !(x.is_finite() && y.is_finite()) => p.add(subject.field("pos"), "pos must be finite"),
        Some((x, y)) if !(0.0..=w).contains(&x) || !(0.0..=h).contains(&y) => {
            p.add(subject.field("pos"), format!("pos ({x}, {y}) is off the {w}x{h} cm table"))
        }
        Some((x, y)) => {
            placed.place = Place::Table { x, y };
            let cell = Offset::new((x / cell_cm) as i32, (y / cell_cm) as i32);
            let cell = Offset::new(cell.c.min(map.width - 1), cell.r.min(map.height - 1));
            if let Some(t) = map.terrain(cell)
                && t == Terrain::River
            {
                p.add(subject.field("pos"), format!("pos ({x}, {y}) is in a river"));
            }
        }
    }
    match u.valour {
        None => {}
        Some(v) if !VALOUR.contains(&v) => p.add(subject.field("valour"), format!("valour {v} must be -5..=5")),
        Some(v) => placed.valour = v as i32,
    }
    match u.figures {
        None => p.add(subject, "missing `figures`"),
        Some(f) if f <= 0 => p.add(subject.field("figures"), format!("figures {f} must be at least 1")),
        Some(f) if f > 1000 => p.add(subject.field("figures"), format!("figures {f} is more than 1000")),
        Some(f) => placed.strength = f as u32,
    }
    if u.limbered.is_some() && u.arm != Arm::Artillery {
        p.add(subject.field("limbered"), "`limbered` applies to artillery only");
    }
    if u.horse.is_some() && u.arm != Arm::Artillery {
        p.add(subject.field("horse"), "`horse` applies to artillery only");
    }
    placed
}
