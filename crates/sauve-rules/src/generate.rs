//! Generated battles for benchmarks, fuzzing and stress tests: large maps
//! with terrain variety and two armies facing each other, from a seed.

pub mod battle;
pub mod table;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use crate::hex::{Dir, Edge, Offset};
use crate::labataille::{Board, HexUnit};
use crate::map::TerrainMap;
use crate::terrain::{Arm, Terrain};
use crate::vocab::State;
use crate::vocab::{Formation, Readiness};

/// A `w` x `h` map: mostly clear, with woods and marsh patches, villages,
/// a river with bridges across the middle third, and roads.
pub fn terrain(w: i32, h: i32, seed: u64) -> TerrainMap {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut map = TerrainMap::filled(w, h, Terrain::Clear);
    let patches = (w * h / 150).max(1);
    for _ in 0..patches {
        let t =
            [Terrain::Woods, Terrain::Woods, Terrain::Marsh, Terrain::Garden, Terrain::Village][rng.random_range(0..5)];
        let centre = Offset::new(rng.random_range(0..w), rng.random_range(0..h));
        let radius = if t == Terrain::Village { 0 } else { rng.random_range(1..3) };
        patch(&mut map, centre, radius, t);
    }
    // A river meandering across the map at about two thirds down, bridged
    // every 12 columns; a road down every 25th column.
    let mut r = h * 2 / 3;
    for c in 0..w {
        r = (r + rng.random_range(-1..=1)).clamp(1, h - 2);
        map.set(Offset::new(c, r), if c % 12 == 5 { Terrain::Bridge } else { Terrain::River });
    }
    for c in (3..w).step_by(25) {
        for r in 0..h {
            let o = Offset::new(c, r);
            if map.terrain(o) != Some(Terrain::River) && map.terrain(o) != Some(Terrain::Bridge) {
                map.set(o, Terrain::Road);
            }
        }
    }
    map
}

/// Terrain `t` on every hex within `radius` of `centre` (on the map).
fn patch(map: &mut TerrainMap, centre: Offset, radius: i32, t: Terrain) {
    for r in centre.r - radius..=centre.r + radius {
        for c in centre.c - radius..=centre.c + radius {
            let o = Offset::new(c, r);
            if o.distance(centre) as i32 <= radius {
                map.set(o, t);
            }
        }
    }
}

/// Whether `o` is off the map or in the water (a brook or its bridge): no
/// place for a village.
fn wet(map: &TerrainMap, o: Offset) -> bool {
    matches!(map.terrain(o), Some(Terrain::River | Terrain::Bridge) | None)
}

/// The scenario's `objectives` block: each village's hex and points.
fn objectives_block(objectives: &[(Offset, u32)]) -> String {
    let mut s = String::from("    objectives: [\n");
    for (k, (at, points)) in objectives.iter().enumerate() {
        s += &format!("        (at: ({}, {}), points: {points}, name: \"Village {}\"),\n", at.c, at.r, k + 1);
    }
    s + "    ],\n"
}

/// The rows of a map as scenario strings (default legend).
pub fn map_rows(map: &TerrainMap) -> Vec<String> {
    (0..map.height)
        .map(|r| (0..map.width).map(|c| map.terrain(Offset::new(c, r)).map_or('.', Terrain::default_char)).collect())
        .collect()
}

/// Where the two armies stand: side 0 (rear South) in a band below the
/// middle, side 1 (rear North) in a band above it, each on hexes its arm
/// may enter. Returns (side, arm, position) per unit.
pub fn deployment(map: &TerrainMap, units: usize, seed: u64) -> Vec<(usize, Arm, Offset)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let rules = crate::rules::Rules::default();
    let mut out = Vec::with_capacity(units);
    let mut taken = std::collections::BTreeSet::new();
    let (w, h) = (map.width, map.height);
    let mid = h / 2;
    let mut tries = 0;
    while out.len() < units && tries < units * 200 {
        tries += 1;
        let side = out.len() % 2;
        let arm = match rng.random_range(0..10) {
            0 | 1 => Arm::Cavalry,
            2 => Arm::Artillery,
            _ => Arm::Infantry,
        };
        let band = (h / 8).max(2);
        let r = if side == 0 { mid + 2 + rng.random_range(0..band) } else { mid - 2 - rng.random_range(0..band) };
        let at = Offset::new(rng.random_range(0..w), r.clamp(0, h - 1));
        if map.passable(&rules, arm, at) && taken.insert(at) {
            out.push((side, arm, at));
        }
    }
    out
}

/// A complete hex scenario file (RON) of `w` x `h` hexes and `units` units.
pub fn scenario_text(w: i32, h: i32, units: usize, seed: u64) -> String {
    let map = terrain(w, h, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(1));
    let mut s = String::with_capacity((w * h) as usize + units * 100);
    s += &format!(
        "// Generated: {w}x{h} hexes, {units} units, seed {seed}.\nScenario(\n    format: 1,\n    name: \"Generated battle {seed}\",\n    turns: 4,\n    seed: {seed},\n"
    );
    s += "    sides: [\n        (id: \"blue\", name: \"Blue\", rear: South, control: Ai),\n        (id: \"red\", name: \"Red\", rear: North, control: Ai),\n    ],\n";
    s += "    map: (\n        rows: [\n";
    for row in map_rows(&map) {
        s += &format!("            \"{row}\",\n");
    }
    s += "        ],\n    ),\n    units: [\n";
    for (i, (side, arm, at)) in deployment(&map, units, seed).into_iter().enumerate() {
        let morale = 10 * rng.random_range(2..6) + rng.random_range(1..7);
        let side_id = if side == 0 { "blue" } else { "red" };
        s += &format!(
            "        (id: \"{side_id}-{i}\", side: \"{side_id}\", arm: {arm:?}, at: ({}, {}), morale: {morale}, strength: {}),\n",
            at.c,
            at.r,
            rng.random_range(2..13)
        );
    }
    s += "    ],\n    shocks: [(turn: 1, unit: \"blue-0\", to: Routed, cause: \"red-1\")],\n)\n";
    s
}

/// The rout benchmark's battle: `routers` routed units of side 0 packed in
/// ranks just south of a good-order enemy line, on a generated map, so each
/// failed recovery is a full 10-hex rout move.
pub fn rout_board(map: &TerrainMap, routers: usize) -> Board {
    let rules = crate::rules::Rules::default();
    let (w, h) = (map.width, map.height);
    let mut units = Vec::new();
    let front = h / 3;
    // Enemy line: every other hex of the front row.
    for c in (0..w).step_by(2) {
        let at = Offset::new(c, front);
        if map.passable(&rules, Arm::Infantry, at) {
            units.push(unit(format!("e{c}"), 1, at, State::GoodOrder, Dir::S));
        }
    }
    let mut r = front + 3;
    let mut placed = 0;
    'rows: while r < h {
        for c in 0..w {
            if placed == routers {
                break 'rows;
            }
            let at = Offset::new(c, r);
            if map.passable(&rules, Arm::Infantry, at) {
                units.push(unit(format!("r{placed}"), 0, at, State::Routed, Dir::N));
                placed += 1;
            }
        }
        r += 1;
    }
    Board { units }
}

fn unit(id: String, side: usize, at: Offset, state: State, facing: Dir) -> HexUnit {
    HexUnit {
        id,
        side,
        arm: Arm::Infantry,
        at: Some(at),
        morale: 44,
        strength: 4,
        state,
        readiness: Readiness::Fresh,
        formation: Formation::Line,
        facing,
        limbered: false,
        rested: true,
    }
}

/// The sides used by generated battles.
pub fn sides() -> Vec<crate::scenario::Side> {
    use crate::scenario::Side;
    use crate::vocab::Control;
    vec![
        Side {
            id: "blue".into(),
            name: "Blue".into(),
            rear: Edge::South,
            control: Control::Ai,
            aggression: crate::scenario::DEFAULT_AGGRESSION,
            level: crate::vocab::AiLevel::default(),
        },
        Side {
            id: "red".into(),
            name: "Red".into(),
            rear: Edge::North,
            control: Control::Ai,
            aggression: crate::scenario::DEFAULT_AGGRESSION,
            level: crate::vocab::AiLevel::default(),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_scenarios_are_valid_and_the_requested_size() {
        let text = scenario_text(60, 40, 200, 3);
        let s = crate::scenario::parse(&text, "gen.ron").expect("valid");
        assert_eq!((s.map.width, s.map.height, s.units.len()), (60, 40, 200));
        assert_eq!(text, scenario_text(60, 40, 200, 3), "same seed, same file");
    }
}
