//! Reading, parsing and checking a domain and problem in one call, with
//! every diagnostic rendered against the file it belongs to.

use crate::exit;
use crate::input::{InputError, read_source_to_parse};
use pddl_syntax::ast::{Domain, Problem};
use pddl_syntax::{Diagnostic, SourceFile, check};
use std::path::Path;

/// A domain and a problem that parsed and passed the semantic checks.
#[derive(Debug)]
pub struct CheckedTask {
    /// The domain file's text.
    pub domain_source: SourceFile,
    /// The problem file's text.
    pub problem_source: SourceFile,
    /// The parsed domain.
    pub domain: Domain,
    /// The parsed problem.
    pub problem: Problem,
    /// Warnings of the checks, rendered.
    pub warnings: Vec<String>,
}

/// Why a domain or problem could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A file could not be read.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A file does not parse; the rendered diagnostics say where and why.
    #[error("{rendered}")]
    Syntax {
        /// All diagnostics, rendered.
        rendered: String,
    },
    /// A file is valid PDDL but uses a feature this toolkit does not
    /// support (durative actions, ...).
    #[error("{rendered}")]
    Unsupported {
        /// All diagnostics, rendered.
        rendered: String,
    },
    /// A file parses but has semantic errors.
    #[error("{rendered}")]
    Semantic {
        /// All diagnostics (errors and warnings), rendered.
        rendered: String,
    },
}

impl LoadError {
    /// The `plan` exit status for this error.
    pub fn exit_status(&self) -> i32 {
        match self {
            LoadError::Input(error) => error.exit_status(),
            LoadError::Syntax { .. } => exit::INPUT_ERROR,
            LoadError::Unsupported { .. } => exit::UNSUPPORTED,
            LoadError::Semantic { .. } => exit::FOUND_ERRORS,
        }
    }
}

/// Renders diagnostics against their file, one after another.
pub fn render_all(diagnostics: &[Diagnostic], file: &SourceFile) -> String {
    diagnostics
        .iter()
        .map(|d| d.render(file))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The error for a file that did not parse: unsupported when every error
/// is about an unsupported feature, a syntax error otherwise.
fn parse_error(diagnostics: &[Diagnostic], source: &SourceFile) -> LoadError {
    let rendered = render_all(diagnostics, source);
    if only_unsupported_errors(diagnostics) {
        LoadError::Unsupported { rendered }
    } else {
        LoadError::Syntax { rendered }
    }
}

/// Whether every error among `diagnostics` is about a feature this
/// toolkit does not support (then the input is valid PDDL: exit 3).
fn only_unsupported_errors<'d>(diagnostics: impl IntoIterator<Item = &'d Diagnostic>) -> bool {
    diagnostics
        .into_iter()
        .filter(|d| d.is_error())
        .all(|d| d.unsupported)
}

/// Reads and parses a domain file (no semantic checks; `-` is standard
/// input), refusing it where parsing it would take more than
/// `memory_limit` bytes ([`read_source_to_parse`]).
pub fn parse_domain_file(
    path: &Path,
    memory_limit: Option<u64>,
) -> Result<(SourceFile, Domain), LoadError> {
    let source = read_source_to_parse(path, memory_limit)?;
    match pddl_syntax::parse_domain(&source.text) {
        Ok(domain) => Ok((source, domain)),
        Err(diagnostics) => Err(parse_error(&diagnostics, &source)),
    }
}

/// Reads and parses a problem file (no semantic checks), refusing it
/// like [`parse_domain_file`].
pub fn parse_problem_file(
    path: &Path,
    memory_limit: Option<u64>,
) -> Result<(SourceFile, Problem), LoadError> {
    let source = read_source_to_parse(path, memory_limit)?;
    match pddl_syntax::parse_problem(&source.text) {
        Ok(problem) => Ok((source, problem)),
        Err(diagnostics) => Err(parse_error(&diagnostics, &source)),
    }
}

/// Checks a parsed domain and problem; returns the rendered warnings, or
/// every diagnostic rendered when there is an error.
pub fn check_parsed(
    domain_source: &SourceFile,
    domain: &Domain,
    problem_source: &SourceFile,
    problem: &Problem,
) -> Result<Vec<String>, LoadError> {
    let domain_diagnostics = check::check_domain(domain);
    let problem_diagnostics = check::check_problem(domain, problem);
    let has_errors = domain_diagnostics
        .iter()
        .chain(&problem_diagnostics)
        .any(Diagnostic::is_error);
    let mut rendered: Vec<String> = domain_diagnostics
        .iter()
        .map(|d| d.render(domain_source))
        .collect();
    rendered.extend(problem_diagnostics.iter().map(|d| d.render(problem_source)));
    if has_errors {
        let rendered = rendered.join("\n");
        return Err(
            if only_unsupported_errors(domain_diagnostics.iter().chain(&problem_diagnostics)) {
                LoadError::Unsupported { rendered }
            } else {
                LoadError::Semantic { rendered }
            },
        );
    }
    Ok(rendered)
}

/// Reads, parses and checks a domain and a problem.
pub fn load_task(
    domain_path: &Path,
    problem_path: &Path,
    memory_limit: Option<u64>,
) -> Result<CheckedTask, LoadError> {
    let (domain_source, domain) = parse_domain_file(domain_path, memory_limit)?;
    let (problem_source, problem) = parse_problem_file(problem_path, memory_limit)?;
    let warnings = check_parsed(&domain_source, &domain, &problem_source, &problem)?;
    Ok(CheckedTask {
        domain_source,
        problem_source,
        domain,
        problem,
        warnings,
    })
}
