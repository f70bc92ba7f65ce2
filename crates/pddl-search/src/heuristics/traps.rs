//! Dead-end traps learned from h²: sets of literal pairs that, once all
//! false, stay all false, and that include a pair (or a literal) of the
//! goal, so that every state where they are all false is a dead end.
//!
//! Relaxation heuristics see only what single facts can reach, and miss
//! dead ends that pairs see: on Puzznic, a kind of three tiles cut in two
//! by a wall. h² ([`super::h2`]) sees many of them, but costs far more
//! than an evaluation (tens of milliseconds on a Game Boy board, some
//! thousand evaluations), so it runs on a few states only. Where it
//! proves a state dead, [`TrapLearner::learn`] keeps a small
//! certificate instead of the verdict: the goal element h² found
//! unreachable, and for every way the relaxation could reach an element
//! of the set, one element of its conditions that it keeps
//! unreachable, chosen among the pairs unreachable from the initial state
//! (mutexes, false in every reachable state, so they cost nothing) where
//! possible, then among the elements already chosen. Such a set is a
//! trap (Lipovetzky, Muise and Geffner's "traps", learned as Steinmetz
//! and Hoffmann learn critical-path conjunctions): the fixpoint of h² from
//! any state where its elements are all false never reaches one, so that
//! state's goal is unreachable too. Checking a trap is a look at a few
//! bits per element, and it recognises every state the learned one leads
//! to, and every other with the same elements false.
//!
//! [`TrapLearning`] wraps a heuristic with a learner: states some trap
//! catches are dead ends, and on a budget of h² work proportional to the
//! evaluations made, the states evaluated are checked by h² and traps
//! learned where they are dead.

use std::sync::Arc;

use hashbrown::HashSet;
use pddl_ground::Task;
use pddl_ground::task::{Cost, OperatorId};

use super::Heuristic;
use super::h2::{Literal, PairRelaxation, PairTable};
use crate::state::StateView;

/// An element of a trap: two literals `a <= b`, or one literal (`a == b`).
pub type Element = (Literal, Literal);

/// A learned trap: while every element is false, the goal is out of reach.
#[derive(Clone, Debug)]
pub struct Trap {
    /// The elements, each false in the state learned from.
    pub elements: Vec<Element>,
    /// The element that held in the last state asked about.
    watched: usize,
    /// States it caught.
    caught: u64,
}

/// Most traps kept at once.
pub const MAX_TRAPS: usize = 256;

/// Most elements of a trap worth keeping: one is checked on every state
/// that no trap before it catches.
pub const MAX_TRAP_ELEMENTS: usize = 2_000;

/// What [`TrapLearner::learn`] found out about a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Learned {
    /// h² proved the state dead; the trap's index.
    Trap(usize),
    /// h² proved the state dead, but its trap was too large to keep
    /// ([`MAX_TRAP_ELEMENTS`]).
    Dead,
    /// h² reaches the goal from the state (it may still be a dead end).
    Alive,
    /// The h² fixpoint needed more work than allowed.
    OutOfWork,
}

/// The learned traps of a task, and what learning needs. A clone shares
/// what learning needs (the relaxation and h² from the initial state) and
/// copies the traps.
#[derive(Clone, Debug)]
pub struct TrapLearner {
    relaxation: Arc<PairRelaxation>,
    /// h² from the initial state: pairs not in it are false in every
    /// reachable state.
    from_init: Arc<PairTable>,
    /// Per literal: the pieces that add it.
    adders: Arc<Vec<Vec<u32>>>,
    traps: Vec<Trap>,
}

impl TrapLearner {
    /// A learner for `task`; `None` for tasks with axioms (derived facts
    /// are left out of h²), with more literals than h² takes, or whose
    /// fixpoint from the initial state needs more than `max_work` word
    /// operations.
    pub fn new(task: &Task, max_work: u64, stop: &dyn Fn() -> bool) -> Option<Self> {
        if !task.axioms.is_empty() {
            return None;
        }
        let relaxation = PairRelaxation::new(task, true)?;
        let init = relaxation.state_literals(&task.init_facts);
        let from_init = relaxation.reachable_pairs(&init, max_work, stop)?;
        let mut adders = vec![Vec::new(); relaxation.literals()];
        for (index, piece) in relaxation.pieces.iter().enumerate() {
            for &a in &piece.add {
                adders[a as usize].push(index as u32);
            }
        }
        Some(TrapLearner {
            relaxation: Arc::new(relaxation),
            from_init: Arc::new(from_init),
            adders: Arc::new(adders),
            traps: Vec::new(),
        })
    }

    /// The traps learned so far.
    pub fn traps(&self) -> &[Trap] {
        &self.traps
    }

    /// Whether some learned trap has every element false in `state` (a
    /// state reachable from the initial one): a proven dead end.
    pub fn is_trapped(&mut self, state: StateView<'_>) -> bool {
        self.check(state).0
    }

    /// As [`TrapLearner::is_trapped`], also giving the elements looked at.
    fn check(&mut self, state: StateView<'_>) -> (bool, u64) {
        let holds = |l: Literal| match self.relaxation.negated_fact(l) {
            Some(f) => !state.has(f),
            None => state.has(l),
        };
        let mut looked_at = 0;
        // States searched one after another are alike: the element that
        // held last time is asked first, and usually holds again; the
        // search for another goes on from there.
        for trap in &mut self.traps {
            let n = trap.elements.len();
            let found = (0..n).map(|k| (trap.watched + k) % n).find(|&i| {
                let (a, b) = trap.elements[i];
                holds(a) && holds(b)
            });
            match found {
                Some(i) => {
                    looked_at += ((i + n - trap.watched) % n + 1) as u64;
                    trap.watched = i;
                }
                None => {
                    trap.caught += 1;
                    return (true, looked_at + n as u64);
                }
            }
        }
        (false, looked_at)
    }

    /// Keeps `trap`, making room by dropping the trap that caught the
    /// fewest states (the oldest among them) when [`MAX_TRAPS`] are kept.
    fn keep(&mut self, trap: Trap) -> usize {
        if self.traps.len() >= MAX_TRAPS
            && let Some((weakest, _)) = self.traps.iter().enumerate().min_by_key(|(_, t)| t.caught)
        {
            self.traps.remove(weakest);
        }
        self.traps.push(trap);
        self.traps.len() - 1
    }

    /// Runs h² from `state` (reachable from the initial state) within
    /// `max_work` word operations; where it proves the goal unreachable,
    /// learns a trap that catches `state`.
    pub fn learn(&mut self, state: StateView<'_>, max_work: u64) -> (Learned, u64) {
        let facts: Vec<_> = crate::state::true_facts(state.facts)
            .take_while(|&f| (f as usize) < self.relaxation.facts())
            .collect();
        let init = self.relaxation.state_literals(&facts);
        let Some((from_state, work)) =
            self.relaxation
                .reachable_pairs_counted(&init, max_work, &|| false)
        else {
            return (Learned::OutOfWork, max_work);
        };
        let Some(goal_element) = from_state.first_apart(&self.relaxation.goal) else {
            return (Learned::Alive, work);
        };
        match self.certificate(&from_state, goal_element) {
            Some(elements) if elements.len() <= MAX_TRAP_ELEMENTS => {
                let index = self.keep(Trap {
                    elements,
                    watched: 0,
                    caught: 0,
                });
                (Learned::Trap(index), work)
            }
            // Too large to be worth checking on every state.
            Some(_) => (Learned::Dead, work),
            None => {
                debug_assert!(false, "h² said dead but no certificate was found");
                (Learned::Alive, work)
            }
        }
    }

    /// The trap grown from `goal_element` (unreachable from the state
    /// `from_state` was computed from): for every way the relaxation
    /// could reach one of its elements, an element of that way's
    /// conditions that is unreachable too. Mutexes (pairs unreachable
    /// from the initial state) block for free and are left out.
    fn certificate(&self, from_state: &PairTable, goal_element: Element) -> Option<Vec<Element>> {
        let mut chosen: HashSet<Element> = HashSet::new();
        let mut order: Vec<Element> = Vec::new();
        let mut queue: Vec<Element> = Vec::new();
        let mut keep = |e: Element, chosen: &mut HashSet<Element>, queue: &mut Vec<Element>| {
            if !self.is_mutex(e) && chosen.insert(e) {
                order.push(e);
                queue.push(e);
            }
        };
        keep(goal_element, &mut chosen, &mut queue);
        let pieces = &self.relaxation.pieces;
        while let Some((a, b)) = queue.pop() {
            // Every piece adding `a` (and, for a pair, every piece adding
            // `b`, the other one persisting or added beside it).
            let ends: &[(Literal, Literal)] = if a == b { &[(a, a)] } else { &[(a, b), (b, a)] };
            for &(added, other) in ends {
                for &p in &self.adders[added as usize] {
                    let piece = &pieces[p as usize];
                    if let Some(e) = self.blocker(from_state, &piece.condition, None, &chosen) {
                        keep(e, &mut chosen, &mut queue);
                        continue;
                    }
                    if added == other {
                        return None;
                    }
                    // `piece` can fire: `other` must be blocked beside it,
                    // added by a piece of the same operator...
                    for &q in &self.adders[other as usize] {
                        let beside = &pieces[q as usize];
                        if beside.slot != piece.slot {
                            continue;
                        }
                        let e = self.blocker(from_state, &beside.condition, None, &chosen)?;
                        keep(e, &mut chosen, &mut queue);
                    }
                    // ... or persisting.
                    if piece.del.binary_search(&other).is_err() {
                        let e = if piece.condition.is_empty() {
                            let single = (other, other);
                            (!from_state.together(other, other)).then_some(single)?
                        } else {
                            self.blocker(from_state, &piece.condition, Some(other), &chosen)?
                        };
                        keep(e, &mut chosen, &mut queue);
                    }
                }
            }
        }
        Some(order)
    }

    /// Whether an element is false in every state reachable from the
    /// initial one.
    fn is_mutex(&self, (a, b): Element) -> bool {
        !self.from_init.together(a, b)
    }

    /// An element unreachable from the state of `from_state` among the
    /// pairs of `literals` (or, with `with`, among `with` paired with each
    /// of `literals`): a mutex where there is one, else one chosen
    /// already, else the first.
    fn blocker(
        &self,
        from_state: &PairTable,
        literals: &[Literal],
        with: Option<Literal>,
        chosen: &HashSet<Element>,
    ) -> Option<Element> {
        let mut best: Option<(u8, Element)> = None;
        let mut consider = |x: Literal, y: Literal| -> bool {
            let e = (x.min(y), x.max(y));
            if from_state.together(e.0, e.1) {
                return false;
            }
            let rank = if self.is_mutex(e) {
                0
            } else if chosen.contains(&e) {
                1
            } else {
                2
            };
            if best.is_none_or(|(r, _)| rank < r) {
                best = Some((rank, e));
            }
            rank == 0
        };
        match with {
            Some(other) => {
                for &x in literals {
                    if consider(x, other) {
                        break;
                    }
                }
            }
            None => {
                'outer: for (i, &x) in literals.iter().enumerate() {
                    for &y in &literals[i..] {
                        if consider(x, y) {
                            break 'outer;
                        }
                    }
                }
            }
        }
        best.map(|(_, e)| e)
    }
}

/// Word operations of h² each evaluation earns (an evaluation of h_FF on
/// a Puzznic Game Boy board costs some 10 000, one fixpoint some 5
/// million): the slow Game Boy levels take 2 % to 64 % longer with traps.
pub const WORK_PER_EVALUATION: u64 = 3_000;

/// How far above the lowest estimate seen a state's may be for h² to
/// check it: states far above it are ones a search seldom goes on from
/// (Puzznic level 048: solved in 35 s with 1, not in 60 s checking any
/// state; the same expansions as without traps).
const PROMISING_SLACK: Cost = 1;

/// Word operations one element of a trap costs to check (a few bit
/// tests), in the units of [`WORK_PER_EVALUATION`].
const WORK_PER_ELEMENT: u64 = 4;

/// Most word operations of one fixpoint (the initial state's, or one a
/// state is checked with); a task that needs more learns nothing.
pub const MAX_WORK: u64 = 400_000_000;

/// A heuristic whose dead ends include the states learned traps catch,
/// learning traps with h² on a budget: each evaluation earns
/// [`WORK_PER_EVALUATION`] word operations of h², and once the credit pays
/// for a fixpoint (the last one's work), the state being evaluated is
/// checked. Deterministic: the budget counts work, not time.
pub struct TrapLearning<'t> {
    inner: Box<dyn Heuristic + 't>,
    learner: TrapLearner,
    credit: u64,
    /// The work the last fixpoint took (the price of the next).
    last_work: u64,
    /// The lowest estimate of a state not proven dead.
    lowest_h: Cost,
    /// Checks made, traps learned, states caught by a trap.
    pub stats: TrapStats,
}

/// Counts of a [`TrapLearning`] heuristic.
#[derive(Clone, Copy, Debug, Default)]
pub struct TrapStats {
    /// h² fixpoints run on states.
    pub checks: u64,
    /// Traps learned.
    pub learned: u64,
    /// Evaluated states a trap caught.
    pub caught: u64,
}

impl<'t> TrapLearning<'t> {
    /// Wraps `inner` with `learner`.
    pub fn new(inner: Box<dyn Heuristic + 't>, learner: TrapLearner) -> Self {
        TrapLearning {
            inner,
            learner,
            credit: 0,
            last_work: 0,
            lowest_h: Cost::MAX,
            stats: TrapStats::default(),
        }
    }

    /// Whether a known trap catches the state.
    fn caught(&mut self, state: StateView<'_>) -> bool {
        let (trapped, looked_at) = self.learner.check(state);
        // Checking the traps is paid from the same credit as learning
        // them: where checks grow costly, learning slows down.
        self.credit = (self.credit + WORK_PER_EVALUATION)
            .saturating_sub(looked_at.saturating_mul(WORK_PER_ELEMENT));
        self.stats.caught += u64::from(trapped);
        trapped
    }

    /// Whether h², run where the credit allows on a state whose estimate
    /// `h` is among the lowest seen (the states a search goes on from),
    /// proves the state dead.
    fn proven_dead(&mut self, state: StateView<'_>, h: Cost) -> bool {
        let promising = h <= self.lowest_h.saturating_add(PROMISING_SLACK);
        self.lowest_h = self.lowest_h.min(h);
        if self.credit < self.last_work || !promising {
            return false;
        }
        let (learned, work) = self.learner.learn(state, MAX_WORK);
        self.stats.checks += 1;
        self.credit = self.credit.saturating_sub(work);
        self.last_work = work;
        match learned {
            Learned::Trap(_) => {
                self.stats.learned += 1;
                true
            }
            Learned::Dead => true,
            Learned::Alive | Learned::OutOfWork => false,
        }
    }
}

impl Heuristic for TrapLearning<'_> {
    fn evaluate(
        &mut self,
        state: StateView<'_>,
        preferred: Option<&mut Vec<OperatorId>>,
    ) -> Option<Cost> {
        if self.caught(state) {
            return None;
        }
        let h = self.inner.evaluate(state, preferred)?;
        (!self.proven_dead(state, h)).then_some(h)
    }

    fn has_preferred_operators(&self) -> bool {
        self.inner.has_preferred_operators()
    }

    fn memory_bytes(&self) -> u64 {
        let elements: usize = self.learner.traps.iter().map(|t| t.elements.len()).sum();
        // The table from the initial state, and one for the state checked.
        let tables = 2 * self.learner.from_init.bytes();
        self.inner.memory_bytes() + (elements * std::mem::size_of::<Element>()) as u64 + tables
    }

    fn evaluate_registered(
        &mut self,
        id: crate::state::StateId,
        state: StateView<'_>,
        preferred: Option<&mut Vec<OperatorId>>,
    ) -> Option<Cost> {
        if self.caught(state) {
            return None;
        }
        let h = self.inner.evaluate_registered(id, state, preferred)?;
        (!self.proven_dead(state, h)).then_some(h)
    }

    fn is_path_dependent(&self) -> bool {
        self.inner.is_path_dependent()
    }

    fn notify_initial_state(&mut self, id: crate::state::StateId, state: StateView<'_>) {
        self.inner.notify_initial_state(id, state);
    }

    fn notify_transition(
        &mut self,
        parent: crate::state::StateId,
        op: OperatorId,
        child: crate::state::StateId,
        state: StateView<'_>,
    ) {
        self.inner.notify_transition(parent, op, child, state);
    }
}

#[cfg(test)]
mod tests {
    use hashbrown::HashMap;

    use super::*;
    use crate::successor::StateSpace;
    use crate::testing::{Lcg, TaskBuilder, random_task, reachable_states};

    /// Per state of `states`: whether a goal state is reachable from it.
    fn alive(space: &mut StateSpace<'_>, states: &[Vec<u64>]) -> Vec<bool> {
        let index: HashMap<&Vec<u64>, usize> =
            states.iter().enumerate().map(|(i, s)| (s, i)).collect();
        let mut predecessors = vec![Vec::new(); states.len()];
        let (mut ops, mut next) = (Vec::new(), Vec::new());
        for (i, state) in states.iter().enumerate() {
            space.applicable(state, &mut ops);
            for &op in &ops {
                if space.apply(state, op, &mut next) {
                    predecessors[index[&next]].push(i);
                }
            }
        }
        let mut alive: Vec<bool> = states.iter().map(|s| space.is_goal(s)).collect();
        let mut queue: Vec<usize> = (0..states.len()).filter(|&i| alive[i]).collect();
        while let Some(i) = queue.pop() {
            for &p in &predecessors[i] {
                if !alive[p] {
                    alive[p] = true;
                    queue.push(p);
                }
            }
        }
        alive
    }

    /// p and q are wanted together; with the resource r each is made by
    /// deleting the other, with s both at once. Dropping s for r is a
    /// dead end that relaxed reachability does not see.
    fn resource_task() -> Task {
        let mut b = TaskBuilder::new(4);
        let (p, q, r, s) = (0, 1, 2, 3);
        b.op("make-p", &[r], &[p], &[q]);
        b.op("make-q", &[r], &[q], &[p]);
        b.op("make-both", &[s], &[p, q], &[]);
        b.op("drop", &[s], &[r], &[s]);
        b.build(&[s], &[p, q])
    }

    #[test]
    fn searches_on_one_space_share_the_fixpoint_but_not_the_traps() {
        let task = resource_task();
        let mut space = StateSpace::new(&task);
        let mut builds = 0;
        let mut build = |task: &Task| {
            builds += 1;
            TrapLearner::new(task, u64::MAX, &|| false)
        };
        let mut first = space.fresh_trap_learner(&mut build).expect("small task");
        let dropped = reachable_states(&mut space)
            .into_iter()
            .find(|st| {
                let mut fluents = Vec::new();
                let view = space.view(st, &mut fluents);
                (0..4).all(|f| view.has(f) == (f == 2))
            })
            .expect("reachable");
        let mut fluents = Vec::new();
        let view = space.view(&dropped, &mut fluents);
        assert_eq!(first.learn(view, u64::MAX).0, Learned::Trap(0));
        let second = space.fresh_trap_learner(&mut build).expect("small task");
        assert_eq!(builds, 1, "the fixpoint from the initial state runs once");
        assert!(Arc::ptr_eq(&first.from_init, &second.from_init));
        assert!(second.traps().is_empty(), "each search learns its own");
    }

    #[test]
    fn a_trap_catches_the_dead_ends_only_pairs_see_and_no_other_state() {
        let task = resource_task();
        let (p, q, r, s) = (0, 1, 2, 3);
        let mut learner = TrapLearner::new(&task, u64::MAX, &|| false).expect("small task");
        let mut space = StateSpace::new(&task);
        let states = reachable_states(&mut space);
        let mut fluents = Vec::new();
        let holding = |facts: &[u32]| {
            states
                .iter()
                .find(|st| {
                    let mut fluents = Vec::new();
                    let view = space.view(st, &mut fluents);
                    (0..4).all(|f| view.has(f) == facts.contains(&f))
                })
                .cloned()
                .expect("reachable")
        };
        let (start, dropped, made_p) = (holding(&[s]), holding(&[r]), holding(&[r, p]));
        assert_eq!(
            learner.learn(space.view(&start, &mut fluents), u64::MAX).0,
            Learned::Alive
        );
        assert!(!learner.is_trapped(space.view(&start, &mut fluents)));
        assert_eq!(
            learner
                .learn(space.view(&dropped, &mut fluents), u64::MAX)
                .0,
            Learned::Trap(0)
        );
        // Learned from {r}, it also catches {r, p}, never seen by h².
        assert!(learner.is_trapped(space.view(&dropped, &mut fluents)));
        assert!(learner.is_trapped(space.view(&made_p, &mut fluents)));
        assert!(!learner.is_trapped(space.view(&start, &mut fluents)));
        assert_eq!(learner.traps()[0].elements, vec![(p, q), (s, s)]);
    }

    #[test]
    fn traps_learned_on_random_tasks_catch_dead_ends_only() {
        let mut rng = Lcg(41);
        let (mut learned, mut caught_unseen) = (0, 0);
        for _ in 0..300 {
            let task = random_task(&mut rng);
            let Some(mut learner) = TrapLearner::new(&task, u64::MAX, &|| false) else {
                continue;
            };
            let mut space = StateSpace::new(&task);
            let states = reachable_states(&mut space);
            let alive = alive(&mut space, &states);
            let mut fluents = Vec::new();
            // Learn from every other dead end, then ask about them all.
            let mut learned_from = vec![false; states.len()];
            for (i, state) in states.iter().enumerate() {
                let view = space.view(state, &mut fluents);
                if i % 2 == 1 || learner.is_trapped(view) {
                    continue;
                }
                match learner.learn(view, u64::MAX).0 {
                    Learned::Trap(_) => {
                        assert!(!alive[i], "h² called a live state dead");
                        assert!(learner.is_trapped(space.view(state, &mut fluents)));
                        learned += 1;
                        learned_from[i] = true;
                    }
                    Learned::Alive | Learned::Dead => {}
                    Learned::OutOfWork => unreachable!("no work limit"),
                }
            }
            for (i, state) in states.iter().enumerate() {
                if learner.is_trapped(space.view(state, &mut fluents)) {
                    assert!(!alive[i], "a trap caught a live state");
                    caught_unseen += usize::from(i % 2 == 1);
                }
            }
        }
        // The sample must exercise learning and generalisation.
        assert!(learned >= 100, "{learned} traps learned");
        assert!(
            caught_unseen >= 300,
            "{caught_unseen} unseen dead ends caught"
        );
    }
}
