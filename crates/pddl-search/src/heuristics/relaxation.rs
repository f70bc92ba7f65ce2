//! The delete relaxation shared by h_max, h_add, h_FF and LM-cut.
//!
//! Relaxed propositions are the task's facts plus two artificial ones:
//! `GOAL` (reached by an artificial zero-cost operator whose precondition
//! is the goal's positive facts) and `TRUE` (true in every state: the
//! precondition of operators that have none, so that every relaxed
//! operator is triggered by some proposition).
//!
//! Every operator becomes one relaxed operator for its unconditional add
//! effects, and each conditional effect becomes its own relaxed operator
//! whose precondition is the operator's precondition plus the effect's
//! condition; all pieces of an operator keep its `origin` so that
//! heuristics can charge its cost once. Axioms become zero-cost relaxed
//! operators. Deletes, negative conditions and numeric conditions and
//! effects are ignored: the relaxation only gets easier, so h_max and
//! LM-cut stay admissible (numeric goals are not counted either).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use pddl_ground::Task;
use pddl_ground::task::{Cost, FactId, OperatorId};

use crate::state::has_fact;

/// Which costs a heuristic sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostType {
    /// The operators' real costs (for A*).
    Real,
    /// Real cost plus one, so that zero-cost operators are not free.
    PlusOne,
    /// Every operator costs 1 (plan length; what greedy search uses).
    Unit,
}

impl CostType {
    /// The cost a heuristic sees for an operator of real cost `cost`.
    pub fn adjust(self, cost: Cost) -> Cost {
        match self {
            CostType::Real => cost,
            CostType::PlusOne => cost.saturating_add(1),
            CostType::Unit => 1,
        }
    }
}

/// A relaxed operator.
#[derive(Clone, Copy, Debug)]
pub struct RelaxedOp {
    /// Range of its preconditions in [`RelaxedTask::pre_pool`] (never empty).
    pub pre: (u32, u32),
    /// Range of its effects in [`RelaxedTask::eff_pool`].
    pub eff: (u32, u32),
    /// Adjusted cost of the origin operator (0 for axioms and the goal).
    pub cost: Cost,
    /// The operator it comes from; `None` for axioms and the goal operator.
    pub origin: Option<OperatorId>,
}

/// A compressed-sparse-row list: for each proposition, a list of operators.
#[derive(Clone, Debug, Default)]
pub struct Adjacency {
    offsets: Vec<u32>,
    items: Vec<u32>,
}

impl Adjacency {
    pub(crate) fn build(props: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) -> Self {
        let mut offsets = vec![0u32; props + 1];
        for (p, _) in pairs.clone() {
            offsets[p as usize + 1] += 1;
        }
        for i in 0..props {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut items = vec![0u32; offsets[props] as usize];
        for (p, o) in pairs {
            items[fill[p as usize] as usize] = o;
            fill[p as usize] += 1;
        }
        Adjacency { offsets, items }
    }

    /// The operators listed for proposition `p`.
    #[inline]
    pub fn get(&self, p: u32) -> &[u32] {
        &self.items[self.offsets[p as usize] as usize..self.offsets[p as usize + 1] as usize]
    }
}

/// The delete-relaxed task.
#[derive(Clone, Debug)]
pub struct RelaxedTask {
    /// Number of facts of the task (propositions `0..facts`).
    pub facts: usize,
    /// Relaxed operators; the last one is the goal operator.
    pub ops: Vec<RelaxedOp>,
    /// Preconditions of all operators.
    pub pre_pool: Vec<u32>,
    /// Effects of all operators.
    pub eff_pool: Vec<u32>,
    /// Per proposition, the operators having it as precondition.
    pub precondition_of: Adjacency,
    /// Per proposition, the operators having it as effect.
    pub achievers: Adjacency,
}

impl RelaxedTask {
    /// Builds the relaxation of a task under a cost type.
    pub fn new(task: &Task, cost_type: CostType) -> Self {
        let facts = task.facts.len();
        let valid = |f: &FactId| (*f as usize) < facts;
        let mut rt = RelaxedTask {
            facts,
            ops: Vec::new(),
            pre_pool: Vec::new(),
            eff_pool: Vec::new(),
            precondition_of: Adjacency::default(),
            achievers: Adjacency::default(),
        };
        let true_prop = rt.true_prop();
        let add_op =
            |rt: &mut RelaxedTask, pre: &mut Vec<u32>, eff: &mut Vec<u32>, cost, origin| {
                pre.sort_unstable();
                pre.dedup();
                eff.sort_unstable();
                eff.dedup();
                if pre.is_empty() {
                    pre.push(true_prop);
                }
                let p0 = rt.pre_pool.len() as u32;
                rt.pre_pool.extend_from_slice(pre);
                let e0 = rt.eff_pool.len() as u32;
                rt.eff_pool.extend_from_slice(eff);
                rt.ops.push(RelaxedOp {
                    pre: (p0, rt.pre_pool.len() as u32),
                    eff: (e0, rt.eff_pool.len() as u32),
                    cost,
                    origin,
                });
            };
        let (mut pre, mut eff) = (Vec::new(), Vec::new());
        for (i, op) in task.operators.iter().enumerate() {
            let cost = cost_type.adjust(op.cost);
            let base: Vec<u32> = op.precondition.pos.iter().copied().filter(valid).collect();
            if !op.add.is_empty() {
                pre.clone_from(&base);
                eff.clear();
                eff.extend(op.add.iter().copied().filter(valid));
                add_op(&mut rt, &mut pre, &mut eff, cost, Some(i as OperatorId));
            }
            for ce in &op.conditional {
                if ce.add.is_empty() {
                    continue;
                }
                pre.clone_from(&base);
                pre.extend(ce.condition.pos.iter().copied().filter(valid));
                eff.clear();
                eff.extend(ce.add.iter().copied().filter(valid));
                add_op(&mut rt, &mut pre, &mut eff, cost, Some(i as OperatorId));
            }
        }
        for ax in task.axioms.iter().filter(|a| valid(&a.head)) {
            pre.clear();
            pre.extend(ax.body.pos.iter().copied().filter(valid));
            eff.clear();
            eff.push(ax.head);
            add_op(&mut rt, &mut pre, &mut eff, 0, None);
        }
        pre.clear();
        pre.extend(task.goal.pos.iter().copied().filter(valid));
        eff.clear();
        eff.push(rt.goal_prop());
        add_op(&mut rt, &mut pre, &mut eff, 0, None);

        let props = rt.props();
        let ops = &rt.ops;
        let pre_pool = &rt.pre_pool;
        let eff_pool = &rt.eff_pool;
        let pre_pairs = ops.iter().enumerate().flat_map(|(o, op)| {
            pre_pool[op.pre.0 as usize..op.pre.1 as usize]
                .iter()
                .map(move |&p| (p, o as u32))
        });
        let eff_pairs = ops.iter().enumerate().flat_map(|(o, op)| {
            eff_pool[op.eff.0 as usize..op.eff.1 as usize]
                .iter()
                .map(move |&p| (p, o as u32))
        });
        rt.precondition_of = Adjacency::build(props, pre_pairs);
        rt.achievers = Adjacency::build(props, eff_pairs);
        rt
    }

    /// The artificial goal proposition.
    pub fn goal_prop(&self) -> u32 {
        self.facts as u32
    }

    /// The artificial always-true proposition.
    pub fn true_prop(&self) -> u32 {
        self.facts as u32 + 1
    }

    /// Number of propositions.
    pub fn props(&self) -> usize {
        self.facts + 2
    }

    /// Preconditions of relaxed operator `o`.
    #[inline]
    pub fn pre(&self, o: u32) -> &[u32] {
        let op = &self.ops[o as usize];
        &self.pre_pool[op.pre.0 as usize..op.pre.1 as usize]
    }

    /// Effects of relaxed operator `o`.
    #[inline]
    pub fn eff(&self, o: u32) -> &[u32] {
        let op = &self.ops[o as usize];
        &self.eff_pool[op.eff.0 as usize..op.eff.1 as usize]
    }

    /// Whether proposition `p` is true in a state's fact bits.
    #[inline]
    pub fn holds(&self, facts: &[u64], p: u32) -> bool {
        if (p as usize) < self.facts {
            has_fact(facts, p)
        } else {
            p == self.true_prop()
        }
    }
}

/// How an operator's precondition costs combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// h_max: the most expensive precondition.
    Max,
    /// h_add: the sum of the precondition costs.
    Add,
}

/// Unreached.
pub const INFINITE: Cost = Cost::MAX;

/// Generalised Dijkstra over the relaxed task (h_max / h_add costs of all
/// propositions, best supporters, and for each fired operator the
/// precondition that triggered it last, i.e. a most expensive one).
#[derive(Clone, Debug)]
pub struct Exploration {
    /// Cost of each proposition ([`INFINITE`] when unreached).
    pub prop_cost: Vec<Cost>,
    /// Operator that reached each proposition most cheaply.
    pub supporter: Vec<u32>,
    /// Per operator: its costliest precondition (valid once it fired).
    pub last_pre: Vec<u32>,
    /// Per operator: combined precondition cost (valid once it fired).
    pub pre_cost: Vec<Cost>,
    unsatisfied: Vec<u32>,
    /// Per operator: its number of preconditions (to reset `unsatisfied`).
    precondition_counts: Vec<u32>,
    queue: CostQueue,
}

impl Exploration {
    /// Buffers for a relaxed task.
    pub fn new(rt: &RelaxedTask) -> Self {
        Exploration {
            prop_cost: vec![INFINITE; rt.props()],
            supporter: vec![u32::MAX; rt.props()],
            last_pre: vec![u32::MAX; rt.ops.len()],
            pre_cost: vec![0; rt.ops.len()],
            unsatisfied: vec![0; rt.ops.len()],
            precondition_counts: rt.ops.iter().map(|op| op.pre.1 - op.pre.0).collect(),
            queue: CostQueue::default(),
        }
    }

    #[inline]
    fn reach(&mut self, p: u32, cost: Cost, by: u32) {
        let slot = &mut self.prop_cost[p as usize];
        if cost < *slot {
            *slot = cost;
            self.supporter[p as usize] = by;
            self.queue.push(cost, p);
        }
    }

    /// Runs the exploration from the state's facts with operator costs
    /// `cost(o)`; returns the goal's cost, [`INFINITE`] if unreachable.
    /// With `stop_at_goal`, stops as soon as the goal is settled (the
    /// costs of unsettled propositions are then upper bounds only).
    pub fn run(
        &mut self,
        rt: &RelaxedTask,
        facts: &[u64],
        combine: Combine,
        stop_at_goal: bool,
        cost: impl Fn(u32) -> Cost,
    ) -> Cost {
        self.prop_cost.fill(INFINITE);
        self.queue.clear();
        self.unsatisfied.copy_from_slice(&self.precondition_counts);
        self.pre_cost.fill(0);
        for (w, &word) in facts.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let p = (w * 64) as u32 + bits.trailing_zeros();
                bits &= bits - 1;
                if (p as usize) < rt.facts {
                    self.reach(p, 0, u32::MAX);
                }
            }
        }
        self.reach(rt.true_prop(), 0, u32::MAX);
        let goal = rt.goal_prop();
        while let Some((c, p)) = self.queue.pop() {
            if c > self.prop_cost[p as usize] {
                continue;
            }
            if p == goal && stop_at_goal {
                break;
            }
            for &o in rt.precondition_of.get(p) {
                let oi = o as usize;
                self.pre_cost[oi] = match combine {
                    Combine::Max => self.pre_cost[oi].max(c),
                    Combine::Add => self.pre_cost[oi].saturating_add(c),
                };
                self.unsatisfied[oi] -= 1;
                if self.unsatisfied[oi] == 0 {
                    self.last_pre[oi] = p;
                    let total = self.pre_cost[oi].saturating_add(cost(o));
                    for &e in rt.eff(o) {
                        self.reach(e, total, o);
                    }
                }
            }
        }
        self.prop_cost[goal as usize]
    }
}

/// Keys up to this use buckets; larger keys switch the queue to a heap.
const MAX_BUCKET_KEY: Cost = 1 << 16;

/// A monotone priority queue of propositions: a bucket queue while keys
/// are small (unit and small costs, the common case), a binary heap
/// otherwise (as Fast Downward's adaptive queue).
#[derive(Clone, Debug, Default)]
pub(crate) struct CostQueue {
    buckets: Vec<Vec<u32>>,
    current: usize,
    in_buckets: usize,
    heap: BinaryHeap<Reverse<(Cost, u32)>>,
    use_heap: bool,
}

impl CostQueue {
    pub(crate) fn clear(&mut self) {
        for b in &mut self.buckets {
            b.clear();
        }
        self.current = 0;
        self.in_buckets = 0;
        self.heap.clear();
        self.use_heap = false;
    }

    #[inline]
    pub(crate) fn push(&mut self, key: Cost, p: u32) {
        if !self.use_heap && key > MAX_BUCKET_KEY {
            self.use_heap = true;
            for (k, bucket) in self.buckets.iter_mut().enumerate() {
                for q in bucket.drain(..) {
                    self.heap.push(Reverse((k as Cost, q)));
                }
            }
            self.in_buckets = 0;
        }
        if self.use_heap {
            self.heap.push(Reverse((key, p)));
            return;
        }
        let k = key as usize;
        if k >= self.buckets.len() {
            self.buckets.resize_with(k + 1, Vec::new);
        }
        self.buckets[k].push(p);
        self.current = self.current.min(k);
        self.in_buckets += 1;
    }

    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(Cost, u32)> {
        if self.use_heap {
            return self.heap.pop().map(|Reverse(e)| e);
        }
        if self.in_buckets == 0 {
            return None;
        }
        while self.buckets[self.current].is_empty() {
            self.current += 1;
        }
        self.in_buckets -= 1;
        let p = self.buckets[self.current].pop()?;
        Some((self.current as Cost, p))
    }
}

#[cfg(test)]
mod queue_tests {
    use super::*;

    #[test]
    fn cost_queue_orders_and_switches_to_heap() {
        let mut q = CostQueue::default();
        q.push(3, 1);
        q.push(1, 2);
        assert_eq!(q.pop(), Some((1, 2)));
        q.push(MAX_BUCKET_KEY + 5, 3);
        q.push(2, 4);
        assert_eq!(q.pop(), Some((2, 4)));
        assert_eq!(q.pop(), Some((3, 1)));
        assert_eq!(q.pop(), Some((MAX_BUCKET_KEY + 5, 3)));
        assert_eq!(q.pop(), None);
        q.clear();
        q.push(0, 7);
        assert_eq!(q.pop(), Some((0, 7)));
    }
}
