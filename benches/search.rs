//! Search engine throughput (Criterion).
//!
//! `cargo bench --bench search`. Two workloads, both built from PDDL text
//! through the parser and grounder:
//! - blind A* on the hardest 8-puzzle instance (31 moves; the whole
//!   181 440-state space is expanded): target ≥ 1 000 000 expansions/s;
//! - h_FF on a 20-block blocks-world task: evaluations on the states of a
//!   greedy search, target ≥ 50 000 evaluations/s, and the default lazy
//!   greedy search end to end;
//! - A* with h_max on Game Boy level 040 from `../shared/puzznic/gameboy`
//!   (skipped without it), on one thread and with parallel evaluation on
//!   two (same expansions);
//! - `plan puzznic solve --optimal`'s A* with pattern databases on Game Boy
//!   level 059, building and evaluating on one thread and on two (same
//!   expansions).

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use pddl_ground::Task;
use pddl_search::heuristics::{CostType, create};
use pddl_search::successor::StateSpace;
use pddl_search::{Engine, HeuristicKind, NoObserver, SearchOptions, search};

mod common;
use common::{BLOCKS_DOMAIN, blocks_problem, ground_text, puzznic_task, walk_states};

const EIGHT_PUZZLE_DOMAIN: &str = "
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
fn eight_puzzle_problem(tiles: [[u32; 3]; 3]) -> String {
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

/// Benchmarks whole searches of `task` under `options` as `name`.
fn bench_search(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    task: &Task,
    options: &SearchOptions,
) {
    group.bench_function(name, |b| {
        b.iter(|| {
            search(
                black_box(task),
                options,
                &AtomicBool::new(false),
                &mut NoObserver,
            )
        })
    });
}

fn bench_blind_astar(c: &mut Criterion) {
    let task = ground_text(
        EIGHT_PUZZLE_DOMAIN,
        &eight_puzzle_problem([[8, 6, 7], [2, 5, 4], [3, 0, 1]]),
    );
    let options = SearchOptions {
        heuristic: HeuristicKind::Blind,
        ..SearchOptions::optimal_default()
    };
    let probe = search(&task, &options, &AtomicBool::new(false), &mut NoObserver);
    assert_eq!(probe.plan.as_ref().map(|p| p.cost), Some(31));
    let mut group = c.benchmark_group("blind-astar-8puzzle");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Elements(probe.statistics.expanded));
    bench_search(&mut group, "expansions", &task, &options);
    group.finish();
}

fn bench_hff_blocks(c: &mut Criterion) {
    let task = ground_text(BLOCKS_DOMAIN, &blocks_problem(20, 2));
    // States to evaluate: those along random-ish walks from the initial state.
    let mut space = StateSpace::new(&task);
    let states = walk_states(&mut space, 200);
    let mut hff = create(HeuristicKind::HFF, &task, CostType::Unit);
    let mut fluents = Vec::new();
    let mut group = c.benchmark_group("hff-blocks20");
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function("evaluations", |b| {
        b.iter(|| {
            let mut preferred = Vec::new();
            let mut sum = 0u64;
            for s in &states {
                preferred.clear();
                sum += hff
                    .evaluate(space.view(s, &mut fluents), Some(&mut preferred))
                    .unwrap_or(0);
            }
            sum
        })
    });
    let options = SearchOptions {
        engine: Engine::LazyGreedy,
        ..SearchOptions::satisficing_default()
    };
    group.throughput(Throughput::Elements(1));
    group.sample_size(10);
    bench_search(&mut group, "lazy-greedy-solve", &task, &options);
    group.finish();
}

/// A* on a Puzznic level on one thread and on two: the same search, of
/// cost `optimum`, measured both ways.
fn bench_puzznic(
    c: &mut Criterion,
    group: &str,
    level: &str,
    options: SearchOptions,
    optimum: u64,
) {
    let Some(task) = puzznic_task(level) else {
        return;
    };
    let mut group = c.benchmark_group(group);
    group.sample_size(10);
    let mut expanded = Vec::new();
    for threads in [1, 2] {
        let options = options.clone().with_threads(threads);
        let probe = search(&task, &options, &AtomicBool::new(false), &mut NoObserver);
        assert_eq!(probe.plan.as_ref().map(|p| p.cost), Some(optimum));
        expanded.push(probe.statistics.expanded);
        bench_search(&mut group, &format!("threads-{threads}"), &task, &options);
    }
    assert_eq!(expanded[0], expanded[1], "the same search on two threads");
    group.finish();
}

fn bench_puzznic_hmax(c: &mut Criterion) {
    let options = SearchOptions {
        heuristic: HeuristicKind::HMax,
        ..SearchOptions::optimal_default()
    };
    bench_puzznic(c, "astar-hmax-puzznic040", "040", options, 10);
}

fn bench_puzznic_pdb(c: &mut Criterion) {
    let options = planner::puzznic::optimal_options();
    assert_eq!(options.heuristic, HeuristicKind::Pdb);
    bench_puzznic(c, "astar-pdb-puzznic059", "059", options, 23);
}

criterion_group!(
    benches,
    bench_blind_astar,
    bench_hff_blocks,
    bench_puzznic_hmax,
    bench_puzznic_pdb
);
criterion_main!(benches);
