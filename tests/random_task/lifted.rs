//! The validator's lifted model stepped by hand, for the semantics tests:
//! shares no code with the grounder or the search.

use planner::load::CheckedTask;
use planner::validate::LiftedState;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap};

/// The names of a task's objects and constants, sorted.
pub fn object_names(checked: &CheckedTask) -> Vec<String> {
    let mut names: BTreeSet<String> = checked
        .problem
        .objects
        .iter()
        .map(|o| o.name.text.clone())
        .collect();
    names.extend(checked.domain.constants.iter().map(|c| c.name.text.clone()));
    names.into_iter().collect()
}

/// How many steps [`successors`] tries: each action on each tuple of
/// `objects` objects (saturating).
pub fn tuple_count(checked: &CheckedTask, objects: usize) -> usize {
    checked
        .domain
        .actions
        .iter()
        .map(|a| objects.saturating_pow(a.parameters.len() as u32))
        .fold(0usize, |acc, n| acc.saturating_add(n))
}

/// Every step applicable in `state`, as its plan line `(action arg ...)`
/// and the state after it: each action of the domain tried on each tuple
/// of `objects`.
pub fn successors(
    checked: &CheckedTask,
    objects: &[String],
    state: &LiftedState,
) -> Vec<(String, LiftedState)> {
    let mut out = Vec::new();
    for action in &checked.domain.actions {
        let arity = action.parameters.len();
        let mut tuple = vec![0usize; arity];
        loop {
            let args: Vec<&str> = tuple.iter().map(|&i| objects[i].as_str()).collect();
            if let Ok(next) = state.apply(&action.name.text, &args) {
                let mut line = format!("({}", action.name.text);
                for a in &args {
                    line.push(' ');
                    line.push_str(a);
                }
                line.push(')');
                out.push((line, next));
            }
            // The next tuple, odometer style.
            let Some(i) = (0..arity).rev().find(|&i| tuple[i] + 1 < objects.len()) else {
                break;
            };
            tuple[i] += 1;
            tuple[i + 1..].iter_mut().for_each(|x| *x = 0);
        }
    }
    out
}

/// What uniform-cost search over the lifted states found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LiftedOptimum {
    /// The cheapest plan's cost: its metric value, or its length without
    /// a metric.
    Cost(f64),
    /// No state reachable from the initial one satisfies the goal.
    Unsolvable,
    /// More than the given number of states are reachable.
    TooLarge,
}

/// The cheapest plan of a task by the lifted model (see the module docs),
/// searching at most `max_states` states. Costs are read from the metric
/// `(total-cost)`, which is left out of the state so that the space is
/// finite.
pub fn optimum(checked: &CheckedTask, max_states: usize) -> LiftedOptimum {
    let metric = checked.problem.metric.is_some();
    let objects = object_names(checked);
    let total_cost = |state: &LiftedState| -> f64 {
        state
            .fluents()
            .into_iter()
            .find(|((name, _), _)| name == "total-cost")
            .map_or(0.0, |(_, v)| v)
    };
    type Key = (Vec<(String, Vec<String>)>, Vec<(String, Vec<String>, u64)>);
    let key = |state: &LiftedState| -> Key {
        let fluents = state
            .fluents()
            .into_iter()
            .filter(|((name, _), _)| name != "total-cost")
            .map(|((name, args), v)| (name, args, v.to_bits()))
            .collect();
        (state.atoms(), fluents)
    };
    let initial = LiftedState::initial(&checked.domain, &checked.problem)
        .unwrap_or_else(|e| panic!("lifted initial state: {e:?}"));
    let mut states = vec![initial];
    let mut best: HashMap<Key, (f64, usize)> = HashMap::new();
    best.insert(key(&states[0]), (0.0, 0));
    // Costs are whole numbers here; the heap orders them as integers.
    let mut open = BinaryHeap::from([Reverse((0i64, 0usize))]);
    while let Some(Reverse((cost, index))) = open.pop() {
        let state = states[index].clone();
        if best[&key(&state)].0 < cost as f64 {
            continue;
        }
        if state.satisfies_goal().unwrap_or(false) {
            return LiftedOptimum::Cost(cost as f64);
        }
        for (_, next) in successors(checked, &objects, &state) {
            let step = if metric {
                total_cost(&next) - total_cost(&state)
            } else {
                1.0
            };
            let next_cost = cost as f64 + step;
            let next_key = key(&next);
            if best.get(&next_key).is_none_or(|&(c, _)| next_cost < c) {
                if states.len() >= max_states {
                    return LiftedOptimum::TooLarge;
                }
                best.insert(next_key, (next_cost, states.len()));
                open.push(Reverse((next_cost as i64, states.len())));
                states.push(next);
            }
        }
    }
    LiftedOptimum::Unsolvable
}
