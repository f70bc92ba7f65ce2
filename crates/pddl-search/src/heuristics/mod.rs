//! Heuristics: one file each, registered in [`create`].
//!
//! A heuristic maps a state to an estimate of the cost to the goal, or to
//! `None` for a recognised dead end. Relaxation heuristics share
//! [`relaxation`]; see its docs for how conditional effects, axioms and
//! numeric conditions are treated.

pub mod blind;
pub mod goal_count;
pub mod hadd;
pub mod hff;
pub mod hmax;
pub mod lmcut;
pub mod relaxation;

use pddl_ground::Task;
use pddl_ground::task::{Cost, OperatorId};

use crate::options::HeuristicKind;
use crate::state::StateView;
pub use relaxation::CostType;

/// A state evaluator.
pub trait Heuristic {
    /// The estimate for `state`, `None` for a dead end. When `preferred`
    /// is given, heuristics that know preferred operators append them
    /// (possibly including operators not applicable in `state`).
    fn evaluate(
        &mut self,
        state: StateView<'_>,
        preferred: Option<&mut Vec<OperatorId>>,
    ) -> Option<Cost>;

    /// Whether [`Heuristic::evaluate`] can produce preferred operators.
    fn has_preferred_operators(&self) -> bool {
        false
    }
}

/// Creates a heuristic for a task, seeing operator costs through `cost_type`.
pub fn create(kind: HeuristicKind, task: &Task, cost_type: CostType) -> Box<dyn Heuristic + '_> {
    match kind {
        HeuristicKind::Blind => Box::new(blind::Blind::new(task, cost_type)),
        HeuristicKind::GoalCount => Box::new(goal_count::GoalCount::new(task)),
        HeuristicKind::HMax => Box::new(hmax::HMax::new(task, cost_type)),
        HeuristicKind::HAdd => Box::new(hadd::HAdd::new(task, cost_type)),
        HeuristicKind::HFF => Box::new(hff::HFF::new(task, cost_type)),
        HeuristicKind::LmCut => Box::new(lmcut::LmCut::new(task, cost_type)),
    }
}

#[cfg(test)]
mod tests;
