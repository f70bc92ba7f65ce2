//! Exhaustive breadth-first search for the fewest player moves, by the
//! simulator's rules (`plan puzznic solve --simulator [--real-time]`):
//! over still boards for the turn-based rules ([`solve_bfs_until`]), over
//! real-time games for the real-time ones ([`solve_bfs_real_time_until`]).
//!
//! Proving a level unsolvable means storing every reachable board, so
//! boards are kept small: the playfield's cells packed into a few bits
//! each (walls never change), in one arena, found again through a hash
//! table of indices; a board's predecessor and move are two more words.
//! About 45 bytes per board on a Game Boy level, against the 250 of a
//! board of one byte per cell boxed twice (map key and list entry).

use super::dead_ends::DeadEnds;
use super::level::{Board, Cell, Position};
use super::simulator::{Direction, Move, PushTime, RealTime, TimedMove};
use hashbrown::{DefaultHashBuilder, HashTable};
use std::collections::VecDeque;
use std::hash::BuildHasher;

/// The result of an exhaustive breadth-first search, whose solutions are
/// sequences of `M` (pushes, or timed pushes by the real-time rules).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BfsOutcome<M = Move> {
    /// A shortest solution.
    Solved(Vec<M>),
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
/// boards. Boards that can never be cleared ([`DeadEnds`]) are pruned.
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
    let dead_ends = DeadEnds::new(&root);
    if dead_ends.is_dead(&root) {
        return (BfsOutcome::Unsolvable, stats);
    }
    let mut store = BoardStore::new(&root, false);
    store.insert(&root, false, None);
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
                moves.extend(store.path_to(index).into_iter().flatten());
                moves.reverse();
                outcome = BfsOutcome::Solved(moves);
                break 'search;
            }
            store.encode(&next, false, &mut code);
            // Dead boards are never stored, so most boards found again are
            // found in the table before the costlier dead-end test.
            if store.find(&code).is_some() || dead_ends.is_dead(&next) {
                continue;
            }
            if let Some(limit) = store.would_pass(&limits, 0) {
                outcome = BfsOutcome::LimitReached {
                    at_least: stats.depth + 1,
                    limit,
                };
                break 'search;
            }
            store.insert_code(&code, Some((index, Some(mv))));
        }
    }
    stats.states = store.len();
    stats.bytes = store.bytes();
    (outcome, stats)
}

/// The boards of one level (with a flag each for real-time games), each
/// packed into `width` bytes, with how each was first reached.
struct BoardStore {
    /// The playfield cells in reading order: what a code's fields are.
    playfield: Vec<Position>,
    /// Bits per cell: 0 empty, kind + 1 a tile.
    bits: u32,
    /// Whether a code ends with a flag byte.
    flagged: bool,
    /// Bytes per board.
    width: usize,
    /// Board `i` is `arena[i * width..(i + 1) * width]`.
    arena: Vec<u8>,
    /// Board indices, hashed by their codes.
    table: HashTable<u32>,
    hasher: DefaultHashBuilder,
    /// The board each was reached from (`u32::MAX` for the root).
    parents: Vec<u32>,
    /// What reached it: a push (playfield index × 2, + 1 for right) or
    /// [`PHYSICS_STEP`].
    events: Vec<u32>,
}

/// The event of a board reached by a physics step, not a push.
const PHYSICS_STEP: u32 = u32::MAX;

impl BoardStore {
    fn new(board: &Board, flagged: bool) -> BoardStore {
        let playfield: Vec<Position> = board.playfield().collect();
        let bits = usize::BITS - board.kinds().len().leading_zeros();
        let width = (playfield.len() * bits as usize).div_ceil(8) + usize::from(flagged);
        BoardStore {
            playfield,
            bits,
            flagged,
            width,
            arena: Vec::new(),
            table: HashTable::new(),
            hasher: DefaultHashBuilder::default(),
            parents: Vec::new(),
            events: Vec::new(),
        }
    }

    fn len(&self) -> usize {
        self.parents.len()
    }

    fn code(&self, index: usize) -> &[u8] {
        &self.arena[index * self.width..(index + 1) * self.width]
    }

    fn encode(&self, board: &Board, flag: bool, code: &mut Vec<u8>) {
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
        if self.flagged {
            code.push(u8::from(flag));
        }
    }

    /// Writes board `index` into `board`, whose walls are the level's;
    /// returns its flag.
    fn decode(&self, index: usize, board: &mut Board) -> bool {
        let mask = (1u64 << self.bits) - 1;
        let code = self.code(index);
        let mut bytes = code.iter();
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
        self.flagged && code.last() == Some(&1)
    }

    /// The index of the board with this code, if stored.
    fn find(&self, code: &[u8]) -> Option<usize> {
        let hash = self.hasher.hash_one(code);
        self.table
            .find(hash, |&i| self.code(i as usize) == code)
            .map(|&i| i as usize)
    }

    fn insert(&mut self, board: &Board, flag: bool, from: Option<(usize, Option<Move>)>) {
        let mut code = Vec::new();
        self.encode(board, flag, &mut code);
        self.insert_code(&code, from);
    }

    /// Stores a board not stored yet, reached from a stored one by a push
    /// (`Some`) or a physics step (`None`).
    fn insert_code(&mut self, code: &[u8], from: Option<(usize, Option<Move>)>) {
        let index = self.len() as u32;
        self.arena.extend_from_slice(code);
        let (arena, width, hasher) = (&self.arena, self.width, &self.hasher);
        let hash = hasher.hash_one(code);
        self.table.insert_unique(hash, index, |&i| {
            let i = i as usize;
            hasher.hash_one(&arena[i * width..(i + 1) * width])
        });
        self.parents.push(u32::MAX);
        self.events.push(PHYSICS_STEP);
        if let Some((parent, event)) = from {
            self.set_parent(index as usize, parent, event);
        }
    }

    fn set_parent(&mut self, index: usize, parent: usize, event: Option<Move>) {
        self.parents[index] = parent as u32;
        self.events[index] = event.map_or(PHYSICS_STEP, |mv| {
            let cell = self.playfield.binary_search(&mv.from).unwrap_or(0) as u32;
            cell * 2 + u32::from(mv.direction == Direction::Right)
        });
    }

    /// What led from the root to board `index`, last first: pushes, and
    /// `None` for physics steps.
    fn path_to(&self, mut index: usize) -> Vec<Option<Move>> {
        let mut events = Vec::new();
        while self.parents[index] != u32::MAX {
            let code = self.events[index];
            events.push((code != PHYSICS_STEP).then(|| Move {
                from: self.playfield[(code / 2) as usize],
                direction: if code % 2 == 1 {
                    Direction::Right
                } else {
                    Direction::Left
                },
            }));
            index = self.parents[index] as usize;
        }
        events
    }

    /// Bytes the tables take now.
    fn bytes(&self) -> usize {
        self.arena.capacity()
            + (self.parents.capacity() + self.events.capacity()) * size_of::<u32>()
            + table_bytes(self.table.capacity())
    }

    /// Which limit storing one more board would pass: the states, or the
    /// bytes (with `other_bytes` the caller holds) at the peak of the
    /// growth it may cause (a growing table or list holds its old and its
    /// new buffer at once).
    fn would_pass(&self, limits: &BfsLimits, other_bytes: usize) -> Option<BfsLimit> {
        if limits
            .max_states
            .is_some_and(|max| self.len() >= max.min(u32::MAX as usize - 1))
        {
            return Some(BfsLimit::States);
        }
        let max_bytes = limits.max_bytes?;
        let table_growth = if self.table.len() < self.table.capacity() {
            0
        } else {
            table_bytes(self.table.capacity().max(4) * 2)
        };
        let peak = self.bytes()
            + other_bytes
            + growth_bytes(self.arena.len() + self.width, self.arena.capacity(), 1)
                .max(growth_bytes(self.len(), self.parents.capacity(), 8))
                .max(table_growth);
        (peak > max_bytes).then_some(BfsLimit::Memory)
    }
}

/// [`solve_bfs_until`] by the real-time rules ([`RealTime`]): the fewest
/// pushes over games, where a push costs 1 and letting a physics step
/// happen costs 0 (a 0-1 breadth-first search). Starts from `start` as it
/// is (pushes may come while it settles); games that can never be cleared
/// ([`DeadEnds`]) are pruned. `depth` in the statistics counts pushes.
pub fn solve_bfs_real_time_until(
    start: &Board,
    limits: BfsLimits,
    stop: &mut dyn FnMut(&BfsStats) -> bool,
) -> (BfsOutcome<TimedMove>, BfsStats) {
    let mut stats = BfsStats::default();
    let mut store = BoardStore::new(start, true);
    store.insert(start, false, None);
    let dead_ends = DeadEnds::new(start);
    // The pushes of the cheapest way known to each game; the queue holds
    // (game, pushes) with the cheapest at the front.
    let mut costs = vec![0u32];
    let mut queue = VecDeque::from([(0u32, 0u32)]);
    let mut board = start.clone();
    let mut code = Vec::new();
    // The queue and the costs beside the store, with the growth the next
    // push may cause.
    let side_bytes = |queue: &VecDeque<(u32, u32)>, costs: &Vec<u32>| {
        let (entry, cost) = (size_of::<(u32, u32)>(), size_of::<u32>());
        queue.capacity() * entry
            + costs.capacity() * cost
            + growth_bytes(queue.len(), queue.capacity(), entry).max(growth_bytes(
                costs.len(),
                costs.capacity(),
                cost,
            ))
    };
    let outcome = loop {
        let Some((index, pushes)) = queue.pop_front() else {
            break BfsOutcome::Unsolvable;
        };
        let index = index as usize;
        if pushes > costs[index] {
            continue;
        }
        let deeper = pushes as usize > stats.depth;
        stats.depth = pushes as usize;
        if deeper || stats.expanded % BFS_STOP_CHECK_INTERVAL == 0 {
            (stats.states, stats.bytes) = (store.len(), store.bytes() + side_bytes(&queue, &costs));
            if stop(&stats) {
                break BfsOutcome::Stopped {
                    at_least: stats.depth,
                };
            }
        }
        stats.expanded += 1;
        let pushed = store.decode(index, &mut board);
        if board.is_cleared() {
            break BfsOutcome::Solved(timed_pushes(start, store.path_to(index)));
        }
        if dead_ends.is_dead(&board) {
            continue;
        }
        let game = RealTime::from_parts(board.clone(), pushed);
        let mut successors = Vec::new();
        if !game.is_still() {
            let mut next = game.clone();
            next.step();
            successors.push((next, None));
        }
        for mv in game.pushes() {
            let mut next = game.clone();
            if next.push(mv).is_ok() {
                successors.push((next, Some(mv)));
            }
        }
        let mut limit_passed = None;
        for (next, event) in successors {
            let cost = pushes + u32::from(event.is_some());
            store.encode(next.board(), next.has_pushed(), &mut code);
            let to = match store.find(&code) {
                Some(known) if costs[known] <= cost => continue,
                Some(known) => {
                    costs[known] = cost;
                    store.set_parent(known, index, event);
                    known
                }
                None => {
                    if let Some(limit) = store.would_pass(&limits, side_bytes(&queue, &costs)) {
                        limit_passed = Some(limit);
                        break;
                    }
                    store.insert_code(&code, Some((index, event)));
                    costs.push(cost);
                    store.len() - 1
                }
            };
            if event.is_none() {
                queue.push_front((to as u32, cost));
            } else {
                queue.push_back((to as u32, cost));
            }
        }
        if let Some(limit) = limit_passed {
            break BfsOutcome::LimitReached {
                at_least: stats.depth,
                limit,
            };
        }
    };
    stats.states = store.len();
    stats.bytes = store.bytes() + side_bytes(&queue, &costs);
    (outcome, stats)
}

/// The pushes of a real-time game's `events` (last first, `None` for a
/// physics step), timed as [`replay_real_time`](super::replay_real_time)
/// reads them: still, or after so many physics steps since the previous
/// push.
fn timed_pushes(start: &Board, mut events: Vec<Option<Move>>) -> Vec<TimedMove> {
    events.reverse();
    let mut game = RealTime::new(start.clone());
    let mut steps = 0;
    let mut timed = Vec::new();
    for event in events {
        match event {
            None => {
                if game.step().is_some() {
                    steps += 1;
                }
            }
            Some(mv) => {
                let time = if game.is_still() {
                    PushTime::Still
                } else {
                    PushTime::AfterSteps(steps)
                };
                let _ = game.push(mv);
                timed.push(TimedMove { mv, time });
                steps = 0;
            }
        }
    }
    timed
}

/// The bytes a list of `len` items of `unit` bytes in `capacity` may
/// allocate on its next push: when full it doubles, and both buffers are
/// alive a moment.
fn growth_bytes(len: usize, capacity: usize, unit: usize) -> usize {
    if len < capacity {
        0
    } else {
        (capacity.max(4) * 2 + capacity) * unit
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
    use crate::puzznic::level::test_board as board;

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
        // Stopped by the limit, within it; without it, the same search
        // stores more and solves the level. The same for the real-time
        // games, whose queue and costs count too.
        fn check<M: std::fmt::Debug>(
            search: impl Fn(BfsLimits) -> (BfsOutcome<M>, BfsStats),
            limits: BfsLimits,
        ) {
            let (outcome, stats) = search(limits);
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
            let (outcome, stats) = search(BfsLimits::default());
            assert!(matches!(outcome, BfsOutcome::Solved(_)), "{outcome:?}");
            assert!(stats.bytes > 2_000, "{stats:?}");
        }
        check(|l| solve_bfs_until(&level, l, &mut |_| false), limits);
        check(
            |l| solve_bfs_real_time_until(&level, l, &mut |_| false),
            limits,
        );
    }

    #[test]
    fn boards_survive_packing_with_many_kinds() {
        // 20 kinds need 5 bits a cell, so fields straddle bytes.
        let text = "######################\n#abcdefghijklmnopqrst#\n#tsrqponmlkjihgfedcba#\n######################\n";
        let level = board(text);
        let store = {
            let mut store = BoardStore::new(&level, false);
            store.insert(&level, false, None);
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
