//! Benchmarks named by issue 16, side by side in one run (release):
//! - `forecast/dennewitz_1000_runs/threads/1` and `/2`: 1,000 one-turn
//!   break forecast runs from the start of Dennewitz (the largest bundled
//!   battle), the AI on every side, on a rayon pool of one thread and of
//!   two (goal: under 1 s on two, and at least 1.7x faster than on one);
//! - `batch/dennewitz_1000_games/threads/N`: 1,000 whole AI-against-AI
//!   games as `sauve batch` plays them (the goal is 10,000 in under 90 s
//!   on 2 cores; games per second per core is 1,000 / median / N).
//!
//! Run: `cargo bench --bench whatif`.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use sauve::sim::Seats;
use sauve::whatif::{Progress, Start, batch, forecast};

const DENNEWITZ: &str = include_str!("../scenarios/dennewitz-1813.ron");

fn dennewitz() -> Arc<sauve::scenario::Scenario> {
    Arc::new(sauve::scenario::parse(DENNEWITZ, "dennewitz-1813.ron").unwrap_or_else(|e| panic!("{e}")))
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap_or_else(|e| panic!("a pool: {e}"))
}

fn whatif(c: &mut Criterion) {
    let scenario = dennewitz();
    let seed = scenario.seed;
    let start = Start::Opening { scenario: scenario.clone(), seed };
    let threads: Vec<usize> = vec![1, 2];

    let mut g = c.benchmark_group("forecast/dennewitz_1000_runs");
    g.sample_size(10);
    for &n in &threads {
        let pool = pool(n);
        g.bench_with_input(BenchmarkId::new("threads", n), &n, |b, _| {
            b.iter(|| {
                let f = pool.install(|| forecast::forecast(&start, 1000, 1, &Progress::default()));
                black_box(f.map(|f| f.runs))
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("batch/dennewitz_1000_games");
    g.sample_size(10);
    for &n in &threads {
        let pool = pool(n);
        g.bench_with_input(BenchmarkId::new("threads", n), &n, |b, _| {
            b.iter(|| {
                let t = pool.install(|| {
                    batch::batch(&scenario, 0..1000, Seats::Watch, vec!["normal".into(); 2], &Progress::default())
                });
                black_box(t.map(|t| t.rows.len()))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, whatif);
criterion_main!(benches);
