//! A binary heap on (key, insertion order).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{Key, OpenList};

/// Ordered by key, then first in first out.
#[derive(Debug)]
pub struct TieBreakingOpenList<E: Ord> {
    heap: BinaryHeap<Reverse<(Key, u64, E)>>,
    next_seq: u64,
}

impl<E: Ord> Default for TieBreakingOpenList<E> {
    fn default() -> Self {
        TieBreakingOpenList {
            heap: BinaryHeap::new(),
            next_seq: 0,
        }
    }
}

impl<E: Ord> TieBreakingOpenList<E> {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }
}

impl<E: Ord> OpenList<E> for TieBreakingOpenList<E> {
    fn push(&mut self, key: Key, entry: E, _preferred: bool) {
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
        let mut l = TieBreakingOpenList::new();
        l.push([2, 0], 'a', false);
        l.push([1, 5], 'b', false);
        l.push([1, 5], 'c', false);
        l.push([1, 4], 'd', false);
        let order: Vec<char> = std::iter::from_fn(|| l.pop()).collect();
        assert_eq!(order, vec!['d', 'b', 'c', 'a']);
    }
}
