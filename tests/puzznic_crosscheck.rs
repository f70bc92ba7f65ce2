//! The PDDL domain against the reference simulator: random move sequences
//! played through the ground task (grounded from the generated problem)
//! and through the simulator must give the same boards after every
//! physics step, and the same legal moves on every still board. Also
//! checks that the physics is forced: while anything can fall or vanish,
//! exactly one action is applicable.

use pddl_syntax::SourceFile;
use planner::ground::Task;
use planner::ground::task::{Conjunction, FactId, Operator};
use planner::puzznic::{self, Board, Cell, Level, Move, Physics, Position};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

mod puzznic_support;
use puzznic_support::gameboy_dir;

/// A plain interpreter of the ground task: facts only (the domain has no
/// numeric preconditions and no axioms; `total-cost` became costs).
struct Replay<'a> {
    task: &'a Task,
    state: Vec<bool>,
}

impl<'a> Replay<'a> {
    fn new(task: &'a Task) -> Replay<'a> {
        assert!(
            task.axioms.is_empty(),
            "the Puzznic domain has no derived predicates"
        );
        let mut state = vec![false; task.facts.len()];
        for &f in &task.init_facts {
            state[f as usize] = true;
        }
        Replay { task, state }
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

    /// Runs the forced physics, returning every board that differs from
    /// the one before, until only player moves remain.
    fn run_physics(&mut self, template: &Board) -> Vec<Board> {
        let mut boards = Vec::new();
        let mut last = self.board(template);
        for _ in 0..10_000 {
            let applicable = self.applicable();
            let physics: Vec<&Operator> = applicable
                .iter()
                .copied()
                .filter(|o| o.name == "gravity-step" || o.name == "vanish")
                .collect();
            if physics.is_empty() {
                return boards;
            }
            assert_eq!(
                applicable.len(),
                1,
                "physics not forced: {:?}",
                applicable.iter().map(|o| o.plan_line()).collect::<Vec<_>>()
            );
            self.apply(physics[0]);
            let now = self.board(template);
            if now != last {
                boards.push(now.clone());
                last = now;
            }
        }
        panic!("physics does not terminate");
    }

    /// The player moves applicable now.
    fn moves(&self) -> BTreeSet<(Position, bool)> {
        self.applicable()
            .into_iter()
            .filter_map(|o| puzznic::problem::action_move(&o.name, &o.args))
            .map(|m| (m.from, m.direction == puzznic::Direction::Left))
            .collect()
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
    board
        .moves()
        .into_iter()
        .map(|m| (m.from, m.direction == puzznic::Direction::Left))
        .collect()
}

/// Plays `rounds` random games of up to `length` moves on a level.
fn cross_check(name: &str, level: &Level, rounds: usize, length: usize, seed: u64) {
    let task =
        puzznic::ground_level(level, "cross-check").unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut rng = seed.max(1);
    let mut random = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let template = &level.board;
    for round in 0..rounds {
        let mut replay = Replay::new(&task);
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
                "{name} round {round} step {step}"
            );
            let legal = board.moves();
            assert_eq!(
                replay.moves(),
                sim_moves(&board),
                "{name} round {round} step {step}: legal moves differ\n{}",
                board.to_text()
            );
            if legal.is_empty() || board.is_cleared() {
                break;
            }
            let mv = legal[random(legal.len())];
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
                "{name} round {round} step {step}: physics after {mv} differs"
            );
            board = board.play(mv).expect("legal");
        }
    }
}

fn load(path: &Path) -> Level {
    let file = SourceFile::new(
        path.display().to_string(),
        std::fs::read_to_string(path).expect("readable"),
    );
    puzznic::parse_level(&file)
        .unwrap_or_else(|e| panic!("{}", e.iter().map(|d| d.render(&file)).collect::<String>()))
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
    assert_eq!(paths.len(), 11);
    for path in paths {
        cross_check(&path.display().to_string(), &load(&path), 20, 30, 7);
    }
}

#[test]
fn gameboy_levels_agree_with_the_simulator() {
    let Some(dir) = gameboy_dir() else { return };
    let dir = dir.as_path();
    let paths = levels_in(dir);
    assert_eq!(paths.len(), 128);
    for (i, path) in paths.iter().enumerate() {
        cross_check(
            &path.display().to_string(),
            &load(path),
            4,
            40,
            1000 + i as u64,
        );
    }
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
    }
}
