//! Belle Alliance benchmark named by the free-space issue: 1,000 units on a
//! 360 x 180 cm table; a shock breaks the front of one side and the cascade
//! of flights and carry-along tests (at least 100 units fleeing) resolves.
//!
//! - `flight_cascade/grid_1000_units`: with the uniform-grid broad phase;
//! - `flight_cascade/all_pairs_1000_units`: the same cascade testing every
//!   unit pair (no broad phase), the baseline.
//!
//! Run: `cargo bench --bench free_space`.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use sauve_rules::belle_alliance::broad::BroadPhaseKind;
use sauve_rules::belle_alliance::engine::FsEngine;
use sauve_rules::belle_alliance::{FsCtx, Table};
use sauve_rules::dice::Dice;
use sauve_rules::events::EventLog;
use sauve_rules::scenario::{Scenario, State, parse};

/// 40 columns x 25 rows of small battalions (6 figures, 6 x 4 cm): the top
/// five rows are "b" (rear North), the rest "a" (rear South); fifteen
/// "a" battalions of the front row are shocked into FU by the "b" ones facing
/// them.
fn scenario() -> Arc<Scenario> {
    let mut units = Vec::new();
    let mut shocks = Vec::new();
    for r in 0..25 {
        for c in 0..40 {
            let side = if r < 5 { "b" } else { "a" };
            let (x, y) = (4.5 + c as f32 * 9.0, 4.0 + r as f32 * 7.2);
            units.push(format!(
                "(id: \"u{r}-{c}\", side: \"{side}\", arm: Infantry, pos: ({x:.1}, {y:.1}), figures: 6, valour: {})",
                (r + c) % 3 - 1
            ));
            if r == 5 && (c % 4 == 0 || c % 8 == 2) {
                shocks.push(format!("(turn: 1, unit: \"u5-{c}\", to: FU, cause: \"u4-{c}\")"));
            }
        }
    }
    let row = ".".repeat(36);
    let mut rows: Vec<String> = (0..18).map(|_| format!("\"{row}\"")).collect();
    rows[12] = format!("\"{}wwww{}\"", ".".repeat(10), ".".repeat(22));
    let text = format!(
        "Scenario(format: 1, name: \"bench\", mode: FreeSpace, seed: 1815,\n sides: [(id: \"a\", rear: South), (id: \"b\", rear: North)],\n map: (rows: [{}], cell_cm: 10.0),\n units: [{}],\n shocks: [{}])",
        rows.join(","),
        units.join(",\n"),
        shocks.join(",")
    );
    match parse(&text, "bench.ron") {
        Ok(s) => Arc::new(s),
        Err(e) => panic!("bench scenario invalid: {e}"),
    }
}

/// The whole cascade from a fresh table: returns how many units fled and how
/// many carry-along tests were rolled.
fn cascade(s: &Scenario, kind: BroadPhaseKind) -> (usize, u64) {
    let ctx = FsCtx::new(s);
    let mut table = Table::from_scenario(s);
    let mut engine = FsEngine::new(&ctx, &table, kind);
    let mut dice = Dice::new(s.seed, vec![]);
    let mut log = EventLog::default();
    for shock in &s.shocks {
        engine.apply_shock(&ctx, &mut table, &mut log, shock, 1);
    }
    engine.resolve(&ctx, &mut table, &mut dice, &mut log, 1);
    (table.units.iter().filter(|u| u.state == State::FU).count(), engine.carry_tests)
}

fn flight_cascade(c: &mut Criterion) {
    let s = scenario();
    let grid = cascade(&s, BroadPhaseKind::Grid);
    let all = cascade(&s, BroadPhaseKind::AllPairs);
    assert_eq!(grid, all, "the broad phase must not change the battle");
    assert!(grid.0 >= 100, "a cascade of at least 100 flights, got {grid:?}");
    eprintln!("flight_cascade: {} units fled, {} carry-along tests", grid.0, grid.1);
    let mut g = c.benchmark_group("flight_cascade");
    g.sample_size(20);
    g.bench_function("grid_1000_units", |b| b.iter(|| cascade(black_box(&s), BroadPhaseKind::Grid)));
    g.bench_function("all_pairs_1000_units", |b| b.iter(|| cascade(black_box(&s), BroadPhaseKind::AllPairs)));
    g.finish();
}

criterion_group!(benches, flight_cascade);
criterion_main!(benches);
