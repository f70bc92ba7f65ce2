//! The landmark-count heuristic (LAMA's, unit costs): path-dependent.
//!
//! A landmark holds when one of its facts does (one fact, or several for
//! a disjunctive landmark). Each registered search state has a set of
//! *accepted* landmarks, those
//! reached on the path to it: the initial state accepts the landmarks
//! true in it; a transition to a state accepts the parent's landmarks
//! plus those true in the new state whose greedy-necessary predecessors
//! the parent accepted. A state reached by several paths keeps the
//! intersection (a landmark counts as reached only if it is on every
//! known path), as Fast Downward's lmcount in lazy search. The sets live
//! in one flat bit arena indexed by [`StateId`]; the search engines fill
//! it through [`Heuristic::notify_initial_state`] and
//! [`Heuristic::notify_transition`] before they evaluate a state.
//!
//! `h` = the number of landmarks not accepted, plus the accepted ones
//! that are *required again*: false now and either a goal or a fact
//! landmark that is a greedy-necessary predecessor of a landmark not
//! accepted. (Disjunctive landmarks are not required again: in visitall,
//! where they are the positions around a cell, counting them again
//! penalised every step away and doubled the search time.) A state is a
//! dead end when a false goal is unreachable in the relaxation from the
//! initial state. Preferred operators ("simple" ones, as LAMA): operators
//! achieving, by a relaxed operator whose preconditions hold now, a
//! landmark that is not accepted but whose predecessors all are, or one
//! that is required again. Costs are ignored (every landmark counts 1),
//! so the heuristic is not admissible.

use pddl_ground::Task;
use pddl_ground::task::{Cost, FactId, OperatorId};

use super::{LandmarkGraph, LandmarkLimits};
use crate::heuristics::Heuristic;
use crate::heuristics::relaxation::{Adjacency, CostType, RelaxedTask};
use crate::state::{StateId, StateView, has_fact};

/// The landmark-count heuristic.
#[derive(Debug)]
pub struct LmCount {
    graph: LandmarkGraph,
    relaxed: RelaxedTask,
    /// Per landmark: its greedy-necessary predecessors.
    parents: Adjacency,
    /// Per landmark: its greedy-necessary successors.
    children: Adjacency,
    /// Words per accepted set.
    words: usize,
    /// Accepted sets, `words` per state id.
    accepted: Vec<u64>,
    /// Per state id: whether it has an accepted set yet.
    known: Vec<u64>,
    /// The set being computed for a transition.
    scratch: Vec<u64>,
}

impl LmCount {
    /// Generates the landmarks of `task` with the default limits.
    pub fn new(task: &Task) -> Self {
        Self::with_limits(task, LandmarkLimits::default())
    }

    /// Generates the landmarks of `task` within `limits`.
    pub fn with_limits(task: &Task, limits: LandmarkLimits) -> Self {
        let relaxed = RelaxedTask::new(task, CostType::Unit);
        let graph = LandmarkGraph::generate_relaxed(task, &relaxed, limits);
        let n = graph.len();
        let parents = Adjacency::build(n, graph.orderings.iter().map(|&(a, b)| (b, a)));
        let children = Adjacency::build(n, graph.orderings.iter().copied());
        let words = n.div_ceil(64);
        LmCount {
            graph,
            relaxed,
            parents,
            children,
            words,
            accepted: Vec::new(),
            known: Vec::new(),
            scratch: vec![0; words],
        }
    }

    /// The landmark graph.
    pub fn graph(&self) -> &LandmarkGraph {
        &self.graph
    }

    /// The accepted landmark ids of a registered state, `None` before
    /// the engine announced it.
    pub fn accepted_landmarks(&self, id: StateId) -> Option<Vec<u32>> {
        let set = self.accepted_set(id)?;
        Some(
            (0..self.graph.len() as u32)
                .filter(|&l| bit(set, l))
                .collect(),
        )
    }

    fn is_known(&self, id: StateId) -> bool {
        self.known
            .get(id as usize / 64)
            .is_some_and(|w| w & (1 << (id % 64)) != 0)
    }

    fn accepted_set(&self, id: StateId) -> Option<&[u64]> {
        if !self.is_known(id) {
            return None;
        }
        let start = id as usize * self.words;
        self.accepted.get(start..start + self.words)
    }

    /// Stores `scratch` as the accepted set of `id` (intersecting with
    /// the set it has already).
    fn store(&mut self, id: StateId) {
        let start = id as usize * self.words;
        if self.accepted.len() < start + self.words {
            self.accepted.resize(start + self.words, 0);
        }
        let word = id as usize / 64;
        if self.known.len() <= word {
            self.known.resize(word + 1, 0);
        }
        let target = &mut self.accepted[start..start + self.words];
        if self.known[word] & (1 << (id % 64)) != 0 {
            for (t, s) in target.iter_mut().zip(&self.scratch) {
                *t &= s;
            }
        } else {
            target.copy_from_slice(&self.scratch);
            self.known[word] |= 1 << (id % 64);
        }
    }

    /// Fills `scratch` with the landmarks true in `state` (the accepted
    /// set of an initial state).
    fn scratch_from_state(&mut self, state: StateView<'_>) {
        self.scratch.fill(0);
        for (l, facts) in self.graph.facts.iter().enumerate() {
            if holds(facts, state) {
                self.scratch[l / 64] |= 1 << (l % 64);
            }
        }
    }

    /// `h` and preferred operators for a state with accepted set `set`.
    fn value(
        &self,
        set: &[u64],
        state: StateView<'_>,
        mut preferred: Option<&mut Vec<OperatorId>>,
    ) -> Option<Cost> {
        let mut h: Cost = 0;
        for (l, facts) in self.graph.facts.iter().enumerate() {
            let l = l as u32;
            let holds = holds(facts, state);
            let interesting = if !bit(set, l) {
                h += 1;
                if !holds && self.graph.is_goal[l as usize] && !self.graph.reachable[l as usize] {
                    return None;
                }
                !holds && self.parents.get(l).iter().all(|&p| bit(set, p))
            } else if !holds
                && (self.graph.is_goal[l as usize]
                    || (facts.len() == 1 && self.children.get(l).iter().any(|&c| !bit(set, c))))
            {
                h += 1; // required again
                true
            } else {
                false
            };
            if interesting && let Some(out) = preferred.as_deref_mut() {
                for &fact in facts {
                    self.push_achievers(fact, state, out);
                }
            }
        }
        Some(h)
    }

    /// Appends the operators that achieve `fact` by a relaxed operator
    /// whose (positive) preconditions hold in `state`.
    fn push_achievers(&self, fact: u32, state: StateView<'_>, out: &mut Vec<OperatorId>) {
        let rt = &self.relaxed;
        for &o in rt.achievers.get(fact) {
            if let Some(origin) = rt.ops[o as usize].origin
                && rt.pre(o).iter().all(|&q| rt.holds(state.facts, q))
            {
                out.push(origin);
            }
        }
    }
}

/// Whether a landmark (any of its facts) holds in `state`.
#[inline]
fn holds(facts: &[FactId], state: StateView<'_>) -> bool {
    facts.iter().any(|&f| has_fact(state.facts, f))
}

#[inline]
fn bit(set: &[u64], l: u32) -> bool {
    set[l as usize / 64] & (1 << (l % 64)) != 0
}

impl Heuristic for LmCount {
    /// Without a state id: as if `state` were the initial state (the
    /// landmarks true in it are accepted).
    fn evaluate(
        &mut self,
        state: StateView<'_>,
        preferred: Option<&mut Vec<OperatorId>>,
    ) -> Option<Cost> {
        self.scratch_from_state(state);
        let set = std::mem::take(&mut self.scratch);
        let h = self.value(&set, state, preferred);
        self.scratch = set;
        h
    }

    fn evaluate_registered(
        &mut self,
        id: StateId,
        state: StateView<'_>,
        preferred: Option<&mut Vec<OperatorId>>,
    ) -> Option<Cost> {
        match self.accepted_set(id) {
            Some(set) => self.value(set, state, preferred),
            None => self.evaluate(state, preferred),
        }
    }

    fn memory_bytes(&self) -> u64 {
        ((self.accepted.capacity() + self.known.capacity()) * size_of::<u64>()) as u64
    }

    fn has_preferred_operators(&self) -> bool {
        true
    }

    fn is_path_dependent(&self) -> bool {
        true
    }

    fn notify_initial_state(&mut self, id: StateId, state: StateView<'_>) {
        self.scratch_from_state(state);
        self.store(id);
    }

    fn notify_transition(
        &mut self,
        parent: StateId,
        _op: OperatorId,
        child: StateId,
        state: StateView<'_>,
    ) {
        let start = parent as usize * self.words;
        let parent_known = self.is_known(parent);
        if parent_known {
            self.scratch
                .copy_from_slice(&self.accepted[start..start + self.words]);
        } else {
            self.scratch.fill(0);
        }
        // Newly accepted: true now, not yet accepted, predecessors
        // accepted by the parent (`accepted[start..]` is still the parent's).
        for w in 0..self.words {
            let mut missing = !self.scratch[w];
            while missing != 0 {
                let l = (w * 64) as u32 + missing.trailing_zeros();
                missing &= missing - 1;
                let Some(facts) = self.graph.facts.get(l as usize) else {
                    break;
                };
                if holds(facts, state)
                    && self
                        .parents
                        .get(l)
                        .iter()
                        .all(|&p| parent_known && bit(&self.accepted[start..], p))
                {
                    self.scratch[w] |= 1 << (l % 64);
                }
            }
        }
        self.store(child);
    }
}
