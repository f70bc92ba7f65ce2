//! Breadth-first search with duplicate detection and goal test at
//! generation: returns a shortest plan (optimal for unit costs only; with
//! other costs, including zero costs, the plan is merely valid).

use crate::result::Outcome;
use crate::search_algorithms::{
    IterationResult, Monitor, NO_PARENT, Node, Status, extract_plan, memory_estimate, new_registry,
};
use crate::successor::StateSpace;

/// Runs breadth-first search.
pub fn run(space: &mut StateSpace<'_>, monitor: &mut Monitor<'_>) -> IterationResult {
    let task = space.task;
    let mut registry = new_registry(space, &[]);
    let init = space.initial_state();
    let Some((init_id, _)) = registry.insert(&init) else {
        return IterationResult::stopped(Outcome::MemoryLimit);
    };
    let mut nodes = vec![Node {
        parent: NO_PARENT,
        op: 0,
        g: 0,
        h: 0,
        status: Status::Open,
    }];
    if space.is_goal(&init) {
        return IterationResult {
            outcome: Outcome::Solved,
            plan: Some(extract_plan(space, &mut registry, &nodes, init_id)),
        };
    }
    let mut ops = Vec::new();
    // The state being expanded, unpacked from the registry.
    let mut state = Vec::new();
    let mut succ = Vec::new();
    // States are registered in breadth-first order, so the queue is simply
    // the range of ids not yet expanded.
    let mut next: usize = 0;
    while next < registry.len() {
        if let Some(stop) =
            monitor.tick(|| (registry.len(), memory_estimate(&registry, &nodes, 0, &[])))
        {
            return IterationResult::stopped(stop);
        }
        let id = next as u32;
        next += 1;
        monitor.stats.expanded += 1;
        nodes[id as usize].status = Status::Closed;
        let g = nodes[id as usize].g;
        registry.load(id, &mut state);
        space.applicable(&state, &mut ops);
        for &op in &ops {
            if !space.apply(&state, op, &mut succ) {
                continue;
            }
            monitor.stats.generated += 1;
            let Some((sid, new)) = registry.insert(&succ) else {
                return IterationResult::stopped(Outcome::MemoryLimit);
            };
            if !new {
                continue;
            }
            let cost = task.operators[op as usize].cost;
            nodes.push(Node {
                parent: id,
                op,
                g: g.saturating_add(cost),
                h: 0,
                status: Status::Open,
            });
            if space.is_goal(&succ) {
                monitor.record(registry.len(), memory_estimate(&registry, &nodes, 0, &[]));
                return IterationResult {
                    outcome: Outcome::Solved,
                    plan: Some(extract_plan(space, &mut registry, &nodes, sid)),
                };
            }
        }
    }
    monitor.check((registry.len(), memory_estimate(&registry, &nodes, 0, &[])));
    IterationResult::stopped(Outcome::Unsolvable)
}
