//! Functions that the domain reads but the problem never gives a value.
//!
//! A function term without a value in `:init` is undefined: a comparison
//! with it is false and an `increase` of it cannot be applied, so a
//! forgotten `(= (total-cost) 0)` or `(= (fuel) 20)` silently makes the
//! actions that need it inapplicable, and the task looks unsolvable. This
//! module warns about a function that has no value at all in `:init`,
//! is read somewhere (a comparison, an expression, or the target of an
//! `increase`-like effect) and is never set by an `assign` effect.

use crate::ast::{
    AssignOp, Condition, ConditionKind, Domain, Effect, EffectKind, Expr, ExprKind, InitElement,
    Problem,
};
use crate::error::Diagnostic;
use hashbrown::HashSet;
use indexmap::IndexMap;

/// Warnings, located at the problem's name, for each function the domain's
/// actions, its derived predicates or the goal read without any value in
/// `:init` (and that no action assigns).
pub(super) fn unvalued_functions(domain: &Domain, problem: &Problem) -> Vec<Diagnostic> {
    let mut uses = Uses::default();
    for action in &domain.actions {
        let reader = format!("action `{}`", action.name);
        if let Some(precondition) = &action.precondition {
            uses.condition(precondition, &reader);
        }
        if let Some(effect) = &action.effect {
            uses.effect(effect, &reader);
        }
    }
    for derived in &domain.derived {
        uses.condition(&derived.body, &format!("derived `{}`", derived.head.name));
    }
    if let Some(goal) = &problem.goal {
        uses.condition(goal, "the goal");
    }
    let valued: HashSet<&str> = problem
        .init
        .iter()
        .filter_map(|element| match element {
            InitElement::NumericValue(atom, ..) | InitElement::ObjectValue(atom, ..) => {
                Some(atom.predicate.as_str())
            }
            InitElement::Atom(_) | InitElement::NotAtom(_) => None,
        })
        .collect();
    uses.read
        .iter()
        .filter(|(name, _)| !valued.contains(name.as_str()) && !uses.assigned.contains(*name))
        // An undeclared name is an error of its own.
        .filter_map(|(name, reader)| {
            let declared = domain
                .functions
                .iter()
                .find(|f| f.name.as_str() == name.as_str())?;
            Some((name, reader, declared.params.is_empty()))
        })
        .map(|(name, reader, without_arguments)| {
            let example = if without_arguments {
                format!("`(= ({name}) 0)`")
            } else {
                format!("`(= ({name} ...) 0)` for each argument tuple used")
            };
            Diagnostic::warning(
                format!("function `{name}` has no value in `:init`"),
                problem.name.span,
            )
            .with_label(format!("{reader} reads `{name}`, which stays undefined"))
            .with_note(format!(
                "comparisons with an undefined value are false and effects on it cannot be \
                 applied; give it a value in `:init`, such as {example}"
            ))
        })
        .collect()
}

/// What the domain and goal read and assign, by function name.
#[derive(Default)]
struct Uses {
    /// Each function read, with the first place that reads it.
    read: IndexMap<String, String>,
    /// Functions some `assign` effect sets.
    assigned: HashSet<String>,
}

impl Uses {
    fn read(&mut self, name: &str, reader: &str) {
        if !self.read.contains_key(name) {
            self.read.insert(name.to_string(), reader.to_string());
        }
    }

    fn condition(&mut self, condition: &Condition, reader: &str) {
        match &condition.kind {
            ConditionKind::Atom(_) | ConditionKind::Equality(..) => {}
            ConditionKind::Not(inner)
            | ConditionKind::Exists(_, inner)
            | ConditionKind::Forall(_, inner)
            | ConditionKind::Preference(_, inner) => self.condition(inner, reader),
            ConditionKind::And(parts) | ConditionKind::Or(parts) => {
                parts.iter().for_each(|part| self.condition(part, reader));
            }
            ConditionKind::Imply(premise, conclusion) => {
                self.condition(premise, reader);
                self.condition(conclusion, reader);
            }
            ConditionKind::Compare(_, left, right) => {
                self.expr(left, reader);
                self.expr(right, reader);
            }
        }
    }

    fn effect(&mut self, effect: &Effect, reader: &str) {
        match &effect.kind {
            EffectKind::And(parts) => parts.iter().for_each(|part| self.effect(part, reader)),
            EffectKind::Forall(_, inner) => self.effect(inner, reader),
            EffectKind::When(condition, inner) => {
                self.condition(condition, reader);
                self.effect(inner, reader);
            }
            EffectKind::Add(_) | EffectKind::Delete(_) | EffectKind::ObjectAssign(..) => {}
            EffectKind::Numeric(op, target, value) => {
                if *op == AssignOp::Assign {
                    self.assigned.insert(target.predicate.text.clone());
                } else {
                    self.read(target.predicate.as_str(), reader);
                }
                self.expr(value, reader);
            }
        }
    }

    fn expr(&mut self, expr: &Expr, reader: &str) {
        match &expr.kind {
            ExprKind::Number(_) | ExprKind::TotalTime => {}
            ExprKind::Fluent(atom) => self.read(atom.predicate.as_str(), reader),
            ExprKind::Neg(inner) => self.expr(inner, reader),
            ExprKind::Binary(_, left, right) => {
                self.expr(left, reader);
                self.expr(right, reader);
            }
        }
    }
}
