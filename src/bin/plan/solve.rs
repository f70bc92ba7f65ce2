//! `plan solve`.

use planner::exit;

#[derive(clap::Args)]
pub struct SolveArgs {
    /// Not implemented yet.
    #[arg(hide = true)]
    pub files: Vec<std::path::PathBuf>,
}

pub fn run(args: SolveArgs) -> i32 {
    let _ = args;
    eprintln!("plan solve: not implemented yet");
    exit::UNSUPPORTED
}
