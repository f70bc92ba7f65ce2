//! Random ADL preconditions (and/or/not/imply/exists/forall/equality)
//! keep their meaning through grounding: in random states, some ground
//! operator for a binding is applicable (axioms for auxiliary facts
//! evaluated) exactly when the lifted precondition holds for it.

use pddl_ground::task::{Conjunction, Task};
use pddl_ground::{GroundOptions, ground};
use pddl_syntax::ast::{Atom, Condition, ConditionKind, Domain, Effect, EffectKind, Term};
use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, TestRng};
use std::collections::{BTreeSet, HashMap};

const OBJECTS: [&str; 3] = ["o0", "o1", "o2"];

/// A random condition over `vars` (variables in scope), at most `depth` deep.
fn condition(rng: &mut TestRng, vars: &mut Vec<String>, depth: usize, fresh: &mut usize) -> String {
    let term = |rng: &mut TestRng, vars: &Vec<String>| {
        if !vars.is_empty() && rng.random_range(0..4) > 0 {
            format!("?{}", vars[rng.random_range(0..vars.len())])
        } else {
            OBJECTS[rng.random_range(0..OBJECTS.len())].to_string()
        }
    };
    let choice = if depth == 0 {
        rng.random_range(0..3)
    } else {
        rng.random_range(0..10)
    };
    match choice {
        0 => format!("(p {})", term(rng, vars)),
        1 => format!("(q {} {})", term(rng, vars), term(rng, vars)),
        2 => format!("(= {} {})", term(rng, vars), term(rng, vars)),
        3 => format!("(not {})", condition(rng, vars, depth - 1, fresh)),
        4 | 5 => {
            let op = if choice == 4 { "and" } else { "or" };
            let n = 1 + rng.random_range(0..3);
            let parts: Vec<String> = (0..n)
                .map(|_| condition(rng, vars, depth - 1, fresh))
                .collect();
            format!("({op} {})", parts.join(" "))
        }
        6 => format!(
            "(imply {} {})",
            condition(rng, vars, depth - 1, fresh),
            condition(rng, vars, depth - 1, fresh)
        ),
        _ => {
            let q = if choice == 7 { "forall" } else { "exists" };
            *fresh += 1;
            let v = format!("v{fresh}");
            vars.push(v.clone());
            let body = condition(rng, vars, depth - 1, fresh);
            vars.pop();
            format!("({q} (?{v}) {body})")
        }
    }
}

/// A random effect over `vars`, at most `depth` deep.
fn effect(rng: &mut TestRng, vars: &mut Vec<String>, depth: usize, fresh: &mut usize) -> String {
    let term = |rng: &mut TestRng, vars: &Vec<String>| {
        if rng.random_range(0..4) > 0 {
            format!("?{}", vars[rng.random_range(0..vars.len())])
        } else {
            OBJECTS[rng.random_range(0..OBJECTS.len())].to_string()
        }
    };
    let atom = |rng: &mut TestRng, vars: &Vec<String>| {
        if rng.random_range(0..2) == 0 {
            format!("(p {})", term(rng, vars))
        } else {
            format!("(q {} {})", term(rng, vars), term(rng, vars))
        }
    };
    let choice = if depth == 0 {
        rng.random_range(0..2)
    } else {
        rng.random_range(0..6)
    };
    match choice {
        0 => atom(rng, vars),
        1 => format!("(not {})", atom(rng, vars)),
        2 | 3 => {
            let n = 1 + rng.random_range(0..3);
            let parts: Vec<String> = (0..n)
                .map(|_| effect(rng, vars, depth - 1, fresh))
                .collect();
            format!("(and {})", parts.join(" "))
        }
        4 => {
            *fresh += 1;
            let v = format!("w{fresh}");
            vars.push(v.clone());
            let body = effect(rng, vars, depth - 1, fresh);
            vars.pop();
            format!("(forall (?{v}) {body})")
        }
        _ => {
            let cond = condition(rng, vars, 2, fresh);
            format!("(when {cond} {})", effect(rng, vars, depth - 1, fresh))
        }
    }
}

/// The test domain with `pre` and `eff` in its `test` action, parsed, and
/// its task grounded over three objects (irrelevant operators kept: the
/// tests compare every ground operator with the lifted action).
fn test_task(pre: &str, eff: &str) -> (Domain, Task) {
    let domain_text = format!(
        "(define (domain sem) (:requirements :adl)
           (:predicates (p ?x) (q ?x ?y) (done ?x))
           (:action setp :parameters (?x) :effect (p ?x))
           (:action unsetp :parameters (?x) :effect (not (p ?x)))
           (:action setq :parameters (?x ?y) :effect (q ?x ?y))
           (:action unsetq :parameters (?x ?y) :effect (not (q ?x ?y)))
           (:action test :parameters (?a) :precondition {pre} :effect (and (done ?a) {eff})))"
    );
    let problem_text =
        "(define (problem sem-1) (:domain sem) (:objects o0 o1 o2) (:init) (:goal (done o0)))";
    let domain = pddl_syntax::parse_domain(&domain_text).expect("domain parses");
    let problem = pddl_syntax::parse_problem(problem_text).expect("problem parses");
    let options = GroundOptions {
        keep_irrelevant: true,
        ..GroundOptions::default()
    };
    let task = ground(&domain, &problem, &options).expect("grounds");
    (domain, task)
}

/// Every `p` and `q` atom over the objects: random states draw from these.
fn all_atoms() -> Vec<String> {
    OBJECTS
        .iter()
        .map(|o| format!("(p {o})"))
        .chain(
            OBJECTS
                .iter()
                .flat_map(|a| OBJECTS.iter().map(move |b| format!("(q {a} {b})"))),
        )
        .collect()
}

type State = BTreeSet<String>;

fn eval(c: &Condition, env: &mut HashMap<String, String>, state: &State) -> bool {
    let value = |t: &Term, env: &HashMap<String, String>| match t {
        Term::Name(n) => n.text.clone(),
        Term::Variable(v) => env[&v.name].clone(),
    };
    match &c.kind {
        ConditionKind::Atom(a) => {
            let args: Vec<String> = a.args.iter().map(|t| value(t, env)).collect();
            state.contains(&format!("({} {})", a.predicate.text, args.join(" ")))
        }
        ConditionKind::Equality(a, b) => value(a, env) == value(b, env),
        ConditionKind::Not(x) => !eval(x, env, state),
        ConditionKind::And(xs) => xs.iter().all(|x| eval(x, env, state)),
        ConditionKind::Or(xs) => xs.iter().any(|x| eval(x, env, state)),
        ConditionKind::Imply(a, b) => !eval(a, env, state) || eval(b, env, state),
        ConditionKind::Exists(vs, x) | ConditionKind::Forall(vs, x) => {
            let universal = matches!(c.kind, ConditionKind::Forall(..));
            let name = vs[0].var.name.clone();
            let saved = env.get(&name).cloned();
            let mut result = universal;
            for o in OBJECTS {
                env.insert(name.clone(), o.to_string());
                if eval(x, env, state) != universal {
                    result = !universal;
                    break;
                }
            }
            match saved {
                Some(s) => env.insert(name, s),
                None => env.remove(&name),
            };
            result
        }
        other => panic!("not generated: {other:?}"),
    }
}

/// Facts true in `state` plus the derived facts its axioms give.
fn closure(task: &Task, state: &State) -> Vec<bool> {
    let mut truth: Vec<bool> = task
        .facts
        .iter()
        .map(|f| state.contains(&f.to_string()))
        .collect();
    let holds = |c: &Conjunction, truth: &[bool]| {
        c.pos.iter().all(|&f| truth[f as usize]) && c.neg.iter().all(|&f| !truth[f as usize])
    };
    let max_stratum = task.axioms.iter().map(|a| a.stratum).max().unwrap_or(0);
    for stratum in 0..=max_stratum {
        loop {
            let mut changed = false;
            for a in task.axioms.iter().filter(|a| a.stratum == stratum) {
                if !truth[a.head as usize] && holds(&a.body, &truth) {
                    truth[a.head as usize] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
    truth
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn ground_preconditions_keep_their_meaning(seed in any::<[u8; 32]>()) {
        let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
        let mut vars = vec!["a".to_string()];
        let mut fresh = 0;
        let pre = condition(&mut rng, &mut vars, 4, &mut fresh);
        let (domain, task) = test_task(&pre, "(done ?a)");
        let lifted = domain.actions[4].precondition.clone().expect("precondition");
        let atoms = all_atoms();
        for _ in 0..16 {
            let state: State = atoms.iter().filter(|_| rng.random_range(0..2) == 0).cloned().collect();
            let truth = closure(&task, &state);
            for o in OBJECTS {
                let mut env = HashMap::from([("a".to_string(), o.to_string())]);
                let expected = eval(&lifted, &mut env, &state);
                let applicable = task.operators.iter().filter(|op| op.name == "test" && op.args == [o]).any(|op| {
                    op.precondition.pos.iter().all(|&f| truth[f as usize])
                        && op.precondition.neg.iter().all(|&f| !truth[f as usize])
                });
                prop_assert_eq!(applicable, expected, "precondition {} for ?a = {} in {:?}", pre, o, state);
            }
        }
    }
}

fn atom_name(a: &Atom<Term>, env: &HashMap<String, String>) -> String {
    let args: Vec<String> = a
        .args
        .iter()
        .map(|t| match t {
            Term::Name(n) => n.text.clone(),
            Term::Variable(v) => env[&v.name].clone(),
        })
        .collect();
    format!("({} {})", a.predicate.text, args.join(" "))
}

/// Lifted effect semantics: conditions read the old state; collects the
/// facts added and deleted.
fn collect(
    e: &Effect,
    env: &mut HashMap<String, String>,
    old: &State,
    add: &mut State,
    del: &mut State,
) {
    match &e.kind {
        EffectKind::And(es) => es.iter().for_each(|x| collect(x, env, old, add, del)),
        EffectKind::Add(a) => {
            add.insert(atom_name(a, env));
        }
        EffectKind::Delete(a) => {
            del.insert(atom_name(a, env));
        }
        EffectKind::When(c, x) => {
            if eval(c, env, old) {
                collect(x, env, old, add, del);
            }
        }
        EffectKind::Forall(vs, x) => {
            let name = vs[0].var.name.clone();
            for o in OBJECTS {
                env.insert(name.clone(), o.to_string());
                collect(x, env, old, add, del);
            }
            env.remove(&name);
        }
        other => panic!("not generated: {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn ground_effects_keep_their_meaning(seed in any::<[u8; 32]>()) {
        let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
        let mut vars = vec!["a".to_string()];
        let mut fresh = 0;
        let eff = effect(&mut rng, &mut vars, 4, &mut fresh);
        let (domain, task) = test_task("(and)", &eff);
        let lifted = domain.actions[4].effect.clone().expect("effect");
        let atoms = all_atoms();
        for _ in 0..16 {
            let state: State = atoms.iter().filter(|_| rng.random_range(0..2) == 0).cloned().collect();
            let truth = closure(&task, &state);
            for o in OBJECTS {
                let mut env = HashMap::from([("a".to_string(), o.to_string())]);
                let (mut add, mut del) = (State::new(), State::new());
                collect(&lifted, &mut env, &state, &mut add, &mut del);
                // An add of the same step wins over a delete.
                let expected: State = state.iter().filter(|f| !del.contains(*f) || add.contains(*f)).cloned().chain(add.iter().cloned()).filter(|f| !f.starts_with("(done")).collect();
                let op = task.operators.iter().find(|op| op.name == "test" && op.args == [o]).expect("operator");
                let (mut gadd, mut gdel) = (op.add.clone(), op.del.clone());
                for c in &op.conditional {
                    let holds = c.condition.pos.iter().all(|&f| truth[f as usize]) && c.condition.neg.iter().all(|&f| !truth[f as usize]);
                    if holds {
                        gadd.extend(&c.add);
                        gdel.extend(&c.del);
                    }
                }
                let name = |f: &u32| task.facts[*f as usize].to_string();
                let gadd: State = gadd.iter().map(name).collect();
                let gdel: State = gdel.iter().map(name).collect();
                let got: State = state.iter().filter(|f| !gdel.contains(*f) || gadd.contains(*f)).cloned().chain(gadd.iter().cloned()).filter(|f| !f.starts_with("(done")).collect();
                prop_assert_eq!(got, expected, "effect {} for ?a = {} in {:?}", eff, o, state);
            }
        }
    }
}
