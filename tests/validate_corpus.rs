//! Plan corpus for the validator: hand-written valid plans for shared
//! benchmark tasks (listed in `tests/plans/MANIFEST.tsv`), each with
//! mutations whose invalidity is certain by construction:
//!
//! - a step dropped from an optimal plan (no shorter plan exists);
//! - a step duplicated, when its action deletes one of its own positive
//!   preconditions unconditionally (so the copy cannot apply);
//! - two adjacent steps swapped, when the second unconditionally deletes a
//!   positive precondition of the first (so the first cannot follow it);
//! - an argument replaced by a name that is no object of the task.
//!
//! The certainty arguments read the domain's syntax only, never the
//! validator, so the validator cannot confirm its own mistakes.

use planner::syntax::ast::{
    Action, Atom, Condition, ConditionKind, Domain, Effect, EffectKind, Problem, Term,
};
use planner::validate::{FailureKind, Plan, PlanStep, Report, Validator, parse_plan};
use shared_data::benchmarks;
use std::path::{Path, PathBuf};

fn plans_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/plans"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// One hand-written plan of `tests/plans/MANIFEST.tsv`, with its task.
struct CorpusPlan {
    domain: Domain,
    problem: Problem,
    validator: Validator,
    /// The plan file, relative to `tests/plans`.
    plan_path: String,
    plan: Plan,
    /// Whether no shorter plan exists (`yes` in the manifest).
    optimal: bool,
    /// The metric's value (`-` in the manifest for none).
    metric: Option<f64>,
}

/// Every plan of the manifest, its task (in the benchmark set `shared`)
/// parsed and its validator built.
fn corpus_plans(shared: &Path) -> Vec<CorpusPlan> {
    let manifest = read(&plans_dir().join("MANIFEST.tsv"));
    let lines = manifest.lines().filter(|l| !l.starts_with('#')).skip(1);
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let [domain_path, problem_path, plan_path, optimal, metric] = fields[..] else {
                panic!("bad manifest line: {line}");
            };
            let domain = planner::syntax::parse_domain(&read(&shared.join(domain_path)))
                .expect("domain parses");
            let problem = planner::syntax::parse_problem(&read(&shared.join(problem_path)))
                .expect("problem parses");
            let validator = Validator::new(&domain, &problem).expect("supported task");
            let plan = parse_plan(&read(&plans_dir().join(plan_path))).expect("plan parses");
            CorpusPlan {
                domain,
                problem,
                validator,
                plan_path: plan_path.to_string(),
                plan,
                optimal: optimal == "yes",
                metric: (metric != "-").then(|| metric.parse().expect("metric value")),
            }
        })
        .collect()
}

/// A ground atom as `predicate arg…` text, for syntactic comparisons.
type GroundAtom = (String, Vec<String>);

/// Grounds an atom of `action` with the step's arguments.
fn ground(atom: &Atom<Term>, action: &Action, step: &PlanStep) -> Option<GroundAtom> {
    let args = atom
        .args
        .iter()
        .map(|term| match term {
            Term::Name(name) => Some(name.text.clone()),
            Term::Variable(var) => {
                let position = action
                    .parameters
                    .iter()
                    .position(|p| p.var.name == var.name)?;
                step.args.get(position).cloned()
            }
        })
        .collect::<Option<Vec<_>>>()?;
    Some((atom.predicate.text.clone(), args))
}

/// The positive atoms that are top-level conjuncts of a precondition.
fn required_atoms<'a>(cond: &'a Condition, out: &mut Vec<&'a Atom<Term>>) {
    match &cond.kind {
        ConditionKind::Atom(atom) => out.push(atom),
        ConditionKind::And(parts) => parts.iter().for_each(|p| required_atoms(p, out)),
        _ => {}
    }
}

/// The unconditional (top-level conjunct) adds and deletes of an effect.
fn unconditional<'a>(
    effect: &'a Effect,
    adds: &mut Vec<&'a Atom<Term>>,
    dels: &mut Vec<&'a Atom<Term>>,
) {
    match &effect.kind {
        EffectKind::Add(atom) => adds.push(atom),
        EffectKind::Delete(atom) => dels.push(atom),
        EffectKind::And(parts) => parts.iter().for_each(|p| unconditional(p, adds, dels)),
        _ => {}
    }
}

/// Ground positive preconditions of a step.
fn preconditions(action: &Action, step: &PlanStep) -> Vec<GroundAtom> {
    let mut atoms = Vec::new();
    if let Some(pre) = &action.precondition {
        required_atoms(pre, &mut atoms);
    }
    atoms
        .iter()
        .filter_map(|a| ground(a, action, step))
        .collect()
}

/// Ground atoms a step deletes unconditionally and does not add back.
fn sure_deletes(action: &Action, step: &PlanStep) -> Vec<GroundAtom> {
    let (mut adds, mut dels) = (Vec::new(), Vec::new());
    if let Some(effect) = &action.effect {
        unconditional(effect, &mut adds, &mut dels);
    }
    // An effect with `when` or `forall` might add anything back: no claim then.
    if action.effect.as_ref().is_some_and(has_conditional) {
        return Vec::new();
    }
    let adds: Vec<GroundAtom> = adds
        .iter()
        .filter_map(|a| ground(a, action, step))
        .collect();
    dels.iter()
        .filter_map(|a| ground(a, action, step))
        .filter(|a| !adds.contains(a))
        .collect()
}

fn has_conditional(effect: &Effect) -> bool {
    match &effect.kind {
        EffectKind::When(..) | EffectKind::Forall(..) => true,
        EffectKind::And(parts) => parts.iter().any(has_conditional),
        _ => false,
    }
}

fn action<'d>(domain: &'d Domain, step: &PlanStep) -> &'d Action {
    domain
        .actions
        .iter()
        .find(|a| a.name.text == step.action)
        .expect("plan step names a domain action")
}

struct Tally {
    valid: usize,
    invalid: usize,
}

fn expect_invalid(
    validator: &Validator,
    steps: Vec<PlanStep>,
    what: &str,
    tally: &mut Tally,
) -> Report {
    let report = validator.validate(&Plan::from_steps(steps));
    assert!(
        !report.is_valid(),
        "{what}: expected invalid, validator said valid"
    );
    tally.invalid += 1;
    report
}

#[test]
fn hand_written_plans_and_certain_mutations() {
    let Some(shared) = benchmarks() else { return };
    let mut tally = Tally {
        valid: 0,
        invalid: 0,
    };
    for CorpusPlan {
        domain,
        validator,
        plan_path,
        plan,
        optimal,
        metric,
        ..
    } in corpus_plans(&shared)
    {
        let steps = plan.steps.clone();

        let report = validator.validate(&plan);
        assert!(report.is_valid(), "{plan_path}:\n{}", report.to_text(false));
        tally.valid += 1;
        if let Some(expected) = metric {
            assert_eq!(
                report.metric.map(|m| m.value),
                Some(expected),
                "{plan_path}"
            );
        }

        // A wrong claimed cost is reported.
        let mut wrong_cost = plan.clone();
        wrong_cost.claimed_cost = Some(planner::validate::ClaimedCost {
            value: report.cost().expect("cost") + 1.0,
            unit: false,
            span: Default::default(),
        });
        let report = validator.validate(&wrong_cost);
        assert_eq!(
            report.failure.map(|f| f.kind),
            Some(FailureKind::CostMismatch),
            "{plan_path}"
        );
        tally.invalid += 1;

        for i in 0..steps.len() {
            if optimal {
                let mut dropped = steps.clone();
                dropped.remove(i);
                expect_invalid(
                    &validator,
                    dropped,
                    &format!("{plan_path} without step {}", i + 1),
                    &mut tally,
                );
            }

            let schema = action(&domain, &steps[i]);
            let pre = preconditions(schema, &steps[i]);
            if sure_deletes(schema, &steps[i])
                .iter()
                .any(|a| pre.contains(a))
            {
                let mut duplicated = steps.clone();
                duplicated.insert(i, steps[i].clone());
                let report = expect_invalid(
                    &validator,
                    duplicated,
                    &format!("{plan_path} with step {} twice", i + 1),
                    &mut tally,
                );
                let failure = report.failure.expect("failure");
                assert_eq!(
                    (failure.kind, failure.step()),
                    (FailureKind::PreconditionFalse, Some(i + 2)),
                    "{plan_path}"
                );
            }

            if i + 1 < steps.len() {
                let next = action(&domain, &steps[i + 1]);
                if sure_deletes(next, &steps[i + 1])
                    .iter()
                    .any(|a| pre.contains(a))
                {
                    let mut swapped = steps.clone();
                    swapped.swap(i, i + 1);
                    let what = format!("{plan_path} with steps {} and {} swapped", i + 1, i + 2);
                    let report = expect_invalid(&validator, swapped, &what, &mut tally);
                    let step = report.failure.expect("failure").step();
                    assert!(
                        step == Some(i + 1) || step == Some(i + 2),
                        "{what}: failed at {step:?}"
                    );
                }
            }

            for k in 0..steps[i].args.len() {
                let mut replaced = steps.clone();
                replaced[i].args[k] = "no-such-object".to_string();
                let what = format!(
                    "{plan_path} with argument {} of step {} replaced",
                    k + 1,
                    i + 1
                );
                let report = expect_invalid(&validator, replaced, &what, &mut tally);
                let failure = report.failure.expect("failure");
                assert_eq!(
                    (failure.kind, failure.step()),
                    (FailureKind::UnknownObject, Some(i + 1)),
                    "{what}"
                );
            }
        }
    }
    println!(
        "validated {} valid and {} invalid plans",
        tally.valid, tally.invalid
    );
    assert!(
        tally.valid >= 10 && tally.invalid >= 200,
        "{} valid, {} invalid",
        tally.valid,
        tally.invalid
    );
}

/// Every shared benchmark task the checker accepts is accepted by the
/// validator, and the empty plan is rejected because the goal does not hold
/// initially (no benchmark is trivial).
#[test]
fn every_benchmark_task_is_accepted_and_the_empty_plan_fails_its_goal() {
    let Some(shared) = benchmarks() else { return };
    let (mut checked, mut refused_by_checker) = (0, Vec::new());
    let tasks = shared_data::tasks(&shared);
    for task in &tasks {
        let (domain_path, problem_path) = (&task.domain, &task.problem);
        let domain =
            planner::syntax::parse_domain(&read(&shared.join(domain_path))).expect("domain parses");
        let problem = planner::syntax::parse_problem(&read(&shared.join(problem_path)))
            .expect("problem parses");
        let mut diagnostics = planner::syntax::check::check_domain(&domain);
        diagnostics.extend(planner::syntax::check::check_problem(&domain, &problem));
        if diagnostics.iter().any(|d| d.is_error()) {
            refused_by_checker.push(problem_path.to_string());
            continue;
        }
        let validator = Validator::new(&domain, &problem)
            .unwrap_or_else(|e| panic!("{problem_path}: {}", e.diagnostic.message));
        let report = validator.validate(&Plan::default());
        let kind = report.failure.as_ref().map(|f| f.kind);
        assert_eq!(
            kind,
            Some(FailureKind::GoalNotSatisfied),
            "{problem_path}:\n{}",
            report.to_text(false)
        );
        checked += 1;
    }
    println!("{checked} tasks accepted; refused by the checker: {refused_by_checker:?}");
    assert_eq!(checked + refused_by_checker.len(), tasks.len());
    assert!(checked >= 600, "only {checked} tasks accepted");
}

/// The validator (lifted) and the grounder plus ground replay (two
/// independent implementations) agree on every hand-written plan and on
/// every plan with one step dropped, duplicated, or swapped with the next.
#[test]
fn lifted_and_ground_verdicts_agree() {
    let Some(shared) = benchmarks() else { return };
    let mut compared = 0;
    for CorpusPlan {
        domain,
        problem,
        validator,
        plan_path,
        plan,
        ..
    } in corpus_plans(&shared)
    {
        let task =
            planner::ground::ground(&domain, &problem, &Default::default()).expect("task grounds");
        // A disjunctive precondition grounds into twins of one name.
        let mut operators: std::collections::HashMap<String, Vec<planner::search::OperatorId>> =
            std::collections::HashMap::new();
        for (id, op) in task.operators.iter().enumerate() {
            operators
                .entry(op.plan_line())
                .or_default()
                .push(id as planner::search::OperatorId);
        }
        let steps = plan.steps;
        let mut variants = vec![steps.clone()];
        for i in 0..steps.len() {
            let mut dropped = steps.clone();
            dropped.remove(i);
            variants.push(dropped);
            let mut duplicated = steps.clone();
            duplicated.insert(i, steps[i].clone());
            variants.push(duplicated);
            if i + 1 < steps.len() {
                let mut swapped = steps.clone();
                swapped.swap(i, i + 1);
                variants.push(swapped);
            }
        }
        for variant in variants {
            let lifted = validator
                .validate(&Plan::from_steps(variant.clone()))
                .is_valid();
            let ground = ground_replay_reaches_goal(&task, &operators, &variant);
            let text: Vec<String> = variant.iter().map(|s| s.to_string()).collect();
            assert_eq!(
                lifted, ground,
                "{plan_path}: lifted and ground verdicts differ on {text:?}"
            );
            compared += 1;
        }
    }
    println!("{compared} plans compared with the ground replay");
    assert!(compared >= 190, "only {compared} plans compared");
}

/// Replays `steps` on the ground task, each by whichever of its twins
/// applies; whether every step applies and the goal holds at the end. A
/// step with no ground operator is unreachable, hence inapplicable.
fn ground_replay_reaches_goal(
    task: &planner::ground::Task,
    operators: &std::collections::HashMap<String, Vec<planner::search::OperatorId>>,
    steps: &[PlanStep],
) -> bool {
    let mut space = planner::search::successor::StateSpace::with_all_fluents(task);
    let mut state = space.initial_state();
    let mut next = Vec::new();
    for step in steps {
        let Some(twins) = operators.get(&step.to_string()) else {
            return false;
        };
        let applied = twins
            .iter()
            .any(|&op| space.is_applicable(&state, op) && space.apply(&state, op, &mut next));
        if !applied {
            return false;
        }
        std::mem::swap(&mut state, &mut next);
    }
    space.is_goal(&state)
}
