//! Alternation between several lists (Fast Downward's alternation open
//! list): for each heuristic, one list of all entries and one of
//! preferred entries only. Each pop takes from the non-empty list with
//! the lowest priority counter (ties: preferred lists first, then by
//! heuristic) and increments that counter; a boost lowers the preferred
//! lists' counters by 1000, so after progress the search follows
//! preferred operators for a while (as LAMA).

use super::{Key, KeyOrderedOpenList, OpenList};

/// Boost applied to the preferred lists on progress (as in LAMA).
const BOOST: i64 = 1000;

/// Alternates between all entries and preferred entries of each heuristic.
#[derive(Debug)]
pub struct AlternationOpenList<E: Ord + Copy> {
    /// `lists[2i]`: all entries by key i; `lists[2i + 1]`: preferred entries by key i.
    lists: Vec<KeyOrderedOpenList<E>>,
    priorities: Vec<i64>,
}

impl<E: Ord + Copy> AlternationOpenList<E> {
    /// An empty list for entries with `keys` keys (one per heuristic, at
    /// least one); `few_key_values` says the keys take few values (see
    /// [`KeyOrderedOpenList`]).
    pub fn new(keys: usize, few_key_values: bool) -> Self {
        let keys = keys.max(1);
        AlternationOpenList {
            lists: (0..2 * keys)
                .map(|_| KeyOrderedOpenList::new(few_key_values))
                .collect(),
            priorities: vec![0; 2 * keys],
        }
    }
}

impl<E: Ord + Copy> OpenList<E> for AlternationOpenList<E> {
    fn push(&mut self, key: Key, entry: E, preferred: bool) {
        self.push_keys(std::slice::from_ref(&key), entry, preferred);
    }

    fn push_keys(&mut self, keys: &[Key], entry: E, preferred: bool) {
        for (i, list) in self.lists.iter_mut().enumerate() {
            // Odd lists hold preferred entries only.
            if i % 2 == 1 && !preferred {
                continue;
            }
            if let Some(&key) = keys.get(i / 2).or(keys.first()) {
                list.push(key, entry, preferred);
            }
        }
    }

    fn pop(&mut self) -> Option<E> {
        let n = self.lists.len();
        // Preferred lists (odd indices) before the others on equal priority.
        let order = (0..n / 2)
            .map(|k| 2 * k + 1)
            .chain((0..n / 2).map(|k| 2 * k));
        let mut best: Option<usize> = None;
        for i in order {
            if !self.lists[i].is_empty()
                && best.is_none_or(|b| self.priorities[i] < self.priorities[b])
            {
                best = Some(i);
            }
        }
        let i = best?;
        self.priorities[i] += 1;
        self.lists[i].pop()
    }

    fn len(&self) -> usize {
        self.lists.iter().map(|l| l.len()).sum()
    }

    fn boost_preferred(&mut self) {
        for i in (1..self.priorities.len()).step_by(2) {
            self.priorities[i] -= BOOST;
        }
    }

    fn memory_bytes(&self) -> u64 {
        self.lists.iter().map(|l| l.memory_bytes()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternates_and_boosts() {
        for few_key_values in [false, true] {
            alternates_and_boosts_with(few_key_values);
        }
    }

    fn alternates_and_boosts_with(few_key_values: bool) {
        let mut l = AlternationOpenList::new(1, few_key_values);
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

    #[test]
    fn one_list_per_key() {
        let mut l = AlternationOpenList::new(2, true);
        // Entry 'a' is best by key 0, 'b' by key 1; no preferred entries.
        l.push_keys(&[[1, 0], [5, 0]], 'a', false);
        l.push_keys(&[[2, 0], [3, 0]], 'b', false);
        assert_eq!(l.pop(), Some('a'), "list of key 0 first");
        assert_eq!(l.pop(), Some('b'), "then the list of key 1");
        assert_eq!(l.pop(), Some('b'));
        assert_eq!(l.pop(), Some('a'));
        assert_eq!(l.pop(), None);
    }
}
