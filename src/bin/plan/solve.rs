//! `plan DOMAIN PROBLEM` / `plan solve`: find a plan and print it.

use planner::exit;
use planner::ground::task::{Cost, CostModel};
use planner::input::InputError;
use planner::load::LoadError;
use planner::search::{Engine, Outcome, SearchOptions};
use planner::solve::{
    Solution, SolveError, double_updates_note, impossible_goal_reason, plan_text, solve_files,
    unreachable_goal_reason, unsolvable_goal_literals,
};

use crate::ground_limits::{GroundLimitArgs, solve_note};
use crate::plan_saver::PlanSaver;
use crate::progress::ProgressPrinter;
use crate::search_args::{Configurations, SearchArgs};
use planner::ground::Task;
use planner::search::{Plan, Progress, SearchObserver};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The domain file (`-`: standard input). Given alone, a file is the
    /// problem, and its domain is found beside it as Fast Downward finds
    /// it: `p01-domain.pddl`, `domain_p01.pddl`, `domain-p01.pddl` for
    /// `p01.pddl`, else `domain.pddl`.
    #[arg(value_name = "DOMAIN")]
    pub domain: Option<PathBuf>,
    /// The problem file (`-`: standard input).
    #[arg(value_name = "PROBLEM")]
    pub problem: Option<PathBuf>,
    /// Find an optimal plan: A* with LM-cut (--search bfs and an admissible --heuristic may
    /// replace them; flags that would not prove optimality are refused).
    #[arg(long)]
    pub optimal: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub ground: GroundLimitArgs,
    /// Write the plan to this file instead of standard output (`-`:
    /// standard output, as without the flag; not with --json). After the
    /// first second, each cheaper plan is written as it is found, so a
    /// killed process leaves its best plan.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print one JSON object with the result instead of the plan.
    #[arg(long)]
    pub json: bool,
    /// Check the plan found with the independent validator (on the lifted
    /// model, so it also catches grounder bugs) before printing it; a plan
    /// it rejects is an internal error (exit 101), reported with the
    /// validator's reason instead of the plan.
    #[arg(long)]
    pub validate: bool,
    /// No progress or statistics on standard error; without a plan, one
    /// line saying why (and the proven bound, if any).
    #[arg(short, long)]
    pub quiet: bool,
}

pub fn run(args: SolveArgs) -> i32 {
    let (domain, problem) = match (&args.domain, &args.problem) {
        (Some(domain), Some(problem)) => (domain.clone(), problem),
        (Some(problem), None) if !planner::input::is_stdin(problem) => {
            match planner::input::find_domain(problem) {
                Ok(domain) => {
                    if !args.quiet && !args.json {
                        eprintln!("domain: {}", domain.display());
                    }
                    (domain, problem)
                }
                Err(message) => {
                    eprintln!("error: {message}");
                    return exit::INPUT_ERROR;
                }
            }
        }
        _ => {
            eprintln!(
                "error: `plan` needs a DOMAIN and a PROBLEM file, a PROBLEM with its domain \
                 beside it, or a subcommand (see `plan --help`)"
            );
            return exit::INPUT_ERROR;
        }
    };
    let domain = domain.as_path();
    let configurations = Configurations {
        satisficing: SearchOptions::satisficing_default(),
        optimal: SearchOptions::optimal_default(),
    };
    let options = match args.search.options(args.optimal, configurations) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::INPUT_ERROR;
        }
    };
    if args.json && crate::output::refuse_stdout(args.output.as_deref(), "-o") {
        return exit::INPUT_ERROR;
    }
    let start = Instant::now();
    let cancel = crate::interrupt::cancel_flag();
    let mut reports = Reports {
        progress: ProgressPrinter::new(args.quiet || args.json),
        saver: args
            .output
            .as_deref()
            .and_then(|path| PlanSaver::new(path, start)),
    };
    let grounding = reports.progress.grounding(start);
    let heartbeat = || grounding.tick();
    let ground = planner::ground::GroundOptions {
        stop: Some(&heartbeat),
        ..args.ground.options()
    };
    let solved = solve_files(domain, problem, &ground, &options, cancel, &mut reports);
    let Reports { mut progress, .. } = reports;
    let solution = match solved {
        Ok(solution) => solution,
        Err(error) => {
            progress.finish();
            eprint!("{error}");
            if !error.to_string().ends_with('\n') {
                eprintln!();
            }
            if let Some(note) = solve_note(&error) {
                eprintln!("{note}");
            }
            let status = error.exit_status();
            if args.json
                && let Some(report) = json_stopped_before_search(&error, status)
            {
                outln!("{report}");
            }
            return status;
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
        // `--optimal` accepts bfs, whose proof holds for unit costs only.
        if args.optimal
            && options.engine == Engine::BreadthFirst
            && solution.result.plan.is_some()
            && !solution.result.proven_optimal
        {
            eprintln!(
                "warning: the plan is not proven optimal: breadth-first search minimises \
                 steps, not this task's costs (--search astar minimises costs)"
            );
        }
    }
    let mut status = outcome_status(solution.result.outcome, solution.result.plan.is_some());
    // Computed once: where the ground task cannot express the metric, it
    // takes a replay by the validator.
    let metric_value = solution.metric_value();
    let check = match &solution.result.plan {
        Some(plan) if args.validate => Some(independent_check(&solution, plan)),
        _ => None,
    };
    let rejected = matches!(check, Some(Check::Rejected(_)));
    if rejected {
        status = exit::INTERNAL_ERROR;
    }
    if args.json {
        outln!("{}", json_report(&solution, metric_value, check.as_ref()));
    } else {
        print_summary(&solution, metric_value, args.quiet);
    }
    match &check {
        Some(Check::Valid) if !args.quiet && !args.json => {
            eprintln!("validated: the independent validator accepts the plan");
        }
        Some(Check::Rejected(report)) => eprint!(
            "internal error: the independent validator rejects the plan found \
             (please report it with the input; the plan is not printed):\n{report}"
        ),
        Some(Check::Unavailable(reason)) if !args.quiet => {
            eprintln!("warning: the plan is not validated: {reason}");
        }
        _ => {}
    }
    if let Some(plan) = solution.result.plan.as_ref().filter(|_| !rejected) {
        let text = plan_text(&solution.task, plan, metric_value);
        match &args.output {
            Some(path) => {
                if let Err(message) = crate::output::write_file(path, text.as_bytes()) {
                    eprintln!("error: {message}");
                    return exit::INPUT_ERROR;
                }
            }
            None if !args.json => out!("{text}"),
            None => {}
        }
    }
    // The process exits next and its memory goes back at once; dropping
    // the ground task would free its names one by one (3-4 % of the
    // instructions of a small run: zenotravel p03, rovers p02).
    std::mem::forget(solution);
    status
}

/// What `plan` does with the search's reports: progress on stderr, and
/// with `-o`, each plan kept in the file once the search has run a while
/// ([`PlanSaver`]).
struct Reports {
    progress: ProgressPrinter,
    saver: Option<PlanSaver>,
}

impl SearchObserver for Reports {
    fn on_start(&mut self, task: &Task) {
        self.progress.on_start(task);
    }

    fn on_progress(&mut self, progress: &Progress) {
        self.progress.on_progress(progress);
        if let Some(saver) = &mut self.saver {
            saver.save_if_due();
        }
    }

    fn on_plan(&mut self, task: &Task, plan: &Plan) {
        self.progress.on_plan(task, plan);
        if let Some(saver) = &mut self.saver {
            saver.plan_found(task, plan);
        }
    }
}

/// What `--validate` found.
enum Check {
    /// The independent validator accepts the plan.
    Valid,
    /// It rejects it (a bug): its report.
    Rejected(String),
    /// It cannot check this task (a feature it does not support): why.
    Unavailable(String),
}

/// Has the independent validator check `plan` on the lifted model.
fn independent_check(solution: &Solution, plan: &Plan) -> Check {
    match planner::solve::validate_plan(&solution.checked, &solution.task, plan) {
        Ok(report) if report.is_valid() => Check::Valid,
        Ok(report) => Check::Rejected(report.to_text(false)),
        Err(error) => Check::Unavailable(error.to_string()),
    }
}

/// The exit status for a search outcome.
fn outcome_status(outcome: Outcome, has_plan: bool) -> i32 {
    if has_plan {
        exit::SUCCESS
    } else {
        exit::for_outcome(outcome)
    }
}

pub fn outcome_name(outcome: Outcome) -> &'static str {
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
    let cost_model = &solution.task.cost_model;
    let stats = &result.statistics;
    if quiet {
        // One line, and only without a plan: why there is none and, where
        // optimal search proved one, the bound.
        if result.plan.is_none() {
            if let Some(reason) = impossible_goal_reason(&solution.task) {
                eprintln!("{}: {reason}", outcome_name(result.outcome));
                return;
            }
            if let Some(note) = double_updates_note(&solution.task) {
                eprintln!("{}: note: {note}", outcome_name(result.outcome));
                return;
            }
            if result.outcome == Outcome::Unsolvable
                && let Some(reason) = unreachable_goal_reason(&solution.task)
            {
                eprintln!("unsolvable: {reason}");
                return;
            }
            match result.lower_bound {
                Some(bound) if bound > 0 => eprintln!(
                    "{}: no plan costs less than {}",
                    outcome_name(result.outcome),
                    cost_model.display_cost(bound)
                ),
                _ => eprintln!("{}", outcome_name(result.outcome)),
            }
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
        planner::memory::peak_bytes().unwrap_or(stats.peak_memory_bytes) >> 20,
    );
    match (&result.plan, result.lower_bound) {
        (Some(plan), bound) => {
            let optimality = match bound {
                _ if result.proven_optimal => ", optimal".to_string(),
                Some(bound) if bound > 0 => format!(
                    ", no plan costs less than {}",
                    cost_model.display_cost(bound)
                ),
                _ => String::new(),
            };
            eprintln!(
                "plan: {} steps, cost {}{optimality}",
                plan.operators.len(),
                cost_model.display_cost(plan.cost)
            );
            if let Some(value) = metric_value {
                eprintln!("metric value: {value}");
            }
        }
        (None, Some(bound)) if bound > 0 => {
            eprintln!("no plan costs less than {}", cost_model.display_cost(bound))
        }
        (None, _) => {}
    }
    if result.plan.is_none() {
        let unreachable = (result.outcome == Outcome::Unsolvable)
            .then(|| unreachable_goal_reason(&solution.task))
            .flatten();
        let notes = [
            impossible_goal_reason(&solution.task),
            double_updates_note(&solution.task),
            unreachable,
        ];
        for note in notes.into_iter().flatten() {
            eprintln!("note: {note}");
        }
    }
}

/// With `--json`, the object for a run that a limit or Ctrl-C stopped
/// before the search, keyed like [`json_report`]'s, with the status that
/// the exit status says and the message: no plan, nothing searched (times
/// unknown are null). `None` for errors in the input, which only stderr
/// reports.
fn json_stopped_before_search(error: &SolveError, status: i32) -> Option<serde_json::Value> {
    let (name, message, parse, ground) = match error {
        SolveError::Stopped(stopped) => (
            outcome_name(stopped.outcome),
            stopped.to_string(),
            Some((stopped.after - stopped.grounding).as_secs_f64()),
            Some(stopped.grounding.as_secs_f64()),
        ),
        SolveError::Ground { error, .. } if status == exit::MEMORY_LIMIT => (
            outcome_name(Outcome::MemoryLimit),
            error.to_string(),
            None,
            None,
        ),
        SolveError::Load(LoadError::Input(InputError::TooLargeToParse { .. })) => (
            outcome_name(Outcome::MemoryLimit),
            error.to_string().trim_start_matches("error: ").to_owned(),
            None,
            None,
        ),
        _ => return None,
    };
    Some(serde_json::json!({
        "status": name,
        "error": message,
        "plan": null,
        "cost": null,
        "general_cost": null,
        "optimal": false,
        "lower_bound": null,
        "metric_value": null,
        "expanded": 0,
        "generated": 0,
        "evaluated": 0,
        "states": 0,
        "time": { "parse": parse, "ground": ground, "search": 0.0 },
        "peak_memory_bytes": planner::memory::peak_bytes(),
        "impossible_goal": [],
        "validated": null,
    }))
}

/// A cost in units of the metric, as a JSON number: an integer where the
/// operator costs are the metric's own units, else a decimal.
fn json_cost(cost_model: &CostModel, cost: Cost) -> serde_json::Value {
    match cost_model.scale() {
        1 => cost.into(),
        _ => cost_model.in_metric_units(cost).into(),
    }
}

/// The goal literals that can never hold: those grounding named, or where
/// the search proved the task unsolvable, those the relaxation never
/// reaches from the initial state.
fn impossible_goal_json(solution: &Solution) -> Vec<String> {
    let task = &solution.task;
    let literals = if solution.result.outcome == Outcome::Unsolvable {
        unsolvable_goal_literals(task)
    } else {
        task.impossible_goal.clone()
    };
    literals.iter().map(|literal| literal.to_string()).collect()
}

/// One JSON object describing the whole run; `"validated"` says what
/// `--validate` found (null where it did not run or could not check).
fn json_report(
    solution: &Solution,
    metric_value: Option<f64>,
    check: Option<&Check>,
) -> serde_json::Value {
    let result = &solution.result;
    let stats = &result.statistics;
    let plan = result.plan.as_ref();
    serde_json::json!({
        "status": outcome_name(result.outcome),
        "plan": plan.map(|p| p.operators.iter().map(|&o| solution.task.operators[o as usize].plan_line()).collect::<Vec<_>>()),
        "cost": plan.map(|p| json_cost(&solution.task.cost_model, p.cost)),
        "general_cost": solution.task.has_general_costs(),
        "optimal": result.proven_optimal,
        "lower_bound": result.lower_bound.map(|bound| json_cost(&solution.task.cost_model, bound)),
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
        "peak_memory_bytes": planner::memory::peak_bytes().unwrap_or(stats.peak_memory_bytes),
        "impossible_goal": impossible_goal_json(solution),
        "validated": match check {
            Some(Check::Valid) => Some(true),
            Some(Check::Rejected(_)) => Some(false),
            Some(Check::Unavailable(_)) | None => None,
        },
    })
}
