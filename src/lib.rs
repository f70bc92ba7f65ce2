//! The facade of the toolkit: read, check, ground, solve and validate PDDL
//! planning tasks with one call each, and the shipped domain generators.
//!
//! The stages live in their own crates, re-exported here:
//! [`syntax`] (parser, checks, diagnostics) → [`ground`] (ground task) →
//! [`search`] (planners); [`validate`] checks plans on the lifted model.

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
