//! A binary heap on (key, insertion order).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{Key, OpenList};

/// Ordered by key, then first in first out.
#[derive(Debug)]
pub struct TieBreakingOpenList<E: Ord> {
    heap: BinaryHeap<Reverse<(Key, u64, E)>>,
    next_seq: u64,
    /// Whether to keep only preferred entries.
    only_preferred: bool,
}

impl<E: Ord> TieBreakingOpenList<E> {
    /// An empty list; with `only_preferred`, non-preferred pushes are dropped.
    pub fn new(only_preferred: bool) -> Self {
        TieBreakingOpenList {
            heap: BinaryHeap::new(),
            next_seq: 0,
            only_preferred,
        }
    }
}

impl<E: Ord> OpenList<E> for TieBreakingOpenList<E> {
    fn push(&mut self, key: Key, entry: E, preferred: bool) {
        if self.only_preferred && !preferred {
            return;
        }
        self.heap.push(Reverse((key, self.next_seq, entry)));
        self.next_seq += 1;
    }

    fn pop(&mut self) -> Option<E> {
        self.heap.pop().map(|Reverse((_, _, e))| e)
    }

    fn len(&self) -> usize {
        self.heap.len()
    }

    fn memory_bytes(&self) -> u64 {
        (self.heap.capacity() * std::mem::size_of::<(Key, u64, E)>()) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_by_key_then_fifo() {
        let mut l = TieBreakingOpenList::new(false);
        l.push([2, 0], 'a', false);
        l.push([1, 5], 'b', false);
        l.push([1, 5], 'c', false);
        l.push([1, 4], 'd', false);
        let order: Vec<char> = std::iter::from_fn(|| l.pop()).collect();
        assert_eq!(order, vec!['d', 'b', 'c', 'a']);
    }
}
