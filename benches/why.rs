//! Benchmarks named by issue 15: `sauve why` on a log of over 10,000
//! events, from the JSON Lines text to the printed answer (goal: a median
//! under 50 ms, release).
//! - `why/unit`: read the log, find the unit's fall, walk its chain, lay
//!   out and word the tree; the unit is the one whose fall has the longest
//!   chain behind it;
//! - `why/cascades`: read the log, find every cascade, word the list;
//! - `why/read_whole_events`: every line read as a whole `Event`, the
//!   reading the why's light one spares it, for comparison.
//!
//! The log is a real game: a generated 120 x 90 hex battle of 1,000 units
//! played AI against AI through the simulation `sauve simulate` runs.
//!
//! Run: `cargo bench --bench why`.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use sauve::events::Event;
use sauve::generate;
use sauve::sim::{Seats, Simulation};
use sauve::why::cascades::cascades;
use sauve::why::graph::Graph;
use sauve::why::names::Ids;
use sauve::why::text;
use sauve::why::tree::Tree;

/// The battle's log as JSON Lines.
fn log_text() -> String {
    let text = generate::scenario_text(120, 90, 1000, 1813);
    let scenario = sauve::scenario::parse(&text, "generated.ron").unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(Arc::new(scenario), 1813, Vec::new(), Seats::Watch);
    sim.run();
    sim.log().to_jsonl()
}

/// The whole of `sauve why LOG UNIT`'s work but the file's reading: the
/// printed tree's length.
fn why_unit(text: &str, unit: &str) -> usize {
    let Ok(g) = Graph::read(text) else { return 0 };
    let Some(fall) = g.unit(unit).and_then(|u| g.fate(u, None)) else { return 0 };
    let Some(tree) = Tree::new(&g, fall) else { return 0 };
    text::tree(&g, &tree, &Ids { free_space: g.free_space }).map_or(0, |t| t.len())
}

/// The whole of `sauve why LOG --cascades`'s work but the file's reading.
fn why_cascades(text: &str) -> usize {
    let Ok(g) = Graph::read(text) else { return 0 };
    text::cascades(&g, &cascades(&g), &Ids { free_space: g.free_space }).map_or(0, |t| t.len())
}

fn why(c: &mut Criterion) {
    let text = log_text();
    let events = text.lines().count();
    assert!(events >= 10_000, "the bench wants a log of 10,000 events or more, not {events}");
    let g = Graph::read(&text).unwrap_or_else(|e| panic!("the log: {e}"));
    let (unit, behind) = g
        .units()
        .iter()
        .filter_map(|u| {
            let fall = g.fate(g.unit(u)?, None)?;
            Some((u.clone(), g.chain(fall)?.events.len()))
        })
        .max_by_key(|(_, n)| *n)
        .unwrap_or_default();
    let found = cascades(&g);
    println!(
        "why: {events} events; {unit}'s fall has {behind} events behind it; {} cascades, the largest of {} units",
        found.len(),
        found.first().map_or(0, |c| c.size())
    );
    let mut group = c.benchmark_group("why");
    group.sample_size(30);
    group.bench_function("unit", |b| b.iter(|| why_unit(black_box(&text), &unit)));
    group.bench_function("cascades", |b| b.iter(|| why_cascades(black_box(&text))));
    group.bench_function("read_whole_events", |b| {
        b.iter(|| black_box(&text).lines().filter_map(|l| serde_json::from_str::<Event>(l).ok()).count())
    });
    group.finish();
}

criterion_group!(benches, why);
criterion_main!(benches);
