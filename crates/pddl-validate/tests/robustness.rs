//! No input makes the plan reader or the validator panic, and the
//! validator agrees with stepping through the same plan by hand.

use pddl_validate::{LiftedState, Plan, PlanStep, Validator, parse_plan};
use proptest::prelude::*;

const DOMAIN: &str = "(define (domain r) (:requirements :adl :fluents)
  (:predicates (p ?x) (q ?x ?y))
  (:functions (n ?x))
  (:action set :parameters (?x ?y) :precondition (or (p ?x) (= ?x ?y))
     :effect (and (q ?x ?y) (not (p ?y)) (increase (n ?x) 1)))
  (:action flip :parameters (?x) :precondition (exists (?y) (q ?x ?y))
     :effect (and (when (p ?x) (not (p ?x))) (when (not (p ?x)) (p ?x))))
  (:action halve :parameters (?x) :precondition (> (n ?x) 0) :effect (scale-down (n ?x) 2)))";

const PROBLEM: &str = "(define (problem r1) (:domain r) (:objects a b c)
  (:init (p a) (= (n a) 0) (= (n b) 1))
  (:goal (and (q a b) (p c))))";

fn step() -> impl Strategy<Value = PlanStep> {
    let name = prop_oneof![Just("set"), Just("flip"), Just("halve"), Just("nope")];
    let object = prop_oneof![Just("a"), Just("b"), Just("c"), Just("zz")];
    (name, proptest::collection::vec(object, 0..3)).prop_map(|(n, args)| PlanStep::new(n, args))
}

proptest! {
    #[test]
    fn plan_reader_never_panics_and_spans_stay_in_the_text(text in "\\PC{0,100}|[ -~\\n;:\\[\\]().?0-9]{0,200}") {
        match parse_plan(&text) {
            Ok(plan) => {
                for step in plan.steps {
                    prop_assert!(step.span.end <= text.len());
                }
            }
            Err(errors) => {
                prop_assert!(!errors.is_empty());
                for error in errors {
                    prop_assert!(error.span.start <= error.span.end && error.span.end <= text.len());
                }
            }
        }
    }

    #[test]
    fn validator_agrees_with_lifted_stepping(steps in proptest::collection::vec(step(), 0..8)) {
        let domain = pddl_syntax::parse_domain(DOMAIN).expect("domain parses");
        let problem = pddl_syntax::parse_problem(PROBLEM).expect("problem parses");
        let validator = Validator::new(&domain, &problem).expect("supported");
        let report = validator.validate(&Plan::from_steps(steps.clone()));
        let mut state = LiftedState::initial(&domain, &problem).expect("initial state");
        let mut failed_at = None;
        for (index, step) in steps.iter().enumerate() {
            match state.apply(&step.action, &step.args) {
                Ok(next) => state = next,
                Err(_) => {
                    failed_at = Some(index + 1);
                    break;
                }
            }
        }
        let stepped_valid = failed_at.is_none() && state.satisfies_goal().unwrap_or(false);
        prop_assert_eq!(report.is_valid(), stepped_valid);
        if let Some(index) = failed_at {
            prop_assert_eq!(report.failure.as_ref().and_then(|f| f.step()), Some(index));
            prop_assert_eq!(report.steps_executed, index - 1);
        }
    }
}
