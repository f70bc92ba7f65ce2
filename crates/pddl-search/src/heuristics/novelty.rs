//! Novelty (Lipovetzky & Geffner's best-first width search, BFWS(f1)):
//! how new a state is among the states evaluated before it with the same
//! number of unsatisfied goals.
//!
//! A state has novelty 1 when one of its facts is true for the first time
//! in its goal-count class, 2 when a pair of its facts is, 3 otherwise.
//! The value is the pair `(novelty, goal count)` packed into one number,
//! so that a greedy open list ordered by it expands novel states first and
//! among them those closer to the goal. It is not an estimate of cost:
//! engines use it beside a real heuristic (see
//! [`SearchOptions::novelty`](crate::SearchOptions::novelty)), to explore
//! where that heuristic's plateaus would trap a greedy search. It depends
//! on the order of evaluation, so two searches that evaluate states in
//! different orders rank them differently; each search is still
//! deterministic.
//!
//! Pairs are tracked only where a class's pair table stays below
//! [`MAX_PAIR_BITS`] and all pair tables together below
//! [`MAX_TOTAL_PAIR_BITS`]; elsewhere states get novelty 1 or 3.

use hashbrown::HashMap;
use pddl_ground::Task;
use pddl_ground::task::{Conjunction, Cost, OperatorId};

use super::Heuristic;
use crate::state::{StateView, true_facts};

/// Largest pair table per goal-count class, in bits (32 MiB).
pub const MAX_PAIR_BITS: usize = 1 << 28;

/// Largest total of all pair tables, in bits (256 MiB).
pub const MAX_TOTAL_PAIR_BITS: usize = 1 << 31;

/// The novelty value of `novelty` (1, 2 or 3) at `goal_count` unsatisfied
/// goals: ordered by novelty first.
#[inline]
fn rank(novelty: u64, goal_count: usize) -> Cost {
    (novelty << 32) | goal_count as u64
}

/// Novelty of states among those evaluated before them with as many
/// unsatisfied goals.
#[derive(Debug)]
pub struct Novelty<'t> {
    goal: &'t Conjunction,
    facts: usize,
    /// Words of one pair table; 0 when pairs are not tracked (the table
    /// would exceed [`MAX_PAIR_BITS`]).
    pair_words: usize,
    /// Pair tables that may still be allocated within [`MAX_TOTAL_PAIR_BITS`].
    pair_tables_left: usize,
    /// Per goal count: facts seen, one bit each.
    seen_facts: HashMap<usize, Vec<u64>>,
    /// Per goal count: pairs seen, bit `b(b-1)/2 + a` for facts `a < b`.
    seen_pairs: HashMap<usize, Vec<u64>>,
    /// The true facts of the state being evaluated.
    true_facts: Vec<usize>,
}

impl<'t> Novelty<'t> {
    /// For a task.
    pub fn new(task: &'t Task) -> Self {
        let facts = task.facts.len();
        let pair_bits = facts.saturating_mul(facts.saturating_sub(1)) / 2;
        let pair_words = if pair_bits <= MAX_PAIR_BITS {
            pair_bits.div_ceil(64)
        } else {
            0
        };
        Novelty {
            goal: &task.goal,
            facts,
            pair_words,
            pair_tables_left: MAX_TOTAL_PAIR_BITS / 64 / pair_words.max(1),
            seen_facts: HashMap::new(),
            seen_pairs: HashMap::new(),
            true_facts: Vec::new(),
        }
    }
}

/// Sets bit `i`; returns whether it was clear.
#[inline]
fn mark(bits: &mut [u64], i: usize) -> bool {
    let (word, bit) = (i / 64, 1u64 << (i % 64));
    let new = bits[word] & bit == 0;
    bits[word] |= bit;
    new
}

impl Heuristic for Novelty<'_> {
    fn evaluate(&mut self, state: StateView<'_>, _: Option<&mut Vec<OperatorId>>) -> Option<Cost> {
        let goal_count = state.unsatisfied_count(self.goal);
        self.true_facts.clear();
        self.true_facts.extend(
            true_facts(state.facts)
                .map(|f| f as usize)
                .take_while(|&f| f < self.facts),
        );
        let words = self.facts.div_ceil(64);
        let seen = self
            .seen_facts
            .entry(goal_count)
            .or_insert_with(|| vec![0; words]);
        let mut novelty = 3;
        for &f in &self.true_facts {
            if mark(seen, f) {
                novelty = 1;
            }
        }
        if self.pair_words > 0
            && self.pair_tables_left > 0
            && !self.seen_pairs.contains_key(&goal_count)
        {
            self.pair_tables_left -= 1;
            self.seen_pairs.insert(goal_count, vec![0; self.pair_words]);
        }
        if let Some(seen) = self.seen_pairs.get_mut(&goal_count) {
            // Facts are ascending, so `a < b` in every pair (and `b > 0`).
            for (j, &b) in self.true_facts.iter().enumerate().skip(1) {
                let base = b * (b - 1) / 2;
                for &a in &self.true_facts[..j] {
                    if mark(seen, base + a) && novelty == 3 {
                        novelty = 2;
                    }
                }
            }
        }
        Some(rank(novelty, goal_count))
    }

    fn memory_bytes(&self) -> u64 {
        let words: usize = self
            .seen_facts
            .values()
            .chain(self.seen_pairs.values())
            .map(Vec::len)
            .sum();
        (words * 8) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TaskBuilder;

    /// The novelty of each state in turn (as fact lists), and its goal count.
    fn ranks(task: &Task, states: &[&[u32]]) -> Vec<(u64, u64)> {
        let mut novelty = Novelty::new(task);
        states
            .iter()
            .map(|facts| {
                let mut words = vec![0u64; task.facts.len().div_ceil(64)];
                for &f in *facts {
                    crate::state::set_fact(&mut words, f, true);
                }
                let view = StateView {
                    facts: &words,
                    fluents: &[],
                };
                let v = novelty.evaluate(view, None).unwrap();
                (v >> 32, v & 0xffff_ffff)
            })
            .collect()
    }

    #[test]
    fn new_facts_then_new_pairs_then_nothing_new() {
        // Facts 0..4, goal {3}.
        let task = TaskBuilder::new(4).build(&[0], &[3]);
        assert_eq!(
            ranks(
                &task,
                &[
                    &[0, 1], // both facts new: 1
                    &[0],    // fact 0 seen, no pair: 3
                    &[1, 2], // fact 2 new: 1
                    &[0, 2], // facts seen, pair {0, 2} new: 2
                    &[0, 1], // all seen: 3
                    &[0, 3], // goal reached: a new class, everything new: 1
                    &[0, 2, 3],
                    &[0, 2, 3], // the same state again: 3
                ]
            ),
            vec![
                (1, 1),
                (3, 1),
                (1, 1),
                (2, 1),
                (3, 1),
                (1, 0),
                (1, 0),
                (3, 0)
            ]
        );
    }
}
