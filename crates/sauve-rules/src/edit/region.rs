//! Shapes and regions of the map for the editor's line, rectangle and
//! copy tools: the hexes (cells) along a line and inside a rectangle, and
//! a region copied (its ground, hexsides, units, staff and objectives)
//! and pasted elsewhere with its shape kept: on hexes it is moved in cube
//! coordinates, so a river pasted one column over still joins up.

use crate::edit::blank::NEW_CELL_CM;
use crate::edit::forces::{Spot, fresh_id, spot};
use crate::edit::paint::{char_for, hexside_at, set_hexside, size, terrain_at};
use crate::hex::{Dir, Offset};
use crate::scenario::{Mode, ObjectiveFile, ScenarioFile, StaffFile, UnitFile};
use crate::terrain::{HexsideKind, Terrain};

/// The hexes (cells) from `a` to `b` in a straight line, both ends in.
pub fn line(mode: Mode, a: Offset, b: Offset) -> Vec<Offset> {
    match mode {
        Mode::Hex => a.to_hex().line_to(b.to_hex()).map(Offset::from_hex).collect(),
        Mode::FreeSpace => {
            let n = (b.c - a.c).abs().max((b.r - a.r).abs());
            (0..=n)
                .map(|k| {
                    let t = if n == 0 { 0.0 } else { k as f32 / n as f32 };
                    let c = a.c as f32 + (b.c - a.c) as f32 * t;
                    let r = a.r as f32 + (b.r - a.r) as f32 * t;
                    Offset::new(c.round() as i32, r.round() as i32)
                })
                .collect()
        }
    }
}

/// The hexes (cells) of the rectangle of columns and rows between `a` and
/// `b`, both corners in, row by row.
pub fn rect(a: Offset, b: Offset) -> Vec<Offset> {
    let (c0, c1) = (a.c.min(b.c), a.c.max(b.c));
    let (r0, r1) = (a.r.min(b.r), a.r.max(b.r));
    (r0..=r1).flat_map(|r| (c0..=c1).map(move |c| Offset::new(c, r))).collect()
}

/// Lays `t` on each of `cells` that is on the map; how many changed.
pub fn paint_cells(file: &mut ScenarioFile, cells: &[Offset], t: Terrain) -> usize {
    let mode = file.mode;
    cells
        .iter()
        .filter(|&&o| crate::edit::paint::paint(&mut file.map, mode, o, crate::edit::paint::Brush::One, t) > 0)
        .count()
}

/// A copied region: everything in it, placed relative to its corner.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    pub mode: Mode,
    /// The corner it was copied from (top left).
    pub origin: Offset,
    /// Its columns and rows.
    pub size: (i32, i32),
    pub ground: Vec<(Offset, Terrain)>,
    pub hexsides: Vec<(Offset, Dir, HexsideKind)>,
    pub units: Vec<UnitFile>,
    pub staff: Vec<StaffFile>,
    pub objectives: Vec<ObjectiveFile>,
    /// The cell size the table's centimetres were copied at.
    pub cell_cm: f32,
}

fn cell_of(file: &ScenarioFile, s: Spot) -> Offset {
    match s {
        Spot::Hex(o) => o,
        Spot::Cm(x, y) => {
            let c = file.map.cell_cm.unwrap_or(NEW_CELL_CM);
            Offset::new((x / c).floor() as i32, (y / c).floor() as i32)
        }
    }
}

/// Copies the rectangle between `a` and `b` (clipped to the map).
pub fn copy(file: &ScenarioFile, a: Offset, b: Offset) -> Clip {
    let (w, h) = size(&file.map);
    let clamp = |o: Offset| Offset::new(o.c.clamp(0, (w - 1).max(0)), o.r.clamp(0, (h - 1).max(0)));
    let (a, b) = (clamp(a), clamp(b));
    let cells = rect(a, b);
    let origin = Offset::new(a.c.min(b.c), a.r.min(b.r));
    let inside = |o: Offset| cells.contains(&o);
    let ground = cells.iter().filter_map(|&o| terrain_at(&file.map, o).map(|t| (o, t))).collect();
    let mut hexsides = Vec::new();
    if file.mode == Mode::Hex {
        for &o in &cells {
            for d in Dir::ALL {
                // Each edge once: named from the hex it is seen from first.
                let n = o.neighbour(d);
                let seen = inside(n) && (n.r, n.c) < (o.r, o.c);
                if !seen && let Some(k) = hexside_at(&file.map, o, d) {
                    hexsides.push((o, d, k));
                }
            }
        }
    }
    let units = file.units.iter().filter(|u| spot(u).is_some_and(|s| inside(cell_of(file, s)))).cloned().collect();
    let staff = file.staff.iter().filter(|s| inside(cell_of(file, Spot::Cm(s.pos.0, s.pos.1)))).cloned().collect();
    let objectives =
        file.objectives.iter().filter(|o| inside(Offset::new(o.at.0 as i32, o.at.1 as i32))).cloned().collect();
    Clip {
        mode: file.mode,
        origin,
        size: ((a.c - b.c).abs() + 1, (a.r - b.r).abs() + 1),
        ground,
        hexsides,
        units,
        staff,
        objectives,
        cell_cm: file.map.cell_cm.unwrap_or(NEW_CELL_CM),
    }
}

/// Pastes a region with its corner at `at`; what it brought, in words.
/// Pasted units get fresh ids (and leave corps and leaders behind); an
/// objective pasted over another replaces it; what falls off the map is
/// left out.
pub fn paste(file: &mut ScenarioFile, clip: &Clip, at: Offset) -> Result<String, String> {
    if clip.mode != file.mode {
        return Err("a region copied from a hex map pastes on hex maps only, and a table's on tables".into());
    }
    let (w, h) = size(&file.map);
    let on = |o: Offset| o.c >= 0 && o.r >= 0 && o.c < w && o.r < h;
    let moved = |o: Offset| match clip.mode {
        Mode::Hex => Offset::from_hex(o.to_hex() + (at.to_hex() - clip.origin.to_hex())),
        Mode::FreeSpace => Offset::new(o.c + at.c - clip.origin.c, o.r + at.r - clip.origin.r),
    };
    let cell = file.map.cell_cm.unwrap_or(NEW_CELL_CM);
    let shift_cm = |(x, y): (f32, f32)| {
        let (dx, dy) = ((at.c - clip.origin.c) as f32 * clip.cell_cm, (at.r - clip.origin.r) as f32 * clip.cell_cm);
        let k = cell / clip.cell_cm;
        (crate::edit::reshape::tenth((x + dx) * k), crate::edit::reshape::tenth((y + dy) * k))
    };
    let mut ground = 0;
    for &(o, t) in &clip.ground {
        let to = moved(o);
        if on(to) && char_for(&file.map, t).is_some() {
            ground += crate::edit::paint::paint(&mut file.map, file.mode, to, crate::edit::paint::Brush::One, t);
        }
    }
    for &(o, d, k) in &clip.hexsides {
        let to = moved(o);
        if on(to) && on(to.neighbour(d)) {
            set_hexside(&mut file.map, to, d, Some(k));
        }
    }
    let mut units = 0;
    for u in &clip.units {
        let mut copy = u.clone();
        copy.id = fresh_id(file, &copy.side);
        if let Some((c, r)) = copy.at {
            let to = moved(Offset::new(c as i32, r as i32));
            if !on(to) {
                continue;
            }
            copy.at = Some((i64::from(to.c), i64::from(to.r)));
        }
        if let Some(p) = copy.pos {
            copy.pos = Some(shift_cm(p));
        }
        if file.sides.iter().any(|s| s.id == copy.side) {
            file.units.push(copy);
            units += 1;
        }
    }
    for s in &clip.staff {
        file.staff.push(StaffFile { pos: shift_cm(s.pos), ..s.clone() });
    }
    for o in &clip.objectives {
        let to = moved(Offset::new(o.at.0 as i32, o.at.1 as i32));
        if on(to) {
            let key = (i64::from(to.c), i64::from(to.r));
            file.objectives.retain(|x| x.at != key);
            file.objectives.push(ObjectiveFile { at: key, ..o.clone() });
        }
    }
    Ok(format!(
        "{ground} {} of ground, {} hexsides, {units} units, {} staff, {} objectives pasted",
        if clip.mode == Mode::Hex { "hexes" } else { "cells" },
        clip.hexsides.len(),
        clip.staff.len(),
        clip.objectives.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::blank::blank;
    use crate::edit::forces::{new_unit, place};
    use crate::terrain::Arm;

    #[test]
    fn a_line_and_a_rectangle_cover_what_they_say() {
        let l = line(Mode::Hex, Offset::new(0, 0), Offset::new(4, 0));
        assert_eq!(l.len(), 5, "{l:?}");
        assert!(l.windows(2).all(|p| p[0].distance(p[1]) == 1), "each hex next to the last: {l:?}");
        let c = line(Mode::FreeSpace, Offset::new(0, 0), Offset::new(3, 6));
        assert_eq!(c.len(), 7);
        assert_eq!(c.last(), Some(&Offset::new(3, 6)));
        assert_eq!(rect(Offset::new(3, 2), Offset::new(1, 1)).len(), 6);
    }

    #[test]
    fn a_region_pasted_an_odd_column_over_keeps_its_river_joined() {
        let mut f = blank(Mode::Hex, 12, 10, Terrain::Clear);
        // A river down the neighbours of (2, 2): S, then SE, then S.
        let mut river = vec![Offset::new(2, 2)];
        for d in [Dir::S, Dir::SE, Dir::S] {
            let next = river[river.len() - 1].neighbour(d);
            river.push(next);
        }
        paint_cells(&mut f, &river, Terrain::River);
        set_hexside(&mut f.map, Offset::new(2, 2), Dir::NE, Some(HexsideKind::Slope));
        let u = new_unit(&f, "blue", Arm::Infantry, Spot::Hex(Offset::new(4, 2)));
        place(&mut f, u).expect("placed");
        let clip = copy(&f, Offset::new(1, 1), Offset::new(4, 6));
        assert_eq!((clip.units.len(), clip.hexsides.len()), (1, 1));
        let said = paste(&mut f, &clip, Offset::new(6, 2)).expect("pasted");
        assert!(said.contains("1 units"), "{said}");
        let shift = Offset::new(6, 2).to_hex() - Offset::new(1, 1).to_hex();
        let pasted: Vec<Offset> = river.iter().map(|o| Offset::from_hex(o.to_hex() + shift)).collect();
        assert!(pasted.iter().all(|&o| terrain_at(&f.map, o) == Some(Terrain::River)), "{pasted:?}");
        assert!(pasted.windows(2).all(|p| p[0].distance(p[1]) == 1), "still joined");
        assert_eq!(f.units.len(), 2);
        assert_ne!(f.units[1].id, f.units[0].id, "a fresh id");
        assert_eq!(f.map.hexsides.len(), 2);
        assert!(crate::scenario::validate(f.clone()).is_ok(), "{:?}", crate::scenario::validate(f).err());
    }

    #[test]
    fn a_table_region_moves_its_units_by_whole_cells() {
        let mut f = blank(Mode::FreeSpace, 10, 6, Terrain::Clear);
        let u = new_unit(&f, "blue", Arm::Infantry, Spot::Cm(25.0, 15.0));
        place(&mut f, u).expect("placed");
        let clip = copy(&f, Offset::new(2, 1), Offset::new(3, 2));
        paste(&mut f, &clip, Offset::new(6, 3)).expect("pasted");
        assert_eq!(f.units[1].pos, Some((65.0, 35.0)));
        let hex = blank(Mode::Hex, 4, 4, Terrain::Clear);
        assert!(paste(&mut f.clone(), &copy(&hex, Offset::new(0, 0), Offset::new(1, 1)), Offset::new(0, 0)).is_err());
    }
}
