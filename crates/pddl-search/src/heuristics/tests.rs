//! Heuristic values on hand-built tasks, computed by hand in comments.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use pddl_ground::Task;
use pddl_ground::task::{AssignOp, Comparison, Cost, FactId, NumEffect, NumExpr};

use super::hff::HFF;
use super::lmcut::LmCut;
use super::relaxation::{Combine, Exploration, INFINITE, RelaxedTask};
use super::{CostType, Heuristic, create};
use crate::options::HeuristicKind;
use crate::state::StateView;
use crate::successor::StateSpace;
use crate::testing::{Lcg, TaskBuilder, diamond, optimal_cost, random_task};
use crate::{NoObserver, Outcome, SearchOptions, search};

/// The heuristic's value and sorted preferred operators in the initial
/// state.
pub(super) fn h_init(
    task: &Task,
    kind: HeuristicKind,
    cost_type: CostType,
) -> (Option<Cost>, Vec<u32>) {
    evaluate_initial(task, create(kind, task, cost_type).as_mut())
}

/// `h`'s value and sorted preferred operators in the initial state of
/// `task`.
fn evaluate_initial(task: &Task, h: &mut dyn super::Heuristic) -> (Option<Cost>, Vec<u32>) {
    let mut space = StateSpace::new(task);
    let s = space.initial_state();
    let mut fluents = Vec::new();
    let view: StateView<'_> = space.view(&s, &mut fluents);
    let mut preferred = Vec::new();
    let v = h.evaluate(view, Some(&mut preferred));
    preferred.sort_unstable();
    preferred.dedup();
    (v, preferred)
}

#[test]
fn diamond_values() {
    let t = diamond();
    // h_max: 1 ← 2, 2 ← 3, 3 ← min(max(2,3)+1, 10) = 4, 4 ← 2+4 = 6; goal max(4, 6) = 6.
    assert_eq!(h_init(&t, HeuristicKind::HMax, CostType::Real).0, Some(6));
    // h_add: 3 ← min(2+3+1, 10) = 6, 4 ← 6; goal 6 + 6 = 12.
    assert_eq!(h_init(&t, HeuristicKind::HAdd, CostType::Real).0, Some(12));
    // h_FF: supporters c (for 3) and d (for 4), then a and b: 1+4+2+3 = 10;
    // preferred: a and b, whose preconditions hold now.
    assert_eq!(
        h_init(&t, HeuristicKind::HFF, CostType::Real),
        (Some(10), vec![0, 1])
    );
    // Unit costs: h_add now reaches 3 by e (1 < 1+1+1), relaxed plan {e, d, a}.
    assert_eq!(h_init(&t, HeuristicKind::HFF, CostType::Unit).0, Some(3));
    // LM-cut: cuts {d} (4), {c, e} (1), {b, e} (3), then {a, e} or {a} (2): 4+1+3+2 = 10 = h*.
    assert_eq!(h_init(&t, HeuristicKind::LmCut, CostType::Real).0, Some(10));
    // Blind: cheapest operator cost; goal count: two goals missing.
    assert_eq!(h_init(&t, HeuristicKind::Blind, CostType::Real).0, Some(1));
    assert_eq!(
        h_init(&t, HeuristicKind::GoalCount, CostType::Real).0,
        Some(2)
    );
    // Plus-one costs: h_max 1 ← 3, 2 ← 4, 3 ← max(3,4)+2 = 6, 4 ← 3+5 = 8.
    assert_eq!(
        h_init(&t, HeuristicKind::HMax, CostType::PlusOne).0,
        Some(8)
    );
}

#[test]
fn goal_states_have_zero_and_dead_ends_none() {
    let mut b = TaskBuilder::new(3);
    b.op("a", &[0], &[1], &[]);
    let at_goal = b.build(&[0, 1], &[1]);
    let unreachable = b.build(&[0], &[2]);
    for kind in HeuristicKind::ALL {
        assert_eq!(h_init(&at_goal, kind, CostType::Real).0, Some(0), "{kind}");
        let dead = h_init(&unreachable, kind, CostType::Real).0;
        match kind {
            HeuristicKind::Blind | HeuristicKind::GoalCount => assert_eq!(dead, Some(1), "{kind}"),
            _ => assert_eq!(dead, None, "{kind} recognises the dead end"),
        }
    }
}

#[test]
fn conditional_effects_are_separate_relaxed_operators_sharing_the_cost() {
    // o: pre 0, add 1, when 1 add 2 (cost 1); goal 2. Real optimum: o twice = 2.
    let mut b = TaskBuilder::new(3);
    let o = b.op("o", &[0], &[1], &[]);
    b.cond(o, &[1], &[2], &[]);
    let t = b.build(&[0], &[2]);
    // h_max: 1 ← 1, the conditional piece needs {0, 1}: 2 ← max(0, 1) + 1 = 2.
    assert_eq!(h_init(&t, HeuristicKind::HMax, CostType::Real).0, Some(2));
    assert_eq!(h_init(&t, HeuristicKind::HAdd, CostType::Real).0, Some(2));
    // h_FF: both pieces in the relaxed plan belong to o, counted once.
    assert_eq!(h_init(&t, HeuristicKind::HFF, CostType::Real).0, Some(1));
    // LM-cut: cut {conditional piece} costs 1 and exhausts o's budget: h = 1.
    assert_eq!(h_init(&t, HeuristicKind::LmCut, CostType::Real).0, Some(1));
}

#[test]
fn lmcut_charges_an_operator_once_per_cut() {
    // o (cost 3): when 0 add 1, when 0 add 2 (two pieces); goal {1, 2}.
    // A cut containing both pieces must charge o once: h = 3, not 6.
    let mut b = TaskBuilder::new(3);
    let o = b.op_cost("o", &[], &[], &[], 3);
    b.cond(o, &[0], &[1], &[]);
    b.cond(o, &[0], &[2], &[]);
    let t = b.build(&[0], &[1, 2]);
    assert_eq!(h_init(&t, HeuristicKind::LmCut, CostType::Real).0, Some(3));
    assert_eq!(h_init(&t, HeuristicKind::HFF, CostType::Real).0, Some(3));
    assert_eq!(h_init(&t, HeuristicKind::HAdd, CostType::Real).0, Some(6));
}

#[test]
fn zero_cost_operators() {
    // z1: 0 → 1 (0), z2: 1 → 2 (0), x: 2 → 3 (1); goal 3: every admissible value is 1.
    let mut b = TaskBuilder::new(4);
    b.op_cost("z1", &[0], &[1], &[], 0);
    b.op_cost("z2", &[1], &[2], &[], 0);
    b.op_cost("x", &[2], &[3], &[], 1);
    let t = b.build(&[0], &[3]);
    assert_eq!(h_init(&t, HeuristicKind::HMax, CostType::Real).0, Some(1));
    assert_eq!(h_init(&t, HeuristicKind::LmCut, CostType::Real).0, Some(1));
    assert_eq!(h_init(&t, HeuristicKind::HFF, CostType::Real).0, Some(1));
    assert_eq!(h_init(&t, HeuristicKind::Blind, CostType::Real).0, Some(0));
    // Plus one: 1 + 1 + 2 = 4 along the chain.
    assert_eq!(
        h_init(&t, HeuristicKind::HAdd, CostType::PlusOne).0,
        Some(4)
    );
}

#[test]
fn axioms_are_free_relaxed_operators() {
    // a: 0 → 1 (cost 2); axiom 2 ← 1; goal 2 (derived).
    let mut b = TaskBuilder::new(3);
    b.op_cost("a", &[0], &[1], &[], 2);
    b.axiom(2, &[1], &[], 0);
    let t = b.build(&[0], &[2]);
    for kind in [
        HeuristicKind::HMax,
        HeuristicKind::HAdd,
        HeuristicKind::HFF,
        HeuristicKind::LmCut,
    ] {
        assert_eq!(h_init(&t, kind, CostType::Real).0, Some(2), "{kind}");
    }
}

/// Facts 0 (start), 1 (ready), 2 (done); fluent x = 0.
/// prep: 0 → 1; pump: pre 1, x < 10, x += 2; finish: pre 1, x ≥ 5, add 2.
/// Goal {2}; the optimal plan prep, pump ×3, finish has 5 steps.
fn pump_task() -> Task {
    let mut b = TaskBuilder::new(3);
    let x = b.fluent(0.0);
    b.op("prep", &[0], &[1], &[0]);
    let pump = b.op("pump", &[1], &[], &[]);
    b.num_pre(pump, x, Comparison::Less, 10.0);
    b.num_effect(pump, x, AssignOp::Increase, 2.0);
    let finish = b.op("finish", &[1], &[2], &[]);
    b.num_pre(finish, x, Comparison::GreaterEqual, 5.0);
    b.build(&[0], &[2])
}

#[test]
fn numeric_preconditions_cost_repetitions_of_their_achievers() {
    let t = pump_task();
    // h_add: ready 1; x ≥ 5 needs ⌈5/2⌉ = 3 pumps after ready: 1 + 3 = 4;
    // finish: 1 + 4 + 1 = 6. (Ignoring numbers it was 1 + 1 = 2.)
    assert_eq!(h_init(&t, HeuristicKind::HAdd, CostType::Real).0, Some(6));
    // h_FF: finish, prep, pump counted 3 times: 5 = h*; only prep is
    // applicable among them (pump needs ready). Ignoring numbers: 2.
    assert_eq!(
        h_init(&t, HeuristicKind::HFF, CostType::Real),
        (Some(5), vec![0])
    );
    // h_max and LM-cut ignore numbers and stay admissible.
    assert_eq!(h_init(&t, HeuristicKind::HMax, CostType::Real).0, Some(2));
    assert_eq!(h_init(&t, HeuristicKind::LmCut, CostType::Real).0, Some(2));
}

#[test]
fn numeric_goals_strict_comparisons_and_one_shot_assignments() {
    // inc: x += 2 from 0. Goal x > 4: ⌊4/2⌋ + 1 = 3 steps; x ≥ 4: 2 steps.
    for (cmp, expected) in [(Comparison::Greater, 3), (Comparison::GreaterEqual, 2)] {
        let mut b = TaskBuilder::new(1);
        let x = b.fluent(0.0);
        let inc = b.op("inc", &[], &[], &[]);
        b.num_effect(inc, x, AssignOp::Increase, 2.0);
        b.num_goal(x, cmp, 4.0);
        let t = b.build(&[], &[]);
        assert_eq!(
            h_init(&t, HeuristicKind::HFF, CostType::Unit),
            (Some(expected), vec![inc]),
            "{cmp:?}"
        );
        assert_eq!(
            h_init(&t, HeuristicKind::HAdd, CostType::Unit).0,
            Some(expected)
        );
    }
    // fill: x := 5 reaches x ≥ 3 once; small: x := 1 never does (repeating
    // an assignment does not help), so fill is the supporter.
    let mut b = TaskBuilder::new(1);
    let x = b.fluent(0.0);
    let small = b.op_cost("small", &[], &[], &[], 1);
    b.num_effect(small, x, AssignOp::Assign, 1.0);
    let fill = b.op_cost("fill", &[], &[], &[], 4);
    b.num_effect(fill, x, AssignOp::Assign, 5.0);
    b.num_goal(x, Comparison::GreaterEqual, 3.0);
    let t = b.build(&[], &[]);
    assert_eq!(
        h_init(&t, HeuristicKind::HFF, CostType::Real),
        (Some(4), vec![fill])
    );
}

/// inc-y: y += 1; copy: x := y; goal x ≥ 1 (not a simple condition: an
/// assignment from another fluent changes it).
fn copy_task() -> Task {
    let mut b = TaskBuilder::new(1);
    let x = b.fluent(0.0);
    let y = b.fluent(0.0);
    let inc = b.op("inc-y", &[], &[], &[]);
    b.num_effect(inc, y, AssignOp::Increase, 1.0);
    let copy = b.op("copy", &[], &[], &[]);
    b.num_goal(x, Comparison::GreaterEqual, 1.0);
    let mut t = b.build(&[], &[]);
    t.operators[copy as usize].numeric.push(NumEffect {
        op: AssignOp::Assign,
        fluent: x,
        expr: NumExpr::Fluent(y),
    });
    t
}

#[test]
fn numeric_dead_ends_only_when_provable() {
    // Simple condition: x only ever decreases, x ≥ 1 is unreachable.
    let mut b = TaskBuilder::new(1);
    let x = b.fluent(0.0);
    let dec = b.op("dec", &[], &[], &[]);
    b.num_effect(dec, x, AssignOp::Decrease, 1.0);
    b.num_goal(x, Comparison::GreaterEqual, 1.0);
    let t = b.build(&[], &[]);
    assert_eq!(h_init(&t, HeuristicKind::HFF, CostType::Unit).0, None);
    assert_eq!(h_init(&t, HeuristicKind::HAdd, CostType::Unit).0, None);
    // x := y, y += 1: no single step raises x now (y = 0), but the plan
    // inc-y, copy reaches x ≥ 1. The assignment makes the condition not
    // simple: it is released, never a dead end.
    let t = copy_task();
    assert!(h_init(&t, HeuristicKind::HFF, CostType::Unit).0.is_some());
    assert!(h_init(&t, HeuristicKind::HAdd, CostType::Unit).0.is_some());
}

#[test]
fn numeric_aware_hff_guides_greedy_search_to_numeric_goals() {
    // Four counters in 0..=20, each raised and lowered by one; goal: all
    // at least 10. Ignoring numbers h_FF is 0 everywhere (blind search
    // over 21⁴ states); numeric h_FF is exact here: 40 at the start.
    let mut b = TaskBuilder::new(1);
    for _ in 0..4 {
        let x = b.fluent(0.0);
        let up = b.op("up", &[], &[], &[]);
        b.num_pre(up, x, Comparison::Less, 20.0);
        b.num_effect(up, x, AssignOp::Increase, 1.0);
        let down = b.op("down", &[], &[], &[]);
        b.num_pre(down, x, Comparison::Greater, 0.0);
        b.num_effect(down, x, AssignOp::Decrease, 1.0);
        b.num_goal(x, Comparison::GreaterEqual, 10.0);
    }
    let t = b.build(&[], &[]);
    assert_eq!(h_init(&t, HeuristicKind::HFF, CostType::Unit).0, Some(40));
    let options = SearchOptions {
        time_limit: Some(Duration::from_secs(10)),
        // The first search alone: restarts would add their own expansions.
        improve_plans: false,
        symmetry_reduction: true,
        landmark_fallback: false,
        ..SearchOptions::satisficing_default()
    };
    let r = search(&t, &options, &AtomicBool::new(false), &mut NoObserver);
    assert_eq!(r.outcome, Outcome::Solved);
    assert_eq!(r.plan.map(|p| p.cost), Some(40));
    assert!(
        r.statistics.expanded <= 100,
        "expanded {}",
        r.statistics.expanded
    );
}

#[test]
fn kinds_say_which_heuristics_give_preferred_operators() {
    // The default's hill-climbing decides from the kind, before it builds
    // the heuristic, whether it can follow preferred operators.
    let t = diamond();
    for kind in HeuristicKind::ALL {
        let h = create(kind, &t, CostType::Unit);
        assert_eq!(
            kind.gives_preferred_operators(),
            h.has_preferred_operators(),
            "{}",
            kind.name()
        );
    }
}

/// Visit-all on a `width` × `height` grid: facts `at(c)` (0..n) and
/// `visited(c)` (n..2n), unit-cost moves between neighbours; the robot
/// starts in cell 0, which is visited; the goal visits every cell.
fn visit_all(width: u32, height: u32) -> Task {
    let n = width * height;
    let mut b = TaskBuilder::new(2 * n as usize);
    for c in 0..n {
        let (x, y) = (c % width, c / width);
        let mut neighbours = Vec::new();
        if x + 1 < width {
            neighbours.push(c + 1);
        }
        if x > 0 {
            neighbours.push(c - 1);
        }
        if y + 1 < height {
            neighbours.push(c + width);
        }
        if y > 0 {
            neighbours.push(c - width);
        }
        for d in neighbours {
            b.op("move", &[c], &[d, n + d], &[c]);
        }
    }
    let goal: Vec<FactId> = (n..2 * n).collect();
    b.build(&[0, n], &goal)
}

/// LM-cut's value of the initial state by its original definition.
fn original_lmcut_init(task: &Task) -> Option<Cost> {
    evaluate_initial(
        task,
        &mut super::lmcut::LmCut::original(task, CostType::Real),
    )
    .0
}

#[test]
fn lmcut_counts_every_cell_left_to_visit() {
    // Every unvisited cell needs a move of its own into it, and the moves
    // into different cells are disjoint landmarks: LM-cut finds them all
    // only if its goal zone passes through the goals not cut yet.
    for (width, height) in [(3, 3), (5, 4), (8, 8)] {
        let task = visit_all(width, height);
        let left = Cost::from(width * height - 1);
        assert_eq!(
            h_init(&task, HeuristicKind::LmCut, CostType::Real).0,
            Some(left),
            "{width} × {height}"
        );
    }
    // The original definition finds fewer, 34 (the default's budgets rely
    // on that difference, see `restarts::InitialBounds`).
    let task = visit_all(8, 8);
    let original = original_lmcut_init(&task);
    assert!(original.is_some_and(|h| h < 63), "{original:?}");
}

#[test]
fn lmcut_is_between_hmax_and_the_optimum_on_random_tasks() {
    let mut rng = Lcg(23);
    let (mut solvable, mut above_hmax) = (0, 0);
    for round in 0..1000 {
        let task = random_task(&mut rng);
        let lmcut = h_init(&task, HeuristicKind::LmCut, CostType::Real).0;
        let hmax = h_init(&task, HeuristicKind::HMax, CostType::Real).0;
        // Both see the same relaxed dead ends.
        assert_eq!(lmcut.is_none(), hmax.is_none(), "round {round}");
        let (Some(lmcut), Some(hmax)) = (lmcut, hmax) else {
            continue;
        };
        // LM-cut dominates h_max, except with conditional effects: the
        // pieces of an operator share its cost, charged once per cut.
        if task.operators.iter().all(|o| o.conditional.is_empty()) {
            assert!(
                lmcut >= hmax,
                "round {round}: LM-cut {lmcut} < h_max {hmax}"
            );
        }
        above_hmax += usize::from(lmcut > hmax);
        let original = original_lmcut_init(&task)
            .unwrap_or_else(|| panic!("round {round}: a dead end only by the original"));
        if let Some(best) = optimal_cost(&task) {
            assert!(
                lmcut <= best,
                "round {round}: LM-cut {lmcut} > optimum {best}"
            );
            assert!(
                original <= best,
                "round {round}: original LM-cut {original} > optimum {best}"
            );
            solvable += 1;
        }
    }
    // The test means something only if the tasks vary.
    assert!(
        solvable >= 200 && above_hmax >= 25,
        "{solvable} solvable, {above_hmax} with LM-cut above h_max"
    );
}

/// h_add and h_FF see the goal's negative literals, and those of axiom
/// bodies, on facts no axiom derives: a fact the goal needs false counts
/// until an operator that deletes it is in the relaxed plan. h_max and
/// LM-cut still ignore them (admissible either way).
#[test]
fn relaxation_heuristics_see_facts_the_goal_needs_false() {
    // Facts: 0 fire, 1 water, 2 safe (derived: not fire), 3 done.
    // fetch: adds water; douse (needs water): deletes fire.
    let mut b = TaskBuilder::new(4);
    let fetch = b.op("fetch", &[], &[1], &[]);
    b.op("douse", &[1], &[], &[0]);
    b.neg_goal(0);
    let task = b.build(&[0], &[]);
    for kind in [HeuristicKind::HFF, HeuristicKind::HAdd] {
        let (h, preferred) = h_init(&task, kind, CostType::Unit);
        assert_eq!(h, Some(2), "{kind}: fetch, then douse");
        if kind == HeuristicKind::HFF {
            assert_eq!(preferred, vec![fetch]);
        }
    }
    for kind in [HeuristicKind::HMax, HeuristicKind::LmCut] {
        assert_eq!(h_init(&task, kind, CostType::Unit).0, Some(0), "{kind}");
    }
    // Without the fire, the goal holds: 0.
    assert_eq!(
        h_init(&b.build(&[], &[]), HeuristicKind::HFF, CostType::Unit).0,
        Some(0)
    );
    // Through an axiom: done needs the derived "safe", which needs no fire.
    let mut b = TaskBuilder::new(4);
    b.op("fetch", &[], &[1], &[]);
    b.op("douse", &[1], &[], &[0]);
    b.op("finish", &[2], &[3], &[]);
    b.axiom(2, &[], &[0], 0);
    let task = b.build(&[0], &[3]);
    assert_eq!(h_init(&task, HeuristicKind::HFF, CostType::Unit).0, Some(3));
    // Nothing deletes the fire: a dead end the relaxation now sees.
    let mut b = TaskBuilder::new(4);
    b.op("fetch", &[], &[1], &[]);
    b.neg_goal(0);
    assert_eq!(
        h_init(&b.build(&[0], &[]), HeuristicKind::HFF, CostType::Unit).0,
        None
    );
}

/// The number of (proposition, operator) entries in `rt`'s precondition
/// lists: what an exploration may trigger.
fn precondition_entries(rt: &RelaxedTask) -> usize {
    (0..rt.props() as u32)
        .map(|p| rt.precondition_of.get(p).len())
        .sum()
}

/// Calls `visit(step, state)` on every state of `walks` random walks of up
/// to `steps` steps through `task`, each from the initial state.
fn on_random_walks(
    task: &Task,
    rng: &mut Lcg,
    walks: usize,
    steps: usize,
    mut visit: impl FnMut(usize, StateView<'_>),
) {
    let mut space = StateSpace::new(task);
    let (mut fluents, mut ops, mut next) = (Vec::new(), Vec::new(), Vec::new());
    for _walk in 0..walks {
        let mut state = space.initial_state();
        for step in 0..steps {
            visit(step, space.view(&state, &mut fluents));
            space.applicable(&state, &mut ops);
            if ops.is_empty() {
                break;
            }
            let op = ops[rng.below(ops.len() as u32) as usize];
            if !space.apply(&state, op, &mut next) {
                break;
            }
            std::mem::swap(&mut state, &mut next);
        }
    }
}

/// h_max, h_add and h_FF (value and preferred operators) of the relaxation
/// that ignores irrelevant operators equal those of the whole one in every
/// state of random walks through `task`; returns whether any operator was
/// ignored.
fn check_irrelevant_operators_change_nothing(task: &Task, rng: &mut Lcg, label: &str) -> bool {
    let whole = RelaxedTask::with_numeric(task, CostType::Real);
    let mut pruned = whole.clone();
    pruned.ignore_irrelevant_operators();
    let (mut whole_ex, mut pruned_ex) = (Exploration::new(&whole), Exploration::new(&pruned));
    let mut whole_ff = HFF::with_relaxation(task, whole.clone());
    let mut pruned_ff = HFF::with_relaxation(task, pruned.clone());
    // LM-cut's relaxation ignores numbers.
    let whole_cut = RelaxedTask::new(task, CostType::Real);
    let mut lmcuts = [true, false].map(|refined| {
        let mut pruned_cut = whole_cut.clone();
        pruned_cut.ignore_irrelevant_operators();
        (
            LmCut::with_relaxation(task, CostType::Real, refined, whole_cut.clone()),
            LmCut::with_relaxation(task, CostType::Real, refined, pruned_cut),
        )
    });
    on_random_walks(task, rng, 4, 10, |step, view| {
        for combine in [Combine::Max, Combine::Add] {
            let a = whole_ex.run(&whole, view, combine, true, |o| whole.cost(o));
            let b = pruned_ex.run(&pruned, view, combine, true, |o| pruned.cost(o));
            assert_eq!(a, b, "{label}, step {step}, {combine:?}");
        }
        let (mut whole_preferred, mut pruned_preferred) = (Vec::new(), Vec::new());
        let a = whole_ff.evaluate(view, Some(&mut whole_preferred));
        let b = pruned_ff.evaluate(view, Some(&mut pruned_preferred));
        for preferred in [&mut whole_preferred, &mut pruned_preferred] {
            preferred.sort_unstable();
            preferred.dedup();
        }
        assert_eq!(
            (a, whole_preferred),
            (b, pruned_preferred),
            "{label}, step {step}, h_FF"
        );
        for (whole_lmcut, pruned_lmcut) in &mut lmcuts {
            let a = whole_lmcut.evaluate(view, None);
            let b = pruned_lmcut.evaluate(view, None);
            assert_eq!(a, b, "{label}, step {step}, LM-cut");
        }
    });
    precondition_entries(&pruned) < precondition_entries(&whole)
}

/// Gates (see `relaxation::gates`) change no cost, supporter or reached
/// precondition cost of an exploration: in every state of random walks
/// through `task`, with every operator of conditional effects gated and
/// with none, before and after irrelevant operators are left out; returns
/// whether `task` had a gate.
fn check_gates_change_nothing(task: &Task, rng: &mut Lcg, label: &str) -> bool {
    let mut variants = Vec::new();
    for relaxed in [
        RelaxedTask::with_numeric(task, CostType::Real),
        RelaxedTask::new(task, CostType::PlusOne),
    ] {
        for ignore in [false, true] {
            let [mut gated, mut ungated] =
                [1, usize::MAX].map(|min| relaxed.clone().with_gates_from(min));
            if ignore {
                gated.ignore_irrelevant_operators();
                ungated.ignore_irrelevant_operators();
            }
            variants.push((gated, ungated));
        }
    }
    let gated_any = variants.iter().any(|(gated, _)| !gated.gates.is_empty());
    let mut explorations: Vec<_> = variants
        .iter()
        .map(|(gated, ungated)| (Exploration::new(gated), Exploration::new(ungated)))
        .collect();
    on_random_walks(task, rng, 3, 8, |step, view| {
        for ((gated, ungated), (gated_ex, ungated_ex)) in variants.iter().zip(&mut explorations) {
            for combine in [Combine::Max, Combine::Add] {
                for stop_at_goal in [true, false] {
                    let a = gated_ex.run(gated, view, combine, stop_at_goal, |o| gated.cost(o));
                    let b =
                        ungated_ex.run(ungated, view, combine, stop_at_goal, |o| ungated.cost(o));
                    let at = format!("{label}, step {step}, {combine:?}, stop {stop_at_goal}");
                    assert_eq!(a, b, "{at}: goal");
                    assert_eq!(gated_ex.prop_cost, ungated_ex.prop_cost, "{at}: costs");
                    assert_eq!(gated_ex.supporter, ungated_ex.supporter, "{at}: supporters");
                    for o in 0..gated.ops.len() as u32 {
                        assert_eq!(
                            gated_ex.reached_pre_cost(gated, o),
                            ungated_ex.reached_pre_cost(ungated, o),
                            "{at}: operator {o}"
                        );
                    }
                }
            }
        }
    });
    gated_any
}

/// The propositions a relaxed plan can use: the goal and, from each one
/// reached, the preconditions of its supporter; with their costs and
/// supporters, in proposition order.
fn supported_closure(rt: &RelaxedTask, ex: &Exploration) -> Vec<(u32, Cost, u32)> {
    let mut seen = vec![false; rt.props()];
    let mut stack = vec![rt.goal_prop()];
    seen[rt.goal_prop() as usize] = true;
    let mut closure = Vec::new();
    while let Some(p) = stack.pop() {
        let by = ex.supporter[p as usize];
        closure.push((p, ex.prop_cost[p as usize], by));
        if ex.prop_cost[p as usize] == INFINITE || by == u32::MAX {
            continue;
        }
        for &q in rt.pre(by) {
            if !std::mem::replace(&mut seen[q as usize], true) {
                stack.push(q);
            }
        }
    }
    closure.sort_unstable();
    closure
}

/// An exploration that stops at the goal (as h_add, h_max and h_FF run
/// it) gives the goal's cost of one run dry, and the same cost and
/// supporter to every proposition a relaxed plan can use, on random tasks
/// with and without gates and irrelevant operators, and numeric ones.
#[test]
fn stopping_at_the_goal_settles_every_proposition_a_relaxed_plan_uses() {
    let mut rng = Lcg(41);
    let mut tasks: Vec<Task> = (0..150).map(|_| random_task(&mut rng)).collect();
    tasks.extend((0..150).map(|_| random_gated_task(&mut rng)));
    tasks.extend([pump_task(), copy_task(), visit_all(3, 3)]);
    let mut stopped_early = 0;
    for (t, task) in tasks.iter().enumerate() {
        let mut variants = Vec::new();
        for relaxed in [
            RelaxedTask::with_numeric(task, CostType::Real),
            RelaxedTask::new(task, CostType::PlusOne),
        ] {
            let mut pruned = relaxed.clone().with_gates_from(1);
            pruned.ignore_irrelevant_operators();
            variants.extend([relaxed, pruned]);
        }
        let mut explorations: Vec<_> = variants
            .iter()
            .map(|rt| (Exploration::new(rt), Exploration::new(rt)))
            .collect();
        on_random_walks(task, &mut rng, 3, 8, |step, view| {
            for (rt, (early, dry)) in variants.iter().zip(&mut explorations) {
                for combine in [Combine::Max, Combine::Add] {
                    let a = early.run(rt, view, combine, true, |o| rt.cost(o));
                    let b = dry.run(rt, view, combine, false, |o| rt.cost(o));
                    let at = format!("task {t}, step {step}, {combine:?}");
                    assert_eq!(a, b, "{at}: goal");
                    assert_eq!(
                        supported_closure(rt, early),
                        supported_closure(rt, dry),
                        "{at}: a relaxed plan's propositions"
                    );
                    stopped_early += usize::from(early.prop_cost != dry.prop_cost);
                }
            }
        });
    }
    // The test means something only if explorations stopped early.
    assert!(stopped_early >= 1_000, "{stopped_early} stopped early");
}

/// A random task whose operators have preconditions and conditional
/// effects, whose conditions may repeat facts of the precondition or hold
/// nothing else (such pieces fire as their gate opens): what gates act on.
fn random_gated_task(rng: &mut Lcg) -> Task {
    let mut b = TaskBuilder::new(8);
    for _ in 0..10 {
        let cost = Cost::from(rng.below(4));
        let pre: Vec<FactId> = (0..1 + rng.below(2)).map(|_| rng.below(8)).collect();
        let add = if rng.below(2) == 0 {
            vec![rng.below(8)]
        } else {
            Vec::new()
        };
        let op = b.op_cost("gated", &pre, &add, &[], cost);
        for _ in 0..rng.below(5) {
            let condition: Vec<FactId> = (0..rng.below(3))
                .map(|_| match rng.below(3) {
                    0 => pre[0],
                    _ => rng.below(8),
                })
                .collect();
            b.cond(op, &condition, &[rng.below(8)], &[rng.below(8)]);
        }
    }
    b.build(&[0, rng.below(8)], &[rng.below(8), rng.below(8)])
}

/// Gating operators with conditional effects changes nothing an
/// exploration computes, on random tasks with such operators and on
/// numeric ones (which have no gates).
#[test]
fn gates_change_no_exploration() {
    let mut rng = Lcg(37);
    let mut gated = 0;
    for round in 0..300 {
        let task = random_gated_task(&mut rng);
        gated += usize::from(check_gates_change_nothing(
            &task,
            &mut rng,
            &format!("round {round}"),
        ));
    }
    // The test means something only if operators were gated.
    assert!(gated >= 50, "gates on {gated} of 300 tasks");
    check_gates_change_nothing(&pump_task(), &mut rng, "pump");
    check_gates_change_nothing(&copy_task(), &mut rng, "copy");
}

/// Ignoring the operators that cannot help reach the goal
/// (`RelaxedTask::ignore_irrelevant_operators`) changes no heuristic value
/// (h_max, h_add, h_FF, LM-cut refined and original) and no preferred
/// operator: on random tasks (conditional effects, negative
/// preconditions, costs 0 to 3) and numeric ones.
#[test]
fn ignoring_irrelevant_operators_changes_no_heuristic_value() {
    let mut rng = Lcg(31);
    let mut pruned = 0;
    for round in 0..400 {
        let task = random_task(&mut rng);
        pruned += usize::from(check_irrelevant_operators_change_nothing(
            &task,
            &mut rng,
            &format!("round {round}"),
        ));
    }
    // The test means something only if operators were ignored.
    assert!(pruned >= 100, "operators ignored on {pruned} of 400 tasks");
    check_irrelevant_operators_change_nothing(&pump_task(), &mut rng, "pump");
    check_irrelevant_operators_change_nothing(&copy_task(), &mut rng, "copy");
    check_irrelevant_operators_change_nothing(&visit_all(3, 3), &mut rng, "visit all");
}
