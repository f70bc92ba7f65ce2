//! h_add: like h_max, but precondition costs are summed (not admissible,
//! informative for greedy search). Sees linear numeric conditions (see
//! [`super::numeric`]).

use pddl_ground::Task;
use pddl_ground::task::{Cost, OperatorId};

use super::Heuristic;
use super::relaxation::{Combine, CostType, GoalCost, RelaxedTask};
use crate::state::StateView;

/// The h_add heuristic.
#[derive(Clone, Debug)]
pub struct HAdd(GoalCost);

impl HAdd {
    /// For a task under a cost type.
    pub fn new(task: &Task, cost_type: CostType) -> Self {
        HAdd(GoalCost::new(
            RelaxedTask::with_numeric(task, cost_type),
            Combine::Add,
        ))
    }
}

impl Heuristic for HAdd {
    fn fork(&self) -> Option<Box<dyn Heuristic + Send>> {
        Some(Box::new(self.clone()))
    }

    fn evaluate(&mut self, state: StateView<'_>, _: Option<&mut Vec<OperatorId>>) -> Option<Cost> {
        self.0.evaluate(state)
    }
}
