//! How many dead Puzznic boards relaxed reachability (h¹) and h² (pairs of
//! facts) recognise as dead: the measurement behind the README's note on
//! Game Boy level 127, whose dead ends the search's heuristics miss.
//!
//! Plays random games from a level's board (moves into boards that
//! `planner::puzznic::dead_ends` already calls dead are avoided where
//! another move exists, since the search's relaxation sees those too),
//! proves each board reached dead or alive by the simulator's
//! breadth-first search (boards it cannot decide within its limit are
//! counted apart), and asks both tests about the boards it proved dead and
//! alive. h² is `planner::search::heuristics::h2` on the board's ground
//! task, with negation literals for its negative conditions (which the
//! landmarks' mutexes ignore); a board is dead by it when a goal literal
//! is unreachable or two goal literals are never reachable together.
//!
//! ```sh
//! cargo run --release --example puzznic_h2_dead_ends -- LEVEL.txt [GAMES [MOVES [STATES]]]
//! cargo run --release --example puzznic_h2_dead_ends -- LEVEL.txt --along SOLUTION.moves
//! ```
//!
//! GAMES random games (default 400) of up to MOVES moves each (default
//! 20), each board decided by a breadth-first search of up to STATES
//! boards (default 300 000). With `--along`, it instead times h² on every
//! board along a known solution, all of which must come out alive.

use std::collections::HashSet;
use std::error::Error;
use std::path::Path;
use std::time::{Duration, Instant};

use planner::generate::rng::Rng;
use planner::ground::task::Task;
use planner::puzznic::bfs::{BfsOutcome, solve_bfs};
use planner::puzznic::dead_ends::DeadEnds;
use planner::puzznic::level::{Board, Level};
use planner::puzznic::problem::parse_plan_moves;
use planner::puzznic::solve::ground_level;
use planner::puzznic::{Rules, read_level};
use planner::search::heuristics::h2::PairRelaxation;

/// More than the fixpoint needs on any Game Boy board.
const MAX_WORK: u64 = 50_000_000_000;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        return Err("usage: puzznic_h2_dead_ends LEVEL.txt [GAMES [MOVES [STATES]]]".into());
    };
    let level = read_level(Path::new(path), None)?;
    if args.get(1).map(String::as_str) == Some("--along") {
        let moves = args.get(2).ok_or("--along needs a file of moves")?;
        return along_solution(&level, &std::fs::read_to_string(moves)?);
    }
    let number = |i: usize, default: usize| -> Result<usize, Box<dyn Error>> {
        Ok(args
            .get(i)
            .map(|a| a.parse())
            .transpose()?
            .unwrap_or(default))
    };
    let (games, moves, states) = (number(1, 400)?, number(2, 20)?, number(3, 300_000)?);
    let mut counts = Counts::default();
    for board in random_boards(&level.board, games, moves) {
        let (outcome, search) = solve_bfs(&board, states);
        let dead = match outcome {
            BfsOutcome::Unsolvable => true,
            BfsOutcome::Solved(_) => false,
            _ => {
                counts.undecided += 1;
                continue;
            }
        };
        let task = board_task(&board)?;
        let by_h1 = !task.impossible_goal.is_empty();
        let by_h2 = by_h1 || h2_says_dead(&task).ok_or("the h² fixpoint ran out of work")?;
        if dead {
            counts.dead += 1;
            counts.dead_by_h1 += usize::from(by_h1);
            counts.dead_by_h2 += usize::from(by_h2);
            if by_h2 && !by_h1 {
                counts.largest_region_only_h2_sees =
                    counts.largest_region_only_h2_sees.max(search.states);
            }
        } else {
            counts.alive += 1;
            counts.alive_called_dead += usize::from(by_h2);
        }
    }
    println!("{counts:?}");
    Ok(())
}

#[derive(Debug, Default)]
struct Counts {
    dead: usize,
    dead_by_h1: usize,
    dead_by_h2: usize,
    /// The most boards reachable from a dead board that h² recognises and
    /// h¹ does not (all of them dead).
    largest_region_only_h2_sees: usize,
    alive: usize,
    /// Must stay 0: h² is a relaxation.
    alive_called_dead: usize,
    undecided: usize,
}

/// Distinct still boards reached by random games from `start`.
fn random_boards(start: &Board, games: usize, max_moves: usize) -> Vec<Board> {
    let mut rng = Rng::new(1);
    let dead_ends = DeadEnds::new(start);
    let mut seen = HashSet::new();
    let mut boards = Vec::new();
    for _ in 0..games {
        let mut board = start.clone();
        for _ in 0..1 + rng.index(max_moves.max(1)) {
            let moves = board.moves();
            if moves.is_empty() {
                break;
            }
            let mut next = board.play(moves[rng.index(moves.len())]);
            for _ in 0..20 {
                if !next.as_ref().is_ok_and(|b| dead_ends.is_dead(b)) {
                    break;
                }
                next = board.play(moves[rng.index(moves.len())]);
            }
            let Ok(next) = next else { break };
            board = next;
        }
        if seen.insert(board.to_text()) {
            boards.push(board);
        }
    }
    boards
}

/// Times h² on every board along `solution` (moves as `plan puzznic
/// solve` prints them); each must come out alive.
fn along_solution(level: &Level, solution: &str) -> Result<(), Box<dyn Error>> {
    let mut board = level.board.clone();
    let (mut total, mut slowest) = (Duration::ZERO, Duration::ZERO);
    let moves = parse_plan_moves(solution, &board)?;
    for (i, timed) in moves.iter().enumerate() {
        let task = board_task(&board)?;
        let start = Instant::now();
        let dead = h2_says_dead(&task).ok_or("the h² fixpoint ran out of work")?;
        let took = start.elapsed();
        if dead {
            return Err(format!("board {i} of a solution called dead: a bug").into());
        }
        (total, slowest) = (total + took, slowest.max(took));
        board = board.play(timed.mv)?;
    }
    println!(
        "{} boards alive by h², {total:?} in all, the slowest {slowest:?}",
        moves.len()
    );
    Ok(())
}

fn board_task(board: &Board) -> Result<Task, Box<dyn Error>> {
    let level = Level {
        comments: Vec::new(),
        board: board.clone(),
    };
    Ok(ground_level(
        &level,
        "board",
        Rules::TurnBased,
        &Default::default(),
    )?)
}

/// Whether h² proves the goal unreachable; `None` if the fixpoint ran out
/// of work.
fn h2_says_dead(task: &Task) -> Option<bool> {
    let relaxation = PairRelaxation::new(task, true)?;
    let init = relaxation.state_literals(&task.init_facts);
    let pairs = relaxation.reachable_pairs(&init, MAX_WORK, &|| false)?;
    Some(!pairs.pairwise(&relaxation.goal))
}
