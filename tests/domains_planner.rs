//! The planner on the shipped domains: optimal search finds the optima the
//! independent solvers computed, satisficing search solves every shipped
//! problem with a plan that replays to the goal, and N-queens is solvable
//! exactly when it should be.
//!
//! The slow cases are `#[ignore]`d; run them with
//! `cargo test -p planner --test domains_planner -- --ignored --nocapture`
//! (the test profile is optimised; `--nocapture` shows the time per problem).

mod domains_support;

use domains_support::{
    DOMAINS, EXPECTED_OPTIMA, load_domain, load_problem_text, problem_path, shipped_problems,
    solvers, stem,
};
use pddl_ground::{GroundOptions, ground};
use pddl_search::{
    Engine, HeuristicKind, NoObserver, Outcome, Progress, SearchObserver, SearchOptions,
    SearchResult, search, simulate,
};
use pddl_validate::{Validator, parse_plan};
use planner::generate::rng::Rng;
use planner::generate::{hanoi, queens, tsp};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Time allowed per search: generous, so only a real regression fails.
const TIME_LIMIT: Duration = Duration::from_secs(120);

/// Optimal problems that take the planner more than a few seconds in a
/// test build: checked by the ignored test only.
const SLOW_OPTIMAL: &[&str] = &["hanoi-09", "tiles4x4-k40-s1", "tiles4x4-k60-s2"];

/// Problems whose optimum (known from the independent solvers) the
/// optimal planner does not prove within the time limit: the hard end of
/// the suite, left out of the optimal checks.
const BEYOND_OPTIMAL_PLANNER: &[&str] = &["tiles4x4-k60-s1"];

/// Unit-cost problems where LM-cut costs more than it prunes: there
/// optimal search is breadth-first search, optimal for unit costs.
const BREADTH_FIRST_OPTIMAL: &[&str] = &["hanoi-12"];

/// Problems satisficing search needs more than a few seconds for.
const SLOW_SATISFICING: &[&str] = &["hanoi-12"];

/// Parses, checks, grounds and searches; asserts that a plan found replays
/// to the goal with the cost the search reported, both on the ground task
/// and in the independent validator on the lifted model.
fn solve(domain: &str, name: &str, text: &str, options: &SearchOptions) -> SearchResult {
    let parsed_domain = load_domain(domain);
    let problem = load_problem_text(&parsed_domain, name, text);
    let task = ground(&parsed_domain, &problem, &GroundOptions::default())
        .unwrap_or_else(|error| panic!("{domain}/{name}: {error}"));
    let options = SearchOptions {
        time_limit: Some(TIME_LIMIT),
        ..options.clone()
    };
    let result = search(&task, &options, &AtomicBool::new(false), &mut NoObserver);
    if let Some(plan) = &result.plan {
        let end = simulate(&task, &plan.operators)
            .unwrap_or_else(|error| panic!("{domain}/{name}: {error}"));
        assert!(
            end.goal_reached,
            "{domain}/{name}: the plan does not reach the goal"
        );
        assert_eq!(end.cost, plan.cost, "{domain}/{name}");

        let lines: String = plan
            .operators
            .iter()
            .map(|&op| task.operators[op as usize].plan_line() + "\n")
            .collect();
        let lifted_plan =
            parse_plan(&lines).unwrap_or_else(|error| panic!("{domain}/{name}: {error:?}"));
        let validator = Validator::new(&parsed_domain, &problem)
            .unwrap_or_else(|error| panic!("{domain}/{name}: {error:?}"));
        let report = validator.validate(&lifted_plan);
        assert!(
            report.is_valid(),
            "{domain}/{name}: {}",
            report.to_text(false)
        );
        // Every metric here is (total-cost) from 0; unit-cost domains have
        // none. Decimal increments are costs in units of 1/scale; the
        // validator sums the decimals as they are.
        let lifted_cost = report
            .metric
            .map_or(lifted_plan.steps.len() as f64, |metric| metric.value);
        let scale = task.cost_model.scale() as f64;
        assert_eq!(
            (lifted_cost * scale).round(),
            plan.cost as f64,
            "{domain}/{name}"
        );
    }
    result
}

fn shipped_text(domain: &str, stem: &str) -> String {
    std::fs::read_to_string(problem_path(domain, stem)).expect("a shipped problem")
}

fn check_optimal(slow: bool, heuristic: HeuristicKind) {
    for &(domain, stem, expected) in EXPECTED_OPTIMA {
        if SLOW_OPTIMAL.contains(&stem) != slow || BEYOND_OPTIMAL_PLANNER.contains(&stem) {
            continue;
        }
        let mut options = SearchOptions {
            heuristic,
            ..SearchOptions::optimal_default()
        };
        if BREADTH_FIRST_OPTIMAL.contains(&stem) {
            options.engine = Engine::BreadthFirst;
        }
        let started = Instant::now();
        let result = solve(domain, stem, &shipped_text(domain, stem), &options);
        eprintln!(
            "{domain}/{stem}: {:?} in {:.2?}",
            result.outcome,
            started.elapsed()
        );
        assert_eq!(result.outcome, Outcome::Solved, "{domain}/{stem}");
        assert!(result.proven_optimal, "{domain}/{stem}");
        assert_eq!(
            result.plan.map(|p| p.cost),
            Some(expected),
            "{domain}/{stem}"
        );
    }
}

#[test]
fn optimal_search_finds_the_independent_optima() {
    check_optimal(false, HeuristicKind::LmCut);
}

/// The same optima with A* and pattern databases instead of LM-cut.
#[test]
fn pattern_databases_find_the_independent_optima() {
    check_optimal(false, HeuristicKind::Pdb);
}

#[test]
#[ignore = "about a minute; run with -- --ignored"]
fn optimal_search_finds_the_independent_optima_on_larger_problems() {
    check_optimal(true, HeuristicKind::LmCut);
}

fn check_satisficing(slow: bool) {
    for domain in DOMAINS {
        for path in shipped_problems(domain) {
            let name = stem(&path);
            if SLOW_SATISFICING.contains(&name.as_str()) != slow {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable");
            let started = Instant::now();
            let result = solve(domain, &name, &text, &SearchOptions::satisficing_default());
            let cost = result.plan.as_ref().map(|p| p.cost);
            eprintln!(
                "{domain}/{name}: {:?} cost {cost:?} in {:.2?}",
                result.outcome,
                started.elapsed()
            );
            assert_eq!(result.outcome, Outcome::Solved, "{domain}/{name}");
            // No plan can beat the optimum.
            if let Some(&(_, _, optimum)) = EXPECTED_OPTIMA.iter().find(|(_, s, _)| *s == name) {
                assert!(
                    result.plan.is_some_and(|p| p.cost >= optimum),
                    "{domain}/{name}"
                );
            }
        }
    }
}

#[test]
fn satisficing_search_solves_every_shipped_problem() {
    check_satisficing(false);
}

#[test]
#[ignore = "about ten seconds; run with -- --ignored"]
fn satisficing_search_solves_the_largest_shipped_problems() {
    check_satisficing(true);
}

#[test]
fn queens_is_solvable_from_four_to_twelve_and_not_for_two_or_three() {
    for n in 1..=12 {
        let name = queens::problem_name(n);
        let text = queens::generate(n).expect("a valid size");
        let result = solve(
            "queens",
            &name,
            &text,
            &SearchOptions::satisficing_default(),
        );
        if n == 2 || n == 3 {
            assert_eq!(result.outcome, Outcome::Unsolvable, "n = {n}");
        } else {
            assert_eq!(result.outcome, Outcome::Solved, "n = {n}");
            assert_eq!(
                result.plan.map(|p| p.operators.len()),
                Some(n),
                "one placement per row"
            );
        }
    }
}

#[test]
fn optimal_hanoi_plans_cost_two_to_the_n_minus_one() {
    for discs in 1..=7 {
        let text = hanoi::generate(discs).expect("a valid size");
        let result = solve(
            "hanoi",
            &hanoi::problem_name(discs),
            &text,
            &SearchOptions::optimal_default(),
        );
        assert!(result.proven_optimal, "{discs} discs");
        assert_eq!(
            result.plan.map(|p| p.cost),
            Some((1 << discs) - 1),
            "{discs} discs"
        );
    }
}

/// Raises the cancellation flag once A* reaches an `f` layer of
/// `stop_at`, and remembers the largest layer it was told of.
struct StopAtLayer<'a> {
    cancel: &'a AtomicBool,
    stop_at: u64,
    largest_layer: Option<u64>,
}

impl SearchObserver for StopAtLayer<'_> {
    fn on_progress(&mut self, progress: &Progress) {
        if let Some(f) = progress.best_f {
            self.largest_layer = self.largest_layer.max(Some(f));
            if f >= self.stop_at {
                self.cancel.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// Tours whose road lengths have two decimal places: the grounder scales
/// them into integer costs (hundredths), and A* finds the shortest tour
/// that Held-Karp computes on the hundredths. The lengths are made
/// asymmetric, so each direction of a road counts.
#[test]
fn optimal_search_minimises_a_metric_with_decimal_increments() {
    const CITIES: usize = 7;
    for seed in 1..=3u64 {
        let points = tsp::random_cities(CITIES, &mut Rng::new(seed));
        let hundredths: Vec<Vec<u64>> = (0..CITIES)
            .map(|i| {
                (0..CITIES)
                    .map(|j| {
                        let road = tsp::road_length(points[i], points[j]) * 100;
                        road + (i as u64 * 37 + j as u64 * 61 + seed * 7) % 100
                    })
                    .collect()
            })
            .collect();
        // The generated problem, its integer lengths replaced.
        let generated = tsp::generate(CITIES, seed).expect("a problem");
        let text: String = generated
            .lines()
            .map(|line| {
                let Some(rest) = line.trim().strip_prefix("(= (road-length c") else {
                    return format!("{line}\n");
                };
                let from: usize = rest[..1].parse().expect("a city");
                let to: usize = rest[3..4].parse().expect("a city");
                let length = hundredths[from - 1][to - 1];
                // The last line also closes `(:init`.
                let closing = ")".repeat(rest.matches(')').count() - 1);
                format!(
                    "(= (road-length c{from} c{to}) {}.{:02}{closing}\n",
                    length / 100,
                    length % 100
                )
            })
            .collect();
        let decimal_lengths = text
            .lines()
            .filter(|line| line.starts_with("(= (road-length") && line.contains('.'))
            .count();
        assert_eq!(decimal_lengths, CITIES * (CITIES - 1), "{text}");
        let name = format!("tsp-decimal-s{seed}");
        let result = solve("tsp", &name, &text, &SearchOptions::optimal_default());
        assert!(result.proven_optimal, "{name}");
        let optimum = solvers::tsp_held_karp(&hundredths);
        assert_eq!(result.plan.map(|p| p.cost), Some(optimum), "{name}");
    }
}

#[test]
fn a_stopped_optimal_search_proves_the_layer_it_reached_and_no_more() {
    // Unit and general costs; the layers stop a few short of the optimum,
    // where A* still has many states to expand.
    let cases = [
        ("sliding-tiles", "tiles4x4-k20-s1", 16),
        ("blocksworld-costs", "blocks-costs-08-s1", 50),
        ("tsp", "tsp-08-s1", 200),
    ];
    for (domain, stem, stop_at) in cases {
        let optimum = EXPECTED_OPTIMA
            .iter()
            .find(|&&(d, s, _)| (d, s) == (domain, stem))
            .map(|&(_, _, cost)| cost)
            .expect("a known optimum");
        let parsed_domain = load_domain(domain);
        let problem = load_problem_text(&parsed_domain, stem, &shipped_text(domain, stem));
        let task = ground(&parsed_domain, &problem, &GroundOptions::default()).expect("grounds");
        for heuristic in [
            HeuristicKind::Blind,
            HeuristicKind::HMax,
            HeuristicKind::LmCut,
            HeuristicKind::Pdb,
        ] {
            let cancel = AtomicBool::new(false);
            let mut observer = StopAtLayer {
                cancel: &cancel,
                stop_at,
                largest_layer: None,
            };
            let options = SearchOptions {
                heuristic,
                time_limit: Some(TIME_LIMIT),
                ..SearchOptions::optimal_default()
            };
            let result = search(&task, &options, &cancel, &mut observer);
            let what = format!("{domain}/{stem} {heuristic}");
            if result.outcome == Outcome::Cancelled {
                assert_eq!(result.lower_bound, observer.largest_layer, "{what}");
                let bound = result.lower_bound.expect("a layer");
                assert!((stop_at..=optimum).contains(&bound), "{what}: {bound}");
            } else {
                // Done before the flag was looked at: the optimum itself.
                assert!(result.proven_optimal, "{what}");
                assert_eq!(result.lower_bound, Some(optimum), "{what}");
            }
        }
        // Searches that do not expand in order of an admissible f prove nothing.
        for (engine, heuristic) in [
            (Engine::WeightedAStar, HeuristicKind::HMax),
            (Engine::AStar, HeuristicKind::HFF),
            (Engine::EagerGreedy, HeuristicKind::HFF),
        ] {
            let cancel = AtomicBool::new(true);
            let options = SearchOptions {
                engine,
                heuristic,
                weight: 2.0,
                improve_plans: false,
                time_limit: Some(TIME_LIMIT),
                ..SearchOptions::optimal_default()
            };
            let result = search(&task, &options, &cancel, &mut NoObserver);
            assert_eq!(
                result.outcome,
                Outcome::Cancelled,
                "{domain}/{stem} {engine}"
            );
            assert_eq!(
                result.lower_bound, None,
                "{domain}/{stem} {engine} {heuristic}"
            );
        }
    }
}

/// The default's eager improvement restarts run on a second thread beside
/// the lazy ones (started again from each plan the lazy ones find), yet
/// the plans and counts are those of one thread. On the tsp problems both
/// kinds of restarts improve the plan, on briefcase neither.
#[test]
fn the_default_gives_the_same_plans_and_counts_on_one_thread_and_on_two() {
    for (domain, stem) in [
        ("tsp", "tsp-10-s1"),
        ("tsp", "tsp-12-s1"),
        ("sliding-tiles", "tiles3x3-k20-s2"),
        ("briefcase", "briefcase-l08-i08-s1"),
    ] {
        let text = shipped_text(domain, stem);
        let run = |threads: usize| {
            let options = SearchOptions::satisficing_default().with_threads(threads);
            let result = solve(domain, stem, &text, &options);
            let stats = &result.statistics;
            (
                result.outcome,
                result.plan.clone(),
                [stats.expanded, stats.generated, stats.evaluated],
            )
        };
        assert_eq!(run(2), run(1), "{domain}/{stem}");
    }
}
