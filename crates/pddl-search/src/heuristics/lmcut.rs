//! LM-cut (Helmert & Domshlak 2009), admissible.
//!
//! Repeatedly: compute h_max under the remaining costs, remembering for
//! each relaxed operator its costliest precondition (its precondition
//! choice, "supporter"); the goal zone is what reaches the goal through
//! zero-cost operators via their supporters; the cut is the set of
//! operators whose supporter is reachable from the state without entering
//! the goal zone and that have an effect in it. Its cheapest remaining
//! cost is added to h and subtracted from every operator in the cut, and
//! h_max is updated incrementally (as Fast Downward: costs only decrease,
//! so only what the cheaper operators reach is revisited).
//!
//! Costs live per task operator, so the pieces of an operator
//! (conditional effects) share one budget and are charged once per cut:
//! that keeps the cost partitioning admissible.

use pddl_ground::Task;
use pddl_ground::task::{Cost, OperatorId};

use super::Heuristic;
use super::relaxation::{Adjacency, CostQueue, CostType, INFINITE, RelaxedTask};
use crate::state::{StateView, true_facts};

/// The LM-cut heuristic.
#[derive(Clone, Debug)]
pub struct LmCut {
    relaxed: RelaxedTask,
    /// Per task operator, its relaxed pieces.
    pieces: Adjacency,
    /// Adjusted cost of each task operator.
    base_cost: Vec<Cost>,
    /// Remaining cost of each task operator in the current evaluation.
    remaining: Vec<Cost>,
    /// h_max of each proposition.
    prop_cost: Vec<Cost>,
    /// Per relaxed operator: unreached preconditions (0 = fired).
    unsatisfied: Vec<u32>,
    /// Per relaxed operator: its costliest precondition and that cost.
    supporter: Vec<u32>,
    supporter_cost: Vec<Cost>,
    queue: CostQueue,
    /// Stamps of the current round: goal zone, reached before it, in the cut.
    zone: Vec<u32>,
    reached: Vec<u32>,
    in_cut: Vec<u32>,
    /// Stamp per task operator: charged in the current round.
    charged: Vec<u32>,
    round: u32,
    stack: Vec<u32>,
    cut: Vec<u32>,
    changed: Vec<OperatorId>,
}

impl LmCut {
    /// For a task under a cost type.
    pub fn new(task: &Task, cost_type: CostType) -> Self {
        let relaxed = RelaxedTask::new(task, cost_type);
        let props = relaxed.props();
        let ops = relaxed.ops.len();
        let base_cost: Vec<Cost> = task
            .operators
            .iter()
            .map(|o| cost_type.adjust(o.cost))
            .collect();
        let pieces = Adjacency::build(
            base_cost.len(),
            relaxed
                .ops
                .iter()
                .enumerate()
                .filter_map(|(o, op)| op.origin.map(|x| (x, o as u32))),
        );
        LmCut {
            pieces,
            remaining: base_cost.clone(),
            charged: vec![0; base_cost.len()],
            base_cost,
            prop_cost: vec![INFINITE; props],
            unsatisfied: vec![0; ops],
            supporter: vec![0; ops],
            supporter_cost: vec![0; ops],
            queue: CostQueue::default(),
            zone: vec![0; props],
            reached: vec![0; props],
            in_cut: vec![0; ops],
            round: 0,
            stack: Vec::new(),
            cut: Vec::new(),
            changed: Vec::new(),
            relaxed,
        }
    }

    #[inline]
    fn cost(&self, o: u32) -> Cost {
        self.relaxed.ops[o as usize]
            .origin
            .map_or(0, |x| self.remaining[x as usize])
    }

    /// Lowers the effects of `o`, whose costliest precondition costs
    /// `pre_cost`, to `pre_cost + cost(o)`.
    fn lower_effects(&mut self, o: u32, pre_cost: Cost) {
        let target = pre_cost.saturating_add(self.cost(o));
        for j in 0..self.relaxed.eff(o).len() {
            let e = self.relaxed.eff(o)[j];
            self.lower(e, target);
        }
    }

    #[inline]
    fn lower(&mut self, p: u32, cost: Cost) {
        if cost < self.prop_cost[p as usize] {
            self.prop_cost[p as usize] = cost;
            self.queue.push(cost, p);
        }
    }

    /// Full h_max exploration from the state.
    fn first_exploration(&mut self, facts: &[u64]) {
        let facts_n = self.relaxed.facts;
        self.prop_cost.fill(INFINITE);
        self.queue.clear();
        for (o, op) in self.relaxed.ops.iter().enumerate() {
            self.unsatisfied[o] = op.pre.1 - op.pre.0;
        }
        for p in true_facts(facts).take_while(|&p| (p as usize) < facts_n) {
            self.lower(p, 0);
        }
        self.lower(self.relaxed.true_prop(), 0);
        while let Some((c, p)) = self.queue.pop() {
            if c > self.prop_cost[p as usize] {
                continue;
            }
            for i in 0..self.relaxed.precondition_of.get(p).len() {
                let o = self.relaxed.precondition_of.get(p)[i];
                let oi = o as usize;
                self.unsatisfied[oi] -= 1;
                if self.unsatisfied[oi] == 0 {
                    // Popped last, so a costliest precondition.
                    self.supporter[oi] = p;
                    self.supporter_cost[oi] = c;
                    self.lower_effects(o, c);
                }
            }
        }
    }

    /// Updates h_max after the operators in `changed` became cheaper.
    fn incremental_exploration(&mut self) {
        self.queue.clear();
        for k in 0..self.changed.len() {
            let x = self.changed[k];
            for i in 0..self.pieces.get(x).len() {
                let o = self.pieces.get(x)[i];
                if self.unsatisfied[o as usize] != 0 {
                    continue;
                }
                self.lower_effects(o, self.supporter_cost[o as usize]);
            }
        }
        while let Some((c, p)) = self.queue.pop() {
            if c > self.prop_cost[p as usize] {
                continue;
            }
            for i in 0..self.relaxed.precondition_of.get(p).len() {
                let o = self.relaxed.precondition_of.get(p)[i];
                let oi = o as usize;
                if self.unsatisfied[oi] != 0
                    || self.supporter[oi] != p
                    || self.supporter_cost[oi] <= c
                {
                    continue;
                }
                // The supporter got cheaper: the costliest precondition may change.
                let old = self.supporter_cost[oi];
                let (mut best, mut best_cost) = (p, c);
                for &q in self.relaxed.pre(o) {
                    if self.prop_cost[q as usize] > best_cost {
                        best = q;
                        best_cost = self.prop_cost[q as usize];
                    }
                }
                self.supporter[oi] = best;
                self.supporter_cost[oi] = best_cost;
                if best_cost != old {
                    self.lower_effects(o, best_cost);
                }
            }
        }
    }

    fn next_round(&mut self) {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.zone.fill(0);
            self.reached.fill(0);
            self.in_cut.fill(0);
            self.charged.fill(0);
            self.round = 1;
        }
    }
}

impl Heuristic for LmCut {
    fn fork(&self) -> Option<Box<dyn Heuristic + Send>> {
        Some(Box::new(self.clone()))
    }

    fn evaluate(&mut self, state: StateView<'_>, _: Option<&mut Vec<OperatorId>>) -> Option<Cost> {
        self.remaining.copy_from_slice(&self.base_cost);
        self.first_exploration(state.facts);
        let goal = self.relaxed.goal_prop();
        if self.prop_cost[goal as usize] == INFINITE {
            return None;
        }
        let mut h: Cost = 0;
        while self.prop_cost[goal as usize] != 0 {
            self.next_round();
            let round = self.round;
            // Goal zone: backwards from the goal through zero-cost operators.
            self.stack.clear();
            self.zone[goal as usize] = round;
            self.stack.push(goal);
            while let Some(p) = self.stack.pop() {
                for &o in self.relaxed.achievers.get(p) {
                    if self.unsatisfied[o as usize] != 0 || self.cost(o) != 0 {
                        continue;
                    }
                    let q = self.supporter[o as usize];
                    if self.zone[q as usize] != round {
                        self.zone[q as usize] = round;
                        self.stack.push(q);
                    }
                }
            }
            // Cut: forwards from the state through supporters.
            self.stack.clear();
            self.cut.clear();
            let facts = self.relaxed.facts;
            for p in true_facts(state.facts).take_while(|&p| (p as usize) < facts) {
                if self.zone[p as usize] != round {
                    self.reached[p as usize] = round;
                    self.stack.push(p);
                }
            }
            let true_prop = self.relaxed.true_prop();
            self.reached[true_prop as usize] = round;
            self.stack.push(true_prop);
            while let Some(p) = self.stack.pop() {
                for &o in self.relaxed.precondition_of.get(p) {
                    if self.unsatisfied[o as usize] != 0 || self.supporter[o as usize] != p {
                        continue;
                    }
                    for &e in self.relaxed.eff(o) {
                        if self.zone[e as usize] == round {
                            if self.in_cut[o as usize] != round {
                                self.in_cut[o as usize] = round;
                                self.cut.push(o);
                            }
                        } else if self.reached[e as usize] != round {
                            self.reached[e as usize] = round;
                            self.stack.push(e);
                        }
                    }
                }
            }
            let cut_cost = self.cut.iter().map(|&o| self.cost(o)).min().unwrap_or(0);
            if cut_cost == 0 || cut_cost == INFINITE {
                // Cannot happen for a consistent exploration; stop rather than loop.
                break;
            }
            h = h.saturating_add(cut_cost);
            self.changed.clear();
            for i in 0..self.cut.len() {
                if let Some(x) = self.relaxed.ops[self.cut[i] as usize].origin
                    && self.charged[x as usize] != round
                {
                    self.charged[x as usize] = round;
                    self.remaining[x as usize] -= cut_cost;
                    self.changed.push(x);
                }
            }
            self.incremental_exploration();
        }
        Some(h)
    }
}
