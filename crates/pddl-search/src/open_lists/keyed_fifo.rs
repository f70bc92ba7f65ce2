//! One first-in, first-out queue per distinct key, the queues in key
//! order: the order of [`super::TieBreakingOpenList`] (smallest key, then
//! first in), holding each entry in its own few bytes instead of beside a
//! key and a sequence number. Meant for keys that take few values, such
//! as A*'s `[f, h]` where operators cost 0 or 1.

use std::collections::{BTreeMap, VecDeque};

use super::{Key, OpenList};

/// Queues by key (see the module documentation).
#[derive(Debug)]
pub struct KeyedFifoOpenList<E> {
    queues: BTreeMap<Key, VecDeque<E>>,
    len: usize,
    /// The queues' capacities summed, kept as they change, so that
    /// [`OpenList::memory_bytes`] need not walk a queue per key (a greedy
    /// search with an h in the hundred thousands has as many keys, and
    /// the limits are checked hundreds of times a second).
    capacity: usize,
}

impl<E> Default for KeyedFifoOpenList<E> {
    fn default() -> Self {
        KeyedFifoOpenList {
            queues: BTreeMap::new(),
            len: 0,
            capacity: 0,
        }
    }
}

impl<E> KeyedFifoOpenList<E> {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }
}

impl<E> OpenList<E> for KeyedFifoOpenList<E> {
    fn push(&mut self, key: Key, entry: E, _preferred: bool) {
        let queue = self.queues.entry(key).or_default();
        let before = queue.capacity();
        queue.push_back(entry);
        self.capacity += queue.capacity() - before;
        self.len += 1;
    }

    fn pop(&mut self) -> Option<E> {
        let mut first = self.queues.first_entry()?;
        let entry = first.get_mut().pop_front();
        if first.get().is_empty() {
            self.capacity -= first.remove().capacity();
        }
        self.len -= 1;
        entry
    }

    fn len(&self) -> usize {
        self.len
    }

    fn memory_bytes(&self) -> u64 {
        // A B-tree slot per key: the key, the queue's header, links.
        let per_key = size_of::<Key>() + size_of::<VecDeque<E>>() + 16;
        (self.capacity * size_of::<E>() + self.queues.len() * per_key) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::open_lists::TieBreakingOpenList;

    #[test]
    fn pops_as_the_tie_breaking_list_does() {
        let (mut keyed, mut heap) = (KeyedFifoOpenList::new(), TieBreakingOpenList::new());
        let mut x: u64 = 1;
        let mut next = 0u32;
        for round in 0..20_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            if (x >> 60) < 11 {
                let key = [(x >> 20) % 7, (x >> 40) % 5];
                keyed.push(key, next, false);
                heap.push(key, next, false);
                next += 1;
            } else {
                assert_eq!(keyed.pop(), heap.pop(), "round {round}");
            }
            assert_eq!(keyed.len(), heap.len());
            // The capacity kept as queues change is the queues' own.
            let walked: usize = keyed.queues.values().map(VecDeque::capacity).sum();
            assert_eq!(keyed.capacity, walked, "round {round}");
        }
        while let Some(e) = heap.pop() {
            assert_eq!(keyed.pop(), Some(e));
        }
        assert!(keyed.is_empty() && keyed.pop().is_none());
    }
}
