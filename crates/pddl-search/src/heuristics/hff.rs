//! h_FF: the cost of a relaxed plan extracted from h_add best supporters,
//! each operator counted once (its conditional-effect pieces share it).
//! Preferred operators: relaxed-plan operators whose relaxed
//! preconditions all hold in the state.

use pddl_ground::Task;
use pddl_ground::task::{Cost, OperatorId};

use super::Heuristic;
use super::relaxation::{Combine, CostType, Exploration, INFINITE, RelaxedTask};
use crate::state::StateView;

/// The FF heuristic.
#[derive(Debug)]
pub struct HFF {
    relaxed: RelaxedTask,
    exploration: Exploration,
    /// Per relaxed operator: stamp of the last evaluation that marked it.
    marked_piece: Vec<u32>,
    /// Per task operator: stamp of the last evaluation that counted it.
    marked_origin: Vec<u32>,
    stamp: u32,
    stack: Vec<u32>,
}

impl HFF {
    /// For a task under a cost type.
    pub fn new(task: &Task, cost_type: CostType) -> Self {
        let relaxed = RelaxedTask::new(task, cost_type);
        let exploration = Exploration::new(&relaxed);
        HFF {
            marked_piece: vec![0; relaxed.ops.len()],
            marked_origin: vec![0; task.operators.len()],
            relaxed,
            exploration,
            stamp: 0,
            stack: Vec::new(),
        }
    }
}

impl Heuristic for HFF {
    fn evaluate(
        &mut self,
        state: StateView<'_>,
        mut preferred: Option<&mut Vec<OperatorId>>,
    ) -> Option<Cost> {
        let rt = &self.relaxed;
        let ex = &mut self.exploration;
        if ex.run(rt, state.facts, Combine::Add, true, |o| {
            rt.ops[o as usize].cost
        }) == INFINITE
        {
            return None;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marked_piece.fill(0);
            self.marked_origin.fill(0);
            self.stamp = 1;
        }
        let mut h: Cost = 0;
        self.stack.clear();
        self.stack.push(rt.goal_prop());
        while let Some(p) = self.stack.pop() {
            let o = ex.supporter[p as usize];
            if o == u32::MAX || self.marked_piece[o as usize] == self.stamp {
                continue; // true in the state, or its supporter is already in the plan
            }
            self.marked_piece[o as usize] = self.stamp;
            let op = rt.ops[o as usize];
            if let Some(origin) = op.origin {
                if self.marked_origin[origin as usize] != self.stamp {
                    self.marked_origin[origin as usize] = self.stamp;
                    h = h.saturating_add(op.cost);
                }
                if let Some(pref) = preferred.as_deref_mut()
                    && rt.pre(o).iter().all(|&q| rt.holds(state.facts, q))
                {
                    pref.push(origin);
                }
            }
            self.stack.extend_from_slice(rt.pre(o));
        }
        Some(h)
    }

    fn has_preferred_operators(&self) -> bool {
        true
    }
}
