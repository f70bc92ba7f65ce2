//! Hand-built cases for every tricky rule of PDDL plan semantics, each
//! with the verdict a careful reading of PDDL 2.1 gives.

use pddl_validate::{FailureKind, LiftedState, Report, SetupError, Validator, parse_plan};

fn validator(domain: &str, problem: &str) -> Result<Validator, SetupError> {
    let domain = pddl_syntax::parse_domain(domain).expect("test domain parses");
    let problem = pddl_syntax::parse_problem(problem).expect("test problem parses");
    Validator::new(&domain, &problem)
}

fn run(domain: &str, problem: &str, plan: &str) -> Report {
    let plan = parse_plan(plan).expect("test plan parses");
    validator(domain, problem)
        .expect("supported")
        .validate_traced(&plan)
}

fn assert_valid(report: &Report) {
    assert!(
        report.is_valid(),
        "expected valid, got:\n{}",
        report.to_text(true)
    );
}

fn assert_fails(report: &Report, kind: FailureKind, step: Option<usize>) {
    let failure = report
        .failure
        .as_ref()
        .unwrap_or_else(|| panic!("expected {kind:?}, got valid"));
    assert_eq!(failure.kind, kind, "{}", report.to_text(true));
    assert_eq!(failure.step(), step, "{}", report.to_text(true));
    assert!(!report.is_valid());
}

/// One 0-ary predicate `p`, fluents `x` and `y`, and the given actions.
fn flat_domain(actions: &str) -> String {
    format!(
        "(define (domain flat) (:requirements :adl :fluents)
           (:predicates (p) (q) (r))
           (:functions (x) (y))
           {actions})"
    )
}

fn flat_problem(init: &str, goal: &str) -> String {
    format!("(define (problem f) (:domain flat) (:init {init}) (:goal {goal}))")
}

#[test]
fn delete_then_add_leaves_the_atom_true_whatever_the_order() {
    for effect in ["(and (not (p)) (p))", "(and (p) (not (p)))"] {
        let domain = flat_domain(&format!("(:action a :parameters () :effect {effect})"));
        let report = run(&domain, &flat_problem("", "(p)"), "(a)");
        assert_valid(&report);
        assert_eq!(report.trace[0].added, vec!["(p)"]);
        assert!(report.trace[0].deleted.is_empty());
        // Already true: stays true, and nothing is reported as changed.
        let report = run(&domain, &flat_problem("(p)", "(p)"), "(a)");
        assert_valid(&report);
        assert!(report.trace[0].added.is_empty() && report.trace[0].deleted.is_empty());
    }
}

#[test]
fn conditional_effects_are_all_evaluated_in_the_old_state() {
    // A toggle: if both `when`s saw the new state, p would flip twice.
    let domain = flat_domain(
        "(:action toggle :parameters () :effect (and (when (p) (not (p))) (when (not (p)) (p))))
         (:action swap :parameters () :effect (and (when (p) (and (not (p)) (q))) (when (q) (and (not (q)) (p)))))",
    );
    assert_valid(&run(&domain, &flat_problem("(p)", "(not (p))"), "(toggle)"));
    assert_valid(&run(
        &domain,
        &flat_problem("(p)", "(p)"),
        "(toggle)\n(toggle)",
    ));
    assert_fails(
        &run(&domain, &flat_problem("(p)", "(p)"), "(toggle)"),
        FailureKind::GoalNotSatisfied,
        None,
    );
    // Swapping p and q: with p and q both true, both stay true.
    assert_valid(&run(
        &domain,
        &flat_problem("(p)", "(and (q) (not (p)))"),
        "(swap)",
    ));
    assert_valid(&run(
        &domain,
        &flat_problem("(p) (q)", "(and (p) (q))"),
        "(swap)",
    ));
}

#[test]
fn numeric_effects_read_the_old_state() {
    let domain = flat_domain(
        "(:action mix :parameters () :effect (and (increase (x) (y)) (increase (y) (x))))",
    );
    let problem = flat_problem("(= (x) 1) (= (y) 2)", "(and (= (x) 3) (= (y) 3))");
    let report = run(&domain, &problem, "(mix)");
    assert_valid(&report);
    let changes: Vec<(String, Option<f64>, f64)> = report.trace[0]
        .fluents
        .iter()
        .map(|c| (c.fluent.clone(), c.old, c.new))
        .collect();
    assert_eq!(
        changes,
        vec![
            ("(x)".to_string(), Some(1.0), 3.0),
            ("(y)".to_string(), Some(2.0), 3.0)
        ]
    );
}

#[test]
fn two_numeric_effects_on_one_fluent_are_an_error() {
    let domain = flat_domain(
        "(:action twice :parameters () :effect (and (increase (x) 1) (increase (x) 2)))",
    );
    let report = run(&domain, &flat_problem("(= (x) 0)", "(>= (x) 0)"), "(twice)");
    assert_fails(&report, FailureKind::ConflictingEffects, Some(1));
    assert!(report.failure.unwrap().message.contains("(x)"));
    // Only when both fire: a conditional second effect that does not fire is fine.
    let domain = flat_domain(
        "(:action once :parameters () :effect (and (increase (x) 1) (when (p) (assign (x) 5))))",
    );
    assert_valid(&run(
        &domain,
        &flat_problem("(= (x) 0)", "(= (x) 1)"),
        "(once)",
    ));
    assert_fails(
        &run(
            &domain,
            &flat_problem("(p) (= (x) 0)", "(= (x) 1)"),
            "(once)",
        ),
        FailureKind::ConflictingEffects,
        Some(1),
    );
}

#[test]
fn reading_an_undefined_fluent_is_an_error() {
    // In a precondition.
    let domain = flat_domain("(:action a :parameters () :precondition (> (x) 0) :effect (p))");
    let report = run(&domain, &flat_problem("", "(p)"), "(a)");
    assert_fails(&report, FailureKind::UndefinedFluent, Some(1));
    assert!(report.failure.unwrap().message.contains("(x)"));
    // In an update.
    let domain = flat_domain("(:action a :parameters () :effect (increase (x) 1))");
    assert_fails(
        &run(&domain, &flat_problem("", "(> (x) 0)"), "(a)"),
        FailureKind::UndefinedFluent,
        Some(1),
    );
    // In the goal.
    let domain = flat_domain("(:action a :parameters () :effect (p))");
    assert_fails(
        &run(&domain, &flat_problem("", "(> (x) 0)"), ""),
        FailureKind::UndefinedFluent,
        None,
    );
}

#[test]
fn assign_defines_a_fluent_but_not_from_an_undefined_value() {
    // `assign` of a defined value to an undefined fluent defines it.
    let domain = flat_domain("(:action set :parameters () :effect (assign (x) 5))");
    assert_valid(&run(&domain, &flat_problem("", "(= (x) 5)"), "(set)"));
    // `assign` of an undefined value is an error.
    let domain = flat_domain("(:action copy :parameters () :effect (assign (x) (y)))");
    assert_fails(
        &run(&domain, &flat_problem("(= (x) 1)", "(= (x) 1)"), "(copy)"),
        FailureKind::UndefinedFluent,
        Some(1),
    );
    let domain = flat_domain("(:action forget :parameters () :effect (assign (x) undefined))");
    let report = run(&domain, &flat_problem("(= (x) 1)", "(p)"), "(forget)");
    assert_fails(&report, FailureKind::AssignUndefined, Some(1));
}

#[test]
fn bare_comparison_precondition_and_bare_assign_effect() {
    let domain = flat_domain(
        "(:action a :parameters () :precondition (< (x) 3) :effect (assign (y) (+ (x) 1)))",
    );
    assert_valid(&run(
        &domain,
        &flat_problem("(= (x) 2)", "(= (y) 3)"),
        "(a)",
    ));
    let report = run(&domain, &flat_problem("(= (x) 3)", "(= (y) 4)"), "(a)");
    assert_fails(&report, FailureKind::PreconditionFalse, Some(1));
    let failure = report.failure.unwrap();
    assert_eq!(failure.details, vec!["(< (x) 3) is false where (x) = 3"]);
    assert_eq!(failure.advice, vec!["make (< (x) 3) true before step 1"]);
}

#[test]
fn division_by_zero_is_an_error() {
    let domain = flat_domain("(:action a :parameters () :effect (assign (x) (/ 1 (y))))");
    assert_fails(
        &run(&domain, &flat_problem("(= (y) 0)", "(p)"), "(a)"),
        FailureKind::Arithmetic,
        Some(1),
    );
}

#[test]
fn action_without_precondition_is_always_applicable() {
    let domain = flat_domain("(:action a :parameters () :effect (p))");
    assert_valid(&run(&domain, &flat_problem("", "(p)"), "(a)\n(a)"));
}

#[test]
fn metric_value_and_claimed_cost() {
    let domain = "(define (domain c) (:requirements :action-costs) (:predicates (p))
        (:functions (total-cost) - number)
        (:action a :parameters () :effect (and (p) (increase (total-cost) 4))))";
    let problem = "(define (problem c1) (:domain c) (:init (= (total-cost) 0)) (:goal (p)) (:metric minimize (total-cost)))";
    let report = run(domain, problem, "(a)\n(a)\n; cost = 8 (general cost)");
    assert_valid(&report);
    assert_eq!(report.metric.map(|m| m.value), Some(8.0));
    let report = run(domain, problem, "(a)\n(a)\n; cost = 2");
    assert_fails(&report, FailureKind::CostMismatch, None);
    // A claim marked `(unit cost)` counts steps, whatever the metric.
    assert_valid(&run(domain, problem, "(a)\n(a)\n; cost = 2 (unit cost)"));
    assert_fails(
        &run(domain, problem, "(a)\n(a)\n; cost = 8 (unit cost)"),
        FailureKind::CostMismatch,
        None,
    );
    // Without a metric the cost is the number of steps.
    let problem = "(define (problem c2) (:domain c) (:init (= (total-cost) 0)) (:goal (p)))";
    assert_valid(&run(domain, problem, "(a)\n(a)\n; cost = 2 (unit cost)"));
}

/// Blocks-like domain with types, equality, quantifiers and `imply`.
const TYPED: &str = "(define (domain typed) (:requirements :adl :typing)
  (:types block table - surface ball - object)
  (:constants floor - table)
  (:predicates (on ?x - block ?y - surface) (clear ?x - surface) (red ?x - block) (heavy ?x - block) (p ?x ?y - object))
  (:action move :parameters (?x - block ?from ?to - surface)
     :precondition (and (on ?x ?from) (clear ?x) (clear ?to) (not (= ?x ?to)) (not (= ?from ?to)))
     :effect (and (on ?x ?to) (not (on ?x ?from)) (clear ?from) (not (clear ?to)) (clear floor)))
  (:action paint-all :parameters ()
     :precondition (forall (?b - block) (clear ?b))
     :effect (forall (?b - block) (red ?b)))
  (:action lift :parameters (?b - block)
     :precondition (and (clear ?b) (imply (heavy ?b) (exists (?c - block) (red ?c))))
     :effect (not (clear ?b)))
  (:action touch :parameters (?x - (either ball table)) :effect (and))
  (:action link :parameters (?x ?y - object) :precondition (p ?x ?y) :effect (and)))";

const TYPED_PROBLEM: &str = "(define (problem t1) (:domain typed)
  (:objects a b c - block ball1 - ball o oa ob aob - object)
  (:init (on a floor) (on b floor) (on c a) (clear b) (clear c) (clear floor) (heavy a) (p o aob))
  (:goal (and (on a b) (on b floor))))";

#[test]
fn typed_plan_valid_with_trace() {
    let report = run(TYPED, TYPED_PROBLEM, "(move c a floor)\n(move a floor b)");
    assert_valid(&report);
    assert_eq!(report.steps_total, 2);
    assert_eq!(report.trace[0].added, vec!["(clear a)", "(on c floor)"]);
    assert_eq!(report.trace[0].deleted, vec!["(on c a)"]);
}

#[test]
fn false_precondition_names_the_atom_bindings_and_repair() {
    let report = run(TYPED, TYPED_PROBLEM, "(move a floor b)");
    assert_fails(&report, FailureKind::PreconditionFalse, Some(1));
    let failure = report.failure.unwrap();
    let at = failure.at.as_ref().expect("a step failed");
    assert_eq!(
        (at.index, at.text.as_str(), at.line),
        (1, "(move a floor b)", 1)
    );
    assert_eq!(
        failure.details,
        vec!["with ?x = a, ?from = floor, ?to = b", "(clear a) is false"]
    );
    assert_eq!(failure.advice, vec!["make (clear a) true before step 1"]);
}

#[test]
fn equality_in_preconditions() {
    let report = run(TYPED, TYPED_PROBLEM, "(move c a a)");
    assert_fails(&report, FailureKind::PreconditionFalse, Some(1));
    let failure = report.failure.unwrap();
    assert!(
        failure
            .details
            .iter()
            .any(|d| d.contains("(= a a) is true")),
        "{:?}",
        failure.details
    );
}

#[test]
fn universal_precondition_names_the_counter_example() {
    let report = run(TYPED, TYPED_PROBLEM, "(paint-all)");
    assert_fails(&report, FailureKind::PreconditionFalse, Some(1));
    let failure = report.failure.unwrap();
    assert_eq!(failure.details, vec!["for ?b = a:", "  (clear a) is false"]);
    // After moving c away every block is clear: painting works, for every block.
    let problem = TYPED_PROBLEM.replace(
        "(:goal (and (on a b) (on b floor)))",
        "(:goal (forall (?b - block) (red ?b)))",
    );
    let report = run(TYPED, &problem, "(move c a floor)\n(paint-all)");
    assert_valid(&report);
    assert_eq!(report.trace[1].added, vec!["(red a)", "(red b)", "(red c)"]);
}

#[test]
fn imply_and_exists() {
    // a is heavy: lifting it needs some red block.
    let report = run(TYPED, TYPED_PROBLEM, "(move c a floor)\n(lift a)");
    assert_fails(&report, FailureKind::PreconditionFalse, Some(2));
    let failure = report.failure.unwrap();
    assert_eq!(
        failure.details,
        vec![
            "with ?b = a",
            "(heavy a) holds, so (exists (?c - block) (red ?c)) must hold too:",
            "  no ?c - block makes (red ?c) true"
        ]
    );
    // b is not heavy: the implication holds vacuously.
    let problem = TYPED_PROBLEM.replace(
        "(:goal (and (on a b) (on b floor)))",
        "(:goal (not (clear b)))",
    );
    assert_valid(&run(TYPED, &problem, "(lift b)"));
    // With a red block, lifting a heavy one is fine.
    let problem = TYPED_PROBLEM.replace(
        "(:goal (and (on a b) (on b floor)))",
        "(:goal (not (clear a)))",
    );
    assert_valid(&run(
        TYPED,
        &problem,
        "(move c a floor)\n(paint-all)\n(lift a)",
    ));
}

#[test]
fn argument_types_subtypes_and_either() {
    // floor is a table, a surface: fine for ?to; a ball is not a surface.
    let report = run(TYPED, TYPED_PROBLEM, "(move c a ball1)");
    assert_fails(&report, FailureKind::WrongType, Some(1));
    assert!(
        report
            .failure
            .unwrap()
            .message
            .contains("ball1` is of type ball")
    );
    // A block is not a block's `?x - block`... of `either ball table`.
    assert_fails(
        &run(TYPED, TYPED_PROBLEM, "(touch a)"),
        FailureKind::WrongType,
        Some(1),
    );
    let problem = TYPED_PROBLEM.replace("(:goal (and (on a b) (on b floor)))", "(:goal (and))");
    assert_valid(&run(TYPED, &problem, "(touch ball1)\n(touch floor)"));
}

#[test]
fn unknown_action_object_and_wrong_arity() {
    assert_fails(
        &run(TYPED, TYPED_PROBLEM, "(fly a)"),
        FailureKind::UnknownAction,
        Some(1),
    );
    assert_fails(
        &run(TYPED, TYPED_PROBLEM, "(move c a)"),
        FailureKind::WrongArity,
        Some(1),
    );
    assert_fails(
        &run(TYPED, TYPED_PROBLEM, "(move c a zz)"),
        FailureKind::UnknownObject,
        Some(1),
    );
}

#[test]
fn ambiguous_names_are_never_confused() {
    // (p o aob) is true; (p oa ob) is not, though both join to "poaob".
    let problem = TYPED_PROBLEM.replace("(:goal (and (on a b) (on b floor)))", "(:goal (p oa ob))");
    let report = run(TYPED, &problem, "");
    assert_fails(&report, FailureKind::GoalNotSatisfied, None);
    assert_eq!(
        report.failure.unwrap().advice,
        vec!["make (p oa ob) true by the end of the plan"]
    );
    let problem = TYPED_PROBLEM.replace("(:goal (and (on a b) (on b floor)))", "(:goal (p o aob))");
    assert_fails(
        &run(TYPED, &problem, "(link oa ob)"),
        FailureKind::PreconditionFalse,
        Some(1),
    );
    assert_valid(&run(TYPED, &problem, "(link o aob)"));
}

#[test]
fn plan_steps_are_case_insensitive_with_time_stamps() {
    let report = run(
        TYPED,
        TYPED_PROBLEM,
        "0.000: (MOVE C A Floor) [1]\n1.000: (move a floor b) [1]",
    );
    assert_valid(&report);
}

#[test]
fn stops_at_the_first_failing_step() {
    let report = run(
        TYPED,
        TYPED_PROBLEM,
        "(move c a floor)\n(move c a floor)\n(move a floor b)",
    );
    assert_fails(&report, FailureKind::PreconditionFalse, Some(2));
    assert_eq!(report.steps_executed, 1);
}

/// Derived predicates: transitive `above`, and `free` using it negatively
/// (a second stratum).
const DERIVED: &str = "(define (domain tower) (:requirements :adl :derived-predicates)
  (:predicates (on ?x ?y) (above ?x ?y) (free ?x) (done))
  (:derived (above ?x ?y) (on ?x ?y))
  (:derived (above ?x ?y) (exists (?z) (and (on ?x ?z) (above ?z ?y))))
  (:derived (free ?x) (not (exists (?y) (above ?y ?x))))
  (:action unstack :parameters (?x ?y) :precondition (and (on ?x ?y) (free ?x)) :effect (not (on ?x ?y)))
  (:action finish :parameters () :precondition (forall (?x) (free ?x)) :effect (done)))";

const DERIVED_PROBLEM: &str = "(define (problem t) (:domain tower) (:objects a b c d)
  (:init (on a b) (on b c) (on c d)) (:goal (done)))";

#[test]
fn derived_predicates_are_recomputed_every_state() {
    let domain = pddl_syntax::parse_domain(DERIVED).unwrap();
    let problem = pddl_syntax::parse_problem(DERIVED_PROBLEM).unwrap();
    let state = LiftedState::initial(&domain, &problem).unwrap();
    let above: Vec<_> = state
        .atoms()
        .into_iter()
        .filter(|(p, _)| p == "above")
        .collect();
    assert_eq!(above.len(), 6, "{above:?}");
    assert!(
        state
            .atoms()
            .contains(&("free".to_string(), vec!["a".to_string()]))
    );
    assert!(
        !state
            .atoms()
            .contains(&("free".to_string(), vec!["b".to_string()]))
    );
    // b is not free: a is above it.
    let failure = state.apply("unstack", &["b", "c"]).unwrap_err();
    assert_eq!(failure.kind, FailureKind::PreconditionFalse);
    assert!(
        failure.advice[0].contains("derived predicate"),
        "{:?}",
        failure.advice
    );
    let report = run(
        DERIVED,
        DERIVED_PROBLEM,
        "(unstack a b)\n(unstack b c)\n(unstack c d)\n(finish)",
    );
    assert_valid(&report);
    assert_fails(
        &run(
            DERIVED,
            DERIVED_PROBLEM,
            "(unstack a b)\n(unstack b c)\n(finish)",
        ),
        FailureKind::PreconditionFalse,
        Some(3),
    );
}

#[test]
fn lifted_state_steps_and_reports_atoms_and_fluents() {
    let domain = pddl_syntax::parse_domain(&flat_domain(
        "(:action a :parameters () :effect (and (p) (increase (x) 2)))",
    ))
    .unwrap();
    let problem = pddl_syntax::parse_problem(&flat_problem("(q) (= (x) 1)", "(p)")).unwrap();
    let state = LiftedState::initial(&domain, &problem).unwrap();
    assert!(!state.satisfies_goal().unwrap());
    let next = state.apply("A", &[] as &[&str]).unwrap();
    assert_eq!(
        next.atoms(),
        vec![("p".to_string(), vec![]), ("q".to_string(), vec![])]
    );
    assert_eq!(next.fluents(), vec![(("x".to_string(), vec![]), 3.0)]);
    assert!(next.satisfies_goal().unwrap());
    assert_eq!(state.fluents(), vec![(("x".to_string(), vec![]), 1.0)]);
}

/// The error naming an unsupported feature, from the parser or the validator.
fn refusal(domain: &str, problem: &str) -> String {
    let domain = match pddl_syntax::parse_domain(domain) {
        Ok(domain) => domain,
        Err(errors) => return errors[0].message.clone(),
    };
    let problem = match pddl_syntax::parse_problem(problem) {
        Ok(problem) => problem,
        Err(errors) => return errors[0].message.clone(),
    };
    let error = Validator::new(&domain, &problem).expect_err("unsupported feature refused");
    assert!(error.unsupported);
    error.diagnostic.message
}

#[test]
fn unsupported_features_are_refused_by_name() {
    let domain = "(define (domain d) (:requirements :strips :preferences) (:predicates (p))
        (:action a :parameters () :precondition (preference ok (p)) :effect (p)))";
    let problem = "(define (problem q) (:domain d) (:init) (:goal (p)))";
    assert!(refusal(domain, problem).contains("preference"));
    let domain = "(define (domain d) (:requirements :strips) (:predicates (p)) (:action a :parameters () :effect (p)))";
    let problem =
        "(define (problem q) (:domain d) (:init) (:goal (p)) (:constraints (always (p))))";
    assert!(refusal(domain, problem).contains(":constraints"));
    let domain = "(define (domain d) (:requirements :durative-actions) (:predicates (p))
        (:durative-action a :parameters () :duration (= ?duration 1) :condition (and) :effect (at end (p))))";
    let problem = "(define (problem q) (:domain d) (:init) (:goal (p)))";
    assert!(refusal(domain, problem).contains("durative"));
}
