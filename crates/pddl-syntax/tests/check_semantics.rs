//! Semantic checks on small domains and problems: what must be accepted
//! (the leniency real benchmarks need) and what must be reported, with
//! exact messages and counts. Rendering is covered by the root corpus.

use pddl_syntax::ast::{Condition, ConditionKind, Span};
use pddl_syntax::check::{check_domain, check_problem};
use pddl_syntax::{Diagnostic, Severity, parse_domain, parse_problem};

/// Checks a domain text; panics on syntax errors (the inputs here parse).
fn domain_diagnostics(text: &str) -> Vec<Diagnostic> {
    let domain = parse_domain(text).unwrap_or_else(|e| panic!("syntax error: {e:?}"));
    check_domain(&domain)
}

/// Checks a problem text against a domain text.
fn problem_diagnostics(domain: &str, problem: &str) -> Vec<Diagnostic> {
    let domain = parse_domain(domain).unwrap_or_else(|e| panic!("domain syntax error: {e:?}"));
    let problem = parse_problem(problem).unwrap_or_else(|e| panic!("problem syntax error: {e:?}"));
    check_problem(&domain, &problem)
}

/// The messages of the diagnostics of one severity.
fn messages(diagnostics: &[Diagnostic], severity: Severity) -> Vec<&str> {
    diagnostics
        .iter()
        .filter(|d| d.severity == severity)
        .map(|d| d.message.as_str())
        .collect()
}

fn errors(diagnostics: &[Diagnostic]) -> Vec<&str> {
    messages(diagnostics, Severity::Error)
}

fn warnings(diagnostics: &[Diagnostic]) -> Vec<&str> {
    messages(diagnostics, Severity::Warning)
}

/// A typed domain most problem tests use.
const TRANSPORT: &str = "(define (domain transport)
  (:requirements :typing :numeric-fluents :action-costs :object-fluents)
  (:types truck package - locatable locatable location - object)
  (:constants depot - location)
  (:predicates (at ?x - locatable ?l - location) (in ?p - package ?t - truck))
  (:functions (fuel ?t - truck) (total-cost) - number (home ?t - truck) - location)
  (:action drive :parameters (?t - truck ?a ?b - location)
    :precondition (and (at ?t ?a) (> (fuel ?t) 0))
    :effect (and (at ?t ?b) (decrease (fuel ?t) 1) (increase (total-cost) 1)
                 (assign (home ?t) ?b) (assign (home ?t) undefined))))";

#[test]
fn typed_domain_with_subtypes_and_constants_is_clean() {
    assert_eq!(domain_diagnostics(TRANSPORT), vec![]);
}

#[test]
fn benchmark_style_leniency_is_accepted() {
    // Types used before declared, `- object` parents and constants,
    // `either` parameters, constants of subtypes, variables of a supertype.
    let domain = "(define (domain lenient)
      (:requirements :typing)
      (:types truck - vehicle vehicle place - object)
      (:constants garage - place anything - object)
      (:predicates (at ?v - vehicle ?p - place) (parked ?t - truck)
                   (seen ?x - (either vehicle place)) (any ?x))
      (:action park :parameters (?v - vehicle ?p - place)
        :precondition (and (at ?v garage) (seen ?p) (seen ?v) (any anything))
        :effect (parked ?v)))";
    assert_eq!(domain_diagnostics(domain), vec![]);
}

#[test]
fn untyped_domain_is_clean_without_typing() {
    let domain = "(define (domain untyped) (:requirements :strips)
      (:constants table) (:predicates (on ?x ?y) (clear ?x))
      (:action put :parameters (?x ?y) :precondition (and (clear ?x) (clear ?y))
        :effect (and (on ?x ?y) (on ?x table))))";
    assert_eq!(domain_diagnostics(domain), vec![]);
}

#[test]
fn undeclared_names_are_errors() {
    let domain = "(define (domain d) (:requirements :typing :numeric-fluents)
      (:types block) (:constants c - block)
      (:predicates (p ?x - block) (q ?x - blok))
      (:functions (f))
      (:action a :parameters (?x - block)
        :precondition (and (p ?x) (r ?x) (> (f) (g)) (p k))
        :effect (p c)))";
    assert_eq!(
        errors(&domain_diagnostics(domain)),
        vec![
            "undeclared type `blok`",
            "undeclared predicate `r`",
            "undeclared function `g`",
            "undeclared constant `k`"
        ]
    );
}

#[test]
fn wrong_arity_and_wrong_kind_are_errors() {
    let domain = "(define (domain d) (:requirements :numeric-fluents)
      (:predicates (p ?x) (q))
      (:functions (f ?x))
      (:action a :parameters (?x)
        :precondition (and (p) (q ?x) (f ?x) (> (p ?x) 1) (> (f) 1))
        :effect (p ?x ?x)))";
    assert_eq!(
        errors(&domain_diagnostics(domain)),
        vec![
            "`p` takes 1 argument, but 0 were given",
            "`q` takes 0 arguments, but 1 was given",
            "function `f` used as a predicate",
            "predicate `p` used as a function",
            "`f` takes 1 argument, but 0 were given",
            "`p` takes 1 argument, but 2 were given",
        ]
    );
}

#[test]
fn argument_types_respect_the_hierarchy_and_either() {
    let domain = "(define (domain d) (:requirements :typing)
      (:types car truck - vehicle boat place)
      (:constants home - place)
      (:predicates (drives ?v - vehicle) (floats ?b - boat) (at ?x - (either car boat)))
      (:action a :parameters (?c - car ?t - truck ?b - boat ?v - vehicle)
        :precondition (and (drives ?c) (drives ?t) (drives ?v) (at ?c) (at ?b) (at ?v))
        :effect (and (floats ?c) (drives ?b) (at ?t) (drives home))))";
    // A `vehicle` variable may hold a car: fine for `(either car boat)`.
    assert_eq!(
        errors(&domain_diagnostics(domain)),
        vec![
            "wrong type for argument 1 of `floats`: expected `boat`, found `car`",
            "wrong type for argument 1 of `drives`: expected `vehicle`, found `boat`",
            "wrong type for argument 1 of `at`: expected `(either car boat)`, found `truck`",
            "wrong type for argument 1 of `drives`: expected `vehicle`, found `place`",
        ]
    );
}

#[test]
fn duplicates_are_errors() {
    let domain = "(define (domain d) (:requirements :typing :numeric-fluents)
      (:types t t u) (:constants c c - t)
      (:predicates (p ?x) (p ?y) (q ?x ?x))
      (:functions (f) (f) (p))
      (:action a :parameters (?x ?x) :effect (q ?x ?x))
      (:action a :effect (and)))";
    let diagnostics = domain_diagnostics(domain);
    assert_eq!(
        errors(&diagnostics),
        vec![
            "type `t` is declared twice",
            "constant `c` is declared twice",
            "predicate `p` is declared twice",
            "function `f` is declared twice",
            "`p` is declared both as a predicate and as a function",
            "parameter `?x` is declared twice",
            "action `a` is declared twice",
        ]
    );
    // A repeated placeholder in a declaration (as logistics writes) only warns.
    assert_eq!(
        warnings(&diagnostics),
        vec!["parameter `?x` is declared twice"]
    );
}

#[test]
fn unbound_variables_are_errors_with_quantifier_scope() {
    let domain = "(define (domain d) (:requirements :adl :derived-predicates)
      (:predicates (p ?x) (q ?x ?y) (r ?x))
      (:derived (r ?x) (or (p ?x) (exists (?y) (q ?x ?y)) (p ?y)))
      (:action a :parameters (?x)
        :precondition (and (forall (?y) (q ?x ?y)) (p ?y))
        :effect (and (forall (?z) (when (p ?z) (q ?z ?x))) (p ?z))))";
    let diagnostics = domain_diagnostics(domain);
    assert_eq!(
        errors(&diagnostics),
        vec![
            "unbound variable `?y`",
            "unbound variable `?y`",
            "unbound variable `?z`"
        ]
    );
    assert_eq!(warnings(&diagnostics), Vec::<&str>::new());
}

#[test]
fn type_cycles_are_errors_and_undeclared_parents_warn() {
    let cyclic = "(define (domain d) (:requirements :typing)
      (:types a - b b - a c - d) (:predicates (p ?x - a)))";
    let diagnostics = domain_diagnostics(cyclic);
    assert_eq!(errors(&diagnostics), vec!["type `a` is its own ancestor"]);
    assert_eq!(
        warnings(&diagnostics),
        vec!["type `d` is used as a parent but not declared"]
    );
}

#[test]
fn derived_predicates_are_declared_and_not_changed_by_actions() {
    let domain = "(define (domain d) (:requirements :strips :derived-predicates)
      (:predicates (on ?x ?y) (above ?x ?y))
      (:derived (above ?x ?y) (on ?x ?y))
      (:derived (above ?x ?y) (exists (?z) (and (on ?x ?z) (above ?z ?y))))
      (:derived (below ?x) (on ?x ?x))
      (:action a :parameters (?x ?y) :effect (above ?x ?y)))";
    let diagnostics = domain_diagnostics(domain);
    assert_eq!(
        errors(&diagnostics),
        vec![
            "undeclared predicate `below`",
            "derived predicate `above` changed by an effect"
        ]
    );
    // `exists` without its requirement: a warning, not an error.
    assert_eq!(
        warnings(&diagnostics),
        vec!["`exists` needs requirement `:existential-preconditions`, which is not declared"]
    );
}

#[test]
fn undeclared_requirements_warn_once_each() {
    let domain = "(define (domain d)
      (:types block)
      (:predicates (p ?x - block) (q))
      (:functions (f) (total-cost))
      (:action a :parameters (?x - block ?y - block)
        :precondition (and (not (p ?x)) (not (= ?x ?y)) (or (q) (imply (q) (q)))
                           (exists (?z) (q)) (forall (?z) (q)) (> (f) 0))
        :effect (and (when (q) (p ?x)) (forall (?z - block) (p ?z)) (increase (total-cost) 1)
                     (increase (f) 1))))";
    assert_eq!(
        warnings(&domain_diagnostics(domain)),
        vec![
            "`:types` needs requirement `:typing`, which is not declared",
            "a numeric function needs requirement `:numeric-fluents`, which is not declared",
            "`total-cost` needs requirement `:action-costs`, which is not declared",
            "`not` in a condition needs requirement `:negative-preconditions`, which is not declared",
            "`=` needs requirement `:equality`, which is not declared",
            "`or` needs requirement `:disjunctive-preconditions`, which is not declared",
            "`exists` needs requirement `:existential-preconditions`, which is not declared",
            "`forall` in a condition needs requirement `:universal-preconditions`, which is not declared",
            "`when` needs requirement `:conditional-effects`, which is not declared",
        ]
    );
}

#[test]
fn implied_requirements_are_respected() {
    // `:adl` implies typing, negation, disjunction, equality, quantifiers
    // and conditional effects; `:fluents` implies numeric fluents.
    let domain = "(define (domain d) (:requirements :adl :fluents)
      (:types block)
      (:predicates (p ?x - block) (q))
      (:functions (f))
      (:action a :parameters (?x - block ?y - block)
        :precondition (and (not (p ?x)) (not (= ?x ?y)) (or (q) (imply (q) (q)))
                           (exists (?z) (q)) (forall (?z) (q)) (> (f) 0))
        :effect (and (when (q) (p ?x)) (forall (?z - block) (p ?z)) (increase (f) 1))))";
    assert_eq!(domain_diagnostics(domain), vec![]);
    // `(not (= ...))` needs only `:equality`, as in PDDL 1.2 domains.
    let equality_only = "(define (domain d) (:requirements :strips :equality)
      (:predicates (p ?x ?y))
      (:action a :parameters (?x ?y) :precondition (not (= ?x ?y)) :effect (p ?x ?y)))";
    assert_eq!(domain_diagnostics(equality_only), vec![]);
}

#[test]
fn clean_problem_passes() {
    let problem = "(define (problem p) (:domain transport)
      (:objects t1 - truck p1 - package l1 - location)
      (:init (at t1 depot) (at p1 l1) (= (fuel t1) 3) (= (total-cost) 0) (= (home t1) depot))
      (:goal (and (in p1 t1) (exists (?t - truck) (at ?t l1))))
      (:metric minimize (total-cost)))";
    let diagnostics = problem_diagnostics(TRANSPORT, problem);
    assert_eq!(errors(&diagnostics), Vec::<&str>::new());
    // The goal's `exists` is not covered by the declared requirements.
    assert_eq!(
        warnings(&diagnostics),
        vec!["`exists` needs requirement `:existential-preconditions`, which is not declared"]
    );
}

#[test]
fn problem_errors_are_all_reported() {
    let problem = "(define (problem p) (:domain transprot)
      (:objects t1 - truck p1 p1 - package h - helicopter)
      (:init (at t1) (at x depot) (in t1 p1) (fuel t1) (= (at t1 depot) 1) (= (home t1) p1))
      (:goal (and (at ?p depot) (on p1 t1)))
      (:metric minimize (+ (total-cost) (cost))))";
    let diagnostics = problem_diagnostics(TRANSPORT, problem);
    assert_eq!(
        errors(&diagnostics),
        vec![
            "object `p1` is declared twice",
            "undeclared type `helicopter`",
            "`at` takes 2 arguments, but 1 was given",
            "undeclared object `x`",
            "wrong type for argument 1 of `in`: expected `package`, found `truck`",
            "wrong type for argument 2 of `in`: expected `truck`, found `package`",
            "function `fuel` used as a predicate",
            "predicate `at` used as a function",
            "wrong type for the value of `home`: expected `location`, found `package`",
            "unbound variable `?p`",
            "undeclared predicate `on`",
            "undeclared function `cost`",
        ]
    );
    assert_eq!(
        warnings(&diagnostics),
        vec![
            "function `fuel` has no value in `:init`",
            "function `total-cost` has no value in `:init`",
            "problem is for domain `transprot`, but the domain is named `transport`",
        ]
    );
}

#[test]
fn missing_goal_is_an_error() {
    let problem =
        "(define (problem p) (:domain transport) (:objects t1 - truck) (:init (at t1 depot)))";
    assert_eq!(
        errors(&problem_diagnostics(TRANSPORT, problem)),
        vec!["problem `p` has no goal"]
    );
}

#[test]
fn diagnostics_are_sorted_by_position() {
    let problem = "(define (problem p) (:domain other)
      (:objects a - nothing) (:init (q a)) (:goal (r a)))";
    let diagnostics = problem_diagnostics(TRANSPORT, problem);
    // Three errors; a warning for the domain's name and one for each of
    // `fuel` and `total-cost`, which `drive` reads without a value.
    assert_eq!(diagnostics.len(), 6);
    assert!(
        diagnostics
            .windows(2)
            .all(|w| w[0].span.start <= w[1].span.start)
    );
}

#[test]
fn formulas_nested_beyond_the_limit_are_refused_not_overflowed() {
    let mut domain = parse_domain(
        "(define (domain d) (:predicates (p)) (:action a :precondition (p) :effect (p)))",
    )
    .expect("parses");
    let action = &mut domain.actions[0];
    let mut condition = action.precondition.take().expect("has a precondition");
    for _ in 0..600 {
        condition = Condition {
            kind: ConditionKind::And(vec![condition]),
            span: Span::new(0, 1),
        };
    }
    action.precondition = Some(condition);
    assert_eq!(
        errors(&check_domain(&domain)),
        vec!["formula nested too deeply to check"]
    );
}

#[test]
fn large_init_is_checked_quickly() {
    let domain = "(define (domain d) (:requirements :typing)
      (:types node) (:predicates (edge ?a ?b - node)))";
    let nodes = 300;
    let objects: String = (0..nodes).map(|i| format!("n{i} ")).collect();
    let mut init = String::new();
    for a in 0..nodes {
        for b in 0..nodes / 3 {
            init.push_str(&format!("(edge n{a} n{b})"));
        }
    }
    let problem = format!(
        "(define (problem p) (:domain d) (:objects {objects} - node) (:init {init}) (:goal (edge n0 n1)))"
    );
    let started = std::time::Instant::now();
    let diagnostics = problem_diagnostics(domain, &problem);
    assert_eq!(diagnostics, vec![]);
    // 30,000 atoms: hash lookups only, far below a second even unoptimised.
    assert!(
        started.elapsed().as_secs() < 10,
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn objects_redeclaring_constants_warn_only_when_the_type_differs() {
    let same = "(define (problem p) (:domain transport)
      (:objects t1 - truck depot - location)
      (:init (at t1 depot) (= (fuel t1) 1) (= (total-cost) 0)) (:goal (at t1 depot)))";
    assert_eq!(problem_diagnostics(TRANSPORT, same), vec![]);
    let other = "(define (problem p) (:domain transport)
      (:objects t1 - truck depot - package)
      (:init (at t1 depot) (= (fuel t1) 1) (= (total-cost) 0)) (:goal (in depot t1)))";
    let diagnostics = problem_diagnostics(TRANSPORT, other);
    assert_eq!(
        warnings(&diagnostics),
        vec!["object `depot` redeclares a domain constant"]
    );
    assert_eq!(
        errors(&diagnostics),
        vec!["wrong type for argument 2 of `at`: expected `location`, found `package`"]
    );
}

#[test]
fn conflicting_initial_values_are_errors() {
    let problem = "(define (problem p) (:domain transport)
      (:objects t1 t2 - truck)
      (:init (= (fuel t1) 3) (= (fuel t2) 4) (= (fuel t1) 3) (= (fuel t1) 5)
             (= (home t1) depot) (= (home t1) depot))
      (:goal (at t1 depot)))";
    assert_eq!(
        errors(&problem_diagnostics(TRANSPORT, problem)),
        vec!["`(fuel t1)` is given two initial values"]
    );
}

/// A function read without any value in `:init` stays undefined, which
/// makes what reads it inapplicable: a warning names it and the first
/// reader. A value for some arguments, or an `assign` effect, is enough.
#[test]
fn functions_read_without_a_value_warn() {
    let problem = "(define (problem p) (:domain transport)
      (:objects t1 - truck) (:init (at t1 depot)) (:goal (at t1 depot)))";
    let diagnostics = problem_diagnostics(TRANSPORT, problem);
    assert_eq!(
        warnings(&diagnostics),
        vec![
            "function `fuel` has no value in `:init`",
            "function `total-cost` has no value in `:init`",
        ]
    );
    assert_eq!(
        diagnostics[0].label.as_deref(),
        Some("action `drive` reads `fuel`, which stays undefined")
    );
    assert!(diagnostics[1].notes[0].contains("`(= (total-cost) 0)`"));
    // `home` is only assigned, never read: no warning for it.
    let valued = "(define (problem p) (:domain transport)
      (:objects t1 t2 - truck) (:init (at t1 depot) (= (fuel t2) 0) (= (total-cost) 0))
      (:goal (at t1 depot)))";
    assert_eq!(problem_diagnostics(TRANSPORT, valued), vec![]);
    // Set by an `assign` effect before it is read: no warning either; read
    // by the goal only: a warning naming the goal.
    let domain = "(define (domain counter) (:requirements :numeric-fluents)
      (:predicates (started)) (:functions (count) (limit))
      (:action start :parameters () :precondition (not (started))
        :effect (and (started) (assign (count) 0)))
      (:action step :parameters () :precondition (started) :effect (increase (count) 1)))";
    let problem = "(define (problem p) (:domain counter) (:init)
      (:goal (and (>= (count) 3) (< (count) (limit)))))";
    let diagnostics = problem_diagnostics(domain, problem);
    assert_eq!(
        warnings(&diagnostics),
        vec!["function `limit` has no value in `:init`"]
    );
    assert_eq!(
        diagnostics[0].label.as_deref(),
        Some("the goal reads `limit`, which stays undefined")
    );
    // An undeclared function is an error, not also a warning.
    let problem = "(define (problem p) (:domain counter) (:init (= (limit) 5))
      (:goal (and (>= (count) 3) (< (count) (speed)))))";
    let diagnostics = problem_diagnostics(domain, problem);
    assert_eq!(errors(&diagnostics), vec!["undeclared function `speed`"]);
    assert_eq!(warnings(&diagnostics), Vec::<&str>::new());
}

/// An object declared twice with another type is one error; its uses keep
/// the first declaration's type instead of cascading into type errors.
#[test]
fn a_second_declaration_does_not_retype_an_object() {
    let problem = "(define (problem p) (:domain transport)
      (:objects t1 - truck l1 - location l1 - package)
      (:init (at t1 l1) (= (fuel t1) 1) (= (total-cost) 0)) (:goal (at t1 l1)))";
    assert_eq!(
        errors(&problem_diagnostics(TRANSPORT, problem)),
        vec!["object `l1` is declared twice"]
    );
}

#[test]
fn near_misses_get_a_suggestion() {
    let domain = "(define (domain d) (:requirements :typing)
      (:types block) (:predicates (handempty) (clear ?x - block))
      (:action a :parameters (?x - blok) :precondition (handemty) :effect (clear ?x)))";
    let diagnostics = domain_diagnostics(domain);
    let notes: Vec<&str> = diagnostics
        .iter()
        .flat_map(|d| d.notes.iter().map(String::as_str))
        .collect();
    assert_eq!(
        notes,
        vec!["did you mean `block`?", "did you mean `handempty`?"]
    );
}

#[test]
fn variables_of_types_sharing_a_subtype_fit_each_other() {
    // `amphibian` is both a `car` and a `boat`: a `car` variable may hold a
    // boat, so passing it as a boat is not an error, but a `plane` is.
    let domain = "(define (domain d) (:requirements :typing)
      (:types car boat plane - object amphibian - (either car boat))
      (:constants duck - amphibian)
      (:predicates (floats ?b - boat))
      (:action a :parameters (?c - car ?p - plane)
        :effect (and (floats ?c) (floats duck) (floats ?p))))";
    assert_eq!(
        errors(&domain_diagnostics(domain)),
        vec!["wrong type for argument 1 of `floats`: expected `boat`, found `plane`"]
    );
}

#[test]
fn actions_changing_one_function_term_twice_warn() {
    let domain = "(define (domain twice)
      (:requirements :numeric-fluents :action-costs :conditional-effects)
      (:functions (x) (f ?o) (total-cost))
      (:action clash :parameters (?a ?b)
        :precondition (< (x) 10)
        :effect (and (increase (x) 3) (and (assign (X) 2)) (increase (total-cost) 1)
                     (increase (total-cost) 2) (increase (total-cost) 3)))
      (:action move :parameters (?a ?b)
        :effect (and (decrease (f ?a) 1) (increase (f ?b) 1) (increase (f c) 1)
                     (when (> (x) 0) (increase (x) 1)) (forall (?c) (increase (x) 1))
                     (increase (x) 1))))";
    let diagnostics = domain_diagnostics(domain);
    // The second and third change of `total-cost` each warn; `(f ?a)`,
    // `(f ?b)` and `(f c)` may name different objects, and changes under
    // `when` or `forall` are not judged here.
    assert_eq!(
        warnings(&diagnostics),
        vec![
            "action `clash` changes `(x)` twice",
            "action `clash` changes `(total-cost)` twice",
            "action `clash` changes `(total-cost)` twice",
        ]
    );
    assert_eq!(
        diagnostics[0].label.as_deref(),
        Some("`(x)` is changed here and by `(increase (x) 3)`")
    );
    assert_eq!(
        diagnostics[2].label.as_deref(),
        Some("`(total-cost)` is changed here and by `(increase (total-cost) 1)`")
    );
}
