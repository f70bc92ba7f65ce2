//! Throughput checks of the search on the benchmarks' workloads (the
//! hardest 8-puzzle, blocks-world from `plan generate`). Slow in
//! debug builds, so ignored by default; run with
//! `cargo test --release --test search_speed -- --ignored --nocapture`.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

// The benchmarks' workloads, shared with these measurements.
#[path = "../benches/common/mod.rs"]
mod common;

use pddl_ground::Task;
use pddl_search::{Engine, HeuristicKind, NoObserver, Outcome, SearchOptions, search, simulate};

/// The 8-puzzle with `tiles[row][col]` (0 = blank), goal 1..8 then blank.
fn eight_puzzle(tiles: [[u32; 3]; 3]) -> Task {
    common::ground_text(
        common::EIGHT_PUZZLE_DOMAIN,
        &common::eight_puzzle_problem(tiles),
    )
}

/// A blocks-world task with `n` blocks in random start and goal towers
/// (`plan generate blocksworld --blocks N --seed SEED`, shipped domain).
fn blocks(n: usize, seed: u64) -> Task {
    common::ground_text(common::BLOCKS_DOMAIN, &common::blocks_problem(n, seed))
}

fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn run(task: &Task, engine: Engine, heuristic: HeuristicKind) -> pddl_search::SearchResult {
    run_with(task, engine, heuristic, true)
}

fn run_with(
    task: &Task,
    engine: Engine,
    heuristic: HeuristicKind,
    preferred: bool,
) -> pddl_search::SearchResult {
    let mut o = SearchOptions::satisficing_default();
    o.engine = engine;
    o.heuristic = heuristic;
    o.preferred_operators = preferred;
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let r = search(task, &o, &AtomicBool::new(false), &mut NoObserver);
    let wall = start.elapsed().as_secs_f64();
    // The machine is shared: rates use the process's CPU time when known.
    let secs = cpu_seconds().map_or(wall, |end| (end - cpu_start.unwrap_or(0.0)).max(1e-3));
    let s = &r.statistics;
    println!(
        "{engine} {heuristic} (preferred: {preferred}): {:?} cost {:?} in {wall:.3}s wall, {secs:.3}s CPU: {} expanded ({:.0}/s), {} evaluated ({:.0}/s), {} states",
        r.outcome,
        r.plan.as_ref().map(|p| p.cost),
        s.expanded,
        s.expanded as f64 / secs,
        s.evaluated,
        s.evaluated as f64 / secs,
        s.states
    );
    if let Some(p) = &r.plan {
        assert!(simulate(task, &p.operators).expect("replays").goal_reached);
    }
    r
}

#[test]
#[ignore = "throughput measurement; run in release"]
fn blind_astar_eight_puzzle() {
    // One of the two hardest 8-puzzle instances: 31 moves.
    let t = eight_puzzle([[8, 6, 7], [2, 5, 4], [3, 0, 1]]);
    let r = run(&t, Engine::AStar, HeuristicKind::Blind);
    assert_eq!(r.plan.map(|p| p.cost), Some(31));
    let r = run(&t, Engine::BreadthFirst, HeuristicKind::Blind);
    assert_eq!(r.plan.map(|p| p.cost), Some(31));
    let r = run(&t, Engine::AStar, HeuristicKind::LmCut);
    assert_eq!(r.plan.map(|p| p.cost), Some(31));
}

#[test]
#[ignore = "throughput measurement; run in release"]
fn hff_greedy_blocks() {
    for (n, seed) in [(20, 2), (20, 1), (30, 3)] {
        let t = blocks(n, seed);
        let r = run(&t, Engine::LazyGreedy, HeuristicKind::HFF);
        assert_eq!(r.outcome, Outcome::Solved);
        let r = run(&t, Engine::EagerGreedy, HeuristicKind::HFF);
        assert_eq!(r.outcome, Outcome::Solved);
    }
}

/// h_FF evaluations per CPU second on the states of a pseudo-random walk
/// (the root `benches/search.rs` workload, without Criterion, so that it
/// can run under callgrind). Target: ≥ 50 000/s wall clock.
#[test]
#[ignore = "throughput measurement; run in release"]
fn hff_evaluation_rate_blocks20() {
    use pddl_search::heuristics::{CostType, create};
    use pddl_search::successor::StateSpace;
    let t = blocks(20, 2);
    let mut space = StateSpace::new(&t);
    let states = common::walk_states(&mut space, 200);
    let mut hff = create(HeuristicKind::HFF, &t, CostType::Unit);
    let (mut fluents, mut preferred) = (Vec::new(), Vec::new());
    let rounds: usize = std::env::var("HFF_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(500);
    let (start, cpu_start) = (Instant::now(), cpu_seconds());
    let mut sum = 0u64;
    for _ in 0..rounds {
        for s in &states {
            preferred.clear();
            sum += hff
                .evaluate(space.view(s, &mut fluents), Some(&mut preferred))
                .expect("blocks world has no dead ends");
        }
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds().map_or(wall, |end| (end - cpu_start.unwrap_or(0.0)).max(1e-3));
    let evaluations = (rounds * states.len()) as f64;
    println!(
        "h_FF blocks-20: {} evaluations, sum of h {sum}: {:.0}/s CPU, {:.0}/s wall",
        evaluations,
        evaluations / cpu,
        evaluations / wall
    );
}
