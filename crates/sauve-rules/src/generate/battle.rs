//! A whole hex battle from a seed, for measuring the AI on ground it was
//! never tuned on (docs/whatif.md, "Measuring a change of the AI"): a
//! map with woods and marsh and, more often than not, a brook crossed at
//! three bridges (and, where it wanders, at a ford or two: two of its
//! hexes a row apart need not touch); three villages to fight for; two armies of two or three
//! corps each, deployed near opposite edges, each side with an aggression
//! of its own.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use crate::hex::Offset;
use crate::map::TerrainMap;
use crate::rules::Rules;
use crate::terrain::{Arm, Terrain};

use super::wet;

/// The sides' ids and names, side 0 first.
pub(super) const SIDES: [(&str, &str); 2] = [("bl", "Blue"), ("rd", "Red")];

/// The scenario file (RON) of battle `seed`: the same seed always gives
/// the same file.
pub fn battle_text(seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x00ba_771e);
    let (w, h) = [(30, 22), (34, 24), (28, 20)][rng.random_range(0..3)];
    let mut map = TerrainMap::filled(w, h, Terrain::Clear);
    // The armies face each other across the map's width or its height.
    let across = rng.random_range(0..2) == 0;
    for (t, n, r) in [(Terrain::Woods, rng.random_range(3..8), 3), (Terrain::Marsh, rng.random_range(0..3), 2)] {
        for _ in 0..n {
            let centre = Offset::new(rng.random_range(0..w), rng.random_range(0..h));
            let radius = rng.random_range(1..=r);
            super::patch(&mut map, centre, radius, t);
        }
    }
    if rng.random_range(0..10) < 7 {
        brook(&mut map, &mut rng, across);
    }
    let objectives = villages(&mut map, &mut rng, across);

    let rears = if across { ["West", "East"] } else { ["North", "South"] };
    let aggression: Vec<f32> = (0..2).map(|_| (rng.random_range(30..=75) as f32) / 100.0).collect();
    let rules = Rules::default();
    let mut taken = std::collections::BTreeSet::new();
    let mut units = Vec::new();
    let mut corps = Vec::new();
    for (side, (id, name)) in SIDES.iter().enumerate() {
        let n_corps = rng.random_range(2..=3);
        for c in 0..n_corps {
            let mut members = Vec::new();
            for i in 0..rng.random_range(5..=8) {
                let arm = match rng.random_range(0..10) {
                    0 | 1 => Arm::Cavalry,
                    2 => Arm::Artillery,
                    _ => Arm::Infantry,
                };
                let Some(at) = place(&map, &rules, &mut rng, &mut taken, arm, side, c, n_corps, across) else {
                    continue;
                };
                let morale = 10 * [3, 4, 4, 5][rng.random_range(0..4)] + rng.random_range(1..=5);
                let strength = match arm {
                    Arm::Infantry => rng.random_range(3..=7),
                    Arm::Cavalry => rng.random_range(3..=6),
                    Arm::Artillery => rng.random_range(2..=3),
                };
                let uid = format!("{id}-{}-{}", c + 1, i + 1);
                units.push(format!(
                    "        (id: \"{uid}\", side: \"{id}\", arm: {arm:?}, at: ({}, {}), morale: {morale}, strength: {strength}, name: \"{name} {}/{} {arm:?}\"),",
                    at.c,
                    at.r,
                    c + 1,
                    i + 1
                ));
                members.push(format!("\"{uid}\""));
            }
            let breaks_at = (members.len() / 2).max(2);
            corps.push(format!(
                "        (id: \"{id}-{}\", side: \"{id}\", name: \"{name} corps {}\", breaks_at: {breaks_at}, units: [{}]),",
                c + 1,
                c + 1,
                members.join(", ")
            ));
        }
    }

    let mut s = format!(
        "// Generated battle {seed} (`sauve generate --seed {seed}`): ground the AI was never tuned on.\nScenario(\n    format: 1,\n    name: \"Generated battle {seed}\",\n    turns: 10,\n    seed: {seed},\n    sides: [\n"
    );
    s += &sides_block(rears, &aggression);
    s += "    ],\n    map: (\n        rows: [\n";
    for row in super::map_rows(&map) {
        s += &format!("            \"{row}\",\n");
    }
    s += "        ],\n    ),\n    units: [\n";
    s += &units.join("\n");
    s += "\n    ],\n";
    s += &super::objectives_block(&objectives);
    s += "    corps: [\n";
    s += &corps.join("\n");
    s += "\n    ],\n)\n";
    s
}

/// The sides, one line each: Blue the player's, Red the AI's, each with
/// its rear edge and aggression.
pub(super) fn sides_block(rears: [&str; 2], aggression: &[f32]) -> String {
    let mut s = String::new();
    for (side, (id, name)) in SIDES.iter().enumerate() {
        s += &format!(
            "        (id: \"{id}\", name: \"{name}\", rear: {}, control: {}, aggression: {:.2}),\n",
            rears[side],
            if side == 0 { "Player" } else { "Ai" },
            aggression[side]
        );
    }
    s
}

/// A brook across the middle, between the armies, wandering a hex at a
/// time, with bridges at a quarter, the middle and three quarters of its
/// length. Where it steps sideways its hexes may meet only at a corner,
/// and the two dry hexes between them are a ford.
fn brook(map: &mut TerrainMap, rng: &mut ChaCha8Rng, across: bool) {
    let (len, span) = if across { (map.height, map.width) } else { (map.width, map.height) };
    let mut x = span / 2 + rng.random_range(-3..=3);
    let middle = len / 2 + rng.random_range(-1..=1);
    for y in 0..len {
        let at = if across { Offset::new(x, y) } else { Offset::new(y, x) };
        let bridge = y == len / 4 || y == middle || y == 3 * len / 4;
        map.set(at, if bridge { Terrain::Bridge } else { Terrain::River });
        x = (x + rng.random_range(-1..=1)).clamp(2, span - 3);
    }
}

/// Three villages near the middle, apart from each other and off the
/// brook, each of a few hexes, with their points.
fn villages(map: &mut TerrainMap, rng: &mut ChaCha8Rng, across: bool) -> Vec<(Offset, u32)> {
    let (w, h) = (map.width, map.height);
    let mut out: Vec<(Offset, u32)> = Vec::new();
    for _ in 0..3 {
        let mut at = Offset::new(w / 2, h / 2);
        for _ in 0..100 {
            at = if across {
                Offset::new(w / 2 + rng.random_range(-5..=5), rng.random_range(2..h - 2))
            } else {
                Offset::new(rng.random_range(2..w - 2), h / 2 + rng.random_range(-5..=5))
            };
            if !wet(map, at) && out.iter().all(|(o, _)| o.distance(at) > 4) {
                break;
            }
        }
        for o in [at, Offset::new(at.c + 1, at.r), Offset::new(at.c, at.r + 1)] {
            if !wet(map, o) {
                map.set(o, Terrain::Village);
            }
        }
        out.push((at, [1, 2, 3, 5][rng.random_range(0..4)]));
    }
    out
}

/// Where a unit of `side`'s corps `c` (of `n`) stands: a few hexes in from
/// its rear edge, in its corps' stretch of the front, on ground its arm
/// may enter and no other unit holds.
#[allow(clippy::too_many_arguments)]
fn place(
    map: &TerrainMap,
    rules: &Rules,
    rng: &mut ChaCha8Rng,
    taken: &mut std::collections::BTreeSet<Offset>,
    arm: Arm,
    side: usize,
    c: usize,
    n: usize,
    across: bool,
) -> Option<Offset> {
    let (w, h) = (map.width, map.height);
    let (span, depth_of) = if across { (h, w) } else { (w, h) };
    for _ in 0..500 {
        let depth = if across { rng.random_range(5..=9) } else { rng.random_range(4..=7) };
        let along = ((c as f32 + rng.random_range(0..1000) as f32 / 1000.0) * span as f32 / n as f32) as i32;
        let along = along.clamp(0, span - 1);
        let from_edge = if side == 0 { depth } else { depth_of - 1 - depth };
        let at = if across { Offset::new(from_edge, along) } else { Offset::new(along, from_edge) };
        if map.passable(rules, arm, at) && !taken.contains(&at) {
            taken.insert(at);
            return Some(at);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse;

    /// Every generated battle is a valid scenario with what a battle
    /// needs: two sides, each with its corps of units on ground they may
    /// enter, three objectives, and the same file for the same seed.
    #[test]
    fn generated_battles_are_valid_and_the_same_for_a_seed() {
        let rules = Rules::default();
        for seed in 1..40 {
            let text = battle_text(seed);
            let s = parse(&text, "battle.ron").unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            assert_eq!(text, battle_text(seed), "seed {seed}: the same file");
            assert_eq!(s.objectives.len(), 3, "seed {seed}");
            for side in 0..2 {
                let corps = s.corps.iter().filter(|c| c.side == side && !c.implicit).count();
                assert!((2..=3).contains(&corps), "seed {seed}: side {side} has {corps} corps");
                assert!(s.units.iter().filter(|u| u.side == side).count() >= 10, "seed {seed}: side {side}");
            }
            for (i, u) in s.units.iter().enumerate() {
                let crate::scenario::Place::Hex(at) = u.place else { panic!("seed {seed}: {} not on a hex", u.id) };
                assert!(s.map.passable(&rules, u.arm, at), "seed {seed}: {} stands where it may not", u.id);
                let corps = s.corps_of_unit(i).map(|c| &s.corps[c]);
                assert!(corps.is_some_and(|c| !c.implicit && c.side == u.side), "seed {seed}: {} has no corps", u.id);
            }
        }
        assert_ne!(battle_text(1), battle_text(2), "another seed, another battle");
    }
}
