//! `plan puzznic ...`: levels to PDDL problems, solving, and showing plans.

use clap::{Args, Subcommand, ValueEnum};
use planner::exit;
use planner::puzznic::{self, Level};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use crate::progress::ProgressPrinter;
use crate::search_args::{Configurations, SearchArgs};

mod solve;

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
        /// Write a solution (the moves and the PDDL plan, as printed
        /// without this flag) to this file instead of standard output;
        /// without a solution, the reason goes to standard output as
        /// usual and no file is written.
        #[arg(short = 'o', long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Print one JSON object instead: level, status, messages, solver,
        /// moves, move_count, optimal, lower_bound, plan, expanded, boards
        /// (the simulator's), seconds, peak_memory_bytes.
        #[arg(long)]
        json: bool,
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
            output,
            json,
            simulator,
            max_states,
        } => {
            let configurations = Configurations {
                satisficing: puzznic::satisficing_options(),
                optimal: puzznic::optimal_options(),
            };
            match search.options(optimal, configurations) {
                Ok(options) => {
                    let mut progress = ProgressPrinter::new(quiet || json);
                    let simulator = simulator.then(|| puzznic::BfsLimits {
                        max_states,
                        max_bytes: options
                            .memory_limit_bytes
                            .map(|bytes| usize::try_from(bytes).unwrap_or(usize::MAX)),
                    });
                    let to = solve::ReportTo {
                        output: output.as_deref(),
                        json,
                    };
                    solve::solve(
                        &level,
                        rules(real_time),
                        options,
                        simulator,
                        &to,
                        &mut progress,
                    )
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
        outln!("cleared in {}", solve::count(moves.len(), "move", "moves"));
        Ok(exit::SUCCESS)
    } else {
        outln!(
            "not cleared: {} left after {}",
            solve::count(
                frames.last().map_or(0, |f| f.board.tile_count()),
                "tile",
                "tiles"
            ),
            solve::count(moves.len(), "move", "moves")
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
