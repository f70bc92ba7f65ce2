//! Eager best-first search: successors are evaluated when generated.
//! A* (`f = g + h`, ties to lower h), weighted A* (`f = g + w·h`) and
//! greedy search (`h`), with optional reopening, preferred operators
//! and a cost bound (successors with `g ≥ bound` are pruned).

use pddl_ground::task::Cost;

use crate::heuristics::Heuristic;
use crate::open_lists::{Key, OpenList};
use crate::result::Outcome;
use crate::search_algorithms::parallel_evaluation::ParallelEvaluation;
use crate::search_algorithms::{
    IterationResult, Monitor, NO_PARENT, Node, Status, extract_plan, memory_estimate, new_registry,
    settle_successor, skips_forced,
};
use crate::state::StateId;
use crate::successor::StateSpace;

pub use super::Priority;

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
    /// The heuristic is admissible and the priority plain A*: end the
    /// search, as exhausted, once the least `f` open reaches `bound`. No
    /// plan cheaper than `bound` is left then, since every such plan
    /// keeps a state open whose `f` is at most its cost.
    pub stop_at_f_bound: bool,
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
/// and of every transition before the new state is evaluated. With
/// `parallel` (one heuristic, whose [`Heuristic::fork`] it holds), each
/// expansion's new states are evaluated as one batch on two threads and
/// admitted in generation order: the same search as without.
pub fn run<O: OpenList<StateId>>(
    space: &mut StateSpace<'_>,
    heuristics: &mut [&mut dyn Heuristic],
    params: EagerParams,
    mut open: O,
    monitor: &mut Monitor<'_>,
    mut parallel: Option<&mut ParallelEvaluation<'_, '_>>,
) -> IterationResult {
    monitor.start_search(params.priority);
    let task = space.task;
    // Only a single heuristic's values are batched (it comes forked).
    debug_assert!(parallel.is_none() || heuristics.len() == 1);
    let mut admissions: Vec<Admission> = Vec::new();
    let mut values = Vec::new();
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
    // The state being expanded (unpacked from the registry) and a successor.
    let mut state = Vec::new();
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
        if params.stop_at_f_bound && node.g.saturating_add(node.h) >= params.bound {
            return IterationResult::stopped(Outcome::Unsolvable);
        }
        nodes[id as usize].status = Status::Closed;
        if !matches!(params.priority, Priority::Greedy) {
            monitor.note_f(node.g.saturating_add(node.h));
        }
        registry.load(id, &mut state);
        if space.is_goal(&state) {
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
                        space.view(&state, &mut fluents),
                        Some(&mut preferred_ops),
                    );
                }
            }
            for &o in &preferred_ops {
                preferred_stamp[o as usize] = expansion;
            }
        }
        space.applicable(&state, &mut ops);
        admissions.clear();
        for &op in &ops {
            let g = node.g.saturating_add(task.operators[op as usize].cost);
            if g >= params.bound || !space.apply(&state, op, &mut succ) {
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
            let preferred = params.preferred && preferred_stamp[op as usize] == expansion;
            if new {
                nodes.push(Node {
                    parent: id,
                    op,
                    g,
                    h: 0,
                    status: Status::Open,
                });
                if let Some(parallel) = parallel.as_deref_mut() {
                    parallel.push(&succ);
                    admissions.push(Admission::New { sid, g, preferred });
                    continue;
                }
                if let Some(stop) = monitor.stop_within_expansion() {
                    return IterationResult::stopped(stop);
                }
                let evaluation = evaluate(
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
                );
                admit_new(&mut nodes, &mut open, sid, evaluation, &keys, preferred);
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
                let cheaper = Admission::Cheaper { sid, g, preferred };
                if parallel.is_some() {
                    // After the new states before it, in order.
                    admissions.push(cheaper);
                } else {
                    admit_cheaper(&nodes, &mut open, params.priority, cheaper);
                }
            }
        }
        if let Some(parallel) = parallel.as_deref_mut() {
            // One heuristic (see `run`): evaluate the batch, then admit
            // in generation order, as the single-threaded loop above does.
            let stop = || monitor.stop_within_expansion().is_some();
            if !parallel.evaluate(&mut *heuristics[0], &mut values, &stop) {
                // The flag stays raised and the deadline passed: asked
                // again, the monitor says which stopped the batch.
                let stop = monitor.stop_now().unwrap_or(Outcome::Cancelled);
                return IterationResult::stopped(stop);
            }
            let mut values = values.iter();
            for &admission in &admissions {
                let Admission::New { sid, g, preferred } = admission else {
                    admit_cheaper(&nodes, &mut open, params.priority, admission);
                    continue;
                };
                let value = values.next().copied().flatten();
                monitor.stats.evaluated += 1;
                let evaluation =
                    value.map(|v| score(params.priority, g, 0, v, &mut keys, &mut best));
                if let Some(v) = value {
                    monitor.note_h(v);
                }
                admit_new(&mut nodes, &mut open, sid, evaluation, &keys, preferred);
            }
        }
    }
    let mem = memory_estimate(&registry, &nodes, open.memory_bytes(), heuristics);
    monitor.check((registry.len(), mem));
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
        progress |= score(priority, g, i, v, keys, best);
    }
    if let Some(k) = keys.first() {
        monitor.note_h(k[1]);
    }
    Some(progress)
}

/// Records heuristic `i`'s value `v` of a state at cost `g`: its key
/// (`[priority, h]`) and whether `v` is that heuristic's new best value.
fn score(
    priority: Priority,
    g: Cost,
    i: usize,
    v: Cost,
    keys: &mut [Key],
    best: &mut [Cost],
) -> bool {
    keys[i] = priority.key(g, v);
    keys[i][1] = v;
    let progress = v < best[i];
    best[i] = best[i].min(v);
    progress
}

/// A generated successor waiting for its open-list entry.
#[derive(Clone, Copy, Debug)]
enum Admission {
    /// A state registered just now (its node pushed with `h` unknown).
    New {
        sid: StateId,
        g: Cost,
        preferred: bool,
    },
    /// A state known before, reached by a cheaper path (node updated).
    Cheaper {
        sid: StateId,
        g: Cost,
        preferred: bool,
    },
}

/// Admits a new state after its evaluation (`None`: a dead end; else
/// whether some heuristic made progress, `keys` its keys).
fn admit_new<O: OpenList<StateId>>(
    nodes: &mut [Node],
    open: &mut O,
    sid: StateId,
    evaluation: Option<bool>,
    keys: &[Key],
    preferred: bool,
) {
    let node = &mut nodes[sid as usize];
    let Some(progress) = evaluation else {
        node.status = Status::DeadEnd;
        return;
    };
    if progress {
        open.boost_preferred();
    }
    node.h = keys_h(keys);
    open.push_keys(keys, sid, preferred);
}

/// Queues a state reached by a cheaper path again under its known `h`
/// (greedy search, which ignores `g`, does not).
fn admit_cheaper<O: OpenList<StateId>>(
    nodes: &[Node],
    open: &mut O,
    priority: Priority,
    admission: Admission,
) {
    let Admission::Cheaper { sid, g, preferred } = admission else {
        return;
    };
    let node = &nodes[sid as usize];
    // A state new in the same expansion may have turned out a dead end.
    if node.status != Status::DeadEnd && !matches!(priority, Priority::Greedy) {
        open.push(priority.key(g, node.h), sid, preferred);
    }
}
