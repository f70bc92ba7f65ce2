//! Semantic checks of a parsed domain and problem.
//!
//! The checks report every problem found, each located by a span:
//! undeclared or misused names (types, predicates, functions, constants,
//! objects; with a "did you mean" note for near misses), wrong arities and
//! argument types (respecting the type hierarchy and `either`), duplicate
//! declarations, type cycles, unbound variables, derived predicates changed
//! by actions, function terms given two initial values, a missing goal, and
//! (as warnings) requirements used but not declared, a problem naming
//! another domain, functions read but given no value in `:init` and
//! actions whose effects change one function term twice. Diagnostics come sorted by position. Unsupported but
//! parsed constructs (preferences, `:constraints`) are left to later stages.
//!
//! The checks follow what real benchmarks rely on: types may be used before
//! they are declared, `object` is implicit, a parent type that is never
//! declared itself is only a warning, and a variable may be passed where a
//! subtype of its type is expected (objects and constants must fit exactly).

mod double_updates;
mod formula;
mod requirements;
mod suggest;
mod tables;
mod unvalued;

use crate::ast::{Atom, Domain, InitElement, Name, Problem, Requirement, Span, TypedName};
use crate::error::Diagnostic;
use formula::Checker;
use hashbrown::HashMap;
use hashbrown::hash_map::Entry;
use requirements::RequirementTracker;
use tables::{Tables, duplicate};

/// Checks a domain; returns errors and warnings (spans in the domain file).
pub fn check_domain(domain: &Domain) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut requirements = RequirementTracker::new(&domain.requirements);
    let tables = Tables::build(domain, &mut out, &mut requirements);
    let mut action_names: HashMap<&str, Span> = HashMap::new();
    for action in &domain.actions {
        if action_names
            .insert(&action.name.text, action.name.span)
            .is_some()
        {
            out.push(duplicate("action", &action.name.text, action.name.span));
        }
    }
    for rule in &domain.derived {
        requirements.need(&[Requirement::DerivedPredicates], "`:derived`", rule.span);
        match tables.predicates.get(rule.head.name.as_str()) {
            None => out.push(
                Diagnostic::error(
                    format!("undeclared predicate `{}`", rule.head.name),
                    rule.head.name.span,
                )
                .with_label("not declared in `:predicates`")
                .with_note("a derived predicate must be declared in `:predicates` too"),
            ),
            Some(declared) if declared.params.len() != rule.head.params.len() => out.push(
                Diagnostic::error(
                    format!(
                        "derived predicate `{}` has {} here but {} in `:predicates`",
                        rule.head.name,
                        tables::plural(rule.head.params.len(), "parameter"),
                        declared.params.len()
                    ),
                    rule.head.span,
                )
                .with_label("wrong number of parameters")
                .with_note(format!(
                    "declared as {}",
                    tables::show_signature(&declared.name, &declared.params)
                )),
            ),
            Some(_) => {}
        }
    }
    {
        let mut checker = Checker::new(&tables, None, &mut requirements, &mut out);
        for action in &domain.actions {
            checker.with_bound(&action.parameters, |checker| {
                if let Some(precondition) = &action.precondition {
                    checker.condition(precondition, 0);
                }
                if let Some(effect) = &action.effect {
                    checker.effect(effect, 0);
                }
            });
        }
        for rule in &domain.derived {
            checker.with_bound(&rule.head.params, |checker| {
                checker.condition(&rule.body, 0)
            });
        }
    }
    out.extend(double_updates::double_updates(domain));
    out.extend(requirements.into_warnings());
    sorted(out)
}

/// Checks a problem against its (checked) domain; returns errors and
/// warnings with spans in the problem file. Problems of the domain itself
/// are not repeated here: report them with [`check_domain`].
pub fn check_problem(domain: &Domain, problem: &Problem) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // The domain's own diagnostics have spans in the domain file: drop them.
    let tables = Tables::build(
        domain,
        &mut Vec::new(),
        &mut RequirementTracker::new(&domain.requirements),
    );
    let mut requirements =
        RequirementTracker::new(domain.requirements.iter().chain(&problem.requirements));
    if problem.domain.text != domain.name.text {
        out.push(
            Diagnostic::warning(
                format!(
                    "problem is for domain `{}`, but the domain is named `{}`",
                    problem.domain, domain.name
                ),
                problem.domain.span,
            )
            .with_label("does not match the domain's name"),
        );
    }
    let mut objects: HashMap<&str, &TypedName> = HashMap::new();
    for object in &problem.objects {
        tables.check_type_ref(object.ty.as_ref(), &mut out, &mut requirements);
        // The first declaration stands, so that uses typed by it do not
        // cascade into type errors.
        if let Entry::Vacant(slot) = objects.entry(object.name.text.as_str()) {
            slot.insert(object);
        } else {
            out.push(duplicate("object", &object.name.text, object.name.span));
            continue;
        }
        if let Some(constant) = tables.constants.get(object.name.as_str())
            && !tables::same_type(constant.ty.as_ref(), object.ty.as_ref())
        {
            let constant_type = tables::show_type(constant.ty.as_ref());
            let object_type = tables::show_type(object.ty.as_ref());
            out.push(
                Diagnostic::warning(
                    format!("object `{}` redeclares a domain constant", object.name),
                    object.name.span,
                )
                .with_label(format!("declared here with type `{object_type}`"))
                .with_note(format!(
                    "the domain's constant has type `{constant_type}`; the problem's type is used"
                )),
            );
        }
    }
    {
        let mut checker = Checker::new(&tables, Some(&objects), &mut requirements, &mut out);
        for element in &problem.init {
            checker.init_element(element);
        }
        if let Some(goal) = &problem.goal {
            checker.condition(goal, 0);
        }
        if let Some(metric) = &problem.metric {
            let only_total_cost = matches!(
                &metric.expr.kind,
                crate::ast::ExprKind::Fluent(atom) if tables::is_total_cost(&atom.predicate, &atom.args)
            );
            let needs: &[Requirement] = if only_total_cost {
                &[
                    Requirement::ActionCosts,
                    Requirement::NumericFluents,
                    Requirement::Fluents,
                ]
            } else {
                &[Requirement::NumericFluents, Requirement::Fluents]
            };
            checker.requirements.need(needs, "`:metric`", metric.span);
            checker.expr(&metric.expr, 0);
        }
    }
    out.extend(conflicting_initial_values(&problem.init));
    out.extend(unvalued::unvalued_functions(domain, problem));
    if problem.goal.is_none() {
        out.push(
            Diagnostic::error(
                format!("problem `{}` has no goal", problem.name),
                problem.name.span,
            )
            .with_label("this problem has no `(:goal ...)` section")
            .with_note("every problem needs a goal"),
        );
    }
    out.extend(requirements.into_warnings());
    sorted(out)
}

/// Function terms given two different values in `:init` (the same value
/// twice is harmless).
fn conflicting_initial_values(init: &[InitElement]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut first_values: HashMap<(&str, Vec<&str>), String> = HashMap::new();
    for element in init {
        let (atom, value, span) = match element {
            InitElement::NumericValue(atom, value, span) => (atom, value.to_string(), *span),
            InitElement::ObjectValue(atom, value, span) => (atom, value.text.clone(), *span),
            InitElement::Atom(_) | InitElement::NotAtom(_) => continue,
        };
        let args: Vec<&str> = atom.args.iter().map(Name::as_str).collect();
        match first_values.entry((atom.predicate.as_str(), args)) {
            Entry::Occupied(first) if *first.get() != value => out.push(
                Diagnostic::error(
                    format!("`{}` is given two initial values", show_ground_atom(atom)),
                    span,
                )
                .with_label(format!("second value `{value}`"))
                .with_note(format!("it was first given the value `{}`", first.get())),
            ),
            Entry::Occupied(_) => {}
            Entry::Vacant(entry) => {
                entry.insert(value);
            }
        }
    }
    out
}

/// Writes a ground atom as in PDDL: `(fuel t1)`.
fn show_ground_atom(atom: &Atom<Name>) -> String {
    let mut out = format!("({}", atom.predicate);
    for arg in &atom.args {
        out.push(' ');
        out.push_str(arg.as_str());
    }
    out.push(')');
    out
}

/// Sorts diagnostics by position (stable: same-position ones keep the order
/// they were found in). Identical diagnostics (one type written once for
/// several names, as in `a b - block`) are reported once.
fn sorted(mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostics.sort_by_key(|diagnostic| diagnostic.span.start);
    let mut seen = hashbrown::HashSet::new();
    diagnostics.retain(|diagnostic| seen.insert((diagnostic.span, diagnostic.message.clone())));
    diagnostics
}
