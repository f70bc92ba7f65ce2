//! One pattern database: the task projected onto a few variables, with
//! the cheapest cost from every abstract state to an abstract goal.
//!
//! The projection keeps every condition on the pattern's variables and
//! drops the others, so it can only do more than the task: an operator
//! applies when its conditions on the pattern hold; a conditional effect
//! whose condition is entirely on the pattern fires when it holds, and one
//! whose condition also mentions other facts (or numbers, or derived
//! facts) may or may not fire. Each variable's possible new values are
//! combined freely, which again only adds transitions. Abstract distances
//! are therefore lower bounds on real ones (admissible), and an abstract
//! state with no path to the goal is a real dead end.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use pddl_ground::Task;
use pddl_ground::task::{Conjunction, Cost, FactId};

use crate::heuristics::CostType;
use crate::heuristics::relaxation::INFINITE;
use crate::variables::Variables;

/// How large one pattern database may get.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Abstract states.
    pub max_states: usize,
    /// Work of building one database: abstract states, operators looked
    /// at in them, effects looked at and transitions found, each counting
    /// one (about 20 ns), the same on every run.
    pub max_work: usize,
    /// Successors of one abstract state under one operator.
    pub max_outcomes: usize,
}

/// A condition on the value of the pattern variable at a position.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Literal {
    Is(u32),
    IsNot(u32),
}

impl Literal {
    fn holds(self, value: u32) -> bool {
        match self {
            Literal::Is(v) => value == v,
            Literal::IsNot(v) => value != v,
        }
    }
}

/// An effect on the pattern.
#[derive(Clone, Debug)]
struct AbstractEffect {
    condition: Vec<(usize, Literal)>,
    /// Whether the condition is entirely on the pattern (the effect fires
    /// whenever it holds); otherwise the effect may or may not fire.
    definite: bool,
    add: Vec<(usize, u32)>,
    del: Vec<(usize, u32)>,
}

/// An operator that changes a pattern variable.
#[derive(Clone, Debug)]
struct AbstractOperator {
    precondition: Vec<(usize, Literal)>,
    cost: Cost,
    effects: Vec<AbstractEffect>,
    /// Pattern positions some effect writes.
    touched: Vec<usize>,
    /// With many effects: per position and value, the effects whose
    /// condition first requires that value there (so that a state meets
    /// only those), and the effects that require no value.
    effects_by_value: Option<EffectIndex>,
    /// Operators with unconditional effects only, at most one add and one
    /// delete per position: what each does to a touched position.
    unconditional: Option<Vec<Change>>,
}

/// An operator's effects by the first value their condition requires.
#[derive(Clone, Debug)]
struct EffectIndex {
    /// Per position and value, effects (indices).
    by_value: Vec<Vec<Vec<u32>>>,
    /// Effects whose condition requires no value.
    unindexed: Vec<u32>,
}

/// An unconditional change of one position: the value added, and the
/// value deleted (which then becomes "none" unless added).
#[derive(Clone, Copy, Debug)]
struct Change {
    position: usize,
    add: Option<u32>,
    del: Option<u32>,
}

/// States whose transitions are counted to estimate a pattern's.
const SAMPLED_STATES: usize = 4096;

/// States between two looks at the stop check.
const STOP_CHECK_STATES: usize = 4096;

/// Operators with more effects than this index them by value.
const INDEXED_EFFECTS: usize = 8;

/// The pattern database of one pattern.
#[derive(Clone, Debug)]
pub struct PatternDatabase {
    /// The pattern's variables.
    pub pattern: Vec<u32>,
    multipliers: Vec<usize>,
    /// Per abstract state, its cost to an abstract goal (`u32::MAX`: none;
    /// larger costs are kept as `u32::MAX - 1`, still a lower bound).
    distances: Vec<u32>,
    /// The task operators of positive cost that write a pattern variable,
    /// ascending: two databases none of which share are additive.
    pub(super) costly_writers: Vec<u32>,
}

/// A pattern's projection, ready to be estimated and built.
pub struct Projection {
    pattern: Vec<u32>,
    sizes: Vec<usize>,
    multipliers: Vec<usize>,
    states: usize,
    operators: Vec<AbstractOperator>,
    costly_writers: Vec<u32>,
    goal: Vec<(usize, Literal)>,
    /// Operators by the first pattern value their precondition needs, so
    /// that each abstract state meets only those that may apply.
    by_value: Vec<Vec<Vec<u32>>>,
    unindexed: Vec<u32>,
    max_outcomes: usize,
}

impl Projection {
    /// Projects the task onto `pattern` (distinct variables); `None` when
    /// it has more than `limits.max_states` abstract states.
    pub fn new(
        task: &Task,
        variables: &Variables,
        pattern: &[u32],
        cost_type: CostType,
        limits: Limits,
    ) -> Option<Self> {
        let sizes: Vec<usize> = pattern.iter().map(|&v| variables.domain_size(v)).collect();
        let mut multipliers = Vec::with_capacity(sizes.len());
        let mut states = 1usize;
        for &s in &sizes {
            multipliers.push(states);
            states = states.checked_mul(s).filter(|&n| n <= limits.max_states)?;
        }
        let position = |f: FactId| -> Option<(usize, u32)> {
            let (var, value) = variables.of_fact[f as usize]?;
            let i = pattern.iter().position(|&v| v == var)?;
            Some((i, value))
        };
        let (operators, costly_writers) = abstract_operators(task, &sizes, &position, cost_type);
        let (goal, _) = literals(&task.goal, &position)?;
        let mut by_value: Vec<Vec<Vec<u32>>> = sizes.iter().map(|&s| vec![Vec::new(); s]).collect();
        let mut unindexed: Vec<u32> = Vec::new();
        for (o, op) in operators.iter().enumerate() {
            match first_required(&op.precondition) {
                Some((i, v)) => by_value[i][v as usize].push(o as u32),
                None => unindexed.push(o as u32),
            }
        }
        Some(Projection {
            pattern: pattern.to_vec(),
            sizes,
            multipliers,
            states,
            operators,
            costly_writers,
            goal,
            by_value,
            unindexed,
            max_outcomes: limits.max_outcomes,
        })
    }

    fn generator(&self) -> Generator {
        Generator::new(
            self.sizes.clone(),
            self.multipliers.clone(),
            self.max_outcomes,
        )
    }

    /// The work of sampling and the work of building the database (see
    /// [`Limits::max_work`]), estimated from a sample of states (exact for
    /// small patterns); `None` if an operator has too many outcomes.
    pub fn estimate_work(&self) -> Option<(usize, usize)> {
        let stride = (self.states / SAMPLED_STATES).max(1);
        let work = self.generator().for_each_transition(
            &self.operators,
            &self.by_value,
            &self.unindexed,
            stride,
            usize::MAX,
            &|| false,
            |_, _, _| {},
        )?;
        Some((
            work,
            work.saturating_mul(self.states) / self.states.div_ceil(stride),
        ))
    }

    /// Builds the database, or `None` if that takes more than `max_work`,
    /// would hold more than `max_bytes` at once (its transitions, 8 bytes
    /// each, and 12 bytes per abstract state), or `stop` says to stop
    /// (asked every few thousand states).
    pub fn build(
        &self,
        max_work: usize,
        max_bytes: Option<u64>,
        stop: &dyn Fn() -> bool,
    ) -> Option<PatternDatabase> {
        let state_bytes = self.states as u64 * 12;
        if max_bytes.is_some_and(|m| state_bytes > m) {
            return None;
        }
        let (states, sizes) = (self.states, &self.sizes);
        let (operators, by_value, unindexed) = (&self.operators, &self.by_value, &self.unindexed);
        let mut generator = self.generator();
        // Two passes over the transitions: count them per target, then
        // store each source under its target (predecessor lists for the
        // backward search), so that they are never held twice.
        let mut first = vec![0u32; states + 1];
        let mut transitions = 0usize;
        generator.for_each_transition(
            operators,
            by_value,
            unindexed,
            1,
            max_work,
            stop,
            |_, to, _| {
                first[to + 1] += 1;
                transitions += 1;
            },
        )?;
        if max_bytes.is_some_and(|m| state_bytes + transitions as u64 * 8 > m) {
            return None;
        }
        for s in 0..states {
            first[s + 1] += first[s];
        }
        let mut fill = first.clone();
        // Costs beyond u32 are stored as u32::MAX: a lower bound still.
        let mut predecessors = vec![(0u32, 0u32); transitions];
        generator.for_each_transition(
            operators,
            by_value,
            unindexed,
            1,
            usize::MAX,
            stop,
            |from, to, cost| {
                let cost = u32::try_from(cost).unwrap_or(u32::MAX);
                predecessors[fill[to] as usize] = (from as u32, cost);
                fill[to] += 1;
            },
        )?;
        drop(fill);
        let goal = &self.goal;
        let operators = &self.operators;
        let mut distances = vec![INFINITE; states];
        let mut goals = Vec::new();
        let mut values = vec![0u32; sizes.len()];
        for (s, distance) in distances.iter_mut().enumerate() {
            if goal.iter().all(|&(i, l)| l.holds(values[i])) {
                *distance = 0;
                goals.push(s as u32);
            }
            advance(&mut values, sizes);
        }
        let zero_one = operators.iter().all(|op| op.cost <= 1);
        backward_distances(&first, &predecessors, goals, zero_one, &mut distances);
        let distances = distances
            .into_iter()
            .map(|d| match d {
                INFINITE => u32::MAX,
                d => u32::try_from(d).unwrap_or(u32::MAX - 1).min(u32::MAX - 1),
            })
            .collect();
        Some(PatternDatabase {
            pattern: self.pattern.clone(),
            multipliers: self.multipliers.clone(),
            distances,
            costly_writers: self.costly_writers.clone(),
        })
    }
}

impl PatternDatabase {
    /// The cost to the goal of the abstract state of a state whose
    /// variables have the values `values` (indexed by variable).
    #[inline]
    pub fn distance(&self, values: &[u32]) -> Cost {
        let index: usize = self
            .pattern
            .iter()
            .zip(&self.multipliers)
            .map(|(&v, &m)| values[v as usize] as usize * m)
            .sum();
        match self.distances[index] {
            u32::MAX => INFINITE,
            d => Cost::from(d),
        }
    }

    /// Bytes of the table.
    pub fn memory_bytes(&self) -> u64 {
        (self.distances.len() * std::mem::size_of::<u32>()) as u64
    }
}

/// Fills `distances` (0 at `goals`, [`INFINITE`] elsewhere) with each
/// state's cheapest cost to a goal, following the predecessor lists
/// (`predecessors[first[s]..first[s + 1]]` lead to `s`): Dijkstra, or a
/// 0-1 breadth-first search when every cost is 0 or 1.
fn backward_distances(
    first: &[u32],
    predecessors: &[(u32, u32)],
    goals: Vec<u32>,
    zero_one: bool,
    distances: &mut [Cost],
) {
    let leading_to =
        |s: u32| &predecessors[first[s as usize] as usize..first[s as usize + 1] as usize];
    if zero_one {
        let mut queue: VecDeque<u32> = goals.into();
        while let Some(s) = queue.pop_front() {
            let d = distances[s as usize];
            for &(from, cost) in leading_to(s) {
                let through = d + Cost::from(cost);
                if through < distances[from as usize] {
                    distances[from as usize] = through;
                    if cost == 0 {
                        queue.push_front(from);
                    } else {
                        queue.push_back(from);
                    }
                }
            }
        }
        return;
    }
    let mut queue: BinaryHeap<Reverse<(Cost, u32)>> =
        goals.into_iter().map(|s| Reverse((0, s))).collect();
    while let Some(Reverse((d, s))) = queue.pop() {
        if d > distances[s as usize] {
            continue;
        }
        for &(from, cost) in leading_to(s) {
            let through = d.saturating_add(Cost::from(cost));
            if through < distances[from as usize] {
                distances[from as usize] = through;
                queue.push(Reverse((through, from)));
            }
        }
    }
}

/// The conditions of `condition` on the pattern, and whether that is all
/// of it; `None` if it contradicts itself on the pattern.
fn literals(
    condition: &Conjunction,
    position: &impl Fn(FactId) -> Option<(usize, u32)>,
) -> Option<(Vec<(usize, Literal)>, bool)> {
    let mut out: Vec<(usize, Literal)> = Vec::new();
    let mut complete = condition.numeric.is_empty();
    for &f in &condition.pos {
        match position(f) {
            Some((i, v)) => {
                if out.iter().any(|&(j, l)| j == i && !l.holds(v)) {
                    return None;
                }
                out.push((i, Literal::Is(v)));
            }
            None => complete = false,
        }
    }
    for &f in &condition.neg {
        match position(f) {
            Some((i, v)) => {
                if out.contains(&(i, Literal::Is(v))) {
                    return None;
                }
                out.push((i, Literal::IsNot(v)));
            }
            None => complete = false,
        }
    }
    Some((out, complete))
}

/// The task's operators that write a pattern variable, projected.
///
/// Also returns the task operators of positive cost that write a pattern
/// variable (whether or not their conditions can hold), which decide
/// additivity.
fn abstract_operators(
    task: &Task,
    sizes: &[usize],
    position: &impl Fn(FactId) -> Option<(usize, u32)>,
    cost_type: CostType,
) -> (Vec<AbstractOperator>, Vec<u32>) {
    let on_pattern = |facts: &[FactId]| -> Vec<(usize, u32)> {
        facts.iter().filter_map(|&f| position(f)).collect()
    };
    let writes = |facts: &[FactId]| facts.iter().any(|&f| position(f).is_some());
    let mut operators = Vec::new();
    let mut costly_writers = Vec::new();
    for (o, op) in task.operators.iter().enumerate() {
        if cost_type.operator_cost(task, op) > 0
            && (writes(&op.add)
                || writes(&op.del)
                || op
                    .conditional
                    .iter()
                    .any(|e| writes(&e.add) || writes(&e.del)))
        {
            costly_writers.push(o as u32);
        }
        let Some((precondition, _)) = literals(&op.precondition, position) else {
            continue;
        };
        let mut effects = Vec::new();
        let (add, del) = (on_pattern(&op.add), on_pattern(&op.del));
        if !add.is_empty() || !del.is_empty() {
            effects.push(AbstractEffect {
                condition: Vec::new(),
                definite: true,
                add,
                del,
            });
        }
        for e in &op.conditional {
            let (add, del) = (on_pattern(&e.add), on_pattern(&e.del));
            if add.is_empty() && del.is_empty() {
                continue;
            }
            let Some((condition, complete)) = literals(&e.condition, position) else {
                continue;
            };
            effects.push(AbstractEffect {
                condition,
                definite: complete,
                add,
                del,
            });
        }
        if effects.is_empty() {
            continue;
        }
        let mut touched: Vec<usize> = effects
            .iter()
            .flat_map(|e| e.add.iter().chain(&e.del).map(|&(i, _)| i))
            .collect();
        touched.sort_unstable();
        touched.dedup();
        let effects_by_value = (effects.len() > INDEXED_EFFECTS).then(|| {
            let mut by_value: Vec<Vec<Vec<u32>>> =
                sizes.iter().map(|&s| vec![Vec::new(); s]).collect();
            let mut unindexed = Vec::new();
            for (k, e) in effects.iter().enumerate() {
                match first_required(&e.condition) {
                    Some((i, v)) => by_value[i][v as usize].push(k as u32),
                    None => unindexed.push(k as u32),
                }
            }
            EffectIndex {
                by_value,
                unindexed,
            }
        });
        let unconditional = match effects.as_slice() {
            [e] if e.condition.is_empty() && e.definite => touched
                .iter()
                .map(|&i| {
                    let single = |list: &[(usize, u32)]| -> Result<Option<u32>, ()> {
                        let mut values = list.iter().filter(|&&(j, _)| j == i).map(|&(_, v)| v);
                        let first = values.next();
                        if values.any(|v| Some(v) != first) {
                            Err(())
                        } else {
                            Ok(first)
                        }
                    };
                    Ok(Change {
                        position: i,
                        add: single(&e.add)?,
                        del: single(&e.del)?,
                    })
                })
                .collect::<Result<Vec<Change>, ()>>()
                .ok(),
            _ => None,
        };
        operators.push(AbstractOperator {
            precondition,
            cost: cost_type.operator_cost(task, op),
            effects,
            touched,
            effects_by_value,
            unconditional,
        });
    }
    (operators, costly_writers)
}

/// The first value a condition requires, with its position.
fn first_required(condition: &[(usize, Literal)]) -> Option<(usize, u32)> {
    condition.iter().find_map(|&(i, l)| match l {
        Literal::Is(v) => Some((i, v)),
        Literal::IsNot(_) => None,
    })
}

/// Moves `values` to the next abstract state in index order.
#[inline]
fn advance(values: &mut [u32], sizes: &[usize]) {
    for (v, &s) in values.iter_mut().zip(sizes) {
        *v += 1;
        if (*v as usize) < s {
            return;
        }
        *v = 0;
    }
}

/// Enumerates abstract transitions.
struct Generator {
    sizes: Vec<usize>,
    multipliers: Vec<usize>,
    max_outcomes: usize,
    /// Per position: definite adds, possible adds, and whether the current
    /// value is surely / possibly deleted.
    definite_add: Vec<Vec<u32>>,
    possible_add: Vec<Vec<u32>>,
    definite_del: Vec<bool>,
    possible_del: Vec<bool>,
    options: Vec<Vec<u32>>,
    choice: Vec<usize>,
    /// Touched positions with more than one option.
    varying: Vec<usize>,
    /// Work done so far in the current enumeration.
    work: usize,
}

impl Generator {
    fn new(sizes: Vec<usize>, multipliers: Vec<usize>, max_outcomes: usize) -> Self {
        let n = sizes.len();
        Generator {
            sizes,
            multipliers,
            max_outcomes,
            definite_add: vec![Vec::new(); n],
            possible_add: vec![Vec::new(); n],
            definite_del: vec![false; n],
            possible_del: vec![false; n],
            options: vec![Vec::new(); n],
            choice: vec![0; n],
            varying: Vec::new(),
            work: 0,
        }
    }

    /// Calls `found(from, to, cost)` for every transition between distinct
    /// abstract states (from every `stride`-th state); returns the work
    /// done (see [`Limits::max_work`]), or `None` once it passes
    /// `max_work`, `stop` says so, or an operator has more than
    /// `max_outcomes` successors.
    #[allow(clippy::too_many_arguments)]
    fn for_each_transition(
        &mut self,
        operators: &[AbstractOperator],
        by_value: &[Vec<Vec<u32>>],
        unindexed: &[u32],
        stride: usize,
        max_work: usize,
        stop: &dyn Fn() -> bool,
        mut found: impl FnMut(usize, usize, Cost),
    ) -> Option<usize> {
        let states: usize = self.sizes.iter().product();
        let mut values = vec![0u32; self.sizes.len()];
        self.work = 0;
        for from in (0..states).step_by(stride) {
            self.work += 1;
            if self.work > max_work || (from % STOP_CHECK_STATES == 0 && stop()) {
                return None;
            }
            if stride > 1 {
                let mut rest = from;
                for (v, &size) in values.iter_mut().zip(&self.sizes) {
                    *v = (rest % size) as u32;
                    rest /= size;
                }
            }
            let candidates = unindexed.iter().chain(
                values
                    .iter()
                    .enumerate()
                    .flat_map(|(i, &v)| &by_value[i][v as usize]),
            );
            for &o in candidates {
                self.work += 1;
                let op = &operators[o as usize];
                if !op.precondition.iter().all(|&(i, l)| l.holds(values[i])) {
                    continue;
                }
                if let Some(changes) = &op.unconditional {
                    // One successor, found directly.
                    let mut to = from;
                    for &Change {
                        position: i,
                        add,
                        del,
                    } in changes
                    {
                        let old = values[i];
                        let new = match add {
                            Some(v) => v,
                            None if del == Some(old) => (self.sizes[i] - 1) as u32,
                            None => old,
                        };
                        to = to - old as usize * self.multipliers[i]
                            + new as usize * self.multipliers[i];
                    }
                    if to != from {
                        self.work += 1;
                        found(from, to, op.cost);
                    }
                    continue;
                }
                let mut transitions = 0;
                self.outcomes(op, &values, from, |to| {
                    transitions += 1;
                    found(from, to, op.cost);
                })?;
                self.work += transitions;
            }
            if self.work > max_work {
                return None;
            }
            advance(&mut values, &self.sizes);
        }
        Some(self.work)
    }

    /// Calls `found` with every successor of `values` (index `index`)
    /// under `op` other than itself.
    fn outcomes(
        &mut self,
        op: &AbstractOperator,
        values: &[u32],
        index: usize,
        mut found: impl FnMut(usize),
    ) -> Option<()> {
        for &i in &op.touched {
            self.definite_add[i].clear();
            self.possible_add[i].clear();
            self.definite_del[i] = false;
            self.possible_del[i] = false;
        }
        // Without an index every effect is a candidate; with one, only the
        // indexed ones (an empty range, not a filter that would still step
        // through every effect).
        let (indexed, rest, all): (&[Vec<Vec<u32>>], &[u32], _) = match &op.effects_by_value {
            Some(index) => (&index.by_value, &index.unindexed, 0..0),
            None => (&[], &[], 0..op.effects.len() as u32),
        };
        let candidates = rest
            .iter()
            .copied()
            .chain(
                indexed
                    .iter()
                    .zip(values)
                    .flat_map(|(by, &v)| by[v as usize].iter().copied()),
            )
            .chain(all);
        for k in candidates {
            self.work += 1;
            let e = &op.effects[k as usize];
            if !e.condition.iter().all(|&(i, l)| l.holds(values[i])) {
                continue;
            }
            for &(i, v) in &e.add {
                if e.definite {
                    self.definite_add[i].push(v);
                } else {
                    self.possible_add[i].push(v);
                }
            }
            for &(i, v) in &e.del {
                if values[i] == v {
                    if e.definite {
                        self.definite_del[i] = true;
                    } else {
                        self.possible_del[i] = true;
                    }
                }
            }
        }
        // Deletes first, then adds (an add wins); "none" is the last value.
        // Positions with one option shift the index by a fixed amount;
        // only the others are enumerated.
        let mut outcomes = 1usize;
        let mut to = index;
        self.varying.clear();
        for &i in &op.touched {
            let none = (self.sizes[i] - 1) as u32;
            let options = &mut self.options[i];
            options.clear();
            if self.definite_add[i].is_empty() {
                options.push(if self.definite_del[i] {
                    none
                } else {
                    values[i]
                });
                if self.possible_del[i] {
                    options.push(none);
                }
            } else {
                options.extend_from_slice(&self.definite_add[i]);
            }
            options.extend_from_slice(&self.possible_add[i]);
            if options.len() > 1 {
                options.sort_unstable();
                options.dedup();
            }
            outcomes = outcomes.saturating_mul(options.len());
            // The first option replaces the current value.
            to = to - values[i] as usize * self.multipliers[i]
                + options[0] as usize * self.multipliers[i];
            if options.len() > 1 {
                self.choice[i] = 0;
                self.varying.push(i);
            }
        }
        if outcomes > self.max_outcomes {
            return None;
        }
        // Every combination of the varying positions' options (an
        // odometer, moving the index along).
        loop {
            if to != index {
                found(to);
            }
            let mut carried = true;
            for &i in &self.varying {
                let m = self.multipliers[i];
                let options = &self.options[i];
                let old = options[self.choice[i]] as usize;
                self.choice[i] += 1;
                if self.choice[i] < options.len() {
                    to = to - old * m + options[self.choice[i]] as usize * m;
                    carried = false;
                    break;
                }
                self.choice[i] = 0;
                to = to - old * m + options[0] as usize * m;
            }
            if carried {
                return Some(());
            }
        }
    }
}
