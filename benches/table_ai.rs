//! Benchmarks named by issue 18: `table_ai/ai_bound_1000_units`, one AI
//! bound of a 1,000-unit free-space table (both sides: announcement with
//! reorganisation and charges, movement, the other side's fire, own fire,
//! melee, each closed by its forced moves), goal a median under 50 ms; and
//! `table_ai/ligny_ai_game`, the whole of Ligny with the AI on both
//! sides, goal under 2 s. Release build.
//!
//! Run: `cargo bench --bench table_ai`.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use sauve::belle_alliance::ai::{FsGoals, play_phase};
use sauve::belle_alliance::broad::BroadPhaseKind;
use sauve::belle_alliance::engine::FsEngine;
use sauve::belle_alliance::play::{At, Bound, FsPlay, close_phase, open_phase};
use sauve::belle_alliance::{FsCtx, Table};
use sauve::dice::Dice;
use sauve::events::EventLog;
use sauve::scenario::{Scenario, parse};
use sauve::sim::{Seats, Simulation};
use sauve::turn::Phase;

/// Two armies of 500 units each, 25 abreast and 20 deep, 60 cm apart
/// across the middle of an 800 x 600 cm table with woods and villages
/// about: battalions of 24 to 31 figures, every eighth unit horse, every
/// tenth a battery; valour varied by index.
fn big_table() -> Scenario {
    let (w, h) = (80usize, 60usize);
    let rows: Vec<String> = (0..h)
        .map(|r| {
            (0..w)
                .map(|c| match (c * 7 + r * 13) % 97 {
                    0..=2 => 'w',
                    3 => 'v',
                    _ => '.',
                })
                .collect::<String>()
        })
        .map(|r| format!("\"{r}\""))
        .collect();
    let mut units = Vec::new();
    for side in 0..2 {
        for i in 0..500usize {
            let (col, rank) = ((i % 25) as f32, (i / 25) as f32);
            let x = 20.0 + col * 31.0;
            let y = if side == 0 { 330.0 + rank * 13.0 } else { 270.0 - rank * 13.0 };
            let n = side * 500 + i;
            let (arm, figures) = if n % 10 == 0 {
                ("Artillery", 4)
            } else if n % 8 == 0 {
                ("Cavalry", 10)
            } else {
                ("Infantry", 24 + (n % 8) as u32)
            };
            let valour = [0, 1, -1, 0, 2][n % 5];
            let column = if rank > 2.0 && arm != "Artillery" { ", formation: Column" } else { "" };
            units.push(format!(
                "(id: \"{}-{i}\", side: \"{}\", arm: {arm}, pos: ({x:.1}, {y:.1}), figures: {figures}, valour: {valour}{column})",
                ["blue", "red"][side],
                ["blue", "red"][side]
            ));
        }
    }
    let text = format!(
        "Scenario(format: 1, name: \"big\", mode: FreeSpace, seed: 1, turns: 10,\n sides: [(id: \"blue\", rear: South, aggression: 0.7), (id: \"red\", rear: North, aggression: 0.5)],\n map: (rows: [{}], cell_cm: 10.0),\n units: [{}])",
        rows.join(",\n "),
        units.join(",\n ")
    );
    match parse(&text, "big.ron") {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    }
}

/// One bound, the AI giving every order; returns how many it gave.
fn bound(s: &Scenario, table: &mut Table, play: &mut FsPlay) -> usize {
    bound_timed(s, table, play, &mut [Duration::ZERO; 5])
}

/// [`bound`], adding the time of each phase kind (charge, movement, the two
/// fire phases, melee) to `spent`.
fn bound_timed(s: &Scenario, table: &mut Table, play: &mut FsPlay, spent: &mut [Duration; 5]) -> usize {
    let ctx = FsCtx::new(s);
    let mut engine = FsEngine::new(&ctx, table, BroadPhaseKind::Grid);
    let mut dice = Dice::new(1815, Vec::new());
    let mut log = EventLog::default();
    let mut given = 0;
    for phasing in 0..2 {
        for (k, phase) in [Phase::Charge, Phase::Movement, Phase::DefensiveFire, Phase::OffensiveFire, Phase::Melee]
            .into_iter()
            .enumerate()
        {
            let t0 = Instant::now();
            let side = phase.acting_side(phasing);
            let goals = FsGoals {
                aggression: s.sides[side].aggression,
                objectives: Vec::new(),
                broken: false,
                level: Default::default(),
                scripts: Vec::new(),
            };
            let mut b = Bound { ctx: &ctx, engine: &mut engine, table, play, dice: &mut dice, log: &mut log };
            open_phase(&mut b, phase, phasing, 1);
            given += play_phase(&mut b, At { turn: 1, phase, side }, &goals).len();
            close_phase(&ctx, &mut engine, table, play, &mut dice, &mut log, 1);
            spent[k] += t0.elapsed();
        }
    }
    given
}

fn benches(c: &mut Criterion) {
    let s = big_table();
    let start = Table::from_scenario(&s);
    {
        let (mut t, mut p) = (start.clone(), FsPlay::new(s.units.len()));
        let mut spent = [Duration::ZERO; 5];
        let n = bound_timed(&s, &mut t, &mut p, &mut spent);
        println!(
            "ai_bound_1000_units: {n} orders in the first bound; by phase (charge, movement, defensive fire, offensive fire, melee): {spent:?}"
        );
    }
    let mut g = c.benchmark_group("table_ai");
    g.sample_size(20);
    g.bench_function("ai_bound_1000_units", |b| {
        b.iter_batched(
            || (start.clone(), FsPlay::new(s.units.len())),
            |(mut t, mut p)| black_box(bound(&s, &mut t, &mut p)),
            BatchSize::LargeInput,
        )
    });
    let ligny = match sauve::scenario::load(std::path::Path::new("scenarios/ligny-1815.ron")) {
        Ok(s) => Arc::new(s),
        Err(e) => panic!("{e}"),
    };
    g.bench_function("ligny_ai_game", |b| {
        b.iter(|| {
            let mut sim = Simulation::new(ligny.clone(), 1, Vec::new(), Seats::Watch);
            sim.run();
            black_box(sim.log().events.len())
        })
    });
    g.finish();
}

criterion_group!(table_ai, benches);
criterion_main!(table_ai);
