//! Search algorithms and what they share: search nodes, plan extraction,
//! and the [`Monitor`] that enforces limits and reports progress.

pub mod breadth_first;
pub mod eager;
pub mod hill_climbing;
pub mod lazy;
pub mod parallel_evaluation;

use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use pddl_ground::Task;
use pddl_ground::task::{Cost, OperatorId};

use crate::heuristics::Heuristic;
use crate::open_lists::Key;
use crate::result::{Outcome, Plan, Progress, ProgressReason, SearchObserver, Statistics};
use crate::state::{StateId, StateRegistry};
use crate::successor::{Forced, StateSpace};

/// What the open list of an eager or lazy search is ordered by.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Priority {
    /// `g + h`, then `h` (A*).
    AStar,
    /// `g + w·h`, then `h` (weighted A*, `w ≥ 1`).
    Weighted(f64),
    /// `h` (greedy best-first).
    Greedy,
}

impl Priority {
    /// The open-list key of a state with path cost `g` and estimate `h`.
    #[inline]
    pub(crate) fn key(self, g: Cost, h: Cost) -> Key {
        match self {
            Priority::AStar => [g.saturating_add(h), h],
            // Non-negative f64 values order like their bit patterns.
            Priority::Weighted(w) => [(g as f64 + w * h as f64).to_bits(), h],
            Priority::Greedy => [h, 0],
        }
    }

    /// Whether the keys of a search of `task` take few distinct values,
    /// so that a queue per key holds the open list in less memory than a
    /// heap ([`crate::open_lists::KeyOrderedOpenList`]): greedy search's
    /// `h` always, A*'s and weighted A*'s `f` where operators cost 0 or 1.
    pub(crate) fn few_key_values(self, task: &Task) -> bool {
        self == Priority::Greedy || crate::costs_are_zero_or_one(task)
    }
}

/// The cores this process may use (looked up once: the lookup reads
/// cgroup files, which costs about as much as a small search).
pub(crate) fn available_cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Parent pointer of the initial state.
pub const NO_PARENT: StateId = StateId::MAX;

/// Status of a search node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// In the open list.
    Open,
    /// Expanded.
    Closed,
    /// The heuristic recognised a dead end.
    DeadEnd,
}

/// Search information of a registered state (indexed by its id).
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The state it was reached from ([`NO_PARENT`] for the initial state).
    pub parent: StateId,
    /// The operator that reached it.
    pub op: OperatorId,
    /// Cost of the best known path.
    pub g: Cost,
    /// Heuristic value.
    pub h: Cost,
    /// Where it is in the search.
    pub status: Status,
}

/// The plan ending in `goal`, following parent pointers. Each step is the
/// node's operator followed by the forced transitions the search skipped
/// ([`StateSpace::follow_forced`]).
///
/// The plan is replayed from the initial state. With symmetry reduction a
/// node's registered state may be another member of the orbit its parent
/// pointer reached, so where the node's operator does not lead to its
/// orbit, the step is the cheapest operator that does (one exists: the
/// image of the node's operator under the permutation between the two).
pub fn extract_plan(
    space: &mut StateSpace<'_>,
    registry: &mut StateRegistry,
    nodes: &[Node],
    goal: StateId,
) -> Plan {
    let mut path = Vec::new();
    let mut s = goal;
    // A parent chain visits each state at most once.
    while nodes[s as usize].parent != NO_PARENT && path.len() <= nodes.len() {
        path.push(s);
        s = nodes[s as usize].parent;
    }
    let mut state = Vec::new();
    registry.load(s, &mut state);
    let mut operators = Vec::with_capacity(path.len());
    let mut candidates = Vec::new();
    let symmetric = registry.reduces_symmetry();
    for &child in path.iter().rev() {
        let start = operators.len();
        // The steps from `state` to `child`'s orbit through `op`, if any.
        let mut step = |space: &mut StateSpace<'_>, op, operators: &mut Vec<OperatorId>| {
            operators.truncate(start);
            space.forced_path(
                &state,
                op,
                |s| registry.is_registered_as(child, s),
                operators,
            )
        };
        let mut reached = step(space, nodes[child as usize].op, &mut operators);
        if reached.is_none() && symmetric {
            space.applicable(&state, &mut candidates);
            candidates.sort_by_key(|&o| space.task.operators[o as usize].cost);
            reached = candidates
                .iter()
                .find_map(|&op| step(space, op, &mut operators));
        }
        debug_assert!(reached.is_some(), "a search node's path does not reach it");
        if let Some(next) = reached {
            state = next;
        }
    }
    Plan::new(space.task, operators)
}

/// A registry for a search of `space` with `heuristics`: deduplicating
/// orbits when the space reduces symmetry, unless a heuristic is
/// path-dependent (its per-state data would mix the orbit's members).
pub(crate) fn new_registry(
    space: &StateSpace<'_>,
    heuristics: &[&mut dyn Heuristic],
) -> StateRegistry {
    let symmetry = space
        .symmetry()
        .filter(|_| !heuristics.iter().any(|h| h.is_path_dependent()));
    StateRegistry::for_search(
        space.layout.words(),
        symmetry.cloned(),
        space.packing().cloned(),
    )
}

/// Whether an engine asked to skip forced transitions does: only where the
/// task has exclusive operators and no heuristic is path-dependent (those
/// must see every transition).
pub(crate) fn skips_forced(
    requested: bool,
    space: &StateSpace<'_>,
    heuristics: &[&mut dyn Heuristic],
) -> bool {
    requested && space.has_forced_transitions() && !heuristics.iter().any(|h| h.is_path_dependent())
}

/// The cost at which the search goes on from the generated successor
/// `succ`, reached at cost `g` (below `bound`): with `skip_forced`, `succ`
/// becomes the end of its forced chain ([`StateSpace::follow_forced`]) and
/// the chain's cost is added. `None` when that is a dead end or reaches
/// `bound`.
pub(crate) fn settle_successor(
    space: &mut StateSpace<'_>,
    succ: &mut Vec<u64>,
    g: Cost,
    bound: Cost,
    skip_forced: bool,
) -> Option<Cost> {
    if !skip_forced {
        return Some(g);
    }
    match space.follow_forced(succ) {
        Forced::DeadEnd => None,
        Forced::Reached { cost, .. } => Some(g.saturating_add(cost)).filter(|&g| g < bound),
    }
}

/// Estimated bytes of a search's data: registered states, search nodes,
/// the open list (`open_bytes`) and the heuristics' per-state data.
pub fn memory_estimate(
    registry: &StateRegistry,
    nodes: &[Node],
    open_bytes: u64,
    heuristics: &[&mut dyn Heuristic],
) -> u64 {
    registry.memory_bytes()
        + std::mem::size_of_val(nodes) as u64
        + open_bytes
        + heuristics.iter().map(|h| h.memory_bytes()).sum::<u64>()
}

/// Most expansions between two checks of the limits.
const CHECK_INTERVAL: u32 = 1024;
/// The check interval adapts so that checks come about this often: an
/// expansion can take from a microsecond (blind search) to many
/// milliseconds (LM-cut on a large task), and the time limit must hold
/// in both cases.
const CHECK_PERIOD: Duration = Duration::from_millis(10);

/// Evaluations within an expansion between two reads of the clock
/// ([`Monitor::stop_within_expansion`]) where evaluations are fast: a
/// read costs nothing next to this many.
const EVALUATIONS_PER_CLOCK_READ: u32 = 16;
/// Evaluations that take this long on average are each preceded by a
/// read of the clock, which costs a few hundredths of a microsecond.
const SLOW_EVALUATION: Duration = Duration::from_micros(10);

/// Enforces the time and memory limits and the cancellation flag, keeps
/// the statistics and sends progress reports.
pub struct Monitor<'a> {
    start: Instant,
    time_limit: Option<Duration>,
    memory_limit: Option<u64>,
    cancel: &'a AtomicBool,
    /// Where reports go.
    pub observer: &'a mut dyn SearchObserver,
    countdown: u32,
    interval: u32,
    last_check: Instant,
    last_report: Instant,
    /// Counters.
    pub stats: Statistics,
    /// Lowest h seen in the current iteration.
    pub best_h: Option<Cost>,
    /// Current f layer.
    pub best_f: Option<Cost>,
    /// Whether the current iteration's h estimates costs rather than
    /// steps ([`Progress::h_counts_costs`]).
    h_counts_costs: bool,
    states: u64,
    memory: u64,
    evaluation_budget: Option<u64>,
    memory_share: Option<MemoryShare>,
    /// Whether the memory limit was reached with another search's memory
    /// counted (see [`MemoryShare`]).
    memory_limit_shared: bool,
    alarm: Option<Alarm<'a>>,
    /// Set while another search of the process holds the second core.
    second_core_taken: Option<&'a AtomicBool>,
    /// Calls of [`Monitor::stop_within_expansion`] left before it reads
    /// the clock.
    evaluations_to_clock_read: Cell<u32>,
    /// 1 or [`EVALUATIONS_PER_CLOCK_READ`], set at each check from the
    /// average evaluation time so far.
    evaluations_per_clock_read: u32,
}

/// A monitor's counters (see [`Monitor::part`]).
pub(crate) struct Counters {
    stats: Statistics,
    best_h: Option<Cost>,
    best_f: Option<Cost>,
    h_counts_costs: bool,
    states: u64,
    memory: u64,
}

/// Something to do once, at the first check after a point in time.
struct Alarm<'a> {
    /// Time since the monitor's start.
    at: Duration,
    ring: Box<dyn FnOnce() + 'a>,
}

/// The memory estimates of two searches running side by side, so that
/// each checks the memory limit against both together.
#[derive(Clone, Debug)]
pub struct MemoryShare {
    own: Arc<AtomicU64>,
    other: Arc<AtomicU64>,
}

impl MemoryShare {
    /// The two ends of a share: each search publishes to its end and
    /// reads the other's.
    pub fn pair() -> (MemoryShare, MemoryShare) {
        let (a, b) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
        (
            MemoryShare {
                own: a.clone(),
                other: b.clone(),
            },
            MemoryShare { own: b, other: a },
        )
    }

    /// Publishes this side's estimate; returns the other side's.
    fn publish(&self, memory: u64) -> u64 {
        self.own.store(memory, Ordering::Relaxed);
        self.other.load(Ordering::Relaxed)
    }
}

impl<'a> Monitor<'a> {
    /// Starts the clock.
    pub fn new(
        time_limit: Option<Duration>,
        memory_limit: Option<u64>,
        cancel: &'a AtomicBool,
        observer: &'a mut dyn SearchObserver,
    ) -> Self {
        let now = Instant::now();
        Monitor {
            start: now,
            time_limit,
            memory_limit,
            cancel,
            observer,
            countdown: 1,
            interval: 1,
            last_check: now,
            last_report: now,
            stats: Statistics::default(),
            best_h: None,
            best_f: None,
            h_counts_costs: false,
            states: 0,
            memory: 0,
            evaluation_budget: None,
            memory_share: None,
            memory_limit_shared: false,
            alarm: None,
            second_core_taken: None,
            evaluations_to_clock_read: Cell::new(1),
            evaluations_per_clock_read: 1,
        }
    }

    /// A monitor for part of this search: the same clock, limits,
    /// cancellation flag, observer and counters. Its counters come back
    /// with [`Monitor::counters`] and [`Monitor::resume_with`].
    pub(crate) fn part(&mut self) -> Monitor<'_> {
        Monitor {
            start: self.start,
            time_limit: self.time_limit,
            memory_limit: self.memory_limit,
            cancel: self.cancel,
            observer: &mut *self.observer,
            countdown: 1,
            interval: self.interval,
            last_check: self.last_check,
            last_report: self.last_report,
            stats: self.stats.clone(),
            best_h: self.best_h,
            best_f: self.best_f,
            h_counts_costs: self.h_counts_costs,
            states: self.states,
            memory: self.memory,
            evaluation_budget: self.evaluation_budget,
            memory_share: self.memory_share.clone(),
            memory_limit_shared: false,
            alarm: None,
            second_core_taken: self.second_core_taken,
            evaluations_to_clock_read: Cell::new(1),
            evaluations_per_clock_read: self.evaluations_per_clock_read,
        }
    }

    /// The counters, to carry over to another monitor.
    pub(crate) fn counters(&self) -> Counters {
        Counters {
            stats: self.stats.clone(),
            best_h: self.best_h,
            best_f: self.best_f,
            h_counts_costs: self.h_counts_costs,
            states: self.states,
            memory: self.memory,
        }
    }

    /// Goes on with the counters of a monitor made by [`Monitor::part`].
    pub(crate) fn resume_with(&mut self, counters: Counters) {
        self.stats = counters.stats;
        self.best_h = counters.best_h;
        self.best_f = counters.best_f;
        self.h_counts_costs = counters.h_counts_costs;
        self.states = counters.states;
        self.memory = counters.memory;
    }

    /// Calls `ring` once, at the first check of the limits once `after`
    /// has passed since the start (checks come about every
    /// `CHECK_PERIOD` during a search), replacing any earlier alarm.
    pub fn set_alarm(&mut self, after: Duration, ring: Box<dyn FnOnce() + 'a>) {
        self.alarm = Some(Alarm { at: after, ring });
    }

    /// Removes the alarm if it has not rung, returning what it would do.
    pub fn take_alarm(&mut self) -> Option<Box<dyn FnOnce() + 'a>> {
        self.alarm.take().map(|alarm| alarm.ring)
    }

    /// Checks the memory limit against this search's and another's
    /// estimates together from now on (`None`: this search's alone).
    pub fn share_memory(&mut self, share: Option<MemoryShare>) {
        self.memory_share = share;
    }

    /// Tells parallel evaluation that another search holds the second
    /// core while `taken` is set (`None`: no other search).
    pub(crate) fn share_second_core(&mut self, taken: Option<&'a AtomicBool>) {
        self.second_core_taken = taken;
    }

    /// The flag set while another search holds the second core.
    pub(crate) fn second_core_taken(&self) -> Option<&'a AtomicBool> {
        self.second_core_taken
    }

    /// Whether the memory limit stopped the search while another search's
    /// memory counted too (so that alone it might have gone on).
    pub fn memory_limit_shared(&self) -> bool {
        self.memory_limit_shared
    }

    /// Tells the search sharing the memory limit that this one's data is
    /// freed (a search has ended).
    pub fn release_shared_memory(&mut self) {
        if let Some(share) = &self.memory_share {
            share.publish(0);
        }
    }

    /// The time limit, measured from the monitor's start.
    pub fn time_limit(&self) -> Option<Duration> {
        self.time_limit
    }

    /// Replaces the time limit (measured from the monitor's start).
    pub fn set_time_limit(&mut self, time_limit: Option<Duration>) {
        self.time_limit = time_limit;
    }

    /// The instant the time limit runs out, if there is one.
    pub fn deadline(&self) -> Option<Instant> {
        // A limit beyond what the clock can represent is no deadline.
        self.time_limit.and_then(|t| self.start.checked_add(t))
    }

    /// The memory limit in bytes, if any.
    pub fn memory_limit(&self) -> Option<u64> {
        self.memory_limit
    }

    /// A check that says whether the search should stop now (cancelled
    /// or past the deadline), for work outside the engines' own checks:
    /// building a heuristic's tables, the neighbourhood search.
    pub fn stop_check(&self) -> impl Fn() -> bool + Sync + 'a {
        let (cancel, deadline) = (self.cancel, self.deadline());
        move || cancel.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the caller's cancellation flag is raised.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Call once per expansion; every few calls (at most
    /// `CHECK_INTERVAL`, about every `CHECK_PERIOD`) it measures
    /// `(states, memory bytes)` and checks the limits, returning the
    /// outcome to stop with when one is hit.
    #[inline]
    pub fn tick(&mut self, measure: impl FnOnce() -> (usize, u64)) -> Option<Outcome> {
        // Checked on every call, unlike the clock, so that where a budget
        // stops the search does not depend on timing.
        if self
            .evaluation_budget
            .is_some_and(|budget| self.stats.evaluated >= budget)
        {
            return Some(Outcome::TimeLimit);
        }
        self.countdown -= 1;
        if self.countdown > 0 {
            return None;
        }
        let now = Instant::now();
        let since = now.duration_since(self.last_check);
        self.last_check = now;
        if since < CHECK_PERIOD / 2 {
            self.interval = (self.interval * 2).min(CHECK_INTERVAL);
        } else if since > CHECK_PERIOD * 2 {
            self.interval = (self.interval / 2).max(1);
        }
        self.countdown = self.interval;
        self.check(measure())
    }

    /// Call before each evaluation inside an expansion: says whether the
    /// caller's flag or the deadline stops the search now. One expansion
    /// of many successors, each evaluated by an expensive heuristic, can
    /// take seconds (LM-cut on transport p19: 110 ms an evaluation; on
    /// scanalyzer p19 14 ms, 162 successors, 2.2 s, which a time limit of
    /// 0.3 s overran by 2 s), while [`Monitor::tick`] checks between
    /// expansions. Reads the clock before every evaluation where they take
    /// `SLOW_EVALUATION` or more on average, otherwise before every
    /// `EVALUATIONS_PER_CLOCK_READ`-th.
    #[inline]
    pub fn stop_within_expansion(&self) -> Option<Outcome> {
        let left = self.evaluations_to_clock_read.get();
        if left > 1 {
            self.evaluations_to_clock_read.set(left - 1);
            return None;
        }
        self.evaluations_to_clock_read
            .set(self.evaluations_per_clock_read);
        self.stop_now()
    }

    /// Whether the caller's flag ([`Outcome::Cancelled`]) or the deadline
    /// ([`Outcome::TimeLimit`]) stops the search now, reading the clock.
    pub fn stop_now(&self) -> Option<Outcome> {
        if self.cancel.load(Ordering::Relaxed) {
            return Some(Outcome::Cancelled);
        }
        self.time_limit
            .is_some_and(|limit| self.start.elapsed() >= limit)
            .then_some(Outcome::TimeLimit)
    }

    /// Records the current number of states and memory estimate.
    pub fn record(&mut self, states: usize, memory: u64) {
        self.states = states as u64;
        self.memory = memory;
        self.stats.states = self.stats.states.max(self.states);
        self.stats.peak_memory_bytes = self.stats.peak_memory_bytes.max(memory);
    }

    /// Checks the limits now.
    pub fn check(&mut self, (states, memory): (usize, u64)) -> Option<Outcome> {
        self.record(states, memory);
        if self.cancel.load(Ordering::Relaxed) {
            return Some(Outcome::Cancelled);
        }
        let elapsed = self.start.elapsed();
        let slow = elapsed.as_nanos()
            >= SLOW_EVALUATION.as_nanos() * u128::from(self.stats.evaluated.max(1));
        self.evaluations_per_clock_read = if slow { 1 } else { EVALUATIONS_PER_CLOCK_READ };
        if self.time_limit.is_some_and(|t| elapsed >= t) {
            return Some(Outcome::TimeLimit);
        }
        if self.alarm.as_ref().is_some_and(|alarm| elapsed >= alarm.at)
            && let Some(alarm) = self.alarm.take()
        {
            (alarm.ring)();
        }
        let other = self
            .memory_share
            .as_ref()
            .map_or(0, |share| share.publish(memory));
        if self
            .memory_limit
            .is_some_and(|m| memory.saturating_add(other) >= m)
        {
            self.memory_limit_shared = other > 0;
            return Some(Outcome::MemoryLimit);
        }
        if elapsed.saturating_sub(self.last_report.duration_since(self.start))
            >= Duration::from_secs(1)
        {
            self.report(ProgressReason::Periodic);
        }
        None
    }

    /// Sends a progress report.
    pub fn report(&mut self, reason: ProgressReason) {
        self.last_report = Instant::now();
        let progress = Progress {
            expanded: self.stats.expanded,
            generated: self.stats.generated,
            evaluated: self.stats.evaluated,
            best_h: self.best_h,
            best_f: self.best_f,
            h_counts_costs: self.h_counts_costs,
            elapsed: self.start.elapsed(),
            states: self.states,
            memory_bytes: self.memory,
            reason,
        };
        self.observer.on_progress(&progress);
    }

    /// Says what the heuristic values of the search about to start
    /// estimate: costs where its `priority` adds them to path costs (A*,
    /// weighted A*), otherwise steps (greedy search's heuristics count
    /// each operator as 1).
    pub fn start_search(&mut self, priority: Priority) {
        self.h_counts_costs = priority != Priority::Greedy;
    }

    /// Records an evaluation; returns whether `h` is a new best.
    pub fn note_h(&mut self, h: Cost) -> bool {
        if self.best_h.is_none_or(|b| h < b) {
            self.best_h = Some(h);
            self.report(ProgressReason::NewBestH);
            true
        } else {
            false
        }
    }

    /// Records the f value of an expanded state (A*-like searches).
    pub fn note_f(&mut self, f: Cost) {
        if self.best_f.is_none_or(|b| f > b) {
            self.best_f = Some(f);
            self.report(ProgressReason::NewFLayer);
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Stops searches (as if by the time limit) once this many states
    /// have been evaluated in all, or never with `None`.
    pub fn set_evaluation_budget(&mut self, budget: Option<u64>) {
        self.evaluation_budget = budget;
    }

    /// Raises the evaluation budget, if there is one, by `more`.
    pub fn extend_evaluation_budget(&mut self, more: u64) {
        if let Some(budget) = &mut self.evaluation_budget {
            *budget = budget.saturating_add(more);
        }
    }

    /// Whether the evaluation budget (not the time limit) is used up.
    pub fn evaluation_budget_spent(&self) -> bool {
        self.evaluation_budget
            .is_some_and(|budget| self.stats.evaluated >= budget)
    }

    /// Forgets the per-iteration best values (anytime restarts).
    pub fn reset_iteration(&mut self) {
        self.best_h = None;
        self.best_f = None;
    }
}

/// How a single search iteration ended.
#[derive(Debug)]
pub struct IterationResult {
    /// Outcome (`Solved` with a plan).
    pub outcome: Outcome,
    /// The plan, when solved.
    pub plan: Option<Plan>,
}

impl IterationResult {
    /// A stop without plan.
    pub fn stopped(outcome: Outcome) -> Self {
        IterationResult {
            outcome,
            plan: None,
        }
    }
}

#[cfg(test)]
mod tests;
