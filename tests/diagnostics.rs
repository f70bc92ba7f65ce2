//! The malformed-input corpus: every case under `tests/malformed/` is run
//! through `plan check` and its exit status and rendered diagnostics are
//! compared with an insta snapshot named after the case (see
//! `tests/malformed/README.md` for the naming convention).
//!
//! To (re)write snapshots after a deliberate change:
//! `INSTA_UPDATE=always cargo test --test diagnostics`, then review the
//! `.snap` files under `tests/snapshots/` before committing them.

use assert_cmd::Command;
use std::path::Path;

/// The corpus folder, relative to the package root (the working directory
/// of the command, so that rendered paths are relative and deterministic).
const CORPUS: &str = "tests/malformed";

/// Shared domain for problem cases without a domain of their own.
const SHARED_DOMAIN: &str = "tests/malformed/shared/domain.pddl";

/// One case: its snapshot name and the files given to `plan check`.
struct Case {
    name: String,
    files: Vec<String>,
}

/// The cases of the corpus, in name order.
fn cases() -> Vec<Case> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join(CORPUS);
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .expect("the corpus folder exists")
        .map(|entry| {
            entry
                .expect("readable corpus folder")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.ends_with(".pddl"))
        .collect();
    names.sort();
    names
        .iter()
        .filter(|name| !name.ends_with(".domain.pddl"))
        .map(|file| {
            if let Some(name) = file.strip_suffix(".problem.pddl") {
                let own_domain = format!("{name}.domain.pddl");
                let domain = if names.contains(&own_domain) {
                    format!("{CORPUS}/{own_domain}")
                } else {
                    SHARED_DOMAIN.to_string()
                };
                Case {
                    name: name.to_string(),
                    files: vec![domain, format!("{CORPUS}/{file}")],
                }
            } else {
                let name = file.strip_suffix(".pddl").unwrap_or(file);
                Case {
                    name: name.to_string(),
                    files: vec![format!("{CORPUS}/{file}")],
                }
            }
        })
        .collect()
}

/// Runs `plan check` on a case; returns the exit status and stderr.
fn run(case: &Case) -> (i32, String) {
    let output = Command::cargo_bin("plan")
        .expect("the plan binary is built")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("check")
        .args(&case.files)
        .output()
        .expect("plan runs");
    let status = output.status.code().unwrap_or(-1);
    (status, String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn every_malformed_input_has_its_expected_diagnostics() {
    let cases = cases();
    assert!(
        cases.len() >= 40,
        "only {} cases in the corpus",
        cases.len()
    );
    for case in &cases {
        let (status, stderr) = run(case);
        // Every case is malformed (or warns): none may pass silently, and
        // no input may crash the checker.
        assert!(
            matches!(status, 0..=2),
            "{}: exit status {status}\n{stderr}",
            case.name
        );
        assert!(
            status != 0 || stderr.contains("warning: "),
            "{}: no diagnostic",
            case.name
        );
        let shown = format!(
            "$ plan check {}\nexit status: {status}\n\n{stderr}",
            case.files.join(" ")
        );
        insta::assert_snapshot!(case.name.as_str(), shown);
    }
}

#[test]
fn the_shared_domain_is_clean() {
    let output = Command::cargo_bin("plan")
        .expect("the plan binary is built")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check", SHARED_DOMAIN])
        .output()
        .expect("plan runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stderr.trim(),
        format!("{SHARED_DOMAIN}: 0 errors, 0 warnings")
    );
}
