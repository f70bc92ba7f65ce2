//! Every engine on hand-built tasks with known optimal costs.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use pddl_ground::Task;
use pddl_ground::task::{AssignOp, Comparison, Cost};

use crate::restarts::Probe;
use crate::search_algorithms::Monitor;
use crate::testing::{Lcg, TaskBuilder, diamond, gripper, optimal_cost, random_task, ring};
use crate::{
    Engine, HeuristicKind, NoObserver, Outcome, Plan, Progress, SearchObserver, SearchOptions,
    SearchResult,
};
use crate::{search, simulate};

fn options(engine: Engine, heuristic: HeuristicKind) -> SearchOptions {
    SearchOptions {
        engine,
        heuristic,
        weight: 2.0,
        preferred_operators: true,
        goal_count_alternation: true,
        time_limit: None,
        memory_limit_bytes: None,
        anytime: false,
        improve_plans: false,
        symmetry_reduction: true,
        landmark_fallback: false,
        hill_climbing_after: None,
        novelty_fallback: false,
        fallback_evaluations: crate::options::DEFAULT_FALLBACK_EVALUATIONS,
        novelty: false,
        background_last_turn: None,
        parallel_evaluation: None,
        dead_end_traps: false,
        last_turn_dead_end_traps: false,
    }
}

fn run(task: &Task, engine: Engine, heuristic: HeuristicKind) -> SearchResult {
    run_with(task, &options(engine, heuristic))
}

/// Searches with `options`; a plan found must replay to the goal at its cost.
fn run_with(task: &Task, options: &SearchOptions) -> SearchResult {
    let result = search(task, options, &AtomicBool::new(false), &mut NoObserver);
    if let Some(plan) = &result.plan {
        let end = simulate(task, &plan.operators).expect("plan replays");
        let (engine, heuristic) = (options.engine, options.heuristic);
        assert!(
            end.goal_reached,
            "{engine} {heuristic}: plan reaches the goal"
        );
        assert_eq!(end.cost, plan.cost);
    }
    result
}

fn all_configs() -> Vec<(Engine, HeuristicKind)> {
    let mut v = vec![(Engine::BreadthFirst, HeuristicKind::Blind)];
    for e in [
        Engine::AStar,
        Engine::WeightedAStar,
        Engine::EagerGreedy,
        Engine::LazyGreedy,
    ] {
        for h in HeuristicKind::ALL {
            v.push((e, h));
        }
    }
    v
}

#[test]
fn optimal_engines_find_optimal_costs() {
    let t = diamond();
    for h in HeuristicKind::ALL {
        let r = run(&t, Engine::AStar, h);
        assert_eq!(r.outcome, Outcome::Solved);
        assert_eq!(r.plan.as_ref().map(|p| p.cost), Some(10), "A* {h}");
        assert_eq!(r.proven_optimal, h.is_admissible());
    }
    let r = run(&ring(10), Engine::BreadthFirst, HeuristicKind::Blind);
    assert_eq!(r.plan.map(|p| p.cost), Some(7));
    assert!(r.proven_optimal);
    for h in [
        HeuristicKind::Blind,
        HeuristicKind::HMax,
        HeuristicKind::LmCut,
    ] {
        assert_eq!(
            run(&ring(10), Engine::AStar, h).plan.map(|p| p.cost),
            Some(7),
            "A* {h}"
        );
    }
}

/// Weights a library caller may pass that the CLI refuses: NaN and
/// weights below 1 mean plain A* (optimal costs with an admissible
/// heuristic), an infinite one orders by `h` alone (a plan that replays).
#[test]
fn weighted_astar_takes_any_weight() {
    for weight in [f64::NAN, 0.5, f64::INFINITY, f64::MAX] {
        for (task, optimum) in [
            (diamond(), 10),
            (
                ring(8),
                optimal_cost(&ring(8)).expect("ring(8) is solvable"),
            ),
        ] {
            for h in [HeuristicKind::Blind, HeuristicKind::HFF] {
                let o = SearchOptions {
                    weight,
                    ..options(Engine::WeightedAStar, h)
                };
                let r = run_with(&task, &o);
                assert_eq!(r.outcome, Outcome::Solved, "w = {weight}, {h}");
                // Goals are not ordered after every other state.
                if weight.is_infinite() {
                    let large = SearchOptions { weight: 1e9, ..o };
                    let expanded_with_large_weight = run_with(&task, &large).statistics.expanded;
                    assert!(r.statistics.expanded <= expanded_with_large_weight, "{h}");
                }
                let cost = r.plan.map(|p| p.cost);
                if (weight.is_nan() || weight <= 1.0) && h.is_admissible() {
                    assert_eq!(cost, Some(optimum), "w = {weight}, {h}");
                }
            }
        }
    }
}

#[test]
fn every_engine_solves_and_plans_replay() {
    for (e, h) in all_configs() {
        for task in [diamond(), ring(8)] {
            let r = run(&task, e, h);
            assert_eq!(r.outcome, Outcome::Solved, "{e} {h}");
            assert!(
                r.statistics.expanded > 0
                    || r.plan.as_ref().is_some_and(|p| p.operators.is_empty())
            );
        }
    }
}

#[test]
fn search_is_deterministic() {
    for (e, h) in all_configs() {
        let a = run(&ring(12), e, h).plan;
        let b = run(&ring(12), e, h).plan;
        assert_eq!(a, b, "{e} {h}");
    }
}

#[test]
fn zero_cost_operators_and_astar() {
    // z1: 0 → 1 (0), z2: 1 → 2 (0), x: 2 → 3 (1), y: 0 → 3 (5); goal 3.
    let mut b = TaskBuilder::new(4);
    b.op_cost("y", &[0], &[3], &[], 5);
    b.op_cost("z1", &[0], &[1], &[], 0);
    b.op_cost("z2", &[1], &[2], &[], 0);
    b.op_cost("x", &[2], &[3], &[], 1);
    let t = b.build(&[0], &[3]);
    for h in [
        HeuristicKind::Blind,
        HeuristicKind::HMax,
        HeuristicKind::LmCut,
    ] {
        let plan = run(&t, Engine::AStar, h).plan.expect("solved");
        assert_eq!((plan.cost, plan.operators.len()), (1, 3), "A* {h}");
    }
    // Breadth-first search minimises length, not cost.
    let plan = run(&t, Engine::BreadthFirst, HeuristicKind::Blind)
        .plan
        .expect("solved");
    assert_eq!((plan.cost, plan.operators.clone()), (5, vec![0]));
    assert!(!run(&t, Engine::BreadthFirst, HeuristicKind::Blind).proven_optimal);
}

/// A deterministic process after each choice (as Puzznic's physics): the
/// cheap choice starts a forced cycle, a dead end; the dear one a forced
/// chain of zero-cost steps to the goal. Facts: 0 busy, 1 a, 2 b, 3 loop,
/// 4 goal, 5 spun.
fn process_with_a_trap() -> Task {
    let mut b = TaskBuilder::new(6);
    let cheap = b.op_cost("cheap", &[], &[0, 3], &[], 1);
    let dear = b.op_cost("dear", &[], &[0, 1], &[], 3);
    for choice in [cheap, dear] {
        b.neg_pre(choice, 0);
        b.neg_pre(choice, 4);
    }
    let tick = b.op_cost("tick", &[0, 1], &[2], &[1], 0);
    b.neg_pre(tick, 3);
    let done = b.op_cost("done", &[0, 2], &[4], &[0, 2], 0);
    b.neg_pre(done, 1);
    b.neg_pre(done, 3);
    let spin_on = b.op_cost("spin-on", &[0, 3], &[5], &[], 0);
    b.neg_pre(spin_on, 5);
    b.op_cost("spin-off", &[0, 3, 5], &[], &[5], 0);
    b.build(&[], &[4])
}

#[test]
fn forced_transitions_keep_plans_whole_and_costs_optimal() {
    let task = process_with_a_trap();
    // tick, done, spin-on and spin-off are exclusive: every engine but
    // breadth-first search skips them, and plan extraction restores them.
    for (e, h) in all_configs() {
        let r = run(&task, e, h);
        let plan = r.plan.expect("solved");
        assert_eq!(plan.operators, vec![1, 2, 3], "{e} {h}");
        assert_eq!(plan.cost, 3, "{e} {h}");
    }
    // A* stores the initial state and the end of the dear choice's chain
    // only: the cheap choice's chain is a forced cycle, a dead end.
    let r = run(&task, Engine::AStar, HeuristicKind::Blind);
    assert_eq!(r.statistics.states, 2);
    assert!(r.proven_optimal);
}

#[test]
fn unsolvable_tasks_are_detected() {
    // 0 → 1 → 2 and back, goal 3 unreachable; also a goal needing 4 while 4 is deleted forever.
    let mut b = TaskBuilder::new(5);
    b.op("a", &[0], &[1], &[0]);
    b.op("b", &[1], &[2], &[1]);
    b.op("c", &[2], &[0], &[2]);
    b.op("kill", &[0, 4], &[], &[4]);
    let unreachable = b.build(&[0, 4], &[3]);
    let mut b2 = TaskBuilder::new(2);
    b2.op("flip", &[0], &[], &[0]);
    b2.neg_goal(1);
    let t2 = b2.build(&[0, 1], &[]);
    for (e, h) in all_configs() {
        assert_eq!(
            run(&unreachable, e, h).outcome,
            Outcome::Unsolvable,
            "{e} {h}"
        );
        assert_eq!(run(&t2, e, h).outcome, Outcome::Unsolvable, "{e} {h}");
    }
}

#[test]
fn numeric_preconditions_and_effects() {
    // Cells 0..3, fuel starts at 2; move i→i+1 needs fuel ≥ 1 and uses 1;
    // refuel sets fuel to 2. Goal: at 3 and fuel ≥ 2.
    // Optimal: move move refuel move refuel = 5.
    let mut b = TaskBuilder::new(4);
    let fuel = b.fluent(2.0);
    for i in 0..3 {
        let m = b.op("move", &[i], &[i + 1], &[i]);
        b.num_pre(m, fuel, Comparison::GreaterEqual, 1.0);
        b.num_effect(m, fuel, AssignOp::Decrease, 1.0);
    }
    let r = b.op("refuel", &[], &[], &[]);
    b.num_effect(r, fuel, AssignOp::Assign, 2.0);
    b.num_goal(fuel, Comparison::GreaterEqual, 2.0);
    let t = b.build(&[0], &[3]);
    for (e, h) in all_configs() {
        let r = run(&t, e, h);
        assert_eq!(r.outcome, Outcome::Solved, "{e} {h}");
        if e == Engine::BreadthFirst || (e == Engine::AStar && h.is_admissible()) {
            assert_eq!(r.plan.map(|p| p.cost), Some(5), "{e} {h}");
        }
    }
    let end = simulate(&t, &[0, 1, 3, 2, 3]).expect("replays");
    assert_eq!(end.fluents, vec![2.0]);
    assert!(end.goal_reached);
    assert!(simulate(&t, &[0, 1, 2]).is_err(), "third move lacks fuel");
}

#[test]
fn derived_goal_through_axioms() {
    // Lights 0 and 1 switched on separately; derived 3 ← 0 ∧ 1, derived 4 ← ¬2 (stratum 1),
    // goal {3, 4}: 2 is a trap fact set by "bad".
    let mut b = TaskBuilder::new(5);
    b.op("on0", &[], &[0], &[]);
    b.op("on1", &[], &[1], &[]);
    b.op("bad", &[], &[2, 0, 1], &[]);
    b.axiom(3, &[0, 1], &[], 0);
    b.axiom(4, &[], &[2], 1);
    let t = b.build(&[], &[3, 4]);
    for (e, h) in all_configs() {
        let r = run(&t, e, h);
        assert_eq!(r.outcome, Outcome::Solved, "{e} {h}");
        if e == Engine::AStar || e == Engine::BreadthFirst {
            assert_eq!(r.plan.map(|p| p.cost), Some(2), "{e} {h}");
        }
    }
}

#[derive(Default)]
struct Recorder {
    plans: Vec<Plan>,
    progress: usize,
    starts: usize,
    /// `h_counts_costs` of each report with an h.
    h_counts_costs: Vec<bool>,
}

impl SearchObserver for Recorder {
    fn on_start(&mut self, _: &Task) {
        self.starts += 1;
    }
    fn on_progress(&mut self, progress: &Progress) {
        self.progress += 1;
        if progress.best_h.is_some() {
            self.h_counts_costs.push(progress.h_counts_costs);
        }
    }
    fn on_plan(&mut self, _: &Task, plan: &Plan) {
        self.plans.push(plan.clone());
    }
}

#[test]
fn anytime_improves_to_optimal() {
    // Greedy (unit costs) takes the expensive shortcut e (cost 10 + ...);
    // anytime iterations must end at the optimum 10 and prove it.
    let mut opts = options(Engine::LazyGreedy, HeuristicKind::HFF);
    opts.anytime = true;
    let mut rec = Recorder::default();
    let r = search(&diamond(), &opts, &AtomicBool::new(false), &mut rec);
    assert_eq!(r.outcome, Outcome::Solved);
    assert_eq!(r.plan.map(|p| p.cost), Some(10));
    assert!(r.proven_optimal);
    assert!(
        rec.plans.first().is_some_and(|p| p.cost > 10),
        "first plan {:?}",
        rec.plans
    );
    assert!(rec.plans.windows(2).all(|w| w[1].cost < w[0].cost));
    assert!(rec.progress > 0);
    assert_eq!(rec.starts, 1);
    // Greedy search's h counts steps, the restarts' (weighted A*) costs.
    assert_eq!(rec.h_counts_costs.first(), Some(&false));
    assert_eq!(rec.h_counts_costs.last(), Some(&true));
}

#[test]
fn astar_reports_heuristic_values_as_costs() {
    let mut rec = Recorder::default();
    let opts = options(Engine::AStar, HeuristicKind::LmCut);
    let r = search(&diamond(), &opts, &AtomicBool::new(false), &mut rec);
    assert_eq!(r.plan.map(|p| p.cost), Some(10));
    assert!(!rec.h_counts_costs.is_empty());
    assert!(rec.h_counts_costs.iter().all(|&costs| costs));
}

/// Facts `0..n`, each switched on and off by its own operator, plus
/// `extra` facts no operator touches.
fn toggles(n: u32, extra: u32) -> TaskBuilder {
    let mut b = TaskBuilder::new((n + extra) as usize);
    for i in 0..n {
        b.op("on", &[], &[i], &[]);
        b.op("off", &[i], &[], &[i]);
    }
    b
}

#[test]
fn limits_and_cancellation_stop_the_search() {
    // An unsolvable task with a big state space: 22 independent toggles
    // and an unreachable goal fact.
    let t = toggles(22, 1).build(&[], &[22]);
    let o = options(Engine::AStar, HeuristicKind::Blind);
    let cancelled = AtomicBool::new(true);
    assert_eq!(
        search(&t, &o, &cancelled, &mut NoObserver).outcome,
        Outcome::Cancelled
    );
    assert_limits_stop(&t, &o);
    // The same with the last fallback turn (greedy search with novelty,
    // which cannot see that the goal is unreachable either) on a second
    // thread, while the first thread waits for it.
    let o = SearchOptions {
        novelty_fallback: true,
        fallback_evaluations: 1,
        background_last_turn: Some(Duration::ZERO),
        ..options(Engine::WeightedAStar, HeuristicKind::Blind)
    };
    assert_limits_stop(&t, &o);
}

/// A search of `task` (which must run long) with `options` stops at a
/// 50 ms time limit, at a 1 MiB memory limit and when the cancellation
/// flag is raised after 50 ms.
fn assert_limits_stop(task: &Task, options: &SearchOptions) {
    let limited = |time_limit, memory_limit_bytes| SearchOptions {
        time_limit,
        memory_limit_bytes,
        ..options.clone()
    };
    let o = limited(Some(Duration::from_millis(50)), None);
    let r = search(task, &o, &AtomicBool::new(false), &mut NoObserver);
    assert_eq!(r.outcome, Outcome::TimeLimit);
    assert!(r.statistics.search_time < Duration::from_secs(2));
    let o = limited(None, Some(1 << 20));
    let r = search(task, &o, &AtomicBool::new(false), &mut NoObserver);
    assert_eq!(r.outcome, Outcome::MemoryLimit);
    assert!(r.statistics.peak_memory_bytes >= 1 << 20);
    let cancel = AtomicBool::new(false);
    let r = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(50));
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        search(task, &limited(None, None), &cancel, &mut NoObserver)
    });
    assert_eq!(r.outcome, Outcome::Cancelled);
}

#[test]
fn novelty_alternation_solves_and_plans_replay() {
    for engine in [Engine::EagerGreedy, Engine::LazyGreedy] {
        for task in [diamond(), ring(8)] {
            let options = SearchOptions {
                novelty: true,
                ..options(engine, HeuristicKind::HFF)
            };
            assert_eq!(
                run_with(&task, &options).outcome,
                Outcome::Solved,
                "{engine}"
            );
        }
    }
}

#[test]
fn novelty_fallback_takes_over_after_the_budget_but_never_after_astar() {
    let task = ring(12);
    // One evaluation is not enough for weighted A*, so only the novelty
    // turn can find this plan (a missing turn ends in a time limit).
    let fallback = |engine, heuristic| SearchOptions {
        novelty_fallback: true,
        fallback_evaluations: 1,
        ..options(engine, heuristic)
    };
    let r = run_with(&task, &fallback(Engine::WeightedAStar, HeuristicKind::HFF));
    assert_eq!(r.outcome, Outcome::Solved);
    // The last turn is eager greedy search with novelty, run after the
    // first turn's evaluation.
    let novelty_alone = run_with(
        &task,
        &SearchOptions {
            novelty: true,
            ..options(Engine::EagerGreedy, HeuristicKind::HFF)
        },
    );
    let plan = r.plan.map(|p| p.operators);
    assert_eq!(plan, novelty_alone.plan.map(|p| p.operators));
    assert_eq!(
        r.statistics.evaluated,
        novelty_alone.statistics.evaluated + 1
    );
    // Weighted A* ignores `novelty` itself, so the turn still comes.
    let r = run_with(
        &task,
        &SearchOptions {
            novelty: true,
            ..fallback(Engine::WeightedAStar, HeuristicKind::HFF)
        },
    );
    assert_eq!(r.plan.map(|p| p.operators), plan);
    // A* ignores the fallback: its plan is optimal and proven so.
    let r = run_with(&task, &fallback(Engine::AStar, HeuristicKind::HMax));
    assert_eq!(r.plan.map(|p| p.cost), Some(8));
    assert!(r.proven_optimal);
}

#[test]
fn a_plan_as_cheap_as_lmcut_says_is_proven_optimal_without_restarts() {
    // Switching on 22 toggles: LM-cut's value of the initial state is 22,
    // what greedy search's first plan costs. Nothing can improve it, so no
    // restart runs, and the result says it is optimal.
    let toggles = toggles(22, 0).build(&[], &(0..22).collect::<Vec<_>>());
    let greedy = SearchOptions {
        improve_plans: true,
        ..options(Engine::LazyGreedy, HeuristicKind::HFF)
    };
    let first_only = run_with(
        &toggles,
        &SearchOptions {
            improve_plans: false,
            ..greedy.clone()
        },
    );
    assert!(!first_only.proven_optimal);
    let r = run_with(&toggles, &greedy);
    assert_eq!(r.plan.map(|p| p.cost), Some(22));
    assert!(r.proven_optimal);
    assert_eq!(r.statistics.evaluated, first_only.statistics.evaluated);
}

/// `n` switches (facts `0..n`) to turn on, each taking the hand (fact
/// `n`) that only `release` gives back; `off` turns one off. The optimum,
/// `2n - 1`, is far above LM-cut's `n` for the initial state.
fn toggles_with_a_hand(n: u32) -> Task {
    let hand = n;
    let mut builder = TaskBuilder::new(n as usize + 1);
    for i in 0..n {
        builder.op("on", &[hand], &[i], &[hand]);
        builder.op("off", &[i], &[], &[i]);
    }
    builder.op("release", &[], &[hand], &[]);
    builder.build(&[hand], &(0..n).collect::<Vec<_>>())
}

#[test]
fn restarts_spend_three_times_what_the_deciding_turn_spent_plus_failed_turns_up_to_a_cap() {
    // Blind weighted A* spends its budget on 18 toggles without a plan;
    // greedy search with novelty then finds the optimal one. No restart
    // can improve it, so each spends all it is given: three times the
    // evaluations the novelty turn used, plus the failed turn's up to
    // FAILED_TURNS_EVALUATIONS_COUNTED (plus a few). Switching on takes
    // the hand (fact 18) and a release gives it back, so the optimum, 35,
    // is above LM-cut's 18 for the initial state, which does not prove the
    // plan optimal before the restarts.
    let cap = crate::restarts::FAILED_TURNS_EVALUATIONS_COUNTED;
    let toggles = toggles_with_a_hand(18);
    for failed_turn in [cap / 5, cap + cap / 2] {
        let with_turns = SearchOptions {
            novelty_fallback: true,
            fallback_evaluations: failed_turn,
            improve_plans: true,
            ..options(Engine::WeightedAStar, HeuristicKind::Blind)
        };
        let first_search = run_with(
            &toggles,
            &SearchOptions {
                improve_plans: false,
                ..with_turns.clone()
            },
        );
        let first = first_search.statistics.evaluated;
        assert!(first > failed_turn, "the first turn spent its budget");
        let novelty_turn = first - failed_turn;
        assert!(novelty_turn < cap / 20, "{novelty_turn}");
        let r = run_with(&toggles, &with_turns);
        assert_eq!(r.plan.map(|p| p.cost), Some(35));
        let restarts = r.statistics.evaluated - first;
        let granted = 3 * novelty_turn + failed_turn.min(cap);
        assert!(2 * novelty_turn < crate::restarts::RESTART_EXTRA_EVALUATIONS_CAP);
        assert!(
            restarts >= granted && restarts <= granted + 300,
            "restarts evaluated {restarts} after turns of {failed_turn} and {novelty_turn}"
        );
    }
}

#[test]
fn restarts_get_a_floor_where_the_plan_may_be_far_from_its_lower_bound() {
    // Eighteen toggles with a hand, greedy search first: its plan costs
    // at least the optimum, 35, far above LM-cut's 18 for the initial
    // state, so the restarts get at least WIDE_GAP_RESTART_EVALUATIONS,
    // many times what three times the first search's evaluations would
    // give them; no restart can prove a plan optimal, so they spend it.
    let floor = crate::restarts::WIDE_GAP_RESTART_EVALUATIONS;
    let toggles = toggles_with_a_hand(18);
    let greedy = SearchOptions {
        improve_plans: true,
        ..options(Engine::LazyGreedy, HeuristicKind::HFF)
    };
    let first = run_with(
        &toggles,
        &SearchOptions {
            improve_plans: false,
            ..greedy.clone()
        },
    )
    .statistics
    .evaluated;
    assert!(4 * first < floor, "the first search took {first}");
    let r = run_with(&toggles, &greedy);
    assert_eq!(r.plan.map(|p| p.cost), Some(35));
    let restarts = r.statistics.evaluated - first;
    assert!(
        restarts >= floor && restarts <= floor + 300,
        "restarts evaluated {restarts}"
    );
}

#[test]
fn a_wide_gap_is_a_plan_at_least_160_percent_of_a_known_bound() {
    assert!(crate::restarts::leaves_wide_gap(16, 10));
    assert!(crate::restarts::leaves_wide_gap(35, 18));
    assert!(!crate::restarts::leaves_wide_gap(15, 10));
    assert!(!crate::restarts::leaves_wide_gap(12, 8));
    // No bound computed: nothing is known about the gap.
    assert!(!crate::restarts::leaves_wide_gap(100, 0));
}

#[test]
fn the_neighbourhood_search_gets_a_floor_only_for_plans_far_above_their_bound() {
    let per_state = crate::NEIGHBOURHOOD_BUDGET_PER_GENERATED;
    let near_bound = crate::NEAR_BOUND_NEIGHBOURHOOD_BUDGET_PER_GENERATED;
    assert!(near_bound < per_state);
    // Depot p02: 990 states generated earn fewer applications than the
    // floor, and its plan of 16 is 145 % of the bound 11.
    assert!(990 * per_state < 20_000);
    assert_eq!(crate::neighbourhood_budget(990, 16, 11), 20_000);
    // Close to the bound: fewer per state, and no floor.
    assert_eq!(crate::neighbourhood_budget(990, 15, 11), 990 * near_bound);
    // No bound known: the full rate, no floor.
    assert_eq!(crate::neighbourhood_budget(990, 16, 0), 990 * per_state);
    // A larger budget earned than the floor.
    assert_eq!(
        crate::neighbourhood_budget(10_000, 16, 11),
        10_000 * per_state
    );
}

/// A result without what depends on timing: the wall time and the state
/// counts and memory peaks sampled at the checks.
fn timeless(mut result: SearchResult) -> SearchResult {
    result.statistics.search_time = Duration::ZERO;
    result.statistics.states = 0;
    result.statistics.peak_memory_bytes = 0;
    result
}

#[test]
fn background_last_turn_keeps_results_and_beats_the_time_limit() {
    let task = ring(12);
    let sequential = SearchOptions {
        novelty_fallback: true,
        fallback_evaluations: 1,
        ..options(Engine::WeightedAStar, HeuristicKind::HFF)
    };
    let expected = timeless(run_with(&task, &sequential));
    assert_eq!(expected.outcome, Outcome::Solved);
    // Started at once (running beside the first turn), or only when the
    // first turn ends without a plan (a delay longer than the search).
    for delay in [Duration::ZERO, Duration::from_secs(60)] {
        let background = SearchOptions {
            background_last_turn: Some(delay),
            ..sequential.clone()
        };
        assert_eq!(
            timeless(run_with(&task, &background)),
            expected,
            "{delay:?}"
        );
    }
    // A plan of the first turn wins over the background's.
    let first_turn_solves = SearchOptions {
        fallback_evaluations: 1_000,
        ..sequential.clone()
    };
    let expected = timeless(run_with(&task, &first_turn_solves));
    assert!(expected.plan.is_some() && expected.statistics.evaluated < 1_000);
    let background = SearchOptions {
        background_last_turn: Some(Duration::ZERO),
        ..first_turn_solves
    };
    assert_eq!(timeless(run_with(&task, &background)), expected);
    // When the time limit stops the first turn, a plan the background
    // search has found already is returned: 22 toggles to switch on take
    // blind weighted A* long, greedy search with novelty a few steps.
    let toggles = toggles(22, 0).build(&[], &(0..22).collect::<Vec<_>>());
    let slow_first_turn = SearchOptions {
        novelty_fallback: true,
        fallback_evaluations: u64::MAX / 2,
        time_limit: Some(Duration::from_millis(300)),
        background_last_turn: Some(Duration::ZERO),
        ..options(Engine::WeightedAStar, HeuristicKind::Blind)
    };
    let r = run_with(&toggles, &slow_first_turn);
    assert_eq!(r.outcome, Outcome::Solved, "{:?}", r.statistics);
    let sequential = SearchOptions {
        background_last_turn: None,
        ..slow_first_turn
    };
    assert_eq!(run_with(&toggles, &sequential).outcome, Outcome::TimeLimit);
    // A cancellation stops both threads.
    let cancelled = search(&task, &background, &AtomicBool::new(true), &mut NoObserver);
    assert_eq!(cancelled.outcome, Outcome::Cancelled);
    assert!(cancelled.plan.is_none());
}

#[test]
fn parallel_evaluation_gives_the_search_of_one_thread() {
    // Helper started at once; A*, weighted A*, the anytime restarts
    // (which evaluate with the same heuristic) and eager greedy search on
    // tasks with many equal-f states.
    let all_on = toggles(9, 0).build(&[], &(0..9).collect::<Vec<_>>());
    for (name, task) in [
        ("ring", ring(12)),
        ("toggles", all_on),
        ("diamond", diamond()),
    ] {
        for heuristic in [
            HeuristicKind::HMax,
            HeuristicKind::HAdd,
            HeuristicKind::HFF,
            HeuristicKind::LmCut,
        ] {
            for (engine, anytime) in [
                (Engine::AStar, false),
                (Engine::WeightedAStar, false),
                (Engine::WeightedAStar, true),
                (Engine::EagerGreedy, false),
            ] {
                // Eager greedy search with one open list (no alternation).
                let alone = SearchOptions {
                    anytime,
                    preferred_operators: false,
                    goal_count_alternation: false,
                    ..options(engine, heuristic)
                };
                let expected = timeless(run_with(&task, &alone));
                assert_eq!(expected.outcome, Outcome::Solved);
                let parallel = SearchOptions {
                    parallel_evaluation: Some(0),
                    ..alone
                };
                assert_eq!(
                    timeless(run_with(&task, &parallel)),
                    expected,
                    "{name} {engine} {heuristic} anytime {anytime}"
                );
            }
        }
    }
}

/// Lazy greedy search with h_FF, climbing at once or never.
fn climbing(climb: bool) -> SearchOptions {
    SearchOptions {
        hill_climbing_after: climb.then_some(0),
        ..options(Engine::LazyGreedy, HeuristicKind::HFF)
    }
}

#[test]
fn hill_climbing_finds_the_first_plan_where_the_estimate_descends() {
    // On the ring, h_FF falls by one with each step towards the ball and
    // then towards the cell it goes to: the climb evaluates about one
    // state per step, lazy greedy search two heuristics per state.
    let task = ring(12);
    let climbed = run_with(&task, &climbing(true));
    let searched = run_with(&task, &climbing(false));
    let plan = climbed.plan.expect("the climb solves the ring");
    assert_eq!(plan.cost, 8, "pick, 6 moves, drop");
    assert!(
        climbed.statistics.evaluated <= 2 * 8,
        "{:?}",
        climbed.statistics
    );
    assert!(climbed.statistics.evaluated < searched.statistics.evaluated);
    // Solved within the evaluations before the climb: as without it.
    let before_the_climb = SearchOptions {
        hill_climbing_after: Some(crate::options::HILL_CLIMBING_AFTER),
        ..climbing(false)
    };
    assert!(searched.statistics.evaluated < crate::options::HILL_CLIMBING_AFTER);
    assert_eq!(
        timeless(run_with(&task, &before_the_climb)),
        timeless(searched)
    );
}

/// 1 500 goals, each reached by an operator of its own: h_FF falls by one
/// with every step, so the climb evaluates about one state per step. It
/// goes on past its 1 000 evaluations while it keeps improving (four more
/// per improvement): with 20 000 such goals, falling back to lazy greedy
/// search (20 000 successors queued per expansion) ran out of memory
/// after 90 s.
#[test]
fn a_climb_that_keeps_improving_keeps_climbing() {
    let goals = 1_500u32;
    let mut b = TaskBuilder::new(goals as usize);
    for fact in 0..goals {
        b.op("reach", &[], &[fact], &[]);
    }
    let all: Vec<u32> = (0..goals).collect();
    let task = b.build(&[], &all);
    let climbed = run_with(&task, &climbing(true));
    assert_eq!(climbed.plan.map(|p| p.cost), Some(u64::from(goals)));
    assert!(
        climbed.statistics.evaluated <= u64::from(goals) + 10,
        "{:?}",
        climbed.statistics
    );
}

/// Facts: 0 home, 1 pit, 2 a, 3 b, 4 x, 5 y, 6 goal, 7–12 steps of a
/// path. The goal is `jump` (into the pit, for good), then x and y, then
/// `done`: four steps (five by h_add, which counts the jump twice), where
/// walking the path and `finish` take seven. In
/// the pit only one of x and y can be had (each operator deletes what the
/// other needs), which the delete relaxation does not see.
fn pit() -> Task {
    let mut b = TaskBuilder::new(13);
    b.op("jump", &[0], &[1, 2, 3], &[0]);
    b.op("get-x", &[1, 2], &[4], &[3]);
    b.op("get-y", &[1, 3], &[5], &[2]);
    b.op("done", &[4, 5], &[6], &[]);
    let path = [0, 7, 8, 9, 10, 11, 12];
    for step in path.windows(2) {
        b.op("walk", &[step[0]], &[step[1]], &[step[0]]);
    }
    b.op("finish", &[12], &[6], &[]);
    b.build(&[0], &[6])
}

#[test]
fn a_stuck_climb_leaves_the_task_to_the_search_after_it() {
    let task = pit();
    let climbed = run_with(&task, &climbing(true));
    let searched = run_with(&task, &climbing(false));
    let names = |plan: &Plan| {
        plan.operators
            .iter()
            .map(|&o| task.operators[o as usize].name.to_string())
            .collect::<Vec<_>>()
    };
    for result in [&climbed, &searched] {
        assert_eq!(result.outcome, Outcome::Solved);
        assert_eq!(
            names(result.plan.as_ref().unwrap()),
            ["walk", "walk", "walk", "walk", "walk", "walk", "finish"]
        );
    }
    // The climb jumped into the pit, found nothing better there and gave
    // up; its evaluations count.
    assert!(climbed.statistics.evaluated > searched.statistics.evaluated);
    // A goal the relaxation cannot reach: the climb proves nothing, the
    // search after it proves the task unsolvable.
    let mut b = TaskBuilder::new(3);
    b.op("a", &[0], &[1], &[0]);
    let unreachable = b.build(&[0], &[2]);
    assert_eq!(
        run_with(&unreachable, &climbing(true)).outcome,
        Outcome::Unsolvable
    );
}

#[test]
fn the_optimality_probe_proves_finds_or_bounds_on_random_tasks() {
    // A* with h_max, pruned at a plan's cost: with the optimum as that
    // cost it proves that no plan is cheaper, with one more it finds an
    // optimal plan, and stopped after one evaluation it never claims a
    // proof and its bound never exceeds the optimum.
    let mut rng = Lcg(23);
    let cancel = AtomicBool::new(false);
    let (mut solvable, mut undecided) = (0, 0);
    for round in 0..1000 {
        let task = random_task(&mut rng);
        let Some(best) = optimal_cost(&task) else {
            continue;
        };
        solvable += 1;
        let options = SearchOptions::satisficing_default();
        let probe = |bound: Cost, budget: u64| {
            let mut observer = NoObserver;
            let mut monitor = Monitor::new(None, None, &cancel, &mut observer);
            let mut space = crate::search_space(&task, &options);
            crate::restarts::optimality_probe(&mut space, bound, budget, &mut monitor)
        };
        assert!(
            matches!(probe(best, u64::MAX), Probe::Proven),
            "round {round}"
        );
        match probe(best + 1, u64::MAX) {
            Probe::Cheaper(plan) => {
                assert_eq!(plan.cost, best, "round {round}");
                let end = simulate(&task, &plan.operators).expect("plan replays");
                assert!(end.goal_reached && end.cost == best, "round {round}");
            }
            _ => panic!("round {round}: no plan of cost {best} found"),
        }
        match probe(best + 1, 1) {
            Probe::Cheaper(plan) => assert_eq!(plan.cost, best, "round {round}"),
            Probe::Undecided { lower_bound } => {
                assert!(lower_bound <= best, "round {round}: {lower_bound} > {best}");
                undecided += 1;
            }
            Probe::Proven => panic!("round {round}: a cheaper plan exists"),
        }
    }
    assert!(
        solvable >= 200 && undecided >= 100,
        "{solvable} solvable, {undecided} undecided"
    );
}

#[test]
fn the_optimality_probe_ends_the_default_search_on_a_small_symmetric_task() {
    // Eight interchangeable balls to carry from room a to room b with two
    // hands (gripper): the probe proves the first plan optimal, or finds
    // an optimal one, on the few states that symmetry leaves, so no
    // restart runs. The restarts would prove it too, exhausting their
    // bounded searches, but with 758 evaluations after the first search's
    // 74, where the probe takes 60.
    let task = gripper(8);
    let default = SearchOptions::satisficing_default();
    let first = run_with(
        &task,
        &SearchOptions {
            improve_plans: false,
            ..default.clone()
        },
    )
    .statistics
    .evaluated;
    let result = run_with(&task, &default);
    let cost = result.plan.as_ref().map(|p| p.cost);
    assert_eq!(cost, optimal_cost(&task));
    assert!(result.proven_optimal);
    assert_eq!(result.lower_bound, cost);
    let evaluated = result.statistics.evaluated;
    assert!(
        evaluated <= 3 * first,
        "{evaluated} evaluations after {first}"
    );
}

/// A heuristic that takes `delay` for every evaluation (and says 0), like
/// LM-cut on a large task, and counts them.
struct Slow {
    delay: Duration,
    evaluations: u32,
}

impl crate::heuristics::Heuristic for Slow {
    fn evaluate(
        &mut self,
        _state: crate::state::StateView<'_>,
        _preferred: Option<&mut Vec<pddl_ground::task::OperatorId>>,
    ) -> Option<Cost> {
        std::thread::sleep(self.delay);
        self.evaluations += 1;
        Some(0)
    }
}

#[test]
fn the_time_limit_stops_a_slow_expansion_halfway() {
    // 40 operators applicable at once: the first expansion alone takes
    // 40 evaluations of 5 ms, ten times the time limit of 20 ms.
    let mut b = TaskBuilder::new(40);
    for fact in 0..40 {
        b.op(&format!("set-{fact}"), &[], &[fact], &[]);
    }
    let goal: Vec<u32> = (0..40).collect();
    let task = b.build(&[], &goal);
    let options = options(Engine::AStar, HeuristicKind::Blind);
    let cancel = AtomicBool::new(false);
    // Sequentially, and in batches as with a second thread (which this
    // heuristic, having no fork, does not get).
    for parallel_evaluation in [None, Some(0)] {
        let mut observer = NoObserver;
        let mut monitor = Monitor::new(
            Some(Duration::from_millis(20)),
            None,
            &cancel,
            &mut observer,
        );
        let mut space = crate::search_space(&task, &options);
        let mut slow = Slow {
            delay: Duration::from_millis(5),
            evaluations: 0,
        };
        let params = crate::astar_params(1.0, Cost::MAX);
        let result = crate::eager_one_heuristic(
            &mut space,
            &mut slow,
            params,
            parallel_evaluation,
            &mut monitor,
        );
        assert_eq!(
            result.outcome,
            Outcome::TimeLimit,
            "{parallel_evaluation:?}"
        );
        let evaluated = slow.evaluations;
        assert!(
            evaluated < 20,
            "{parallel_evaluation:?}: {evaluated} evaluations before stopping"
        );
    }
}

/// A time limit beyond the clock's range (an embedder's `Duration::MAX`)
/// is no deadline, for every configuration, the anytime one included.
#[test]
fn the_longest_time_limit_is_no_deadline() {
    let task = gripper(3);
    let mut observer = NoObserver;
    let cancel = AtomicBool::new(false);
    let monitor = Monitor::new(Some(Duration::MAX), None, &cancel, &mut observer);
    assert_eq!(monitor.deadline(), None);
    assert!(!(monitor.stop_check())());
    for mut options in [
        SearchOptions::satisficing_default(),
        SearchOptions::optimal_default(),
    ] {
        options.time_limit = Some(Duration::MAX);
        for anytime in [false, true] {
            options.anytime = anytime;
            let result = run_with(&task, &options);
            assert_eq!(result.outcome, Outcome::Solved, "anytime {anytime}");
        }
    }
}

#[test]
fn dead_end_traps_keep_costs_optimal_and_verdicts_right_on_random_tasks() {
    // Traps only call real dead ends dead: A* with an admissible
    // heuristic stays optimal, and every engine still finds a plan where
    // one exists and proves unsolvable the tasks without one.
    let mut rng = Lcg(61);
    let (mut solvable, mut unsolvable) = (0, 0);
    for round in 0..300 {
        let task = random_task(&mut rng);
        let best = optimal_cost(&task);
        solvable += usize::from(best.is_some());
        unsolvable += usize::from(best.is_none());
        for (engine, heuristic) in [
            (Engine::AStar, HeuristicKind::HMax),
            (Engine::AStar, HeuristicKind::LmCut),
            (Engine::WeightedAStar, HeuristicKind::HFF),
            (Engine::LazyGreedy, HeuristicKind::HFF),
            (Engine::EagerGreedy, HeuristicKind::HAdd),
        ] {
            let options = SearchOptions {
                dead_end_traps: true,
                ..options(engine, heuristic)
            };
            let result = run_with(&task, &options);
            let cost = result.plan.as_ref().map(|p| p.cost);
            match best {
                None => assert_eq!(result.outcome, Outcome::Unsolvable, "round {round}"),
                Some(_) if engine == Engine::AStar => {
                    assert_eq!(cost, best, "round {round}: {engine} {heuristic}")
                }
                Some(_) => assert!(cost.is_some(), "round {round}: {engine} {heuristic}"),
            }
        }
    }
    assert!(
        solvable >= 50 && unsolvable >= 100,
        "{solvable} solvable, {unsolvable} unsolvable"
    );
}
