//! Pattern databases: variables found, values computed by hand, and
//! admissibility against the optimal cost on random tasks.

use std::sync::atomic::AtomicBool;

use super::PatternDatabases;
use crate::heuristics::tests::h_init;
use crate::heuristics::{BuildResources, CostType, Heuristic};
use crate::options::{Engine, HeuristicKind};
use crate::successor::StateSpace;
use crate::testing::{Lcg, TaskBuilder, name_fact, optimal_cost, random_task, ring};
use crate::variables::Variables;
use crate::{NoObserver, SearchOptions, search};

#[test]
fn the_positions_of_one_object_are_one_variable() {
    let task = ring(6);
    let v = Variables::new(&task);
    // The robot's cells: every move deletes the cell it requires.
    let robot = v.var(0).expect("a variable");
    assert_eq!(v.facts[robot as usize], (0..6).collect::<Vec<_>>());
    assert_eq!(v.domain_size(robot), 7);
    // The ball's cells are not: `drop` adds one without deleting another
    // (the ball was in the hand, another predicate); each is a variable.
    assert_ne!(v.var(6), v.var(7));
    assert_eq!(v.facts[v.var(6).unwrap() as usize], vec![6]);
    // Cells shared by robot and ball are no group either: a move adds the
    // robot to a cell the ball may hold.
    assert_eq!(v.facts.len(), 1 + 6 + 1);
}

#[test]
fn an_effect_that_adds_without_deleting_breaks_the_group() {
    let mut task = ring(4);
    // A teleport to c2 from anywhere, deleting nothing.
    let mut b = TaskBuilder::new(0);
    b.op("teleport", &[], &[2], &[]);
    task.operators.extend(b.build(&[], &[]).operators);
    let v = Variables::new(&task);
    assert_ne!(v.var(0), v.var(1));
}

#[test]
fn conditional_effects_keep_a_group_only_when_they_cannot_add_two() {
    // (at robot c0..c3) = 0..4 and a flag 4. `slide`: from c0 to c1 when
    // the flag holds, from c1 to c2 (each effect deletes the cell it
    // requires, and the two require different cells): a group.
    let build = |second: (&[u32], &[u32], &[u32])| {
        let mut b = TaskBuilder::new(5);
        let slide = b.op("slide", &[], &[], &[]);
        b.cond(slide, &[0, 4], &[1], &[0]);
        b.cond(slide, second.0, second.1, second.2);
        let mut task = b.build(&[0, 4], &[2]);
        for c in 0..4 {
            name_fact(&mut task, c, "at", &["robot", &format!("c{c}")]);
        }
        Variables::new(&task)
    };
    let v = build((&[1], &[2], &[1]));
    assert_eq!(v.facts[v.var(0).unwrap() as usize], vec![0, 1, 2, 3]);
    // Both effects require c0 and add different cells: both may fire.
    let v = build((&[0], &[3], &[0]));
    assert_ne!(v.var(0), v.var(3));
    // An effect adds c3 without deleting the cell it requires.
    let v = build((&[1], &[3], &[]));
    assert_ne!(v.var(1), v.var(3));
}

#[test]
fn ring_value_is_the_optimum() {
    // Pattern of the goal (at ball c5): the ball's cell, the robot's
    // position and the hand (the drop's precondition). Abstractly the ball
    // can be picked where the robot stands (its other cells are not in
    // the pattern): pick, five moves, drop = 7, the optimum.
    let task = ring(10);
    assert_eq!(h_init(&task, HeuristicKind::Pdb, CostType::Real).0, Some(7));
    let pdb = PatternDatabases::new(&task, CostType::Real);
    let patterns: Vec<Vec<&[u32]>> = pdb.patterns().collect();
    assert_eq!(patterns.len(), 1);
    assert!(patterns[0].contains(&&(0..10).collect::<Vec<u32>>()[..]));
}

#[test]
fn additive_patterns_add_up() {
    // Two robots on their own lines, each to the far end: patterns
    // {robot a} and {robot b}, no operator moves both, so 3 + 2.
    let mut b = TaskBuilder::new(7);
    for i in 0..3 {
        b.op("a", &[i], &[i + 1], &[i]);
    }
    for i in 4..6 {
        b.op("b", &[i], &[i + 1], &[i]);
    }
    let mut task = b.build(&[0, 4], &[3, 6]);
    for i in 0..4 {
        name_fact(&mut task, i, "at", &["a", &format!("c{i}")]);
    }
    for i in 4..7 {
        name_fact(&mut task, i, "at", &["b", &format!("c{i}")]);
    }
    assert_eq!(h_init(&task, HeuristicKind::Pdb, CostType::Real).0, Some(5));
    // An operator that moves both at once (2 → 3 and 5 → 6) achieves both
    // goals and needs both robots: each goal's pattern now holds both, and
    // the one merged pattern is exact: two moves of a, one of b, then both.
    let mut both = TaskBuilder::new(0);
    both.op("both", &[2, 5], &[3, 6], &[2, 5]);
    task.operators.extend(both.build(&[], &[]).operators);
    let pdb = PatternDatabases::new(&task, CostType::Real);
    assert_eq!(pdb.patterns().count(), 1);
    assert_eq!(h_init(&task, HeuristicKind::Pdb, CostType::Real).0, Some(4));
}

#[test]
fn an_unreachable_goal_is_a_dead_end() {
    let mut b = TaskBuilder::new(3);
    b.op("a", &[0], &[1], &[0]);
    let task = b.build(&[0], &[2]);
    assert_eq!(h_init(&task, HeuristicKind::Pdb, CostType::Real).0, None);
}

#[test]
fn never_above_the_optimum_on_random_tasks() {
    let mut rng = Lcg(7);
    let (mut solvable, mut informative, mut dead_ends, mut grouped) = (0, 0, 0, 0);
    for round in 0..1000 {
        let task = random_task(&mut rng);
        grouped += usize::from(Variables::new(&task).facts.iter().any(|f| f.len() > 1));
        let h = h_init(&task, HeuristicKind::Pdb, CostType::Real).0;
        match (optimal_cost(&task), h) {
            (Some(best), Some(h)) => {
                assert!(h <= best, "round {round}: h {h} > optimum {best}");
                solvable += 1;
                informative += usize::from(h > 0);
            }
            (Some(best), None) => panic!("round {round}: dead end, but a plan costs {best}"),
            (None, None) => dead_ends += 1,
            (None, Some(_)) => {}
        }
    }
    // The test means something only if the tasks vary.
    assert!(
        solvable >= 200 && informative >= 100 && dead_ends >= 10 && grouped >= 100,
        "{solvable} solvable, {informative} with h > 0, {dead_ends} dead ends, \
         {grouped} with a variable of several facts"
    );
}

#[test]
fn two_threads_build_the_same_databases() {
    let mut rng = Lcg(11);
    for _ in 0..100 {
        let task = random_task(&mut rng);
        let one = PatternDatabases::new(&task, CostType::Real);
        let two = PatternDatabases::with_resources(
            &task,
            CostType::Real,
            BuildResources {
                threads: 2,
                ..BuildResources::UNLIMITED
            },
        );
        assert_eq!(
            one.patterns().collect::<Vec<_>>(),
            two.patterns().collect::<Vec<_>>()
        );
        let mut space = StateSpace::new(&task);
        let state = space.initial_state();
        let mut fluents = Vec::new();
        let (mut one, mut two) = (one, two);
        assert_eq!(
            one.evaluate(space.view(&state, &mut fluents), None),
            two.evaluate(space.view(&state, &mut fluents), None)
        );
    }
}

#[test]
fn a_stop_request_leaves_the_databases_out() {
    // Asked to stop at once (time limit, Ctrl-C): nothing is built, and
    // the estimate is a trivial lower bound.
    let task = ring(10);
    let stop_now = BuildResources {
        stop: &|| true,
        ..BuildResources::UNLIMITED
    };
    let mut stopped = PatternDatabases::with_resources(&task, CostType::Real, stop_now);
    assert_eq!(stopped.patterns().count(), 0);
    // Too little memory for the one database: left out too.
    let no_memory = BuildResources {
        max_bytes: Some(100),
        ..BuildResources::UNLIMITED
    };
    let without = PatternDatabases::with_resources(&task, CostType::Real, no_memory);
    assert_eq!(without.patterns().count(), 0);
    assert_eq!(
        PatternDatabases::new(&task, CostType::Real)
            .patterns()
            .count(),
        1
    );
    let mut space = StateSpace::new(&task);
    let state = space.initial_state();
    let mut fluents = Vec::new();
    assert_eq!(
        stopped.evaluate(space.view(&state, &mut fluents), None),
        Some(0)
    );
}

#[test]
fn states_along_a_plan_are_never_overestimated() {
    // Every state of an optimal plan, against the cost left.
    let task = ring(8);
    let options = SearchOptions {
        engine: Engine::AStar,
        heuristic: HeuristicKind::Blind,
        ..SearchOptions::optimal_default()
    };
    let plan = search(&task, &options, &AtomicBool::new(false), &mut NoObserver)
        .plan
        .expect("solvable");
    let mut space = StateSpace::new(&task);
    let mut pdb = PatternDatabases::new(&task, CostType::Real);
    let mut state = space.initial_state();
    let mut fluents = Vec::new();
    let mut left = plan.cost;
    for &op in &plan.operators {
        let h = pdb.evaluate(space.view(&state, &mut fluents), None);
        assert!(h.is_some_and(|h| h <= left), "{h:?} > {left}");
        let mut next = Vec::new();
        assert!(space.apply(&state, op, &mut next));
        state = next;
        left -= task.operators[op as usize].cost;
    }
    assert_eq!(
        pdb.evaluate(space.view(&state, &mut fluents), None),
        Some(0)
    );
}
