//! Source text → AST, with nom.

use super::{Definition, Domain, Problem};
use crate::error::Diagnostic;

/// Parses a domain file. On failure returns every diagnostic found.
pub fn parse_domain(text: &str) -> Result<Domain, Vec<Diagnostic>> {
    match parse_definition(text)? {
        Definition::Domain(d) => Ok(d),
        Definition::Problem(p) => Err(vec![Diagnostic::error("expected a domain, found a problem", p.span)]),
    }
}

/// Parses a problem file. On failure returns every diagnostic found.
pub fn parse_problem(text: &str) -> Result<Problem, Vec<Diagnostic>> {
    match parse_definition(text)? {
        Definition::Problem(p) => Ok(p),
        Definition::Domain(d) => Err(vec![Diagnostic::error("expected a problem, found a domain", d.span)]),
    }
}

/// Parses a domain or problem file.
pub fn parse_definition(text: &str) -> Result<Definition, Vec<Diagnostic>> {
    let _ = text;
    todo!("parser")
}
