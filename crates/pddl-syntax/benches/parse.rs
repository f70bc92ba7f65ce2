//! Parser throughput on a generated ~10 MB logistics-like problem with
//! many objects, init atoms and numeric init values.
//!
//! Run with `cargo bench -p pddl-syntax --bench parse`. Two figures: wall
//! clock, and the parsing thread's CPU time (robust to a loaded machine).
//! Both leave out freeing the tree.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::fmt::Write;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A problem text of at least `target_bytes` bytes.
fn big_problem(target_bytes: usize) -> String {
    let cities = 200;
    let locations_per_city = 50;
    let packages = target_bytes / 95;
    let trucks = cities * 2;
    let mut text = String::with_capacity(target_bytes + target_bytes / 4);
    text.push_str("; generated benchmark problem\n(define (problem big-logistics)\n  (:domain logistics-numeric)\n  (:objects\n");
    for c in 0..cities {
        for l in 0..locations_per_city {
            let _ = write!(text, " city{c}-loc{l}");
        }
        text.push_str(" - location\n");
    }
    for t in 0..trucks {
        let _ = write!(text, " Truck{t}");
    }
    text.push_str(" - truck\n");
    for p in 0..packages {
        let _ = write!(text, " package{p}");
        if p % 20 == 19 {
            text.push('\n');
        }
    }
    text.push_str(" - package)\n  (:init\n");
    for t in 0..trucks {
        let city = t % cities;
        let _ = writeln!(
            text,
            "    (at Truck{t} city{city}-loc0)  (= (fuel Truck{t}) {}.5)",
            100 + t
        );
    }
    for p in 0..packages {
        let city = (p * 7) % cities;
        let loc = p % locations_per_city;
        let _ = writeln!(
            text,
            "    (at package{p} city{city}-loc{loc}) (= (weight package{p}) {}) ; pkg",
            p % 97
        );
    }
    text.push_str("    (= (total-cost) 0))\n  (:goal (and\n");
    for p in (0..packages).step_by(3) {
        let _ = writeln!(text, "    (at package{p} city{}-loc1)", (p * 11) % cities);
    }
    text.push_str("  ))\n  (:metric minimize (+ (total-cost) (* 2 (fuel Truck0)))))\n");
    text
}

fn parse_big_problem(c: &mut Criterion) {
    let text = big_problem(10 * 1024 * 1024);
    let problem = pddl_syntax::parse_problem(&text).expect("the generated problem parses");
    assert!(problem.init.len() > 100_000);
    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    group.bench_function("logistics_10mb_problem", |b| {
        // The tree is dropped outside the timing: freeing it is not parsing.
        b.iter_with_large_drop(|| pddl_syntax::parse_problem(black_box(&text)))
    });
    // The machine is shared: wall-clock time also counts time spent waiting
    // for a core. This variant reports the parsing thread's own CPU time
    // (Linux `/proc/thread-self/schedstat`; wall-clock time elsewhere).
    group.bench_function("logistics_10mb_problem_cpu_time", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let start = thread_cpu_time();
                let wall = Instant::now();
                let parsed = pddl_syntax::parse_problem(black_box(&text));
                total += match (start, thread_cpu_time()) {
                    (Some(start), Some(end)) => end.saturating_sub(start),
                    _ => wall.elapsed(),
                };
                drop(parsed);
            }
            total
        })
    });
    group.finish();
}

/// CPU time of the current thread so far, where Linux reports it.
fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

criterion_group!(benches, parse_big_problem);
criterion_main!(benches);
