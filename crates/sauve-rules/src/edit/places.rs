//! Where on the map a problem of the checker lies: its path into the
//! file (`units[3].facing`, `map.hexsides[0]`, `objectives[1]`) read as
//! the hex or the point it is about, so that the editor can mark it and
//! go to it.

use crate::edit::forces::{Spot, spot};
use crate::hex::Offset;
use crate::scenario::ScenarioFile;

/// The list and index a path starts with: `units[3].facing` gives
/// `("units", 3)`, `map.rows[2]` gives `("map.rows", 2)`.
fn head(path: &str) -> Option<(&str, usize)> {
    let open = path.find('[')?;
    let close = open + path[open..].find(']')?;
    Some((&path[..open], path[open + 1..close].parse().ok()?))
}

fn unit_spot(file: &ScenarioFile, id: &str) -> Option<Spot> {
    file.units.iter().find(|u| u.id == id).and_then(spot)
}

/// The spot a problem's path is about; `None` for one with no place on
/// the map (the name, a side, the rules block).
pub fn spot_of(file: &ScenarioFile, path: &str) -> Option<Spot> {
    let (list, i) = head(path)?;
    match list {
        "units" => file.units.get(i).and_then(spot),
        "map.hexsides" => file.map.hexsides.get(i).map(|h| Spot::Hex(Offset::new(h.at.0, h.at.1))),
        "map.rows" => (i < file.map.rows.len()).then(|| Spot::Hex(Offset::new(0, i as i32))),
        "objectives" => file.objectives.get(i).map(|o| Spot::Hex(Offset::new(o.at.0 as i32, o.at.1 as i32))),
        "staff" => file.staff.get(i).map(|s| Spot::Cm(s.pos.0, s.pos.1)),
        "leaders" => file.leaders.get(i).and_then(|l| unit_spot(file, &l.with)),
        "shocks" => file.shocks.get(i).and_then(|s| unit_spot(file, &s.unit)),
        "corps" => file.corps.get(i).and_then(|c| c.units.iter().find_map(|u| unit_spot(file, u))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::blank::blank;
    use crate::edit::forces::{new_unit, place};
    use crate::scenario::Mode;
    use crate::terrain::{Arm, Terrain};

    #[test]
    fn a_problem_of_the_checker_is_placed_on_the_map() {
        let mut f = blank(Mode::Hex, 6, 4, Terrain::Clear);
        let mut u = new_unit(&f, "blue", Arm::Infantry, Spot::Hex(Offset::new(9, 1)));
        u.morale = Some(77);
        place(&mut f, u).expect("placed");
        let problems = crate::scenario::validate(f.clone()).err().unwrap_or_default();
        assert!(!problems.is_empty(), "off the map, and no d66 morale");
        for p in &problems {
            let path = p.path.as_deref().unwrap_or_default();
            if path.starts_with("units[0]") {
                assert_eq!(spot_of(&f, path), Some(Spot::Hex(Offset::new(9, 1))), "{p}");
            }
        }
        assert!(problems.iter().any(|p| p.path.as_deref().is_some_and(|x| x.starts_with("units[0]"))));
        assert_eq!(spot_of(&f, "map.rows[3]"), Some(Spot::Hex(Offset::new(0, 3))));
        assert_eq!(spot_of(&f, "name"), None);
        assert_eq!(spot_of(&f, "units[7]"), None);
    }
}
