//! A progress bar on the terminal (indicatif) while a long job plays on
//! other threads; nothing is drawn when stderr is not a terminal.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use crate::whatif::Progress;

/// Runs `job` on a thread of its own while a bar of `total` `what` follows
/// `progress`.
pub fn with_bar<R: Send>(total: u64, what: &str, progress: &Progress, job: impl FnOnce() -> R + Send) -> R {
    let bar = ProgressBar::new(total);
    let style = ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {what} {{per_sec}} eta {{eta}}"));
    if let Ok(style) = style {
        bar.set_style(style);
    }
    std::thread::scope(|s| {
        let worker = s.spawn(job);
        while !worker.is_finished() {
            bar.set_position(progress.done());
            std::thread::sleep(Duration::from_millis(100));
        }
        bar.finish_and_clear();
        match worker.join() {
            Ok(r) => r,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
