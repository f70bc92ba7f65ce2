//! Parsing and grounding time (Criterion).
//!
//! `cargo bench --bench ground`. Each workload goes from PDDL text to a
//! ground task, which is what every `plan` run pays before it searches:
//! - a generated 60-block blocks-world problem (7 200 operators);
//! - Game Boy level 127 from `../shared/puzznic/gameboy` in the built-in
//!   Puzznic domain (skipped without it), a task with conditional effects.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

mod common;
use common::{BLOCKS_DOMAIN, PUZZNIC_DOMAIN, blocks_problem, ground_text, puzznic_problem};

/// Benchmarks parsing and grounding `domain` and `problem` as `name`,
/// counting operators as the throughput.
fn bench_text(c: &mut Criterion, name: &str, domain: &str, problem: &str) {
    let operators = ground_text(domain, problem).operators.len() as u64;
    let mut group = c.benchmark_group("parse-and-ground");
    group.throughput(Throughput::Elements(operators));
    group.bench_function(name, |b| {
        b.iter(|| ground_text(black_box(domain), black_box(problem)))
    });
    group.finish();
}

fn bench_blocks(c: &mut Criterion) {
    bench_text(c, "blocks-60", BLOCKS_DOMAIN, &blocks_problem(60, 7));
}

fn bench_puzznic(c: &mut Criterion) {
    if let Some(problem) = puzznic_problem("127") {
        bench_text(c, "puzznic-127", PUZZNIC_DOMAIN, &problem);
    }
}

criterion_group!(benches, bench_blocks, bench_puzznic);
criterion_main!(benches);
