//! The PDDL domains against the reference simulator: random move sequences
//! played through the ground task (grounded from the generated problem)
//! and through the simulator must give the same boards after every
//! physics step, and the same legal moves on every still board. Also
//! checks that the physics is forced: while anything can fall or vanish,
//! exactly one action is applicable (besides, under the real-time rules,
//! the pushes allowed while tiles fall).

use pddl_syntax::SourceFile;
use planner::ground::task::{Conjunction, FactId, Operator};
use planner::ground::{GroundOptions, Task};
use planner::puzznic::{self, Board, Cell, Level, Move, Physics, Position, RealTime, Rules};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

mod puzznic_support;
use puzznic_support::{assert_valid_for_the_validator, load_level as load};
use shared_data::gameboy_levels;

/// A plain interpreter of the ground task: facts and axioms (the domains
/// have no numeric preconditions; `total-cost` became costs).
struct Replay<'a> {
    task: &'a Task,
    state: Vec<bool>,
    /// The plan so far: every action applied, as a plan line.
    plan_lines: Vec<String>,
}

impl<'a> Replay<'a> {
    fn new(task: &'a Task) -> Replay<'a> {
        let mut state = vec![false; task.facts.len()];
        for &f in &task.init_facts {
            state[f as usize] = true;
        }
        let mut replay = Replay {
            task,
            state,
            plan_lines: Vec::new(),
        };
        replay.derive();
        replay
    }

    /// Recomputes the derived facts: stratum by stratum, rules applied
    /// until nothing changes (negative literals only mention lower strata,
    /// which are final by then).
    fn derive(&mut self) {
        for axiom in &self.task.axioms {
            self.state[axiom.head as usize] = false;
        }
        let top = self.task.axioms.iter().map(|a| a.stratum).max();
        for stratum in 0..=top.unwrap_or(0) {
            let mut changed = true;
            while changed {
                changed = false;
                for axiom in self.task.axioms.iter().filter(|a| a.stratum == stratum) {
                    if !self.state[axiom.head as usize] && self.holds(&axiom.body) {
                        self.state[axiom.head as usize] = true;
                        changed = true;
                    }
                }
            }
        }
    }

    fn holds(&self, c: &Conjunction) -> bool {
        assert!(c.numeric.is_empty(), "no numeric conditions expected");
        c.pos.iter().all(|&f| self.state[f as usize])
            && c.neg.iter().all(|&f| !self.state[f as usize])
    }

    fn applicable(&self) -> Vec<&'a Operator> {
        self.task
            .operators
            .iter()
            .filter(|o| self.holds(&o.precondition))
            .collect()
    }

    fn apply(&mut self, op: &Operator) {
        self.plan_lines.push(op.plan_line());
        let mut adds: Vec<FactId> = op.add.clone();
        let mut dels: Vec<FactId> = op.del.clone();
        for ce in &op.conditional {
            if self.holds(&ce.condition) {
                adds.extend(&ce.add);
                dels.extend(&ce.del);
            }
        }
        for f in dels {
            self.state[f as usize] = false;
        }
        // An add of the same step wins over a delete.
        for f in adds {
            self.state[f as usize] = true;
        }
        self.derive();
    }

    /// The board the current state describes, drawn over `template`'s walls.
    fn board(&self, template: &Board) -> Board {
        let mut board = template.clone();
        for p in template.playfield().collect::<Vec<_>>() {
            board.set(p, Cell::Empty);
        }
        let tiles = puzznic::tile_objects(template);
        let mut empty_cells = BTreeSet::new();
        for (fact, atom) in self.task.facts.iter().enumerate() {
            if !self.state[fact] {
                continue;
            }
            if atom.predicate == "at" {
                let pos = puzznic::problem::parse_cell_name(&atom.args[1]).expect("cell name");
                let tile = tiles
                    .iter()
                    .find(|t| t.name == atom.args[0])
                    .expect("tile name");
                assert_eq!(board.at(pos), Cell::Empty, "two tiles at {pos}");
                board.set(pos, Cell::Tile(tile.kind));
            }
            if atom.predicate == "empty" {
                let pos = puzznic::problem::parse_cell_name(&atom.args[0]).expect("cell name");
                assert!(template.at(pos).is_playfield());
                empty_cells.insert(pos);
            }
            if atom.predicate == "gone" {
                let tile = tiles
                    .iter()
                    .find(|t| t.name == atom.args[0])
                    .expect("tile name");
                let placed =
                    self.task.facts.iter().enumerate().any(|(f, a)| {
                        self.state[f] && a.predicate == "at" && a.args[0] == tile.name
                    });
                assert!(!placed, "{} is gone and placed", tile.name);
            }
        }
        // `empty` must describe the board exactly (cells no tile can reach
        // are not objects of the problem).
        for p in template.playfield() {
            if matches!(board.at(p), Cell::Tile(_)) {
                assert!(!empty_cells.contains(&p), "{p} holds a tile and is empty");
            }
        }
        for &p in &empty_cells {
            assert_eq!(board.at(p), Cell::Empty, "{p} is empty and holds a tile");
        }
        board
    }

    /// The player moves applicable now.
    fn moves(&self) -> BTreeSet<(Position, bool)> {
        self.applicable()
            .into_iter()
            .filter_map(|o| puzznic::problem::action_move(&o.name, &o.args))
            .map(|m| (m.from, m.direction == puzznic::Direction::Left))
            .collect()
    }

    fn is_physics(op: &Operator) -> bool {
        op.name == "gravity-step" || op.name == "vanish"
    }

    /// Runs the physics until a push is applicable or nothing is left to
    /// happen, returning every board that differs from the one before.
    /// While no push is applicable, exactly one action must be (under the
    /// turn-based rules, that is the whole physics: it is forced).
    fn run_physics(&mut self, template: &Board) -> Vec<Board> {
        let mut boards = Vec::new();
        let mut last = self.board(template);
        for _ in 0..10_000 {
            if !self.moves().is_empty() {
                return boards;
            }
            let applicable = self.applicable();
            if applicable.is_empty() {
                return boards;
            }
            assert!(
                applicable.len() == 1 && Self::is_physics(applicable[0]),
                "physics not forced: {:?}",
                applicable.iter().map(|o| o.plan_line()).collect::<Vec<_>>()
            );
            self.apply(applicable[0]);
            let now = self.board(template);
            if now != last {
                boards.push(now.clone());
                last = now;
            }
        }
        panic!("physics does not terminate");
    }

    /// Applies the one physics action applicable now (beside pushes).
    fn physics_step(&mut self) {
        let physics: Vec<&Operator> = self
            .applicable()
            .into_iter()
            .filter(|o| Self::is_physics(o))
            .collect();
        assert_eq!(physics.len(), 1, "one physics action");
        self.apply(physics[0]);
    }

    fn push(&mut self, mv: Move) {
        let op = self
            .applicable()
            .into_iter()
            .find(|o| puzznic::problem::action_move(&o.name, &o.args) == Some(mv))
            .expect("push applicable");
        self.apply(op);
    }
}

/// Boards as text, so that a failure shows readable boards.
fn texts(boards: &[Board]) -> Vec<String> {
    boards.iter().map(Board::to_text).collect()
}

fn sim_moves(board: &Board) -> BTreeSet<(Position, bool)> {
    move_set(board.moves())
}

fn move_set(moves: Vec<Move>) -> BTreeSet<(Position, bool)> {
    moves
        .into_iter()
        .map(|m| (m.from, m.direction == puzznic::Direction::Left))
        .collect()
}

/// A deterministic generator (the problem generators' own): `random(n)` is
/// in `0..n`.
fn generator(seed: u64) -> impl FnMut(usize) -> usize {
    let mut rng = planner::generate::rng::Rng::new(seed);
    move |n: usize| rng.below(n as u64) as usize
}

/// Grounding options that keep every transition of the domain: the
/// boards compared hold every tile, also those relevance analysis would
/// drop (a tile stuck where no match can reach it).
fn every_transition() -> GroundOptions<'static> {
    GroundOptions {
        keep_irrelevant: true,
        ..GroundOptions::default()
    }
}

/// Plays `rounds` random real-time games of up to `length` decisions on a
/// level: at each point where a push is allowed while tiles fall, the
/// game either pushes a random resting tile or lets one step pass. The
/// real-time domain and [`RealTime`] must agree on every board and on the
/// pushes allowed at every point.
fn cross_check_real_time(name: &str, level: &Level, rounds: usize, length: usize, seed: u64) {
    let task = puzznic::ground_level(level, "cross-check", Rules::RealTime, &every_transition())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut random = generator(seed);
    let template = &level.board;
    for round in 0..rounds {
        let mut replay = Replay::new(&task);
        let mut game = RealTime::new(template.clone());
        for step in 0..length {
            let pddl_boards = replay.run_physics(template);
            let mut sim_boards = Vec::new();
            while game.pushes().is_empty() && game.step().is_some() {
                sim_boards.push(game.board().clone());
            }
            assert_eq!(
                texts(&pddl_boards),
                texts(&sim_boards),
                "{name} round {round} step {step}: physics differs"
            );
            assert_eq!(
                replay.board(template).to_text(),
                game.board().to_text(),
                "{name} round {round} step {step}"
            );
            let pushes = game.pushes();
            assert_eq!(
                replay.moves(),
                move_set(pushes.clone()),
                "{name} round {round} step {step}: allowed pushes differ\n{}",
                game.board().to_text()
            );
            if pushes.is_empty() {
                break;
            }
            if !game.is_still() && random(3) == 0 {
                replay.physics_step();
                game.step().expect("tiles are falling");
            } else {
                let mv = pushes[random(pushes.len())];
                replay.push(mv);
                game.push(mv).expect("allowed");
            }
            assert_eq!(
                replay.board(template).to_text(),
                game.board().to_text(),
                "{name} round {round} step {step}: after a decision"
            );
        }
    }
}

/// Plays `rounds` random games of up to `length` moves on a level.
fn cross_check(name: &str, level: &Level, rounds: usize, length: usize, seed: u64) {
    let task = puzznic::ground_level(level, "cross-check", Rules::TurnBased, &every_transition())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut random = generator(seed);
    for round in 0..rounds {
        let name = format!("{name} round {round}");
        play_both(&name, &task, level, length, |legal| {
            legal[random(legal.len())]
        });
    }
}

/// Plays one game of up to `length` moves, each chosen by `choose` among
/// the legal ones, through the ground task and through the simulator,
/// asserting that they agree on every board and on the legal moves.
/// Returns the ground task's interpreter where the game ended.
fn play_both<'a>(
    name: &str,
    task: &'a Task,
    level: &Level,
    length: usize,
    mut choose: impl FnMut(&[Move]) -> Move,
) -> Replay<'a> {
    let template = &level.board;
    let mut replay = Replay::new(task);
    let pddl_boards = replay.run_physics(template);
    let mut board = template.clone();
    let sim_boards: Vec<Board> = Physics::new(board.clone()).map(|(_, b)| b).collect();
    assert_eq!(
        texts(&pddl_boards),
        texts(&sim_boards),
        "{name}: initial settling differs"
    );
    board.settle();
    for step in 0..length {
        assert_eq!(
            replay.board(template).to_text(),
            board.to_text(),
            "{name} step {step}"
        );
        let legal = board.moves();
        assert_eq!(
            replay.moves(),
            sim_moves(&board),
            "{name} step {step}: legal moves differ\n{}",
            board.to_text()
        );
        if legal.is_empty() || board.is_cleared() {
            break;
        }
        let mv = choose(&legal);
        replay.push(mv);
        let pushed = board.pushed(mv).expect("legal");
        let sim_boards: Vec<Board> = Physics::new(pushed.clone()).map(|(_, b)| b).collect();
        let mut pddl_boards = vec![replay.board(template)];
        pddl_boards.extend(replay.run_physics(template));
        let mut expected = vec![pushed];
        expected.extend(sim_boards);
        assert_eq!(
            texts(&pddl_boards),
            texts(&expected),
            "{name} step {step}: physics after {mv} differs"
        );
        board = board.play(mv).expect("legal");
    }
    replay
}

fn levels_in(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "txt"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    paths
}

#[test]
fn shipped_levels_agree_with_the_simulator() {
    let paths = levels_in(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/problems/puzznic"
    )));
    assert_eq!(paths.len(), 12);
    for path in paths {
        let level = load(&path);
        cross_check(&path.display().to_string(), &level, 20, 30, 7);
        cross_check_real_time(&path.display().to_string(), &level, 20, 60, 11);
    }
}

#[test]
fn gameboy_levels_agree_with_the_simulator() {
    let Some(dir) = gameboy_levels() else { return };
    let dir = dir.as_path();
    let paths = levels_in(dir);
    assert_eq!(paths.len(), 128);
    for (i, path) in paths.iter().enumerate() {
        let level = load(path);
        let name = path.display().to_string();
        cross_check(&name, &level, 4, 40, 1000 + i as u64);
        cross_check_real_time(&name, &level, 2, 80, 5000 + i as u64);
    }
}

/// Game Boy level 127 can be cleared by the turn-based rules: the 44 moves
/// of `puzznic_support/gameboy-127.moves` clear it in the simulator and in
/// the ground task, which agree on every board on the way, and the plan
/// they make is valid for the independent validator.
#[test]
fn gameboy_127_is_cleared_by_the_turn_based_rules() {
    let Some(dir) = gameboy_levels() else { return };
    let level = load(&dir.join("127.txt"));
    let text = include_str!("puzznic_support/gameboy-127.moves");
    let moves: Vec<Move> = text
        .lines()
        .filter(|line| !line.starts_with(';'))
        .map(|line| line.parse().expect("a move"))
        .collect();
    assert_eq!(moves.len(), 44);
    let task = puzznic::ground_level(&level, "gameboy-127", Rules::TurnBased, &every_transition())
        .expect("grounds");
    let mut next = moves.iter();
    let replay = play_both("127", &task, &level, moves.len() + 1, |legal| {
        let mv = *next
            .next()
            .expect("the board is cleared before the moves run out");
        assert!(legal.contains(&mv), "{mv} is not legal");
        mv
    });
    assert!(next.next().is_none(), "every move was played");
    assert!(replay.board(&level.board).is_cleared());
    assert!(replay.holds(&task.goal), "the ground goal holds");
    assert_valid_for_the_validator(
        &level,
        "gameboy-127",
        Rules::TurnBased,
        &replay.plan_lines,
        44,
    );
}

/// Boards that start unsettled (a stack with gaps falling while another
/// column falls, then a match and a second fall) and a triple followed by
/// a chain, so the physics is cross-checked without the shared levels.
#[test]
fn handmade_boards_agree_with_the_simulator() {
    let boards = [
        // Each column: a tile, a gap, a tile, a gap. After one step the
        // lower tiles land while the upper ones hang over a cell vacated
        // in that same step: gravity must go on.
        ("gaps", "####\n#ab#\n#..#\n#ba#\n#..#\n####\n"),
        (
            "long-gaps",
            "####\n#a.#\n#b.#\n#..#\n#c.#\n#..#\n#.c#\n#.b#\n#.a#\n####\n",
        ),
        ("triple-chain", "######\n#b.a.#\n#a.#.#\n#ba###\n######\n"),
    ];
    for (name, text) in boards {
        let level = puzznic::parse_level(&SourceFile::new(name, text)).expect("valid level");
        cross_check(name, &level, 10, 20, 3);
        cross_check_real_time(name, &level, 10, 40, 3);
    }
}
