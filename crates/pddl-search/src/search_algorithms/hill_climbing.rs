//! Enforced hill-climbing (Hoffmann & Nebel 2001, FF's first search): from
//! the current state, breadth-first search through the heuristic's
//! preferred operators until a state with a lower estimate turns up, then
//! commit to the path there and go on from that state alone. Where the
//! preferred operators lead to nothing better, the breadth-first search
//! starts again from the same state through every operator. As in Fast
//! Downward, a state is evaluated once: no breadth-first search passes
//! through a state an earlier one reached. (Letting later searches
//! re-enter such states, as FF does, needed about a sixth fewer
//! evaluations on driverlog p02, but with symmetry reduction its plan
//! extraction then met a parent pointer whose operator did not lead to
//! the state: not understood, so not kept.)
//!
//! It is incomplete: when a breadth-first search through every operator
//! runs out of states without improving, the climb is stuck, which proves
//! nothing about the task; callers then run a complete search. Where it
//! climbs it is cheap, since it evaluates each state once and keeps no
//! open list beyond the current breadth-first search.

use std::collections::VecDeque;

use pddl_ground::task::{Cost, OperatorId};

use crate::heuristics::Heuristic;
use crate::result::Outcome;
use crate::search_algorithms::{
    IterationResult, Monitor, NO_PARENT, Node, Status, extract_plan, memory_estimate, new_registry,
    settle_successor, skips_forced,
};
use crate::state::{StateId, StateRegistry};
use crate::successor::StateSpace;

/// How a climb ended.
#[derive(Debug)]
pub enum Climb {
    /// A plan was found, or a limit or the caller stopped the climb.
    Ended(IterationResult),
    /// Nothing better than the current state is reachable from it, or the
    /// heuristic calls the initial state a dead end: the climb gives up,
    /// proving nothing.
    Stuck,
}

/// Climbs with `heuristic` from the initial state, following its preferred
/// operators first (a heuristic without them gets every operator).
/// `follow_forced` as for the other engines
/// ([`crate::search_algorithms::lazy::LazyParams::follow_forced`]).
pub fn run(
    space: &mut StateSpace<'_>,
    heuristic: &mut dyn Heuristic,
    follow_forced: bool,
    monitor: &mut Monitor<'_>,
) -> Climb {
    let task = space.task;
    let skip_forced = skips_forced(follow_forced, space, &[&mut *heuristic]);
    let mut registry = new_registry(space, &[&mut *heuristic]);
    let mut nodes: Vec<Node> = Vec::new();
    let mut fluents = Vec::new();
    let mut successors = Successors {
        preferred: Vec::new(),
        stamp: vec![0; task.operators.len()],
        evaluation: 0,
        applicable: Vec::new(),
    };
    let mut state = space.initial_state();
    let mut succ = Vec::new();
    // Entries (parent, operator) of the current breadth-first search.
    let mut queue: VecDeque<(StateId, OperatorId)> = VecDeque::new();

    let Some((initial, _)) = registry.insert(&state) else {
        return Climb::Ended(IterationResult::stopped(Outcome::MemoryLimit));
    };
    nodes.push(Node {
        parent: NO_PARENT,
        op: 0,
        g: 0,
        h: 0,
        status: Status::Closed,
    });
    heuristic.notify_initial_state(initial, space.view(&state, &mut fluents));
    if space.is_goal(&state) {
        return Climb::Ended(solved(space, &mut registry, &nodes, initial));
    }
    monitor.stats.evaluated += 1;
    let view = space.view(&state, &mut fluents);
    let Some(mut current_h) = successors.evaluate(heuristic, initial, view) else {
        return Climb::Stuck;
    };
    monitor.note_h(current_h);
    monitor.stats.expanded += 1;
    successors.queue(space, &state, initial, true, &mut queue);
    let mut current = initial;
    // Whether the current breadth-first search follows preferred
    // operators only.
    let mut pruned = true;
    let mut loaded = NO_PARENT;
    loop {
        let Some((parent, op)) = queue.pop_front() else {
            if !pruned {
                return Climb::Stuck;
            }
            // Nothing better through preferred operators: again from the
            // same state, through every operator.
            pruned = false;
            registry.load(current, &mut state);
            loaded = current;
            successors.queue(space, &state, current, false, &mut queue);
            continue;
        };
        if let Some(stop) = monitor.tick(|| measure(&registry, &nodes, &queue)) {
            return Climb::Ended(IterationResult::stopped(stop));
        }
        if loaded != parent {
            registry.load(parent, &mut state);
            loaded = parent;
        }
        if !space.apply(&state, op, &mut succ) {
            continue;
        }
        let g = nodes[parent as usize]
            .g
            .saturating_add(task.operators[op as usize].cost);
        let Some(g) = settle_successor(space, &mut succ, g, Cost::MAX, skip_forced) else {
            continue;
        };
        monitor.stats.generated += 1;
        let Some((id, new)) = registry.insert(&succ) else {
            return Climb::Ended(IterationResult::stopped(Outcome::MemoryLimit));
        };
        if !new {
            continue;
        }
        nodes.push(Node {
            parent,
            op,
            g,
            h: 0,
            status: Status::Closed,
        });
        heuristic.notify_transition(parent, op, id, space.view(&succ, &mut fluents));
        if space.is_goal(&succ) {
            monitor.record(registry.len(), memory_estimate(&registry, &nodes, 0, &[]));
            return Climb::Ended(solved(space, &mut registry, &nodes, id));
        }
        monitor.stats.evaluated += 1;
        let view = space.view(&succ, &mut fluents);
        let Some(h) = successors.evaluate(heuristic, id, view) else {
            nodes[id as usize].status = Status::DeadEnd;
            continue;
        };
        nodes[id as usize].h = h;
        monitor.stats.expanded += 1;
        if h < current_h {
            // Commit to the path here; the next search starts from it.
            current_h = h;
            current = id;
            monitor.note_h(h);
            queue.clear();
            pruned = true;
        }
        successors.queue(space, &succ, id, pruned, &mut queue);
    }
}

/// The last evaluation's preferred operators and what queues successors.
struct Successors {
    preferred: Vec<OperatorId>,
    /// Per operator, the evaluation that last preferred it.
    stamp: Vec<u64>,
    /// Evaluations so far.
    evaluation: u64,
    applicable: Vec<OperatorId>,
}

impl Successors {
    /// Evaluates a state, noting its preferred operators.
    fn evaluate(
        &mut self,
        heuristic: &mut dyn Heuristic,
        id: StateId,
        view: crate::state::StateView<'_>,
    ) -> Option<Cost> {
        self.preferred.clear();
        self.evaluation += 1;
        let h = heuristic.evaluate_registered(id, view, Some(&mut self.preferred));
        for &o in &self.preferred {
            self.stamp[o as usize] = self.evaluation;
        }
        h
    }

    /// Queues the operators to try from `state` (registered as `id`, the
    /// state evaluated last when `pruned`): with `pruned`, the applicable
    /// ones its evaluation preferred, or every one if none applies;
    /// otherwise every applicable one.
    fn queue(
        &mut self,
        space: &mut StateSpace<'_>,
        state: &[u64],
        id: StateId,
        pruned: bool,
        queue: &mut VecDeque<(StateId, OperatorId)>,
    ) {
        space.applicable(state, &mut self.applicable);
        let before = queue.len();
        if pruned {
            let evaluation = self.evaluation;
            let stamp = &self.stamp;
            queue.extend(
                self.applicable
                    .iter()
                    .filter(|&&o| stamp[o as usize] == evaluation)
                    .map(|&o| (id, o)),
            );
        }
        if queue.len() == before {
            queue.extend(self.applicable.iter().map(|&o| (id, o)));
        }
    }
}

/// The registry's size and the climb's estimated memory.
fn measure(
    registry: &StateRegistry,
    nodes: &[Node],
    queue: &VecDeque<(StateId, OperatorId)>,
) -> (usize, u64) {
    let queue_bytes =
        std::mem::size_of_val(queue.as_slices().0) + std::mem::size_of_val(queue.as_slices().1);
    (
        registry.len(),
        memory_estimate(registry, nodes, queue_bytes as u64, &[]),
    )
}

/// The plan to `goal`.
fn solved(
    space: &mut StateSpace<'_>,
    registry: &mut StateRegistry,
    nodes: &[Node],
    goal: StateId,
) -> IterationResult {
    IterationResult {
        outcome: Outcome::Solved,
        plan: Some(extract_plan(space, registry, nodes, goal)),
    }
}
