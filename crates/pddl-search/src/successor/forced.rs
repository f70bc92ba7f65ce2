//! Forced transitions: states in which a single operator applies, such as
//! the steps of a deterministic process (Puzznic's gravity and matching)
//! that run between two choices of the agent.
//!
//! Every path from such a state starts with that operator, so a search may
//! put the state reached in place of the one generated without losing a
//! plan or optimality, and without storing or evaluating the states in
//! between. Which states are forced is decided cheaply through *exclusive*
//! operators: an operator whose precondition contradicts that of every
//! other operator (one requires a fact that the other requires false) is
//! the only applicable one wherever it applies. Finding them is a static
//! check, so tasks without them pay nothing per state. (States that are
//! forced for other reasons are not recognised.)

use pddl_ground::Task;
use pddl_ground::task::{Cost, OperatorId};

use super::StateSpace;
use crate::state::StateView;

/// Most forced transitions followed from one generated state; a longer
/// chain is cut there and the search goes on from the state reached.
pub const MAX_FORCED_STEPS: u32 = 1024;

/// Work allowed to the search for exclusive operators (precondition
/// literals times operators sharing them); beyond it none are used.
const EXCLUSIVE_SEARCH_BUDGET: u64 = 50_000_000;

/// Where following forced transitions from a state ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forced {
    /// At a goal, at a state that is not forced, or after
    /// [`MAX_FORCED_STEPS`]; `steps` transitions of total `cost` were
    /// applied.
    Reached {
        /// Transitions followed.
        steps: u32,
        /// Their summed cost.
        cost: Cost,
    },
    /// The only applicable operator has an undefined numeric effect, or a
    /// cycle of forced transitions without a goal: no plan passes through
    /// the start.
    DeadEnd,
}

/// The task's exclusive operators and the buffers used to follow them.
#[derive(Debug)]
pub(super) struct ForcedTransitions {
    exclusive: Vec<OperatorId>,
    next: Vec<u64>,
    /// The states of the current chain, one after another.
    chain: Vec<u64>,
}

impl ForcedTransitions {
    pub(super) fn new(task: &Task) -> Self {
        ForcedTransitions {
            exclusive: exclusive_operators(task, EXCLUSIVE_SEARCH_BUDGET),
            next: Vec::new(),
            chain: Vec::new(),
        }
    }
}

/// Operators whose precondition contradicts the precondition of every
/// other operator, in increasing order; none if finding them would take
/// more than `budget` steps.
fn exclusive_operators(task: &Task, budget: u64) -> Vec<OperatorId> {
    let ops = &task.operators;
    if ops.len() < 2 {
        return Vec::new();
    }
    let facts = ops
        .iter()
        .flat_map(|op| op.precondition.pos.iter().chain(&op.precondition.neg))
        .map(|&f| f as usize + 1)
        .max()
        .unwrap_or(0);
    let mut requiring: Vec<Vec<OperatorId>> = vec![Vec::new(); facts];
    let mut forbidding: Vec<Vec<OperatorId>> = vec![Vec::new(); facts];
    for (o, op) in ops.iter().enumerate() {
        for &f in &op.precondition.pos {
            requiring[f as usize].push(o as OperatorId);
        }
        for &f in &op.precondition.neg {
            forbidding[f as usize].push(o as OperatorId);
        }
    }
    let mut stamp = vec![usize::MAX; ops.len()];
    let mut exclusive = Vec::new();
    let mut work: u64 = 0;
    for (o, op) in ops.iter().enumerate() {
        let conflicting = || {
            let pre = &op.precondition;
            let by_pos = pre.pos.iter().map(|&f| &forbidding[f as usize]);
            let by_neg = pre.neg.iter().map(|&f| &requiring[f as usize]);
            by_pos.chain(by_neg)
        };
        // Cheap necessary condition first: enough conflicts to cover all.
        let upper: usize = conflicting().map(Vec::len).sum();
        if upper + 1 < ops.len() {
            continue;
        }
        work += upper as u64;
        if work > budget {
            return Vec::new();
        }
        let mut covered = 0;
        for list in conflicting() {
            for &other in list {
                if other as usize != o && stamp[other as usize] != o {
                    stamp[other as usize] = o;
                    covered += 1;
                }
            }
        }
        if covered + 1 == ops.len() {
            exclusive.push(o as OperatorId);
        }
    }
    exclusive
}

impl StateSpace<'_> {
    /// Whether some operators are exclusive, so that
    /// [`StateSpace::follow_forced`] can find forced states.
    pub fn has_forced_transitions(&self) -> bool {
        !self.forced.exclusive.is_empty()
    }

    /// The exclusive operator applicable in `state`, if any: then it is the
    /// only applicable operator.
    fn forced_operator(&mut self, state: &[u64]) -> Option<OperatorId> {
        if self.forced.exclusive.is_empty() {
            return None;
        }
        let task = self.task;
        self.layout.unpack_fluents(state, &mut self.fluents);
        let view = StateView {
            facts: self.layout.facts(state),
            fluents: &self.fluents,
        };
        self.forced
            .exclusive
            .iter()
            .copied()
            .find(|&o| view.satisfies(&task.operators[o as usize].precondition))
    }

    /// Follows forced transitions from `state`, in place: while it is not
    /// a goal and its only applicable operator is exclusive (see the
    /// module docs), applies that operator. The operators followed are not
    /// recorded: [`StateSpace::forced_path`] finds them again for a plan.
    pub fn follow_forced(&mut self, state: &mut Vec<u64>) -> Forced {
        let words = state.len();
        let mut next = std::mem::take(&mut self.forced.next);
        let mut chain = std::mem::take(&mut self.forced.chain);
        chain.clear();
        let mut steps = 0;
        let mut cost: Cost = 0;
        let result = loop {
            if steps == MAX_FORCED_STEPS {
                break Forced::Reached { steps, cost };
            }
            let Some(op) = self.forced_operator(state) else {
                break Forced::Reached { steps, cost };
            };
            if self.is_goal(state) {
                break Forced::Reached { steps, cost };
            }
            if !self.apply(state, op, &mut next) {
                break Forced::DeadEnd;
            }
            // A forced chain that comes back to one of its states never
            // leaves the cycle, and none of its states is a goal.
            if next == state[..] || chain.chunks_exact(words).any(|s| s == next) {
                break Forced::DeadEnd;
            }
            chain.extend_from_slice(state);
            std::mem::swap(state, &mut next);
            steps += 1;
            cost = cost.saturating_add(self.task.operators[op as usize].cost);
        };
        self.forced.next = next;
        self.forced.chain = chain;
        result
    }

    /// Appends to `out` the operators from `from` to the first state
    /// `is_target` accepts, applying `op` in `from` and then following
    /// forced transitions ([`StateSpace::follow_forced`]); returns that
    /// state, or `None` (with `out` partly extended) if none is reached,
    /// also when `op` is not applicable in `from`.
    pub fn forced_path(
        &mut self,
        from: &[u64],
        op: OperatorId,
        mut is_target: impl FnMut(&[u64]) -> bool,
        out: &mut Vec<OperatorId>,
    ) -> Option<Vec<u64>> {
        let mut state = Vec::with_capacity(from.len());
        let mut next = Vec::with_capacity(from.len());
        // With symmetry reduction, `from` may be another member of the
        // orbit the operator was applied in, where it need not apply;
        // applied anyway, it could still reach the right orbit (a truck's
        // drive whose driver is another one's) and make the plan invalid.
        if !self.is_applicable(from, op) || !self.apply(from, op, &mut state) {
            return None;
        }
        out.push(op);
        for _ in 0..MAX_FORCED_STEPS {
            if is_target(&state) {
                return Some(state);
            }
            let forced = self.forced_operator(&state)?;
            if !self.apply(&state, forced, &mut next) {
                return None;
            }
            out.push(forced);
            std::mem::swap(&mut state, &mut next);
        }
        is_target(&state).then_some(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TaskBuilder;

    /// A counter 0 → 1 → 2 driven by a "tick" process that runs while
    /// `busy` holds; the agent's two actions need `busy` false.
    fn process_task() -> Task {
        // Facts: 0 busy, 1 stage-1, 2 stage-2, 3 done-a, 4 done-b.
        let mut b = TaskBuilder::new(5);
        let start = b.op("start", &[], &[0, 1], &[]);
        b.neg_pre(start, 0);
        b.neg_pre(start, 1);
        b.op_cost("tick", &[0, 1], &[2], &[1], 0);
        let stop = b.op_cost("stop", &[0, 2], &[3], &[0], 0);
        b.neg_pre(stop, 1);
        let other = b.op("other", &[], &[4], &[]);
        b.neg_pre(other, 0);
        b.build(&[], &[3, 4])
    }

    #[test]
    fn exclusive_operators_contradict_every_other_precondition() {
        let task = process_task();
        // tick and stop need `busy`, start and other forbid it; tick needs
        // stage-1, which stop forbids; start and other do not contradict
        // each other.
        assert_eq!(exclusive_operators(&task, u64::MAX), vec![1, 2]);
        assert_eq!(exclusive_operators(&task, 1), Vec::<OperatorId>::new());
    }

    #[test]
    fn forced_chains_are_followed_and_found_again() {
        let task = process_task();
        let mut space = StateSpace::new(&task);
        assert!(space.has_forced_transitions());
        let init = space.initial_state();
        let mut state = Vec::new();
        assert!(space.apply(&init, 0, &mut state));
        let generated = state.clone();
        assert_eq!(
            space.follow_forced(&mut state),
            Forced::Reached { steps: 2, cost: 0 }
        );
        let mut fluents = Vec::new();
        let view = space.view(&state, &mut fluents);
        assert!(view.has(3) && !view.has(0) && !view.has(1) && view.has(2));
        // Not forced: both "start"-like choices are open again.
        assert_eq!(
            space.follow_forced(&mut state.clone()),
            Forced::Reached { steps: 0, cost: 0 }
        );
        let mut path = Vec::new();
        let reached = space.forced_path(&init, 0, |s| s == state, &mut path);
        assert_eq!(reached.as_ref(), Some(&state));
        assert_eq!(path, vec![0, 1, 2]);
        path.clear();
        assert!(
            space
                .forced_path(&init, 3, |s| s == generated, &mut path)
                .is_none()
        );
    }

    #[test]
    fn a_forced_cycle_is_a_dead_end() {
        // Facts: 0 spin, 1 left, 2 goal. While `spin`, "flip" toggles 1.
        let mut b = TaskBuilder::new(3);
        let flip_on = b.op("flip-on", &[0], &[1], &[]);
        b.neg_pre(flip_on, 1);
        let flip_off = b.op("flip-off", &[0, 1], &[], &[1]);
        let finish = b.op("finish", &[], &[2], &[]);
        b.neg_pre(finish, 0);
        let task = b.build(&[0], &[2]);
        let mut space = StateSpace::new(&task);
        // Also "finish": it forbids `spin`, which both flips need.
        assert_eq!(
            exclusive_operators(&task, u64::MAX),
            vec![flip_on, flip_off, finish]
        );
        let mut state = space.initial_state();
        assert_eq!(space.follow_forced(&mut state), Forced::DeadEnd);
    }
}
