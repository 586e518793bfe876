//! The `sauve` binary: the command line, and the game window.

use std::process::ExitCode;

use clap::Parser;
use sauve::cli::{Cli, run};

fn main() -> ExitCode {
    run(Cli::parse(), sauve::game::run)
}
