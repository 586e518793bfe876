//! The rout planner and the cascade engine through their pure API: the
//! priorities that need a hand-made field, random-map properties, and the
//! shared fields that make thousands of rout moves cheap.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use sauve_rules::dice::Dice;
use sauve_rules::events::{EventKind, EventLog};
use sauve_rules::hex::{Dir, Edge, Offset};
use sauve_rules::labataille::engine::{Ctx, Engine};
use sauve_rules::labataille::fields::SideFields;
use sauve_rules::labataille::grid::{Grid, Occupancy};
use sauve_rules::labataille::rout::{RoutPlan, RoutPlanner, RoutQuery};
use sauve_rules::labataille::{Board, HexUnit};
use sauve_rules::map::TerrainMap;
use sauve_rules::rules::{ArmCosts, RoutRefuge, Rules};
use sauve_rules::scenario::{Control, Formation, Readiness, Side};
use sauve_rules::terrain::{Arm, Terrain};
use sauve_rules::vocab::State;

fn unit(id: &str, side: usize, at: (i32, i32), state: State) -> HexUnit {
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
        Side {
            id: "fr".into(),
            name: "French".into(),
            rear: Edge::South,
            control: Control::Ai,
            aggression: 0.5,
            level: Default::default(),
        },
        Side {
            id: "ru".into(),
            name: "Russians".into(),
            rear: Edge::North,
            control: Control::Ai,
            aggression: 0.5,
            level: Default::default(),
        },
    ]
}

fn plan(grid: &Grid, fields: &SideFields, board: &Board, unit: usize) -> RoutPlan {
    plan_with(grid, fields, board, unit, RoutRefuge::Destination)
}

fn plan_with(grid: &Grid, fields: &SideFields, board: &Board, unit: usize, refuge: RoutRefuge) -> RoutPlan {
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
        refuge,
    })
}

fn full(plan: RoutPlan) -> Vec<Offset> {
    match plan {
        RoutPlan::Full(p) => p,
        other => panic!("expected a full rout move, got {other:?}"),
    }
}

/// Preference 2 before 4 (docs/rules.md 1.3): the zone-of-influence preference
/// is the last one, so the clear column is taken though enemy zones lie
/// along it (marsh everywhere else: dearer, and no refuge to seek).
#[test]
fn cheaper_ground_beats_a_less_zoned_path() {
    let mut map = TerrainMap::filled(15, 30, Terrain::Marsh);
    for r in 0..30 {
        map.set(Offset::new(7, r), Terrain::Clear);
    }
    let grid = Grid::new(&map, &Rules::default());
    let board = Board { units: vec![unit("fr", 0, (7, 5), State::Routed), unit("ru", 1, (7, 2), State::GoodOrder)] };
    let mut fields = SideFields::build(&grid, &board, 0, Edge::North);
    for r in 6..30 {
        fields.add_zone(grid.idx(Offset::new(7, r)));
    }
    let p = full(plan(&grid, &fields, &board, 0));
    assert!(p.iter().all(|o| o.c == 7), "the cheapest ground, zones or not: {p:?}");
}

/// Preference 3 before 4: of two routes of equal terrain cost, the one past
/// no friends wins though it runs through enemy zones.
#[test]
fn fewer_friends_passed_beats_fewer_zones() {
    // Marsh everywhere but two clear columns, 6 and 8, both next to the
    // start in column 7.
    let mut map = TerrainMap::filled(15, 30, Terrain::Marsh);
    for r in 0..30 {
        map.set(Offset::new(6, r), Terrain::Clear);
        map.set(Offset::new(8, r), Terrain::Clear);
    }
    map.set(Offset::new(7, 5), Terrain::Clear);
    let grid = Grid::new(&map, &Rules::default());
    let mut units = vec![unit("fr", 0, (7, 5), State::Routed), unit("ru", 1, (7, 1), State::GoodOrder)];
    // Friends stand along column 6; enemy zones cover column 8.
    for r in [8, 10, 12] {
        units.push(unit(&format!("friend{r}"), 0, (6, r), State::GoodOrder));
    }
    let board = Board { units };
    let mut fields = SideFields::build(&grid, &board, 0, Edge::North);
    for r in 5..30 {
        fields.add_zone(grid.idx(Offset::new(8, r)));
    }
    let p = full(plan(&grid, &fields, &board, 0));
    assert!(p[1..].iter().all(|o| o.c == 8), "past no friends, through the zones: {p:?}");
}

/// Preference 2 before 3: cheaper ground beats a route past fewer friends.
#[test]
fn cheaper_ground_beats_fewer_friends_passed() {
    // Two columns next to the start: clear column 8 with friends along it,
    // garden column 6 (dearer, no refuge) with none; marsh elsewhere.
    let mut map = TerrainMap::filled(15, 30, Terrain::Marsh);
    for r in 0..30 {
        map.set(Offset::new(6, r), Terrain::Garden);
        map.set(Offset::new(8, r), Terrain::Clear);
    }
    map.set(Offset::new(7, 5), Terrain::Clear);
    let grid = Grid::new(&map, &Rules::default());
    let mut units = vec![unit("fr", 0, (7, 5), State::Routed), unit("ru", 1, (7, 1), State::GoodOrder)];
    for r in 6..16 {
        units.push(unit(&format!("friend{r}"), 0, (8, r), State::GoodOrder));
    }
    let board = Board { units };
    let fields = SideFields::build(&grid, &board, 0, Edge::North);
    let p = full(plan(&grid, &fields, &board, 0));
    assert!(p[1..].iter().all(|o| o.c == 8), "clear ground through the friends, not the gardens: {p:?}");
}

/// Preference 1 (house default `rout_refuge: Destination`): in open ground
/// with a wood and a village among the legal ends, the router ends in one
/// of them though clear ground all the way is cheaper; with `TieBreak` it
/// keeps to the clear ground.
#[test]
fn a_refuge_end_beats_a_cheaper_clear_end() {
    let mut map = TerrainMap::filled(21, 30, Terrain::Clear);
    map.set(Offset::new(10, 15), Terrain::Woods);
    map.set(Offset::new(6, 13), Terrain::Village);
    let grid = Grid::new(&map, &Rules::default());
    let board = Board { units: vec![unit("fr", 0, (10, 5), State::Routed), unit("ru", 1, (10, 2), State::GoodOrder)] };
    let fields = SideFields::build(&grid, &board, 0, Edge::North);
    let p = full(plan_with(&grid, &fields, &board, 0, RoutRefuge::Destination));
    let end = p[p.len() - 1];
    assert!(grid.refuge[grid.idx(end)], "ends in the wood or the village: {p:?}");
    // Of the two refuges the nearer its own rear wins (both cost the same:
    // nine clear hexes and the refuge's 3).
    assert_eq!(end, Offset::new(10, 15), "{p:?}");
    let p = full(plan_with(&grid, &fields, &board, 0, RoutRefuge::TieBreak));
    let end = p[p.len() - 1];
    assert!(!grid.refuge[grid.idx(end)], "as a tie-break the refuge loses to cheaper ground: {p:?}");
    assert!(p[1..].iter().all(|o| map.terrain(*o) == Some(Terrain::Clear)), "{p:?}");
}

/// With `TieBreak` the refuge still wins among routes of equal cost and
/// equal friends: with woods made as cheap as clear ground, a wood ten
/// hexes off to one side beats the clear hex straight behind, which our
/// tie-break (nearest the own rear edge) would take otherwise.
#[test]
fn as_a_tie_break_the_refuge_wins_among_equal_routes() {
    let mut map = TerrainMap::filled(21, 30, Terrain::Clear);
    map.set(Offset::new(12, 14), Terrain::Woods);
    let mut rules = Rules::default();
    rules.terrain.insert(Terrain::Woods, ArmCosts::all(1.0, 1.0, 1.0));
    let grid = Grid::new(&map, &rules);
    let board = Board { units: vec![unit("fr", 0, (10, 5), State::Routed), unit("ru", 1, (10, 2), State::GoodOrder)] };
    let fields = SideFields::build(&grid, &board, 0, Edge::North);
    let p = full(plan_with(&grid, &fields, &board, 0, RoutRefuge::TieBreak));
    assert_eq!(p[10], Offset::new(12, 14), "{p:?}");
    // Without a refuge within reach, the tie-break takes the hex behind.
    let open = TerrainMap::filled(21, 30, Terrain::Clear);
    let grid = Grid::new(&open, &rules);
    let fields = SideFields::build(&grid, &board, 0, Edge::North);
    let p = full(plan_with(&grid, &fields, &board, 0, RoutRefuge::TieBreak));
    assert_eq!(p[10], Offset::new(10, 15), "{p:?}");
}

/// Preference 4 still decides between routes equal in everything before
/// it: amid enemies, the least zoned one.
#[test]
fn amid_enemies_the_least_zoned_of_equal_routes() {
    // Clear ground; the column straight down lies in enemy zones, so the
    // router, which would go straight, bends round them at no extra cost.
    let map = TerrainMap::filled(21, 30, Terrain::Clear);
    let grid = Grid::new(&map, &Rules::default());
    let board = Board { units: vec![unit("fr", 0, (10, 5), State::Routed), unit("ru", 1, (10, 2), State::GoodOrder)] };
    let mut fields = SideFields::build(&grid, &board, 0, Edge::North);
    let straight = full(plan(&grid, &fields, &board, 0));
    assert!(straight.iter().all(|o| o.c == 10), "nothing in the way: straight to its rear: {straight:?}");
    for r in 6..30 {
        fields.add_zone(grid.idx(Offset::new(10, r)));
    }
    let p = full(plan(&grid, &fields, &board, 0));
    assert!(p[1..].iter().all(|o| o.c != 10), "out of the zones: {p:?}");
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
        let mut units = vec![unit("router", 0, (start.c, start.r), State::Routed)];
        for i in 0..rng.random_range(1..5) {
            let e = Offset::new(rng.random_range(0..w), rng.random_range(0..h / 2 + 1));
            if e != start {
                units.push(unit(&format!("e{i}"), 1, (e.c, e.r), State::GoodOrder));
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
        units.push(unit(&format!("fr{i}"), 0, (i, 20 + (i % 3)), State::Routed));
    }
    for i in 0..20 {
        units.push(unit(&format!("ru{i}"), 1, (i * 3, 10), State::GoodOrder));
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
        Board { units: vec![unit("fr", 0, (7, 9), State::Routed), unit("ru", 1, (7, 2), State::GoodOrder)] };
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
