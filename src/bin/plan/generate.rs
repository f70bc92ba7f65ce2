//! `plan generate`: write a problem for one of the shipped domains.

use clap::{Args, Subcommand};
use planner::exit;
use planner::generate::{GenerateError, blocksworld, briefcase, hanoi, queens, sliding_tiles, tsp};
use std::path::PathBuf;

/// Options of `plan generate`.
#[derive(Args)]
pub struct GenerateArgs {
    /// Which domain to generate a problem for.
    #[command(subcommand)]
    pub domain: DomainCommand,
    /// Seed of the random generator: the same seed gives the same problem.
    #[arg(long, global = true, default_value_t = 1)]
    pub seed: u64,
    /// Write the problem to FILE instead of standard output.
    #[arg(short, long, global = true, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The domains with a generator, each matching `domains/<name>/domain.pddl`.
#[derive(Subcommand)]
pub enum DomainCommand {
    /// Blocks-world: random start and goal towers.
    Blocksworld {
        /// Number of blocks.
        #[arg(long)]
        blocks: usize,
        /// Generate for `blocksworld-costs`: blocks get weights, lifting costs the weight.
        #[arg(long)]
        costs: bool,
    },
    /// Towers of Hanoi: all discs from the first peg to the last (no randomness).
    Hanoi {
        /// Number of discs.
        #[arg(long)]
        discs: usize,
    },
    /// Sliding-tile puzzle scrambled by random slides from the goal (always solvable).
    SlidingTiles {
        /// Side of the board: 3 for the 8-puzzle, 4 for the 15-puzzle.
        #[arg(long)]
        size: usize,
        /// Number of random slides from the goal (an upper bound on the optimum).
        #[arg(long)]
        scramble: usize,
    },
    /// N-queens: place N queens on an NxN board (no randomness).
    Queens {
        /// Number of queens and side of the board.
        #[arg(long)]
        n: usize,
    },
    /// Travelling salesman: random cities, rounded Euclidean road lengths.
    Tsp {
        /// Number of cities, home included.
        #[arg(long)]
        cities: usize,
    },
    /// Briefcase world (conditional effects): carry items to their destinations.
    Briefcase {
        /// Number of locations, home included.
        #[arg(long)]
        locations: usize,
        /// Number of items to carry.
        #[arg(long)]
        items: usize,
    },
}

/// Generates the problem asked for.
fn problem_text(domain: &DomainCommand, seed: u64) -> Result<String, GenerateError> {
    match *domain {
        DomainCommand::Blocksworld { blocks, costs } => blocksworld::generate(blocks, costs, seed),
        DomainCommand::Hanoi { discs } => hanoi::generate(discs),
        DomainCommand::SlidingTiles { size, scramble } => {
            sliding_tiles::generate(size, scramble, seed)
        }
        DomainCommand::Queens { n } => queens::generate(n),
        DomainCommand::Tsp { cities } => tsp::generate(cities, seed),
        DomainCommand::Briefcase { locations, items } => {
            briefcase::generate(locations, items, seed)
        }
    }
}

/// Runs `plan generate`; returns the exit status.
pub fn run(args: GenerateArgs) -> i32 {
    let text = match problem_text(&args.domain, args.seed) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("error: {error}");
            return exit::INPUT_ERROR;
        }
    };
    let written = match &args.output {
        Some(path) => crate::output::write_file(path, text.as_bytes()),
        None => {
            use std::io::Write;
            std::io::stdout()
                .lock()
                .write_all(text.as_bytes())
                .map_err(|error| format!("cannot write: {error}"))
        }
    };
    match written {
        Ok(()) => exit::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            exit::INPUT_ERROR
        }
    }
}
