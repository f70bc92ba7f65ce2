//! Symmetry reduction over interchangeable objects.
//!
//! The grounder lists classes of objects that can be permuted without
//! changing the task ([`Task::interchangeable_objects`]). Two states that
//! differ only by such a permutation have the same goal distance, so the
//! [`crate::state::StateRegistry`] may keep one of them: it deduplicates
//! states by a [`Symmetry::key`] that is equal exactly for the states of
//! one orbit, and stores the first state of each orbit it meets. Search
//! nodes then stand for orbits; plan extraction
//! ([`crate::search_algorithms::extract_plan`]) replays the path from the
//! initial state, picking at each step an operator that reaches the next
//! node's orbit.
//!
//! The key: the state with every fact naming a class object cleared, then
//! per class the sorted list of its objects' signatures, a signature being
//! the set of the object's true facts with the object blanked out (its
//! "templates": `(at _ c3)`, `(gone _)`). Sorting forgets which object
//! has which signature, and nothing else. That is exact only when no fact
//! names two class objects (then a matching of equal signatures is a
//! permutation mapping one state onto the other), so classes are dropped
//! until that holds: a fact naming two objects of one class drops that
//! class; one naming objects of two classes drops the smaller (in gripper,
//! `(carry ?ball ?gripper)` keeps the balls and drops the grippers).
//! Classes named by a fluent stored in the state are dropped too, and so
//! are classes whose objects the goal tells apart, which the grounder's
//! never are but a caller's changed goal may make them.

use hashbrown::HashMap;
use pddl_ground::Task;
use pddl_ground::task::{FactId, GroundAtom};

use crate::state::StateLayout;

/// The key computation for a task's interchangeable objects.
#[derive(Debug)]
pub struct Symmetry {
    /// Per fact word, the bits of facts that name a class object.
    class_facts: Vec<u64>,
    /// Per fact (indexed by id; used for facts naming a class object):
    /// where its bit goes among all classes' signatures (word, bit).
    slot: Vec<(u32, u32)>,
    classes: Vec<Class>,
    /// Words of all classes' signatures together.
    signature_words: usize,
    key_words: usize,
}

/// Where one class's signatures are.
#[derive(Clone, Debug)]
struct Class {
    /// Its first signature word among all classes' signatures.
    start: usize,
    /// Number of objects.
    objects: usize,
    /// Words per signature.
    words: usize,
}

/// Reusable buffers for [`Symmetry::key`].
#[derive(Debug, Default)]
pub struct KeyScratch {
    signatures: Vec<u64>,
    order: Vec<u32>,
}

impl Symmetry {
    /// The symmetry of `task`'s states packed by `layout`; `None` when no
    /// class of interchangeable objects can be used.
    pub fn new(task: &Task, layout: &StateLayout) -> Option<Symmetry> {
        if task.interchangeable_objects.is_empty() {
            return None;
        }
        let mut class_of: HashMap<&str, (usize, usize)> = HashMap::new();
        for (c, class) in task.interchangeable_objects.iter().enumerate() {
            for (i, name) in class.iter().enumerate() {
                class_of.insert(name.as_str(), (c, i));
            }
        }
        let classes = task.interchangeable_objects.len();
        let mut active = vec![true; classes];
        let size = |c: usize| task.interchangeable_objects[c].len();
        for (f, fluent) in task.fluents.iter().enumerate() {
            if layout.is_stored(f as u32) {
                for arg in &fluent.args {
                    if let Some(&(c, _)) = class_of.get(arg.as_str()) {
                        active[c] = false;
                    }
                }
            }
        }
        // Drop classes until no fact names two class objects.
        let mut named: Vec<(usize, usize)> = Vec::new();
        loop {
            let mut dropped = false;
            for fact in &task.facts {
                named.clear();
                named.extend(
                    fact.args
                        .iter()
                        .filter_map(|a| class_of.get(a.as_str()).copied())
                        .filter(|&(c, _)| active[c]),
                );
                named.sort_unstable();
                named.dedup();
                if named.len() < 2 {
                    continue;
                }
                let drop = if named.iter().all(|&(c, _)| c == named[0].0) {
                    named[0].0
                } else {
                    named
                        .iter()
                        .map(|&(c, _)| c)
                        .min_by_key(|&c| (size(c), std::cmp::Reverse(c)))
                        .expect("two or more named")
                };
                active[drop] = false;
                dropped = true;
            }
            if !dropped {
                break;
            }
        }
        drop_classes_the_goal_tells_apart(task, &class_of, &mut active);
        if !active.iter().any(|&a| a) {
            return None;
        }
        let fact_words = layout.fact_words();
        let mut class_facts = vec![0u64; fact_words];
        let mut templates: Vec<HashMap<Template, u32>> = vec![HashMap::new(); classes];
        // Per fact naming an active class object: (class, object, template).
        let mut named_by: Vec<(FactId, usize, usize, u32)> = Vec::new();
        for (f, fact) in task.facts.iter().enumerate() {
            let Some((c, i, template)) = template(task, fact, &class_of, &active) else {
                continue;
            };
            let next = templates[c].len() as u32;
            let t = *templates[c].entry(template).or_insert(next);
            named_by.push((f as FactId, c, i, t));
            class_facts[f / 64] |= 1 << (f % 64);
        }
        // A class whose objects name no fact has nothing to permute in a
        // state (sokoban's walls): it would only lengthen keys.
        for (c, templates) in templates.iter().enumerate() {
            if templates.is_empty() {
                active[c] = false;
            }
        }
        if !active.iter().any(|&a| a) {
            return None;
        }
        // Class c's signatures: `objects` blocks of `words` words from
        // `start`, indexed by c (inactive classes stay empty).
        let mut layout_of = vec![
            Class {
                start: 0,
                objects: 0,
                words: 0
            };
            classes
        ];
        let mut signature_words = 0;
        for c in (0..classes).filter(|&c| active[c]) {
            let class = Class {
                start: signature_words,
                objects: task.interchangeable_objects[c].len(),
                words: templates[c].len().div_ceil(64).max(1),
            };
            signature_words += class.words * class.objects;
            layout_of[c] = class;
        }
        let mut slot = vec![(u32::MAX, 0); task.facts.len()];
        for (f, c, i, t) in named_by {
            let class = &layout_of[c];
            let word = class.start + i * class.words + t as usize / 64;
            slot[f as usize] = (word as u32, t % 64);
        }
        let used: Vec<Class> = layout_of.into_iter().filter(|c| c.objects > 0).collect();
        Some(Symmetry {
            class_facts,
            slot,
            classes: used,
            signature_words,
            key_words: layout.words() + signature_words,
        })
    }

    /// Words of a key.
    pub fn key_words(&self) -> usize {
        self.key_words
    }

    /// Number of classes in use.
    pub fn classes(&self) -> usize {
        self.classes.len()
    }

    /// Writes the key of the packed `state` into `out`: equal keys mean
    /// that a permutation within the classes maps one state onto the
    /// other.
    pub fn key(&self, state: &[u64], scratch: &mut KeyScratch, out: &mut Vec<u64>) {
        out.clear();
        out.extend_from_slice(state);
        let signatures = &mut scratch.signatures;
        signatures.clear();
        signatures.resize(self.signature_words, 0);
        for (w, (word, mask)) in out.iter_mut().zip(&self.class_facts).enumerate() {
            let mut bits = *word & mask;
            *word &= !mask;
            while bits != 0 {
                let f = (w * 64) as FactId + bits.trailing_zeros();
                bits &= bits - 1;
                let (at, bit) = self.slot[f as usize];
                signatures[at as usize] |= 1 << bit;
            }
        }
        for class in &self.classes {
            let words = class.words;
            let all = &mut signatures[class.start..][..words * class.objects];
            if words == 1 {
                all.sort_unstable();
                out.extend_from_slice(all);
            } else {
                let order = &mut scratch.order;
                order.clear();
                order.extend(0..class.objects as u32);
                order.sort_unstable_by(|&a, &b| {
                    all[a as usize * words..][..words].cmp(&all[b as usize * words..][..words])
                });
                for &i in order.iter() {
                    out.extend_from_slice(&all[i as usize * words..][..words]);
                }
            }
        }
        debug_assert_eq!(out.len(), self.key_words);
    }
}

/// A fact with one of its objects' name blanked out: `(at _ c3)` for
/// `(at b1 c3)` and `b1`.
type Template<'t> = (&'t str, Vec<&'t str>);

/// The object of an `active` class that `fact` names (class and index in
/// it; facts name at most one, see [`Symmetry::new`]) and the fact's
/// template for it; `None` where it names none.
fn template<'t>(
    task: &'t Task,
    fact: &'t GroundAtom,
    class_of: &HashMap<&str, (usize, usize)>,
    active: &[bool],
) -> Option<(usize, usize, Template<'t>)> {
    let &(c, i) = (fact.args.iter())
        .filter_map(|a| class_of.get(a.as_str()))
        .find(|&&(c, _)| active[c])?;
    let object = task.interchangeable_objects[c][i].as_str();
    let blanked = (fact.args.iter())
        .map(|a| if a == object { "" } else { a.as_str() })
        .collect();
    Some((c, i, (fact.predicate.as_str(), blanked)))
}

/// Deactivates the classes whose objects `task`'s goal tells apart.
///
/// The grounder finds the classes for the goal it grounds, so they hold
/// for its tasks; a caller that changes [`Task::goal`] afterwards (to plan
/// for another goal from the same ground task) may break them, and merged
/// states would then make a state of a goal's orbit count as a goal. A
/// class stays only where every object has the same goal literals up to
/// its name (its "goal signature"): facts naming an active class's object
/// name only one (see [`Symmetry::new`]), so then every permutation of the
/// class maps the goal onto itself. A class one of whose objects a goal
/// comparison of fluents names is dropped too.
fn drop_classes_the_goal_tells_apart(
    task: &Task,
    class_of: &HashMap<&str, (usize, usize)>,
    active: &mut [bool],
) {
    let was_active = active.to_vec();
    // Per class, per object: its goal literals (polarity and template).
    type GoalSignature<'t> = Vec<(bool, Template<'t>)>;
    let mut signatures: Vec<Vec<GoalSignature>> = task
        .interchangeable_objects
        .iter()
        .map(|class| vec![Vec::new(); class.len()])
        .collect();
    let literals =
        (task.goal.pos.iter().map(|&f| (true, f))).chain(task.goal.neg.iter().map(|&f| (false, f)));
    for (positive, f) in literals {
        let Some(fact) = task.facts.get(f as usize) else {
            continue;
        };
        let Some((c, i, template)) = template(task, fact, class_of, &was_active) else {
            continue;
        };
        signatures[c][i].push((positive, template));
    }
    for (c, objects) in signatures.iter_mut().enumerate() {
        for signature in objects.iter_mut() {
            signature.sort_unstable();
        }
        if objects.windows(2).any(|pair| pair[0] != pair[1]) {
            active[c] = false;
        }
    }
    task.goal.for_each_fluent(&mut |fluent| {
        for arg in &task.fluents[fluent as usize].args {
            if let Some(&(c, _)) = class_of.get(arg.as_str()).filter(|&&(c, _)| was_active[c]) {
                active[c] = false;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::set_fact;
    use crate::testing::atom;

    /// Balls b1 b2 in rooms a, b, or carried by grippers l, r.
    fn gripper_facts() -> Task {
        let mut task = crate::testing::TaskBuilder::new(0).build(&[], &[]);
        task.facts = vec![
            atom("at", &["b1", "a"]),    // 0
            atom("at", &["b1", "b"]),    // 1
            atom("at", &["b2", "a"]),    // 2
            atom("at", &["b2", "b"]),    // 3
            atom("carry", &["b1", "l"]), // 4
            atom("carry", &["b2", "l"]), // 5
            atom("carry", &["b1", "r"]), // 6
            atom("carry", &["b2", "r"]), // 7
            atom("at-robby", &["a"]),    // 8
            atom("free", &["l"]),        // 9
        ];
        task.interchangeable_objects =
            vec![vec!["b1".into(), "b2".into()], vec!["l".into(), "r".into()]];
        task
    }

    fn key_of(symmetry: &Symmetry, facts: &[FactId]) -> Vec<u64> {
        let mut state = vec![0u64; 1];
        for &f in facts {
            set_fact(&mut state, f, true);
        }
        let mut key = Vec::new();
        symmetry.key(&state, &mut KeyScratch::default(), &mut key);
        key
    }

    #[test]
    fn keys_are_equal_exactly_within_an_orbit() {
        let task = gripper_facts();
        let layout = StateLayout::new(&task);
        let symmetry = Symmetry::new(&task, &layout).expect("balls are symmetric");
        // `carry` names a ball and a gripper: the grippers (the smaller
        // class, last on ties) are dropped.
        assert_eq!(symmetry.classes(), 1);
        // b1 in a, b2 in b  ~  b2 in a, b1 in b.
        assert_eq!(key_of(&symmetry, &[0, 3, 8]), key_of(&symmetry, &[2, 1, 8]));
        // Both in a differs from one in each room.
        assert_ne!(key_of(&symmetry, &[0, 2, 8]), key_of(&symmetry, &[0, 3, 8]));
        // Carried by l: which ball does not matter, which gripper does.
        assert_eq!(key_of(&symmetry, &[4, 3]), key_of(&symmetry, &[5, 1]));
        assert_ne!(key_of(&symmetry, &[4, 3]), key_of(&symmetry, &[6, 3]));
        // Facts naming no class object stay as they are.
        assert_ne!(key_of(&symmetry, &[0, 3, 8]), key_of(&symmetry, &[0, 3, 9]));
    }

    /// One-handed gripper with three balls to carry from room a to b:
    /// facts at(ball, room), carry(ball), robot in a/b, hand free.
    fn three_balls() -> Task {
        let balls = ["b1", "b2", "b3"];
        let mut names = Vec::new();
        for ball in balls {
            names.push(atom("at", &[ball, "a"]));
            names.push(atom("at", &[ball, "b"]));
            names.push(atom("carry", &[ball]));
        }
        let (robot_a, robot_b, free, shown) = (9, 10, 11, 12);
        names.push(atom("robot", &["a"]));
        names.push(atom("robot", &["b"]));
        names.push(atom("free", &[]));
        names.push(atom("shown", &[]));
        let mut b = crate::testing::TaskBuilder::new(names.len());
        b.op("move-a-b", &[robot_a], &[robot_b], &[robot_a]);
        b.op("move-b-a", &[robot_b], &[robot_a], &[robot_b]);
        for i in 0..3 {
            let (in_a, in_b, carry) = (3 * i, 3 * i + 1, 3 * i + 2);
            for (room, robot) in [(in_a, robot_a), (in_b, robot_b)] {
                b.op("pick", &[room, robot, free], &[carry], &[room, free]);
                b.op("drop", &[carry, robot], &[room, free], &[carry]);
            }
        }
        // Showing the carried ball: its effect names no ball.
        for i in 0..3 {
            b.op("show", &[3 * i + 2], &[shown], &[]);
        }
        let mut task = b.build(&[0, 3, 6, robot_a, free], &[1, 4, 7]);
        task.facts = names;
        task.interchangeable_objects = vec![balls.iter().map(|b| b.to_string()).collect()];
        task
    }

    #[test]
    fn search_over_orbits_keeps_the_optimal_cost_and_a_valid_plan() {
        use crate::{Engine, HeuristicKind, NoObserver, SearchOptions, search, simulate};
        use std::sync::atomic::AtomicBool;
        let task = three_balls();
        let mut expanded = Vec::new();
        for engine in [Engine::AStar, Engine::BreadthFirst, Engine::LazyGreedy] {
            for symmetry_reduction in [true, false] {
                let options = SearchOptions {
                    engine,
                    heuristic: HeuristicKind::Blind,
                    improve_plans: false,
                    symmetry_reduction,
                    ..SearchOptions::optimal_default()
                };
                let r = search(&task, &options, &AtomicBool::new(false), &mut NoObserver);
                let plan = r.plan.expect("solvable");
                let end = simulate(&task, &plan.operators).expect("the plan replays");
                assert!(end.goal_reached);
                if engine != Engine::LazyGreedy {
                    // pick, move, drop, move back; no move back at the end.
                    assert_eq!(plan.cost, 11, "{engine} {symmetry_reduction}");
                    expanded.push(r.statistics.expanded);
                }
            }
        }
        // Orbits: which balls are where matters, not which is which.
        assert!(
            expanded[0] < expanded[1] && expanded[2] < expanded[3],
            "{expanded:?}"
        );
    }

    #[test]
    fn plan_extraction_follows_the_orbit_not_the_stored_state() {
        use crate::search_algorithms::{NO_PARENT, Node, Status, extract_plan};
        use crate::state::StateRegistry;
        use crate::successor::StateSpace;
        // Operators of three_balls: 0 move-a-b; for ball i, 2 + 4i pick
        // in a, 5 + 4i drop in b, 14 + i show.
        let (move_a_b, pick_b1, pick_b2, drop_b1_in_b, drop_b2_in_b) = (0, 2, 6, 5, 9);
        let (show_b1, show_b2) = (14, 15);
        let task = three_balls();
        let mut space = StateSpace::new(&task);
        space.reduce_symmetry(true);
        let mut registry =
            StateRegistry::for_search(space.layout.words(), space.symmetry().cloned(), None);
        let init = space.initial_state();
        let mut next = |registry: &mut StateRegistry, from: &[u64], op| {
            let mut state = Vec::new();
            assert!(space.apply(from, op, &mut state));
            let (id, _) = registry.insert(&state).expect("room for states");
            (id, state)
        };
        let (root, _) = registry.insert(&init).expect("room");
        let (holding, carry_b1) = next(&mut registry, &init, pick_b1);
        // Carrying b2 instead is the same orbit.
        assert_eq!(next(&mut registry, &init, pick_b2).0, holding);
        // Showing b1 needs b1 carried, but its effect names no ball: applied
        // to "b2 carried" regardless, it would reach the right orbit.
        let (showing, shown) = next(&mut registry, &carry_b1, show_b1);
        let (moved, at_b) = next(&mut registry, &shown, move_a_b);
        let (dropped, _) = next(&mut registry, &at_b, drop_b1_in_b);
        // As if a cheaper path had reached the orbit by picking b2: the
        // stored state (b1 carried) is not where that path leads.
        let node = |parent, op| Node {
            parent,
            op,
            g: 0,
            h: 0,
            status: Status::Closed,
        };
        let mut nodes = vec![node(NO_PARENT, 0); 5];
        nodes[holding as usize] = node(root, pick_b2);
        nodes[showing as usize] = node(holding, show_b1);
        nodes[moved as usize] = node(showing, move_a_b);
        nodes[dropped as usize] = node(moved, drop_b1_in_b);
        let plan = extract_plan(&mut space, &mut registry, &nodes, dropped);
        assert_eq!(
            plan.operators,
            vec![pick_b2, show_b2, move_a_b, drop_b2_in_b]
        );
        // Every step applies (the plan ends short of the goal).
        crate::simulate(&task, &plan.operators).expect("the plan replays");
    }

    #[test]
    fn lazy_weighted_restarts_reopen_the_stored_member_of_an_orbit() {
        use crate::{Engine, HeuristicKind, NoObserver, SearchOptions, search, simulate};
        use std::sync::atomic::AtomicBool;
        // LAMA-style restarts (lazy weighted A*) reach orbits again by
        // cheaper paths through other members; expanding the member reached
        // instead of the stored one once gave plans that do not replay.
        let task = crate::testing::gripper(4);
        let options = SearchOptions {
            anytime: true,
            improve_plans: false,
            ..SearchOptions::satisficing_default().with_threads(1)
        };
        let r = search(&task, &options, &AtomicBool::new(false), &mut NoObserver);
        let plan = r.plan.expect("solvable");
        let end = simulate(&task, &plan.operators).expect("the plan replays");
        assert!(end.goal_reached);
        assert_eq!(plan.cost, 11);
        assert!(r.proven_optimal);
        assert_eq!(options.engine, Engine::LazyGreedy);
        assert_eq!(options.heuristic, HeuristicKind::HFF);
    }

    /// A caller may change a ground task's goal; classes the new goal
    /// tells apart must not merge states, or a plan could end in a state
    /// of the goal's orbit that is not a goal state.
    #[test]
    fn classes_the_goal_tells_apart_are_dropped() {
        use crate::{Engine, HeuristicKind, NoObserver, SearchOptions, search, simulate};
        use pddl_ground::task::Conjunction;
        use std::sync::atomic::AtomicBool;
        let mut task = three_balls();
        let layout = StateLayout::new(&task);
        assert!(Symmetry::new(&task, &layout).is_some());
        for (goal, classes) in [
            // b3 in b: the goal names b3 alone.
            (vec![7], None),
            // b1 and b3 in b, b2 anywhere: b2 differs from the others.
            (vec![1, 7], None),
            // Every ball in b, or none named: the balls stay symmetric.
            (vec![1, 4, 7], Some(1)),
            (vec![], Some(1)),
        ] {
            task.goal = Conjunction {
                pos: goal.clone(),
                ..Conjunction::default()
            };
            let symmetry = Symmetry::new(&task, &layout);
            assert_eq!(symmetry.map(|s| s.classes()), classes, "goal {goal:?}");
        }
        // b1 kept out of room b: the negative goal names b1 alone.
        task.goal = Conjunction {
            pos: vec![4, 7],
            neg: vec![1],
            ..Conjunction::default()
        };
        assert!(Symmetry::new(&task, &layout).is_none());
        // b1 and b3 to room b: 7 steps (pick, move, drop, move back, pick,
        // move, drop). With the balls merged, breadth-first search took
        // the orbit of "two balls in b" for the goal and ended with 11.
        task.goal = Conjunction {
            pos: vec![1, 7],
            ..Conjunction::default()
        };
        for engine in [Engine::AStar, Engine::BreadthFirst, Engine::LazyGreedy] {
            let options = SearchOptions {
                engine,
                heuristic: HeuristicKind::Blind,
                ..SearchOptions::optimal_default().with_threads(1)
            };
            let r = search(&task, &options, &AtomicBool::new(false), &mut NoObserver);
            let plan = r.plan.expect("solvable");
            let end = simulate(&task, &plan.operators).expect("the plan replays");
            assert!(end.goal_reached, "{engine}");
            if engine != Engine::LazyGreedy {
                assert_eq!(plan.cost, 7, "{engine}");
            }
        }
    }

    #[test]
    fn no_classes_no_symmetry() {
        let mut task = gripper_facts();
        task.interchangeable_objects.clear();
        assert!(Symmetry::new(&task, &StateLayout::new(&task)).is_none());
        // Objects that name no fact: nothing to permute.
        task.interchangeable_objects = vec![vec!["x".into(), "y".into()]];
        assert!(Symmetry::new(&task, &StateLayout::new(&task)).is_none());
    }
}
