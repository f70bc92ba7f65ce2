//! Forward state-space search over a ground [`pddl_ground::Task`].
//!
//! Laid out like Fast Downward's `src/search`: [`state`] (packed states
//! and the registry), [`successor`] (match-tree successor generation,
//! effects and axioms), [`heuristics`] (one file per heuristic),
//! [`open_lists`] and [`search_algorithms`]. The entry point is [`search`];
//! it never prints: progress and plans reach the caller through a
//! [`SearchObserver`].

#![warn(missing_docs)]

pub mod heuristics;
pub mod open_lists;
mod options;
mod result;
pub mod search_algorithms;
mod simulate;
pub mod state;
pub mod successor;
#[cfg(test)]
mod testing;

use std::sync::atomic::AtomicBool;

use pddl_ground::Task;
pub use pddl_ground::task::{Cost, OperatorId};

use heuristics::CostType;
use open_lists::{AlternationOpenList, BucketOpenList, TieBreakingOpenList};
pub use options::{Engine, HeuristicKind, SearchOptions, UnknownName};
pub use result::{
    NoObserver, Outcome, Plan, Progress, ProgressReason, SearchObserver, SearchResult, Statistics,
};
use search_algorithms::eager::{EagerParams, Priority};
use search_algorithms::{IterationResult, Monitor, breadth_first, eager, lazy};
pub use simulate::{SimulatedState, SimulationError, metric_value, simulate};
use successor::StateSpace;

/// Weights of the anytime restarts after the first plan; the last one
/// repeats until an iteration exhausts its (cost-bounded) space.
const ANYTIME_WEIGHTS: [f64; 5] = [5.0, 3.0, 2.0, 1.5, 1.0];

/// Searches for a plan. Checks `cancel`, the time limit and the memory
/// limit about every thousand expansions; reports progress and every plan
/// found to `observer`.
pub fn search(
    task: &Task,
    options: &SearchOptions,
    cancel: &AtomicBool,
    observer: &mut dyn SearchObserver,
) -> SearchResult {
    let mut monitor = Monitor::new(
        options.time_limit,
        options.memory_limit_bytes,
        cancel,
        observer,
    );
    let mut space = StateSpace::new(task);
    let first = run_engine(&mut space, options, &mut monitor);
    let mut outcome = first.outcome;
    let mut best = first.plan;
    let mut proven_optimal = best.is_some()
        && match options.engine {
            Engine::AStar => options.heuristic.is_admissible(),
            Engine::BreadthFirst => task.operators.iter().all(|o| o.cost == 1),
            _ => false,
        };
    if let Some(plan) = &best {
        monitor.observer.on_plan(plan);
    }
    if options.anytime {
        let mut weights = ANYTIME_WEIGHTS
            .iter()
            .copied()
            .chain(std::iter::repeat(1.0));
        while let Some(bound) = best.as_ref().map(|p| p.cost).filter(|_| !proven_optimal) {
            let weight = weights.next().unwrap_or(1.0);
            if bound == 0 {
                proven_optimal = true;
                break;
            }
            monitor.reset_iteration();
            let params = astar_params(weight, bound);
            let mut h = heuristics::create(options.heuristic, task, CostType::PlusOne);
            let r = eager::run(
                &mut space,
                &mut [h.as_mut()],
                params,
                TieBreakingOpenList::new(false),
                &mut monitor,
            );
            match r.plan {
                Some(plan) if plan.cost < bound => {
                    monitor.observer.on_plan(&plan);
                    best = Some(plan);
                }
                _ if r.outcome == Outcome::Unsolvable => proven_optimal = true,
                _ => break,
            }
        }
        if best.is_some() {
            outcome = Outcome::Solved;
        }
    }
    let mut statistics = monitor.stats.clone();
    statistics.search_time = monitor.elapsed();
    SearchResult {
        outcome,
        plan: best,
        proven_optimal,
        statistics,
    }
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
    }
}

/// Runs the configured engine once.
fn run_engine(
    space: &mut StateSpace<'_>,
    options: &SearchOptions,
    monitor: &mut Monitor<'_>,
) -> IterationResult {
    let task = space.task;
    let bound = Cost::MAX;
    match options.engine {
        Engine::BreadthFirst => breadth_first::run(space, monitor),
        Engine::AStar | Engine::WeightedAStar => {
            let mut h = heuristics::create(options.heuristic, task, CostType::Real);
            // NaN and weights below 1 mean plain A*.
            let weight = match options.engine {
                Engine::WeightedAStar if options.weight > 1.0 => options.weight,
                _ => 1.0,
            };
            let params = astar_params(weight, bound);
            // Blind A* with costs 0/1: f = g + (0 or min cost) is a small
            // integer, so a bucket queue beats a heap.
            if weight == 1.0
                && options.heuristic == HeuristicKind::Blind
                && task.operators.iter().all(|o| o.cost <= 1)
            {
                eager::run(
                    space,
                    &mut [h.as_mut()],
                    params,
                    BucketOpenList::new(),
                    monitor,
                )
            } else {
                eager::run(
                    space,
                    &mut [h.as_mut()],
                    params,
                    TieBreakingOpenList::new(false),
                    monitor,
                )
            }
        }
        Engine::EagerGreedy | Engine::LazyGreedy => {
            // Greedy search ignores costs (LAMA-first style): plan length
            // guides it better than costs, which can be zero or huge.
            let mut h = heuristics::create(options.heuristic, task, CostType::Unit);
            let preferred = options.preferred_operators && h.has_preferred_operators();
            let mut goal_count = heuristics::goal_count::GoalCount::new(task);
            let mut evaluators: Vec<&mut dyn heuristics::Heuristic> = vec![h.as_mut()];
            if options.goal_count_alternation && options.heuristic != HeuristicKind::GoalCount {
                evaluators.push(&mut goal_count);
            }
            let alternation = preferred || evaluators.len() > 1;
            if options.engine == Engine::EagerGreedy {
                let params = EagerParams {
                    priority: Priority::Greedy,
                    reopen: false,
                    preferred,
                    bound,
                };
                if alternation {
                    let open = AlternationOpenList::new(evaluators.len());
                    eager::run(space, &mut evaluators, params, open, monitor)
                } else {
                    eager::run(
                        space,
                        &mut evaluators,
                        params,
                        TieBreakingOpenList::new(false),
                        monitor,
                    )
                }
            } else if alternation {
                let open = AlternationOpenList::new(evaluators.len());
                lazy::run(space, &mut evaluators, preferred, bound, open, monitor)
            } else {
                lazy::run(
                    space,
                    &mut evaluators,
                    preferred,
                    bound,
                    TieBreakingOpenList::new(false),
                    monitor,
                )
            }
        }
    }
}
