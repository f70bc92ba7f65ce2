//! h_add: like h_max, but precondition costs are summed (not admissible,
//! informative for greedy search). Sees linear numeric conditions (see
//! [`super::numeric`]).

use pddl_ground::Task;
use pddl_ground::task::{Cost, OperatorId};

use super::Heuristic;
use super::relaxation::{Combine, CostType, Exploration, INFINITE, RelaxedTask};
use crate::state::StateView;

/// The h_add heuristic.
#[derive(Clone, Debug)]
pub struct HAdd {
    relaxed: RelaxedTask,
    exploration: Exploration,
}

impl HAdd {
    /// For a task under a cost type.
    pub fn new(task: &Task, cost_type: CostType) -> Self {
        let mut relaxed = RelaxedTask::with_numeric(task, cost_type);
        relaxed.ignore_irrelevant_operators();
        let exploration = Exploration::new(&relaxed);
        HAdd {
            relaxed,
            exploration,
        }
    }
}

impl Heuristic for HAdd {
    fn fork(&self) -> Option<Box<dyn Heuristic + Send>> {
        Some(Box::new(self.clone()))
    }

    fn evaluate(&mut self, state: StateView<'_>, _: Option<&mut Vec<OperatorId>>) -> Option<Cost> {
        let rt = &self.relaxed;
        let h = self
            .exploration
            .run(rt, state, Combine::Add, true, |o| rt.ops[o as usize].cost);
        (h != INFINITE).then_some(h)
    }
}
