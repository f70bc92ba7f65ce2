//! Landmarks and landmark-count values on hand-built tasks, worked out
//! by hand in the comments.

use std::collections::BTreeSet;

use pddl_ground::Task;
use pddl_ground::task::FactId;

use super::lm_count::LmCount;
use super::mutex::Mutexes;
use super::{LandmarkGraph, LandmarkLimits};
use crate::heuristics::Heuristic;
use crate::heuristics::relaxation::{CostType, RelaxedTask};
use crate::state::{StateView, set_fact};
use crate::testing::TaskBuilder;

/// Facts: 0 at-A, 1 at-B, 2 at-C, 3 key, 4 door-open, 5 done, 6 rung.
/// Operators (ids in order): move-ab 0→1, move-ba 1→0, pick 1→3,
/// open {1,3}→4, spare 4→3 (a key from an open door: not possible
/// before the key), move-bc {1,4}→2, finish 2→5, ring: pre 1, when 3
/// add 6. Init {0}, goal {5, 6}.
fn corridor() -> Task {
    let mut b = TaskBuilder::new(7);
    b.op("move-ab", &[0], &[1], &[0]);
    b.op("move-ba", &[1], &[0], &[1]);
    b.op("pick", &[1], &[3], &[]);
    b.op("open", &[1, 3], &[4], &[]);
    b.op("spare", &[4], &[3], &[]);
    b.op("move-bc", &[1, 4], &[2], &[1]);
    b.op("finish", &[2], &[5], &[]);
    let ring = b.op("ring", &[1], &[], &[]);
    b.cond(ring, &[3], &[6], &[]);
    b.build(&[0], &[5, 6])
}

/// The single fact of landmark `l` (disjunctive ones have several).
fn fact(graph: &LandmarkGraph, l: u32) -> FactId {
    assert_eq!(graph.facts[l as usize].len(), 1, "a fact landmark");
    graph.facts[l as usize][0]
}

/// The orderings of fact landmarks as (fact before, fact after).
fn fact_orderings(graph: &LandmarkGraph) -> BTreeSet<(FactId, FactId)> {
    graph
        .orderings
        .iter()
        .map(|&(a, b)| (fact(graph, a), fact(graph, b)))
        .collect()
}

/// The fact landmarks, in id order.
fn single_facts(graph: &LandmarkGraph) -> Vec<FactId> {
    (0..graph.len() as u32).map(|l| fact(graph, l)).collect()
}

fn packed(facts: &[FactId]) -> Vec<u64> {
    let mut words = vec![0u64; 1];
    for &f in facts {
        set_fact(&mut words, f, true);
    }
    words
}

fn view(words: &[u64]) -> StateView<'_> {
    StateView {
        facts: words,
        fluents: &[],
    }
}

#[test]
fn corridor_landmarks_and_greedy_necessary_orderings() {
    let graph = LandmarkGraph::generate(&corridor(), LandmarkLimits::default());
    let facts: BTreeSet<FactId> = single_facts(&graph).into_iter().collect();
    // Every fact is a landmark: 5 ← 2 ← {1, 4}, 4 ← {1, 3}, 3 ← 1 (the
    // spare key needs the door open first), 6 ← {1, 3} (the conditional
    // effect's condition counts), 1 ← 0.
    assert_eq!(facts, (0..7).collect());
    assert_eq!(
        fact_orderings(&graph),
        [
            (2, 5),
            (1, 2),
            (4, 2),
            (1, 4),
            (3, 4),
            (1, 3),
            (1, 6),
            (3, 6),
            (0, 1)
        ]
        .into_iter()
        .collect()
    );
    let goals: BTreeSet<FactId> = (0..graph.len())
        .filter(|&l| graph.is_goal[l])
        .map(|l| fact(&graph, l as u32))
        .collect();
    assert_eq!(goals, [5, 6].into_iter().collect());
    assert!(!graph.truncated);
}

/// 3 has two achievers, from 1 and from 2 (both reached from 0).
fn two_ways() -> Task {
    let mut b = TaskBuilder::new(4);
    b.op("a", &[0], &[1], &[]);
    b.op("b", &[0], &[2], &[]);
    b.op("c", &[1], &[3], &[]);
    b.op("d", &[2], &[3], &[]);
    b.build(&[0], &[3])
}

#[test]
fn two_achievers_share_no_fact_landmark() {
    // 1 and 2 are facts of different predicates: no landmark but 3.
    let graph = LandmarkGraph::generate(&two_ways(), LandmarkLimits::default());
    assert_eq!(graph.facts, vec![vec![3]]);
    assert!(graph.orderings.is_empty());
}

#[test]
fn same_predicate_preconditions_make_a_disjunctive_landmark() {
    // Facts 1 and 2 as at(x) and at(y): one of them must hold before 3.
    let mut task = two_ways();
    for f in [1, 2] {
        task.facts[f].predicate = "at".into();
    }
    let graph = LandmarkGraph::generate(&task, LandmarkLimits::default());
    // The disjunction's first achievers a and b share 0 (true initially).
    assert_eq!(graph.facts, vec![vec![3], vec![1, 2], vec![0]]);
    assert_eq!(graph.orderings, vec![(1, 0), (2, 1)]);
    let without = LandmarkLimits {
        disjunctive: false,
        ..LandmarkLimits::default()
    };
    assert_eq!(LandmarkGraph::generate(&task, without).len(), 1);
    // lmcount: 2 at first (0 is accepted); after a (1 true) the disjunction is accepted.
    let mut h = LmCount::new(&task);
    let (s0, s1) = (packed(&[0]), packed(&[0, 1]));
    h.notify_initial_state(0, view(&s0));
    let mut preferred = Vec::new();
    assert_eq!(
        h.evaluate_registered(0, view(&s0), Some(&mut preferred)),
        Some(2)
    );
    preferred.sort_unstable();
    assert_eq!(preferred, vec![0, 1], "a and b achieve the disjunction");
    h.notify_transition(0, 0, 1, view(&s1));
    assert_eq!(h.evaluate_registered(1, view(&s1), None), Some(1));
    // Losing 1 again: the disjunction is false before the unaccepted 3,
    // but disjunctive landmarks are not counted as required again.
    let s2 = packed(&[0]);
    h.notify_transition(1, 0, 2, view(&s2));
    assert_eq!(h.evaluate_registered(2, view(&s2), None), Some(1));
}

#[test]
fn limits_truncate_to_sound_landmarks() {
    let task = corridor();
    let limits = LandmarkLimits {
        max_landmarks: 3,
        ..LandmarkLimits::default()
    };
    let graph = LandmarkGraph::generate(&task, limits);
    assert!(graph.truncated);
    // The goals first, then 2 (the finish's precondition).
    assert_eq!(single_facts(&graph), vec![5, 6, 2]);
    let no_work = LandmarkLimits {
        max_work: 0,
        ..LandmarkLimits::default()
    };
    let graph = LandmarkGraph::generate(&task, no_work);
    assert!(graph.truncated);
    assert_eq!(single_facts(&graph), vec![5, 6], "goals only");
    let mut h = LmCount::with_limits(&task, no_work);
    let init = packed(&[0]);
    assert_eq!(h.evaluate(view(&init), None), Some(2), "goal count");
}

#[test]
fn a_stop_truncates_generation_to_sound_landmarks() {
    let task = corridor();
    let relaxed = RelaxedTask::new(&task, CostType::Unit);
    let full = LandmarkGraph::generate(&task, LandmarkLimits::default());
    let never =
        LandmarkGraph::generate_within(&task, &relaxed, LandmarkLimits::default(), &|| false);
    assert!(!never.truncated);
    assert_eq!(single_facts(&never), single_facts(&full));
    assert_eq!(never.reasonable, full.reasonable);
    // Asked before the first backchaining: the goals only, as with no
    // work at all, and no reasonable orderings.
    let at_once =
        LandmarkGraph::generate_within(&task, &relaxed, LandmarkLimits::default(), &|| true);
    assert!(at_once.truncated);
    assert_eq!(single_facts(&at_once), vec![5, 6], "goals only");
    assert!(at_once.reasonable.is_empty());
    let mut h = LmCount::within(&task, LandmarkLimits::default(), &|| true);
    let init = packed(&[0]);
    assert_eq!(h.evaluate(view(&init), None), Some(2), "goal count");
}

#[test]
fn lmcount_values_along_a_path() {
    let task = corridor();
    let mut h = LmCount::new(&task);
    let s0 = packed(&[0]);
    h.notify_initial_state(0, view(&s0));
    // Accepted {0}: six landmarks to go. Preferred: move-ab achieves 1,
    // whose predecessor 0 is accepted.
    let mut preferred = Vec::new();
    assert_eq!(
        h.evaluate_registered(0, view(&s0), Some(&mut preferred)),
        Some(6)
    );
    assert_eq!(preferred, vec![0]);
    // move-ab: 1 accepted.
    let s1 = packed(&[1]);
    h.notify_transition(0, 0, 1, view(&s1));
    preferred.clear();
    assert_eq!(
        h.evaluate_registered(1, view(&s1), Some(&mut preferred)),
        Some(5)
    );
    // Preferred: pick (3's predecessor 1 is accepted); not ring, whose
    // conditional piece needs 3.
    assert_eq!(preferred, vec![2]);
    // pick: 3 accepted.
    let s2 = packed(&[1, 3]);
    h.notify_transition(1, 2, 2, view(&s2));
    assert_eq!(h.evaluate_registered(2, view(&s2), None), Some(4));
    // move-ba: 1 is false again but still needed before 2, 4 and 6
    // (not past): required again, 4 + 1.
    let s3 = packed(&[0, 3]);
    h.notify_transition(2, 1, 3, view(&s3));
    preferred.clear();
    assert_eq!(
        h.evaluate_registered(3, view(&s3), Some(&mut preferred)),
        Some(5)
    );
    // Only landmarks not reached yet (or goals) make operators
    // preferred: move-ab re-achieves 1, which was reached, so it is not.
    assert_eq!(preferred, Vec::<u32>::new());
    assert_eq!(h.accepted_landmarks(3).map(|l| l.len()), Some(3));
    let future: Vec<FactId> = h
        .future_landmarks(3)
        .unwrap_or_default()
        .iter()
        .map(|&l| fact(h.graph(), l))
        .collect();
    assert_eq!(future, vec![5, 6, 2, 1, 4]);
}

#[test]
fn lmcount_jump_owes_greedy_necessary_predecessors() {
    let task = corridor();
    let mut h = LmCount::new(&task);
    let s0 = packed(&[0]);
    h.notify_initial_state(0, view(&s0));
    // A (fictitious) jump straight to {2}: 2 is reached although its
    // predecessors 1 and 4 never were.
    let jump = packed(&[2]);
    h.notify_transition(0, 6, 1, view(&jump));
    let past: Vec<FactId> = h
        .accepted_landmarks(1)
        .unwrap_or_default()
        .iter()
        .map(|&l| fact(h.graph(), l))
        .collect();
    assert_eq!(past, vec![2, 0]);
    // Five not reached, and 0 is required again (false, before 1): 6.
    assert_eq!(h.evaluate_registered(1, view(&jump), None), Some(6));
}

#[test]
fn required_again_goal() {
    // a: → 0; b: 0 → 1, deleting 0. Goal {0, 1}; orderings 0 → 1.
    let mut b = TaskBuilder::new(2);
    b.op("a", &[], &[0], &[]);
    b.op("b", &[0], &[1], &[0]);
    let task = b.build(&[], &[0, 1]);
    let mut h = LmCount::new(&task);
    assert_eq!(fact_orderings(h.graph()), [(0, 1)].into_iter().collect());
    // b deletes 0, so 1 is reasonably ordered before 0: 0 achieved
    // before 1 will have to be achieved again.
    let reasonable: Vec<(FactId, FactId)> = h
        .graph()
        .reasonable
        .iter()
        .map(|&(a, b)| (fact(h.graph(), a), fact(h.graph(), b)))
        .collect();
    assert_eq!(reasonable, vec![(1, 0)]);
    let (s0, s1, s2, s3) = (packed(&[]), packed(&[0]), packed(&[1]), packed(&[0, 1]));
    h.notify_initial_state(0, view(&s0));
    assert_eq!(h.evaluate_registered(0, view(&s0), None), Some(2));
    // 0 is reached but still owed (its reasonable predecessor 1 is not
    // reached yet): h stays 2.
    h.notify_transition(0, 0, 1, view(&s1));
    assert_eq!(h.evaluate_registered(1, view(&s1), None), Some(2));
    // After b both are reached, but goal 0 is false: required again.
    h.notify_transition(1, 1, 2, view(&s2));
    let mut preferred = Vec::new();
    assert_eq!(
        h.evaluate_registered(2, view(&s2), Some(&mut preferred)),
        Some(1)
    );
    assert_eq!(preferred, vec![0]);
    h.notify_transition(2, 0, 3, view(&s3));
    assert_eq!(h.evaluate_registered(3, view(&s3), None), Some(0));
}

#[test]
fn accepted_sets_intersect_over_paths() {
    // finish: 1 → 3 (goal), so 1 is a landmark after 0 (get: 0 → 1).
    // drop: deletes 1; wait: 0 → 2.
    let mut b = TaskBuilder::new(4);
    let get = b.op("get", &[0], &[1], &[]);
    let drop = b.op("drop", &[1], &[], &[1]);
    let wait = b.op("wait", &[0], &[2], &[]);
    b.op("finish", &[1], &[3], &[]);
    let task = b.build(&[0], &[3]);
    let mut h = LmCount::new(&task);
    let facts_of = |h: &LmCount, id| -> Vec<FactId> {
        let mut v: Vec<FactId> = h
            .accepted_landmarks(id)
            .unwrap_or_default()
            .iter()
            .map(|&l| fact(h.graph(), l))
            .collect();
        v.sort_unstable();
        v
    };
    let (s0, s1, s2, s3) = (
        packed(&[0]),
        packed(&[0, 1]),
        packed(&[0, 1, 2]),
        packed(&[0, 2]),
    );
    h.notify_initial_state(0, view(&s0));
    // Path A: get, wait, drop reaches state 3 = {0, 2} with 1 accepted.
    h.notify_transition(0, get, 1, view(&s1));
    h.notify_transition(1, wait, 2, view(&s2));
    h.notify_transition(2, drop, 3, view(&s3));
    assert_eq!(facts_of(&h, 3), vec![0, 1]);
    // 1 is required again (false, before the unaccepted goal): 1 + 1.
    assert_eq!(h.evaluate_registered(3, view(&s3), None), Some(2));
    // Path B: wait reaches the same state without ever holding 1.
    h.notify_transition(0, wait, 3, view(&s3));
    assert_eq!(facts_of(&h, 3), vec![0]);
    assert_eq!(h.evaluate_registered(3, view(&s3), None), Some(2));
    // Path A again cannot bring 1 back: intersections only shrink.
    h.notify_transition(2, drop, 3, view(&s3));
    assert_eq!(facts_of(&h, 3), vec![0]);
}

#[test]
fn unreachable_goal_is_a_dead_end() {
    let mut b = TaskBuilder::new(3);
    b.op("a", &[0], &[1], &[]);
    let task = b.build(&[0], &[1, 2]);
    let mut h = LmCount::new(&task);
    assert_eq!(h.evaluate(view(&packed(&[0])), None), None);
}

#[test]
fn overlapping_disjunctions_are_not_added() {
    // Goal 4 needs at(a) or at(b) (facts 1, 2), goal 5 at(b) or at(c)
    // (2, 3); all three are reached from 0.
    let mut b = TaskBuilder::new(6);
    for at in [1, 2, 3] {
        b.op("go", &[0], &[at], &[]);
    }
    b.op("g4a", &[1], &[4], &[]);
    b.op("g4b", &[2], &[4], &[]);
    b.op("g5b", &[2], &[5], &[]);
    b.op("g5c", &[3], &[5], &[]);
    let mut task = b.build(&[0], &[4, 5]);
    for f in [1, 2, 3] {
        task.facts[f].predicate = "at".into();
    }
    let graph = LandmarkGraph::generate(&task, LandmarkLimits::default());
    // {2, 3} shares 2 with {1, 2}: left out, with its ordering.
    assert_eq!(graph.facts, vec![vec![4], vec![5], vec![1, 2], vec![0]]);
    assert_eq!(graph.orderings, vec![(2, 0), (3, 2)]);
}

#[test]
fn h2_mutexes_on_a_small_task() {
    // Facts: 0 at-A, 1 at-B, 2 key, 3 lit, 4 derived. move-ab / move-ba
    // swap 0 and 1; pick (at A) adds the key; light (at B): when key,
    // add lit. Axiom 4 ← 3.
    let mut b = TaskBuilder::new(5);
    b.op("move-ab", &[0], &[1], &[0]);
    b.op("move-ba", &[1], &[0], &[1]);
    b.op("pick", &[0], &[2], &[]);
    let light = b.op("light", &[1], &[], &[]);
    b.cond(light, &[2], &[3], &[]);
    b.axiom(4, &[3], &[], 0);
    let task = b.build(&[0], &[3]);
    let m = Mutexes::compute(&task, u64::MAX).expect("small task");
    assert!(m.are_mutex(0, 1), "one place at a time");
    assert!(!m.are_mutex(1, 2), "the key travels");
    assert!(!m.are_mutex(0, 3) && !m.are_mutex(1, 3) && !m.are_mutex(2, 3));
    assert!(!m.are_mutex(4, 0), "derived facts are never mutex");
    assert!((0..4).all(|f| m.reachable(f)));
    // Without pick the key (and so lit) is unreachable.
    let mut b = TaskBuilder::new(4);
    b.op("move-ab", &[0], &[1], &[0]);
    let light = b.op("light", &[1], &[], &[]);
    b.cond(light, &[2], &[3], &[]);
    let task = b.build(&[0], &[3]);
    let m = Mutexes::compute(&task, u64::MAX).expect("small task");
    assert!(!m.reachable(2) && !m.reachable(3));
    // No budget: no mutexes claimed.
    assert!(Mutexes::compute(&task, 0).is_none());
}
