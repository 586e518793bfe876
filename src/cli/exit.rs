//! How a command ends badly: a usage error (exit 2), located error lines
//! (exit 1); and the thread pool a long command plays on.

use std::process::ExitCode;

/// A command line the command cannot take: exit 2.
pub fn usage_error(msg: &str) -> ExitCode {
    eprintln!("sauve: error: {msg}");
    ExitCode::from(2)
}

/// Prints error lines (each naming its file) and fails.
pub fn fail(lines: Vec<String>) -> ExitCode {
    for line in lines {
        eprintln!("{line}");
    }
    ExitCode::FAILURE
}

/// A pool of `threads` threads for the runs (default: one per core).
pub fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    if threads == Some(0) {
        return Err("--threads must be at least 1".into());
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("cannot start the threads: {e}"))
}
