//! Independent plan validation on the lifted PDDL model.
//!
//! The validator works from the parsed AST of a domain and problem (never
//! from the ground task, so a grounding bug cannot hide behind it) and
//! executes a plan step by step with PDDL 2.1 semantics:
//!
//! - each step's action must exist, with the right number of arguments,
//!   each an object of a fitting type (subtypes and `either` included);
//! - the precondition must hold in the state before the step (`and or not
//!   imply exists forall`, equality, numeric comparisons; reading an
//!   undefined fluent is an error);
//! - effects are evaluated in the state before the step (every `when`
//!   condition and numeric right-hand side), then applied with deletes
//!   before adds; two numeric effects on one fluent, an update of an
//!   undefined fluent or an `assign` of `undefined` are errors;
//! - derived predicates are recomputed in every state (stratified fixpoint);
//! - at the end the goal must hold; the metric is evaluated and compared
//!   with the plan's `; cost = N` comment, if any.
//!
//! Atoms are `(predicate id, object ids)` values, never joined strings.
//!
//! ```no_run
//! # fn demo(domain: &pddl_syntax::ast::Domain, problem: &pddl_syntax::ast::Problem) {
//! use pddl_validate::{Validator, parse_plan};
//! let validator = Validator::new(domain, problem).expect("supported input");
//! let plan = parse_plan("(pick-up a)\n(stack a b)\n").expect("well-formed plan");
//! let report = validator.validate(&plan);
//! println!("{}", report.to_text(false));
//! # }
//! ```

#![warn(missing_docs)]

mod explain;
mod model;
mod plan;
mod render;
mod report;
mod state;

pub use model::{InputFile, SetupError};
pub use plan::{ClaimedCost, Plan, PlanStep, parse_plan};
pub use report::{
    FailedStep, Failure, FailureKind, FluentChange, MetricValue, Report, StepTrace, Verdict,
};

use explain::{Explainer, Explanation};
use model::{Model, ObjId};
use pddl_syntax::ast::{Domain, Problem};
use state::{ApplyError, Changes, Delta, EvalError, Evaluator, State};
use std::sync::Arc;

/// Largest difference between a claimed and the computed cost that is
/// still a match: absolute for small costs, relative for large ones (so
/// that a cost of 2 000 000 claimed as 2 000 001 is a mismatch).
fn cost_tolerance(actual: f64) -> f64 {
    (1e-9 * actual.abs()).max(1e-6)
}

/// Validates plans for one domain and problem.
#[derive(Clone, Debug)]
pub struct Validator {
    model: Arc<Model>,
}

impl Validator {
    /// Prepares validation; fails on unsupported features (preferences,
    /// `:constraints`, durative actions, object fluents) and on input
    /// errors the checker should have caught (unknown names, wrong arities,
    /// unstratifiable derived predicates).
    pub fn new(domain: &Domain, problem: &Problem) -> Result<Validator, SetupError> {
        Ok(Validator {
            model: Arc::new(model::build(domain, problem)?),
        })
    }

    /// Validates a plan.
    pub fn validate(&self, plan: &Plan) -> Report {
        self.run(plan, false)
    }

    /// Validates a plan, recording each executed step's changes in
    /// [`Report::trace`].
    pub fn validate_traced(&self, plan: &Plan) -> Report {
        self.run(plan, true)
    }

    /// The initial state, for stepping through actions by hand.
    pub fn initial_state(&self) -> Result<LiftedState, Failure> {
        let state = initial(&self.model)?;
        Ok(LiftedState {
            model: Arc::clone(&self.model),
            state,
            steps: 0,
        })
    }

    fn run(&self, plan: &Plan, traced: bool) -> Report {
        let model = &*self.model;
        let mut report = Report {
            verdict: Verdict::Invalid,
            steps_total: plan.steps.len(),
            steps_executed: 0,
            failure: None,
            metric: None,
            claimed_cost: plan.claimed_cost.map(|c| c.value),
            trace: Vec::new(),
        };
        let mut state = match initial(model) {
            Ok(state) => state,
            Err(failure) => {
                report.failure = Some(failure);
                return report;
            }
        };
        for (index, step) in plan.steps.iter().enumerate() {
            let mut delta = traced.then(Delta::default);
            if let Err(failure) = execute(model, &mut state, step, index + 1, delta.as_mut()) {
                report.failure = Some(failure);
                return report;
            }
            report.steps_executed += 1;
            if let Some(delta) = delta {
                report.trace.push(trace_of(model, index + 1, step, delta));
            }
        }
        let steps = plan.steps.len();
        if let Err(failure) = check_goal(model, &state, steps) {
            report.failure = Some(failure);
            return report;
        }
        if let Some((optimization, expr)) = &model.metric {
            let evaluator = Evaluator {
                model,
                state: &state,
                total_time: steps as f64,
            };
            match evaluator.value(expr, &[]) {
                Ok(value) => {
                    report.metric = Some(MetricValue {
                        optimization: *optimization,
                        value,
                    })
                }
                Err(error) => {
                    report.failure = Some(eval_failure(
                        None,
                        "the metric",
                        &error,
                        "by the end of the plan",
                    ));
                    return report;
                }
            }
        }
        if let Some(claim) = plan.claimed_cost {
            // A `(unit cost)` claim counts steps whatever the metric.
            let (actual, source) = match (claim.unit, report.metric) {
                (false, Some(metric)) => (metric.value, "the value of the metric"),
                (true, _) => (
                    steps as f64,
                    "the number of steps, as the comment says `unit cost`",
                ),
                (false, None) => (
                    steps as f64,
                    "the number of steps: the problem has no metric",
                ),
            };
            if (claim.value - actual).abs() > cost_tolerance(actual) {
                report.failure = Some(Failure {
                    at: None,
                    kind: FailureKind::CostMismatch,
                    message: format!(
                        "the plan claims cost {}, but its cost is {} ({source})",
                        render::format_number(claim.value),
                        render::format_number(actual)
                    ),
                    details: Vec::new(),
                    advice: vec![format!(
                        "correct the `; cost = ` comment to {}",
                        render::format_number(actual)
                    )],
                });
                return report;
            }
        }
        report.verdict = Verdict::Valid;
        report
    }
}

/// The initial state with derived predicates computed.
fn initial(model: &Model) -> Result<State, Failure> {
    let mut state = model.init.clone();
    state::derive(model, &mut state, 0.0).map_err(|e| {
        eval_failure(
            None,
            "a derived predicate in the initial state",
            &e,
            "in `:init`",
        )
    })?;
    Ok(state)
}

/// Checks the goal in the final state.
fn check_goal(model: &Model, state: &State, steps: usize) -> Result<(), Failure> {
    let Some(goal) = &model.goal else {
        return Ok(());
    };
    let evaluator = Evaluator {
        model,
        state,
        total_time: steps as f64,
    };
    let mut env = vec![0; goal.slots];
    match evaluator.holds(&goal.cond, &mut env) {
        Ok(true) => Ok(()),
        Ok(false) => {
            let explainer = Explainer {
                evaluator: &evaluator,
                deadline: "by the end of the plan".to_string(),
            };
            let mut explanation = Explanation::default();
            explainer.explain(&goal.cond, &mut env, 0, true, 0, &mut explanation);
            Err(Failure {
                at: None,
                kind: FailureKind::GoalNotSatisfied,
                message: format!("the goal is not satisfied after the last step (step {steps})"),
                details: explanation.lines,
                advice: explanation.advice,
            })
        }
        Err(error) => Err(eval_failure(
            None,
            "the goal",
            &error,
            "by the end of the plan",
        )),
    }
}

/// A failure for an evaluation error while reading `what`.
fn eval_failure(at: Option<FailedStep>, what: &str, error: &EvalError, deadline: &str) -> Failure {
    let (kind, message, advice) = match error {
        EvalError::Undefined(fluent) => (
            FailureKind::UndefinedFluent,
            format!("{what} reads {fluent}, which is undefined"),
            vec![format!(
                "give {fluent} a value (in `:init` or with an `assign` effect) {deadline}"
            )],
        ),
        EvalError::Arithmetic(reason) => (
            FailureKind::Arithmetic,
            format!("{what}: {reason}"),
            Vec::new(),
        ),
    };
    Failure {
        at,
        kind,
        message,
        details: Vec::new(),
        advice,
    }
}

/// Executes one step on `state` (whose content is unspecified after a failure).
fn execute(
    model: &Model,
    state: &mut State,
    step: &PlanStep,
    index: usize,
    delta: Option<&mut Delta>,
) -> Result<(), Failure> {
    let text = step.to_string();
    let at = FailedStep {
        index,
        text: text.clone(),
        line: step.line,
    };
    let fail = |kind, message: String, advice: Vec<String>| Failure {
        at: Some(at.clone()),
        kind,
        message,
        details: Vec::new(),
        advice,
    };
    let Some(&action_id) = model.action_ids.get(step.action.as_str()) else {
        let mut names: Vec<&str> = model.actions.iter().map(|a| a.name.as_str()).collect();
        names.sort_unstable();
        return Err(fail(
            FailureKind::UnknownAction,
            format!("unknown action `{}`", step.action),
            vec![format!(
                "use one of the domain's actions: {}",
                names.join(", ")
            )],
        ));
    };
    let action = &model.actions[action_id];
    if action.params.len() != step.args.len() {
        let params = render::vars_text(&action.params);
        return Err(fail(
            FailureKind::WrongArity,
            format!(
                "`{}` takes {} argument(s) ({params}), but the step gives {}",
                action.name,
                action.params.len(),
                step.args.len()
            ),
            vec![format!(
                "write the step as ({} {})",
                action.name,
                action
                    .params
                    .iter()
                    .map(|p| format!("?{}", p.name))
                    .collect::<Vec<_>>()
                    .join(" ")
            )],
        ));
    }
    let mut env = vec![0 as ObjId; action.slots];
    for (position, (param, arg)) in action.params.iter().zip(&step.args).enumerate() {
        let Some(&object) = model.object_ids.get(arg.as_str()) else {
            return Err(fail(
                FailureKind::UnknownObject,
                format!(
                    "argument {} `{arg}` is not an object or constant of the task",
                    position + 1
                ),
                vec![format!(
                    "use an object of type {} for ?{}",
                    param.type_text, param.name
                )],
            ));
        };
        let fits = model.domain_types[param.domain]
            .iter()
            .any(|t| model.object_types[object as usize].contains(t));
        if !fits {
            return Err(fail(
                FailureKind::WrongType,
                format!(
                    "argument {} `{arg}` is of type {}, but parameter ?{} of `{}` needs type {}",
                    position + 1,
                    model.object_type_text[object as usize],
                    param.name,
                    action.name,
                    param.type_text
                ),
                vec![format!(
                    "use an object of type {} for ?{}",
                    param.type_text, param.name
                )],
            ));
        }
        env[param.slot] = object;
    }
    let deadline = format!("before step {index}");
    let total_time = (index - 1) as f64;
    let changes = {
        let evaluator = Evaluator {
            model,
            state,
            total_time,
        };
        if let Some(precondition) = &action.precondition {
            match evaluator.holds(precondition, &mut env) {
                Ok(true) => {}
                Ok(false) => {
                    let explainer = Explainer {
                        evaluator: &evaluator,
                        deadline: deadline.clone(),
                    };
                    let mut explanation = Explanation::default();
                    let bound = action.params.len();
                    explainer.explain(precondition, &mut env, bound, true, 0, &mut explanation);
                    let mut failure = fail(
                        FailureKind::PreconditionFalse,
                        format!("the precondition of `{}` does not hold", action.name),
                        explanation.advice,
                    );
                    if !action.params.is_empty() {
                        failure.details.push(format!(
                            "with {}",
                            model.bindings_text(&action.params, &env)
                        ));
                    }
                    failure.details.extend(explanation.lines);
                    return Err(failure);
                }
                Err(error) => {
                    return Err(eval_failure(
                        Some(at.clone()),
                        "the precondition",
                        &error,
                        &deadline,
                    ));
                }
            }
        }
        let mut changes = Changes::default();
        if let Some(effect) = &action.effect
            && let Err(error) = evaluator.collect(effect, &mut env, &mut changes)
        {
            return Err(eval_failure(
                Some(at.clone()),
                "an effect",
                &error,
                &deadline,
            ));
        }
        changes
    };
    // Applied in place: a failure ends the validation, so the state after
    // a failed step is never used.
    if let Err(error) = state::apply(model, state, changes, delta) {
        let (kind, message, advice) = match error {
            ApplyError::Conflict(fluent) => (
                FailureKind::ConflictingEffects,
                format!("two numeric effects of this step change {fluent}"),
                vec![format!(
                    "change the domain or the step so that {fluent} is changed at most once"
                )],
            ),
            ApplyError::AssignUndefined(fluent) => (
                FailureKind::AssignUndefined,
                format!("the step assigns an undefined value to {fluent}"),
                Vec::new(),
            ),
            ApplyError::UpdateUndefined(fluent, op) => (
                FailureKind::UndefinedFluent,
                format!("`{}` of {fluent}, which is undefined", op.keyword()),
                vec![format!(
                    "give {fluent} a value (in `:init` or with an `assign` effect) {deadline}"
                )],
            ),
            ApplyError::Arithmetic(reason) => (FailureKind::Arithmetic, reason, Vec::new()),
        };
        return Err(fail(kind, message, advice));
    }
    state::derive(model, state, index as f64).map_err(|e| {
        eval_failure(
            Some(at.clone()),
            "a derived predicate after the step",
            &e,
            &deadline,
        )
    })
}

/// The trace entry of an executed step.
fn trace_of(model: &Model, index: usize, step: &PlanStep, delta: Delta) -> StepTrace {
    let mut added: Vec<String> = delta
        .added
        .iter()
        .map(|(p, a)| model.atom_text(*p, a))
        .collect();
    let mut deleted: Vec<String> = delta
        .deleted
        .iter()
        .map(|(p, a)| model.atom_text(*p, a))
        .collect();
    added.sort();
    deleted.sort();
    StepTrace {
        step: index,
        text: step.to_string(),
        added,
        deleted,
        fluents: delta
            .fluents
            .iter()
            .map(|(f, a, old, new)| FluentChange {
                fluent: model.fluent_text(*f, a),
                old: *old,
                new: *new,
            })
            .collect(),
    }
}

/// A state of the lifted model, for stepping through actions one at a
/// time (e.g. to cross-check a grounder's successor function).
#[derive(Clone, Debug)]
pub struct LiftedState {
    model: Arc<Model>,
    state: State,
    steps: usize,
}

impl LiftedState {
    /// The initial state of a task (derived predicates computed).
    pub fn initial(domain: &Domain, problem: &Problem) -> Result<LiftedState, SetupError> {
        let validator = Validator::new(domain, problem)?;
        // Only an undefined fluent read by a derived rule fails here.
        validator.initial_state().map_err(|failure| SetupError {
            file: InputFile::Problem,
            diagnostic: pddl_syntax::Diagnostic::error(failure.message, problem.span),
            unsupported: false,
        })
    }

    /// The state after applying `action` to `args` (names, any case), or
    /// why the step is not applicable.
    pub fn apply(&self, action: &str, args: &[impl AsRef<str>]) -> Result<LiftedState, Failure> {
        let step = PlanStep::new(action, args.iter().map(|a| a.as_ref()));
        let mut state = self.state.clone();
        execute(&self.model, &mut state, &step, self.steps + 1, None)?;
        Ok(LiftedState {
            model: Arc::clone(&self.model),
            state,
            steps: self.steps + 1,
        })
    }

    /// Whether the goal holds in this state (`Err` when it reads an
    /// undefined fluent).
    pub fn satisfies_goal(&self) -> Result<bool, Failure> {
        match check_goal(&self.model, &self.state, self.steps) {
            Ok(()) => Ok(true),
            Err(failure) if failure.kind == FailureKind::GoalNotSatisfied => Ok(false),
            Err(failure) => Err(failure),
        }
    }

    /// The true atoms (derived ones included) as `(predicate, args)`
    /// names, sorted.
    pub fn atoms(&self) -> Vec<(String, Vec<String>)> {
        let model = &self.model;
        let mut out: Vec<(String, Vec<String>)> = self
            .state
            .atoms
            .iter()
            .enumerate()
            .flat_map(|(pred, set)| {
                set.iter()
                    .map(move |args| (model.predicates[pred].name.clone(), names(model, args)))
            })
            .collect();
        out.sort();
        out
    }

    /// The defined numeric fluents as `((function, args), value)`, sorted.
    pub fn fluents(&self) -> Vec<((String, Vec<String>), f64)> {
        let model = &self.model;
        let mut out: Vec<((String, Vec<String>), f64)> = self
            .state
            .fluents
            .iter()
            .enumerate()
            .flat_map(|(func, map)| {
                map.iter().map(move |(args, value)| {
                    (
                        (model.functions[func].name.clone(), names(model, args)),
                        *value,
                    )
                })
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }
}

fn names(model: &Model, args: &[ObjId]) -> Vec<String> {
    args.iter()
        .map(|&o| model.objects[o as usize].clone())
        .collect()
}
