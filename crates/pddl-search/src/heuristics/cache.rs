//! A heuristic's values remembered per state, for searches that evaluate
//! the same states again: the default's improvement restarts, each a new
//! search from the initial state with the same heuristic, reach many of
//! the states the restarts before them evaluated.
//!
//! Only heuristics whose value (and preferred operators) depend on the
//! state alone are cached, keyed by the exact state (not its symmetry
//! orbit: preferred operators name objects), so a search gives every state
//! the value and preferred operators it would get without the cache, and
//! its results are the same. The cache stops growing at the size it is
//! given (the default's restarts: [`MAX_CACHE_BYTES`], or an eighth of the
//! memory limit where that is less).

use pddl_ground::task::{Cost, OperatorId};

use super::Heuristic;
use crate::state::{StateRegistry, StateView};

/// The most memory the default's cache takes (states, values and
/// preferred operators); beyond it new states are evaluated without being
/// remembered. Where restarts meet their predecessors' states the cache
/// is small (gripper prob04: 83 states, 552 hits); where a single long
/// restart runs (Puzznic level 090: a million states, no hit) it would
/// only take memory.
pub const MAX_CACHE_BYTES: u64 = 64 << 20;

/// What the cache holds for one state.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The heuristic's value (`None`: a dead end).
    value: Option<Cost>,
    /// The preferred operators, as a range of `preferred_pool`, once an
    /// evaluation asked for them.
    preferred: Option<(u32, u32)>,
}

/// A heuristic with its values remembered per state.
pub struct EvaluationCache<'t> {
    inner: Box<dyn Heuristic + 't>,
    /// The states evaluated, by id; a state is its fact words followed by
    /// its fluents' bits (made at the first evaluation, which tells how
    /// many words a state has).
    states: Option<StateRegistry>,
    entries: Vec<Entry>,
    preferred_pool: Vec<OperatorId>,
    key: Vec<u64>,
    /// The cache is full: no more states are added.
    full: bool,
    max_bytes: u64,
    /// Evaluations answered from the cache.
    hits: u64,
}

impl<'t> EvaluationCache<'t> {
    /// `inner` with a cache of at most about `max_bytes`, or `inner`
    /// itself where its value depends on more than the state
    /// (path-dependent heuristics).
    pub fn wrap(inner: Box<dyn Heuristic + 't>, max_bytes: u64) -> Box<dyn Heuristic + 't> {
        if inner.is_path_dependent() {
            return inner;
        }
        Box::new(Self::new(inner, max_bytes))
    }

    /// `inner` (whose value must depend on the state alone) with a cache
    /// of at most about `max_bytes`.
    pub fn new(inner: Box<dyn Heuristic + 't>, max_bytes: u64) -> Self {
        debug_assert!(!inner.is_path_dependent());
        EvaluationCache {
            inner,
            states: None,
            entries: Vec::new(),
            preferred_pool: Vec::new(),
            key: Vec::new(),
            full: false,
            max_bytes,
            hits: 0,
        }
    }

    /// Evaluations answered from the cache so far.
    pub fn hits(&self) -> u64 {
        self.hits
    }

    /// States remembered.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no state is remembered.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn cache_bytes(&self) -> u64 {
        self.states.as_ref().map_or(0, StateRegistry::memory_bytes)
            + (self.entries.capacity() * size_of::<Entry>()) as u64
            + (self.preferred_pool.capacity() * size_of::<OperatorId>()) as u64
    }
}

impl Heuristic for EvaluationCache<'_> {
    fn evaluate(
        &mut self,
        state: StateView<'_>,
        preferred: Option<&mut Vec<OperatorId>>,
    ) -> Option<Cost> {
        self.key.clear();
        self.key.extend_from_slice(state.facts);
        self.key.extend(state.fluents.iter().map(|v| v.to_bits()));
        let words = self.key.len();
        let states = self.states.get_or_insert_with(|| StateRegistry::new(words));
        let found = if self.full {
            states.find(&self.key).map(|id| (id, false))
        } else {
            let found = states.insert(&self.key);
            self.full = found.is_none();
            found
        };
        let Some((id, new)) = found else {
            return self.inner.evaluate(state, preferred);
        };
        let id = id as usize;
        if !new {
            let entry = self.entries[id];
            match (preferred, entry.preferred) {
                // Evaluated before without its preferred operators: again.
                (Some(out), None) => return self.evaluate_into(id, state, Some(out)),
                (out, kept) => {
                    if let (Some(out), Some((start, end))) = (out, kept) {
                        out.extend_from_slice(&self.preferred_pool[start as usize..end as usize]);
                    }
                    self.hits += 1;
                    return entry.value;
                }
            }
        }
        self.entries.push(Entry {
            value: None,
            preferred: None,
        });
        self.evaluate_into(id, state, preferred)
    }

    fn fork(&self) -> Option<Box<dyn Heuristic + Send>> {
        self.inner.fork()
    }

    fn has_preferred_operators(&self) -> bool {
        self.inner.has_preferred_operators()
    }

    fn memory_bytes(&self) -> u64 {
        self.inner.memory_bytes() + self.cache_bytes()
    }
}

impl EvaluationCache<'_> {
    /// Evaluates `state` with the inner heuristic and fills entry `id`.
    fn evaluate_into(
        &mut self,
        id: usize,
        state: StateView<'_>,
        preferred: Option<&mut Vec<OperatorId>>,
    ) -> Option<Cost> {
        let value = match preferred {
            None => {
                let value = self.inner.evaluate(state, None);
                self.entries[id].value = value;
                value
            }
            Some(out) => {
                // The heuristic appends its preferred operators to `out`.
                let before = out.len();
                let value = self.inner.evaluate(state, Some(&mut *out));
                let start = self.preferred_pool.len() as u32;
                self.preferred_pool.extend_from_slice(&out[before..]);
                self.entries[id] = Entry {
                    value,
                    preferred: Some((start, self.preferred_pool.len() as u32)),
                };
                value
            }
        };
        // Checked now and then: the sizes grow by doubling.
        if id.is_multiple_of(1024) && self.cache_bytes() > self.max_bytes {
            self.full = true;
        }
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristics::{CostType, create};
    use crate::options::HeuristicKind;
    use crate::successor::StateSpace;
    use crate::testing::{Lcg, random_task, reachable_states};

    #[test]
    fn cached_values_and_preferred_operators_are_those_of_the_heuristic() {
        let mut rng = Lcg(29);
        for _ in 0..100 {
            let task = random_task(&mut rng);
            let mut space = StateSpace::new(&task);
            let states = reachable_states(&mut space);
            let mut plain = create(HeuristicKind::HFF, &task, CostType::PlusOne);
            let mut cached = EvaluationCache::new(
                create(HeuristicKind::HFF, &task, CostType::PlusOne),
                1 << 20,
            );
            let mut fluents = Vec::new();
            // Three times over the (distinct) states, asking for preferred
            // operators of every other state, then of the others: an entry
            // made without them is evaluated again when they are asked for.
            for round in 0..3 {
                for (i, state) in states.iter().enumerate() {
                    let ask = (i + round) % 2 == 0;
                    let (mut expected, mut got) = (Vec::new(), vec![u32::MAX]);
                    let view = space.view(state, &mut fluents);
                    let value = plain.evaluate(view, ask.then_some(&mut expected));
                    let view = space.view(state, &mut fluents);
                    assert_eq!(cached.evaluate(view, ask.then_some(&mut got)), value);
                    // Appended after what the caller's list held.
                    assert_eq!(got[0], u32::MAX);
                    assert_eq!(got[1..], expected[..]);
                }
            }
            // Round 1 hits where it does not ask (the even states), round
            // 2 everywhere.
            let n = states.len();
            assert_eq!(cached.len(), n);
            assert_eq!(cached.hits(), (n.div_ceil(2) + n) as u64);
        }
    }

    #[test]
    fn a_full_cache_still_answers_for_the_states_it_holds() {
        let mut rng = Lcg(7);
        let task = random_task(&mut rng);
        let mut space = StateSpace::new(&task);
        let states = reachable_states(&mut space);
        // No room: the first state is remembered, and then it is full.
        let mut cached =
            EvaluationCache::new(create(HeuristicKind::HAdd, &task, CostType::Unit), 0);
        let mut plain = create(HeuristicKind::HAdd, &task, CostType::Unit);
        let mut fluents = Vec::new();
        for state in states.iter().chain(&states) {
            let expected = plain.evaluate(space.view(state, &mut fluents), None);
            assert_eq!(
                cached.evaluate(space.view(state, &mut fluents), None),
                expected
            );
        }
        // The states are distinct: only the first one's second visit hits.
        assert_eq!(cached.len(), 1);
        assert_eq!(cached.hits(), 1);
    }

    #[test]
    fn path_dependent_heuristics_are_not_cached() {
        let mut rng = Lcg(3);
        let task = random_task(&mut rng);
        let lmcount = create(HeuristicKind::LmCount, &task, CostType::Unit);
        assert!(EvaluationCache::wrap(lmcount, MAX_CACHE_BYTES).is_path_dependent());
    }
}
