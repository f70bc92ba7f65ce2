//! Solving in one call: read, parse, check, ground and search.

use crate::exit;
use crate::load::{CheckedTask, LoadError, load_task};
use pddl_ground::task::{CostModel, Name};
use pddl_ground::{GroundError, GroundOptions, Task};
use pddl_search::{Plan, SearchObserver, SearchOptions, SearchResult};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Why a task could not be solved before search started.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// Reading, parsing or checking failed.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// Grounding failed; `rendered` locates the cause where it has a
    /// location.
    #[error("{rendered}")]
    Ground {
        /// The error, rendered against its file where it has a span.
        rendered: String,
        /// The grounder's error (boxed: it carries a whole diagnostic).
        error: Box<GroundError>,
    },
}

impl SolveError {
    /// The `plan` exit status for this error.
    pub fn exit_status(&self) -> i32 {
        match self {
            SolveError::Load(e) => e.exit_status(),
            SolveError::Ground { error, .. } => match **error {
                GroundError::Unsupported { .. } => exit::UNSUPPORTED,
                GroundError::Invalid { .. } => exit::FOUND_ERRORS,
                GroundError::TooManyOperators { .. } | GroundError::TooManyFacts { .. } => {
                    exit::MEMORY_LIMIT
                }
            },
        }
    }
}

/// Grounds a checked task, rendering a grounding error against the file
/// it points into.
pub fn ground_checked(checked: &CheckedTask, options: &GroundOptions) -> Result<Task, SolveError> {
    pddl_ground::ground(&checked.domain, &checked.problem, options).map_err(|error| {
        let rendered = match error.diagnostic() {
            Some((diagnostic, true)) => diagnostic.render(&checked.problem_source),
            Some((diagnostic, false)) => diagnostic.render(&checked.domain_source),
            None => format!("error: {error}\n"),
        };
        SolveError::Ground {
            rendered,
            error: Box::new(error),
        }
    })
}

/// Wall-clock time of each phase of [`solve_files`].
#[derive(Clone, Debug, Default)]
pub struct PhaseTimes {
    /// Reading, parsing and checking.
    pub parse: Duration,
    /// Grounding.
    pub ground: Duration,
    /// Search.
    pub search: Duration,
}

/// Everything [`solve_files`] found out.
#[derive(Debug)]
pub struct Solution {
    /// The checked domain and problem.
    pub checked: CheckedTask,
    /// The ground task searched.
    pub task: Task,
    /// The search's result (plan, outcome, statistics).
    pub result: SearchResult,
    /// Time per phase.
    pub times: PhaseTimes,
}

/// Reads, checks, grounds and solves a task. The time limit in `options`
/// covers the whole call: search gets what parsing and grounding left.
pub fn solve_files(
    domain: &Path,
    problem: &Path,
    options: &SearchOptions,
    cancel: &AtomicBool,
    observer: &mut dyn SearchObserver,
) -> Result<Solution, SolveError> {
    let start = Instant::now();
    let checked = load_task(domain, problem)?;
    let parse = start.elapsed();
    let task = ground_checked(&checked, &GroundOptions::default())?;
    let ground = start.elapsed() - parse;
    let options = with_time_spent(options, start.elapsed());
    let result = pddl_search::search(&task, &options, cancel, observer);
    let search = start.elapsed() - parse - ground;
    Ok(Solution {
        checked,
        task,
        result,
        times: PhaseTimes {
            parse,
            ground,
            search,
        },
    })
}

/// `options` with `spent` taken off its time limit, for a search that
/// starts after reading and grounding have used part of it.
pub(crate) fn with_time_spent(options: &SearchOptions, spent: Duration) -> SearchOptions {
    let mut options = options.clone();
    options.time_limit = options.time_limit.map(|limit| limit.saturating_sub(spent));
    options
}

impl Solution {
    /// The value of the problem's `:metric` at the end of the plan found,
    /// `None` without a plan or a metric. The ground task gives it where
    /// it can; a metric it cannot express (`total-time`) is evaluated by
    /// the independent validator on the lifted model.
    pub fn metric_value(&self) -> Option<f64> {
        let plan = self.result.plan.as_ref()?;
        self.checked.problem.metric.as_ref()?;
        pddl_search::metric_value(&self.task, plan).or_else(|| {
            validate_plan(&self.checked, &self.task, plan)
                .ok()?
                .metric
                .map(|m| m.value)
        })
    }
}

/// The plan in the IPC format: one `(action arg ...)` per line, then
/// `; cost = N (unit cost|general cost)`. N is `metric_value` where the
/// problem has a metric (it differs from the operator costs by the
/// metric's initial value, or entirely when the metric could not become
/// operator costs; validators compare the two), else the sum of operator
/// costs.
pub fn plan_text(task: &Task, plan: &Plan, metric_value: Option<f64>) -> String {
    let mut text = String::new();
    for &op in &plan.operators {
        text.push_str(&task.operators[op as usize].plan_line());
        text.push('\n');
    }
    let general =
        task.has_general_costs() || matches!(task.cost_model, CostModel::NotOptimised { .. });
    let kind = if general { "general cost" } else { "unit cost" };
    match metric_value {
        Some(value) if value.fract() == 0.0 && value.abs() < 1e15 => {
            text.push_str(&format!("; cost = {} ({kind})\n", value as i64))
        }
        Some(value) => text.push_str(&format!("; cost = {value} ({kind})\n")),
        None => text.push_str(&format!("; cost = {} ({kind})\n", plan.cost)),
    }
    text
}

/// Re-checks a plan found for `task` with the independent validator, on
/// the lifted model of `checked`.
pub fn validate_plan(
    checked: &CheckedTask,
    task: &Task,
    plan: &Plan,
) -> Result<pddl_validate::Report, pddl_validate::SetupError> {
    let validator = pddl_validate::Validator::new(&checked.domain, &checked.problem)?;
    let steps = plan
        .operators
        .iter()
        .map(|&op| {
            let operator = &task.operators[op as usize];
            pddl_validate::PlanStep::new(
                operator.name.as_str(),
                operator.args.iter().map(Name::as_str),
            )
        })
        .collect();
    Ok(validator.validate(&pddl_validate::Plan::from_steps(steps)))
}
