//! The `plan` command: a thin shell over the `planner` library. Each
//! subcommand lives in its own module and returns the process exit status.
//!
//! The binary has its own C `main` instead of Rust's: the standard
//! runtime's start-up finds the main thread's stack by reading
//! `/proc/self/maps` (glibc's `pthread_getattr_np`), about 0.1 M
//! instructions and 70 µs of a 1–3 ms run. What that start-up would add
//! is not needed here: `main` restores SIGPIPE itself, `process::exit`
//! flushes standard output, the arguments come from `argv`, closed standard
//! descriptors are opened on `/dev/null` here as Rust's start-up would,
//! and a stack overflow (which the parser's nesting limit rules out)
//! would end the process with SIGSEGV instead of a message and SIGABRT.
#![cfg_attr(all(unix, not(test)), no_main)]

// First, for its macros (`out!`, `outln!`).
#[macro_use]
mod output;
mod check;
mod completions;
mod generate;
mod ground;
mod ground_limits;
mod interrupt;
mod plan_saver;
mod progress;
mod puzznic;
mod search_args;
mod solve;
mod units;
mod validate;

use clap::{CommandFactory, Parser, Subcommand};
use std::ffi::OsString;

const EXIT_STATUSES: &str = "\
Exit status:
  0    solved / clean / every plan valid
  1    errors found: semantic errors in the PDDL (plan, plan check,
       plan ground), some plan invalid (plan validate)
  2    input error: unreadable file, syntax error, bad argument
       (also an output that cannot be written)
  3    unsupported PDDL feature
  4    unsolvable: the search space was exhausted without a plan
  5    time limit reached (while grounding or searching)
  6    memory limit reached (default limit: 80 % of the available memory),
       or a grounding limit (--max-operators, --max-facts)
  101  internal error: a bug, please report it with the input
  130  interrupted (Ctrl-C, SIGTERM, SIGXCPU) before a plan was found
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
    /// Print a completion script for a shell (bash, zsh, fish, elvish,
    /// powershell).
    Completions(completions::CompletionsArgs),
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
const NOT_PLAIN_SOLVE: [&str; 12] = [
    "solve",
    "check",
    "ground",
    "validate",
    "generate",
    "puzznic",
    "completions",
    "help",
    "-h",
    "--help",
    "-V",
    "--version",
];

/// The command line `args` (program name first), parsed by [`SolveCli`]
/// where it is a plain solve that parses, and otherwise by [`Cli`] (which
/// also reports every error).
fn parse_command_line(args: Vec<OsString>) -> Cli {
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

/// The C entry point (see the module docs). The arguments are taken from
/// `argv`, not from `std::env`, which fills them before `main` only with
/// glibc (and on macOS and Windows).
#[cfg(all(unix, not(test)))]
#[unsafe(no_mangle)]
extern "C" fn main(argc: std::ffi::c_int, argv: *const *const std::ffi::c_char) -> std::ffi::c_int {
    use std::os::unix::ffi::OsStrExt;
    let args = (0..usize::try_from(argc).unwrap_or(0))
        .map(|i| {
            // SAFETY: the C runtime passes `argc` valid NUL-terminated
            // strings in `argv`, alive for the whole process.
            let arg = unsafe { std::ffi::CStr::from_ptr(*argv.add(i)) };
            std::ffi::OsStr::from_bytes(arg.to_bytes()).to_os_string()
        })
        .collect();
    run(args)
}

/// Rust's `main` where the C one above is not used: other systems, and
/// the unit tests' build (which links the test harness's `main`; this
/// keeps the code reachable there, as in any binary).
#[cfg(any(not(unix), test))]
fn main() {
    run(std::env::args_os().collect())
}

/// Runs the subcommand of the command line `args` and exits with its
/// status.
fn run(args: Vec<OsString>) -> ! {
    std::process::exit(status_catching_panics(|| run_command(args)));
}

/// `command`'s status, or [`planner::exit::INTERNAL_ERROR`] where it panics (the
/// panic hook has printed the message by then). A panic must not unwind
/// out of the C `main`: that aborts the process with SIGABRT and "failed
/// to initiate panic" (exit 134), which looks like a crash of the system.
fn status_catching_panics(command: impl FnOnce() -> i32) -> i32 {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(command))
        .unwrap_or(planner::exit::INTERNAL_ERROR)
}

/// Runs the subcommand of the command line `args`, returning its exit
/// status.
fn run_command(args: Vec<OsString>) -> i32 {
    open_closed_standard_descriptors();
    restore_default_sigpipe();
    let cli = parse_command_line(args);
    match cli.command {
        None => solve::run(cli.solve),
        Some(Command::Solve(args)) => solve::run(args),
        Some(Command::Check(args)) => check::run(args),
        Some(Command::Ground(args)) => ground::run(args),
        Some(Command::Validate(args)) => validate::run(args),
        Some(Command::Generate(args)) => generate::run(args),
        Some(Command::Puzznic(command)) => puzznic::run(command),
        Some(Command::Completions(args)) => completions::run(args, Cli::command()),
    }
}

/// Opens `/dev/null` on each of descriptors 0–2 that is closed, as Rust's
/// own start-up does (which the C `main` skips). Otherwise a file `plan`
/// opens with standard output closed would get descriptor 1, and anything
/// printed while it is open would go into that file.
fn open_closed_standard_descriptors() {
    #[cfg(unix)]
    for fd in 0..3 {
        // SAFETY: `fcntl(F_GETFD)` only queries the descriptor, and `open`
        // gets a NUL-terminated path; `open` returns the lowest free
        // descriptor, which is `fd` as the lower ones are open by now.
        unsafe {
            if libc::fcntl(fd, libc::F_GETFD) == -1
                && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF)
                && libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) == -1
            {
                // As Rust's start-up does: nothing sane is left to do.
                libc::abort();
            }
        }
    }
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

    #[test]
    fn a_panic_becomes_the_internal_error_status() {
        assert_eq!(status_catching_panics(|| 4), 4);
        assert_eq!(
            status_catching_panics(|| panic!("a bug")),
            planner::exit::INTERNAL_ERROR
        );
    }

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

    /// The bash script completes every subcommand and their flags, and
    /// bash reads it without a syntax error.
    #[test]
    fn the_completion_script_covers_the_command_line() {
        let mut script = Vec::new();
        clap_complete::generate(
            clap_complete::Shell::Bash,
            &mut Cli::command(),
            "plan",
            &mut script,
        );
        let script = String::from_utf8(script).expect("UTF-8");
        for word in NOT_PLAIN_SOLVE
            .iter()
            .chain(&["--optimal", "--heuristic", "--tiled-config"])
        {
            assert!(script.contains(word), "{word} missing");
        }
        let checked = std::process::Command::new("bash")
            .args(["-n", "-c", &script])
            .status();
        match checked {
            Ok(status) => assert!(status.success(), "bash -n rejects the script"),
            Err(error) => eprintln!("bash not run ({error}); syntax not checked"),
        }
    }
}
