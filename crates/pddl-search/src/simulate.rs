//! Replaying plans on the ground task.

use pddl_ground::Task;
use pddl_ground::task::{Cost, CostModel, FactId, OperatorId};

use crate::result::Plan;
use crate::state::{StateView, has_fact};
use crate::successor::StateSpace;

/// The state at the end of a replayed plan.
#[derive(Clone, Debug, PartialEq)]
pub struct SimulatedState {
    /// True facts, sorted (derived facts included).
    pub facts: Vec<FactId>,
    /// Fluent values (NaN = undefined).
    pub fluents: Vec<f64>,
    /// Whether the goal holds.
    pub goal_reached: bool,
    /// Sum of the operators' costs.
    pub cost: Cost,
}

/// Why a plan cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimulationError {
    /// An operator id out of range.
    #[error("step {step}: there is no operator with id {op}")]
    UnknownOperator {
        /// 0-based step.
        step: usize,
        /// The id.
        op: OperatorId,
    },
    /// The operator's precondition does not hold.
    #[error("step {step}: {name} is not applicable")]
    NotApplicable {
        /// 0-based step.
        step: usize,
        /// The operator as a plan line.
        name: String,
    },
    /// A numeric effect's value is undefined (undefined fluent or division by zero).
    #[error("step {step}: a numeric effect of {name} is undefined")]
    UndefinedEffect {
        /// 0-based step.
        step: usize,
        /// The operator as a plan line.
        name: String,
    },
}

/// Replays `plan` from the initial state, checking every precondition.
pub fn simulate(task: &Task, plan: &[OperatorId]) -> Result<SimulatedState, SimulationError> {
    // Every fluent, metric counters included: the final values are read.
    let mut space = StateSpace::with_all_fluents(task);
    let mut state = space.initial_state();
    let mut next = Vec::new();
    let mut fluents = Vec::new();
    let mut cost: Cost = 0;
    for (step, &op) in plan.iter().enumerate() {
        let Some(operator) = task.operators.get(op as usize) else {
            return Err(SimulationError::UnknownOperator { step, op });
        };
        if !space
            .view(&state, &mut fluents)
            .satisfies(&operator.precondition)
        {
            return Err(SimulationError::NotApplicable {
                step,
                name: operator.plan_line(),
            });
        }
        if !space.apply(&state, op, &mut next) {
            return Err(SimulationError::UndefinedEffect {
                step,
                name: operator.plan_line(),
            });
        }
        std::mem::swap(&mut state, &mut next);
        cost = cost.saturating_add(operator.cost);
    }
    let view: StateView<'_> = space.view(&state, &mut fluents);
    let goal_reached = view.satisfies(&task.goal);
    let facts = (0..task.facts.len() as FactId)
        .filter(|&f| has_fact(view.facts, f))
        .collect();
    Ok(SimulatedState {
        facts,
        fluents: fluents.clone(),
        goal_reached,
        cost,
    })
}

/// The value of the problem's metric at the end of the plan: `offset +
/// cost / scale` when the metric was compiled into operator costs, the metric
/// expression evaluated in the final state when it was not; `None` when
/// the problem has no metric, the plan does not replay, or the value is
/// undefined.
pub fn metric_value(task: &Task, plan: &Plan) -> Option<f64> {
    let metric = task.metric.as_ref()?;
    let end = simulate(task, &plan.operators).ok()?;
    match &task.cost_model {
        CostModel::FromMetric { .. } => task.cost_model.metric_value_of(plan.cost),
        CostModel::Unit | CostModel::NotOptimised { .. } => metric.expr.eval(&end.fluents),
    }
}

/// [`metric_value`] for a plan the search found in `task`, which replays
/// by construction: a metric compiled into operator costs is then its
/// offset plus the plan's cost, without the replay (which builds a state
/// space: about 1 M instructions on elevators p01); another metric is
/// read at the end of the replay.
pub fn found_plan_metric_value(task: &Task, plan: &Plan) -> Option<f64> {
    match (&task.metric, &task.cost_model) {
        (Some(_), CostModel::FromMetric { .. }) => task.cost_model.metric_value_of(plan.cost),
        _ => metric_value(task, plan),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TaskBuilder;
    use pddl_ground::task::{AssignOp, GroundMetric, NumExpr};

    #[test]
    fn metric_values() {
        let mut b = TaskBuilder::new(2);
        let fuel = b.fluent(10.0);
        let a = b.op_cost("a", &[0], &[1], &[], 3);
        b.num_effect(a, fuel, AssignOp::Decrease, 4.0);
        let mut t = b.build(&[0], &[1]);
        let plan = Plan {
            operators: vec![a],
            cost: 3,
        };
        assert_eq!(metric_value(&t, &plan), None, "no metric");
        assert_eq!(found_plan_metric_value(&t, &plan), None);
        t.metric = Some(GroundMetric {
            minimize: true,
            expr: NumExpr::Const(0.0),
        });
        t.cost_model = CostModel::FromMetric {
            fluents: vec!["total-cost".into()],
            offset: 2.0,
            scale: 1,
        };
        assert_eq!(metric_value(&t, &plan), Some(5.0), "offset + cost");
        assert_eq!(found_plan_metric_value(&t, &plan), Some(5.0));
        t.cost_model = CostModel::FromMetric {
            fluents: vec!["total-cost".into()],
            offset: 2.0,
            scale: 10,
        };
        assert_eq!(metric_value(&t, &plan), Some(2.3), "offset + cost / scale");
        assert_eq!(found_plan_metric_value(&t, &plan), Some(2.3));
        t.metric = Some(GroundMetric {
            minimize: false,
            expr: NumExpr::Fluent(fuel),
        });
        t.cost_model = CostModel::NotOptimised {
            reason: "maximised".into(),
        };
        assert_eq!(metric_value(&t, &plan), Some(6.0), "fuel left at the end");
        assert_eq!(found_plan_metric_value(&t, &plan), Some(6.0));
        let twice = Plan {
            operators: vec![a, a],
            cost: 6,
        };
        assert_eq!(metric_value(&t, &twice), Some(2.0));
        let bad = Plan {
            operators: vec![7],
            cost: 0,
        };
        assert_eq!(metric_value(&t, &bad), None, "no operator 7");
        assert_eq!(
            simulate(&t, &[7]),
            Err(SimulationError::UnknownOperator { step: 0, op: 7 })
        );
    }
}
