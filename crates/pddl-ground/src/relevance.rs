//! Relevance analysis: operators, effects, axioms and facts that cannot
//! matter for reaching the goal are removed, as Fast Downward's translator
//! does. Their successors only grew the search space: an irrelevant
//! operator in lazy greedy search or A* generates states that differ from
//! their parent only in what no goal needs.
//!
//! Working backwards from the goal, three sets grow to a fixpoint:
//! facts needed true, facts needed false, and fluents needed exactly. An
//! operator is relevant when it adds a fact needed true, deletes a fact
//! needed false, or changes a needed fluent; then its precondition's
//! positive literals are needed true, its negative ones false, and every
//! fluent its conditions or numeric effects read or write exactly (a
//! numeric effect decides whether the operator applies at all: an
//! undefined value or two updates of one fluent make it inapplicable;
//! `increase` reads the fluent it changes). A metric left in the state
//! (one not turned into costs) needs its fluents too.
//! A conditional effect of a relevant operator that writes anything
//! needed, in either direction, or has numeric effects, makes its
//! condition's facts needed both true and false: whether it fires must be
//! the same in every plan. An axiom whose head is needed makes its body's
//! facts needed both ways too (closed-world negation of derived facts).
//!
//! Why a plan stays a plan: drop the irrelevant steps from any plan. An
//! irrelevant step adds no fact needed true, deletes none needed false
//! and changes no needed fluent, so without it every fact needed true is
//! still true where the plan had it, every fact needed false still false,
//! and facts needed both ways and needed fluents are exactly as before.
//! The relevant steps therefore still apply, fire the same conditional
//! effects, and reach the goal; operator costs are never negative, so
//! they cost no more. Solvability and optimal plan costs are unchanged
//! (`tests/grounding_relevance.rs` compares optimal costs with and
//! without the removal on thousands of random tasks, and
//! `tests/semantics_agree.rs` replays walks through the pruned task on the
//! lifted model).

use crate::GroundError;
use crate::instantiate::RawTask;
use crate::stop::StopPoll;
use crate::task::{
    ConditionalEffect, Conjunction, FactId, FluentId, GroundMetric, NumEffect, NumExpr,
};

/// Removes from `raw` the operators and axioms that cannot matter for
/// reaching the goal, the conditional effects of the others that cannot,
/// and every add and delete of a fact that nothing kept reads (those facts
/// then never change and are compiled away with the constant ones).
/// `metric` is the metric left in the state, if any: its fluents count as
/// needed, so that operators changing them stay. Returns the number of
/// operators removed, or [`GroundError::Stopped`] once `stop` says so
/// (the analysis asks it as it goes: it takes seconds on a large Puzznic
/// level; `raw` is then only partly pruned).
pub(crate) fn drop_irrelevant(
    raw: &mut RawTask,
    metric: Option<&GroundMetric>,
    stop: &StopPoll<'_>,
) -> Result<usize, GroundError> {
    let effects = Effects::new(raw);
    let writers = Writers::new(raw, &effects, stop)?;
    let needs = Analysis::run(raw, &effects, &writers, metric, stop)?;
    let before = raw.operators.len();
    let read: Vec<bool> = (0..raw.facts.len())
        .map(|f| needs.need_true[f] || needs.need_false[f])
        .collect();
    // On many tasks everything matters: then nothing is to be done.
    if needs.op_relevant.iter().all(|&r| r)
        && needs.effect_touched.iter().all(|&t| t)
        && needs.axiom_relevant.iter().all(|&r| r)
        && (0..raw.facts.len() as FactId).all(|f| read[f as usize] || !writers.changes(f))
    {
        return Ok(0);
    }
    let read = |f: &FactId| read[*f as usize];
    let mut op = 0;
    raw.operators.retain_mut(|operator| {
        let first = effects.first[op] as usize;
        let relevant = needs.op_relevant[op];
        op += 1;
        if stop.tick(1 + operator.conditional.len() as u32) {
            return true; // left as it is: the task is dropped
        }
        if !relevant {
            return false;
        }
        operator.add.retain(read);
        operator.del.retain(read);
        let mut touched = needs.effect_touched[first..].iter();
        operator
            .conditional
            .retain(|_| *touched.next().expect("one flag an effect"));
        for effect in &mut operator.conditional {
            effect.add.retain(read);
            effect.del.retain(read);
        }
        true
    });
    let mut keep = needs.axiom_relevant.iter();
    raw.axioms
        .retain(|_| *keep.next().expect("one flag an axiom"));
    if stop.stopped() {
        return Err(GroundError::Stopped);
    }
    Ok(before - raw.operators.len())
}

/// Something the goal may need.
#[derive(Clone, Copy)]
enum Need {
    True(FactId),
    False(FactId),
    Fluent(FluentId),
}

/// The conditional effects of all operators, numbered in one sequence.
struct Effects {
    /// Per operator, the number of its first conditional effect (and one
    /// past the last operator's last).
    first: Vec<u32>,
    /// Per conditional effect, its operator.
    op: Vec<u32>,
}

impl Effects {
    fn new(raw: &RawTask) -> Effects {
        let mut first = Vec::with_capacity(raw.operators.len() + 1);
        let mut op = Vec::new();
        for (i, operator) in raw.operators.iter().enumerate() {
            first.push(op.len() as u32);
            op.extend(std::iter::repeat_n(i as u32, operator.conditional.len()));
        }
        first.push(op.len() as u32);
        Effects { first, op }
    }

    /// The operator and index within it of conditional effect `e`.
    fn locate(&self, e: u32) -> (u32, usize) {
        let op = self.op[e as usize];
        (op, (e - self.first[op as usize]) as usize)
    }
}

/// Hands each `(key, value)` pair of an [`Index`] to its argument.
type Pairs<'a> = dyn Fn(&mut dyn FnMut(u32, u32)) + 'a;

/// Keys (facts or fluents) to values (operators, effects or axioms), in
/// compressed rows.
struct Index {
    starts: Vec<u32>,
    values: Vec<u32>,
}

impl Index {
    /// The index of the `(key, value)` pairs that `pairs` hands to its
    /// argument, in that order (a counting sort over two calls of
    /// `pairs`: grounding pays for it on every task).
    fn build(keys: usize, pairs: &Pairs<'_>) -> Index {
        let mut starts = vec![0u32; keys + 1];
        pairs(&mut |key, _| starts[key as usize + 1] += 1);
        for k in 0..keys {
            starts[k + 1] += starts[k];
        }
        let mut next = starts[..keys].to_vec();
        let mut values = vec![0u32; starts[keys] as usize];
        pairs(&mut |key, value| {
            let at = &mut next[key as usize];
            values[*at as usize] = value;
            *at += 1;
        });
        Index { starts, values }
    }

    fn of(&self, key: u32) -> &[u32] {
        &self.values[self.starts[key as usize] as usize..self.starts[key as usize + 1] as usize]
    }
}

/// What writes each fact and fluent: operators by their unconditional
/// effects, conditional effects, and axioms.
struct Writers {
    op_adders: Index,
    op_deleters: Index,
    op_changers: Index,
    effect_adders: Index,
    effect_deleters: Index,
    effect_changers: Index,
    /// Per fact: the axioms deriving it.
    axioms: Index,
}

impl Writers {
    /// The writers of `raw`'s facts and fluents; [`GroundError::Stopped`]
    /// once `stop` says so (asked after each index, each a pass over every
    /// operator or effect).
    fn new(raw: &RawTask, effects: &Effects, stop: &StopPoll<'_>) -> Result<Writers, GroundError> {
        let ops = || raw.operators.iter().zip(0u32..);
        let conditional =
            || ops().flat_map(|(op, i)| op.conditional.iter().zip(effects.first[i as usize]..));
        let (facts, fluents) = (raw.facts.len(), raw.fluents.len());
        let build = |keys, pairs: &Pairs<'_>| {
            let index = Index::build(keys, pairs);
            stop.go_on().map(|()| index)
        };
        Ok(Writers {
            op_adders: build(facts, &|emit| {
                ops().for_each(|(op, i)| op.add.iter().for_each(|&f| emit(f, i)))
            })?,
            op_deleters: build(facts, &|emit| {
                ops().for_each(|(op, i)| op.del.iter().for_each(|&f| emit(f, i)))
            })?,
            op_changers: build(fluents, &|emit| {
                ops().for_each(|(op, i)| op.numeric.iter().for_each(|n| emit(n.fluent, i)))
            })?,
            effect_adders: build(facts, &|emit| {
                conditional().for_each(|(c, e)| c.add.iter().for_each(|&f| emit(f, e)))
            })?,
            effect_deleters: build(facts, &|emit| {
                conditional().for_each(|(c, e)| c.del.iter().for_each(|&f| emit(f, e)))
            })?,
            effect_changers: build(fluents, &|emit| {
                conditional().for_each(|(c, e)| c.numeric.iter().for_each(|n| emit(n.fluent, e)))
            })?,
            axioms: build(facts, &|emit| {
                raw.axioms
                    .iter()
                    .zip(0u32..)
                    .for_each(|(a, i)| emit(a.head, i))
            })?,
        })
    }

    /// Whether some operator or conditional effect adds or deletes `f`.
    fn changes(&self, f: FactId) -> bool {
        [
            &self.op_adders,
            &self.op_deleters,
            &self.effect_adders,
            &self.effect_deleters,
        ]
        .iter()
        .any(|index| !index.of(f).is_empty())
    }
}

/// The analysis's outcome: per fact whether it is needed true, false;
/// per operator, conditional effect and axiom whether it stays.
struct Needs {
    need_true: Vec<bool>,
    need_false: Vec<bool>,
    op_relevant: Vec<bool>,
    /// Per conditional effect: whether its firing must stay as it is (it
    /// stays in the task if its operator does).
    effect_touched: Vec<bool>,
    axiom_relevant: Vec<bool>,
}

/// The fixpoint from the goal backwards.
struct Analysis<'a> {
    raw: &'a RawTask,
    effects: &'a Effects,
    writers: &'a Writers,
    needs: Needs,
    need_fluent: Vec<bool>,
    queue: Vec<Need>,
}

impl<'a> Analysis<'a> {
    /// The fixpoint; [`GroundError::Stopped`] once `stop` says so.
    fn run(
        raw: &'a RawTask,
        effects: &'a Effects,
        writers: &'a Writers,
        metric: Option<&GroundMetric>,
        stop: &StopPoll<'_>,
    ) -> Result<Needs, GroundError> {
        // Numeric effects can make a step inapplicable, so whether a
        // conditional effect with some fires always matters.
        let effect_touched = raw
            .operators
            .iter()
            .flat_map(|op| op.conditional.iter().map(|c| !c.numeric.is_empty()))
            .collect();
        let facts = raw.facts.len();
        let mut analysis = Analysis {
            raw,
            effects,
            writers,
            needs: Needs {
                need_true: vec![false; facts],
                need_false: vec![false; facts],
                op_relevant: vec![false; raw.operators.len()],
                effect_touched,
                axiom_relevant: vec![false; raw.axioms.len()],
            },
            need_fluent: vec![false; raw.fluents.len()],
            queue: Vec::new(),
        };
        analysis.precondition(&raw.goal);
        if let Some(metric) = metric {
            analysis.reads(&metric.expr);
        }
        while let Some(need) = analysis.queue.pop() {
            let work = analysis.satisfy(need);
            if stop.tick(work) {
                return Err(GroundError::Stopped);
            }
        }
        Ok(analysis.needs)
    }

    fn need(&mut self, need: Need) {
        let flag = match need {
            Need::True(f) => &mut self.needs.need_true[f as usize],
            Need::False(f) => &mut self.needs.need_false[f as usize],
            Need::Fluent(v) => &mut self.need_fluent[v as usize],
        };
        if !*flag {
            *flag = true;
            self.queue.push(need);
        }
    }

    /// What can bring `need` about becomes relevant; a conditional effect
    /// that can undo it must fire exactly as before. Returns how many
    /// writers it went through (one at least), as units of work.
    fn satisfy(&mut self, need: Need) -> u32 {
        let w = self.writers;
        let (ops, achieving, undoing, axioms) = match need {
            Need::True(f) => (
                w.op_adders.of(f),
                w.effect_adders.of(f),
                w.effect_deleters.of(f),
                w.axioms.of(f),
            ),
            Need::False(f) => (
                w.op_deleters.of(f),
                w.effect_deleters.of(f),
                w.effect_adders.of(f),
                w.axioms.of(f),
            ),
            Need::Fluent(v) => (
                w.op_changers.of(v),
                w.effect_changers.of(v),
                &[][..],
                &[][..],
            ),
        };
        for &op in ops {
            self.make_relevant(op);
        }
        for &e in achieving {
            self.touch(e);
            self.make_relevant(self.effects.op[e as usize]);
        }
        for &e in undoing {
            self.touch(e);
        }
        let raw = self.raw;
        for &axiom in axioms {
            if !self.needs.axiom_relevant[axiom as usize] {
                self.needs.axiom_relevant[axiom as usize] = true;
                self.exactly(&raw.axioms[axiom as usize].body);
            }
        }
        let writers = ops.len() + achieving.len() + undoing.len() + axioms.len();
        u32::try_from(writers).unwrap_or(u32::MAX).max(1)
    }

    fn make_relevant(&mut self, op: u32) {
        if self.needs.op_relevant[op as usize] {
            return;
        }
        self.needs.op_relevant[op as usize] = true;
        let raw = self.raw;
        let operator = &raw.operators[op as usize];
        self.precondition(&operator.precondition);
        self.numeric_effects(&operator.numeric);
        let first = self.effects.first[op as usize] as usize;
        for (k, effect) in operator.conditional.iter().enumerate() {
            if self.needs.effect_touched[first + k] {
                self.fires_exactly(effect);
            }
        }
    }

    /// Marks a conditional effect as one whose firing matters.
    fn touch(&mut self, e: u32) {
        if self.needs.effect_touched[e as usize] {
            return;
        }
        self.needs.effect_touched[e as usize] = true;
        let (op, k) = self.effects.locate(e);
        if self.needs.op_relevant[op as usize] {
            let raw = self.raw;
            self.fires_exactly(&raw.operators[op as usize].conditional[k]);
        }
    }

    fn fires_exactly(&mut self, effect: &ConditionalEffect) {
        self.exactly(&effect.condition);
        self.numeric_effects(&effect.numeric);
    }

    fn precondition(&mut self, c: &Conjunction) {
        for &f in &c.pos {
            self.need(Need::True(f));
        }
        for &f in &c.neg {
            self.need(Need::False(f));
        }
        self.numeric_conditions(c);
    }

    fn exactly(&mut self, c: &Conjunction) {
        for &f in c.pos.iter().chain(&c.neg) {
            self.need(Need::True(f));
            self.need(Need::False(f));
        }
        self.numeric_conditions(c);
    }

    fn numeric_conditions(&mut self, c: &Conjunction) {
        c.for_each_fluent(&mut |v| self.need(Need::Fluent(v)));
    }

    fn numeric_effects(&mut self, effects: &[NumEffect]) {
        for n in effects {
            self.need(Need::Fluent(n.fluent));
            self.reads(&n.expr);
        }
    }

    fn reads(&mut self, e: &NumExpr) {
        e.for_each_fluent(&mut |v| self.need(Need::Fluent(v)));
    }
}
