//! Interchangeable objects: classes of problem objects any permutation of
//! which maps the task to itself (every state to an equally good one).
//!
//! Two objects `a` and `b` are interchangeable when swapping them leaves
//! unchanged everything but the dynamic part of the initial state: their
//! types, the static facts, the static function values and the goal, and
//! neither appears as a constant in an action, a derived rule or the
//! metric. "Static" means static in the ground task: an initial fact of a
//! changing predicate that grounding compiled away (a hoist's `at` in
//! depot, which no reachable operator changes) is not in any state, so the
//! swap must preserve it like a static fact, and so for folded fluents. Such swaps compose: if `(a b)` and `(b c)` are symmetries, so
//! is `(a c) = (a b)(b c)(a b)`, so the relation is an equivalence and its
//! classes are whole symmetric groups. Search can then treat states that
//! differ only by a permutation within classes as one state (Fox & Long's
//! "symmetric objects"; Pochter, Zohar & Rosenschein 2011).
//!
//! Only the top-level conjunction of goal literals is compared; an object
//! named in any other part of the goal (a disjunction, a quantifier body,
//! a comparison) is left out, which is safe: leaving an object out only
//! loses pruning.

use std::collections::BTreeMap;

use hashbrown::HashSet;

use crate::normalize::{Arg, Formula, LExpr, Model, ObjId, PredId, PredKind};
use crate::task::{GroundAtom, Name, Task};

/// The classes (two or more objects each, sorted by name) of
/// interchangeable objects of `model`, grounded as `task`.
pub(crate) fn interchangeable_objects(model: &Model, task: &Task) -> Vec<Vec<String>> {
    let n = model.objects.len();
    // Atoms by name, borrowed from the task and the model.
    fn by_name(atoms: &[GroundAtom]) -> HashSet<(&str, Vec<&str>)> {
        atoms
            .iter()
            .map(|a| {
                (
                    a.predicate.as_str(),
                    a.args.iter().map(Name::as_str).collect(),
                )
            })
            .collect()
    }
    fn ground<'m>(model: &'m Model, name: &'m str, args: &[ObjId]) -> (&'m str, Vec<&'m str>) {
        let args = args.iter().map(|&o| model.objects[o as usize].as_str());
        (name, args.collect())
    }
    let (task_facts, task_fluents) = (by_name(&task.facts), by_name(&task.fluents));
    let mut excluded = vec![false; n];
    mark_constants(model, &mut excluded);
    let mut goal_literals: Vec<(PredId, Vec<ObjId>, bool)> = Vec::new();
    split_goal(&model.goal, &mut goal_literals, &mut excluded);

    // Static atoms and goal literals in one set, told apart by a tag bit;
    // another tag keeps function symbols apart from predicates.
    const GOAL: u64 = 1 << 40;
    const FUNCTION: u64 = 1 << 41;
    let statics = model.init_atoms.iter().filter(|(p, args)| {
        let predicate = &model.predicates[*p as usize];
        predicate.kind == PredKind::Static
            || !task_facts.contains(&ground(model, &predicate.name, args))
    });
    let atoms = AtomSet::new(
        n,
        statics.map(|(p, a)| (u64::from(*p), a, 1)).chain(
            goal_literals
                .iter()
                .map(|(p, a, positive)| (u64::from(*p) | GOAL, a, u64::from(*positive))),
        ),
    );
    // Static function values, the value's bits as the payload.
    let values = AtomSet::new(
        n,
        model
            .init_values
            .iter()
            .filter(|((f, args), _)| {
                let function = &model.functions[*f as usize];
                function.is_static || !task_fluents.contains(&ground(model, &function.name, args))
            })
            .map(|((f, a), v)| (u64::from(*f) | FUNCTION, a, v.to_bits())),
    );

    // Only objects of the same types, alike in the refinement of their
    // atoms, can be swapped; the swap checks below decide.
    let mut colors: Vec<u64> = vec![0; n];
    for (s, members) in model.sets.iter().enumerate() {
        for &o in members {
            colors[o as usize] = mix(colors[o as usize] ^ mix(s as u64 + 1));
        }
    }
    for (o, color) in colors.iter_mut().enumerate() {
        if excluded[o] {
            // Fixed by every symmetry: a colour of its own.
            *color = mix(!(o as u64));
        }
    }
    refine(&mut colors, &[&atoms, &values]);
    let mut groups: BTreeMap<u64, Vec<ObjId>> = BTreeMap::new();
    for o in (0..n as ObjId).filter(|&o| !excluded[o as usize]) {
        groups.entry(colors[o as usize]).or_default().push(o);
    }
    let mut classes: Vec<Vec<String>> = Vec::new();
    // Each check costs about the atoms of two objects; a group whose
    // objects are alike in colour but not interchangeable costs a check per
    // pair, so the budget caps the work (objects left unchecked are left
    // out of every class, which is safe).
    let mut budget = MAX_SWAP_CHECK_ATOMS;
    'groups: for candidates in groups.values().filter(|g| g.len() > 1) {
        let mut found: Vec<Vec<ObjId>> = Vec::new();
        for &o in candidates {
            let mut joined = false;
            for class in &mut found {
                let a = class[0];
                let work = atoms.atoms_of(a) + atoms.atoms_of(o) + values.atoms_of(a) + 1;
                let Some(left) = budget.checked_sub(work) else {
                    // Out of budget: o and the objects not yet checked
                    // join no class.
                    add_classes(model, found, &mut classes);
                    break 'groups;
                };
                budget = left;
                if atoms.swap_invariant(a, o) && values.swap_invariant(a, o) {
                    class.push(o);
                    joined = true;
                    break;
                }
            }
            if !joined {
                found.push(vec![o]);
            }
        }
        add_classes(model, found, &mut classes);
    }
    classes.sort();
    classes
}

/// Adds the sets of `found` with two or more objects to `classes`, by name.
fn add_classes(model: &Model, found: Vec<Vec<ObjId>>, classes: &mut Vec<Vec<String>>) {
    for class in found.into_iter().filter(|c| c.len() > 1) {
        let mut names: Vec<String> = class
            .iter()
            .map(|&o| model.objects[o as usize].clone())
            .collect();
        names.sort();
        classes.push(names);
    }
}

/// A set of ground atoms `(symbol, args, payload)` indexed by object.
struct AtomSet<'a> {
    all: HashSet<(u64, &'a [ObjId], u64)>,
    by_object: Vec<Vec<(u64, &'a [ObjId], u64)>>,
}

impl<'a> AtomSet<'a> {
    fn new(objects: usize, items: impl Iterator<Item = (u64, &'a Vec<ObjId>, u64)>) -> Self {
        let mut all = HashSet::new();
        let mut by_object = vec![Vec::new(); objects];
        for (symbol, args, payload) in items {
            let atom = (symbol, args.as_slice(), payload);
            if all.insert(atom) {
                let mut seen: Vec<ObjId> = atom.1.to_vec();
                seen.sort_unstable();
                seen.dedup();
                for o in seen {
                    by_object[o as usize].push(atom);
                }
            }
        }
        AtomSet { all, by_object }
    }

    /// Number of atoms naming `o`.
    fn atoms_of(&self, o: ObjId) -> usize {
        self.by_object[o as usize].len()
    }

    /// Whether swapping `a` and `b` maps the set onto itself. Only atoms
    /// naming one of them change, and the swap is its own inverse, so
    /// checking that each of those has its image in the set suffices.
    fn swap_invariant(&self, a: ObjId, b: ObjId) -> bool {
        let swap = |o: ObjId| {
            if o == a {
                b
            } else if o == b {
                a
            } else {
                o
            }
        };
        let mut image = Vec::new();
        self.by_object[a as usize]
            .iter()
            .chain(&self.by_object[b as usize])
            .all(|&(symbol, args, payload)| {
                image.clear();
                image.extend(args.iter().map(|&o| swap(o)));
                self.all.contains(&(symbol, image.as_slice(), payload))
            })
    }
}

/// Most rounds of colour refinement (a path of n objects needs n / 2),
/// and most atom visits over all rounds.
const MAX_REFINEMENT_ROUNDS: usize = 100;
const MAX_REFINEMENT_WORK: usize = 20_000_000;

/// Most atoms looked at by swap checks, over all groups.
const MAX_SWAP_CHECK_ATOMS: usize = 2_000_000;

/// Colour refinement (1-dimensional Weisfeiler-Leman) over the atoms:
/// each round, an object's colour takes in the symbols, positions and
/// payloads of its atoms and the colours of their other arguments, until
/// the number of colours stops growing. A symmetry maps each object to
/// one of the same colour, so only those need comparing.
fn refine(colors: &mut Vec<u64>, sets: &[&AtomSet<'_>]) {
    let distinct = |c: &[u64]| c.iter().collect::<HashSet<_>>().len();
    let mut count = distinct(colors);
    let atoms: usize = sets.iter().map(|set| set.all.len()).sum::<usize>().max(1);
    for _ in 0..MAX_REFINEMENT_ROUNDS.min(MAX_REFINEMENT_WORK / atoms) {
        // A sum of hashes: the multiset of the object's atom views.
        let mut sums = vec![0u64; colors.len()];
        for &(symbol, args, payload) in sets.iter().flat_map(|set| &set.all) {
            for (i, &o) in args.iter().enumerate() {
                let mut view = mix(symbol ^ mix(payload ^ mix(i as u64)));
                for (j, &other) in args.iter().enumerate().filter(|&(j, _)| j != i) {
                    view = mix(view ^ colors[other as usize].wrapping_add(j as u64));
                }
                sums[o as usize] = sums[o as usize].wrapping_add(view);
            }
        }
        let next: Vec<u64> = colors
            .iter()
            .zip(&sums)
            .map(|(&c, &sum)| mix(c ^ mix(sum)))
            .collect();
        let next_count = distinct(&next);
        *colors = next;
        if next_count == count {
            break;
        }
        count = next_count;
    }
}

/// A 64-bit mixing function (SplitMix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Marks the objects named as constants by actions, derived rules and the
/// metric: a permutation must leave those fixed.
fn mark_constants(model: &Model, excluded: &mut [bool]) {
    let mut mark = |arg: &Arg| {
        if let Arg::Obj(o) = arg {
            excluded[*o as usize] = true;
        }
    };
    for action in &model.actions {
        visit_formula(&action.pre, &mut mark);
        for group in &action.groups {
            visit_formula(&group.condition, &mut mark);
            for atom in group.adds.iter().chain(&group.dels) {
                atom.args.iter().for_each(&mut mark);
            }
            for num in &group.nums {
                num.args.iter().for_each(&mut mark);
                visit_expr(&num.expr, &mut mark);
            }
        }
    }
    for rule in &model.derived {
        visit_formula(&rule.body, &mut mark);
    }
    if let Some(metric) = &model.metric {
        visit_expr(&metric.expr, &mut mark);
    }
}

/// Collects the top-level conjunction's ground literals; marks the
/// objects named anywhere else in the goal.
fn split_goal(
    goal: &Formula,
    literals: &mut Vec<(PredId, Vec<ObjId>, bool)>,
    excluded: &mut [bool],
) {
    match goal {
        Formula::True => {}
        Formula::And(parts) => {
            for part in parts {
                split_goal(part, literals, excluded);
            }
        }
        Formula::Lit { atom, positive } if atom.args.iter().all(|a| matches!(a, Arg::Obj(_))) => {
            let args = atom
                .args
                .iter()
                .map(|a| match a {
                    Arg::Obj(o) => *o,
                    Arg::Var(_) => unreachable!("checked above"),
                })
                .collect();
            literals.push((atom.pred, args, *positive));
        }
        other => visit_formula(other, &mut |arg| {
            if let Arg::Obj(o) = arg {
                excluded[*o as usize] = true;
            }
        }),
    }
}

fn visit_formula(formula: &Formula, visit: &mut impl FnMut(&Arg)) {
    match formula {
        Formula::True => {}
        Formula::Lit { atom, .. } => atom.args.iter().for_each(visit),
        Formula::Eq { a, b, .. } => {
            visit(a);
            visit(b);
        }
        Formula::Num { lhs, rhs, .. } => {
            visit_expr(lhs, visit);
            visit_expr(rhs, visit);
        }
        Formula::And(parts) | Formula::Or(parts) => {
            for part in parts {
                visit_formula(part, visit);
            }
        }
        Formula::Forall(_, body) | Formula::Exists(_, body) => visit_formula(body, visit),
    }
}

fn visit_expr(expr: &LExpr, visit: &mut impl FnMut(&Arg)) {
    match expr {
        LExpr::Const(_) | LExpr::TotalTime(_) => {}
        LExpr::Fluent(_, args) => args.iter().for_each(visit),
        LExpr::Neg(e) => visit_expr(e, visit),
        LExpr::Bin(_, a, b) => {
            visit_expr(a, visit);
            visit_expr(b, visit);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{GroundOptions, ground};

    fn classes(domain: &str, problem: &str) -> Vec<Vec<String>> {
        let d = pddl_syntax::parse_domain(domain).expect("domain parses");
        let p = pddl_syntax::parse_problem(problem).expect("problem parses");
        ground(&d, &p, &GroundOptions::default())
            .expect("grounds")
            .interchangeable_objects
    }

    const GRIPPER: &str = "(define (domain gripper) (:requirements :strips :typing)
      (:types room ball gripper)
      (:predicates (at-robby ?r - room) (at ?b - ball ?r - room) (free ?g - gripper)
                   (carry ?b - ball ?g - gripper))
      (:action move :parameters (?from ?to - room)
        :precondition (at-robby ?from)
        :effect (and (at-robby ?to) (not (at-robby ?from))))
      (:action pick :parameters (?b - ball ?r - room ?g - gripper)
        :precondition (and (at ?b ?r) (at-robby ?r) (free ?g))
        :effect (and (carry ?b ?g) (not (at ?b ?r)) (not (free ?g))))
      (:action drop :parameters (?b - ball ?r - room ?g - gripper)
        :precondition (and (carry ?b ?g) (at-robby ?r))
        :effect (and (at ?b ?r) (free ?g) (not (carry ?b ?g)))))";

    /// The classes of a gripper problem (b1 b2 in room a, b3 in b) with
    /// this goal.
    fn gripper_classes(goal: &str) -> Vec<Vec<String>> {
        let problem = format!(
            "(define (problem p) (:domain gripper)
              (:objects a b - room b1 b2 b3 - ball left right - gripper)
              (:init (at-robby a) (at b1 a) (at b2 a) (at b3 b) (free left) (free right))
              (:goal {goal}))"
        );
        classes(GRIPPER, &problem)
    }

    #[test]
    fn balls_and_grippers_are_interchangeable_rooms_are_not() {
        assert_eq!(
            gripper_classes("(and (at b1 b) (at b2 b) (at b3 b))"),
            vec![vec!["b1", "b2", "b3"], vec!["left", "right"]]
        );
    }

    #[test]
    fn the_goal_separates_objects() {
        // b3 must end in room a, the others in b: only b1 and b2 swap.
        assert_eq!(
            gripper_classes("(and (at b1 b) (at b2 b) (at b3 a))"),
            vec![vec!["b1", "b2"], vec!["left", "right"]]
        );
    }

    #[test]
    fn facts_grounding_compiled_away_are_static() {
        // `at` changes for trucks only: the hoists' places are constant,
        // so hoists and places swap only together, which the classes
        // cannot express; places also hold different pallets.
        let domain = "(define (domain depot) (:requirements :strips)
          (:predicates (at ?x ?p) (place ?p) (hoist ?h) (truck ?t) (busy ?h))
          (:action drive :parameters (?t ?from ?to)
            :precondition (and (truck ?t) (place ?from) (place ?to) (at ?t ?from))
            :effect (and (at ?t ?to) (not (at ?t ?from))))
          (:action work :parameters (?h ?p ?t)
            :precondition (and (hoist ?h) (at ?h ?p) (at ?t ?p) (truck ?t))
            :effect (busy ?h)))";
        let problem = "(define (problem p) (:domain depot)
          (:objects p1 p2 h1 h2 t1 t2)
          (:init (place p1) (place p2) (hoist h1) (hoist h2) (truck t1) (truck t2)
                 (at h1 p1) (at h2 p2) (at t1 p1) (at t2 p1))
          (:goal (and (busy h1) (busy h2))))";
        assert_eq!(classes(domain, problem), vec![vec!["t1", "t2"]]);
    }

    #[test]
    fn static_facts_and_goal_disjunctions_separate_objects() {
        let domain = "(define (domain d) (:requirements :strips :typing :disjunctive-preconditions)
          (:types t)
          (:predicates (heavy ?x - t) (done ?x - t))
          (:action finish :parameters (?x - t) :precondition (heavy ?x) :effect (done ?x)))";
        let problem = "(define (problem p) (:domain d)
          (:objects x1 x2 x3 x4 x5 - t)
          (:init (heavy x1) (heavy x2) (heavy x4) (heavy x5))
          (:goal (and (done x1) (done x2) (done x3) (or (done x4) (done x5)))))";
        // x3 is not heavy; x4 and x5 appear inside a disjunction.
        assert_eq!(classes(domain, problem), vec![vec!["x1", "x2"]]);
    }
}
