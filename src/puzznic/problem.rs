//! PDDL problems for the Puzznic domain, and the way back: player moves
//! from plan lines.
//!
//! Cells are named `rROW-cCOL` (1-based, as rows and columns are counted
//! in the level file), kinds `tile-CHAR` (`tile-cap-a` for an upper-case
//! `A`, since PDDL names are case-insensitive).

use super::level::{Board, Cell, Level, Position};
use super::simulator::{Direction, Move};
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

/// The PDDL action of a player move: `(push-left r3-c4 r3-c3 tile-7)`.
/// `None` if the move pushes no tile.
pub fn move_action(board: &Board, mv: Move) -> Option<String> {
    let Cell::Tile(kind) = board.at(mv.from) else {
        return None;
    };
    let to = mv.to()?;
    let kind = board.kinds().get(kind as usize)?;
    Some(format!(
        "(push-{} {} {} {})",
        mv.direction.word(),
        cell_name(mv.from),
        cell_name(to),
        kind_name(*kind)
    ))
}

/// The player move of a ground action, `None` for the physics actions
/// (`gravity-step`, `vanish`) and anything else.
pub fn action_move(name: &str, args: &[String]) -> Option<Move> {
    let direction = match name {
        "push-left" => Direction::Left,
        "push-right" => Direction::Right,
        _ => return None,
    };
    Some(Move {
        from: parse_cell_name(args.first()?)?,
        direction,
    })
}

/// Reads the player moves of a plan file (one `(action args...)` per line,
/// `;` comments ignored, physics actions skipped). Errors name the line.
pub fn parse_plan_moves(text: &str) -> Result<Vec<Move>, String> {
    let mut moves = Vec::new();
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
                let mv = action_move(name, args).ok_or_else(|| {
                    format!(
                        "line {}: `{line}` does not name a cell like `r3-c4`",
                        number + 1
                    )
                })?;
                moves.push(mv);
            }
            other => {
                return Err(format!(
                    "line {}: `{other}` is not a Puzznic action",
                    number + 1
                ));
            }
        }
    }
    Ok(moves)
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

/// The PDDL problem of a level for `domains/puzznic/domain.pddl`.
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
    let kinds: Vec<String> = board.kinds().iter().map(|&c| kind_name(c)).collect();
    let _ = writeln!(out, "    {} - kind)", kinds.join(" "));
    out.push_str("  (:init\n    (falling)\n    (= (total-cost) 0)\n");
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
        match board.at(p) {
            Cell::Tile(k) => {
                let kind = board.kinds().get(k as usize).copied().unwrap_or('?');
                let _ = writeln!(out, "    (has {} {})", cell_name(p), kind_name(kind));
            }
            _ => {
                let _ = writeln!(out, "    (empty {})", cell_name(p));
            }
        }
    }
    out.push_str("  )\n  (:goal (and");
    for (i, &p) in cells.iter().enumerate() {
        out.push_str(if i % 8 == 0 { "\n    " } else { " " });
        let _ = write!(out, "(empty {})", cell_name(p));
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
        assert!(pddl.contains("(has r4-c4 tile-a)"));
        assert!(!pddl.contains("r2-c2"));
    }

    #[test]
    fn plan_moves_are_read_back() {
        let plan = "; cost = 2\n(gravity-step)\n(push-left r3-c4 r3-c3 tile-7)\n0: (PUSH-RIGHT r2-c2 r2-c3 tile-a) [1]\n(vanish)\n";
        let moves = parse_plan_moves(plan).unwrap();
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[0].to_string(), "move tile at row 3 col 4 left");
        assert_eq!(moves[1].to_string(), "move tile at row 2 col 2 right");
        assert!(
            parse_plan_moves("(fly r1-c1)")
                .unwrap_err()
                .contains("line 1")
        );
    }
}
