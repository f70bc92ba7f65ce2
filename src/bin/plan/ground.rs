//! `plan ground`.

use planner::exit;

#[derive(clap::Args)]
pub struct GroundArgs {
    /// Not implemented yet.
    #[arg(hide = true)]
    pub files: Vec<std::path::PathBuf>,
}

pub fn run(args: GroundArgs) -> i32 {
    let _ = args;
    eprintln!("plan ground: not implemented yet");
    exit::UNSUPPORTED
}
