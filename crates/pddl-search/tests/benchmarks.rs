//! Search on real PDDL from `../shared/benchmarks` (skipped when absent):
//! optimal engines agree on known optimal costs, every plan replays to
//! the goal, the default configuration solves small tasks of many domains.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use pddl_ground::Task;
mod shared;
use shared::{benchmarks, load};

use pddl_search::{
    Engine, HeuristicKind, NoObserver, Outcome, SearchOptions, SearchResult, search, simulate,
};

fn solve(task: &Task, engine: Engine, heuristic: HeuristicKind, limit: Duration) -> SearchResult {
    let options = SearchOptions {
        engine,
        heuristic,
        time_limit: Some(limit),
        ..SearchOptions::optimal_default()
    };
    let result = search(task, &options, &AtomicBool::new(false), &mut NoObserver);
    check_plan(task, &result, &format!("{engine} {heuristic}"));
    result
}

/// The default configuration with a time limit; a plan found must be valid.
fn solve_default(task: &Task, limit: Duration, what: &str) -> SearchResult {
    let options = SearchOptions {
        time_limit: Some(limit),
        ..SearchOptions::satisficing_default()
    };
    let result = search(task, &options, &AtomicBool::new(false), &mut NoObserver);
    check_plan(task, &result, what);
    result
}

fn check_plan(task: &Task, result: &SearchResult, what: &str) {
    if let Some(plan) = &result.plan {
        let end = simulate(task, &plan.operators).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(end.goal_reached, "{what}: plan does not reach the goal");
        assert_eq!(end.cost, plan.cost, "{what}");
    }
}

/// Known optimal costs (IPC reference values).
const OPTIMAL: &[(&str, &str, u64)] = &[
    ("blocks/domain.pddl", "blocks/probBLOCKS-4-0.pddl", 6),
    ("blocks/domain.pddl", "blocks/probBLOCKS-4-1.pddl", 10),
    ("blocks/domain.pddl", "blocks/probBLOCKS-4-2.pddl", 6),
    ("blocks/domain.pddl", "blocks/probBLOCKS-5-0.pddl", 12),
    ("gripper/domain.pddl", "gripper/prob01.pddl", 11),
    (
        "logistics00/domain.pddl",
        "logistics00/probLOGISTICS-4-0.pddl",
        20,
    ),
    (
        "logistics00/domain.pddl",
        "logistics00/probLOGISTICS-4-1.pddl",
        19,
    ),
    (
        "logistics00/domain.pddl",
        "logistics00/probLOGISTICS-4-2.pddl",
        15,
    ),
    ("miconic/domain.pddl", "miconic/s1-0.pddl", 4),
    ("miconic/domain.pddl", "miconic/s2-0.pddl", 7),
];

#[test]
fn optimal_engines_agree_on_known_costs() {
    let Some(dir) = benchmarks() else { return };
    let limit = Duration::from_secs(60);
    for &(domain, problem, cost) in OPTIMAL {
        let task = load(&dir, domain, problem);
        let mut configs = vec![
            (Engine::AStar, HeuristicKind::LmCut),
            (Engine::AStar, HeuristicKind::HMax),
        ];
        if task.operators.iter().all(|o| o.cost == 1) {
            configs.push((Engine::BreadthFirst, HeuristicKind::Blind));
        }
        for (e, h) in configs {
            let r = solve(&task, e, h, limit);
            assert_eq!(r.outcome, Outcome::Solved, "{problem}: {e} {h}");
            assert_eq!(r.plan.map(|p| p.cost), Some(cost), "{problem}: {e} {h}");
            assert!(r.proven_optimal, "{problem}: {e} {h}");
        }
    }
}

#[test]
fn optimal_engines_agree_on_general_costs() {
    let Some(dir) = benchmarks() else { return };
    // Tasks with action costs (total-cost metrics): LM-cut and h_max agree.
    for (domain, problem) in [
        (
            "elevators-sat08-strips/domain.pddl",
            "elevators-sat08-strips/p01.pddl",
        ),
        (
            "transport-sat08-strips/domain.pddl",
            "transport-sat08-strips/p01.pddl",
        ),
        ("pegsol-08-strips/domain.pddl", "pegsol-08-strips/p01.pddl"),
    ] {
        let task = load(&dir, domain, problem);
        let lmcut = solve(
            &task,
            Engine::AStar,
            HeuristicKind::LmCut,
            Duration::from_secs(60),
        );
        let hmax = solve(
            &task,
            Engine::AStar,
            HeuristicKind::HMax,
            Duration::from_secs(60),
        );
        assert_eq!(lmcut.outcome, Outcome::Solved, "{problem}");
        if hmax.outcome == Outcome::Solved {
            assert_eq!(
                lmcut.plan.map(|p| p.cost),
                hmax.plan.map(|p| p.cost),
                "{problem}"
            );
        }
    }
}

/// First tasks of several domains for the satisficing configurations.
/// Tasks with interchangeable objects, and the optimal cost of each.
const SYMMETRIC: &[(&str, &str, u64)] = &[
    ("gripper/domain.pddl", "gripper/prob02.pddl", 17),
    (
        "logistics00/domain.pddl",
        "logistics00/probLOGISTICS-4-0.pddl",
        20,
    ),
    ("depot/domain.pddl", "depot/p01.pddl", 10),
    ("driverlog/domain.pddl", "driverlog/p02.pddl", 19),
    ("satellite/domain.pddl", "satellite/p01-pfile1.pddl", 9),
    (
        "openstacks-sat08-adl/domain.pddl",
        "openstacks-sat08-adl/p02.pddl",
        3,
    ),
    (
        "transport-sat08-strips/domain.pddl",
        "transport-sat08-strips/p01.pddl",
        54,
    ),
];

/// Symmetry reduction merges only states with equal goal distances: with
/// and without it, A* with h_max (and breadth-first search, on unit
/// costs) finds the same, known optimal cost, and each plan replays.
#[test]
fn symmetry_reduction_keeps_optimal_costs() {
    let Some(dir) = benchmarks() else { return };
    for &(domain, problem, cost) in SYMMETRIC {
        let task = load(&dir, domain, problem);
        assert!(
            !task.interchangeable_objects.is_empty(),
            "{problem}: no interchangeable objects to test with"
        );
        let mut engines = vec![Engine::AStar];
        if task.operators.iter().all(|o| o.cost == 1) {
            engines.push(Engine::BreadthFirst);
        }
        for engine in engines {
            let mut expanded = Vec::new();
            for symmetry_reduction in [true, false] {
                let options = SearchOptions {
                    engine,
                    heuristic: HeuristicKind::HMax,
                    time_limit: Some(Duration::from_secs(60)),
                    symmetry_reduction,
                    ..SearchOptions::optimal_default()
                };
                let what = format!("{problem}: {engine}, symmetry reduction {symmetry_reduction}");
                let r = search(&task, &options, &AtomicBool::new(false), &mut NoObserver);
                check_plan(&task, &r, &what);
                assert_eq!(r.plan.map(|p| p.cost), Some(cost), "{what}");
                expanded.push(r.statistics.expanded);
            }
            assert!(
                expanded[0] <= expanded[1],
                "{problem}: {engine} {expanded:?}"
            );
        }
        // The default (greedy search, restarts, plan improvement) reaches
        // nodes by paths to other members of their orbits: its plan must
        // replay all the same (driverlog p02 once got an invalid one).
        let r = search(
            &task,
            &SearchOptions::satisficing_default(),
            &AtomicBool::new(false),
            &mut NoObserver,
        );
        check_plan(&task, &r, &format!("{problem}: default"));
        assert!(r.plan.is_some(), "{problem}: default");
    }
}

const SMALL: &[(&str, &str)] = &[
    ("blocks/domain.pddl", "blocks/probBLOCKS-9-0.pddl"),
    ("gripper/domain.pddl", "gripper/prob05.pddl"),
    (
        "logistics00/domain.pddl",
        "logistics00/probLOGISTICS-8-0.pddl",
    ),
    ("miconic/domain.pddl", "miconic/s5-0.pddl"),
    ("depot/domain.pddl", "depot/p01.pddl"),
    ("driverlog/domain.pddl", "driverlog/p03.pddl"),
    ("satellite/domain.pddl", "satellite/p03-pfile3.pddl"),
    ("rovers/domain.pddl", "rovers/p03.pddl"),
    (
        "miconic-simpleadl/domain.pddl",
        "miconic-simpleadl/s3-0.pddl",
    ),
    ("miconic-fulladl/domain.pddl", "miconic-fulladl/f3-0.pddl"),
    (
        "psr-small/p01-domain.pddl",
        "psr-small/p01-s2-n1-l2-f50.pddl",
    ),
    ("philosophers/domain.pddl", "philosophers/p02-phil3.pddl"),
    (
        "zenotravel-numeric-automatic/domain.pddl",
        "zenotravel-numeric-automatic/instance-1.pddl",
    ),
    (
        "depots-numeric-automatic/domain.pddl",
        "depots-numeric-automatic/instance-1.pddl",
    ),
];

#[test]
fn satisficing_engines_solve_small_tasks() {
    let Some(dir) = benchmarks() else { return };
    for &(domain, problem) in SMALL {
        if !dir.join(problem).exists() {
            continue;
        }
        let task = load(&dir, domain, problem);
        for (e, h) in [
            (Engine::LazyGreedy, HeuristicKind::HFF),
            (Engine::EagerGreedy, HeuristicKind::HFF),
            (Engine::WeightedAStar, HeuristicKind::HAdd),
        ] {
            let options = SearchOptions {
                engine: e,
                heuristic: h,
                weight: 3.0,
                time_limit: Some(Duration::from_secs(30)),
                ..SearchOptions::satisficing_default()
            };
            let r = search(&task, &options, &AtomicBool::new(false), &mut NoObserver);
            check_plan(&task, &r, &format!("{problem}: {e} {h}"));
            assert_eq!(r.outcome, Outcome::Solved, "{problem}: {e} {h}");
        }
    }
}

/// Numeric tasks the default configuration could not solve while h_FF
/// ignored numeric conditions (these three expanded over 500 000 states in
/// 10 s), while metric counters were part of the state (driverlog 13:
/// memory limit after 2.6 M states, as no state was ever seen twice), or
/// before h_FF's resource balance (settlers 5: time limit at 60 s), with
/// expansion budgets about ten times what they need now (327, 58, 73,
/// 239, 198). (Settlers 1 is not here: the resource balance lost it.)
const NUMERIC: &[(&str, &str, u64)] = &[
    ("settlers-numeric-automatic", "instance-5.pddl", 3_500),
    ("settlers-numeric-automatic", "instance-2.pddl", 1_000),
    ("rovers-numeric-automatic", "instance-5.pddl", 50_000),
    ("satellite-numeric-automatic", "instance-9.pddl", 5_000),
    ("driverlog-numeric-automatic", "instance-13.pddl", 2_000),
];

/// Gripper with 10 and 12 balls: the first search finds plans of 37 and
/// 45 steps; the default's improvement (lazy restarts, eager restarts,
/// then the neighbourhood search on the final plan) reaches the optimum,
/// 3n - 1 steps. With lazy restarts alone it ended at 31 on prob04.
#[test]
fn default_configuration_improves_gripper_plans_to_the_optimum() {
    let Some(dir) = benchmarks() else { return };
    for (problem, optimum) in [("gripper/prob04.pddl", 29), ("gripper/prob05.pddl", 35)] {
        let task = load(&dir, "gripper/domain.pddl", problem);
        let r = solve_default(&task, Duration::from_secs(60), problem);
        assert_eq!(r.plan.map(|p| p.cost), Some(optimum), "{problem}");
    }
}

/// Lazy restarts (LAMA's) cut elevators p05's first plan, 132, to 92,
/// where eager ones stall; eager restarts cut woodworking p05's to 535,
/// where lazy ones alone stall at 825. The default gives each half of its
/// budget and keeps both gains.
#[test]
fn default_configuration_keeps_the_gains_of_both_kinds_of_restarts() {
    let Some(dir) = benchmarks() else { return };
    for (family, problem, cost) in [
        ("elevators-sat08-strips", "p05.pddl", 92),
        ("woodworking-sat08-strips", "p05.pddl", 535),
    ] {
        let problem = format!("{family}/{problem}");
        let task = load(&dir, &format!("{family}/domain.pddl"), &problem);
        let r = solve_default(&task, Duration::from_secs(60), &problem);
        assert_eq!(r.plan.map(|p| p.cost), Some(cost), "{problem}");
    }
}

#[test]
fn default_configuration_sees_numeric_conditions() {
    let Some(dir) = benchmarks() else { return };
    for &(family, problem, budget) in NUMERIC {
        let problem = format!("{family}/{problem}");
        if !dir.join(&problem).exists() {
            continue;
        }
        let task = load(&dir, &format!("{family}/domain.pddl"), &problem);
        // The first search's expansions: the restarts after it spend a
        // budget of their own.
        let options = SearchOptions {
            time_limit: Some(Duration::from_secs(60)),
            improve_plans: false,
            ..SearchOptions::satisficing_default()
        };
        let r = search(&task, &options, &AtomicBool::new(false), &mut NoObserver);
        check_plan(&task, &r, &problem);
        assert_eq!(r.outcome, Outcome::Solved, "{problem}");
        assert!(
            r.statistics.expanded <= budget,
            "{problem}: {} expanded, budget {budget}",
            r.statistics.expanded
        );
    }
}

/// Parcprinter p19 defeats greedy search with h_FF and goal count (no
/// plan in 60 s) but not landmark count (1 348 evaluations): the default
/// gives landmarks a turn after 50 000 evaluations and solves it; with
/// the turn off (and the novelty turn after it), it has no plan when
/// cancelled at 60 000.
#[test]
fn default_configuration_gives_landmarks_a_turn() {
    let Some(dir) = benchmarks() else { return };
    let task = load(
        &dir,
        "parcprinter-08-strips/p19-domain.pddl",
        "parcprinter-08-strips/p19.pddl",
    );
    let evaluated = solved_only_with_turn(&task, "parcprinter p19", 60_000, |landmark_fallback| {
        SearchOptions {
            landmark_fallback,
            // Only the landmark turn: the novelty turn comes after it.
            novelty_fallback: false,
            ..SearchOptions::satisficing_default()
        }
    });
    assert!(evaluated[0] < 60_000, "{evaluated:?}");
}

/// Satellite-numeric instance 12 defeats greedy search with h_FF and goal
/// count (no plan in 60 s) but not the novelty turn (a few hundred
/// expansions). With the turn after 1 000 evaluations the default solves
/// it well within 20 000; without the turn it has none when cancelled there.
#[test]
fn default_configuration_gives_novelty_the_last_turn() {
    let Some(dir) = benchmarks() else { return };
    let task = load(
        &dir,
        "satellite-numeric-automatic/domain.pddl",
        "satellite-numeric-automatic/instance-12.pddl",
    );
    solved_only_with_turn(
        &task,
        "satellite-numeric instance-12",
        20_000,
        |novelty_fallback| SearchOptions {
            novelty_fallback,
            fallback_evaluations: 1_000,
            ..SearchOptions::satisficing_default()
        },
    );
    // The turn on a second thread from the start, beside the first turn,
    // or after it: the same plan and counts (the sampled state counts
    // and memory peaks depend on timing).
    let run = |background_last_turn| {
        let options = SearchOptions {
            fallback_evaluations: 1_000,
            improve_plans: false,
            background_last_turn,
            ..SearchOptions::satisficing_default()
        };
        let r = search(&task, &options, &AtomicBool::new(false), &mut NoObserver);
        let s = r.statistics;
        (r.outcome, r.plan, s.expanded, s.generated, s.evaluated)
    };
    let alone = run(None);
    assert!(alone.1.is_some());
    assert_eq!(run(Some(Duration::ZERO)), alone);
}

/// Runs `options(true)` and `options(false)` (without plan improvement,
/// cancelled after `budget` evaluations) and checks that only the first
/// finds a plan, and that it is valid; returns the evaluations of both.
fn solved_only_with_turn(
    task: &Task,
    name: &str,
    budget: u64,
    options: impl Fn(bool) -> SearchOptions,
) -> Vec<u64> {
    let mut evaluated = Vec::new();
    for turn in [true, false] {
        let options = SearchOptions {
            time_limit: Some(Duration::from_secs(60)),
            improve_plans: false,
            ..options(turn)
        };
        let cancel = AtomicBool::new(false);
        let mut observer = EvaluationBudget(&cancel, budget);
        let r = search(task, &options, &cancel, &mut observer);
        check_plan(task, &r, name);
        assert_eq!(
            r.plan.is_some(),
            turn,
            "{name}, turn {turn}: {} evaluated",
            r.statistics.evaluated
        );
        evaluated.push(r.statistics.evaluated);
    }
    evaluated
}

/// Cancels the search once this many states have been evaluated.
struct EvaluationBudget<'a>(&'a AtomicBool, u64);

impl pddl_search::SearchObserver for EvaluationBudget<'_> {
    fn on_progress(&mut self, progress: &pddl_search::Progress) {
        if progress.evaluated >= self.1 {
            self.0.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// The default on the first two tasks of every domain: each is solved and
/// its plan replays. (Symmetry reduction once returned an invalid plan on
/// a task solved in milliseconds; the reference comparison found it.)
#[test]
fn default_configuration_solves_the_first_tasks_of_every_domain() {
    let Some(dir) = benchmarks() else { return };
    // Known unsolved in 60 s (h_FF's resource balance misleads it).
    let skipped = ["settlers-numeric-automatic/instance-1.pddl"];
    for shared_data::BenchmarkTask {
        domain, problem, ..
    } in shared_data::first_tasks(&dir, 2)
    {
        if skipped.contains(&problem.as_str()) {
            continue;
        }
        let task = load(&dir, &domain, &problem);
        let r = solve_default(&task, Duration::from_secs(20), &problem);
        assert_eq!(r.outcome, Outcome::Solved, "{problem}");
    }
}

/// The default configuration on the first five tasks of each domain.
/// Long: run with
/// `cargo test -p pddl-search --release --test benchmarks -- --ignored --nocapture`.
#[test]
#[ignore = "sweep over the benchmark set; run in release"]
fn default_configuration_sweep() {
    let Some(dir) = benchmarks() else { return };
    let (mut solved, mut total) = (0, 0);
    for task in shared_data::first_tasks(&dir, 5) {
        // SWEEP_FILTER=visitall restricts the sweep to matching domains.
        if std::env::var("SWEEP_FILTER").is_ok_and(|f| !task.family().contains(&f)) {
            continue;
        }
        let (domain, problem) = (task.domain.as_str(), task.problem.as_str());
        total += 1;
        let start = Instant::now();
        let task = match shared::try_load(&dir, domain, problem) {
            Ok(t) => t,
            Err(e) => {
                println!("{e}");
                continue;
            }
        };
        let grounded = start.elapsed();
        let r = solve_default(&task, Duration::from_secs(30), problem);
        if r.outcome == Outcome::Solved {
            solved += 1;
        }
        println!(
            "{problem}: {:?} cost {:?} ground {:.3}s search {:.3}s total {:.3}s expanded {} evaluated {}",
            r.outcome,
            r.plan.map(|p| p.cost),
            grounded.as_secs_f64(),
            r.statistics.search_time.as_secs_f64(),
            start.elapsed().as_secs_f64(),
            r.statistics.expanded,
            r.statistics.evaluated
        );
    }
    println!("solved {solved} of {total}");
}
