//! Editing the forces of a scenario file: units placed, moved, turned,
//! copied, changed and deleted, keeping every reference to a unit (corps,
//! leaders, shocks) true; the corps' members picked on the map; the
//! objectives and the staff figures.

use std::fmt;

use crate::dice::D66;
use crate::hex::{Dir, Offset};
use crate::scenario::VALOUR;
use crate::scenario::{
    CorpsFile, FacingFile, LeaderFile, Mode, ObjectiveFile, ScenarioFile, ShockFile, StaffFile, UnitFile,
};
use crate::terrain::Arm;
use crate::vocab::{Formation, State};

/// Where a unit stands: a hex (hex mode) or a point in cm (free space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Spot {
    Hex(Offset),
    Cm(f32, f32),
}

/// Why an edit cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    NoUnit(String),
    NoCorps(String),
    /// Another unit (or corps) already has that id.
    TakenId(String),
    EmptyId,
    NoSide(String),
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::NoUnit(id) => write!(f, "no unit '{id}'"),
            EditError::NoCorps(id) => write!(f, "no corps '{id}'"),
            EditError::TakenId(id) => write!(f, "the id '{id}' is taken already"),
            EditError::EmptyId => write!(f, "an id cannot be empty"),
            EditError::NoSide(id) => write!(f, "no side '{id}'"),
        }
    }
}

fn index(file: &ScenarioFile, id: &str) -> Result<usize, EditError> {
    file.units.iter().position(|u| u.id == id).ok_or_else(|| EditError::NoUnit(id.to_owned()))
}

/// A unit's spot as the file gives it.
pub fn spot(u: &UnitFile) -> Option<Spot> {
    match (u.at, u.pos) {
        (Some((c, r)), _) => Some(Spot::Hex(Offset::new(c as i32, r as i32))),
        (None, Some((x, y))) => Some(Spot::Cm(x, y)),
        _ => None,
    }
}

fn set_spot(u: &mut UnitFile, s: Spot) {
    match s {
        Spot::Hex(o) => {
            u.at = Some((i64::from(o.c), i64::from(o.r)));
            u.pos = None;
        }
        Spot::Cm(x, y) => {
            u.pos = Some((x, y));
            u.at = None;
        }
    }
}

/// The units standing at a hex (in file order, the stack's top first).
pub fn units_at(file: &ScenarioFile, at: Offset) -> Vec<usize> {
    (0..file.units.len()).filter(|&i| spot(&file.units[i]) == Some(Spot::Hex(at))).collect()
}

/// A fresh id for a unit of `side`: `SIDE-N` with the first N not taken.
pub fn fresh_id(file: &ScenarioFile, side: &str) -> String {
    (1..).map(|n| format!("{side}-{n}")).find(|id| file.units.iter().all(|u| u.id != *id)).unwrap_or_default()
}

/// A new unit of `side` and `arm` with the house's usual values: morale
/// 44 and 4 increments in hex mode, 24 figures and valour 0 in free space.
pub fn new_unit(file: &ScenarioFile, side: &str, arm: Arm, at: Spot) -> UnitFile {
    let hex = file.mode == Mode::Hex;
    let mut u = UnitFile {
        id: fresh_id(file, side),
        side: side.to_owned(),
        arm,
        at: None,
        pos: None,
        morale: hex.then_some(44),
        valour: (!hex).then_some(0),
        strength: hex.then_some(4),
        figures: (!hex).then_some(24),
        name: None,
        state: None,
        movement: None,
        formation: None,
        readiness: None,
        facing: None,
        limbered: None,
        horse: None,
    };
    set_spot(&mut u, at);
    u
}

/// Places a unit; its index. Its id must be new and its side known.
pub fn place(file: &mut ScenarioFile, unit: UnitFile) -> Result<usize, EditError> {
    if unit.id.trim().is_empty() {
        return Err(EditError::EmptyId);
    }
    if file.units.iter().any(|u| u.id == unit.id) {
        return Err(EditError::TakenId(unit.id));
    }
    if !file.sides.iter().any(|s| s.id == unit.side) {
        return Err(EditError::NoSide(unit.side));
    }
    file.units.push(unit);
    Ok(file.units.len() - 1)
}

/// Moves a unit to another hex or point.
pub fn move_to(file: &mut ScenarioFile, id: &str, to: Spot) -> Result<(), EditError> {
    let i = index(file, id)?;
    set_spot(&mut file.units[i], to);
    Ok(())
}

/// Turns a unit one hexside (hex mode) or 15 degrees (free space),
/// clockwise or not. A unit with no facing faces north (0 degrees).
pub fn rotate(file: &mut ScenarioFile, id: &str, clockwise: bool) -> Result<(), EditError> {
    let hex = file.mode == Mode::Hex;
    let i = index(file, id)?;
    let u = &mut file.units[i];
    let deg = match u.facing {
        Some(FacingFile::Degrees(d)) => d,
        Some(FacingFile::Hexside(d)) => d.degrees(),
        None => 0.0,
    };
    let step = if hex { 60.0 } else { 15.0 };
    let to = (deg + if clockwise { step } else { -step }).rem_euclid(360.0);
    u.facing = Some(if hex { FacingFile::Hexside(Dir::from_degrees(to)) } else { FacingFile::Degrees(to) });
    Ok(())
}

/// Copies a unit (fresh id, no name) to another spot; the copy's id.
pub fn duplicate(file: &mut ScenarioFile, id: &str, to: Spot) -> Result<String, EditError> {
    let i = index(file, id)?;
    let mut copy = file.units[i].clone();
    copy.id = fresh_id(file, &copy.side);
    copy.name = None;
    set_spot(&mut copy, to);
    let new = copy.id.clone();
    file.units.push(copy);
    Ok(new)
}

/// Deletes a unit, and every reference to it: its place in corps, the
/// leaders riding with it, its shocks.
pub fn delete(file: &mut ScenarioFile, id: &str) -> Result<UnitFile, EditError> {
    let i = index(file, id)?;
    let u = file.units.remove(i);
    for c in &mut file.corps {
        c.units.retain(|x| x != id);
    }
    file.leaders.retain(|l| l.with != id);
    file.shocks.retain(|s| s.unit != id);
    Ok(u)
}

/// Replaces a unit's fields (the form's edit). A new id is carried into
/// every reference to the old one.
pub fn update(file: &mut ScenarioFile, id: &str, unit: UnitFile) -> Result<(), EditError> {
    let i = index(file, id)?;
    if unit.id != id {
        if unit.id.trim().is_empty() {
            return Err(EditError::EmptyId);
        }
        if file.units.iter().any(|u| u.id == unit.id) {
            return Err(EditError::TakenId(unit.id));
        }
        for c in &mut file.corps {
            for x in &mut c.units {
                if x == id {
                    x.clone_from(&unit.id);
                }
            }
        }
        for l in &mut file.leaders {
            if l.with == id {
                l.with.clone_from(&unit.id);
            }
        }
        for s in &mut file.shocks {
            if s.unit == id {
                s.unit.clone_from(&unit.id);
            }
        }
    }
    file.units[i] = unit;
    Ok(())
}

fn unit_mut<'f>(file: &'f mut ScenarioFile, id: &str) -> Result<&'f mut UnitFile, EditError> {
    let i = index(file, id)?;
    Ok(&mut file.units[i])
}

/// The next state a unit may start in (docs/scenario-format.md, Units):
/// hex mode good order, disordered (never for cavalry), routed; free
/// space order, LU, U, FU. Good order is written as no state at all.
pub fn cycle_state(file: &mut ScenarioFile, id: &str) -> Result<State, EditError> {
    let hex = file.mode == Mode::Hex;
    let u = unit_mut(file, id)?;
    let order: &[State] = match (hex, u.arm) {
        (true, Arm::Cavalry) => &[State::GoodOrder, State::Routed],
        (true, _) => &[State::GoodOrder, State::Disordered, State::Routed],
        (false, _) => &[State::Order, State::LU, State::U, State::FU],
    };
    let now = u.state.unwrap_or(order[0]);
    let next = order[(order.iter().position(|&s| s == now).map_or(0, |k| k + 1)) % order.len()];
    u.state = (next != order[0]).then_some(next);
    Ok(next)
}

/// The next formation a unit may start in: hex mode line, column,
/// square, general order, skirmish; free space line, column, square.
/// Line is written as no formation at all.
pub fn cycle_formation(file: &mut ScenarioFile, id: &str) -> Result<Formation, EditError> {
    let hex = file.mode == Mode::Hex;
    let u = unit_mut(file, id)?;
    let order: &[Formation] = if hex {
        &[Formation::Line, Formation::Column, Formation::Square, Formation::GeneralOrder, Formation::Skirmish]
    } else {
        &[Formation::Line, Formation::Column, Formation::Square]
    };
    let now = u.formation.unwrap_or(Formation::Line);
    let next = order[(order.iter().position(|&f| f == now).map_or(0, |k| k + 1)) % order.len()];
    u.formation = (next != Formation::Line).then_some(next);
    Ok(next)
}

/// A unit's morale one d66 result up or down (hex mode: 11, 12 ... 16,
/// 21 ...), or its valour one point within the checker's bounds (free
/// space).
pub fn nudge_morale(file: &mut ScenarioFile, id: &str, up: bool) -> Result<(), EditError> {
    let u = unit_mut(file, id)?;
    let step = if up { 1 } else { -1 };
    if let Some(m) = u.morale {
        let d = u32::try_from(m).ok().and_then(D66::from_value).unwrap_or(D66 { tens: 3, units: 3 });
        u.morale = Some(i64::from(d.modified(step).value()));
    } else if let Some(v) = u.valour {
        u.valour = Some((v + i64::from(step)).clamp(*VALOUR.start(), *VALOUR.end()));
    }
    Ok(())
}

/// A unit's strength (hex mode, increments) or figures (free space) one
/// up or down, kept within 1 to 1000.
pub fn nudge_strength(file: &mut ScenarioFile, id: &str, up: bool) -> Result<i64, EditError> {
    let hex = file.mode == Mode::Hex;
    let u = unit_mut(file, id)?;
    let field = if hex { &mut u.strength } else { &mut u.figures };
    let next = (field.unwrap_or(1) + if up { 1 } else { -1 }).clamp(1, 1000);
    *field = Some(next);
    Ok(next)
}

/// Free-space artillery: limbered or not; whether it is now.
pub fn toggle_limbered(file: &mut ScenarioFile, id: &str) -> Result<bool, EditError> {
    let u = unit_mut(file, id)?;
    let on = !u.limbered.unwrap_or(false);
    u.limbered = on.then_some(true);
    Ok(on)
}

/// Free-space artillery: horse artillery or foot; whether it is horse now.
pub fn toggle_horse(file: &mut ScenarioFile, id: &str) -> Result<bool, EditError> {
    let u = unit_mut(file, id)?;
    let on = !u.horse.unwrap_or(false);
    u.horse = on.then_some(true);
    Ok(on)
}

/// A scripted shock (docs/scenario-format.md, Shocks) routing the unit on
/// `turn` (fleeing, FU, in free space), or none if it has one that turn;
/// whether it has one now.
pub fn toggle_shock(file: &mut ScenarioFile, id: &str, turn: u32) -> Result<bool, EditError> {
    index(file, id)?;
    if let Some(k) = file.shocks.iter().position(|s| s.unit == id && s.turn == turn) {
        file.shocks.remove(k);
        return Ok(false);
    }
    let to = if file.mode == Mode::Hex { State::Routed } else { State::FU };
    file.shocks.push(ShockFile { turn, unit: id.to_owned(), to, cause: None });
    Ok(true)
}

/// A leader of the unit's side riding with it (hex mode, bonus 1), or
/// none if one rides with it; whether one does now.
pub fn toggle_leader(file: &mut ScenarioFile, id: &str) -> Result<bool, EditError> {
    let i = index(file, id)?;
    if let Some(k) = file.leaders.iter().position(|l| l.with == id) {
        file.leaders.remove(k);
        return Ok(false);
    }
    let side = file.units[i].side.clone();
    let lid = (1..)
        .map(|n| format!("{side}-leader-{n}"))
        .find(|l| file.leaders.iter().all(|x| x.id != *l))
        .unwrap_or_default();
    file.leaders.push(LeaderFile { id: lid, side, with: id.to_owned(), bonus: 1, name: None });
    Ok(true)
}

/// A unit's morale (hex mode): a d66 value; the checker says if not.
pub fn set_morale(file: &mut ScenarioFile, id: &str, morale: i64) -> Result<(), EditError> {
    unit_mut(file, id)?.morale = Some(morale);
    Ok(())
}

/// The unit's arm, the next of infantry, cavalry, artillery. A cavalry
/// unit cannot start disordered, so that state goes with the change.
pub fn cycle_arm(file: &mut ScenarioFile, id: &str) -> Result<Arm, EditError> {
    let u = unit_mut(file, id)?;
    u.arm = match u.arm {
        Arm::Infantry => Arm::Cavalry,
        Arm::Cavalry => Arm::Artillery,
        Arm::Artillery => Arm::Infantry,
    };
    if u.arm == Arm::Cavalry && u.state == Some(State::Disordered) {
        u.state = None;
    }
    Ok(u.arm)
}

/// The unit goes over to the other side (of two): out of its corps, and
/// without the leader who rode with it.
pub fn switch_side(file: &mut ScenarioFile, id: &str) -> Result<String, EditError> {
    let i = index(file, id)?;
    let now = file.units[i].side.clone();
    let Some(other) = file.sides.iter().find(|s| s.id != now).map(|s| s.id.clone()) else {
        return Err(EditError::NoSide(now));
    };
    file.units[i].side.clone_from(&other);
    for c in &mut file.corps {
        c.units.retain(|u| u != id);
    }
    file.leaders.retain(|l| l.with != id);
    Ok(other)
}

/// The unit's shock one turn later, back to turn 1 after the last turn;
/// its turn (`None` if it has none).
pub fn later_shock(file: &mut ScenarioFile, id: &str) -> Result<Option<u32>, EditError> {
    index(file, id)?;
    let last = file.turns.max(1);
    let Some(s) = file.shocks.iter_mut().find(|s| s.unit == id) else { return Ok(None) };
    s.turn = if s.turn >= last { 1 } else { s.turn + 1 };
    Ok(Some(s.turn))
}

/// A new, empty corps of `side`; its id.
pub fn add_corps(file: &mut ScenarioFile, side: &str) -> Result<String, EditError> {
    if !file.sides.iter().any(|s| s.id == side) {
        return Err(EditError::NoSide(side.to_owned()));
    }
    let id = (1..)
        .map(|n| format!("{side}-corps-{n}"))
        .find(|id| file.corps.iter().all(|c| c.id != *id))
        .unwrap_or_default();
    file.corps.push(CorpsFile {
        id: id.clone(),
        side: side.to_owned(),
        name: None,
        units: Vec::new(),
        breaks_at: None,
    });
    Ok(id)
}

/// Puts a unit into a corps, or takes it out if it is in; whether it is
/// in now. A unit belongs to one corps: joining takes it out of any other.
pub fn toggle_in_corps(file: &mut ScenarioFile, corps: &str, unit: &str) -> Result<bool, EditError> {
    index(file, unit)?;
    let c = file.corps.iter().position(|c| c.id == corps).ok_or_else(|| EditError::NoCorps(corps.to_owned()))?;
    if file.corps[c].units.iter().any(|u| u == unit) {
        file.corps[c].units.retain(|u| u != unit);
        return Ok(false);
    }
    for other in &mut file.corps {
        other.units.retain(|u| u != unit);
    }
    file.corps[c].units.push(unit.to_owned());
    Ok(true)
}

/// An objective at a hex, or none there any more if there was one;
/// whether there is one now.
pub fn toggle_objective(file: &mut ScenarioFile, at: Offset, points: i64) -> bool {
    let key = (i64::from(at.c), i64::from(at.r));
    if let Some(i) = file.objectives.iter().position(|o| o.at == key) {
        file.objectives.remove(i);
        return false;
    }
    file.objectives.push(ObjectiveFile { at: key, points, name: None, held_by: None });
    true
}

/// A staff figure of `side` at a point on the table (free space).
pub fn add_staff(file: &mut ScenarioFile, side: &str, at: (f32, f32)) -> Result<usize, EditError> {
    if !file.sides.iter().any(|s| s.id == side) {
        return Err(EditError::NoSide(side.to_owned()));
    }
    file.staff.push(StaffFile { side: side.to_owned(), pos: at, name: None });
    Ok(file.staff.len() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::blank::blank;
    use crate::scenario::{LeaderFile, ShockFile};
    use crate::terrain::Terrain;

    fn two_units() -> ScenarioFile {
        let mut f = blank(Mode::Hex, 8, 6, Terrain::Clear);
        let a = new_unit(&f, "blue", Arm::Infantry, Spot::Hex(Offset::new(2, 2)));
        place(&mut f, a).expect("placed");
        let b = new_unit(&f, "red", Arm::Cavalry, Spot::Hex(Offset::new(5, 3)));
        place(&mut f, b).expect("placed");
        f
    }

    #[test]
    fn placed_units_get_fresh_ids_and_a_taken_id_or_unknown_side_is_refused() {
        let mut f = two_units();
        assert_eq!(f.units[0].id, "blue-1");
        assert_eq!(f.units[1].id, "red-1");
        let again = new_unit(&f, "blue", Arm::Artillery, Spot::Hex(Offset::new(2, 2)));
        assert_eq!(again.id, "blue-2");
        let mut clash = again.clone();
        clash.id = "red-1".into();
        assert_eq!(place(&mut f, clash), Err(EditError::TakenId("red-1".into())));
        let mut stray = again;
        stray.side = "green".into();
        assert_eq!(place(&mut f, stray), Err(EditError::NoSide("green".into())));
        assert_eq!(f.units.len(), 2, "nothing placed by a refused edit");
    }

    #[test]
    fn move_rotate_and_duplicate() {
        let mut f = two_units();
        move_to(&mut f, "blue-1", Spot::Hex(Offset::new(4, 4))).expect("moved");
        assert_eq!(f.units[0].at, Some((4, 4)));
        assert_eq!(units_at(&f, Offset::new(4, 4)), vec![0]);
        rotate(&mut f, "blue-1", true).expect("turned");
        assert_eq!(f.units[0].facing, Some(FacingFile::Hexside(Dir::NE)));
        rotate(&mut f, "blue-1", false).expect("turned");
        rotate(&mut f, "blue-1", false).expect("turned");
        assert_eq!(f.units[0].facing, Some(FacingFile::Hexside(Dir::NW)));
        let copy = duplicate(&mut f, "red-1", Spot::Hex(Offset::new(6, 3))).expect("copied");
        assert_eq!(copy, "red-2");
        assert_eq!(f.units[2].arm, Arm::Cavalry);
        assert_eq!(f.units[2].at, Some((6, 3)));
        assert_eq!(move_to(&mut f, "nobody", Spot::Hex(Offset::new(0, 0))), Err(EditError::NoUnit("nobody".into())));
    }

    #[test]
    fn a_free_space_unit_turns_by_fifteen_degrees_and_stands_in_cm() {
        let mut f = blank(Mode::FreeSpace, 10, 8, Terrain::Clear);
        let u = new_unit(&f, "blue", Arm::Infantry, Spot::Cm(30.0, 40.0));
        assert_eq!((u.figures, u.valour, u.morale), (Some(24), Some(0), None));
        place(&mut f, u).expect("placed");
        rotate(&mut f, "blue-1", false).expect("turned");
        assert_eq!(f.units[0].facing, Some(FacingFile::Degrees(345.0)));
        assert_eq!(spot(&f.units[0]), Some(Spot::Cm(30.0, 40.0)));
    }

    #[test]
    fn deleting_or_renaming_a_unit_keeps_every_reference_true() {
        let mut f = two_units();
        let corps = add_corps(&mut f, "blue").expect("a corps");
        assert!(toggle_in_corps(&mut f, &corps, "blue-1").expect("joined"));
        f.leaders.push(LeaderFile {
            id: "ney".into(),
            side: "blue".into(),
            with: "blue-1".into(),
            bonus: 1,
            name: None,
        });
        f.shocks.push(ShockFile { turn: 1, unit: "blue-1".into(), to: State::Routed, cause: None });
        let mut renamed = f.units[0].clone();
        renamed.id = "guard".into();
        update(&mut f, "blue-1", renamed).expect("renamed");
        assert_eq!(f.corps[0].units, vec!["guard".to_owned()]);
        assert_eq!((f.leaders[0].with.as_str(), f.shocks[0].unit.as_str()), ("guard", "guard"));
        delete(&mut f, "guard").expect("deleted");
        assert!(f.corps[0].units.is_empty() && f.leaders.is_empty() && f.shocks.is_empty());
        // No reference to the deleted unit is left; the corps it emptied
        // is the checker's one complaint.
        let problems = crate::scenario::validate(f).err().unwrap_or_default();
        let paths: Vec<_> = problems.iter().map(|p| p.path.clone().unwrap_or_default()).collect();
        assert_eq!(paths, ["corps[0].units"], "{problems:?}");
    }

    #[test]
    fn a_unit_joins_one_corps_and_objectives_toggle() {
        let mut f = two_units();
        let (a, b) = (add_corps(&mut f, "blue").expect("a"), add_corps(&mut f, "blue").expect("b"));
        assert_ne!(a, b);
        toggle_in_corps(&mut f, &a, "blue-1").expect("in a");
        toggle_in_corps(&mut f, &b, "blue-1").expect("in b");
        assert!(f.corps[0].units.is_empty() && f.corps[1].units == ["blue-1"]);
        assert!(!toggle_in_corps(&mut f, &b, "blue-1").expect("out"));
        assert!(toggle_objective(&mut f, Offset::new(3, 3), 2));
        assert_eq!(f.objectives[0].at, (3, 3));
        assert!(!toggle_objective(&mut f, Offset::new(3, 3), 2));
        assert!(f.objectives.is_empty());
    }

    #[test]
    fn the_fields_of_a_unit_cycle_through_what_its_mode_and_arm_allow() {
        let mut f = two_units();
        // Infantry: good order, disordered, routed; cavalry is never disordered.
        assert_eq!(cycle_state(&mut f, "blue-1"), Ok(State::Disordered));
        assert_eq!(cycle_state(&mut f, "blue-1"), Ok(State::Routed));
        assert_eq!(cycle_state(&mut f, "blue-1"), Ok(State::GoodOrder));
        assert_eq!(f.units[0].state, None, "good order is the default, written as nothing");
        assert_eq!(cycle_state(&mut f, "red-1"), Ok(State::Routed));
        let seen: Vec<Formation> = (0..5).map(|_| cycle_formation(&mut f, "blue-1").expect("a unit")).collect();
        assert_eq!(
            seen,
            [Formation::Column, Formation::Square, Formation::GeneralOrder, Formation::Skirmish, Formation::Line]
        );
        assert_eq!(nudge_strength(&mut f, "blue-1", true), Ok(5));
        // Morale steps by d66 results: 44, 45, 46, then 51.
        for _ in 0..3 {
            nudge_morale(&mut f, "blue-1", true).expect("a unit");
        }
        assert_eq!(f.units[0].morale, Some(51));
        nudge_morale(&mut f, "blue-1", false).expect("a unit");
        assert_eq!(f.units[0].morale, Some(46));
        for _ in 0..10 {
            let _ = nudge_strength(&mut f, "blue-1", false);
        }
        assert_eq!(f.units[0].strength, Some(1), "never below 1");
        assert!(crate::scenario::validate(f.clone()).is_ok(), "every value the cycles give is valid");
        let mut free = blank(Mode::FreeSpace, 10, 8, Terrain::Clear);
        let gun = new_unit(&free, "blue", Arm::Artillery, Spot::Cm(30.0, 30.0));
        place(&mut free, gun).expect("placed");
        assert_eq!(cycle_state(&mut free, "blue-1"), Ok(State::LU));
        assert_eq!(cycle_formation(&mut free, "blue-1"), Ok(Formation::Column));
        assert_eq!(toggle_limbered(&mut free, "blue-1"), Ok(true));
        assert_eq!(toggle_horse(&mut free, "blue-1"), Ok(true));
        assert_eq!(nudge_strength(&mut free, "blue-1", true), Ok(25), "figures in free space");
        for _ in 0..8 {
            nudge_morale(&mut free, "blue-1", true).expect("a unit");
        }
        assert_eq!(free.units[0].valour, Some(5), "valour stops at the checker's bound");
        assert!(crate::scenario::validate(free).is_ok());
    }

    #[test]
    fn shocks_and_leaders_toggle_on_a_unit() {
        let mut f = two_units();
        assert_eq!(toggle_shock(&mut f, "blue-1", 1), Ok(true));
        assert_eq!((f.shocks[0].turn, f.shocks[0].to), (1, State::Routed));
        assert_eq!(toggle_leader(&mut f, "blue-1"), Ok(true));
        assert_eq!(f.leaders[0].id, "blue-leader-1");
        assert!(crate::scenario::validate(f.clone()).is_ok(), "a shock and a leader as the checker wants them");
        assert_eq!(toggle_shock(&mut f, "blue-1", 1), Ok(false));
        assert_eq!(toggle_leader(&mut f, "blue-1"), Ok(false));
        assert!(f.shocks.is_empty() && f.leaders.is_empty());
    }

    #[test]
    fn morale_arm_side_and_a_shock_turn_change_as_asked() {
        let mut f = two_units();
        set_morale(&mut f, "blue-1", 36).expect("a unit");
        assert_eq!(f.units[0].morale, Some(36));
        let c = add_corps(&mut f, "blue").expect("a corps");
        toggle_in_corps(&mut f, &c, "blue-1").expect("joined");
        toggle_leader(&mut f, "blue-1").expect("a leader");
        assert_eq!(switch_side(&mut f, "blue-1"), Ok("red".to_owned()));
        assert!(f.corps[0].units.is_empty() && f.leaders.is_empty(), "out of its old side's corps, no leader");
        cycle_state(&mut f, "blue-1").expect("disordered");
        assert_eq!(cycle_arm(&mut f, "blue-1"), Ok(Arm::Cavalry));
        assert_eq!(f.units[0].state, None, "cavalry is never disordered");
        f.turns = 3;
        toggle_shock(&mut f, "red-1", 1).expect("a shock");
        let turns: Vec<Option<u32>> = (0..3).map(|_| later_shock(&mut f, "red-1").expect("a unit")).collect();
        assert_eq!(turns, [Some(2), Some(3), Some(1)]);
        assert_eq!(later_shock(&mut f, "blue-1"), Ok(None));
    }
}
