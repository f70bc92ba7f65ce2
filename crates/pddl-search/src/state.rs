//! Packed states and the state registry.
//!
//! A state is a slice of `u64` words: first the facts, one bit each, then
//! one word per numeric fluent holding the value's `f64` bits (NaN and -0
//! are canonicalised so that equal values pack equally). The
//! [`StateRegistry`] stores each distinct state once, contiguously, and
//! hands out dense [`StateId`]s.

use hashbrown::HashTable;
use pddl_ground::Task;
use pddl_ground::task::{Conjunction, FactId};

/// Dense id of a registered state (index into the registry).
pub type StateId = u32;

/// How a task's states are packed into words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateLayout {
    fact_words: usize,
    fluents: usize,
}

impl StateLayout {
    /// The layout for a task's facts and fluents.
    pub fn new(task: &Task) -> Self {
        StateLayout {
            fact_words: task.facts.len().div_ceil(64),
            fluents: task.fluents.len(),
        }
    }

    /// Words per packed state.
    pub fn words(&self) -> usize {
        self.fact_words + self.fluents
    }

    /// Number of fact words at the front of a packed state.
    pub fn fact_words(&self) -> usize {
        self.fact_words
    }

    /// Number of numeric fluents.
    pub fn fluents(&self) -> usize {
        self.fluents
    }

    /// The fact part of a packed state.
    #[inline]
    pub fn facts<'a>(&self, packed: &'a [u64]) -> &'a [u64] {
        &packed[..self.fact_words]
    }

    /// Packs a fluent value (canonicalising NaN and -0).
    #[inline]
    pub fn pack_value(value: f64) -> u64 {
        if value.is_nan() {
            f64::NAN.to_bits()
        } else if value == 0.0 {
            0
        } else {
            value.to_bits()
        }
    }

    /// Copies the fluent values of a packed state into `out`.
    #[inline]
    pub fn unpack_fluents(&self, packed: &[u64], out: &mut Vec<f64>) {
        out.clear();
        out.extend(packed[self.fact_words..].iter().map(|&w| f64::from_bits(w)));
    }

    /// Writes fluent values into a packed state.
    #[inline]
    pub fn pack_fluents(&self, values: &[f64], packed: &mut [u64]) {
        for (w, &v) in packed[self.fact_words..].iter_mut().zip(values) {
            *w = Self::pack_value(v);
        }
    }

    /// The packed initial state of a task, before axioms.
    pub fn initial(&self, task: &Task) -> Vec<u64> {
        let mut packed = vec![0u64; self.words()];
        for &f in &task.init_facts {
            if (f as usize) < task.facts.len() {
                set_fact(&mut packed, f, true);
            }
        }
        self.pack_fluents(&task.init_fluents, &mut packed);
        packed
    }
}

/// Whether fact `f` is true in the fact words.
#[inline(always)]
pub fn has_fact(facts: &[u64], f: FactId) -> bool {
    facts[(f >> 6) as usize] & (1u64 << (f & 63)) != 0
}

/// Sets fact `f` in the fact words.
#[inline(always)]
pub fn set_fact(facts: &mut [u64], f: FactId, value: bool) {
    let word = &mut facts[(f >> 6) as usize];
    if value {
        *word |= 1u64 << (f & 63);
    } else {
        *word &= !(1u64 << (f & 63));
    }
}

/// A state as heuristics and goal tests see it.
#[derive(Clone, Copy, Debug)]
pub struct StateView<'a> {
    /// Fact bits.
    pub facts: &'a [u64],
    /// Fluent values (NaN = undefined).
    pub fluents: &'a [f64],
}

impl StateView<'_> {
    /// Whether fact `f` is true.
    #[inline]
    pub fn has(&self, f: FactId) -> bool {
        has_fact(self.facts, f)
    }

    /// Whether every condition of the conjunction holds.
    pub fn satisfies(&self, c: &Conjunction) -> bool {
        c.pos.iter().all(|&f| self.has(f))
            && c.neg.iter().all(|&f| !self.has(f))
            && c.numeric.iter().all(|n| n.holds(self.fluents))
    }

    /// Number of conditions of the conjunction that do not hold.
    pub fn unsatisfied_count(&self, c: &Conjunction) -> usize {
        c.pos.iter().filter(|&&f| !self.has(f)).count()
            + c.neg.iter().filter(|&&f| self.has(f)).count()
            + c.numeric.iter().filter(|n| !n.holds(self.fluents)).count()
    }
}

/// Hashes a packed state (FxHash-style word mixing plus a final avalanche
/// so that both the low bits, used for buckets, and the top bits, used as
/// tags, are well distributed).
#[inline]
fn hash_words(words: &[u64]) -> u64 {
    let mut h: u64 = words.len() as u64;
    for &w in words {
        h = (h.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h
}

/// Stores each distinct packed state once in one contiguous arena.
#[derive(Debug)]
pub struct StateRegistry {
    words_per_state: usize,
    len: u32,
    arena: Vec<u64>,
    table: HashTable<StateId>,
}

impl StateRegistry {
    /// An empty registry for states of `words_per_state` words.
    pub fn new(words_per_state: usize) -> Self {
        StateRegistry {
            words_per_state,
            len: 0,
            arena: Vec::new(),
            table: HashTable::new(),
        }
    }

    /// Number of registered states.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no state is registered.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The packed words of a registered state.
    #[inline]
    pub fn get(&self, id: StateId) -> &[u64] {
        let w = self.words_per_state;
        &self.arena[id as usize * w..][..w]
    }

    /// Returns the id of `state`, registering it first if it is new; the
    /// flag tells whether it was new. `None` when the id space (2^32 - 1
    /// states) is exhausted.
    #[inline]
    pub fn insert(&mut self, state: &[u64]) -> Option<(StateId, bool)> {
        debug_assert_eq!(state.len(), self.words_per_state);
        let w = self.words_per_state;
        let hash = hash_words(state);
        let arena = &self.arena;
        if let Some(&id) = self
            .table
            .find(hash, |&id| &arena[id as usize * w..][..w] == state)
        {
            return Some((id, false));
        }
        if self.len == u32::MAX {
            return None;
        }
        let id = self.len;
        self.len += 1;
        self.arena.extend_from_slice(state);
        let arena = &self.arena;
        self.table
            .insert_unique(hash, id, |&id| hash_words(&arena[id as usize * w..][..w]));
        Some((id, true))
    }

    /// Estimated bytes used by the arena and the hash table.
    pub fn memory_bytes(&self) -> u64 {
        (self.arena.capacity() * 8 + self.table.capacity() * 5) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_deduplicates() {
        let mut reg = StateRegistry::new(2);
        assert_eq!(reg.insert(&[1, 2]), Some((0, true)));
        assert_eq!(reg.insert(&[1, 3]), Some((1, true)));
        assert_eq!(reg.insert(&[1, 2]), Some((0, false)));
        for i in 0..10_000u64 {
            reg.insert(&[i, i * 7]);
        }
        assert_eq!(reg.insert(&[1, 3]), Some((1, false)));
        assert_eq!(reg.get(1), &[1, 3]);
        // (1,7) and (0,0) were new, (1,2)/(1,3) were not among i*7 pairs except none.
        assert_eq!(reg.len(), 2 + 10_000);
    }

    #[test]
    fn zero_width_states() {
        let mut reg = StateRegistry::new(0);
        assert_eq!(reg.insert(&[]), Some((0, true)));
        assert_eq!(reg.insert(&[]), Some((0, false)));
        assert_eq!(reg.len(), 1);
    }

    #[test]
    fn bits_and_values() {
        let mut w = [0u64; 2];
        set_fact(&mut w, 70, true);
        assert!(has_fact(&w, 70));
        assert!(!has_fact(&w, 6));
        set_fact(&mut w, 70, false);
        assert_eq!(w, [0, 0]);
        assert_eq!(StateLayout::pack_value(-0.0), StateLayout::pack_value(0.0));
        assert_eq!(
            StateLayout::pack_value(f64::NAN),
            StateLayout::pack_value(-f64::NAN)
        );
    }
}
