//! Open lists: which entry a best-first search expands next.
//!
//! Keys are compared lexicographically, then entries by insertion order
//! (first in, first out), so ties are broken deterministically.

mod alternation;
mod bucket;
mod key_ordered;
mod keyed_fifo;
mod tie_breaking;

pub use alternation::AlternationOpenList;
pub use bucket::BucketOpenList;
pub use key_ordered::KeyOrderedOpenList;
pub use keyed_fifo::KeyedFifoOpenList;
pub use tie_breaking::TieBreakingOpenList;

/// A priority key: compared lexicographically, smaller first.
pub type Key = [u64; 2];

/// A priority queue of search entries.
pub trait OpenList<E> {
    /// Adds an entry; `preferred` marks entries reached by a preferred operator.
    fn push(&mut self, key: Key, entry: E, preferred: bool);
    /// Adds an entry with one key per heuristic; lists ordered by a
    /// single key use the first.
    fn push_keys(&mut self, keys: &[Key], entry: E, preferred: bool) {
        if let Some(&key) = keys.first() {
            self.push(key, entry, preferred);
        }
    }
    /// Removes and returns the next entry.
    fn pop(&mut self) -> Option<E>;
    /// Number of entries held.
    fn len(&self) -> usize;
    /// Whether no entry is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Called on search progress (a new best h): lists that favour
    /// preferred entries favour them more.
    fn boost_preferred(&mut self) {}
    /// Bytes used, estimated.
    fn memory_bytes(&self) -> u64;
}
