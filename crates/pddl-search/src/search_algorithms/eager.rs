//! Eager best-first search: successors are evaluated when generated.
//! A* (`f = g + h`, ties to lower h), weighted A* (`f = g + w·h`) and
//! greedy search (`h`), with optional reopening, preferred operators
//! and a cost bound (successors with `g ≥ bound` are pruned).

use pddl_ground::task::Cost;

use crate::heuristics::Heuristic;
use crate::open_lists::{Key, OpenList};
use crate::result::Outcome;
use crate::search_algorithms::{
    IterationResult, Monitor, NO_PARENT, Node, Status, extract_plan, memory_estimate, new_registry,
    settle_successor, skips_forced,
};
use crate::state::StateId;
use crate::successor::StateSpace;

/// What the open list is ordered by.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Priority {
    /// `g + h`, then `h` (A*).
    AStar,
    /// `g + w·h`, then `h` (weighted A*, `w ≥ 1`).
    Weighted(f64),
    /// `h` (greedy best-first).
    Greedy,
}

impl Priority {
    #[inline]
    fn key(self, g: Cost, h: Cost) -> Key {
        match self {
            Priority::AStar => [g.saturating_add(h), h],
            // Non-negative f64 values order like their bit patterns.
            Priority::Weighted(w) => [(g as f64 + w * h as f64).to_bits(), h],
            Priority::Greedy => [h, 0],
        }
    }
}

/// Parameters of one eager search.
#[derive(Clone, Copy, Debug)]
pub struct EagerParams {
    /// Open-list order.
    pub priority: Priority,
    /// Reopen closed states reached by a cheaper path.
    pub reopen: bool,
    /// Use the heuristic's preferred operators (the open list should
    /// favour preferred entries, e.g. an alternation list).
    pub preferred: bool,
    /// Prune successors whose `g` reaches this bound.
    pub bound: Cost,
    /// Put in place of each successor the state reached by following
    /// forced transitions from it ([`StateSpace::follow_forced`]); ignored
    /// with a path-dependent heuristic, which must see every transition.
    pub follow_forced: bool,
}

/// Runs an eager best-first search with the given open list. With
/// several heuristics (greedy search only), the open list gets one key
/// per heuristic, the first supplies `h`, every one that has them
/// supplies preferred operators, and a state is a dead end when any of
/// them says so. Path-dependent heuristics are told of the initial state
/// and of every transition before the new state is evaluated.
pub fn run<O: OpenList<StateId>>(
    space: &mut StateSpace<'_>,
    heuristics: &mut [&mut dyn Heuristic],
    params: EagerParams,
    mut open: O,
    monitor: &mut Monitor<'_>,
) -> IterationResult {
    let task = space.task;
    let mut registry = new_registry(space, heuristics);
    let mut nodes: Vec<Node> = Vec::new();
    let mut fluents = Vec::new();
    let mut preferred_ops = Vec::new();
    let mut preferred_stamp: Vec<u64> = vec![
        0;
        if params.preferred {
            task.operators.len()
        } else {
            0
        }
    ];
    let mut ops = Vec::new();
    let mut succ = Vec::new();
    let skip_forced = skips_forced(params.follow_forced, space, heuristics);

    let init = space.initial_state();
    let Some((init_id, _)) = registry.insert(&init) else {
        return IterationResult::stopped(Outcome::MemoryLimit);
    };
    let mut keys: Vec<Key> = vec![[0, 0]; heuristics.len()];
    let mut best: Vec<Cost> = vec![Cost::MAX; heuristics.len()];
    for h in heuristics.iter_mut() {
        h.notify_initial_state(init_id, space.view(&init, &mut fluents));
    }
    if evaluate(
        space,
        heuristics,
        init_id,
        &init,
        &mut fluents,
        params.priority,
        0,
        &mut keys,
        &mut best,
        monitor,
    )
    .is_none()
    {
        return IterationResult::stopped(Outcome::Unsolvable);
    }
    let h0 = keys_h(&keys);
    nodes.push(Node {
        parent: NO_PARENT,
        op: 0,
        g: 0,
        h: h0,
        status: Status::Open,
    });
    open.push_keys(&keys, init_id, false);

    let mut expansion: u64 = 0;
    while let Some(id) = open.pop() {
        let node = nodes[id as usize];
        if node.status != Status::Open {
            continue; // a stale duplicate entry
        }
        if let Some(stop) = monitor.tick(|| {
            let mem = memory_estimate(&registry, &nodes, open.memory_bytes(), heuristics);
            (registry.len(), mem)
        }) {
            return IterationResult::stopped(stop);
        }
        nodes[id as usize].status = Status::Closed;
        if !matches!(params.priority, Priority::Greedy) {
            monitor.note_f(node.g.saturating_add(node.h));
        }
        if space.is_goal(registry.get(id)) {
            let mem = memory_estimate(&registry, &nodes, open.memory_bytes(), heuristics);
            monitor.record(registry.len(), mem);
            return IterationResult {
                outcome: Outcome::Solved,
                plan: Some(extract_plan(space, &mut registry, &nodes, id)),
            };
        }
        monitor.stats.expanded += 1;
        expansion += 1;
        if params.preferred {
            // Preferred operators of the expanded state (as Fast Downward,
            // recomputed at expansion rather than stored per state), from
            // every heuristic that has them.
            preferred_ops.clear();
            for h in heuristics.iter_mut() {
                if h.has_preferred_operators() {
                    monitor.stats.evaluated += 1;
                    h.evaluate_registered(
                        id,
                        space.view(registry.get(id), &mut fluents),
                        Some(&mut preferred_ops),
                    );
                }
            }
            for &o in &preferred_ops {
                preferred_stamp[o as usize] = expansion;
            }
        }
        space.applicable(registry.get(id), &mut ops);
        for &op in &ops {
            let g = node.g.saturating_add(task.operators[op as usize].cost);
            if g >= params.bound || !space.apply(registry.get(id), op, &mut succ) {
                continue;
            }
            let Some(g) = settle_successor(space, &mut succ, g, params.bound, skip_forced) else {
                continue;
            };
            monitor.stats.generated += 1;
            let Some((sid, new)) = registry.insert(&succ) else {
                return IterationResult::stopped(Outcome::MemoryLimit);
            };
            // Path-dependent heuristics learn of every transition, also
            // to states seen before.
            for h in heuristics.iter_mut() {
                h.notify_transition(id, op, sid, space.view(&succ, &mut fluents));
            }
            let is_preferred = params.preferred && preferred_stamp[op as usize] == expansion;
            if new {
                let Some(progress) = evaluate(
                    space,
                    heuristics,
                    sid,
                    &succ,
                    &mut fluents,
                    params.priority,
                    g,
                    &mut keys,
                    &mut best,
                    monitor,
                ) else {
                    nodes.push(Node {
                        parent: id,
                        op,
                        g,
                        h: 0,
                        status: Status::DeadEnd,
                    });
                    continue;
                };
                if progress {
                    open.boost_preferred();
                }
                let h = keys_h(&keys);
                nodes.push(Node {
                    parent: id,
                    op,
                    g,
                    h,
                    status: Status::Open,
                });
                open.push_keys(&keys, sid, is_preferred);
            } else {
                let n = &mut nodes[sid as usize];
                if n.status == Status::DeadEnd || g >= n.g {
                    continue;
                }
                match n.status {
                    Status::Closed if params.reopen => {
                        monitor.stats.reopened += 1;
                        n.status = Status::Open;
                    }
                    Status::Closed => {
                        // Keep the cheaper path for plan extraction only.
                        n.parent = id;
                        n.op = op;
                        n.g = g;
                        continue;
                    }
                    _ => {}
                }
                n.parent = id;
                n.op = op;
                n.g = g;
                let h = n.h;
                if !matches!(params.priority, Priority::Greedy) {
                    open.push(params.priority.key(g, h), sid, is_preferred);
                }
            }
        }
    }
    monitor.check((
        registry.len(),
        registry.memory_bytes() + (nodes.capacity() * size_of::<Node>()) as u64,
    ));
    IterationResult::stopped(Outcome::Unsolvable)
}

/// The first heuristic's value, as stored in the key by [`evaluate`].
fn keys_h(keys: &[Key]) -> Cost {
    keys.first().map_or(0, |k| k[1])
}

/// Evaluates registered state `id` (contents `packed`) with every heuristic, filling one key per heuristic
/// (`[priority, h]`); `None` for a dead end, otherwise whether some
/// heuristic reached a new best value.
#[allow(clippy::too_many_arguments)]
fn evaluate(
    space: &StateSpace<'_>,
    heuristics: &mut [&mut dyn Heuristic],
    id: StateId,
    packed: &[u64],
    fluents: &mut Vec<f64>,
    priority: Priority,
    g: Cost,
    keys: &mut [Key],
    best: &mut [Cost],
    monitor: &mut Monitor<'_>,
) -> Option<bool> {
    let mut progress = false;
    for (i, h) in heuristics.iter_mut().enumerate() {
        monitor.stats.evaluated += 1;
        let v = h.evaluate_registered(id, space.view(packed, fluents), None)?;
        keys[i] = priority.key(g, v);
        keys[i][1] = v;
        if v < best[i] {
            best[i] = v;
            progress = true;
        }
    }
    if let Some(k) = keys.first() {
        monitor.note_h(k[1]);
    }
    Some(progress)
}
