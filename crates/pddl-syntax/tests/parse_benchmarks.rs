//! Parses every domain and problem listed in the shared benchmark set.

use pddl_syntax::ast::Definition;
use pddl_syntax::{SourceFile, parse_definition, parse_domain, parse_problem};
use shared_data::benchmarks;
use std::collections::BTreeSet;
use std::path::Path;

fn render(path: &Path, text: &str, diagnostics: &[pddl_syntax::Diagnostic]) -> String {
    let file = SourceFile::new(path.display().to_string(), text);
    diagnostics.iter().map(|d| d.render(&file)).collect()
}

#[test]
fn every_benchmark_file_parses() {
    let Some(dir) = benchmarks() else { return };
    let tasks = shared_data::tasks(&dir);
    assert!(tasks.len() >= 600, "tasks.tsv lists {} tasks", tasks.len());
    let domains: BTreeSet<&String> = tasks.iter().map(|t| &t.domain).collect();
    let mut failures = Vec::new();
    let mut actions = 0;
    for domain in &domains {
        let path = dir.join(domain);
        let text = std::fs::read_to_string(&path).expect("domain is readable");
        match parse_domain(&text) {
            Ok(parsed) => actions += parsed.actions.len(),
            Err(diagnostics) => failures.push(render(&path, &text, &diagnostics)),
        }
    }
    let mut init_facts = 0;
    for task in &tasks {
        let problem = &task.problem;
        let path = dir.join(problem);
        let text = std::fs::read_to_string(&path).expect("problem is readable");
        match parse_problem(&text) {
            Ok(parsed) => {
                assert!(parsed.goal.is_some(), "{problem} has a goal");
                init_facts += parsed.init.len();
            }
            Err(diagnostics) => failures.push(render(&path, &text, &diagnostics)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} files failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(actions > 100, "only {actions} actions parsed");
    assert!(init_facts > 10_000, "only {init_facts} init facts parsed");
}

#[test]
fn blocks_domain_has_its_known_shape() {
    let Some(dir) = benchmarks() else { return };
    let text = std::fs::read_to_string(dir.join("blocks/domain.pddl")).expect("readable");
    let Ok(Definition::Domain(domain)) = parse_definition(&text) else {
        panic!("blocks domain does not parse")
    };
    let actions: Vec<&str> = domain.actions.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(actions, ["pick-up", "put-down", "stack", "unstack"]);
    assert_eq!(domain.predicates.len(), 5);
    assert_eq!(
        &text[domain.actions[0].span.start..domain.actions[0].span.start + 8],
        "(:action"
    );
}
