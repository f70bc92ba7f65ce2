//! Semantic checks of a parsed domain and problem.

use crate::ast::{Domain, Problem};
use crate::error::Diagnostic;

/// Checks a domain; returns errors and warnings (spans in the domain file).
pub fn check_domain(domain: &Domain) -> Vec<Diagnostic> {
    let _ = domain;
    Vec::new()
}

/// Checks a problem against its (checked) domain; returns errors and
/// warnings with spans in the problem file.
pub fn check_problem(domain: &Domain, problem: &Problem) -> Vec<Diagnostic> {
    let _ = (domain, problem);
    Vec::new()
}
