//! Explaining why a condition is false: which sub-condition fails, under
//! which variable bindings, and what would repair it.

use crate::model::{Cond, CondKind, NExpr, ObjId};
use crate::render::{format_number, vars_text};
use crate::state::{EvalError, Evaluator};

/// The lines of an explanation and the repair advice gathered.
#[derive(Default)]
pub(crate) struct Explanation {
    /// Indented lines, most general first.
    pub lines: Vec<String>,
    /// Suggested repairs, e.g. "make (clear b) true before step 3".
    pub advice: Vec<String>,
}

/// Explains failed conditions in one state.
pub(crate) struct Explainer<'e, 'm> {
    pub evaluator: &'e Evaluator<'m>,
    /// When a repair must take effect: "before step 3", "by the end of the plan".
    pub deadline: String,
}

/// Most lines explained per condition, so a huge quantifier cannot flood the output.
const MAX_LINES: usize = 40;

impl Explainer<'_, '_> {
    /// Explains why `cond` does not have the truth value `want`
    /// (the caller has checked that it does not). Variables in slots below
    /// `bound` are bound in `env`.
    pub fn explain(
        &self,
        cond: &Cond,
        env: &mut [ObjId],
        bound: usize,
        want: bool,
        depth: usize,
        out: &mut Explanation,
    ) {
        if out.lines.len() >= MAX_LINES {
            return;
        }
        let model = self.evaluator.model;
        let indent = "  ".repeat(depth);
        let text = model.render_cond(cond, env, bound);
        let status = if want { "true" } else { "false" };
        let mut line = |s: String| out.lines.push(format!("{indent}{s}"));
        match &cond.kind {
            CondKind::Atom(pred, _) => {
                let is_derived = model.predicates[*pred].derived;
                if want {
                    line(format!("{text} is false"));
                } else {
                    line(format!("{text} is true, but must be false"));
                }
                out.advice.push(if is_derived {
                    format!(
                        "make {text} {status} {}: it is a derived predicate, so change the facts its `:derived` rules read",
                        self.deadline
                    )
                } else {
                    format!("make {text} {status} {}", self.deadline)
                });
            }
            CondKind::Eq(..) => {
                if want {
                    line(format!(
                        "{text} is false: the two objects differ, but must be the same"
                    ));
                } else {
                    line(format!(
                        "{text} is true: both are the same object, but must differ"
                    ));
                }
                out.advice
                    .push(format!("choose arguments that make {text} {status}"));
            }
            CondKind::Not(inner) => self.explain(inner, env, bound, !want, depth, out),
            CondKind::And(parts) if want => {
                // Every false conjunct: each needs a repair.
                for part in parts {
                    if self.evaluator.holds(part, env) == Ok(false) {
                        self.explain(part, env, bound, true, depth, out);
                    }
                }
            }
            CondKind::Or(parts) if !want => {
                for part in parts {
                    if self.evaluator.holds(part, env) == Ok(true) {
                        self.explain(part, env, bound, false, depth, out);
                    }
                }
            }
            CondKind::And(parts) | CondKind::Or(parts) => {
                if want {
                    line(format!("none of the alternatives of {text} holds:"));
                } else {
                    line(format!("every part of {text} holds, but it must be false:"));
                }
                let mut inner = Explanation::default();
                for part in parts {
                    self.explain(part, env, bound, want, depth + 1, &mut inner);
                }
                out.lines.append(&mut inner.lines);
                let alternatives: Vec<String> = inner.advice;
                if !alternatives.is_empty() {
                    out.advice
                        .push(format!("do one of these: {}", alternatives.join("; or ")));
                }
            }
            CondKind::Imply(condition, consequence) => {
                if want {
                    line(format!(
                        "{} holds, so {} must hold too:",
                        model.render_cond(condition, env, bound),
                        model.render_cond(consequence, env, bound)
                    ));
                    self.explain(consequence, env, bound, true, depth + 1, out);
                } else {
                    line(format!("{text} holds, but must be false:"));
                    if self.evaluator.holds(condition, env) == Ok(false) {
                        self.explain(condition, env, bound, true, depth + 1, out);
                    }
                    if self.evaluator.holds(consequence, env) == Ok(true) {
                        self.explain(consequence, env, bound, false, depth + 1, out);
                    }
                }
            }
            CondKind::Exists(vars, body) | CondKind::Forall(vars, body) => {
                let is_exists = matches!(cond.kind, CondKind::Exists(..));
                let inner_bound = vars
                    .iter()
                    .map(|v| v.slot + 1)
                    .max()
                    .unwrap_or(bound)
                    .max(bound);
                // exists wanted true / forall wanted false: no witness exists
                // for the wanted value; say so without listing every object.
                if is_exists == want {
                    let candidates: usize =
                        vars.iter().map(|v| model.domains[v.domain].len()).product();
                    let none = if candidates == 0 {
                        " (there are no such objects)"
                    } else {
                        ""
                    };
                    let body_text = model.render_cond(
                        body,
                        env,
                        bound.min(vars.first().map_or(bound, |v| v.slot)),
                    );
                    if want {
                        line(format!(
                            "no {} makes {body_text} true{none}",
                            vars_text(vars)
                        ));
                    } else {
                        line(format!(
                            "{body_text} is true for every {}, but must fail for one",
                            vars_text(vars)
                        ));
                    }
                    out.advice.push(format!(
                        "make {body_text} {status} for some {} {}",
                        vars_text(vars),
                        self.deadline
                    ));
                    return;
                }
                // A counter-example exists: find it and explain it.
                let evaluator = self.evaluator;
                let found = evaluator.first_binding(vars, env, &mut |env| {
                    Ok(evaluator.holds(body, env)? != want)
                });
                if found == Ok(true) {
                    line(format!("for {}:", model.bindings_text(vars, env)));
                    self.explain(body, env, inner_bound, want, depth + 1, out);
                } else {
                    line(format!("{text} is not {status}"));
                }
            }
            CondKind::Compare(_, a, b) => {
                let mut values = Vec::new();
                self.fluent_values(a, env, &mut values);
                self.fluent_values(b, env, &mut values);
                let values = if values.is_empty() {
                    String::new()
                } else {
                    format!(" where {}", values.join(", "))
                };
                if want {
                    line(format!("{text} is false{values}"));
                } else {
                    line(format!("{text} is true, but must be false{values}"));
                }
                out.advice
                    .push(format!("make {text} {status} {}", self.deadline));
            }
        }
    }

    /// `(f a) = 3` for every fluent read by `expr`.
    fn fluent_values(&self, expr: &NExpr, env: &[ObjId], out: &mut Vec<String>) {
        let model = self.evaluator.model;
        match expr {
            NExpr::Num(_) | NExpr::TotalTime => {}
            NExpr::Fluent(..) => {
                let text = model.render_expr(expr, env, usize::MAX);
                let value = match self.evaluator.value(expr, env) {
                    Ok(v) => format_number(v),
                    Err(EvalError::Undefined(_)) => "undefined".to_string(),
                    Err(EvalError::Arithmetic(e)) => e,
                };
                let entry = format!("{text} = {value}");
                if !out.contains(&entry) {
                    out.push(entry);
                }
            }
            NExpr::Neg(inner) => self.fluent_values(inner, env, out),
            NExpr::Bin(_, a, b) => {
                self.fluent_values(a, env, out);
                self.fluent_values(b, env, out);
            }
        }
    }
}
