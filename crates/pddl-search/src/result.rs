//! What a search returns and reports while it runs.

use std::time::Duration;

use pddl_ground::Task;
use pddl_ground::task::{Cost, OperatorId};

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A plan was found (with `anytime`, possibly before the time limit
    /// stopped the search for cheaper ones).
    Solved,
    /// The search space was exhausted without a plan: proven unsolvable
    /// (every engine here is complete).
    Unsolvable,
    /// The time limit was reached before a plan was found.
    TimeLimit,
    /// The memory limit was reached before a plan was found.
    MemoryLimit,
    /// The cancellation flag was raised before a plan was found.
    Cancelled,
}

impl Outcome {
    /// How a report says the search ended: `time limit reached`, `memory
    /// limit reached`, `interrupted`, `solved` or `unsolvable`.
    pub fn description(self) -> &'static str {
        match self {
            Outcome::Solved => "solved",
            Outcome::Unsolvable => "unsolvable",
            Outcome::TimeLimit => "time limit reached",
            Outcome::MemoryLimit => "memory limit reached",
            Outcome::Cancelled => "interrupted",
        }
    }
}

/// A sequential plan.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Plan {
    /// Operators in execution order.
    pub operators: Vec<OperatorId>,
    /// Sum of the operators' costs.
    pub cost: Cost,
}

impl Plan {
    /// The plan of `operators` in `task`, its cost their summed costs.
    pub(crate) fn new(task: &Task, operators: Vec<OperatorId>) -> Plan {
        let cost = operators
            .iter()
            .map(|&o| task.operators[o as usize].cost)
            .fold(0, Cost::saturating_add);
        Plan { operators, cost }
    }
}

/// Counters of a search (summed over anytime iterations).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Statistics {
    /// States expanded.
    pub expanded: u64,
    /// Successor states generated.
    pub generated: u64,
    /// Heuristic evaluations.
    pub evaluated: u64,
    /// Closed states reopened because a cheaper path was found.
    pub reopened: u64,
    /// Distinct states registered (largest iteration).
    pub states: u64,
    /// Wall-clock search time.
    pub search_time: Duration,
    /// Peak estimated bytes of the search's data structures.
    pub peak_memory_bytes: u64,
}

impl Statistics {
    /// Adds the counters of a search that ran after (or beside) this one:
    /// sums of the counts, the larger of the state counts and peaks (each
    /// search frees its data when it ends).
    pub(crate) fn absorb(&mut self, other: &Statistics) {
        self.expanded += other.expanded;
        self.generated += other.generated;
        self.evaluated += other.evaluated;
        self.reopened += other.reopened;
        self.states = self.states.max(other.states);
        self.peak_memory_bytes = self.peak_memory_bytes.max(other.peak_memory_bytes);
    }
}

/// The result of [`crate::search`].
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// How the search ended.
    pub outcome: Outcome,
    /// The best plan found, if any.
    pub plan: Option<Plan>,
    /// Whether `plan` is proven optimal (A* with an admissible heuristic,
    /// breadth-first search on unit costs, or an exhausted anytime
    /// iteration).
    pub proven_optimal: bool,
    /// A cost that no plan is cheaper than, when the search proved one:
    /// the plan's cost when it is proven optimal; otherwise the largest
    /// `f` that plain A* with an admissible heuristic reached (also when a
    /// limit stopped it without a plan), or LM-cut's estimate of the
    /// initial state that plan improvement computes, whichever is larger.
    /// `None` when nothing was proven, for an unsolvable task, and when the
    /// operator costs do not express the metric.
    pub lower_bound: Option<Cost>,
    /// Counters.
    pub statistics: Statistics,
}

/// Why a [`Progress`] report was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProgressReason {
    /// A state with a lower heuristic value than any before was evaluated.
    NewBestH,
    /// A* started expanding states with a larger `f`.
    NewFLayer,
    /// About a second passed since the last periodic report.
    Periodic,
}

/// A snapshot of a running search.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// States expanded so far.
    pub expanded: u64,
    /// Successor states generated so far.
    pub generated: u64,
    /// Heuristic evaluations so far.
    pub evaluated: u64,
    /// Lowest heuristic value seen.
    pub best_h: Option<Cost>,
    /// Current `f` layer (A* and weighted A*), in operator cost units
    /// (see `CostModel::scale`).
    pub best_f: Option<Cost>,
    /// Whether `best_h` estimates costs, in operator cost units (A*,
    /// weighted A*, the improvement restarts, whose heuristic adds one
    /// unit of the metric per operator), rather than plan steps (greedy
    /// search).
    pub h_counts_costs: bool,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Distinct states registered.
    pub states: u64,
    /// Estimated bytes used.
    pub memory_bytes: u64,
    /// Why this report.
    pub reason: ProgressReason,
}

/// Receives reports from a running search; the library itself never prints.
pub trait SearchObserver {
    /// Called once as the search starts, with the task it searches: its
    /// `cost_model` shows the reports' costs in the metric's units
    /// ([`CostModel::display_cost`](pddl_ground::task::CostModel::display_cost)).
    fn on_start(&mut self, task: &Task) {
        let _ = task;
    }
    /// Called on a new best h, a new f layer, and about every second.
    fn on_progress(&mut self, progress: &Progress) {
        let _ = progress;
    }
    /// Called for every plan found (with `anytime`, each cheaper than the
    /// last), with the task searched, whose operators name the plan's
    /// steps (`task.operators[op].plan_line()`), so that an observer can
    /// show or save each plan as it arrives.
    fn on_plan(&mut self, task: &Task, plan: &Plan) {
        let _ = (task, plan);
    }
}

/// An observer that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl SearchObserver for NoObserver {}
