//! `plan completions SHELL`: a completion script for the whole command
//! line, generated from its definition so that it never falls behind.

use clap_complete::Shell;

/// Arguments of `plan completions`.
#[derive(clap::Args)]
#[command(after_help = "\
Install, for example:
  bash: plan completions bash > ~/.local/share/bash-completion/completions/plan
  zsh:  plan completions zsh > ~/.zfunc/_plan  (with ~/.zfunc in $fpath)
  fish: plan completions fish > ~/.config/fish/completions/plan.fish")]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

/// Prints the script for `command` (the whole `plan` command line).
pub fn run(args: CompletionsArgs, mut command: clap::Command) -> i32 {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "plan", &mut script);
    out!("{}", String::from_utf8_lossy(&script));
    planner::exit::SUCCESS
}
