//! Grounding: a checked PDDL domain and problem become a ground [`Task`]
//! with dense integer ids, conditional effects and numeric fluents.
//!
//! Only operators reachable in the delete relaxation are instantiated.

pub mod task;

pub use task::Task;

use pddl_syntax::Diagnostic;
use pddl_syntax::ast::{Domain, Problem};

/// Limits and switches for grounding.
#[derive(Clone, Debug)]
pub struct GroundOptions {
    /// Stop with an error once this many operators have been instantiated.
    pub max_operators: usize,
}

impl Default for GroundOptions {
    fn default() -> Self {
        GroundOptions { max_operators: 10_000_000 }
    }
}

/// Why grounding failed.
#[derive(Debug, thiserror::Error)]
pub enum GroundError {
    /// The problem uses something this grounder does not support; the
    /// diagnostic names it and points at it (span in the `in_problem` file
    /// when `true`, in the domain file otherwise).
    #[error("unsupported: {}", .diagnostic.message)]
    Unsupported {
        /// What and where.
        diagnostic: Diagnostic,
        /// Whether the span refers to the problem file.
        in_problem: bool,
    },
    /// An action instantiated more operators than allowed.
    #[error("grounding stopped: action `{action}` would exceed the limit of {limit} operators (raise --max-operators)")]
    TooManyOperators {
        /// The action schema that blew up.
        action: String,
        /// The limit in force.
        limit: usize,
    },
}

/// Grounds a domain and problem that passed [`pddl_syntax::check`].
pub fn ground(domain: &Domain, problem: &Problem, options: &GroundOptions) -> Result<Task, GroundError> {
    let _ = (domain, problem, options);
    todo!("grounder")
}
