//! Exit statuses of the `plan` command, one meaning each across subcommands.

/// Success: solved, clean, or every plan valid.
pub const SUCCESS: i32 = 0;
/// The input was read but is wrong: `plan check` found errors, or
/// `plan validate` found an invalid plan.
pub const FOUND_ERRORS: i32 = 1;
/// Input error: a file could not be read or parsed, or a bad argument;
/// also an output file or standard output that cannot be written.
pub const INPUT_ERROR: i32 = 2;
/// The input uses a PDDL feature this toolkit does not support.
pub const UNSUPPORTED: i32 = 3;
/// The search space was exhausted: the task is proven unsolvable.
pub const UNSOLVABLE: i32 = 4;
/// The time limit was reached before a plan was found.
pub const TIME_LIMIT: i32 = 5;
/// The memory limit was reached before a plan was found, or the ground
/// task would exceed `--max-operators` or `--max-facts`.
pub const MEMORY_LIMIT: i32 = 6;
/// The search was interrupted (Ctrl-C, SIGTERM or SIGXCPU) before a plan
/// was found.
pub const INTERRUPTED: i32 = 130;
/// An internal error: the program panicked (a bug). The same status as a
/// panic in Rust's own `main`.
pub const INTERNAL_ERROR: i32 = 101;

/// The exit status for how a search ended without a plan (for a plan,
/// [`SUCCESS`]).
pub fn for_outcome(outcome: pddl_search::Outcome) -> i32 {
    use pddl_search::Outcome;
    match outcome {
        Outcome::Solved => SUCCESS,
        Outcome::Unsolvable => UNSOLVABLE,
        Outcome::TimeLimit => TIME_LIMIT,
        Outcome::MemoryLimit => MEMORY_LIMIT,
        Outcome::Cancelled => INTERRUPTED,
    }
}

/// The exit status for a grounding error: a limit on the size of the
/// ground task counts as the memory limit (it stands in for one), a
/// stop before the end as the time limit.
pub fn for_ground_error(error: &pddl_ground::GroundError) -> i32 {
    use pddl_ground::GroundError;
    match error {
        GroundError::Unsupported { .. } => UNSUPPORTED,
        GroundError::Invalid { .. } => FOUND_ERRORS,
        GroundError::TooManyOperators { .. } | GroundError::TooManyFacts { .. } => MEMORY_LIMIT,
        GroundError::Stopped => TIME_LIMIT,
    }
}
