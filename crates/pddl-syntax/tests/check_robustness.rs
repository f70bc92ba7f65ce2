//! The checks never panic: random token-level edits of a valid domain and
//! problem (names swapped, tokens dropped or duplicated) either fail to
//! parse or give diagnostics, and a clean pair stays clean.

use pddl_syntax::check::{check_domain, check_problem};
use pddl_syntax::{parse_domain, parse_problem};
use proptest::prelude::*;

const DOMAIN: &str = "(define (domain transport)
  (:requirements :adl :numeric-fluents :action-costs :derived-predicates)
  (:types truck package - locatable locatable location - object)
  (:constants depot - location)
  (:predicates (at ?x - locatable ?l - location) (in ?p - package ?t - truck)
               (road ?a ?b - location) (reachable ?a ?b - location))
  (:functions (fuel ?t - truck) (total-cost) - number)
  (:derived (reachable ?a ?b - location)
    (or (road ?a ?b) (exists (?c - location) (and (road ?a ?c) (reachable ?c ?b)))))
  (:action drive :parameters (?t - truck ?a ?b - location)
    :precondition (and (at ?t ?a) (road ?a ?b) (> (fuel ?t) 0) (not (= ?a ?b)))
    :effect (and (not (at ?t ?a)) (at ?t ?b) (decrease (fuel ?t) 1)
                 (increase (total-cost) 1)
                 (forall (?p - package) (when (in ?p ?t) (at ?p ?b))))))";

const PROBLEM: &str = "(define (problem p) (:domain transport)
  (:objects t1 - truck p1 - package l1 l2 - location)
  (:init (at t1 depot) (at p1 l1) (road depot l1) (road l1 l2)
         (= (fuel t1) 3) (= (total-cost) 0))
  (:goal (and (at p1 l2) (forall (?t - truck) (at ?t depot))))
  (:metric minimize (total-cost)))";

/// Tokens inserted or substituted by the edits.
const VOCABULARY: &[&str] = &[
    "(",
    ")",
    "?x",
    "?t",
    "t1",
    "p1",
    "depot",
    "truck",
    "package",
    "at",
    "in",
    "fuel",
    "total-cost",
    "and",
    "or",
    "not",
    "=",
    "exists",
    "forall",
    "when",
    "-",
    "either",
    "3",
    ":typing",
];

/// The text split into parentheses and whitespace-separated tokens.
fn tokens(text: &str) -> Vec<String> {
    text.replace('(', " ( ")
        .replace(')', " ) ")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// One edit: at a position (taken modulo the length), drop the token,
/// replace it, or insert before it.
#[derive(Clone, Debug)]
enum Edit {
    Drop(usize),
    Replace(usize, usize),
    Insert(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Drop),
        (any::<usize>(), 0..VOCABULARY.len()).prop_map(|(at, word)| Edit::Replace(at, word)),
        (any::<usize>(), 0..VOCABULARY.len()).prop_map(|(at, word)| Edit::Insert(at, word)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut tokens = tokens(text);
    for edit in edits {
        let len = tokens.len().max(1);
        match *edit {
            Edit::Drop(at) if !tokens.is_empty() => {
                tokens.remove(at % len);
            }
            Edit::Replace(at, word) if !tokens.is_empty() => {
                tokens[at % len] = VOCABULARY[word].to_string()
            }
            Edit::Insert(at, word) => {
                tokens.insert(at % (tokens.len() + 1), VOCABULARY[word].to_string())
            }
            _ => {}
        }
    }
    tokens.join(" ")
}

#[test]
fn the_unedited_pair_is_clean() {
    let domain = parse_domain(DOMAIN).expect("domain parses");
    let problem = parse_problem(PROBLEM).expect("problem parses");
    assert_eq!(check_domain(&domain), vec![]);
    assert_eq!(check_problem(&domain, &problem), vec![]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn edited_inputs_never_panic(domain_edits in prop::collection::vec(edit(), 1..4),
                                 problem_edits in prop::collection::vec(edit(), 0..4)) {
        let domain_text = apply(DOMAIN, &domain_edits);
        let problem_text = apply(PROBLEM, &problem_edits);
        if let Ok(domain) = parse_domain(&domain_text) {
            let diagnostics = check_domain(&domain);
            // Spans stay inside the text they refer to.
            prop_assert!(diagnostics.iter().all(|d| d.span.start <= d.span.end && d.span.end <= domain_text.len()));
            if let Ok(problem) = parse_problem(&problem_text) {
                let diagnostics = check_problem(&domain, &problem);
                prop_assert!(diagnostics.iter().all(|d| d.span.end <= problem_text.len()));
            }
        }
    }
}
