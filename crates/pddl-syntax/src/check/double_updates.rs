//! Actions that change one function term twice in a step.
//!
//! PDDL 2.1 leaves a step undefined where two of its effects change the
//! same value (`(increase (x) 3)` beside `(assign (x) 2)`, or two
//! increases of `total-cost`): the validator rejects such a step and the
//! grounder drops the operator, so the action is never applied and the
//! task may look unsolvable with no other reason given. This module warns
//! about the unconditional numeric effects of an action that name the
//! same function with the same arguments, as written. (Different
//! arguments that may name the same object, such as `(f ?a)` and `(f ?b)`,
//! are a common and valid pattern, so they are not reported; nor are
//! effects under `forall` or `when`.)

use crate::ast::{Atom, Domain, Effect, EffectKind, Term};
use crate::error::Diagnostic;

/// Warnings, at the second effect, for each action whose unconditional
/// numeric effects change one function term twice.
pub(super) fn double_updates(domain: &Domain) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for action in &domain.actions {
        let mut changes: Vec<(&Atom<Term>, &Effect)> = Vec::new();
        if let Some(effect) = &action.effect {
            unconditional_numeric_effects(effect, &mut changes);
        }
        for (i, &(target, effect)) in changes.iter().enumerate() {
            let Some(&(_, first)) = changes[..i].iter().find(|(t, _)| same_term(t, target)) else {
                continue;
            };
            out.push(
                Diagnostic::warning(
                    format!("action `{}` changes `{target}` twice", action.name),
                    effect.span,
                )
                .with_label(format!("`{target}` is changed here and by `{first}`"))
                .with_note(
                    "PDDL 2.1 leaves a step that changes a value twice undefined: the action \
                     is never applied, and `plan validate` rejects a plan using it; combine \
                     the two changes into one effect",
                ),
            );
        }
    }
    out
}

/// Collects the numeric effects of `effect` outside `forall` and `when`,
/// with their targets.
fn unconditional_numeric_effects<'a>(
    effect: &'a Effect,
    out: &mut Vec<(&'a Atom<Term>, &'a Effect)>,
) {
    match &effect.kind {
        EffectKind::And(parts) => {
            for part in parts {
                unconditional_numeric_effects(part, out);
            }
        }
        EffectKind::Numeric(_, target, _) => out.push((target, effect)),
        _ => {}
    }
}

/// Whether two function terms are written alike (names are lower-case).
fn same_term(a: &Atom<Term>, b: &Atom<Term>) -> bool {
    a.predicate.text == b.predicate.text
        && a.args.len() == b.args.len()
        && a.args.iter().zip(&b.args).all(|pair| match pair {
            (Term::Name(x), Term::Name(y)) => x.text == y.text,
            (Term::Variable(x), Term::Variable(y)) => x.name == y.name,
            _ => false,
        })
}
