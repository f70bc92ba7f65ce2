//! `plan puzznic ...`: levels to PDDL problems, solving, and showing plans.

use clap::{Args, Subcommand, ValueEnum};
use planner::exit;
use planner::puzznic::{self, BfsOutcome, Level};
use planner::search::{Outcome, SearchOptions};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::progress::ProgressPrinter;
use crate::search_args::{Configurations, SearchArgs};

/// How a level file is read.
#[derive(Args)]
pub struct LevelArgs {
    /// The level: text format (`#` wall, `.` empty, space outside, letters
    /// and digits tiles), or a Tiled JSON map (`.json`; from standard
    /// input, `-`, a text that starts with `{`).
    level: PathBuf,
    /// For a Tiled map: the JSON config naming wall and tile ids (default:
    /// the map's `puzznic` custom property).
    #[arg(long, value_name = "FILE")]
    tiled_config: Option<PathBuf>,
}

impl LevelArgs {
    /// Reads the level, printing the error and returning the exit status
    /// on failure.
    fn read(&self) -> Result<Level, i32> {
        puzznic::read_level(&self.level, self.tiled_config.as_deref()).map_err(|e| {
            eprintln!("{e}");
            exit::INPUT_ERROR
        })
    }

    /// The PDDL problem name derived from the file name (`stdin` for
    /// standard input).
    fn problem_name(&self) -> String {
        let stem = if planner::input::is_stdin(&self.level) {
            "stdin".to_string()
        } else {
            self.level
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        puzznic::problem_name(&stem)
    }
}

/// When to colour the output.
#[derive(Clone, Copy, ValueEnum)]
pub enum ColorChoice {
    /// When stdout is a terminal and NO_COLOR is unset or empty.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    /// Whether to colour, for output to a terminal or not and the value
    /// of NO_COLOR (no-color.org: set and not empty means no colour
    /// unless asked for).
    fn wanted(self, terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal && no_color.is_none_or(|value| value.is_empty()),
        }
    }
}

#[derive(Subcommand)]
pub enum PuzznicCommand {
    /// Write the PDDL problem for a level (for `domains/puzznic/domain.pddl`,
    /// and for `domains/puzznic/realtime.pddl`, which reads the same problems).
    Problem {
        #[command(flatten)]
        level: LevelArgs,
        /// Write to this file instead of stdout.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Print the built-in Puzznic domain.
    Domain {
        /// The real-time variant (pushes while tiles fall) instead.
        #[arg(long)]
        real_time: bool,
    },
    /// Solve a level with the planner and print the player moves and the PDDL plan
    /// (weighted A* with w = 1.5 and h_FF, then greedy search with novelty if that
    /// needs more than 750 000 evaluations; --optimal: A* with pattern databases).
    Solve {
        #[command(flatten)]
        level: LevelArgs,
        /// Fewest player moves, proven (A* with pattern databases,
        /// admissible; they count the pushes each kind of tile needs, which
        /// h_max and LM-cut see much less of).
        #[arg(long)]
        optimal: bool,
        /// Real-time rules (arcade, NES): a resting tile may also be pushed
        /// while other tiles fall, one push per falling step.
        #[arg(long)]
        real_time: bool,
        #[command(flatten)]
        search: SearchArgs,
        /// No search progress on standard error.
        #[arg(short, long)]
        quiet: bool,
        /// Use the reference simulator's breadth-first search instead of the
        /// planner (fewest moves, by the turn-based rules or with
        /// --real-time the real-time ones; --time-limit and --memory-limit
        /// apply).
        #[arg(long, conflicts_with_all = ["search", "heuristic", "weight", "anytime", "novelty", "no_symmetry", "threads"])]
        simulator: bool,
        /// With --simulator: the most boards to store [default: as many
        /// as --memory-limit allows]
        #[arg(long)]
        max_states: Option<usize>,
    },
    /// Replay a plan on a level, printing the board after each player move.
    Show {
        #[command(flatten)]
        level: LevelArgs,
        /// The plan: PDDL plan lines, e.g. the output of `plan puzznic solve`,
        /// or moves written as it describes them (`move tile at row 3 col 4 left`);
        /// `-`: standard input.
        plan: PathBuf,
        /// Show the board after every gravity and vanishing step too.
        #[arg(long)]
        physics: bool,
        /// Replay by the real-time rules (pushes while tiles fall, as
        /// `plan puzznic solve --real-time` plans them); implies --physics.
        #[arg(long)]
        real_time: bool,
        /// Write a self-contained HTML page animating the plan to this file.
        #[arg(long, value_name = "OUT.html")]
        html: Option<PathBuf>,
        /// Colour the boards (auto: when stdout is a terminal and the
        /// NO_COLOR environment variable is unset or empty).
        #[arg(long, value_enum, default_value = "auto")]
        color: ColorChoice,
    },
}

pub fn run(command: PuzznicCommand) -> i32 {
    let status = match command {
        PuzznicCommand::Problem { level, output } => problem(&level, output.as_deref()),
        PuzznicCommand::Domain { real_time } => {
            out!("{}", rules(real_time).domain());
            Ok(exit::SUCCESS)
        }
        PuzznicCommand::Solve {
            level,
            optimal,
            real_time,
            search,
            quiet,
            simulator,
            max_states,
        } => {
            let configurations = Configurations {
                satisficing: puzznic::satisficing_options(),
                optimal: puzznic::optimal_options(),
            };
            match search.options(optimal, configurations) {
                Ok(options) => {
                    let mut progress = ProgressPrinter::new(quiet);
                    let simulator = simulator.then(|| puzznic::BfsLimits {
                        max_states,
                        max_bytes: options
                            .memory_limit_bytes
                            .map(|bytes| usize::try_from(bytes).unwrap_or(usize::MAX)),
                    });
                    solve(&level, rules(real_time), options, simulator, &mut progress)
                }
                Err(message) => {
                    eprintln!("error: {message}");
                    Err(exit::INPUT_ERROR)
                }
            }
        }
        PuzznicCommand::Show {
            level,
            plan,
            physics,
            real_time,
            html,
            color,
        } => show(
            &level,
            &plan,
            physics,
            rules(real_time),
            html.as_deref(),
            color,
        ),
    };
    status.unwrap_or_else(|failure| failure)
}

fn rules(real_time: bool) -> puzznic::Rules {
    if real_time {
        puzznic::Rules::RealTime
    } else {
        puzznic::Rules::TurnBased
    }
}

fn problem(level_args: &LevelArgs, output: Option<&Path>) -> Result<i32, i32> {
    let level = level_args.read()?;
    let text = puzznic::problem_pddl(&level, &level_args.problem_name());
    match output {
        Some(path) => crate::output::write_file(path, text.as_bytes()).map_err(|message| {
            eprintln!("{message}");
            exit::INPUT_ERROR
        })?,
        None => out!("{text}"),
    }
    Ok(exit::SUCCESS)
}

fn solve(
    level_args: &LevelArgs,
    rules: puzznic::Rules,
    options: SearchOptions,
    simulator: Option<puzznic::BfsLimits>,
    progress: &mut ProgressPrinter,
) -> Result<i32, i32> {
    let level = level_args.read()?;
    let started = Instant::now();
    outln!(
        "; level {}",
        planner::input::display_name(&level_args.level)
    );
    // Checked before any search: no search is needed to prove these
    // levels unsolvable, and none should run for minutes to find out.
    let report = |message: String| {
        outln!("; {message}");
        eprintln!(
            "{}: {message}",
            planner::input::display_name(&level_args.level)
        );
    };
    let lone = level.board.lone_tiles();
    if !lone.is_empty() {
        for (kind, at) in &lone {
            report(format!(
                "unsolvable: only one tile of type `{kind}` (at {at}): the level can never be cleared"
            ));
        }
        return Ok(exit::UNSOLVABLE);
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
    if let Some(dead_end) = puzznic::DeadEnds::new(&board).dead_end(&board) {
        let kind = board.kinds()[usize::from(dead_end.kind)];
        report(format!(
            "unsolvable: the tile of type `{kind}` at {}{when}: {}",
            dead_end.at, dead_end.reason
        ));
        return Ok(exit::UNSOLVABLE);
    }
    let cancel = crate::interrupt::cancel_flag();
    if let Some(limits) = simulator {
        // The time limit and Ctrl-C, checked every few thousand boards; the
        // memory limit before the search's tables grow.
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
                Some(("interrupted", exit::INTERRUPTED))
            } else if options
                .time_limit
                .is_some_and(|limit| started.elapsed() >= limit)
            {
                Some(("time limit reached", exit::TIME_LIMIT))
            } else {
                None
            };
            stopped_by.is_some()
        };
        let status = match rules {
            puzznic::Rules::TurnBased => {
                let (outcome, stats) = puzznic::solve_bfs_until(&level.board, limits, &mut stop);
                progress.finish();
                report_bfs(outcome, &stats, started, stopped_by, "")
            }
            puzznic::Rules::RealTime => {
                let (outcome, stats) =
                    puzznic::solve_bfs_real_time_until(&level.board, limits, &mut stop);
                progress.finish();
                report_bfs(outcome, &stats, started, stopped_by, " (real-time rules)")
            }
        };
        return Ok(status);
    }
    let outcome = puzznic::plan_level(
        &level,
        &level_args.problem_name(),
        rules,
        &options,
        cancel,
        progress,
    );
    progress.finish();
    let (result, plan) = outcome.map_err(|e| {
        // A limit is reported where the search's limits are, on stdout.
        match &e {
            puzznic::PlanLevelError::Stopped(stopped) => outln!("; {stopped}"),
            _ => eprintln!("{e}"),
        }
        match e {
            puzznic::PlanLevelError::Ground(error) => exit::for_ground_error(&error),
            puzznic::PlanLevelError::Stopped(stopped) => stopped.exit_status(),
            puzznic::PlanLevelError::TooLarge { .. } => exit::MEMORY_LIMIT,
            puzznic::PlanLevelError::Pddl(_) | puzznic::PlanLevelError::Rejected(_) => {
                exit::FOUND_ERRORS
            }
        }
    })?;
    let seconds = started.elapsed().as_secs_f64();
    let expanded = result.statistics.expanded;
    let Some(plan) = plan else {
        let (what, status) = match result.outcome {
            Outcome::Unsolvable => (
                "unsolvable: the search space was exhausted",
                exit::UNSOLVABLE,
            ),
            Outcome::TimeLimit => ("time limit reached", exit::TIME_LIMIT),
            Outcome::MemoryLimit => ("memory limit reached", exit::MEMORY_LIMIT),
            Outcome::Cancelled => ("interrupted", exit::INTERRUPTED),
            Outcome::Solved => ("no plan", exit::UNSOLVABLE),
        };
        let bound = match result.lower_bound {
            Some(moves) if moves > 0 => format!(": at least {moves} moves"),
            _ => String::new(),
        };
        outln!("; {what} after {expanded} expanded states, {seconds:.2} s{bound}");
        return Ok(status);
    };
    let optimality = if result.proven_optimal {
        " (optimal)"
    } else {
        ""
    };
    outln!(
        "; solved: {} player moves{optimality}, {} actions, {expanded} expanded states, {seconds:.2} s",
        plan.moves.len(),
        plan.plan_lines.len()
    );
    print_moves(&plan.moves);
    for line in &plan.plan_lines {
        outln!("{line}");
    }
    outln!("; cost = {} (general cost)", plan.moves.len());
    Ok(exit::SUCCESS)
}

/// Prints how the simulator's search ended; returns the exit status.
/// `stopped_by` says why the caller's stop condition held, if it did.
fn report_bfs<M: std::fmt::Display>(
    outcome: BfsOutcome<M>,
    stats: &puzznic::BfsStats,
    started: Instant,
    stopped_by: Option<(&str, i32)>,
    rules_note: &str,
) -> i32 {
    let seconds = started.elapsed().as_secs_f64();
    match outcome {
        BfsOutcome::Solved(moves) => {
            outln!(
                "; solved by the simulator's BFS{rules_note}: {} moves (optimal), {} boards, {seconds:.2} s",
                moves.len(),
                stats.states
            );
            print_moves(&moves);
            exit::SUCCESS
        }
        BfsOutcome::Unsolvable => {
            outln!(
                "; unsolvable{rules_note}: all {} reachable boards searched",
                stats.states
            );
            exit::UNSOLVABLE
        }
        BfsOutcome::LimitReached { at_least, limit } => {
            let why = match limit {
                puzznic::BfsLimit::States => "gave up at --max-states".to_string(),
                puzznic::BfsLimit::Memory => format!(
                    "memory limit reached ({:.1} MiB of tables)",
                    stats.bytes as f64 / (1u64 << 20) as f64
                ),
            };
            print_bfs_stop(&why, stats.states, seconds, at_least);
            exit::MEMORY_LIMIT
        }
        BfsOutcome::Stopped { at_least } => {
            let (why, status) = stopped_by.unwrap_or(("stopped", exit::INTERRUPTED));
            print_bfs_stop(why, stats.states, seconds, at_least);
            status
        }
    }
}

/// The line for a breadth-first search that stopped, with the lower bound
/// it proved (none before it has searched every board reachable without a
/// move).
fn print_bfs_stop(why: &str, boards: usize, seconds: f64, at_least: usize) {
    let bound = if at_least == 0 {
        "no lower bound proven yet (not every board reachable without a move was searched)"
            .to_string()
    } else {
        format!("at least {at_least} moves")
    };
    outln!("; {why} after {boards} boards, {seconds:.2} s: {bound}");
}

/// Prints the moves readably, as comments, so that the whole output stays
/// a plan file `plan puzznic show` reads.
fn print_moves(moves: &[impl std::fmt::Display]) {
    for (i, mv) in moves.iter().enumerate() {
        outln!("; move {}: {mv}", i + 1);
    }
}

fn show(
    level_args: &LevelArgs,
    plan_path: &Path,
    physics: bool,
    rules: puzznic::Rules,
    html: Option<&Path>,
    color: ColorChoice,
) -> Result<i32, i32> {
    if crate::output::refuse_stdout(html, "--html") {
        return Err(exit::INPUT_ERROR);
    }
    let level = level_args.read()?;
    let plan_text = planner::input::read_source(plan_path).map_err(|e| {
        eprintln!("{e}");
        exit::INPUT_ERROR
    })?;
    let moves = puzznic::parse_plan_moves(&plan_text.text, &level.board).map_err(|e| {
        eprintln!("{}: {e}", planner::input::display_name(plan_path));
        exit::INPUT_ERROR
    })?;
    // The page always has every physics step, so the animation shows falls.
    let frames = puzznic::replay_by_rules(&level.board, &moves, rules, physics || html.is_some())
        .map_err(|e| {
        eprintln!("{}: {e}", planner::input::display_name(plan_path));
        exit::FOUND_ERRORS
    })?;
    let cleared = frames.last().is_some_and(|f| f.board.is_cleared());
    if let Some(out) = html {
        let title = format!(
            "Puzznic {}",
            planner::input::display_name(&level_args.level)
        );
        let page = puzznic::render::frames_html(&title, &frames);
        crate::output::write_file(out, page.as_bytes()).map_err(|message| {
            eprintln!("{message}");
            exit::INPUT_ERROR
        })?;
    } else {
        let ansi = color.wanted(
            std::io::stdout().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        );
        out!("{}", puzznic::render::frames_text(&frames, ansi));
    }
    if cleared {
        outln!("cleared in {} moves", moves.len());
        Ok(exit::SUCCESS)
    } else {
        outln!(
            "not cleared: {} tiles left after {} moves",
            frames.last().map_or(0, |f| f.board.tile_count()),
            moves.len()
        );
        Ok(exit::FOUND_ERRORS)
    }
}

#[cfg(test)]
mod tests {
    use super::ColorChoice;
    use std::ffi::OsStr;

    #[test]
    fn auto_colours_a_terminal_unless_no_color_is_set() {
        let auto = ColorChoice::Auto;
        assert!(auto.wanted(true, None));
        assert!(auto.wanted(true, Some(OsStr::new(""))));
        assert!(!auto.wanted(true, Some(OsStr::new("1"))));
        assert!(!auto.wanted(false, None));
        assert!(ColorChoice::Always.wanted(false, Some(OsStr::new("1"))));
        assert!(!ColorChoice::Never.wanted(true, None));
    }
}
