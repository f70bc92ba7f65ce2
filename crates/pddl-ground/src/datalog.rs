//! Relaxed reachability as a Datalog fixpoint.
//!
//! Each action becomes a rule `applicable(params, witnesses) :- positive
//! preconditions, type atoms`; each add effect a rule `atom :-
//! applicable(params), type atoms of its forall variables, positive atoms
//! of its condition`; each derived rule similarly. Negative literals,
//! disjunctions, universal conditions and numeric conditions are dropped
//! (they can only make a relaxed rule fire more often), except that
//! (in)equalities and negated static atoms of the top-level conjunction
//! are kept as cheap filters. So is the type atom of a variable that
//! another atom binds: only a variable bound by nothing else needs its
//! type atom joined, to enumerate the objects of its type.
//!
//! Evaluation is semi-naive: facts are processed once, in FIFO order;
//! processing a fact joins it, at each body position it matches, with the
//! facts processed before it. Each (rule, trigger position) has a join
//! plan fixed in advance: the next atom is always the one with most
//! arguments already bound, looked up through a hash index on exactly
//! those positions.

use crate::normalize::{Arg, Formula, LAtom, Model, ObjId, PredKind, QVar, VarId};
use crate::stop::StopPoll;
use crate::{GroundError, GroundOptions};
use hashbrown::{HashMap, HashTable, hash_table};
use std::collections::VecDeque;

const NONE: u32 = u32::MAX;

/// A set of tuples of one predicate, in insertion order.
///
/// Tuples live in one flat array; the hash tables hold tuple ids and hash
/// the tuples' values where they lie, so a tuple is stored once and
/// inserting or indexing it allocates no key of its own.
#[derive(Debug, Default)]
pub(crate) struct Relation {
    pub arity: usize,
    len: u32,
    data: Vec<ObjId>,
    /// Every tuple's id, hashed by its values.
    set: HashTable<u32>,
    /// Tuples `0..processed` have been joined and indexed.
    processed: u32,
    indexes: Vec<Index>,
}

/// The processed tuples of a relation grouped by their values at some
/// positions.
#[derive(Debug)]
struct Index {
    positions: Vec<usize>,
    /// Per distinct key, a tuple that has it and every tuple that has it
    /// (in insertion order).
    groups: HashTable<(u32, Vec<u32>)>,
}

/// The hash of a sequence of object ids, the same for a tuple and for an
/// index key picked from one. A multiply-xorshift mix per value: tuples
/// are short, and hashbrown takes its bucket from the low bits and its
/// tag from the top seven, which this spreads. (Also the hash of a
/// conditional effect's condition, a sequence of fact ids, in
/// `merged_effects`.)
pub(crate) fn hash_values(values: impl Iterator<Item = u32>) -> u64 {
    let mut h: u64 = 0x243f_6a88_85a3_08d3;
    for v in values {
        h = (h ^ u64::from(v)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^= h >> 29;
    }
    h
}

/// Whether two sequences of object ids are equal (a plain loop: for short
/// slices a `memcmp` call costs more than the comparison). Also compares
/// conditions in `merged_effects`.
pub(crate) fn same_values(a: impl Iterator<Item = u32>, b: impl Iterator<Item = u32>) -> bool {
    a.eq(b)
}

/// Tuple `id` of a flat array of tuples of `arity` values.
fn tuple_at(data: &[ObjId], arity: usize, id: u32) -> &[ObjId] {
    let start = id as usize * arity;
    &data[start..start + arity]
}

/// The values of `tuple` at `positions`: its key in an index on them.
fn key_at<'a>(positions: &'a [usize], tuple: &'a [ObjId]) -> impl Iterator<Item = ObjId> + 'a {
    positions.iter().map(|&p| tuple[p])
}

impl Relation {
    fn new(arity: usize) -> Relation {
        Relation {
            arity,
            ..Relation::default()
        }
    }

    /// Number of tuples.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// The `i`-th tuple.
    pub fn tuple(&self, i: u32) -> &[ObjId] {
        tuple_at(&self.data, self.arity, i)
    }

    /// The index of a tuple, if present.
    pub fn find(&self, args: &[ObjId]) -> Option<u32> {
        let hash = hash_values(args.iter().copied());
        let same = |&id: &u32| same_values(self.tuple(id).iter().copied(), args.iter().copied());
        self.set.find(hash, same).copied()
    }

    fn insert(&mut self, args: &[ObjId]) -> Option<u32> {
        let hash = hash_values(args.iter().copied());
        let (data, arity) = (&self.data, self.arity);
        let tuple = |id: u32| tuple_at(data, arity, id);
        let id = self.len;
        let same = |&other: &u32| same_values(tuple(other).iter().copied(), args.iter().copied());
        let rehash = |&other: &u32| hash_values(tuple(other).iter().copied());
        match self.set.entry(hash, same, rehash) {
            hash_table::Entry::Occupied(_) => return None,
            hash_table::Entry::Vacant(slot) => {
                slot.insert(id);
            }
        }
        self.data.extend_from_slice(args);
        self.len += 1;
        Some(id)
    }

    fn index_of(&mut self, positions: &[usize]) -> usize {
        if let Some(i) = self.indexes.iter().position(|x| x.positions == positions) {
            return i;
        }
        self.indexes.push(Index {
            positions: positions.to_vec(),
            groups: HashTable::new(),
        });
        self.indexes.len() - 1
    }

    /// The processed tuples whose values at index `ix`'s positions are
    /// `key`, in insertion order.
    fn lookup(&self, ix: usize, key: &[ObjId]) -> &[u32] {
        let index = &self.indexes[ix];
        let hash = hash_values(key.iter().copied());
        index
            .groups
            .find(hash, |(first, _)| {
                same_values(
                    key_at(&index.positions, self.tuple(*first)),
                    key.iter().copied(),
                )
            })
            .map_or(&[], |(_, ids)| ids.as_slice())
    }

    /// Marks the next tuple processed and adds it to the indexes.
    fn process(&mut self, i: u32) {
        debug_assert_eq!(i, self.processed);
        self.processed = i + 1;
        let (data, arity) = (&self.data, self.arity);
        for index in &mut self.indexes {
            let positions = &index.positions;
            let key = |id: u32| key_at(positions, tuple_at(data, arity, id));
            let hash = hash_values(key(i));
            let same = |(first, _): &(u32, Vec<u32>)| same_values(key(*first), key(i));
            let rehash = |(first, _): &(u32, Vec<u32>)| hash_values(key(*first));
            match index.groups.entry(hash, same, rehash) {
                hash_table::Entry::Occupied(mut group) => group.get_mut().1.push(i),
                hash_table::Entry::Vacant(slot) => {
                    slot.insert((i, vec![i]));
                }
            }
        }
    }
}

#[derive(Clone, Debug)]
struct BodyAtom {
    pred: u32,
    args: Vec<Arg>,
}

#[derive(Clone, Debug)]
enum Filter {
    Eq(Arg, Arg),
    Neq(Arg, Arg),
    /// The atom must not be in the (static, complete) relation.
    NotIn(u32, Vec<Arg>),
    /// The variable's value must be in the (processed part of the) type
    /// relation: a type atom whose variable another atom binds, tested
    /// where that atom binds it instead of joined as an atom of its own.
    InType(u32, VarId),
}

#[derive(Clone, Debug)]
enum Access {
    /// Every argument bound: a membership test.
    Full,
    /// Nothing bound: every processed tuple.
    Scan,
    /// Some arguments bound: the index with that slot.
    Index(usize),
}

#[derive(Clone, Debug)]
struct Step {
    atom: usize,
    access: Access,
    /// Positions looked up (for `Full` every position, for `Index` the key).
    key_positions: Vec<usize>,
    /// Positions that bind variables (or repeat one bound in this step).
    free: Vec<(usize, VarId)>,
    /// Distinct variables first bound by this step.
    new_vars: Vec<VarId>,
    /// Filters checkable once this step has bound its variables.
    filters: Vec<usize>,
}

#[derive(Clone, Debug)]
struct Plan {
    /// The body atom the new fact matches; `None` for the plan that
    /// evaluates the whole rule once its ground atoms are all reached.
    trigger: Option<usize>,
    trigger_filters: Vec<usize>,
    steps: Vec<Step>,
    /// How many steps bind every variable of the head (0: the trigger
    /// does). From there on one match per head tuple is enough: the rest
    /// of the join would derive the same fact again.
    head_bound: usize,
}

#[derive(Clone, Debug)]
struct Rule {
    head_pred: u32,
    head_args: Vec<Arg>,
    /// Body atoms with variables, joined through the plans.
    body: Vec<BodyAtom>,
    /// Distinct body atoms without variables (e.g. 0-ary ones): counted,
    /// not joined; the rule is enabled once all of them are reached.
    ground_body: Vec<(u32, Vec<ObjId>)>,
    filters: Vec<Filter>,
    num_vars: usize,
    /// One plan per position of `body`.
    plans: Vec<Plan>,
    /// The plan evaluating the whole rule when it becomes enabled.
    full_plan: Plan,
}

/// The result of the fixpoint.
pub(crate) struct Reach {
    /// Relations: the model's predicates first (by `PredId`), then type
    /// sets and the rules' own predicates.
    pub relations: Vec<Relation>,
    /// Per action: the relation of applicable bindings
    /// (parameters followed by the precondition's top-level witnesses).
    pub action_bindings: Vec<u32>,
    /// Per derived rule: the relation of its bindings (parameters followed
    /// by top-level witnesses).
    pub derived_bindings: Vec<u32>,
}

impl Reach {
    /// Number of facts of all relations.
    pub fn total_facts(&self) -> usize {
        self.relations.iter().map(Relation::len).sum()
    }
}

struct ProgramBuilder<'m> {
    model: &'m Model,
    relations: Vec<Relation>,
    type_relation: HashMap<u32, u32>,
    rules: Vec<Rule>,
    scratch: PlanScratch,
}

impl ProgramBuilder<'_> {
    fn new_relation(&mut self, arity: usize) -> u32 {
        self.relations.push(Relation::new(arity));
        (self.relations.len() - 1) as u32
    }

    fn type_pred(&mut self, set: u32) -> u32 {
        if let Some(&r) = self.type_relation.get(&set) {
            return r;
        }
        let r = self.new_relation(1);
        for &o in &self.model.sets[set as usize] {
            self.relations[r as usize].insert(&[o]);
        }
        self.type_relation.insert(set, r);
        r
    }

    /// Adds the positive atoms of the relaxed formula to `body`, its
    /// cheap filters to `filters`, and its existential variables to `vars`.
    fn relax(
        &self,
        f: &Formula,
        body: &mut Vec<BodyAtom>,
        filters: &mut Vec<Filter>,
        vars: &mut Vec<QVar>,
    ) {
        match f {
            Formula::Lit {
                atom,
                positive: true,
            } => body.push(BodyAtom {
                pred: atom.pred,
                args: atom.args.clone(),
            }),
            Formula::Lit {
                atom,
                positive: false,
            } if self.model.predicates[atom.pred as usize].kind == PredKind::Static => {
                filters.push(Filter::NotIn(atom.pred, atom.args.clone()));
            }
            Formula::Eq { a, b, positive } => filters.push(if *positive {
                Filter::Eq(*a, *b)
            } else {
                Filter::Neq(*a, *b)
            }),
            Formula::And(parts) => {
                for p in parts {
                    self.relax(p, body, filters, vars);
                }
            }
            Formula::Exists(qs, inner) => {
                vars.extend_from_slice(qs);
                self.relax(inner, body, filters, vars);
            }
            _ => {}
        }
    }

    /// Adds a rule, with a type atom for each of `vars` that no other
    /// atom binds, and a type filter for the others (none for the set of
    /// all objects). As a filter, the type of a variable is tested right
    /// where an atom binds it, which is where the join plans would test
    /// the type atom anyway (an atom with every argument bound comes
    /// first), without a join step and a trigger plan of its own.
    fn add_rule(
        &mut self,
        head_pred: u32,
        head_args: Vec<Arg>,
        mut body: Vec<BodyAtom>,
        mut filters: Vec<Filter>,
        vars: &[QVar],
        num_vars: usize,
    ) {
        let all_objects = self.model.objects.len();
        let atoms = body.len();
        for q in vars {
            let occurs = body[..atoms]
                .iter()
                .any(|a| a.args.contains(&Arg::Var(q.var)));
            if occurs && self.model.sets[q.set as usize].len() == all_objects {
                continue;
            }
            let pred = self.type_pred(q.set);
            if occurs {
                filters.push(Filter::InType(pred, q.var));
                continue;
            }
            body.push(BodyAtom {
                pred,
                args: vec![Arg::Var(q.var)],
            });
        }
        let (ground, body): (Vec<BodyAtom>, Vec<BodyAtom>) = body
            .into_iter()
            .partition(|a| a.args.iter().all(|x| matches!(x, Arg::Obj(_))));
        let mut ground_body: Vec<(u32, Vec<ObjId>)> = ground
            .into_iter()
            .map(|a| {
                (
                    a.pred,
                    a.args
                        .iter()
                        .map(|x| if let Arg::Obj(o) = x { *o } else { NONE })
                        .collect(),
                )
            })
            .collect();
        ground_body.sort_unstable();
        ground_body.dedup();
        let mut rule = Rule {
            head_pred,
            head_args,
            body,
            ground_body,
            filters,
            num_vars,
            plans: Vec::new(),
            full_plan: Plan {
                trigger: None,
                trigger_filters: Vec::new(),
                steps: Vec::new(),
                head_bound: 0,
            },
        };
        self.scratch.set_filters(&rule.filters);
        rule.plans = (0..rule.body.len())
            .map(|t| self.plan(&rule, Some(t)))
            .collect();
        rule.full_plan = self.plan(&rule, None);
        self.rules.push(rule);
    }

    /// The join plan of `rule` for a new fact at body position `trigger`
    /// (or, for `None`, for the whole rule). Grounding builds one per body
    /// atom of every rule (on rovers p04, a 2 ms task, that took a tenth
    /// of the whole run's instructions, much of it allocating), so this
    /// reuses [`PlanScratch`] and gives each list of a step its exact size.
    fn plan(&mut self, rule: &Rule, trigger: Option<usize>) -> Plan {
        let scratch = &mut self.scratch;
        scratch.bound.clear();
        scratch.bound.resize(rule.num_vars, false);
        for a in trigger.iter().flat_map(|&t| &rule.body[t].args) {
            if let Arg::Var(v) = a {
                scratch.bound[*v as usize] = true;
            }
        }
        scratch.pending.clear();
        scratch.pending.extend(0..rule.filters.len());
        let trigger_filters = scratch.take_ready();
        scratch.remaining.clear();
        scratch
            .remaining
            .extend((0..rule.body.len()).filter(|&i| Some(i) != trigger));
        let mut steps = Vec::with_capacity(scratch.remaining.len());
        let head_is_bound = |bound: &[bool]| {
            rule.head_args
                .iter()
                .all(|a| matches!(a, Arg::Obj(_)) || matches!(a, Arg::Var(v) if bound[*v as usize]))
        };
        // `None` until every variable of the head is bound.
        let mut head_bound = head_is_bound(&scratch.bound).then_some(0);
        while !scratch.remaining.is_empty() {
            let bound = &scratch.bound;
            let is_bound = |a: &Arg| {
                matches!(a, Arg::Obj(_)) || matches!(a, Arg::Var(v) if bound[*v as usize])
            };
            // Most bound positions first; among atoms with nothing bound,
            // domain atoms before type atoms, then fewer variables.
            let score = |i: usize| {
                let atom = &rule.body[i];
                let n_bound = atom.args.iter().filter(|a| is_bound(a)).count();
                let is_type =
                    (atom.pred as usize) >= self.model.predicates.len() && atom.args.len() == 1;
                (
                    n_bound == atom.args.len(),
                    n_bound,
                    !is_type,
                    std::cmp::Reverse(atom.args.len() - n_bound),
                )
            };
            let remaining = &scratch.remaining;
            let best_pos = (0..remaining.len())
                .max_by_key(|&k| (score(remaining[k]), std::cmp::Reverse(k)))
                .unwrap_or(0);
            let atom = &rule.body[remaining[best_pos]];
            let n_bound = atom.args.iter().filter(|a| is_bound(a)).count();
            let mut key_positions = Vec::with_capacity(n_bound);
            let mut free = Vec::with_capacity(atom.args.len() - n_bound);
            for (pos, a) in atom.args.iter().enumerate() {
                match a {
                    Arg::Var(v) if !bound[*v as usize] => free.push((pos, *v)),
                    _ => key_positions.push(pos),
                }
            }
            let mut new_vars = Vec::with_capacity(free.len());
            for &(_, v) in &free {
                if !new_vars.contains(&v) {
                    new_vars.push(v);
                }
            }
            let atom_index = scratch.remaining.remove(best_pos);
            let access = if free.is_empty() {
                Access::Full
            } else if key_positions.is_empty() {
                Access::Scan
            } else {
                Access::Index(self.relations[atom.pred as usize].index_of(&key_positions))
            };
            for &v in &new_vars {
                scratch.bound[v as usize] = true;
            }
            let filters = scratch.take_ready();
            steps.push(Step {
                atom: atom_index,
                access,
                key_positions,
                free,
                new_vars,
                filters,
            });
            if head_bound.is_none() && head_is_bound(&scratch.bound) {
                head_bound = Some(steps.len());
            }
        }
        Plan {
            trigger,
            trigger_filters,
            // Only where later steps bind variables of their own can there
            // be several matches per head tuple; elsewhere (and where the
            // head is never bound, so nothing is emitted) the check
            // would cost a lookup per match and save nothing.
            head_bound: head_bound
                .filter(|&n| steps[n..].iter().any(|s| !s.new_vars.is_empty()))
                .unwrap_or(steps.len()),
            steps,
        }
    }
}

/// Reused buffers of [`ProgramBuilder::plan`].
#[derive(Default)]
struct PlanScratch {
    /// Which variables the plan being built has bound so far.
    bound: Vec<bool>,
    /// The variables of the rule's filters: filter `f`'s are
    /// `filter_vars[filter_var_ends[f - 1]..filter_var_ends[f]]`.
    filter_vars: Vec<VarId>,
    filter_var_ends: Vec<usize>,
    /// Filters not yet placed in the plan being built.
    pending: Vec<usize>,
    /// Body atoms not yet placed in the plan being built.
    remaining: Vec<usize>,
}

impl PlanScratch {
    /// Records the variables of `filters`, those of the rule that the
    /// next plans are for.
    fn set_filters(&mut self, filters: &[Filter]) {
        self.filter_vars.clear();
        self.filter_var_ends.clear();
        let var = |a: &Arg| if let Arg::Var(v) = a { Some(*v) } else { None };
        for f in filters {
            match f {
                Filter::Eq(a, b) | Filter::Neq(a, b) => {
                    self.filter_vars.extend([a, b].into_iter().filter_map(var));
                }
                Filter::NotIn(_, args) => self.filter_vars.extend(args.iter().filter_map(var)),
                Filter::InType(_, v) => self.filter_vars.push(*v),
            }
            self.filter_var_ends.push(self.filter_vars.len());
        }
    }

    /// Takes the pending filters whose variables are all bound.
    fn take_ready(&mut self) -> Vec<usize> {
        let (bound, vars, ends) = (&self.bound, &self.filter_vars, &self.filter_var_ends);
        let is_ready = |f: usize| {
            let first = if f == 0 { 0 } else { ends[f - 1] };
            vars[first..ends[f]].iter().all(|&v| bound[v as usize])
        };
        let ready: Vec<usize> = self
            .pending
            .iter()
            .copied()
            .filter(|&f| is_ready(f))
            .collect();
        if !ready.is_empty() {
            self.pending.retain(|&f| !is_ready(f));
        }
        ready
    }
}

fn value(a: &Arg, bind: &[u32]) -> u32 {
    match a {
        Arg::Obj(o) => *o,
        Arg::Var(v) => bind[*v as usize],
    }
}

fn atom_args(atom: &LAtom) -> Vec<Arg> {
    atom.args.clone()
}

/// Candidate tuples of one join step.
enum Cands<'a> {
    List(&'a [u32]),
    Range(u32),
    One(u32),
    Empty,
}

impl Cands<'_> {
    fn len(&self) -> usize {
        match self {
            Cands::List(l) => l.len(),
            Cands::Range(n) => *n as usize,
            Cands::One(_) => 1,
            Cands::Empty => 0,
        }
    }
    fn get(&self, i: usize) -> u32 {
        match self {
            Cands::List(l) => l[i],
            Cands::Range(_) => i as u32,
            Cands::One(x) => *x,
            Cands::Empty => 0,
        }
    }
}

struct Engine<'s> {
    relations: Vec<Relation>,
    rules: Vec<Rule>,
    /// Most head tuples one join may produce; beyond it grounding stops.
    emit_limit: usize,
    /// The caller's stop condition, counted per candidate tuple: one join
    /// can run for minutes on a task too large to ground.
    stop: StopPoll<'s>,
}

impl Engine<'_> {
    fn filters_hold(&self, rule: &Rule, which: &[usize], bind: &[u32], key: &mut Vec<u32>) -> bool {
        which.iter().all(|&f| match &rule.filters[f] {
            Filter::Eq(a, b) => value(a, bind) == value(b, bind),
            Filter::Neq(a, b) => value(a, bind) != value(b, bind),
            Filter::NotIn(pred, args) => {
                key.clear();
                key.extend(args.iter().map(|a| value(a, bind)));
                self.relations[*pred as usize].find(key).is_none()
            }
            Filter::InType(pred, v) => {
                let relation = &self.relations[*pred as usize];
                relation
                    .find(&[bind[*v as usize]])
                    .is_some_and(|i| i < relation.processed)
            }
        })
    }

    fn candidates(&self, rule: &Rule, step: &Step, bind: &[u32], key: &mut Vec<u32>) -> Cands<'_> {
        let atom = &rule.body[step.atom];
        let rel = &self.relations[atom.pred as usize];
        match step.access {
            Access::Scan => Cands::Range(rel.processed),
            Access::Full | Access::Index(_) => {
                key.clear();
                key.extend(
                    step.key_positions
                        .iter()
                        .map(|&p| value(&atom.args[p], bind)),
                );
                match step.access {
                    Access::Full => match rel.find(key) {
                        Some(i) if i < rel.processed => Cands::One(i),
                        _ => Cands::Empty,
                    },
                    Access::Index(ix) => Cands::List(rel.lookup(ix, key)),
                    Access::Scan => Cands::Empty,
                }
            }
        }
    }

    /// Whether the head fact of `rule` under `bind` (every variable of
    /// the head bound) is derived already.
    fn head_exists(&self, rule: &Rule, bind: &[u32], key: &mut Vec<u32>) -> bool {
        key.clear();
        key.extend(rule.head_args.iter().map(|a| value(a, bind)));
        self.relations[rule.head_pred as usize].find(key).is_some()
    }

    /// Joins the fact `tuple` at the plan's trigger position with the
    /// processed facts; appends head tuples to `out`. Resets `bind` to one
    /// unbound slot per rule variable first.
    fn fire(
        &self,
        rule: &Rule,
        plan: &Plan,
        tuple: &[u32],
        bind: &mut Vec<u32>,
        key: &mut Vec<u32>,
        out: &mut Vec<u32>,
    ) -> usize {
        bind.clear();
        bind.resize(rule.num_vars, NONE);
        let mut emitted = 0;
        let trigger_args: &[Arg] = plan.trigger.map_or(&[], |t| &rule.body[t].args);
        for (a, &val) in trigger_args.iter().zip(tuple) {
            match a {
                Arg::Obj(o) if *o != val => return 0,
                Arg::Obj(_) => {}
                Arg::Var(v) => {
                    let slot = &mut bind[*v as usize];
                    if *slot == NONE {
                        *slot = val;
                    } else if *slot != val {
                        return 0;
                    }
                }
            }
        }
        if !self.filters_hold(rule, &plan.trigger_filters, bind, key) {
            return 0;
        }
        let steps = &plan.steps;
        if steps.is_empty() {
            return emit(rule, bind, out);
        }
        // Where the head's last variable is bound: a head fact derived
        // already needs no match, and one match per head tuple is enough.
        let head_bound = plan.head_bound;
        if head_bound == 0 && self.head_exists(rule, bind, key) {
            return 0;
        }
        let mut cands: Vec<Cands> = Vec::with_capacity(steps.len());
        let mut positions = vec![0usize; steps.len()];
        cands.push(self.candidates(rule, &steps[0], bind, key));
        let mut level = 0usize;
        loop {
            let step = &steps[level];
            let mut matched = false;
            while positions[level] < cands[level].len() {
                if self.stop.tick(1) {
                    // The caller sees `stop` and drops what was emitted.
                    return emitted;
                }
                let i = cands[level].get(positions[level]);
                positions[level] += 1;
                for v in &step.new_vars {
                    bind[*v as usize] = NONE;
                }
                let t = self.relations[rule.body[step.atom].pred as usize].tuple(i);
                let mut ok = true;
                for &(pos, v) in &step.free {
                    let slot = &mut bind[v as usize];
                    if *slot == NONE {
                        *slot = t[pos];
                    } else if *slot != t[pos] {
                        ok = false;
                        break;
                    }
                }
                if ok && self.filters_hold(rule, &step.filters, bind, key) {
                    matched = true;
                    break;
                }
            }
            if !matched {
                cands.pop();
                if level == 0 {
                    return emitted;
                }
                level -= 1;
                continue;
            }
            if level + 1 == steps.len() {
                emitted += emit(rule, bind, out);
                if emitted > self.emit_limit {
                    // The caller reports the blow-up; stop before the
                    // buffer takes all memory.
                    return emitted;
                }
                if head_bound == 0 {
                    return emitted;
                }
                // The other matches of the steps after the head's are
                // skipped: they would emit the same tuple.
                while level >= head_bound {
                    cands.pop();
                    level -= 1;
                }
                continue;
            }
            if level + 1 == head_bound && self.head_exists(rule, bind, key) {
                continue;
            }
            level += 1;
            positions[level] = 0;
            let c = self.candidates(rule, &steps[level], bind, key);
            cands.push(c);
        }
    }
}

/// Appends the head tuple under `bind` to `out`; returns 1 when emitted.
fn emit(rule: &Rule, bind: &[u32], out: &mut Vec<u32>) -> usize {
    let start = out.len();
    for a in &rule.head_args {
        let v = value(a, bind);
        if v == NONE {
            out.truncate(start);
            return 0;
        }
        out.push(v);
    }
    1
}

/// Runs relaxed reachability for the model.
pub(crate) fn reachability(model: &Model, options: &GroundOptions) -> Result<Reach, GroundError> {
    let mut b = ProgramBuilder {
        model,
        relations: model
            .predicates
            .iter()
            .map(|p| Relation::new(p.arity))
            .collect(),
        type_relation: HashMap::new(),
        rules: Vec::new(),
        scratch: PlanScratch::default(),
    };
    let mut action_bindings = Vec::with_capacity(model.actions.len());
    // Which relation counts operators of which action, for the guard.
    let mut guarded: HashMap<u32, usize> = HashMap::new();
    for (ai, a) in model.actions.iter().enumerate() {
        let params: Vec<Arg> = a.params.iter().map(|q| Arg::Var(q.var)).collect();
        let mut body = Vec::new();
        let mut filters = Vec::new();
        let mut vars = a.params.clone();
        vars.extend_from_slice(&a.pre_exists);
        b.relax(&a.pre, &mut body, &mut filters, &mut vars);
        let mut full_args = params.clone();
        full_args.extend(a.pre_exists.iter().map(|q| Arg::Var(q.var)));
        let full = b.new_relation(full_args.len());
        guarded.insert(full, ai);
        b.add_rule(full, full_args.clone(), body, filters, &vars, a.num_vars);
        action_bindings.push(full);
        // The applicable parameter tuples without witnesses, which the
        // effect rules join with.
        let applicable = if a.pre_exists.is_empty() {
            full
        } else {
            let r = b.new_relation(params.len());
            let body = vec![BodyAtom {
                pred: full,
                args: full_args,
            }];
            b.add_rule(r, params.clone(), body, Vec::new(), &[], a.num_vars);
            r
        };
        for g in &a.groups {
            if g.adds.is_empty() {
                continue;
            }
            for add in &g.adds {
                let mut body = vec![BodyAtom {
                    pred: applicable,
                    args: params.clone(),
                }];
                let mut filters = Vec::new();
                let mut vars = g.forall.clone();
                b.relax(&g.condition, &mut body, &mut filters, &mut vars);
                b.add_rule(add.pred, atom_args(add), body, filters, &vars, a.num_vars);
            }
        }
    }
    let mut derived_bindings = Vec::with_capacity(model.derived.len());
    for d in &model.derived {
        let mut body = Vec::new();
        let mut filters = Vec::new();
        let mut vars = d.params.clone();
        vars.extend_from_slice(&d.exists);
        b.relax(&d.body, &mut body, &mut filters, &mut vars);
        let mut full_args: Vec<Arg> = d.params.iter().map(|q| Arg::Var(q.var)).collect();
        full_args.extend(d.exists.iter().map(|q| Arg::Var(q.var)));
        let full = b.new_relation(full_args.len());
        b.add_rule(full, full_args.clone(), body, filters, &vars, d.num_vars);
        derived_bindings.push(full);
        let head_args: Vec<Arg> = d.params.iter().map(|q| Arg::Var(q.var)).collect();
        b.add_rule(
            d.head,
            head_args,
            vec![BodyAtom {
                pred: full,
                args: full_args,
            }],
            Vec::new(),
            &[],
            d.num_vars,
        );
    }

    let mut engine = Engine {
        relations: b.relations,
        rules: b.rules,
        emit_limit: options.max_facts.min(options.max_operators),
        stop: StopPoll::new(options.stop),
    };
    let mut triggers: Vec<Vec<(u32, u32)>> = vec![Vec::new(); engine.relations.len()];
    // Per predicate, the rules waiting for a ground atom of it (looked up
    // by the tuple alone, without building a key), and how many atoms each
    // rule still misses.
    let mut ground_triggers: Vec<HashMap<Box<[ObjId]>, Vec<u32>>> = (0..engine.relations.len())
        .map(|_| HashMap::new())
        .collect();
    let mut missing: Vec<usize> = Vec::with_capacity(engine.rules.len());
    for (ri, rule) in engine.rules.iter().enumerate() {
        for (pi, plan) in rule.plans.iter().enumerate() {
            if let Some(t) = plan.trigger {
                triggers[rule.body[t].pred as usize].push((ri as u32, pi as u32));
            }
        }
        for (pred, args) in &rule.ground_body {
            ground_triggers[*pred as usize]
                .entry(args.as_slice().into())
                .or_default()
                .push(ri as u32);
        }
        missing.push(rule.ground_body.len());
    }
    let mut queue: VecDeque<(u32, u32)> = VecDeque::new();
    // Facts already present (type sets) are queued first.
    for (r, rel) in engine.relations.iter().enumerate() {
        for i in 0..rel.len {
            queue.push_back((r as u32, i));
        }
    }
    for (pred, args) in &model.init_atoms {
        if let Some(i) = engine.relations[*pred as usize].insert(args) {
            queue.push_back((*pred, i));
        }
    }
    let mut total: usize = engine.relations.iter().map(Relation::len).sum();
    let mut out: Vec<u32> = Vec::new();
    let mut key: Vec<u32> = Vec::new();
    let mut bind: Vec<u32> = Vec::new();
    // Adds the `emitted` head tuples in `out` to relation `head`.
    let mut insert_out = |engine: &mut Engine,
                          head: u32,
                          emitted: usize,
                          out: &mut Vec<u32>,
                          queue: &mut VecDeque<(u32, u32)>|
     -> Result<(), GroundError> {
        if engine.stop.stopped() {
            return Err(GroundError::Stopped);
        }
        if emitted > engine.emit_limit {
            // The emit limit is the lower of the two limits: name the one
            // passed.
            return Err(match guarded.get(&head) {
                Some(&ai) if emitted > options.max_operators => GroundError::TooManyOperators {
                    action: model.actions[ai].name.clone(),
                    limit: options.max_operators,
                },
                _ => GroundError::TooManyFacts {
                    limit: options.max_facts,
                },
            });
        }
        let rel = &mut engine.relations[head as usize];
        let mut inserted = 0usize;
        if rel.arity == 0 {
            if emitted > 0
                && let Some(i) = rel.insert(&[])
            {
                queue.push_back((head, i));
                inserted += 1;
            }
        } else {
            for t in out.chunks_exact(rel.arity) {
                if let Some(i) = rel.insert(t) {
                    queue.push_back((head, i));
                    inserted += 1;
                }
            }
        }
        out.clear();
        total += inserted;
        if total > options.max_facts {
            return Err(GroundError::TooManyFacts {
                limit: options.max_facts,
            });
        }
        if let Some(&ai) = guarded.get(&head)
            && engine.relations[head as usize].len() > options.max_operators
        {
            return Err(GroundError::TooManyOperators {
                action: model.actions[ai].name.clone(),
                limit: options.max_operators,
            });
        }
        Ok(())
    };
    // Rules without ground atoms are enabled from the start: those with
    // no other atoms hold unconditionally.
    let unconditional: Vec<usize> = (0..engine.rules.len())
        .filter(|&ri| missing[ri] == 0 && engine.rules[ri].body.is_empty())
        .collect();
    for ri in unconditional {
        let rule = &engine.rules[ri];
        let head = rule.head_pred;
        let emitted = engine.fire(rule, &rule.full_plan, &[], &mut bind, &mut key, &mut out);
        insert_out(&mut engine, head, emitted, &mut out, &mut queue)?;
    }
    let mut tuple: Vec<u32> = Vec::new();
    while let Some((pred, i)) = queue.pop_front() {
        if engine.stop.tick(1) {
            return Err(GroundError::Stopped);
        }
        let rel = &mut engine.relations[pred as usize];
        rel.process(i);
        tuple.clear();
        tuple.extend_from_slice(rel.tuple(i));
        // Ground atoms: a rule whose last one this is evaluates in full
        // (its other atoms may have been processed long ago).
        if let Some(waiting) = ground_triggers[pred as usize].get(tuple.as_slice()) {
            for &ri in waiting {
                missing[ri as usize] -= 1;
                if missing[ri as usize] > 0 {
                    continue;
                }
                let rule = &engine.rules[ri as usize];
                let head = rule.head_pred;
                let emitted =
                    engine.fire(rule, &rule.full_plan, &[], &mut bind, &mut key, &mut out);
                if emitted > 0 {
                    insert_out(&mut engine, head, emitted, &mut out, &mut queue)?;
                }
            }
        }
        for &(ri, pi) in &triggers[pred as usize] {
            if missing[ri as usize] > 0 {
                continue;
            }
            let rule = &engine.rules[ri as usize];
            let head = rule.head_pred;
            let emitted = engine.fire(
                rule,
                &rule.plans[pi as usize],
                &tuple,
                &mut bind,
                &mut key,
                &mut out,
            );
            if emitted > 0 {
                insert_out(&mut engine, head, emitted, &mut out, &mut queue)?;
            }
        }
    }
    // A join stopped without emitting anything leaves no other trace.
    if engine.stop.stopped() {
        return Err(GroundError::Stopped);
    }
    Ok(Reach {
        relations: engine.relations,
        action_bindings,
        derived_bindings,
    })
}

#[cfg(test)]
mod tests {
    //! The fixpoint against a naive reference that enumerates every
    //! parameter combination, on random STRIPS domains with typing,
    //! constants in atoms, negative static preconditions and equality.

    use super::*;
    use crate::normalize::normalize;
    use proptest::prelude::*;
    use proptest::test_runner::{RngAlgorithm, TestRng};
    use std::collections::BTreeSet;

    /// A random domain and problem, drawn from `seed` (so that proptest
    /// reports the seed of a failing case).
    fn random_task(seed: [u8; 32]) -> (String, String) {
        let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
        let n_objects = 1 + rng.random_range(0..4);
        let arities: Vec<usize> = (0..4).map(|_| rng.random_range(0..3)).collect();
        let mut domain = String::from(
            "(define (domain r) (:requirements :typing :negative-preconditions :equality)\n(:types t - object)\n(:predicates",
        );
        for (p, a) in arities.iter().enumerate() {
            domain.push_str(&format!(" (p{p}"));
            for i in 0..*a {
                domain.push_str(&format!(" ?x{i}"));
            }
            domain.push(')');
        }
        domain.push_str(")\n");
        let term = |rng: &mut TestRng, n_params: usize| {
            if n_params > 0 && rng.random_range(0..5) > 0 {
                format!("?v{}", rng.random_range(0..n_params))
            } else {
                format!("o{}", rng.random_range(0..n_objects))
            }
        };
        let atom = |rng: &mut TestRng, n_params: usize| {
            let p = rng.random_range(0..arities.len());
            let mut s = format!("(p{p}");
            for _ in 0..arities[p] {
                s.push(' ');
                s.push_str(&term(rng, n_params));
            }
            s.push(')');
            s
        };
        for a in 0..1 + rng.random_range(0..3) {
            let n_params = rng.random_range(0..4);
            domain.push_str(&format!("(:action a{a} :parameters ("));
            for i in 0..n_params {
                domain.push_str(&format!(
                    "?v{i} - {} ",
                    if rng.random_range(0..3) == 0 {
                        "t"
                    } else {
                        "object"
                    }
                ));
            }
            domain.push_str(") :precondition (and");
            for _ in 0..rng.random_range(0..4) {
                match rng.random_range(0..6) {
                    0 => domain.push_str(&format!(" (not {})", atom(&mut rng, n_params))),
                    1 => domain.push_str(&format!(
                        " (not (= {} {}))",
                        term(&mut rng, n_params),
                        term(&mut rng, n_params)
                    )),
                    2 => domain.push_str(&format!(
                        " (= {} {})",
                        term(&mut rng, n_params),
                        term(&mut rng, n_params)
                    )),
                    _ => domain.push_str(&format!(" {}", atom(&mut rng, n_params))),
                }
            }
            domain.push_str(") :effect (and");
            for _ in 0..1 + rng.random_range(0..2) {
                domain.push_str(&format!(" {}", atom(&mut rng, n_params)));
            }
            if rng.random_range(0..2) == 0 {
                domain.push_str(&format!(" (not {})", atom(&mut rng, n_params)));
            }
            domain.push_str("))\n");
        }
        domain.push(')');
        let mut problem = String::from("(define (problem r1) (:domain r) (:objects");
        for o in 0..n_objects {
            problem.push_str(&format!(
                " o{o}{}",
                if rng.random_range(0..2) == 0 {
                    " - t"
                } else {
                    " - object"
                }
            ));
        }
        problem.push_str(") (:init");
        for _ in 0..rng.random_range(0..6) {
            let p = rng.random_range(0..arities.len());
            problem.push_str(&format!(" (p{p}"));
            for _ in 0..arities[p] {
                problem.push_str(&format!(" o{}", rng.random_range(0..n_objects)));
            }
            problem.push(')');
        }
        problem.push_str(") (:goal (and)))");
        (domain, problem)
    }

    type Facts = BTreeSet<(u32, Vec<u32>)>;

    /// Relaxed reachability by enumerating every parameter tuple.
    fn naive(model: &Model) -> (Facts, Vec<BTreeSet<Vec<u32>>>) {
        let mut facts: Facts = model.init_atoms.iter().cloned().collect();
        let mut bindings = vec![BTreeSet::new(); model.actions.len()];
        let value = |a: &Arg, b: &[u32]| match a {
            Arg::Obj(o) => *o,
            Arg::Var(v) => b[*v as usize],
        };
        loop {
            let mut changed = false;
            for (ai, a) in model.actions.iter().enumerate() {
                let sets: Vec<&[u32]> = a
                    .params
                    .iter()
                    .map(|q| model.sets[q.set as usize].as_slice())
                    .collect();
                let total: usize = sets.iter().map(|s| s.len()).product();
                for mut k in 0..total {
                    let mut b = vec![0u32; a.num_vars];
                    for (q, s) in a.params.iter().zip(&sets) {
                        b[q.var as usize] = s[k % s.len()];
                        k /= s.len();
                    }
                    let parts = match &a.pre {
                        Formula::And(parts) => parts.clone(),
                        other => vec![other.clone()],
                    };
                    let holds = parts.iter().all(|f| match f {
                        Formula::Lit { atom, positive } => {
                            let ground = (
                                atom.pred,
                                atom.args.iter().map(|x| value(x, &b)).collect::<Vec<_>>(),
                            );
                            let is_static =
                                model.predicates[atom.pred as usize].kind == PredKind::Static;
                            if *positive {
                                facts.contains(&ground)
                            } else {
                                !is_static || !facts.contains(&ground)
                            }
                        }
                        Formula::Eq { a, b: c, positive } => {
                            (value(a, &b) == value(c, &b)) == *positive
                        }
                        _ => true,
                    });
                    if !holds {
                        continue;
                    }
                    let tuple: Vec<u32> = a.params.iter().map(|q| b[q.var as usize]).collect();
                    changed |= bindings[ai].insert(tuple);
                    for g in &a.groups {
                        for add in &g.adds {
                            changed |= facts.insert((
                                add.pred,
                                add.args.iter().map(|x| value(x, &b)).collect(),
                            ));
                        }
                    }
                }
            }
            if !changed {
                return (facts, bindings);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn fixpoint_matches_naive_enumeration(seed in any::<[u8; 32]>()) {
            let (domain_text, problem_text) = random_task(seed);
            let domain = pddl_syntax::parse_domain(&domain_text).expect("generated domain parses");
            let problem = pddl_syntax::parse_problem(&problem_text).expect("generated problem parses");
            let model = normalize(&domain, &problem).expect("normalises");
            let reach = reachability(&model, &GroundOptions::default()).expect("reachability");
            let (facts, bindings) = naive(&model);
            for (ai, expected) in bindings.iter().enumerate() {
                let rel = &reach.relations[reach.action_bindings[ai] as usize];
                let got: BTreeSet<Vec<u32>> = (0..rel.len() as u32).map(|i| rel.tuple(i).to_vec()).collect();
                prop_assert_eq!(&got, expected, "action {} of\n{}\n{}", ai, domain_text, problem_text);
            }
            for (p, _) in model.predicates.iter().enumerate() {
                let rel = &reach.relations[p];
                let got: Facts = (0..rel.len() as u32).map(|i| (p as u32, rel.tuple(i).to_vec())).collect();
                let expected: Facts = facts.iter().filter(|(q, _)| *q == p as u32).cloned().collect();
                prop_assert_eq!(got, expected, "predicate p{} of\n{}\n{}", p, domain_text, problem_text);
            }
        }
    }
}
