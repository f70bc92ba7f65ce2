//! Solving a level with the planner: problem generation, parsing,
//! grounding and search, and the plan turned back into player moves.

use super::level::Level;
use super::problem::{action_move, problem_pddl};
use super::simulator::Move;
use pddl_ground::{GroundOptions, Task};
use pddl_search::{SearchObserver, SearchOptions, SearchResult};
use std::sync::atomic::AtomicBool;

/// Why a level could not be handed to the search.
#[derive(Debug, thiserror::Error)]
pub enum PlanLevelError {
    /// The built-in domain or the generated problem was rejected by the
    /// parser or the checks: a bug of this module, reported as such.
    #[error("internal error: the generated Puzznic PDDL is rejected: {0}")]
    Pddl(String),
    /// The grounder refused the task.
    #[error(transparent)]
    Ground(#[from] pddl_ground::GroundError),
}

/// The ground task of a level, for the domain [`super::DOMAIN`].
pub fn ground_level(level: &Level, problem_name: &str) -> Result<Task, PlanLevelError> {
    let problem_text = problem_pddl(level, problem_name);
    let render = |diagnostics: &[pddl_syntax::Diagnostic], path: &str, text: &str| {
        let file = pddl_syntax::SourceFile::new(path, text);
        diagnostics
            .iter()
            .map(|d| d.render(&file))
            .collect::<String>()
    };
    let domain = pddl_syntax::parse_domain(super::DOMAIN)
        .map_err(|d| PlanLevelError::Pddl(render(&d, "domain.pddl", super::DOMAIN)))?;
    let problem = pddl_syntax::parse_problem(&problem_text)
        .map_err(|d| PlanLevelError::Pddl(render(&d, "problem.pddl", &problem_text)))?;
    let mut errors: Vec<pddl_syntax::Diagnostic> = pddl_syntax::check::check_domain(&domain);
    errors.retain(|d| d.is_error());
    if !errors.is_empty() {
        return Err(PlanLevelError::Pddl(render(
            &errors,
            "domain.pddl",
            super::DOMAIN,
        )));
    }
    let mut errors = pddl_syntax::check::check_problem(&domain, &problem);
    errors.retain(|d| d.is_error());
    if !errors.is_empty() {
        return Err(PlanLevelError::Pddl(render(
            &errors,
            "problem.pddl",
            &problem_text,
        )));
    }
    Ok(pddl_ground::ground(
        &domain,
        &problem,
        &GroundOptions::default(),
    )?)
}

/// A plan for a level: the PDDL plan lines and the player moves in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelPlan {
    /// Every action of the plan, physics included, as PDDL plan lines.
    pub plan_lines: Vec<String>,
    /// The player moves, in order.
    pub moves: Vec<Move>,
}

impl LevelPlan {
    /// Reads the plan of a search result over `task`.
    pub fn from_operators(task: &Task, operators: &[pddl_ground::task::OperatorId]) -> LevelPlan {
        let mut plan_lines = Vec::new();
        let mut moves = Vec::new();
        for op in operators
            .iter()
            .filter_map(|&id| task.operators.get(id as usize))
        {
            plan_lines.push(op.plan_line());
            if let Some(mv) = action_move(&op.name, &op.args) {
                moves.push(mv);
            }
        }
        LevelPlan { plan_lines, moves }
    }
}

/// Grounds a level and searches it; the plan, if any, comes back as a
/// [`LevelPlan`] along with the search result.
pub fn plan_level(
    level: &Level,
    problem_name: &str,
    options: &SearchOptions,
    cancel: &AtomicBool,
    observer: &mut dyn SearchObserver,
) -> Result<(SearchResult, Option<LevelPlan>), PlanLevelError> {
    let task = ground_level(level, problem_name)?;
    let result = pddl_search::search(&task, options, cancel, observer);
    let plan = result
        .plan
        .as_ref()
        .map(|p| LevelPlan::from_operators(&task, &p.operators));
    Ok((result, plan))
}
