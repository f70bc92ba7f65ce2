//! The landmark-count heuristic on real PDDL from /work/shared/benchmarks
//! (skipped when absent): lazy greedy search with lmcount alone and the
//! LAMA-style combination (h_FF and lmcount in alternation, preferred
//! operators from both, boosting) solve tasks with plans that replay,
//! and an ignored sweep compares the combination with the default
//! configuration.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use pddl_ground::Task;
mod shared;
use shared::benchmarks;

use pddl_search::heuristics::landmarks::lm_count::LmCount;
use pddl_search::heuristics::{CostType, Heuristic, hff::HFF};
use pddl_search::open_lists::AlternationOpenList;
use pddl_search::search_algorithms::Monitor;
use pddl_search::search_algorithms::lazy::{self, LazyParams};
use pddl_search::successor::StateSpace;
use pddl_search::{
    Cost, Engine, HeuristicKind, NoObserver, Outcome, Plan, SearchOptions, search, simulate,
};

/// Asserts that a plan replays to the goal with its stated cost.
fn check_plan(task: &Task, plan: &Plan, what: &str) {
    let end = simulate(task, &plan.operators).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(end.goal_reached, "{what}: plan does not reach the goal");
    assert_eq!(end.cost, plan.cost, "{what}");
}

/// LAMA-first's search: lazy greedy with h_FF and landmark count (unit
/// costs) in an alternation open list, preferred operators from both,
/// boosted on progress. Returns the outcome, the plan and a summary of
/// the landmark graph.
fn lama(task: &Task, limit: Duration) -> (Outcome, Option<Plan>, String) {
    let cancel = AtomicBool::new(false);
    let mut observer = NoObserver;
    let mut monitor = Monitor::new(Some(limit), None, &cancel, &mut observer);
    let mut space = StateSpace::new(task);
    let mut hff = HFF::new(task, CostType::Unit);
    let mut lmcount = LmCount::new(task);
    let graph = lmcount.graph();
    let summary = format!(
        "{} landmarks ({} disjunctive), {} orderings{}",
        graph.len(),
        graph.facts.iter().filter(|f| f.len() > 1).count(),
        graph.orderings.len(),
        if graph.truncated { ", truncated" } else { "" }
    );
    let mut evaluators: Vec<&mut dyn Heuristic> = vec![&mut hff, &mut lmcount];
    let open = AlternationOpenList::new(evaluators.len());
    let params = LazyParams {
        preferred: true,
        bound: Cost::MAX,
        follow_forced: true,
    };
    let r = lazy::run(&mut space, &mut evaluators, params, open, &mut monitor);
    (r.outcome, r.plan, summary)
}

/// Small tasks, including conditional effects (airport-adl,
/// miconic-fulladl), derived predicates (psr-small) and action costs.
const SMALL: &[(&str, &str)] = &[
    ("blocks/domain.pddl", "blocks/probBLOCKS-9-0.pddl"),
    (
        "logistics00/domain.pddl",
        "logistics00/probLOGISTICS-8-0.pddl",
    ),
    ("depot/domain.pddl", "depot/p01.pddl"),
    (
        "airport-adl/domain.pddl",
        "airport-adl/p01-airport1-p1.pddl",
    ),
    ("miconic-fulladl/domain.pddl", "miconic-fulladl/f3-0.pddl"),
    (
        "psr-small/p01-domain.pddl",
        "psr-small/p01-s2-n1-l2-f50.pddl",
    ),
    (
        "parcprinter-08-strips/p01-domain.pddl",
        "parcprinter-08-strips/p01.pddl",
    ),
    (
        "transport-sat08-strips/domain.pddl",
        "transport-sat08-strips/p01.pddl",
    ),
];

#[test]
fn lmcount_and_lama_solve_small_tasks() {
    let Some(dir) = benchmarks() else { return };
    for &(domain, problem) in SMALL {
        if !dir.join(problem).exists() {
            eprintln!("skipping {problem}: not found");
            continue;
        }
        let task = shared::load(&dir, domain, problem);
        let options = SearchOptions {
            engine: Engine::LazyGreedy,
            heuristic: HeuristicKind::LmCount,
            goal_count_alternation: false,
            improve_plans: false,
            time_limit: Some(Duration::from_secs(30)),
            ..SearchOptions::satisficing_default()
        };
        let r = search(&task, &options, &AtomicBool::new(false), &mut NoObserver);
        assert_eq!(r.outcome, Outcome::Solved, "{problem}: lmcount");
        check_plan(&task, r.plan.as_ref().expect("plan"), problem);
        let eager = SearchOptions {
            engine: Engine::EagerGreedy,
            ..options
        };
        let r = search(&task, &eager, &AtomicBool::new(false), &mut NoObserver);
        assert_eq!(r.outcome, Outcome::Solved, "{problem}: eager lmcount");
        check_plan(&task, r.plan.as_ref().expect("plan"), problem);
        let (outcome, plan, _) = lama(&task, Duration::from_secs(30));
        assert_eq!(outcome, Outcome::Solved, "{problem}: lama");
        check_plan(&task, plan.as_ref().expect("plan"), problem);
    }
}

#[test]
fn blocks_landmarks_are_found() {
    let Some(dir) = benchmarks() else { return };
    let task = shared::load(&dir, "blocks/domain.pddl", "blocks/probBLOCKS-4-0.pddl");
    let h = LmCount::new(&task);
    let graph = h.graph();
    let names: Vec<String> = graph
        .facts
        .iter()
        .flatten()
        .map(|&f| {
            let a = &task.facts[f as usize];
            format!("{}({})", a.predicate, a.args.join(" "))
        })
        .collect();
    // Every goal fact is a landmark, and so is its achiever's shared
    // precondition `holding` of the upper block.
    for &goal in &task.goal.pos {
        assert!(graph.facts.contains(&vec![goal]));
    }
    assert!(
        names.iter().any(|n| n.starts_with("holding")),
        "landmarks: {names:?}"
    );
    assert!(!graph.truncated);
    assert!(!graph.orderings.is_empty());
}

/// CPU time of this process (user + system) from /proc, if readable.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // Fields 14 and 15 of stat(5), counted after the command name.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// One run: wall and CPU seconds (loading included), plan length if solved.
type Run = (f64, f64, Option<usize>);

/// Today's default configuration against the LAMA-style combination, on
/// every task of the domains in `LAMA_DOMAINS` (or of those named in
/// `SWEEP_FILTER`, comma separated, which may also name tasks), one task at a time, 20 s each (`SWEEP_SECONDS`),
/// loading included. Plan improvement is off for both so that lengths
/// compare the searches; `SWEEP_LAMA_ONLY=1` skips the default. Long: run with
/// `cargo test -p pddl-search --release --test landmarks -- --ignored --nocapture`.
#[test]
#[ignore = "sweep over the benchmark set; run in release"]
fn lama_versus_default_sweep() {
    const LAMA_DOMAINS: &[&str] = &[
        "depot",
        "transport-sat08-strips",
        "parcprinter-08-strips",
        "sokoban-sat08-strips",
        "freecell",
        "elevators-sat08-strips",
        "woodworking-sat08-strips",
        "scanalyzer-08-strips",
        "visitall-sat11-strips",
        "airport-adl",
        "logistics00",
        "blocks",
    ];
    let Some(dir) = benchmarks() else { return };
    let seconds: u64 = std::env::var("SWEEP_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let filter = std::env::var("SWEEP_FILTER").ok();
    let lama_only = std::env::var("SWEEP_LAMA_ONLY").is_ok();
    let limit = Duration::from_secs(seconds);
    let list = std::fs::read_to_string(dir.join("tasks.tsv")).expect("tasks.tsv");
    // Per domain, per task: (default run, lama run).
    let mut domains: Vec<(String, Vec<[Run; 2]>)> = Vec::new();
    for line in list.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [_, domain, problem] = cols[..] else {
            continue;
        };
        let family = problem.split('/').next().unwrap_or("").to_string();
        let wanted = match &filter {
            Some(f) => f.split(',').any(|name| name == family || name == problem),
            None => LAMA_DOMAINS.contains(&family.as_str()),
        };
        if !wanted {
            continue;
        }
        if domains.last().is_none_or(|d| d.0 != family) {
            domains.push((family.clone(), Vec::new()));
        }
        let mut runs = [(0.0, 0.0, None); 2];
        let mut row = String::new();
        for (which, run) in runs.iter_mut().enumerate() {
            if lama_only && which == 0 {
                continue;
            }
            let (wall0, cpu0) = (Instant::now(), cpu_seconds().unwrap_or(0.0));
            let task = match shared::try_load(&dir, domain, problem) {
                Ok(t) => t,
                Err(e) => {
                    println!("{e}");
                    continue;
                }
            };
            let left = limit.saturating_sub(wall0.elapsed());
            let (outcome, plan, summary) = if which == 0 {
                let options = SearchOptions {
                    time_limit: Some(left),
                    improve_plans: false,
                    ..SearchOptions::satisficing_default()
                };
                let r = search(&task, &options, &AtomicBool::new(false), &mut NoObserver);
                (r.outcome, r.plan, String::new())
            } else {
                lama(&task, left)
            };
            if let Some(plan) = &plan {
                check_plan(&task, plan, problem);
            }
            *run = (
                wall0.elapsed().as_secs_f64(),
                cpu_seconds().unwrap_or(0.0) - cpu0,
                plan.map(|p| p.operators.len()),
            );
            row += &format!(
                " | {outcome:?} {:.2}s cpu {:.2}s len {:?} {summary}",
                run.0, run.1, run.2
            );
        }
        println!("{problem}{row}");
        if let Some(d) = domains.last_mut() {
            d.1.push(runs);
        }
    }
    println!(
        "| domain | default solved | lama solved | default CPU s (all tasks) | lama CPU s (all tasks) | default wall s | lama wall s | both solved | default length | lama length |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (family, runs) in &domains {
        let solved = |w: usize| runs.iter().filter(|r| r[w].2.is_some()).count();
        let cpu = |w: usize| runs.iter().map(|r| r[w].1).sum::<f64>();
        let wall = |w: usize| runs.iter().map(|r| r[w].0).sum::<f64>();
        let both: Vec<_> = runs
            .iter()
            .filter(|r| r[0].2.is_some() && r[1].2.is_some())
            .collect();
        let length = |w: usize| both.iter().map(|r| r[w].2.unwrap_or(0)).sum::<usize>();
        println!(
            "| {family} | {}/{n} | {}/{n} | {:.2} | {:.2} | {:.2} | {:.2} | {} | {} | {} |",
            solved(0),
            solved(1),
            cpu(0),
            cpu(1),
            wall(0),
            wall(1),
            both.len(),
            length(0),
            length(1),
            n = runs.len(),
        );
    }
}
