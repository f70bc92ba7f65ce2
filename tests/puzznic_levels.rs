//! The shipped Puzznic levels (`problems/puzznic/`), one rule each: their
//! optimal move counts by the simulator's exhaustive BFS and by the
//! planner run optimally, under the turn-based and the real-time rules,
//! and their generated PDDL problems kept current.

use pddl_syntax::SourceFile;
use planner::ground::GroundOptions;
use planner::puzznic::{self, BfsLimits, BfsOutcome, Level, LevelPlan, Rules};
use planner::search::heuristics::{BuildResources, CostType, create, create_with};
use planner::search::successor::StateSpace;
use planner::search::{HeuristicKind, NoObserver, Outcome, SearchOptions, SearchResult};
use std::path::{Path, PathBuf};

mod puzznic_support;
use puzznic_support::{assert_valid_for_the_validator, load_level};
use shared_data::gameboy_levels;
use std::sync::atomic::AtomicBool;

/// Every shipped level with its optimal number of player moves by the
/// turn-based rules (`None`: unsolvable by them).
const SHIPPED: [(&str, Option<usize>); 12] = [
    ("horizontal-pair", Some(1)),
    ("vertical-pair", Some(1)),
    ("two-colours", Some(6)),
    ("ledge-fall", Some(2)),
    ("pushed-away", Some(3)),
    ("stack-falls", Some(7)),
    ("triple", Some(1)),
    ("two-groups", Some(1)),
    ("chain", Some(1)),
    ("trap", Some(3)),
    ("bridge", Some(16)),
    ("catch", None),
];

/// The levels the turn-based rules solve, with their optima.
fn turn_based_solvable() -> impl Iterator<Item = (&'static str, usize)> {
    SHIPPED
        .iter()
        .filter_map(|&(name, optimal)| Some((name, optimal?)))
}

/// The optimal number of player moves of each shipped level by the
/// real-time rules: never more than by the turn-based ones.
const REAL_TIME: [(&str, usize); 12] = [
    ("horizontal-pair", 1),
    ("vertical-pair", 1),
    ("two-colours", 6),
    ("ledge-fall", 2),
    ("pushed-away", 3),
    ("stack-falls", 7),
    ("triple", 1),
    ("two-groups", 1),
    ("chain", 1),
    ("trap", 3),
    ("bridge", 16),
    ("catch", 2),
];

fn level_path(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/problems/puzznic")).join(format!("{name}.txt"))
}

fn load(name: &str) -> Level {
    load_level(&level_path(name))
}

/// Plans `level` by `rules` with `options`, without limits or progress.
fn solve_level(
    level: &Level,
    name: &str,
    rules: Rules,
    options: &SearchOptions,
) -> (SearchResult, Option<LevelPlan>) {
    puzznic::plan_level(
        level,
        name,
        rules,
        &Default::default(),
        options,
        &AtomicBool::new(false),
        &mut NoObserver,
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn clears(level: &Level, moves: &[puzznic::Move]) -> bool {
    let mut board = level.board.clone();
    board.settle();
    for &mv in moves {
        match board.play(mv) {
            Ok(next) => board = next,
            Err(_) => return false,
        }
    }
    board.is_cleared()
}

#[test]
fn every_shipped_level_is_listed_and_documents_its_optimum() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/problems/puzznic"));
    let mut on_disk: Vec<String> = std::fs::read_dir(dir)
        .expect("problems/puzznic")
        .filter_map(|e| {
            e.ok()?
                .path()
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .collect();
    on_disk.sort();
    on_disk.dedup();
    let mut listed: Vec<String> = SHIPPED.iter().map(|(n, _)| n.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed);
    let real_time: Vec<&str> = REAL_TIME.iter().map(|(n, _)| *n).collect();
    let turn_based: Vec<&str> = SHIPPED.iter().map(|(n, _)| *n).collect();
    assert_eq!(real_time, turn_based);
    for (name, optimal) in SHIPPED {
        let level = load(name);
        let note = match optimal {
            Some(optimal) => format!("optimal {optimal} moves (simulator BFS)"),
            None => "unsolvable by the turn-based rules (simulator BFS)".to_string(),
        };
        assert!(
            level.comments.contains(&note),
            "{name}: comment `; {note}` missing"
        );
    }
}

#[test]
fn simulator_bfs_finds_the_known_optimum() {
    for (name, optimal) in SHIPPED {
        let level = load(name);
        let (outcome, _) = puzznic::solve_bfs(&level.board, 1_000_000);
        let Some(optimal) = optimal else {
            assert_eq!(outcome, BfsOutcome::Unsolvable, "{name}");
            continue;
        };
        let BfsOutcome::Solved(moves) = outcome else {
            panic!("{name}: {outcome:?}")
        };
        assert_eq!(moves.len(), optimal, "{name}");
        assert!(clears(&level, &moves), "{name}");
    }
}

/// The fewest pushes that clear `level` by the real-time rules, by the
/// simulator's 0-1 breadth-first search over real-time games (a push costs
/// 1, letting a physics step happen costs 0), independent of the PDDL
/// domain; its solution must replay to a cleared board. `None`: no game
/// clears it.
fn real_time_optimum(level: &Level) -> Option<usize> {
    let limits = BfsLimits {
        max_states: Some(1_000_000),
        max_bytes: None,
    };
    match puzznic::solve_bfs_real_time_until(&level.board, limits, &mut |_| false).0 {
        BfsOutcome::Solved(moves) => {
            let frames = puzznic::replay_real_time(&level.board, &moves).expect("replays");
            assert!(frames.last().expect("frames").board.is_cleared());
            Some(moves.len())
        }
        BfsOutcome::Unsolvable => None,
        other => panic!("small levels are searched to the end: {other:?}"),
    }
}

/// `plan puzznic solve --real-time --optimal`'s plan for `level`: proven
/// optimal with `optimal` moves, replayed by the simulator's real-time
/// mode to a cleared board, and accepted by the validator.
fn assert_real_time_optimum(level: &Level, name: &str, optimal: usize) {
    let (result, plan) = solve_level(level, name, Rules::RealTime, &puzznic::optimal_options());
    assert!(result.proven_optimal, "{name} real-time");
    let plan = plan.expect("a plan");
    assert_eq!(plan.moves.len(), optimal, "{name} real-time");
    let frames = puzznic::replay_real_time(&level.board, &plan.moves).expect("replays");
    assert!(frames.last().expect("frames").board.is_cleared(), "{name}");
    assert_valid_for_the_validator(level, name, Rules::RealTime, &plan.plan_lines, optimal);
}

#[test]
fn real_time_optima_agree_between_the_simulator_and_the_planner() {
    for ((name, turn_based), (_, optimal)) in SHIPPED.into_iter().zip(REAL_TIME) {
        let level = load(name);
        assert_eq!(real_time_optimum(&level), Some(optimal), "{name}: 0-1 BFS");
        assert!(turn_based.is_none_or(|t| optimal <= t), "{name}");
        assert_real_time_optimum(&level, name, optimal);
        // The default configuration finds some plan, no shorter.
        let (_, plan) = solve_level(
            &level,
            name,
            Rules::RealTime,
            &puzznic::satisficing_options(),
        );
        let plan = plan.unwrap_or_else(|| panic!("{name}: no real-time plan"));
        assert!(plan.moves.len() >= optimal, "{name}");
    }
}

#[test]
fn the_catch_needs_a_push_while_a_tile_falls() {
    let level = load("catch");
    let (result, plan) = solve_level(
        &level,
        "catch",
        Rules::TurnBased,
        &puzznic::optimal_options(),
    );
    assert_eq!(result.outcome, Outcome::Unsolvable);
    assert!(plan.is_none());
    let (_, plan) = solve_level(
        &level,
        "catch",
        Rules::RealTime,
        &puzznic::optimal_options(),
    );
    let moves: Vec<String> = plan
        .expect("a plan")
        .moves
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(
        moves,
        [
            "move tile at row 2 col 3 left",
            "after 1 falling step: move tile at row 4 col 3 left"
        ]
    );
}

#[test]
fn planner_optimal_matches_the_simulator() {
    // Also with dead-end traps, which must keep A* optimal.
    let with_traps = SearchOptions {
        dead_end_traps: true,
        ..puzznic::optimal_options()
    };
    for (name, optimal) in turn_based_solvable() {
        for options in [puzznic::optimal_options(), with_traps.clone()] {
            let level = load(name);
            let (result, plan) = solve_level(&level, name, Rules::TurnBased, &options);
            assert_eq!(result.outcome, Outcome::Solved, "{name}");
            assert!(result.proven_optimal, "{name}");
            let plan = plan.expect("a plan");
            assert_eq!(plan.moves.len(), optimal, "{name}");
            assert_eq!(
                result.plan.map(|p| p.cost),
                Some(optimal as u64),
                "{name}: cost is the number of moves"
            );
            assert!(
                clears(&level, &plan.pushes()),
                "{name}: the planner's moves do not clear the simulator's board"
            );
            assert_valid_for_the_validator(
                &level,
                name,
                Rules::TurnBased,
                &plan.plan_lines,
                optimal,
            );
        }
    }
}

#[test]
fn planner_default_solves_every_shipped_level() {
    for (name, optimal) in turn_based_solvable() {
        let level = load(name);
        // `plan puzznic solve`'s configuration and the planner's general one.
        for options in [
            puzznic::satisficing_options(),
            SearchOptions::satisficing_default(),
            SearchOptions {
                dead_end_traps: true,
                ..puzznic::satisficing_options()
            },
        ] {
            let (result, plan) = solve_level(&level, name, Rules::TurnBased, &options);
            let plan = plan.unwrap_or_else(|| panic!("{name}: {:?}", result.outcome));
            assert!(plan.moves.len() >= optimal, "{name}");
            assert!(clears(&level, &plan.pushes()), "{name}");
        }
    }
}

#[test]
fn the_trap_has_a_fatal_first_move() {
    let level = load("trap");
    let fatal: Vec<String> = level
        .board
        .moves()
        .into_iter()
        .filter(|&mv| {
            let next = level.board.play(mv).expect("legal");
            next.lone_tiles().is_empty()
                && puzznic::solve_bfs(&next, 100_000).0 == BfsOutcome::Unsolvable
        })
        .map(|mv| mv.to_string())
        .collect();
    assert_eq!(fatal, ["move tile at row 2 col 3 right"]);
}

#[test]
fn shipped_pddl_problems_are_current() {
    for (name, _) in SHIPPED {
        let level = load(name);
        let path = level_path(name).with_extension("pddl");
        let on_disk = std::fs::read_to_string(&path).expect("the .pddl next to the level");
        let expected = puzznic::problem_pddl(&level, &puzznic::problem_name(name));
        assert!(
            on_disk == expected,
            "{} is stale: run `plan puzznic problem {name}.txt -o {name}.pddl`",
            path.display()
        );
    }
}

/// The planner run optimally agrees with `MOVES` on the Game Boy levels it
/// proves within a fraction of a second each, with three admissible
/// configurations: `plan puzznic solve --optimal`'s (A* with pattern
/// databases), A* with h_max and the planner's general one (A* with
/// LM-cut).
#[test]
fn planner_optimal_matches_moves_on_small_gameboy_levels() {
    let Some(dir) = gameboy_levels() else { return };
    let dir = dir.as_path();
    let known = [
        ("001", 4),
        ("002", 3),
        ("004", 5),
        ("005", 6),
        ("007", 4),
        ("008", 4),
        ("010", 5),
        ("014", 8),
        ("015", 4),
        ("020", 4),
        ("023", 7),
        ("034", 9),
    ];
    let moves_file = std::fs::read_to_string(dir.join("MOVES")).expect("MOVES");
    for (name, optimal) in known {
        assert!(
            moves_file.contains(&format!("{name} optimal {optimal}\n")),
            "{name}: MOVES disagrees with this table"
        );
        let level = load_level(&dir.join(format!("{name}.txt")));
        let hmax = SearchOptions {
            heuristic: HeuristicKind::HMax,
            ..SearchOptions::optimal_default()
        };
        for options in [
            puzznic::optimal_options(),
            hmax,
            SearchOptions::optimal_default(),
        ] {
            let (result, plan) = solve_level(&level, name, Rules::TurnBased, &options);
            let config = options.heuristic;
            assert!(result.proven_optimal, "{name} {config}");
            let plan = plan.expect("a plan");
            assert_eq!(plan.moves.len(), optimal, "{name} {config}");
            assert!(clears(&level, &plan.pushes()), "{name} {config}");
        }
        // Pushes while tiles fall never cost moves, and the planner's
        // real-time optimum is the exhaustive search's.
        let real_time = real_time_optimum(&level).expect("solvable in real time");
        assert!(real_time <= optimal, "{name} real-time");
        assert_real_time_optimum(&level, name, real_time);
    }
}

/// Game Boy level 059 (23 moves): a kind of three tiles clears only when
/// all three meet, which the pattern databases count (20 in the initial
/// state) and the delete relaxation does not (LM-cut 12, h_max 4); A*
/// with them proves the optimum in well under a second, where A* with
/// LM-cut or h_max ran out of 60 s.
#[test]
fn pattern_databases_see_what_three_tiles_of_a_kind_need() {
    let Some(dir) = gameboy_levels() else { return };
    let level = load_level(&dir.join("059.txt"));
    let task = puzznic::ground_level(&level, "059", Rules::TurnBased, &GroundOptions::default())
        .expect("grounds");
    let initial = |kind: HeuristicKind| {
        let mut space = StateSpace::new(&task);
        let state = space.initial_state();
        let mut fluents = Vec::new();
        create(kind, &task, CostType::Real).evaluate(space.view(&state, &mut fluents), None)
    };
    assert_eq!(initial(HeuristicKind::Pdb), Some(20));
    // Built on two threads, the same databases.
    let mut space = StateSpace::new(&task);
    let state = space.initial_state();
    let mut fluents = Vec::new();
    let two_threads = BuildResources {
        threads: 2,
        ..BuildResources::UNLIMITED
    };
    let mut two = create_with(HeuristicKind::Pdb, &task, CostType::Real, two_threads);
    assert_eq!(
        two.evaluate(space.view(&state, &mut fluents), None),
        Some(20)
    );
    assert_eq!(initial(HeuristicKind::LmCut), Some(12));
    assert_eq!(initial(HeuristicKind::HMax), Some(4));
    let (result, plan) = solve_level(&level, "059", Rules::TurnBased, &puzznic::optimal_options());
    assert!(result.proven_optimal);
    let plan = plan.expect("a plan");
    assert_eq!(plan.moves.len(), 23);
    assert!(clears(&level, &plan.pushes()));
    assert!(
        result.statistics.expanded < 100_000,
        "{}",
        result.statistics.expanded
    );
}

/// Game Boy level 088, where the exhaustive search behind `MOVES` ran out
/// of budget (`at-least 23`): A* with pattern databases proves that it
/// needs 25 moves, in a few seconds.
#[test]
fn optimal_search_settles_a_level_moves_only_bounds() {
    let Some(dir) = gameboy_levels() else { return };
    let moves_file = std::fs::read_to_string(dir.join("MOVES")).expect("MOVES");
    assert!(moves_file.contains("088 at-least 23\n"), "MOVES changed");
    let level = load_level(&dir.join("088.txt"));
    let (result, plan) = solve_level(&level, "088", Rules::TurnBased, &puzznic::optimal_options());
    assert!(result.proven_optimal);
    assert_eq!(result.lower_bound, Some(25));
    let plan = plan.expect("a plan");
    assert_eq!(plan.moves.len(), 25);
    assert!(clears(&level, &plan.pushes()));
}

/// A kind of three tiles whose pair vanishes while settling leaves a
/// single tile. With tile identities (and the pair of a three-tile kind
/// never marked gone), no `gone` goal of that kind is reachable any more,
/// so the relaxation sees the dead end and the search proves the level
/// unsolvable at once: a few settling steps, no player move.
#[test]
fn a_split_triple_is_a_dead_end() {
    let level = puzznic::parse_level(&SourceFile::new("split", "######\n#a.aa#\n######\n"))
        .expect("valid level");
    assert!(level.board.lone_tiles().is_empty(), "three tiles at first");
    for options in [
        puzznic::satisficing_options(),
        SearchOptions::satisficing_default(),
        puzznic::optimal_options(),
    ] {
        let (result, plan) = solve_level(&level, "split", Rules::TurnBased, &options);
        assert_eq!(result.outcome, Outcome::Unsolvable, "{:?}", options.engine);
        assert!(plan.is_none());
        assert!(result.statistics.expanded <= 4, "{:?}", result.statistics);
    }
}

/// [`puzznic::DeadEnds`] prunes the simulator's searches, so it must never
/// call a board dead that can still be cleared. On every shipped level,
/// and on the Game Boy levels with at most 3 000 reachable boards, every
/// still board reachable by the turn-based rules is checked against the
/// truth, worked out without it ([`check_dead_ends`]).
#[test]
fn dead_ends_are_never_clearable() {
    let mut dead_total = 0;
    for (name, _) in SHIPPED {
        let (boards, dead) = check_dead_ends(name, &load(name).board, 3_000)
            .unwrap_or_else(|| panic!("{name}: too many boards to check"));
        assert!(boards > 1, "{name}");
        dead_total += dead;
    }
    // Not vacuous: the levels do have dead boards, and some are found.
    assert!(dead_total > 10, "{dead_total} dead boards found");
    check_dead_ends_on_gameboy_levels(3_000, 10);
}

/// [`dead_ends_are_never_clearable`] on the Game Boy levels with at most
/// 50 000 reachable boards (38 levels, about 20 s in a release build:
/// `cargo test --release --test puzznic_levels -- --ignored dead_ends`).
#[test]
#[ignore = "about 20 s in a release build"]
fn dead_ends_are_never_clearable_on_larger_levels() {
    check_dead_ends_on_gameboy_levels(50_000, 30);
}

/// [`check_dead_ends`] on every Game Boy level with at most `max_boards`
/// reachable boards, of which there must be at least `at_least`.
fn check_dead_ends_on_gameboy_levels(max_boards: usize, at_least: usize) {
    let Some(dir) = gameboy_levels() else { return };
    let mut checked = 0;
    for number in 1..=128 {
        let name = format!("{number:03}");
        let level = load_level(&dir.join(format!("{name}.txt")));
        checked += usize::from(check_dead_ends(&name, &level.board, max_boards).is_some());
    }
    assert!(checked >= at_least, "{checked} levels checked");
}

/// Checks [`puzznic::DeadEnds`] on every still board reachable from
/// `start` by the turn-based rules: none it calls dead can be cleared,
/// which is true of a board when some move leads to a board that can be
/// (found backwards from the cleared boards over the reachable graph).
/// Returns how many boards there are and how many it calls dead, or `None`
/// when there are more than `max_boards`.
fn check_dead_ends(
    name: &str,
    start: &puzznic::Board,
    max_boards: usize,
) -> Option<(usize, usize)> {
    let mut start = start.clone();
    start.settle();
    let dead_ends = puzznic::DeadEnds::new(&start);
    // The reachable graph: boards by text, with each board's predecessors.
    let mut index = std::collections::HashMap::from([(start.to_text(), 0)]);
    let mut boards = vec![start];
    let mut predecessors: Vec<Vec<usize>> = vec![Vec::new()];
    let mut next = 0;
    while next < boards.len() {
        let board = boards[next].clone();
        for mv in board.moves() {
            let after = board.play(mv).expect("a legal move");
            let to = *index.entry(after.to_text()).or_insert_with(|| {
                boards.push(after);
                predecessors.push(Vec::new());
                boards.len() - 1
            });
            predecessors[to].push(next);
        }
        next += 1;
        if boards.len() > max_boards {
            return None;
        }
    }
    let mut clearable = vec![false; boards.len()];
    let mut queue: Vec<usize> = (0..boards.len())
        .filter(|&i| boards[i].is_cleared())
        .collect();
    for &i in &queue {
        clearable[i] = true;
    }
    while let Some(i) = queue.pop() {
        for &p in &predecessors[i] {
            if !clearable[p] {
                clearable[p] = true;
                queue.push(p);
            }
        }
    }
    let mut dead_count = 0;
    for (board, &clearable) in boards.iter().zip(&clearable) {
        let dead = dead_ends.is_dead(board);
        assert!(
            !(dead && clearable),
            "{name}: called dead:\n{}",
            board.to_text()
        );
        dead_count += usize::from(dead);
    }
    Some((boards.len(), dead_count))
}
