//! The grounding limits that `plan` (solving) and `plan ground` share,
//! and the hint that names them when one is reached.

use planner::ground::{GroundError, GroundOptions};
use planner::input::InputError;
use planner::load::LoadError;
use planner::search::Outcome;
use planner::solve::{GroundingStopped, SolveError};

#[derive(clap::Args, Debug)]
pub struct GroundLimitArgs {
    /// Stop grounding (exit status 6) once this many operators have been
    /// instantiated, before a task too large for memory fills it.
    #[arg(long, value_name = "N", default_value_t = GroundOptions::default().max_operators)]
    pub max_operators: usize,
    /// Stop grounding (exit status 6) once relaxed reachability has found
    /// this many facts.
    #[arg(long, value_name = "N", default_value_t = GroundOptions::default().max_facts)]
    pub max_facts: usize,
}

impl GroundLimitArgs {
    /// The grounder's options with these limits (no stop condition).
    pub fn options(&self) -> GroundOptions<'static> {
        GroundOptions {
            max_operators: self.max_operators,
            max_facts: self.max_facts,
            ..GroundOptions::default()
        }
    }
}

/// The note that follows an error of the memory limit, before or while
/// grounding.
pub const MEMORY_LIMIT_NOTE: &str = "  = note: `--memory-limit MIB` raises the limit";

/// The note that follows an input error on stderr: the flag that raises
/// the memory limit, for a file too large to parse.
pub fn input_note(error: &InputError) -> Option<&'static str> {
    matches!(error, InputError::TooLargeToParse { .. }).then_some(MEMORY_LIMIT_NOTE)
}

/// The note that follows a stop while grounding on stderr: the flag that
/// raises the memory limit, if that limit stopped it.
pub fn stopped_note(stopped: &GroundingStopped) -> Option<&'static str> {
    (stopped.outcome == Outcome::MemoryLimit).then_some(MEMORY_LIMIT_NOTE)
}

/// The note that follows a grounding error on stderr: which flag raises
/// the limit it reached, if it reached one.
pub fn limit_note(error: &GroundError) -> Option<&'static str> {
    match error {
        GroundError::TooManyOperators { .. } => {
            Some("  = note: `--max-operators N` raises the limit")
        }
        GroundError::TooManyFacts { .. } => Some("  = note: `--max-facts N` raises the limit"),
        _ => None,
    }
}

/// The note that follows an error of `plan`'s solve on stderr: the flag
/// that raises the limit it reached, if any ([`input_note`],
/// [`stopped_note`], [`limit_note`]).
pub fn solve_note(error: &SolveError) -> Option<&'static str> {
    match error {
        SolveError::Load(LoadError::Input(error)) => input_note(error),
        SolveError::Load(_) => None,
        SolveError::Stopped(stopped) => stopped_note(stopped),
        SolveError::Ground { error, .. } => limit_note(error),
    }
}
