//! The `plan` command: a thin shell over the `planner` library. Each
//! subcommand lives in its own module and returns the process exit status.

mod check;
mod generate;
mod ground;
mod interrupt;
mod memory;
mod progress;
mod puzznic;
mod search_args;
mod solve;
mod validate;

use clap::{Parser, Subcommand};

const EXIT_STATUSES: &str = "\
Exit status:
  0    solved / clean / every plan valid
  1    errors found (plan check), some plan invalid (plan validate)
  2    input error: unreadable file, syntax error, bad argument
  3    unsupported PDDL feature
  4    unsolvable: the search space was exhausted without a plan
  5    time limit reached
  6    memory limit reached (default limit: 80 % of the available memory)
  130  interrupted
  141  killed by SIGPIPE: the reader of stdout went away";

/// Parse, check, ground, solve and validate PDDL planning tasks.
#[derive(Parser)]
#[command(name = "plan", version, args_conflicts_with_subcommands = true, after_help = EXIT_STATUSES)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    solve: solve::SolveArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a problem (the same as `plan DOMAIN PROBLEM`).
    Solve(solve::SolveArgs),
    /// Parse and check a domain (and a problem), reporting every problem found.
    Check(check::CheckArgs),
    /// Ground a task and print statistics or the ground task.
    Ground(ground::GroundArgs),
    /// Validate plans against a domain and problem.
    Validate(validate::ValidateArgs),
    /// Generate a problem for a shipped domain.
    Generate(generate::GenerateArgs),
    /// Puzznic levels: convert, solve and show.
    #[command(subcommand)]
    Puzznic(puzznic::PuzznicCommand),
}

fn main() {
    restore_default_sigpipe();
    let cli = Cli::parse();
    let status = match cli.command {
        None => solve::run(cli.solve),
        Some(Command::Solve(args)) => solve::run(args),
        Some(Command::Check(args)) => check::run(args),
        Some(Command::Ground(args)) => ground::run(args),
        Some(Command::Validate(args)) => validate::run(args),
        Some(Command::Generate(args)) => generate::run(args),
        Some(Command::Puzznic(command)) => puzznic::run(command),
    };
    std::process::exit(status);
}

/// Ends the process quietly, as `cat` and `grep` do, when the reader of its
/// output goes away (`plan … | head`). Rust ignores SIGPIPE by default, so
/// every later `print!` would panic on the broken pipe instead.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any other thread exists,
    // and SIG_DFL is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
