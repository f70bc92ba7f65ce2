//! Relevance analysis on small tasks whose relevant operators are known
//! by hand. (That it keeps optimal costs on random tasks is tested by the
//! workspace's `tests/grounding_relevance.rs`, which can search.)

use pddl_ground::task::Task;
use pddl_ground::{GroundOptions, ground};

fn ground_both(domain: &str, problem: &str) -> (Task, Task) {
    let domain = pddl_syntax::parse_domain(domain).expect("domain parses");
    let problem = pddl_syntax::parse_problem(problem).expect("problem parses");
    let pruned = ground(&domain, &problem, &GroundOptions::default()).expect("grounds");
    let all = GroundOptions {
        keep_irrelevant: true,
        ..GroundOptions::default()
    };
    (pruned, ground(&domain, &problem, &all).expect("grounds"))
}

fn op_names(task: &Task) -> Vec<String> {
    let mut names: Vec<String> = task.operators.iter().map(|o| o.plan_line()).collect();
    names.sort();
    names
}

fn fact_names(task: &Task) -> Vec<String> {
    task.facts.iter().map(|f| f.to_string()).collect()
}

/// Moving a package nobody asks about is irrelevant, and so are its
/// positions; moving the one the goal names is not.
#[test]
fn operators_for_unneeded_facts_go_with_those_facts() {
    let (pruned, all) = ground_both(
        "(define (domain carry) (:requirements :strips)
  (:predicates (at ?p ?l) (road ?a ?b))
  (:action move :parameters (?p ?a ?b)
    :precondition (and (at ?p ?a) (road ?a ?b))
    :effect (and (not (at ?p ?a)) (at ?p ?b))))",
        "(define (problem carry-1) (:domain carry)
  (:objects wanted spare left right)
  (:init (at wanted left) (at spare left) (road left right) (road right left))
  (:goal (at wanted right)))",
    );
    assert_eq!(op_names(&all).len(), 4);
    assert_eq!(
        op_names(&pruned),
        ["(move wanted left right)", "(move wanted right left)"]
    );
    assert_eq!(
        fact_names(&pruned),
        ["(at wanted left)", "(at wanted right)"]
    );
}

/// A goal that a fact be false keeps the operators that delete it.
#[test]
fn a_negative_goal_keeps_the_operators_deleting_its_fact() {
    let (pruned, all) = ground_both(
        "(define (domain lamp) (:requirements :strips :negative-preconditions)
  (:predicates (on) (noise))
  (:action switch-off :parameters () :effect (not (on)))
  (:action switch-on :parameters () :precondition (not (on)) :effect (on))
  (:action shout :parameters () :effect (noise)))",
        "(define (problem lamp-1) (:domain lamp)
  (:init (on)) (:goal (not (on))))",
    );
    assert_eq!(op_names(&all).len(), 3);
    // Switching on makes `on` true, which no goal or kept precondition
    // needs (with `(on)` in switch-off's precondition it would stay);
    // shouting adds a fact nobody reads.
    assert_eq!(op_names(&pruned), ["(switch-off)"]);
}

/// A conditional effect that would undo a needed fact makes its condition
/// matter both ways: the operator that falsifies the condition stays,
/// although nothing needs the condition's fact true.
#[test]
fn a_conditional_effect_that_can_undo_a_need_keeps_its_condition_exact() {
    let (pruned, _) = ground_both(
        "(define (domain spoil) (:requirements :adl)
  (:predicates (goal) (done) (cursed) (idle))
  (:action reach :parameters () :effect (goal))
  (:action finish :parameters () :effect (and (done) (when (cursed) (not (goal)))))
  (:action lift-curse :parameters () :effect (not (cursed)))
  (:action rest :parameters () :effect (idle)))",
        "(define (problem spoil-1) (:domain spoil)
  (:init (cursed)) (:goal (and (goal) (done))))",
    );
    assert_eq!(op_names(&pruned), ["(finish)", "(lift-curse)", "(reach)"]);
}

/// A derived predicate that nothing needs loses its axioms; one the goal
/// needs keeps them, and its body's facts matter both ways.
#[test]
fn axioms_of_unneeded_derived_predicates_go() {
    let (pruned, all) = ground_both(
        "(define (domain derive) (:requirements :adl :derived-predicates)
  (:predicates (a) (b) (c) (both) (other))
  (:derived (both) (and (a) (not (b))))
  (:derived (other) (c))
  (:action make-a :parameters () :effect (a))
  (:action clear-b :parameters () :effect (not (b)))
  (:action make-c :parameters () :effect (c)))",
        "(define (problem derive-1) (:domain derive)
  (:init (b)) (:goal (both)))",
    );
    assert_eq!(all.axioms.len(), 2);
    assert_eq!(pruned.axioms.len(), 1);
    assert_eq!(op_names(&pruned), ["(clear-b)", "(make-a)"]);
}
