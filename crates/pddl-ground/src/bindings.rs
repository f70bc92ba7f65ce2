//! The bindings of a quantified effect's `forall` variables, and of an
//! existential quantifier in a condition, enumerated as a join instead of
//! the product of their object sets.
//!
//! A positive literal of the effect's condition (a top-level conjunct)
//! that names a variable and otherwise only objects, the action's
//! parameters and variables bound before it is false for every value of
//! the variable that its relation (the initial atoms of a static
//! predicate, the reachable atoms of another) does not pair with those
//! values; every such binding's condition is false, and its effect never
//! fires. So that variable takes only the values the relation pairs with
//! them, from an index built once per effect and variable. Puzznic's
//! matching step ranges over tiles × tiles × cells × cells: on a 98 × 98
//! board the product is about 10^11 bindings per pair of tiles, the join
//! a few thousand (each tile's reachable cells, and their neighbours).
//!
//! The same holds for an existential quantifier's body, whose false
//! disjuncts its `or` drops (not for a universal one, which a false value
//! makes false).
//!
//! The values come in the set's (ascending) order, and only bindings whose
//! condition is false are left out, so the effects, and the ground task,
//! are exactly those of the product. Conditions with numeric comparisons
//! are left to the product: evaluating one interns its fluents, and the
//! bindings left out would intern different ones.

use std::rc::Rc;

use hashbrown::HashMap;

use crate::datalog::Reach;
use crate::normalize::{Arg, EffectGroup, Formula, Model, ObjId, PredKind, QVar, VarId};

/// Sets smaller than this are enumerated whole: an index pays a hash
/// lookup each time its variable's level is entered, which a handful of
/// failing conditions cost no more than (through indexes, Schedule's
/// `forall` effects over colours and shapes took probschedule-8-1 3.8-4.2
/// ms to ground against 2.8-3.2 ms, `perf stat -r 5 plan ground`).
const MIN_INDEXED_SET: usize = 32;

/// An index is used only where its lists hold at most this fraction of
/// the set on average: else the lookup saves little.
const MAX_INDEXED_FRACTION: usize = 4;

/// Where one quantified variable's values come from.
pub(crate) enum Source {
    /// Its whole object set.
    Set(u32),
    /// The values an index pairs with the key.
    Index(ValueIndex),
}

/// One part of an index's key.
#[derive(Clone, Copy)]
enum KeyPart {
    /// A constant of the literal.
    Object(ObjId),
    /// A variable bound before the quantifier's (a parameter of the
    /// action, or of an enclosing quantifier).
    Outer(VarId),
    /// The value of the quantifier's variable at this position.
    Level(usize),
}

/// A relation's values for one variable, keyed by the values of the
/// literal's other arguments: sorted ascending, within the variable's set.
pub(crate) struct ValueIndex {
    key: Vec<KeyPart>,
    values: HashMap<Vec<ObjId>, Vec<ObjId>>,
}

/// The sources of a group's `forall` variables, in order.
/// `params` is the action's parameter count (its variables `0..params`).
fn sources(model: &Model, reach: &Reach, params: usize, group: &EffectGroup) -> Vec<Source> {
    let outer = |v: VarId| (v as usize) < params;
    quantifier_sources(model, reach, &group.forall, &group.condition, &outer)
}

/// The sources of the variables `vars` of an existential quantifier
/// (or of an effect's `forall`, whose bindings with a false condition
/// are dropped too) over `condition`, where `outer(v)` says that a
/// variable not among `vars` is bound before them. (Not for a universal
/// quantifier: a value that makes its body false makes it false.)
fn quantifier_sources(
    model: &Model,
    reach: &Reach,
    vars: &[QVar],
    condition: &Formula,
    outer: &dyn Fn(VarId) -> bool,
) -> Vec<Source> {
    let parts = match condition {
        Formula::And(parts) => parts.as_slice(),
        single => std::slice::from_ref(single),
    };
    let numeric = has_comparison(condition);
    let level_of = |v: VarId| vars.iter().position(|q| q.var == v);
    vars.iter()
        .enumerate()
        .map(|(level, q)| {
            let set = &model.sets[q.set as usize];
            if numeric || set.len() < MIN_INDEXED_SET {
                return Source::Set(q.set);
            }
            // A positive literal naming the variable, whose other variables
            // are parameters or bound before it; static ones first (the
            // initial state's adjacency and types are the sparse ones).
            let candidates = parts.iter().filter_map(|part| match part {
                Formula::Lit {
                    atom,
                    positive: true,
                } => {
                    let names_it = atom.args.contains(&Arg::Var(q.var));
                    let bound_before = atom.args.iter().all(|a| match a {
                        Arg::Var(v) if *v != q.var => match level_of(*v) {
                            Some(l) => l < level,
                            None => outer(*v),
                        },
                        _ => true,
                    });
                    (names_it && bound_before).then_some(atom)
                }
                _ => None,
            });
            let chosen = candidates
                .min_by_key(|atom| model.predicates[atom.pred as usize].kind != PredKind::Static);
            let Some(atom) = chosen else {
                return Source::Set(q.set);
            };
            let relation = &reach.relations[atom.pred as usize];
            let key: Vec<KeyPart> = atom
                .args
                .iter()
                .filter(|a| **a != Arg::Var(q.var))
                .map(|a| match *a {
                    Arg::Obj(o) => KeyPart::Object(o),
                    Arg::Var(v) => level_of(v).map_or(KeyPart::Outer(v), KeyPart::Level),
                })
                .collect();
            let mut values: HashMap<Vec<ObjId>, Vec<ObjId>> = HashMap::new();
            for i in 0..relation.len() as u32 {
                let tuple = relation.tuple(i);
                // Every occurrence of the variable holds one value.
                let mut value = None;
                let mut consistent = true;
                let mut tuple_key = Vec::with_capacity(key.len());
                for (arg, &o) in atom.args.iter().zip(tuple) {
                    if *arg == Arg::Var(q.var) {
                        consistent &= value.is_none_or(|v| v == o);
                        value = Some(o);
                    } else {
                        tuple_key.push(o);
                    }
                }
                if let Some(v) = value.filter(|v| consistent && set.binary_search(v).is_ok()) {
                    values.entry(tuple_key).or_default().push(v);
                }
            }
            let mut listed = 0;
            for list in values.values_mut() {
                list.sort_unstable();
                list.dedup();
                listed += list.len();
            }
            if listed * MAX_INDEXED_FRACTION > set.len() * values.len() {
                return Source::Set(q.set);
            }
            Source::Index(ValueIndex { key, values })
        })
        .collect()
}

/// Whether a numeric comparison occurs anywhere in `f`.
fn has_comparison(f: &Formula) -> bool {
    match f {
        Formula::Num { .. } => true,
        Formula::And(parts) | Formula::Or(parts) => parts.iter().any(has_comparison),
        Formula::Forall(_, body) | Formula::Exists(_, body) => has_comparison(body),
        Formula::True | Formula::Lit { .. } | Formula::Eq { .. } => false,
    }
}

/// Enumerates the bindings of quantified variables (see the
/// module docs), in the order of the product of their sets.
pub(crate) struct Bindings<'a> {
    sources: &'a [Source],
    sets: &'a [Vec<ObjId>],
    /// Per level: the index's key, with the variables bound before the
    /// quantifier filled in.
    keys: Vec<Vec<KeyPart>>,
    /// Per level: the values to try, and the position of the current one.
    levels: Vec<(&'a [ObjId], usize)>,
    values: Vec<ObjId>,
    scratch: Vec<ObjId>,
    started: bool,
    done: bool,
}

impl<'a> Bindings<'a> {
    /// The bindings for `sources` (from [`sources`]), with the action's
    /// parameters bound as in `bind`.
    pub(crate) fn new(sources: &'a [Source], sets: &'a [Vec<ObjId>], bind: &[ObjId]) -> Self {
        // Only indexes have keys (none: no allocation, for the many
        // small effects of actions with parameters).
        let indexed = sources.iter().any(|s| matches!(s, Source::Index(_)));
        let keys = sources
            .iter()
            .take_while(|_| indexed)
            .map(|source| match source {
                Source::Set(_) => Vec::new(),
                Source::Index(index) => index
                    .key
                    .iter()
                    .map(|part| match *part {
                        KeyPart::Outer(v) => KeyPart::Object(bind[v as usize]),
                        other => other,
                    })
                    .collect(),
            })
            .collect();
        let n = sources.len();
        Bindings {
            sources,
            sets,
            keys,
            levels: vec![(&[], 0); n],
            values: vec![0; n],
            scratch: Vec::new(),
            started: false,
            done: false,
        }
    }

    /// Makes `level`'s list of values, for the values bound before it.
    fn enter(&mut self, level: usize) {
        let list: &[ObjId] = match &self.sources[level] {
            Source::Set(set) => &self.sets[*set as usize],
            Source::Index(index) => {
                self.scratch.clear();
                self.scratch
                    .extend(self.keys[level].iter().map(|part| match *part {
                        KeyPart::Object(o) => o,
                        KeyPart::Level(l) => self.values[l],
                        KeyPart::Outer(_) => unreachable!("filled in by `new`"),
                    }));
                index
                    .values
                    .get(self.scratch.as_slice())
                    .map_or(&[], Vec::as_slice)
            }
        };
        self.levels[level] = (list, 0);
    }

    /// The next binding, one value per variable.
    pub(crate) fn next(&mut self) -> Option<&[ObjId]> {
        if self.done {
            return None;
        }
        let n = self.sources.len();
        if n == 0 {
            // One binding, of no variables.
            self.done = true;
            return Some(&[]);
        }
        let mut level = if self.started {
            self.levels[n - 1].1 += 1;
            n - 1
        } else {
            self.started = true;
            self.enter(0);
            0
        };
        loop {
            let (list, position) = self.levels[level];
            if let Some(&value) = list.get(position) {
                self.values[level] = value;
                if level + 1 == n {
                    return Some(&self.values);
                }
                level += 1;
                self.enter(level);
            } else if level == 0 {
                self.done = true;
                return None;
            } else {
                level -= 1;
                self.levels[level].1 += 1;
            }
        }
    }

    /// Skips the rest of the bindings that share the current one's values
    /// at positions up to `level` (`None`: every binding left).
    pub(crate) fn skip_rest_of(&mut self, level: Option<usize>) {
        match level {
            None => self.done = true,
            Some(level) => {
                for (list, position) in self.levels.iter_mut().skip(level + 1) {
                    *position = list.len().saturating_sub(1);
                }
            }
        }
    }
}

/// The sources of each effect group of each action, and of each
/// existential quantifier, built when first needed.
#[derive(Default)]
pub(crate) struct SourceCache {
    /// By action, then by group.
    groups: Vec<Vec<Option<Rc<Vec<Source>>>>>,
    /// By the quantifier's address in the model (which does not change
    /// while grounding).
    quantifiers: HashMap<usize, Rc<Vec<Source>>>,
}

impl SourceCache {
    /// The sources of group `group` of action `action`.
    pub(crate) fn get(
        &mut self,
        model: &Model,
        reach: &Reach,
        action: usize,
        group: usize,
    ) -> Rc<Vec<Source>> {
        if self.groups.is_empty() {
            self.groups = model
                .actions
                .iter()
                .map(|a| vec![None; a.groups.len()])
                .collect();
        }
        let lifted = &model.actions[action];
        // (Sized here, not in `Default`: the cache is made before the model
        // is known to it.)
        Rc::clone(self.groups[action][group].get_or_insert_with(|| {
            Rc::new(sources(
                model,
                reach,
                lifted.params.len(),
                &lifted.groups[group],
            ))
        }))
    }
}

impl SourceCache {
    /// The sources of the existential quantifier `quantifier`, over `vars`
    /// and `body`, every other variable of which is bound before them.
    pub(crate) fn exists(
        &mut self,
        model: &Model,
        reach: &Reach,
        quantifier: &Formula,
        vars: &[QVar],
        body: &Formula,
    ) -> Rc<Vec<Source>> {
        let address = std::ptr::from_ref(quantifier) as usize;
        Rc::clone(
            self.quantifiers.entry(address).or_insert_with(|| {
                Rc::new(quantifier_sources(model, reach, vars, body, &|_| true))
            }),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every binding of the product of `sets`, skipping where `skip` names
    /// a level.
    fn bindings(
        sets: &[Vec<ObjId>],
        skip: impl Fn(&[ObjId]) -> Option<Option<usize>>,
    ) -> Vec<Vec<ObjId>> {
        let sources: Vec<Source> = (0..sets.len() as u32).map(Source::Set).collect();
        let mut bindings = Bindings::new(&sources, sets, &[]);
        let mut out = Vec::new();
        while let Some(values) = bindings.next() {
            let values = values.to_vec();
            if let Some(level) = skip(&values) {
                bindings.skip_rest_of(level);
                continue;
            }
            out.push(values);
        }
        out
    }

    #[test]
    fn bindings_skip_exactly_those_that_share_a_prefix() {
        let sets = [vec![0, 1, 2], vec![3, 4], vec![5, 6]];
        let all = bindings(&sets, |_| None);
        assert_eq!(all.len(), 12);
        assert!(all.is_sorted(), "in the product's order");
        // First value 1: skip everything that starts with it.
        let kept = bindings(&sets, |t| (t[0] == 1).then_some(Some(0)));
        let expected: Vec<Vec<ObjId>> = all.iter().filter(|t| t[0] != 1).cloned().collect();
        assert_eq!(kept, expected);
        // Prefix (2, 3): only those two go.
        let kept = bindings(&sets, |t| (t[0] == 2 && t[1] == 3).then_some(Some(1)));
        assert_eq!(kept.len(), 10);
        assert!(kept.iter().all(|t| !(t[0] == 2 && t[1] == 3)));
        // No level: nothing after the first.
        assert_eq!(bindings(&sets, |_| Some(None)).len(), 0);
        // No variables: one empty binding; an empty set: none.
        assert_eq!(bindings(&[], |_| None), vec![Vec::<ObjId>::new()]);
        assert!(bindings(&[vec![1], vec![]], |_| None).is_empty());
    }

    #[test]
    fn an_index_gives_the_values_paired_with_the_bound_ones() {
        // Level 0 from set 0; level 1 from an index keyed by level 0.
        let sets = [vec![0, 1, 2], vec![10, 11, 12]];
        let index = ValueIndex {
            key: vec![KeyPart::Level(0)],
            values: HashMap::from([(vec![0], vec![11, 12]), (vec![2], vec![10])]),
        };
        let sources = [Source::Set(0), Source::Index(index)];
        let mut bindings = Bindings::new(&sources, &sets, &[]);
        let mut out = Vec::new();
        while let Some(values) = bindings.next() {
            out.push(values.to_vec());
        }
        assert_eq!(out, vec![vec![0, 11], vec![0, 12], vec![2, 10]]);
    }
}
