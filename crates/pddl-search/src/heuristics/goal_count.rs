//! The goal-count heuristic: how many goal conditions do not hold.

use pddl_ground::Task;
use pddl_ground::task::{Conjunction, Cost, OperatorId};

use super::Heuristic;
use crate::state::StateView;

/// Counts unsatisfied goal conditions (positive, negative and numeric).
#[derive(Debug)]
pub struct GoalCount<'t> {
    goal: &'t Conjunction,
}

impl<'t> GoalCount<'t> {
    /// For a task.
    pub fn new(task: &'t Task) -> Self {
        GoalCount { goal: &task.goal }
    }
}

impl Heuristic for GoalCount<'_> {
    fn evaluate(&mut self, state: StateView<'_>, _: Option<&mut Vec<OperatorId>>) -> Option<Cost> {
        Some(state.unsatisfied_count(self.goal) as Cost)
    }
}
