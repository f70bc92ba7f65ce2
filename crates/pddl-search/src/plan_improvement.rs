//! Shortening a found plan without searching again.
//!
//! Greedy best-first search finds plans quickly but often with detours.
//! Two cheap, domain-independent post-processing steps remove them; each
//! step keeps the plan valid by construction (every kept operator is
//! applicable where it is applied, and the goal holds at the end) and
//! never raises its cost (operator costs are non-negative):
//! - **loop removal**: when the plan visits the same state twice, the
//!   operators between the two visits are dropped;
//! - **greedy action elimination** (Fink & Yang 1992; Nakhost & Müller
//!   2010): for each operator in turn, drop it together with every later
//!   operator that stops being applicable without it; keep that shorter
//!   plan if it still reaches the goal.
//!
//! Elimination costs up to one replay of the rest of the plan per operator
//! (quadratic in the plan length), so it runs under a budget counted in
//! operator applications, which keeps the result deterministic.

use std::sync::atomic::{AtomicBool, Ordering};

use hashbrown::HashMap;
use pddl_ground::task::{Cost, OperatorId};

use crate::result::Plan;
use crate::successor::StateSpace;

/// The states a plan visits: `states[i]` is the state before step `i`,
/// the last one the state it ends in. `None` if some operator is not
/// applicable (then the plan is left alone).
fn replay(space: &mut StateSpace<'_>, operators: &[OperatorId]) -> Option<Vec<Vec<u64>>> {
    let mut states = Vec::with_capacity(operators.len() + 1);
    states.push(space.initial_state());
    let mut fluents = Vec::new();
    for &op in operators {
        let state = states.last()?;
        let precondition = &space.task.operators[op as usize].precondition;
        if !space.view(state, &mut fluents).satisfies(precondition) {
            return None;
        }
        let mut next = Vec::new();
        if !space.apply(state, op, &mut next) {
            return None;
        }
        states.push(next);
    }
    Some(states)
}

/// The plan with every loop through a repeated state cut out: from each
/// state, jump to its last visit.
fn remove_loops(operators: &[OperatorId], states: &[Vec<u64>]) -> Vec<OperatorId> {
    let mut last_visit: HashMap<&[u64], usize> = HashMap::with_capacity(states.len());
    for (i, state) in states.iter().enumerate() {
        last_visit.insert(state.as_slice(), i);
    }
    let mut kept = Vec::with_capacity(operators.len());
    let mut i = 0;
    while i < operators.len() {
        i = last_visit[states[i].as_slice()];
        if i < operators.len() {
            kept.push(operators[i]);
            i += 1;
        }
    }
    kept
}

/// Tries to drop step `first` of `operators`, replaying from `start` (the
/// state before it) and skipping every later operator that is no longer
/// applicable. Returns the indices kept after `first` if the goal still
/// holds at the end, counting applications in `work`.
fn eliminate_from(
    space: &mut StateSpace<'_>,
    operators: &[OperatorId],
    first: usize,
    start: &[u64],
    work: &mut u64,
) -> Option<Vec<usize>> {
    let mut state = start.to_vec();
    let mut next = Vec::new();
    let mut fluents = Vec::new();
    let mut kept = Vec::with_capacity(operators.len() - first);
    for (j, &op) in operators.iter().enumerate().skip(first + 1) {
        *work += 1;
        let precondition = &space.task.operators[op as usize].precondition;
        if space.view(&state, &mut fluents).satisfies(precondition)
            && space.apply(&state, op, &mut next)
        {
            std::mem::swap(&mut state, &mut next);
            kept.push(j);
        }
    }
    space.is_goal(&state).then_some(kept)
}

/// A plan at most as long and as costly as `plan` that reaches the goal
/// of `space`'s task: loops removed, then greedy action elimination while
/// fewer than `budget` operator applications have been spent and `cancel`
/// is not raised. A plan that does not replay is returned unchanged.
pub fn improve_plan(
    space: &mut StateSpace<'_>,
    plan: &Plan,
    budget: u64,
    cancel: &AtomicBool,
) -> Plan {
    let Some(states) = replay(space, &plan.operators) else {
        return plan.clone();
    };
    let mut operators = remove_loops(&plan.operators, &states);
    let mut states = if operators.len() < plan.operators.len() {
        match replay(space, &operators) {
            Some(states) => states,
            None => return plan.clone(),
        }
    } else {
        states
    };
    let mut work = 0u64;
    let mut i = 0;
    while i < operators.len() && work < budget && !cancel.load(Ordering::Relaxed) {
        match eliminate_from(space, &operators, i, &states[i], &mut work) {
            Some(kept) => {
                let mut shorter = operators[..i].to_vec();
                shorter.extend(kept.iter().map(|&j| operators[j]));
                match replay(space, &shorter) {
                    Some(new_states) => {
                        operators = shorter;
                        states = new_states;
                    }
                    None => i += 1,
                }
            }
            None => i += 1,
        }
    }
    let cost = operators
        .iter()
        .map(|&o| space.task.operators[o as usize].cost)
        .fold(0 as Cost, Cost::saturating_add);
    if cost > plan.cost || !space.is_goal(states.last().expect("a start state")) {
        return plan.clone(); // cannot happen; the original is the safe answer
    }
    Plan { operators, cost }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate;
    use crate::testing::TaskBuilder;

    /// Facts a = 0, b = 1, c = 2; goal c. Operators: 0 make-a, 1 drop-a,
    /// 2 make-b, 3 make-c (needs b).
    fn task() -> pddl_ground::Task {
        let mut b = TaskBuilder::new(3);
        b.op("make-a", &[], &[0], &[]);
        b.op("drop-a", &[0], &[], &[0]);
        b.op("make-b", &[], &[1], &[]);
        b.op("make-c", &[1], &[2], &[]);
        b.build(&[], &[2])
    }

    fn plan(operators: &[OperatorId]) -> Plan {
        Plan {
            operators: operators.to_vec(),
            cost: operators.len() as Cost,
        }
    }

    #[test]
    fn loops_and_useless_steps_are_removed_and_the_result_replays() {
        let task = task();
        let mut space = StateSpace::new(&task);
        let cancel = AtomicBool::new(false);
        // make-a, drop-a is a loop; the second make-b is useless; make-a at
        // the end is useless too.
        let found = plan(&[0, 1, 2, 2, 3, 0]);
        let better = improve_plan(&mut space, &found, u64::MAX, &cancel);
        assert_eq!(better.operators, vec![2, 3]);
        assert_eq!(better.cost, 2);
        let end = simulate::simulate(&task, &better.operators).unwrap();
        assert!(end.goal_reached);
    }

    #[test]
    fn an_optimal_plan_is_kept_and_a_zero_budget_only_cuts_loops() {
        let task = task();
        let mut space = StateSpace::new(&task);
        let cancel = AtomicBool::new(false);
        assert_eq!(
            improve_plan(&mut space, &plan(&[2, 3]), u64::MAX, &cancel).operators,
            vec![2, 3]
        );
        let found = plan(&[0, 1, 2, 2, 3, 0]);
        assert_eq!(
            improve_plan(&mut space, &found, 0, &cancel).operators,
            vec![2, 3, 0] // the repeated make-b changes nothing: a loop too
        );
    }

    #[test]
    fn a_plan_that_does_not_replay_is_returned_unchanged() {
        let task = task();
        let mut space = StateSpace::new(&task);
        let cancel = AtomicBool::new(false);
        let broken = plan(&[3, 2]);
        assert_eq!(improve_plan(&mut space, &broken, u64::MAX, &cancel), broken);
    }
}
