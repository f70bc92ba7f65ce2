//! The first search: hill-climbing where the configured search takes long
//! and the options ask for it ([`SearchOptions::hill_climbing_after`]), in
//! turns when they ask for fallbacks ([`SearchOptions::landmark_fallback`],
//! [`SearchOptions::novelty_fallback`]),
//! and the second thread that runs the last turn beside the first ones
//! ([`SearchOptions::background_last_turn`]).
//!
//! Running the last turn early changes only when its plan arrives: its
//! search is the one it would run after the first turns (its own state
//! space, heuristics and statistics), a plan of the first turns still
//! wins, and the counts reported are those of the turns one after the
//! other. So results stay deterministic.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::thread::{self, ScopedJoinHandle};
use std::time::{Duration, Instant};

use pddl_ground::Task;

use crate::heuristics::CostType;
use crate::options::{
    HILL_CLIMBING_EVALUATIONS, HILL_CLIMBING_EVALUATIONS_PER_IMPROVEMENT,
    LANDMARK_PROBE_EVALUATIONS,
};
use crate::search_algorithms::hill_climbing::{self, Climb};
use crate::search_algorithms::{IterationResult, MemoryShare, Monitor, available_cores};
use crate::successor::StateSpace;
use crate::{
    Engine, FOLLOW_FORCED, HeuristicKind, Outcome, Progress, SearchObserver, SearchOptions,
    Statistics, create_heuristic, has_numeric_conditions, run_engine, search_space,
};

/// The first search: the configured search gets
/// [`SearchOptions::fallback_evaluations`]; without a plan by then, with
/// `landmark_fallback` (greedy search with h_FF on a task without numeric
/// conditions) greedy search with h_FF and landmark count
/// ([`HeuristicKind::Lama`]) gets as many; without a plan from that
/// either, the last turn runs without a budget: greedy search with
/// novelty ([`SearchOptions::novelty_fallback`]) or else the configured
/// search again. Tasks solved within the first budget are solved exactly
/// as without fallbacks.
pub(crate) fn first_search(
    space: &mut StateSpace<'_>,
    options: &SearchOptions,
    monitor: &mut Monitor<'_>,
) -> FirstSearch {
    if let Some(decided) = climb(space, options, monitor) {
        return decided;
    }
    let Some(Turns { first, last }) = Turns::plan(space.task, options) else {
        return FirstSearch::of_turn(monitor, |monitor| run_engine(space, options, monitor));
    };
    if let Some(delay) = options.background_last_turn {
        // The second core goes to the last turn; the first turns evaluate
        // on it only once the last turn has ended (its plan waiting).
        let last = SearchOptions {
            parallel_evaluation: None,
            ..last
        };
        return with_background_last_turn(space, &first, &last, delay, options, monitor);
    }
    if let Some(decided) = run_first_turns(space, &first, options.fallback_evaluations, monitor) {
        return decided;
    }
    monitor.reset_iteration();
    FirstSearch::of_turn(monitor, |monitor| run_engine(space, &last, monitor))
}

/// The configured search for [`SearchOptions::hill_climbing_after`]
/// evaluations, then hill-climbing (greedy search with a heuristic that
/// has preferred operators), then, where the climb is stuck or has spent
/// [`HILL_CLIMBING_EVALUATIONS`] (and the
/// [`HILL_CLIMBING_EVALUATIONS_PER_IMPROVEMENT`] it earned), the
/// [`landmark_probe`]: ends the first search where one of them finds a
/// plan or a limit or the caller stops it; `None` when none decides,
/// leaving the task to the turns.
fn climb(
    space: &mut StateSpace<'_>,
    options: &SearchOptions,
    monitor: &mut Monitor<'_>,
) -> Option<FirstSearch> {
    let greedy = matches!(options.engine, Engine::LazyGreedy | Engine::EagerGreedy);
    let after = options.hill_climbing_after?;
    // Checked before the configured search's evaluations are spent: the
    // climb follows preferred operators.
    if !(greedy && options.preferred_operators && options.heuristic.gives_preferred_operators()) {
        return None;
    }
    let start = monitor.stats.evaluated;
    if after > 0 {
        let (decided, budget_spent) = with_budget(monitor, after, |monitor| {
            FirstSearch::of_turn(monitor, |monitor| run_engine(space, options, monitor))
        });
        if decided.result.plan.is_some() || !budget_spent {
            return Some(decided);
        }
        monitor.reset_iteration();
    }
    // Costs ignored, as in the greedy turns.
    let mut h = create_heuristic(options.heuristic, space.task, CostType::Unit, None, monitor);
    debug_assert!(h.has_preferred_operators());
    let climb_start = monitor.stats.evaluated;
    let (climb, budget_spent) = with_budget(monitor, HILL_CLIMBING_EVALUATIONS, |monitor| {
        hill_climbing::run(
            space,
            h.as_mut(),
            FOLLOW_FORCED,
            HILL_CLIMBING_EVALUATIONS_PER_IMPROVEMENT,
            monitor,
        )
    });
    monitor.reset_iteration();
    match climb {
        Climb::Ended(result) if result.plan.is_some() || !budget_spent => {
            // The configured search evaluates a state with each of its
            // heuristics (h_FF and goal count), the climb with h_FF alone.
            let per_state = 1 + u64::from(options.goal_count_alternation);
            let climbed = monitor.stats.evaluated - climb_start;
            Some(FirstSearch {
                result,
                deciding_turn_evaluated: climb_start - start + per_state * climbed,
            })
        }
        _ => landmark_probe(space, options, monitor),
    }
}

/// The configured search with landmark count in place of h_FF, for
/// [`LANDMARK_PROBE_EVALUATIONS`], where the landmark turn would apply
/// (see [`landmarks_apply`]): ends the first search where it finds a plan
/// or a limit or the caller stops it; `None` when it spends its budget or
/// calls the task unsolvable (landmark count's dead ends are not trusted
/// as a proof), leaving the task to the turns. Where the relaxed plans
/// of h_FF lead greedy search astray for long, landmarks often go
/// straight to a plan (depot p04: 474 evaluations, where lazy greedy
/// search with h_FF needs about 8 000 and the climb gets stuck); where
/// they do not, the probe costs its landmark graph and evaluations
/// (visitall problem48: 0.29 s of 1.66 s, most of it finding landmarks).
fn landmark_probe(
    space: &mut StateSpace<'_>,
    options: &SearchOptions,
    monitor: &mut Monitor<'_>,
) -> Option<FirstSearch> {
    if !landmarks_apply(space.task, options) {
        return None;
    }
    let probe = SearchOptions {
        heuristic: HeuristicKind::LmCount,
        ..options.clone()
    };
    let (decided, budget_spent) = with_budget(monitor, LANDMARK_PROBE_EVALUATIONS, |monitor| {
        FirstSearch::of_turn(monitor, |monitor| run_engine(space, &probe, monitor))
    });
    monitor.reset_iteration();
    ends_first_search(&decided.result, budget_spent, false).then_some(decided)
}

/// Whether a budgeted turn's `result` ends the first search: a plan, a
/// limit or the caller's stop, but not its budget spent (`budget_spent`),
/// nor a search space exhausted by a turn whose dead ends are not trusted
/// as a proof (`trusted_dead_ends` false: landmark count's).
fn ends_first_search(
    result: &IterationResult,
    budget_spent: bool,
    trusted_dead_ends: bool,
) -> bool {
    match result.outcome {
        _ if result.plan.is_some() => true,
        Outcome::Unsolvable => trusted_dead_ends,
        Outcome::TimeLimit => !budget_spent,
        _ => true,
    }
}

/// Whether landmark count may stand in for h_FF on `task` (the landmark
/// turn and the landmark probe): greedy search with h_FF and the
/// landmark fallback, on a task without numeric conditions, which
/// landmarks ignore.
fn landmarks_apply(task: &Task, options: &SearchOptions) -> bool {
    let greedy = matches!(options.engine, Engine::LazyGreedy | Engine::EagerGreedy);
    options.landmark_fallback
        && options.heuristic == HeuristicKind::HFF
        && greedy
        && !has_numeric_conditions(task)
}

/// Runs `search` with `budget` more heuristic evaluations; returns its
/// result and whether the budget stopped it.
pub(crate) fn with_budget<T>(
    monitor: &mut Monitor<'_>,
    budget: u64,
    search: impl FnOnce(&mut Monitor<'_>) -> T,
) -> (T, bool) {
    monitor.set_evaluation_budget(Some(monitor.stats.evaluated.saturating_add(budget)));
    let result = search(monitor);
    let spent = monitor.evaluation_budget_spent();
    monitor.set_evaluation_budget(None);
    (result, spent)
}

/// How the first search ended.
pub(crate) struct FirstSearch {
    /// Its result: the first plan, or why there is none.
    pub result: IterationResult,
    /// The states evaluated by the turn that ended it (the one that found
    /// the plan), not by the turns that spent their budgets before it.
    pub deciding_turn_evaluated: u64,
}

impl FirstSearch {
    /// Runs one turn on `monitor`, counting its evaluations.
    fn of_turn(
        monitor: &mut Monitor<'_>,
        turn: impl FnOnce(&mut Monitor<'_>) -> IterationResult,
    ) -> FirstSearch {
        let before = monitor.stats.evaluated;
        let result = turn(monitor);
        FirstSearch {
            result,
            deciding_turn_evaluated: monitor.stats.evaluated - before,
        }
    }
}

/// The configurations of the turns.
struct Turns {
    /// Turns with a budget each, in order.
    first: Vec<SearchOptions>,
    /// The unbudgeted last turn.
    last: SearchOptions,
}

impl Turns {
    /// The turns the options ask for on `task`; `None` for a single search.
    fn plan(task: &Task, options: &SearchOptions) -> Option<Turns> {
        let greedy = matches!(options.engine, Engine::LazyGreedy | Engine::EagerGreedy);
        // Landmarks and h² both ignore numeric conditions.
        let numeric = has_numeric_conditions(task);
        let mut first = vec![options.clone()];
        if landmarks_apply(task, options) {
            first.push(SearchOptions {
                heuristic: HeuristicKind::Lama,
                ..options.clone()
            });
        }
        // Never after an engine that proves optimality, nor after greedy
        // search that has novelty already.
        let novelty_applies = options.novelty_fallback
            && match options.engine {
                Engine::LazyGreedy | Engine::EagerGreedy => !options.novelty,
                Engine::WeightedAStar => true,
                Engine::AStar | Engine::BreadthFirst => false,
            };
        let last = if novelty_applies {
            SearchOptions {
                engine: if greedy {
                    options.engine
                } else {
                    Engine::EagerGreedy
                },
                novelty: true,
                dead_end_traps: options.dead_end_traps
                    || (options.last_turn_dead_end_traps && !numeric),
                ..options.clone()
            }
        } else if first.len() > 1 {
            options.clone()
        } else {
            return None;
        };
        Some(Turns { first, last })
    }
}

/// Runs the budgeted turns; returns the result that ends the search, or
/// `None` when every turn spent its budget without one.
fn run_first_turns(
    space: &mut StateSpace<'_>,
    turns: &[SearchOptions],
    budget: u64,
    monitor: &mut Monitor<'_>,
) -> Option<FirstSearch> {
    for (turn, turn_options) in turns.iter().enumerate() {
        monitor.reset_iteration();
        let (decided, budget_spent) = with_budget(monitor, budget, |monitor| {
            FirstSearch::of_turn(monitor, |monitor| run_engine(space, turn_options, monitor))
        });
        // Only the configured search's dead ends are trusted as a proof
        // (landmark count's are not).
        if ends_first_search(&decided.result, budget_spent, turn == 0) {
            return Some(decided);
        }
    }
    None
}

/// Progress reports the background search may have waiting before newer
/// ones are dropped (they are forwarded once the first turns end).
pub(crate) const PROGRESS_BACKLOG: usize = 16;
/// How often the caller's cancellation flag is looked at while waiting
/// for the background search.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// What the background search returns.
struct BackgroundOutcome {
    result: IterationResult,
    stats: Statistics,
    /// Whether the memory limit stopped it while the first turns' memory
    /// counted too.
    shared_memory_limit: bool,
}

/// [`first_search`] with the last turn on a second thread, started once
/// the first turns have run for `delay` (or as soon as they end without a
/// plan); on a single core, the turns one after the other.
fn with_background_last_turn(
    space: &mut StateSpace<'_>,
    first: &[SearchOptions],
    last: &SearchOptions,
    delay: Duration,
    options: &SearchOptions,
    monitor: &mut Monitor<'_>,
) -> FirstSearch {
    let task = space.task;
    let stop = AtomicBool::new(false);
    // Set from the start, cleared when the background search ends (left
    // set if it never starts: then there is no second core to use).
    let background_running = AtomicBool::new(true);
    let (foreground_share, background_share) = MemoryShare::pair();
    let (sender, progress) = sync_channel(PROGRESS_BACKLOG);
    let deadline = monitor.deadline();
    let memory_limit = options.memory_limit_bytes;
    thread::scope(|scope| {
        // However this closure ends (a panic included), the background
        // search stops, so that the scope's join cannot wait for it long.
        let _stop = StopOnDrop(&stop);
        let background: RefCell<Option<ScopedJoinHandle<'_, BackgroundOutcome>>> =
            RefCell::new(None);
        let launch = || {
            if available_cores() < 2 {
                return;
            }
            let search = || {
                let mut space = search_space(task, options);
                let mut observer = ProgressSender(sender);
                let mut monitor = background_monitor(
                    deadline,
                    memory_limit,
                    background_share,
                    &stop,
                    &mut observer,
                );
                let result = run_engine(&mut space, last, &mut monitor);
                background_running.store(false, Ordering::Release);
                monitor.release_shared_memory();
                BackgroundOutcome {
                    shared_memory_limit: monitor.memory_limit_shared(),
                    result,
                    stats: monitor.stats,
                }
            };
            // Named, so that profilers and debuggers show which search it
            // is. Without a thread, the last turn runs after the first ones.
            let builder = thread::Builder::new().name("last-turn".into());
            if let Ok(handle) = builder.spawn_scoped(scope, search) {
                *background.borrow_mut() = Some(handle);
            }
        };
        let (decided, first_turns_memory_limit) = {
            let mut part = monitor.part();
            part.share_memory(Some(foreground_share));
            part.share_second_core(Some(&background_running));
            part.set_alarm(delay, Box::new(launch));
            let decided = run_first_turns(space, first, options.fallback_evaluations, &mut part);
            part.release_shared_memory();
            part.share_memory(None);
            if decided.is_none()
                && let Some(launch_now) = part.take_alarm()
            {
                launch_now();
            }
            // A memory limit reached with the background's memory
            // counted is not the first turns' own: then the background
            // search has the last word.
            let shared_memory_limit = part.memory_limit_shared();
            let counters = part.counters();
            drop(part);
            monitor.resume_with(counters);
            (decided, shared_memory_limit)
        };
        let background = background.into_inner();
        let last_turn_alone = |space: &mut StateSpace<'_>, monitor: &mut Monitor<'_>| {
            monitor.reset_iteration();
            FirstSearch::of_turn(monitor, |monitor| run_engine(space, last, monitor))
        };
        let background_decides = |monitor: &mut Monitor<'_>, outcome: BackgroundOutcome| {
            monitor.stats.absorb(&outcome.stats);
            FirstSearch {
                result: outcome.result,
                deciding_turn_evaluated: outcome.stats.evaluated,
            }
        };
        let Some(background) = background else {
            if let Some(decided) = decided {
                return decided;
            }
            return last_turn_alone(space, monitor);
        };
        if let Some(decided) = decided.filter(|_| !first_turns_memory_limit) {
            // Stopped by the clock or the caller without a plan: a plan
            // the background search has already found is better than none
            // (where these stop a search depends on timing anyway).
            let stopped = decided.result.plan.is_none()
                && matches!(
                    decided.result.outcome,
                    Outcome::TimeLimit | Outcome::Cancelled
                );
            let finished = background.is_finished();
            stop.store(true, Ordering::Relaxed);
            let outcome = join(background);
            if stopped && finished && outcome.result.plan.is_some() {
                return background_decides(monitor, outcome);
            }
            return decided;
        }
        monitor.reset_iteration();
        forward_progress(&progress, &stop, monitor);
        let outcome = join(background);
        if outcome.shared_memory_limit {
            // Stopped with the first turns' memory beside it: run it
            // alone, as it would have run after them.
            return last_turn_alone(space, monitor);
        }
        background_decides(monitor, outcome)
    })
}

/// Raises a stop flag when dropped.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Joins the background thread, passing on its panic.
pub(crate) fn join<T>(handle: thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Passes the background search's progress to the caller's observer, its
/// counts after the first turns', until the background thread ends;
/// stops it when the caller cancels.
pub(crate) fn forward_progress(
    progress: &Receiver<Progress>,
    stop: &AtomicBool,
    monitor: &mut Monitor<'_>,
) {
    let before = monitor.stats.clone();
    loop {
        match progress.recv_timeout(CANCEL_POLL) {
            Ok(report) => {
                let report = Progress {
                    expanded: before.expanded + report.expanded,
                    generated: before.generated + report.generated,
                    evaluated: before.evaluated + report.evaluated,
                    elapsed: monitor.elapsed(),
                    ..report
                };
                monitor.observer.on_progress(&report);
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        if monitor.cancelled() {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// The monitor of a search on another thread, beside the caller's: until
/// the same `deadline`, its memory counted with the caller's search's
/// through `share`, stopped by `stop`.
pub(crate) fn background_monitor<'a>(
    deadline: Option<Instant>,
    memory_limit: Option<u64>,
    share: MemoryShare,
    stop: &'a AtomicBool,
    observer: &'a mut ProgressSender,
) -> Monitor<'a> {
    let time_limit = deadline.map(|d| d.saturating_duration_since(Instant::now()));
    let mut monitor = Monitor::new(time_limit, memory_limit, stop, observer);
    monitor.share_memory(Some(share));
    monitor
}

/// The background search's observer: its progress goes to the
/// foreground thread (dropped while the backlog is full).
pub(crate) struct ProgressSender(pub(crate) SyncSender<Progress>);

impl SearchObserver for ProgressSender {
    fn on_progress(&mut self, progress: &Progress) {
        // Progress is advisory: a full backlog drops the report, and the
        // receiver is gone only once the result is in.
        let _ = self.0.try_send(progress.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{TaskBuilder, gripper};
    use pddl_ground::task::Comparison;

    /// Whether the default's last turn on `task` learns dead-end traps.
    fn last_turn_traps(task: &Task, options: &SearchOptions) -> bool {
        let turns = Turns::plan(task, options).expect("the default has turns");
        assert!(turns.last.novelty, "the last turn is the novelty turn");
        assert!(
            turns.first.iter().all(|turn| !turn.dead_end_traps),
            "the budgeted turns run without traps"
        );
        turns.last.dead_end_traps
    }

    #[test]
    fn the_last_turn_learns_traps_on_tasks_without_numeric_conditions() {
        let default = SearchOptions::satisficing_default();
        assert!(last_turn_traps(&gripper(2), &default));
        let without = SearchOptions {
            last_turn_dead_end_traps: false,
            ..default.clone()
        };
        assert!(!last_turn_traps(&gripper(2), &without));
        // h² ignores numeric conditions: no traps where there are some.
        let mut numeric = TaskBuilder::new(1);
        let fuel = numeric.fluent(1.0);
        let go = numeric.op("go", &[], &[0], &[]);
        numeric.num_pre(go, fuel, Comparison::GreaterEqual, 1.0);
        assert!(!last_turn_traps(&numeric.build(&[], &[0]), &default));
    }
}
