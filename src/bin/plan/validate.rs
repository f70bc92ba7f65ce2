//! `plan validate DOMAIN PROBLEM PLAN…`: checks plans on the lifted model
//! and explains failures; JSON and JUnit output for CI.

use crate::ground_limits::input_note;
use planner::exit;
use planner::input::read_source_to_parse;
use planner::load::{LoadError, load_task, render_all};
use planner::syntax::SourceFile;
use planner::validate::{InputFile, Report, Validator, parse_plan};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const VALIDATE_EXIT_STATUSES: &str = "\
Exit status:
  0  every plan is valid
  1  some plan is invalid
  2  input error: a file cannot be read or parsed, the domain or problem
     has errors, or it uses a feature the validator does not support
  6  parsing the domain or problem would take more than --memory-limit
     (refused before reading it)";

/// Arguments of `plan validate`.
#[derive(clap::Args)]
#[command(after_help = VALIDATE_EXIT_STATUSES)]
pub struct ValidateArgs {
    /// The domain file (`-`: standard input).
    pub domain: PathBuf,
    /// The problem file (`-`: standard input).
    pub problem: PathBuf,
    /// Plan files in the IPC format: one `(action arg …)` per line (`-`:
    /// standard input, e.g. piped from `plan`).
    #[arg(required = true)]
    pub plans: Vec<PathBuf>,
    /// Print each step's added, deleted and changed facts and fluents.
    #[arg(short, long)]
    pub verbose: bool,
    /// Print a JSON report on standard output instead of text (numbers with
    /// 15 significant digits, without the noise of summing binary fractions).
    #[arg(long)]
    pub json: bool,
    /// Refuse (exit status 6) a file whose parse would take more than this
    /// many MiB (or 512M, 4G), before reading it [default: 80 % of the
    /// memory available when `plan` starts, where the system says (Linux)].
    #[arg(long, value_name = "MIB", value_parser = crate::units::mebibytes)]
    pub memory_limit: Option<u64>,
    /// Also write a JUnit XML report (one test case per plan) to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
}

/// The outcome for one plan file.
enum Outcome {
    /// The plan was read and validated.
    Checked(Box<Report>),
    /// The plan file could not be read or parsed: the rendered reason.
    Unusable(String),
}

/// Reads a file, or returns the rendered reason it cannot be used.
fn read(path: &Path, memory_limit: Option<u64>) -> Result<SourceFile, String> {
    read_source_to_parse(path, memory_limit).map_err(|e| e.to_string())
}

/// Loads the domain and problem and prepares the validator; on failure
/// prints why and returns the exit status. Every problem with the domain
/// or problem is an input error (2), status 1 being kept for invalid
/// plans, except a file too large to parse (6, the memory limit's).
fn prepare(args: &ValidateArgs, memory_limit: Option<u64>) -> Result<Validator, i32> {
    let fail = |message: &str| {
        eprintln!("{}", message.trim_end());
        exit::INPUT_ERROR
    };
    let task = load_task(&args.domain, &args.problem, memory_limit).map_err(|error| {
        let LoadError::Input(input) = &error else {
            return fail(&error.to_string());
        };
        eprintln!("{}", input.to_string().trim_end());
        if let Some(note) = input_note(input) {
            eprintln!("{note}");
        }
        input.exit_status()
    })?;
    Validator::new(&task.domain, &task.problem).map_err(|error| {
        let file = match error.file {
            InputFile::Domain => &task.domain_source,
            InputFile::Problem => &task.problem_source,
        };
        fail(&error.diagnostic.render(file))
    })
}

/// Reads, parses and validates one plan file.
fn check_plan(
    validator: &Validator,
    path: &Path,
    traced: bool,
    memory_limit: Option<u64>,
) -> Outcome {
    let file = match read(path, memory_limit) {
        Ok(file) => file,
        Err(reason) => return Outcome::Unusable(reason),
    };
    match parse_plan(&file.text) {
        Ok(plan) if traced => Outcome::Checked(Box::new(validator.validate_traced(&plan))),
        Ok(plan) => Outcome::Checked(Box::new(validator.validate(&plan))),
        Err(diagnostics) => Outcome::Unusable(render_all(&diagnostics, &file)),
    }
}

/// Runs `plan validate` and returns the exit status.
pub fn run(args: ValidateArgs) -> i32 {
    if crate::output::refuse_stdout(args.junit.as_deref(), "--junit") {
        return exit::INPUT_ERROR;
    }
    let memory_limit = planner::memory::limit_bytes(args.memory_limit);
    let validator = match prepare(&args, memory_limit) {
        Ok(validator) => validator,
        Err(status) => return status,
    };
    let outcomes: Vec<(String, Outcome)> = args
        .plans
        .iter()
        .map(|path| {
            (
                planner::input::display_name(path),
                check_plan(&validator, path, args.verbose, memory_limit),
            )
        })
        .collect();
    let valid = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Checked(r) if r.is_valid()))
        .count();
    let unusable = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Unusable(_)))
        .count();
    let invalid = outcomes.len() - valid - unusable;

    if args.json {
        outln!(
            "{}",
            json_report(&args, &outcomes, valid, invalid, unusable)
        );
    } else {
        out!(
            "{}",
            text_report(&outcomes, args.verbose, valid, invalid, unusable)
        );
    }
    let mut status = if unusable > 0 {
        exit::INPUT_ERROR
    } else if invalid > 0 {
        exit::FOUND_ERRORS
    } else {
        exit::SUCCESS
    };
    if let Some(path) = &args.junit {
        let xml = junit_report(&planner::input::display_name(&args.problem), &outcomes);
        if let Err(message) = crate::output::write_file(path, xml.as_bytes()) {
            eprintln!("error: {message}");
            status = exit::INPUT_ERROR;
        }
    }
    status
}

/// The human report: each plan's report, then a summary if there are several.
fn text_report(
    outcomes: &[(String, Outcome)],
    verbose: bool,
    valid: usize,
    invalid: usize,
    unusable: usize,
) -> String {
    let mut out = String::new();
    let several = outcomes.len() > 1;
    for (path, outcome) in outcomes {
        if several {
            let _ = writeln!(out, "== {path} ==");
        }
        match outcome {
            Outcome::Checked(report) => out.push_str(&report.to_text(verbose)),
            Outcome::Unusable(reason) => {
                // The diagnostic goes to standard error, like every input error.
                eprintln!("{}", reason.trim_end());
                let _ = writeln!(
                    out,
                    "Plan file unusable: {path} (input error, see standard error)"
                );
            }
        }
        if several {
            out.push('\n');
        }
    }
    if several {
        let _ = writeln!(
            out,
            "Summary: {} plans, {valid} valid, {invalid} invalid, {unusable} unusable",
            outcomes.len()
        );
    }
    out
}

/// The JSON report: one entry per plan and a summary.
fn json_report(
    args: &ValidateArgs,
    outcomes: &[(String, Outcome)],
    valid: usize,
    invalid: usize,
    unusable: usize,
) -> Value {
    let plans: Vec<Value> = outcomes
        .iter()
        .map(|(path, outcome)| match outcome {
            Outcome::Checked(report) => {
                let mut value = report.to_json();
                value["file"] = json!(path);
                value
            }
            Outcome::Unusable(reason) => {
                json!({"file": path, "valid": false, "input_error": reason})
            }
        })
        .collect();
    json!({
        "domain": planner::input::display_name(&args.domain),
        "problem": planner::input::display_name(&args.problem),
        "plans": plans,
        "summary": {"plans": outcomes.len(), "valid": valid, "invalid": invalid, "unusable": unusable},
    })
}

/// Escapes text for XML attributes and content.
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot hold at all.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t') => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// JUnit XML: one test case per plan; invalid plans are failures, unusable
/// plan files are errors.
fn junit_report(problem: &str, outcomes: &[(String, Outcome)]) -> String {
    let failures = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Checked(r) if !r.is_valid()))
        .count();
    let errors = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Unusable(_)))
        .count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites tests=\"{0}\" failures=\"{failures}\" errors=\"{errors}\">\n  <testsuite name=\"plan validate\" tests=\"{0}\" failures=\"{failures}\" errors=\"{errors}\">",
        outcomes.len()
    );
    for (path, outcome) in outcomes {
        let _ = write!(
            out,
            "    <testcase classname=\"{}\" name=\"{}\"",
            xml_escape(problem),
            xml_escape(path)
        );
        match outcome {
            Outcome::Checked(report) if report.is_valid() => out.push_str("/>\n"),
            Outcome::Checked(report) => {
                let message = report
                    .failure
                    .as_ref()
                    .map_or(String::new(), |f| f.message.clone());
                let _ = writeln!(
                    out,
                    ">\n      <failure message=\"{}\" type=\"invalid-plan\">{}</failure>\n    </testcase>",
                    xml_escape(&message),
                    xml_escape(&report.to_text(false))
                );
            }
            Outcome::Unusable(reason) => {
                let first = reason.lines().next().unwrap_or("unusable plan file");
                let _ = writeln!(
                    out,
                    ">\n      <error message=\"{}\" type=\"input-error\">{}</error>\n    </testcase>",
                    xml_escape(first),
                    xml_escape(reason)
                );
            }
        }
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}
