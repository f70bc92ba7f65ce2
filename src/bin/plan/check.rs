//! `plan check`.

use planner::exit;

#[derive(clap::Args)]
pub struct CheckArgs {
    /// Not implemented yet.
    #[arg(hide = true)]
    pub files: Vec<std::path::PathBuf>,
}

pub fn run(args: CheckArgs) -> i32 {
    let _ = args;
    eprintln!("plan check: not implemented yet");
    exit::UNSUPPORTED
}
