//! A bucket queue on the first key component (for small integer keys,
//! e.g. `g` in blind A* with unit costs); the second component is ignored
//! and each bucket is last in, first out (a deterministic depth-first
//! tie-break that reaches goals in the last layer sooner).

use super::{Key, OpenList};

/// Buckets indexed by the first key component.
#[derive(Debug)]
pub struct BucketOpenList<E> {
    buckets: Vec<Vec<E>>,
    min: usize,
    len: usize,
    /// The buckets' capacities summed, kept as they change, so that
    /// [`OpenList::memory_bytes`] need not walk every bucket.
    capacity: usize,
}

impl<E> Default for BucketOpenList<E> {
    fn default() -> Self {
        BucketOpenList {
            buckets: Vec::new(),
            min: 0,
            len: 0,
            capacity: 0,
        }
    }
}

impl<E> BucketOpenList<E> {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }
}

impl<E> OpenList<E> for BucketOpenList<E> {
    fn push(&mut self, key: Key, entry: E, _preferred: bool) {
        // Keys are bounded by the number of states (unit costs), which
        // the memory limit bounds; saturate rather than overflow.
        let k = usize::try_from(key[0]).unwrap_or(usize::MAX - 1);
        if k >= self.buckets.len() {
            self.buckets.resize_with(k + 1, Vec::new);
        }
        let bucket = &mut self.buckets[k];
        let before = bucket.capacity();
        bucket.push(entry);
        self.capacity += bucket.capacity() - before;
        self.min = self.min.min(k);
        self.len += 1;
    }

    fn pop(&mut self) -> Option<E> {
        if self.len == 0 {
            return None;
        }
        while self.buckets[self.min].is_empty() {
            self.min += 1;
        }
        self.len -= 1;
        self.buckets[self.min].pop()
    }

    fn len(&self) -> usize {
        self.len
    }

    fn memory_bytes(&self) -> u64 {
        (self.capacity * std::mem::size_of::<E>() + self.buckets.capacity() * 24) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_smallest_bucket_lifo() {
        let mut l = BucketOpenList::new();
        l.push([3, 0], 'a', false);
        l.push([1, 0], 'b', false);
        l.push([1, 0], 'c', false);
        assert_eq!(l.pop(), Some('c'));
        l.push([0, 0], 'd', false);
        let order: Vec<char> = std::iter::from_fn(|| l.pop()).collect();
        assert_eq!(order, vec!['d', 'b', 'a']);
        assert!(l.is_empty());
    }

    #[test]
    fn memory_counts_every_buckets_capacity() {
        let mut l = BucketOpenList::new();
        for i in 0..1_000u64 {
            l.push([i % 37, 0], i, false);
            if i % 3 == 0 {
                l.pop();
            }
            let walked: usize = l.buckets.iter().map(Vec::capacity).sum();
            assert_eq!(l.capacity, walked);
        }
        assert!(l.memory_bytes() >= (l.len() * std::mem::size_of::<u64>()) as u64);
    }
}
