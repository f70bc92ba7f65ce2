//! One first-in, first-out queue per distinct key, the queues in key
//! order: the order of [`super::TieBreakingOpenList`] (smallest key, then
//! first in), holding each entry in its own few bytes instead of beside a
//! key and a sequence number. Meant for keys that take few values, such
//! as A*'s `[f, h]` where operators cost 0 or 1, though many values cost
//! no more than a slot in the key map each.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use super::{Key, OpenList};

/// No entry: the end of a queue or of the free list.
const NIL: u32 = u32::MAX;

/// Queues by key (see the module documentation). The entries of every
/// queue live in one arena, each linked to the next of its queue, and a
/// popped entry's slot is reused: a new key costs a slot in the key map,
/// not an allocation of its own (a greedy search whose h takes a million
/// values made a million queues, and dropping them took seconds).
#[derive(Debug)]
pub struct KeyedFifoOpenList<E> {
    /// First and last slot of each key's queue.
    queues: BTreeMap<Key, Ends>,
    slots: Vec<Slot<E>>,
    /// First free slot, chained through `next`.
    free: u32,
    len: usize,
}

/// The first and last slot of a queue.
#[derive(Clone, Copy, Debug)]
struct Ends {
    head: u32,
    tail: u32,
}

/// An entry and the slot of the next one in its queue (or on the free
/// list).
#[derive(Clone, Copy, Debug)]
struct Slot<E> {
    entry: E,
    next: u32,
}

impl<E> Default for KeyedFifoOpenList<E> {
    fn default() -> Self {
        KeyedFifoOpenList {
            queues: BTreeMap::new(),
            slots: Vec::new(),
            free: NIL,
            len: 0,
        }
    }
}

impl<E> KeyedFifoOpenList<E> {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }
}

impl<E: Copy> KeyedFifoOpenList<E> {
    /// A slot holding `entry` at the end of no queue yet.
    fn new_slot(&mut self, entry: E) -> u32 {
        let slot = Slot { entry, next: NIL };
        if self.free != NIL {
            let id = self.free;
            self.free = self.slots[id as usize].next;
            self.slots[id as usize] = slot;
            id
        } else {
            // Slot ids are u32: more entries than that would not fit in
            // memory beside the states they name.
            let id = u32::try_from(self.slots.len()).expect("fewer than 2^32 open entries");
            self.slots.push(slot);
            id
        }
    }
}

impl<E: Copy> OpenList<E> for KeyedFifoOpenList<E> {
    fn push(&mut self, key: Key, entry: E, _preferred: bool) {
        let id = self.new_slot(entry);
        match self.queues.entry(key) {
            Entry::Vacant(vacant) => {
                vacant.insert(Ends { head: id, tail: id });
            }
            Entry::Occupied(mut occupied) => {
                let ends = occupied.get_mut();
                self.slots[ends.tail as usize].next = id;
                ends.tail = id;
            }
        }
        self.len += 1;
    }

    fn pop(&mut self) -> Option<E> {
        let mut first = self.queues.first_entry()?;
        let ends = first.get_mut();
        let id = ends.head;
        let Slot { entry, next } = self.slots[id as usize];
        if next == NIL {
            first.remove();
        } else {
            ends.head = next;
        }
        self.slots[id as usize].next = self.free;
        self.free = id;
        self.len -= 1;
        Some(entry)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn memory_bytes(&self) -> u64 {
        // A B-tree slot per key: the key, the queue's ends, links.
        let per_key = size_of::<Key>() + size_of::<Ends>() + 16;
        (self.slots.capacity() * size_of::<Slot<E>>() + self.queues.len() * per_key) as u64
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
        let mut most_held = 0;
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
            // Popped slots are reused: the arena holds no more slots
            // than entries were ever held at once.
            assert!(
                keyed.slots.len() <= most_held.max(keyed.len()),
                "round {round}"
            );
            most_held = most_held.max(keyed.len());
        }
        while let Some(e) = heap.pop() {
            assert_eq!(keyed.pop(), Some(e));
        }
        assert!(keyed.is_empty() && keyed.pop().is_none());
    }
}
