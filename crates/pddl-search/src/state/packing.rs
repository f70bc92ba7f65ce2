//! Compact storage of registered states.
//!
//! A search state holds one bit per fact ([`super::StateLayout`]), but
//! many facts exclude each other: a Puzznic tile is at one of 70 cells, so
//! its 70 `(at tile ?c)` bits hold one of 71 values, which 7 bits encode.
//! [`StatePacking`] stores each such group of facts (a variable of
//! [`Variables`], whose "at most one" invariants are proven on the ground
//! operators) as the index of its true fact, every other fact as one bit,
//! and the fluent words as they are. States are packed when registered and
//! unpacked when a search loads them, so searches see the same states in
//! the same order; only the registry's memory (about seven times less on
//! Puzznic levels) and the words hashed change.

use pddl_ground::Task;
use pddl_ground::task::FactId;

use super::{set_fact, true_facts};
use crate::variables::Variables;

/// Words of facts below which states are stored as they are: small
/// states cost little memory, and unpacking each expanded state costs
/// time (blind A* on the 15-puzzle, 4 words packed into 2, expanded 12 %
/// fewer states per second).
const MIN_FACT_WORDS: usize = 6;

/// Where a fact goes in a packed state.
#[derive(Clone, Copy, Debug)]
enum Slot {
    /// The fact's own bit.
    Bit(u32),
    /// Value `value + 1` of field `field` (0 means none of its facts).
    Field { field: u32, value: u32 },
}

/// A group of facts stored as the index of the one that holds.
#[derive(Clone, Copy, Debug)]
struct Field {
    /// First bit of the field.
    offset: u32,
    /// Bits of the field.
    width: u32,
    /// Where its facts start in `field_facts` (value `i + 1` is the
    /// `i`-th).
    start: u32,
}

/// How to pack the states of one task (see the module documentation).
#[derive(Clone, Debug)]
pub struct StatePacking {
    /// Words of an unpacked state's facts.
    fact_words: usize,
    /// Words of a packed state's facts.
    packed_fact_words: usize,
    slots: Vec<Slot>,
    /// The fact of each single bit, from bit 0.
    bit_facts: Vec<FactId>,
    fields: Vec<Field>,
    field_facts: Vec<FactId>,
}

impl StatePacking {
    /// The packing of `task`'s states whose facts take `fact_words` words
    /// unpacked, or `None` where it would not even halve them (or they are
    /// few already).
    pub fn new(task: &Task, fact_words: usize) -> Option<StatePacking> {
        if fact_words < MIN_FACT_WORDS {
            return None;
        }
        let packing = Self::build(task, fact_words);
        (2 * packing.packed_fact_words <= fact_words).then_some(packing)
    }

    /// The packing of `task`'s states, however few words it saves.
    pub(crate) fn build(task: &Task, fact_words: usize) -> StatePacking {
        let variables = Variables::new(task);
        let mut slots = vec![Slot::Bit(0); task.facts.len()];
        let mut bit_facts = Vec::new();
        let mut grouped = Vec::new();
        for facts in &variables.facts {
            if facts.len() < 2 {
                // A lone fact's variable: one bit (derived facts below).
                continue;
            }
            grouped.push(facts);
        }
        for f in 0..task.facts.len() as FactId {
            let lone = variables
                .var(f)
                .is_none_or(|v| variables.facts[v as usize].len() < 2);
            if lone {
                slots[f as usize] = Slot::Bit(bit_facts.len() as u32);
                bit_facts.push(f);
            }
        }
        let mut offset = bit_facts.len() as u32;
        let mut fields = Vec::with_capacity(grouped.len());
        let mut field_facts = Vec::new();
        for facts in grouped {
            // Values 0 (none) to `facts.len()`.
            let width = u32::BITS - (facts.len() as u32).leading_zeros();
            let field = fields.len() as u32;
            for (value, &f) in facts.iter().enumerate() {
                slots[f as usize] = Slot::Field {
                    field,
                    value: value as u32,
                };
            }
            fields.push(Field {
                offset,
                width,
                start: field_facts.len() as u32,
            });
            field_facts.extend_from_slice(facts);
            offset += width;
        }
        StatePacking {
            fact_words,
            packed_fact_words: (offset as usize).div_ceil(64),
            slots,
            bit_facts,
            fields,
            field_facts,
        }
    }

    /// Words of a packed state of `words` unpacked words (the fluent words
    /// after the facts are kept as they are).
    pub fn packed_words(&self, words: usize) -> usize {
        words - self.fact_words + self.packed_fact_words
    }

    /// Packs `state` into `out` (resized to [`StatePacking::packed_words`]).
    pub fn pack(&self, state: &[u64], out: &mut Vec<u64>) {
        out.clear();
        out.resize(self.packed_words(state.len()), 0);
        for f in true_facts(&state[..self.fact_words]) {
            match self.slots[f as usize] {
                Slot::Bit(bit) => out[bit as usize / 64] |= 1 << (bit % 64),
                Slot::Field { field, value } => {
                    let field = self.fields[field as usize];
                    debug_assert_eq!(read(out, field), 0, "two facts of a variable hold");
                    write(out, field, u64::from(value) + 1);
                }
            }
        }
        out[self.packed_fact_words..].copy_from_slice(&state[self.fact_words..]);
    }

    /// Unpacks `packed` into `out` (resized to the unpacked words).
    pub fn unpack(&self, packed: &[u64], out: &mut Vec<u64>) {
        out.clear();
        out.resize(packed.len() - self.packed_fact_words + self.fact_words, 0);
        let bits = self.bit_facts.len();
        for (w, &word) in packed[..bits.div_ceil(64)].iter().enumerate() {
            // The last word of the bits is shared with the fields.
            let mut left = if (w + 1) * 64 > bits {
                word & ((1u64 << (bits % 64)) - 1)
            } else {
                word
            };
            while left != 0 {
                let bit = w * 64 + left.trailing_zeros() as usize;
                left &= left - 1;
                set_fact(out, self.bit_facts[bit], true);
            }
        }
        for &field in &self.fields {
            let value = read(packed, field);
            if value != 0 {
                let fact = self.field_facts[(field.start + value as u32 - 1) as usize];
                set_fact(out, fact, true);
            }
        }
        out[self.fact_words..].copy_from_slice(&packed[self.packed_fact_words..]);
    }
}

/// The value of `field` in `packed`.
#[inline]
fn read(packed: &[u64], field: Field) -> u64 {
    let (word, shift) = (field.offset as usize / 64, field.offset % 64);
    let mut value = packed[word] >> shift;
    if shift + field.width > 64 {
        value |= packed[word + 1] << (64 - shift);
    }
    value & ((1u64 << field.width) - 1)
}

/// Writes `value` into the (zero) bits of `field` in `packed`.
#[inline]
fn write(packed: &mut [u64], field: Field, value: u64) {
    let (word, shift) = (field.offset as usize / 64, field.offset % 64);
    packed[word] |= value << shift;
    if shift + field.width > 64 {
        packed[word + 1] |= value >> (64 - shift);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use super::StatePacking;
    use crate::options::{Engine, HeuristicKind, SearchOptions};
    use crate::search_algorithms::Monitor;
    use crate::state::StateRegistry;
    use crate::successor::StateSpace;
    use crate::symmetry::Symmetry;
    use crate::testing::{Lcg, random_task, reachable_states, ring};
    use crate::{NoObserver, run_engine};

    #[test]
    fn reachable_states_unpack_to_themselves() {
        let mut rng = Lcg(5);
        let mut packed_tasks = 0;
        for round in 0..300 {
            let task = random_task(&mut rng);
            let mut space = StateSpace::new(&task);
            let packing = StatePacking::build(&task, space.layout.fact_words());
            packed_tasks += usize::from(!packing.fields.is_empty());
            let (mut packed, mut unpacked) = (Vec::new(), Vec::new());
            for state in reachable_states(&mut space) {
                packing.pack(&state, &mut packed);
                assert_eq!(packed.len(), packing.packed_words(state.len()));
                packing.unpack(&packed, &mut unpacked);
                assert_eq!(unpacked, state, "round {round}");
            }
        }
        assert!(packed_tasks >= 100, "{packed_tasks}");
    }

    #[test]
    fn orbit_registries_agree_packed_or_not() {
        let mut rng = Lcg(13);
        let mut symmetric = 0;
        for round in 0..300 {
            let mut task = random_task(&mut rng);
            // Not an automorphism of the random operators, but the
            // registries treat it as one all the same; without a goal,
            // which would tell the objects apart (no search runs here).
            task.interchangeable_objects = vec![vec!["o0".into(), "o1".into()]];
            task.goal = pddl_ground::task::Conjunction::default();
            let mut space = StateSpace::new(&task);
            let Some(symmetry) = Symmetry::new(&task, &space.layout) else {
                continue;
            };
            symmetric += 1;
            let symmetry = Arc::new(symmetry);
            let symmetry_ref = symmetry.clone();
            let packing = Arc::new(StatePacking::build(&task, space.layout.fact_words()));
            let words = space.layout.words();
            let mut plain = StateRegistry::for_search(words, Some(symmetry.clone()), None);
            let mut packed = StateRegistry::for_search(words, Some(symmetry), Some(packing));
            let states = reachable_states(&mut space);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            // The reference: orbits told apart by their whole keys.
            let mut orbits: hashbrown::HashMap<Vec<u64>, u32> = hashbrown::HashMap::new();
            let mut scratch = crate::symmetry::KeyScratch::default();
            for state in &states {
                let mut key = Vec::new();
                symmetry_ref.key(state, &mut scratch, &mut key);
                let next = orbits.len() as u32;
                let expected = *orbits.entry(key).or_insert(next);
                let (id, new) = plain.insert(state).expect("room");
                assert_eq!((id, new), (expected, expected == next), "round {round}");
                assert_eq!(packed.insert(state), Some((id, new)), "round {round}");
                assert!(packed.is_registered_as(id, state), "round {round}");
                plain.load(id, &mut a);
                packed.load(id, &mut b);
                assert_eq!(a, b, "round {round}");
            }
            assert!(plain.len() <= states.len());
            // Again, in reverse: every state is found, by the recent
            // states and keys the registries keep or by its key, with the
            // same id.
            for state in states.iter().rev() {
                let mut key = Vec::new();
                symmetry_ref.key(state, &mut scratch, &mut key);
                let expected = orbits[&key];
                assert_eq!(
                    plain.insert(state),
                    Some((expected, false)),
                    "round {round}"
                );
                assert_eq!(plain.find(state), Some(expected), "round {round}");
                assert_eq!(
                    packed.insert(state),
                    Some((expected, false)),
                    "round {round}"
                );
            }
        }
        assert!(symmetric >= 100, "{symmetric}");
    }

    #[test]
    fn large_states_are_packed_small_ones_are_not() {
        // A ring of 300 cells: 601 facts in 10 words. The robot's cells
        // are one variable of 9 bits; the ball's cells and `holding`, which
        // no invariant covers, take a bit each: 5 words.
        let task = ring(300);
        let mut space = StateSpace::new(&task);
        let words = space.layout.words();
        let packing = StatePacking::new(&task, space.layout.fact_words()).expect("packed");
        assert_eq!((words, packing.packed_words(words)), (10, 5));
        let (mut packed, mut unpacked) = (Vec::new(), Vec::new());
        for state in reachable_states(&mut space) {
            packing.pack(&state, &mut packed);
            packing.unpack(&packed, &mut unpacked);
            assert_eq!(unpacked, state);
        }
        assert!(StatePacking::new(&ring(6), 1).is_none());
    }

    #[test]
    fn searches_on_packed_states_are_the_same_searches() {
        let mut rng = Lcg(9);
        for round in 0..300 {
            let task = random_task(&mut rng);
            let run = |packed: bool, engine, heuristic| {
                let mut space = StateSpace::new(&task);
                if packed {
                    let packing = StatePacking::build(&task, space.layout.fact_words());
                    space.set_packing(Some(Arc::new(packing)));
                }
                let options = SearchOptions {
                    engine,
                    heuristic,
                    ..SearchOptions::optimal_default()
                };
                let cancel = AtomicBool::new(false);
                let mut observer = NoObserver;
                let mut monitor = Monitor::new(None, None, &cancel, &mut observer);
                let result = run_engine(&mut space, &options, &mut monitor);
                let stats = &monitor.stats;
                (result.outcome, result.plan, stats.expanded, stats.generated)
            };
            for (engine, heuristic) in [
                (Engine::AStar, HeuristicKind::HMax),
                (Engine::LazyGreedy, HeuristicKind::HFF),
                (Engine::BreadthFirst, HeuristicKind::Blind),
            ] {
                assert_eq!(
                    run(true, engine, heuristic),
                    run(false, engine, heuristic),
                    "round {round} {engine} {heuristic}"
                );
            }
        }
    }
}
