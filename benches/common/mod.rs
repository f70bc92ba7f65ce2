//! Workloads the benchmarks share: generated blocks-world problems and
//! ground tasks built from PDDL text or from shared Puzznic levels.

// Each benchmark binary uses a part of this module.
#![allow(dead_code)]

use std::path::Path;

use pddl_ground::{GroundOptions, Task, ground};
use pddl_search::successor::StateSpace;

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
