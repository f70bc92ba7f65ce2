//! Solving in one call: read, parse, check, ground and search.

use crate::exit;
use crate::load::{CheckedTask, LoadError, load_task};
use pddl_ground::task::{CostModel, ImpossibleLiteral, Name};
use pddl_ground::{GroundError, GroundOptions, Task};
use pddl_search::{Outcome, Plan, SearchObserver, SearchOptions, SearchResult};
use std::cell::Cell;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Why a task could not be solved before search started.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// Reading, parsing or checking failed.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The time limit, the memory limit or the cancellation flag stopped
    /// grounding, before any search.
    #[error(transparent)]
    Stopped(#[from] GroundingStopped),
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
            SolveError::Stopped(stopped) => stopped.exit_status(),
            SolveError::Ground { error, .. } => exit::for_ground_error(error),
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

/// Grounds a checked task like [`ground_checked`], stopping also where
/// `limit` says ([`SolveError::Stopped`]).
fn ground_within(
    checked: &CheckedTask,
    ground: &GroundOptions,
    limit: &GroundingLimit<'_>,
) -> Result<Task, SolveError> {
    let stop = || limit.reached() || ground.stop.is_some_and(|stop| stop());
    let options = GroundOptions {
        stop: Some(&stop),
        ..ground.clone()
    };
    ground_checked(checked, &options).map_err(|error| match error {
        SolveError::Ground { error, .. } if matches!(*error, GroundError::Stopped) => {
            SolveError::Stopped(limit.stopped())
        }
        other => other,
    })
}

/// When grounding inside a call that started at `start`, with a time
/// limit for the whole call and a memory limit, must stop: at the
/// deadline, once the process's resident memory exceeds the memory limit,
/// or once `cancel` is set.
pub struct GroundingLimit<'c> {
    start: Instant,
    /// When grounding began (this was made).
    grounding_start: Instant,
    deadline: Option<Instant>,
    memory_limit_bytes: Option<u64>,
    cancel: &'c AtomicBool,
    /// When the resident memory was last read (reading it takes a few
    /// microseconds, a thousand times a poll of the clock).
    memory_read: Cell<Instant>,
    memory_exceeded: Cell<bool>,
}

/// How often [`GroundingLimit`] reads the resident memory at most. The
/// grounder grows by up to a few hundred MB a second.
const MEMORY_READ_INTERVAL: Duration = Duration::from_millis(10);

impl<'c> GroundingLimit<'c> {
    /// For a call that started at `start` with `time_limit` and
    /// `memory_limit_bytes`, made just before grounding begins.
    pub fn new(
        start: Instant,
        time_limit: Option<Duration>,
        memory_limit_bytes: Option<u64>,
        cancel: &'c AtomicBool,
    ) -> Self {
        GroundingLimit {
            start,
            grounding_start: Instant::now(),
            deadline: time_limit.and_then(|limit| start.checked_add(limit)),
            memory_limit_bytes,
            cancel,
            memory_read: Cell::new(start),
            memory_exceeded: Cell::new(false),
        }
    }

    /// Whether grounding must stop now.
    pub fn reached(&self) -> bool {
        if self.cancel.load(Ordering::Relaxed) || self.memory_exceeded.get() {
            return true;
        }
        let now = Instant::now();
        if self.deadline.is_some_and(|deadline| now >= deadline) {
            return true;
        }
        if let Some(limit) = self.memory_limit_bytes
            && now.duration_since(self.memory_read.get()) >= MEMORY_READ_INTERVAL
        {
            self.memory_read.set(now);
            let exceeded = crate::memory::resident_bytes().is_some_and(|bytes| bytes > limit);
            self.memory_exceeded.set(exceeded);
        }
        self.memory_exceeded.get()
    }

    /// Why grounding stopped, once it has: cancellation (also when a stop
    /// condition of the caller's stopped it), the memory limit or the
    /// deadline.
    pub fn stopped(&self) -> GroundingStopped {
        let outcome = if self.cancel.load(Ordering::Relaxed) {
            Outcome::Cancelled
        } else if self.memory_exceeded.get() {
            Outcome::MemoryLimit
        } else if self
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
        {
            Outcome::TimeLimit
        } else {
            Outcome::Cancelled
        };
        GroundingStopped {
            outcome,
            after: self.start.elapsed(),
            grounding: self.grounding_start.elapsed(),
        }
    }
}

/// Grounding was stopped by a limit or the cancellation flag.
#[derive(Clone, Copy, Debug, thiserror::Error)]
#[error("{} while grounding, after {:.1} s", .outcome.description(), .after.as_secs_f64())]
pub struct GroundingStopped {
    /// [`Outcome::TimeLimit`], [`Outcome::MemoryLimit`] (the process's
    /// resident memory exceeded the search's memory limit) or
    /// [`Outcome::Cancelled`].
    pub outcome: Outcome,
    /// When, from the start of the call.
    pub after: Duration,
    /// How long grounding had run (the rest of `after` went to reading
    /// and checking the input).
    pub grounding: Duration,
}

impl GroundingStopped {
    /// The `plan` exit status.
    pub fn exit_status(&self) -> i32 {
        exit::for_outcome(self.outcome)
    }
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

/// Reads, checks, grounds and solves a task, grounding within the limits
/// of `ground` (`GroundOptions::default()` for the usual ones). The time
/// limit in `options` covers the whole call: grounding stops at it, or
/// when `cancel` is set, with [`SolveError::Stopped`], and search gets
/// what parsing and grounding left.
pub fn solve_files(
    domain: &Path,
    problem: &Path,
    ground: &GroundOptions,
    options: &SearchOptions,
    cancel: &AtomicBool,
    observer: &mut dyn SearchObserver,
) -> Result<Solution, SolveError> {
    let start = Instant::now();
    let checked = load_task(domain, problem, options.memory_limit_bytes)?;
    let parse = start.elapsed();
    let limit = GroundingLimit::new(
        start,
        options.time_limit,
        options.memory_limit_bytes,
        cancel,
    );
    let task = ground_within(&checked, ground, &limit)?;
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
        pddl_search::found_plan_metric_value(&self.task, plan).or_else(|| {
            validate_plan(&self.checked, &self.task, plan)
                .ok()?
                .metric
                .map(|m| m.value)
        })
    }
}

/// Goal literals named in a reason before the rest are counted.
const NAMED_LITERALS: usize = 3;

/// "`(a)` true, nor `(b)` false (and 2 more goal literals)": the first few
/// literals as a reason names them, a comparison followed by
/// `comparison_note`.
fn name_literals(literals: &[ImpossibleLiteral], comparison_note: &str) -> String {
    let named: Vec<String> = literals
        .iter()
        .take(NAMED_LITERALS)
        .map(|literal| match literal {
            ImpossibleLiteral::Atom {
                atom,
                positive: false,
            } => format!("`{atom}` false"),
            ImpossibleLiteral::Atom { atom, .. } => format!("`{atom}` true"),
            ImpossibleLiteral::Comparison(text) => format!("`{text}` true{comparison_note}"),
        })
        .collect();
    let more = match literals.len().saturating_sub(NAMED_LITERALS) {
        0 => String::new(),
        n => format!(" (and {n} more goal literals)"),
    };
    format!("{}{more}", named.join(", nor "))
}

/// Why the goal can never hold, where grounding found out
/// ([`Task::impossible_goal`]): "the goal can never hold: nothing makes
/// `(a)` true, nor `(b)` false, ..." naming the first few literals; `None`
/// where grounding did not.
pub fn impossible_goal_reason(task: &Task) -> Option<String> {
    let literals = &task.impossible_goal;
    if literals.is_empty() {
        return None;
    }
    // Relaxed reachability is what proves an atom out of reach (an atom
    // needed false is named because it is true at first and nothing
    // deletes it).
    let relaxed = literals
        .iter()
        .any(|literal| matches!(literal, ImpossibleLiteral::Atom { positive: true, .. }));
    let suffix = if relaxed {
        ", even ignoring delete effects"
    } else {
        ""
    };
    Some(format!(
        "the goal can never hold: nothing makes {}{suffix}",
        name_literals(literals, " (its fluents never change)")
    ))
}

/// The goal literals that the delete relaxation with numeric conditions
/// never reaches from the initial state
/// ([`pddl_search::heuristics::out_of_reach`]; for a goal of several
/// alternatives, literals such that each alternative needs one),
/// comparisons written with the fluents' names, followed by the literals
/// for which grounding dropped the other alternatives
/// ([`Task::dropped_goal_literals`]); empty where the relaxation reaches
/// the goal, and where grounding named literals already
/// ([`Task::impossible_goal`]).
pub fn out_of_reach_goal(task: &Task) -> Vec<ImpossibleLiteral> {
    use pddl_search::heuristics::out_of_reach::{GoalLiteral, relaxed_unreachable_goal};
    if !task.impossible_goal.is_empty() {
        return Vec::new();
    }
    let mut literals: Vec<ImpossibleLiteral> = relaxed_unreachable_goal(task)
        .into_iter()
        .filter_map(|literal| match literal {
            GoalLiteral::Fact { fact, positive } => {
                let atom = &task.facts[fact as usize];
                // The grounder's own facts name nothing in the files.
                (!atom.is_grounder_own()).then(|| ImpossibleLiteral::Atom {
                    atom: atom.clone(),
                    positive,
                })
            }
            GoalLiteral::Comparison(condition) => Some(ImpossibleLiteral::Comparison(format!(
                "({} {} {})",
                condition.op.symbol(),
                pddl_ground::dump::expr(task, &condition.lhs),
                pddl_ground::dump::expr(task, &condition.rhs)
            ))),
        })
        .collect();
    if !literals.is_empty() {
        for literal in &task.dropped_goal_literals {
            if !literals.contains(literal) {
                literals.push(literal.clone());
            }
        }
    }
    literals
}

/// The goal literals named as the reason a task proven unsolvable has no
/// plan: those grounding found can never hold ([`Task::impossible_goal`]),
/// else those out of the relaxation's reach ([`out_of_reach_goal`]);
/// empty where neither names any.
pub fn unsolvable_goal_literals(task: &Task) -> Vec<ImpossibleLiteral> {
    if task.impossible_goal.is_empty() {
        out_of_reach_goal(task)
    } else {
        task.impossible_goal.clone()
    }
}

/// Why a task proven unsolvable is so from the start, where the delete
/// relaxation with numeric conditions tells ([`out_of_reach_goal`]):
/// "from the initial state, even ignoring delete effects, nothing makes
/// `(at home)` true, nor `(>= (fuel) 1)` true", naming the first few
/// literals out of its reach; `None` where there are none.
pub fn unreachable_goal_reason(task: &Task) -> Option<String> {
    let literals = out_of_reach_goal(task);
    (!literals.is_empty()).then(|| {
        format!(
            "from the initial state, even ignoring delete effects, nothing makes {}",
            name_literals(&literals, "")
        )
    })
}

/// The note for operators grounding left out because they change one
/// numeric value twice ([`Task::double_updates`]), which may be why a
/// task has no plan; `None` where there were none.
pub fn double_updates_note(task: &Task) -> Option<String> {
    let dropped = &task.double_updates;
    let (operator, fluent) = dropped.example.as_ref()?;
    Some(match dropped.dropped {
        0 | 1 => format!(
            "`{operator}` was left out: it changes `{fluent}` twice in one step, which PDDL 2.1 \
             leaves undefined"
        ),
        n => format!(
            "`{operator}` and {} were left out: each changes a numeric value twice in one step \
             (`{operator}` changes `{fluent}`), which PDDL 2.1 leaves undefined",
            match n - 1 {
                1 => "1 other operator".to_string(),
                others => format!("{others} other operators"),
            }
        ),
    })
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
