//! PDDL problems for the Puzznic domain, and the way back: player moves
//! from plan lines.
//!
//! Cells are named `rROW-cCOL` (1-based, as rows and columns are counted
//! in the level file), tiles `tile-CHAR-N` (`tile-cap-a-2` for the second
//! upper-case `A` in reading order, since PDDL names are case-insensitive).

use super::level::{Board, Cell, Level, Position};
use super::simulator::{Direction, Move, PushTime, TimedMove};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The PDDL object naming a cell.
pub fn cell_name(pos: Position) -> String {
    format!("r{}-c{}", pos.row + 1, pos.col + 1)
}

/// The position named by [`cell_name`], if `name` is one.
pub fn parse_cell_name(name: &str) -> Option<Position> {
    let (row, col) = name.strip_prefix('r')?.split_once("-c")?;
    let row: usize = row.parse().ok()?;
    let col: usize = col.parse().ok()?;
    Some(Position {
        row: row.checked_sub(1)?,
        col: col.checked_sub(1)?,
    })
}

/// The PDDL object naming the kind of tile drawn as `ch`.
pub fn kind_name(ch: char) -> String {
    if ch.is_ascii_uppercase() {
        format!("tile-cap-{}", ch.to_ascii_lowercase())
    } else {
        format!("tile-{ch}")
    }
}

/// A tile object of the problem: its PDDL name, its starting cell and
/// its kind (an index into [`Board::kinds`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileObject {
    /// `tile-a-1`: the kind's name and a number counting that kind's
    /// tiles in reading order from 1.
    pub name: String,
    /// Where the tile starts.
    pub start: Position,
    /// Its kind.
    pub kind: u8,
}

/// The PDDL subtype of `tile` for a tile whose kind has `count` tiles:
/// `triple-tile` for exactly three (they clear only all at once),
/// `pair-tile` otherwise.
fn tile_type(count: usize) -> &'static str {
    if count == 3 {
        "triple-tile"
    } else {
        "pair-tile"
    }
}

/// The tile objects of a board, in reading order.
pub fn tile_objects(board: &Board) -> Vec<TileObject> {
    let mut counts = vec![0usize; board.kinds().len()];
    let mut tiles = Vec::new();
    for start in board.playfield() {
        if let Cell::Tile(kind) = board.at(start) {
            let Some(count) = counts.get_mut(kind as usize) else {
                continue;
            };
            *count += 1;
            let ch = board.kinds().get(kind as usize).copied().unwrap_or('?');
            tiles.push(TileObject {
                name: format!("{}-{count}", kind_name(ch)),
                start,
                kind,
            });
        }
    }
    tiles
}

/// The player move of a ground action, `None` for the physics actions
/// (`gravity-step`, `vanish`) and anything else.
pub fn action_move(name: &str, args: &[impl AsRef<str>]) -> Option<Move> {
    let direction = match name {
        "push-left" => Direction::Left,
        "push-right" => Direction::Right,
        _ => return None,
    };
    Some(Move {
        from: parse_cell_name(args.first()?.as_ref())?,
        direction,
    })
}

/// The pushes of a plan, each with when it is made: the plan's physics
/// actions are played on `start` (`gravity-step` as one gravity step,
/// `vanish` as one matching), and a push made while the board is not
/// still is timed by the physics steps that changed the board since the
/// push before it. Legality is not checked here; replaying the result
/// ([`super::simulator::replay_real_time`]) does that.
pub fn timed_moves<'a, S: AsRef<str> + 'a>(
    start: &Board,
    actions: impl IntoIterator<Item = (&'a str, &'a [S])>,
) -> Vec<TimedMove> {
    let mut board = start.clone();
    let mut steps = 0;
    let mut moves = Vec::new();
    for (name, args) in actions {
        match name {
            "gravity-step" => steps += usize::from(board.gravity_step()),
            "vanish" => steps += usize::from(board.vanish() > 0),
            _ => {
                let Some(mv) = action_move(name, args) else {
                    continue;
                };
                let time = if board.is_still() {
                    PushTime::Still
                } else {
                    PushTime::AfterSteps(steps)
                };
                moves.push(TimedMove { mv, time });
                if let Ok(next) = board.pushed(mv) {
                    board = next;
                }
                steps = 0;
            }
        }
    }
    moves
}

/// Reads the player moves of a plan file (one `(action args...)` or one
/// move as [`Move`] displays it, `move tile at row 3 col 4 left`, per
/// line; `;` comments ignored), timed by the plan's physics actions as
/// [`timed_moves`] does, from the level's board `start`; a plan of pushes
/// alone (no physics action at all, as a player would write it) pushes on
/// still boards. Errors name the line.
pub fn parse_plan_moves(text: &str, start: &Board) -> Result<Vec<TimedMove>, String> {
    let mut actions: Vec<(String, Vec<String>)> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split(';').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        // Accept the optional `0: ` step prefix of timed plan formats.
        let body = line
            .split_once(':')
            .filter(|(step, _)| step.trim().parse::<f64>().is_ok())
            .map_or(line, |(_, rest)| rest.trim());
        // A move as `plan puzznic solve` describes it, e.g. `move tile at
        // row 3 col 4 left`: a push on a still board.
        if let Ok(mv) = body.parse::<Move>() {
            let name = match mv.direction {
                Direction::Left => "push-left",
                Direction::Right => "push-right",
            };
            actions.push((name.to_owned(), vec![cell_name(mv.from)]));
            continue;
        }
        let inner = body
            .strip_prefix('(')
            .and_then(|b| b.split_once(')'))
            .map(|(inside, _)| inside)
            .ok_or_else(|| {
                format!(
                    "line {}: expected `(action args...)`, found `{line}`",
                    number + 1
                )
            })?;
        let words: Vec<String> = inner
            .split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect();
        let Some((name, args)) = words.split_first() else {
            return Err(format!("line {}: empty action", number + 1));
        };
        match name.as_str() {
            "gravity-step" | "vanish" => {}
            "push-left" | "push-right" => {
                if action_move(name, args).is_none() {
                    return Err(format!(
                        "line {}: `{line}` does not name a cell like `r3-c4`",
                        number + 1
                    ));
                }
            }
            other => {
                return Err(format!(
                    "line {}: `{other}` is not a Puzznic action",
                    number + 1
                ));
            }
        }
        actions.push((name.clone(), args.to_vec()));
    }
    if !actions
        .iter()
        .any(|(name, _)| name == "gravity-step" || name == "vanish")
    {
        return Ok(actions
            .iter()
            .filter_map(|(name, args)| action_move(name, args))
            .map(|mv| TimedMove {
                mv,
                time: PushTime::Still,
            })
            .collect());
    }
    Ok(timed_moves(
        start,
        actions
            .iter()
            .map(|(name, args)| (name.as_str(), args.as_slice())),
    ))
}

/// The playfield cells some tile of `board` can ever occupy: tiles move
/// left, right and down only, so every other cell stays empty forever and
/// is left out of the problem.
pub fn reachable_cells(board: &Board) -> BTreeSet<Position> {
    let mut reached: BTreeSet<Position> = board
        .playfield()
        .filter(|&p| matches!(board.at(p), Cell::Tile(_)))
        .collect();
    let mut stack: Vec<Position> = reached.iter().copied().collect();
    while let Some(p) = stack.pop() {
        let neighbours = [
            p.col.checked_sub(1).map(|col| Position { row: p.row, col }),
            Some(Position {
                row: p.row,
                col: p.col + 1,
            }),
            Some(Position {
                row: p.row + 1,
                col: p.col,
            }),
        ];
        for next in neighbours.into_iter().flatten() {
            if board.at(next).is_playfield() && reached.insert(next) {
                stack.push(next);
            }
        }
    }
    reached
}

/// A PDDL problem name from a level's file name: `puzznic-` and the stem,
/// other characters than letters and digits turned into `-`.
pub fn problem_name(stem: &str) -> String {
    let clean: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("puzznic-{clean}")
}

/// The PDDL problem of a level for `domains/puzznic/domain.pddl`: one
/// object per reachable cell and per tile (`triple-tile` when its kind has
/// exactly three tiles, `pair-tile` otherwise), static adjacency and
/// same-kind facts, and the goal that every tile is gone.
pub fn problem_pddl(level: &Level, name: &str) -> String {
    let board = &level.board;
    let cells = reachable_cells(board);
    let mut out = String::new();
    for comment in &level.comments {
        let _ = writeln!(out, "; {comment}");
    }
    out.push_str("; Board:\n");
    for line in board.to_text().lines() {
        let _ = writeln!(out, ";   {line}");
    }
    let _ = writeln!(out, "(define (problem {name})");
    out.push_str("  (:domain puzznic)\n  (:objects\n");
    for row in 0..board.height() {
        let names: Vec<String> = cells
            .iter()
            .filter(|p| p.row == row)
            .map(|&p| cell_name(p))
            .collect();
        if !names.is_empty() {
            let _ = writeln!(out, "    {} - cell", names.join(" "));
        }
    }
    let tiles = tile_objects(board);
    let counts = board.kind_counts();
    let tile_type_of =
        |t: &TileObject| tile_type(counts.get(t.kind as usize).copied().unwrap_or(0));
    for wanted in ["pair-tile", "triple-tile"] {
        let names: Vec<&str> = tiles
            .iter()
            .filter(|t| tile_type_of(t) == wanted)
            .map(|t| t.name.as_str())
            .collect();
        for chunk in names.chunks(8) {
            let _ = writeln!(out, "    {} - {wanted}", chunk.join(" "));
        }
    }
    out.push_str("  )\n  (:init\n    (falling)\n    (= (total-cost) 0)\n");
    for &p in &cells {
        let right = Position {
            row: p.row,
            col: p.col + 1,
        };
        if cells.contains(&right) {
            let _ = writeln!(out, "    (right-of {} {})", cell_name(p), cell_name(right));
        }
        let below = Position {
            row: p.row + 1,
            col: p.col,
        };
        if cells.contains(&below) {
            let _ = writeln!(out, "    (below {} {})", cell_name(p), cell_name(below));
        }
    }
    for &p in &cells {
        let neighbours = [
            p.row.checked_sub(1).map(|row| Position { row, col: p.col }),
            Some(Position {
                row: p.row + 1,
                col: p.col,
            }),
            p.col.checked_sub(1).map(|col| Position { row: p.row, col }),
            Some(Position {
                row: p.row,
                col: p.col + 1,
            }),
        ];
        for q in neighbours.into_iter().flatten() {
            if cells.contains(&q) {
                let _ = writeln!(out, "    (adjacent {} {})", cell_name(p), cell_name(q));
            }
        }
    }
    for s in &tiles {
        for t in tiles
            .iter()
            .filter(|t| t.kind == s.kind && t.name != s.name)
        {
            let _ = writeln!(out, "    (same-kind {} {})", s.name, t.name);
        }
    }
    for t in &tiles {
        let _ = writeln!(out, "    (at {} {})", t.name, cell_name(t.start));
    }
    for &p in &cells {
        if !matches!(board.at(p), Cell::Tile(_)) {
            let _ = writeln!(out, "    (empty {})", cell_name(p));
        }
    }
    out.push_str("  )\n  (:goal (and");
    for (i, t) in tiles.iter().enumerate() {
        out.push_str(if i % 6 == 0 { "\n    " } else { " " });
        let _ = write!(out, "(gone {})", t.name);
    }
    out.push_str("))\n  (:metric minimize (total-cost)))\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzznic::level::parse_level;
    use pddl_syntax::SourceFile;

    #[test]
    fn names_round_trip() {
        let p = Position { row: 11, col: 3 };
        assert_eq!(cell_name(p), "r12-c4");
        assert_eq!(parse_cell_name("r12-c4"), Some(p));
        assert_eq!(parse_cell_name("r0-c4"), None);
        assert_eq!(kind_name('A'), "tile-cap-a");
        assert_eq!(kind_name('7'), "tile-7");
        let level = parse_level(&SourceFile::new("t", "#####\n#A.7#\n#7#A#\n#####\n")).unwrap();
        let names: Vec<String> = tile_objects(&level.board)
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(
            names,
            ["tile-cap-a-1", "tile-7-1", "tile-7-2", "tile-cap-a-2"]
        );
    }

    #[test]
    fn unreachable_cells_are_left_out() {
        let level =
            parse_level(&SourceFile::new("t", "#####\n#...#\n#a..#\n#.#a#\n#####\n")).unwrap();
        let cells = reachable_cells(&level.board);
        // Row 2 is above every tile; (4,2) is below the `a` at (3,2).
        let names: Vec<String> = cells.iter().map(|&p| cell_name(p)).collect();
        assert_eq!(names, ["r3-c2", "r3-c3", "r3-c4", "r4-c2", "r4-c4"]);
        let pddl = problem_pddl(&level, "p");
        assert!(pddl.contains("(below r3-c2 r4-c2)"));
        assert!(pddl.contains("(right-of r3-c3 r3-c4)"));
        assert!(pddl.contains("(at tile-a-2 r4-c4)"));
        assert!(pddl.contains("(same-kind tile-a-1 tile-a-2)"));
        assert!(pddl.contains("(same-kind tile-a-2 tile-a-1)"));
        assert!(pddl.contains("(gone tile-a-1) (gone tile-a-2)"));
        assert!(!pddl.contains("r2-c2"));
        assert!(pddl.contains("(adjacent r3-c2 r4-c2)"));
        assert!(pddl.contains("(adjacent r4-c2 r3-c2)"));
        assert!(pddl.contains("tile-a-1 tile-a-2 - pair-tile"));
        assert!(!pddl.contains("triple-tile"));
    }

    #[test]
    fn tiles_of_three_tile_kinds_are_typed_apart() {
        let level = parse_level(&SourceFile::new(
            "t",
            "#######\n#b.b.b#\n#aa.cc#\n#######\n",
        ))
        .unwrap();
        let pddl = problem_pddl(&level, "p");
        assert!(pddl.contains("tile-a-1 tile-a-2 tile-c-1 tile-c-2 - pair-tile"));
        assert!(pddl.contains("tile-b-1 tile-b-2 tile-b-3 - triple-tile"));
    }

    #[test]
    fn plan_moves_are_read_back() {
        let plan = "; cost = 2\n(gravity-step)\n(push-left r3-c4 r3-c3 tile-7-2)\n0: (PUSH-RIGHT r2-c2 r2-c3 tile-a-1) [1]\n(vanish)\n";
        let still = parse_level(&SourceFile::new("t", "#####\n#a.a#\n#####\n"))
            .unwrap()
            .board;
        let moves = parse_plan_moves(plan, &still).unwrap();
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[0].to_string(), "move tile at row 3 col 4 left");
        assert_eq!(moves[1].to_string(), "move tile at row 2 col 2 right");
        assert!(moves.iter().all(|m| m.time == PushTime::Still));
        // Pushes alone are played on still boards; with the physics written
        // out, a push before the tiles have settled is timed.
        let falling = parse_level(&SourceFile::new(
            "t",
            "#####\n#a..#\n##.##\n##.##\n#a#a#\n#####\n",
        ))
        .unwrap()
        .board;
        let pushes = "(push-right r2-c2 r2-c3 tile-a-1)\n(push-left r2-c3 r2-c2 tile-a-1)\n";
        let moves = parse_plan_moves(pushes, &falling).unwrap();
        assert!(moves.iter().all(|m| m.time == PushTime::Still));
        // Moves as `plan puzznic solve` describes them read the same.
        let described = "move tile at row 2 col 2 right\n(push-left r2-c3 r2-c2 tile-a-1)\n";
        assert_eq!(parse_plan_moves(described, &falling).unwrap(), moves);
        let timed = "(gravity-step)\n(vanish)\n(push-right r2-c2 r2-c3 tile-a-1)\n(gravity-step)\n(push-left r5-c4 r5-c3 tile-a-3)\n";
        let moves = parse_plan_moves(timed, &falling).unwrap();
        assert_eq!(moves[0].time, PushTime::Still);
        assert_eq!(moves[1].time, PushTime::AfterSteps(1));
        assert_eq!(
            moves[1].to_string(),
            "after 1 falling step: move tile at row 5 col 4 left"
        );
        // A push before the first gravity step of a level that starts
        // unsettled.
        let floating = parse_level(&SourceFile::new("t", "#####\n#a..#\n#...#\n#a.a#\n#####\n"))
            .unwrap()
            .board;
        let early = "(push-right r2-c2 r2-c3 tile-a-1)\n(gravity-step)\n";
        let moves = parse_plan_moves(early, &floating).unwrap();
        assert_eq!(moves[0].time, PushTime::AfterSteps(0));
        assert_eq!(
            moves[0].to_string(),
            "before the first falling step: move tile at row 2 col 2 right"
        );
        assert!(
            parse_plan_moves("(fly r1-c1)", &still)
                .unwrap_err()
                .contains("line 1")
        );
    }
}
