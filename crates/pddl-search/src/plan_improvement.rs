//! Shortening a found plan without searching again.
//!
//! Greedy best-first search finds plans quickly but often with detours.
//! Two cheap, domain-independent post-processing steps remove them; each
//! step keeps the plan valid by construction (every kept operator is
//! applicable where it is applied, and the goal holds at the end) and
//! never raises its cost (operator costs are non-negative):
//! - **loop removal**: when the plan visits the same state twice, the
//!   operators between the two visits are dropped;
//! - **greedy action elimination** (Fink & Yang 1992; Nakhost & Müller
//!   2010): for each operator in turn, drop it together with every later
//!   operator that stops being applicable without it; keep that shorter
//!   plan if it still reaches the goal.
//!
//! Elimination costs up to one replay of the rest of the plan per operator
//! (quadratic in the plan length), so it runs under a budget counted in
//! operator applications, which keeps the result deterministic.
//!
//! A third step, which the default applies to its final plan, searches
//! near the plan ([`shorten_through_neighbourhood`], plan neighbourhood
//! graph search, Nakhost & Müller 2010): the states within a few steps of
//! the plan's states, explored breadth-first from all of them, often hold
//! a cheaper way to the goal (a detour replaced by a shortcut, which
//! elimination cannot find), found by Dijkstra's algorithm over that
//! graph. It too runs under a budget of operator applications.
//!
//! The same exploration, run from the first plan before the default's
//! restarts ([`exhaust_state_space`]), proves that plan (or a cheaper one
//! through the graph) optimal where it expands every reachable state
//! within a small budget: the plan's states include the initial state, so
//! the graph then holds every reachable state and transition. Where it
//! does not, what it explored is kept ([`Explored`]) for the
//! neighbourhood search around the final plan, if that is the same plan.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use hashbrown::HashMap;
use pddl_ground::task::{Cost, OperatorId};

use crate::result::Plan;
use crate::state::{StateId, StateRegistry};
use crate::successor::StateSpace;

/// The states a plan visits, one after the other in one flat vector (a
/// plan of a million steps is then one allocation, not a million):
/// [`Trajectory::state`]`(i)` is the state before step `i`, the last one
/// the state the plan ends in.
struct Trajectory {
    /// Words of every state (the task's states all have as many; none
    /// where the task has no facts and no fluents).
    width: usize,
    words: Vec<u64>,
    /// The number of states.
    len: usize,
}

impl Trajectory {
    /// The state before step `i` (after the last step for `i` = the
    /// plan's length).
    fn state(&self, i: usize) -> &[u64] {
        &self.words[i * self.width..(i + 1) * self.width]
    }

    /// The number of states: the plan's length plus one.
    fn len(&self) -> usize {
        self.len
    }

    /// Appends a state.
    fn push(&mut self, state: &[u64]) {
        self.words.extend_from_slice(state);
        self.len += 1;
    }

    /// Keeps the first `len` states.
    fn truncate(&mut self, len: usize) {
        self.words.truncate(len * self.width);
        self.len = self.len.min(len);
    }

    /// The state the plan ends in.
    fn last(&self) -> &[u64] {
        self.state(self.len() - 1)
    }

    /// Every state, in order.
    fn states(&self) -> impl Iterator<Item = &[u64]> {
        (0..self.len()).map(|i| self.state(i))
    }
}

/// The states `operators` visit from the initial state; `None` if some
/// operator is not applicable (then the plan is left alone).
fn replay(space: &mut StateSpace<'_>, operators: &[OperatorId]) -> Option<Trajectory> {
    let initial = space.initial_state();
    let width = initial.len();
    let mut trajectory = Trajectory {
        width,
        words: Vec::with_capacity(width * (operators.len() + 1)),
        len: 0,
    };
    trajectory.push(&initial);
    extend(space, &mut trajectory, operators).then_some(trajectory)
}

/// Appends the states `operators` visit from the trajectory's last state;
/// false if some operator is not applicable there.
fn extend(
    space: &mut StateSpace<'_>,
    trajectory: &mut Trajectory,
    operators: &[OperatorId],
) -> bool {
    let mut fluents = Vec::new();
    let mut state = trajectory.last().to_vec();
    let mut next = Vec::new();
    for &op in operators {
        let precondition = &space.task.operators[op as usize].precondition;
        if !space.view(&state, &mut fluents).satisfies(precondition)
            || !space.apply(&state, op, &mut next)
            || next.len() != trajectory.width
        {
            return false;
        }
        trajectory.push(&next);
        std::mem::swap(&mut state, &mut next);
    }
    true
}

/// The plan with every loop through a repeated state cut out: from each
/// state, jump to its last visit.
fn remove_loops(operators: &[OperatorId], states: &Trajectory) -> Vec<OperatorId> {
    let mut last_visit: HashMap<&[u64], usize> = HashMap::with_capacity(states.len());
    for (i, state) in states.states().enumerate() {
        last_visit.insert(state, i);
    }
    let mut kept = Vec::with_capacity(operators.len());
    let mut i = 0;
    while i < operators.len() {
        i = last_visit[states.state(i)];
        if i < operators.len() {
            kept.push(operators[i]);
            i += 1;
        }
    }
    kept
}

/// Tries to drop step `first` of `operators`, replaying from `start` (the
/// state before it) and skipping every later operator that is no longer
/// applicable. Returns the indices kept after `first` if the goal still
/// holds at the end, counting applications in `work`.
fn eliminate_from(
    space: &mut StateSpace<'_>,
    operators: &[OperatorId],
    first: usize,
    start: &[u64],
    work: &mut u64,
) -> Option<Vec<usize>> {
    let mut state = start.to_vec();
    let mut next = Vec::new();
    let mut fluents = Vec::new();
    let mut kept = Vec::with_capacity(operators.len() - first);
    for (j, &op) in operators.iter().enumerate().skip(first + 1) {
        *work += 1;
        let precondition = &space.task.operators[op as usize].precondition;
        if space.view(&state, &mut fluents).satisfies(precondition)
            && space.apply(&state, op, &mut next)
        {
            std::mem::swap(&mut state, &mut next);
            kept.push(j);
        }
    }
    space.is_goal(&state).then_some(kept)
}

/// A plan at most as long and as costly as `plan` that reaches the goal
/// of `space`'s task: loops removed, then greedy action elimination while
/// fewer than `budget` operator applications have been spent and `stop`
/// (the caller's cancellation, the time limit) does not say stop. A plan
/// that does not replay is returned unchanged.
pub fn improve_plan(
    space: &mut StateSpace<'_>,
    plan: &Plan,
    budget: u64,
    stop: &dyn Fn() -> bool,
) -> Plan {
    let Some(states) = replay(space, &plan.operators) else {
        return plan.clone();
    };
    let mut operators = remove_loops(&plan.operators, &states);
    let mut states = if operators.len() < plan.operators.len() {
        match replay(space, &operators) {
            Some(states) => states,
            None => return plan.clone(),
        }
    } else {
        states
    };
    let mut work = 0u64;
    let mut i = 0;
    while i < operators.len() && work < budget && !stop() {
        match eliminate_from(space, &operators, i, states.state(i), &mut work) {
            Some(kept) => {
                // The states up to step `i` stay; the rest are replayed.
                let rest: Vec<OperatorId> = kept.iter().map(|&j| operators[j]).collect();
                states.truncate(i + 1);
                if extend(space, &mut states, &rest) {
                    operators.truncate(i);
                    operators.extend(rest);
                } else {
                    // Cannot happen (elimination replayed the same steps);
                    // the plan before this attempt stays.
                    let Some(replayed) = replay(space, &operators) else {
                        return plan.clone();
                    };
                    states = replayed;
                    i += 1;
                }
            }
            None => i += 1,
        }
    }
    let shorter = Plan::new(space.task, operators);
    if shorter.cost > plan.cost || !space.is_goal(states.last()) {
        return plan.clone(); // cannot happen; the original is the safe answer
    }
    shorter
}

/// How many times its length the expansions of a plan's neighbourhood may
/// grow to: beyond that, a plan that no near state shortens is left as it
/// is (driverlog p04, whose plan nothing shortened then, took 89 instead
/// of 53 ms of CPU time with the budget alone). 200 with 10 applications
/// per generated state away from the plan's bound
/// (`NEIGHBOURHOOD_BUDGET_PER_GENERATED` in the crate's root), where it was
/// 96 with 3, made 25 and 21 of two samples of 214 shared tasks cheaper
/// and none costlier, for 4 % and 3 % more time; a cap of 400 found about
/// as many for more time (see `docs/search.md`, "Plan improvement").
const MAX_EXPANSIONS_PER_STEP: usize = 200;

/// The most memory a plan's neighbourhood may take (states and
/// transitions): it is not counted against the memory limit, so it stays
/// small beside it.
const MAX_NEIGHBOURHOOD_BYTES: usize = 64 << 20;

/// What [`exhaust_state_space`] found.
pub enum Exhaustion {
    /// It expanded every state reachable from the initial state: the
    /// cheapest plan through them, optimal (it costs at most as much as
    /// the plan explored from).
    Optimal(Plan),
    /// Its budget ran out (or `stop()` held, or its memory cap was
    /// reached) first.
    Unfinished(Box<Explored>),
    /// The plan does not replay from the initial state.
    NotReplayed,
}

/// The graph of states near a plan that [`exhaust_state_space`] explored
/// without exhausting the state space, kept so that
/// [`shorten_through_neighbourhood`] around the same plan goes on from it
/// instead of exploring it again.
pub struct Explored {
    operators: Vec<OperatorId>,
    graph: Neighbourhood,
    work: u64,
}

/// Explores breadth-first from all of `plan`'s states, as the
/// neighbourhood search does, for at most `budget` operator applications
/// and while `stop()` is false, and reports whether that exhausted the
/// state space ([`Exhaustion`]). On tasks whose reachable states are few
/// (blocks-world with five blocks: 866 states, 2 090 applications) this
/// proves a plan optimal for less than the restarts would spend looking
/// for a cheaper one.
pub fn exhaust_state_space(
    space: &mut StateSpace<'_>,
    plan: &Plan,
    budget: u64,
    stop: &dyn Fn() -> bool,
) -> Exhaustion {
    let Some(states) = replay(space, &plan.operators) else {
        return Exhaustion::NotReplayed;
    };
    let mut graph = Neighbourhood::new(space, &states);
    let mut work = 0;
    graph.explore(space, usize::MAX, budget, &mut work, stop, true);
    if graph.complete
        && let Some(operators) = graph.cheapest_plan(space)
    {
        let optimal = Plan::new(space.task, operators);
        if optimal.cost <= plan.cost {
            return Exhaustion::Optimal(optimal);
        }
    }
    Exhaustion::Unfinished(Box::new(Explored {
        operators: plan.operators.clone(),
        graph,
        work,
    }))
}

/// `plan` replaced by the cheapest plan through the states near it, while
/// fewer than `budget` operator applications have been spent and `stop()`
/// is false: the graph of states reached breadth-first from all of the
/// plan's states, expanding at most a limit of them, which starts at the
/// plan's length; whenever the graph holds no cheaper plan the limit
/// doubles (up to 200 times the plan's length, `MAX_EXPANSIONS_PER_STEP`) and
/// the exploration goes on where it stopped; around a cheaper plan it
/// starts afresh. Where `explored` was explored around this same plan,
/// the search starts from that graph, its applications counted in the
/// budget. The result replays from the initial state by construction and
/// costs at most as much as `plan`; a plan that does not replay is
/// returned unchanged.
pub fn shorten_through_neighbourhood(
    space: &mut StateSpace<'_>,
    plan: &Plan,
    budget: u64,
    stop: &dyn Fn() -> bool,
    explored: Option<Explored>,
) -> Plan {
    let resumed = explored.filter(|explored| explored.operators == plan.operators);
    let (mut graph, mut work, mut unchecked) = match resumed {
        Some(explored) => (explored.graph, explored.work, true),
        None => {
            let Some(states) = replay(space, &plan.operators) else {
                return plan.clone();
            };
            (Neighbourhood::new(space, &states), 0, false)
        }
    };
    let mut best = plan.clone();
    let mut limit = best.operators.len().max(16).max(graph.expanded);
    // A resumed graph is looked at once even where it spent the budget.
    while (work < budget || unchecked) && !stop() {
        unchecked = false;
        graph.explore(
            space,
            limit,
            budget.saturating_sub(work),
            &mut work,
            stop,
            false,
        );
        let cheaper = graph
            .cheapest_plan(space)
            .map(|operators| Plan::new(space.task, operators))
            .filter(|found| found.cost < best.cost);
        match cheaper.and_then(|found| Some((replay(space, &found.operators)?, found))) {
            Some((states, found)) => {
                // Around the new plan, from scratch, with the same limit.
                best = found;
                graph = Neighbourhood::new(space, &states);
            }
            // Nothing cheaper within reach: look further (the exploration
            // goes on where it stopped), unless it cannot.
            None if graph.complete || graph.full => break,
            None if limit >= best.operators.len() * MAX_EXPANSIONS_PER_STEP => break,
            None => limit = limit.saturating_mul(2),
        }
    }
    best
}

/// Expansions between two looks at the neighbourhood search's stop
/// condition (a clock read).
const STOP_CHECK_INTERVAL: usize = 1024;

/// A transition out of a node: to which, by which operator.
type Edge = (StateId, OperatorId);

/// States near a plan and the transitions between them, explored
/// breadth-first from all of the plan's states.
struct Neighbourhood {
    states: StateRegistry,
    /// Transitions, in the order found: a node's are contiguous, since
    /// they are all found when it is expanded.
    edges: Vec<Edge>,
    /// The range of `edges` leaving each node (empty until expanded).
    leaving: Vec<(u32, u32)>,
    goals: Vec<StateId>,
    /// States reached and not yet expanded, in breadth-first order.
    queue: VecDeque<StateId>,
    expanded: usize,
    /// Every state reachable from the plan's was expanded.
    complete: bool,
    /// It cannot grow: [`MAX_NEIGHBOURHOOD_BYTES`] or the id space is
    /// reached.
    full: bool,
    /// Every operator costs 1, so the cheapest paths are the shortest
    /// (breadth-first search finds them).
    unit_costs: bool,
}

impl Neighbourhood {
    /// The plan's `states`, none expanded yet (the initial state is node
    /// 0).
    fn new(space: &mut StateSpace<'_>, states: &Trajectory) -> Self {
        let mut graph = Neighbourhood {
            states: StateRegistry::new(states.width),
            edges: Vec::new(),
            leaving: Vec::new(),
            goals: Vec::new(),
            queue: VecDeque::new(),
            expanded: 0,
            complete: false,
            full: false,
            unit_costs: !space.task.has_general_costs(),
        };
        for state in states.states() {
            match graph.node(space, state) {
                Some((id, true)) => graph.queue.push_back(id),
                Some((_, false)) => {}
                None => graph.full = true,
            }
        }
        graph
    }

    /// The node of `state`, added if new (`true` then); `None` when the
    /// id space is exhausted.
    fn node(&mut self, space: &mut StateSpace<'_>, state: &[u64]) -> Option<(StateId, bool)> {
        let (id, new) = self.states.insert(state)?;
        if new {
            self.leaving.push((0, 0));
            if space.is_goal(state) {
                self.goals.push(id);
            }
        }
        Some((id, new))
    }

    fn memory_bytes(&self) -> usize {
        self.states.memory_bytes() as usize
            + self.edges.capacity() * size_of::<Edge>()
            + self.leaving.capacity() * size_of::<(u32, u32)>()
    }

    /// Goes on expanding states breadth-first until `limit` are expanded,
    /// counting applications in `work`, at most `budget` more of them,
    /// within [`MAX_NEIGHBOURHOOD_BYTES`], until `stop()` (asked every
    /// [`STOP_CHECK_INTERVAL`] expansions). With `to_exhaust`, it also
    /// gives up as soon as expanding every state found so far, at the
    /// applications per expansion so far, would take more than `budget`:
    /// where the state space is not small, the states found outgrow the
    /// budget long before it is spent (driverlog p03: after 91 expansions
    /// and 684 of 2 500 applications).
    fn explore(
        &mut self,
        space: &mut StateSpace<'_>,
        limit: usize,
        budget: u64,
        work: &mut u64,
        stop: &dyn Fn() -> bool,
        to_exhaust: bool,
    ) {
        let (mut ops, mut next, mut state) = (Vec::new(), Vec::new(), Vec::new());
        let start = *work;
        while let Some(&id) = self.queue.front() {
            if self.memory_bytes() > MAX_NEIGHBOURHOOD_BYTES {
                self.full = true;
                return;
            }
            if self.expanded >= limit || *work - start >= budget {
                return;
            }
            if self.expanded % STOP_CHECK_INTERVAL == STOP_CHECK_INTERVAL - 1 && stop() {
                return;
            }
            self.queue.pop_front();
            self.expanded += 1;
            self.states.load(id, &mut state);
            space.applicable(&state, &mut ops);
            let first_edge = self.edges.len() as u32;
            for &op in &ops {
                *work += 1;
                if !space.apply(&state, op, &mut next) {
                    continue;
                }
                let Some((to, new)) = self.node(space, &next) else {
                    self.full = true;
                    break;
                };
                if new {
                    self.queue.push_back(to);
                }
                self.edges.push((to, op));
            }
            self.leaving[id as usize] = (first_edge, self.edges.len() as u32);
            if self.full {
                return;
            }
            let spent = *work - start;
            if to_exhaust
                && (self.states.len() as u64).saturating_mul(spent)
                    > budget.saturating_mul(self.expanded as u64)
            {
                return;
            }
        }
        self.complete = true;
    }

    /// The transitions leaving `node`.
    fn leaving(&self, node: StateId) -> &[Edge] {
        let (first, end) = self.leaving[node as usize];
        &self.edges[first as usize..end as usize]
    }

    /// The cheapest path from node 0 to a goal node (fewest steps among
    /// equally cheap ones, then the first found), as operators.
    fn cheapest_plan(&self, space: &StateSpace<'_>) -> Option<Vec<OperatorId>> {
        let nodes = self.states.len();
        // Per node: (cost, steps) of the best path known and its last
        // transition.
        let mut best = vec![(Cost::MAX, u32::MAX); nodes];
        let mut parent: Vec<Option<(u32, OperatorId)>> = vec![None; nodes];
        best[0] = (0, 0);
        if self.unit_costs {
            // Breadth-first: nodes leave the queue in order of steps.
            let mut queue = VecDeque::from([0u32]);
            while let Some(node) = queue.pop_front() {
                let (cost, steps) = best[node as usize];
                for &(to, op) in self.leaving(node) {
                    if best[to as usize].0 == Cost::MAX {
                        best[to as usize] = (cost + 1, steps + 1);
                        parent[to as usize] = Some((node, op));
                        queue.push_back(to);
                    }
                }
            }
        } else {
            let mut heap = BinaryHeap::from([Reverse(((0 as Cost, 0u32), 0u32))]);
            while let Some(Reverse((key, node))) = heap.pop() {
                if key > best[node as usize] {
                    continue;
                }
                for &(to, op) in self.leaving(node) {
                    let cost = key.0.saturating_add(space.task.operators[op as usize].cost);
                    let candidate = (cost, key.1 + 1);
                    if candidate < best[to as usize] {
                        best[to as usize] = candidate;
                        parent[to as usize] = Some((node, op));
                        heap.push(Reverse((candidate, to)));
                    }
                }
            }
        }
        let goal = *self
            .goals
            .iter()
            .filter(|&&g| best[g as usize].0 != Cost::MAX)
            .min_by_key(|&&g| best[g as usize])?;
        let mut plan = Vec::new();
        let mut at = goal;
        while let Some((from, op)) = parent[at as usize] {
            plan.push(op);
            at = from;
        }
        plan.reverse();
        Some(plan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate;
    use crate::testing::TaskBuilder;

    /// Facts a = 0, b = 1, c = 2; goal c. Operators: 0 make-a, 1 drop-a,
    /// 2 make-b, 3 make-c (needs b).
    fn task() -> pddl_ground::Task {
        let mut b = TaskBuilder::new(3);
        b.op("make-a", &[], &[0], &[]);
        b.op("drop-a", &[0], &[], &[0]);
        b.op("make-b", &[], &[1], &[]);
        b.op("make-c", &[1], &[2], &[]);
        b.build(&[], &[2])
    }

    fn plan(operators: &[OperatorId]) -> Plan {
        Plan {
            operators: operators.to_vec(),
            cost: operators.len() as Cost,
        }
    }

    #[test]
    fn loops_and_useless_steps_are_removed_and_the_result_replays() {
        let task = task();
        let mut space = StateSpace::new(&task);
        let never = || false;
        // make-a, drop-a is a loop; the second make-b is useless; make-a at
        // the end is useless too.
        let found = plan(&[0, 1, 2, 2, 3, 0]);
        let better = improve_plan(&mut space, &found, u64::MAX, &never);
        assert_eq!(better.operators, vec![2, 3]);
        assert_eq!(better.cost, 2);
        let end = simulate::simulate(&task, &better.operators).unwrap();
        assert!(end.goal_reached);
    }

    #[test]
    fn an_optimal_plan_is_kept_and_a_zero_budget_only_cuts_loops() {
        let task = task();
        let mut space = StateSpace::new(&task);
        let never = || false;
        assert_eq!(
            improve_plan(&mut space, &plan(&[2, 3]), u64::MAX, &never).operators,
            vec![2, 3]
        );
        let found = plan(&[0, 1, 2, 2, 3, 0]);
        assert_eq!(
            improve_plan(&mut space, &found, 0, &never).operators,
            vec![2, 3, 0] // the repeated make-b changes nothing: a loop too
        );
    }

    #[test]
    fn a_task_without_facts_keeps_its_empty_plan() {
        // States of no words: the trajectory still counts them.
        let task = TaskBuilder::new(0).build(&[], &[]);
        let mut space = StateSpace::new(&task);
        let never = || false;
        let empty = plan(&[]);
        assert_eq!(improve_plan(&mut space, &empty, u64::MAX, &never), empty);
        assert_eq!(
            shorten_through_neighbourhood(&mut space, &empty, u64::MAX, &never, None),
            empty
        );
    }

    #[test]
    fn a_plan_that_does_not_replay_is_returned_unchanged() {
        let task = task();
        let mut space = StateSpace::new(&task);
        let never = || false;
        let broken = plan(&[3, 2]);
        assert_eq!(improve_plan(&mut space, &broken, u64::MAX, &never), broken);
    }

    /// A walk along 0 → 1 → 2 → 3 (one fact per place, goal: at 3) and a
    /// jump from 0 to 2 costing `jump_cost`.
    fn walk_with_jump(jump_cost: Cost) -> pddl_ground::Task {
        let mut b = TaskBuilder::new(4);
        b.op("step-0-1", &[0], &[1], &[0]);
        b.op("step-1-2", &[1], &[2], &[1]);
        b.op("step-2-3", &[2], &[3], &[2]);
        b.op_cost("jump-0-2", &[0], &[2], &[0], jump_cost);
        b.build(&[0], &[3])
    }

    #[test]
    fn the_neighbourhood_search_takes_a_cheaper_shortcut_that_elimination_cannot() {
        let task = walk_with_jump(1);
        let mut space = StateSpace::new(&task);
        let never = || false;
        // Dropping any step breaks the walk, so elimination keeps all 3.
        let walk = plan(&[0, 1, 2]);
        assert_eq!(improve_plan(&mut space, &walk, u64::MAX, &never), walk);
        let better = shorten_through_neighbourhood(&mut space, &walk, 1_000, &|| false, None);
        assert_eq!(better.operators, vec![3, 2]);
        assert_eq!(better.cost, 2);
        let end = simulate::simulate(&task, &better.operators).unwrap();
        assert!(end.goal_reached);
    }

    #[test]
    fn the_neighbourhood_search_keeps_a_plan_when_the_shortcut_costs_more() {
        // Jumping costs 3: jump + step = 4 > 3 steps.
        let task = walk_with_jump(3);
        let mut space = StateSpace::new(&task);
        let walk = plan(&[0, 1, 2]);
        assert_eq!(
            shorten_through_neighbourhood(&mut space, &walk, u64::MAX, &|| false, None),
            walk
        );
    }

    #[test]
    fn the_neighbourhood_search_respects_its_budget_and_stop() {
        let task = walk_with_jump(1);
        let mut space = StateSpace::new(&task);
        let walk = plan(&[0, 1, 2]);
        assert_eq!(
            shorten_through_neighbourhood(&mut space, &walk, u64::MAX, &|| true, None),
            walk
        );
        // One application: not enough to find the jump's way on.
        assert_eq!(
            shorten_through_neighbourhood(&mut space, &walk, 1, &|| false, None),
            walk
        );
        let broken = plan(&[1, 0]);
        assert_eq!(
            shorten_through_neighbourhood(&mut space, &broken, u64::MAX, &|| false, None),
            broken
        );
    }

    /// [`walk_with_jump`] beside `toggles` facts that operators set and
    /// clear at will: 4 × 2^`toggles` states.
    fn walk_beside_toggles(toggles: u32) -> pddl_ground::Task {
        let mut b = TaskBuilder::new(4 + toggles as usize);
        b.op("step-0-1", &[0], &[1], &[0]);
        b.op("step-1-2", &[1], &[2], &[1]);
        b.op("step-2-3", &[2], &[3], &[2]);
        b.op("jump-0-2", &[0], &[2], &[0]);
        for t in 4..4 + toggles {
            b.op(&format!("set-{t}"), &[], &[t], &[]);
            b.op(&format!("clear-{t}"), &[t], &[], &[t]);
        }
        b.build(&[0], &[3])
    }

    #[test]
    fn exhausting_a_small_state_space_proves_its_cheapest_plan_optimal() {
        for (jump_cost, optimal) in [(1, vec![3, 2]), (3, vec![0, 1, 2])] {
            let task = walk_with_jump(jump_cost);
            let mut space = StateSpace::new(&task);
            let walk = plan(&[0, 1, 2]);
            match exhaust_state_space(&mut space, &walk, 1_000, &|| false) {
                Exhaustion::Optimal(found) => assert_eq!(found.operators, optimal),
                _ => panic!("4 states and 4 transitions fit in 1 000 applications"),
            }
        }
        // Not a plan from the initial state: nothing to explore from.
        let task = walk_with_jump(1);
        let mut space = StateSpace::new(&task);
        assert!(matches!(
            exhaust_state_space(&mut space, &plan(&[1, 0]), 1_000, &|| false),
            Exhaustion::NotReplayed
        ));
    }

    #[test]
    fn an_unfinished_exhaustion_gives_up_early_and_the_neighbourhood_search_goes_on_from_it() {
        // 4 × 256 states, 9 or 10 transitions out of each.
        let task = walk_beside_toggles(8);
        let mut space = StateSpace::new(&task);
        let walk = plan(&[0, 1, 2]);
        let Exhaustion::Unfinished(explored) =
            exhaust_state_space(&mut space, &walk, 500, &|| false)
        else {
            panic!("1 024 states do not fit in 500 applications");
        };
        // The first few expansions show it: the 500 are not spent.
        assert!(explored.work < 100, "{} applications", explored.work);
        let from_scratch = shorten_through_neighbourhood(&mut space, &walk, 1_000, &|| false, None);
        assert_eq!(from_scratch.operators, vec![3, 2]);
        let resumed =
            shorten_through_neighbourhood(&mut space, &walk, 1_000, &|| false, Some(*explored));
        assert_eq!(resumed, from_scratch);
        // A resumed graph is looked at even when it spent the whole budget.
        let Exhaustion::Unfinished(explored) =
            exhaust_state_space(&mut space, &walk, 500, &|| false)
        else {
            panic!("1 024 states do not fit in 500 applications");
        };
        let spent = explored.work;
        assert_eq!(
            shorten_through_neighbourhood(&mut space, &walk, spent, &|| false, Some(*explored)),
            from_scratch
        );
        // Explored around another plan, it is not used.
        let Exhaustion::Unfinished(explored) =
            exhaust_state_space(&mut space, &walk, 500, &|| false)
        else {
            panic!("1 024 states do not fit in 500 applications");
        };
        let other = plan(&[4, 0, 1, 2]);
        assert_eq!(
            shorten_through_neighbourhood(&mut space, &other, 0, &|| false, Some(*explored)),
            other
        );
    }
}
