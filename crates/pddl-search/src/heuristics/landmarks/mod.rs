//! Fact and disjunctive landmarks with greedy-necessary orderings, found
//! once from the initial state on the delete relaxation (the
//! backchaining of Richter, Helmert & Westphal 2008, without the
//! domain-transition-graph lookahead), and the landmark-count heuristic
//! built on them ([`lm_count`]).
//!
//! A landmark is a fact that is true at some point of every plan. Every
//! positive goal fact is one. For a landmark `l` that is false initially,
//! the relaxed exploration from the initial state with every achiever of
//! `l` removed tells which achievers can be applied before `l` is first
//! reached (its *first achievers*: all their preconditions are reachable
//! without `l`); a fact in the precondition of every first achiever is a
//! landmark too, ordered greedy-necessarily before `l` (it must hold
//! immediately before `l` first becomes true). Disjunctive landmarks (as
//! RHW): when every first achiever has a precondition of the same
//! predicate, the set of those facts (2 to [`MAX_DISJUNCTION`] of them,
//! none true initially, none already a fact landmark, none in another
//! disjunctive landmark) is a landmark: one
//! of them must hold before `l`, ordered greedy-necessarily the same way.
//! A disjunctive landmark holds when any of its facts does; its first
//! achievers are those of any of its facts. New landmarks are processed
//! the same way until none is new.
//!
//! The relaxation is [`RelaxedTask`]'s: conditional effects are separate
//! relaxed operators whose precondition includes the effect condition,
//! axioms are zero-cost relaxed operators (so derived facts can be
//! landmarks), and negative and numeric conditions are ignored (they only
//! make more operators look applicable, so the landmarks stay sound;
//! numeric and negative goals give no landmark).
//!
//! Natural orderings (as RHW's forward orders): `a` before `b` when `b`
//! is unreachable in the relaxation without `a` and no achiever of `a`
//! adds `b` too. Reasonable orderings ([`reasonable`], Hoffmann, Porteous
//! & Sebastia 2004) are added between fact landmarks where h² mutexes
//! ([`mutex`]) show that achieving one landmark destroys another, which
//! must therefore come after it; the natural orderings only help find
//! their candidates. [`lm_count`] uses the greedy-necessary and the
//! reasonable orderings.
//!
//! The work is bounded ([`LandmarkLimits`]): once a limit is hit, no
//! further landmark is processed; what was found so far is still sound
//! (at worst only the goals, i.e. goal count).

pub mod lm_count;
pub mod mutex;
pub mod reasonable;
#[cfg(test)]
mod tests;

use hashbrown::{HashMap, HashSet};
use pddl_ground::Task;
use pddl_ground::task::FactId;

use super::relaxation::{CostType, RelaxedTask};

/// Most facts kept for natural orderings (unreachable without some
/// landmark), a memory bound.
const MAX_FORWARD_FACTS: usize = 1 << 22;

/// Most facts in a disjunctive landmark (as Fast Downward's RHW).
pub const MAX_DISJUNCTION: usize = 4;

/// Bounds and switches of landmark generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LandmarkLimits {
    /// Most landmarks kept (each costs one bit per search state).
    pub max_landmarks: usize,
    /// Most work units (precondition and effect entries visited by the
    /// restricted explorations) spent on backchaining.
    pub max_work: u64,
    /// Whether to find disjunctive landmarks too.
    pub disjunctive: bool,
    /// Whether to find reasonable orderings (needs h² mutexes).
    pub reasonable_orderings: bool,
    /// Most word operations spent on the h² mutex fixpoint (beyond it,
    /// no reasonable orderings).
    pub max_mutex_work: u64,
}

impl Default for LandmarkLimits {
    fn default() -> Self {
        LandmarkLimits {
            max_landmarks: 4096,
            max_work: 150_000_000,
            disjunctive: true,
            reasonable_orderings: true,
            max_mutex_work: 400_000_000,
        }
    }
}

/// Landmarks of a task and their greedy-necessary orderings.
#[derive(Clone, Debug)]
pub struct LandmarkGraph {
    /// The facts of each landmark, sorted (landmark ids index this): one
    /// for a fact landmark, several for a disjunctive one (it holds when
    /// any of them does).
    pub facts: Vec<Vec<FactId>>,
    /// Per landmark: whether it is a positive goal fact.
    pub is_goal: Vec<bool>,
    /// Per landmark: whether it holds in the initial state (before axioms).
    pub initially_true: Vec<bool>,
    /// Per landmark: whether the relaxed task can reach it from the
    /// initial state (an unreachable landmark makes the task unsolvable).
    pub reachable: Vec<bool>,
    /// Greedy-necessary orderings `(before, after)`, by landmark id,
    /// without duplicates.
    pub orderings: Vec<(u32, u32)>,
    /// Natural orderings `(before, after)` not already in `orderings`:
    /// `after` (a fact landmark) is unreachable in the relaxation
    /// without `before` (used to find reasonable orderings).
    pub natural: Vec<(u32, u32)>,
    /// Reasonable orderings `(before, after)` between fact landmarks
    /// (`after` should not be achieved before `before`), without
    /// duplicates and disjoint from `orderings`.
    pub reasonable: Vec<(u32, u32)>,
    /// Whether a [`LandmarkLimits`] bound stopped the generation early.
    pub truncated: bool,
}

/// Landmark generation's state: the graph so far and its indexes.
struct Builder<'a> {
    graph: LandmarkGraph,
    limits: LandmarkLimits,
    init: &'a [bool],
    reachable: &'a [bool],
    /// Per fact: its fact landmark, `u32::MAX` if none.
    landmark_of: Vec<u32>,
    /// Disjunctive landmarks by their sorted facts.
    disjunctions: HashMap<Vec<FactId>, u32>,
    /// Per fact: whether it is in a disjunctive landmark.
    in_disjunction: Vec<bool>,
    orderings_seen: HashSet<(u32, u32)>,
    natural_seen: HashSet<(u32, u32)>,
}

impl Builder<'_> {
    /// The landmark of `facts` (sorted), added if new; `None` when the
    /// landmark limit is reached or when a new disjunctive landmark
    /// would overlap another one (as Fast Downward: overlapping
    /// disjunctions, e.g. the positions around each of many goals, add
    /// little but cost).
    fn add(&mut self, facts: &[FactId], goal: bool) -> Option<u32> {
        let existing = match facts {
            [f] => Some(self.landmark_of[*f as usize]).filter(|&l| l != u32::MAX),
            _ => self.disjunctions.get(facts).copied(),
        };
        if let Some(l) = existing {
            self.graph.is_goal[l as usize] |= goal;
            return Some(l);
        }
        if facts.len() > 1 && facts.iter().any(|&f| self.in_disjunction[f as usize]) {
            return None;
        }
        if self.graph.facts.len() >= self.limits.max_landmarks {
            self.graph.truncated = true;
            return None;
        }
        let l = self.graph.facts.len() as u32;
        match facts {
            [f] => self.landmark_of[*f as usize] = l,
            _ => {
                self.disjunctions.insert(facts.to_vec(), l);
                for &f in facts {
                    self.in_disjunction[f as usize] = true;
                }
            }
        }
        let any = |set: &[bool]| facts.iter().any(|&f| set[f as usize]);
        self.graph.facts.push(facts.to_vec());
        self.graph.is_goal.push(goal);
        self.graph.initially_true.push(any(self.init));
        self.graph.reachable.push(any(self.reachable));
        Some(l)
    }

    fn order(&mut self, before: u32, after: u32) {
        if before != after && self.orderings_seen.insert((before, after)) {
            self.graph.orderings.push((before, after));
        }
    }
}

impl LandmarkGraph {
    /// Finds the landmarks of `task` within `limits`.
    pub fn generate(task: &Task, limits: LandmarkLimits) -> Self {
        let relaxed = RelaxedTask::new(task, CostType::Unit);
        Self::generate_relaxed(task, &relaxed, limits)
    }

    /// As [`LandmarkGraph::generate`], on an already built relaxation of
    /// `task` (without numeric propositions).
    pub fn generate_relaxed(task: &Task, rt: &RelaxedTask, limits: LandmarkLimits) -> Self {
        Self::generate_within(task, rt, limits, &|| false)
    }

    /// As [`LandmarkGraph::generate_relaxed`], asking `stop` (a time limit,
    /// cancellation) before each landmark's backchaining and during the
    /// mutex and ordering computations, which take up to seconds on large
    /// tasks: once it says stop, the graph found so far is returned,
    /// marked [`LandmarkGraph::truncated`] (a valid graph, only with fewer
    /// landmarks or orderings).
    pub fn generate_within(
        task: &Task,
        rt: &RelaxedTask,
        limits: LandmarkLimits,
        stop: &dyn Fn() -> bool,
    ) -> Self {
        let props = rt.props();
        let mut init = vec![false; props];
        for &f in &task.init_facts {
            if (f as usize) < rt.facts {
                init[f as usize] = true;
            }
        }
        init[rt.true_prop() as usize] = true;
        let mut explorer = Explorer::new(rt, &init);
        explorer.explore(rt, &[]);
        let reachable_from_init = explorer.reached.clone();
        // Predicates as small numbers, to group preconditions.
        let mut predicate_ids: HashMap<&str, u32> = HashMap::new();
        let predicate_of: Vec<u32> = task
            .facts
            .iter()
            .map(|a| {
                let next = predicate_ids.len() as u32;
                *predicate_ids.entry(a.predicate.as_str()).or_insert(next)
            })
            .collect();
        let mut b = Builder {
            graph: LandmarkGraph {
                facts: Vec::new(),
                is_goal: Vec::new(),
                initially_true: Vec::new(),
                reachable: Vec::new(),
                orderings: Vec::new(),
                natural: Vec::new(),
                reasonable: Vec::new(),
                truncated: false,
            },
            limits,
            init: &init,
            reachable: &reachable_from_init,
            landmark_of: vec![u32::MAX; rt.facts],
            disjunctions: HashMap::new(),
            in_disjunction: vec![false; rt.facts],
            orderings_seen: HashSet::new(),
            natural_seen: HashSet::new(),
        };
        for &g in &task.goal.pos {
            if (g as usize) < rt.facts {
                b.add(&[g], true);
            }
        }
        // Per proposition: how many first achievers of the current
        // landmark have it as precondition (valid where `seen == stamp`).
        let mut shared_count = vec![0u32; props];
        let mut seen = vec![0u32; props];
        let mut touched: Vec<u32> = Vec::new();
        // Per relaxed operator: the landmark it was last counted for.
        let mut op_seen = vec![u32::MAX; rt.ops.len()];
        let mut first_achievers: Vec<u32> = Vec::new();
        // Per predicate: how many first achievers have a precondition of
        // it (`pred_count`, valid where `pred_seen` is the landmark's
        // stamp), the last achiever counted, and those preconditions.
        let predicates = predicate_ids.len();
        let mut pred_seen = vec![0u32; predicates];
        let mut pred_count = vec![0u32; predicates];
        let mut pred_last = vec![u32::MAX; predicates];
        let mut pred_facts: Vec<Vec<FactId>> = vec![Vec::new(); predicates];
        let mut pred_touched: Vec<u32> = Vec::new();
        let mut work: u64 = 0;
        let mut stopped = false;
        let mut next = 0;
        let mut excluded: Vec<u32> = Vec::new();
        // Per processed landmark: its range in `unreached`.
        let mut unreached: Vec<FactId> = Vec::new();
        let mut unreached_of: Vec<(u32, usize, usize)> = Vec::new();
        let mut unreached_kept = 0;
        // Per operator (axioms after them): the landmark it was last
        // marked as an achiever of.
        let operators = task.operators.len();
        let mut achieves_lm = vec![u32::MAX; operators + rt.ops.len()];
        while next < b.graph.facts.len() {
            let lm = next as u32;
            next += 1;
            if b.graph.initially_true[lm as usize] || !b.graph.reachable[lm as usize] {
                continue;
            }
            work += explorer.cost;
            stopped = stop();
            if work > limits.max_work || stopped {
                b.graph.truncated = true;
                break;
            }
            excluded.clone_from(&b.graph.facts[lm as usize]);
            explorer.explore(rt, &excluded);
            // Facts unreachable without `lm`: it is naturally ordered
            // before those that turn out to be landmarks.
            // (Not facts added by an achiever of `lm` itself: they may
            // come at the same time.)
            if unreached_kept < MAX_FORWARD_FACTS {
                for &f in &excluded {
                    for &o in rt.achievers.get(f) {
                        achieves_lm[achiever_key(rt, operators, o)] = lm;
                    }
                }
                let start = unreached.len();
                unreached.extend((0..rt.facts as u32).filter(|&f| {
                    reachable_from_init[f as usize]
                        && !explorer.reached[f as usize]
                        && !excluded.contains(&f)
                        && rt
                            .achievers
                            .get(f)
                            .iter()
                            .all(|&o| achieves_lm[achiever_key(rt, operators, o)] != lm)
                }));
                unreached_kept += unreached.len() - start;
                unreached_of.push((lm, start, unreached.len()));
            }
            let stamp = lm + 1;
            first_achievers.clear();
            for &f in &excluded {
                for &o in rt.achievers.get(f) {
                    if op_seen[o as usize] != lm
                        && rt.pre(o).iter().all(|&q| explorer.reached[q as usize])
                    {
                        op_seen[o as usize] = lm;
                        first_achievers.push(o);
                    }
                }
            }
            touched.clear();
            for &o in &first_achievers {
                for &q in rt.pre(o) {
                    if seen[q as usize] != stamp {
                        seen[q as usize] = stamp;
                        shared_count[q as usize] = 0;
                        touched.push(q);
                    }
                    shared_count[q as usize] += 1;
                }
            }
            let achievers = first_achievers.len() as u32;
            for &q in &touched {
                // Only facts: not the artificial always-true proposition.
                if shared_count[q as usize] == achievers
                    && (q as usize) < rt.facts
                    && let Some(before) = b.add(&[q], false)
                {
                    b.order(before, lm);
                }
            }
            if !limits.disjunctive || achievers < 2 {
                continue;
            }
            pred_touched.clear();
            for (i, &o) in first_achievers.iter().enumerate() {
                for &q in rt.pre(o) {
                    let Some(&p) = predicate_of.get(q as usize) else {
                        continue; // the always-true proposition
                    };
                    let pi = p as usize;
                    if pred_seen[pi] != stamp {
                        pred_seen[pi] = stamp;
                        pred_count[pi] = 0;
                        pred_last[pi] = u32::MAX;
                        pred_facts[pi].clear();
                        pred_touched.push(p);
                    }
                    if pred_last[pi] != i as u32 {
                        pred_last[pi] = i as u32;
                        pred_count[pi] += 1;
                    }
                    pred_facts[pi].push(q);
                }
            }
            for &p in &pred_touched {
                let pi = p as usize;
                if pred_count[pi] != achievers {
                    continue;
                }
                let mut set = std::mem::take(&mut pred_facts[pi]);
                set.sort_unstable();
                set.dedup();
                let useful = (2..=MAX_DISJUNCTION).contains(&set.len())
                    && set
                        .iter()
                        .all(|&f| !init[f as usize] && b.landmark_of[f as usize] == u32::MAX);
                if useful && let Some(before) = b.add(&set, false) {
                    b.order(before, lm);
                }
                pred_facts[pi] = set;
            }
        }
        for &(lm, start, end) in &unreached_of {
            for &f in &unreached[start..end] {
                let after = b.landmark_of[f as usize];
                if after != u32::MAX
                    && after != lm
                    && !b.orderings_seen.contains(&(lm, after))
                    && b.natural_seen.insert((lm, after))
                {
                    b.graph.natural.push((lm, after));
                }
            }
        }
        let mut graph = b.graph;
        if limits.reasonable_orderings
            && graph.len() > 1
            && !stopped
            && let Some(mutexes) = mutex::Mutexes::compute_within(task, limits.max_mutex_work, stop)
        {
            let budget = limits.max_work.saturating_sub(work);
            let (reasonable, complete) =
                reasonable::reasonable_orderings(task, &graph, &mutexes, budget, stop);
            graph.reasonable = reasonable;
            graph.truncated |= !complete;
        }
        graph
    }

    /// Number of landmarks.
    pub fn len(&self) -> usize {
        self.facts.len()
    }

    /// Whether there is no landmark (no positive goal).
    pub fn is_empty(&self) -> bool {
        self.facts.is_empty()
    }
}

/// The operator behind relaxed operator `o` (so that the pieces of one
/// operator with conditional effects count as one), or, for an axiom, a
/// key past the operators.
fn achiever_key(rt: &RelaxedTask, operators: usize, o: u32) -> usize {
    match rt.ops[o as usize].origin {
        Some(op) => op as usize,
        None => operators + o as usize,
    }
}

/// Relaxed reachability from the initial state, optionally with every
/// achiever of some propositions removed.
struct Explorer {
    /// Per proposition: reached in the latest exploration.
    reached: Vec<bool>,
    /// Per relaxed operator: preconditions not reached yet.
    unsatisfied: Vec<u32>,
    unsatisfied_init: Vec<u32>,
    init: Vec<bool>,
    queue: Vec<u32>,
    /// Work units of one exploration (pool sizes and propositions).
    cost: u64,
}

impl Explorer {
    fn new(rt: &RelaxedTask, init: &[bool]) -> Self {
        let unsatisfied_init: Vec<u32> = rt.ops.iter().map(|op| op.pre.1 - op.pre.0).collect();
        Explorer {
            reached: vec![false; rt.props()],
            unsatisfied: unsatisfied_init.clone(),
            unsatisfied_init,
            init: init.to_vec(),
            queue: Vec::new(),
            cost: (rt.pre_pool.len() + rt.eff_pool.len() + rt.props() + rt.ops.len()) as u64,
        }
    }

    /// Fills `reached`; operators adding one of `excluded` never fire.
    fn explore(&mut self, rt: &RelaxedTask, excluded: &[u32]) {
        self.reached.copy_from_slice(&self.init);
        self.unsatisfied.copy_from_slice(&self.unsatisfied_init);
        self.queue.clear();
        self.queue.extend(
            self.init
                .iter()
                .enumerate()
                .filter(|&(_, &r)| r)
                .map(|(p, _)| p as u32),
        );
        while let Some(p) = self.queue.pop() {
            for &o in rt.precondition_of.get(p) {
                let left = &mut self.unsatisfied[o as usize];
                *left -= 1;
                if *left != 0 {
                    continue;
                }
                let eff = rt.eff(o);
                if eff.iter().any(|e| excluded.contains(e)) {
                    continue;
                }
                for &e in eff {
                    if !self.reached[e as usize] {
                        self.reached[e as usize] = true;
                        self.queue.push(e);
                    }
                }
            }
        }
    }
}
