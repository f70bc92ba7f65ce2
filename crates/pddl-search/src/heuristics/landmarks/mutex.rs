//! Pairwise mutexes by h² (Haslum & Geffner 2000): the fixpoint of the
//! pairs of facts reachable together, one operator at a time. Two facts
//! not in a reachable pair never hold together in a reachable state.
//!
//! Sound simplifications (they only make more pairs reachable, i.e. find
//! fewer mutexes): negative and numeric conditions are ignored; every
//! fact an operator may add (conditional effects included) is taken as
//! added together with every other whose effect condition is reachable; only unconditional deletes (and
//! those of the effect that adds the fact) are taken as deleting; derived
//! facts (axiom heads) are never mutex with anything.
//!
//! The pair table takes `facts²` bits, so tasks with more than
//! [`MAX_MUTEX_FACTS`] facts get no mutexes, and the fixpoint is bounded
//! by a work budget; an unfinished fixpoint would claim unsound mutexes,
//! so it gives none either.

use pddl_ground::Task;
use pddl_ground::task::FactId;

/// Most facts for which the pair table is built (`n²/8` bytes: 32 MiB).
pub const MAX_MUTEX_FACTS: usize = 16_384;

/// The reachable pairs of facts of a task (h² with m = 2).
#[derive(Clone, Debug)]
pub struct Mutexes {
    facts: usize,
    words: usize,
    /// Row `f` (`words` words): the facts reachable together with `f`;
    /// bit `f` itself says whether `f` is reachable.
    pairs: Vec<u64>,
    /// Per fact: derived by an axiom (never mutex).
    derived: Vec<bool>,
}

/// One way an operator adds facts: its precondition plus an effect
/// condition, the facts added and the facts certainly deleted.
struct Piece {
    condition: Vec<FactId>,
    add: Vec<FactId>,
    del: Vec<FactId>,
    /// Index of the operator (among those that add something).
    slot: usize,
}

/// Pieces of the mutex fixpoint between two questions to its stop
/// condition: a piece costs a few word operations per fact word.
const PIECES_PER_STOP_CHECK: usize = 1024;

impl Mutexes {
    /// Computes the reachable pairs of `task`; `None` when the task has
    /// more than [`MAX_MUTEX_FACTS`] facts or the fixpoint needs more
    /// than `max_work` word operations.
    pub fn compute(task: &Task, max_work: u64) -> Option<Self> {
        Self::compute_within(task, max_work, &|| false)
    }

    /// As [`Mutexes::compute`], also `None` once `stop` says stop (asked
    /// every `PIECES_PER_STOP_CHECK` pieces of the fixpoint).
    pub fn compute_within(task: &Task, max_work: u64, stop: &dyn Fn() -> bool) -> Option<Self> {
        let facts = task.facts.len();
        if facts > MAX_MUTEX_FACTS {
            return None;
        }
        let words = facts.div_ceil(64).max(1);
        let mut derived = vec![false; facts];
        for axiom in &task.axioms {
            if let Some(d) = derived.get_mut(axiom.head as usize) {
                *d = true;
            }
        }
        let usable = |f: &FactId| (*f as usize) < facts && !derived[*f as usize];
        // Each operator's pieces, and per slot its precondition.
        let mut pieces: Vec<Piece> = Vec::new();
        let mut preconditions: Vec<Vec<FactId>> = Vec::new();
        for op in &task.operators {
            let pre: Vec<FactId> = op.precondition.pos.iter().copied().filter(usable).collect();
            let mut adds: Vec<FactId> = op.add.iter().copied().filter(usable).collect();
            for c in &op.conditional {
                adds.extend(c.add.iter().copied().filter(usable));
            }
            adds.sort_unstable();
            adds.dedup();
            if adds.is_empty() {
                continue;
            }
            let deleted = |dels: &mut dyn Iterator<Item = &FactId>| -> Vec<FactId> {
                let mut v: Vec<FactId> = dels
                    .copied()
                    .filter(|f| usable(f) && adds.binary_search(f).is_err())
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            let slot = preconditions.len();
            let uncond_add: Vec<FactId> = op.add.iter().copied().filter(usable).collect();
            if !uncond_add.is_empty() {
                pieces.push(Piece {
                    condition: pre.clone(),
                    add: uncond_add,
                    del: deleted(&mut op.del.iter()),
                    slot,
                });
            }
            for c in &op.conditional {
                let add: Vec<FactId> = c.add.iter().copied().filter(usable).collect();
                if add.is_empty() {
                    continue;
                }
                let mut condition = pre.clone();
                condition.extend(c.condition.pos.iter().copied().filter(usable));
                condition.sort_unstable();
                condition.dedup();
                pieces.push(Piece {
                    condition,
                    add,
                    del: deleted(&mut op.del.iter().chain(&c.del)),
                    slot,
                });
            }
            preconditions.push(pre);
        }
        let init: Vec<FactId> = task.init_facts.iter().copied().filter(usable).collect();
        let mut m = Mutexes {
            facts,
            words,
            pairs: vec![0; facts * words],
            derived,
        };
        for &a in &init {
            for &b in &init {
                m.set(a, b);
            }
        }
        // Per operator slot: its precondition is pairwise reachable.
        let mut applicable = vec![false; preconditions.len()];
        // Per piece: its condition is pairwise reachable; per operator
        // slot: the adds of its enabled pieces.
        let mut enabled = vec![false; pieces.len()];
        let mut enabled_adds: Vec<Vec<FactId>> = vec![Vec::new(); preconditions.len()];
        let mut compatible = vec![0u64; words];
        let mut work: u64 = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for (index, piece) in pieces.iter().enumerate() {
                let slot = piece.slot;
                work += ((piece.condition.len() + piece.add.len() + 1) * words) as u64;
                if work > max_work || (index % PIECES_PER_STOP_CHECK == 0 && stop()) {
                    return None;
                }
                if !applicable[slot] {
                    if !m.pairwise(&preconditions[slot]) {
                        continue;
                    }
                    applicable[slot] = true;
                }
                if !enabled[index] {
                    if !m.pairwise(&piece.condition) {
                        continue;
                    }
                    enabled[index] = true;
                    enabled_adds[slot].extend_from_slice(&piece.add);
                }
                // The operator's effects that can fire together.
                for &a in &piece.add {
                    for &b in &enabled_adds[slot] {
                        changed |= m.set(a, b);
                    }
                }
                // Facts reachable together with the whole condition and
                // not deleted: they persist next to the added facts.
                match piece.condition.split_first() {
                    Some((&first, rest)) => {
                        compatible.copy_from_slice(m.row(first));
                        for &p in rest {
                            for (c, r) in compatible.iter_mut().zip(m.row(p)) {
                                *c &= r;
                            }
                        }
                    }
                    None => {
                        // No condition: every reachable fact.
                        compatible.fill(0);
                        for f in 0..facts as FactId {
                            if m.reachable(f) {
                                compatible[f as usize / 64] |= 1 << (f % 64);
                            }
                        }
                    }
                }
                for &d in &piece.del {
                    compatible[d as usize / 64] &= !(1 << (d % 64));
                }
                for &a in &piece.add {
                    let start = a as usize * words;
                    for (w, &c) in compatible.iter().enumerate() {
                        let mut new = c & !m.pairs[start + w];
                        if new == 0 {
                            continue;
                        }
                        changed = true;
                        m.pairs[start + w] |= new;
                        while new != 0 {
                            let r = (w * 64) as u32 + new.trailing_zeros();
                            new &= new - 1;
                            m.pairs[r as usize * words + a as usize / 64] |= 1 << (a % 64);
                        }
                    }
                }
            }
        }
        Some(m)
    }

    fn row(&self, f: FactId) -> &[u64] {
        let start = f as usize * self.words;
        &self.pairs[start..start + self.words]
    }

    fn bit(&self, a: FactId, b: FactId) -> bool {
        self.pairs[a as usize * self.words + b as usize / 64] & (1 << (b % 64)) != 0
    }

    /// Marks `{a, b}` reachable (both ways); whether it was new.
    fn set(&mut self, a: FactId, b: FactId) -> bool {
        if self.bit(a, b) {
            return false;
        }
        self.pairs[a as usize * self.words + b as usize / 64] |= 1 << (b % 64);
        self.pairs[b as usize * self.words + a as usize / 64] |= 1 << (a % 64);
        true
    }

    /// Whether every pair of `facts` (each with itself too) is reachable.
    fn pairwise(&self, facts: &[FactId]) -> bool {
        facts
            .iter()
            .enumerate()
            .all(|(i, &a)| facts[i..].iter().all(|&b| self.bit(a, b)))
    }

    /// Whether `f` is reachable (h² ≠ ∞ for the single fact).
    pub fn reachable(&self, f: FactId) -> bool {
        (f as usize) < self.facts && (self.derived[f as usize] || self.bit(f, f))
    }

    /// Whether `a` and `b` (distinct) never hold together in a reachable
    /// state. Derived and out-of-range facts are never mutex.
    pub fn are_mutex(&self, a: FactId, b: FactId) -> bool {
        a != b
            && (a as usize) < self.facts
            && (b as usize) < self.facts
            && !self.derived[a as usize]
            && !self.derived[b as usize]
            && !self.bit(a, b)
    }

    /// Whether an operator's positive precondition is pairwise reachable
    /// (an operator that is not can never be applied).
    pub fn applicable(&self, task: &Task, op: usize) -> bool {
        task.operators.get(op).is_some_and(|o| {
            let pre: Vec<FactId> = o
                .precondition
                .pos
                .iter()
                .copied()
                .filter(|&f| (f as usize) < self.facts && !self.derived[f as usize])
                .collect();
            self.pairwise(&pre)
        })
    }
}
