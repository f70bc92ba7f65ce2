//! PDDL 3.1 syntax: a [nom] parser from source text to an AST whose nodes
//! carry byte spans, a pretty-printer back to canonical PDDL text, semantic
//! checks of a domain and problem, and compiler-style diagnostics.
//!
//! This crate knows nothing of grounding or search. Typical use:
//!
//! ```
//! use pddl_syntax::{parse_domain, check};
//! let domain = parse_domain("(define (domain d) (:predicates (p)) (:action a :effect (p)))").unwrap();
//! assert!(check::check_domain(&domain).iter().all(|d| !d.is_error()));
//! ```
#![warn(missing_docs)]

pub mod ast;
pub mod check;
pub mod error;

pub use ast::parse::{parse_definition, parse_domain, parse_problem};
pub use error::{Diagnostic, Diagnostics, Severity, SourceFile};
