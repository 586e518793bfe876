//! Changes that move everything on the map at once, so that nothing ends
//! up on other ground than it stood on: the map grown or cut at any edge,
//! the free-space cell size changed, the battle turned from hexes to a
//! table or back; and the centimetre figures the editor writes, to a
//! tenth or snapped to a grid of the designer's choice.

use std::fmt;

use crate::dice::D66;
use crate::edit::blank::NEW_CELL_CM;
use crate::edit::paint::{char_for, size};
use crate::scenario::{FacingFile, Mode, ScenarioFile};
use crate::terrain::Terrain;
use crate::vocab::Formation;

/// The largest map side the loader takes (docs/scenario-format.md).
pub const MAX_SIDE: i32 = 2000;

/// Columns and rows added at each edge (taken away where negative).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Margins {
    pub left: i32,
    pub top: i32,
    pub right: i32,
    pub bottom: i32,
}

/// Why a map cannot take the size asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReshapeError {
    /// Hex columns shift by twos: odd columns sit half a hex lower, so a
    /// shift by one would tear every river and road.
    OddColumns,
    /// Nothing, or more than the loader takes, would be left.
    Size(i32, i32),
}

impl fmt::Display for ReshapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReshapeError::OddColumns => write!(
                f,
                "columns on the left of a hex map come and go two at a time, so that every hex keeps its neighbours"
            ),
            ReshapeError::Size(w, h) => write!(f, "a map of {w}x{h}: it must be 1 to {MAX_SIDE} hexes a side"),
        }
    }
}

/// A figure in cm as the editor writes it: to a tenth of a centimetre.
pub fn tenth(v: f32) -> f32 {
    (v * 10.0).round() / 10.0
}

/// A figure in cm snapped to a grid of `grid` cm (to a tenth when the
/// grid is 0: snapping off).
pub fn snap(v: f32, grid: f32) -> f32 {
    if grid > 0.0 { tenth((v / grid).round() * grid) } else { tenth(v) }
}

/// Grows or cuts the map at its edges, moving every unit, staff figure,
/// objective and hexside with the ground under it. What falls off the
/// map stays in the file (the checker names it) except hexsides, which
/// have nothing left to stand between.
pub fn resize(file: &mut ScenarioFile, m: Margins) -> Result<(), ReshapeError> {
    let hex = file.mode == Mode::Hex;
    if hex && m.left % 2 != 0 {
        return Err(ReshapeError::OddColumns);
    }
    let (w, h) = size(&file.map);
    let (nw, nh) = (w + m.left + m.right, h + m.top + m.bottom);
    if !(1..=MAX_SIDE).contains(&nw) || !(1..=MAX_SIDE).contains(&nh) {
        return Err(ReshapeError::Size(nw, nh));
    }
    let fill = char_for(&file.map, Terrain::Clear).unwrap_or('.');
    let blank_row = |n: i32| std::iter::repeat_n(fill, n.max(0) as usize).collect::<String>();
    let mut rows: Vec<String> = Vec::with_capacity(nh as usize);
    for r in -m.top..h + m.bottom {
        let old: Vec<char> = usize::try_from(r)
            .ok()
            .and_then(|r| file.map.rows.get(r))
            .map_or_else(|| blank_row(w).chars().collect(), |row| row.chars().collect());
        let row: String = (-m.left..w + m.right)
            .map(|c| usize::try_from(c).ok().and_then(|c| old.get(c)).copied().unwrap_or(fill))
            .collect();
        rows.push(row);
    }
    file.map.rows = rows;
    shift(file, m.left, m.top);
    let inside = |c: i32, r: i32| c >= 0 && r >= 0 && c < nw && r < nh;
    file.map.hexsides.retain(|hs| inside(hs.at.0, hs.at.1));
    Ok(())
}

/// Moves everything on the map by whole columns and rows.
fn shift(file: &mut ScenarioFile, dc: i32, dr: i32) {
    if dc == 0 && dr == 0 {
        return;
    }
    let cell = file.map.cell_cm.unwrap_or(NEW_CELL_CM);
    let (dx, dy) = (dc as f32 * cell, dr as f32 * cell);
    for u in &mut file.units {
        if let Some((c, r)) = u.at.as_mut() {
            *c += i64::from(dc);
            *r += i64::from(dr);
        }
        if let Some((x, y)) = u.pos.as_mut() {
            *x = tenth(*x + dx);
            *y = tenth(*y + dy);
        }
    }
    for s in &mut file.staff {
        s.pos = (tenth(s.pos.0 + dx), tenth(s.pos.1 + dy));
    }
    for o in &mut file.objectives {
        o.at = (o.at.0 + i64::from(dc), o.at.1 + i64::from(dr));
    }
    for hs in &mut file.map.hexsides {
        hs.at = (hs.at.0 + dc, hs.at.1 + dr);
    }
}

/// The free-space cell size set to `cm`: the table grows or shrinks with
/// it, and every unit and staff figure moves with its cell, so it keeps
/// the ground it stood on (objectives name cells, and stay on theirs).
pub fn set_cell_cm(file: &mut ScenarioFile, cm: f32) {
    let old = file.map.cell_cm.unwrap_or(NEW_CELL_CM);
    file.map.cell_cm = Some(cm);
    if old <= 0.0 || !old.is_finite() || old == cm {
        return;
    }
    let k = cm / old;
    for u in &mut file.units {
        if let Some((x, y)) = u.pos.as_mut() {
            *x = tenth(*x * k);
            *y = tenth(*y * k);
        }
    }
    for s in &mut file.staff {
        s.pos = (tenth(s.pos.0 * k), tenth(s.pos.1 * k));
    }
}

/// The d66 morale a free-space valour reads as (valour 0 is morale 44;
/// each point of valour is half a row of d66 results, a lower morale
/// being the steadier), and back.
pub fn morale_of_valour(valour: i64) -> i64 {
    let steps = i32::try_from(valour.clamp(-5, 5) * -3).unwrap_or(0);
    i64::from(D66 { tens: 4, units: 4 }.modified(steps).value())
}

pub fn valour_of_morale(morale: i64) -> i64 {
    let index = |m: i64| (m / 10) * 6 + m % 10;
    ((index(44) - index(morale)) as f32 / 3.0).round().clamp(-5.0, 5.0) as i64
}

/// Turns the battle to the other mode: a hex becomes the table cell of
/// the same column and row (a unit at its centre), morale becomes
/// valour and increments figures (six a increment), and back; what the
/// other mode has no place for (hexsides, exits, corps, leaders on a
/// table) is dropped. What was done, in words.
pub fn convert_mode(file: &mut ScenarioFile, mode: Mode) -> String {
    if file.mode == mode {
        return "the battle is in that mode already".into();
    }
    file.mode = mode;
    let cell = file.map.cell_cm.unwrap_or(NEW_CELL_CM);
    match mode {
        Mode::FreeSpace => {
            file.map.cell_cm = Some(cell);
            for u in &mut file.units {
                if let Some((c, r)) = u.at.take() {
                    u.pos = Some((tenth((c as f32 + 0.5) * cell), tenth((r as f32 + 0.5) * cell)));
                }
                if let Some(m) = u.morale.take() {
                    u.valour = Some(valour_of_morale(m));
                }
                if let Some(s) = u.strength.take() {
                    u.figures = Some((s * 6).clamp(1, 1000));
                }
                u.state = u.state.map(crate::vocab::State::free_space);
                if matches!(u.formation, Some(Formation::GeneralOrder | Formation::Skirmish)) {
                    u.formation = None;
                }
                if let Some(FacingFile::Hexside(d)) = u.facing {
                    u.facing = Some(FacingFile::Degrees(d.degrees()));
                }
            }
            for s in &mut file.shocks {
                s.to = s.to.free_space();
            }
            let dropped = [
                (file.map.hexsides.len(), "hexsides"),
                (file.exits.len(), "exits"),
                (file.corps.len(), "corps"),
                (file.leaders.len(), "leaders"),
            ];
            file.map.hexsides.clear();
            file.exits.clear();
            file.corps.clear();
            file.leaders.clear();
            let gone: Vec<String> =
                dropped.iter().filter(|(n, _)| *n > 0).map(|(n, what)| format!("{n} {what}")).collect();
            let mut said = format!("a table of {cell} cm cells: each unit at the middle of its hex's cell");
            if !gone.is_empty() {
                said += &format!("; {} dropped (a table has none; undo brings them back)", gone.join(", "));
            }
            said
        }
        Mode::Hex => {
            file.map.cell_cm = None;
            let staff = file.staff.len();
            file.staff.clear();
            for u in &mut file.units {
                if let Some((x, y)) = u.pos.take() {
                    u.at = Some(((x / cell).floor() as i64, (y / cell).floor() as i64));
                }
                if let Some(v) = u.valour.take() {
                    u.morale = Some(morale_of_valour(v));
                }
                if let Some(f) = u.figures.take() {
                    u.strength = Some(((f + 3) / 6).clamp(1, 1000));
                }
                u.state = u.state.map(crate::vocab::State::hex);
                if let Some(FacingFile::Degrees(d)) = u.facing {
                    u.facing = Some(FacingFile::Hexside(crate::hex::Dir::from_degrees(d)));
                }
                u.limbered = None;
                u.horse = None;
            }
            for s in &mut file.shocks {
                s.to = s.to.hex();
            }
            let mut said = "a hex map: each unit in the hex of its cell".to_owned();
            if staff > 0 {
                said += &format!("; {staff} staff figures dropped (hexes have none; undo brings them back)");
            }
            said
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::blank::blank;
    use crate::edit::forces::{Spot, new_unit, place};
    use crate::edit::paint::{set_hexside, terrain_at};
    use crate::hex::{Dir, Offset};
    use crate::scenario::ObjectiveFile;
    use crate::terrain::{Arm, HexsideKind};

    #[test]
    fn a_map_grown_at_the_top_and_left_keeps_every_unit_on_its_ground() {
        let mut f = blank(Mode::Hex, 6, 4, Terrain::Clear);
        f.map.rows[1] = "..w...".into();
        let u = new_unit(&f, "blue", Arm::Infantry, Spot::Hex(Offset::new(2, 1)));
        place(&mut f, u).expect("placed");
        set_hexside(&mut f.map, Offset::new(2, 1), Dir::S, Some(HexsideKind::Stream));
        f.objectives.push(ObjectiveFile { at: (2, 1), points: 1, name: None, held_by: None });
        resize(&mut f, Margins { left: 2, top: 1, right: 1, bottom: -1 }).expect("resized");
        assert_eq!(size(&f.map), (9, 4));
        assert_eq!(f.units[0].at, Some((4, 2)));
        assert_eq!(terrain_at(&f.map, Offset::new(4, 2)), Some(Terrain::Woods), "the unit is still in its woods");
        assert_eq!(f.map.hexsides[0].at, (4, 2));
        assert_eq!(f.objectives[0].at, (4, 2));
        assert_eq!(resize(&mut f, Margins { left: 1, ..Margins::default() }), Err(ReshapeError::OddColumns));
        assert_eq!(resize(&mut f, Margins { bottom: -4, ..Margins::default() }), Err(ReshapeError::Size(9, 0)));
        // Cut at the top, the hexside row is gone with its hexside.
        resize(&mut f, Margins { top: -3, ..Margins::default() }).expect("cut");
        assert!(f.map.hexsides.is_empty());
        assert_eq!(f.units[0].at, Some((4, -1)), "off the map now: the checker names it");
    }

    #[test]
    fn a_table_grown_on_the_left_moves_its_units_by_whole_cells() {
        let mut f = blank(Mode::FreeSpace, 6, 4, Terrain::Clear);
        let u = new_unit(&f, "blue", Arm::Infantry, Spot::Cm(25.0, 15.0));
        place(&mut f, u).expect("placed");
        resize(&mut f, Margins { left: 1, ..Margins::default() }).expect("one column is fine on a table");
        assert_eq!(f.units[0].pos, Some((35.0, 15.0)));
    }

    #[test]
    fn a_new_cell_size_keeps_units_and_staff_on_their_cells() {
        let mut f = blank(Mode::FreeSpace, 6, 4, Terrain::Clear);
        f.map.rows[1] = "..~...".into();
        let u = new_unit(&f, "blue", Arm::Infantry, Spot::Cm(25.0, 15.0));
        place(&mut f, u).expect("placed");
        crate::edit::forces::add_staff(&mut f, "red", (12.3, 34.5)).expect("staff");
        set_cell_cm(&mut f, 12.0);
        let (x, y) = f.units[0].pos.expect("pos");
        assert_eq!((x, y), (30.0, 18.0));
        assert_eq!(((x / 12.0) as i32, (y / 12.0) as i32), (2, 1), "still on the river cell it stood on");
        assert_eq!(f.staff[0].pos, (14.8, 41.4));
    }

    #[test]
    fn a_hex_battle_turned_into_a_table_and_back_keeps_places_and_values() {
        let mut f = blank(Mode::Hex, 6, 4, Terrain::Clear);
        let mut u = new_unit(&f, "blue", Arm::Infantry, Spot::Hex(Offset::new(3, 2)));
        u.morale = Some(35);
        u.strength = Some(5);
        u.facing = Some(FacingFile::Hexside(Dir::SE));
        place(&mut f, u).expect("placed");
        set_hexside(&mut f.map, Offset::new(2, 1), Dir::S, Some(HexsideKind::Stream));
        let said = convert_mode(&mut f, Mode::FreeSpace);
        assert!(said.contains("1 hexsides dropped"), "{said}");
        let u = &f.units[0];
        assert_eq!((u.pos, u.valour, u.figures), (Some((35.0, 25.0)), Some(2), Some(30)));
        assert_eq!(u.facing, Some(FacingFile::Degrees(120.0)));
        assert!(crate::scenario::validate(f.clone()).is_ok(), "{:?}", crate::scenario::validate(f.clone()).err());
        convert_mode(&mut f, Mode::Hex);
        let u = &f.units[0];
        assert_eq!((u.at, u.morale, u.strength), (Some((3, 2)), Some(34), Some(5)));
        assert!(crate::scenario::validate(f.clone()).is_ok(), "{:?}", crate::scenario::validate(f.clone()).err());
    }

    #[test]
    fn snapping_rounds_to_the_grid_or_to_a_tenth() {
        assert_eq!(snap(119.77397, 0.0), 119.8);
        assert_eq!(snap(119.77397, 5.0), 120.0);
        assert_eq!(snap(12.4, 0.5), 12.5);
        assert_eq!(valour_of_morale(morale_of_valour(2)), 2);
        assert_eq!(morale_of_valour(0), 44);
    }
}
