//! The `plan` command: a thin shell over the `planner` library. Each
//! subcommand lives in its own module and returns the process exit status.

mod check;
mod generate;
mod ground;
mod interrupt;
mod memory;
mod output;
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

/// `plan [OPTIONS] DOMAIN PROBLEM` alone: the common case, parsed without
/// building every subcommand's arguments (on a millisecond task, building
/// the whole command line took about a sixth of the instructions).
#[derive(Parser)]
#[command(name = "plan")]
struct SolveCli {
    #[command(flatten)]
    solve: solve::SolveArgs,
}

/// Words that make a command line more than a plain solve: the
/// subcommands (as [`Command`] names them), `help` and the help and
/// version flags.
const NOT_PLAIN_SOLVE: [&str; 11] = [
    "solve",
    "check",
    "ground",
    "validate",
    "generate",
    "puzznic",
    "help",
    "-h",
    "--help",
    "-V",
    "--version",
];

/// The command line, parsed by [`SolveCli`] where it is a plain solve that
/// parses, and otherwise by [`Cli`] (which also reports every error).
fn parse_command_line() -> Cli {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let plain = !args
        .iter()
        .skip(1)
        .any(|a| a.to_str().is_some_and(|a| NOT_PLAIN_SOLVE.contains(&a)));
    if plain && let Ok(cli) = SolveCli::try_parse_from(&args) {
        return Cli {
            command: None,
            solve: cli.solve,
        };
    }
    Cli::parse_from(args)
}

fn main() {
    restore_default_sigpipe();
    let cli = parse_command_line();
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn not_plain_solve_lists_every_subcommand() {
        let mut subcommands: Vec<String> = Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .chain(["help".to_string()])
            .collect();
        let mut words: Vec<String> = NOT_PLAIN_SOLVE
            .iter()
            .filter(|w| !w.starts_with('-'))
            .map(|w| w.to_string())
            .collect();
        subcommands.sort();
        words.sort();
        assert_eq!(subcommands, words);
    }

    #[test]
    fn a_plain_solve_parses_as_the_full_command_line_does() {
        let args = [
            "plan",
            "--time-limit",
            "5",
            "-q",
            "--search",
            "astar",
            "d.pddl",
            "p.pddl",
        ];
        let fast = SolveCli::try_parse_from(args).expect("parses").solve;
        let full = Cli::try_parse_from(args).expect("parses");
        assert!(full.command.is_none());
        assert_eq!(format!("{fast:?}"), format!("{:?}", full.solve));
    }
}
