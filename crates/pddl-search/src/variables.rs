//! Finite-domain variables over a ground task's facts, for the pattern
//! databases' projections and for packing states
//! ([`crate::state::packing`]).
//!
//! A variable is a set of facts of which at most one holds in every
//! reachable state (an "at most one" invariant, such as `(at tile-1 ?c)`
//! over every cell `?c`); its values are its facts plus "none of them".
//! Candidates are the facts of one predicate that agree on all arguments
//! but one; a candidate is kept when the ground operators provably keep
//! it at most one (each effect that adds one of its facts deletes one it
//! requires, and no two such effects of an operator can fire together).
//! Every other fact that is not derived is a variable of its own.

use hashbrown::HashMap;
use pddl_ground::Task;
use pddl_ground::task::{Conjunction, FactId};

/// The variables of a task.
#[derive(Clone, Debug)]
pub struct Variables {
    /// Per variable, its facts: value `i` is `facts[i]`, value
    /// `facts.len()` is "none of them".
    pub facts: Vec<Vec<FactId>>,
    /// Per fact, its variable and value; `None` for derived facts, which
    /// belong to no variable.
    pub of_fact: Vec<Option<(u32, u32)>>,
}

impl Variables {
    /// Groups the task's facts into variables.
    pub fn new(task: &Task) -> Self {
        let fact_count = task.facts.len();
        let mut derived = vec![false; fact_count];
        for axiom in &task.axioms {
            if let Some(d) = derived.get_mut(axiom.head as usize) {
                *d = true;
            }
        }
        let mut groups = candidate_groups(task, &derived);
        // Only operators that add a member can break an invariant.
        let mut adders: Vec<Vec<u32>> = vec![Vec::new(); fact_count];
        for (o, op) in task.operators.iter().enumerate() {
            let added = op
                .add
                .iter()
                .chain(op.conditional.iter().flat_map(|e| &e.add));
            for &f in added {
                let list = &mut adders[f as usize];
                if list.last() != Some(&(o as u32)) {
                    list.push(o as u32);
                }
            }
        }
        // Larger groups first; ties in the order found, which is
        // deterministic.
        groups.sort_by_key(|g| std::cmp::Reverse(g.len()));
        let mut of_fact: Vec<Option<(u32, u32)>> = vec![None; fact_count];
        let mut facts: Vec<Vec<FactId>> = Vec::new();
        let mut member = vec![false; fact_count];
        for group in groups {
            // A subset of an at-most-one group is one too.
            let free: Vec<FactId> = group
                .into_iter()
                .filter(|&f| of_fact[f as usize].is_none())
                .collect();
            if free.len() < 2 {
                continue;
            }
            for &f in &free {
                member[f as usize] = true;
            }
            let mut ops: Vec<u32> = free
                .iter()
                .flat_map(|&f| adders[f as usize].iter().copied())
                .collect();
            ops.sort_unstable();
            ops.dedup();
            let keep = is_at_most_one(task, &member, &ops);
            for &f in &free {
                member[f as usize] = false;
            }
            if keep {
                let var = facts.len() as u32;
                for (value, &f) in free.iter().enumerate() {
                    of_fact[f as usize] = Some((var, value as u32));
                }
                facts.push(free);
            }
        }
        for f in 0..fact_count {
            if of_fact[f].is_none() && !derived[f] {
                of_fact[f] = Some((facts.len() as u32, 0));
                facts.push(vec![f as FactId]);
            }
        }
        Variables { facts, of_fact }
    }

    /// The number of values of variable `var` (its facts and "none").
    pub fn domain_size(&self, var: u32) -> usize {
        self.facts[var as usize].len() + 1
    }

    /// The variable of fact `f`, if it has one.
    pub fn var(&self, f: FactId) -> Option<u32> {
        self.of_fact[f as usize].map(|(v, _)| v)
    }
}

/// Facts of one predicate grouped by all arguments but one, for every
/// argument position; groups of two or more facts.
fn candidate_groups(task: &Task, derived: &[bool]) -> Vec<Vec<FactId>> {
    let mut by_key: HashMap<(&str, usize, Vec<&str>), Vec<FactId>> = HashMap::new();
    let mut order: Vec<(&str, usize, Vec<&str>)> = Vec::new();
    for (f, atom) in task.facts.iter().enumerate() {
        if derived[f] {
            continue;
        }
        for counted in 0..atom.args.len() {
            let rest: Vec<&str> = atom
                .args
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != counted)
                .map(|(_, a)| a.as_str())
                .collect();
            let key = (atom.predicate.as_str(), counted, rest);
            let entry = by_key.entry(key.clone()).or_default();
            if entry.is_empty() {
                order.push(key);
            }
            entry.push(f as FactId);
        }
    }
    order
        .into_iter()
        .filter_map(|key| by_key.remove(&key))
        .filter(|g| g.len() >= 2)
        .collect()
}

/// Whether at most one of the facts marked in `member` holds in every
/// reachable state: at most one initially, and every operator keeps it so
/// (`adders`: the operators that add a member; the others cannot break it).
fn is_at_most_one(task: &Task, member: &[bool], adders: &[u32]) -> bool {
    let is = |f: FactId| member[f as usize];
    if task.init_facts.iter().filter(|&&f| is(f)).count() > 1 {
        return false;
    }
    adders.iter().all(|&o| {
        let op = &task.operators[o as usize];
        let unconditional = distinct_members(&op.add, &is);
        if unconditional.len() > 1 {
            return false;
        }
        let conditional: Vec<(usize, FactId)> = op
            .conditional
            .iter()
            .enumerate()
            .filter_map(|(i, e)| {
                let adds = distinct_members(&e.add, &is);
                // Two members added at once break the invariant; mark it
                // with an impossible fact id.
                match adds.len() {
                    0 => None,
                    1 => Some((i, adds[0])),
                    _ => Some((i, FactId::MAX)),
                }
            })
            .collect();
        if conditional.iter().any(|&(_, a)| a == FactId::MAX) {
            return false;
        }
        if let Some(&added) = unconditional.first() {
            // The added member was true already, or the one true member
            // (required) is deleted; no conditional add may join it.
            return conditional.is_empty()
                && (op.precondition.pos.contains(&added)
                    || requires_deleted(&op.precondition, &op.del, &[], &is));
        }
        for &(i, added) in &conditional {
            let e = &op.conditional[i];
            let balanced = op.precondition.pos.contains(&added)
                || e.condition.pos.contains(&added)
                || requires_deleted(&op.precondition, &op.del, &e.del, &is)
                || requires_deleted(&e.condition, &op.del, &e.del, &is);
            if !balanced {
                return false;
            }
        }
        // Two effects adding different members must never fire together:
        // together they require two distinct members.
        for (x, &(i, a)) in conditional.iter().enumerate() {
            for &(j, b) in &conditional[x + 1..] {
                if a == b {
                    continue;
                }
                let required = |k: usize| {
                    op.precondition
                        .pos
                        .iter()
                        .chain(&op.conditional[k].condition.pos)
                        .copied()
                        .filter(|&f| is(f))
                };
                let mut all: Vec<FactId> = required(i).chain(required(j)).collect();
                all.sort_unstable();
                all.dedup();
                if all.len() < 2 {
                    return false;
                }
            }
        }
        true
    })
}

/// The distinct members among `facts`.
fn distinct_members(facts: &[FactId], is: &impl Fn(FactId) -> bool) -> Vec<FactId> {
    let mut found: Vec<FactId> = facts.iter().copied().filter(|&f| is(f)).collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// Whether `condition` requires a member that the operator (`del`) or the
/// effect (`effect_del`) deletes.
fn requires_deleted(
    condition: &Conjunction,
    del: &[FactId],
    effect_del: &[FactId],
    is: &impl Fn(FactId) -> bool,
) -> bool {
    condition
        .pos
        .iter()
        .any(|&f| is(f) && (del.contains(&f) || effect_del.contains(&f)))
}
