//! `plan generate`.

use planner::exit;

#[derive(clap::Args)]
pub struct GenerateArgs {
    /// Not implemented yet.
    #[arg(hide = true)]
    pub files: Vec<std::path::PathBuf>,
}

pub fn run(args: GenerateArgs) -> i32 {
    let _ = args;
    eprintln!("plan generate: not implemented yet");
    exit::UNSUPPORTED
}
