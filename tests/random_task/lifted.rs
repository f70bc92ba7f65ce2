//! The validator's lifted model stepped by hand, for the semantics tests:
//! shares no code with the grounder or the search.

use planner::ground::task::ImpossibleLiteral;
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
pub enum LiftedOptimum {
    /// The cheapest plan's cost: its metric value, or its length without
    /// a metric.
    Cost(f64),
    /// No state reachable from the initial one satisfies the goal; these
    /// are all the reachable states (as far as the metric is left out).
    Unsolvable(Vec<LiftedState>),
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
    LiftedOptimum::Unsolvable(states)
}

/// Whether `literal` (as a reason names it: an atom true or false, or a
/// comparison written as `plan` writes it, `(>= (+ (f0) (g o1)) 2)`)
/// holds in some state of `states`. A comparison with an undefined value
/// does not hold.
pub fn ever_holds(states: &[LiftedState], literal: &ImpossibleLiteral) -> bool {
    match literal {
        ImpossibleLiteral::Atom { atom, positive } => {
            let wanted = (
                atom.predicate.to_string(),
                atom.args.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
            );
            states
                .iter()
                .any(|state| state.atoms().contains(&wanted) == *positive)
        }
        ImpossibleLiteral::Comparison(text) => {
            let comparison = SExpr::parse(text);
            states.iter().any(|state| {
                let fluents: HashMap<(String, Vec<String>), f64> =
                    state.fluents().into_iter().collect();
                comparison.holds(&fluents)
            })
        }
    }
}

/// A parsed s-expression of a comparison's text.
enum SExpr {
    Symbol(String),
    List(Vec<SExpr>),
}

impl SExpr {
    fn parse(text: &str) -> SExpr {
        let spaced = text.replace('(', " ( ").replace(')', " ) ");
        let mut tokens = spaced.split_whitespace().peekable();
        let parsed = SExpr::read(&mut tokens);
        assert!(tokens.next().is_none(), "trailing text in `{text}`");
        parsed
    }

    fn read<'a>(tokens: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>) -> SExpr {
        match tokens.next() {
            Some("(") => {
                let mut items = Vec::new();
                loop {
                    match tokens.peek() {
                        Some(&")") => {
                            tokens.next();
                            return SExpr::List(items);
                        }
                        Some(_) => items.push(SExpr::read(tokens)),
                        None => panic!("unclosed `(`"),
                    }
                }
            }
            Some(symbol) => SExpr::Symbol(symbol.to_string()),
            None => panic!("an empty expression"),
        }
    }

    /// The comparison's truth; false with an undefined value.
    fn holds(&self, fluents: &HashMap<(String, Vec<String>), f64>) -> bool {
        let SExpr::List(items) = self else {
            panic!("not a comparison");
        };
        let [SExpr::Symbol(op), lhs, rhs] = items.as_slice() else {
            panic!("not a comparison");
        };
        let (Some(a), Some(b)) = (lhs.value(fluents), rhs.value(fluents)) else {
            return false;
        };
        match op.as_str() {
            "<" => a < b,
            "<=" => a <= b,
            "=" => a == b,
            ">=" => a >= b,
            ">" => a > b,
            other => panic!("unknown comparison `{other}`"),
        }
    }

    /// The expression's value; `None` where a fluent is undefined.
    fn value(&self, fluents: &HashMap<(String, Vec<String>), f64>) -> Option<f64> {
        let items = match self {
            SExpr::Symbol(number) => {
                return Some(number.parse().unwrap_or_else(|_| panic!("`{number}`")));
            }
            SExpr::List(items) => items,
        };
        let Some(SExpr::Symbol(head)) = items.first() else {
            panic!("an expression without a head");
        };
        let operands = &items[1..];
        let arithmetic = ["+", "-", "*", "/"].contains(&head.as_str());
        match (head.as_str(), operands) {
            ("-", [a]) => Some(-a.value(fluents)?),
            (op, [a, b]) if arithmetic => {
                let (a, b) = (a.value(fluents)?, b.value(fluents)?);
                let v = match op {
                    "+" => a + b,
                    "-" => a - b,
                    "*" => a * b,
                    _ => a / b,
                };
                // A division by zero is undefined, as the model has it.
                v.is_finite().then_some(v)
            }
            (name, args) => {
                let args = args
                    .iter()
                    .map(|a| match a {
                        SExpr::Symbol(s) => s.clone(),
                        SExpr::List(_) => panic!("a fluent's argument is a list"),
                    })
                    .collect();
                fluents.get(&(name.to_string(), args)).copied()
            }
        }
    }
}
