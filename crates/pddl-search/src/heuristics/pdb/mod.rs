//! Pattern databases: admissible, and additive across patterns that no
//! costly operator changes together.
//!
//! The task's facts are grouped into finite-domain [`variables`](crate::variables). Each
//! goal fact gets a pattern: its variable and the variables its achieving
//! effects are conditioned on (for a conditional effect, its own
//! condition, not the operator's precondition, which mostly holds phase
//! or control facts that every operator shares). Patterns that share
//! variables are merged while they stay within [`Limits::max_states`].
//! Each pattern's [`Projection`] is searched backwards once, when the
//! heuristic is built; evaluating a state is one table lookup per
//! pattern.
//!
//! Two patterns are additive when no operator of positive cost writes
//! variables of both: then a plan pays for each pattern's part with
//! different operators, and the sum of their distances is still a lower
//! bound. The estimate is the largest such sum over a few sets of
//! pairwise additive patterns (each found greedily from one pattern), the
//! canonical heuristic's idea restricted to those sets.
//!
//! Where it pays off: goals that need several objects brought together.
//! In Puzznic a kind of three tiles clears only when all three meet; the
//! delete relaxation lets each tile be everywhere it has been, and LM-cut
//! or h_max see little of that, while the projection onto the three tiles'
//! positions counts the pushes exactly (ignoring the other tiles), and the
//! kinds add up. Numeric conditions and derived facts are ignored (any
//! condition on them may hold), which keeps it admissible.

mod projection;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use hashbrown::HashMap;
use pddl_ground::Task;
use pddl_ground::task::{Conjunction, Cost, FactId, OperatorId};

use super::{BuildResources, CostType, Heuristic};
use crate::heuristics::relaxation::INFINITE;
use crate::state::StateView;
use crate::variables::Variables;
pub use projection::{Limits, PatternDatabase, Projection};

/// Limits of each database built by [`PatternDatabases::new`].
///
/// 64 000 000 units of work (see [`Limits::max_work`]) take about 2 s;
/// the transitions among them (fewer, 8 bytes each) are what the build
/// holds in memory. On Puzznic, larger patterns (a kind of four or five
/// tiles with all their `gone` facts) cost more time than they saved,
/// while level 062 needs two of 41 and 56 million.
pub const LIMITS: Limits = Limits {
    max_states: 4_000_000,
    max_work: 64_000_000,
    max_outcomes: 1 << 12,
};
/// Work of all databases together (about 4 s): bounds the time spent
/// before the search starts. It is work, not time, so that the heuristic
/// is the same on every run.
pub const WORK_BUDGET: usize = 128_000_000;

/// Patterns kept (the smallest): bounds the work of choosing them and of
/// finding the additive sets (e.g. visitall's thousands of goals, each
/// with the robot's position).
const MAX_PATTERNS: usize = 128;

/// The pattern database heuristic.
#[derive(Clone, Debug)]
pub struct PatternDatabases {
    tables: Arc<Tables>,
    /// Per variable, its value in the state being evaluated (only the
    /// variables of some pattern are filled).
    values: Vec<u32>,
    distances: Vec<Cost>,
}

#[derive(Debug)]
struct Tables {
    variables: Variables,
    databases: Vec<PatternDatabase>,
    /// Sets of pairwise additive databases (indices), each summed.
    additive_sets: Vec<Vec<usize>>,
    /// The variables of some pattern.
    used: Vec<u32>,
}

impl PatternDatabases {
    /// Builds the databases for a task under a cost type, on one thread.
    pub fn new(task: &Task, cost_type: CostType) -> Self {
        Self::with_resources(task, cost_type, BuildResources::UNLIMITED)
    }

    /// Builds the databases with `resources` (threads, memory, a stop
    /// check). Which patterns
    /// are built is decided first, on one thread, from their estimated
    /// work (smaller patterns first, within [`WORK_BUDGET`] and
    /// [`Limits::max_work`] each), so the result is the same
    /// whatever the number of threads. A database whose build would hold
    /// more than `resources.max_bytes` is left out, and so are those not
    /// built yet once `resources.stop` says to stop.
    pub fn with_resources(task: &Task, cost_type: CostType, resources: BuildResources<'_>) -> Self {
        let variables = Variables::new(task);
        // Smallest first (select_patterns sorts them so).
        let patterns = select_patterns(task, &variables, LIMITS.max_states);
        let mut chosen = Vec::new();
        let mut budget = WORK_BUDGET;
        for pattern in &patterns {
            // Projecting looks at every operator; sampling costs its work.
            budget = budget.saturating_sub(task.operators.len());
            if budget == 0 || (resources.stop)() {
                break;
            }
            let Some(projection) = Projection::new(task, &variables, pattern, cost_type, LIMITS)
            else {
                continue;
            };
            match projection.estimate_work() {
                Some((sampled, n)) if n <= LIMITS.max_work && n + sampled <= budget => {
                    budget -= n + sampled;
                    chosen.push(projection);
                }
                Some((sampled, _)) => budget = budget.saturating_sub(sampled),
                None => {}
            }
        }
        let databases = build_all(&chosen, resources);
        let additive_sets = additive_sets(&databases);
        let mut used: Vec<u32> = databases
            .iter()
            .flat_map(|d| d.pattern.iter().copied())
            .collect();
        used.sort_unstable();
        used.dedup();
        let values = vec![0; variables.facts.len()];
        let distances = vec![0; databases.len()];
        PatternDatabases {
            tables: Arc::new(Tables {
                variables,
                databases,
                additive_sets,
                used,
            }),
            values,
            distances,
        }
    }

    /// The patterns (variables, each a set of facts), for reports and tests.
    pub fn patterns(&self) -> impl Iterator<Item = Vec<&[FactId]>> + '_ {
        let t = &self.tables;
        t.databases.iter().map(|d| {
            d.pattern
                .iter()
                .map(|&v| t.variables.facts[v as usize].as_slice())
                .collect()
        })
    }
}

impl Heuristic for PatternDatabases {
    fn fork(&self) -> Option<Box<dyn Heuristic + Send>> {
        Some(Box::new(self.clone()))
    }

    /// The tables (one copy, shared with the forks).
    fn memory_bytes(&self) -> u64 {
        self.tables
            .databases
            .iter()
            .map(PatternDatabase::memory_bytes)
            .sum()
    }

    fn evaluate(&mut self, state: StateView<'_>, _: Option<&mut Vec<OperatorId>>) -> Option<Cost> {
        let t = &*self.tables;
        for &v in &t.used {
            let facts = &t.variables.facts[v as usize];
            self.values[v as usize] = facts
                .iter()
                .position(|&f| state.has(f))
                .unwrap_or(facts.len()) as u32;
        }
        for (d, db) in self.distances.iter_mut().zip(&t.databases) {
            *d = db.distance(&self.values);
            if *d == INFINITE {
                return None;
            }
        }
        let best = t
            .additive_sets
            .iter()
            .map(|set| {
                set.iter()
                    .fold(0 as Cost, |sum, &i| sum.saturating_add(self.distances[i]))
            })
            .max()
            .unwrap_or(0);
        Some(best)
    }
}

/// Builds the chosen projections' databases in order, on up to two of
/// `resources.threads` threads (each takes the next unbuilt one); those
/// that turn out larger than [`Limits::max_work`], or than half of
/// `resources.max_bytes` (two builds may run at once; half on one thread
/// too, so that the tables do not depend on the threads), are left out.
fn build_all(chosen: &[Projection], resources: BuildResources<'_>) -> Vec<PatternDatabase> {
    let stop = resources.stop;
    let threads = resources.threads.clamp(1, 2).min(chosen.len().max(1));
    let max_bytes = resources.max_bytes.map(|m| m / 2);
    let next = AtomicUsize::new(0);
    let built: Vec<Mutex<Option<PatternDatabase>>> =
        chosen.iter().map(|_| Mutex::new(None)).collect();
    let work = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(projection) = chosen.get(i) else {
                break;
            };
            let db = projection.build(LIMITS.max_work, max_bytes, stop);
            *built[i].lock().unwrap_or_else(|e| e.into_inner()) = db;
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(work);
        }
        work();
    });
    built
        .into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

/// One pattern per goal fact (its variable and the variables its
/// achievers' effects are conditioned on, as many as fit), then patterns
/// that share variables merged where they fit; sorted and distinct.
fn select_patterns(task: &Task, variables: &Variables, max_states: usize) -> Vec<Vec<u32>> {
    let size = |pattern: &[u32]| -> Option<usize> {
        pattern
            .iter()
            .try_fold(1usize, |n, &v| n.checked_mul(variables.domain_size(v)))
            .filter(|&n| n <= max_states)
    };
    let goals: Vec<FactId> = task
        .goal
        .pos
        .iter()
        .chain(&task.goal.neg)
        .copied()
        .filter(|&g| variables.var(g).is_some())
        .collect();
    // Variables the achievers of each goal are conditioned on, in one
    // pass over the operators.
    let mut goal_index: HashMap<FactId, usize> = HashMap::new();
    for &g in &goals {
        let next = goal_index.len();
        goal_index.entry(g).or_insert(next);
    }
    let mut related: Vec<Vec<u32>> = vec![Vec::new(); goal_index.len()];
    let mut note = |i: usize, condition: &Conjunction| {
        for v in condition
            .pos
            .iter()
            .chain(&condition.neg)
            .filter_map(|&f| variables.var(f))
        {
            if !related[i].contains(&v) {
                related[i].push(v);
            }
        }
    };
    for op in &task.operators {
        for &f in &op.add {
            if let Some(&i) = goal_index.get(&f) {
                note(i, &op.precondition);
            }
        }
        for e in &op.conditional {
            for &f in &e.add {
                if let Some(&i) = goal_index.get(&f) {
                    note(i, &e.condition);
                }
            }
        }
    }
    let mut goals_in_order: Vec<(FactId, usize)> = goal_index.into_iter().collect();
    goals_in_order.sort_unstable_by_key(|&(_, i)| i);
    let mut patterns: Vec<Vec<u32>> = Vec::new();
    for (g, i) in goals_in_order {
        let goal_var = variables.var(g).expect("filtered above");
        let mut pattern = vec![goal_var];
        for &v in related[i].iter().filter(|&&v| v != goal_var) {
            pattern.push(v);
            if size(&pattern).is_none() {
                pattern.pop();
            }
        }
        pattern.sort_unstable();
        patterns.push(pattern);
    }
    // Merge patterns that share a variable while the union fits, in
    // passes until none merges.
    let mut merged = true;
    while merged {
        merged = false;
        for i in 0..patterns.len() {
            let mut j = i + 1;
            while j < patterns.len() {
                if patterns[i].iter().any(|v| patterns[j].contains(v)) {
                    let mut union = patterns[i].clone();
                    union.extend_from_slice(&patterns[j]);
                    union.sort_unstable();
                    union.dedup();
                    if size(&union).is_some() {
                        patterns[i] = union;
                        patterns.remove(j);
                        merged = true;
                        continue;
                    }
                }
                j += 1;
            }
        }
    }
    patterns.sort();
    patterns.dedup();
    // The smallest ones, if there are too many.
    patterns.sort_by_key(|p| size(p));
    patterns.truncate(MAX_PATTERNS);
    patterns
}

/// For each database, a set of pairwise additive databases containing it
/// (grown greedily in index order); distinct sets.
fn additive_sets(databases: &[PatternDatabase]) -> Vec<Vec<usize>> {
    let writers = |d: usize| databases[d].costly_writers.as_slice();
    let disjoint = |a: &[u32], b: &[u32]| {
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].cmp(&b[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => return false,
            }
        }
        true
    };
    let mut sets: Vec<Vec<usize>> = Vec::new();
    for start in 0..databases.len() {
        let mut set = vec![start];
        for other in 0..databases.len() {
            if other != start && set.iter().all(|&m| disjoint(writers(m), writers(other))) {
                set.push(other);
            }
        }
        set.sort_unstable();
        if !sets.contains(&set) {
            sets.push(set);
        }
    }
    sets
}

#[cfg(test)]
mod tests;
