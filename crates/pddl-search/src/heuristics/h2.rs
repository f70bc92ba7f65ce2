//! h² (Haslum & Geffner 2000): the fixpoint of the pairs of literals
//! reachable together from a set of literals, one operator at a time. Two
//! literals not in a reachable pair never hold together in a state
//! reachable from there. The landmarks' mutexes
//! ([`super::landmarks::mutex::Mutexes`]) are this fixpoint from the
//! initial state; learned dead-end traps ([`super::traps`]) run it from
//! the states they learn from.
//!
//! Literals are the task's facts, optionally followed by the negations
//! `not f` of the facts that occur negated in a condition or the goal
//! ([`PairRelaxation::new`] with `negations`): `not f` is added wherever
//! `f` is deleted and not added by the same effect, and deleted wherever
//! `f` is added. Without them negative conditions are ignored.
//!
//! Sound simplifications (they only make more pairs reachable, i.e. find
//! fewer unreachable ones): numeric conditions are ignored; every literal
//! an operator may add (conditional effects included) is taken as added
//! together with every other whose effect condition is reachable; only
//! unconditional deletes (and those of the effect that adds the literal)
//! are taken as deleting, and only where no effect of the operator adds
//! the literal; derived facts (axiom heads) are reachable with anything.
//!
//! The pair table takes `literals²` bits, so relaxations of more than
//! [`MAX_PAIR_LITERALS`] literals are not built, and the fixpoint is
//! bounded by a work budget; an unfinished fixpoint would claim unsound
//! unreachable pairs, so it gives none.

use pddl_ground::Task;
use pddl_ground::task::FactId;

/// Most literals for which the pair table is built (`n²/8` bytes: 32 MiB).
pub const MAX_PAIR_LITERALS: usize = 16_384;

/// A literal: a fact below the task's fact count, a negation above.
pub type Literal = u32;

/// One way an operator adds literals: its precondition plus an effect
/// condition, the literals added and the literals certainly deleted.
#[derive(Clone, Debug)]
pub struct Piece {
    /// The operator's precondition and the effect's condition, sorted.
    pub condition: Vec<Literal>,
    /// The literals the piece adds, sorted.
    pub add: Vec<Literal>,
    /// The literals certainly false after the piece, sorted.
    pub del: Vec<Literal>,
    /// Index of the operator among those that add something.
    pub slot: usize,
}

/// A task's operators as h² sees them.
#[derive(Clone, Debug)]
pub struct PairRelaxation {
    /// The task's fact count (literals from here on are negations).
    facts: usize,
    /// Per negation literal `facts + i`: the fact it negates.
    negated: Vec<FactId>,
    /// Per fact: the negation literal, if it has one.
    negation_of: Vec<Option<Literal>>,
    /// Per literal: a derived fact (reachable with anything).
    derived: Vec<bool>,
    /// The pieces of every operator that adds something.
    pub pieces: Vec<Piece>,
    /// Per operator slot: its precondition, sorted.
    pub preconditions: Vec<Vec<Literal>>,
    /// The goal's literals, sorted.
    pub goal: Vec<Literal>,
}

/// Pieces of the fixpoint between two questions to its stop condition: a
/// piece costs a few word operations per literal word.
const PIECES_PER_STOP_CHECK: usize = 1024;

impl PairRelaxation {
    /// The relaxation of `task`, with negation literals for the facts
    /// that occur negated when `negations` holds; `None` when it would
    /// have more than [`MAX_PAIR_LITERALS`] literals.
    pub fn new(task: &Task, negations: bool) -> Option<Self> {
        let facts = task.facts.len();
        let mut negated: Vec<FactId> = Vec::new();
        if negations {
            negated.extend(&task.goal.neg);
            for op in &task.operators {
                negated.extend(&op.precondition.neg);
                for effect in &op.conditional {
                    negated.extend(&effect.condition.neg);
                }
            }
            negated.retain(|&f| (f as usize) < facts);
            negated.sort_unstable();
            negated.dedup();
        }
        if facts + negated.len() > MAX_PAIR_LITERALS {
            return None;
        }
        let mut negation_of = vec![None; facts];
        for (i, &f) in negated.iter().enumerate() {
            negation_of[f as usize] = Some((facts + i) as Literal);
        }
        let mut derived = vec![false; facts + negated.len()];
        for axiom in &task.axioms {
            if let Some(d) = derived.get_mut(axiom.head as usize) {
                *d = true;
            }
        }
        let usable = |f: &FactId| (*f as usize) < facts && !derived[*f as usize];
        let literals = |pos: &[FactId], neg: &[FactId]| -> Vec<Literal> {
            let mut v: Vec<Literal> = pos.iter().copied().filter(usable).collect();
            v.extend(
                neg.iter()
                    .filter_map(|&f| negation_of.get(f as usize).copied().flatten()),
            );
            v.sort_unstable();
            v.dedup();
            v
        };
        // An effect's adds and deletes over literals: `not f` is added where
        // `f` is deleted and not added, and deleted where `f` is added.
        let effect = |add: &[FactId], del: &[FactId]| -> (Vec<Literal>, Vec<Literal>) {
            let add_facts: Vec<FactId> = add.iter().copied().filter(usable).collect();
            let del_facts: Vec<FactId> = del.iter().copied().filter(usable).collect();
            let mut adds = add_facts.clone();
            let mut dels = del_facts.clone();
            for f in &del_facts {
                if !add_facts.contains(f)
                    && let Some(n) = negation_of[*f as usize]
                {
                    adds.push(n);
                }
            }
            dels.extend(add_facts.iter().filter_map(|&f| negation_of[f as usize]));
            (adds, dels)
        };
        let mut pieces: Vec<Piece> = Vec::new();
        let mut preconditions: Vec<Vec<Literal>> = Vec::new();
        for op in &task.operators {
            let pre = literals(&op.precondition.pos, &op.precondition.neg);
            let (uncond_add, uncond_del) = effect(&op.add, &op.del);
            let conditional: Vec<(Vec<Literal>, Vec<Literal>, Vec<Literal>)> = op
                .conditional
                .iter()
                .map(|c| {
                    let (add, del) = effect(&c.add, &c.del);
                    let mut condition = pre.clone();
                    condition.extend(literals(&c.condition.pos, &c.condition.neg));
                    condition.sort_unstable();
                    condition.dedup();
                    (condition, add, del)
                })
                .collect();
            let mut adds: Vec<Literal> = uncond_add.clone();
            for (_, add, _) in &conditional {
                adds.extend(add);
            }
            adds.sort_unstable();
            adds.dedup();
            if adds.is_empty() {
                continue;
            }
            let deleted = |dels: &mut dyn Iterator<Item = &Literal>| -> Vec<Literal> {
                let mut v: Vec<Literal> = dels
                    .copied()
                    .filter(|l| adds.binary_search(l).is_err())
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            let slot = preconditions.len();
            if !uncond_add.is_empty() {
                let mut add = uncond_add.clone();
                add.sort_unstable();
                add.dedup();
                pieces.push(Piece {
                    condition: pre.clone(),
                    add,
                    del: deleted(&mut uncond_del.iter()),
                    slot,
                });
            }
            for (condition, mut add, del) in conditional {
                if add.is_empty() {
                    continue;
                }
                add.sort_unstable();
                add.dedup();
                pieces.push(Piece {
                    condition,
                    add,
                    del: deleted(&mut uncond_del.iter().chain(&del)),
                    slot,
                });
            }
            preconditions.push(pre);
        }
        let goal = literals(&task.goal.pos, &task.goal.neg);
        Some(PairRelaxation {
            facts,
            negated,
            negation_of,
            derived,
            pieces,
            preconditions,
            goal,
        })
    }

    /// Number of literals (facts and negations).
    pub fn literals(&self) -> usize {
        self.derived.len()
    }

    /// The task's fact count: literals from here on are negations.
    pub fn facts(&self) -> usize {
        self.facts
    }

    /// The fact a negation literal negates (`None` for a fact literal).
    pub fn negated_fact(&self, literal: Literal) -> Option<FactId> {
        (literal as usize)
            .checked_sub(self.facts)
            .and_then(|i| self.negated.get(i).copied())
    }

    /// The negation literal of `fact`, if the relaxation has one.
    pub fn negation(&self, fact: FactId) -> Option<Literal> {
        self.negation_of.get(fact as usize).copied().flatten()
    }

    /// Whether `literal` is a derived fact (reachable with anything).
    pub fn is_derived(&self, literal: Literal) -> bool {
        self.derived[literal as usize]
    }

    /// The literals true where exactly `true_facts` hold: those facts
    /// (derived ones left out) and the negations of the others.
    pub fn state_literals(&self, true_facts: &[FactId]) -> Vec<Literal> {
        let mut holds = vec![false; self.facts];
        for &f in true_facts {
            if let Some(h) = holds.get_mut(f as usize) {
                *h = true;
            }
        }
        let mut literals: Vec<Literal> = true_facts
            .iter()
            .copied()
            .filter(|&f| (f as usize) < self.facts && !self.derived[f as usize])
            .collect();
        for (i, &f) in self.negated.iter().enumerate() {
            if !holds[f as usize] {
                literals.push((self.facts + i) as Literal);
            }
        }
        literals.sort_unstable();
        literals.dedup();
        literals
    }

    /// The pairs reachable from `init` (the literals true at the start);
    /// `None` when the fixpoint needs more than `max_work` word
    /// operations or `stop` says stop (asked every
    /// `PIECES_PER_STOP_CHECK` pieces).
    pub fn reachable_pairs(
        &self,
        init: &[Literal],
        max_work: u64,
        stop: &dyn Fn() -> bool,
    ) -> Option<PairTable> {
        self.reachable_pairs_counted(init, max_work, stop)
            .map(|(table, _)| table)
    }

    /// As [`PairRelaxation::reachable_pairs`], also giving the word
    /// operations the fixpoint took.
    pub fn reachable_pairs_counted(
        &self,
        init: &[Literal],
        max_work: u64,
        stop: &dyn Fn() -> bool,
    ) -> Option<(PairTable, u64)> {
        let literals = self.literals();
        let words = literals.div_ceil(64).max(1);
        let mut m = PairTable {
            words,
            pairs: vec![0; literals * words],
            derived: self.derived.clone(),
        };
        for &a in init {
            for &b in init {
                m.set(a, b);
            }
        }
        let pieces = &self.pieces;
        // Per operator slot: its precondition is pairwise reachable.
        let mut applicable = vec![false; self.preconditions.len()];
        // Per piece: its condition is pairwise reachable; per operator
        // slot: the adds of its enabled pieces.
        let mut enabled = vec![false; pieces.len()];
        let mut enabled_adds: Vec<Vec<Literal>> = vec![Vec::new(); self.preconditions.len()];
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
                    if !m.pairwise(&self.preconditions[slot]) {
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
                    // The operator's effects that can fire together: this
                    // piece's adds with those of its operator's pieces
                    // enabled so far (itself included). Once is enough, as
                    // each piece enabled later pairs its adds with these.
                    let together = enabled_adds[slot].len();
                    work += (piece.add.len() * together) as u64;
                    for &a in &piece.add {
                        for &b in &enabled_adds[slot] {
                            changed |= m.set(a, b);
                        }
                    }
                }
                // Literals reachable together with the whole condition and
                // not deleted: they persist next to the added literals.
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
                        // No condition: every reachable literal.
                        compatible.fill(0);
                        for l in 0..literals as Literal {
                            if m.bit(l, l) {
                                compatible[l as usize / 64] |= 1 << (l % 64);
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
        Some((m, work))
    }
}

/// The pairs of literals reachable together (h² with m = 2).
#[derive(Clone, Debug)]
pub struct PairTable {
    words: usize,
    /// Row `l` (`words` words): the literals reachable together with
    /// `l`; bit `l` itself says whether `l` is reachable.
    pairs: Vec<u64>,
    /// Per literal: a derived fact (reachable with anything).
    derived: Vec<bool>,
}

impl PairTable {
    fn row(&self, l: Literal) -> &[u64] {
        let start = l as usize * self.words;
        &self.pairs[start..start + self.words]
    }

    fn bit(&self, a: Literal, b: Literal) -> bool {
        self.pairs[a as usize * self.words + b as usize / 64] & (1 << (b % 64)) != 0
    }

    /// Marks `{a, b}` reachable (both ways); whether it was new.
    fn set(&mut self, a: Literal, b: Literal) -> bool {
        if self.bit(a, b) {
            return false;
        }
        self.pairs[a as usize * self.words + b as usize / 64] |= 1 << (b % 64);
        self.pairs[b as usize * self.words + a as usize / 64] |= 1 << (a % 64);
        true
    }

    /// Number of literals.
    pub fn literals(&self) -> usize {
        self.derived.len()
    }

    /// Bytes the table holds.
    pub fn bytes(&self) -> u64 {
        (self.pairs.len() * std::mem::size_of::<u64>() + self.derived.len()) as u64
    }

    /// Whether every pair of `literals` (each with itself too) is
    /// reachable.
    pub fn pairwise(&self, literals: &[Literal]) -> bool {
        self.first_apart(literals).is_none()
    }

    /// The first pair of `literals` (a literal with itself included) not
    /// reachable together, in order of the first literal, then the second.
    pub fn first_apart(&self, literals: &[Literal]) -> Option<(Literal, Literal)> {
        literals
            .iter()
            .enumerate()
            .flat_map(|(i, &a)| literals[i..].iter().map(move |&b| (a, b)))
            .find(|&(a, b)| !self.together(a, b))
    }

    /// Whether `a` and `b` (the same literal: `a` alone) are reachable
    /// together; out-of-range literals never are, derived facts always.
    pub fn together(&self, a: Literal, b: Literal) -> bool {
        let n = self.literals();
        if a as usize >= n || b as usize >= n {
            return false;
        }
        let reachable = |l: Literal| self.derived[l as usize] || self.bit(l, l);
        match (self.derived[a as usize], self.derived[b as usize]) {
            (true, true) => true,
            (true, false) => reachable(b),
            (false, true) => reachable(a),
            (false, false) => self.bit(a, b),
        }
    }

    /// Whether `l` is a derived fact.
    pub fn is_derived(&self, l: Literal) -> bool {
        self.derived.get(l as usize).copied().unwrap_or(false)
    }

    /// Whether `l` is reachable (h² ≠ ∞ for the single literal).
    pub fn reachable(&self, l: Literal) -> bool {
        self.together(l, l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TaskBuilder;

    #[test]
    fn effects_of_one_operator_fire_together_even_when_enabled_far_apart() {
        // `fire` adds a when c1 holds and b when c2 holds, consuming both;
        // c2 needs c1 first, and making either deletes a and b. So a and
        // b hold together only after one `fire` with both effects, whose
        // pieces h² enables in different passes (`fire` comes first), and
        // neither persists beside the other's condition.
        let (s, c1, c2, a, b) = (0, 1, 2, 3, 4);
        let mut builder = TaskBuilder::new(5);
        let fire = builder.op("fire", &[s], &[], &[c1, c2]);
        builder.cond(fire, &[c1], &[a], &[]);
        builder.cond(fire, &[c2], &[b], &[]);
        builder.op("make-c2", &[c1], &[c2], &[a, b]);
        builder.op("make-c1", &[s], &[c1], &[a, b]);
        let task = builder.build(&[s], &[a, b]);
        let relaxation = PairRelaxation::new(&task, false).expect("small task");
        let init = relaxation.state_literals(&task.init_facts);
        let pairs = relaxation
            .reachable_pairs(&init, u64::MAX, &|| false)
            .expect("no work limit");
        assert!(pairs.together(a, b), "both effects of one step");
        assert!(pairs.together(c1, c2));
        for (x, y) in [(a, c1), (b, c1), (a, c2), (b, c2)] {
            assert!(!pairs.together(x, y), "{x} and {y}");
        }
        assert_eq!(pairs.first_apart(&[s, a, b]), None);
        assert_eq!(pairs.first_apart(&[a, b, c1]), Some((a, c1)));
    }
}
