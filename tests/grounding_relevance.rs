//! Relevance analysis (the grounder's removal of what cannot matter for
//! the goal) keeps solvability and optimal plan costs: on random small
//! tasks with negative preconditions and goals, conditional effects,
//! derived predicates, numeric fluents (one bounded, one often undefined)
//! and action costs, A* with
//! the blind heuristic finds the same optimal cost (or proves the task
//! unsolvable) on the task grounded with and without its irrelevant
//! operators, and the plan of the pruned task is valid for the lifted
//! validator.

use pddl_syntax::SourceFile;
use planner::generate::rng::Rng;
use planner::ground::GroundOptions;
use planner::load::{CheckedTask, check_parsed};
use planner::search::{Engine, HeuristicKind, NoObserver, Outcome, SearchOptions};
use std::fmt::Write;
use std::sync::atomic::AtomicBool;

const TASKS: u64 = 5000;
const FACTS: usize = 6;
/// The fluent `(level)` stays within 0..=LEVELS: every change is guarded.
const LEVELS: u64 = 3;

/// A random literal over the propositions `p0`..`p5`, or the derived `d`.
fn literal(rng: &mut Rng, out: &mut String) {
    let atom = if rng.below(8) == 0 {
        "(d)".to_string()
    } else {
        format!("(p{})", rng.index(FACTS))
    };
    if rng.below(3) == 0 {
        write!(out, " (not {atom})").unwrap();
    } else {
        write!(out, " {atom}").unwrap();
    }
}

fn literals(rng: &mut Rng, most: u64, out: &mut String) {
    for _ in 0..rng.below(most + 1) {
        literal(rng, out);
    }
}

/// Adds and deletes of basic propositions (never the derived one).
fn changes(rng: &mut Rng, most: u64, out: &mut String) {
    for _ in 0..rng.in_range(1, most) {
        let atom = format!("(p{})", rng.index(FACTS));
        if rng.below(2) == 0 {
            write!(out, " (not {atom})").unwrap();
        } else {
            write!(out, " {atom}").unwrap();
        }
    }
}

/// A random domain and problem as PDDL text.
fn random_task(seed: u64) -> (String, String) {
    let mut rng = Rng::new(seed);
    let predicates: String = (0..FACTS).map(|i| format!(" (p{i})")).collect();
    let mut domain = format!(
        "(define (domain random-{seed})
  (:requirements :adl :derived-predicates :numeric-fluents :action-costs)
  (:predicates{predicates} (d))
  (:functions (level) (spare) (total-cost))
  (:derived (d) (and"
    );
    // The derived predicate's body never names itself.
    for _ in 0..rng.in_range(1, 2) {
        let atom = format!("(p{})", rng.index(FACTS));
        if rng.below(2) == 0 {
            write!(domain, " (not {atom})").unwrap();
        } else {
            write!(domain, " {atom}").unwrap();
        }
    }
    domain.push_str("))\n");
    for a in 0..rng.in_range(3, 7) {
        let mut pre = String::new();
        literals(&mut rng, 2, &mut pre);
        let mut eff = String::new();
        changes(&mut rng, 2, &mut eff);
        match rng.below(4) {
            0 => {
                pre.push_str(&format!(" (< (level) {LEVELS})"));
                eff.push_str(" (increase (level) 1)");
            }
            1 => {
                pre.push_str(" (> (level) 0)");
                eff.push_str(" (decrease (level) 1)");
            }
            _ => {}
        }
        if rng.below(3) == 0 {
            pre.push_str(&format!(" (>= (level) {})", rng.below(LEVELS + 1)));
        }
        // `(spare)`, often undefined at first, is read by no condition:
        // only by an effect, which cannot apply while it is undefined.
        // (`increase` reads the fluent it changes.)
        match rng.below(8) {
            0 => eff.push_str(" (assign (spare) 1)"),
            1 => eff.push_str(" (assign (spare) (- 3 (spare)))"),
            2 => eff.push_str(" (increase (spare) 0)"),
            _ => {}
        }
        // Conditional effects make their conditions' facts needed both
        // ways; few of them leave facts needed one way only, which is
        // where the analysis must tell effects that undo a need apart.
        for _ in 0..rng.below(4).saturating_sub(2) {
            let mut condition = String::new();
            literals(&mut rng, 2, &mut condition);
            let mut effect = String::new();
            changes(&mut rng, 2, &mut effect);
            write!(eff, " (when (and{condition}) (and{effect}))").unwrap();
        }
        let cost = rng.below(4);
        writeln!(
            domain,
            "  (:action a{a} :parameters ()
    :precondition (and{pre})
    :effect (and{eff} (increase (total-cost) {cost})))"
        )
        .unwrap();
    }
    domain.push(')');
    let init: String = (0..FACTS)
        .filter(|_| rng.below(2) == 0)
        .map(|i| format!(" (p{i})"))
        .collect();
    let mut goal = String::new();
    for _ in 0..rng.in_range(1, 3) {
        literal(&mut rng, &mut goal);
    }
    if rng.below(4) == 0 {
        goal.push_str(&format!(" (>= (level) {})", rng.in_range(1, LEVELS)));
    }
    let spare = if rng.below(2) == 0 {
        " (= (spare) 1)"
    } else {
        ""
    };
    let problem = format!(
        "(define (problem random-{seed}-p) (:domain random-{seed})
  (:init{init} (= (level) {}){spare} (= (total-cost) 0))
  (:goal (and{goal}))
  (:metric minimize (total-cost)))",
        rng.below(LEVELS + 1)
    );
    (domain, problem)
}

fn checked(domain_text: &str, problem_text: &str) -> CheckedTask {
    let domain_source = SourceFile::new("random-domain.pddl", domain_text);
    let problem_source = SourceFile::new("random-problem.pddl", problem_text);
    let domain = pddl_syntax::parse_domain(domain_text).expect("domain parses");
    let problem = pddl_syntax::parse_problem(problem_text).expect("problem parses");
    let warnings = check_parsed(&domain_source, &domain, &problem_source, &problem)
        .unwrap_or_else(|e| panic!("{e}\n{domain_text}\n{problem_text}"));
    CheckedTask {
        domain_source,
        problem_source,
        domain,
        problem,
        warnings,
    }
}

/// A*'s outcome on the task grounded with or without its irrelevant
/// operators: the optimal cost, or `None` where it proves no plan; and
/// how many operators the task had.
fn optimum(checked: &CheckedTask, keep_irrelevant: bool, context: &str) -> (Option<u64>, usize) {
    let options = GroundOptions {
        keep_irrelevant,
        ..GroundOptions::default()
    };
    let task = planner::ground::ground(&checked.domain, &checked.problem, &options)
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    let search = SearchOptions {
        engine: Engine::AStar,
        heuristic: HeuristicKind::Blind,
        ..SearchOptions::optimal_default().with_threads(1)
    }
    .without_fallbacks();
    let result = planner::search::search(&task, &search, &AtomicBool::new(false), &mut NoObserver);
    match (result.outcome, result.plan) {
        (Outcome::Solved, Some(plan)) => {
            assert!(result.proven_optimal, "{context}: not proven optimal");
            let report =
                planner::solve::validate_plan(checked, &task, &plan).expect("validator set up");
            assert!(report.is_valid(), "{context}: {report:?}");
            (Some(plan.cost), task.operators.len())
        }
        (Outcome::Unsolvable, None) => (None, task.operators.len()),
        (outcome, _) => panic!("{context}: {outcome:?}"),
    }
}

#[test]
fn removing_irrelevant_operators_keeps_optimal_costs() {
    let (mut solved, mut pruned) = (0, 0);
    for seed in 0..TASKS {
        let (domain, problem) = random_task(seed);
        let checked = checked(&domain, &problem);
        let context = format!("seed {seed}\n{domain}\n{problem}");
        let (all, all_operators) = optimum(&checked, true, &context);
        let (relevant, relevant_operators) = optimum(&checked, false, &context);
        assert_eq!(relevant, all, "{context}");
        solved += usize::from(all.is_some());
        pruned += usize::from(relevant_operators < all_operators);
    }
    // The test means something only if both kinds of outcome and actual
    // removals are common.
    assert!(
        solved > TASKS as usize / 5 && solved < TASKS as usize * 4 / 5,
        "{solved} of {TASKS} solvable"
    );
    assert!(
        pruned > TASKS as usize / 5,
        "operators removed in only {pruned} of {TASKS} tasks"
    );
}
