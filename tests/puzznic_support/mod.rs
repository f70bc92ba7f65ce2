//! Shared by the Puzznic integration tests.

use pddl_syntax::SourceFile;
use planner::puzznic::{self, Level, Rules};
use std::path::Path;

/// Reads and parses a level file; a malformed one fails the test with
/// its rendered diagnostics.
#[allow(dead_code)] // Not every test binary reads level files.
pub fn load_level(path: &Path) -> Level {
    let file = SourceFile::new(
        path.display().to_string(),
        std::fs::read_to_string(path).expect("readable"),
    );
    puzznic::parse_level(&file)
        .unwrap_or_else(|e| panic!("{}", e.iter().map(|d| d.render(&file)).collect::<String>()))
}

/// The independent lifted validator accepts a plan on the domain and the
/// generated problem, with the number of moves as its metric value.
#[allow(dead_code)] // Not every test binary validates plans.
pub fn assert_valid_for_the_validator(
    level: &Level,
    name: &str,
    rules: Rules,
    plan_lines: &[String],
    moves: usize,
) {
    let domain = pddl_syntax::parse_domain(rules.domain()).expect("domain parses");
    let problem_text = puzznic::problem_pddl(level, &puzznic::problem_name(name));
    let problem = pddl_syntax::parse_problem(&problem_text).expect("problem parses");
    let validator = planner::validate::Validator::new(&domain, &problem).expect("validator set up");
    let plan = planner::validate::parse_plan(&plan_lines.join("\n")).expect("plan parses");
    let report = validator.validate(&plan);
    assert!(report.is_valid(), "{name}: {:?}", report.failure);
    assert_eq!(report.steps_total, plan_lines.len(), "{name}");
    assert_eq!(report.metric.map(|m| m.value), Some(moves as f64), "{name}");
}
