//! What if? Games played many times from one point: forecasts of who
//! breaks next ([`forecast`]), a history forked at one die ([`fork`]),
//! batches of AI-against-AI battles ([`batch`]) and their picture
//! ([`plot`]). Each continuation is a headless [`crate::sim::Simulation`];
//! what the runs came to is plain data of the rules crate
//! (`sauve_rules::whatif`, re-exported here), summed in index order so
//! the answer never depends on how many threads played the runs.

pub mod batch;
pub mod forecast;
pub mod fork;
pub mod plot;
pub mod pool;
pub mod start;

pub use sauve_rules::whatif::*;
pub use start::Start;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// How far a long job has come, and whether it was asked to stop: shared
/// between the threads playing the runs and whoever watches (a progress
/// bar, the window).
#[derive(Debug, Default)]
pub struct Progress {
    pub done: AtomicU64,
    pub cancel: AtomicBool,
}

impl Progress {
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    fn tick(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }
}
