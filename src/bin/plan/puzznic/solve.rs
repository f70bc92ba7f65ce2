//! `plan puzznic solve`: a level solved by the planner or by the
//! simulator's breadth-first search, reported as text (comment lines, the
//! player moves and the PDDL plan: a plan file `plan puzznic show`
//! reads), written to a file with `-o`, or as one JSON object with
//! `--json`.

use std::path::Path;
use std::time::Instant;

use planner::exit;
use planner::puzznic::{self, BfsOutcome};
use planner::search::{Outcome, SearchOptions};

use super::LevelArgs;
use crate::progress::ProgressPrinter;
use crate::solve::outcome_name;

/// Where `plan puzznic solve` puts its report.
pub struct ReportTo<'a> {
    /// `-o FILE`: a solution's text goes there instead of stdout.
    pub output: Option<&'a Path>,
    /// `--json`: one JSON object on stdout instead of the text.
    pub json: bool,
}

/// How a solve ended: everything its text and JSON forms show.
struct SolveReport {
    /// The exit status.
    status: i32,
    /// Why no plan, or `solved`, named as `plan --json` names outcomes.
    outcome: &'static str,
    /// What decided the outcome, one comment line each (without `; `).
    messages: Vec<String>,
    /// The player moves, readably, in order; `None` without a solution.
    moves: Option<Vec<String>>,
    /// The PDDL plan lines (the planner's solutions only).
    plan_lines: Option<Vec<String>>,
    /// Whether the moves are proven the fewest.
    optimal: bool,
    /// Every solution has at least this many moves (proven), where known.
    lower_bound: Option<usize>,
    /// `planner` or `simulator`.
    solver: &'static str,
    /// States the planner expanded, or boards the simulator expanded.
    expanded: usize,
    /// Boards the simulator stored (`None` for the planner).
    boards: Option<usize>,
    /// Seconds since the level was read.
    seconds: f64,
}

impl SolveReport {
    /// A report with no solution and nothing searched.
    fn without_solution(status: i32, outcome: &'static str, messages: Vec<String>) -> Self {
        SolveReport {
            status,
            outcome,
            messages,
            moves: None,
            plan_lines: None,
            optimal: false,
            lower_bound: None,
            solver: "planner",
            expanded: 0,
            boards: None,
            seconds: 0.0,
        }
    }

    /// This report with a solution of `moves`.
    fn with_moves(mut self, moves: Vec<String>) -> Self {
        self.moves = Some(moves);
        self
    }

    /// The text form: `; level NAME`, the messages, the moves as
    /// comments and the plan lines with their cost.
    fn text(&self, level_name: &str) -> String {
        use std::fmt::Write;
        let mut text = format!("; level {level_name}\n");
        for message in &self.messages {
            let _ = writeln!(text, "; {message}");
        }
        for (i, mv) in self.moves.iter().flatten().enumerate() {
            let _ = writeln!(text, "; move {}: {mv}", i + 1);
        }
        if let (Some(lines), Some(moves)) = (&self.plan_lines, &self.moves) {
            for line in lines {
                let _ = writeln!(text, "{line}");
            }
            let _ = writeln!(text, "; cost = {} (general cost)", moves.len());
        }
        text
    }

    /// The JSON form.
    fn json(&self, level_name: &str) -> serde_json::Value {
        serde_json::json!({
            "level": level_name,
            "status": self.outcome,
            "messages": self.messages,
            "solver": self.solver,
            "moves": self.moves,
            "move_count": self.moves.as_ref().map(Vec::len),
            "optimal": self.optimal,
            "lower_bound": self.lower_bound,
            "plan": self.plan_lines,
            "expanded": self.expanded,
            "boards": self.boards,
            "seconds": self.seconds,
            "peak_memory_bytes": planner::memory::peak_bytes(),
        })
    }
}

/// `plan puzznic solve`: solves the level and reports as `to` says;
/// returns the exit status (`Err` where only stderr reports a failure).
pub fn solve(
    level_args: &LevelArgs,
    rules: puzznic::Rules,
    options: SearchOptions,
    simulator: Option<puzznic::BfsLimits>,
    to: &ReportTo<'_>,
    progress: &mut ProgressPrinter,
) -> Result<i32, i32> {
    if to.json && crate::output::refuse_stdout(to.output, "-o") {
        return Err(exit::INPUT_ERROR);
    }
    let level = level_args.read()?;
    let started = Instant::now();
    let level_name = planner::input::display_name(&level_args.level);
    let report = match unsolvable_before_search(&level, rules) {
        Some(messages) => {
            for message in &messages {
                eprintln!("{level_name}: {message}");
            }
            SolveReport::without_solution(exit::UNSOLVABLE, "unsolvable", messages)
        }
        None => {
            let mut report = match simulator {
                Some(limits) => {
                    solve_by_simulator(&level, rules, &options, limits, started, progress)
                }
                None => solve_by_planner(&level, level_args, rules, &options, started, progress)?,
            };
            report.seconds = started.elapsed().as_secs_f64();
            report
        }
    };
    let text = report.text(&level_name);
    if to.json {
        outln!("{}", report.json(&level_name));
    }
    match to.output {
        Some(path) if report.moves.is_some() => {
            crate::output::write_file(path, text.as_bytes()).map_err(|message| {
                eprintln!("error: {message}");
                exit::INPUT_ERROR
            })?;
        }
        _ if !to.json => out!("{text}"),
        _ => {}
    }
    Ok(report.status)
}

/// Why the level is unsolvable, if that shows without a search: no
/// search is needed to prove these levels unsolvable, and none should run
/// for minutes to find out.
fn unsolvable_before_search(level: &puzznic::Level, rules: puzznic::Rules) -> Option<Vec<String>> {
    let lone = level.board.lone_tiles();
    if !lone.is_empty() {
        return Some(
            lone.iter()
                .map(|(kind, at)| {
                    format!(
                        "unsolvable: only one tile of type `{kind}` (at {at}): the level can never be cleared"
                    )
                })
                .collect(),
        );
    }
    // By the turn-based rules the first settling is forced, so its board
    // is the one to judge; by the real-time ones a push may come while it
    // settles, so only the board as given is (reaches include every fall).
    let (board, when) = match rules {
        puzznic::Rules::TurnBased => {
            let mut settled = level.board.clone();
            settled.settle();
            (settled, " after the level settles")
        }
        puzznic::Rules::RealTime => (level.board.clone(), ""),
    };
    let dead_end = puzznic::DeadEnds::new(&board).dead_end(&board)?;
    let kind = board.kinds()[usize::from(dead_end.kind)];
    Some(vec![format!(
        "unsolvable: the tile of type `{kind}` at {}{when}: {}",
        dead_end.at, dead_end.reason
    )])
}

/// Solves the level with the planner. A failure that stopped grounding
/// (a limit, Ctrl-C) is a report; other failures are reported on stderr
/// and give `Err` with the exit status.
fn solve_by_planner(
    level: &puzznic::Level,
    level_args: &LevelArgs,
    rules: puzznic::Rules,
    options: &SearchOptions,
    started: Instant,
    progress: &mut ProgressPrinter,
) -> Result<SolveReport, i32> {
    let cancel = crate::interrupt::cancel_flag();
    let grounding = progress.grounding(started);
    let heartbeat = || grounding.tick();
    let ground = planner::ground::GroundOptions {
        stop: Some(&heartbeat),
        ..Default::default()
    };
    let outcome = puzznic::plan_level(
        level,
        &level_args.problem_name(),
        rules,
        &ground,
        options,
        cancel,
        progress,
    );
    progress.finish();
    let (result, plan) = match outcome {
        Ok(solved) => solved,
        Err(puzznic::PlanLevelError::Stopped(stopped)) => {
            return Ok(SolveReport::without_solution(
                stopped.exit_status(),
                outcome_name(stopped.outcome),
                vec![stopped.to_string()],
            ));
        }
        Err(error) => {
            eprintln!("{error}");
            return Err(match error {
                puzznic::PlanLevelError::Ground(error) => exit::for_ground_error(&error),
                puzznic::PlanLevelError::TooLarge { .. } => exit::MEMORY_LIMIT,
                puzznic::PlanLevelError::Stopped(stopped) => stopped.exit_status(),
                puzznic::PlanLevelError::Pddl(_) | puzznic::PlanLevelError::Rejected(_) => {
                    exit::FOUND_ERRORS
                }
            });
        }
    };
    let expanded = result.statistics.expanded as usize;
    let mut report = SolveReport {
        expanded,
        lower_bound: result.lower_bound.map(|moves| moves as usize),
        ..SolveReport::without_solution(exit::SUCCESS, "solved", Vec::new())
    };
    let seconds = format!("{:.2} s", started.elapsed().as_secs_f64());
    match plan {
        Some(plan) => {
            let optimality = if result.proven_optimal {
                " (optimal)"
            } else {
                ""
            };
            report.messages.push(format!(
                "solved: {}{optimality}, {} actions, {expanded} expanded states, {seconds}",
                count(plan.moves.len(), "player move", "player moves"),
                plan.plan_lines.len()
            ));
            if !result.proven_optimal {
                let bound = match result.lower_bound {
                    Some(moves) if moves > 0 => format!(" (at least {moves} are needed)"),
                    _ => String::new(),
                };
                report.messages.push(format!(
                    "not proven the fewest moves{bound}: --optimal finds the fewest"
                ));
            }
            report.optimal = result.proven_optimal;
            report.moves = Some(plan.moves.iter().map(ToString::to_string).collect());
            report.plan_lines = Some(plan.plan_lines);
        }
        None => {
            let (what, status) = match result.outcome {
                Outcome::Unsolvable => (
                    "unsolvable: the search space was exhausted",
                    exit::UNSOLVABLE,
                ),
                Outcome::Solved => ("no plan", exit::UNSOLVABLE),
                outcome => (outcome.description(), exit::for_outcome(outcome)),
            };
            let bound = match result.lower_bound {
                Some(moves) if moves > 0 => format!(": at least {moves} moves"),
                _ => String::new(),
            };
            report.status = status;
            report.outcome = match result.outcome {
                Outcome::Solved => "unsolvable",
                outcome => outcome_name(outcome),
            };
            report.messages.push(format!(
                "{what} after {expanded} expanded states, {seconds}{bound}"
            ));
        }
    }
    Ok(report)
}

/// Solves the level with the simulator's breadth-first search, which
/// checks the time limit and Ctrl-C every few thousand boards and the
/// memory limit before its tables grow.
fn solve_by_simulator(
    level: &puzznic::Level,
    rules: puzznic::Rules,
    options: &SearchOptions,
    limits: puzznic::BfsLimits,
    started: Instant,
    progress: &mut ProgressPrinter,
) -> SolveReport {
    let cancel = crate::interrupt::cancel_flag();
    let mut stopped_by = None;
    let mut shown_depth = None;
    let mut stop = |stats: &puzznic::BfsStats| {
        // A line per depth; on a terminal, also the live count.
        let deeper = shown_depth != Some(stats.depth);
        shown_depth = Some(stats.depth);
        let secs = started.elapsed().as_secs_f64();
        progress.show(
            &format!(
                "[{secs:7.2}s] {:>16}  {} boards, {} expanded, {:.0} boards/s, {} MiB",
                format!("depth = {}", stats.depth),
                stats.states,
                stats.expanded,
                stats.expanded as f64 / secs.max(1e-9),
                stats.bytes >> 20
            ),
            deeper,
        );
        stopped_by = if cancel.load(std::sync::atomic::Ordering::Relaxed) {
            Some(Outcome::Cancelled)
        } else if options
            .time_limit
            .is_some_and(|limit| started.elapsed() >= limit)
        {
            Some(Outcome::TimeLimit)
        } else {
            None
        };
        stopped_by.is_some()
    };
    let (report, stats) = match rules {
        puzznic::Rules::TurnBased => {
            let (outcome, stats) = puzznic::solve_bfs_until(&level.board, limits, &mut stop);
            (BfsReport::new(outcome, ""), stats)
        }
        puzznic::Rules::RealTime => {
            let (outcome, stats) =
                puzznic::solve_bfs_real_time_until(&level.board, limits, &mut stop);
            (BfsReport::new(outcome, " (real-time rules)"), stats)
        }
    };
    progress.finish();
    report.finish(&stats, started, stopped_by)
}

/// The simulator's outcome, with the moves made readable.
struct BfsReport {
    outcome: BfsOutcome<String>,
    /// ` (real-time rules)` or nothing.
    rules_note: &'static str,
}

impl BfsReport {
    fn new<M: std::fmt::Display>(outcome: BfsOutcome<M>, rules_note: &'static str) -> Self {
        let outcome = match outcome {
            BfsOutcome::Solved(moves) => {
                BfsOutcome::Solved(moves.iter().map(ToString::to_string).collect())
            }
            BfsOutcome::Unsolvable => BfsOutcome::Unsolvable,
            BfsOutcome::LimitReached { at_least, limit } => {
                BfsOutcome::LimitReached { at_least, limit }
            }
            BfsOutcome::Stopped { at_least } => BfsOutcome::Stopped { at_least },
        };
        BfsReport {
            outcome,
            rules_note,
        }
    }

    /// The report; `stopped_by` is what the caller's stop condition saw
    /// when it ended the search.
    fn finish(
        self,
        stats: &puzznic::BfsStats,
        started: Instant,
        stopped_by: Option<Outcome>,
    ) -> SolveReport {
        let boards = stats.states;
        let counted_boards = count(boards, "board", "boards");
        let seconds = format!("{:.2} s", started.elapsed().as_secs_f64());
        let rules_note = self.rules_note;
        let stopped = |outcome: Outcome, why: &str, at_least: usize| {
            let bound = if at_least == 0 {
                "no lower bound proven yet (not every board reachable without a move was searched)"
                    .to_string()
            } else {
                format!("at least {at_least} moves")
            };
            SolveReport {
                lower_bound: (at_least > 0).then_some(at_least),
                ..SolveReport::without_solution(
                    exit::for_outcome(outcome),
                    outcome_name(outcome),
                    vec![format!("{why} after {counted_boards}, {seconds}: {bound}")],
                )
            }
        };
        let mut report = match self.outcome {
            BfsOutcome::Solved(moves) => SolveReport {
                optimal: true,
                ..SolveReport::without_solution(
                    exit::SUCCESS,
                    "solved",
                    vec![format!(
                        "solved by the simulator's BFS{rules_note}: {} (optimal), {counted_boards}, {seconds}",
                        count(moves.len(), "move", "moves")
                    )],
                )
            }
            .with_moves(moves),
            BfsOutcome::Unsolvable => SolveReport::without_solution(
                exit::UNSOLVABLE,
                "unsolvable",
                vec![format!(
                    "unsolvable{rules_note}: all {boards} reachable boards searched"
                )],
            ),
            BfsOutcome::LimitReached { at_least, limit } => {
                let why = match limit {
                    puzznic::BfsLimit::States => "gave up at --max-states".to_string(),
                    puzznic::BfsLimit::Memory => format!(
                        "memory limit reached ({:.1} MiB of tables)",
                        stats.bytes as f64 / (1u64 << 20) as f64
                    ),
                };
                stopped(Outcome::MemoryLimit, &why, at_least)
            }
            BfsOutcome::Stopped { at_least } => {
                let outcome = stopped_by.unwrap_or(Outcome::Cancelled);
                stopped(outcome, outcome.description(), at_least)
            }
        };
        report.solver = "simulator";
        report.expanded = stats.expanded;
        report.boards = Some(boards);
        report
    }
}

/// `n` with the singular or plural noun: "1 move", "2 moves".
pub fn count(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}
