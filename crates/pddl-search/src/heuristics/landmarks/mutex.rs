//! Pairwise mutexes by h² (Haslum & Geffner 2000): the pairs of facts
//! reachable together from the initial state ([`crate::heuristics::h2`],
//! without negation literals: negative conditions are ignored). Two facts
//! not in a reachable pair never hold together in a reachable state.
//!
//! Tasks with more than [`MAX_MUTEX_FACTS`] facts get no mutexes, and the
//! fixpoint is bounded by a work budget; an unfinished fixpoint would claim
//! unsound mutexes, so it gives none either.

use pddl_ground::Task;
use pddl_ground::task::FactId;

use crate::heuristics::h2::{MAX_PAIR_LITERALS, PairRelaxation, PairTable};

/// Most facts for which the pair table is built (`n²/8` bytes: 32 MiB).
pub const MAX_MUTEX_FACTS: usize = MAX_PAIR_LITERALS;

/// The reachable pairs of facts of a task (h² with m = 2).
#[derive(Clone, Debug)]
pub struct Mutexes {
    pairs: PairTable,
}

impl Mutexes {
    /// Computes the reachable pairs of `task`; `None` when the task has
    /// more than [`MAX_MUTEX_FACTS`] facts or the fixpoint needs more
    /// than `max_work` word operations.
    pub fn compute(task: &Task, max_work: u64) -> Option<Self> {
        Self::compute_within(task, max_work, &|| false)
    }

    /// As [`Mutexes::compute`], also `None` once `stop` says stop.
    pub fn compute_within(task: &Task, max_work: u64, stop: &dyn Fn() -> bool) -> Option<Self> {
        let relaxation = PairRelaxation::new(task, false)?;
        let init = relaxation.state_literals(&task.init_facts);
        let pairs = relaxation.reachable_pairs(&init, max_work, stop)?;
        Some(Mutexes { pairs })
    }

    /// Whether `f` is reachable (h² ≠ ∞ for the single fact).
    pub fn reachable(&self, f: FactId) -> bool {
        self.pairs.reachable(f)
    }

    /// Whether `a` and `b` (distinct) never hold together in a reachable
    /// state. Derived and out-of-range facts are never mutex.
    pub fn are_mutex(&self, a: FactId, b: FactId) -> bool {
        let facts = self.pairs.literals() as FactId;
        a != b
            && a < facts
            && b < facts
            && !self.pairs.together(a, b)
            && !(self.pairs.is_derived(a) || self.pairs.is_derived(b))
    }

    /// Whether an operator's positive precondition is pairwise reachable
    /// (an operator that is not can never be applied).
    pub fn applicable(&self, task: &Task, op: usize) -> bool {
        task.operators.get(op).is_some_and(|o| {
            let facts = self.pairs.literals();
            let pre: Vec<FactId> = o
                .precondition
                .pos
                .iter()
                .copied()
                .filter(|&f| (f as usize) < facts && !self.pairs.is_derived(f))
                .collect();
            self.pairs.pairwise(&pre)
        })
    }
}
