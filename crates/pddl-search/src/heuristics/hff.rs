//! h_FF: the cost of a relaxed plan extracted from h_add best supporters
//! (numeric conditions included, see [`super::numeric`]). Each operator
//! counts once (its conditional-effect pieces share it), or as many times
//! as the most repetitions a numeric condition in the plan needs of it.
//! Preferred operators: relaxed-plan operators whose relaxed
//! preconditions (numeric ones included) all hold in the state.

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
    /// Per task operator: how many times it is counted (valid when marked).
    origin_count: Vec<Cost>,
    stamp: u32,
    stack: Vec<u32>,
}

impl HFF {
    /// For a task under a cost type.
    pub fn new(task: &Task, cost_type: CostType) -> Self {
        let relaxed = RelaxedTask::with_numeric(task, cost_type);
        let exploration = Exploration::new(&relaxed);
        HFF {
            marked_piece: vec![0; relaxed.ops.len()],
            marked_origin: vec![0; task.operators.len()],
            origin_count: vec![0; task.operators.len()],
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
        if ex.run(rt, state, Combine::Add, true, |o| rt.ops[o as usize].cost) == INFINITE {
            return None;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marked_piece.fill(0);
            self.marked_origin.fill(0);
            self.stamp = 1;
        }
        let mut h: Cost = 0;
        let first_numeric = rt.first_numeric_prop();
        self.stack.clear();
        self.stack.push(rt.goal_prop());
        while let Some(p) = self.stack.pop() {
            let o = ex.supporter[p as usize];
            if o == u32::MAX {
                continue; // true in the state (or a released numeric condition)
            }
            let op = rt.ops[o as usize];
            if let Some(origin) = op.origin {
                // A numeric condition needs its supporter repeated.
                let times = match p.checked_sub(first_numeric) {
                    Some(n) => ex.repetitions[n as usize],
                    None => 1,
                };
                let oi = origin as usize;
                if self.marked_origin[oi] != self.stamp {
                    self.marked_origin[oi] = self.stamp;
                    self.origin_count[oi] = 0;
                }
                if times > self.origin_count[oi] {
                    let extra = times - self.origin_count[oi];
                    h = h.saturating_add(op.cost.saturating_mul(extra));
                    self.origin_count[oi] = times;
                }
            }
            if self.marked_piece[o as usize] == self.stamp {
                continue; // its preconditions are already in the plan
            }
            self.marked_piece[o as usize] = self.stamp;
            if let Some(origin) = op.origin
                && let Some(pref) = preferred.as_deref_mut()
                && rt.pre(o).iter().all(|&q| ex.holds(rt, state.facts, q))
            {
                pref.push(origin);
            }
            self.stack.extend_from_slice(rt.pre(o));
        }
        Some(h)
    }

    fn has_preferred_operators(&self) -> bool {
        true
    }
}
