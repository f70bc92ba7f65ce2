//! Loading the public benchmarks of `../shared` (found by
//! [`shared_data::benchmarks`]) for this crate's integration tests (each
//! test file includes this module).

use std::path::Path;

use pddl_ground::{GroundOptions, Task, ground};
pub use shared_data::benchmarks;

/// Parses and grounds `domain` and `problem` (paths relative to `dir`).
pub fn try_load(dir: &Path, domain: &str, problem: &str) -> Result<Task, String> {
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{f}: {e}"));
    let d = pddl_syntax::parse_domain(&read(domain)?).map_err(|e| format!("{domain}: {e:?}"))?;
    let p = pddl_syntax::parse_problem(&read(problem)?).map_err(|e| format!("{problem}: {e:?}"))?;
    ground(&d, &p, &GroundOptions::default()).map_err(|e| format!("{problem}: {e}"))
}

/// [`try_load`], failing the test on error.
#[allow(dead_code)] // not every test file uses it
pub fn load(dir: &Path, domain: &str, problem: &str) -> Task {
    try_load(dir, domain, problem).unwrap_or_else(|e| panic!("{e}"))
}
