//! `plan validate`.

use planner::exit;

#[derive(clap::Args)]
pub struct ValidateArgs {
    /// Not implemented yet.
    #[arg(hide = true)]
    pub files: Vec<std::path::PathBuf>,
}

pub fn run(args: ValidateArgs) -> i32 {
    let _ = args;
    eprintln!("plan validate: not implemented yet");
    exit::UNSUPPORTED
}
