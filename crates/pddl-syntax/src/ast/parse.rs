//! Source text → AST.
//!
//! Tokens are recognised with [nom] combinators (module `lexer`); the grammar is a
//! recursive-descent parser over that token stream so that it can recover
//! from errors (skip to the `)` matching a section, action or `:init`
//! element and go on) and report every error it can, not only the first.
//! Recursion is bounded by [`MAX_NESTING`], and error recovery scans
//! iteratively, so no input can overflow the stack.

mod grammar;
mod lexer;

use super::{Definition, Domain, Problem};
use crate::error::Diagnostic;

/// The deepest nesting of conditions, effects and expressions accepted.
pub const MAX_NESTING: usize = 512;

/// Stack size of the parsing thread (reserved address space; only the
/// pages used are committed).
pub const PARSER_STACK_BYTES: usize = 64 << 20;

/// Nesting up to which parsing runs on the caller's stack (under 1 MB of
/// stack even in unoptimised builds).
pub const SHALLOW_NESTING: usize = 64;

/// The number of errors after which parsing stops.
pub const MAX_ERRORS: usize = 100;

/// Parses a domain file. On failure returns every diagnostic found.
pub fn parse_domain(text: &str) -> Result<Domain, Vec<Diagnostic>> {
    match parse_definition(text)? {
        Definition::Domain(d) => Ok(d),
        Definition::Problem(p) => Err(vec![
            Diagnostic::error("expected a domain, found a problem", p.span)
                .with_label(format!("problem `{}` of domain `{}`", p.name, p.domain))
                .with_note(
                    "the domain file, which starts with `(define (domain NAME)`, comes before \
                     the problem file",
                ),
        ]),
    }
}

/// Parses a problem file. On failure returns every diagnostic found.
pub fn parse_problem(text: &str) -> Result<Problem, Vec<Diagnostic>> {
    match parse_definition(text)? {
        Definition::Problem(p) => Ok(p),
        Definition::Domain(d) => Err(vec![
            Diagnostic::error("expected a problem, found a domain", d.span)
                .with_label(format!("domain `{}`", d.name))
                .with_note(
                    "the problem file, which starts with `(define (problem NAME)`, comes after \
                     the domain file",
                ),
        ]),
    }
}

/// Parses a domain or problem file. On failure returns every diagnostic
/// found (at most [`MAX_ERRORS`] of them).
///
/// Parsing starts on the caller's thread, allowed [`SHALLOW_NESTING`]
/// levels of recursion (nearly every real file). Deeper text is parsed
/// again on a helper thread with its own [`PARSER_STACK_BYTES`] stack, so
/// that [`MAX_NESTING`] levels fit whatever the caller's stack and the
/// optimisation level (unoptimised builds use about 10 KB per level).
pub fn parse_definition(text: &str) -> Result<Definition, Vec<Diagnostic>> {
    if let Some(result) = grammar::Parser::new(text, SHALLOW_NESTING).parse_file() {
        return result;
    }
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("pddl-parser".to_owned())
            .stack_size(PARSER_STACK_BYTES)
            .spawn_scoped(scope, || parse_with_budget(text, MAX_NESTING));
        match spawned {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread available: the caller's stack is the only option.
            Err(_) => parse_with_budget(text, MAX_NESTING),
        }
    })
}

/// Parses with a nesting budget of at least `budget` levels.
fn parse_with_budget(text: &str, budget: usize) -> Result<Definition, Vec<Diagnostic>> {
    grammar::Parser::new(text, budget)
        .parse_file()
        .unwrap_or_else(|| {
            // Unreachable: with the full budget the depth limit reports first.
            Err(vec![Diagnostic::error(
                format!("nesting deeper than {MAX_NESTING} levels"),
                crate::ast::Span::new(0, 0),
            )])
        })
}
