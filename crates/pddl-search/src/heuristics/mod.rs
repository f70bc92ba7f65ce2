//! Heuristics: one module each (a file, or a folder for pattern databases),
//! registered in [`create_with`]; [`cache`] wraps one to remember its
//! values per state (the default's restarts share one so).
//!
//! A heuristic maps a state to an estimate of the cost to the goal, or to
//! `None` for a recognised dead end. Relaxation heuristics share
//! [`relaxation`]; see its docs for how conditional effects, axioms and
//! numeric conditions are treated. [`out_of_reach`] is no heuristic: it
//! uses the relaxation to name the goal literals out of reach from the
//! initial state, to explain an unsolvable task.

pub mod blind;
pub mod cache;
pub mod goal_count;
pub mod h2;
pub mod hadd;
pub mod hff;
pub mod hmax;
pub mod landmarks;
pub mod lmcut;
pub mod novelty;
pub mod numeric;
pub mod out_of_reach;
pub mod pdb;
pub mod relaxation;
pub mod traps;

use pddl_ground::Task;
use pddl_ground::task::{Cost, OperatorId};

use crate::options::HeuristicKind;
use crate::state::{StateId, StateView};
pub use relaxation::CostType;

/// A state evaluator.
pub trait Heuristic {
    /// The estimate for `state`, `None` for a dead end. When `preferred`
    /// is given, heuristics that know preferred operators append them
    /// (possibly including operators not applicable in `state`).
    fn evaluate(
        &mut self,
        state: StateView<'_>,
        preferred: Option<&mut Vec<OperatorId>>,
    ) -> Option<Cost>;

    /// An independent copy for another thread that gives every state the
    /// value this one gives it, for heuristics whose value depends on the
    /// state alone (eager search then evaluates new states on two
    /// threads, [`crate::search_algorithms::parallel_evaluation`]); `None`
    /// for the others (path-dependent or order-dependent heuristics) and
    /// for those too cheap to be worth a thread.
    fn fork(&self) -> Option<Box<dyn Heuristic + Send>> {
        None
    }

    /// Whether [`Heuristic::evaluate`] can produce preferred operators.
    fn has_preferred_operators(&self) -> bool {
        false
    }

    /// Bytes of data the heuristic keeps, per state or in tables (counted
    /// against the memory limit); 0 for stateless heuristics.
    fn memory_bytes(&self) -> u64 {
        0
    }

    /// Evaluates the registered state `id` (whose contents are `state`).
    /// Path-dependent heuristics (landmark count) use what the
    /// notifications below told them about `id`; the others ignore it.
    fn evaluate_registered(
        &mut self,
        _id: StateId,
        state: StateView<'_>,
        preferred: Option<&mut Vec<OperatorId>>,
    ) -> Option<Cost> {
        self.evaluate(state, preferred)
    }

    /// Whether the heuristic's value depends on the path to a state, so
    /// that it must be told of every transition (engines then do not skip
    /// forced transitions).
    fn is_path_dependent(&self) -> bool {
        false
    }

    /// Path-dependent heuristics: the search registered the initial
    /// state as `id` (called before it is evaluated).
    fn notify_initial_state(&mut self, _id: StateId, _state: StateView<'_>) {}

    /// Path-dependent heuristics: the search generated `child` (whose
    /// contents are `state`) from `parent` by `op`; called for every
    /// generated transition, also when `child` was registered before,
    /// and before `child` is evaluated.
    fn notify_transition(
        &mut self,
        _parent: StateId,
        _op: OperatorId,
        _child: StateId,
        _state: StateView<'_>,
    ) {
    }
}

/// What building a heuristic's tables (pattern databases) may use; the
/// tables are the same for any number of threads.
#[derive(Clone, Copy)]
pub struct BuildResources<'a> {
    /// Threads to build on (pattern databases use at most two).
    pub threads: usize,
    /// Bytes the build may hold at once (the search's memory limit);
    /// tables that would need more are left out.
    pub max_bytes: Option<u64>,
    /// Says when to stop building (time limit, cancellation), leaving out
    /// what is not built yet: the search then stops at once anyway.
    pub stop: &'a (dyn Fn() -> bool + Sync),
}

impl BuildResources<'_> {
    /// One thread, no limits.
    pub const UNLIMITED: BuildResources<'static> = BuildResources {
        threads: 1,
        max_bytes: None,
        stop: &|| false,
    };
}

/// Creates a heuristic for a task, seeing operator costs through `cost_type`.
pub fn create(kind: HeuristicKind, task: &Task, cost_type: CostType) -> Box<dyn Heuristic + '_> {
    create_with(kind, task, cost_type, BuildResources::UNLIMITED)
}

/// [`create`], building the heuristic's tables with `resources`.
pub fn create_with<'t>(
    kind: HeuristicKind,
    task: &'t Task,
    cost_type: CostType,
    resources: BuildResources<'_>,
) -> Box<dyn Heuristic + 't> {
    match kind {
        HeuristicKind::Blind => Box::new(blind::Blind::new(task, cost_type)),
        HeuristicKind::GoalCount => Box::new(goal_count::GoalCount::new(task)),
        HeuristicKind::HMax => Box::new(hmax::HMax::new(task, cost_type)),
        HeuristicKind::HAdd => Box::new(hadd::HAdd::new(task, cost_type)),
        HeuristicKind::HFF => Box::new(hff::HFF::new(task, cost_type)),
        HeuristicKind::LmCut => Box::new(lmcut::LmCut::new(task, cost_type)),
        HeuristicKind::Pdb => Box::new(pdb::PatternDatabases::with_resources(
            task, cost_type, resources,
        )),
        // Counts landmarks (unit costs) whatever the cost type.
        HeuristicKind::LmCount => Box::new(landmarks::lm_count::LmCount::within(
            task,
            landmarks::LandmarkLimits::default(),
            resources.stop,
        )),
        // The greedy engines add landmark count (see `HeuristicKind::Lama`).
        HeuristicKind::Lama => Box::new(hff::HFF::new(task, cost_type)),
    }
}

#[cfg(test)]
mod tests;
