//! `plan puzznic ...`.

use planner::exit;

#[derive(clap::Subcommand)]
pub enum PuzznicCommand {
    /// Write the PDDL problem for a level.
    Problem {
        /// The level file.
        level: std::path::PathBuf,
    },
}

pub fn run(command: PuzznicCommand) -> i32 {
    let _ = command;
    eprintln!("plan puzznic: not implemented yet");
    exit::UNSUPPORTED
}
