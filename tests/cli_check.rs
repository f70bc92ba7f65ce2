//! Exit statuses and output of `plan check`.

use assert_cmd::Command;

/// `plan check` run from the package root, so paths are relative.
fn plan_check() -> Command {
    let mut command = Command::cargo_bin("plan").expect("the plan binary is built");
    command.current_dir(env!("CARGO_MANIFEST_DIR")).arg("check");
    command
}

/// Runs `plan check` with `args`; returns the exit status and stderr.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let output = plan_check().args(args).output().expect("plan runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

const SHARED_DOMAIN: &str = "tests/malformed/shared/domain.pddl";

#[test]
fn clean_domain_and_problem_exit_0() {
    let problem = "tests/malformed/problem-domain-name-mismatch.problem.pddl";
    let (status, stderr) = run(&[SHARED_DOMAIN]);
    assert_eq!(status, Some(0), "{stderr}");
    // Warnings alone still succeed.
    let (status, stderr) = run(&[SHARED_DOMAIN, problem]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!("{problem}: 0 errors, 1 warning\n")),
        "{stderr}"
    );
}

#[test]
fn deny_warnings_turns_warnings_into_exit_1() {
    let (status, stderr) = run(&["--deny-warnings", "tests/malformed/requirement-typing.pddl"]);
    assert_eq!(status, Some(1), "{stderr}");
}

#[test]
fn semantic_errors_exit_1_and_every_error_is_reported() {
    let (status, stderr) = run(&["tests/malformed/multiple-semantic-errors.pddl"]);
    assert_eq!(status, Some(1), "{stderr}");
    assert_eq!(
        stderr.matches("\nerror: ").count() + usize::from(stderr.starts_with("error: ")),
        5,
        "{stderr}"
    );
    assert!(
        stderr.ends_with("tests/malformed/multiple-semantic-errors.pddl: 5 errors, 0 warnings\n"),
        "{stderr}"
    );
}

#[test]
fn quiet_prints_only_the_summary() {
    let (status, stderr) = run(&["-q", "tests/malformed/multiple-semantic-errors.pddl"]);
    assert_eq!(status, Some(1));
    assert_eq!(
        stderr,
        "tests/malformed/multiple-semantic-errors.pddl: 5 errors, 0 warnings\n"
    );
}

#[test]
fn syntax_errors_exit_2() {
    let (status, stderr) = run(&["tests/malformed/syntax-truncated.pddl"]);
    assert_eq!(status, Some(2), "{stderr}");
    // A syntax error in the problem is an input error too.
    let (status, stderr) = run(&[
        SHARED_DOMAIN,
        "tests/malformed/syntax-variable-in-init.problem.pddl",
    ]);
    assert_eq!(status, Some(2), "{stderr}");
}

#[test]
fn unreadable_and_non_utf8_files_exit_2() {
    let (status, stderr) = run(&["tests/malformed/no-such-file.pddl"]);
    assert_eq!(status, Some(2));
    assert!(
        stderr.starts_with("error: cannot read `tests/malformed/no-such-file.pddl`"),
        "{stderr}"
    );
    let (status, stderr) = run(&[SHARED_DOMAIN, "tests/malformed/no-such-problem.pddl"]);
    assert_eq!(status, Some(2));
    assert!(stderr.contains("no-such-problem.pddl"), "{stderr}");
    let (status, stderr) = run(&["tests/malformed/syntax-invalid-utf8.pddl"]);
    assert_eq!(status, Some(2));
    assert!(stderr.contains("invalid UTF-8"), "{stderr}");
}

/// Older benchmark files carry Latin-1 bytes in comments (authors'
/// names): they are read, as Fast Downward reads them, and the task
/// solves; in code such a byte stays an error (above).
#[test]
fn bytes_that_are_not_utf8_in_comments_are_read() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_check-latin1");
    std::fs::create_dir_all(&dir).unwrap();
    let domain = dir.join("domain.pddl");
    let mut bytes = b"; Blocks world, after J\xf6rg Hoffmann's version\n".to_vec();
    bytes.extend(std::fs::read("domains/blocksworld/domain.pddl").unwrap());
    bytes.extend(b"; caf\xe9 at the end, no newline");
    std::fs::write(&domain, bytes).unwrap();
    let domain = domain.to_str().unwrap();
    let (status, stderr) = run(&[domain]);
    assert_eq!(status, Some(0), "{stderr}");
    let output = Command::cargo_bin("plan")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([domain, "problems/blocksworld/blocks-04-s1.pddl", "-q"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).contains("; cost = "));
}

#[test]
fn missing_arguments_are_a_usage_error() {
    let (status, _) = run(&[]);
    assert_eq!(status, Some(2));
}
