//! The conditional effects of one operator, those with the same condition
//! made one effect: they always fire together, and one effect is checked
//! once when the operator is applied and becomes one relaxed operator for
//! the heuristics, not several with the same preconditions. Puzznic's
//! `vanish` names each adjacent pair of tiles twice, once per tile it
//! removes (Game Boy level 090: 5 567 effects, 2 997 after merging).
//!
//! Effects are merged as the grounder makes them, so that the unmerged
//! list never exists (on a large open Puzznic level, `vanish` makes
//! millions of effects, about half of them duplicates), and again where
//! compiling away constant facts or numeric conditions that always hold
//! makes two conditions equal.

use hashbrown::HashTable;

use crate::datalog::{hash_values, same_values};
use crate::instantiate::tidy;
use crate::task::{ConditionalEffect, Conjunction, FactId};

/// Conditional effects in the order their conditions first came, each
/// condition once among the effects without numeric parts.
#[derive(Default)]
pub(crate) struct MergedEffects {
    effects: Vec<ConditionalEffect>,
    /// Per effect without numeric parts, its condition's hash (32 bits of
    /// it: see [`table_hash`]) and its position in `effects`. Conditions
    /// are compared where they lie, so none is stored twice, and only
    /// where the hashes agree; growing the table reads no condition.
    first_with: HashTable<(u32, u32)>,
}

impl MergedEffects {
    /// Adds `effect`, into an earlier effect with the same condition if
    /// there is one. Numeric conditions have no cheap key, and the order
    /// of numeric effects decides which of two assignments wins: effects
    /// with either stay apart. (Merged adds and deletes may repeat facts;
    /// the task's final compaction sorts and deduplicates them.)
    pub(crate) fn push(&mut self, mut effect: ConditionalEffect) {
        if !effect.condition.numeric.is_empty() || !effect.numeric.is_empty() {
            self.effects.push(effect);
            return;
        }
        tidy(&mut effect.condition);
        let effects = &mut self.effects;
        let hash = condition_hash(&effect.condition);
        let same = |&(h, k): &(u32, u32)| {
            h == hash
                && same_values(
                    condition_key(&effects[k as usize].condition),
                    condition_key(&effect.condition),
                )
        };
        match self.first_with.find(table_hash(hash), same).copied() {
            Some((_, k)) => {
                let into = &mut effects[k as usize];
                into.add.extend(effect.add);
                into.del.extend(effect.del);
            }
            None => {
                // (Past 2^32 effects, which memory limits keep from
                // happening, later ones would only stay unmerged.)
                if let Ok(position) = u32::try_from(effects.len()) {
                    self.first_with
                        .insert_unique(table_hash(hash), (hash, position), |&(h, _)| table_hash(h));
                }
                effects.push(effect);
            }
        }
    }

    /// How many effects there are.
    pub(crate) fn len(&self) -> usize {
        self.effects.len()
    }

    /// The effects.
    pub(crate) fn into_vec(self) -> Vec<ConditionalEffect> {
        self.effects
    }

    /// Merges the effects of `effects` whose conditions are equal (after
    /// a change made some so).
    pub(crate) fn merge(effects: &mut Vec<ConditionalEffect>) {
        let all = std::mem::take(effects);
        *effects = all.into_iter().collect::<MergedEffects>().into_vec();
    }
}

impl FromIterator<ConditionalEffect> for MergedEffects {
    fn from_iter<I: IntoIterator<Item = ConditionalEffect>>(effects: I) -> Self {
        let mut merged = MergedEffects::default();
        for effect in effects {
            merged.push(effect);
        }
        merged
    }
}

/// A tidy condition's facts as one sequence: positive ones, a separator,
/// negative ones.
fn condition_key(c: &Conjunction) -> impl Iterator<Item = FactId> + '_ {
    let separator = std::iter::once(FactId::MAX);
    c.pos
        .iter()
        .copied()
        .chain(separator)
        .chain(c.neg.iter().copied())
}

/// 32 bits of the hash of a tidy condition's facts.
fn condition_hash(c: &Conjunction) -> u32 {
    (hash_values(condition_key(c)) >> 32) as u32
}

/// The table's hash of an entry, made from the 32 bits it stores: the
/// multiplication spreads them over the low bits, which pick the bucket,
/// and the top seven, which hashbrown keeps as a tag.
fn table_hash(hash: u32) -> u64 {
    u64::from(hash).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effect(pos: &[FactId], neg: &[FactId], add: &[FactId]) -> ConditionalEffect {
        ConditionalEffect {
            condition: Conjunction {
                pos: pos.to_vec(),
                neg: neg.to_vec(),
                numeric: Vec::new(),
            },
            add: add.to_vec(),
            ..ConditionalEffect::default()
        }
    }

    #[test]
    fn equal_conditions_merge_in_first_order_and_others_stay_apart() {
        let merged: MergedEffects = [
            effect(&[2, 1], &[], &[10]),
            effect(&[1], &[2], &[11]),
            effect(&[1, 2], &[], &[12]),
            effect(&[1, 2, 2], &[], &[10]),
            effect(&[1], &[2], &[13]),
            effect(&[], &[1, 2], &[14]),
        ]
        .into_iter()
        .collect();
        let effects = merged.into_vec();
        let shown: Vec<(&[FactId], &[FactId], &[FactId])> = effects
            .iter()
            .map(|e| (&e.condition.pos[..], &e.condition.neg[..], &e.add[..]))
            .collect();
        assert_eq!(
            shown,
            [
                (&[1, 2][..], &[][..], &[10, 12, 10][..]),
                (&[1][..], &[2][..], &[11, 13][..]),
                (&[][..], &[1, 2][..], &[14][..]),
            ]
        );
    }

    #[test]
    fn effects_with_numeric_parts_are_never_merged() {
        use crate::task::{AssignOp, NumEffect, NumExpr};
        let mut numeric = effect(&[1], &[], &[]);
        numeric.numeric.push(NumEffect {
            op: AssignOp::Increase,
            fluent: 0,
            expr: NumExpr::Const(1.0),
        });
        let merged: MergedEffects = [numeric.clone(), numeric, effect(&[1], &[], &[5])]
            .into_iter()
            .collect();
        assert_eq!(merged.len(), 3);
    }
}
