//! Forward state-space search over a ground [`pddl_ground::Task`].
//!
//! Laid out like Fast Downward's `src/search`: [`state`] (packed states
//! and the registry), [`successor`] (match-tree successor generation,
//! effects, axioms and forced transitions), [`symmetry`] (states that
//! differ by a permutation of interchangeable objects as one),
//! [`heuristics`] (one module per heuristic), [`open_lists`] and
//! [`search_algorithms`] (with [`search_algorithms::parallel_evaluation`],
//! which lets A* evaluate states on a second thread); `turns` runs the
//! hill-climbing and the fallback turns of the first search, `restarts`
//! what follows its plan (a lower bound, the optimality probe, the
//! improvement restarts). The entry
//! point is [`search`]; it never prints: progress and plans reach the
//! caller through a [`SearchObserver`].

#![warn(missing_docs)]

pub mod heuristics;
pub mod open_lists;
mod options;
pub mod plan_improvement;
mod restarts;
mod result;
pub mod search_algorithms;
mod simulate;
pub mod state;
pub mod successor;
pub mod symmetry;
#[cfg(test)]
mod testing;
mod turns;
pub mod variables;

use std::sync::atomic::AtomicBool;

use pddl_ground::Task;
use pddl_ground::task::CostModel;
pub use pddl_ground::task::{Cost, OperatorId};

use heuristics::CostType;
use open_lists::{AlternationOpenList, BucketOpenList, KeyOrderedOpenList};
pub use options::{
    BACKGROUND_DELAY, Engine, HILL_CLIMBING_AFTER, HILL_CLIMBING_EVALUATIONS,
    HILL_CLIMBING_EVALUATIONS_PER_IMPROVEMENT, HeuristicKind, LANDMARK_PROBE_EVALUATIONS,
    SearchOptions, UnknownName,
};
pub use result::{
    NoObserver, Outcome, Plan, Progress, ProgressReason, SearchObserver, SearchResult, Statistics,
};
use search_algorithms::eager::{EagerParams, Priority};
use search_algorithms::lazy::LazyParams;
use search_algorithms::parallel_evaluation::with_parallel_evaluation;
use search_algorithms::{IterationResult, Monitor, available_cores, breadth_first, eager, lazy};
pub use simulate::{
    SimulatedState, SimulationError, found_plan_metric_value, metric_value, simulate,
};
use successor::StateSpace;

/// Whether best-first engines skip forced transitions
/// ([`successor::StateSpace::follow_forced`]); breadth-first search does
/// not, since a skipped chain would count as one step of its depth.
const FOLLOW_FORCED: bool = true;

/// Searches for a plan. Checks `cancel`, the time limit and the memory
/// limit about every thousand expansions; reports progress and every plan
/// found to `observer`. With [`SearchOptions::background_last_turn`] the
/// last fallback turn may run on a second thread, and with
/// [`SearchOptions::parallel_evaluation`] A* may evaluate states on one
/// and the eager improvement restarts run on one beside the lazy ones;
/// such threads end before this returns, and `observer` is only called
/// from the caller's thread.
pub fn search(
    task: &Task,
    options: &SearchOptions,
    cancel: &AtomicBool,
    observer: &mut dyn SearchObserver,
) -> SearchResult {
    observer.on_start(task);
    let mut monitor = Monitor::new(
        options.time_limit,
        options.memory_limit_bytes,
        cancel,
        observer,
    );
    let mut space = search_space(task, options);
    let turns::FirstSearch {
        result: first,
        deciding_turn_evaluated,
    } = turns::first_search(&mut space, options, &mut monitor);
    let mut outcome = first.outcome;
    // Every f layer plain A* reached with an admissible heuristic bounds
    // the cost of every plan from below (see `SearchResult::lower_bound`).
    let f_layer_bound = if reaches_admissible_f_layers(options) {
        monitor.best_f
    } else {
        None
    };
    let mut proven_optimal = first.plan.is_some()
        && match options.engine {
            Engine::AStar => options.heuristic.is_admissible(),
            Engine::BreadthFirst => !task.has_general_costs(),
            _ => false,
        };
    let improve = options.improve_plans && !proven_optimal;
    let mut best = first.plan.map(|plan| {
        let stop = monitor.stop_check();
        improve_if(improve, &mut space, plan, monitor.stats.generated, &stop)
    });
    if let Some(plan) = &best {
        monitor.observer.on_plan(task, plan);
    }
    let after = restarts::after_first_plan(
        &mut space,
        options,
        &mut monitor,
        &mut best,
        deciding_turn_evaluated,
        proven_optimal,
    );
    proven_optimal = after.proven_optimal;
    let lower_bound = after.lower_bound;
    if after.restarted {
        outcome = Outcome::Solved;
    }
    if improve
        && !proven_optimal
        && let Some(plan) = &best
    {
        // The last polish: a cheaper plan through the states near it.
        let budget = neighbourhood_budget(monitor.stats.generated, plan.cost, after.gap_bound);
        let stop = monitor.stop_check();
        let runner_up = after
            .runner_up
            .filter(|other| other.operators != plan.operators);
        let explored = after.explored;
        let shorter = match runner_up {
            Some(other) => {
                shorten_near_both(&mut space, options, plan, &other, budget, &stop, explored)
            }
            None => plan_improvement::shorten_through_neighbourhood(
                &mut space, plan, budget, &stop, explored,
            ),
        };
        if shorter.cost < plan.cost {
            monitor.observer.on_plan(task, &shorter);
            best = Some(shorter);
        }
    }
    // Operator costs that do not express the metric prove nothing about it.
    let metric_optimised = !matches!(task.cost_model, CostModel::NotOptimised { .. });
    proven_optimal &= metric_optimised;
    let lower_bound = match &best {
        _ if !metric_optimised || outcome == Outcome::Unsolvable => None,
        Some(plan) if proven_optimal => Some(plan.cost),
        _ => f_layer_bound.max((lower_bound > 0).then_some(lower_bound)),
    };
    let mut statistics = monitor.stats.clone();
    statistics.search_time = monitor.elapsed();
    SearchResult {
        outcome,
        plan: best,
        proven_optimal,
        lower_bound,
        statistics,
    }
}

/// The cheaper of the neighbourhood searches near `best` and near
/// `other` (the runner-up, searched in a state space of its own), each
/// with `budget` operator applications: side by side on a second thread
/// where the budget is worth one and there may be one, one after the
/// other otherwise, with the same result; `best`'s wins a tie. `explored`
/// (see [`plan_improvement::Explored`]) may hold the start of `best`'s.
fn shorten_near_both(
    space: &mut StateSpace<'_>,
    options: &SearchOptions,
    best: &Plan,
    other: &Plan,
    budget: u64,
    stop: &(dyn Fn() -> bool + Sync),
    explored: Option<plan_improvement::Explored>,
) -> Plan {
    let near = |space: &mut StateSpace<'_>, plan: &Plan, explored| {
        plan_improvement::shorten_through_neighbourhood(space, plan, budget, stop, explored)
    };
    let near_other = || near(&mut search_space(space.task, options), other, None);
    let beside = budget >= SIDE_BY_SIDE_NEIGHBOURHOOD_APPLICATIONS && may_use_second_core(options);
    let (near_best, near_other) = if beside {
        std::thread::scope(|scope| {
            let thread = std::thread::Builder::new()
                .name("neighbourhood".into())
                .spawn_scoped(scope, near_other);
            let near_best = near(space, best, explored);
            let near_other = match thread {
                Ok(handle) => turns::join(handle),
                Err(_) => near_other(),
            };
            (near_best, near_other)
        })
    } else {
        (near(space, best, explored), near_other())
    };
    if near_other.cost < near_best.cost {
        near_other
    } else {
        near_best
    }
}

/// Whether `options` allow a second thread and the process has a second
/// core for it.
pub(crate) fn may_use_second_core(options: &SearchOptions) -> bool {
    options.parallel_evaluation.is_some() && available_cores() >= 2
}

/// The state space a search of `task` with `options` runs in: symmetry
/// reduced as the options say, states packed where that pays.
pub(crate) fn search_space<'t>(task: &'t Task, options: &SearchOptions) -> StateSpace<'t> {
    let mut space = StateSpace::new(task);
    space.reduce_symmetry(options.symmetry_reduction);
    space.pack_states(true);
    space
}

/// Whether the configured search is plain A* (weight 1) with an
/// admissible heuristic. With reopening, some state on every optimal path
/// is open with its optimal `g` whenever A* picks the open state of least
/// `f`, so each `f` it picks is at most the optimal cost.
fn reaches_admissible_f_layers(options: &SearchOptions) -> bool {
    astar_weight(options) == Some(1.0) && options.heuristic.is_admissible()
}

/// The weight of `h` in `f` for the A* engines (1 for plain A*; NaN and
/// weights below 1 also mean plain A*); `None` for the other engines.
fn astar_weight(options: &SearchOptions) -> Option<f64> {
    match options.engine {
        Engine::AStar => Some(1.0),
        // An infinite weight becomes the largest finite one, whose product
        // with h = 0 is 0, not NaN (NaN keys would order goals last).
        Engine::WeightedAStar if options.weight > 1.0 => Some(options.weight.min(f64::MAX)),
        Engine::WeightedAStar => Some(1.0),
        _ => None,
    }
}

/// Operator applications that plan improvement may spend at least, and
/// per state generated by the search that found the plan.
const IMPROVEMENT_BASE_BUDGET: u64 = 1_000_000;
const IMPROVEMENT_BUDGET_PER_GENERATED: u64 = 2;
/// Operator applications the neighbourhood search around the final plan
/// may spend per state generated by the searches before it (an
/// application costs about a hundredth of an h_FF evaluation; see
/// `plan_improvement`'s cap on expansions per plan step, tuned with it),
/// unless the plan is close to its bound.
const NEIGHBOURHOOD_BUDGET_PER_GENERATED: u64 = 10;
/// [`NEIGHBOURHOOD_BUDGET_PER_GENERATED`] for a plan that costs less than
/// [`NEIGHBOURHOOD_GAP_PERCENT`] of a known bound, where a cheaper plan
/// rarely exists: 10 there made millisecond runs a tenth slower (rovers
/// p01, 547 states generated: 2.58 → 2.94 ms) for a step off three
/// satellite plans.
const NEAR_BOUND_NEIGHBOURHOOD_BUDGET_PER_GENERATED: u64 = 3;
/// Operator applications the neighbourhood search may spend at least
/// where the final plan costs [`NEIGHBOURHOOD_GAP_PERCENT`] of the
/// initial state's LM-cut value by its original definition (or of the
/// optimality probe's bound) or more. After a short search the budget
/// per generated state is a few thousand applications, too few to reach
/// a shortcut (depot p02: 990 states generated, a plan of 16 where 15 is
/// found with 10 000 applications); this many cost at most about a
/// millisecond. Where the plan is close to its bound (logistics, rovers,
/// satellite) a cheaper one rarely exists, and the floor would only add
/// time to millisecond runs; 100 000 found cheaper plans on more tasks
/// (scanalyzer p09 62 → 54) but made visitall up to 11 % slower.
const NEIGHBOURHOOD_FLOOR_APPLICATIONS: u64 = 20_000;
/// See [`NEIGHBOURHOOD_FLOOR_APPLICATIONS`].
const NEIGHBOURHOOD_GAP_PERCENT: Cost = 140;
/// The neighbourhood search near a runner-up plan runs on a second thread
/// where its budget is at least this many applications (about a
/// millisecond's work): below that, a thread, a second state space and
/// the first reading of the core count cost a noticeable part of it.
const SIDE_BY_SIDE_NEIGHBOURHOOD_APPLICATIONS: u64 = 20_000;

/// The operator applications of the neighbourhood search around a final
/// plan of `cost`, after searches that generated `generated` states, with
/// `gap_bound` the estimate of the optimal cost that the budget's floor
/// compares it with (`AfterFirstPlan::gap_bound`; 0: none).
pub(crate) fn neighbourhood_budget(generated: u64, cost: Cost, gap_bound: Cost) -> u64 {
    let far_from_bound =
        restarts::costs_at_least_percent_of_bound(cost, gap_bound, NEIGHBOURHOOD_GAP_PERCENT);
    let per_generated = if gap_bound > 0 && !far_from_bound {
        NEAR_BOUND_NEIGHBOURHOOD_BUDGET_PER_GENERATED
    } else {
        NEIGHBOURHOOD_BUDGET_PER_GENERATED
    };
    let earned = generated.saturating_mul(per_generated);
    if far_from_bound {
        earned.max(NEIGHBOURHOOD_FLOOR_APPLICATIONS)
    } else {
        earned
    }
}

/// `plan` shortened by [`plan_improvement::improve_plan`] when `improve`
/// holds, within a budget that grows with the search effort so far.
fn improve_if(
    improve: bool,
    space: &mut StateSpace<'_>,
    plan: Plan,
    generated: u64,
    stop: &dyn Fn() -> bool,
) -> Plan {
    if !improve {
        return plan;
    }
    let budget =
        IMPROVEMENT_BASE_BUDGET.max(generated.saturating_mul(IMPROVEMENT_BUDGET_PER_GENERATED));
    plan_improvement::improve_plan(space, &plan, budget, stop)
}

/// Whether every operator costs 0 or 1: then A*'s `f` and `h` are small
/// integers that repeat, which bucket queues make use of.
pub(crate) fn costs_are_zero_or_one(task: &Task) -> bool {
    task.operators.iter().all(|o| o.cost <= 1)
}

/// Whether any precondition, effect condition, axiom body or goal
/// compares numbers.
pub(crate) fn has_numeric_conditions(task: &Task) -> bool {
    task.operators.iter().any(|op| {
        !op.precondition.numeric.is_empty()
            || op
                .conditional
                .iter()
                .any(|ce| !ce.condition.numeric.is_empty())
    }) || task.axioms.iter().any(|ax| !ax.body.numeric.is_empty())
        || !task.goal.numeric.is_empty()
}

/// Eager parameters for (weighted) A*: plain A* for a weight of at most 1,
/// reopening closed states, without preferred operators.
fn astar_params(weight: f64, bound: Cost) -> EagerParams {
    let priority = if weight <= 1.0 {
        Priority::AStar
    } else {
        Priority::Weighted(weight)
    };
    EagerParams {
        priority,
        reopen: true,
        preferred: false,
        bound,
        stop_at_f_bound: false,
        follow_forced: FOLLOW_FORCED,
    }
}

/// Eager search with one heuristic and a tie-breaking open list, its
/// evaluations on two threads where `parallel_evaluation` allows
/// ([`SearchOptions::parallel_evaluation`]) and no other search holds the
/// second core ([`Monitor::second_core_taken`]).
fn eager_one_heuristic(
    space: &mut StateSpace<'_>,
    heuristic: &mut dyn heuristics::Heuristic,
    params: EagerParams,
    parallel_evaluation: Option<u64>,
    monitor: &mut Monitor<'_>,
) -> IterationResult {
    let layout = space.layout.clone();
    let second_core_taken = monitor.second_core_taken();
    with_parallel_evaluation(
        &layout,
        parallel_evaluation,
        second_core_taken,
        heuristic,
        |h, parallel| {
            // Where keys take few values (Puzznic's `[f, h]`), a queue per
            // key holds an entry in 4 bytes instead of 32, popping in the
            // same order.
            let open = KeyOrderedOpenList::new(params.priority.few_key_values(space.task));
            eager::run(space, &mut [h], params, open, monitor, parallel)
        },
    )
}

/// Creates a heuristic whose tables (pattern databases) are built within
/// the search's memory limit, stop at its time limit or cancellation, and
/// use a second core where `parallel_evaluation` allows one.
fn create_heuristic<'t>(
    kind: HeuristicKind,
    task: &'t Task,
    cost_type: CostType,
    parallel_evaluation: Option<u64>,
    monitor: &Monitor<'_>,
) -> Box<dyn heuristics::Heuristic + 't> {
    let stop = monitor.stop_check();
    let resources = heuristics::BuildResources {
        threads: if parallel_evaluation.is_some() { 2 } else { 1 },
        max_bytes: monitor.memory_limit(),
        stop: &stop,
    };
    heuristics::create_with(kind, task, cost_type, resources)
}

/// `h`, wrapped so that learned traps catch dead ends too where the
/// options ask for them ([`SearchOptions::dead_end_traps`]) and the task
/// allows them. The searches on one space share the learner's fixpoint
/// from the initial state ([`StateSpace::fresh_trap_learner`]).
fn with_dead_end_traps<'t>(
    h: Box<dyn heuristics::Heuristic + 't>,
    space: &mut StateSpace<'t>,
    options: &SearchOptions,
    monitor: &Monitor<'_>,
) -> Box<dyn heuristics::Heuristic + 't> {
    if !options.dead_end_traps {
        return h;
    }
    let stop = monitor.stop_check();
    let learner = space.fresh_trap_learner(|task| {
        heuristics::traps::TrapLearner::new(task, heuristics::traps::MAX_WORK, &stop)
    });
    match learner {
        Some(learner) => Box::new(heuristics::traps::TrapLearning::new(h, learner)),
        None => h,
    }
}

/// Runs the configured engine once.
pub(crate) fn run_engine(
    space: &mut StateSpace<'_>,
    options: &SearchOptions,
    monitor: &mut Monitor<'_>,
) -> IterationResult {
    let task = space.task;
    let bound = Cost::MAX;
    match options.engine {
        Engine::BreadthFirst => breadth_first::run(space, monitor),
        Engine::AStar | Engine::WeightedAStar => {
            let h = create_heuristic(
                options.heuristic,
                task,
                CostType::Real,
                options.parallel_evaluation,
                monitor,
            );
            let mut h = with_dead_end_traps(h, space, options, monitor);
            let weight = astar_weight(options).unwrap_or(1.0);
            let params = astar_params(weight, bound);
            // Blind A* with costs 0/1: f = g + (0 or min cost) is a small
            // integer, so a bucket queue beats a heap.
            if weight == 1.0
                && options.heuristic == HeuristicKind::Blind
                && costs_are_zero_or_one(task)
            {
                eager::run(
                    space,
                    &mut [h.as_mut()],
                    params,
                    BucketOpenList::new(),
                    monitor,
                    None,
                )
            } else {
                let parallel = options.parallel_evaluation;
                eager_one_heuristic(space, h.as_mut(), params, parallel, monitor)
            }
        }
        Engine::EagerGreedy | Engine::LazyGreedy => {
            // Greedy search ignores costs (LAMA-first style): plan length
            // guides it better than costs, which can be zero or huge.
            let h = create_heuristic(options.heuristic, task, CostType::Unit, None, monitor);
            let mut h = with_dead_end_traps(h, space, options, monitor);
            let preferred = options.preferred_operators && h.has_preferred_operators();
            let mut goal_count = heuristics::goal_count::GoalCount::new(task);
            // LAMA: landmark count (whose goal part goal count is) in
            // alternation with h_FF, preferred operators from both. Its
            // landmarks ignore numbers, so where conditions are numeric
            // (settlers: no plan in 60 s with it, 1 679 expansions
            // without) goal count, which counts numeric goals, stays.
            let mut lmcount = (options.heuristic == HeuristicKind::Lama
                && !has_numeric_conditions(task))
            .then(|| {
                let stop = monitor.stop_check();
                let limits = heuristics::landmarks::LandmarkLimits::default();
                heuristics::landmarks::lm_count::LmCount::within(task, limits, &stop)
            });
            let mut evaluators: Vec<&mut dyn heuristics::Heuristic> = vec![h.as_mut()];
            if let Some(lmcount) = lmcount.as_mut() {
                evaluators.push(lmcount);
            } else if options.goal_count_alternation
                && options.heuristic != HeuristicKind::GoalCount
            {
                evaluators.push(&mut goal_count);
            }
            let mut novelty = options
                .novelty
                .then(|| heuristics::novelty::Novelty::new(task));
            if let Some(novelty) = novelty.as_mut() {
                evaluators.push(novelty);
            }
            let alternation = preferred || evaluators.len() > 1;
            if options.engine == Engine::EagerGreedy {
                let params = EagerParams {
                    priority: Priority::Greedy,
                    reopen: false,
                    preferred,
                    bound,
                    stop_at_f_bound: false,
                    follow_forced: FOLLOW_FORCED,
                };
                if alternation {
                    let few_key_values = params.priority.few_key_values(task);
                    let open = AlternationOpenList::new(evaluators.len(), few_key_values);
                    eager::run(space, &mut evaluators, params, open, monitor, None)
                } else {
                    // One heuristic, no preferred operators.
                    let parallel = options.parallel_evaluation;
                    eager_one_heuristic(space, &mut *evaluators[0], params, parallel, monitor)
                }
            } else {
                let params = LazyParams {
                    priority: Priority::Greedy,
                    preferred,
                    bound,
                    follow_forced: FOLLOW_FORCED,
                };
                // Greedy search's keys `[h, 0]` take few values: a queue
                // per key holds an entry in 8 bytes instead of 32 (satellite
                // with numbers generates about 300 entries an expansion).
                let few_key_values = params.priority.few_key_values(task);
                if alternation {
                    let open = AlternationOpenList::new(evaluators.len(), few_key_values);
                    lazy::run(space, &mut evaluators, params, open, monitor)
                } else {
                    let open = KeyOrderedOpenList::new(few_key_values);
                    lazy::run(space, &mut evaluators, params, open, monitor)
                }
            }
        }
    }
}
