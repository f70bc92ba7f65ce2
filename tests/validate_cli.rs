//! `plan validate` end to end: exit statuses 0/1/2, text, JSON and JUnit output.

use assert_cmd::Command;
use shared_data::benchmarks;
use std::path::{Path, PathBuf};

fn plans() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/plans"))
}

/// A fresh scratch directory for one test, removed when dropped.
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("scratch dir")
}

/// `plan validate` on blocks probBLOCKS-4-0 of the benchmark set
/// `benchmarks` with the given plan files.
fn validate(
    benchmarks: &Path,
    plan_files: &[PathBuf],
    extra: &[&str],
) -> assert_cmd::assert::Assert {
    let blocks = benchmarks.join("blocks");
    Command::cargo_bin("plan")
        .expect("plan binary")
        .arg("validate")
        .args(extra)
        .arg(blocks.join("domain.pddl"))
        .arg(blocks.join("probBLOCKS-4-0.pddl"))
        .args(plan_files)
        .assert()
}

fn stdout(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

fn stderr(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write scratch file");
    path
}

const BAD_PLAN: &str = "(pick-up b)\n(stack b a)\n(pick-up d)\n(stack c b)\n";

#[test]
fn valid_plan_exits_0() {
    let Some(shared) = benchmarks() else { return };
    let assert = validate(&shared, &[plans().join("blocks/probBLOCKS-4-0.plan")], &[]).code(0);
    let out = stdout(&assert);
    assert!(
        out.contains("Plan valid") && out.contains("Steps: 6"),
        "{out}"
    );
}

#[test]
fn invalid_plan_exits_1_with_step_condition_and_advice() {
    let Some(shared) = benchmarks() else { return };
    let scratch = scratch();
    let dir = scratch.path();
    let assert = validate(&shared, &[write(dir, "bad.plan", BAD_PLAN)], &[]).code(1);
    let out = stdout(&assert);
    assert!(
        out.contains("Failed at step 4 (line 4): (stack c b)"),
        "{out}"
    );
    assert!(out.contains("(holding c) is false"), "{out}");
    assert!(
        out.contains("Advice: make (holding c) true before step 4"),
        "{out}"
    );
}

#[test]
fn verbose_lists_changes() {
    let Some(shared) = benchmarks() else { return };
    let assert = validate(
        &shared,
        &[plans().join("blocks/probBLOCKS-4-0.plan")],
        &["--verbose"],
    )
    .code(0);
    let out = stdout(&assert);
    assert!(out.contains("Step 1: (pick-up b)\n  deleted (clear b)\n  deleted (handempty)\n  deleted (ontable b)\n  added   (holding b)"), "{out}");
}

#[test]
fn malformed_or_missing_plan_exits_2_with_location() {
    let Some(shared) = benchmarks() else { return };
    let scratch = scratch();
    let dir = scratch.path();
    let broken = write(dir, "broken.plan", "(pick-up b)\n(stack b a\n");
    let assert = validate(&shared, std::slice::from_ref(&broken), &[]).code(2);
    assert!(
        stderr(&assert).contains("broken.plan:2:1"),
        "{}",
        stderr(&assert)
    );
    validate(&shared, &[dir.join("missing.plan")], &[]).code(2);
    // Even next to a valid plan, an unusable one makes the status 2.
    validate(
        &shared,
        &[plans().join("blocks/probBLOCKS-4-0.plan"), broken],
        &[],
    )
    .code(2);
}

#[test]
fn bad_domain_or_unsupported_feature_exits_2() {
    let scratch = scratch();
    let dir = scratch.path();
    let domain = write(
        dir,
        "d.pddl",
        "(define (domain d) (:predicates (p)) (:action a :parameters () :effect (p)))",
    );
    let problem = write(
        dir,
        "p.pddl",
        "(define (problem q) (:domain d) (:init) (:goal (p)) (:constraints (always (p))))",
    );
    let plan = write(dir, "a.plan", "(a)\n");
    let run = |domain: &PathBuf, problem: &PathBuf| {
        Command::cargo_bin("plan")
            .expect("plan binary")
            .arg("validate")
            .arg(domain)
            .arg(problem)
            .arg(&plan)
            .assert()
    };
    let assert = run(&domain, &problem).code(2);
    assert!(
        stderr(&assert).contains("constraints"),
        "{}",
        stderr(&assert)
    );
    let broken = write(dir, "broken.pddl", "(define (domain d) (:predicates (p)");
    run(&broken, &problem).code(2);
    let good = write(
        dir,
        "good.pddl",
        "(define (problem q) (:domain d) (:init) (:goal (p)))",
    );
    run(&domain, &good).code(0);
}

#[test]
fn several_plans_json_and_junit() {
    let Some(shared) = benchmarks() else { return };
    let scratch = scratch();
    let dir = scratch.path();
    let junit = dir.join("report.xml");
    let files = [
        plans().join("blocks/probBLOCKS-4-0.plan"),
        write(dir, "bad.plan", BAD_PLAN),
    ];
    let assert = validate(
        &shared,
        &files,
        &["--json", "--junit", junit.to_str().expect("utf-8 path")],
    )
    .code(1);
    let json: serde_json::Value = serde_json::from_str(&stdout(&assert)).expect("JSON output");
    assert_eq!(json["summary"]["valid"], 1);
    assert_eq!(json["summary"]["invalid"], 1);
    assert_eq!(json["plans"][0]["valid"], true);
    assert_eq!(json["plans"][0]["cost"], 6.0);
    assert_eq!(json["plans"][1]["failure"]["step"], 4);
    assert_eq!(json["plans"][1]["failure"]["kind"], "precondition-false");
    assert_eq!(
        json["plans"][1]["failure"]["advice"][0],
        "make (holding c) true before step 4"
    );
    let xml = std::fs::read_to_string(&junit).expect("JUnit file written");
    assert!(
        xml.contains("<testsuite name=\"plan validate\" tests=\"2\" failures=\"1\" errors=\"0\">"),
        "{xml}"
    );
    assert!(
        xml.contains("name=\"") && xml.contains("bad.plan\">"),
        "{xml}"
    );
    assert!(
        xml.contains("<failure message=\"the precondition of `stack` does not hold\""),
        "{xml}"
    );
    assert_eq!(xml.matches("<testcase ").count(), 2, "{xml}");
}

/// With standard output closed, validation still succeeds and the JUnit
/// file holds the report alone. `plan` has its own C `main`, so it opens
/// `/dev/null` on a closed descriptor itself, as Rust's start-up would;
/// this guards that path (today every file is opened only after the text
/// report is printed, or closed before, so the report could not leak
/// into the file even without it).
#[cfg(unix)]
#[test]
fn closed_standard_output_does_not_leak_into_the_junit_file() {
    let scratch = scratch();
    let dir = scratch.path();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let domain = root.join("domains/blocksworld/domain.pddl");
    let problem = root.join("problems/blocksworld/blocks-04-s1.pddl");
    let plan_file = dir.join("solution.plan");
    Command::cargo_bin("plan")
        .expect("plan binary")
        .arg("-q")
        .arg("-o")
        .arg(&plan_file)
        .arg(&domain)
        .arg(&problem)
        .assert()
        .success();
    let junit = dir.join("report.xml");
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" >&-")
        .arg(assert_cmd::cargo::cargo_bin("plan"))
        .arg("validate")
        .arg("--junit")
        .arg(&junit)
        .arg(&domain)
        .arg(&problem)
        .arg(&plan_file)
        .status()
        .expect("sh runs");
    assert!(status.success(), "{status}");
    let xml = std::fs::read_to_string(&junit).expect("JUnit file written");
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert!(!xml.contains("Plan valid"), "{xml}");
    assert_eq!(xml.matches("<testcase ").count(), 1, "{xml}");
}
