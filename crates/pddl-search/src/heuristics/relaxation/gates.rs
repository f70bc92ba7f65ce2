//! Gates: an operator's precondition counted once for all its pieces.
//!
//! An operator with conditional effects becomes several relaxed operators,
//! its pieces, each with the operator's precondition plus its own effect
//! condition (see [`super`]). Counted in every piece, the shared part costs
//! an exploration one counter update per piece whenever one of its facts is
//! reached: Puzznic's gravity and matching steps have hundreds of pieces
//! behind one phase fact each, which made 47 % of all counter updates on
//! Game Boy level 090. A gate counts the shared part once for all pieces of
//! an operator with [`MIN_GATED_PIECES`] or more: each piece counts only its
//! own condition, and one whose own condition is complete while the gate is
//! still closed waits until it opens.
//!
//! The pieces still fire at the same pops as when every piece counted its
//! whole precondition, and in the same order (those a gate releases at its
//! position among the pop's other pieces, in index order), with the same
//! combined precondition costs, so every cost and supporter of an
//! exploration, and with them every heuristic value, stays the same.

use super::{Adjacency, RelaxedTask};

/// A piece without a gate.
pub(super) const NO_GATE: u32 = u32::MAX;

/// Marks a gate's entry in [`Gates::counted_of`] (the rest is its index).
pub(super) const GATE: u32 = 1 << 31;

/// Marks a gated piece's entry in [`Gates::counted_of`] (the rest is its
/// index), so that the entries of ungated operators, the common case, need
/// one comparison: they are below it.
pub(super) const GATED_PIECE: u32 = 1 << 30;

/// Operators with fewer pieces are not gated. A gate saves a counter
/// update per piece whenever its precondition is reached, but with gates
/// every counted entry costs a test more: on Puzznic levels whose matching
/// step has a few hundred pieces that cost more than it saved (Game Boy
/// level 081, 459 pieces: 1.3 % more instructions with gates from 4
/// pieces on), on those with thousands it saves a tenth (118, 3 093
/// pieces: 9.2 % fewer, `valgrind --tool=callgrind plan puzznic solve -q
/// --threads 1 …/118.txt`; the same plans and expanded states).
pub const MIN_GATED_PIECES: usize = 512;

/// How an exploration counts the preconditions of a relaxed task's
/// operators (built with the task, see [`RelaxedTask::gates`]).
#[derive(Clone, Debug, Default)]
pub struct Gates {
    /// Per relaxed operator, its gate ([`NO_GATE`] if none).
    pub(super) gate_of: Vec<u32>,
    /// Per gate, its pieces: a range of relaxed operators.
    pub(super) pieces: Vec<(u32, u32)>,
    /// Per gate, the precondition its pieces share.
    pub(super) shared: Adjacency,
    /// Per gate, the first word of its pieces' bits in a bit set of
    /// pieces ready to fire (one bit per piece, each gate's from a word
    /// of its own).
    pub(super) word_start: Vec<u32>,
    /// The bits of the pieces ready before an exploration: those without
    /// a condition of their own, which fire as their gate opens.
    pub(super) ready_init: Vec<u64>,
    /// Per proposition, the counters it lowers, in the order of the
    /// relaxed operators: those of the operators that have it in their
    /// own condition (every precondition of an ungated operator), and
    /// gated pieces marked ([`GATED_PIECE`]` | o`), and those of the
    /// gates that share it (`GATE | g`, where gate `g`'s
    /// first piece stands), so that a gate opening at a pop releases its
    /// pieces where they stand among the pop's other operators. Empty
    /// where there are no gates: explorations then count
    /// [`RelaxedTask::precondition_of`], which holds the same lists.
    pub(super) counted_of: Adjacency,
    /// Per relaxed operator, the preconditions its counter waits for.
    pub(super) counter_init: Vec<u32>,
    /// The operators that could have gates: their pieces (relaxed
    /// operators `start..end`) and the sorted precondition they share.
    #[cfg(test)]
    candidates: Vec<(u32, u32, Vec<u32>)>,
}

impl Gates {
    /// The gates of those of `operators` (their pieces, relaxed operators
    /// `start..end`, sharing the sorted precondition `shared`) that have
    /// `min_pieces` pieces or more, none where `rt` has numeric conditions
    /// (their exploration loop counts whole preconditions).
    pub(super) fn new(
        rt: &RelaxedTask,
        operators: Vec<(u32, u32, Vec<u32>)>,
        min_pieces: usize,
    ) -> Self {
        let mut gate_of = vec![NO_GATE; rt.ops.len()];
        let mut pieces = Vec::new();
        let mut shared_pairs = Vec::new();
        if rt.numeric.conditions.is_empty() && rt.ops.len() < GATED_PIECE as usize {
            for (start, end, shared) in &operators {
                if (end - start) as usize >= min_pieces && !shared.is_empty() {
                    let g = pieces.len() as u32;
                    pieces.push((*start, *end));
                    gate_of[*start as usize..*end as usize].fill(g);
                    shared_pairs.extend(shared.iter().map(|&p| (g, p)));
                }
            }
        }
        let shared = Adjacency::build(pieces.len(), shared_pairs.into_iter());
        let mut word_start = Vec::with_capacity(pieces.len() + 1);
        let mut words = 0u32;
        for &(start, end) in &pieces {
            word_start.push(words);
            words += (end - start).div_ceil(64);
        }
        word_start.push(words);
        let mut gates = Gates {
            gate_of,
            pieces,
            shared,
            word_start,
            ready_init: vec![0; words as usize],
            counted_of: Adjacency::default(),
            counter_init: Vec::new(),
            #[cfg(test)]
            candidates: operators,
        };
        gates.count(rt, |_| true);
        gates
    }

    /// The gates of `rt` again, for operators with `min_pieces` pieces or
    /// more (before irrelevant operators are left out).
    #[cfg(test)]
    pub(super) fn regate(rt: &RelaxedTask, min_pieces: usize) -> Self {
        Gates::new(rt, rt.gates.candidates.clone(), min_pieces)
    }

    /// Builds the counting lists and counters for the relaxed operators
    /// `keep` keeps; the others never fire (their counters never reach 0).
    pub(super) fn count(&mut self, rt: &RelaxedTask, keep: impl Fn(u32) -> bool) {
        let ops = rt.ops.len() as u32;
        let mut counted_pairs = Vec::new();
        self.ready_init.fill(0);
        self.counter_init.clear();
        let gated = !self.is_empty();
        for o in 0..ops {
            let gate = self.gate_of[o as usize];
            if gate != NO_GATE && self.pieces[gate as usize].0 == o {
                counted_pairs.extend(self.shared.get(gate).iter().map(|&p| (p, GATE | gate)));
            }
            let own = self.own_condition(rt, o);
            let kept = keep(o);
            if kept && gated {
                let entry = if gate == NO_GATE { o } else { GATED_PIECE | o };
                counted_pairs.extend(own.clone().map(|p| (p, entry)));
            }
            let count = own.count() as u32;
            if kept && count == 0 && gate != NO_GATE {
                let (word, bit) = self.ready_bit(gate, o);
                self.ready_init[word] |= bit;
            }
            // A piece left out waits for a precondition no list lowers.
            self.counter_init
                .push(if kept { count } else { count.max(1) });
        }
        self.counted_of = if gated {
            Adjacency::build(rt.props(), counted_pairs.into_iter())
        } else {
            Adjacency::default()
        };
    }

    /// The word and bit of piece `o` of gate `g` in the bit set of pieces
    /// ready to fire.
    #[inline]
    pub(super) fn ready_bit(&self, g: u32, o: u32) -> (usize, u64) {
        let i = o - self.pieces[g as usize].0;
        (
            (self.word_start[g as usize] + i / 64) as usize,
            1 << (i % 64),
        )
    }

    /// The preconditions relaxed operator `o` counts itself: all of them,
    /// or those its gate does not count.
    fn own_condition<'a>(
        &'a self,
        rt: &'a RelaxedTask,
        o: u32,
    ) -> impl Iterator<Item = u32> + Clone + 'a {
        let shared: &[u32] = match self.gate_of[o as usize] {
            NO_GATE => &[],
            g => self.shared.get(g),
        };
        // Both sorted: the shared part is a subset of the precondition.
        rt.pre(o)
            .iter()
            .copied()
            .filter(move |p| shared.binary_search(p).is_err())
    }

    /// The number of gates.
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// Whether there are no gates.
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }
}
