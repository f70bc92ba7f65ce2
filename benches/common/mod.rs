//! Workloads the benchmarks share: generated blocks-world and 8-puzzle problems and
//! ground tasks built from PDDL text or from shared Puzznic levels.

// Each benchmark binary uses a part of this module.
#![allow(dead_code)]

use pddl_ground::{GroundOptions, Task, ground};
use pddl_search::successor::StateSpace;
use shared_data::gameboy_levels;

/// The blocks-world domain (four operators, no types), as shipped.
pub const BLOCKS_DOMAIN: &str = include_str!("../../domains/blocksworld/domain.pddl");

/// A blocks-world problem with `n` blocks in random start and goal towers
/// (`plan generate blocksworld --blocks N --seed SEED`).
pub fn blocks_problem(n: usize, seed: u64) -> String {
    planner::generate::blocksworld::generate(n, false, seed).expect("a valid number of blocks")
}

/// Parses and grounds a domain and a problem given as text.
pub fn ground_text(domain: &str, problem: &str) -> Task {
    let d = pddl_syntax::parse_domain(domain).expect("domain parses");
    let p = pddl_syntax::parse_problem(problem).expect("problem parses");
    ground(&d, &p, &GroundOptions::default()).expect("grounds")
}

/// The STRIPS sliding-tile domain (the 8-puzzle).
pub const EIGHT_PUZZLE_DOMAIN: &str = "
(define (domain strips-sliding-tile)
  (:requirements :strips)
  (:predicates (tile ?x) (position ?x) (at ?t ?x ?y) (blank ?x ?y) (inc ?p ?pp) (dec ?p ?pp))
  (:action move-up :parameters (?t ?px ?py ?by)
    :precondition (and (tile ?t) (position ?px) (position ?py) (position ?by) (dec ?by ?py) (blank ?px ?by) (at ?t ?px ?py))
    :effect (and (not (blank ?px ?by)) (not (at ?t ?px ?py)) (blank ?px ?py) (at ?t ?px ?by)))
  (:action move-down :parameters (?t ?px ?py ?by)
    :precondition (and (tile ?t) (position ?px) (position ?py) (position ?by) (inc ?by ?py) (blank ?px ?by) (at ?t ?px ?py))
    :effect (and (not (blank ?px ?by)) (not (at ?t ?px ?py)) (blank ?px ?py) (at ?t ?px ?by)))
  (:action move-left :parameters (?t ?px ?py ?bx)
    :precondition (and (tile ?t) (position ?px) (position ?py) (position ?bx) (dec ?bx ?px) (blank ?bx ?py) (at ?t ?px ?py))
    :effect (and (not (blank ?bx ?py)) (not (at ?t ?px ?py)) (blank ?px ?py) (at ?t ?bx ?py)))
  (:action move-right :parameters (?t ?px ?py ?bx)
    :precondition (and (tile ?t) (position ?px) (position ?py) (position ?bx) (inc ?bx ?px) (blank ?bx ?py) (at ?t ?px ?py))
    :effect (and (not (blank ?bx ?py)) (not (at ?t ?px ?py)) (blank ?px ?py) (at ?t ?bx ?py))))";

/// The 8-puzzle problem with `tiles[row][col]` (0 = blank), goal 1..8 then blank.
pub fn eight_puzzle_problem(tiles: [[u32; 3]; 3]) -> String {
    let mut init = String::from(
        "(inc p1 p2) (inc p2 p3) (dec p2 p1) (dec p3 p2) (position p1) (position p2) (position p3)",
    );
    for t in 1..=8 {
        init.push_str(&format!(" (tile t{t})"));
    }
    for (r, row) in tiles.iter().enumerate() {
        for (c, &t) in row.iter().enumerate() {
            let (x, y) = (c + 1, r + 1);
            if t == 0 {
                init.push_str(&format!(" (blank p{x} p{y})"));
            } else {
                init.push_str(&format!(" (at t{t} p{x} p{y})"));
            }
        }
    }
    let mut goal = String::new();
    for t in 1..=8usize {
        let (x, y) = ((t - 1) % 3 + 1, (t - 1) / 3 + 1);
        goal.push_str(&format!(" (at t{t} p{x} p{y})"));
    }
    format!(
        "(define (problem hard8) (:domain strips-sliding-tile)
          (:objects t1 t2 t3 t4 t5 t6 t7 t8 p1 p2 p3) (:init {init}) (:goal (and {goal})))"
    )
}

/// The PDDL problem of a shared Game Boy level, `None` (with a message)
/// without `../shared`.
pub fn puzznic_problem(level: &str) -> Option<String> {
    let level_path = gameboy_levels()?.join(format!("{level}.txt"));
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

/// The states along a pseudo-random walk of up to `steps` steps from the
/// initial state (step `i` takes applicable operator `i · 7919` modulo
/// their number): the states the h_FF throughput measurements evaluate.
pub fn walk_states(space: &mut StateSpace<'_>, steps: usize) -> Vec<Vec<u64>> {
    let mut state = space.initial_state();
    let mut states = vec![state.clone()];
    let (mut ops, mut next) = (Vec::new(), Vec::new());
    for i in 0..steps {
        space.applicable(&state, &mut ops);
        if ops.is_empty() {
            break;
        }
        let op = ops[(i * 7919) % ops.len()];
        if space.apply(&state, op, &mut next) {
            std::mem::swap(&mut state, &mut next);
            states.push(state.clone());
        }
    }
    states
}
