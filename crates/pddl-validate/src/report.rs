//! The outcome of validating one plan, for people (VAL-style text) and
//! for machines (JSON).

use crate::render::{format_number, json_number};
use pddl_syntax::ast::Optimization;
use serde_json::{Value, json};
use std::fmt::Write;

/// Whether a plan is valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every step applies and the goal holds at the end.
    Valid,
    /// Some step fails, the goal does not hold, or the claimed cost is wrong.
    Invalid,
}

/// What kind of failure made a plan invalid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The step names an action the domain does not define.
    UnknownAction,
    /// The step has the wrong number of arguments.
    WrongArity,
    /// An argument is not an object or constant of the task.
    UnknownObject,
    /// An argument's type does not fit the parameter's type.
    WrongType,
    /// The precondition is false in the state before the step.
    PreconditionFalse,
    /// An undefined numeric fluent is read (or updated by `increase` etc.).
    UndefinedFluent,
    /// `assign` of an undefined value.
    AssignUndefined,
    /// Two numeric effects of one step change the same fluent.
    ConflictingEffects,
    /// Division by zero or a non-finite value.
    Arithmetic,
    /// The goal does not hold after the last step.
    GoalNotSatisfied,
    /// The plan's `; cost = N` comment disagrees with the computed cost.
    CostMismatch,
}

impl FailureKind {
    /// A stable identifier for JSON output, e.g. `precondition-false`.
    pub fn id(self) -> &'static str {
        match self {
            FailureKind::UnknownAction => "unknown-action",
            FailureKind::WrongArity => "wrong-arity",
            FailureKind::UnknownObject => "unknown-object",
            FailureKind::WrongType => "wrong-type",
            FailureKind::PreconditionFalse => "precondition-false",
            FailureKind::UndefinedFluent => "undefined-fluent",
            FailureKind::AssignUndefined => "assign-undefined",
            FailureKind::ConflictingEffects => "conflicting-effects",
            FailureKind::Arithmetic => "arithmetic-error",
            FailureKind::GoalNotSatisfied => "goal-not-satisfied",
            FailureKind::CostMismatch => "cost-mismatch",
        }
    }
}

/// Why a plan is invalid, with what to do about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// The failing step; `None` for the goal, the metric or the claimed
    /// cost (checked after the last step).
    pub at: Option<FailedStep>,
    /// The kind of failure.
    pub kind: FailureKind,
    /// One-line summary.
    pub message: String,
    /// The false sub-conditions with their bindings, one per line (indented
    /// by nesting).
    pub details: Vec<String>,
    /// Suggested repairs, e.g. "make (clear b) true before step 3".
    pub advice: Vec<String>,
}

/// Which step of a plan failed.
#[derive(Clone, Debug, PartialEq)]
pub struct FailedStep {
    /// 1-based index of the step in the plan.
    pub index: usize,
    /// The step as text, e.g. `(unstack b a)`.
    pub text: String,
    /// Its line in the plan file; 0 when the step was not read from a file.
    pub line: usize,
}

impl Failure {
    /// The 1-based index of the failing step, if a step failed.
    pub fn step(&self) -> Option<usize> {
        self.at.as_ref().map(|at| at.index)
    }
}

/// A numeric fluent changed by a step.
#[derive(Clone, Debug, PartialEq)]
pub struct FluentChange {
    /// The fluent, e.g. `(fuel t1)`.
    pub fluent: String,
    /// Its value before the step (`None`: undefined).
    pub old: Option<f64>,
    /// Its value after the step.
    pub new: f64,
}

/// What one executed step changed.
#[derive(Clone, Debug, PartialEq)]
pub struct StepTrace {
    /// 1-based step index.
    pub step: usize,
    /// The step as text.
    pub text: String,
    /// Atoms made true (false before), sorted.
    pub added: Vec<String>,
    /// Atoms made false (true before), sorted.
    pub deleted: Vec<String>,
    /// Fluents assigned, in effect order.
    pub fluents: Vec<FluentChange>,
}

/// The value of the problem's `:metric` in the final state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MetricValue {
    /// Minimise or maximise.
    pub optimization: Optimization,
    /// The value.
    pub value: f64,
}

/// The result of validating one plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Valid or invalid.
    pub verdict: Verdict,
    /// Number of steps in the plan.
    pub steps_total: usize,
    /// Number of steps executed successfully.
    pub steps_executed: usize,
    /// Why the plan is invalid; `None` when valid.
    pub failure: Option<Failure>,
    /// The metric value in the final state (when the problem has a metric
    /// and the whole plan executed).
    pub metric: Option<MetricValue>,
    /// The cost claimed by the plan's `; cost = N` comment.
    pub claimed_cost: Option<f64>,
    /// Per-step changes, filled by [`crate::Validator::validate_traced`].
    pub trace: Vec<StepTrace>,
}

impl Report {
    /// Whether the plan is valid.
    pub fn is_valid(&self) -> bool {
        self.verdict == Verdict::Valid
    }

    /// The plan's cost: the metric value if the problem has a metric,
    /// otherwise the number of steps (unit cost).
    pub fn cost(&self) -> Option<f64> {
        match self.metric {
            Some(metric) => Some(metric.value),
            None if self.steps_executed == self.steps_total => Some(self.steps_total as f64),
            None => None,
        }
    }

    /// A human-readable report in the style of VAL. With `verbose`, each
    /// executed step's changes are listed first (when traced).
    pub fn to_text(&self, verbose: bool) -> String {
        let mut out = String::new();
        if verbose {
            for step in &self.trace {
                let _ = writeln!(out, "Step {}: {}", step.step, step.text);
                for atom in &step.deleted {
                    let _ = writeln!(out, "  deleted {atom}");
                }
                for atom in &step.added {
                    let _ = writeln!(out, "  added   {atom}");
                }
                for change in &step.fluents {
                    let old = change.old.map_or("undefined".to_string(), format_number);
                    let _ = writeln!(
                        out,
                        "  changed {} from {old} to {}",
                        change.fluent,
                        format_number(change.new)
                    );
                }
            }
        }
        match &self.failure {
            None => {
                let _ = writeln!(out, "Plan valid");
                let _ = writeln!(out, "Steps: {}", self.steps_total);
                if self.metric.is_none() {
                    let _ = writeln!(
                        out,
                        "Cost: {} (number of steps: the problem has no metric)",
                        self.steps_total
                    );
                }
            }
            Some(failure) => {
                let _ = writeln!(out, "Plan invalid");
                let _ = writeln!(
                    out,
                    "Steps executed: {} of {}",
                    self.steps_executed, self.steps_total
                );
                if let Some(at) = &failure.at {
                    let line = if at.line > 0 {
                        format!(" (line {})", at.line)
                    } else {
                        String::new()
                    };
                    let _ = writeln!(out, "Failed at step {}{line}: {}", at.index, at.text);
                }
                let _ = writeln!(out, "Error: {}", failure.message);
                for detail in &failure.details {
                    let _ = writeln!(out, "  {detail}");
                }
                for advice in &failure.advice {
                    let _ = writeln!(out, "Advice: {advice}");
                }
            }
        }
        if let Some(metric) = self.metric {
            let direction = match metric.optimization {
                Optimization::Minimize => "minimize",
                Optimization::Maximize => "maximize",
            };
            let _ = writeln!(
                out,
                "Final value ({direction}): {}",
                format_number(metric.value)
            );
        }
        if let Some(claimed) = self.claimed_cost {
            let _ = writeln!(out, "Claimed cost: {}", format_number(claimed));
        }
        out
    }

    /// The same content as [`Report::to_text`] as a JSON value. Numbers
    /// keep 15 significant digits, which drops the noise of summing binary
    /// fractions (251.19799999999998 reads 251.198) and nothing an input
    /// wrote.
    pub fn to_json(&self) -> Value {
        let failure = self.failure.as_ref().map(|f| {
            json!({
                "step": f.step(),
                "step_text": f.at.as_ref().map(|at| at.text.clone()),
                "line": f.at.as_ref().map(|at| at.line).filter(|&l| l > 0),
                "kind": f.kind.id(),
                "message": f.message,
                "details": f.details,
                "advice": f.advice,
            })
        });
        let metric = self.metric.map(|m| {
            json!({
                "optimization": match m.optimization {
                    Optimization::Minimize => "minimize",
                    Optimization::Maximize => "maximize",
                },
                "value": json_number(m.value),
            })
        });
        let trace: Vec<Value> = self
            .trace
            .iter()
            .map(|s| {
                json!({
                    "step": s.step,
                    "text": s.text,
                    "added": s.added,
                    "deleted": s.deleted,
                    "fluents": s.fluents.iter().map(|c| json!({"fluent": c.fluent, "old": c.old.map(json_number), "new": json_number(c.new)})).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({
            "valid": self.is_valid(),
            "steps": self.steps_total,
            "steps_executed": self.steps_executed,
            "failure": failure,
            "metric": metric,
            "cost": self.cost().map(json_number),
            "claimed_cost": self.claimed_cost.map(json_number),
            "trace": trace,
        })
    }
}
