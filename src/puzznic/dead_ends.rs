//! Boards that can never be cleared, recognised from where each tile could
//! still go.
//!
//! Tiles never move up: a push moves a tile sideways and gravity moves it
//! down. So the cells a tile can ever occupy lie within its *reach*: the
//! playfield cells reachable from where it is by steps left, right and
//! down, ignoring every other tile (a relaxation: it lets tiles move
//! sideways in mid-air and pass through each other). A tile vanishes only
//! next to one of its kind, so a board is dead when
//! - some kind has a single tile left,
//! - some tile's reach touches the reach of no other tile of its kind, or
//! - a kind has exactly three tiles and no cell of one tile's reach is next
//!   to both other tiles' reaches. Three tiles must vanish together (a pair
//!   vanishing alone would leave the third alone), and three tiles each
//!   next to another of their kind form a path, whose middle tile touches
//!   both ends.
//!
//! Every condition is necessary for clearing, so pruning such boards never
//! loses a solution; by the real-time rules too, where tiles also move only
//! sideways and down. Level 127 of the Game Boy version, for example, has
//! a well at the bottom left (row 9 of columns 3–4 and row 10 of columns
//! 1–3, 0-based) that no tile ever leaves: a tile that falls in is dead at
//! once if no other tile of its kind can still get there.

use super::level::{Board, Cell, Position};

/// The reach of every playfield cell of a level, for [`DeadEnds::is_dead`].
///
/// The cells of a row *segment* (a maximal run of playfield cells between
/// walls) reach one another, so they share one reach: the segment's cells
/// and the reaches of the segments right below them. Built bottom-up, that
/// takes a few set unions per cell.
#[derive(Clone, Debug)]
pub struct DeadEnds {
    /// The playfield cells in reading order.
    playfield: Vec<Position>,
    /// The playfield index of each position (`u32::MAX` outside it).
    index: Vec<u32>,
    /// The segment of each playfield cell.
    segment: Vec<u32>,
    /// Words per cell set.
    words: usize,
    /// `reach[s * words..]`: the cells a tile in segment `s` can still
    /// reach, the segment included.
    reach: Vec<u64>,
    /// `touching[s * words..]`: the cells next to some cell of `reach[s]`.
    touching: Vec<u64>,
}

impl DeadEnds {
    /// The reaches of `board`'s playfield (its tiles do not matter).
    pub fn new(board: &Board) -> DeadEnds {
        let (width, height) = (board.width(), board.height());
        let playfield: Vec<Position> = board.playfield().collect();
        let mut index = vec![u32::MAX; width * height];
        for (i, p) in playfield.iter().enumerate() {
            index[p.row * width + p.col] = i as u32;
        }
        let cell_of = |row: usize, col: usize| -> Option<usize> {
            (row < height && col < width)
                .then(|| index[row * width + col])
                .filter(|&i| i != u32::MAX)
                .map(|i| i as usize)
        };
        // Segments in reading order: a cell starts a new one unless the
        // cell to its left is playfield.
        let mut segment = vec![0u32; playfield.len()];
        let mut segments = 0u32;
        for (i, p) in playfield.iter().enumerate() {
            let continues = p.col > 0 && cell_of(p.row, p.col - 1).is_some();
            if !continues {
                segments += 1;
            }
            segment[i] = segments - 1;
        }
        let words = playfield.len().div_ceil(64).max(1);
        let mut reach = vec![0u64; segments as usize * words];
        let mut touching = vec![0u64; segments as usize * words];
        // Bottom-up: the segments below a cell come later in reading order.
        for (i, p) in playfield.iter().enumerate().rev() {
            let s = segment[i] as usize;
            set(&mut reach[s * words..(s + 1) * words], i);
            let around = [
                p.row.checked_sub(1).and_then(|r| cell_of(r, p.col)),
                cell_of(p.row + 1, p.col),
                p.col.checked_sub(1).and_then(|c| cell_of(p.row, c)),
                cell_of(p.row, p.col + 1),
            ];
            for j in around.into_iter().flatten() {
                set(&mut touching[s * words..(s + 1) * words], j);
            }
            if let Some(below) = cell_of(p.row + 1, p.col) {
                let b = segment[below] as usize;
                for w in 0..words {
                    reach[s * words + w] |= reach[b * words + w];
                    touching[s * words + w] |= touching[b * words + w];
                }
            }
        }
        DeadEnds {
            playfield,
            index,
            segment,
            words,
            reach,
            touching,
        }
    }

    /// The cells a tile at playfield cell `cell` can still reach.
    fn reach(&self, cell: usize) -> &[u64] {
        let s = self.segment[cell] as usize;
        &self.reach[s * self.words..(s + 1) * self.words]
    }

    /// The cells next to some cell of [`Self::reach`].
    fn touching(&self, cell: usize) -> &[u64] {
        let s = self.segment[cell] as usize;
        &self.touching[s * self.words..(s + 1) * self.words]
    }

    /// Whether `board` (of the level this was built from) can never be
    /// cleared, by the conditions of the [module docs](self).
    pub fn is_dead(&self, board: &Board) -> bool {
        self.dead_end(board).is_some()
    }

    /// The first kind, in kind order, that shows `board` can never be
    /// cleared, and why; `None` when no condition of the [module
    /// docs](self) holds.
    pub fn dead_end(&self, board: &Board) -> Option<DeadEnd> {
        // (kind, playfield cell) of every tile, grouped by kind; on the
        // stack for boards of up to STACK_TILES tiles, as this runs for
        // every board the simulator's searches store.
        let mut on_stack = [(0u8, 0usize); STACK_TILES];
        let mut on_heap = Vec::new();
        let mut count = 0;
        for (pos, cell) in board.cells().iter().enumerate() {
            if let Cell::Tile(kind) = *cell {
                let tile = (kind, self.index[pos] as usize);
                if count < STACK_TILES {
                    on_stack[count] = tile;
                } else {
                    if count == STACK_TILES {
                        on_heap.extend_from_slice(&on_stack);
                    }
                    on_heap.push(tile);
                }
                count += 1;
            }
        }
        let tiles = if count <= STACK_TILES {
            &mut on_stack[..count]
        } else {
            &mut on_heap[..]
        };
        tiles.sort_unstable();
        tiles.chunk_by(|a, b| a.0 == b.0).find_map(|group| {
            self.reason(group).map(|(cell, reason)| DeadEnd {
                kind: group[0].0,
                at: self.playfield[cell],
                reason,
            })
        })
    }

    /// Why the tiles of one kind, (kind, playfield cell) each, can never
    /// all vanish, with the cell of a tile concerned.
    fn reason(&self, tiles: &[(u8, usize)]) -> Option<(usize, DeadEndReason)> {
        let touches = |a: usize, b: usize| {
            (0..self.words).any(|w| self.touching(a)[w] & self.reach(b)[w] != 0)
        };
        if let [(_, a)] = tiles {
            return Some((*a, DeadEndReason::Alone));
        }
        if let Some(&(_, a)) = tiles
            .iter()
            .find(|&&(_, a)| !tiles.iter().any(|&(_, b)| b != a && touches(a, b)))
        {
            return Some((a, DeadEndReason::Stranded));
        }
        if let &[(_, a), (_, b), (_, c)] = tiles {
            let meeting = [(a, b, c), (b, a, c), (c, a, b)]
                .iter()
                .any(|&(middle, x, y)| {
                    (0..self.words).any(|w| {
                        self.reach(middle)[w] & self.touching(x)[w] & self.touching(y)[w] != 0
                    })
                });
            if !meeting {
                return Some((a, DeadEndReason::NoMeetingPlace));
            }
        }
        None
    }
}

/// A kind of tile that can never be cleared from a board, found by
/// [`DeadEnds::dead_end`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeadEnd {
    /// The kind (an index into [`Board::kinds`]).
    pub kind: u8,
    /// A tile of that kind: the one concerned ([`DeadEndReason::Alone`],
    /// [`DeadEndReason::Stranded`]) or the first in reading order.
    pub at: Position,
    /// Why the kind can never be cleared.
    pub reason: DeadEndReason,
}

/// Why a kind of tile can never be cleared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadEndReason {
    /// It has a single tile.
    Alone,
    /// The tile at [`DeadEnd::at`] can never get next to another of its
    /// kind: tiles move only sideways and down.
    Stranded,
    /// It has three tiles, which must vanish together, and no cell is
    /// both reachable by one of them and next to cells the other two can
    /// reach.
    NoMeetingPlace,
}

impl std::fmt::Display for DeadEndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DeadEndReason::Alone => "it is the only tile of its type",
            DeadEndReason::Stranded => {
                "it can never get next to another tile of its type (tiles move only sideways and down)"
            }
            DeadEndReason::NoMeetingPlace => {
                "the three tiles of its type can never meet, and they must vanish together"
            }
        })
    }
}

/// Tiles of a board that [`DeadEnds::dead_end`] groups without allocating.
const STACK_TILES: usize = 64;

fn set(cells: &mut [u64], i: usize) {
    cells[i / 64] |= 1 << (i % 64);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzznic::level::test_board;

    fn dead_end(text: &str) -> Option<DeadEnd> {
        let board = test_board(text);
        DeadEnds::new(&board).dead_end(&board)
    }

    #[test]
    fn a_tile_walled_in_is_stranded() {
        let found = dead_end("#####\n#a#a#\n#####\n").expect("dead");
        assert_eq!(found.reason, DeadEndReason::Stranded);
        assert_eq!(found.at, Position { row: 1, col: 1 });
        // The same two tiles with a way down to each other are not.
        assert_eq!(dead_end("#####\n#a#a#\n#...#\n#####\n"), None);
    }

    #[test]
    fn tiles_never_climb() {
        // The lower `a` can never rise to row 1, and the upper one can only
        // fall into the right-hand part of row 3, which a wall cuts off.
        let text = "#######\n#b...a#\n####.##\n#a.#b.#\n#######\n";
        let found = dead_end(text).expect("dead");
        assert_eq!(found.reason, DeadEndReason::Stranded);
        assert_eq!(found.at, Position { row: 1, col: 5 });
        // Without that wall the two can meet.
        assert_eq!(dead_end(&text.replace("#a.#b", "#a..b")), None);
    }

    #[test]
    fn three_tiles_need_one_meeting_place() {
        // The free tile can reach either pit, but no cell is next to both,
        // and a pair vanishing alone would leave the third tile alone.
        let found = dead_end("#####\n#.a.#\n#a#a#\n#####\n").expect("dead");
        assert_eq!(found.reason, DeadEndReason::NoMeetingPlace);
        assert_eq!(dead_end("#####\n#.a.#\n#a.a#\n#####\n"), None);
    }

    #[test]
    fn more_than_three_tiles_need_only_partners() {
        // Four tiles: two pairs in two pits can each vanish apart.
        assert_eq!(dead_end("########\n#a.a#a.a#\n########\n"), None);
        let found = dead_end("#########\n#a.a#a#aa#\n#########\n").expect("dead");
        assert_eq!(found.at, Position { row: 1, col: 5 });
    }
}
