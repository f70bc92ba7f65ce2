//! A plain reference simulator of the turn-based rules, independent of
//! the PDDL domain; [`RealTime`] adds the real-time rule (pushes while
//! tiles fall). Its exhaustive solver is [`super::bfs`].

use super::Rules;
use super::level::{Board, Cell, Position};
use std::fmt;

/// Which way a tile is pushed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// One cell to the left.
    Left,
    /// One cell to the right.
    Right,
}

impl Direction {
    /// `"left"` or `"right"`.
    pub fn word(self) -> &'static str {
        match self {
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }
}

/// A player move: push the tile at `from` one cell in `direction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The tile pushed.
    pub from: Position,
    /// Which way.
    pub direction: Direction,
}

impl Move {
    /// The cell the tile is pushed into, `None` left of column 0.
    pub fn to(self) -> Option<Position> {
        let col = match self.direction {
            Direction::Left => self.from.col.checked_sub(1)?,
            Direction::Right => self.from.col + 1,
        };
        Some(Position {
            row: self.from.row,
            col,
        })
    }
}

impl fmt::Display for Move {
    /// `move tile at row 3 col 4 left` (1-based).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move tile at {} {}", self.from, self.direction.word())
    }
}

impl std::str::FromStr for Move {
    type Err = String;

    /// Reads a move as [`Display`](fmt::Display) writes it: `move tile at
    /// row 3 col 4 left` (1-based row and column).
    fn from_str(text: &str) -> Result<Move, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = |word: &str| word.parse::<usize>().ok().filter(|&n| n >= 1);
        match words[..] {
            ["move", "tile", "at", "row", row, "col", col, direction] => {
                let direction = match direction {
                    "left" => Direction::Left,
                    "right" => Direction::Right,
                    _ => return Err(format!("`{direction}`: expected `left` or `right`")),
                };
                let (Some(row), Some(col)) = (number(row), number(col)) else {
                    return Err(format!("`{text}`: rows and columns count from 1"));
                };
                Ok(Move {
                    from: Position {
                        row: row - 1,
                        col: col - 1,
                    },
                    direction,
                })
            }
            _ => Err(format!(
                "`{text}`: expected a move such as `move tile at row 3 col 4 left`"
            )),
        }
    }
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// There is no tile at the cell.
    #[error("there is no tile at {0}")]
    NoTile(Position),
    /// The target cell is not empty.
    #[error("the cell {} of {from} is not empty", .direction.word())]
    Blocked {
        /// The tile pushed.
        from: Position,
        /// Which way.
        direction: Direction,
    },
    /// Real-time rules: the tile is falling, or stands on a falling tile.
    #[error("the tile at {0} is not resting")]
    NotResting(Position),
    /// Turn-based rules: the push comes while tiles fall.
    #[error("the turn-based rules allow no push while tiles fall (the real-time rules do)")]
    WhileFalling,
    /// Real-time rules: a push came right after another one, or after the
    /// tiles landed and before they matched.
    #[error("no push is allowed before the next physics step (at {0})")]
    NotNow(Position),
}

/// One step of the physics, as the PDDL domain takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhysicsStep {
    /// Every tile with an empty cell below moved down one cell.
    Gravity,
    /// Every tile next to a tile of its kind vanished (this many tiles).
    Vanish(usize),
}

impl fmt::Display for PhysicsStep {
    /// `gravity`, or `3 tiles vanish`: a frame's caption.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PhysicsStep::Gravity => write!(f, "gravity"),
            PhysicsStep::Vanish(n) => write!(f, "{n} tiles vanish"),
        }
    }
}

impl Board {
    /// Plays a move on a still board: the pushed tile moves, then the
    /// board settles (gravity and matching until still).
    pub fn play(&self, mv: Move) -> Result<Board, MoveError> {
        let mut next = self.pushed(mv)?;
        next.settle();
        Ok(next)
    }

    /// The board right after the push, before any physics.
    pub fn pushed(&self, mv: Move) -> Result<Board, MoveError> {
        let Cell::Tile(kind) = self.at(mv.from) else {
            return Err(MoveError::NoTile(mv.from));
        };
        let to = mv
            .to()
            .filter(|&to| self.at(to) == Cell::Empty)
            .ok_or(MoveError::Blocked {
                from: mv.from,
                direction: mv.direction,
            })?;
        let mut next = self.clone();
        next.set(mv.from, Cell::Empty);
        next.set(to, Cell::Tile(kind));
        Ok(next)
    }

    /// Every legal move on this (still) board, in row-major order, left
    /// before right.
    pub fn moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        for from in self.positions() {
            if !matches!(self.at(from), Cell::Tile(_)) {
                continue;
            }
            for direction in [Direction::Left, Direction::Right] {
                let mv = Move { from, direction };
                if mv.to().is_some_and(|to| self.at(to) == Cell::Empty) {
                    out.push(mv);
                }
            }
        }
        out
    }

    /// Runs gravity and matching until the board is still.
    pub fn settle(&mut self) {
        loop {
            self.fall_fully();
            if self.vanish() == 0 {
                return;
            }
        }
    }

    /// Whether some tile has an empty cell below it.
    pub fn can_fall(&self) -> bool {
        self.playfield().any(|p| {
            matches!(self.at(p), Cell::Tile(_)) && self.get(p.row + 1, p.col) == Cell::Empty
        })
    }

    /// Moves every tile whose cell below is empty at the start of the
    /// step down by one cell, all at once; returns whether any moved.
    pub fn gravity_step(&mut self) -> bool {
        let movers: Vec<Position> = self
            .playfield()
            .filter(|&p| {
                matches!(self.at(p), Cell::Tile(_)) && self.get(p.row + 1, p.col) == Cell::Empty
            })
            .collect();
        // Lowest first: a mover's target was empty and is nobody's source.
        for &p in movers.iter().rev() {
            let tile = self.at(p);
            self.set(
                Position {
                    row: p.row + 1,
                    col: p.col,
                },
                tile,
            );
            self.set(p, Cell::Empty);
        }
        !movers.is_empty()
    }

    /// Lets every tile fall as far as it goes.
    fn fall_fully(&mut self) {
        for col in 0..self.width() {
            // Scan each column bottom-up, dropping tiles onto the lowest
            // free cell above the last support.
            let mut free: Option<usize> = None;
            for row in (0..self.height()).rev() {
                let pos = Position { row, col };
                match self.at(pos) {
                    Cell::Empty => {
                        free.get_or_insert(row);
                    }
                    Cell::Tile(k) => {
                        if let Some(target) = free {
                            self.set(Position { row: target, col }, Cell::Tile(k));
                            self.set(pos, Cell::Empty);
                            free = Some(target - 1);
                        }
                    }
                    Cell::Wall | Cell::Outside => free = None,
                }
            }
        }
    }

    /// Removes every tile orthogonally next to a tile of its kind, all at
    /// once; returns how many vanished.
    pub fn vanish(&mut self) -> usize {
        let doomed: Vec<Position> = self
            .playfield()
            .filter(|&p| {
                let Cell::Tile(k) = self.at(p) else {
                    return false;
                };
                let same = |row: Option<usize>, col: Option<usize>| match (row, col) {
                    (Some(r), Some(c)) => self.get(r, c) == Cell::Tile(k),
                    _ => false,
                };
                same(Some(p.row), p.col.checked_sub(1))
                    || same(Some(p.row), Some(p.col + 1))
                    || same(p.row.checked_sub(1), Some(p.col))
                    || same(Some(p.row + 1), Some(p.col))
            })
            .collect();
        for &p in &doomed {
            self.set(p, Cell::Empty);
        }
        doomed.len()
    }

    /// Whether the board is still: nothing can fall and nothing can vanish.
    pub fn is_still(&self) -> bool {
        !self.can_fall() && self.clone().vanish() == 0
    }

    /// Whether the tile at `pos` rests: every cell below it, down to a
    /// wall, holds a tile, so no gravity step moves it. On a still board
    /// every tile rests. An empty cell does not.
    pub fn is_resting(&self, pos: Position) -> bool {
        (pos.row..self.height())
            .map(|row| self.get(row, pos.col))
            .take_while(|cell| cell.is_playfield())
            .all(|cell| matches!(cell, Cell::Tile(_)))
    }
}

/// The physics after a push, one step at a time, in the order the PDDL
/// domain takes them: gravity steps until nothing falls, then one
/// vanishing step, repeated while anything vanishes.
pub struct Physics {
    board: Board,
    done: bool,
}

impl Physics {
    /// Starts from a board that may be unsettled.
    pub fn new(board: Board) -> Physics {
        Physics { board, done: false }
    }
}

impl Iterator for Physics {
    type Item = (PhysicsStep, Board);

    fn next(&mut self) -> Option<(PhysicsStep, Board)> {
        if self.done {
            return None;
        }
        if self.board.can_fall() {
            self.board.gravity_step();
            return Some((PhysicsStep::Gravity, self.board.clone()));
        }
        let vanished = self.board.vanish();
        if vanished == 0 {
            self.done = true;
            return None;
        }
        Some((PhysicsStep::Vanish(vanished), self.board.clone()))
    }
}

/// A board under the real-time rules (the arcade and NES versions): as
/// in the turn-based rules, plus a resting tile may be pushed while other
/// tiles are still falling, at most one push between two physics steps.
/// Matching still waits until nothing falls, and no push comes between
/// the landing and the matching. `domains/puzznic/realtime.pddl` states
/// the same rules; a turn-based game is a real-time game that pushes only
/// on still boards.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RealTime {
    board: Board,
    pushed: bool,
}

impl RealTime {
    /// Starts from a board that may be unsettled, before any push.
    pub fn new(board: Board) -> RealTime {
        RealTime {
            board,
            pushed: false,
        }
    }

    /// A game at `board` that has (`pushed`) or has not pushed since the
    /// last physics step.
    pub(super) fn from_parts(board: Board, pushed: bool) -> RealTime {
        RealTime { board, pushed }
    }

    /// Whether the player pushed since the last physics step.
    pub(super) fn has_pushed(&self) -> bool {
        self.pushed
    }

    /// The board now.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whether the player may push now: no push since the last physics
    /// step, and either some tile is falling or the board is still.
    pub fn can_push(&self) -> bool {
        !self.pushed && (self.board.can_fall() || self.board.is_still())
    }

    /// Whether nothing is left to happen until the player pushes.
    pub fn is_still(&self) -> bool {
        !self.pushed && self.board.is_still()
    }

    /// The pushes the player may make now, in the order of
    /// [`Board::moves`]: pushes of resting tiles into empty cells.
    pub fn pushes(&self) -> Vec<Move> {
        if !self.can_push() {
            return Vec::new();
        }
        let mut moves = self.board.moves();
        moves.retain(|mv| self.board.is_resting(mv.from));
        moves
    }

    /// Pushes a tile now.
    pub fn push(&mut self, mv: Move) -> Result<(), MoveError> {
        if !self.can_push() {
            return Err(MoveError::NotNow(mv.from));
        }
        let pushed = self.board.pushed(mv)?;
        if !self.board.is_resting(mv.from) {
            return Err(MoveError::NotResting(mv.from));
        }
        self.board = pushed;
        self.pushed = true;
        Ok(())
    }

    /// One physics step: gravity while anything can fall, then matching;
    /// `None` when nothing happened (the board is still, and the player
    /// may push again).
    pub fn step(&mut self) -> Option<PhysicsStep> {
        self.pushed = false;
        if self.board.gravity_step() {
            return Some(PhysicsStep::Gravity);
        }
        match self.board.vanish() {
            0 => None,
            vanished => Some(PhysicsStep::Vanish(vanished)),
        }
    }
}

/// When a push is made under the real-time rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PushTime {
    /// On a still board, as every push of the turn-based rules.
    Still,
    /// While tiles fall: after this many physics steps (each a gravity
    /// step or a vanishing that changed the board) since the previous push
    /// or the start of the level.
    AfterSteps(usize),
}

/// A push and when it is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimedMove {
    /// The push.
    pub mv: Move,
    /// When.
    pub time: PushTime,
}

impl fmt::Display for TimedMove {
    /// `move tile at row 3 col 4 left`, or with the real-time rule
    /// `after 2 falling steps: move tile at row 3 col 4 left`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.time {
            PushTime::Still => write!(f, "{}", self.mv),
            // Only a level that starts unsettled allows this.
            PushTime::AfterSteps(0) => write!(f, "before the first falling step: {}", self.mv),
            PushTime::AfterSteps(1) => write!(f, "after 1 falling step: {}", self.mv),
            PushTime::AfterSteps(n) => write!(f, "after {n} falling steps: {}", self.mv),
        }
    }
}

/// Replays timed pushes by `rules`: [`replay`] for the turn-based rules
/// (where a push timed while tiles fall is an error), and
/// [`replay_real_time`] (every physics step shown) for the real-time ones.
pub fn replay_by_rules(
    start: &Board,
    moves: &[TimedMove],
    rules: Rules,
    physics: bool,
) -> Result<Vec<Frame>, ReplayError> {
    match rules {
        Rules::TurnBased => {
            if let Some((i, early)) = moves
                .iter()
                .enumerate()
                .find(|(_, m)| m.time != PushTime::Still)
            {
                return Err(ReplayError {
                    number: i + 1,
                    mv: early.mv,
                    reason: MoveError::WhileFalling,
                });
            }
            let pushes: Vec<Move> = moves.iter().map(|m| m.mv).collect();
            replay(start, &pushes, physics)
        }
        Rules::RealTime => replay_real_time(start, moves),
    }
}

/// Replays timed pushes under the real-time rules from `start` (which may
/// be unsettled): one frame for the start, one per push and one per
/// physics step, until the board is still after the last push.
pub fn replay_real_time(start: &Board, moves: &[TimedMove]) -> Result<Vec<Frame>, ReplayError> {
    let mut frames = vec![Frame {
        moves_done: 0,
        caption: "start".to_string(),
        board: start.clone(),
    }];
    let mut game = RealTime::new(start.clone());
    let step = |game: &mut RealTime, frames: &mut Vec<Frame>, moves_done: usize| {
        let step = game.step()?;
        frames.push(Frame {
            moves_done,
            caption: step.to_string(),
            board: game.board().clone(),
        });
        Some(())
    };
    for (i, timed) in moves.iter().enumerate() {
        let error = |reason| ReplayError {
            number: i + 1,
            mv: timed.mv,
            reason,
        };
        match timed.time {
            PushTime::Still => while step(&mut game, &mut frames, i).is_some() {},
            PushTime::AfterSteps(n) => {
                for _ in 0..n {
                    step(&mut game, &mut frames, i)
                        .ok_or_else(|| error(MoveError::NotNow(timed.mv.from)))?;
                }
                if game.is_still() {
                    // Still boards are `PushTime::Still`: a different count
                    // of steps means a different game.
                    return Err(error(MoveError::NotNow(timed.mv.from)));
                }
            }
        }
        game.push(timed.mv).map_err(error)?;
        frames.push(Frame {
            moves_done: i + 1,
            caption: format!("move {}: {timed}", i + 1),
            board: game.board().clone(),
        });
    }
    while step(&mut game, &mut frames, moves.len()).is_some() {}
    Ok(frames)
}

/// A board shown while replaying a plan, with what led to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Player moves played so far.
    pub moves_done: usize,
    /// What happened, e.g. `start`, `move 2: move tile at row 3 col 4 left`.
    pub caption: String,
    /// The board after it.
    pub board: Board,
}

/// Why a plan cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} ({mv}) is illegal: {reason}")]
pub struct ReplayError {
    /// 1-based number of the offending move.
    pub number: usize,
    /// The move.
    pub mv: Move,
    /// Why.
    pub reason: MoveError,
}

/// Replays player moves from `start` (settled first): one frame for the
/// start and one per move, or with `physics` one per gravity and vanishing
/// step as well.
pub fn replay(start: &Board, moves: &[Move], physics: bool) -> Result<Vec<Frame>, ReplayError> {
    let mut frames = vec![Frame {
        moves_done: 0,
        caption: "start".to_string(),
        board: start.clone(),
    }];
    let mut board = start.clone();
    let settle = |board: &mut Board, frames: &mut Vec<Frame>, moves_done: usize| {
        if physics {
            for (step, next) in Physics::new(board.clone()) {
                let caption = step.to_string();
                frames.push(Frame {
                    moves_done,
                    caption,
                    board: next.clone(),
                });
                *board = next;
            }
        } else {
            board.settle();
        }
    };
    if !board.is_still() {
        settle(&mut board, &mut frames, 0);
        if !physics {
            frames.push(Frame {
                moves_done: 0,
                caption: "settled".to_string(),
                board: board.clone(),
            });
        }
    }
    for (i, &mv) in moves.iter().enumerate() {
        let pushed = board.pushed(mv).map_err(|reason| ReplayError {
            number: i + 1,
            mv,
            reason,
        })?;
        board = pushed;
        let caption = format!("move {}: {mv}", i + 1);
        if physics {
            frames.push(Frame {
                moves_done: i + 1,
                caption,
                board: board.clone(),
            });
            settle(&mut board, &mut frames, i + 1);
        } else {
            settle(&mut board, &mut frames, i + 1);
            frames.push(Frame {
                moves_done: i + 1,
                caption,
                board: board.clone(),
            });
        }
    }
    Ok(frames)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzznic::level::test_board as board;

    /// A board straight from text, without the level checks (single
    /// tiles allowed), kinds numbered in order of first appearance.
    fn raw_board(text: &str) -> Board {
        let mut kinds = Vec::new();
        let rows = text
            .lines()
            .map(|line| {
                line.chars()
                    .map(|c| match c {
                        '#' => Cell::Wall,
                        '.' => Cell::Empty,
                        ' ' => Cell::Outside,
                        c => {
                            if !kinds.contains(&c) {
                                kinds.push(c);
                            }
                            Cell::Tile(kinds.iter().position(|&k| k == c).unwrap_or(0) as u8)
                        }
                    })
                    .collect()
            })
            .collect();
        Board::from_rows(rows, kinds)
    }

    #[test]
    fn moves_read_back_as_they_are_written() {
        let mv = Move {
            from: Position { row: 2, col: 3 },
            direction: Direction::Left,
        };
        assert_eq!(mv.to_string(), "move tile at row 3 col 4 left");
        assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        for bad in [
            "move tile at row 0 col 4 left",
            "move tile at row 3 col 4 up",
            "push tile at row 3 col 4 left",
            "move tile at row 3 col 4",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }

    #[test]
    fn gravity_moves_every_unsupported_tile_one_cell_at_once() {
        // Column 2: a, b stacked, a gap, then c above the floor gap.
        let mut b = raw_board("###\n#a#\n#b#\n#.#\n#c#\n#.#\n###\n#c#\n###\n");
        let frames: Vec<String> = Physics::new(b.clone()).map(|(_, f)| f.to_text()).collect();
        assert_eq!(
            frames,
            [
                "###\n#a#\n#.#\n#b#\n#.#\n#c#\n###\n#c#\n###\n",
                "###\n#.#\n#a#\n#.#\n#b#\n#c#\n###\n#c#\n###\n",
                "###\n#.#\n#.#\n#a#\n#b#\n#c#\n###\n#c#\n###\n",
            ]
        );
        b.settle();
        assert_eq!(b.to_text(), frames[2]);
        assert!(b.is_still());
    }

    #[test]
    fn groups_vanish_together_and_chains_follow() {
        // The push makes a triple of a and, once it is gone, b falls onto b.
        let start = board("######\n#b.a.#\n#a.#.#\n#ba###\n######\n");
        let mv = Move {
            from: Position { row: 1, col: 3 },
            direction: Direction::Left,
        };
        let steps: Vec<PhysicsStep> = Physics::new(start.pushed(mv).expect("legal"))
            .map(|(s, _)| s)
            .collect();
        assert_eq!(
            steps,
            [
                PhysicsStep::Gravity,
                PhysicsStep::Vanish(3),
                PhysicsStep::Gravity,
                PhysicsStep::Vanish(2)
            ]
        );
        assert!(start.play(mv).expect("legal").is_cleared());
        assert_eq!(
            start.pushed(Move {
                from: Position { row: 2, col: 1 },
                direction: Direction::Left
            }),
            Err(MoveError::Blocked {
                from: Position { row: 2, col: 1 },
                direction: Direction::Left
            })
        );
    }

    #[test]
    fn real_time_pushes_need_a_resting_tile_and_one_step_between() {
        // Column 1 is a shaft; the tile at the top of column 2 stands on
        // the tile below it, which stands on the floor.
        let catch = board("######\n#.a..#\n#.#..#\n#.a..#\n#.##.#\n#a#..#\n######\n");
        let at = |row, col| Position { row, col };
        let left = |row, col| Move {
            from: at(row, col),
            direction: Direction::Left,
        };
        let mut game = RealTime::new(catch.clone());
        assert!(game.is_still() && game.can_push());
        game.push(left(1, 2)).expect("a still board");
        assert_eq!(
            game.push(left(3, 2)),
            Err(MoveError::NotNow(at(3, 2))),
            "two pushes without a step between"
        );
        assert_eq!(game.step(), Some(PhysicsStep::Gravity));
        // The first tile falls through the shaft at row 2; the tile at
        // row 3 rests on the ledge and may be pushed under it.
        assert!(!catch.is_resting(at(1, 1)));
        assert!(!game.board().is_resting(at(2, 1)));
        assert!(game.board().is_resting(at(3, 2)));
        assert!(game.pushes().contains(&left(3, 2)));
        game.push(left(3, 2))
            .expect("a resting tile while another falls");
        while game.step().is_some() {}
        assert!(game.board().is_cleared(), "{}", game.board().to_text());
        // The same pushes as a timed plan replay; one step later the
        // falling tile is in the cell the push needs.
        let plan = |steps| {
            [
                TimedMove {
                    mv: left(1, 2),
                    time: PushTime::Still,
                },
                TimedMove {
                    mv: left(3, 2),
                    time: PushTime::AfterSteps(steps),
                },
            ]
        };
        let frames = replay_real_time(&catch, &plan(1)).expect("legal");
        assert!(frames.last().expect("frames").board.is_cleared());
        assert_eq!(frames[2].caption, "gravity");
        assert_eq!(
            frames[3].caption,
            "move 2: after 1 falling step: move tile at row 4 col 3 left"
        );
        let error = replay_real_time(&catch, &plan(2)).expect_err("blocked");
        assert!(matches!(error.reason, MoveError::Blocked { .. }));
        // After three steps the tile has landed: no push before matching.
        let error = replay_real_time(&catch, &plan(3)).expect_err("landed");
        assert_eq!(
            (error.number, error.reason),
            (2, MoveError::NotNow(at(3, 2)))
        );
        // The turn-based rules refuse the timed push.
        let error =
            replay_by_rules(&catch, &plan(1), Rules::TurnBased, false).expect_err("turn-based");
        assert_eq!(error.reason, MoveError::WhileFalling);
        // A tile standing on a falling tile does not rest.
        let stack = raw_board("####\n#a.#\n#b.#\n#..#\n####\n");
        let game = RealTime::new(stack);
        assert!(game.can_push() && game.pushes().is_empty());
    }
}
