//! The `sauve` binary: the command line, and the game window.

use std::process::ExitCode;

use clap::Parser;
use sauve::cli::{Cli, WindowRequest, run};

fn window(req: WindowRequest) -> ExitCode {
    let _ = req;
    eprintln!(
        "sauve: the game window is not built yet (it arrives with the graphics issue); use `sauve check` or `sauve simulate`"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    run(Cli::parse(), window)
}
