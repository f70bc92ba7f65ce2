//! h_max: the cost of the most expensive goal in the delete relaxation,
//! where an operator costs its own cost plus its costliest precondition.
//! Admissible.

use pddl_ground::Task;
use pddl_ground::task::{Cost, OperatorId};

use super::Heuristic;
use super::relaxation::{Combine, CostType, GoalCost, RelaxedTask};
use crate::state::StateView;

/// The h_max heuristic.
#[derive(Clone, Debug)]
pub struct HMax(GoalCost);

impl HMax {
    /// For a task under a cost type.
    pub fn new(task: &Task, cost_type: CostType) -> Self {
        HMax(GoalCost::new(
            RelaxedTask::new(task, cost_type),
            Combine::Max,
        ))
    }
}

impl Heuristic for HMax {
    fn fork(&self) -> Option<Box<dyn Heuristic + Send>> {
        Some(Box::new(self.clone()))
    }

    fn evaluate(&mut self, state: StateView<'_>, _: Option<&mut Vec<OperatorId>>) -> Option<Cost> {
        self.0.evaluate(state)
    }
}
