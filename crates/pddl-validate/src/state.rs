//! States and the evaluation of conditions, expressions and effects on
//! them, with PDDL semantics: effects are collected in the old state and
//! then applied, deletes before adds.

use crate::model::{
    Arg, Cond, CondKind, DerivedRule, Eff, EffKind, FuncId, Model, NExpr, ObjId, PredId, QVar,
};
use hashbrown::{HashMap, HashSet};
use pddl_syntax::ast::{AssignOp, BinaryOp};

/// The true atoms and defined fluent values of a state, by id.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct State {
    /// `atoms[p]`: argument tuples of the true atoms of predicate `p`
    /// (for derived predicates: as derived in this state).
    pub atoms: Vec<HashSet<Box<[ObjId]>>>,
    /// `fluents[f]`: argument tuples of function `f` with a value; a
    /// missing tuple is undefined.
    pub fluents: Vec<HashMap<Box<[ObjId]>, f64>>,
}

impl State {
    /// A state with nothing true and every fluent undefined.
    pub fn empty(predicates: usize, functions: usize) -> State {
        State {
            atoms: (0..predicates).map(|_| HashSet::new()).collect(),
            fluents: (0..functions).map(|_| HashMap::new()).collect(),
        }
    }
}

/// Why a condition, expression or effect could not be evaluated.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum EvalError {
    /// A fluent was read while undefined; holds its text, e.g. `(fuel t1)`.
    Undefined(String),
    /// Division by zero or a non-finite result; holds an explanation.
    Arithmetic(String),
}

/// Runs `f` on the ground arguments without allocating for short tuples.
fn with_ground<R>(args: &[Arg], env: &[ObjId], f: impl FnOnce(&[ObjId]) -> R) -> R {
    let resolve = |arg: &Arg| match arg {
        Arg::Obj(o) => *o,
        Arg::Var { slot, .. } => env[*slot],
    };
    let mut buffer = [0 as ObjId; 8];
    if args.len() <= buffer.len() {
        for (cell, arg) in buffer.iter_mut().zip(args) {
            *cell = resolve(arg);
        }
        f(&buffer[..args.len()])
    } else {
        let owned: Vec<ObjId> = args.iter().map(resolve).collect();
        f(&owned)
    }
}

/// The ground arguments as an owned tuple.
pub(crate) fn ground(args: &[Arg], env: &[ObjId]) -> Box<[ObjId]> {
    with_ground(args, env, |a| a.into())
}

/// Evaluates conditions and expressions in one state.
pub(crate) struct Evaluator<'m> {
    pub model: &'m Model,
    pub state: &'m State,
    /// Value of `total-time`: the number of steps executed so far.
    pub total_time: f64,
}

impl Evaluator<'_> {
    /// Whether `cond` holds with variables bound by `env`.
    pub fn holds(&self, cond: &Cond, env: &mut [ObjId]) -> Result<bool, EvalError> {
        Ok(match &cond.kind {
            CondKind::Atom(pred, args) => {
                with_ground(args, env, |a| self.state.atoms[*pred].contains(a))
            }
            CondKind::Eq(a, b) => resolve(a, env) == resolve(b, env),
            CondKind::Not(inner) => !self.holds(inner, env)?,
            CondKind::And(parts) => {
                for part in parts {
                    if !self.holds(part, env)? {
                        return Ok(false);
                    }
                }
                true
            }
            CondKind::Or(parts) => {
                for part in parts {
                    if self.holds(part, env)? {
                        return Ok(true);
                    }
                }
                false
            }
            CondKind::Imply(a, b) => !self.holds(a, env)? || self.holds(b, env)?,
            CondKind::Exists(vars, body) => {
                self.first_binding(vars, env, &mut |env| self.holds(body, env))?
            }
            CondKind::Forall(vars, body) => {
                !self.first_binding(vars, env, &mut |env| Ok(!self.holds(body, env)?))?
            }
            CondKind::Compare(op, a, b) => op.holds(self.value(a, env)?, self.value(b, env)?),
        })
    }

    /// Tries every binding of `vars` (in order) until `test` accepts one;
    /// returns whether one was found, leaving it bound in `env`.
    pub fn first_binding(
        &self,
        vars: &[QVar],
        env: &mut [ObjId],
        test: &mut dyn FnMut(&mut [ObjId]) -> Result<bool, EvalError>,
    ) -> Result<bool, EvalError> {
        let Some((first, rest)) = vars.split_first() else {
            return test(env);
        };
        for &object in &self.model.domains[first.domain] {
            env[first.slot] = object;
            if self.first_binding(rest, env, test)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The value of a numeric expression.
    pub fn value(&self, expr: &NExpr, env: &[ObjId]) -> Result<f64, EvalError> {
        let value = match expr {
            NExpr::Num(n) => *n,
            NExpr::TotalTime => self.total_time,
            NExpr::Fluent(func, args) => {
                match with_ground(args, env, |a| self.state.fluents[*func].get(a).copied()) {
                    Some(v) => v,
                    None => {
                        return Err(EvalError::Undefined(
                            self.model.fluent_text(*func, &ground(args, env)),
                        ));
                    }
                }
            }
            NExpr::Neg(inner) => -self.value(inner, env)?,
            NExpr::Bin(op, a, b) => {
                let (x, y) = (self.value(a, env)?, self.value(b, env)?);
                match op {
                    BinaryOp::Add => x + y,
                    BinaryOp::Sub => x - y,
                    BinaryOp::Mul => x * y,
                    BinaryOp::Div if y == 0.0 => {
                        return Err(EvalError::Arithmetic(format!(
                            "division by zero in {}",
                            self.model.render_expr(expr, env, usize::MAX)
                        )));
                    }
                    BinaryOp::Div => x / y,
                }
            }
        };
        if value.is_finite() {
            Ok(value)
        } else {
            Err(EvalError::Arithmetic(format!(
                "{} is not a finite number",
                self.model.render_expr(expr, env, usize::MAX)
            )))
        }
    }

    /// Collects what `effect` does in this (old) state into `out`:
    /// `when` conditions and right-hand sides are evaluated here.
    pub fn collect(
        &self,
        effect: &Eff,
        env: &mut [ObjId],
        out: &mut Changes,
    ) -> Result<(), EvalError> {
        match &effect.kind {
            EffKind::And(parts) => {
                for part in parts {
                    self.collect(part, env, out)?;
                }
            }
            EffKind::Forall(vars, body) => {
                self.first_binding(vars, env, &mut |env| {
                    self.collect(body, env, out)?;
                    Ok(false)
                })?;
            }
            EffKind::When(cond, body) => {
                if self.holds(cond, env)? {
                    self.collect(body, env, out)?;
                }
            }
            EffKind::Add(pred, args) => out.adds.push((*pred, ground(args, env))),
            EffKind::Del(pred, args) => out.dels.push((*pred, ground(args, env))),
            EffKind::Numeric(op, func, args, expr) => out.numeric.push(NumericChange {
                func: *func,
                args: ground(args, env),
                op: Some(*op),
                value: self.value(expr, env)?,
            }),
            EffKind::AssignUndefined(func, args) => out.numeric.push(NumericChange {
                func: *func,
                args: ground(args, env),
                op: None,
                value: f64::NAN,
            }),
        }
        Ok(())
    }
}

/// The value of an argument under `env`.
pub(crate) fn resolve(arg: &Arg, env: &[ObjId]) -> ObjId {
    match arg {
        Arg::Obj(o) => *o,
        Arg::Var { slot, .. } => env[*slot],
    }
}

/// One numeric effect, evaluated.
#[derive(Clone, Debug)]
pub(crate) struct NumericChange {
    pub func: FuncId,
    pub args: Box<[ObjId]>,
    /// `None` for an assignment of `undefined`.
    pub op: Option<AssignOp>,
    /// The right-hand side's value in the old state.
    pub value: f64,
}

/// The effects of one step, evaluated in the state before it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Changes {
    pub adds: Vec<(PredId, Box<[ObjId]>)>,
    pub dels: Vec<(PredId, Box<[ObjId]>)>,
    pub numeric: Vec<NumericChange>,
}

/// Why collected effects cannot be applied.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ApplyError {
    /// Two numeric effects on one fluent: its text.
    Conflict(String),
    /// `assign` of `undefined`: the fluent's text.
    AssignUndefined(String),
    /// An update of an undefined fluent: the fluent's text and the operator.
    UpdateUndefined(String, AssignOp),
    /// A non-finite result.
    Arithmetic(String),
}

/// A fluent's new value: function, arguments, old value (`None`:
/// undefined) and new value.
pub(crate) type FluentUpdate = (FuncId, Box<[ObjId]>, Option<f64>, f64);

/// What a step changed, by id: atoms made true that were false, atoms made
/// false that were true, and fluents with their old and new value.
#[derive(Clone, Debug, Default)]
pub(crate) struct Delta {
    pub added: Vec<(PredId, Box<[ObjId]>)>,
    pub deleted: Vec<(PredId, Box<[ObjId]>)>,
    pub fluents: Vec<FluentUpdate>,
}

/// Applies collected effects to `state` (deletes before adds, so an atom
/// both deleted and added ends true). Leaves `state` unchanged on error.
/// Fills `delta` when given.
pub(crate) fn apply(
    model: &Model,
    state: &mut State,
    changes: Changes,
    delta: Option<&mut Delta>,
) -> Result<(), ApplyError> {
    let mut new_values = Vec::with_capacity(changes.numeric.len());
    let mut seen: HashSet<(FuncId, &[ObjId])> = HashSet::new();
    for change in &changes.numeric {
        let text = || model.fluent_text(change.func, &change.args);
        if !seen.insert((change.func, &change.args)) {
            return Err(ApplyError::Conflict(text()));
        }
        let old = state.fluents[change.func].get(&change.args).copied();
        let new = match (change.op, old) {
            (None, _) => return Err(ApplyError::AssignUndefined(text())),
            (Some(AssignOp::Assign), _) => change.value,
            (Some(op), None) => return Err(ApplyError::UpdateUndefined(text(), op)),
            (Some(op), Some(old)) => op.apply(old, change.value),
        };
        if !new.is_finite() {
            return Err(ApplyError::Arithmetic(format!(
                "{} of {} by {} gives a non-finite value",
                change.op.map_or("assign", |o| o.keyword()),
                text(),
                crate::render::format_number(change.value)
            )));
        }
        new_values.push((change.func, change.args.clone(), old, new));
    }
    if let Some(delta) = delta {
        let added: HashSet<(PredId, &[ObjId])> =
            changes.adds.iter().map(|(p, a)| (*p, &a[..])).collect();
        for (pred, args) in &changes.dels {
            if state.atoms[*pred].contains(args)
                && !added.contains(&(*pred, &args[..]))
                && !delta.deleted.iter().any(|(p, a)| p == pred && a == args)
            {
                delta.deleted.push((*pred, args.clone()));
            }
        }
        for (pred, args) in &changes.adds {
            if !state.atoms[*pred].contains(args)
                && !delta.added.iter().any(|(p, a)| p == pred && a == args)
            {
                delta.added.push((*pred, args.clone()));
            }
        }
        delta.fluents = new_values.clone();
    }
    for (pred, args) in changes.dels {
        state.atoms[pred].remove(&args);
    }
    for (pred, args) in changes.adds {
        state.atoms[pred].insert(args);
    }
    for (func, args, _, new) in new_values {
        state.fluents[func].insert(args, new);
    }
    Ok(())
}

/// Recomputes every derived predicate in `state`, stratum by stratum,
/// each to its least fixpoint.
pub(crate) fn derive(model: &Model, state: &mut State, total_time: f64) -> Result<(), EvalError> {
    for stratum in &model.strata {
        for rule in stratum {
            state.atoms[rule.head].clear();
        }
    }
    for stratum in &model.strata {
        loop {
            let mut found = Vec::new();
            {
                let evaluator = Evaluator {
                    model,
                    state,
                    total_time,
                };
                for rule in stratum {
                    derive_rule(&evaluator, rule, &mut found)?;
                }
            }
            let mut changed = false;
            for (pred, args) in found {
                changed |= state.atoms[pred].insert(args);
            }
            if !changed {
                break;
            }
        }
    }
    Ok(())
}

/// Adds to `found` the head atoms of `rule` whose body holds and which are
/// not yet true.
fn derive_rule(
    evaluator: &Evaluator,
    rule: &DerivedRule,
    found: &mut Vec<(PredId, Box<[ObjId]>)>,
) -> Result<(), EvalError> {
    let mut env = vec![0; rule.slots];
    let head_args: Vec<Arg> = rule
        .params
        .iter()
        .map(|p| Arg::Var {
            slot: p.slot,
            name: p.name.clone(),
        })
        .collect();
    evaluator.first_binding(&rule.params, &mut env, &mut |env| {
        let args = ground(&head_args, env);
        if !evaluator.state.atoms[rule.head].contains(&args) && evaluator.holds(&rule.body, env)? {
            found.push((rule.head, args));
        }
        Ok(false)
    })?;
    Ok(())
}
