//! Eager best-first search: successors are evaluated when generated.
//! A* (`f = g + h`, ties to lower h), weighted A* (`f = g + w·h`) and
//! greedy search (`h`), with optional reopening, preferred operators
//! and a cost bound (successors with `g ≥ bound` are pruned).

use pddl_ground::task::Cost;

use crate::heuristics::Heuristic;
use crate::open_lists::{Key, OpenList};
use crate::result::Outcome;
use crate::search_algorithms::{IterationResult, Monitor, NO_PARENT, Node, Status, extract_plan};
use crate::state::{StateId, StateRegistry};
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
}

/// Runs an eager best-first search with the given open list.
pub fn run<O: OpenList<StateId>>(
    space: &mut StateSpace<'_>,
    heuristic: &mut dyn Heuristic,
    params: EagerParams,
    mut open: O,
    monitor: &mut Monitor<'_>,
) -> IterationResult {
    let task = space.task;
    let mut registry = StateRegistry::new(space.layout.words());
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

    let init = space.initial_state();
    let Some((init_id, _)) = registry.insert(&init) else {
        return IterationResult::stopped(Outcome::MemoryLimit);
    };
    monitor.stats.evaluated += 1;
    let Some(h0) = heuristic.evaluate(space.view(&init, &mut fluents), None) else {
        return IterationResult::stopped(Outcome::Unsolvable);
    };
    monitor.note_h(h0);
    nodes.push(Node {
        parent: NO_PARENT,
        op: 0,
        g: 0,
        h: h0,
        status: Status::Open,
    });
    open.push(params.priority.key(0, h0), init_id, false);

    let mut expansion: u64 = 0;
    while let Some(id) = open.pop() {
        let node = nodes[id as usize];
        if node.status != Status::Open {
            continue; // a stale duplicate entry
        }
        if let Some(stop) = monitor.tick(|| {
            let mem = registry.memory_bytes()
                + (nodes.capacity() * size_of::<Node>()) as u64
                + open.memory_bytes();
            (registry.len(), mem)
        }) {
            return IterationResult::stopped(stop);
        }
        nodes[id as usize].status = Status::Closed;
        if !matches!(params.priority, Priority::Greedy) {
            monitor.note_f(node.g.saturating_add(node.h));
        }
        if space.is_goal(registry.get(id)) {
            let mem = registry.memory_bytes()
                + (nodes.capacity() * size_of::<Node>()) as u64
                + open.memory_bytes();
            monitor.record(registry.len(), mem);
            return IterationResult {
                outcome: Outcome::Solved,
                plan: Some(extract_plan(task, &nodes, id)),
            };
        }
        monitor.stats.expanded += 1;
        expansion += 1;
        if params.preferred {
            // Preferred operators of the expanded state (as Fast Downward,
            // recomputed at expansion rather than stored per state).
            preferred_ops.clear();
            monitor.stats.evaluated += 1;
            heuristic.evaluate(
                space.view(registry.get(id), &mut fluents),
                Some(&mut preferred_ops),
            );
            for &o in &preferred_ops {
                preferred_stamp[o as usize] = expansion;
            }
        }
        space.applicable(registry.get(id), &mut ops);
        for &op in &ops {
            let g = node.g.saturating_add(task.operators[op as usize].cost);
            if g >= params.bound {
                continue;
            }
            if !space.apply(registry.get(id), op, &mut succ) {
                continue;
            }
            monitor.stats.generated += 1;
            let Some((sid, new)) = registry.insert(&succ) else {
                return IterationResult::stopped(Outcome::MemoryLimit);
            };
            let is_preferred = params.preferred && preferred_stamp[op as usize] == expansion;
            if new {
                monitor.stats.evaluated += 1;
                let h = heuristic.evaluate(space.view(&succ, &mut fluents), None);
                let Some(h) = h else {
                    nodes.push(Node {
                        parent: id,
                        op,
                        g,
                        h: 0,
                        status: Status::DeadEnd,
                    });
                    continue;
                };
                if monitor.note_h(h) {
                    open.boost_preferred();
                }
                nodes.push(Node {
                    parent: id,
                    op,
                    g,
                    h,
                    status: Status::Open,
                });
                open.push(params.priority.key(g, h), sid, is_preferred);
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
