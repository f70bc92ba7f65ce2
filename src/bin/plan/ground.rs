//! `plan ground`: read, parse, check and ground a task; print statistics
//! (`--stats`) or the ground task (`--dump`).

use crate::ground_limits::{GroundLimitArgs, input_note, limit_note, stopped_note};
use crate::progress::ProgressPrinter;
use planner::exit;
use planner::ground::{GroundError, GroundOptions, GroundStats, Task};
use planner::load::{LoadError, check_parsed, parse_domain_file, parse_problem_file};
use planner::solve::GroundingLimit;
use planner::syntax::SourceFile;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Arguments of `plan ground`.
#[derive(clap::Args)]
pub struct GroundArgs {
    /// The domain file (`-`: standard input).
    pub domain: PathBuf,
    /// The problem file (`-`: standard input).
    pub problem: PathBuf,
    /// Print counts (objects, facts, fluents, operators per action,
    /// operators removed as irrelevant, conditional effects, axioms) and
    /// the time of each phase.
    #[arg(long)]
    pub stats: bool,
    /// Keep the operators, conditional effects, axioms and facts that
    /// cannot matter for reaching the goal, which grounding removes by
    /// default (relevance analysis, as Fast Downward's translator does).
    #[arg(long)]
    pub keep_irrelevant: bool,
    /// Write the ground task in a readable text form to standard output.
    #[arg(long)]
    pub dump: bool,
    #[command(flatten)]
    pub limits: GroundLimitArgs,
    /// Stop after this many seconds (parsing included; exit status 5), or
    /// with a unit: 500ms, 90s, 5m, 2h.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = crate::units::seconds)]
    pub time_limit: Option<f64>,
    /// No line on standard error while a task grounds for long (after the
    /// first second, then every 5 s).
    #[arg(short, long)]
    pub quiet: bool,
    /// Refuse files whose parse would take more than this many MiB (or
    /// 512M, 4G), and stop grounding (exit status 6) once the process uses
    /// more [default: 80 % of the memory available when `plan` starts,
    /// where the system says (Linux)].
    #[arg(long, value_name = "MIB", value_parser = crate::units::mebibytes)]
    pub memory_limit: Option<u64>,
}

pub fn run(args: GroundArgs) -> i32 {
    let run_start = Instant::now();
    let time_limit = match args.time_limit.map(crate::units::time_limit).transpose() {
        Ok(limit) => limit,
        Err(message) => {
            eprintln!("error: {message}");
            return exit::INPUT_ERROR;
        }
    };
    let memory_limit = planner::memory::limit_bytes(args.memory_limit);
    let parsed = (
        parse_domain_file(&args.domain, memory_limit),
        parse_problem_file(&args.problem, memory_limit),
    );
    let ((domain_file, domain), (problem_file, problem)) = match parsed {
        (Ok(d), Ok(p)) => (d, p),
        (d, p) => {
            // Report both files' errors; the domain's decides the status.
            let errors: Vec<LoadError> = [d.err(), p.err()].into_iter().flatten().collect();
            for error in &errors {
                eprintln!("{}", error.to_string().trim_end());
                if let LoadError::Input(error) = error
                    && let Some(note) = input_note(error)
                {
                    eprintln!("{note}");
                }
            }
            return errors
                .first()
                .map_or(exit::INPUT_ERROR, LoadError::exit_status);
        }
    };
    let parse_time = run_start.elapsed();

    let check_start = Instant::now();
    let checked = check_parsed(&domain_file, &domain, &problem_file, &problem);
    let check_time = check_start.elapsed();
    match checked {
        Ok(warnings) => {
            for warning in warnings {
                eprintln!("{warning}");
            }
        }
        Err(error) => {
            eprintln!("{}", error.to_string().trim_end());
            return error.exit_status();
        }
    }

    let limit = GroundingLimit::new(
        run_start,
        time_limit,
        memory_limit,
        crate::interrupt::cancel_flag(),
    );
    let progress = ProgressPrinter::new(args.quiet).grounding(run_start);
    let stop = || progress.tick() || limit.reached();
    let options = GroundOptions {
        stop: Some(&stop),
        keep_irrelevant: args.keep_irrelevant,
        ..args.limits.options()
    };
    let (task, stats) = match planner::ground::ground_with_stats(&domain, &problem, &options) {
        Ok(result) => result,
        Err(GroundError::Stopped) => {
            let stopped = limit.stopped();
            eprintln!("{stopped}");
            if let Some(note) = stopped_note(&stopped) {
                eprintln!("{note}");
            }
            return stopped.exit_status();
        }
        Err(error) => return report_error(&error, &domain_file, &problem_file),
    };
    if let Some(reason) = planner::solve::impossible_goal_reason(&task) {
        eprintln!("note: {reason}");
    }
    if let Some(note) = planner::solve::double_updates_note(&task) {
        eprintln!("note: {note}");
    }
    let mut stdout = std::io::stdout().lock();
    let written = (|| -> std::io::Result<()> {
        if args.stats {
            stdout.write_all(stats_text(&task, &stats, parse_time, check_time).as_bytes())?;
        }
        if args.dump {
            planner::ground::dump::write_task(&task, &mut stdout)?;
        }
        if !args.stats && !args.dump {
            writeln!(
                stdout,
                "{} facts, {} numeric fluents, {} operators, {} axioms",
                task.facts.len(),
                task.fluents.len(),
                task.operators.len(),
                task.axioms.len()
            )?;
        }
        stdout.flush()
    })();
    // The process exits next: dropping the task would free its effects
    // one by one (2.4 s of the 47 s on the 98 x 98 ledge level of
    // `benches/puzznic_ledge_level.py`).
    std::mem::forget(task);
    match written {
        Ok(()) => exit::SUCCESS,
        // A closed pipe (e.g. `| head`) is not an error of ours.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => exit::SUCCESS,
        Err(e) => {
            eprintln!("plan ground: cannot write output: {e}");
            exit::INPUT_ERROR
        }
    }
}

/// Prints a grounding error and returns its exit status.
fn report_error(error: &GroundError, domain_file: &SourceFile, problem_file: &SourceFile) -> i32 {
    match error.diagnostic() {
        Some((diagnostic, in_problem)) => {
            let file = if in_problem {
                problem_file
            } else {
                domain_file
            };
            eprintln!("{}", diagnostic.render(file));
        }
        None => eprintln!("error: {error}"),
    }
    if let Some(note) = limit_note(error) {
        eprintln!("{note}");
    }
    exit::for_ground_error(error)
}

fn millis(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1000.0)
}

/// The `--stats` report: one `key: value` line each, easy to grep.
fn stats_text(
    task: &Task,
    stats: &GroundStats,
    parse_time: Duration,
    check_time: Duration,
) -> String {
    let conditional: usize = task.operators.iter().map(|o| o.conditional.len()).sum();
    let mut s = String::new();
    s.push_str(&format!("objects: {}\n", stats.objects));
    s.push_str(&format!(
        "relaxed reachable facts: {}\n",
        stats.relaxed_facts
    ));
    s.push_str(&format!("facts: {}\n", task.facts.len()));
    s.push_str(&format!("numeric fluents: {}\n", task.fluents.len()));
    s.push_str(&format!("operators: {}\n", task.operators.len()));
    for (action, count) in &stats.operators_per_action {
        s.push_str(&format!("  {action}: {count}\n"));
    }
    s.push_str(&format!(
        "irrelevant operators removed: {}\n",
        stats.irrelevant_operators
    ));
    s.push_str(&format!("conditional effects: {conditional}\n"));
    s.push_str(&format!("axioms: {}\n", task.axioms.len()));
    s.push_str(&format!("cost model: {:?}\n", task.cost_model));
    s.push_str(&format!(
        "interchangeable objects: {}\n",
        task.interchangeable_objects
            .iter()
            .map(|class| format!("{{{}}}", class.join(" ")))
            .collect::<Vec<_>>()
            .join(" ")
    ));
    s.push_str(&format!("time parse: {}\n", millis(parse_time)));
    s.push_str(&format!("time check: {}\n", millis(check_time)));
    s.push_str(&format!(
        "time normalise: {}\n",
        millis(stats.normalise_time)
    ));
    s.push_str(&format!(
        "time reachability: {}\n",
        millis(stats.reachability_time)
    ));
    s.push_str(&format!(
        "time instantiate: {}\n",
        millis(stats.instantiate_time)
    ));
    let total = parse_time
        + check_time
        + stats.normalise_time
        + stats.reachability_time
        + stats.instantiate_time;
    s.push_str(&format!("time total: {}\n", millis(total)));
    s
}
