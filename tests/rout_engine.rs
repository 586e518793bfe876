//! The rout planner and the cascade engine through their pure API: the
//! priorities that need a hand-made field, random-map properties, and the
//! shared fields that make thousands of rout moves cheap.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use sauve::dice::Dice;
use sauve::events::{EventKind, EventLog};
use sauve::hex::{Dir, Edge, Offset};
use sauve::labataille::engine::{Ctx, Engine};
use sauve::labataille::fields::SideFields;
use sauve::labataille::grid::{Grid, Occupancy};
use sauve::labataille::rout::{RoutPlan, RoutPlanner, RoutQuery};
use sauve::labataille::{Board, HexState, HexUnit};
use sauve::map::TerrainMap;
use sauve::rules::Rules;
use sauve::scenario::{Control, Formation, Readiness, Side};
use sauve::terrain::{Arm, Terrain};

fn unit(id: &str, side: usize, at: (i32, i32), state: HexState) -> HexUnit {
    HexUnit {
        id: id.into(),
        side,
        arm: Arm::Infantry,
        at: Some(Offset::new(at.0, at.1)),
        morale: 44,
        strength: 4,
        state,
        readiness: Readiness::Fresh,
        formation: Formation::Line,
        facing: if side == 0 { Dir::N } else { Dir::S },
        limbered: false,
        rested: true,
    }
}

fn sides() -> Vec<Side> {
    vec![
        Side { id: "fr".into(), name: "French".into(), rear: Edge::South, control: Control::Ai, aggression: 0.5 },
        Side { id: "ru".into(), name: "Russians".into(), rear: Edge::North, control: Control::Ai, aggression: 0.5 },
    ]
}

fn plan(grid: &Grid, fields: &SideFields, board: &Board, unit: usize) -> RoutPlan {
    let occ = {
        let mut o = Occupancy::new(grid);
        for (i, u) in board.units.iter().enumerate() {
            if let Some(at) = u.at {
                o.insert(grid.idx(at), i, u.side);
            }
        }
        o
    };
    let start = board.units[unit].at.unwrap_or(Offset::new(0, 0));
    RoutPlanner::new().plan(&RoutQuery {
        grid,
        fields,
        occupancy: &occ,
        board,
        unit,
        start,
        hexes: 10,
        enemy_radius: 15,
        own_rear: Edge::South,
    })
}

#[test]
fn amid_enemies_the_least_zoned_direction_beats_cheaper_ground() {
    // Woods everywhere but column 7; column 7 lies in enemy zones.
    let mut map = TerrainMap::filled(15, 30, Terrain::Woods);
    for r in 0..30 {
        map.set(Offset::new(7, r), Terrain::Clear);
    }
    let rules = Rules::default();
    let grid = Grid::new(&map, &rules);
    let board =
        Board { units: vec![unit("fr", 0, (7, 5), HexState::Routed), unit("ru", 1, (7, 2), HexState::GoodOrder)] };
    let mut fields = SideFields::build(&grid, &board, 0, Edge::North);
    let RoutPlan::Full(p) = plan(&grid, &fields, &board, 0) else { panic!("no rout") };
    assert!(p.iter().all(|o| o.c == 7), "cheapest: straight down the clear column: {p:?}");
    for r in 6..30 {
        fields.add_zone(grid.idx(Offset::new(7, r)));
    }
    let RoutPlan::Full(p) = plan(&grid, &fields, &board, 0) else { panic!("no rout") };
    let zoned = p[1..].iter().filter(|o| o.c == 7).count();
    assert_eq!(zoned, 0, "priority 4 before 5: through the woods, out of the zones: {p:?}");
}

#[test]
fn rout_paths_obey_priorities_one_to_three_on_random_maps() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let terrain = [
        Terrain::Clear,
        Terrain::Clear,
        Terrain::Clear,
        Terrain::Woods,
        Terrain::Marsh,
        Terrain::River,
        Terrain::Village,
    ];
    let (mut full, mut surrendered, mut off) = (0, 0, 0);
    for case in 0..300 {
        let (w, h) = (rng.random_range(8..25), rng.random_range(8..25));
        let mut map = TerrainMap::filled(w, h, Terrain::Clear);
        for r in 0..h {
            for c in 0..w {
                map.set(Offset::new(c, r), terrain[rng.random_range(0..terrain.len())]);
            }
        }
        let rules = Rules::default();
        let start = Offset::new(rng.random_range(0..w), rng.random_range(0..h));
        map.set(start, Terrain::Clear);
        let grid = Grid::new(&map, &rules);
        let mut units = vec![unit("router", 0, (start.c, start.r), HexState::Routed)];
        for i in 0..rng.random_range(1..5) {
            let e = Offset::new(rng.random_range(0..w), rng.random_range(0..h / 2 + 1));
            if e != start {
                units.push(unit(&format!("e{i}"), 1, (e.c, e.r), HexState::GoodOrder));
            }
        }
        if units.len() < 2 {
            continue;
        }
        let board = Board { units };
        let fields = SideFields::build(&grid, &board, 0, Edge::North);
        let enemies: Vec<Offset> = board.units[1..].iter().filter_map(|u| u.at).collect();
        let nearest = |o: Offset| enemies.iter().map(|&e| o.distance(e)).min().unwrap_or(0);
        match plan(&grid, &fields, &board, 0) {
            RoutPlan::Full(p) => {
                full += 1;
                assert_eq!(p.len(), 11, "case {case}");
                assert_eq!(p[0], start);
                for win in p.windows(2) {
                    assert_eq!(win[0].distance(win[1]), 1, "case {case}: {p:?}");
                    assert!(nearest(win[1]) >= nearest(win[0]), "case {case}: step closer {win:?}");
                    assert!(map.passable(&rules, Arm::Infantry, win[1]), "case {case}: prohibited {:?}", win[1]);
                    assert!(!enemies.contains(&win[1]), "case {case}: into an enemy");
                }
                let mut uniq = p.clone();
                uniq.sort();
                uniq.dedup();
                assert_eq!(uniq.len(), 11, "case {case}: revisits {p:?}");
                assert!(nearest(p[10]) > nearest(start), "case {case}: must end further");
                for &e in &enemies {
                    if start.distance(e) <= 15 {
                        assert!(p[10].distance(e) >= start.distance(e), "case {case}: closer to {e}");
                    }
                }
                if !fields.behind[grid.idx(start)] {
                    assert!(p.iter().all(|o| !fields.behind[grid.idx(*o)]), "case {case}: behind enemy lines");
                }
            }
            RoutPlan::OffMap(p, _) => {
                off += 1;
                let last = p.last().copied().unwrap_or(start);
                assert!(
                    last.c == 0 || last.r == 0 || last.c == w - 1 || last.r == h - 1,
                    "case {case}: exit from the edge"
                );
                assert!(p.len() <= 10);
            }
            RoutPlan::Surrender => surrendered += 1,
        }
    }
    assert!(
        full > 100 && surrendered > 0 && off > 0,
        "a spread of outcomes: {full} full, {off} off, {surrendered} surrendered"
    );
}

#[test]
fn one_field_build_serves_every_rout_of_a_recovery_segment() {
    // 60 routed French in three ranks, the Russians in a line to the north.
    let map = TerrainMap::filled(60, 60, Terrain::Clear);
    let rules = Rules::default();
    let grid = Grid::new(&map, &rules);
    let mut units = Vec::new();
    for i in 0..60 {
        units.push(unit(&format!("fr{i}"), 0, (i, 20 + (i % 3)), HexState::Routed));
    }
    for i in 0..20 {
        units.push(unit(&format!("ru{i}"), 1, (i * 3, 10), HexState::GoodOrder));
    }
    let mut board = Board { units };
    let sides = sides();
    let ctx = Ctx { grid: &grid, rules: &rules, sides: &sides };
    let mut engine = Engine::new(&grid, &board);
    let mut dice = Dice::new(1, vec![11; 60]);
    let mut log = EventLog::default();
    engine.recovery_segment(&ctx, &mut board, &mut dice, &mut log, 0);
    let routs = log.events.iter().filter(|e| matches!(e.kind, EventKind::Move { .. })).count();
    assert_eq!(routs, 60, "every router failed and moved");
    assert_eq!(engine.field_builds, 1, "the French fields were built once and shared");
    assert!(board.units[..60].iter().all(|u| u.at.is_some_and(|a| a.r >= 28)));
}

#[test]
fn the_engine_notices_units_moved_outside_it() {
    let map = TerrainMap::filled(20, 30, Terrain::Clear);
    let rules = Rules::default();
    let grid = Grid::new(&map, &rules);
    let mut board =
        Board { units: vec![unit("fr", 0, (7, 9), HexState::Routed), unit("ru", 1, (7, 2), HexState::GoodOrder)] };
    let sides = sides();
    let ctx = Ctx { grid: &grid, rules: &rules, sides: &sides };
    let mut engine = Engine::new(&grid, &board);
    let before = engine.fields(&ctx, &board, 0).map(|f| f.dist[grid.idx(Offset::new(7, 9))]);
    assert_eq!(before, Some(7));
    // An order moves the enemy next to the router; the engine must see it.
    board.units[1].at = Some(Offset::new(7, 8));
    engine.sync(&grid, &board);
    let after = engine.fields(&ctx, &board, 0).map(|f| f.dist[grid.idx(Offset::new(7, 9))]);
    assert_eq!(after, Some(1));
    assert_eq!(engine.occupancy.at(grid.idx(Offset::new(7, 8))), &[1]);
    assert!(engine.occupancy.at(grid.idx(Offset::new(7, 2))).is_empty());
}
