//! Benchmarks named by the issues:
//! - `parse_validate/200x200_2000_units`: scenario text to validated scenario;
//! - `recovery_segment/2000_routers`: a whole Morale Recovery Segment in
//!   which 2,000 routed units fail and rout (shared fields);
//! - `recovery_segment_naive/2000_routers`: the same moves with the enemy
//!   distance field rebuilt for every unit (the per-unit search baseline).
//!
//! Run: `cargo bench --bench engine`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use sauve_rules::dice::Dice;
use sauve_rules::events::EventLog;
use sauve_rules::generate;
use sauve_rules::hex::Edge;
use sauve_rules::labataille::Board;
use sauve_rules::labataille::engine::{Ctx, Engine};
use sauve_rules::labataille::fields::SideFields;
use sauve_rules::labataille::grid::{Grid, Occupancy};
use sauve_rules::labataille::rout::{RoutPlan, RoutPlanner, RoutQuery};
use sauve_rules::rules::{RoutRefuge, Rules};
use sauve_rules::vocab::State;

fn parse_validate(c: &mut Criterion) {
    let text = generate::scenario_text(200, 200, 2000, 1813);
    let mut g = c.benchmark_group("parse_validate");
    g.sample_size(20);
    g.bench_function("200x200_2000_units", |b| {
        b.iter(|| sauve_rules::scenario::parse(black_box(&text), "bench.ron").map(|s| s.units.len()))
    });
    g.finish();
}

struct RoutSetup {
    grid: Grid,
    rules: Rules,
    board: Board,
}

fn rout_setup() -> RoutSetup {
    let map = generate::terrain(200, 200, 1815);
    let rules = Rules::default();
    let grid = Grid::new(&map, &rules);
    let board = generate::rout_board(&map, 2000);
    RoutSetup { grid, rules, board }
}

/// The engine's way: one field build per side, shared by every rout.
fn engine_segment(s: &RoutSetup) -> usize {
    let sides = generate::sides();
    let ctx = Ctx { grid: &s.grid, rules: &s.rules, sides: &sides };
    let mut board = s.board.clone();
    let mut engine = Engine::new(&s.grid, &board);
    let mut dice = Dice::new(1, vec![11; board.units.len()]);
    let mut log = EventLog::default();
    engine.recovery_segment(&ctx, &mut board, &mut dice, &mut log, 0);
    log.events.len()
}

/// The baseline: each router searches afresh, rebuilding the enemy fields
/// for itself before planning the same move.
fn naive_segment(s: &RoutSetup) -> usize {
    let mut board = s.board.clone();
    let mut occ = Occupancy::new(&s.grid);
    for (i, u) in board.units.iter().enumerate() {
        if let Some(at) = u.at {
            occ.insert(s.grid.idx(at), i, u.side);
        }
    }
    let mut planner = RoutPlanner::new();
    let mut moved = 0;
    for i in 0..board.units.len() {
        if board.units[i].side != 0 || board.units[i].state != State::Routed {
            continue;
        }
        let Some(start) = board.units[i].at else { continue };
        let fields = SideFields::build(&s.grid, &board, 0, Edge::North);
        let plan = planner.plan(&RoutQuery {
            grid: &s.grid,
            fields: &fields,
            occupancy: &occ,
            board: &board,
            unit: i,
            start,
            hexes: 10,
            enemy_radius: 15,
            own_rear: Edge::South,
            refuge: RoutRefuge::Destination,
        });
        if let RoutPlan::Full(p) = plan
            && let Some(&end) = p.last()
        {
            occ.remove(s.grid.idx(start), i, 0);
            occ.insert(s.grid.idx(end), i, 0);
            board.units[i].at = Some(end);
            moved += 1;
        }
    }
    moved
}

fn recovery(c: &mut Criterion) {
    let s = rout_setup();
    let routers = s.board.units.iter().filter(|u| u.state == State::Routed).count();
    assert_eq!(routers, 2000);
    let mut g = c.benchmark_group("recovery_segment");
    g.sample_size(20);
    g.bench_function("2000_routers", |b| b.iter(|| engine_segment(black_box(&s))));
    g.finish();
    let mut g = c.benchmark_group("recovery_segment_naive");
    g.sample_size(10);
    g.bench_function("2000_routers", |b| b.iter(|| naive_segment(black_box(&s))));
    g.finish();
}

criterion_group!(benches, parse_validate, recovery);
criterion_main!(benches);
