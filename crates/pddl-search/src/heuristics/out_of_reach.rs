//! Why a task is unsolvable from the start, where the relaxation can tell:
//! the goal literals that the delete relaxation with linear numeric
//! conditions (h_add's and h_FF's, see [`super::numeric`]) never reaches
//! from the initial state. Such a literal is out of reach in the task
//! itself, since the relaxation only ever allows more.

use pddl_ground::Task;
use pddl_ground::task::FactId;

use super::relaxation::{Combine, CostType, Exploration, INFINITE, RelaxedTask};
use crate::successor::StateSpace;

/// A literal of a task's goal ([`pddl_ground::Task::goal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalLiteral {
    /// A fact the goal needs true (`positive`) or false.
    Fact {
        /// The fact.
        fact: FactId,
        /// Whether the goal needs it true.
        positive: bool,
    },
    /// The goal's numeric condition of this index in `goal.numeric`.
    Comparison(usize),
}

/// The goal literals the relaxation never reaches from the initial state
/// (facts needed true, then false, then comparisons, each in the goal's
/// order); empty where it reaches the goal. The relaxation reaches a
/// conjunction as soon as it reaches each part, so where the goal is out
/// of its reach, some literal is, unless it is one the relaxation does not
/// judge: a comparison that is not linear. A goal of several alternatives
/// is one fact of the grounder's own (`@goal`).
pub fn relaxed_unreachable_goal(task: &Task) -> Vec<GoalLiteral> {
    let relaxed = RelaxedTask::with_numeric(task, CostType::Unit);
    let mut exploration = Exploration::new(&relaxed);
    let mut space = StateSpace::new(task);
    let initial = space.initial_state();
    let mut fluents = Vec::new();
    let view = space.view(&initial, &mut fluents);
    let goal = exploration.run(&relaxed, view, Combine::Max, false, |_| 1);
    if goal != INFINITE {
        return Vec::new();
    }
    let unreached = |p: u32| exploration.prop_cost[p as usize] == INFINITE;
    let goal_facts = &task.goal;
    let mut out: Vec<GoalLiteral> = goal_facts
        .pos
        .iter()
        .filter(|&&f| unreached(f))
        .map(|&fact| GoalLiteral::Fact {
            fact,
            positive: true,
        })
        .collect();
    out.extend(
        goal_facts
            .neg
            .iter()
            .filter(|&&f| relaxed.negated_prop(f).is_some_and(unreached))
            .map(|&fact| GoalLiteral::Fact {
                fact,
                positive: false,
            }),
    );
    // A comparison's propositions, looked up again (they are interned).
    let mut numeric = relaxed.numeric.clone();
    for (i, condition) in goal_facts.numeric.iter().enumerate() {
        let props = numeric.conditions_of(std::slice::from_ref(condition));
        if props
            .iter()
            .any(|&n| unreached(relaxed.first_numeric_prop() + n))
        {
            out.push(GoalLiteral::Comparison(i));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TaskBuilder;
    use pddl_ground::task::{AssignOp, Comparison};

    /// `drive` adds f1 but needs fuel, which it and `burn` (adding f2)
    /// only use up; nothing deletes f0.
    fn fuel_task(fuel: f64) -> TaskBuilder {
        let mut t = TaskBuilder::new(3);
        let tank = t.fluent(fuel);
        let drive = t.op("drive", &[], &[1], &[]);
        t.num_pre(drive, tank, Comparison::GreaterEqual, 1.0);
        t.num_effect(drive, tank, AssignOp::Decrease, 1.0);
        let burn = t.op("burn", &[], &[2], &[]);
        t.num_effect(burn, tank, AssignOp::Decrease, 1.0);
        t
    }

    #[test]
    fn names_the_literals_out_of_reach() {
        // Fuel 0 and falling: f1 and a full tank are out of reach, and so
        // is f0 false (true at first, nothing deletes it); f2 is not.
        let mut t = fuel_task(0.0);
        t.num_goal(0, Comparison::GreaterEqual, 5.0);
        t.neg_goal(0);
        let task = t.build(&[0], &[1, 2]);
        assert_eq!(
            relaxed_unreachable_goal(&task),
            [
                GoalLiteral::Fact {
                    fact: 1,
                    positive: true
                },
                GoalLiteral::Fact {
                    fact: 0,
                    positive: false
                },
                GoalLiteral::Comparison(0)
            ]
        );
        // With fuel, everything but the full tank is in reach.
        let mut t = fuel_task(2.0);
        t.num_goal(0, Comparison::GreaterEqual, 5.0);
        let task = t.build(&[0], &[1, 2]);
        assert_eq!(
            relaxed_unreachable_goal(&task),
            [GoalLiteral::Comparison(0)]
        );
        let task = fuel_task(2.0).build(&[0], &[1, 2]);
        assert!(relaxed_unreachable_goal(&task).is_empty());
    }
}
