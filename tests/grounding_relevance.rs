//! Relevance analysis (the grounder's removal of what cannot matter for
//! the goal) keeps solvability and optimal plan costs: on the random small
//! tasks of `random_task/` (typed parameters, negative preconditions and
//! goals, conditional and quantified effects, derived predicates, numeric
//! fluents, one often undefined, and action costs), A* with the blind
//! heuristic finds the same optimal cost (or proves the task unsolvable)
//! on the task grounded with and without its irrelevant operators, and
//! the plan of the pruned task is valid for the lifted validator.

mod random_task;

use pddl_syntax::SourceFile;
use planner::ground::GroundOptions;
use planner::load::{CheckedTask, check_parsed};
use planner::search::{Engine, HeuristicKind, NoObserver, Outcome, SearchOptions};
use random_task::random_task;
use std::sync::atomic::AtomicBool;

const TASKS: u64 = 6000;

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

/// What A* found on one grounding of a task.
#[derive(Debug, PartialEq)]
enum Optimum {
    Cost(u64),
    Unsolvable,
    /// The search's tables outgrew [`SEARCH_MEMORY`]: the task is left out.
    TooLarge,
}

/// The search memory beyond which a task is left out: a few of the
/// random tasks have millions of states, which blind A* would take
/// seconds to exhaust.
const SEARCH_MEMORY: u64 = 8 << 20;

/// A*'s outcome on the task grounded with or without its irrelevant
/// operators, and how many operators the task had.
fn optimum(checked: &CheckedTask, keep_irrelevant: bool, context: &str) -> (Optimum, usize) {
    let options = GroundOptions {
        keep_irrelevant,
        ..GroundOptions::default()
    };
    let task = planner::ground::ground(&checked.domain, &checked.problem, &options)
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    let search = SearchOptions {
        engine: Engine::AStar,
        heuristic: HeuristicKind::Blind,
        memory_limit_bytes: Some(SEARCH_MEMORY),
        ..SearchOptions::optimal_default().with_threads(1)
    }
    .without_fallbacks();
    let result = planner::search::search(&task, &search, &AtomicBool::new(false), &mut NoObserver);
    let optimum = match (result.outcome, result.plan) {
        (Outcome::Solved, Some(plan)) => {
            assert!(result.proven_optimal, "{context}: not proven optimal");
            let report =
                planner::solve::validate_plan(checked, &task, &plan).expect("validator set up");
            assert!(report.is_valid(), "{context}: {report:?}");
            Optimum::Cost(plan.cost)
        }
        (Outcome::Unsolvable, None) => Optimum::Unsolvable,
        (Outcome::MemoryLimit, None) => Optimum::TooLarge,
        (outcome, _) => panic!("{context}: {outcome:?}"),
    };
    (optimum, task.operators.len())
}

#[test]
fn removing_irrelevant_operators_keeps_optimal_costs() {
    let (mut solved, mut pruned, mut too_large) = (0, 0, 0);
    for seed in 0..TASKS {
        let task = random_task(seed);
        let (domain, problem) = (task.domain, task.problem);
        let checked = checked(&domain, &problem);
        let context = format!("seed {seed}\n{domain}\n{problem}");
        let (all, all_operators) = optimum(&checked, true, &context);
        if all == Optimum::TooLarge {
            too_large += 1;
            continue;
        }
        let (relevant, relevant_operators) = optimum(&checked, false, &context);
        assert_eq!(relevant, all, "{context}");
        solved += usize::from(matches!(all, Optimum::Cost(_)));
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
    assert!(
        too_large < TASKS as usize / 100,
        "{too_large} of {TASKS} tasks too large"
    );
}
