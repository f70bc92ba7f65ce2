//! Throughput checks of the search on generated tasks: the 8-puzzle built
//! as a ground task directly, blocks-world from `plan generate`. Slow in
//! debug builds, so ignored by default; run with
//! `cargo test --release --test search_speed -- --ignored --nocapture`.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

// The benchmarks' workloads, shared with these measurements.
#[path = "../benches/common/mod.rs"]
mod common;

use pddl_ground::Task;
use pddl_ground::task::{Conjunction, CostModel, FactId, GroundAtom, Operator};
use pddl_search::{Engine, HeuristicKind, NoObserver, Outcome, SearchOptions, search, simulate};

fn atom(p: &str, args: &[String]) -> GroundAtom {
    GroundAtom {
        predicate: p.into(),
        args: args.iter().map(|a| a.as_str().into()).collect(),
    }
}

fn op(
    name: &str,
    args: &[String],
    pre: Vec<FactId>,
    add: Vec<FactId>,
    del: Vec<FactId>,
) -> Operator {
    Operator {
        name: name.into(),
        args: args.iter().map(|a| a.as_str().into()).collect(),
        precondition: Conjunction {
            pos: pre,
            ..Default::default()
        },
        add,
        del,
        numeric: Vec::new(),
        conditional: Vec::new(),
        cost: 1,
    }
}

fn task(
    facts: Vec<GroundAtom>,
    operators: Vec<Operator>,
    init: Vec<FactId>,
    goal: Vec<FactId>,
) -> Task {
    Task {
        domain_name: "generated".into(),
        problem_name: "generated".into(),
        facts,
        fluents: Vec::new(),
        operators,
        axioms: Vec::new(),
        init_facts: init,
        init_fluents: Vec::new(),
        goal: Conjunction {
            pos: goal,
            ..Default::default()
        },
        metric: None,
        cost_model: CostModel::Unit,
        interchangeable_objects: Vec::new(),
    }
}

/// The 8-puzzle; `tiles[p]` is the tile at position p (0 = blank).
fn eight_puzzle(start: [u32; 9], goal: [u32; 9]) -> Task {
    let at = |t: u32, p: u32| ((t - 1) * 9 + p) as FactId;
    let blank = |p: u32| (72 + p) as FactId;
    let mut facts = Vec::new();
    for t in 1..=8 {
        for p in 0..9 {
            facts.push(atom("at", &[format!("t{t}"), format!("p{p}")]));
        }
    }
    for p in 0..9 {
        facts.push(atom("blank", &[format!("p{p}")]));
    }
    let mut ops = Vec::new();
    for t in 1..=8u32 {
        for from in 0..9u32 {
            let (r, c) = (from / 3, from % 3);
            let mut nbrs = Vec::new();
            if r > 0 {
                nbrs.push(from - 3)
            }
            if r < 2 {
                nbrs.push(from + 3)
            }
            if c > 0 {
                nbrs.push(from - 1)
            }
            if c < 2 {
                nbrs.push(from + 1)
            }
            for to in nbrs {
                let args = [format!("t{t}"), format!("p{from}"), format!("p{to}")];
                ops.push(op(
                    "move",
                    &args,
                    vec![at(t, from), blank(to)],
                    vec![at(t, to), blank(from)],
                    vec![at(t, from), blank(to)],
                ));
            }
        }
    }
    let facts_of = |s: [u32; 9]| {
        let mut v: Vec<FactId> = (0..9u32)
            .map(|p| {
                if s[p as usize] == 0 {
                    blank(p)
                } else {
                    at(s[p as usize], p)
                }
            })
            .collect();
        v.sort_unstable();
        v
    };
    let goal = facts_of(goal).into_iter().filter(|&f| f < 72).collect();
    task(facts, ops, facts_of(start), goal)
}

/// Four-operator blocks world with `n` blocks, random towers from a fixed seed.
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
    let t = eight_puzzle([8, 6, 7, 2, 5, 4, 3, 0, 1], [1, 2, 3, 4, 5, 6, 7, 8, 0]);
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
