//! Editing the sides of a scenario file: each side's id (carried into
//! every reference), rear edge (the two must differ), who plays it, how
//! bold its AI is, and the map edges it scores for leaving by (hex mode
//! exits).

use crate::edit::forces::EditError;
use crate::hex::Edge;
use crate::scenario::{ExitFile, ScenarioFile};
use crate::vocab::Control;

const EDGES: [Edge; 4] = [Edge::North, Edge::East, Edge::South, Edge::West];

/// Side `i` given the id `new`, carried into every reference to the old
/// one: its units, corps, leaders, staff figures, exits and the
/// objectives it holds.
pub fn rename(file: &mut ScenarioFile, i: usize, new: &str) -> Result<(), EditError> {
    let new = new.trim();
    let old = file.sides.get(i).map(|s| s.id.clone()).ok_or_else(|| EditError::NoSide(format!("sides[{i}]")))?;
    if new.is_empty() {
        return Err(EditError::EmptyId);
    }
    if old == new {
        return Ok(());
    }
    if file.sides.iter().any(|s| s.id == new) {
        return Err(EditError::TakenId(new.to_owned()));
    }
    let carry = |id: &mut String| {
        if *id == old {
            new.clone_into(id);
        }
    };
    file.sides[i].id = new.to_owned();
    file.units.iter_mut().for_each(|u| carry(&mut u.side));
    file.corps.iter_mut().for_each(|c| carry(&mut c.side));
    file.leaders.iter_mut().for_each(|l| carry(&mut l.side));
    file.staff.iter_mut().for_each(|s| carry(&mut s.side));
    file.exits.iter_mut().for_each(|x| carry(&mut x.side));
    file.objectives.iter_mut().filter_map(|o| o.held_by.as_mut()).for_each(carry);
    Ok(())
}

/// The side's rear edge turned to the next edge clockwise that the other
/// side does not have; the new edge.
pub fn cycle_rear(file: &mut ScenarioFile, side: usize) -> Option<Edge> {
    let taken: Vec<Edge> =
        file.sides.iter().enumerate().filter(|&(i, _)| i != side).filter_map(|(_, s)| s.rear).collect();
    let default = if side == 0 { Edge::South } else { Edge::North };
    let s = file.sides.get_mut(side)?;
    let now = s.rear.unwrap_or(default);
    let k = EDGES.iter().position(|&e| e == now).unwrap_or(0);
    let next = (1..=4).map(|d| EDGES[(k + d) % 4]).find(|e| !taken.contains(e))?;
    s.rear = Some(next);
    Some(next)
}

/// Who plays the side next: a player, the AI, nobody.
pub fn cycle_control(file: &mut ScenarioFile, side: usize) -> Option<Control> {
    let s = file.sides.get_mut(side)?;
    s.control = match s.control {
        Control::Player => Control::Ai,
        Control::Ai => Control::Idle,
        Control::Idle => Control::Player,
    };
    Some(s.control)
}

/// The side's AI a tenth bolder or more careful, within 0.0 to 1.0.
pub fn nudge_aggression(file: &mut ScenarioFile, side: usize, up: bool) -> Option<f32> {
    let s = file.sides.get_mut(side)?;
    let now = s.aggression.unwrap_or(crate::scenario::DEFAULT_AGGRESSION);
    let next = ((now * 10.0).round() + if up { 1.0 } else { -1.0 }).clamp(0.0, 10.0) / 10.0;
    s.aggression = Some(next);
    Some(next)
}

/// An exit for the side by `edge` (1 point an increment), or none if it
/// had one there; whether it has one now.
pub fn toggle_exit(file: &mut ScenarioFile, side: usize, edge: Edge) -> Option<bool> {
    let id = file.sides.get(side)?.id.clone();
    if let Some(k) = file.exits.iter().position(|x| x.side == id && x.edge == edge) {
        file.exits.remove(k);
        return Some(false);
    }
    file.exits.push(ExitFile { side: id, edge, points: 1 });
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::blank::blank;
    use crate::edit::forces::{Spot, new_unit, place};
    use crate::hex::Offset;
    use crate::scenario::Mode;
    use crate::terrain::{Arm, Terrain};

    #[test]
    fn a_rear_edge_skips_the_other_sides_and_exits_toggle() {
        let mut f = blank(Mode::Hex, 10, 8, Terrain::Clear);
        let u = new_unit(&f, "blue", Arm::Infantry, Spot::Hex(Offset::new(5, 4)));
        place(&mut f, u).expect("placed");
        // Blue's rear is South, Red's North: clockwise from South is West.
        assert_eq!(cycle_rear(&mut f, 0), Some(Edge::West));
        assert_eq!(cycle_rear(&mut f, 0), Some(Edge::East), "North is Red's");
        assert_eq!(cycle_control(&mut f, 1), Some(Control::Idle));
        assert_eq!(cycle_control(&mut f, 1), Some(Control::Player));
        assert_eq!(nudge_aggression(&mut f, 1, true), Some(0.6));
        assert_eq!(toggle_exit(&mut f, 0, Edge::North), Some(true));
        assert!(crate::scenario::validate(f.clone()).is_ok(), "{:?}", crate::scenario::validate(f.clone()).err());
        assert_eq!(toggle_exit(&mut f, 0, Edge::North), Some(false));
        assert!(f.exits.is_empty());
        assert_eq!(cycle_rear(&mut f, 5), None, "no such side");
    }

    #[test]
    fn a_side_renamed_takes_its_units_exits_and_objectives_along() {
        let mut f = blank(Mode::Hex, 10, 8, Terrain::Clear);
        let u = new_unit(&f, "blue", Arm::Infantry, Spot::Hex(Offset::new(5, 4)));
        place(&mut f, u).expect("placed");
        toggle_exit(&mut f, 0, Edge::North);
        f.objectives.push(crate::scenario::ObjectiveFile {
            at: (1, 1),
            points: 1,
            name: None,
            held_by: Some("blue".into()),
        });
        assert_eq!(rename(&mut f, 0, "red"), Err(EditError::TakenId("red".into())));
        assert_eq!(rename(&mut f, 0, " "), Err(EditError::EmptyId));
        rename(&mut f, 0, "fr").expect("renamed");
        assert_eq!((f.units[0].side.as_str(), f.exits[0].side.as_str()), ("fr", "fr"));
        assert_eq!(f.objectives[0].held_by.as_deref(), Some("fr"));
        assert!(crate::scenario::validate(f.clone()).is_ok());
    }
}
