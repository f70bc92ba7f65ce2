//! Alternation between a list of all entries and a list of preferred
//! entries only (Fast Downward's alternation open list): each pop takes
//! from the list with the lowest priority counter and increments it; a
//! boost lowers the preferred list's counter by 1000, so after progress
//! the search follows preferred operators for a while.

use super::{Key, OpenList, TieBreakingOpenList};

/// Boost applied to the preferred list on progress (as in LAMA).
const BOOST: i64 = 1000;

/// Alternates between all entries and preferred entries.
#[derive(Debug)]
pub struct AlternationOpenList<E: Ord + Copy> {
    lists: [TieBreakingOpenList<E>; 2],
    priorities: [i64; 2],
}

impl<E: Ord + Copy> Default for AlternationOpenList<E> {
    fn default() -> Self {
        AlternationOpenList {
            lists: [
                TieBreakingOpenList::new(false),
                TieBreakingOpenList::new(true),
            ],
            priorities: [0, 0],
        }
    }
}

impl<E: Ord + Copy> AlternationOpenList<E> {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }
}

impl<E: Ord + Copy> OpenList<E> for AlternationOpenList<E> {
    fn push(&mut self, key: Key, entry: E, preferred: bool) {
        self.lists[0].push(key, entry, preferred);
        self.lists[1].push(key, entry, preferred);
    }

    fn pop(&mut self) -> Option<E> {
        // Lowest counter first; ties go to the preferred list.
        let mut order = [1, 0];
        if self.priorities[0] < self.priorities[1] {
            order = [0, 1];
        }
        for i in order {
            if !self.lists[i].is_empty() {
                self.priorities[i] += 1;
                return self.lists[i].pop();
            }
        }
        None
    }

    fn len(&self) -> usize {
        self.lists[0].len() + self.lists[1].len()
    }

    fn boost_preferred(&mut self) {
        self.priorities[1] -= BOOST;
    }

    fn memory_bytes(&self) -> u64 {
        self.lists[0].memory_bytes() + self.lists[1].memory_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternates_and_boosts() {
        let mut l = AlternationOpenList::new();
        for (i, pref) in [(1u32, false), (2, true), (3, false), (4, true)] {
            l.push([i as u64, 0], i, pref);
        }
        // Preferred first on ties, then alternate: pref 2, all 1, pref 4, all 2.
        assert_eq!(l.pop(), Some(2));
        assert_eq!(l.pop(), Some(1));
        assert_eq!(l.pop(), Some(4));
        assert_eq!(l.pop(), Some(2));
        l.boost_preferred();
        l.push([0, 0], 9, true);
        l.push([0, 0], 8, false);
        assert_eq!(l.pop(), Some(9));
        // The preferred list is empty: fall back to all entries, where 9
        // (already popped once, the engine skips it) and 8 come first.
        assert_eq!(l.pop(), Some(9));
        assert_eq!(l.pop(), Some(8));
        assert_eq!(l.pop(), Some(3));
    }
}
