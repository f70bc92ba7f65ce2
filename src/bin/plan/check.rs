//! `plan check`: parse and check a domain (and a problem), printing every
//! diagnostic rendered against its file, then one summary line per file.

use crate::ground_limits::input_note;
use planner::exit;
use planner::input::{InputError, read_source_to_parse};
use planner::syntax::check::{check_domain, check_problem};
use planner::syntax::{Diagnostic, SourceFile, parse_domain, parse_problem};
use std::path::{Path, PathBuf};

const CHECK_EXIT_STATUSES: &str = "\
Exit status:
  0  no errors (warnings allowed, unless --deny-warnings)
  1  semantic errors found (or warnings, with --deny-warnings)
  2  a file could not be read, is not UTF-8, has syntax errors, or uses
     a PDDL feature this toolkit does not support
  6  parsing a file would take more than --memory-limit (refused before
     reading it)";

/// Arguments of `plan check`.
#[derive(clap::Args)]
#[command(after_help = CHECK_EXIT_STATUSES)]
pub struct CheckArgs {
    /// The domain file (`-`: standard input).
    pub domain: PathBuf,
    /// A problem file, checked against the domain (`-`: standard input).
    pub problem: Option<PathBuf>,
    /// Print only the summary lines, not the diagnostics.
    #[arg(short, long)]
    pub quiet: bool,
    /// Treat warnings as errors (exit status 1 when there are any).
    #[arg(long)]
    pub deny_warnings: bool,
    /// Refuse (exit status 6) a file whose parse would take more than this
    /// many MiB (or 512M, 4G), before reading it [default: 80 % of the
    /// memory available when `plan` starts, where the system says (Linux)].
    #[arg(long, value_name = "MIB", value_parser = crate::units::mebibytes)]
    pub memory_limit: Option<u64>,
}

/// What was found in one file.
#[derive(Default)]
struct Tally {
    errors: usize,
    warnings: usize,
    /// Errors about a feature this toolkit does not support (an input
    /// error, as for the parser's).
    unsupported: usize,
}

/// Prints diagnostics found in `file` (unless quiet) and counts them.
fn report(file: &SourceFile, diagnostics: &[Diagnostic], quiet: bool, tally: &mut Tally) {
    for diagnostic in diagnostics {
        if diagnostic.is_error() {
            tally.errors += 1;
            tally.unsupported += usize::from(diagnostic.unsupported);
        } else {
            tally.warnings += 1;
        }
        if !quiet {
            eprintln!("{}", diagnostic.render(file));
        }
    }
}

/// `N things` with the right plural.
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// Prints the summary line of one file.
fn summary(path: &str, tally: &Tally) {
    eprintln!(
        "{path}: {}, {}",
        count(tally.errors, "error"),
        count(tally.warnings, "warning")
    );
}

/// Reads a file, refusing it where parsing it would exceed
/// `memory_limit` bytes; prints why and returns the exit status when it cannot be
/// used.
fn read(path: &Path, memory_limit: Option<u64>) -> Result<SourceFile, i32> {
    read_source_to_parse(path, memory_limit).map_err(|error| {
        // A rendered diagnostic ends with a blank line, as `check`'s own.
        eprintln!("{error}");
        if let InputError::NotUtf8 { .. } = error {
            eprintln!("{}: not UTF-8 text", planner::input::display_name(path));
        }
        if let Some(note) = input_note(&error) {
            eprintln!("{note}");
        }
        error.exit_status()
    })
}

/// Runs `plan check` and returns the exit status.
pub fn run(args: CheckArgs) -> i32 {
    // Read both files first, so that both are reported when unreadable.
    let memory_limit = planner::memory::limit_bytes(args.memory_limit);
    let domain_file = read(&args.domain, memory_limit);
    let problem_file = args.problem.as_deref().map(|path| read(path, memory_limit));
    let (domain_file, problem_file) = match (domain_file, problem_file.transpose()) {
        (Ok(domain_file), Ok(problem_file)) => (domain_file, problem_file),
        // The domain's error decides the status.
        (Err(status), _) | (Ok(_), Err(status)) => return status,
    };

    let mut domain_tally = Tally::default();
    let mut problem_tally = Tally::default();
    let domain = parse_domain(&domain_file.text);
    let problem = problem_file.as_ref().map(|file| parse_problem(&file.text));
    let mut syntax_error = false;
    if let Err(diagnostics) = &domain {
        report(&domain_file, diagnostics, args.quiet, &mut domain_tally);
        syntax_error = true;
    }
    if let (Some(file), Some(Err(diagnostics))) = (&problem_file, &problem) {
        report(file, diagnostics, args.quiet, &mut problem_tally);
        syntax_error = true;
    }
    if let Ok(domain) = &domain {
        report(
            &domain_file,
            &check_domain(domain),
            args.quiet,
            &mut domain_tally,
        );
        if let (Some(file), Some(Ok(problem))) = (&problem_file, &problem) {
            report(
                file,
                &check_problem(domain, problem),
                args.quiet,
                &mut problem_tally,
            );
        }
    }
    summary(&domain_file.path, &domain_tally);
    if let Some(file) = &problem_file {
        summary(&file.path, &problem_tally);
    }

    let errors = domain_tally.errors + problem_tally.errors;
    let warnings = domain_tally.warnings + problem_tally.warnings;
    if syntax_error || domain_tally.unsupported + problem_tally.unsupported > 0 {
        exit::INPUT_ERROR
    } else if errors > 0 || (args.deny_warnings && warnings > 0) {
        exit::FOUND_ERRORS
    } else {
        exit::SUCCESS
    }
}
