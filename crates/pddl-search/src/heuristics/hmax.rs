//! h_max: the cost of the most expensive goal in the delete relaxation,
//! where an operator costs its own cost plus its costliest precondition.
//! Admissible.

use pddl_ground::Task;
use pddl_ground::task::{Cost, OperatorId};

use super::Heuristic;
use super::relaxation::{Combine, CostType, Exploration, INFINITE, RelaxedTask};
use crate::state::StateView;

/// The h_max heuristic.
#[derive(Clone, Debug)]
pub struct HMax {
    relaxed: RelaxedTask,
    exploration: Exploration,
}

impl HMax {
    /// For a task under a cost type.
    pub fn new(task: &Task, cost_type: CostType) -> Self {
        let mut relaxed = RelaxedTask::new(task, cost_type);
        relaxed.ignore_irrelevant_operators();
        let exploration = Exploration::new(&relaxed);
        HMax {
            relaxed,
            exploration,
        }
    }
}

impl Heuristic for HMax {
    fn fork(&self) -> Option<Box<dyn Heuristic + Send>> {
        Some(Box::new(self.clone()))
    }

    fn evaluate(&mut self, state: StateView<'_>, _: Option<&mut Vec<OperatorId>>) -> Option<Cost> {
        let rt = &self.relaxed;
        let h = self
            .exploration
            .run(rt, state, Combine::Max, true, |o| rt.ops[o as usize].cost);
        (h != INFINITE).then_some(h)
    }
}
