//! Lazy best-first search (as Fast Downward's lazy search, used by LAMA):
//! the open list holds (parent, operator) pairs keyed by the parent's h
//! (greedy) or by the successor's `g` plus the parent's `w·h` (weighted
//! A*, LAMA's later iterations, which also reopen a state reached by a
//! cheaper path); a successor is generated and evaluated only when its
//! entry is popped. Preferred operators go to a second list that an
//! alternation open list favours, boosted on every new best h, and are
//! pushed first so that they win ties. With several heuristics (e.g.
//! h_FF and goal count, LAMA-style), each has its own lists in the
//! alternation; every one supplies preferred operators (LAMA: h_FF's and
//! landmark count's), a state is a dead end when any of them says so, and
//! progress on any of them boosts. Path-dependent heuristics are told of
//! every transition before the new state is evaluated.

use pddl_ground::task::{Cost, OperatorId};

use crate::heuristics::Heuristic;
use crate::open_lists::{Key, OpenList};
use crate::result::Outcome;
use crate::search_algorithms::{
    IterationResult, Monitor, NO_PARENT, Node, Priority, Status, extract_plan, memory_estimate,
    new_registry, settle_successor, skips_forced,
};
use crate::state::StateId;
use crate::successor::StateSpace;

/// Parameters of one lazy search.
#[derive(Clone, Copy, Debug)]
pub struct LazyParams {
    /// How entries are ordered: [`Priority::Greedy`] by the parent's `h`;
    /// [`Priority::AStar`] and [`Priority::Weighted`] by the successor's
    /// `g` plus the parent's (weighted) `h`, reopening states reached
    /// again by a cheaper path.
    pub priority: Priority,
    /// Use the heuristics' preferred operators (the open list should
    /// favour preferred entries, e.g. an alternation list).
    pub preferred: bool,
    /// Prune successors whose `g` reaches this bound.
    pub bound: Cost,
    /// Put in place of each successor the state reached by following
    /// forced transitions from it ([`StateSpace::follow_forced`]); ignored
    /// with a path-dependent heuristic, which must see every transition.
    pub follow_forced: bool,
}

/// Runs lazy greedy search.
pub fn run<O: OpenList<(StateId, OperatorId)>>(
    space: &mut StateSpace<'_>,
    heuristics: &mut [&mut dyn Heuristic],
    params: LazyParams,
    mut open: O,
    monitor: &mut Monitor<'_>,
) -> IterationResult {
    let LazyParams {
        priority,
        preferred,
        bound,
        follow_forced,
    } = params;
    monitor.start_search(priority);
    let task = space.task;
    let mut registry = new_registry(space, heuristics);
    let mut nodes: Vec<Node> = Vec::new();
    let mut fluents = Vec::new();
    let mut preferred_ops = Vec::new();
    let mut preferred_stamp: Vec<u64> = vec![0; if preferred { task.operators.len() } else { 0 }];
    let mut ops = Vec::new();
    let mut succ = space.initial_state();
    // The state of the parent of the entry popped last, and its id.
    let mut parent_state = Vec::new();
    let mut loaded = NO_PARENT;
    let mut parent = NO_PARENT;
    let mut via: OperatorId = 0;
    let mut g: Cost = 0;
    let mut expansion: u64 = 0;
    let mut keys: Vec<Key> = vec![[0, 0]; heuristics.len()];
    let mut best: Vec<Cost> = vec![Cost::MAX; heuristics.len()];
    let skip_forced = skips_forced(follow_forced, space, heuristics);
    let reopen = priority != Priority::Greedy;
    // Per heuristic, the key of one entry under a weighted order (each
    // entry's successor has its own `g`).
    let mut entry_keys: Vec<Key> = vec![[0, 0]; heuristics.len()];
    loop {
        // `succ` is the state to handle: reached from `parent` by `via`.
        let Some((id, new)) = registry.insert(&succ) else {
            return IterationResult::stopped(Outcome::MemoryLimit);
        };
        // Path-dependent heuristics learn of every transition, also to
        // states seen before.
        for h in heuristics.iter_mut() {
            let view = space.view(&succ, &mut fluents);
            if parent == NO_PARENT {
                h.notify_initial_state(id, view);
            } else {
                h.notify_transition(parent, via, id, view);
            }
        }
        // A weighted search reached a known state by a cheaper path: it is
        // expanded again from there (its evaluation repeated, which also
        // gives every heuristic's value again).
        let reopened = !new && reopen && {
            let node = &nodes[id as usize];
            g < node.g && node.status != Status::DeadEnd
        };
        if new || reopened {
            let node = Node {
                parent,
                op: via,
                g,
                h: 0,
                status: Status::Closed,
            };
            if new {
                nodes.push(node);
            } else {
                // With symmetry reduction `succ` may be another member of
                // the stored state's orbit; the entries pushed below are
                // applied to the stored one, so it is the one expanded.
                registry.load(id, &mut succ);
                nodes[id as usize] = node;
            }
            if space.is_goal(&succ) {
                monitor.record(
                    registry.len(),
                    memory_estimate(&registry, &nodes, open.memory_bytes(), heuristics),
                );
                return IterationResult {
                    outcome: Outcome::Solved,
                    plan: Some(extract_plan(space, &mut registry, &nodes, id)),
                };
            }
            preferred_ops.clear();
            let mut dead_end = false;
            let mut progress = false;
            for (i, h) in heuristics.iter_mut().enumerate() {
                monitor.stats.evaluated += 1;
                let pref = preferred.then_some(&mut preferred_ops);
                match h.evaluate_registered(id, space.view(&succ, &mut fluents), pref) {
                    None => {
                        dead_end = true;
                        break;
                    }
                    Some(v) => {
                        // Later heuristics break ties by the first one's value.
                        keys[i] = [v, if i == 0 { 0 } else { keys[0][0] }];
                        if v < best[i] {
                            best[i] = v;
                            progress = true;
                        }
                    }
                }
            }
            if dead_end {
                nodes[id as usize].status = Status::DeadEnd;
            } else {
                let h = keys[0][0];
                nodes[id as usize].h = h;
                monitor.note_h(h);
                if progress {
                    open.boost_preferred();
                }
                monitor.stats.expanded += 1;
                expansion += 1;
                for &o in &preferred_ops {
                    preferred_stamp[o as usize] = expansion;
                }
                space.applicable(&succ, &mut ops);
                // Preferred first, so they win ties on h.
                let is_preferred = |o: OperatorId| preferred_stamp[o as usize] == expansion;
                let passes: &[bool] = if preferred { &[true, false] } else { &[false] };
                for &first in passes {
                    for &o in ops
                        .iter()
                        .filter(|&&o| !preferred || is_preferred(o) == first)
                    {
                        let keys = if priority == Priority::Greedy {
                            &keys
                        } else {
                            let succ_g = g.saturating_add(task.operators[o as usize].cost);
                            for (entry, key) in entry_keys.iter_mut().zip(&keys) {
                                *entry = priority.key(succ_g, key[0]);
                            }
                            &entry_keys
                        };
                        open.push_keys(keys, (id, o), first);
                    }
                }
            }
        }
        // Next entry whose successor is worth generating.
        loop {
            let Some((p, o)) = open.pop() else {
                monitor.check((
                    registry.len(),
                    memory_estimate(&registry, &nodes, open.memory_bytes(), heuristics),
                ));
                return IterationResult::stopped(Outcome::Unsolvable);
            };
            if let Some(stop) = monitor.tick(|| {
                (
                    registry.len(),
                    memory_estimate(&registry, &nodes, open.memory_bytes(), heuristics),
                )
            }) {
                return IterationResult::stopped(stop);
            }
            let new_g = nodes[p as usize]
                .g
                .saturating_add(task.operators[o as usize].cost);
            if loaded != p {
                registry.load(p, &mut parent_state);
                loaded = p;
            }
            if new_g >= bound || !space.apply(&parent_state, o, &mut succ) {
                continue;
            }
            let Some(new_g) = settle_successor(space, &mut succ, new_g, bound, skip_forced) else {
                continue;
            };
            monitor.stats.generated += 1;
            parent = p;
            via = o;
            g = new_g;
            break;
        }
    }
}
