//! Many headless battles on rayon's threads, each thread with one
//! simulation of its own. Making a simulation (a Bevy world with its
//! schedules) costs more than resetting one, and `map_init` makes one per
//! split of the work, which grows with the threads; here each thread
//! makes one and takes the next run's index from a shared counter until
//! none is left, so a slow run holds up no other.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::sim::Simulation;

/// `f(sim, i)` for every `i` in `0..n`, on rayon's threads, each with a
/// simulation `make` made for it; the results in index order, whatever
/// the threads.
pub fn each<R: Send>(
    n: u64,
    make: impl Fn() -> Simulation + Sync,
    f: impl Fn(&mut Simulation, u64) -> R + Sync,
) -> Vec<R> {
    let next = AtomicU64::new(0);
    let workers = rayon::current_num_threads().max(1);
    let parts: Vec<Vec<(u64, R)>> = (0..workers)
        .into_par_iter()
        .map(|_| {
            let mut sim: Option<Simulation> = None;
            let mut out = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let s = sim.get_or_insert_with(&make);
                out.push((i, f(s, i)));
            }
            out
        })
        .collect();
    let mut all: Vec<(u64, R)> = parts.into_iter().flatten().collect();
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}
