//! Successor generation: which operators apply, and what applying one does.
//!
//! Applicable operators are found with a match tree over the operators'
//! sorted positive preconditions (as Fast Downward's successor
//! generator): each node lists the operators whose positive preconditions
//! are all decided on the path to it, and edges labelled by a fact lead to
//! operators that need that fact next. Only edges whose fact is true are
//! followed, so an expansion never scans all operators. Negative and
//! numeric preconditions are checked on the candidates.

use std::sync::Arc;

use pddl_ground::Task;
use pddl_ground::task::{Axiom, Conjunction, FactId, OperatorId};

use crate::heuristics::traps::TrapLearner;
use crate::state::{StateLayout, StatePacking, StateView, has_fact, set_fact};
use crate::symmetry::Symmetry;

mod forced;
use forced::ForcedTransitions;
pub use forced::{Forced, MAX_FORCED_STEPS};

/// One node of the match tree.
#[derive(Clone, Copy, Debug)]
struct MatchNode {
    /// Operators whose positive preconditions are all on the path here.
    ops: (u32, u32),
    /// Edges `(fact, child)` into `edges`.
    edges: (u32, u32),
}

/// The match tree.
#[derive(Debug)]
pub struct SuccessorGenerator {
    nodes: Vec<MatchNode>,
    edges: Vec<(FactId, u32)>,
    leaf_ops: Vec<OperatorId>,
    /// Per operator: whether negative or numeric preconditions remain to check.
    needs_check: Vec<bool>,
    stack: Vec<u32>,
}

impl SuccessorGenerator {
    /// Builds the match tree for the task's operators (iteratively: the
    /// depth is the length of a precondition, which the input controls).
    pub fn new(task: &Task) -> Self {
        let pres: Vec<Vec<FactId>> = task
            .operators
            .iter()
            .map(|op| {
                let mut p = op.precondition.pos.clone();
                p.sort_unstable();
                p.dedup();
                p
            })
            .collect();
        let needs_check = task
            .operators
            .iter()
            .map(|op| !op.precondition.neg.is_empty() || !op.precondition.numeric.is_empty())
            .collect();
        let mut nodes = vec![MatchNode {
            ops: (0, 0),
            edges: (0, 0),
        }];
        let mut edges = Vec::new();
        let mut leaf_ops = Vec::new();
        // Work items: (node index, depth, operators).
        let mut work: Vec<(usize, usize, Vec<OperatorId>)> =
            vec![(0, 0, (0..task.operators.len() as OperatorId).collect())];
        while let Some((node, depth, mut ops)) = work.pop() {
            let start = leaf_ops.len() as u32;
            leaf_ops.extend(
                ops.iter()
                    .copied()
                    .filter(|&o| pres[o as usize].len() == depth),
            );
            nodes[node].ops = (start, leaf_ops.len() as u32);
            ops.retain(|&o| pres[o as usize].len() > depth);
            ops.sort_by_key(|&o| (pres[o as usize][depth], o));
            let edge_start = edges.len() as u32;
            let mut i = 0;
            while i < ops.len() {
                let fact = pres[ops[i] as usize][depth];
                let mut j = i;
                while j < ops.len() && pres[ops[j] as usize][depth] == fact {
                    j += 1;
                }
                let child = nodes.len();
                nodes.push(MatchNode {
                    ops: (0, 0),
                    edges: (0, 0),
                });
                edges.push((fact, child as u32));
                work.push((child, depth + 1, ops[i..j].to_vec()));
                i = j;
            }
            nodes[node].edges = (edge_start, edges.len() as u32);
        }
        SuccessorGenerator {
            nodes,
            edges,
            leaf_ops,
            needs_check,
            stack: Vec::new(),
        }
    }

    /// Appends to `out` the operators whose positive preconditions hold;
    /// `needs_check(op)` tells which still need their other conditions checked.
    #[inline]
    fn candidates(&mut self, facts: &[u64], out: &mut Vec<OperatorId>) {
        self.stack.clear();
        self.stack.push(0);
        while let Some(n) = self.stack.pop() {
            let node = self.nodes[n as usize];
            out.extend_from_slice(&self.leaf_ops[node.ops.0 as usize..node.ops.1 as usize]);
            for &(fact, child) in &self.edges[node.edges.0 as usize..node.edges.1 as usize] {
                if has_fact(facts, fact) {
                    self.stack.push(child);
                }
            }
        }
    }
}

/// Evaluates derived predicates: derived facts are reset to false, then
/// each stratum is closed under its rules (counter-based propagation: an
/// axiom fires once all its same-stratum positive body facts are derived
/// and its other conditions, fixed by lower strata, hold).
#[derive(Debug)]
pub struct AxiomEvaluator {
    /// Axioms sorted by stratum.
    axioms: Vec<Axiom>,
    /// Per stratum, the range of `axioms`.
    strata: Vec<(usize, usize)>,
    /// Derived facts (heads).
    derived: Vec<FactId>,
    /// Per fact, the stratum that derives it (`u32::MAX` for basic facts).
    fact_stratum: Vec<u32>,
    /// Per axiom, its positive body facts derived in its own stratum.
    same_stratum_body: Vec<Vec<FactId>>,
    /// Per fact, the axioms whose same-stratum body contains it.
    triggers: Vec<Vec<u32>>,
    counters: Vec<u32>,
    queue: Vec<u32>,
}

impl AxiomEvaluator {
    /// Prepares the task's axioms.
    pub fn new(task: &Task) -> Self {
        let mut axioms = task.axioms.clone();
        axioms.retain(|a| (a.head as usize) < task.facts.len());
        axioms.sort_by_key(|a| a.stratum);
        let mut fact_stratum = vec![u32::MAX; task.facts.len()];
        for a in &axioms {
            let s = &mut fact_stratum[a.head as usize];
            *s = if *s == u32::MAX {
                a.stratum
            } else {
                (*s).max(a.stratum)
            };
        }
        let mut derived: Vec<FactId> = axioms.iter().map(|a| a.head).collect();
        derived.sort_unstable();
        derived.dedup();
        let mut strata = Vec::new();
        let mut i = 0;
        while i < axioms.len() {
            let mut j = i;
            while j < axioms.len() && axioms[j].stratum == axioms[i].stratum {
                j += 1;
            }
            strata.push((i, j));
            i = j;
        }
        let mut triggers = vec![Vec::new(); task.facts.len()];
        let same_stratum_body: Vec<Vec<FactId>> = axioms
            .iter()
            .enumerate()
            .map(|(ai, a)| {
                let mut body: Vec<FactId> = a
                    .body
                    .pos
                    .iter()
                    .copied()
                    .filter(|&f| fact_stratum.get(f as usize) == Some(&a.stratum))
                    .collect();
                body.sort_unstable();
                body.dedup();
                for &f in &body {
                    triggers[f as usize].push(ai as u32);
                }
                body
            })
            .collect();
        let counters = vec![0; axioms.len()];
        AxiomEvaluator {
            axioms,
            strata,
            derived,
            fact_stratum,
            same_stratum_body,
            triggers,
            counters,
            queue: Vec::new(),
        }
    }

    /// Whether the task has any axioms.
    pub fn is_empty(&self) -> bool {
        self.axioms.is_empty()
    }

    /// Recomputes the derived facts of a state in place.
    pub fn evaluate(&mut self, facts: &mut [u64], fluents: &[f64]) {
        for &f in &self.derived {
            set_fact(facts, f, false);
        }
        for &(start, end) in &self.strata {
            self.queue.clear();
            for ai in start..end {
                let a = &self.axioms[ai];
                let stratum = a.stratum;
                let view = StateView { facts, fluents };
                let fixed_part_holds =
                    a.body.pos.iter().all(|&f| {
                        self.fact_stratum.get(f as usize) == Some(&stratum) || view.has(f)
                    }) && a.body.neg.iter().all(|&f| !view.has(f))
                        && a.body.numeric.iter().all(|n| n.holds(fluents));
                if fixed_part_holds {
                    let n = self.same_stratum_body[ai].len() as u32;
                    self.counters[ai] = n;
                    if n == 0 {
                        self.queue.push(ai as u32);
                    }
                } else {
                    self.counters[ai] = u32::MAX;
                }
            }
            while let Some(ai) = self.queue.pop() {
                let head = self.axioms[ai as usize].head;
                if has_fact(facts, head) {
                    continue;
                }
                set_fact(facts, head, true);
                for &b in &self.triggers[head as usize] {
                    let c = &mut self.counters[b as usize];
                    if *c != u32::MAX && *c > 0 {
                        *c -= 1;
                        if *c == 0 {
                            self.queue.push(b);
                        }
                    }
                }
            }
        }
    }
}

/// A conditional effect as [`EffectTriggers`] checks it.
#[derive(Clone, Copy, Debug)]
struct CheckedEffect {
    /// Its index into the operator's `conditional`.
    index: u32,
    /// Its positive condition facts beyond the trigger are
    /// `condition_facts[facts_start..negative_start]`, its negative ones
    /// `condition_facts[negative_start..facts_end]`.
    facts_start: u32,
    negative_start: u32,
    facts_end: u32,
    /// Whether its condition has numeric comparisons (checked on the
    /// effect's own record).
    numeric: bool,
}

/// Marks a group of conditional effects without a positive condition fact:
/// it is checked in every state.
const ALWAYS: FactId = FactId::MAX;

/// Operators with at least this many groups of conditional effects find
/// the groups to check through a mask of their trigger facts.
const MASKED_MIN_GROUPS: usize = 16;

/// Most words of trigger masks, over all operators (32 MiB).
const MAX_MASK_WORDS: usize = 1 << 22;

/// Each operator's conditional effects grouped by one positive fact of
/// their condition (the trigger), so that applying an operator with
/// hundreds of conditional effects (Puzznic's gravity and matching steps)
/// checks full conditions only where the trigger holds. With many groups,
/// the true triggers are found by intersecting the state with a mask of
/// the operator's triggers, one word at a time. The conditions to check
/// are copied into one array, without the trigger, so that checking a
/// group reads consecutive memory instead of each effect's record and
/// lists (the default on Puzznic level 025: a tenth fewer first-level
/// cache misses).
#[derive(Debug)]
struct EffectTriggers {
    /// Per operator: its range in `groups`.
    ranges: Vec<(u32, u32)>,
    /// `(trigger fact or ALWAYS, range in effects)`, by increasing trigger.
    groups: Vec<(FactId, u32, u32)>,
    /// The effects of the groups, in their order.
    effects: Vec<CheckedEffect>,
    /// The condition facts of the effects beyond their triggers: for each
    /// effect its positive facts, then its negative ones.
    condition_facts: Vec<FactId>,
    /// Per operator: where its trigger mask starts in `masks`, or
    /// `u32::MAX` if it has none.
    mask_starts: Vec<u32>,
    /// Trigger masks, `fact_words` words each.
    masks: Vec<u64>,
    fact_words: usize,
}

impl EffectTriggers {
    fn new(task: &Task, fact_words: usize) -> Self {
        let mut ranges = Vec::with_capacity(task.operators.len());
        let mut groups = Vec::new();
        let mut effects = Vec::new();
        let mut condition_facts = Vec::new();
        let mut mask_starts = Vec::with_capacity(task.operators.len());
        let mut masks = Vec::new();
        let mut uses: hashbrown::HashMap<FactId, u32> = hashbrown::HashMap::new();
        let mut keyed: Vec<(FactId, u32)> = Vec::new();
        for op in &task.operators {
            // The trigger is the condition fact shared by the fewest of the
            // operator's effects, so that groups are small.
            uses.clear();
            for ce in &op.conditional {
                for &f in &ce.condition.pos {
                    *uses.entry(f).or_default() += 1;
                }
            }
            keyed.clear();
            keyed.extend(op.conditional.iter().enumerate().map(|(i, ce)| {
                let trigger = ce
                    .condition
                    .pos
                    .iter()
                    .copied()
                    .min_by_key(|f| (uses[f], *f))
                    .unwrap_or(ALWAYS);
                (trigger, i as u32)
            }));
            keyed.sort_unstable();
            let start = groups.len();
            for chunk in keyed.chunk_by(|a, b| a.0 == b.0) {
                let first = effects.len() as u32;
                let trigger = chunk[0].0;
                for &(_, e) in chunk {
                    let condition = &op.conditional[e as usize].condition;
                    let facts_start = condition_facts.len() as u32;
                    condition_facts.extend(condition.pos.iter().filter(|&&f| f != trigger));
                    let negative_start = condition_facts.len() as u32;
                    condition_facts.extend(&condition.neg);
                    effects.push(CheckedEffect {
                        index: e,
                        facts_start,
                        negative_start,
                        facts_end: condition_facts.len() as u32,
                        numeric: !condition.numeric.is_empty(),
                    });
                }
                groups.push((trigger, first, effects.len() as u32));
            }
            ranges.push((start as u32, groups.len() as u32));
            if groups.len() - start >= MASKED_MIN_GROUPS
                && masks.len() + fact_words <= MAX_MASK_WORDS
            {
                mask_starts.push(masks.len() as u32);
                let mask_start = masks.len();
                masks.resize(mask_start + fact_words, 0);
                for &(trigger, _, _) in &groups[start..] {
                    if trigger != ALWAYS {
                        set_fact(&mut masks[mask_start..], trigger, true);
                    }
                }
            } else {
                mask_starts.push(u32::MAX);
            }
        }
        EffectTriggers {
            ranges,
            groups,
            effects,
            condition_facts,
            mask_starts,
            masks,
            fact_words,
        }
    }

    /// Appends to `out`, in increasing order, the indices of `op`'s
    /// conditional effects whose condition holds in `state`.
    fn fired(&self, task: &Task, op: OperatorId, state: &StateView<'_>, out: &mut Vec<u32>) {
        out.clear();
        let conditional = &task.operators[op as usize].conditional;
        let (start, end) = self.ranges[op as usize];
        let groups = &self.groups[start as usize..end as usize];
        let mut check = |&(_, first, last): &(FactId, u32, u32)| {
            for effect in &self.effects[first as usize..last as usize] {
                let facts =
                    &self.condition_facts[effect.facts_start as usize..effect.facts_end as usize];
                let (pos, neg) =
                    facts.split_at((effect.negative_start - effect.facts_start) as usize);
                let holds = state.facts_hold(pos, neg)
                    && (!effect.numeric
                        || state
                            .numeric_hold(&conditional[effect.index as usize].condition.numeric));
                if holds {
                    out.push(effect.index);
                }
            }
        };
        let mask_start = self.mask_starts[op as usize];
        if mask_start == u32::MAX {
            for group in groups {
                if group.0 == ALWAYS || state.has(group.0) {
                    check(group);
                }
            }
        } else {
            // The mask's bits are the groups' triggers, in the groups'
            // order, so a hit's group is the number of mask bits before it.
            let mask = &self.masks[mask_start as usize..][..self.fact_words];
            let mut bits_before = 0;
            for (w, (&m, &facts)) in mask.iter().zip(state.facts).enumerate() {
                let mut hits = m & facts;
                while hits != 0 {
                    let bit = hits.trailing_zeros();
                    hits &= hits - 1;
                    let group =
                        &groups[bits_before + (m & ((1u64 << bit) - 1)).count_ones() as usize];
                    debug_assert_eq!(group.0, (w * 64) as FactId + bit);
                    check(group);
                }
                bits_before += m.count_ones() as usize;
            }
            if let Some(always) = groups.last().filter(|g| g.0 == ALWAYS) {
                check(always);
            }
        }
        // Numeric effects on one fluent apply in the task's order.
        out.sort_unstable();
    }
}

/// The task's transition system over packed states.
#[derive(Debug)]
pub struct StateSpace<'t> {
    /// The task.
    pub task: &'t Task,
    /// How states are packed.
    pub layout: StateLayout,
    generator: SuccessorGenerator,
    axioms: AxiomEvaluator,
    fluents: Vec<f64>,
    new_fluents: Vec<f64>,
    /// The fluents the step being applied has updated so far.
    updated: Vec<pddl_ground::task::FluentId>,
    triggers: EffectTriggers,
    fired: Vec<u32>,
    forced: ForcedTransitions,
    symmetry: Option<Arc<Symmetry>>,
    packing: Option<Arc<StatePacking>>,
    /// The task's dead-end trap learner before it learns anything, once a
    /// search has asked for one (`Some(None)`: the task cannot have one,
    /// or the time limit or cancellation cut its fixpoint short, which
    /// stops every later search too).
    trap_learner: Option<Option<TrapLearner>>,
}

impl<'t> StateSpace<'t> {
    /// Prepares successor generation for a task.
    pub fn new(task: &'t Task) -> Self {
        let layout = StateLayout::new(task);
        StateSpace {
            task,
            triggers: EffectTriggers::new(task, layout.fact_words()),
            layout,
            generator: SuccessorGenerator::new(task),
            axioms: AxiomEvaluator::new(task),
            fluents: Vec::new(),
            new_fluents: Vec::new(),
            updated: Vec::new(),
            fired: Vec::new(),
            forced: ForcedTransitions::new(task),
            symmetry: None,
            packing: None,
            trap_learner: None,
        }
    }

    /// A dead-end trap learner for the task that has learned nothing yet
    /// (`None` where the task cannot have one): built by `build` for the
    /// first search that asks, with its fixpoint from the initial state,
    /// and shared by every later search on this space (a clone shares
    /// that fixpoint), so that the default's turns run it once.
    pub(crate) fn fresh_trap_learner(
        &mut self,
        build: impl FnOnce(&Task) -> Option<TrapLearner>,
    ) -> Option<TrapLearner> {
        let task = self.task;
        self.trap_learner.get_or_insert_with(|| build(task)).clone()
    }

    /// Turns symmetry reduction on or off: with it, searches deduplicate
    /// states by orbit of the task's interchangeable objects (see
    /// [`crate::symmetry`]). Without usable classes it stays off.
    pub fn reduce_symmetry(&mut self, on: bool) {
        self.symmetry = on
            .then(|| Symmetry::new(self.task, &self.layout))
            .flatten()
            .map(Arc::new);
    }

    /// The symmetry searches reduce, if any.
    pub fn symmetry(&self) -> Option<&Arc<Symmetry>> {
        self.symmetry.as_ref()
    }

    /// Makes searches store their states packed ([`StatePacking`]) where
    /// that at least halves them (`true`), or as they are (`false`, the
    /// initial setting).
    pub fn pack_states(&mut self, on: bool) {
        self.packing = on
            .then(|| StatePacking::new(self.task, self.layout.fact_words()))
            .flatten()
            .map(Arc::new);
    }

    /// Makes searches store their states packed by `packing`.
    #[cfg(test)]
    pub(crate) fn set_packing(&mut self, packing: Option<Arc<StatePacking>>) {
        self.packing = packing;
    }

    /// How searches store their states, if packed.
    pub fn packing(&self) -> Option<&Arc<StatePacking>> {
        self.packing.as_ref()
    }

    /// Like [`StateSpace::new`], but its states hold every fluent, also
    /// those that only count towards the metric (which search leaves out
    /// of states, see [`StateLayout::new`]): for replays whose final
    /// values are read.
    pub fn with_all_fluents(task: &'t Task) -> Self {
        StateSpace {
            layout: StateLayout::with_all_fluents(task),
            ..StateSpace::new(task)
        }
    }

    /// The packed initial state, axioms evaluated.
    pub fn initial_state(&mut self) -> Vec<u64> {
        let mut packed = self.layout.initial(self.task);
        self.finish_state(&mut packed);
        packed
    }

    fn finish_state(&mut self, packed: &mut [u64]) {
        if !self.axioms.is_empty() {
            self.layout.unpack_fluents(packed, &mut self.fluents);
            let fw = self.layout.fact_words();
            self.axioms.evaluate(&mut packed[..fw], &self.fluents);
        }
    }

    /// Unpacks the fluents of `packed` into `out` and returns the view.
    pub fn view<'a>(&self, packed: &'a [u64], fluents: &'a mut Vec<f64>) -> StateView<'a> {
        self.layout.unpack_fluents(packed, fluents);
        StateView {
            facts: self.layout.facts(packed),
            fluents,
        }
    }

    /// Whether the packed state satisfies the goal.
    pub fn is_goal(&mut self, packed: &[u64]) -> bool {
        let task = self.task;
        self.satisfies(packed, &task.goal)
    }

    /// Whether operator `op` is applicable in `packed`.
    pub fn is_applicable(&mut self, packed: &[u64], op: OperatorId) -> bool {
        let task = self.task;
        self.satisfies(packed, &task.operators[op as usize].precondition)
    }

    /// Whether the packed state satisfies `condition`.
    fn satisfies(&mut self, packed: &[u64], condition: &Conjunction) -> bool {
        self.layout.unpack_fluents(packed, &mut self.fluents);
        StateView {
            facts: self.layout.facts(packed),
            fluents: &self.fluents,
        }
        .satisfies(condition)
    }

    /// Fills `out` with the operators applicable in `packed`, in a
    /// deterministic order.
    pub fn applicable(&mut self, packed: &[u64], out: &mut Vec<OperatorId>) {
        out.clear();
        let facts = self.layout.facts(packed);
        self.generator.candidates(facts, out);
        if self.layout.fluents() > 0 {
            self.layout.unpack_fluents(packed, &mut self.fluents);
        }
        let view = StateView {
            facts,
            fluents: &self.fluents,
        };
        let task = self.task;
        let needs_check = &self.generator.needs_check;
        out.retain(|&o| {
            !needs_check[o as usize] || {
                let pre = &task.operators[o as usize].precondition;
                pre.neg.iter().all(|&f| !view.has(f))
                    && pre.numeric.iter().all(|n| n.holds(view.fluents))
            }
        });
    }

    /// Writes into `out` the state reached by applying `op` (assumed
    /// applicable) in `packed`. Returns `false`, leaving `out`
    /// unspecified, when a numeric effect's value is undefined (then the
    /// operator is not applicable after all).
    pub fn apply(&mut self, packed: &[u64], op: OperatorId, out: &mut Vec<u64>) -> bool {
        // Applied where it is not applicable, an operator yields a state
        // that no transition reaches, and plan extraction then finds no
        // path (as the hill-climbing's first version did with symmetry
        // reduction, queueing the operators of one orbit member and
        // applying them to another).
        debug_assert!(
            self.is_applicable(packed, op),
            "operator {op} applied where it is not applicable"
        );
        let operator = &self.task.operators[op as usize];
        out.clear();
        out.extend_from_slice(packed);
        let fw = self.layout.fact_words();
        let has_fluents = self.layout.fluents() > 0;
        if has_fluents {
            self.layout.unpack_fluents(packed, &mut self.fluents);
        }
        let before = StateView {
            facts: &packed[..fw],
            fluents: &self.fluents,
        };
        self.triggers.fired(self.task, op, &before, &mut self.fired);
        let fired = || {
            self.fired
                .iter()
                .map(|&e| &operator.conditional[e as usize])
        };
        // Deletes first, then adds: an add of the same step wins.
        {
            let facts = &mut out[..fw];
            for &f in &operator.del {
                set_fact(facts, f, false);
            }
            for ce in fired() {
                for &f in &ce.del {
                    set_fact(facts, f, false);
                }
            }
            for &f in &operator.add {
                set_fact(facts, f, true);
            }
            for ce in fired() {
                for &f in &ce.add {
                    set_fact(facts, f, true);
                }
            }
        }
        if has_fluents {
            // All right-hand sides are evaluated in the state before the step.
            self.new_fluents.clear();
            self.new_fluents.extend_from_slice(&self.fluents);
            let effects = operator
                .numeric
                .iter()
                .chain(fired().flat_map(|ce| &ce.numeric));
            self.updated.clear();
            for e in effects {
                // Two updates of one fluent in one step are not defined
                // (PDDL 2.1; the validator rejects such a step): the
                // operator is not applicable here.
                if self.updated.contains(&e.fluent) {
                    return false;
                }
                self.updated.push(e.fluent);
                let Some(value) = e.expr.eval(&self.fluents) else {
                    return false;
                };
                let Some(slot) = self.new_fluents.get_mut(e.fluent as usize) else {
                    return false;
                };
                let new = e.op.apply(*slot, value);
                if !new.is_finite() {
                    return false;
                }
                *slot = new;
            }
            self.layout.pack_fluents(&self.new_fluents, out);
        }
        self.finish_state(out);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TaskBuilder;

    #[test]
    fn match_tree_finds_exactly_the_applicable_operators() {
        let mut b = TaskBuilder::new(6);
        b.op("a", &[0, 1], &[2], &[]);
        b.op("b", &[0], &[3], &[]);
        b.op("c", &[], &[4], &[]);
        b.op("d", &[1, 5], &[2], &[]);
        let id = b.op("e", &[0], &[5], &[]);
        b.neg_pre(id, 3);
        let task = b.build(&[0, 1], &[2]);
        let mut space = StateSpace::new(&task);
        let s = space.initial_state();
        let mut ops = Vec::new();
        space.applicable(&s, &mut ops);
        ops.sort_unstable();
        assert_eq!(ops, vec![0, 1, 2, 4]);
        let mut next = Vec::new();
        assert!(space.apply(&s, 1, &mut next));
        space.applicable(&next, &mut ops);
        ops.sort_unstable();
        assert_eq!(ops, vec![0, 1, 2]);
    }

    #[test]
    fn conditional_effects_see_the_state_before_and_add_wins() {
        let mut b = TaskBuilder::new(4);
        // op: del 0, add 0 (add wins); when 0 then add 1; when 1 then add 2.
        let o = b.op("o", &[], &[0], &[0]);
        b.cond(o, &[0], &[1], &[]);
        b.cond(o, &[1], &[2], &[3]);
        let task = b.build(&[0, 3], &[2]);
        let mut space = StateSpace::new(&task);
        let s = space.initial_state();
        let mut next = Vec::new();
        assert!(space.apply(&s, o, &mut next));
        let v = StateView {
            facts: &next,
            fluents: &[],
        };
        assert!(v.has(0) && v.has(1) && !v.has(2) && v.has(3));
        let s2 = next.clone();
        assert!(space.apply(&s2, o, &mut next));
        let v = StateView {
            facts: &next,
            fluents: &[],
        };
        assert!(v.has(0) && v.has(1) && v.has(2) && !v.has(3));
    }

    #[test]
    fn fired_effects_are_exactly_those_whose_condition_holds() {
        // Operators with few groups of conditional effects (checked one
        // group at a time) and with many (found through the trigger
        // mask), conditions of up to three positive and two negative
        // facts over three state words, some without a positive fact.
        let facts = 150;
        let mut rng = crate::testing::Lcg(11);
        let mut b = TaskBuilder::new(facts);
        for (o, effects) in [3, 40, 120].into_iter().enumerate() {
            let op = b.op(&format!("o{o}"), &[], &[], &[]);
            for _ in 0..effects {
                let pos: Vec<FactId> = (0..rng.below(4)).map(|_| rng.below(facts as u32)).collect();
                b.cond(op, &pos, &[rng.below(facts as u32)], &[]);
            }
        }
        let mut task = b.build(&[], &[]);
        for effect in task.operators.iter_mut().flat_map(|o| &mut o.conditional) {
            effect.condition.neg = (0..rng.below(3)).map(|_| rng.below(facts as u32)).collect();
        }
        let space = StateSpace::new(&task);
        assert!(space.triggers.mask_starts.iter().any(|&m| m != u32::MAX));
        let words = space.layout.fact_words();
        let mut fired = Vec::new();
        for _ in 0..500 {
            // Each fact true with probability 1/2, 1/4 or 3/4.
            let density = rng.below(3);
            let state: Vec<u64> = (0..words)
                .map(|_| {
                    let mut w = 0;
                    for bit in 0..64 {
                        let r = rng.below(4);
                        if (density == 0 && r < 2)
                            || (density == 1 && r == 0)
                            || (density == 2 && r > 0)
                        {
                            w |= 1 << bit;
                        }
                    }
                    w
                })
                .collect();
            let view = StateView {
                facts: &state,
                fluents: &[],
            };
            for (op, operator) in task.operators.iter().enumerate() {
                space
                    .triggers
                    .fired(&task, op as OperatorId, &view, &mut fired);
                let expected: Vec<u32> = (0..operator.conditional.len() as u32)
                    .filter(|&e| view.satisfies(&operator.conditional[e as usize].condition))
                    .collect();
                assert_eq!(fired, expected, "operator {op}");
            }
        }
    }

    #[test]
    fn axioms_are_evaluated_by_strata() {
        // 0 basic; 1 <- 0 ; 2 <- 1 (stratum 0, chained); 3 <- not 2 (stratum 1).
        let mut b = TaskBuilder::new(4);
        b.axiom(1, &[0], &[], 0);
        b.axiom(2, &[1], &[], 0);
        b.axiom(3, &[], &[2], 1);
        let toggle = b.op("toggle", &[0], &[], &[0]);
        let task = b.build(&[0, 3], &[2]);
        let mut space = StateSpace::new(&task);
        let s = space.initial_state();
        let v = StateView {
            facts: &s,
            fluents: &[],
        };
        assert!(
            v.has(1) && v.has(2) && !v.has(3),
            "3 was in init but is not derivable"
        );
        let mut next = Vec::new();
        assert!(space.apply(&s, toggle, &mut next));
        let v = StateView {
            facts: &next,
            fluents: &[],
        };
        assert!(!v.has(0) && !v.has(1) && !v.has(2) && v.has(3));
    }
}
