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
//! operators. Deletes and negative conditions are ignored, except where
//! h_add and h_FF need a fact false in the goal (below).
//!
//! Numbers depend on the heuristic:
//! - h_max and LM-cut ([`RelaxedTask::new`]) ignore numeric conditions
//!   and effects: the relaxation only gets easier, so they stay
//!   admissible (numeric goals are not counted either).
//! - h_add and h_FF ([`RelaxedTask::with_numeric`]) add linear numeric
//!   conditions (of preconditions, effect conditions, axiom bodies and the
//!   goal) as propositions after the "false" ones below, reached by operators whose numeric
//!   effects move them the right way, at the cost of enough repetitions
//!   (see [`super::numeric`]); non-linear conditions are ignored. Dead ends
//!   found this way are real ones.
//!
//! For h_add and h_FF the negative literals of the goal and of axiom
//! bodies on facts that no axiom derives count too: each such fact gets a
//! proposition "false" (after `TRUE`), true in a state without the fact
//! and reached by the operators (and conditional effects) that delete it.
//! Without them a state whose only unsatisfied goals are negative, such
//! as "no fire anywhere" (also through a derived goal, as a disjunctive
//! goal becomes), gets h = 0, and greedy search, seeing a goal where there
//! is none, wanders. The relaxation only gets harder where a plan must
//! delete something, as a real plan must too, so dead ends found this way
//! are real ones as well. Operators' negative preconditions stay ignored.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use pddl_ground::Task;
use pddl_ground::task::{Cost, FactId, Operator, OperatorId};

use super::numeric::NumericRelaxation;
use crate::state::{StateView, has_fact, true_facts};
pub use gates::Gates;
use gates::{GATE, GATED_PIECE, NO_GATE};

pub mod gates;

/// Which costs a heuristic sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostType {
    /// The operators' real costs (for A*).
    Real,
    /// Real cost plus one unit of the metric, so that zero-cost operators
    /// are not free.
    PlusOne,
    /// Every operator costs 1 (plan length; what greedy search uses).
    Unit,
}

impl CostType {
    /// The cost a heuristic sees for operator `op` of `task` (one unit of
    /// the metric is [`pddl_ground::task::CostModel::scale`] cost units).
    pub fn operator_cost(self, task: &Task, op: &Operator) -> Cost {
        match self {
            CostType::Real => op.cost,
            CostType::PlusOne => op.cost.saturating_add(task.cost_model.scale()),
            CostType::Unit => 1,
        }
    }
}

/// A relaxed operator. Its effects and cost are kept apart
/// ([`RelaxedTask::eff`], [`RelaxedTask::cost`]): firing an operator
/// reads only those, from arrays a quarter of the size of these records
/// (transport p10, 32 000 operators: 10 % faster).
#[derive(Clone, Copy, Debug)]
pub struct RelaxedOp {
    /// Range of its preconditions in [`RelaxedTask::pre_pool`] (never empty).
    pub pre: (u32, u32),
    /// The operator it comes from; `None` for axioms and the goal operator.
    pub origin: Option<OperatorId>,
}

/// A compressed-sparse-row list: for each key (a proposition, an
/// operator, a state), a list of ids (operators, pieces, transitions).
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
    /// Propositional effects of all operators.
    pub eff_pool: Vec<u32>,
    /// Per operator, where its effects start in `eff_pool`, and where the
    /// last one's end.
    eff_start: Vec<u32>,
    /// Per operator, the adjusted cost of its origin operator (0 for
    /// axioms and the goal).
    costs: Vec<Cost>,
    /// Per proposition, the operators having it as precondition.
    pub precondition_of: Adjacency,
    /// Per proposition, the operators having it as propositional effect.
    pub achievers: Adjacency,
    /// Facts the goal needs false, whose "false" propositions are
    /// `facts + 2 ..`, before the numeric conditions (empty unless built by
    /// [`RelaxedTask::with_numeric`]).
    pub negated: Vec<FactId>,
    /// Numeric conditions as propositions from
    /// [`RelaxedTask::first_numeric_prop`] on (empty unless built by
    /// [`RelaxedTask::with_numeric`]).
    pub numeric: NumericRelaxation,
    /// How [`Exploration`] counts preconditions: the operators whose many
    /// pieces share a gate (see [`gates`](mod@gates)).
    pub gates: Gates,
}

impl RelaxedTask {
    /// Builds the relaxation of a task under a cost type, ignoring numeric
    /// conditions and effects (what h_max and LM-cut use).
    pub fn new(task: &Task, cost_type: CostType) -> Self {
        Self::build(task, cost_type, false)
    }

    /// Builds the relaxation with linear numeric conditions as
    /// propositions (see [`super::numeric`]; what h_add and h_FF use).
    pub fn with_numeric(task: &Task, cost_type: CostType) -> Self {
        Self::build(task, cost_type, true)
    }

    fn build(task: &Task, cost_type: CostType, numeric: bool) -> Self {
        let facts = task.facts.len();
        let valid = |f: &FactId| (*f as usize) < facts;
        let mut rt = RelaxedTask {
            facts,
            ops: Vec::new(),
            pre_pool: Vec::new(),
            eff_pool: Vec::new(),
            eff_start: vec![0],
            costs: Vec::new(),
            precondition_of: Adjacency::default(),
            achievers: Adjacency::default(),
            negated: Vec::new(),
            numeric: NumericRelaxation::default(),
            gates: Gates::default(),
        };
        if numeric {
            let mut derived: Vec<FactId> = task.axioms.iter().map(|ax| ax.head).collect();
            derived.sort_unstable();
            rt.negated = task
                .goal
                .neg
                .iter()
                .chain(task.axioms.iter().flat_map(|ax| &ax.body.neg))
                .copied()
                .filter(|f| valid(f) && derived.binary_search(f).is_err())
                .collect();
            rt.negated.sort_unstable();
            rt.negated.dedup();
        }
        let true_prop = rt.true_prop();
        let first_numeric = rt.first_numeric_prop();
        // Numeric conditions first: every condition must be known before
        // operators' changes to them are recorded.
        let mut nr = if numeric {
            NumericRelaxation::new(task)
        } else {
            NumericRelaxation::default()
        };
        let numeric_pre = |nr: &mut NumericRelaxation, conditions| -> Vec<u32> {
            if !numeric {
                return Vec::new();
            }
            nr.conditions_of(conditions)
                .into_iter()
                .map(|n| first_numeric + n)
                .collect()
        };
        let op_pre: Vec<Vec<u32>> = task
            .operators
            .iter()
            .map(|op| numeric_pre(&mut nr, &op.precondition.numeric))
            .collect();
        let ce_pre: Vec<Vec<Vec<u32>>> = task
            .operators
            .iter()
            .map(|op| {
                op.conditional
                    .iter()
                    .map(|ce| numeric_pre(&mut nr, &ce.condition.numeric))
                    .collect()
            })
            .collect();
        let axiom_pre: Vec<Vec<u32>> = task
            .axioms
            .iter()
            .map(|ax| numeric_pre(&mut nr, &ax.body.numeric))
            .collect();
        let goal_pre = numeric_pre(&mut nr, &task.goal.numeric);
        nr.finish_conditions(task.fluents.len());

        let add_op = |rt: &mut RelaxedTask,
                      nr: &mut NumericRelaxation,
                      pre: &mut Vec<u32>,
                      eff: &mut Vec<u32>,
                      changes: &[(u32, f64, u32)],
                      cost,
                      origin| {
            pre.sort_unstable();
            pre.dedup();
            eff.sort_unstable();
            eff.dedup();
            if pre.is_empty() {
                pre.push(true_prop);
            }
            let p0 = rt.pre_pool.len() as u32;
            rt.pre_pool.extend_from_slice(pre);
            rt.eff_pool.extend_from_slice(eff);
            rt.eff_start.push(rt.eff_pool.len() as u32);
            rt.costs.push(cost);
            rt.ops.push(RelaxedOp {
                pre: (p0, rt.pre_pool.len() as u32),
                origin,
            });
            if numeric {
                nr.add_op(changes);
            }
        };
        let (mut pre, mut eff) = (Vec::new(), Vec::new());
        let mut changes = Vec::new();
        // Per operator with conditional effects: its pieces and the
        // precondition they share, for the gates.
        let mut pieces = Vec::new();
        for (i, op) in task.operators.iter().enumerate() {
            let cost = cost_type.operator_cost(task, op);
            let mut base: Vec<u32> = op.precondition.pos.iter().copied().filter(valid).collect();
            base.extend_from_slice(&op_pre[i]);
            let first_piece = rt.ops.len() as u32;
            if numeric {
                changes = nr.changes_by(task, i as u32, None);
            }
            eff.clear();
            eff.extend(op.del.iter().filter_map(|&f| rt.negated_prop(f)));
            if !op.add.is_empty() || !changes.is_empty() || !eff.is_empty() {
                pre.clone_from(&base);
                eff.extend(op.add.iter().copied().filter(valid));
                let origin = Some(i as OperatorId);
                add_op(&mut rt, &mut nr, &mut pre, &mut eff, &changes, cost, origin);
            }
            for (c, ce) in op.conditional.iter().enumerate() {
                if numeric {
                    changes = nr.changes_by(task, i as u32, Some(c as u32));
                }
                eff.clear();
                eff.extend(ce.del.iter().filter_map(|&f| rt.negated_prop(f)));
                if ce.add.is_empty() && changes.is_empty() && eff.is_empty() {
                    continue;
                }
                pre.clone_from(&base);
                pre.extend(ce.condition.pos.iter().copied().filter(valid));
                pre.extend_from_slice(&ce_pre[i][c]);
                eff.extend(ce.add.iter().copied().filter(valid));
                let origin = Some(i as OperatorId);
                add_op(&mut rt, &mut nr, &mut pre, &mut eff, &changes, cost, origin);
            }
            if !op.conditional.is_empty() {
                base.sort_unstable();
                base.dedup();
                pieces.push((first_piece, rt.ops.len() as u32, base));
            }
        }
        for (a, ax) in task.axioms.iter().enumerate() {
            if !valid(&ax.head) {
                continue;
            }
            pre.clear();
            pre.extend(ax.body.pos.iter().copied().filter(valid));
            pre.extend(ax.body.neg.iter().filter_map(|&f| rt.negated_prop(f)));
            pre.extend_from_slice(&axiom_pre[a]);
            eff.clear();
            eff.push(ax.head);
            add_op(&mut rt, &mut nr, &mut pre, &mut eff, &[], 0, None);
        }
        pre.clear();
        pre.extend(task.goal.pos.iter().copied().filter(valid));
        pre.extend(task.goal.neg.iter().filter_map(|&f| rt.negated_prop(f)));
        pre.extend_from_slice(&goal_pre);
        eff.clear();
        eff.push(rt.goal_prop());
        add_op(&mut rt, &mut nr, &mut pre, &mut eff, &[], 0, None);
        rt.numeric = nr;

        let props = rt.props();
        let relaxed = &rt;
        let eff_pairs =
            (0..rt.ops.len() as u32).flat_map(|o| relaxed.eff(o).iter().map(move |&p| (p, o)));
        let achievers = Adjacency::build(props, eff_pairs);
        rt.achievers = achievers;
        rt.precondition_of = rt.precondition_lists(|_| true);
        rt.gates = Gates::new(&rt, pieces, gates::MIN_GATED_PIECES);
        rt
    }

    /// Takes the operators that cannot help reach the goal out of the
    /// propositions' precondition lists, so that an exploration never
    /// triggers them (Fast Downward's translator drops them from the task
    /// by a like analysis). An operator is relevant if it adds a relevant
    /// proposition or changes a numeric condition; a proposition is
    /// relevant if it is the goal or a precondition of a relevant
    /// operator. Only irrelevant operators add irrelevant propositions,
    /// so the costs of the goal and of every relevant proposition and
    /// their best supporters stay the same, and with them h_max, h_add,
    /// h_FF's relaxed plans and its preferred operators; irrelevant
    /// propositions stay unreached. Where a task has many such operators
    /// (schedule keeps 5 of 97, airport 18 of 44, logistics 61 of 85), an
    /// evaluation does that much less.
    pub fn ignore_irrelevant_operators(&mut self) {
        let mut relevant_prop = vec![false; self.props()];
        let mut relevant_op = vec![false; self.ops.len()];
        relevant_prop[self.goal_prop() as usize] = true;
        // Relevant propositions whose achievers are still to be marked,
        // and operators found relevant whose preconditions are.
        let mut props = vec![self.goal_prop()];
        let mut ops: Vec<u32> = (0..self.ops.len() as u32)
            .filter(|&o| {
                !self.numeric.changes_of(o).is_empty() || !self.numeric.nets_of(o).is_empty()
            })
            .collect();
        loop {
            for o in ops.drain(..) {
                if std::mem::replace(&mut relevant_op[o as usize], true) {
                    continue;
                }
                for &q in self.pre(o) {
                    if !std::mem::replace(&mut relevant_prop[q as usize], true) {
                        props.push(q);
                    }
                }
            }
            let Some(p) = props.pop() else { break };
            ops.extend_from_slice(self.achievers.get(p));
        }
        self.precondition_of = self.precondition_lists(|o| relevant_op[o as usize]);
        let mut gates = std::mem::take(&mut self.gates);
        gates.count(self, |o| relevant_op[o as usize]);
        self.gates = gates;
    }

    /// The same relaxation with gates for the operators of `min_pieces`
    /// pieces or more (a test's way past [`gates::MIN_GATED_PIECES`]).
    #[cfg(test)]
    pub(crate) fn with_gates_from(mut self, min_pieces: usize) -> Self {
        self.gates = Gates::regate(&self, min_pieces);
        self
    }

    /// Per proposition, the operators `keep` keeps that have it as a
    /// precondition.
    fn precondition_lists(&self, keep: impl Fn(u32) -> bool) -> Adjacency {
        let pre_pairs = (0..self.ops.len() as u32)
            .filter(|&o| keep(o))
            .flat_map(|o| self.pre(o).iter().map(move |&p| (p, o)));
        Adjacency::build(self.props(), pre_pairs)
    }

    /// The "false" proposition of `negated[0]` (the others follow).
    pub fn first_negated_prop(&self) -> u32 {
        self.facts as u32 + 2
    }

    /// The "false" proposition of fact `f`, if the relaxation has one (a
    /// fact the goal or an axiom needs false).
    pub(crate) fn negated_prop(&self, f: FactId) -> Option<u32> {
        let i = self.negated.binary_search(&f).ok()?;
        Some(self.first_negated_prop() + i as u32)
    }

    /// The proposition of numeric condition 0 (conditions follow).
    pub fn first_numeric_prop(&self) -> u32 {
        self.first_negated_prop() + self.negated.len() as u32
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
        self.facts + 2 + self.negated.len() + self.numeric.conditions.len()
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
        let o = o as usize;
        &self.eff_pool[self.eff_start[o] as usize..self.eff_start[o + 1] as usize]
    }

    /// Adjusted cost of relaxed operator `o`'s origin operator (0 for
    /// axioms and the goal).
    #[inline]
    pub fn cost(&self, o: u32) -> Cost {
        self.costs[o as usize]
    }

    /// Whether proposition `p` is true in a state's fact bits (numeric
    /// conditions: see [`Exploration::holds`]).
    #[inline]
    pub fn holds(&self, facts: &[u64], p: u32) -> bool {
        if (p as usize) < self.facts {
            has_fact(facts, p)
        } else if let Some(&f) = p
            .checked_sub(self.first_negated_prop())
            .and_then(|i| self.negated.get(i as usize))
        {
            !has_fact(facts, f)
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

/// Per relaxed operator, the exploration's running state; kept together
/// (one cache line holds eight) and reset with one copy per evaluation.
#[derive(Clone, Copy, Debug)]
struct OpState {
    /// Preconditions not reached yet.
    unsatisfied: u32,
    /// Combined cost of the preconditions reached so far, saturating at
    /// `u32::MAX` (a finite cost: the struct then takes 8 bytes, halving
    /// the memory each evaluation resets and touches).
    pre_cost: u32,
}

impl OpState {
    /// Records a precondition reached at cost `c` (combined by max with
    /// `MAX`, else summed); the operator's precondition cost once every
    /// precondition is reached.
    #[inline(always)]
    fn precondition_reached<const MAX: bool>(&mut self, c: Cost) -> Option<Cost> {
        let combined = self.combine::<MAX>(c);
        self.unsatisfied -= 1;
        (self.unsatisfied == 0).then_some(combined)
    }

    /// Combines cost `c` into the precondition cost (by max with `MAX`,
    /// else summed; saturating at 2^32 − 1) and returns the result.
    #[inline(always)]
    fn combine<const MAX: bool>(&mut self, c: Cost) -> Cost {
        let c = u32::try_from(c).unwrap_or(u32::MAX);
        self.pre_cost = if MAX {
            self.pre_cost.max(c)
        } else {
            self.pre_cost.saturating_add(c)
        };
        Cost::from(self.pre_cost)
    }
}

/// Generalised Dijkstra over the relaxed task (h_max / h_add costs of all
/// propositions and their best supporters).
#[derive(Clone, Debug)]
pub struct Exploration {
    /// Cost of each proposition ([`INFINITE`] when unreached).
    pub prop_cost: Vec<Cost>,
    /// Operator that reached each proposition most cheaply.
    pub supporter: Vec<u32>,
    /// Per numeric condition: repetitions of its supporter (valid once
    /// reached by an operator).
    pub repetitions: Vec<Cost>,
    /// Per numeric condition: its expression's value in the state.
    condition_value: Vec<f64>,
    /// Whether the latest run released conditions it could not judge
    /// (see [`super::numeric`]): its costs are then partly guesses.
    released: bool,
    op_state: Vec<OpState>,
    /// `op_state` before an evaluation: all preconditions unsatisfied.
    op_state_init: Vec<OpState>,
    /// The compact form of `op_state` for h_max on tasks without numeric
    /// propositions: only the unsatisfied counts (a quarter of the memory
    /// to reset and to touch per precondition reached), since there the
    /// costliest precondition is simply the last one reached.
    unsatisfied: Vec<u32>,
    /// `unsatisfied` before an evaluation.
    unsatisfied_init: Vec<u32>,
    /// Compact form: each triggered operator's precondition cost.
    max_pre_cost: Vec<Cost>,
    /// Whether the latest run used the compact form.
    compact: bool,
    queue: CostQueue,
    /// The gates' state (see [`gates`]).
    gates: GateState,
}

/// An exploration's state of the gates of [`RelaxedTask::gates`].
#[derive(Clone, Debug)]
struct GateState {
    /// Per gate, its shared precondition's count and cost, as a piece's.
    state: Vec<OpState>,
    /// `state` before an evaluation.
    state_init: Vec<OpState>,
    /// The pieces ready to fire once their gates open, a bit each (see
    /// [`Gates::ready_bit`]).
    ready: Vec<u64>,
}

impl GateState {
    fn new(rt: &RelaxedTask) -> Self {
        let gates = &rt.gates;
        let state_init: Vec<OpState> = (0..gates.len() as u32)
            .map(|g| OpState {
                unsatisfied: gates.shared.get(g).len() as u32,
                pre_cost: 0,
            })
            .collect();
        GateState {
            state: state_init.clone(),
            state_init,
            ready: gates.ready_init.clone(),
        }
    }

    /// Whether relaxed operator `o` of `rt`'s gate, if it has one, is open.
    fn open_for(&self, rt: &RelaxedTask, o: u32) -> bool {
        match rt.gates.gate_of.get(o as usize) {
            Some(&g) if g != NO_GATE => self.state[g as usize].unsatisfied == 0,
            _ => true,
        }
    }
}

impl Exploration {
    /// Buffers for a relaxed task.
    pub fn new(rt: &RelaxedTask) -> Self {
        let op_state_init: Vec<OpState> = rt
            .gates
            .counter_init
            .iter()
            .map(|&unsatisfied| OpState {
                unsatisfied,
                pre_cost: 0,
            })
            .collect();
        Exploration {
            prop_cost: vec![INFINITE; rt.props()],
            supporter: vec![u32::MAX; rt.props()],
            repetitions: vec![1; rt.numeric.conditions.len()],
            condition_value: vec![0.0; rt.numeric.conditions.len()],
            released: false,
            unsatisfied: op_state_init.iter().map(|s| s.unsatisfied).collect(),
            unsatisfied_init: op_state_init.iter().map(|s| s.unsatisfied).collect(),
            max_pre_cost: vec![0; rt.ops.len()],
            compact: false,
            op_state: op_state_init.clone(),
            op_state_init,
            queue: CostQueue::default(),
            gates: GateState::new(rt),
        }
    }

    /// The value of numeric condition `n`'s expression in the state of
    /// the latest run.
    #[inline]
    pub fn condition_value(&self, n: u32) -> f64 {
        self.condition_value
            .get(n as usize)
            .copied()
            .unwrap_or(f64::NAN)
    }

    /// The combined precondition cost of relaxed operator `o` of `rt` if
    /// the latest run reached all its preconditions.
    #[inline]
    pub fn reached_pre_cost(&self, rt: &RelaxedTask, o: u32) -> Option<Cost> {
        if !self.gates.open_for(rt, o) {
            return None;
        }
        if self.compact {
            return (self.unsatisfied.get(o as usize) == Some(&0))
                .then(|| self.max_pre_cost[o as usize]);
        }
        self.op_state
            .get(o as usize)
            .filter(|s| s.unsatisfied == 0)
            .map(|s| Cost::from(s.pre_cost))
    }

    /// Whether the latest run had to release numeric conditions that the
    /// repetition count cannot judge to reach the goal.
    #[inline]
    pub fn released(&self) -> bool {
        self.released
    }

    /// Whether proposition `p` holds in the state of the latest run.
    #[inline]
    pub fn holds(&self, rt: &RelaxedTask, facts: &[u64], p: u32) -> bool {
        match p.checked_sub(rt.first_numeric_prop()) {
            Some(n) => self
                .condition_value
                .get(n as usize)
                .is_some_and(|&v| rt.numeric.conditions[n as usize].satisfied_by(v)),
            None => rt.holds(facts, p),
        }
    }

    /// Runs the exploration from the state with operator costs `cost(o)`;
    /// returns the goal's cost, [`INFINITE`] if unreachable. With
    /// `stop_at_goal`, stops as soon as the goal's cost is known and every
    /// proposition a relaxed plan can use is settled, with its supporter
    /// (without numeric conditions, after the pop at which the goal
    /// operator fires; the costs of unsettled propositions are then upper
    /// bounds only).
    pub fn run(
        &mut self,
        rt: &RelaxedTask,
        state: StateView<'_>,
        combine: Combine,
        stop_at_goal: bool,
        cost: impl Fn(u32) -> Cost,
    ) -> Cost {
        // One monomorphised loop per combination rule keeps the hot loop
        // free of the `match`.
        match combine {
            Combine::Max => self.run_with::<true>(rt, state, stop_at_goal, cost),
            Combine::Add => self.run_with::<false>(rt, state, stop_at_goal, cost),
        }
    }

    fn run_with<const MAX: bool>(
        &mut self,
        rt: &RelaxedTask,
        state: StateView<'_>,
        stop_at_goal: bool,
        cost: impl Fn(u32) -> Cost,
    ) -> Cost {
        let Exploration {
            prop_cost,
            supporter,
            repetitions,
            condition_value,
            released: released_flag,
            op_state,
            op_state_init,
            unsatisfied,
            unsatisfied_init,
            max_pre_cost,
            compact: compact_flag,
            queue,
            gates,
        } = self;
        // Without numeric propositions nothing is released, so costs are
        // popped in non-decreasing order and, with MAX, an operator's
        // costliest precondition is the last one reached.
        let compact = MAX && rt.numeric.conditions.is_empty();
        *compact_flag = compact;
        // Slices, not the vectors: their addresses and lengths then stay
        // in registers across the queue's pushes in the hot loop.
        let prop_cost = prop_cost.as_mut_slice();
        let supporter = supporter.as_mut_slice();
        let unsatisfied = unsatisfied.as_mut_slice();
        let max_pre_cost = max_pre_cost.as_mut_slice();
        let op_state = op_state.as_mut_slice();
        prop_cost.fill(INFINITE);
        *released_flag = false;
        queue.clear();
        if compact {
            unsatisfied.copy_from_slice(unsatisfied_init);
        } else {
            op_state.copy_from_slice(op_state_init);
        }
        gates.state.copy_from_slice(&gates.state_init);
        gates.ready.copy_from_slice(&rt.gates.ready_init);
        for p in true_facts(state.facts).take_while(|&p| (p as usize) < rt.facts) {
            reach(prop_cost, supporter, queue, p, 0, u32::MAX);
        }
        reach(prop_cost, supporter, queue, rt.true_prop(), 0, u32::MAX);
        let first_negated = rt.first_negated_prop();
        for (i, &f) in rt.negated.iter().enumerate() {
            if !has_fact(state.facts, f) {
                let p = first_negated + i as u32;
                reach(prop_cost, supporter, queue, p, 0, u32::MAX);
            }
        }
        let nr = &rt.numeric;
        let first_numeric = rt.first_numeric_prop();
        for (n, cond) in nr.conditions.iter().enumerate() {
            let value = cond.expr.eval(state.fluents);
            condition_value[n] = value;
            if cond.satisfied_by(value) {
                reach(
                    prop_cost,
                    supporter,
                    queue,
                    first_numeric + n as u32,
                    0,
                    u32::MAX,
                );
            }
        }
        let goal = rt.goal_prop();
        let classical = Propagation {
            rt,
            goal,
            stop_at_goal,
            prop_cost,
            supporter,
            queue,
            gates,
        };
        if nr.conditions.is_empty() {
            let compact_counters = CompactCounters {
                unsatisfied,
                max_pre_cost,
            };
            let full_counters = FullCounters::<MAX> { op_state };
            return match (compact, !rt.gates.is_empty()) {
                (true, false) => classical.run::<MAX, false, _>(&cost, compact_counters),
                (true, true) => classical.run::<MAX, true, _>(&cost, compact_counters),
                (false, false) => classical.run::<MAX, false, _>(&cost, full_counters),
                (false, true) => classical.run::<MAX, true, _>(&cost, full_counters),
            };
        }
        debug_assert!(rt.gates.is_empty(), "no gates with numeric conditions");
        // From here on the task has numeric propositions (never compact).
        let Propagation {
            prop_cost,
            supporter,
            queue,
            ..
        } = classical;
        let numeric_changes = !nr.changes.is_empty();
        let mut last_cost = 0;
        let mut released = false;
        loop {
            while let Some((c, p)) = queue.pop() {
                if c > prop_cost[p as usize] {
                    continue;
                }
                last_cost = c;
                if p == goal && stop_at_goal {
                    return c;
                }
                for &o in rt.precondition_of.get(p) {
                    let triggered = op_state[o as usize].precondition_reached::<MAX>(c);
                    if let Some(pre_cost) = triggered {
                        let op_cost = cost(o);
                        let total = pre_cost.saturating_add(op_cost);
                        for &e in rt.eff(o) {
                            reach(prop_cost, supporter, queue, e, total, o);
                        }
                        if !numeric_changes {
                            continue;
                        }
                        for change in nr.changes_of(o) {
                            let n = change.condition as usize;
                            let p = first_numeric + change.condition;
                            if prop_cost[p as usize] <= total {
                                continue; // reached already, at least as cheaply
                            }
                            let value = condition_value[n];
                            if let Some(r) = nr.repetitions(change, value, state.fluents) {
                                let via = pre_cost.saturating_add(op_cost.saturating_mul(r));
                                if via < prop_cost[p as usize] {
                                    repetitions[n] = r;
                                    reach(prop_cost, supporter, queue, p, via, o);
                                }
                            }
                        }
                    }
                }
            }
            if released || !nr.has_non_simple || prop_cost[goal as usize] != INFINITE {
                break;
            }
            // The goal is unreached: release the conditions whose effects
            // the repetition count cannot judge (see `numeric`), so that
            // they never make a dead end.
            released = true;
            *released_flag = true;
            let release_cost = last_cost.saturating_add(1);
            for (n, cond) in nr.conditions.iter().enumerate() {
                let p = first_numeric + n as u32;
                if !cond.simple && prop_cost[p as usize] == INFINITE {
                    repetitions[n] = 0;
                    reach(prop_cost, supporter, queue, p, release_cost, u32::MAX);
                }
            }
        }
        prop_cost[goal as usize]
    }
}

/// The goal's cost in a delete relaxation under one combination rule:
/// all of h_max and h_add but which relaxation they explore and how.
#[derive(Clone, Debug)]
pub struct GoalCost {
    relaxed: RelaxedTask,
    exploration: Exploration,
    combine: Combine,
}

impl GoalCost {
    /// Explores `relaxed`, without the operators that cannot lead to the
    /// goal, combining precondition costs by `combine`.
    pub fn new(mut relaxed: RelaxedTask, combine: Combine) -> Self {
        relaxed.ignore_irrelevant_operators();
        let exploration = Exploration::new(&relaxed);
        GoalCost {
            relaxed,
            exploration,
            combine,
        }
    }

    /// The goal's cost from `state`; `None` where the relaxation cannot
    /// reach it (a dead end).
    pub fn evaluate(&mut self, state: StateView<'_>) -> Option<Cost> {
        let rt = &self.relaxed;
        let h = self
            .exploration
            .run(rt, state, self.combine, true, |o| rt.cost(o));
        (h != INFINITE).then_some(h)
    }
}

/// The precondition counters of the relaxed operators, as a propagation
/// updates them.
trait Counters {
    /// Records a precondition of `o` reached at cost `c`; `o`'s combined
    /// precondition cost so far once it has counted all it counts (for a
    /// gated piece, its own condition).
    fn reached(&mut self, o: u32, c: Cost) -> Option<Cost>;

    /// Lets gated piece `o`, its own condition complete, fire behind its
    /// gate's precondition of cost `gate_cost`, at a pop of cost `c`;
    /// returns its whole precondition's cost.
    fn released(&mut self, o: u32, gate_cost: Cost, c: Cost) -> Cost;
}

/// h_max's compact counters: costs are popped in non-decreasing order, so
/// the last precondition reached is the costliest.
struct CompactCounters<'a> {
    unsatisfied: &'a mut [u32],
    max_pre_cost: &'a mut [Cost],
}

impl Counters for CompactCounters<'_> {
    #[inline(always)]
    fn reached(&mut self, o: u32, c: Cost) -> Option<Cost> {
        let left = &mut self.unsatisfied[o as usize];
        *left -= 1;
        (*left == 0).then(|| {
            self.max_pre_cost[o as usize] = c;
            c
        })
    }

    #[inline(always)]
    fn released(&mut self, o: u32, _: Cost, c: Cost) -> Cost {
        self.max_pre_cost[o as usize] = c;
        c
    }
}

/// Counters with the combined precondition cost (by max with `MAX`, else
/// summed).
struct FullCounters<'a, const MAX: bool> {
    op_state: &'a mut [OpState],
}

impl<const MAX: bool> Counters for FullCounters<'_, MAX> {
    #[inline(always)]
    fn reached(&mut self, o: u32, c: Cost) -> Option<Cost> {
        self.op_state[o as usize].precondition_reached::<MAX>(c)
    }

    #[inline(always)]
    fn released(&mut self, o: u32, gate_cost: Cost, _: Cost) -> Cost {
        self.op_state[o as usize].combine::<MAX>(gate_cost)
    }
}

/// The queue's propagation on a task without numeric propositions, apart
/// from the general loop in [`Exploration::run`]: with fewer live values
/// its hot loop keeps them in registers (A* with h_max on Puzznic: 5 %
/// faster). Nothing is released there, so costs are popped in
/// non-decreasing order.
struct Propagation<'a> {
    rt: &'a RelaxedTask,
    goal: u32,
    stop_at_goal: bool,
    prop_cost: &'a mut [Cost],
    supporter: &'a mut [u32],
    queue: &'a mut CostQueue,
    gates: &'a mut GateState,
}

impl Propagation<'_> {
    /// Runs the queue dry (or, with `stop_at_goal`, until the pop at which
    /// the goal operator fires), `counters` counting the preconditions reached
    /// (with `MAX`, gates combine their costs by max, else by sum).
    /// Returns the goal's cost. `GATED` says whether the task has gates:
    /// without, the loop has none of their tests.
    #[inline(never)]
    fn run<const MAX: bool, const GATED: bool, C: Counters>(
        self,
        cost: &impl Fn(u32) -> Cost,
        mut counters: C,
    ) -> Cost {
        let Propagation {
            rt,
            goal,
            stop_at_goal,
            prop_cost,
            supporter,
            queue,
            gates,
        } = self;
        let plan = &rt.gates;
        let mut fired = Fired {
            rt,
            cost,
            prop_cost,
            supporter,
            queue,
        };
        while let Some((c, p)) = fired.queue.pop() {
            if c > fired.prop_cost[p as usize] {
                continue;
            }
            // Without gates the counted lists are the precondition lists.
            let counted = if GATED {
                plan.counted_of.get(p)
            } else {
                rt.precondition_of.get(p)
            };
            for &entry in counted {
                if !GATED || entry < GATED_PIECE {
                    if let Some(pre_cost) = counters.reached(entry, c) {
                        fired.fire(entry, pre_cost);
                    }
                } else if entry & GATE == 0 {
                    let o = entry & !GATED_PIECE;
                    if counters.reached(o, c).is_some() {
                        own_complete(&mut fired, &mut counters, gates, o, c);
                    }
                } else {
                    let g = entry & !GATE;
                    if gates.state[g as usize]
                        .precondition_reached::<MAX>(c)
                        .is_some()
                    {
                        release(&mut fired, &mut counters, gates, g, c);
                    }
                }
            }
            // The goal is reached only by the goal operator, which fires
            // once every goal fact is popped: every proposition and
            // supporter a relaxed plan can use is settled then, costs
            // being popped in non-decreasing order. The goal itself,
            // queued at the sum of their costs with h_add, would be popped
            // only after every proposition cheaper than that (depot p04:
            // 9 % of the whole run).
            if stop_at_goal && fired.prop_cost[goal as usize] != INFINITE {
                return fired.prop_cost[goal as usize];
            }
        }
        fired.prop_cost[goal as usize]
    }
}

/// What firing a relaxed operator touches: its effects reach propositions.
struct Fired<'a, F> {
    rt: &'a RelaxedTask,
    cost: &'a F,
    prop_cost: &'a mut [Cost],
    supporter: &'a mut [u32],
    queue: &'a mut CostQueue,
}

impl<F: Fn(u32) -> Cost> Fired<'_, F> {
    /// Fires relaxed operator `o`, whose preconditions cost `pre_cost`.
    #[inline(always)]
    fn fire(&mut self, o: u32, pre_cost: Cost) {
        let total = pre_cost.saturating_add((self.cost)(o));
        for &e in self.rt.eff(o) {
            reach(self.prop_cost, self.supporter, self.queue, e, total, o);
        }
    }
}

/// Gated piece `o` has counted its own condition (its counters hold the
/// cost): it fires now if its gate is open, else it is ready for when it
/// opens.
#[inline(always)]
fn own_complete<F: Fn(u32) -> Cost, C: Counters>(
    fired: &mut Fired<'_, F>,
    counters: &mut C,
    gates: &mut GateState,
    o: u32,
    c: Cost,
) {
    let g = fired.rt.gates.gate_of[o as usize];
    let gate = gates.state[g as usize];
    if gate.unsatisfied == 0 {
        let pre_cost = counters.released(o, Cost::from(gate.pre_cost), c);
        fired.fire(o, pre_cost);
    } else {
        let (word, bit) = fired.rt.gates.ready_bit(g, o);
        gates.ready[word] |= bit;
    }
}

/// Gate `g` opened at a pop of cost `c`: its pieces ready to fire (their
/// own conditions complete, or none) fire, in index order.
#[inline(never)]
fn release<F: Fn(u32) -> Cost, C: Counters>(
    fired: &mut Fired<'_, F>,
    counters: &mut C,
    gates: &mut GateState,
    g: u32,
    c: Cost,
) {
    let plan = &fired.rt.gates;
    let gate_cost = Cost::from(gates.state[g as usize].pre_cost);
    let first_piece = plan.pieces[g as usize].0;
    let words = plan.word_start[g as usize] as usize..plan.word_start[g as usize + 1] as usize;
    for (i, word) in words.enumerate() {
        let mut bits = gates.ready[word];
        while bits != 0 {
            let o = first_piece + (i * 64) as u32 + bits.trailing_zeros();
            bits &= bits - 1;
            let pre_cost = counters.released(o, gate_cost, c);
            fired.fire(o, pre_cost);
        }
    }
}

/// Lowers the cost of proposition `p` to `cost` (reached by `by`) if
/// that is an improvement, queueing it.
#[inline(always)]
fn reach(
    prop_cost: &mut [Cost],
    supporter: &mut [u32],
    queue: &mut CostQueue,
    p: u32,
    cost: Cost,
    by: u32,
) {
    let slot = &mut prop_cost[p as usize];
    if cost < *slot {
        *slot = cost;
        supporter[p as usize] = by;
        queue.push(cost, p);
    }
}

/// Keys up to this go to buckets, larger keys to a heap.
const MAX_BUCKET_KEY: Cost = 1 << 12;

/// A priority queue of propositions by cost: buckets for small keys (unit
/// and small costs, the common case), a binary heap for the larger ones
/// (as Fast Downward's adaptive queue, but without moving the buckets'
/// entries into the heap once a large key arrives: every bucket key is
/// below every heap key, so the buckets simply go first). Large operator
/// costs (parcprinter's hundreds of thousands, scaled decimals) thus pass
/// the states' facts at cost 0 through the buckets, and the buckets stay
/// few: before, each run with a key past 65 536 cleared and moved up to
/// 65 537 buckets, seven times the instructions of the search on
/// parcprinter p05. Equal keys pop in an order fixed by the pushes (last
/// in first out in a bucket, by proposition in the heap).
#[derive(Clone, Debug, Default)]
pub(crate) struct CostQueue {
    buckets: Vec<Vec<u32>>,
    /// No bucket below it holds entries.
    current: usize,
    in_buckets: usize,
    heap: BinaryHeap<Reverse<(Cost, u32)>>,
}

impl CostQueue {
    pub(crate) fn clear(&mut self) {
        // Only the buckets from `current` on until every entry is seen.
        let mut left = self.in_buckets;
        let mut k = self.current;
        while left > 0 {
            left -= self.buckets[k].len();
            self.buckets[k].clear();
            k += 1;
        }
        self.in_buckets = 0;
        self.current = 0;
        self.heap.clear();
    }

    /// Past the buckets, out of line: the hot loops mostly pop small keys.
    #[inline(never)]
    fn pop_from_heap(&mut self) -> Option<(Cost, u32)> {
        self.heap.pop().map(|Reverse(e)| e)
    }

    /// Queues `p` at `key`. The common case, a bucket that exists, is
    /// inlined into the explorations' loops, the rest kept out of line:
    /// inlined whole, the push made them spill registers (elevators p05:
    /// 1.7 % more instructions, stop 40); split so, it saves the call
    /// (depot p04: 2.9 % fewer instructions, elevators p05 0.8 %).
    #[inline(always)]
    pub(crate) fn push(&mut self, key: Cost, p: u32) {
        let k = key as usize;
        if key <= MAX_BUCKET_KEY && k < self.buckets.len() {
            self.buckets[k].push(p);
            self.current = self.current.min(k);
            self.in_buckets += 1;
        } else {
            self.push_slow(key, p);
        }
    }

    /// [`CostQueue::push`] past the buckets: to the heap, or to a bucket
    /// made for it.
    #[cold]
    #[inline(never)]
    fn push_slow(&mut self, key: Cost, p: u32) {
        if key > MAX_BUCKET_KEY {
            self.heap.push(Reverse((key, p)));
            return;
        }
        self.buckets.resize_with(key as usize + 1, Vec::new);
        self.push(key, p);
    }

    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(Cost, u32)> {
        if self.in_buckets == 0 {
            return self.pop_from_heap();
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
    fn cost_queue_pops_buckets_then_heap_in_order() {
        let mut q = CostQueue::default();
        q.push(3, 1);
        q.push(1, 2);
        assert_eq!(q.pop(), Some((1, 2)));
        q.push(MAX_BUCKET_KEY + 5, 3);
        q.push(2, 4);
        q.push(MAX_BUCKET_KEY + 1, 6);
        assert_eq!(q.pop(), Some((2, 4)));
        assert_eq!(q.pop(), Some((3, 1)));
        assert_eq!(q.pop(), Some((MAX_BUCKET_KEY + 1, 6)));
        q.push(MAX_BUCKET_KEY + 2, 7);
        assert_eq!(q.pop(), Some((MAX_BUCKET_KEY + 2, 7)));
        assert_eq!(q.pop(), Some((MAX_BUCKET_KEY + 5, 3)));
        assert_eq!(q.pop(), None);
        q.clear();
        q.push(0, 7);
        assert_eq!(q.pop(), Some((0, 7)));
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn cost_queue_clears_what_it_holds() {
        let mut q = CostQueue::default();
        q.push(9, 1);
        q.push(3, 2);
        q.push(MAX_BUCKET_KEY + 1, 5);
        assert_eq!(q.pop(), Some((3, 2)));
        q.clear();
        q.push(5, 3);
        assert_eq!(q.pop(), Some((5, 3)));
        assert_eq!(
            q.pop(),
            None,
            "the entries at 9 and past the buckets were cleared"
        );
        q.push(12, 4);
        assert_eq!(q.pop(), Some((12, 4)), "not the one at 9");
        assert_eq!(q.pop(), None);
    }
}
