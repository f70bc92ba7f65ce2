//! Grounding the shared IPC benchmark set (`../shared/benchmarks`).
//! Skipped, with a message, when the set is absent.

use pddl_ground::task::{CostModel, Task};
use pddl_ground::{GroundOptions, ground};
use shared_data::benchmarks;
use std::path::Path;

fn ground_files(dir: &Path, domain: &str, problem: &str) -> Result<Task, String> {
    let read = |p: &str| std::fs::read_to_string(dir.join(p)).map_err(|e| format!("{p}: {e}"));
    let domain_text = read(domain)?;
    let problem_text = read(problem)?;
    let parsed_domain = pddl_syntax::parse_domain(&domain_text)
        .map_err(|d| format!("{domain}: {:?}", d.first()))?;
    let parsed_problem = pddl_syntax::parse_problem(&problem_text)
        .map_err(|d| format!("{problem}: {:?}", d.first()))?;
    ground(&parsed_domain, &parsed_problem, &GroundOptions::default())
        .map_err(|e| format!("{problem}: {e}"))
}

/// Counts checked by hand:
/// - blocks 4-0 (4 blocks, 4-operator blocksworld): pick-up 4, put-down 4,
///   stack 16, unstack 16 = 40 operators (stack x x is relaxed-reachable:
///   holding x and clear x are both reachable); facts: on 16, ontable 4,
///   clear 4, holding 4, handempty = 29.
/// - gripper 01 (4 balls, 2 rooms, 2 grippers): move 2×2 = 4 (the domain
///   allows from = to), pick 4·2·2 = 16, drop 16 = 36; facts: at-robby 2,
///   at 8, free 2, carry 8 = 20.
/// - miconic-fulladl f1-0 (1 passenger, 2 floors): stop 2, up 1, down 1 = 4.
#[test]
fn hand_counted_benchmark_tasks() {
    let Some(dir) = benchmarks() else { return };
    for (domain, problem, facts, operators) in [
        (
            "blocks/domain.pddl",
            "blocks/probBLOCKS-4-0.pddl",
            Some(29),
            40,
        ),
        ("gripper/domain.pddl", "gripper/prob01.pddl", Some(20), 36),
        (
            "miconic-fulladl/domain.pddl",
            "miconic-fulladl/f1-0.pddl",
            None,
            4,
        ),
    ] {
        let task = ground_files(&dir, domain, problem).expect("grounds");
        assert_eq!(task.operators.len(), operators, "{problem}");
        if let Some(facts) = facts {
            assert_eq!(task.facts.len(), facts, "{problem}");
        }
        assert_eq!(task.cost_model, CostModel::Unit, "{problem}");
    }
}

/// Every task of the set grounds to a task with operators and a goal
/// (about 6 s of CPU in the test profile); only a goal that can never
/// hold leaves no operator (nothing is relevant to it). A task the semantic checks
/// reject is skipped with a message: grounding only promises to handle
/// checked input.
#[test]
fn every_benchmark_task_grounds() {
    let Some(dir) = benchmarks() else { return };
    let mut failures = Vec::new();
    let all = shared_data::tasks(&dir);
    for shared_data::BenchmarkTask {
        domain, problem, ..
    } in &all
    {
        match ground_files(&dir, domain, problem) {
            Ok(task) => {
                assert!(
                    !task.operators.is_empty() || !task.impossible_goal.is_empty(),
                    "{problem}: no operators"
                );
                assert!(!task.goal.is_empty(), "{problem}: empty goal");
            }
            Err(e) if !passes_checks(&dir, domain, problem) => {
                eprintln!("skipping (fails the checks): {e}")
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

fn passes_checks(dir: &Path, domain: &str, problem: &str) -> bool {
    let read = |p: &str| std::fs::read_to_string(dir.join(p)).unwrap_or_default();
    let (Ok(d), Ok(p)) = (
        pddl_syntax::parse_domain(&read(domain)),
        pddl_syntax::parse_problem(&read(problem)),
    ) else {
        return false;
    };
    let diagnostics = pddl_syntax::check::check_domain(&d)
        .into_iter()
        .chain(pddl_syntax::check::check_problem(&d, &p));
    !diagnostics.into_iter().any(|x| x.is_error())
}

/// Derived predicates (philosophers) become stratified axioms; numeric
/// domains keep their fluents.
#[test]
fn derived_and_numeric_benchmarks() {
    let Some(dir) = benchmarks() else { return };
    let task = ground_files(
        &dir,
        "philosophers/domain.pddl",
        "philosophers/p01-phil2.pddl",
    )
    .expect("grounds");
    assert!(!task.axioms.is_empty());
    // blocked depends positively on blocked-trans: one stratum.
    assert!(task.axioms.iter().all(|a| a.stratum == 0));
    let task = ground_files(
        &dir,
        "rovers-numeric-automatic/domain.pddl",
        "rovers-numeric-automatic/instance-1.pddl",
    )
    .expect("grounds");
    assert!(!task.fluents.is_empty());
    assert_eq!(
        task.cost_model,
        CostModel::FromMetric {
            fluents: vec!["(recharges)".into()],
            offset: 0.0,
            scale: 1,
        }
    );
}
