//! Exact solvers for the shipped domains, written for the tests and sharing
//! nothing with the planner: they give the expected optimal costs.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::Hash;

/// The cost of a cheapest path from `start` to a state satisfying
/// `is_goal` (Dijkstra), or `None` when no goal state is reachable.
pub fn cheapest_cost<S, G, N>(start: S, is_goal: G, mut successors: N) -> Option<u64>
where
    S: Clone + Eq + Hash + Ord,
    G: Fn(&S) -> bool,
    N: FnMut(&S) -> Vec<(S, u64)>,
{
    let mut best: HashMap<S, u64> = HashMap::new();
    let mut open = BinaryHeap::new();
    best.insert(start.clone(), 0);
    open.push(Reverse((0, start)));
    while let Some(Reverse((cost, state))) = open.pop() {
        if best.get(&state).is_some_and(|&known| known < cost) {
            continue;
        }
        if is_goal(&state) {
            return Some(cost);
        }
        for (next, step) in successors(&state) {
            let reached = cost + step;
            if best.get(&next).is_none_or(|&known| reached < known) {
                best.insert(next.clone(), reached);
                open.push(Reverse((reached, next)));
            }
        }
    }
    None
}

// ---------------------------------------------------------------- tiles

/// The cells orthogonally adjacent to `cell` on a `size`×`size` board.
fn adjacent_cells(cell: usize, size: usize) -> impl Iterator<Item = usize> {
    let (row, column) = (cell / size, cell % size);
    [
        (row > 0).then(|| cell - size),
        (row + 1 < size).then(|| cell + size),
        (column > 0).then(|| cell - 1),
        (column + 1 < size).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// The goal board: tiles 1.. in order, the blank (0) last.
fn tiles_goal(size: usize) -> Vec<u8> {
    (1..size * size).map(|t| t as u8).chain([0]).collect()
}

/// A board packed 4 bits per cell (boards up to 4×4).
fn pack(cells: &[u8]) -> u64 {
    cells
        .iter()
        .rev()
        .fold(0, |packed, &value| packed << 4 | u64::from(value))
}

/// Value of 4-bit cell `index` of a packed state.
fn nibble(packed: u64, index: usize) -> u8 {
    (packed >> (4 * index) & 15) as u8
}

/// `packed` with 4-bit cell `index` set to `value`.
fn with_nibble(packed: u64, index: usize, value: u8) -> u64 {
    packed & !(15 << (4 * index)) | u64::from(value) << (4 * index)
}

/// Optimal number of slides by breadth-first search (fine for 3×3).
pub fn tiles_bfs(size: usize, board: &[u8]) -> Option<u64> {
    let cells = size * size;
    let goal = pack(&tiles_goal(size));
    cheapest_cost(
        pack(board),
        |&b| b == goal,
        |&b| {
            let blank = (0..cells).find(|&cell| nibble(b, cell) == 0).unwrap_or(0);
            adjacent_cells(blank, size)
                .map(|cell| {
                    (
                        with_nibble(with_nibble(b, cell, 0), blank, nibble(b, cell)),
                        1,
                    )
                })
                .collect()
        },
    )
}

/// Optimal number of slides by IDA* with the Manhattan distance (for 4×4
/// boards a few dozen slides from the goal).
pub fn tiles_ida_star(size: usize, board: &[u8]) -> u64 {
    fn manhattan(board: &[u8], size: usize) -> u64 {
        let mut sum = 0;
        for (cell, &tile) in board.iter().enumerate() {
            if tile != 0 {
                let home = usize::from(tile) - 1;
                sum += ((cell / size).abs_diff(home / size) + (cell % size).abs_diff(home % size))
                    as u64;
            }
        }
        sum
    }
    /// Depth-first search bounded by `bound`: `Ok` when solved, else the
    /// smallest f-value beyond the bound.
    fn search(
        board: &mut Vec<u8>,
        size: usize,
        blank: usize,
        previous: usize,
        g: u64,
        bound: u64,
    ) -> Result<(), u64> {
        let h = manhattan(board, size);
        if h == 0 {
            return Ok(());
        }
        if g + h > bound {
            return Err(g + h);
        }
        let mut next_bound = u64::MAX;
        for cell in adjacent_cells(blank, size) {
            if cell == previous {
                continue;
            }
            board.swap(blank, cell);
            let outcome = search(board, size, cell, blank, g + 1, bound);
            board.swap(blank, cell);
            match outcome {
                Ok(()) => return Ok(()),
                Err(beyond) => next_bound = next_bound.min(beyond),
            }
        }
        Err(next_bound)
    }
    let mut work = board.to_vec();
    let blank = work.iter().position(|&t| t == 0).unwrap_or(0);
    let mut bound = manhattan(&work, size);
    loop {
        match search(&mut work, size, blank, usize::MAX, 0, bound) {
            Ok(()) => return bound,
            Err(next) => bound = next,
        }
    }
}

/// Whether a board can reach the goal at all: the permutation parity
/// argument (for odd sizes the inversion count is even; for even sizes
/// inversions plus the blank's row from the bottom is odd).
pub fn tiles_solvable(size: usize, board: &[u8]) -> bool {
    let tiles: Vec<u8> = board.iter().copied().filter(|&t| t != 0).collect();
    let mut inversions = 0;
    for i in 0..tiles.len() {
        for j in i + 1..tiles.len() {
            if tiles[i] > tiles[j] {
                inversions += 1;
            }
        }
    }
    let blank = board.iter().position(|&t| t == 0).unwrap_or(0);
    if size % 2 == 1 {
        inversions % 2 == 0
    } else {
        let blank_row_from_bottom = size - blank / size;
        (inversions + blank_row_from_bottom) % 2 == 1
    }
}

// ---------------------------------------------------------------- tsp

/// Length of the shortest closed tour from city 0 by trying every order of
/// the other cities (Heap's algorithm); for at most 8 or so cities.
pub fn tsp_brute_force(distance: &[Vec<u64>]) -> u64 {
    let mut order: Vec<usize> = (1..distance.len()).collect();
    let tour_length = |order: &[usize]| {
        let mut at = 0;
        let mut sum = 0;
        for &city in order {
            sum += distance[at][city];
            at = city;
        }
        sum + distance[at][0]
    };
    let mut best = tour_length(&order);
    // Heap's algorithm, iterative.
    let mut counters = vec![0; order.len()];
    let mut i = 1;
    while i < order.len() {
        if counters[i] < i {
            let swap_with = if i % 2 == 0 { 0 } else { counters[i] };
            order.swap(swap_with, i);
            best = best.min(tour_length(&order));
            counters[i] += 1;
            i = 1;
        } else {
            counters[i] = 0;
            i += 1;
        }
    }
    best
}

/// Length of the shortest closed tour from city 0 by Held–Karp dynamic
/// programming over subsets; for up to about 16 cities.
pub fn tsp_held_karp(distance: &[Vec<u64>]) -> u64 {
    let n = distance.len();
    if n < 2 {
        return 0;
    }
    let others = n - 1;
    let subsets = 1usize << others;
    // best[set][last]: shortest path from 0 through exactly `set`, ending at
    // city `last + 1` (which is in `set`).
    let mut best = vec![vec![u64::MAX; others]; subsets];
    for last in 0..others {
        best[1 << last][last] = distance[0][last + 1];
    }
    for set in 1..subsets {
        for last in 0..others {
            let here = best[set][last];
            if here == u64::MAX || set & (1 << last) == 0 {
                continue;
            }
            for next in 0..others {
                if set & (1 << next) == 0 {
                    let extended = &mut best[set | (1 << next)][next];
                    *extended = (*extended).min(here + distance[last + 1][next + 1]);
                }
            }
        }
    }
    (0..others)
        .map(|last| best[subsets - 1][last] + distance[last + 1][0])
        .min()
        .unwrap_or(0)
}

// ---------------------------------------------------------------- hanoi

/// Optimal number of moves for `discs` discs (at most 16) from peg 0 to
/// peg 2, by breadth-first search over the peg of each disc (disc 0 the
/// smallest), packed 4 bits per disc.
pub fn hanoi_bfs(discs: usize) -> Option<u64> {
    let goal = pack(&vec![2; discs]);
    cheapest_cost(
        0u64,
        |&s| s == goal,
        |&s| {
            // The top disc of a peg is its smallest disc.
            let top = |peg: u8| (0..discs).find(|&disc| nibble(s, disc) == peg);
            let mut out = Vec::new();
            for from in 0..3u8 {
                let Some(disc) = top(from) else { continue };
                for to in 0..3u8 {
                    if to != from && top(to).is_none_or(|other| other > disc) {
                        out.push((with_nibble(s, disc, to), 1));
                    }
                }
            }
            out
        },
    )
}

// ---------------------------------------------------------------- blocks

/// Where a block is in the blocks-world search below: on another block
/// (its index), on the table, or in the hand; 4 bits per block.
const TABLE: u8 = 15;
const HAND: u8 = 14;

/// Cheapest cost from `start` to `goal` (both: the support of each block,
/// a block index or `None` for the table; at most 14 blocks) where lifting
/// block `b` costs `lift_cost[b]` and setting a block down costs 1.
pub fn blocks_optimum(start: &[Option<u8>], goal: &[Option<u8>], lift_cost: &[u64]) -> Option<u64> {
    let encode = |support: &[Option<u8>]| -> u64 {
        pack(
            &support
                .iter()
                .map(|s| s.unwrap_or(TABLE))
                .collect::<Vec<_>>(),
        )
    };
    let n = start.len();
    let goal = encode(goal);
    cheapest_cost(
        encode(start),
        |&s| s == goal,
        |&s| {
            let support = |b: usize| nibble(s, b);
            let clear = |b: usize| (0..n).all(|other| support(other) != b as u8);
            let mut out = Vec::new();
            match (0..n).find(|&b| support(b) == HAND) {
                Some(held) => {
                    out.push((with_nibble(s, held, TABLE), 1));
                    for target in (0..n).filter(|&b| b != held && clear(b)) {
                        out.push((with_nibble(s, held, target as u8), 1));
                    }
                }
                None => {
                    for block in (0..n).filter(|&b| clear(b)) {
                        out.push((with_nibble(s, block, HAND), lift_cost[block]));
                    }
                }
            }
            out
        },
    )
}

// ---------------------------------------------------------------- briefcase

/// Optimal number of actions in the briefcase world: `items[i]` is
/// `(start, destination)` of item `i`; the briefcase starts and must end
/// at location 0.
pub fn briefcase_optimum(locations: usize, items: &[(u8, u8)]) -> Option<u64> {
    // State, 4 bits each: the briefcase's location, then per item its
    // location or IN (inside the briefcase, hence at its location). Up to
    // 14 locations and 15 items.
    const IN: u8 = 15;
    let slots = items.len() + 1;
    let mut start = vec![0u8];
    start.extend(items.iter().map(|&(from, _)| from));
    let goal_reached = |&s: &u64| {
        let at = nibble(s, 0);
        at == 0
            && items.iter().enumerate().all(|(i, &(_, to))| {
                let item = nibble(s, i + 1);
                item == to || (item == IN && at == to)
            })
    };
    cheapest_cost(pack(&start), goal_reached, |&s| {
        let at = nibble(s, 0);
        let mut out: Vec<(u64, u64)> = (0..locations as u8)
            .filter(|&to| to != at)
            .map(|to| (with_nibble(s, 0, to), 1))
            .collect();
        for slot in 1..slots {
            match nibble(s, slot) {
                IN => out.push((with_nibble(s, slot, at), 1)),
                here if here == at => out.push((with_nibble(s, slot, IN), 1)),
                _ => {}
            }
        }
        out
    })
}

// ---------------------------------------------------------------- queens

/// Whether `n` non-attacking queens fit on an `n`×`n` board (backtracking).
pub fn queens_solvable(n: usize) -> bool {
    fn extend(columns: &mut Vec<usize>, n: usize) -> bool {
        let row = columns.len();
        if row == n {
            return true;
        }
        for column in 0..n {
            let safe = columns
                .iter()
                .enumerate()
                .all(|(r, &c)| c != column && row - r != column.abs_diff(c));
            if safe {
                columns.push(column);
                if extend(columns, n) {
                    return true;
                }
                columns.pop();
            }
        }
        false
    }
    extend(&mut Vec::new(), n)
}
