//! LM-cut (Helmert & Domshlak 2009), admissible.
//!
//! Repeatedly: compute h_max under the remaining costs, remembering for
//! each relaxed operator its costliest precondition (its precondition
//! choice, "supporter"); the goal zone is what reaches the goal through
//! zero-cost operators via their supporters; the cut is the set of
//! operators whose supporter is reachable from the state without entering
//! the goal zone and that have an effect in it. Its cheapest remaining
//! cost is added to h and subtracted from every operator in the cut, and
//! h_max is updated incrementally (as Fast Downward: costs only decrease,
//! so only what the cheaper operators reach is revisited).
//!
//! Two refinements of Fast Downward's make cuts smaller, leaving more cost
//! to later cuts: the exploration towards the cut does not continue past
//! an operator that enters the goal zone, and where several preconditions
//! of a zero-cost operator are equally costly, the goal zone continues
//! through one that only costly operators achieve, or one in the zone
//! already (its "border" and "goal zone detection"). On visitall
//! problem12 the initial state gets 143, the optimal cost, where the
//! original definition ([`LmCut::original`]) gives 54.
//!
//! Costs live per task operator, so the pieces of an operator
//! (conditional effects) share one budget and are charged once per cut:
//! that keeps the cost partitioning admissible.

use pddl_ground::Task;
use pddl_ground::task::{Cost, OperatorId};

use super::Heuristic;
use super::relaxation::{Adjacency, CostQueue, CostType, INFINITE, RelaxedTask};
use crate::state::{StateView, true_facts};

/// The LM-cut heuristic.
#[derive(Clone, Debug)]
pub struct LmCut {
    relaxed: RelaxedTask,
    /// Per task operator, its relaxed pieces.
    pieces: Adjacency,
    /// Adjusted cost of each task operator.
    base_cost: Vec<Cost>,
    /// Remaining cost of each task operator in the current evaluation.
    remaining: Vec<Cost>,
    /// h_max of each proposition.
    prop_cost: Vec<Cost>,
    /// Per relaxed operator: unreached preconditions (0 = fired).
    unsatisfied: Vec<u32>,
    /// Per relaxed operator: its costliest precondition and that cost;
    /// [`NO_SUPPORTER`] until it fires, so that one load tells whether a
    /// proposition supports a fired operator.
    supporter: Vec<u32>,
    supporter_cost: Vec<Cost>,
    queue: CostQueue,
    /// Per proposition, its stamp: [`reached_mark`] of the current round
    /// when the cut's exploration reached it before the goal zone,
    /// [`zone_mark`] when it is in the goal zone, lower otherwise. (An
    /// operator is looked at once per round, from its supporter, so the
    /// cut needs no stamp.)
    mark: Vec<u32>,
    /// Stamp per task operator: charged in the current round.
    charged: Vec<u32>,
    round: u32,
    stack: Vec<u32>,
    cut: Vec<u32>,
    changed: Vec<OperatorId>,
    /// With Fast Downward's refinements (see the module docs).
    refined: bool,
    /// Per proposition, its achievers that cost nothing at the start of
    /// an evaluation, and in the current one (the refined tie-breaking
    /// asks whether there are any).
    base_free_achievers: Vec<u32>,
    free_achievers: Vec<u32>,
}

impl LmCut {
    /// For a task under a cost type.
    pub fn new(task: &Task, cost_type: CostType) -> Self {
        Self::build(task, cost_type, true)
    }

    /// As Helmert and Domshlak defined it, without Fast Downward's
    /// refinements: a value that is lower where goals share the facts
    /// that lead to them, such as freecell's home cells (problem p03's
    /// initial state: 6 against 16). The default's budgets use it as a
    /// measure of how far a plan may be from optimal
    /// (`restarts::InitialBounds`).
    pub fn original(task: &Task, cost_type: CostType) -> Self {
        Self::build(task, cost_type, false)
    }

    /// Switches between the refined and the original definition
    /// ([`LmCut::new`], [`LmCut::original`]) without building the relaxed
    /// task again.
    pub fn set_refined(&mut self, refined: bool) {
        self.refined = refined;
    }

    fn build(task: &Task, cost_type: CostType, refined: bool) -> Self {
        let mut relaxed = RelaxedTask::new(task, cost_type);
        // Cuts are made of operators that reach the goal zone, which
        // irrelevant ones never do.
        relaxed.ignore_irrelevant_operators();
        Self::with_relaxation(task, cost_type, refined, relaxed)
    }

    /// For a task with its relaxation under `cost_type`.
    pub(crate) fn with_relaxation(
        task: &Task,
        cost_type: CostType,
        refined: bool,
        relaxed: RelaxedTask,
    ) -> Self {
        let props = relaxed.props();
        let ops = relaxed.ops.len();
        let base_cost: Vec<Cost> = task
            .operators
            .iter()
            .map(|o| cost_type.operator_cost(task, o))
            .collect();
        let pieces = Adjacency::build(
            base_cost.len(),
            relaxed
                .ops
                .iter()
                .enumerate()
                .filter_map(|(o, op)| op.origin.map(|x| (x, o as u32))),
        );
        let mut base_free_achievers = vec![0; props];
        for (o, op) in relaxed.ops.iter().enumerate() {
            if op.origin.is_none_or(|x| base_cost[x as usize] == 0) {
                for &e in relaxed.eff(o as u32) {
                    base_free_achievers[e as usize] += 1;
                }
            }
        }
        LmCut {
            free_achievers: base_free_achievers.clone(),
            base_free_achievers,
            pieces,
            remaining: base_cost.clone(),
            charged: vec![0; base_cost.len()],
            base_cost,
            prop_cost: vec![INFINITE; props],
            unsatisfied: vec![0; ops],
            supporter: vec![0; ops],
            supporter_cost: vec![0; ops],
            queue: CostQueue::default(),
            mark: vec![0; props],
            round: 0,
            stack: Vec::new(),
            cut: Vec::new(),
            changed: Vec::new(),
            refined,
            relaxed,
        }
    }

    /// Full h_max exploration from the state.
    fn first_exploration(&mut self, facts: &[u64]) {
        // Slices, not the vectors, so that their addresses stay in
        // registers across the queue's pushes (as in the relaxation's
        // exploration).
        let rt = &self.relaxed;
        let remaining = self.remaining.as_slice();
        let prop_cost = self.prop_cost.as_mut_slice();
        let unsatisfied = self.unsatisfied.as_mut_slice();
        let supporter = self.supporter.as_mut_slice();
        let supporter_cost = self.supporter_cost.as_mut_slice();
        let queue = &mut self.queue;
        prop_cost.fill(INFINITE);
        supporter.fill(NO_SUPPORTER);
        queue.clear();
        for (o, op) in rt.ops.iter().enumerate() {
            unsatisfied[o] = op.pre.1 - op.pre.0;
        }
        for p in true_facts(facts).take_while(|&p| (p as usize) < rt.facts) {
            lower(prop_cost, queue, p, 0);
        }
        lower(prop_cost, queue, rt.true_prop(), 0);
        while let Some((c, p)) = queue.pop() {
            if c > prop_cost[p as usize] {
                continue;
            }
            for &o in rt.precondition_of.get(p) {
                let oi = o as usize;
                unsatisfied[oi] -= 1;
                if unsatisfied[oi] == 0 {
                    // Popped last, so a costliest precondition.
                    supporter[oi] = p;
                    supporter_cost[oi] = c;
                    lower_effects(rt, remaining, prop_cost, queue, o, c);
                }
            }
        }
    }

    /// Updates h_max after the operators in `changed` became cheaper.
    fn incremental_exploration(&mut self) {
        let rt = &self.relaxed;
        let remaining = self.remaining.as_slice();
        let prop_cost = self.prop_cost.as_mut_slice();
        let supporter = self.supporter.as_mut_slice();
        let supporter_cost = self.supporter_cost.as_mut_slice();
        let queue = &mut self.queue;
        queue.clear();
        for &x in &self.changed {
            for &o in self.pieces.get(x) {
                if supporter[o as usize] != NO_SUPPORTER {
                    let pre_cost = supporter_cost[o as usize];
                    lower_effects(rt, remaining, prop_cost, queue, o, pre_cost);
                }
            }
        }
        while let Some((c, p)) = queue.pop() {
            if c > prop_cost[p as usize] {
                continue;
            }
            for &o in rt.precondition_of.get(p) {
                let oi = o as usize;
                if supporter[oi] != p || supporter_cost[oi] <= c {
                    continue;
                }
                // The supporter got cheaper: the costliest precondition may change.
                let old = supporter_cost[oi];
                let (mut best, mut best_cost) = (p, c);
                for &q in rt.pre(o) {
                    if prop_cost[q as usize] > best_cost {
                        best = q;
                        best_cost = prop_cost[q as usize];
                    }
                }
                supporter[oi] = best;
                supporter_cost[oi] = best_cost;
                if best_cost != old {
                    lower_effects(rt, remaining, prop_cost, queue, o, best_cost);
                }
            }
        }
    }

    /// One round: finds the cut between the state and the goal zone,
    /// charges its cheapest cost to its operators (listed in `changed`),
    /// updates h_max and returns that cost; `None` if there is no cut of
    /// positive finite cost (which a consistent exploration never gives).
    fn cut_round(&mut self, facts: &[u64], round: u32) -> Option<Cost> {
        let rt = &self.relaxed;
        let remaining = self.remaining.as_mut_slice();
        let supporter = self.supporter.as_mut_slice();
        let supporter_cost = self.supporter_cost.as_slice();
        let prop_cost = self.prop_cost.as_slice();
        let mark = self.mark.as_mut_slice();
        let (reached, zone) = (reached_mark(round), zone_mark(round));
        let free_achievers = self.free_achievers.as_slice();
        let (stack, cut) = (&mut self.stack, &mut self.cut);
        let refined = self.refined;
        // Goal zone: backwards from the goal through zero-cost operators.
        let goal = rt.goal_prop();
        stack.clear();
        mark[goal as usize] = zone;
        stack.push(goal);
        while let Some(p) = stack.pop() {
            for &o in rt.achievers.get(p) {
                let oi = o as usize;
                if supporter[oi] == NO_SUPPORTER || cost(rt, remaining, o) != 0 {
                    continue;
                }
                // Among equally costly preconditions, the zone continues
                // through one that only costly operators achieve, or one
                // in the zone already: otherwise, with unit costs, a goal
                // cut before may lead the zone to facts many goals share,
                // and one cut there stands for all of them (visitall
                // problem12: 56 instead of the perfect 143).
                if refined
                    && let Some(&q) = rt.pre(o).iter().find(|&&q| {
                        prop_cost[q as usize] == supporter_cost[oi]
                            && (free_achievers[q as usize] == 0 || mark[q as usize] == zone)
                    })
                {
                    supporter[oi] = q;
                }
                let q = supporter[oi];
                if mark[q as usize] != zone {
                    mark[q as usize] = zone;
                    stack.push(q);
                }
            }
        }
        // Cut: forwards from the state through supporters.
        stack.clear();
        cut.clear();
        for p in true_facts(facts).take_while(|&p| (p as usize) < rt.facts) {
            if mark[p as usize] != zone {
                mark[p as usize] = reached;
                stack.push(p);
            }
        }
        let true_prop = rt.true_prop();
        if mark[true_prop as usize] != zone {
            mark[true_prop as usize] = reached;
        }
        stack.push(true_prop);
        while let Some(p) = stack.pop() {
            for &o in rt.precondition_of.get(p) {
                if supporter[o as usize] != p {
                    continue;
                }
                // One pass over the effects: those outside the zone are
                // reached, unless the operator enters the zone and the
                // definition is the refined one. Refined, an operator in
                // the cut does not make its other effects reached: a
                // relaxed plan enters the zone first through an operator
                // whose supporter was made true by operators with no
                // effect in the zone, so this smaller cut is a landmark
                // too. Its effects reached before the zone effect was
                // seen are taken back.
                let pushed_from = stack.len();
                let mut enters_zone = false;
                for &e in rt.eff(o) {
                    let m = mark[e as usize];
                    if m == zone {
                        enters_zone = true;
                        if refined {
                            break;
                        }
                    } else if m < reached {
                        mark[e as usize] = reached;
                        stack.push(e);
                    }
                }
                if enters_zone {
                    cut.push(o);
                    if refined {
                        for e in stack.drain(pushed_from..) {
                            mark[e as usize] = 0;
                        }
                    }
                }
            }
        }
        let cut_cost = cut
            .iter()
            .map(|&o| cost(rt, remaining, o))
            .min()
            .unwrap_or(0);
        if cut_cost == 0 || cut_cost == INFINITE {
            return None;
        }
        self.changed.clear();
        for &o in cut.iter() {
            if let Some(x) = rt.ops[o as usize].origin
                && self.charged[x as usize] != round
            {
                self.charged[x as usize] = round;
                remaining[x as usize] -= cut_cost;
                self.changed.push(x);
                if remaining[x as usize] == 0 && self.refined {
                    for &piece in self.pieces.get(x) {
                        for &e in rt.eff(piece) {
                            self.free_achievers[e as usize] += 1;
                        }
                    }
                }
            }
        }
        self.incremental_exploration();
        Some(cut_cost)
    }

    fn next_round(&mut self) {
        self.round += 1;
        // Marks are 2·round and 2·round + 1: start again before they wrap.
        if self.round > MAX_ROUND {
            self.mark.fill(0);
            self.charged.fill(0);
            self.round = 1;
        }
    }
}

/// A relaxed operator's supporter before it fires.
const NO_SUPPORTER: u32 = u32::MAX;

/// The last round before the marks start again.
const MAX_ROUND: u32 = u32::MAX / 2 - 1;

/// The mark of a proposition the cut's exploration reached in `round`.
#[inline]
fn reached_mark(round: u32) -> u32 {
    2 * round
}

/// The mark of a proposition in the goal zone of `round`.
#[inline]
fn zone_mark(round: u32) -> u32 {
    2 * round + 1
}

/// The remaining cost of relaxed operator `o` (its task operator's).
#[inline]
fn cost(rt: &RelaxedTask, remaining: &[Cost], o: u32) -> Cost {
    rt.ops[o as usize]
        .origin
        .map_or(0, |x| remaining[x as usize])
}

/// Lowers the effects of `o`, whose costliest precondition costs
/// `pre_cost`, to `pre_cost + cost(o)`.
#[inline]
fn lower_effects(
    rt: &RelaxedTask,
    remaining: &[Cost],
    prop_cost: &mut [Cost],
    queue: &mut CostQueue,
    o: u32,
    pre_cost: Cost,
) {
    let target = pre_cost.saturating_add(cost(rt, remaining, o));
    for &e in rt.eff(o) {
        lower(prop_cost, queue, e, target);
    }
}

#[inline]
fn lower(prop_cost: &mut [Cost], queue: &mut CostQueue, p: u32, cost: Cost) {
    if cost < prop_cost[p as usize] {
        prop_cost[p as usize] = cost;
        queue.push(cost, p);
    }
}

impl Heuristic for LmCut {
    fn fork(&self) -> Option<Box<dyn Heuristic + Send>> {
        Some(Box::new(self.clone()))
    }

    fn evaluate(&mut self, state: StateView<'_>, _: Option<&mut Vec<OperatorId>>) -> Option<Cost> {
        self.remaining.copy_from_slice(&self.base_cost);
        if self.refined {
            self.free_achievers
                .copy_from_slice(&self.base_free_achievers);
        }
        self.first_exploration(state.facts);
        let goal = self.relaxed.goal_prop();
        if self.prop_cost[goal as usize] == INFINITE {
            return None;
        }
        let mut h: Cost = 0;
        while self.prop_cost[goal as usize] != 0 {
            self.next_round();
            // A consistent exploration always has a cut of positive
            // finite cost; without one, stop rather than loop.
            let Some(cut_cost) = self.cut_round(state.facts, self.round) else {
                break;
            };
            h = h.saturating_add(cut_cost);
        }
        Some(h)
    }
}
