//! The planning AI's time per side-turn (issue 31): every movement phase
//! `hard` plays (its deliberation and its moves), timed in whole games of
//! `hard` against `normal` on each bundled battle (hexes and tables), each side, a few
//! seeds; prints the median and the 95th percentile per battle and over
//! all, and the median whole Dennewitz game. Goal: a median of 1 s or
//! less and a 95th percentile of 3 s or less per side-turn, a Dennewitz
//! under a minute, on the 2-core machine.
//!
//! Run: `cargo bench --bench hard_turn` (`HARD_SEEDS=N` for more seeds
//! than 3).

use std::sync::Arc;
use std::time::{Duration, Instant};

use sauve::sim::{Clock, Phase, Seats, Simulation};
use sauve::vocab::AiLevel;

const BATTLES: [&str; 6] =
    ["cascade", "dennewitz-1813", "grossbeeren-1813", "hagelberg-1813", "ligny-1815", "plancenoit-1815"];

fn quantile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    // `cargo bench` passes `--bench`; a filter word plays only battles containing it.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let seeds: u64 = std::env::var("HARD_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(3);
    let mut all = Vec::new();
    for name in BATTLES.iter().filter(|b| filter.as_deref().is_none_or(|f| b.contains(f))) {
        let path = format!("{}/scenarios/{name}.ron", env!("CARGO_MANIFEST_DIR"));
        let base = sauve::scenario::load(std::path::Path::new(&path)).expect("a bundled scenario");
        let mut turns = Vec::new();
        let mut games = Vec::new();
        for hard in 0..2 {
            let mut s = base.clone();
            for (i, side) in s.sides.iter_mut().enumerate() {
                side.level = if i == hard { AiLevel::Hard } else { AiLevel::Normal };
            }
            let s = Arc::new(s);
            for seed in 1..=seeds {
                let mut sim = Simulation::new(s.clone(), seed, Vec::new(), Seats::Watch);
                let game = Instant::now();
                loop {
                    let Clock { side, phase, .. } = sim.clock();
                    let t = Instant::now();
                    if !sim.step() {
                        break;
                    }
                    if side == Some(hard) && phase == Phase::Movement {
                        turns.push(t.elapsed());
                    }
                }
                games.push(game.elapsed());
            }
        }
        turns.sort();
        games.sort();
        println!(
            "hard_turn/{name}: {} side-turns, median {:.3} s, 95th percentile {:.3} s; whole game median {:.2} s ({} games)",
            turns.len(),
            quantile(&turns, 0.5).as_secs_f64(),
            quantile(&turns, 0.95).as_secs_f64(),
            quantile(&games, 0.5).as_secs_f64(),
            games.len()
        );
        all.extend(turns);
    }
    all.sort();
    println!(
        "hard_turn/all: {} side-turns, median {:.3} s, 95th percentile {:.3} s",
        all.len(),
        quantile(&all, 0.5).as_secs_f64(),
        quantile(&all, 0.95).as_secs_f64()
    );
}
