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
use common::{
    BLOCKS_DOMAIN, EIGHT_PUZZLE_DOMAIN, blocks_problem, eight_puzzle_problem, ground_text,
    puzznic_task, walk_states,
};

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
