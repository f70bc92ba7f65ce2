//! The order of [`super::TieBreakingOpenList`] (smallest key, then first
//! in) held the cheaper way for the keys at hand: a queue per key where
//! keys take few values, a heap otherwise.

use super::{Key, KeyedFifoOpenList, OpenList, TieBreakingOpenList};

/// Smallest key first, then first in, first out (see the module
/// documentation).
#[derive(Debug)]
pub enum KeyOrderedOpenList<E: Ord> {
    /// One queue per key: an entry takes its own few bytes. For keys
    /// that take few values, such as greedy search's `[h, 0]`, or A*'s
    /// `[f, h]` where operators cost 0 or 1.
    PerKey(KeyedFifoOpenList<E>),
    /// One heap of (key, sequence number, entry): for keys that may all
    /// differ (general costs), where a queue per key would cost more.
    Heap(TieBreakingOpenList<E>),
}

impl<E: Ord> KeyOrderedOpenList<E> {
    /// An empty list; `few_key_values` chooses a queue per key.
    pub fn new(few_key_values: bool) -> Self {
        if few_key_values {
            KeyOrderedOpenList::PerKey(KeyedFifoOpenList::new())
        } else {
            KeyOrderedOpenList::Heap(TieBreakingOpenList::new())
        }
    }
}

impl<E: Ord + Copy> OpenList<E> for KeyOrderedOpenList<E> {
    #[inline]
    fn push(&mut self, key: Key, entry: E, preferred: bool) {
        match self {
            KeyOrderedOpenList::PerKey(list) => list.push(key, entry, preferred),
            KeyOrderedOpenList::Heap(list) => list.push(key, entry, preferred),
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<E> {
        match self {
            KeyOrderedOpenList::PerKey(list) => list.pop(),
            KeyOrderedOpenList::Heap(list) => list.pop(),
        }
    }

    fn len(&self) -> usize {
        match self {
            KeyOrderedOpenList::PerKey(list) => list.len(),
            KeyOrderedOpenList::Heap(list) => list.len(),
        }
    }

    fn memory_bytes(&self) -> u64 {
        match self {
            KeyOrderedOpenList::PerKey(list) => list.memory_bytes(),
            KeyOrderedOpenList::Heap(list) => list.memory_bytes(),
        }
    }
}
