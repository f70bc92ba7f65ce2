//! `plan DOMAIN PROBLEM` / `plan solve`: find a plan and print it.

use planner::exit;
use planner::ground::task::CostModel;
use planner::search::{Engine, HeuristicKind, Outcome, SearchOptions};
use planner::solve::{Solution, plan_text, solve_files};

use crate::progress::ProgressPrinter;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The domain file.
    #[arg(value_name = "DOMAIN")]
    pub domain: Option<PathBuf>,
    /// The problem file.
    #[arg(value_name = "PROBLEM")]
    pub problem: Option<PathBuf>,
    /// Find an optimal plan: A* with LM-cut (unless --search/--heuristic say otherwise).
    #[arg(long)]
    pub optimal: bool,
    /// Search algorithm: bfs, astar, wastar, eager-greedy, lazy-greedy.
    /// With --search, --heuristic or --weight the search runs as named,
    /// without the default's fallback turns (landmarks, novelty).
    #[arg(long, value_name = "ALGORITHM")]
    pub search: Option<Engine>,
    /// Heuristic: blind, goalcount, hmax, hadd, hff, lmcut, lmcount, lama (h_FF + landmark count).
    #[arg(long, value_name = "HEURISTIC")]
    pub heuristic: Option<HeuristicKind>,
    /// Weight of weighted A* (w >= 1).
    #[arg(long, value_name = "W")]
    pub weight: Option<f64>,
    /// Keep improving the plan until the time limit (or until proven optimal).
    #[arg(long)]
    pub anytime: bool,
    /// Greedy search: alternate also with open lists ordered by novelty
    /// (best-first width search), which explores where the heuristic's
    /// plateaus trap greedy search.
    #[arg(long)]
    pub novelty: bool,
    /// Search every state: do not merge states that differ only by a
    /// permutation of interchangeable objects (symmetry reduction).
    #[arg(long)]
    pub no_symmetry: bool,
    /// Threads to use: with 2 (the default, on machines with two or more
    /// cores) the default's last fallback turn (greedy search with
    /// novelty) starts on a second thread once the search has run 0.1 s,
    /// beside the first turns, and A* and weighted A* (--optimal, the
    /// improvement restarts, a first turn once the last one has ended)
    /// evaluate new states on both threads after 1 000 evaluations; same
    /// plans and counts, sooner. 1 keeps to one thread.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub threads: u8,
    /// Stop after this many seconds (parsing and grounding included).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Stop when the search would use more than this many MiB.
    #[arg(long, value_name = "MIB")]
    pub memory_limit: Option<u64>,
    /// Write the plan to this file instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print one JSON object with the result instead of the plan.
    #[arg(long)]
    pub json: bool,
    /// No progress on standard error.
    #[arg(short, long)]
    pub quiet: bool,
}

pub fn run(args: SolveArgs) -> i32 {
    let (Some(domain), Some(problem)) = (&args.domain, &args.problem) else {
        eprintln!(
            "error: `plan` needs a DOMAIN and a PROBLEM file (or a subcommand; see `plan --help`)"
        );
        return exit::INPUT_ERROR;
    };
    let options = match search_options(&args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::INPUT_ERROR;
        }
    };
    let cancel = crate::interrupt::cancel_flag();
    let mut progress = ProgressPrinter::new(args.quiet || args.json);
    let solution = match solve_files(domain, problem, &options, cancel, &mut progress) {
        Ok(solution) => solution,
        Err(error) => {
            eprint!("{error}");
            if !error.to_string().ends_with('\n') {
                eprintln!();
            }
            return error.exit_status();
        }
    };
    progress.finish();
    if !args.quiet && !args.json {
        for warning in &solution.checked.warnings {
            eprintln!("{warning}");
        }
        if let CostModel::NotOptimised { reason } = &solution.task.cost_model {
            eprintln!("warning: the plan is not optimised for the metric: {reason}");
        }
    }
    let status = outcome_status(solution.result.outcome, solution.result.plan.is_some());
    // Computed once: where the ground task cannot express the metric, it
    // takes a replay by the validator.
    let metric_value = solution.metric_value();
    if args.json {
        println!("{}", json_report(&solution, metric_value));
    } else {
        print_summary(&solution, metric_value, args.quiet);
    }
    if let Some(plan) = &solution.result.plan {
        let text = plan_text(&solution.task, plan, metric_value);
        match &args.output {
            Some(path) => {
                if let Err(e) = std::fs::write(path, &text) {
                    eprintln!("error: cannot write `{}`: {e}", path.display());
                    return exit::INPUT_ERROR;
                }
            }
            None if !args.json => print!("{text}"),
            None => {}
        }
    }
    status
}

/// Builds the search configuration from the flags.
fn search_options(args: &SolveArgs) -> Result<SearchOptions, String> {
    let mut options = if args.optimal {
        SearchOptions::optimal_default()
    } else {
        SearchOptions::satisficing_default()
    };
    if let Some(engine) = args.search {
        options.engine = engine;
        if args.heuristic.is_none() {
            options.heuristic = match engine {
                Engine::BreadthFirst => HeuristicKind::Blind,
                Engine::AStar if args.optimal => HeuristicKind::LmCut,
                Engine::AStar => HeuristicKind::LmCut,
                _ => HeuristicKind::HFF,
            };
        }
        options.preferred_operators = matches!(engine, Engine::LazyGreedy | Engine::EagerGreedy);
    }
    if let Some(heuristic) = args.heuristic {
        options.heuristic = heuristic;
    }
    if let Some(weight) = args.weight {
        if !(weight >= 1.0 && weight.is_finite()) {
            return Err(format!("--weight must be a number >= 1, got {weight}"));
        }
        options.weight = weight;
        if args.search.is_none() {
            options.engine = Engine::WeightedAStar;
        }
    }
    if let Some(seconds) = args.time_limit {
        if !(seconds > 0.0 && seconds.is_finite()) {
            return Err(format!(
                "--time-limit must be a positive number of seconds, got {seconds}"
            ));
        }
        options.time_limit = Some(Duration::from_secs_f64(seconds));
    }
    options.memory_limit_bytes = args.memory_limit.map(|mib| mib.saturating_mul(1 << 20));
    options.anytime = args.anytime;
    options.symmetry_reduction = !args.no_symmetry;
    options.novelty |= args.novelty;
    options = options.with_threads(args.threads.into());
    if args.search.is_some() || args.heuristic.is_some() || args.weight.is_some() {
        options = options.without_fallbacks();
    }
    if args.anytime && options.time_limit.is_none() {
        return Err("--anytime needs --time-limit (it improves the plan until then)".into());
    }
    Ok(options)
}

/// The exit status for a search outcome.
fn outcome_status(outcome: Outcome, has_plan: bool) -> i32 {
    if has_plan {
        return exit::SUCCESS;
    }
    match outcome {
        Outcome::Solved => exit::SUCCESS,
        Outcome::Unsolvable => exit::UNSOLVABLE,
        Outcome::TimeLimit => exit::TIME_LIMIT,
        Outcome::MemoryLimit => exit::MEMORY_LIMIT,
        Outcome::Cancelled => exit::INTERRUPTED,
    }
}

fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Solved => "solved",
        Outcome::Unsolvable => "unsolvable",
        Outcome::TimeLimit => "time limit",
        Outcome::MemoryLimit => "memory limit",
        Outcome::Cancelled => "interrupted",
    }
}

/// Statistics on stderr, after the search.
fn print_summary(solution: &Solution, metric_value: Option<f64>, quiet: bool) {
    let result = &solution.result;
    let stats = &result.statistics;
    if quiet {
        if result.plan.is_none() {
            eprintln!("{}", outcome_name(result.outcome));
        }
        return;
    }
    let times = &solution.times;
    eprintln!(
        "{}: {} expanded, {} generated, {} evaluated; parse {:.3}s, ground {:.3}s, search {:.3}s; peak memory {} MiB",
        outcome_name(result.outcome),
        stats.expanded,
        stats.generated,
        stats.evaluated,
        times.parse.as_secs_f64(),
        times.ground.as_secs_f64(),
        times.search.as_secs_f64(),
        peak_memory_bytes().unwrap_or(stats.peak_memory_bytes) >> 20,
    );
    if let Some(plan) = &result.plan {
        let optimal = if result.proven_optimal {
            ", optimal"
        } else {
            ""
        };
        eprintln!(
            "plan: {} steps, cost {}{optimal}",
            plan.operators.len(),
            plan.cost
        );
        if let Some(value) = metric_value {
            eprintln!("metric value: {value}");
        }
    }
}

/// One JSON object describing the whole run.
fn json_report(solution: &Solution, metric_value: Option<f64>) -> serde_json::Value {
    let result = &solution.result;
    let stats = &result.statistics;
    let plan = result.plan.as_ref();
    serde_json::json!({
        "status": outcome_name(result.outcome),
        "plan": plan.map(|p| p.operators.iter().map(|&o| solution.task.operators[o as usize].plan_line()).collect::<Vec<_>>()),
        "cost": plan.map(|p| p.cost),
        "general_cost": solution.task.has_general_costs(),
        "optimal": result.proven_optimal,
        "metric_value": metric_value,
        "expanded": stats.expanded,
        "generated": stats.generated,
        "evaluated": stats.evaluated,
        "states": stats.states,
        "time": {
            "parse": solution.times.parse.as_secs_f64(),
            "ground": solution.times.ground.as_secs_f64(),
            "search": solution.times.search.as_secs_f64(),
        },
        "peak_memory_bytes": peak_memory_bytes().unwrap_or(stats.peak_memory_bytes),
    })
}

/// The process's peak resident memory, where the OS tells it (Linux).
fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
