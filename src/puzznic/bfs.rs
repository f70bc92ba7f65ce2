//! Exhaustive breadth-first search over still boards for the fewest player
//! moves, by the simulator's turn-based rules (`plan puzznic solve
//! --simulator`).
//!
//! Proving a level unsolvable means storing every reachable board, so
//! boards are kept small: the playfield's cells packed into a few bits
//! each (walls never change), in one arena, found again through a hash
//! table of indices; a board's predecessor and move are two more words.
//! About 45 bytes per board on a Game Boy level, against the 250 of a
//! board of one byte per cell boxed twice (map key and list entry).

use super::level::{Board, Cell, Position};
use super::simulator::{Direction, Move};
use hashbrown::{DefaultHashBuilder, HashTable};
use std::hash::BuildHasher;

/// The result of an exhaustive breadth-first search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BfsOutcome {
    /// A shortest solution.
    Solved(Vec<Move>),
    /// Every reachable still board was visited: no solution exists.
    Unsolvable,
    /// A limit of [`BfsLimits`] would have been passed; no solution has
    /// fewer moves than the given bound.
    LimitReached {
        /// Every solution has at least this many moves.
        at_least: usize,
        /// Which limit.
        limit: BfsLimit,
    },
    /// The caller's stop condition held first (a time limit, an
    /// interrupt); no solution has fewer moves than the given bound.
    Stopped {
        /// Every solution has at least this many moves.
        at_least: usize,
    },
}

/// One of the limits of [`BfsLimits`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BfsLimit {
    /// [`BfsLimits::max_states`].
    States,
    /// [`BfsLimits::max_bytes`].
    Memory,
}

/// How much a breadth-first search may store.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BfsLimits {
    /// The most boards stored.
    pub max_states: Option<usize>,
    /// The most bytes the search's tables may take, checked before they
    /// grow (so the search stops before it allocates past the limit).
    pub max_bytes: Option<usize>,
}

/// Statistics of a breadth-first search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BfsStats {
    /// Distinct still boards stored.
    pub states: usize,
    /// Boards whose moves were generated.
    pub expanded: usize,
    /// Bytes the search's tables take.
    pub bytes: usize,
    /// Moves that reach the boards being expanded: every board closer to
    /// the start has been expanded.
    pub depth: usize,
}

/// Breadth-first search over still boards for the fewest player moves
/// clearing `start` (settled first). Stops after storing `max_states`
/// boards. Boards where a kind has a single tile are pruned.
pub fn solve_bfs(start: &Board, max_states: usize) -> (BfsOutcome, BfsStats) {
    let limits = BfsLimits {
        max_states: Some(max_states),
        max_bytes: None,
    };
    solve_bfs_until(start, limits, &mut |_| false)
}

/// Boards expanded between two calls of a [`solve_bfs_until`] stop
/// condition.
const BFS_STOP_CHECK_INTERVAL: usize = 4096;

/// [`solve_bfs`] within `limits` that also asks `stop` every few thousand
/// boards and whenever the depth grows whether to give up
/// ([`BfsOutcome::Stopped`]), telling it how far the search is.
pub fn solve_bfs_until(
    start: &Board,
    limits: BfsLimits,
    stop: &mut dyn FnMut(&BfsStats) -> bool,
) -> (BfsOutcome, BfsStats) {
    let mut root = start.clone();
    root.settle();
    let mut stats = BfsStats::default();
    if root.is_cleared() {
        return (BfsOutcome::Solved(Vec::new()), stats);
    }
    if root.is_dead() {
        return (BfsOutcome::Unsolvable, stats);
    }
    let mut store = BoardStore::new(&root);
    store.insert(&root, None);
    // Boards are stored in the order found, so the queue is a cursor, and
    // a layer of equal depth ends where the boards found before it began.
    let mut layer_end = 1;
    let mut board = root.clone();
    let mut code = Vec::new();
    let mut outcome = BfsOutcome::Unsolvable;
    'search: for index in 0.. {
        if index == store.len() {
            break;
        }
        let deeper = index == layer_end;
        if deeper {
            stats.depth += 1;
            layer_end = store.len();
        }
        if deeper || stats.expanded % BFS_STOP_CHECK_INTERVAL == 0 {
            (stats.states, stats.bytes) = (store.len(), store.bytes());
            if stop(&stats) {
                outcome = BfsOutcome::Stopped {
                    at_least: stats.depth + 1,
                };
                break;
            }
        }
        stats.expanded += 1;
        store.decode(index, &mut board);
        for mv in board.moves() {
            let Ok(next) = board.play(mv) else { continue };
            if next.is_cleared() {
                let mut moves = vec![mv];
                moves.extend(store.path_to(index));
                moves.reverse();
                outcome = BfsOutcome::Solved(moves);
                break 'search;
            }
            if next.is_dead() {
                continue;
            }
            store.encode(&next, &mut code);
            if store.contains(&code) {
                continue;
            }
            if let Some(limit) = store.would_pass(&limits) {
                outcome = BfsOutcome::LimitReached {
                    at_least: stats.depth + 1,
                    limit,
                };
                break 'search;
            }
            store.insert_code(&code, Some((index, mv)));
        }
    }
    stats.states = store.len();
    stats.bytes = store.bytes();
    (outcome, stats)
}

/// The still boards of one level, each packed into `width` bytes, with
/// how each was first reached.
struct BoardStore {
    /// The playfield cells in reading order: what a code's fields are.
    playfield: Vec<Position>,
    /// Bits per cell: 0 empty, kind + 1 a tile.
    bits: u32,
    /// Bytes per board.
    width: usize,
    /// Board `i` is `arena[i * width..(i + 1) * width]`.
    arena: Vec<u8>,
    /// Board indices, hashed by their codes.
    table: HashTable<u32>,
    hasher: DefaultHashBuilder,
    /// The board each was first reached from (`u32::MAX` for the root).
    parents: Vec<u32>,
    /// The move that reached it: playfield index × 2, + 1 for right.
    moves: Vec<u32>,
}

impl BoardStore {
    fn new(board: &Board) -> BoardStore {
        let playfield: Vec<Position> = board.playfield().collect();
        let bits = usize::BITS - board.kinds().len().leading_zeros();
        let width = (playfield.len() * bits as usize).div_ceil(8);
        BoardStore {
            playfield,
            bits,
            width,
            arena: Vec::new(),
            table: HashTable::new(),
            hasher: DefaultHashBuilder::default(),
            parents: Vec::new(),
            moves: Vec::new(),
        }
    }

    fn len(&self) -> usize {
        self.parents.len()
    }

    fn code(&self, index: usize) -> &[u8] {
        &self.arena[index * self.width..(index + 1) * self.width]
    }

    fn encode(&self, board: &Board, code: &mut Vec<u8>) {
        code.clear();
        let (mut word, mut filled) = (0u64, 0u32);
        for &p in &self.playfield {
            let field = match board.at(p) {
                Cell::Tile(kind) => u64::from(kind) + 1,
                _ => 0,
            };
            word |= field << filled;
            filled += self.bits;
            while filled >= 8 {
                code.push(word as u8);
                word >>= 8;
                filled -= 8;
            }
        }
        if filled > 0 {
            code.push(word as u8);
        }
    }

    /// Writes board `index` into `board`, whose walls are the level's.
    fn decode(&self, index: usize, board: &mut Board) {
        let mask = (1u64 << self.bits) - 1;
        let mut bytes = self.code(index).iter();
        let (mut word, mut filled) = (0u64, 0u32);
        for &p in &self.playfield {
            while filled < self.bits {
                word |= u64::from(*bytes.next().unwrap_or(&0)) << filled;
                filled += 8;
            }
            let field = word & mask;
            word >>= self.bits;
            filled -= self.bits;
            let cell = match field {
                0 => Cell::Empty,
                kind => Cell::Tile(kind as u8 - 1),
            };
            board.set(p, cell);
        }
    }

    fn contains(&self, code: &[u8]) -> bool {
        let hash = self.hasher.hash_one(code);
        self.table
            .find(hash, |&i| self.code(i as usize) == code)
            .is_some()
    }

    fn insert(&mut self, board: &Board, from: Option<(usize, Move)>) {
        let mut code = Vec::new();
        self.encode(board, &mut code);
        self.insert_code(&code, from);
    }

    /// Stores a board not stored yet.
    fn insert_code(&mut self, code: &[u8], from: Option<(usize, Move)>) {
        let index = self.len() as u32;
        self.arena.extend_from_slice(code);
        let (arena, width, hasher) = (&self.arena, self.width, &self.hasher);
        let hash = hasher.hash_one(code);
        self.table.insert_unique(hash, index, |&i| {
            let i = i as usize;
            hasher.hash_one(&arena[i * width..(i + 1) * width])
        });
        let (parent, mv) = match from {
            Some((parent, mv)) => (parent as u32, self.move_code(mv)),
            None => (u32::MAX, 0),
        };
        self.parents.push(parent);
        self.moves.push(mv);
    }

    fn move_code(&self, mv: Move) -> u32 {
        let cell = self.playfield.binary_search(&mv.from).unwrap_or(0) as u32;
        cell * 2 + u32::from(mv.direction == Direction::Right)
    }

    /// The moves from the root to board `index`, last first.
    fn path_to(&self, mut index: usize) -> Vec<Move> {
        let mut moves = Vec::new();
        while self.parents[index] != u32::MAX {
            let code = self.moves[index];
            moves.push(Move {
                from: self.playfield[(code / 2) as usize],
                direction: if code % 2 == 1 {
                    Direction::Right
                } else {
                    Direction::Left
                },
            });
            index = self.parents[index] as usize;
        }
        moves
    }

    /// Bytes the tables take now.
    fn bytes(&self) -> usize {
        self.arena.capacity()
            + (self.parents.capacity() + self.moves.capacity()) * size_of::<u32>()
            + table_bytes(self.table.capacity())
    }

    /// Which limit storing one more board would pass: the states, or the
    /// bytes at the peak of the growth it may cause (a growing table or
    /// list holds its old and its new buffer at once).
    fn would_pass(&self, limits: &BfsLimits) -> Option<BfsLimit> {
        if limits
            .max_states
            .is_some_and(|max| self.len() >= max.min(u32::MAX as usize - 1))
        {
            return Some(BfsLimit::States);
        }
        let max_bytes = limits.max_bytes?;
        let grown = |len: usize, capacity: usize, unit: usize| {
            if len < capacity {
                0
            } else {
                // A full list doubles, and both buffers are alive a moment.
                (capacity.max(4) * 2 + capacity) * unit
            }
        };
        let table_growth = if self.table.len() < self.table.capacity() {
            0
        } else {
            table_bytes(self.table.capacity().max(4) * 2)
        };
        let peak = self.bytes()
            + grown(self.arena.len() + self.width, self.arena.capacity(), 1)
                .max(grown(self.len(), self.parents.capacity(), 8))
                .max(table_growth);
        (peak > max_bytes).then_some(BfsLimit::Memory)
    }
}

/// Bytes of a hash table of `u32` indices holding `capacity` entries
/// (a load factor of 7/8, one control byte per bucket).
fn table_bytes(capacity: usize) -> usize {
    capacity / 7 * 8 * (size_of::<u32>() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        super::super::parse_level(&pddl_syntax::SourceFile::new("t", text))
            .expect("valid level")
            .board
    }

    #[test]
    fn bfs_proves_unsolvable_and_respects_its_budget() {
        // Every push pairs two of the three tiles and strands the third.
        let three_in_a_row = board("#######\n#a.a.a#\n#######\n");
        assert_eq!(solve_bfs(&three_in_a_row, 1000).0, BfsOutcome::Unsolvable);
        let level = board("#########\n#a.....a#\n#########\n");
        let (outcome, _) = solve_bfs(&level, 2);
        assert_eq!(
            outcome,
            BfsOutcome::LimitReached {
                at_least: 1,
                limit: BfsLimit::States
            }
        );
        let mut asked = 0;
        let (outcome, stats) = solve_bfs_until(&level, BfsLimits::default(), &mut |_| {
            asked += 1;
            true
        });
        assert_eq!(outcome, BfsOutcome::Stopped { at_least: 1 });
        assert_eq!((asked, stats.expanded), (1, 0));
        let BfsOutcome::Solved(moves) = solve_bfs(&level, 1000).0 else {
            panic!("solvable")
        };
        assert_eq!(moves.len(), 5);
    }

    #[test]
    fn a_memory_limit_stops_the_search_before_its_tables_pass_it() {
        let level = board("###########\n#a.......a#\n#b.......b#\n###########\n");
        let limits = BfsLimits {
            max_states: None,
            max_bytes: Some(2_000),
        };
        let (outcome, stats) = solve_bfs_until(&level, limits, &mut |_| false);
        assert!(
            matches!(
                outcome,
                BfsOutcome::LimitReached {
                    limit: BfsLimit::Memory,
                    ..
                }
            ),
            "{outcome:?}"
        );
        assert!(stats.bytes <= 2_000, "{stats:?}");
        // Without the limit, the same search stores more and solves it.
        let (outcome, stats) = solve_bfs_until(&level, BfsLimits::default(), &mut |_| false);
        assert!(matches!(outcome, BfsOutcome::Solved(_)), "{outcome:?}");
        assert!(stats.bytes > 2_000, "{stats:?}");
    }

    #[test]
    fn boards_survive_packing_with_many_kinds() {
        // 20 kinds need 5 bits a cell, so fields straddle bytes.
        let text = "######################\n#abcdefghijklmnopqrst#\n#tsrqponmlkjihgfedcba#\n######################\n";
        let level = board(text);
        let store = {
            let mut store = BoardStore::new(&level);
            store.insert(&level, None);
            store
        };
        assert_eq!(store.bits, 5);
        let mut decoded = level.clone();
        for p in level.playfield() {
            decoded.set(p, Cell::Empty);
        }
        store.decode(0, &mut decoded);
        assert_eq!(decoded, level);
    }
}
