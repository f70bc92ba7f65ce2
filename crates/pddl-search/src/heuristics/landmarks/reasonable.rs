//! Reasonable orderings between fact landmarks, approximated as
//! Hoffmann, Porteous & Sebastia (2004) (and Fast Downward's
//! `reasonable_orders_hps`).
//!
//! `x` is reasonably ordered before `l` when achieving `x` after `l`
//! would destroy `l` again, i.e. `x` *interferes* with `l`: `x` and `l`
//! are mutex, or every achiever of `x` adds a fact mutex with `l`, or
//! every achiever of `x` deletes `l`. Candidates (so that both must be
//! achieved at some point and `l` cannot simply be achieved last): for a
//! goal `l`, every other fact landmark; for another `l`, the other
//! greedy-necessary or natural parents of `l`'s greedy-necessary children,
//! and their ancestors. In blocks-world, with goal tower A on B on C, `on(B,C)` is
//! reasonably before `on(A,B)`: stacking B onto C needs B clear.

use hashbrown::HashSet;
use pddl_ground::Task;
use pddl_ground::task::FactId;

use super::LandmarkGraph;
use super::mutex::Mutexes;
use crate::heuristics::relaxation::Adjacency;

/// Most reasonable orderings kept (a bound on memory; the orderings only
/// guide the search, so fewer is safe).
pub const MAX_REASONABLE_ORDERINGS: usize = 1 << 20;

/// What every achiever of a fact landmark does besides adding it.
#[derive(Default)]
struct SharedEffects {
    /// Whether the landmark has an applicable achiever (else the sets
    /// below say nothing).
    achieved: bool,
    /// Facts added by every achiever, sorted.
    add: Vec<FactId>,
    /// Facts deleted (and not added) by every achiever, sorted.
    del: Vec<FactId>,
}

/// Intersects the sorted `set` with the sorted `other` in place.
fn intersect(set: &mut Vec<FactId>, other: &[FactId]) {
    set.retain(|f| other.binary_search(f).is_ok());
}

/// Per landmark id: the shared effects of its achievers (fact landmarks
/// only; operators h² shows inapplicable are left out, as they never
/// apply).
fn shared_effects(task: &Task, graph: &LandmarkGraph, mutexes: &Mutexes) -> Vec<SharedEffects> {
    let mut landmark_of = vec![u32::MAX; task.facts.len()];
    for (l, facts) in graph.facts.iter().enumerate() {
        if let [f] = facts[..]
            && let Some(slot) = landmark_of.get_mut(f as usize)
        {
            *slot = l as u32;
        }
    }
    let mut shared: Vec<SharedEffects> =
        (0..graph.len()).map(|_| SharedEffects::default()).collect();
    let mut record = |lm: u32, add: &[FactId], del: &[FactId]| {
        let s = &mut shared[lm as usize];
        if s.achieved {
            intersect(&mut s.add, add);
            intersect(&mut s.del, del);
        } else {
            s.achieved = true;
            s.add = add.to_vec();
            s.del = del.to_vec();
        }
    };
    for (o, op) in task.operators.iter().enumerate() {
        let touches = |adds: &[FactId]| {
            adds.iter()
                .any(|&f| landmark_of.get(f as usize).is_some_and(|&l| l != u32::MAX))
        };
        let any_conditional = op.conditional.iter().any(|c| touches(&c.add));
        if !(touches(&op.add) || any_conditional) || !mutexes.applicable(task, o) {
            continue;
        }
        let effects = |extra_add: &[FactId], extra_del: &[FactId]| {
            let mut add: Vec<FactId> = op.add.iter().chain(extra_add).copied().collect();
            add.sort_unstable();
            add.dedup();
            let mut del: Vec<FactId> = op
                .del
                .iter()
                .chain(extra_del)
                .copied()
                .filter(|f| add.binary_search(f).is_err())
                .collect();
            del.sort_unstable();
            del.dedup();
            (add, del)
        };
        if touches(&op.add) {
            let (add, del) = effects(&[], &[]);
            for &f in &op.add {
                if let Some(&l) = landmark_of.get(f as usize)
                    && l != u32::MAX
                {
                    record(l, &add, &del);
                }
            }
        }
        for c in &op.conditional {
            if !touches(&c.add) {
                continue;
            }
            let (add, del) = effects(&c.add, &c.del);
            for &f in &c.add {
                if let Some(&l) = landmark_of.get(f as usize)
                    && l != u32::MAX
                {
                    record(l, &add, &del);
                }
            }
        }
    }
    shared
}

/// Finds the reasonable orderings `(before, after)` between the fact
/// landmarks of `graph` (greedy-necessary `orderings` and `natural` ones), with at
/// most about `max_work` interference tests, asking `stop` after each
/// landmark's; also says whether it went through all landmarks (false
/// where `stop` ended it early).
pub fn reasonable_orderings(
    task: &Task,
    graph: &LandmarkGraph,
    mutexes: &Mutexes,
    max_work: u64,
    stop: &dyn Fn() -> bool,
) -> (Vec<(u32, u32)>, bool) {
    let n = graph.len();
    let shared = shared_effects(task, graph, mutexes);
    let single = |l: u32| match graph.facts[l as usize][..] {
        [f] => Some(f),
        _ => None,
    };
    // Whether achieving landmark `x` destroys fact `l`.
    let interferes = |x: u32, l: FactId| -> bool {
        let Some(xf) = single(x) else { return false };
        if xf == l {
            return false;
        }
        if mutexes.are_mutex(xf, l) {
            return true;
        }
        let s = &shared[x as usize];
        s.achieved
            && (s.del.binary_search(&l).is_ok()
                || s.add
                    .iter()
                    .any(|&e| e != xf && e != l && mutexes.are_mutex(e, l)))
    };
    // Greedy-necessary and natural predecessors.
    let parents = Adjacency::build(
        n,
        graph
            .orderings
            .iter()
            .chain(&graph.natural)
            .map(|&(a, b)| (b, a)),
    );
    let children = Adjacency::build(n, graph.orderings.iter().copied());
    // Stronger orderings already there.
    let necessary: HashSet<(u32, u32)> = graph
        .orderings
        .iter()
        .chain(&graph.natural)
        .copied()
        .collect();
    let mut found: Vec<(u32, u32)> = Vec::new();
    let mut seen: HashSet<(u32, u32)> = HashSet::new();
    let mut work: u64 = 0;
    let mut add = |x: u32, l: u32, found: &mut Vec<(u32, u32)>| {
        if x != l
            && !necessary.contains(&(x, l))
            && found.len() < MAX_REASONABLE_ORDERINGS
            && seen.insert((x, l))
        {
            found.push((x, l));
        }
    };
    // Candidates of one landmark, deduplicated by `mark == stamp`.
    let mut mark = vec![u32::MAX; n];
    let mut candidates: Vec<u32> = Vec::new();
    let mut stack: Vec<u32> = Vec::new();
    for l in 0..n as u32 {
        let Some(lf) = single(l) else { continue };
        if graph.is_goal[l as usize] {
            for x in 0..n as u32 {
                work += 1;
                if x != l && interferes(x, lf) {
                    add(x, l, &mut found);
                }
            }
        } else {
            candidates.clear();
            for &child in children.get(l) {
                for &parent in parents.get(child) {
                    if parent == l || single(parent).is_none() || mark[parent as usize] == l {
                        continue;
                    }
                    // The parent and its ancestors.
                    mark[parent as usize] = l;
                    stack.push(parent);
                    while let Some(a) = stack.pop() {
                        candidates.push(a);
                        for &p in parents.get(a) {
                            if mark[p as usize] != l {
                                mark[p as usize] = l;
                                stack.push(p);
                            }
                        }
                    }
                }
            }
            for &x in &candidates {
                work += 1;
                if x != l && interferes(x, lf) {
                    add(x, l, &mut found);
                }
            }
        }
        if work > max_work {
            break;
        }
        if stop() {
            return (found, false);
        }
    }
    (found, true)
}
