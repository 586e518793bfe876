//! A whole free-space table from a seed, for measuring the AI on ground
//! it was never tuned on, as [`super::battle`] makes hex battles: a table
//! of 360 x 180 cm in 10 cm cells with woods and, more often than not, a
//! brook across the middle crossed at two bridges 20 cm wide; three
//! villages between the armies; two armies of nine to thirteen units each,
//! in two lines facing each other from the long edges.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use crate::hex::Offset;
use crate::map::TerrainMap;
use crate::terrain::{Arm, Terrain};

use super::battle::SIDES;
use super::wet;

/// Cells across and down, and their size in cm.
const W: i32 = 36;
const H: i32 = 18;
const CELL_CM: f32 = 10.0;

/// The scenario file (RON) of table `seed`: the same seed always gives
/// the same file.
pub fn table_text(seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x7ab1_e5ee);
    let mut map = TerrainMap::filled(W, H, Terrain::Clear);
    for _ in 0..rng.random_range(3..7) {
        let centre = Offset::new(rng.random_range(0..W), rng.random_range(0..H));
        let (rx, ry) = (rng.random_range(1..=3), rng.random_range(1..=2));
        for r in centre.r - ry..=centre.r + ry {
            for c in centre.c - rx..=centre.c + rx {
                map.set(Offset::new(c, r), Terrain::Woods);
            }
        }
    }
    if rng.random_range(0..10) < 7 {
        // The brook wanders a row at a time, every step 4-connected.
        let mut r = H / 2 + rng.random_range(-1..=0);
        let bridges = [rng.random_range(4..W / 2 - 3), rng.random_range(W / 2 + 2..W - 5)];
        for c in 0..W {
            let bridge = bridges.iter().any(|&b| c == b || c == b + 1);
            map.set(Offset::new(c, r), if bridge { Terrain::Bridge } else { Terrain::River });
            if !bridges.iter().any(|&b| c == b || c == b + 1) && rng.random_range(0..4) == 0 {
                let next = (r + if rng.random_range(0..2) == 0 { -1 } else { 1 }).clamp(H / 2 - 2, H / 2 + 1);
                if next != r {
                    map.set(Offset::new(c, next), Terrain::River);
                    r = next;
                }
            }
        }
    }
    // Three villages between the lines, off the brook.
    let mut objectives: Vec<(Offset, u32)> = Vec::new();
    for k in 0..3 {
        let mut at = Offset::new(6 + 12 * k, H / 2);
        for _ in 0..100 {
            let c = 3 + 10 * k + rng.random_range(0..10);
            let r = H / 2 + rng.random_range(-3..=3);
            at = Offset::new(c, r);
            if [at, Offset::new(c + 1, r), Offset::new(c, r + 1), Offset::new(c + 1, r + 1)]
                .iter()
                .all(|&o| !wet(&map, o))
            {
                break;
            }
        }
        for o in [at, Offset::new(at.c + 1, at.r), Offset::new(at.c, at.r + 1), Offset::new(at.c + 1, at.r + 1)] {
            if !wet(&map, o) {
                map.set(o, Terrain::Village);
            }
        }
        objectives.push((at, rng.random_range(1..=3)));
    }

    let aggression: Vec<f32> = (0..2).map(|_| (rng.random_range(30..=75) as f32) / 100.0).collect();
    let mut units = Vec::new();
    for (side, (id, name)) in SIDES.iter().enumerate() {
        // Side 0 keeps the top edge, side 1 the bottom; each faces the other.
        let facing = if side == 0 { 180.0 } else { 0.0 };
        let n: usize = rng.random_range(9..=13);
        let front = (n * 3).div_ceil(5);
        for i in 0..n {
            let (line, slot, slots) = if i < front { (0, i, front) } else { (1, i - front, n - front) };
            let arm = match (line, rng.random_range(0..10)) {
                (0, 0) | (1, 0..=3) => Arm::Cavalry,
                (0, 1) | (1, 4) => Arm::Artillery,
                _ => Arm::Infantry,
            };
            let x = 20.0 + (slot as f32 + 0.5) * 320.0 / slots as f32 + rng.random_range(-4..=4) as f32;
            let depth = if line == 0 { 62.0 } else { 28.0 } + rng.random_range(-4..=4) as f32;
            let y = if side == 0 { depth } else { H as f32 * CELL_CM - depth };
            let figures = match arm {
                Arm::Infantry => rng.random_range(24..=32),
                Arm::Cavalry => rng.random_range(10..=14),
                Arm::Artillery => rng.random_range(3..=4),
            };
            let valour: i32 = rng.random_range(-2..=2);
            let extra = match (arm, line) {
                (Arm::Infantry, 1) => ", formation: Column",
                (Arm::Artillery, 1) => ", limbered: true",
                _ => "",
            };
            // The ground under the unit is open (the brook keeps to the
            // rows between the lines, so none stands in it).
            let cell = Offset::new((x / CELL_CM) as i32, (y / CELL_CM) as i32);
            for r in cell.r - 1..=cell.r + 1 {
                for c in cell.c - 2..=cell.c + 2 {
                    let o = Offset::new(c, r);
                    if map.terrain(o) == Some(Terrain::Woods) {
                        map.set(o, Terrain::Clear);
                    }
                }
            }
            units.push(format!(
                "        (id: \"{id}-{}\", side: \"{id}\", arm: {arm:?}, pos: ({x:.1}, {y:.1}), facing: {facing:.1}, figures: {figures}, valour: {valour}{extra}, name: \"{name} {} {arm:?}\"),",
                i + 1,
                i + 1
            ));
        }
    }

    let mut s = format!(
        "// Generated table {seed} (`sauve generate --free-space --seed {seed}`): ground the AI was never tuned on.\nScenario(\n    format: 1,\n    name: \"Generated table {seed}\",\n    mode: FreeSpace,\n    turns: 10,\n    seed: {seed},\n    sides: [\n"
    );
    s += &super::battle::sides_block(["North", "South"], &aggression);
    s += "    ],\n    map: (\n        rows: [\n";
    for row in super::map_rows(&map) {
        s += &format!("            \"{row}\",\n");
    }
    s += &format!("        ],\n        cell_cm: {CELL_CM:.1},\n    ),\n    units: [\n");
    s += &units.join("\n");
    s += "\n    ],\n";
    s += &super::objectives_block(&objectives);
    s += ")\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Mode, Place, parse};

    /// Every generated table is a valid free-space scenario: two sides of
    /// nine to thirteen units, none on a brook, three objectives, and the
    /// same file for the same seed.
    #[test]
    fn generated_tables_are_valid_and_the_same_for_a_seed() {
        for seed in 1..40 {
            let text = table_text(seed);
            let s = parse(&text, "table.ron").unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            assert_eq!(s.mode, Mode::FreeSpace);
            assert_eq!(text, table_text(seed), "seed {seed}: the same file");
            assert_eq!(s.objectives.len(), 3, "seed {seed}");
            for side in 0..2 {
                let n = s.units.iter().filter(|u| u.side == side).count();
                assert!((9..=13).contains(&n), "seed {seed}: side {side} has {n} units");
            }
            for u in &s.units {
                let Place::Table { x, y } = u.place else { panic!("seed {seed}: {} not on the table", u.id) };
                let cell = Offset::new((x / CELL_CM) as i32, (y / CELL_CM) as i32);
                assert!(
                    !matches!(s.map.terrain(cell), Some(Terrain::River | Terrain::Bridge) | None),
                    "seed {seed}: {} stands in the brook or off the table",
                    u.id
                );
            }
        }
        assert_ne!(table_text(1), table_text(2), "another seed, another table");
    }

    /// A bridge is a way over: each of its cells has dry ground on both
    /// banks, so a column 16 cm wide crosses its 20 cm (no bend of the
    /// brook closes one end of it).
    #[test]
    fn generated_bridges_lead_from_bank_to_bank() {
        let mut bridges = 0;
        for seed in 1..60 {
            let s = parse(&table_text(seed), "table.ron").expect("valid");
            for r in 0..H {
                for c in 0..W {
                    if s.map.terrain(Offset::new(c, r)) != Some(Terrain::Bridge) {
                        continue;
                    }
                    bridges += 1;
                    for bank in [r - 1, r + 1] {
                        let t = s.map.terrain(Offset::new(c, bank));
                        assert!(
                            !matches!(t, Some(Terrain::River | Terrain::Bridge)),
                            "seed {seed}: the bridge at ({c}, {r}) ends in {t:?} at row {bank}"
                        );
                    }
                }
            }
        }
        assert!(bridges > 100, "most tables have a brook and its bridges: {bridges} bridge cells");
    }
}
