//! The reference simulator against the shared Game Boy levels and their
//! known optimal move counts (`../shared/puzznic/gameboy/MOVES`).

use planner::puzznic::{BfsOutcome, solve_bfs};
use std::path::Path;

mod puzznic_support;
use puzznic_support::load_level;
use shared_data::gameboy_levels;

/// `(level, optimal?, moves)` for each line of MOVES.
fn known_moves(dir: &Path) -> Vec<(String, bool, usize)> {
    let text = std::fs::read_to_string(dir.join("MOVES")).expect("MOVES readable");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            (
                fields[0].to_string(),
                fields[1] == "optimal",
                fields[2].parse().expect("a number"),
            )
        })
        .collect()
}

fn load(dir: &Path, level: &str) -> planner::puzznic::Level {
    load_level(&dir.join(format!("{level}.txt")))
}

#[test]
fn every_gameboy_level_parses_and_is_still() {
    let Some(dir) = gameboy_levels() else { return };
    let moves = known_moves(&dir);
    assert_eq!(moves.len(), 128);
    for (name, _, _) in &moves {
        let level = load(&dir, name);
        assert!(level.board.is_still(), "level {name} is not still as given");
        assert!(!level.board.moves().is_empty(), "level {name} has no move");
    }
}

/// BFS agrees with every `optimal N` of MOVES that it finishes within a
/// small state budget (the easy levels).
#[test]
fn bfs_matches_known_optimal_moves_on_small_levels() {
    bfs_agrees_with_moves(3_000, 25);
}

/// The same with a budget of 300,000 boards (minutes; run with
/// `cargo test --release --test puzznic_simulator -- --ignored`).
#[test]
#[ignore]
fn bfs_matches_known_optimal_moves_with_a_large_budget() {
    bfs_agrees_with_moves(300_000, 50);
}

/// Runs BFS on every level with `budget` boards: every solution must have
/// exactly the MOVES count, every bound must stay below it, and at least
/// `at_least_solved` levels must be solved.
fn bfs_agrees_with_moves(budget: usize, at_least_solved: usize) {
    let Some(dir) = gameboy_levels() else { return };
    let mut checked = 0;
    for (name, optimal, expected) in known_moves(&dir) {
        let level = load(&dir, &name);
        let (outcome, stats) = solve_bfs(&level.board, budget);
        match outcome {
            BfsOutcome::Solved(moves) => {
                assert!(
                    optimal,
                    "level {name}: MOVES says at-least {expected}, BFS solved in {}",
                    moves.len()
                );
                assert_eq!(
                    moves.len(),
                    expected,
                    "level {name} ({} states)",
                    stats.states
                );
                // Replaying the solution clears the board.
                let mut board = level.board.clone();
                for mv in &moves {
                    board = board.play(*mv).expect("legal move");
                }
                assert!(board.is_cleared(), "level {name}: replay does not clear");
                checked += 1;
            }
            BfsOutcome::LimitReached { at_least, .. } => {
                assert!(at_least <= expected, "level {name}")
            }
            BfsOutcome::Unsolvable => panic!("level {name}: BFS says unsolvable"),
            BfsOutcome::Stopped { .. } => panic!("level {name}: nothing asked BFS to stop"),
        }
    }
    eprintln!("{checked} levels solved by BFS with the known optimal count");
    assert!(checked >= at_least_solved, "only {checked} levels checked");
}
