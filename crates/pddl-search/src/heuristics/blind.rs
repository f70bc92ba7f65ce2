//! The blind heuristic: 0 at goal states, the cheapest operator cost elsewhere.

use pddl_ground::Task;
use pddl_ground::task::{Conjunction, Cost, OperatorId};

use super::{CostType, Heuristic};
use crate::state::StateView;

/// The blind heuristic (admissible).
#[derive(Debug)]
pub struct Blind<'t> {
    goal: &'t Conjunction,
    min_cost: Cost,
}

impl<'t> Blind<'t> {
    /// For a task under a cost type.
    pub fn new(task: &'t Task, cost_type: CostType) -> Self {
        let min_cost = task
            .operators
            .iter()
            .map(|o| cost_type.operator_cost(task, o))
            .min()
            .unwrap_or(0);
        Blind {
            goal: &task.goal,
            min_cost,
        }
    }
}

impl Heuristic for Blind<'_> {
    fn evaluate(&mut self, state: StateView<'_>, _: Option<&mut Vec<OperatorId>>) -> Option<Cost> {
        Some(if state.satisfies(self.goal) {
            0
        } else {
            self.min_cost
        })
    }
}
