//! The landmark-count heuristic on real PDDL from `../shared/benchmarks`
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

use pddl_search::heuristics::Heuristic;
use pddl_search::heuristics::landmarks::lm_count::LmCount;
use pddl_search::heuristics::landmarks::mutex::Mutexes;
use pddl_search::heuristics::landmarks::{LandmarkGraph, LandmarkLimits};
use pddl_search::state::{StateView, has_fact, set_fact};
use pddl_search::{
    Engine, HeuristicKind, NoObserver, Outcome, Plan, SearchOptions, search, simulate,
};

/// Asserts that a plan replays to the goal with its stated cost.
fn check_plan(task: &Task, plan: &Plan, what: &str) {
    let end = simulate(task, &plan.operators).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(end.goal_reached, "{what}: plan does not reach the goal");
    assert_eq!(end.cost, plan.cost, "{what}");
}

/// LAMA-first's search (`HeuristicKind::Lama` without plan improvement):
/// lazy greedy with h_FF and landmark count (unit costs) in an
/// alternation open list, preferred operators from both, boosted on
/// progress. Returns the outcome, the plan, the expansions and a summary
/// of the landmark graph.
fn lama(task: &Task, limit: Duration) -> (Outcome, Option<Plan>, u64, String) {
    let graph = LandmarkGraph::generate(task, LandmarkLimits::default());
    let summary = format!(
        "{} landmarks ({} disjunctive), {} greedy-necessary, {} natural, {} reasonable orderings{}",
        graph.len(),
        graph.facts.iter().filter(|f| f.len() > 1).count(),
        graph.orderings.len(),
        graph.natural.len(),
        graph.reasonable.len(),
        if graph.truncated { ", truncated" } else { "" }
    );
    let options = SearchOptions {
        heuristic: HeuristicKind::Lama,
        improve_plans: false,
        time_limit: Some(limit),
        ..SearchOptions::satisficing_default()
    };
    let r = search(task, &options, &AtomicBool::new(false), &mut NoObserver);
    (r.outcome, r.plan, r.statistics.expanded, summary)
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
        let (outcome, plan, _, _) = lama(&task, Duration::from_secs(30));
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

/// The shipped blocks-world domain with `problem` (PDDL text), grounded.
fn shipped_blocks(problem: &str) -> Task {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let domain = std::fs::read_to_string(root.join("domains/blocksworld/domain.pddl"))
        .expect("shipped blocks-world domain");
    let d = pddl_syntax::parse_domain(&domain).expect("domain parses");
    let p = pddl_syntax::parse_problem(problem).expect("problem parses");
    pddl_ground::ground(&d, &p, &pddl_ground::GroundOptions::default()).expect("grounds")
}

/// Three blocks on the table; goal: the tower a on b on c.
const TOWER: &str = "(define (problem tower) (:domain blocksworld) (:objects a b c)
  (:init (handempty) (ontable a) (ontable b) (ontable c) (clear a) (clear b) (clear c))
  (:goal (and (on a b) (on b c))))";

/// `predicate(args)` of a fact.
fn fact_name(task: &Task, f: u32) -> String {
    let a = &task.facts[f as usize];
    format!("{}({})", a.predicate, a.args.join(" "))
}

/// The fact id of `predicate(args)`.
fn fact_id(task: &Task, name: &str) -> u32 {
    (0..task.facts.len() as u32)
        .find(|&f| fact_name(task, f) == name)
        .unwrap_or_else(|| panic!("no fact {name}"))
}

#[test]
fn tower_reasonable_orderings_and_mutexes() {
    let task = shipped_blocks(TOWER);
    let mutexes = Mutexes::compute(&task, u64::MAX).expect("small task");
    let id = |name: &str| fact_id(&task, name);
    assert!(mutexes.are_mutex(id("clear(b)"), id("on(a b)")));
    assert!(mutexes.are_mutex(id("holding(a)"), id("holding(b)")));
    assert!(mutexes.are_mutex(id("handempty()"), id("holding(c)")));
    assert!(!mutexes.are_mutex(id("on(a b)"), id("on(b c)")));
    assert!(!mutexes.are_mutex(id("holding(a)"), id("clear(b)")));
    let graph = LandmarkGraph::generate(&task, LandmarkLimits::default());
    let name = |l: u32| {
        let facts = &graph.facts[l as usize];
        assert_eq!(facts.len(), 1, "fact landmarks only");
        fact_name(&task, facts[0])
    };
    let mut reasonable: Vec<(String, String)> = graph
        .reasonable
        .iter()
        .map(|&(a, b)| (name(a), name(b)))
        .collect();
    reasonable.sort();
    // on(b c) before on(a b): stacking b needs b clear. Holding b, or
    // putting b or a on the table, also destroys on(a b) (the last two
    // hold initially, so they never delay anything); b on the table
    // destroys on(b c).
    let expected: Vec<(String, String)> = [
        ("holding(b)", "on(a b)"),
        ("on(b c)", "on(a b)"),
        ("ontable(a)", "on(a b)"),
        ("ontable(b)", "on(a b)"),
        ("ontable(b)", "on(b c)"),
    ]
    .iter()
    .map(|&(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(reasonable, expected);
}

/// lmcount along a path of operators (by their plan lines) from the
/// initial state: the value after each step.
fn lmcount_along(task: &Task, h: &mut LmCount, path: &[&str]) -> Vec<u64> {
    let words = task.facts.len().div_ceil(64);
    let mut state = vec![0u64; words];
    for &f in &task.init_facts {
        set_fact(&mut state, f, true);
    }
    h.notify_initial_state(
        0,
        StateView {
            facts: &state,
            fluents: &[],
        },
    );
    let mut values = Vec::new();
    for (step, line) in path.iter().enumerate() {
        let op = task
            .operators
            .iter()
            .position(|o| o.plan_line() == *line)
            .unwrap_or_else(|| panic!("no operator {line}"));
        let o = &task.operators[op];
        assert!(
            o.precondition.pos.iter().all(|&f| has_fact(&state, f)),
            "{line} applicable"
        );
        for &f in &o.del {
            set_fact(&mut state, f, false);
        }
        for &f in &o.add {
            set_fact(&mut state, f, true);
        }
        let next = state.clone();
        let (parent, child) = (step as u32, step as u32 + 1);
        let state_view = StateView {
            facts: &next,
            fluents: &[],
        };
        h.notify_transition(parent, op as u32, child, state_view);
        values.push(
            h.evaluate_registered(child, state_view, None)
                .expect("not a dead end"),
        );
    }
    values
}

#[test]
fn tower_lmcount_counts_a_block_stacked_too_early() {
    let task = shipped_blocks(TOWER);
    let mut h = LmCount::new(&task);
    let words = task.facts.len().div_ceil(64);
    let mut init = vec![0u64; words];
    for &f in &task.init_facts {
        set_fact(&mut init, f, true);
    }
    // Not reached: on(a b), on(b c), holding(a), holding(b).
    assert_eq!(
        h.evaluate(
            StateView {
                facts: &init,
                fluents: &[]
            },
            None
        ),
        Some(4)
    );
    // Right order: picking up b reaches holding(b) but makes `handempty`
    // (before holding(a)) and clear(b) (before on(a b)) owed again: 5;
    // then each step reaches landmarks for good.
    let right = lmcount_along(
        &task,
        &mut h,
        &["(pick-up b)", "(stack b c)", "(pick-up a)", "(stack a b)"],
    );
    assert_eq!(right, vec![5, 2, 1, 0]);
    // Wrong order: a on b first gains nothing, since on(a b) stays owed
    // until on(b c) is reached, and clear(b) is owed again (b must be
    // picked up).
    let mut h = LmCount::new(&task);
    h.notify_initial_state(
        0,
        StateView {
            facts: &init,
            fluents: &[],
        },
    );
    let wrong = lmcount_along(&task, &mut h, &["(pick-up a)", "(stack a b)"]);
    assert_eq!(wrong, vec![4, 4]);
}

#[test]
fn lama_solves_blocks_50_quickly() {
    // The largest shipped blocks-world problem: before reasonable
    // orderings and LAMA's preferred landmarks, `lama` found no plan in
    // 10 minutes (over 200 000 expansions in 20 s); now 1 691 expansions.
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let task = shared::load(
        root,
        "domains/blocksworld/domain.pddl",
        "problems/blocksworld/blocks-50-s1.pddl",
    );
    let (outcome, plan, expanded, summary) = lama(&task, Duration::from_secs(120));
    assert_eq!(outcome, Outcome::Solved, "{summary}");
    check_plan(&task, plan.as_ref().expect("plan"), "blocks-50-s1");
    assert!(expanded < 5_000, "{expanded} expansions; {summary}");
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
    // Per domain, per task: (default run, lama run).
    let mut domains: Vec<(String, Vec<[Run; 2]>)> = Vec::new();
    for task in shared_data::tasks(&dir) {
        let (domain, problem) = (task.domain.as_str(), task.problem.as_str());
        let family = task.family().to_string();
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
                let (outcome, plan, _, summary) = lama(&task, left);
                (outcome, plan, summary)
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
