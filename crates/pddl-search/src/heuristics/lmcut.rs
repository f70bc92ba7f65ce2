//! LM-cut (Helmert & Domshlak 2009), admissible.
//!
//! Repeatedly: compute h_max under the remaining costs, remembering for
//! each relaxed operator its costliest precondition (its precondition
//! choice); the goal zone is what reaches the goal through zero-cost
//! operators via their precondition choices; the cut is the set of
//! operators whose precondition choice is reachable from the state without
//! entering the goal zone and that have an effect in it. Its cheapest
//! remaining cost is added to h and subtracted from every operator in the
//! cut. Costs live per task operator, so the pieces of an operator
//! (conditional effects) share one budget and are charged once per cut:
//! that keeps the cost partitioning admissible.

use pddl_ground::Task;
use pddl_ground::task::{Cost, OperatorId};

use super::Heuristic;
use super::relaxation::{Combine, CostType, Exploration, INFINITE, RelaxedTask};
use crate::state::StateView;

/// The LM-cut heuristic.
#[derive(Debug)]
pub struct LmCut {
    relaxed: RelaxedTask,
    exploration: Exploration,
    /// Adjusted cost of each task operator.
    base_cost: Vec<Cost>,
    /// Remaining cost of each task operator in the current evaluation.
    remaining: Vec<Cost>,
    in_goal_zone: Vec<bool>,
    reached: Vec<bool>,
    /// Stamp per task operator to charge each once per cut.
    charged: Vec<u32>,
    stamp: u32,
    queue: Vec<u32>,
    cut: Vec<u32>,
}

impl LmCut {
    /// For a task under a cost type.
    pub fn new(task: &Task, cost_type: CostType) -> Self {
        let relaxed = RelaxedTask::new(task, cost_type);
        let exploration = Exploration::new(&relaxed);
        let props = relaxed.props();
        let base_cost: Vec<Cost> = task
            .operators
            .iter()
            .map(|o| cost_type.adjust(o.cost))
            .collect();
        LmCut {
            remaining: base_cost.clone(),
            charged: vec![0; base_cost.len()],
            base_cost,
            in_goal_zone: vec![false; props],
            reached: vec![false; props],
            relaxed,
            exploration,
            stamp: 0,
            queue: Vec::new(),
            cut: Vec::new(),
        }
    }
}

impl Heuristic for LmCut {
    fn evaluate(&mut self, state: StateView<'_>, _: Option<&mut Vec<OperatorId>>) -> Option<Cost> {
        let rt = &self.relaxed;
        self.remaining.copy_from_slice(&self.base_cost);
        let mut h: Cost = 0;
        loop {
            let remaining = &self.remaining;
            let cost_of = |o: u32| {
                rt.ops[o as usize]
                    .origin
                    .map_or(0, |x| remaining[x as usize])
            };
            let hmax = self
                .exploration
                .run(rt, state.facts, Combine::Max, false, cost_of);
            if hmax == INFINITE {
                return None;
            }
            if hmax == 0 {
                return Some(h);
            }
            let ex = &self.exploration;
            // Goal zone: backwards from the goal through zero-cost operators.
            self.in_goal_zone.fill(false);
            self.queue.clear();
            self.in_goal_zone[rt.goal_prop() as usize] = true;
            self.queue.push(rt.goal_prop());
            while let Some(p) = self.queue.pop() {
                for &o in rt.achievers.get(p) {
                    if cost_of(o) != 0 || !operator_fired(ex, rt, o) {
                        continue;
                    }
                    let q = ex.last_pre[o as usize];
                    if !self.in_goal_zone[q as usize] {
                        self.in_goal_zone[q as usize] = true;
                        self.queue.push(q);
                    }
                }
            }
            // Cut: forwards from the state through precondition choices.
            self.reached.fill(false);
            self.cut.clear();
            self.queue.clear();
            for p in 0..rt.props() as u32 {
                if ex.prop_cost[p as usize] == 0 && rt.holds(state.facts, p) {
                    self.reached[p as usize] = true;
                    self.queue.push(p);
                }
            }
            while let Some(p) = self.queue.pop() {
                for &o in rt.precondition_of.get(p) {
                    if ex.last_pre[o as usize] != p || !operator_fired(ex, rt, o) {
                        continue;
                    }
                    let mut into_zone = false;
                    for &e in rt.eff(o) {
                        if self.in_goal_zone[e as usize] {
                            into_zone = true;
                        } else if !self.reached[e as usize] {
                            self.reached[e as usize] = true;
                            self.queue.push(e);
                        }
                    }
                    if into_zone {
                        self.cut.push(o);
                    }
                }
            }
            let cut_cost = self.cut.iter().map(|&o| cost_of(o)).min().unwrap_or(0);
            if cut_cost == 0 {
                // Cannot happen for a consistent exploration; stop rather than loop.
                return Some(h);
            }
            h = h.saturating_add(cut_cost);
            self.stamp = self.stamp.wrapping_add(1);
            if self.stamp == 0 {
                self.charged.fill(0);
                self.stamp = 1;
            }
            for &o in &self.cut {
                if let Some(x) = rt.ops[o as usize].origin
                    && self.charged[x as usize] != self.stamp
                {
                    self.charged[x as usize] = self.stamp;
                    self.remaining[x as usize] -= cut_cost;
                }
            }
        }
    }
}

/// Whether relaxed operator `o` fired in the last exploration (all its
/// preconditions reached).
fn operator_fired(ex: &Exploration, rt: &RelaxedTask, o: u32) -> bool {
    rt.pre(o)
        .iter()
        .all(|&p| ex.prop_cost[p as usize] != INFINITE)
}
