//! The facade of the toolkit: read, check, ground, solve and validate PDDL
//! planning tasks with one call each, and the shipped domain generators.
//!
//! The stages live in their own crates, re-exported here:
//! [`syntax`] (parser, checks, diagnostics) → [`ground`] (ground task) →
//! [`search`] (planners); [`validate`] checks plans on the lifted model.
//!
//! # Solving a task
//!
//! [`solve::solve_files`] reads, checks, grounds and searches in one call.
//! The library never prints: progress and plans reach an observer, and a
//! flag that another thread may set stops the search (or the grounding)
//! cleanly, as Ctrl-C does in `plan`.
//!
//! ```
//! use planner::ground::GroundOptions;
//! use planner::ground::Task;
//! use planner::ground::task::Cost;
//! use planner::search::{Outcome, Plan, SearchObserver, SearchOptions};
//! use planner::solve::{plan_text, solve_files};
//! use std::path::Path;
//! use std::sync::atomic::AtomicBool;
//!
//! /// Remembers the cost and the first step of every plan the search
//! /// reports (the task names the plan's operators).
//! #[derive(Default)]
//! struct Plans(Vec<(Cost, String)>);
//!
//! impl SearchObserver for Plans {
//!     fn on_plan(&mut self, task: &Task, plan: &Plan) {
//!         let first = plan.operators.first();
//!         let line = first.map(|&op| task.operators[op as usize].plan_line());
//!         self.0.push((plan.cost, line.unwrap_or_default()));
//!     }
//! }
//!
//! let cancel = AtomicBool::new(false); // set it from another thread to stop
//! let mut plans = Plans::default();
//! let solution = solve_files(
//!     Path::new("domains/hanoi/domain.pddl"),
//!     Path::new("problems/hanoi/hanoi-03.pddl"),
//!     &GroundOptions::default(),
//!     &SearchOptions::optimal_default(), // A* with LM-cut
//!     &cancel,
//!     &mut plans,
//! )?;
//! assert_eq!(solution.result.outcome, Outcome::Solved);
//! let plan = solution.result.plan.as_ref().expect("a plan");
//! assert_eq!(plan.cost, 7); // 2^3 - 1 moves
//! assert!(solution.result.proven_optimal);
//! assert_eq!(plans.0.last(), Some(&(7, "(move d1 d2 peg3)".to_string())));
//! // The plan in the IPC format, as `plan` prints it.
//! let text = plan_text(&solution.task, plan, None);
//! assert!(text.ends_with("; cost = 7 (unit cost)\n"));
//! # Ok::<(), planner::solve::SolveError>(())
//! ```
#![warn(missing_docs)]

pub mod exit;
pub mod generate;
pub mod input;
pub mod load;
pub mod memory;
pub mod puzznic;
pub mod solve;

pub use pddl_ground as ground;
pub use pddl_search as search;
pub use pddl_syntax as syntax;
pub use pddl_validate as validate;
