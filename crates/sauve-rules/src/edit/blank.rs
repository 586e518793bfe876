//! A new scenario file to start from: a map of one terrain, two sides
//! facing each other across it, no units yet.

use crate::hex::Edge;
use crate::rules::Rules;
use crate::scenario::{FORMAT_VERSION, MapFile, Mode, ScenarioFile, SideFile};
use crate::terrain::Terrain;
use crate::vocab::Control;

/// The free-space cell a new table gets, in cm.
pub const NEW_CELL_CM: f32 = 10.0;

/// A `width` x `height` map of `fill` (hexes, or cells of
/// [`NEW_CELL_CM`] in free space), with the sides `blue` (a player,
/// its rear to the south) and `red` (the AI, its rear to the north).
pub fn blank(mode: Mode, width: u32, height: u32, fill: Terrain) -> ScenarioFile {
    let row: String = std::iter::repeat_n(fill.default_char(), width.max(1) as usize).collect();
    let side = |id: &str, name: &str, rear, control| SideFile {
        id: id.into(),
        name: Some(name.into()),
        rear: Some(rear),
        control,
        aggression: None,
        level: None,
    };
    ScenarioFile {
        format: FORMAT_VERSION,
        name: "A new battle".into(),
        description: String::new(),
        mode,
        turns: 12,
        seed: 1,
        sides: vec![side("blue", "Blue", Edge::South, Control::Player), side("red", "Red", Edge::North, Control::Ai)],
        map: MapFile {
            rows: vec![row; height.max(1) as usize],
            legend: Default::default(),
            hexsides: Vec::new(),
            cell_cm: (mode == Mode::FreeSpace).then_some(NEW_CELL_CM),
        },
        units: Vec::new(),
        shocks: Vec::new(),
        staff: Vec::new(),
        objectives: Vec::new(),
        exits: Vec::new(),
        corps: Vec::new(),
        leaders: Vec::new(),
        rules: Rules::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::forces::{Spot, new_unit, place};
    use crate::terrain::Arm;

    #[test]
    fn a_blank_map_of_either_mode_lacks_only_units_and_is_valid_with_one() {
        for mode in [Mode::Hex, Mode::FreeSpace] {
            let mut f = blank(mode, 12, 9, Terrain::Woods);
            let problems = crate::scenario::validate(f.clone()).err().unwrap_or_default();
            let paths: Vec<_> = problems.iter().map(|p| p.path.clone().unwrap_or_default()).collect();
            assert_eq!(paths, ["units"], "{mode:?}: {problems:?}");
            let at = match mode {
                Mode::Hex => Spot::Hex(crate::hex::Offset::new(3, 3)),
                Mode::FreeSpace => Spot::Cm(40.0, 40.0),
            };
            let u = new_unit(&f, "blue", Arm::Infantry, at);
            place(&mut f, u).expect("placed");
            let s = crate::scenario::validate(f).unwrap_or_else(|p| panic!("{mode:?}: {p:?}"));
            assert_eq!((s.map.width, s.map.height), (12, 9));
            assert_eq!(s.map.terrain(crate::hex::Offset::new(11, 8)), Some(Terrain::Woods));
            assert_eq!(s.sides.len(), 2);
        }
    }
}
