//! Numeric conditions as relaxed propositions (repetition-based, after
//! Scala et al.'s h^radd, "Subgoaling techniques for satisficing and
//! optimal numeric planning", JAIR 2020).
//!
//! Every numeric condition whose sides are linear in the fluents is
//! normalised to `Σ aᵢ·fᵢ + k ≥ 0` (or `> 0`; `=` becomes two conditions)
//! and becomes a relaxed proposition, true at cost 0 where it holds in
//! the evaluated state. An operator piece whose numeric effects change the
//! condition's expression by `net > 0` (evaluated with the state's values)
//! reaches it with `r` repetitions, the fewest that make it hold: at cost
//! `pre_cost + r · cost`. A piece with an `assign` or `scale` effect on
//! the condition cannot gain by repeating: it reaches the condition (once)
//! only if applying it to the state's values makes it hold. Non-linear
//! conditions are ignored (the relaxation only gets easier).
//!
//! Dead ends stay sound: a condition is *simple* when every effect on its
//! fluents, in the whole task, adds a constant. Then any real plan that
//! makes it true applies some operator with `net > 0`, so leaving it
//! unreached proves it unreachable. Other conditions are released at the
//! end of an exploration that did not reach the goal (reached at the last
//! cost plus one, with no supporter), so they never cause a dead end.
//!
//! For simple conditions the constant change of every relaxed operator,
//! consumption included, and the operators that raise them are kept too
//! ([`NumericRelaxation::nets_of`], [`NumericRelaxation::achievers_of`]):
//! h_FF's resource balance reads them.

use std::collections::HashMap;

use pddl_ground::Task;
use pddl_ground::task::{AssignOp, Comparison, FluentId, NumCondition, NumExpr};

/// Deepest expression tree linearised (deeper ones count as non-linear,
/// which bounds the recursion).
const MAX_EXPRESSION_DEPTH: usize = 64;

/// `Σ coefficient · fluent + constant`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Linear {
    /// Fluent terms, sorted by fluent, without zero coefficients.
    pub terms: Vec<(FluentId, f64)>,
    /// The constant term.
    pub constant: f64,
}

impl Linear {
    fn constant(c: f64) -> Self {
        Linear {
            terms: Vec::new(),
            constant: c,
        }
    }

    /// The linear form of an expression; `None` if it is not linear (a
    /// product of two fluent terms, division by a non-constant, too deep).
    pub fn of(expr: &NumExpr) -> Option<Self> {
        Self::of_depth(expr, 0)
    }

    fn of_depth(expr: &NumExpr, depth: usize) -> Option<Self> {
        if depth > MAX_EXPRESSION_DEPTH {
            return None;
        }
        let sub = |e: &NumExpr| Self::of_depth(e, depth + 1);
        let l = match expr {
            NumExpr::Const(c) => Linear::constant(*c),
            NumExpr::Fluent(f) => Linear {
                terms: vec![(*f, 1.0)],
                constant: 0.0,
            },
            NumExpr::Neg(a) => sub(a)?.scaled(-1.0),
            NumExpr::Add(a, b) => sub(a)?.plus(&sub(b)?, 1.0),
            NumExpr::Sub(a, b) => sub(a)?.plus(&sub(b)?, -1.0),
            NumExpr::Mul(a, b) => {
                let (a, b) = (sub(a)?, sub(b)?);
                if a.terms.is_empty() {
                    b.scaled(a.constant)
                } else if b.terms.is_empty() {
                    a.scaled(b.constant)
                } else {
                    return None;
                }
            }
            NumExpr::Div(a, b) => {
                let (a, b) = (sub(a)?, sub(b)?);
                if !b.terms.is_empty() || b.constant == 0.0 {
                    return None;
                }
                a.scaled(1.0 / b.constant)
            }
        };
        l.constant.is_finite().then_some(l)
    }

    fn scaled(mut self, factor: f64) -> Self {
        for t in &mut self.terms {
            t.1 *= factor;
        }
        self.constant *= factor;
        self.normalised()
    }

    fn plus(mut self, other: &Linear, factor: f64) -> Self {
        self.terms
            .extend(other.terms.iter().map(|&(f, a)| (f, a * factor)));
        self.constant += other.constant * factor;
        self.normalised()
    }

    /// Merges terms of the same fluent and drops zero coefficients.
    fn normalised(mut self) -> Self {
        self.terms.sort_by_key(|t| t.0);
        let mut merged: Vec<(FluentId, f64)> = Vec::with_capacity(self.terms.len());
        for (f, a) in self.terms {
            match merged.last_mut() {
                Some(last) if last.0 == f => last.1 += a,
                _ => merged.push((f, a)),
            }
        }
        merged.retain(|t| t.1 != 0.0);
        self.terms = merged;
        self
    }

    /// The value under fluent values (NaN if a fluent is undefined).
    #[inline]
    pub fn eval(&self, fluents: &[f64]) -> f64 {
        self.terms.iter().fold(self.constant, |v, &(f, a)| {
            v + a * fluents.get(f as usize).copied().unwrap_or(f64::NAN)
        })
    }

    /// The coefficient of fluent `f` (0 if absent).
    pub fn coefficient(&self, f: FluentId) -> f64 {
        self.terms
            .binary_search_by_key(&f, |t| t.0)
            .map_or(0.0, |i| self.terms[i].1)
    }
}

/// A normalised numeric condition `expr ≥ 0` (or `expr > 0`).
#[derive(Clone, Debug, PartialEq)]
pub struct LinearCondition {
    /// The expression compared with zero.
    pub expr: Linear,
    /// `>` rather than `≥`.
    pub strict: bool,
    /// Every effect on its fluents adds a constant (see the module docs).
    pub simple: bool,
}

impl LinearCondition {
    /// Whether a value of the expression satisfies the condition.
    #[inline]
    pub fn satisfied_by(&self, value: f64) -> bool {
        if self.strict {
            value > 0.0
        } else {
            value >= 0.0
        }
    }

    /// The fewest repetitions of a change `net > 0` per application that
    /// take the expression from `value` (unsatisfied) to satisfied.
    pub fn repetitions(&self, value: f64, net: f64) -> u64 {
        // Tolerance: float sums such as 3 × 0.1 must not cost an extra step.
        const EPSILON: f64 = 1e-9;
        let ratio = -value / net;
        let r = if self.strict {
            (ratio + EPSILON).floor() + 1.0
        } else {
            (ratio - EPSILON).ceil()
        };
        // Saturate: costs are integers and sums saturate too.
        r.clamp(1.0, 1e15) as u64
    }
}

/// A numeric effect of the task with a linear right-hand side.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearEffect {
    /// The effect operator.
    pub op: AssignOp,
    /// The fluent changed.
    pub fluent: FluentId,
    /// The right-hand side.
    pub rhs: Linear,
}

impl LinearEffect {
    /// The change of the fluent when applied with fluent values `fluents`.
    #[inline]
    fn delta(&self, fluents: &[f64]) -> f64 {
        let current = || {
            fluents
                .get(self.fluent as usize)
                .copied()
                .unwrap_or(f64::NAN)
        };
        let rhs = self.rhs.eval(fluents);
        match self.op {
            AssignOp::Increase => rhs,
            AssignOp::Decrease => -rhs,
            AssignOp::Assign => rhs - current(),
            AssignOp::ScaleUp => current() * (rhs - 1.0),
            AssignOp::ScaleDown => current() * (1.0 / rhs - 1.0),
        }
    }

    /// Whether the change is the same in every state.
    fn is_constant_increment(&self) -> bool {
        matches!(self.op, AssignOp::Increase | AssignOp::Decrease) && self.rhs.terms.is_empty()
    }
}

/// How one relaxed operator changes one condition.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConditionChange {
    /// The condition's index.
    pub condition: u32,
    /// Range of `(coefficient, effect)` terms in [`NumericRelaxation::terms`].
    pub terms: (u32, u32),
    /// Some term is an `assign` or `scale`: repeating does not help.
    pub one_shot: bool,
    /// The change per application when the same in every state (all
    /// terms are constant increments), NaN otherwise.
    pub constant_net: f64,
}

/// Where a numeric effect sits in the task: operator, conditional effect
/// (`u32::MAX` for the unconditional ones), position.
type EffectSite = (u32, u32, u32);

/// A condition's identity: terms and constant as bits, strictness.
type ConditionKey = (Vec<(FluentId, u64)>, u64, bool);

/// The numeric part of a relaxed task.
#[derive(Clone, Debug, Default)]
pub struct NumericRelaxation {
    /// The distinct conditions; condition `i` is relaxed proposition
    /// `RelaxedTask::first_numeric_prop() + i`.
    pub conditions: Vec<LinearCondition>,
    /// The task's numeric effects that have a linear right-hand side.
    pub effects: Vec<LinearEffect>,
    /// Per relaxed operator, its range in `changes`.
    pub op_changes: Vec<(u32, u32)>,
    /// Condition changes of all relaxed operators.
    pub changes: Vec<ConditionChange>,
    /// `(coefficient in the condition, effect index)` of all changes.
    pub terms: Vec<(f64, u32)>,
    /// Whether some condition is not simple (may need releasing).
    pub has_non_simple: bool,
    index: HashMap<ConditionKey, u32>,
    effect_at: HashMap<EffectSite, u32>,
    /// Per fluent: some effect on it is not a constant increment.
    irregular_fluent: Vec<bool>,
    /// Per fluent, the conditions mentioning it (filled by `finish_conditions`).
    conditions_of_fluent: Vec<Vec<u32>>,
    /// Per relaxed operator, its range in `nets`.
    op_nets: Vec<(u32, u32)>,
    /// `(condition, change per application)` of all relaxed operators, for
    /// simple conditions only, consumption (negative) included: what the
    /// relaxed plan's resource balance (see [`NumericRelaxation::nets_of`]) reads.
    nets: Vec<(u32, f64)>,
    /// Per simple condition, the relaxed operators that raise it.
    achievers: Vec<Vec<u32>>,
}

impl NumericRelaxation {
    /// Collects the task's linear numeric effects; conditions are added
    /// with [`NumericRelaxation::conditions_of`].
    pub fn new(task: &Task) -> Self {
        let mut nr = NumericRelaxation {
            irregular_fluent: vec![false; task.fluents.len()],
            ..Default::default()
        };
        for (o, op) in task.operators.iter().enumerate() {
            let groups = std::iter::once((u32::MAX, &op.numeric)).chain(
                op.conditional
                    .iter()
                    .enumerate()
                    .map(|(c, ce)| (c as u32, &ce.numeric)),
            );
            for (c, effects) in groups {
                for (i, e) in effects.iter().enumerate() {
                    let linear = Linear::of(&e.expr).map(|rhs| LinearEffect {
                        op: e.op,
                        fluent: e.fluent,
                        rhs,
                    });
                    let regular = linear.as_ref().is_some_and(|l| l.is_constant_increment());
                    if !regular && let Some(flag) = nr.irregular_fluent.get_mut(e.fluent as usize) {
                        *flag = true;
                    }
                    if let Some(l) = linear {
                        nr.effect_at
                            .insert((o as u32, c, i as u32), nr.effects.len() as u32);
                        nr.effects.push(l);
                    }
                }
            }
        }
        nr
    }

    /// The condition indices for the linear conditions among `conditions`
    /// (adding new ones; non-linear conditions are skipped).
    pub fn conditions_of(&mut self, conditions: &[NumCondition]) -> Vec<u32> {
        let mut out = Vec::new();
        for c in conditions {
            let (Some(lhs), Some(rhs)) = (Linear::of(&c.lhs), Linear::of(&c.rhs)) else {
                continue;
            };
            let diff = lhs.plus(&rhs, -1.0);
            let negated = || diff.clone().scaled(-1.0);
            let normal: Vec<(Linear, bool)> = match c.op {
                Comparison::GreaterEqual => vec![(diff.clone(), false)],
                Comparison::Greater => vec![(diff.clone(), true)],
                Comparison::LessEqual => vec![(negated(), false)],
                Comparison::Less => vec![(negated(), true)],
                Comparison::Equal => vec![(diff.clone(), false), (negated(), false)],
            };
            for (expr, strict) in normal {
                out.push(self.intern(expr, strict));
            }
        }
        out
    }

    fn intern(&mut self, expr: Linear, strict: bool) -> u32 {
        let key: ConditionKey = (
            expr.terms.iter().map(|&(f, a)| (f, a.to_bits())).collect(),
            expr.constant.to_bits(),
            strict,
        );
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let simple = self.is_simple(&expr);
        self.has_non_simple |= !simple;
        let i = self.conditions.len() as u32;
        self.conditions.push(LinearCondition {
            expr,
            strict,
            simple,
        });
        self.index.insert(key, i);
        i
    }

    /// Whether every effect of the task on the expression's fluents adds a
    /// constant.
    fn is_simple(&self, expr: &Linear) -> bool {
        expr.terms.iter().all(|&(f, _)| {
            !self
                .irregular_fluent
                .get(f as usize)
                .copied()
                .unwrap_or(true)
        })
    }

    /// Call once every condition is known, before [`NumericRelaxation::add_op`].
    pub fn finish_conditions(&mut self, fluents: usize) {
        self.achievers = vec![Vec::new(); self.conditions.len()];
        self.conditions_of_fluent = vec![Vec::new(); fluents];
        for (n, c) in self.conditions.iter().enumerate() {
            for &(f, _) in &c.expr.terms {
                if let Some(list) = self.conditions_of_fluent.get_mut(f as usize) {
                    list.push(n as u32);
                }
            }
        }
    }

    /// The condition changes made by the numeric effects of operator `op`
    /// (`conditional`: index of a conditional effect, `None` for the
    /// unconditional ones), as `(condition, coefficient, effect)` sorted
    /// by condition.
    pub fn changes_by(
        &self,
        task: &Task,
        op: u32,
        conditional: Option<u32>,
    ) -> Vec<(u32, f64, u32)> {
        let c = conditional.unwrap_or(u32::MAX);
        let Some(operator) = task.operators.get(op as usize) else {
            return Vec::new();
        };
        let effects = match conditional {
            None => &operator.numeric,
            Some(i) => match operator.conditional.get(i as usize) {
                Some(ce) => &ce.numeric,
                None => return Vec::new(),
            },
        };
        let mut out = Vec::new();
        for i in 0..effects.len() as u32 {
            let Some(&id) = self.effect_at.get(&(op, c, i)) else {
                continue;
            };
            let e = &self.effects[id as usize];
            let conditions = self.conditions_of_fluent.get(e.fluent as usize);
            for &n in conditions.into_iter().flatten() {
                let a = self.conditions[n as usize].expr.coefficient(e.fluent);
                out.push((n, a, id));
            }
        }
        out.sort_by_key(|t| t.0);
        out
    }

    /// Records the condition changes of the next relaxed operator (from
    /// [`NumericRelaxation::changes_by`]).
    pub fn add_op(&mut self, changes: &[(u32, f64, u32)]) {
        let start = self.changes.len() as u32;
        let op = self.op_changes.len() as u32;
        let nets_start = self.nets.len() as u32;
        for group in changes.chunk_by(|a, b| a.0 == b.0) {
            let effect = |e: u32| &self.effects[e as usize];
            let one_shot = group
                .iter()
                .any(|&(_, _, e)| !matches!(effect(e).op, AssignOp::Increase | AssignOp::Decrease));
            let constant = group
                .iter()
                .all(|&(_, _, e)| effect(e).is_constant_increment());
            let constant_net = if constant {
                let net: f64 = group
                    .iter()
                    .map(|&(_, a, e)| a * effect(e).delta(&[]))
                    .sum();
                let condition = group[0].0;
                if net.is_finite() && net != 0.0 && self.conditions[condition as usize].simple {
                    self.nets.push((condition, net));
                    if net > 0.0 {
                        self.achievers[condition as usize].push(op);
                    }
                }
                if net.is_nan() || net <= 0.0 {
                    // Never helps, in any state: leave it out (most changes
                    // in resource domains consume).
                    continue;
                }
                net
            } else {
                f64::NAN
            };
            let t0 = self.terms.len() as u32;
            self.terms.extend(group.iter().map(|&(_, a, e)| (a, e)));
            self.changes.push(ConditionChange {
                condition: group[0].0,
                terms: (t0, self.terms.len() as u32),
                one_shot,
                constant_net,
            });
        }
        self.op_changes.push((start, self.changes.len() as u32));
        self.op_nets.push((nets_start, self.nets.len() as u32));
    }

    /// The constant changes per application that relaxed operator `o`
    /// makes to simple conditions, as `(condition, net)`; negative ones
    /// consume.
    #[inline]
    pub fn nets_of(&self, o: u32) -> &[(u32, f64)] {
        match self.op_nets.get(o as usize) {
            Some(&(a, b)) => &self.nets[a as usize..b as usize],
            None => &[],
        }
    }

    /// The relaxed operators that raise simple condition `n` by a
    /// constant.
    #[inline]
    pub fn achievers_of(&self, n: u32) -> &[u32] {
        self.achievers.get(n as usize).map_or(&[], Vec::as_slice)
    }

    /// The condition changes of relaxed operator `o`.
    #[inline]
    pub fn changes_of(&self, o: u32) -> &[ConditionChange] {
        match self.op_changes.get(o as usize) {
            Some(&(a, b)) => &self.changes[a as usize..b as usize],
            None => &[],
        }
    }

    /// Repetitions of a change needed to make its condition hold from
    /// `value` (the condition's value in the state); `None` if the change
    /// does not help.
    #[inline]
    pub fn repetitions(
        &self,
        change: &ConditionChange,
        value: f64,
        fluents: &[f64],
    ) -> Option<u64> {
        let cond = &self.conditions[change.condition as usize];
        let net: f64 = if change.constant_net.is_nan() {
            self.terms[change.terms.0 as usize..change.terms.1 as usize]
                .iter()
                .map(|&(a, e)| a * self.effects[e as usize].delta(fluents))
                .sum()
        } else {
            change.constant_net
        };
        if !net.is_finite() || !value.is_finite() {
            return None;
        }
        if change.one_shot {
            cond.satisfied_by(value + net).then_some(1)
        } else if net > 0.0 {
            Some(cond.repetitions(value, net))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fl(f: FluentId) -> Box<NumExpr> {
        Box::new(NumExpr::Fluent(f))
    }

    fn c(v: f64) -> Box<NumExpr> {
        Box::new(NumExpr::Const(v))
    }

    #[test]
    fn linear_forms() {
        // (current_load + 3) * 2 - current_load / 4 - 10 = 1.75·f0 - 4
        let e = NumExpr::Sub(
            Box::new(NumExpr::Sub(
                Box::new(NumExpr::Mul(Box::new(NumExpr::Add(fl(0), c(3.0))), c(2.0))),
                Box::new(NumExpr::Div(fl(0), c(4.0))),
            )),
            c(10.0),
        );
        let l = Linear::of(&e).expect("linear");
        assert_eq!(l.terms, vec![(0, 1.75)]);
        assert_eq!(l.constant, -4.0);
        assert_eq!(l.eval(&[4.0]), 3.0);
        // f0 - f0 cancels; f0 · f1 and division by a fluent or by 0 are not linear.
        let l = Linear::of(&NumExpr::Sub(fl(0), fl(0))).expect("linear");
        assert!(l.terms.is_empty());
        assert_eq!(Linear::of(&NumExpr::Mul(fl(0), fl(1))), None);
        assert_eq!(Linear::of(&NumExpr::Div(c(1.0), fl(1))), None);
        assert_eq!(Linear::of(&NumExpr::Div(fl(0), c(0.0))), None);
        // Too deep: refused rather than recursing without bound.
        let mut deep = NumExpr::Fluent(0);
        for _ in 0..=MAX_EXPRESSION_DEPTH {
            deep = NumExpr::Neg(Box::new(deep));
        }
        assert_eq!(Linear::of(&deep), None);
    }

    #[test]
    fn conditions_are_normalised_and_shared() {
        let mut nr = NumericRelaxation::default();
        let cond = |op, lhs: Box<NumExpr>, rhs: Box<NumExpr>| NumCondition {
            op,
            lhs: *lhs,
            rhs: *rhs,
        };
        // f0 ≤ 5 is 5 - f0 ≥ 0, the same as 5 ≥ f0; = gives two conditions.
        let ids = nr.conditions_of(&[
            cond(Comparison::LessEqual, fl(0), c(5.0)),
            cond(Comparison::GreaterEqual, c(5.0), fl(0)),
            cond(Comparison::Equal, fl(1), c(2.0)),
            cond(
                Comparison::Greater,
                Box::new(NumExpr::Mul(fl(0), fl(1))),
                c(0.0),
            ),
        ]);
        assert_eq!(ids, vec![0, 0, 1, 2]);
        assert_eq!(nr.conditions[0].expr.terms, vec![(0, -1.0)]);
        assert_eq!(nr.conditions[0].expr.constant, 5.0);
        assert!(!nr.conditions[0].strict);
        assert!(nr.conditions[2].satisfied_by(0.0) && !nr.conditions[1].satisfied_by(-1.0));
        // Repetitions: from -5 by 2 per step: 3 for ≥, and for > from -4: 3.
        assert_eq!(nr.conditions[0].repetitions(-5.0, 2.0), 3);
        let strict = LinearCondition {
            expr: Linear::default(),
            strict: true,
            simple: true,
        };
        assert_eq!(strict.repetitions(-4.0, 2.0), 3);
        // 0.1 three times reaches 0.3 despite rounding.
        assert_eq!(nr.conditions[0].repetitions(-0.3, 0.1), 3);
    }
}
