//! Puzznic boards and the text level format of `../shared/puzznic`.
//!
//! A level file has `;` comment lines at the top, then one text line per
//! board row, top row first: `#` wall, `.` empty cell, space outside, a
//! letter or digit a tile (equal characters are tiles of the same kind).
//! Rows may differ in length; missing cells are outside.

use pddl_syntax::ast::Span;
use pddl_syntax::{Diagnostic, SourceFile};

/// Largest board side accepted, so absurd inputs are refused up front.
pub const MAX_SIDE: usize = 100;

/// Most tile kinds a board can hold (digits, lower- and upper-case letters).
pub const MAX_KINDS: usize = 62;

/// One cell of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Outside the playfield: solid like a wall, drawn as blank.
    Outside,
    /// A wall, floor or ledge.
    Wall,
    /// A free cell of the playfield.
    Empty,
    /// A tile of the given kind (an index into [`Board::kinds`]).
    Tile(u8),
}

impl Cell {
    /// Whether a tile can be in this cell (empty or holding a tile).
    pub fn is_playfield(self) -> bool {
        matches!(self, Cell::Empty | Cell::Tile(_))
    }
}

/// A position on the board, 0-based (row 0 is the top row of the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// Row, 0 = top.
    pub row: usize,
    /// Column, 0 = left.
    pub col: usize,
}

impl std::fmt::Display for Position {
    /// Shown 1-based, as a person counts rows and columns in the file.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "row {} col {}", self.row + 1, self.col + 1)
    }
}

/// A rectangular board: cells row-major, plus the character of each kind.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    width: usize,
    height: usize,
    cells: Vec<Cell>,
    kinds: Vec<char>,
}

impl Board {
    /// A board from its rows of cells (shorter rows padded with
    /// [`Cell::Outside`]) and the character naming each kind.
    pub fn from_rows(rows: Vec<Vec<Cell>>, kinds: Vec<char>) -> Board {
        let height = rows.len();
        let width = rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut cells = Vec::with_capacity(width * height);
        for mut row in rows {
            row.resize(width, Cell::Outside);
            cells.extend(row);
        }
        Board {
            width,
            height,
            cells,
            kinds,
        }
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The character of each kind, indexed by the kind of [`Cell::Tile`].
    pub fn kinds(&self) -> &[char] {
        &self.kinds
    }

    /// The cells, row-major.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The cell at `row`, `col`; outside the rectangle is [`Cell::Outside`].
    pub fn get(&self, row: usize, col: usize) -> Cell {
        if row < self.height && col < self.width {
            self.cells[row * self.width + col]
        } else {
            Cell::Outside
        }
    }

    /// The cell at a position.
    pub fn at(&self, pos: Position) -> Cell {
        self.get(pos.row, pos.col)
    }

    /// Sets the cell at a position inside the rectangle (ignored outside).
    pub fn set(&mut self, pos: Position, cell: Cell) {
        if pos.row < self.height && pos.col < self.width {
            self.cells[pos.row * self.width + pos.col] = cell;
        }
    }

    /// All positions, row by row.
    pub fn positions(&self) -> impl Iterator<Item = Position> + '_ {
        (0..self.height).flat_map(move |row| (0..self.width).map(move |col| Position { row, col }))
    }

    /// Positions of the playfield cells (empty or tile), row by row.
    pub fn playfield(&self) -> impl Iterator<Item = Position> + '_ {
        self.positions().filter(|&p| self.at(p).is_playfield())
    }

    /// Number of tiles of each kind, indexed by kind.
    pub fn kind_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.kinds.len()];
        for cell in &self.cells {
            if let Cell::Tile(k) = *cell {
                counts[k as usize] += 1;
            }
        }
        counts
    }

    /// The tiles that are the only one of their kind, as (character,
    /// position), in reading order. While any is left, the board can never
    /// be cleared: a tile vanishes only next to another of its kind.
    pub fn lone_tiles(&self) -> Vec<(char, Position)> {
        let counts = self.kind_counts();
        self.playfield()
            .filter_map(|p| match self.at(p) {
                Cell::Tile(k) if counts.get(k as usize) == Some(&1) => {
                    Some((self.cell_char(Cell::Tile(k)), p))
                }
                _ => None,
            })
            .collect()
    }

    /// Number of tiles on the board.
    pub fn tile_count(&self) -> usize {
        self.cells
            .iter()
            .filter(|c| matches!(c, Cell::Tile(_)))
            .count()
    }

    /// Whether no tile is left: the level is cleared.
    pub fn is_cleared(&self) -> bool {
        self.tile_count() == 0
    }

    /// The character drawing a cell in the level format.
    pub fn cell_char(&self, cell: Cell) -> char {
        match cell {
            Cell::Outside => ' ',
            Cell::Wall => '#',
            Cell::Empty => '.',
            Cell::Tile(k) => self.kinds.get(k as usize).copied().unwrap_or('?'),
        }
    }

    /// The board in the level format, one line per row (trailing outside
    /// cells trimmed), each line ending with a newline.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for row in 0..self.height {
            let line: String = (0..self.width)
                .map(|col| self.cell_char(self.get(row, col)))
                .collect();
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// A level: its comment lines and its starting board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// The `;` comment lines, without the leading `;` and surrounding blanks.
    pub comments: Vec<String>,
    /// The board as drawn.
    pub board: Board,
}

impl Level {
    /// The level in the text format (comments first).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for c in &self.comments {
            out.push_str("; ");
            out.push_str(c);
            out.push('\n');
        }
        out.push_str(&self.board.to_text());
        out
    }
}

/// A board cell as read from some source format, with the source span
/// that diagnostics about it point at.
pub(crate) struct SourcedCell {
    pub(crate) cell: RawCell,
    pub(crate) span: Span,
}

/// A cell before kinds are numbered.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum RawCell {
    Outside,
    Wall,
    Empty,
    Tile(char),
}

/// Parses a level in the text format. Every problem found is reported,
/// with a span in `file`.
pub fn parse_level(file: &SourceFile) -> Result<Level, Vec<Diagnostic>> {
    let text = file.text.as_str();
    let mut comments = Vec::new();
    let mut rows: Vec<Vec<SourcedCell>> = Vec::new();
    let mut errors = Vec::new();
    let mut in_board = false;
    let mut line_start = 0;
    for raw_line in text.split_inclusive('\n') {
        let start = line_start;
        line_start += raw_line.len();
        let line = raw_line.trim_end_matches(['\n', '\r']);
        if !in_board {
            if let Some(comment) = line.strip_prefix(';') {
                comments.push(comment.trim().to_string());
                continue;
            }
            if line.trim().is_empty() {
                continue;
            }
            in_board = true;
        }
        // Refuse oversized boards before storing a cell per character.
        let blank = line.trim().is_empty();
        if (rows.len() >= MAX_SIDE && !blank) || line.chars().count() > MAX_SIDE {
            let span = Span::new(start, start + line.len());
            return Err(vec![Diagnostic::error(
                format!("the board is larger than the limit of {MAX_SIDE} rows and columns"),
                span,
            )]);
        }
        if blank && rows.len() >= MAX_SIDE {
            continue;
        }
        let mut row = Vec::new();
        for (offset, ch) in line.char_indices() {
            let span = Span::new(start + offset, start + offset + ch.len_utf8());
            let cell = match ch {
                '#' => RawCell::Wall,
                '.' => RawCell::Empty,
                ' ' => RawCell::Outside,
                c if c.is_ascii_alphanumeric() => RawCell::Tile(c),
                c => {
                    errors.push(
                        Diagnostic::error(
                            format!("unknown character `{}` in the board", c.escape_debug()),
                            span,
                        )
                        .with_label("not a board character")
                        .with_note(
                            "use `#` wall, `.` empty, space outside, a letter or digit for a tile",
                        ),
                    );
                    RawCell::Wall
                }
            };
            row.push(SourcedCell { cell, span });
        }
        rows.push(row);
    }
    // Blank lines after the board are not rows.
    while rows
        .last()
        .is_some_and(|r| r.iter().all(|c| c.cell == RawCell::Outside))
    {
        rows.pop();
    }
    let end = Span::new(text.len(), text.len());
    if !errors.is_empty() {
        return Err(errors);
    }
    build_level(comments, rows, end)
}

/// Numbers the kinds and checks the board: not empty, not too large,
/// enclosed. A kind with a single tile is no syntax error: such a level is
/// well formed but unsolvable ([`Board::lone_tiles`]), which the solver
/// reports as such. `end` locates errors about the level as a whole.
pub(crate) fn build_level(
    comments: Vec<String>,
    rows: Vec<Vec<SourcedCell>>,
    end: Span,
) -> Result<Level, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    if rows.is_empty() {
        return Err(vec![
            Diagnostic::error("empty level: there is no board", end)
                .with_note("a level is `;` comment lines followed by the board rows"),
        ]);
    }
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    if rows.len() > MAX_SIDE || width > MAX_SIDE {
        return Err(vec![Diagnostic::error(
            format!(
                "board of {} rows and {width} columns is larger than the limit of {MAX_SIDE}",
                rows.len()
            ),
            end,
        )]);
    }
    let mut kinds: Vec<char> = rows
        .iter()
        .flatten()
        .filter_map(|c| match c.cell {
            RawCell::Tile(ch) => Some(ch),
            _ => None,
        })
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    if kinds.is_empty() {
        return Err(vec![Diagnostic::error(
            "empty level: the board has no tiles",
            end,
        )]);
    }
    let raw = |row: usize, col: usize| -> RawCell {
        rows.get(row)
            .and_then(|r| r.get(col))
            .map_or(RawCell::Outside, |c| c.cell)
    };
    for (row, cells) in rows.iter().enumerate() {
        for (col, sourced) in cells.iter().enumerate() {
            let what = match sourced.cell {
                RawCell::Tile(ch) => format!("tile `{ch}`"),
                RawCell::Empty => "empty cell".to_string(),
                _ => continue,
            };
            // A tile can leave through an open side or an open floor (tiles
            // never move up, so an open top is harmless).
            let left = if col == 0 {
                RawCell::Outside
            } else {
                raw(row, col - 1)
            };
            let open = [
                (left, "left of"),
                (raw(row, col + 1), "right of"),
                (raw(row + 1, col), "below"),
            ]
            .into_iter()
            .find(|&(neighbour, _)| neighbour == RawCell::Outside);
            if let Some((_, side)) = open {
                errors.push(
                    Diagnostic::error(
                        format!(
                            "{what} at row {} col {} is outside the walls",
                            row + 1,
                            col + 1
                        ),
                        sourced.span,
                    )
                    .with_label(format!("the cell {side} it is outside the playfield"))
                    .with_note("the playfield must be enclosed by `#` on both sides and below"),
                );
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let board_rows = rows
        .iter()
        .map(|cells| {
            cells
                .iter()
                .map(|c| match c.cell {
                    RawCell::Outside => Cell::Outside,
                    RawCell::Wall => Cell::Wall,
                    RawCell::Empty => Cell::Empty,
                    // `kinds` holds every tile character, and at most 62.
                    RawCell::Tile(ch) => {
                        Cell::Tile(kinds.iter().position(|&k| k == ch).unwrap_or(0) as u8)
                    }
                })
                .collect()
        })
        .collect();
    debug_assert!(kinds.len() <= MAX_KINDS);
    Ok(Level {
        comments,
        board: Board::from_rows(board_rows, kinds),
    })
}

/// The board of a level given as text, for unit tests.
#[cfg(test)]
pub(crate) fn test_board(text: &str) -> Board {
    parse_level(&SourceFile::new("t", text))
        .expect("a valid level")
        .board
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Level, Vec<Diagnostic>> {
        parse_level(&SourceFile::new("t.txt", text))
    }

    #[test]
    fn parses_rows_of_different_length() {
        let level = parse("; a level\n; second\n#####\n#a.a#\n#####\n").unwrap();
        assert_eq!(level.comments, vec!["a level", "second"]);
        assert_eq!(level.board.height(), 3);
        assert_eq!(level.board.width(), 5);
        assert_eq!(level.board.get(1, 1), Cell::Tile(0));
        assert_eq!(level.board.get(1, 2), Cell::Empty);
        assert_eq!(level.board.kinds(), &['a']);
        let ragged = parse("####\n#ab##\n#ba.#\n#####").unwrap();
        assert_eq!(ragged.board.width(), 5);
        assert_eq!(ragged.board.get(0, 4), Cell::Outside);
        assert_eq!(ragged.board.to_text(), "####\n#ab##\n#ba.#\n#####\n");
    }

    #[test]
    fn unknown_character_is_located() {
        let file = SourceFile::new("bad.txt", "; c\n####\n#a?a#\n#####\n");
        let errors = parse_level(&file).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(file.line_col(errors[0].span.start), (3, 3));
        assert!(errors[0].render(&file).contains("bad.txt:3:3"));
    }

    #[test]
    fn open_playfield_is_rejected() {
        let errors = parse("#   #\n#a a#\n## ##\n").unwrap_err();
        assert!(
            errors
                .iter()
                .all(|e| e.message.contains("outside the walls")),
            "{errors:?}"
        );
        assert_eq!(errors.len(), 2);
        // Open to the right because the row is short.
        let errors = parse("####\n#aa\n####\n").unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(
            errors[0].message,
            "tile `a` at row 2 col 3 is outside the walls"
        );
    }

    #[test]
    fn empty_levels_are_rejected_and_lone_tiles_found() {
        let level = parse("######\n#a.bc#\n#.cb##\n######\n").expect("well formed");
        assert_eq!(
            level.board.lone_tiles(),
            [('a', Position { row: 1, col: 1 })]
        );
        let level = parse("#####\n#a.a#\n#####\n").expect("well formed");
        assert_eq!(level.board.lone_tiles(), []);
        assert!(
            parse("; nothing\n").unwrap_err()[0]
                .message
                .contains("no board")
        );
        assert!(
            parse("###\n#.#\n###\n").unwrap_err()[0]
                .message
                .contains("no tiles")
        );
    }
}
