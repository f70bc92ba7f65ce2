//! Source text → AST.
//!
//! Tokens are recognised with [nom] combinators ([`lexer`]); the grammar is a
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

/// The number of errors after which parsing stops.
pub const MAX_ERRORS: usize = 100;

/// Parses a domain file. On failure returns every diagnostic found.
pub fn parse_domain(text: &str) -> Result<Domain, Vec<Diagnostic>> {
    match parse_definition(text)? {
        Definition::Domain(d) => Ok(d),
        Definition::Problem(p) => Err(vec![Diagnostic::error(
            "expected a domain, found a problem",
            p.span,
        )]),
    }
}

/// Parses a problem file. On failure returns every diagnostic found.
pub fn parse_problem(text: &str) -> Result<Problem, Vec<Diagnostic>> {
    match parse_definition(text)? {
        Definition::Problem(p) => Ok(p),
        Definition::Domain(d) => Err(vec![Diagnostic::error(
            "expected a problem, found a domain",
            d.span,
        )]),
    }
}

/// Parses a domain or problem file. On failure returns every diagnostic
/// found (at most [`MAX_ERRORS`] of them).
pub fn parse_definition(text: &str) -> Result<Definition, Vec<Diagnostic>> {
    grammar::Parser::new(text).parse_file()
}
