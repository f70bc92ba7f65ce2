//! The landmark-count heuristic (LAMA's, unit costs): path-dependent,
//! with landmark progression as Fast Downward's status manager (Büchner,
//! Keller, Eriksson & Helmert 2023).
//!
//! A landmark holds when one of its facts does (one fact, or several for
//! a disjunctive landmark). Each registered search state has two sets of
//! landmarks. *Past*: reached on the path to it (the parent's past plus
//! those true now). *Future*: still to be achieved: every landmark not
//! past, plus, among the past ones,
//! - those false now that were future in the parent (still owed),
//! - goals false now,
//! - fact landmarks false now with a greedy-necessary successor that is
//!   not past (*required again*; disjunctive landmarks are not: in
//!   visitall, where they are the positions around a cell, counting them
//!   again penalised every step away and doubled the search time),
//! - landmarks with a reasonable predecessor that is not past (achieved
//!   too early: they will have to be destroyed and achieved again, e.g.
//!   a block stacked before the tower below it is built).
//!
//! A state reached by several paths keeps the intersection of the past
//! sets and the union of the future sets. The sets live in one flat bit
//! arena indexed by [`StateId`]; the search engines fill it through
//! [`Heuristic::notify_initial_state`] and
//! [`Heuristic::notify_transition`] before they evaluate a state.
//!
//! `h` = the number of future landmarks (costs are ignored, so the
//! heuristic is not admissible). A state is a dead end when a false goal
//! is unreachable in the relaxation from the initial state. Preferred
//! operators (as LAMA 2008): operators achieving, by a relaxed operator
//! whose preconditions hold now, a future landmark that is false now,
//! whose greedy-necessary and reasonable predecessors are all past, and
//! that is not past itself unless it is a goal.

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
    /// Per landmark: its greedy-necessary successors.
    children: Adjacency,
    /// Per landmark: its greedy-necessary predecessors.
    parents: Adjacency,
    /// Per landmark: its reasonable predecessors.
    reasonable_parents: Adjacency,
    /// Words per landmark set.
    words: usize,
    /// Per state id, `2 * words` words: the past set, then the future set.
    status: Vec<u64>,
    /// Per state id: whether it has sets yet.
    known: Vec<u64>,
    /// The past and future sets being computed (`2 * words`).
    scratch: Vec<u64>,
    /// Per landmark: whether it holds in the state being progressed.
    holds_now: Vec<u64>,
}

impl LmCount {
    /// Generates the landmarks of `task` with the default limits.
    pub fn new(task: &Task) -> Self {
        Self::with_limits(task, LandmarkLimits::default())
    }

    /// Generates the landmarks of `task` within `limits`.
    pub fn with_limits(task: &Task, limits: LandmarkLimits) -> Self {
        Self::within(task, limits, &|| false)
    }

    /// Generates the landmarks of `task` within `limits`, stopping early
    /// (with fewer landmarks or orderings) once `stop` says so
    /// ([`LandmarkGraph::generate_within`]).
    pub fn within(task: &Task, limits: LandmarkLimits, stop: &dyn Fn() -> bool) -> Self {
        let relaxed = RelaxedTask::new(task, CostType::Unit);
        let graph = LandmarkGraph::generate_within(task, &relaxed, limits, stop);
        let n = graph.len();
        let children = Adjacency::build(n, graph.orderings.iter().copied());
        let parents = Adjacency::build(n, graph.orderings.iter().map(|&(a, b)| (b, a)));
        let reasonable_parents = Adjacency::build(n, graph.reasonable.iter().map(|&(a, b)| (b, a)));
        let words = n.div_ceil(64);
        LmCount {
            graph,
            relaxed,
            children,
            parents,
            reasonable_parents,
            words,
            status: Vec::new(),
            known: Vec::new(),
            scratch: vec![0; 2 * words],
            holds_now: vec![0; words],
        }
    }

    /// The landmark graph.
    pub fn graph(&self) -> &LandmarkGraph {
        &self.graph
    }

    /// The past landmark ids of a registered state (reached on every
    /// known path to it), `None` before the engine announced it.
    pub fn accepted_landmarks(&self, id: StateId) -> Option<Vec<u32>> {
        let (past, _) = self.sets(id)?;
        Some(self.members(past))
    }

    /// The future landmark ids of a registered state (those `h` counts),
    /// `None` before the engine announced it.
    pub fn future_landmarks(&self, id: StateId) -> Option<Vec<u32>> {
        let (_, future) = self.sets(id)?;
        Some(self.members(future))
    }

    fn members(&self, set: &[u64]) -> Vec<u32> {
        (0..self.graph.len() as u32)
            .filter(|&l| bit(set, l))
            .collect()
    }

    fn is_known(&self, id: StateId) -> bool {
        self.known
            .get(id as usize / 64)
            .is_some_and(|w| w & (1 << (id % 64)) != 0)
    }

    /// The past and future sets of a registered state.
    fn sets(&self, id: StateId) -> Option<(&[u64], &[u64])> {
        if !self.is_known(id) {
            return None;
        }
        let start = id as usize * 2 * self.words;
        let both = self.status.get(start..start + 2 * self.words)?;
        Some(both.split_at(self.words))
    }

    /// Stores `scratch` as the sets of `id`, merged with those it has
    /// already (past: intersection; future: union).
    fn store(&mut self, id: StateId) {
        let size = 2 * self.words;
        let start = id as usize * size;
        if self.status.len() < start + size {
            self.status.resize(start + size, 0);
        }
        let word = id as usize / 64;
        if self.known.len() <= word {
            self.known.resize(word + 1, 0);
        }
        let target = &mut self.status[start..start + size];
        if self.known[word] & (1 << (id % 64)) != 0 {
            let (past, future) = target.split_at_mut(self.words);
            let (new_past, new_future) = self.scratch.split_at(self.words);
            for (t, s) in past.iter_mut().zip(new_past) {
                *t &= s;
            }
            for (t, s) in future.iter_mut().zip(new_future) {
                *t |= s;
            }
        } else {
            target.copy_from_slice(&self.scratch);
            self.known[word] |= 1 << (id % 64);
        }
    }

    /// Fills `scratch` with the past and future sets of `state` reached
    /// from a parent with sets `parent` (`None`: `state` is initial).
    fn progress(&mut self, parent: Option<StateId>, state: StateView<'_>) {
        let words = self.words;
        self.holds_now.fill(0);
        for (l, facts) in self.graph.facts.iter().enumerate() {
            if holds(facts, state) {
                self.holds_now[l / 64] |= 1 << (l % 64);
            }
        }
        let parent_sets = match parent {
            Some(p) if self.is_known(p) => {
                let start = p as usize * 2 * words;
                Some(start)
            }
            _ => None,
        };
        let (past, future) = self.scratch.split_at_mut(words);
        for w in 0..words {
            let now = self.holds_now[w];
            match parent_sets {
                Some(start) => {
                    past[w] = self.status[start + w] | now;
                    future[w] = self.status[start + words + w] & !now;
                }
                None => {
                    past[w] = now;
                    future[w] = !now;
                }
            }
        }
        // Past landmarks owed again (only where false now, or with an
        // unreached reasonable predecessor).
        for l in 0..self.graph.len() as u32 {
            if bit(future, l) {
                continue;
            }
            let false_now = !bit(&self.holds_now, l);
            let owed = (false_now
                && (self.graph.is_goal[l as usize]
                    || (self.graph.facts[l as usize].len() == 1
                        && self.children.get(l).iter().any(|&c| !bit(past, c)))))
                || self
                    .reasonable_parents
                    .get(l)
                    .iter()
                    .any(|&p| !bit(past, p));
            if owed {
                future[l as usize / 64] |= 1 << (l % 64);
            }
        }
        // Bits past the last landmark stay clear.
        let n = self.graph.len();
        if !n.is_multiple_of(64)
            && let Some(last) = future.last_mut()
        {
            *last &= (1u64 << (n % 64)) - 1;
        }
    }

    /// `h` and preferred operators for a state with future set `future`.
    fn value(
        &self,
        past: &[u64],
        future: &[u64],
        state: StateView<'_>,
        mut preferred: Option<&mut Vec<OperatorId>>,
    ) -> Option<Cost> {
        let mut h: Cost = 0;
        for (w, &word) in future.iter().enumerate().take(self.words) {
            let mut left = word;
            while left != 0 {
                let l = (w * 64) as u32 + left.trailing_zeros();
                left &= left - 1;
                let Some(facts) = self.graph.facts.get(l as usize) else {
                    break;
                };
                h += 1;
                if holds(facts, state) {
                    continue;
                }
                if self.graph.is_goal[l as usize] && !self.graph.reachable[l as usize] {
                    return None;
                }
                // LAMA's "interesting" landmarks: not reached yet (or a
                // goal owed again) with every predecessor reached. (Every
                // future landmark, as Fast Downward's, also prefers
                // re-achieving `handempty` or `clear` whenever possible:
                // 45 670 instead of 1 691 expansions on blocks-50-s1.)
                let interesting = (!bit(past, l) || self.graph.is_goal[l as usize])
                    && self.parents.get(l).iter().all(|&p| bit(past, p))
                    && self.reasonable_parents.get(l).iter().all(|&p| bit(past, p));
                if interesting && let Some(out) = preferred.as_deref_mut() {
                    for &fact in facts {
                        self.push_achievers(fact, state, out);
                    }
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
    /// Without a state id: as if `state` were the initial state.
    fn evaluate(
        &mut self,
        state: StateView<'_>,
        preferred: Option<&mut Vec<OperatorId>>,
    ) -> Option<Cost> {
        self.progress(None, state);
        let scratch = std::mem::take(&mut self.scratch);
        let (past, future) = scratch.split_at(self.words);
        let h = self.value(past, future, state, preferred);
        self.scratch = scratch;
        h
    }

    fn evaluate_registered(
        &mut self,
        id: StateId,
        state: StateView<'_>,
        preferred: Option<&mut Vec<OperatorId>>,
    ) -> Option<Cost> {
        match self.sets(id) {
            Some((past, future)) => self.value(past, future, state, preferred),
            None => self.evaluate(state, preferred),
        }
    }

    fn memory_bytes(&self) -> u64 {
        ((self.status.capacity() + self.known.capacity()) * size_of::<u64>()) as u64
    }

    fn has_preferred_operators(&self) -> bool {
        true
    }

    fn is_path_dependent(&self) -> bool {
        true
    }

    fn notify_initial_state(&mut self, id: StateId, state: StateView<'_>) {
        self.progress(None, state);
        self.store(id);
    }

    fn notify_transition(
        &mut self,
        parent: StateId,
        _op: OperatorId,
        child: StateId,
        state: StateView<'_>,
    ) {
        self.progress(Some(parent), state);
        self.store(child);
    }
}
