//! Every benchmark domain and problem in `../shared/benchmarks` parses
//! and passes the semantic checks without errors (warnings are allowed:
//! many benchmarks use constructs without declaring their requirement).

use pddl_syntax::check::{check_domain, check_problem};
use pddl_syntax::{Diagnostic, SourceFile, parse_domain, parse_problem};
use shared_data::benchmarks;
use std::collections::HashMap;
use std::path::Path;

/// Renders the errors among `diagnostics` against `file`.
fn errors(file: &SourceFile, diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.render(file))
        .collect()
}

fn read(dir: &Path, relative: &str) -> SourceFile {
    let path = dir.join(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    SourceFile::new(relative, text)
}

#[test]
fn every_benchmark_checks_without_errors() {
    let Some(dir) = benchmarks() else { return };
    let mut domains = HashMap::new();
    let mut failures = Vec::new();
    let mut problems_checked = 0;
    for task in shared_data::tasks(&dir) {
        let domain = domains.entry(task.domain.clone()).or_insert_with(|| {
            let file = read(&dir, &task.domain);
            match parse_domain(&file.text) {
                Ok(domain) => {
                    failures.extend(errors(&file, &check_domain(&domain)));
                    Some(domain)
                }
                Err(diagnostics) => {
                    failures.extend(errors(&file, &diagnostics));
                    None
                }
            }
        });
        let Some(domain) = domain else { continue };
        let file = read(&dir, &task.problem);
        match parse_problem(&file.text) {
            Ok(problem) => failures.extend(errors(&file, &check_problem(domain, &problem))),
            Err(diagnostics) => failures.extend(errors(&file, &diagnostics)),
        }
        problems_checked += 1;
    }
    assert!(
        failures.is_empty(),
        "{} errors:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // tasks.tsv lists 710 files; make sure the loop really saw them.
    assert!(
        problems_checked >= 600,
        "only {problems_checked} problems checked"
    );
    assert!(domains.len() >= 30, "only {} domains", domains.len());
}
