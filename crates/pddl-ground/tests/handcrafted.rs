//! Small handcrafted tasks whose ground facts and operators were counted
//! by hand (the counts are explained next to each task). They count what
//! instantiation makes, so irrelevant operators are kept (relevance
//! analysis has tests of its own in `relevance.rs`).

use pddl_ground::task::{CostModel, Task};
use pddl_ground::{GroundError, GroundOptions, ground};

fn ground_text(domain: &str, problem: &str) -> Result<Task, GroundError> {
    let domain = pddl_syntax::parse_domain(domain).expect("domain parses");
    let problem = pddl_syntax::parse_problem(problem).expect("problem parses");
    ground(&domain, &problem, &counting())
}

/// The options of these tests: the defaults, irrelevant operators kept.
fn counting() -> GroundOptions<'static> {
    GroundOptions {
        keep_irrelevant: true,
        ..GroundOptions::default()
    }
}

fn ok(domain: &str, problem: &str) -> Task {
    ground_text(domain, problem).expect("grounds")
}

fn fact_names(task: &Task) -> Vec<String> {
    task.facts.iter().map(|f| f.to_string()).collect()
}

fn op_names(task: &Task) -> Vec<String> {
    task.operators.iter().map(|o| o.plan_line()).collect()
}

fn count(task: &Task, action: &str) -> usize {
    task.operators.iter().filter(|o| o.name == action).count()
}

const TYPING_DOMAIN: &str = "
(define (domain typing)
  (:requirements :strips :typing)
  (:types vehicle place - object truck car - vehicle city - place)
  (:constants depot - city)
  (:predicates (at ?v - vehicle ?p - place) (road ?a ?b - place)
               (visited ?p - place) (marked ?x))
  (:action drive
    :parameters (?v - vehicle ?from ?to - place)
    :precondition (and (at ?v ?from) (road ?from ?to))
    :effect (and (not (at ?v ?from)) (at ?v ?to) (visited ?to)))
  (:action mark
    :parameters (?x - (either truck city))
    :effect (marked ?x)))";

const TYPING_PROBLEM: &str = "
(define (problem typing-1) (:domain typing)
  (:objects t1 - truck c1 - car a b - city)
  (:init (at t1 depot) (at c1 a) (road depot a) (road a b))
  (:goal (visited b)))";

/// Roads are one-way `depot → a → b` (static). The truck starts at the
/// depot, the car at `a`.
/// - drive: t1 depot→a, t1 a→b, c1 a→b = 3 (types: `truck`, `car` are
///   vehicles, the constant `depot` is a city, hence a place).
/// - mark over `(either truck city)`: t1, depot, a, b = 4 (not the car).
/// - facts: at t1 {depot, a, b}, at c1 {a, b}, visited {a, b},
///   marked {t1, depot, a, b} = 11; `road` is static and absent.
#[test]
fn typing_hierarchy_either_constants_and_static_predicates() {
    let task = ok(TYPING_DOMAIN, TYPING_PROBLEM);
    // Operators by schema, then by arguments in object order (constants
    // first, then the problem's objects as declared).
    assert_eq!(
        op_names(&task),
        [
            "(drive t1 depot a)",
            "(drive t1 a b)",
            "(drive c1 a b)",
            "(mark depot)",
            "(mark t1)",
            "(mark a)",
            "(mark b)",
        ]
    );
    assert_eq!(task.facts.len(), 11);
    assert!(fact_names(&task).iter().all(|f| !f.starts_with("(road")));
    assert_eq!(task.init_facts.len(), 2);
    assert_eq!(task.goal.pos.len(), 1);
    assert_eq!(task.cost_model, CostModel::Unit);
    // Preconditions keep only the fluent atom: `road` was evaluated.
    assert!(
        task.operators
            .iter()
            .filter(|o| o.name == "drive")
            .all(|o| o.precondition.pos.len() == 1)
    );
}

const NEGATION_DOMAIN: &str = "
(define (domain negation)
  (:requirements :strips :negative-preconditions :equality)
  (:predicates (on ?x) (linked ?x ?y))
  (:action toggle
    :parameters (?x ?y)
    :precondition (and (not (= ?x ?y)) (not (on ?x)) (linked ?x ?y))
    :effect (on ?x))
  (:action cut
    :parameters (?x ?y)
    :precondition (and (on ?x) (not (linked ?x ?y)))
    :effect (not (on ?x))))";

const NEGATION_PROBLEM: &str = "
(define (problem negation-1) (:domain negation)
  (:objects a b c)
  (:init (linked a b) (linked b c) (linked c c))
  (:goal (on a)))";

/// - toggle: linked pairs with x ≠ y: (a b), (b c); (c c) fails the
///   equality = 2. Its `(not (on ?x))` is fluent and stays.
/// - cut: x ∈ {a, b} (on c is unreachable), y with (x, y) not linked:
///   a: {a, c}, b: {a, b} = 4.
/// - facts: on a, on b = 2.
#[test]
fn negative_preconditions_and_equality() {
    let task = ok(NEGATION_DOMAIN, NEGATION_PROBLEM);
    assert_eq!(count(&task, "toggle"), 2);
    assert_eq!(count(&task, "cut"), 4);
    assert_eq!(fact_names(&task), ["(on a)", "(on b)"]);
    let toggle = &task.operators[0];
    assert_eq!(toggle.plan_line(), "(toggle a b)");
    assert_eq!(toggle.precondition.neg, [0]);
    assert!(toggle.precondition.pos.is_empty());
}

const ADL_DOMAIN: &str = "
(define (domain adl)
  (:requirements :adl)
  (:predicates (lit ?r) (switch ?r) (power) (broken ?r) (fixed ?r) (happy))
  (:action press :parameters (?r)
    :precondition (not (switch ?r))
    :effect (switch ?r))
  (:action flip :parameters ()
    :precondition (power)
    :effect (forall (?r) (when (switch ?r) (lit ?r))))
  (:action fix :parameters (?r)
    :precondition (or (lit ?r) (broken ?r))
    :effect (and (not (broken ?r)) (fixed ?r)))
  (:action celebrate :parameters ()
    :precondition (exists (?r) (fixed ?r))
    :effect (happy)))";

const ADL_PROBLEM: &str = "
(define (problem adl-1) (:domain adl)
  (:objects r1 r2 r3)
  (:init (power) (switch r1) (switch r2) (broken r2))
  (:goal (and (happy) (forall (?r) (imply (broken ?r) (fixed ?r))))))";

/// - `power` and `switch r1`, `switch r2` are initially true and never
///   deleted: compiled away. So `press r1`, `press r2` (which need them
///   false) are dropped; `press r3` = 1.
/// - flip = 1; its effects on r1, r2 become unconditional adds, the one
///   on r3 stays conditional on `switch r3`: 1 conditional effect.
/// - fix splits over the disjunction: r1: lit (broken r1 is unreachable)
///   = 1, r2: lit | broken = 2, r3: lit = 1; total 4.
/// - celebrate: one operator per witness of the top-level `exists` = 3.
/// - facts: switch r3, lit r1..r3, broken r2, fixed r1..r3, happy = 9,
///   plus the derived `@goal` of the disjunctive goal (below) = 10.
/// - goal: `forall` expands to r1: (not broken r1) = true, r2: (not broken
///   r2) or (fixed r2), r3: true; the whole goal is a disjunction of two
///   conjunctions, so it becomes a derived `@goal` fact with 2 axioms.
#[test]
fn forall_when_disjunction_exists_and_constant_facts() {
    let task = ok(ADL_DOMAIN, ADL_PROBLEM);
    assert_eq!(
        op_names(&task),
        [
            "(press r3)",
            "(flip)",
            "(fix r1)",
            "(fix r2)",
            "(fix r2)",
            "(fix r3)",
            "(celebrate)",
            "(celebrate)",
            "(celebrate)",
        ]
    );
    assert_eq!(task.facts.len(), 10, "{:?}", fact_names(&task));
    assert!(!fact_names(&task).contains(&"(power)".to_string()));
    let flip = &task.operators[1];
    assert_eq!(flip.add.len(), 2);
    assert_eq!(flip.conditional.len(), 1);
    assert!(flip.precondition.is_empty());
    let conditional: usize = task.operators.iter().map(|o| o.conditional.len()).sum();
    assert_eq!(conditional, 1);
    // The initial state keeps only `broken r2` (the constant facts are gone).
    assert_eq!(task.init_facts.len(), 1);
}

/// The disjunctive goal above: 2 axioms for one `@goal` fact (the goal
/// facts happy/fixed are ordinary facts).
#[test]
fn disjunctive_goal_becomes_axioms() {
    let task = ok(ADL_DOMAIN, ADL_PROBLEM);
    assert_eq!(task.goal.pos.len(), 1);
    let goal_fact = &task.facts[task.goal.pos[0] as usize];
    assert_eq!(goal_fact.predicate, "@goal");
    assert_eq!(task.axioms.len(), 2);
    assert!(task.axioms.iter().all(|a| a.head == task.goal.pos[0]));
}

const NUMERIC_DOMAIN: &str = "
(define (domain numeric)
  (:requirements :typing :fluents :action-costs)
  (:types truck loc)
  (:predicates (at ?t - truck ?l - loc))
  (:functions (fuel ?t - truck) (distance ?a ?b - loc) (total-cost))
  (:action move
    :parameters (?t - truck ?a ?b - loc)
    :precondition (and (at ?t ?a) (>= (fuel ?t) (distance ?a ?b)))
    :effect (and (not (at ?t ?a)) (at ?t ?b)
                 (decrease (fuel ?t) (distance ?a ?b))
                 (increase (total-cost) (distance ?a ?b)))))";

fn numeric_problem(metric: &str, ab: &str) -> String {
    format!(
        "(define (problem numeric-1) (:domain numeric)
           (:objects t - truck a b c - loc)
           (:init (at t a) (= (fuel t) 10) (= (distance a b) {ab}) (= (distance b c) 4) (= (total-cost) 0))
           (:goal (at t c))
           {metric})"
    )
}

/// Relaxed reachability allows moves between all 9 pairs of locations,
/// but `distance` is static and only defined for a→b and b→c: the other
/// 7 conditions compare with an undefined value and are statically
/// false. 2 operators, costing the static distances 3 and 4; `fuel t` is
/// the only fluent left in the state; facts: at t {a, b, c} = 3.
#[test]
fn numeric_fluents_static_functions_and_total_cost() {
    let task = ok(
        NUMERIC_DOMAIN,
        &numeric_problem("(:metric minimize (total-cost))", "3"),
    );
    assert_eq!(op_names(&task), ["(move t a b)", "(move t b c)"]);
    assert_eq!(
        task.operators.iter().map(|o| o.cost).collect::<Vec<_>>(),
        [3, 4]
    );
    assert_eq!(task.facts.len(), 3);
    assert_eq!(task.fluents.len(), 1);
    assert_eq!(task.fluents[0].to_string(), "(fuel t)");
    assert_eq!(task.init_fluents, [10.0]);
    assert_eq!(
        task.cost_model,
        CostModel::FromMetric {
            fluents: vec!["(total-cost)".into()],
            offset: 0.0,
            scale: 1,
        }
    );
    // The fuel condition compares with the folded constant distance.
    let move_ab = &task.operators[0];
    assert_eq!(move_ab.precondition.numeric.len(), 1);
    assert_eq!(move_ab.numeric.len(), 1);
    assert!(move_ab.precondition.numeric[0].holds(&[3.0]));
    assert!(!move_ab.precondition.numeric[0].holds(&[2.0]));
}

#[test]
fn no_metric_means_unit_costs() {
    let task = ok(NUMERIC_DOMAIN, &numeric_problem("", "3"));
    assert_eq!(task.cost_model, CostModel::Unit);
    assert!(task.operators.iter().all(|o| o.cost == 1));
    // total-cost stays an ordinary fluent.
    assert_eq!(task.fluents.len(), 2);
}

/// Decimal increments become integer costs at the smallest power of ten
/// that makes them all integers: 2.5 and 4 cost 25 and 40 at scale 10.
#[test]
fn decimal_costs_are_scaled_to_integers() {
    let task = ok(
        NUMERIC_DOMAIN,
        &numeric_problem("(:metric minimize (total-cost))", "2.5"),
    );
    assert_eq!(
        task.cost_model,
        CostModel::FromMetric {
            fluents: vec!["(total-cost)".into()],
            offset: 0.0,
            scale: 10,
        }
    );
    assert_eq!(
        task.operators.iter().map(|o| o.cost).collect::<Vec<_>>(),
        [25, 40]
    );
    assert_eq!(task.cost_model.display_cost(65).to_string(), "6.5");
    assert_eq!(task.cost_model.in_metric_units(65), 6.5);
    // Binary rounding of the decimal (18.17 is 18.169999…) is no decimal
    // place of its own.
    let task = ok(
        NUMERIC_DOMAIN,
        &numeric_problem("(:metric minimize (total-cost))", "18.17"),
    );
    assert_eq!(task.cost_model.scale(), 100);
    assert_eq!(task.operators[0].cost, 1817);
    let task = ok(
        NUMERIC_DOMAIN,
        &numeric_problem("(:metric minimize (total-cost))", "0.000001"),
    );
    assert_eq!(task.cost_model.scale(), 1_000_000);
    assert_eq!(task.operators[0].cost, 1);
}

#[test]
fn costs_with_too_many_decimals_fall_back_to_unit_costs() {
    let task = ok(
        NUMERIC_DOMAIN,
        &numeric_problem("(:metric minimize (total-cost))", "2.0000005"),
    );
    match &task.cost_model {
        CostModel::NotOptimised { reason } => {
            assert!(reason.contains("more than 6 decimal places"), "{reason}")
        }
        other => panic!("expected NotOptimised, got {other:?}"),
    }
    assert!(task.operators.iter().all(|o| o.cost == 1));
    assert_eq!(task.fluents.len(), 2);
    assert!(task.metric.is_some());
}

/// An operator may cost up to 2^32 − 1 cost units: no path a search can
/// hold (fewer than 2^32 states) then sums past `u64`. Beyond, the plan is
/// searched by length, with the reason, instead of a sum that saturates.
#[test]
fn costs_too_large_for_every_plan_fall_back_to_unit_costs() {
    let largest = ok(
        NUMERIC_DOMAIN,
        &numeric_problem("(:metric minimize (total-cost))", "4294967295"),
    );
    assert!(matches!(largest.cost_model, CostModel::FromMetric { .. }));
    assert_eq!(largest.operators[0].cost, 4_294_967_295);
    for (ab, expected) in [
        ("4294967296", "at most 4294967295)"),
        // 4 294 967 296 cost units at the scale of five decimals.
        ("42949.67296", "at most 42949.67295)"),
    ] {
        let task = ok(
            NUMERIC_DOMAIN,
            &numeric_problem("(:metric minimize (total-cost))", ab),
        );
        match &task.cost_model {
            CostModel::NotOptimised { reason } => {
                assert!(
                    reason.contains("has too large a cost") && reason.ends_with(expected),
                    "{reason}"
                )
            }
            other => panic!("expected NotOptimised for {ab}, got {other:?}"),
        }
        assert!(task.operators.iter().all(|o| o.cost == 1));
    }
}

/// `total-time` counts steps: its weight is added to every operator's
/// cost (moves of 3 and 4, plus 2 per step).
#[test]
fn total_time_in_a_metric_costs_its_weight_per_step() {
    let task = ok(
        NUMERIC_DOMAIN,
        &numeric_problem(
            "(:metric minimize (+ (* 2 (total-time)) (total-cost)))",
            "3",
        ),
    );
    assert_eq!(
        task.cost_model,
        CostModel::FromMetric {
            fluents: vec!["(total-cost)".into(), "(total-time)".into()],
            offset: 0.0,
            scale: 1,
        }
    );
    assert_eq!(
        task.operators.iter().map(|o| o.cost).collect::<Vec<_>>(),
        [5, 6]
    );
    // Alone, it is the plan's length.
    let task = ok(
        NUMERIC_DOMAIN,
        &numeric_problem("(:metric minimize (total-time))", "3"),
    );
    assert!(task.operators.iter().all(|o| o.cost == 1));
    assert!(matches!(task.cost_model, CostModel::FromMetric { .. }));
}

#[test]
fn a_metric_decreasing_with_total_time_is_not_optimised() {
    let task = ok(
        NUMERIC_DOMAIN,
        &numeric_problem("(:metric minimize (- (total-cost) (total-time)))", "3"),
    );
    match &task.cost_model {
        CostModel::NotOptimised { reason } => assert!(reason.contains("total-time"), "{reason}"),
        other => panic!("expected NotOptimised, got {other:?}"),
    }
    // The validator evaluates such a metric; the ground task cannot.
    assert!(task.metric.is_none());
}

#[test]
fn weighted_metric_scales_costs() {
    let task = ok(
        NUMERIC_DOMAIN,
        &numeric_problem("(:metric minimize (* 2 (total-cost)))", "3"),
    );
    assert_eq!(
        task.operators.iter().map(|o| o.cost).collect::<Vec<_>>(),
        [6, 8]
    );
}

const DERIVED_DOMAIN: &str = "
(define (domain derived)
  (:requirements :adl :derived-predicates)
  (:predicates (edge ?x ?y) (reach ?x ?y) (at ?x) (visited ?x))
  (:derived (reach ?x ?y)
    (or (edge ?x ?y) (exists (?z) (and (edge ?x ?z) (reach ?z ?y)))))
  (:action go
    :parameters (?x ?y)
    :precondition (and (at ?x) (reach ?x ?y) (not (visited ?y)))
    :effect (and (not (at ?x)) (at ?y) (visited ?y))))";

const DERIVED_PROBLEM: &str = "
(define (problem derived-1) (:domain derived)
  (:objects a b c)
  (:init (at a) (edge a b) (edge b c))
  (:goal (visited c)))";

/// Edges a→b→c (static). The relaxed analysis cannot use the
/// disjunctive body, so all 9 `reach` facts count as reachable; grounding
/// the bodies leaves reach(a b) ← true, reach(b c) ← true,
/// reach(a c) ← reach(b c), and rules for reach(a a), reach(b a),
/// reach(b b) that depend on reach(c ·), which nothing derives: those
/// are always false and removed, in two rounds. 3 axioms.
/// go: x must be at-reachable and reach(x y) derivable: (a b), (a c),
/// (b c) = 3. Facts: at {a, b, c}, visited {b, c}, reach {ab, ac, bc} = 8.
#[test]
fn derived_predicates_become_axioms() {
    let task = ok(DERIVED_DOMAIN, DERIVED_PROBLEM);
    assert_eq!(op_names(&task), ["(go a b)", "(go a c)", "(go b c)"]);
    assert_eq!(task.facts.len(), 8, "{:?}", fact_names(&task));
    assert_eq!(task.axioms.len(), 3);
    assert!(task.axioms.iter().all(|a| a.stratum == 0));
    let bodies: usize = task.axioms.iter().map(|a| a.body.pos.len()).sum();
    assert_eq!(bodies, 1);
}

const STRATA_DOMAIN: &str = "
(define (domain strata)
  (:requirements :adl :derived-predicates)
  (:predicates (p) (d1) (d2) (done))
  (:derived (d1) (p))
  (:derived (d2) (not (d1)))
  (:action set :parameters () :precondition (d2) :effect (p))
  (:action finish :parameters () :precondition (d1) :effect (done)))";

const STRATA_PROBLEM: &str = "(define (problem strata-1) (:domain strata) (:init) (:goal (done)))";

/// d2 depends negatively on d1: strata 0 and 1.
#[test]
fn negative_dependencies_are_stratified() {
    let task = ok(STRATA_DOMAIN, STRATA_PROBLEM);
    assert_eq!(task.axioms.len(), 2);
    let stratum_of = |name: &str| {
        let id = task
            .facts
            .iter()
            .position(|f| f.predicate == name)
            .expect("fact") as u32;
        task.axioms
            .iter()
            .find(|a| a.head == id)
            .expect("axiom")
            .stratum
    };
    assert_eq!(stratum_of("d1"), 0);
    assert_eq!(stratum_of("d2"), 1);
    assert_eq!(op_names(&task), ["(set)", "(finish)"]);
}

#[test]
fn cyclic_negation_is_unsupported() {
    let domain = "(define (domain cyc) (:requirements :adl :derived-predicates)
      (:predicates (d1) (d2) (q))
      (:derived (d1) (not (d2)))
      (:derived (d2) (not (d1)))
      (:action a :parameters () :precondition (d1) :effect (q)))";
    let problem = "(define (problem c) (:domain cyc) (:init) (:goal (q)))";
    match ground_text(domain, problem) {
        Err(GroundError::Unsupported {
            diagnostic,
            in_problem,
        }) => {
            assert!(!in_problem);
            assert!(
                diagnostic.message.contains("not stratifiable"),
                "{}",
                diagnostic.message
            );
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

#[test]
fn constraints_are_unsupported_with_location() {
    let problem = "(define (problem typing-1) (:domain typing)
  (:objects t1 - truck)
  (:init (at t1 depot))
  (:goal (visited depot))
  (:constraints (always (at t1 depot))))";
    let Ok(parsed) = pddl_syntax::parse_problem(problem) else {
        // The parser may reject `always`; then nothing reaches the grounder.
        return;
    };
    let domain = pddl_syntax::parse_domain(TYPING_DOMAIN).expect("domain parses");
    match ground(&domain, &parsed, &GroundOptions::default()) {
        Err(GroundError::Unsupported {
            diagnostic,
            in_problem,
        }) => {
            assert!(in_problem);
            assert!(diagnostic.message.contains(":constraints"));
            let start = problem.find("(:constraints").expect("present");
            assert!(
                diagnostic.span.start <= start + 1 && diagnostic.span.end > start + 1,
                "{:?}",
                diagnostic.span
            );
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

#[test]
fn preferences_are_unsupported_with_location() {
    let problem = "(define (problem p) (:domain typing)
  (:objects t1 - truck)
  (:init (at t1 depot))
  (:goal (preference p1 (visited depot))))";
    let Ok(parsed) = pddl_syntax::parse_problem(problem) else {
        return;
    };
    let domain = pddl_syntax::parse_domain(TYPING_DOMAIN).expect("domain parses");
    match ground(&domain, &parsed, &GroundOptions::default()) {
        Err(GroundError::Unsupported {
            diagnostic,
            in_problem,
        }) => {
            assert!(in_problem);
            assert!(diagnostic.message.contains("preference"));
            assert_eq!(
                &problem[diagnostic.span.start..diagnostic.span.start + 11],
                "(preference"
            );
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

#[test]
fn object_fluents_are_unsupported_with_location() {
    let domain = "(define (domain of) (:requirements :object-fluents)
      (:types t)
      (:functions (loc ?x - t) - t)
      (:predicates (p))
      (:action a :parameters () :effect (p)))";
    let problem = "(define (problem p) (:domain of) (:init) (:goal (p)))";
    match ground_text(domain, problem) {
        Err(GroundError::Unsupported {
            diagnostic,
            in_problem,
        }) => {
            assert!(!in_problem);
            assert!(diagnostic.message.contains("object fluent"));
            assert_eq!(
                &domain[diagnostic.span.start..diagnostic.span.start + 4],
                "(loc"
            );
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

#[test]
fn operator_limit_names_the_action() {
    let domain = pddl_syntax::parse_domain(NEGATION_DOMAIN).expect("parses");
    let problem = pddl_syntax::parse_problem(NEGATION_PROBLEM).expect("parses");
    let options = GroundOptions {
        max_operators: 3,
        ..GroundOptions::default()
    };
    match ground(&domain, &problem, &options) {
        Err(GroundError::TooManyOperators { action, limit }) => {
            assert_eq!(action, "cut");
            assert_eq!(limit, 3);
        }
        other => panic!("expected TooManyOperators, got {other:?}"),
    }
}

#[test]
fn fact_limit_stops_grounding() {
    let domain = pddl_syntax::parse_domain(NEGATION_DOMAIN).expect("parses");
    let problem = pddl_syntax::parse_problem(NEGATION_PROBLEM).expect("parses");
    let options = GroundOptions {
        max_facts: 4,
        ..GroundOptions::default()
    };
    assert!(matches!(
        ground(&domain, &problem, &options),
        Err(GroundError::TooManyFacts { limit: 4 })
    ));
}

#[test]
fn grounding_is_deterministic() {
    for (d, p) in [
        (ADL_DOMAIN, ADL_PROBLEM),
        (DERIVED_DOMAIN, DERIVED_PROBLEM),
        (TYPING_DOMAIN, TYPING_PROBLEM),
    ] {
        assert_eq!(ok(d, p), ok(d, p));
    }
}

#[test]
fn dump_names_facts_and_operators() {
    let task = ok(
        NUMERIC_DOMAIN,
        &numeric_problem("(:metric minimize (total-cost))", "3"),
    );
    let text = pddl_ground::dump::task_to_string(&task);
    assert!(text.contains("operators 2\n"), "{text}");
    assert!(
        text.contains("  (move t a b) cost 3\n    pre (at t a)\n    pre (>= (fuel t) 3)\n"),
        "{text}"
    );
    assert!(text.contains("(decrease (fuel t) 3)"), "{text}");
    assert!(
        text.contains("cost model: from metric [(total-cost)], offset 0"),
        "{text}"
    );
}

const WIDE_OR_DOMAIN: &str = "
(define (domain wide)
  (:requirements :adl :numeric-fluents)
  (:predicates (a ?x) (b ?x) (won))
  (:functions (score))
  (:action make-a :parameters (?x) :effect (a ?x))
  (:action make-b :parameters (?x) :effect (b ?x))
  (:action win :parameters ()
    :precondition (forall (?x) (or (a ?x) (b ?x)))
    :effect (won))
  (:action count :parameters (?x)
    :effect (when (or (a ?x) (b ?x)) (increase (score) 1))))";

const WIDE_OR_PROBLEM: &str = "
(define (problem wide-1) (:domain wide)
  (:objects o1 o2 o3 o4 o5 o6 o7 o8 o9)
  (:init (= (score) 0))
  (:goal (won)))";

/// `win` needs, for each of 9 objects, (a x) or (b x): 2^9 = 512
/// alternatives, more than the 256 split limit. Instead each disjunction
/// becomes an auxiliary derived fact `(@or n)` with 2 axioms: 1 operator,
/// 9 auxiliary facts, 18 axioms. `count` has a numeric effect under a
/// disjunctive condition, which must not be duplicated: one conditional
/// effect per object on one more auxiliary fact (9 more facts, 18 more
/// axioms). Operators: make-a 9, make-b 9, win 1, count 9 = 28.
/// Facts: a 9, b 9, won 1, auxiliary 18 = 37.
#[test]
fn wide_disjunctions_become_auxiliary_axioms() {
    let task = ok(WIDE_OR_DOMAIN, WIDE_OR_PROBLEM);
    assert_eq!(task.operators.len(), 28);
    assert_eq!(count(&task, "win"), 1);
    assert_eq!(task.axioms.len(), 36);
    assert_eq!(task.facts.len(), 37, "{:?}", fact_names(&task));
    let win = task
        .operators
        .iter()
        .find(|o| o.name == "win")
        .expect("win");
    assert_eq!(win.precondition.pos.len(), 9);
    assert!(
        win.precondition
            .pos
            .iter()
            .all(|&f| task.facts[f as usize].predicate == "@or")
    );
    for op in task.operators.iter().filter(|o| o.name == "count") {
        assert_eq!(op.conditional.len(), 1);
        assert_eq!(op.conditional[0].numeric.len(), 1);
    }
}

/// 5 parameters over 40 objects and no precondition: 40^5 ≈ 10^8
/// bindings. Grounding stops at the limit instead of running out of
/// memory, naming the action.
#[test]
fn parameter_blow_up_is_stopped() {
    let domain = "(define (domain big) (:predicates (p ?a ?b ?c ?d ?e))
      (:action huge :parameters (?a ?b ?c ?d ?e) :effect (p ?a ?b ?c ?d ?e)))";
    let objects: Vec<String> = (0..40).map(|i| format!("o{i}")).collect();
    let problem = format!(
        "(define (problem b) (:domain big) (:objects {}) (:init) (:goal (p o1 o2 o3 o4 o5)))",
        objects.join(" ")
    );
    let domain = pddl_syntax::parse_domain(domain).expect("parses");
    let problem = pddl_syntax::parse_problem(&problem).expect("parses");
    let options = GroundOptions {
        max_operators: 10_000,
        ..GroundOptions::default()
    };
    match ground(&domain, &problem, &options) {
        Err(GroundError::TooManyOperators { action, limit }) => {
            assert_eq!(action, "huge");
            assert_eq!(limit, 10_000);
        }
        other => panic!("expected TooManyOperators, got {other:?}"),
    }
}

/// One binding whose quantified effect has 200^4 = 1.6 × 10^9 effects,
/// conditional where `(s ?x)` can change, otherwise unconditional (all
/// the same literal): the limit (four per allowed operator) and the stop
/// condition are checked while they are made, not after (when grounding
/// would have run for hours and out of memory first).
#[test]
fn quantified_effect_blow_up_is_stopped() {
    for changing in ["(:action unset :parameters (?x) :effect (not (s ?x)))", ""] {
        let domain = format!(
            "(define (domain wide) (:requirements :conditional-effects)
              (:predicates (s ?x) (t))
              (:action sweep :parameters ()
                :effect (forall (?a ?b ?c ?d) (when (and (s ?a) (s ?b) (s ?c) (s ?d)) (not (t)))))
              {changing})"
        );
        let objects: Vec<String> = (0..200).map(|i| format!("o{i}")).collect();
        let init: Vec<String> = objects.iter().map(|o| format!("(s {o})")).collect();
        let problem = format!(
            "(define (problem w) (:domain wide) (:objects {}) (:init (t) {}) (:goal (not (t))))",
            objects.join(" "),
            init.join(" ")
        );
        let domain = pddl_syntax::parse_domain(&domain).expect("parses");
        let problem = pddl_syntax::parse_problem(&problem).expect("parses");
        let options = GroundOptions {
            max_operators: 1_000,
            ..GroundOptions::default()
        };
        match ground(&domain, &problem, &options) {
            Err(GroundError::TooManyOperators { action, limit }) => {
                assert_eq!(action, "sweep", "{changing}");
                assert_eq!(limit, 1_000);
            }
            other => panic!("expected TooManyOperators ({changing}), got {other:?}"),
        }
        // A caller's stop (a time limit, Ctrl-C) is heard within the
        // binding, before the default limits.
        let asked = std::cell::Cell::new(0u32);
        let stop_after_a_while = || {
            asked.set(asked.get() + 1);
            asked.get() > 100
        };
        let options = GroundOptions {
            stop: Some(&stop_after_a_while),
            ..GroundOptions::default()
        };
        assert!(
            matches!(
                ground(&domain, &problem, &options),
                Err(GroundError::Stopped)
            ),
            "{changing}"
        );
    }
}

/// Truck u sits at c, where no distance is defined, so no operator moves
/// it and `(fuel u)` never changes: the goal's condition on it is decided
/// from the initial value (10 ≥ 5 holds and disappears; 10 ≥ 50 can never
/// hold and stays, as a constant comparison). Only `(fuel t)` remains a
/// fluent.
#[test]
fn unchanged_fluents_are_folded() {
    let problem = |bound: u32| {
        format!(
            "(define (problem numeric-2) (:domain numeric)
               (:objects t u - truck a b c - loc)
               (:init (at t a) (at u c) (= (fuel t) 10) (= (fuel u) 10)
                      (= (distance a b) 3) (= (distance b c) 4) (= (total-cost) 0))
               (:goal (and (at t c) (>= (fuel u) {bound})))
               (:metric minimize (total-cost)))"
        )
    };
    let task = ok(NUMERIC_DOMAIN, &problem(5));
    assert_eq!(task.operators.len(), 2);
    assert!(task.goal.numeric.is_empty());
    assert_eq!(
        task.fluents
            .iter()
            .map(|f| f.to_string())
            .collect::<Vec<_>>(),
        ["(fuel t)"]
    );
    let task = ok(NUMERIC_DOMAIN, &problem(50));
    assert_eq!(task.goal.numeric.len(), 1);
    assert!(!task.goal.numeric[0].holds(&[10.0]));
}

/// Deep nesting (as deep as the parser accepts) grounds without running
/// out of stack in a 2 MB test thread, and a quantifier nest that would
/// expand to 2^400 conditions is refused instead of expanded.
#[test]
fn deep_nesting_is_safe() {
    let depth = 400;
    let nested =
        |open: &str, inner: &str| format!("{}{inner}{}", open.repeat(depth), ")".repeat(depth));
    let domain = format!(
        "(define (domain deep) (:requirements :adl)
          (:predicates (p ?x) (q))
          (:action a :parameters (?x) :precondition {} :effect (q))
          (:action b :parameters () :precondition {} :effect (q)))",
        nested("(not ", "(p ?x)"),
        nested("(and ", "(q)")
    );
    let problem = "(define (problem d) (:domain deep) (:objects o1 o2) (:init (p o1)) (:goal (q)))";
    // Within the parser's nesting limit (512).
    let parsed = pddl_syntax::parse_domain(&domain).expect("parses");
    let problem = pddl_syntax::parse_problem(problem).expect("parses");
    let task = ground(&parsed, &problem, &GroundOptions::default()).expect("grounds");
    // 400 negations: (p ?x) itself; (p o1) is initially true and never
    // changes, (p o2) never holds: one operator `a o1`; `b` needs (q).
    assert_eq!(op_names(&task), ["(a o1)", "(b)"]);

    // The body `(q)` is a fluent fact: nothing short-circuits the expansion.
    let mut body = String::from("(q)");
    for i in 0..depth {
        body = format!("(forall (?v{i}) {body})");
    }
    let domain = format!(
        "(define (domain wide) (:requirements :adl)
          (:predicates (p ?x) (q))
          (:action c :parameters () :precondition {body} :effect (q)))"
    );
    let parsed = pddl_syntax::parse_domain(&domain).expect("parses");
    match ground(&parsed, &problem, &GroundOptions::default()) {
        Err(GroundError::Unsupported { diagnostic, .. }) => {
            assert!(diagnostic.message.contains("expands to more than"))
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

/// Two tiles side by side vanish together (as in Puzznic's `vanish`):
/// `clear` has one conditional effect per ordered pair of tiles (a, b) on
/// adjacent cells (x, y), removing `a`; the instances (t1, t2, x, y) and
/// (t2, t1, y, x) have the same condition, `(at t1 x) (at t2 y)`, and
/// always fire together, so the grounder makes them one effect that
/// removes both tiles. The conditions: t1 c1 t2 c2, t1 c2 t2 c1, t1 c2
/// t2 c3, t1 c3 t2 c2 (c1–c2 and c2–c3 are adjacent) = 4 effects, not 8.
#[test]
fn conditional_effects_with_one_condition_are_merged() {
    let domain = "
(define (domain pairs)
  (:requirements :strips :conditional-effects)
  (:predicates (at ?t ?c) (next ?a ?b) (gone ?t) (tile ?t) (other ?a ?b) (moved))
  (:action step
    :parameters (?t ?from ?to)
    :precondition (and (tile ?t) (at ?t ?from) (next ?from ?to))
    :effect (and (not (at ?t ?from)) (at ?t ?to) (moved)))
  (:action clear
    :parameters ()
    :precondition (moved)
    :effect (forall (?a ?b ?x ?y)
      (when (and (other ?a ?b) (next ?x ?y) (at ?a ?x) (at ?b ?y))
            (and (not (at ?a ?x)) (gone ?a))))))";
    let problem = "
(define (problem pairs-1) (:domain pairs)
  (:objects t1 t2 c1 c2 c3)
  (:init (tile t1) (tile t2) (other t1 t2) (other t2 t1) (at t1 c1) (at t2 c3)
         (next c1 c2) (next c2 c1) (next c2 c3) (next c3 c2))
  (:goal (and (gone t1) (gone t2))))";
    let task = ok(domain, problem);
    let clear = task
        .operators
        .iter()
        .find(|o| o.name == "clear")
        .expect("clear is reachable");
    // t1 c1 t2 c2, t1 c2 t2 c1, t1 c2 t2 c3, t1 c3 t2 c2.
    assert_eq!(clear.conditional.len(), 4);
    for effect in &clear.conditional {
        // Each removes both tiles: (gone t1) and (gone t2) are added, and
        // each tile leaves its cell.
        assert_eq!(effect.condition.pos.len(), 2);
        assert_eq!(effect.add.len(), 2, "{effect:?}");
        assert_eq!(effect.del.len(), 2, "{effect:?}");
        let mut deleted = effect.del.clone();
        deleted.sort_unstable();
        let mut condition = effect.condition.pos.clone();
        condition.sort_unstable();
        assert_eq!(deleted, condition);
    }
}

/// Conditions that differ only in facts grounding compiles away become
/// equal afterwards, and their effects are merged then: `(ready a)` and
/// `(ready b)` are initially true and never deleted (`prepare`, which
/// could add them, is also never needed), and `(level a)`, `(level b)` are
/// 1 and never changed (`raise` needs a fact no operator adds). So
/// `mark`'s two effects for `a` and `b` both come down to "if `(armed)`",
/// one effect marking both, in each of the two versions of the domain.
#[test]
fn conditions_made_equal_by_constant_folding_are_merged() {
    let domain = |condition: &str| {
        format!(
            "
(define (domain folding)
  (:requirements :strips :conditional-effects :numeric-fluents)
  (:predicates (armed) (ready ?x) (marked ?x) (never))
  (:functions (level ?x))
  (:action arm :parameters () :effect (armed))
  (:action prepare :parameters (?x) :effect (ready ?x))
  (:action raise :parameters (?x) :precondition (never) :effect (increase (level ?x) 1))
  (:action mark
    :parameters ()
    :precondition (armed)
    :effect (forall (?x) (when (and (armed) {condition}) (marked ?x)))))"
        )
    };
    let problem = "
(define (problem folding-1) (:domain folding)
  (:objects a b)
  (:init (ready a) (ready b) (= (level a) 1) (= (level b) 1))
  (:goal (and (marked a) (marked b))))";
    for condition in ["(ready ?x)", "(>= (level ?x) 1)"] {
        let task = ok(&domain(condition), problem);
        let mark = task
            .operators
            .iter()
            .find(|o| o.name == "mark")
            .expect("mark is reachable");
        assert_eq!(mark.conditional.len(), 1, "{condition}: {mark:?}");
        let effect = &mark.conditional[0];
        assert!(effect.condition.numeric.is_empty(), "{condition}");
        assert_eq!(effect.condition.pos.len(), 1, "{condition}");
        let added: Vec<String> = effect
            .add
            .iter()
            .map(|&f| task.facts[f as usize].to_string())
            .collect();
        assert_eq!(added, ["(marked a)", "(marked b)"], "{condition}");
    }
}

/// A task on which grounding asks its stop condition many times (see the
/// file).
const WIDE_DOMAIN: &str = include_str!("wide/domain.pddl");
const WIDE_PROBLEM: &str = include_str!("wide/problem.pddl");

/// Grounds the wide task with a stop condition that says stop from its
/// `stop_at`-th question on (never for `usize::MAX`); returns the result
/// and how many times the condition was asked.
fn ground_wide_stopping_at(stop_at: usize) -> (Result<Task, GroundError>, usize) {
    ground_stopping_at(WIDE_DOMAIN, WIDE_PROBLEM, stop_at)
}

/// Grounds a task with a stop condition that says stop from its
/// `stop_at`-th question on; returns the result and how many times the
/// condition was asked.
fn ground_stopping_at(
    domain: &str,
    problem: &str,
    stop_at: usize,
) -> (Result<Task, GroundError>, usize) {
    let domain = pddl_syntax::parse_domain(domain).expect("parses");
    let problem = pddl_syntax::parse_problem(problem).expect("parses");
    let asked = std::cell::Cell::new(0usize);
    let stop = || {
        asked.set(asked.get() + 1);
        asked.get() >= stop_at
    };
    let options = GroundOptions {
        stop: Some(&stop),
        ..counting()
    };
    let result = ground(&domain, &problem, &options);
    (result, asked.get())
}

#[test]
fn a_stop_condition_that_never_fires_changes_nothing() {
    let (task, asked) = ground_wide_stopping_at(usize::MAX);
    assert!(
        asked >= 2,
        "asked {asked} times: the task is too small to test"
    );
    assert_eq!(task.expect("grounds"), ok(WIDE_DOMAIN, WIDE_PROBLEM));
}

#[test]
fn grounding_stopped_at_any_question_returns_stopped_or_the_whole_task() {
    let (_, questions) = ground_wide_stopping_at(usize::MAX);
    let whole = ok(WIDE_DOMAIN, WIDE_PROBLEM);
    let mut stopped = 0;
    for stop_at in 1..=questions {
        match ground_wide_stopping_at(stop_at) {
            (Err(GroundError::Stopped), asked) => {
                assert_eq!(asked, stop_at, "asked again after it said stop");
                stopped += 1;
            }
            // A stop asked for after the last piece of work is too late
            // to matter: then the task must be whole.
            (Ok(task), _) => assert_eq!(task, whole, "stopped at question {stop_at}"),
            (Err(other), _) => panic!("stopped at question {stop_at}: {other}"),
        }
    }
    assert!(
        stopped >= 1,
        "no question of {questions} could stop grounding"
    );
    let (result, asked) = ground_wide_stopping_at(1);
    assert!(matches!(result, Err(GroundError::Stopped)));
    assert_eq!(asked, 1);
}

/// Finishing the task (constant facts, relevance, renumbering: seconds on
/// a large Puzznic level) asks the stop condition between its phases: on a
/// task too small for reachability and instantiation to ask it at all,
/// finishing asks it once per phase, and a stop at any of those questions
/// stops grounding there.
#[test]
fn finishing_asks_the_stop_condition_between_its_phases() {
    let ground_typing_stopping_at =
        |stop_at| ground_stopping_at(TYPING_DOMAIN, TYPING_PROBLEM, stop_at);
    let (task, questions) = ground_typing_stopping_at(usize::MAX);
    assert_eq!(task.expect("grounds"), ok(TYPING_DOMAIN, TYPING_PROBLEM));
    assert!(questions >= 4, "asked {questions} times");
    for stop_at in 1..=questions {
        let (result, asked) = ground_typing_stopping_at(stop_at);
        assert!(
            matches!(result, Err(GroundError::Stopped)),
            "{stop_at}: {result:?}"
        );
        assert_eq!(asked, stop_at);
    }
}

/// A goal no state satisfies names the literal that makes it so: an atom
/// that relaxed reachability never reaches, or a static fact of the wrong
/// value; a goal that some state may satisfy names none.
#[test]
fn impossible_goals_name_their_literal() {
    let literals = |domain: &str, problem: &str| -> Vec<String> {
        ok(domain, problem)
            .impossible_goal
            .iter()
            .map(|literal| literal.to_string())
            .collect()
    };
    let impossible = |goal: &str| {
        let problem = TYPING_PROBLEM.replace("(:goal (visited b))", &format!("(:goal {goal})"));
        literals(TYPING_DOMAIN, &problem)
    };
    // Roads are one-way: nothing reaches the depot.
    assert_eq!(impossible("(visited depot)"), ["(visited depot)"]);
    assert_eq!(impossible("(and (visited b) (road b a))"), ["(road b a)"]);
    assert_eq!(impossible("(not (road a b))"), ["(not (road a b))"]);
    // `visited` changes, but nothing deletes it: true at first, it stays.
    let visited_first = TYPING_PROBLEM
        .replace("(road a b))", "(road a b) (visited a))")
        .replace(
            "(:goal (visited b))",
            "(:goal (and (visited b) (not (visited a))))",
        );
    assert_eq!(
        literals(TYPING_DOMAIN, &visited_first),
        ["(not (visited a))"]
    );
    assert_eq!(
        impossible("(or (visited depot) (at c1 depot))"),
        ["(visited depot)", "(at c1 depot)"]
    );
    // Reachable, or false for other reasons than a literal: nothing named.
    assert!(impossible("(visited b)").is_empty());
    // An alternative left: the literals that took the others away are
    // kept apart, to complete a later reason.
    let problem = TYPING_PROBLEM.replace(
        "(:goal (visited b))",
        "(:goal (or (visited depot) (visited b) (and (visited a) (road b a))))",
    );
    let task = ok(TYPING_DOMAIN, &problem);
    assert!(task.impossible_goal.is_empty());
    let dropped: Vec<String> = task
        .dropped_goal_literals
        .iter()
        .map(|literal| literal.to_string())
        .collect();
    assert_eq!(dropped, ["(visited depot)", "(road b a)"]);
    assert!(
        ok(TYPING_DOMAIN, TYPING_PROBLEM)
            .dropped_goal_literals
            .is_empty()
    );
    // A comparison of functions nothing changes, false from the start.
    let domain = "(define (domain cap) (:requirements :numeric-fluents)
      (:predicates (loaded ?x)) (:functions (capacity ?x) (load))
      (:action fill :parameters (?x) :precondition (< (load) 3)
        :effect (and (loaded ?x) (increase (load) 1))))";
    let problem = "(define (problem cap-1) (:domain cap) (:objects truck)
      (:init (= (capacity truck) 5) (= (load) 0))
      (:goal (and (loaded truck) (> (capacity truck) (* 2 (- 6))))))";
    assert!(literals(domain, problem).is_empty());
    let problem = problem.replace("(- 6)", "6");
    assert_eq!(literals(domain, &problem), ["(> (capacity truck) (* 2 6))"]);
    assert!(impossible("(or (visited depot) (visited b))").is_empty());
    assert!(impossible("(and (at t1 a) (at t1 b))").is_empty());
}

/// A step that updates one fluent twice is not defined (PDDL 2.1; the
/// validator rejects it): an operator whose unconditional effects do, by
/// two effects on `total-cost` or by two parameters naming one object, is
/// dropped, before two increases of the metric could add up to a cost.
#[test]
fn operators_updating_a_fluent_twice_are_dropped() {
    let domain = "(define (domain twice) (:requirements :action-costs :numeric-fluents)
      (:predicates (at ?x) (road ?a ?b))
      (:functions (total-cost) (visits ?x))
      (:action drive :parameters (?a ?b) :precondition (and (at ?a) (road ?a ?b))
        :effect (and (not (at ?a)) (at ?b) (increase (total-cost) 1) (increase (total-cost) 2)))
      (:action walk :parameters (?a ?b) :precondition (and (at ?a) (road ?a ?b))
        :effect (and (not (at ?a)) (at ?b) (increase (visits ?a) 1) (increase (visits ?b) 1)
                     (increase (total-cost) 5))))";
    let problem = "(define (problem twice-1) (:domain twice) (:objects x y)
      (:init (at x) (road x y) (road y y) (= (total-cost) 0) (= (visits x) 0) (= (visits y) 0))
      (:goal (at y)) (:metric minimize (total-cost)))";
    let task = ok(domain, problem);
    assert_eq!(op_names(&task), ["(walk x y)"]);
    assert_eq!(task.operators[0].cost, 5);
}

/// Lamps in the ring of the two tests below.
const LAMPS: usize = 40;

/// A problem of [`LAMPS`] lamps in a ring, each linked to the next two,
/// the even ones on, with `goal`.
fn lamp_ring(goal: &str) -> String {
    let objects: Vec<String> = (0..LAMPS).map(|i| format!("l{i}")).collect();
    let links: String = (0..LAMPS)
        .flat_map(|i| [1, 2].map(|step| format!("(link l{i} l{}) ", (i + step) % LAMPS)))
        .collect();
    let on: String = (0..LAMPS)
        .step_by(2)
        .map(|i| format!("(on l{i}) "))
        .collect();
    format!(
        "(define (problem ring) (:domain lamps) (:objects {} - lamp)
           (:init {links} {on}) (:goal {goal}))",
        objects.join(" ")
    )
}

/// A `forall` effect over a set large enough for its bindings to come from
/// indexes (`bindings.rs`): `(link ?p ?x)` (static, keyed by the
/// parameter) and `(on ?x)` (reachable facts). Forty lamps in a ring,
/// each linked to the next two; only the even ones are on, and nothing
/// turns a lamp on. So `(toggle p)` gets one conditional effect for each
/// of p + 1 and p + 2 that is even, whichever literal comes first.
#[test]
fn forall_effects_range_over_the_values_their_literals_allow() {
    let problem = lamp_ring("(off l0)");
    for condition in ["(link ?p ?x) (on ?x)", "(on ?x) (link ?p ?x)"] {
        let domain = format!(
            "(define (domain lamps) (:requirements :typing :conditional-effects)
               (:types lamp) (:predicates (link ?a ?b - lamp) (on ?x - lamp) (off ?x - lamp))
               (:action toggle :parameters (?p - lamp)
                 :effect (forall (?x - lamp) (when (and {condition})
                                                  (and (off ?x) (not (on ?x)))))))"
        );
        let task = ok(&domain, &problem);
        assert_eq!(count(&task, "toggle"), LAMPS, "{condition}");
        for op in &task.operators {
            let p: usize = op.args[0][1..].parse().expect("lamp number");
            let mut switched: Vec<String> = op
                .conditional
                .iter()
                .flat_map(|effect| &effect.add)
                .map(|&f| task.facts[f as usize].to_string())
                .collect();
            switched.sort();
            let mut expected: Vec<String> = [1, 2]
                .map(|step| (p + step) % LAMPS)
                .into_iter()
                .filter(|x| x % 2 == 0)
                .map(|x| format!("(off l{x})"))
                .collect();
            expected.sort();
            assert_eq!(switched, expected, "{} with {condition}", op.plan_line());
        }
    }
}

/// An existential condition over a set large enough for its values to
/// come from an index (`bindings.rs`): `(glow p)` holds after `(toggle p)`
/// when a lamp linked to p is on; with the ring of the test above, one of
/// p + 1 and p + 2 is even, so one conditional effect, on that lamp.
#[test]
fn existential_conditions_range_over_the_values_their_literals_allow() {
    let domain = "(define (domain lamps) (:requirements :typing :conditional-effects
                     :existential-preconditions)
       (:types lamp) (:predicates (link ?a ?b - lamp) (on ?x - lamp) (glow ?x - lamp))
       (:action toggle :parameters (?p - lamp)
         :effect (and (when (exists (?x - lamp) (and (on ?x) (link ?p ?x))) (glow ?p))
                      (forall (?x - lamp) (not (on ?x))))))";
    let problem = lamp_ring("(glow l0)");
    let task = ok(domain, &problem);
    assert_eq!(count(&task, "toggle"), LAMPS);
    for op in &task.operators {
        let p: usize = op.args[0][1..].parse().expect("lamp number");
        let lit = [1, 2]
            .map(|step| (p + step) % LAMPS)
            .into_iter()
            .find(|x| x % 2 == 0)
            .expect("one of two neighbours is even");
        let glowing: Vec<_> = op
            .conditional
            .iter()
            .filter(|effect| !effect.add.is_empty())
            .collect();
        assert_eq!(glowing.len(), 1, "{}", op.plan_line());
        let condition = &glowing[0].condition;
        let facts: Vec<String> = condition
            .pos
            .iter()
            .map(|&f| task.facts[f as usize].to_string())
            .collect();
        assert_eq!(facts, [format!("(on l{lit})")], "{}", op.plan_line());
        assert!(condition.neg.is_empty() && condition.numeric.is_empty());
    }
}
