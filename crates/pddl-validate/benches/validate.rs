//! Validating a 10 000-step plan on a 1 000-object problem.
//!
//! Run with `cargo bench -p pddl-validate --bench validate`.

use criterion::{Criterion, criterion_group, criterion_main};
use pddl_validate::{Validator, parse_plan};
use std::fmt::Write;
use std::hint::black_box;

const NODES: usize = 1000;
const STEPS: usize = 10_000;

/// A ring of nodes walked by one agent; every move checks links, a
/// negative precondition, a conditional effect and a cost.
const DOMAIN: &str = "(define (domain ring) (:requirements :adl :typing :action-costs)
  (:types node)
  (:predicates (at ?n - node) (link ?a ?b - node) (blocked ?n - node) (visited ?n - node) (marked ?n - node))
  (:functions (total-cost) - number)
  (:action move :parameters (?from ?to - node)
    :precondition (and (at ?from) (link ?from ?to) (not (blocked ?to)))
    :effect (and (not (at ?from)) (at ?to) (visited ?to)
                 (when (visited ?to) (marked ?to))
                 (increase (total-cost) 1))))";

fn problem() -> String {
    let mut text = String::from("(define (problem ring-1000) (:domain ring) (:objects");
    for i in 0..NODES {
        let _ = write!(text, " n{i}");
    }
    text.push_str(" - node) (:init (at n0) (= (total-cost) 0)");
    for i in 0..NODES {
        let _ = write!(text, " (link n{i} n{})", (i + 1) % NODES);
    }
    text.push_str(") (:goal (forall (?n - node) (visited ?n))) (:metric minimize (total-cost)))");
    text
}

fn plan() -> String {
    let mut text = String::new();
    for step in 0..STEPS {
        let _ = writeln!(text, "(move n{} n{})", step % NODES, (step + 1) % NODES);
    }
    text
}

fn bench(c: &mut Criterion) {
    let domain = pddl_syntax::parse_domain(DOMAIN).expect("bench domain parses");
    let problem = pddl_syntax::parse_problem(&problem()).expect("bench problem parses");
    let validator = Validator::new(&domain, &problem).expect("bench task is supported");
    let plan_text = plan();
    let plan = parse_plan(&plan_text).expect("bench plan parses");
    let report = validator.validate(&plan);
    assert!(report.is_valid(), "{}", report.to_text(false));
    assert_eq!(report.metric.map(|m| m.value), Some(STEPS as f64));

    let mut group = c.benchmark_group("validate");
    group.sample_size(10);
    group.bench_function("10000 steps, 1000 objects", |b| {
        b.iter(|| black_box(validator.validate(black_box(&plan))))
    });
    group.bench_function("parse 10000-step plan", |b| {
        b.iter(|| black_box(parse_plan(black_box(&plan_text))))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
