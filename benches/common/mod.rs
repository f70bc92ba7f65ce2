//! Workloads the benchmarks share: generated blocks-world problems and
//! ground tasks built from PDDL text or from shared Puzznic levels.

// Each benchmark binary uses a part of this module.
#![allow(dead_code)]

use std::path::Path;

use pddl_ground::{GroundOptions, Task, ground};

/// The blocks-world domain (four operators, no types).
pub const BLOCKS_DOMAIN: &str = "
(define (domain blocks)
  (:requirements :strips)
  (:predicates (on ?x ?y) (ontable ?x) (clear ?x) (handempty) (holding ?x))
  (:action pick-up :parameters (?x)
    :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (not (ontable ?x)) (not (clear ?x)) (not (handempty)) (holding ?x)))
  (:action put-down :parameters (?x)
    :precondition (holding ?x)
    :effect (and (not (holding ?x)) (clear ?x) (handempty) (ontable ?x)))
  (:action stack :parameters (?x ?y)
    :precondition (and (holding ?x) (clear ?y))
    :effect (and (not (holding ?x)) (not (clear ?y)) (clear ?x) (handempty) (on ?x ?y)))
  (:action unstack :parameters (?x ?y)
    :precondition (and (on ?x ?y) (clear ?x) (handempty))
    :effect (and (holding ?x) (clear ?y) (not (clear ?x)) (not (handempty)) (not (on ?x ?y)))))";

/// A blocks-world problem with `n` blocks in pseudo-random towers (fixed seed).
pub fn blocks_problem(n: usize, seed: u64) -> String {
    let mut rng = seed;
    let mut next = move || {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (rng >> 33) as usize
    };
    let mut towers = |goal: bool| {
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, next() % (i + 1));
        }
        let mut facts = String::new();
        let mut below: Option<usize> = None;
        for &x in &order {
            match below {
                Some(y) if next() % 3 != 0 => facts.push_str(&format!(" (on b{x} b{y})")),
                _ => {
                    if let Some(y) = below.filter(|_| !goal) {
                        facts.push_str(&format!(" (clear b{y})"));
                    }
                    if !goal {
                        facts.push_str(&format!(" (ontable b{x})"));
                    }
                }
            }
            below = Some(x);
        }
        if let Some(y) = below.filter(|_| !goal) {
            facts.push_str(&format!(" (clear b{y}) (handempty)"));
        }
        facts
    };
    let init = towers(false);
    let goal = towers(true);
    let objects: Vec<String> = (0..n).map(|i| format!("b{i}")).collect();
    format!(
        "(define (problem blocks-{n}) (:domain blocks) (:objects {}) (:init {init}) (:goal (and {goal})))",
        objects.join(" ")
    )
}

/// Parses and grounds a domain and a problem given as text.
pub fn ground_text(domain: &str, problem: &str) -> Task {
    let d = pddl_syntax::parse_domain(domain).expect("domain parses");
    let p = pddl_syntax::parse_problem(problem).expect("problem parses");
    ground(&d, &p, &GroundOptions::default()).expect("grounds")
}

/// The PDDL problem of a shared Game Boy level, `None` (with a message)
/// without `../shared`.
pub fn puzznic_problem(level: &str) -> Option<String> {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/puzznic/gameboy"
    ));
    let level_path = dir.join(format!("{level}.txt"));
    if !level_path.exists() {
        eprintln!("skipped Puzznic level {level}: ../shared/puzznic is absent");
        return None;
    }
    let level_data = planner::puzznic::read_level(&level_path, None).expect("the level reads");
    Some(planner::puzznic::problem_pddl(
        &level_data,
        &format!("puzznic-{level}"),
    ))
}

/// The built-in Puzznic domain (turn-based rules).
pub const PUZZNIC_DOMAIN: &str = include_str!("../../domains/puzznic/domain.pddl");

/// The ground task of a shared Game Boy level, `None` without `../shared`.
pub fn puzznic_task(level: &str) -> Option<Task> {
    puzznic_problem(level).map(|problem| ground_text(PUZZNIC_DOMAIN, &problem))
}
