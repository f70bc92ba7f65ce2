//! Exit statuses and output of `plan DOMAIN PROBLEM`: a plan that the
//! validator accepts, JSON, `-o`, and every documented way of stopping.

use std::io::{BufRead, BufReader};
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;

const BLOCKS_DOMAIN: &str = "domains/blocksworld/domain.pddl";
const BLOCKS_PROBLEM: &str = "problems/blocksworld/blocks-08-s1.pddl";
const TILES_DOMAIN: &str = "domains/sliding-tiles/domain.pddl";
/// A 15-puzzle far beyond blind A* within a second or a few MiB.
const HARD_TILES: &str = "problems/sliding-tiles/tiles4x4-k60-s2.pddl";

/// `plan` run from the package root, so paths are relative.
fn plan() -> Command {
    let mut command = Command::cargo_bin("plan").expect("the plan binary is built");
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// Runs `plan` with `args`; returns the exit status, stdout and stderr.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let output = plan().args(args).output().expect("plan runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Has `plan validate` check the plan in `plan_file` for the blocks
/// problem; returns the exit status and stderr.
fn validate_blocks_plan(plan_file: &std::path::Path) -> (Option<i32>, String) {
    let plan_file = plan_file.to_str().unwrap();
    let (status, _, stderr) = run(&["validate", BLOCKS_DOMAIN, BLOCKS_PROBLEM, plan_file]);
    (status, stderr)
}

/// Blind A* with JSON output on a task it cannot finish, plus `limit`.
fn run_blind_on_hard_tiles(limit: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec![TILES_DOMAIN, HARD_TILES, "--search", "astar"];
    args.extend(["--heuristic", "blind", "--json"]);
    args.extend_from_slice(limit);
    run(&args)
}

fn json(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

#[test]
fn solves_and_the_printed_plan_validates() {
    let dir = tempdir("solve");
    let plan_file = dir.join("plan.txt");
    for extra in [
        &[][..],
        &["--novelty"],
        &["--search", "eager-greedy", "--novelty"],
        &["--threads", "1"],
        &["--dead-end-traps"],
        &["--optimal", "--dead-end-traps"],
    ] {
        let mut args = vec![BLOCKS_DOMAIN, BLOCKS_PROBLEM, "-q"];
        args.extend_from_slice(extra);
        let (status, stdout, stderr) = run(&args);
        assert_eq!(status, Some(0), "{extra:?}: {stderr}");
        let steps = stdout.lines().filter(|l| l.starts_with('(')).count();
        assert!(steps > 0, "{extra:?}: {stdout}");
        assert!(
            stdout.contains(&format!("; cost = {steps} (unit cost)")),
            "{extra:?}: {stdout}"
        );
        std::fs::write(&plan_file, &stdout).unwrap();
        let (status, stderr) = validate_blocks_plan(&plan_file);
        assert_eq!(status, Some(0), "{extra:?}: {stderr}");
    }
}

#[test]
fn output_file_holds_the_plan_and_json_reports_it() {
    let dir = tempdir("json");
    let plan_file = dir.join("plan.txt");
    let (status, stdout, stderr) = run(&[
        BLOCKS_DOMAIN,
        BLOCKS_PROBLEM,
        "--optimal",
        "--json",
        "-o",
        plan_file.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(0), "{stderr}");
    let report = json(&stdout);
    assert_eq!(report["status"], "solved");
    assert_eq!(report["optimal"], true);
    assert_eq!(report["lower_bound"], report["cost"]);
    let written = std::fs::read_to_string(&plan_file).unwrap();
    let steps = written.lines().filter(|l| l.starts_with('(')).count();
    assert_eq!(report["cost"].as_f64(), Some(steps as f64));
    assert_eq!(report["plan"].as_array().map(Vec::len), Some(steps));
    assert!(report["expanded"].as_u64().unwrap() > 0);
}

#[test]
fn output_file_replaces_a_longer_existing_file_entirely() {
    // `-o` overwrites in place and then cuts the file to the new length
    // (see src/bin/plan/output.rs): nothing of the old content may remain.
    let dir = tempdir("overwrite");
    let plan_file = dir.join("plan.txt");
    let old = "(stale step)\n".repeat(1000);
    std::fs::write(&plan_file, &old).unwrap();
    let (status, stdout, stderr) = run(&[
        BLOCKS_DOMAIN,
        BLOCKS_PROBLEM,
        "-o",
        plan_file.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(!stdout.contains("(stale"), "{stdout}");
    let written = std::fs::read_to_string(&plan_file).unwrap();
    assert!(written.len() < old.len());
    assert!(!written.contains("stale"), "{written}");
    let (status, stderr) = validate_blocks_plan(&plan_file);
    assert_eq!(status, Some(0), "{stderr}");
}

#[cfg(unix)]
#[test]
fn output_file_may_be_a_device() {
    for device in ["/dev/null", "/dev/stdout"] {
        let (status, stdout, stderr) = run(&[BLOCKS_DOMAIN, BLOCKS_PROBLEM, "-q", "-o", device]);
        assert_eq!(status, Some(0), "{device}: {stderr}");
        if device == "/dev/stdout" {
            assert!(stdout.contains("; cost = "), "{stdout}");
        }
    }
}

#[test]
fn exhausted_search_space_exits_4() {
    let dir = tempdir("unsolvable");
    let problem = dir.join("queens-03.pddl");
    let (status, _, stderr) = run(&[
        "generate",
        "queens",
        "--n",
        "3",
        "-o",
        problem.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(0), "{stderr}");
    let (status, stdout, stderr) = run(&[
        "domains/queens/domain.pddl",
        problem.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(status, Some(4), "{stderr}");
    assert_eq!(json(&stdout)["status"], "unsolvable");
    assert_eq!(json(&stdout)["lower_bound"], serde_json::Value::Null);
}

/// A goal that grounding proves impossible is explained, on the `-q`
/// line as after the statistics.
#[test]
fn an_impossible_goal_names_its_literal() {
    let (domain, problem) = task_files(
        "impossible-goal",
        "(define (domain roads) (:predicates (at ?p) (road ?a ?b))
           (:action drive :parameters (?a ?b) :precondition (and (at ?a) (road ?a ?b))
             :effect (and (not (at ?a)) (at ?b))))",
        "(define (problem one-way) (:domain roads) (:objects home town)
           (:init (at town) (road home town)) (:goal (at home)))",
    );
    let files = [domain.to_str().unwrap(), problem.to_str().unwrap()];
    let reason =
        "the goal can never hold: nothing makes `(at home)` true, even ignoring delete effects";
    assert_unsolvable_explained(&files, reason, serde_json::json!(["(at home)"]));
    let (_, stdout, _) = run(&[BLOCKS_DOMAIN, BLOCKS_PROBLEM, "--json"]);
    assert_eq!(json(&stdout)["impossible_goal"], serde_json::json!([]));
    // `plan ground` grounds it (exit 0) and says the same.
    let (status, _, stderr) = run(&[&["ground"], &files[..]].concat());
    assert_eq!(status, Some(0), "{stderr}");
    assert!(stderr.contains(&format!("note: {reason}")), "{stderr}");
    // A comparison of fluents that nothing changes.
    std::fs::write(
        &domain,
        "(define (domain tank) (:requirements :numeric-fluents) (:predicates (full))
           (:functions (capacity))
           (:action fill :parameters () :precondition (not (full)) :effect (full)))",
    )
    .unwrap();
    std::fs::write(
        &problem,
        "(define (problem small) (:domain tank) (:init (= (capacity) 5))
           (:goal (and (full) (> (capacity) 10))))",
    )
    .unwrap();
    let (status, _, stderr) = run(&[&["-q"], &files[..]].concat());
    assert_eq!(status, Some(4), "{stderr}");
    assert_eq!(
        stderr,
        "unsolvable: the goal can never hold: nothing makes `(> (capacity) 10)` true \
         (its fluents never change)\n"
    );
    // An atom true at first that the goal needs false and nothing deletes
    // (`full` changes, but only ever becomes true).
    std::fs::write(
        &problem,
        "(define (problem spilt) (:domain tank) (:init (full) (= (capacity) 5))
           (:goal (not (full))))",
    )
    .unwrap();
    let (status, _, stderr) = run(&[&["-q"], &files[..]].concat());
    assert_eq!(status, Some(4), "{stderr}");
    assert_eq!(
        stderr,
        "unsolvable: the goal can never hold: nothing makes `(full)` false\n"
    );
}

/// A task whose goal the numeric relaxation proves out of reach from the
/// start (here: moving needs fuel, which only goes down) is explained
/// after the search proves it unsolvable, on the `-q` line and after the
/// statistics.
#[test]
fn a_goal_out_of_the_relaxations_reach_is_named() {
    let (domain, problem) = task_files(
        "unreachable-goal",
        "(define (domain fuel) (:requirements :numeric-fluents)
           (:predicates (at ?p) (road ?a ?b)) (:functions (fuel))
           (:action drive :parameters (?a ?b)
             :precondition (and (at ?a) (road ?a ?b) (>= (fuel) 1))
             :effect (and (not (at ?a)) (at ?b) (decrease (fuel) 1))))",
        "(define (problem empty-tank) (:domain fuel) (:objects home town)
           (:init (at home) (road home town) (= (fuel) 0))
           (:goal (and (at town) (>= (fuel) 0))))",
    );
    let files = [domain.to_str().unwrap(), problem.to_str().unwrap()];
    let reason =
        "from the initial state, even ignoring delete effects, nothing makes `(at town)` true";
    assert_unsolvable_explained(&files, reason, serde_json::json!(["(at town)"]));
    // With fuel, the same task is solved.
    assert_solved_after_replacing(&problem, "(= (fuel) 0)", "(= (fuel) 1)");
}

/// A goal of several alternatives out of reach names, for each
/// alternative, a literal it needs: here the city (only a highway leads
/// there, which takes more fuel than the tank ever holds) and a full
/// tank; the third alternative needs the city too. Where grounding has
/// dropped an alternative (no road to the lake), its literal is named
/// after them.
#[test]
fn a_disjunctive_goal_out_of_reach_names_a_literal_of_each_alternative() {
    let (domain, problem) = task_files(
        "unreachable-alternatives",
        "(define (domain fuel)
           (:requirements :numeric-fluents :disjunctive-preconditions)
           (:predicates (at ?p) (road ?a ?b) (highway ?a ?b)) (:functions (fuel))
           (:action drive :parameters (?a ?b)
             :precondition (and (at ?a) (road ?a ?b) (>= (fuel) 1))
             :effect (and (not (at ?a)) (at ?b) (decrease (fuel) 1)))
           (:action speed :parameters (?a ?b)
             :precondition (and (at ?a) (highway ?a ?b) (>= (fuel) 3))
             :effect (and (not (at ?a)) (at ?b) (decrease (fuel) 3))))",
        "(define (problem far) (:domain fuel) (:objects home town city shop lake)
           (:init (at home) (road home town) (highway town city) (road home shop)
                  (= (fuel) 1))
           (:goal (or (at city) (and (at shop) (>= (fuel) 2))
                      (and (at town) (>= (fuel) 5) (at city)) (at lake))))",
    );
    let files = [domain.to_str().unwrap(), problem.to_str().unwrap()];
    let reason = "from the initial state, even ignoring delete effects, nothing makes \
                  `(at city)` true, nor `(>= (fuel) 2)` true, nor `(at lake)` true";
    assert_unsolvable_explained(
        &files,
        reason,
        serde_json::json!(["(at city)", "(>= (fuel) 2)", "(at lake)"]),
    );
    // With a fuller tank the shop alternative is in reach, and solved.
    assert_solved_after_replacing(&problem, "(= (fuel) 1)", "(= (fuel) 3)");
}

/// Operators left out because two parameters naming one object make them
/// change one value twice are named where the task ends without a plan:
/// on the `-q` line, after the statistics and by `plan ground`.
#[test]
fn operators_left_out_for_double_updates_are_named() {
    let dir = tempdir("double-updates");
    let domain = dir.join("domain.pddl");
    let problem = dir.join("problem.pddl");
    std::fs::write(
        &domain,
        "(define (domain twice) (:requirements :numeric-fluents)
           (:predicates (pair ?x ?y) (done)) (:functions (count ?x))
           (:action touch :parameters (?x ?y) :precondition (pair ?x ?y)
             :effect (and (done) (increase (count ?x) 1) (increase (count ?y) 1))))",
    )
    .unwrap();
    let write_problem = |pairs: &str| {
        std::fs::write(
            &problem,
            format!(
                "(define (problem p) (:domain twice) (:objects a b)
                   (:init {pairs} (= (count a) 0) (= (count b) 0)) (:goal (done)))"
            ),
        )
        .unwrap()
    };
    write_problem("(pair a a)");
    let files = [domain.to_str().unwrap(), problem.to_str().unwrap()];
    let note = "`(touch a a)` was left out: it changes `(count a)` twice in one step, \
                which PDDL 2.1 leaves undefined";
    let (status, _, stderr) = run(&[&["-q"], &files[..]].concat());
    assert_eq!(status, Some(4), "{stderr}");
    assert_eq!(stderr, format!("unsolvable: note: {note}\n"));
    let (_, _, stderr) = run(&[&["ground"], &files[..]].concat());
    assert!(stderr.contains(&format!("note: {note}")), "{stderr}");
    write_problem("(pair a a) (pair b b)");
    let (status, _, stderr) = run(&files);
    assert_eq!(status, Some(4), "{stderr}");
    assert!(
        stderr.contains("note: `(touch a a)` and 1 other operator were left out: each changes"),
        "{stderr}"
    );
    // With a plan, nothing is said.
    write_problem("(pair a a) (pair a b)");
    let (status, stdout, stderr) = run(&files);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(stdout.starts_with("(touch a b)"), "{stdout}");
    assert!(!stderr.contains("left out"), "{stderr}");
}

/// A PDDL3 preference metric is an unsupported feature (exit 3), named
/// as such rather than as an undeclared `is-violated` and object.
#[test]
fn a_preference_metric_is_unsupported() {
    let (status, _, stderr) = run(&[
        "tests/malformed/problem-preference-metric.domain.pddl",
        "tests/malformed/problem-preference-metric.problem.pddl",
    ]);
    assert_eq!(status, Some(3), "{stderr}");
    assert!(
        stderr.contains("unsupported: PDDL3 preferences (`is-violated`)"),
        "{stderr}"
    );
    assert!(!stderr.contains("undeclared"), "{stderr}");
}

/// PDDL 3.1's object fluents are an unsupported feature (exit 3) wherever
/// they show: a function's value as an argument, compared with a
/// variable, compared with an object, or only declared.
#[test]
fn object_fluents_are_unsupported() {
    let problem = "tests/malformed/problem-object-fluent-comparison.problem.pddl";
    let cases = [
        (
            "tests/malformed/syntax-function-term-argument.pddl",
            "unsupported: function terms as arguments",
        ),
        (
            "tests/malformed/syntax-object-fluent-variable.pddl",
            "unsupported: variable `?from` compared as a function's value",
        ),
        (
            "tests/malformed/problem-object-fluent-comparison.domain.pddl",
            "unsupported: object fluents (:object-fluents): `pos` has objects as values",
        ),
    ];
    for (domain, expected) in cases {
        let (status, _, stderr) = run(&[domain, problem]);
        assert_eq!(status, Some(3), "{domain}: {stderr}");
        assert!(stderr.contains(expected), "{domain}: {stderr}");
        assert!(!stderr.contains("undeclared"), "{domain}: {stderr}");
    }
    // Declared and assigned, never compared: the grounder refuses it.
    let scratch = tempfile::tempdir().expect("temp dir");
    let goal_free = scratch.path().join("problem.pddl");
    let text = std::fs::read_to_string(problem).expect("read");
    std::fs::write(&goal_free, text.replace("(= (pos t) c)", "(at t c)")).expect("write");
    let (status, _, stderr) = run(&[
        "tests/malformed/problem-object-fluent-comparison.domain.pddl",
        goal_free.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(status, Some(3), "{stderr}");
    assert!(stderr.contains("object fluent `pos`"), "{stderr}");
}

#[test]
fn time_limit_exits_5_with_statistics() {
    let (status, stdout, stderr) = run_blind_on_hard_tiles(&["--time-limit", "0.5"]);
    assert_eq!(status, Some(5), "{stderr}");
    let report = json(&stdout);
    assert_eq!(report["status"], "time limit");
    assert!(report["expanded"].as_u64().unwrap() > 0);
    assert_eq!(report["plan"], serde_json::Value::Null);
    // Blind A*'s f layers on unit costs: at least the first, at most the
    // optimum (38, tests/domains_support).
    let bound = report["lower_bound"].as_u64().expect("a bound");
    assert!((1..=38).contains(&bound), "{bound}");
}

#[test]
fn a_stopped_optimal_search_states_its_lower_bound_and_a_plan_its_own() {
    let (status, _, stderr) = run(&[TILES_DOMAIN, HARD_TILES, "--optimal", "--time-limit", "0.3"]);
    assert_eq!(status, Some(5), "{stderr}");
    let bound: u64 = stderr
        .lines()
        .find_map(|line| line.strip_prefix("no plan costs less than "))
        .unwrap_or_else(|| panic!("no bound line: {stderr}"))
        .parse()
        .expect("a number");
    assert!((1..=38).contains(&bound), "{bound}");
    // The default's plan, with LM-cut's estimate of the initial state.
    let (status, stdout, stderr) = run(&[BLOCKS_DOMAIN, BLOCKS_PROBLEM, "--json"]);
    assert_eq!(status, Some(0), "{stderr}");
    let report = json(&stdout);
    let (cost, bound) = (report["cost"].as_u64(), report["lower_bound"].as_u64());
    assert!(bound.is_some_and(|b| b >= 1 && Some(b) <= cost), "{report}");
}

#[test]
fn a_quiet_stopped_search_says_why_in_one_line_with_its_bound() {
    let (status, stdout, stderr) = run(&[
        TILES_DOMAIN,
        HARD_TILES,
        "--optimal",
        "--time-limit",
        "0.3",
        "-q",
    ]);
    assert_eq!(status, Some(5), "{stderr}");
    assert_eq!(stdout, "");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    let bound: u64 = lines[0]
        .strip_prefix("time limit: no plan costs less than ")
        .unwrap_or_else(|| panic!("not the quiet summary: {stderr}"))
        .parse()
        .expect("a number");
    assert!((1..=38).contains(&bound), "{bound}");
}

#[test]
fn memory_limit_exits_6() {
    let (status, stdout, stderr) = run_blind_on_hard_tiles(&["--memory-limit", "20"]);
    assert_eq!(status, Some(6), "{stderr}");
    assert_eq!(json(&stdout)["status"], "memory limit");
}

/// `--validate` has the independent validator check the plan before it
/// is printed, and says so; `--json` reports it (null where not asked).
#[test]
fn validate_flag_has_the_plan_checked_independently() {
    let (status, stdout, stderr) = run(&[BLOCKS_DOMAIN, BLOCKS_PROBLEM, "--validate"]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(
        stderr.contains("validated: the independent validator accepts the plan"),
        "{stderr}"
    );
    assert!(stdout.contains("; cost = "), "{stdout}");
    let (status, stdout, stderr) = run(&[BLOCKS_DOMAIN, BLOCKS_PROBLEM, "--validate", "--json"]);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(json(&stdout)["validated"], true, "{stdout}");
    let (_, stdout, stderr) = run(&[BLOCKS_DOMAIN, BLOCKS_PROBLEM, "--json"]);
    assert_eq!(
        json(&stdout)["validated"],
        serde_json::Value::Null,
        "{stdout}"
    );
    assert!(!stderr.contains("validated"), "{stderr}");
}

/// A problem given alone is solved with the domain beside it, found as
/// Fast Downward's driver finds it; where there is none, or the file is
/// itself the domain, the error says so (exit 2).
#[test]
fn a_problem_alone_is_solved_with_the_domain_beside_it() {
    let dir = tempdir("domain-beside");
    for (from, to) in [(BLOCKS_DOMAIN, "domain.pddl"), (BLOCKS_PROBLEM, "p01.pddl")] {
        std::fs::copy(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(from),
            dir.join(to),
        )
        .unwrap();
    }
    let problem = dir.join("p01.pddl");
    let plan_file = dir.join("p01.plan");
    let (status, _, stderr) = run(&[problem.to_str().unwrap(), "-o", plan_file.to_str().unwrap()]);
    assert_eq!(status, Some(0), "{stderr}");
    let domain = dir.join("domain.pddl");
    assert!(
        stderr.starts_with(&format!("domain: {}\n", domain.display())),
        "{stderr}"
    );
    let (status, stderr) = validate_blocks_plan(&plan_file);
    assert_eq!(status, Some(0), "{stderr}");
    // The domain alone, and a problem with no domain beside it.
    let (status, _, stderr) = run(&[domain.to_str().unwrap()]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.contains("is the domain file beside itself"),
        "{stderr}"
    );
    let (status, _, stderr) = run(&[BLOCKS_PROBLEM]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.contains("no domain file beside") && stderr.contains("`domain.pddl`"),
        "{stderr}"
    );
}

/// The limits take units as Fast Downward's driver does: `300ms` stops
/// the search as `0.3` does, `20M` as `20`, and a `1G` limit leaves room
/// to solve; a unit `plan` does not know is an input error that lists
/// the ones it does.
#[test]
fn limits_take_units() {
    let (status, stdout, stderr) = run_blind_on_hard_tiles(&["--time-limit", "300ms"]);
    assert_eq!(status, Some(5), "{stderr}");
    assert_eq!(json(&stdout)["status"], "time limit");
    let (status, stdout, stderr) = run_blind_on_hard_tiles(&["--memory-limit", "20M"]);
    assert_eq!(status, Some(6), "{stderr}");
    assert_eq!(json(&stdout)["status"], "memory limit");
    let limits = ["--time-limit", "1m", "--memory-limit", "1G", "-q"];
    let (status, stdout, stderr) = run(&[&[BLOCKS_DOMAIN, BLOCKS_PROBLEM][..], &limits].concat());
    assert_eq!(status, Some(0), "{stderr}");
    assert!(stdout.contains("; cost = "), "{stdout}");
    for (flag, value, units) in [("--time-limit", "5x", "5m"), ("--memory-limit", "4X", "4G")] {
        let (status, _, stderr) = run(&[BLOCKS_DOMAIN, BLOCKS_PROBLEM, flag, value]);
        assert_eq!(status, Some(2), "{stderr}");
        assert!(stderr.contains(flag) && stderr.contains(units), "{stderr}");
    }
}

/// Flags the chosen configuration would ignore, or that would break
/// `--optimal`'s promise, are refused before any work (exit 2, naming the
/// flag); the combinations that keep their meaning still run.
#[test]
fn conflicting_search_flags_exit_2() {
    let refused: [(&[&str], &str); 8] = [
        (&["--optimal", "--search", "lazy-greedy"], "--optimal"),
        (&["--optimal", "--heuristic", "hff"], "admissible"),
        (&["--optimal", "--weight", "2"], "--weight"),
        (&["--search", "bfs", "--heuristic", "hff"], "--search bfs"),
        (&["--search", "lazy-greedy", "--weight", "3"], "--weight"),
        (&["--search", "astar", "--weight", "2"], "--weight"),
        (&["--search", "astar", "--novelty"], "--novelty"),
        (&["--search", "bfs", "--dead-end-traps"], "--dead-end-traps"),
    ];
    for (flags, named) in refused {
        let (status, stdout, stderr) = run(&[&[BLOCKS_DOMAIN, BLOCKS_PROBLEM], flags].concat());
        assert_eq!(status, Some(2), "{flags:?}: {stderr}");
        assert!(stderr.contains(named), "{flags:?}: {stderr}");
        assert!(stdout.is_empty(), "{flags:?}: {stdout}");
    }
    let accepted: [&[&str]; 5] = [
        &["--optimal", "--heuristic", "hmax"],
        &["--optimal", "--search", "bfs"],
        &["--search", "astar", "--heuristic", "hff"],
        &["--search", "eager-greedy", "--novelty"],
        &["--search", "wastar", "--weight", "3"],
    ];
    for flags in accepted {
        let (status, _, stderr) = run(&[&["-q", BLOCKS_DOMAIN, BLOCKS_PROBLEM], flags].concat());
        assert_eq!(status, Some(0), "{flags:?}: {stderr}");
    }
}

#[test]
fn missing_file_and_bad_flags_exit_2() {
    let (status, _, stderr) = run(&[BLOCKS_DOMAIN, "problems/no-such-problem.pddl"]);
    assert_eq!(status, Some(2));
    assert!(stderr.contains("no-such-problem.pddl"), "{stderr}");
    let (status, _, stderr) = run(&[BLOCKS_DOMAIN, BLOCKS_PROBLEM, "--weight", "0.5"]);
    assert_eq!(status, Some(2));
    assert!(stderr.contains("--weight"), "{stderr}");
    let (status, _, _) = run(&[BLOCKS_DOMAIN, BLOCKS_PROBLEM, "--heuristic", "nonsense"]);
    assert_eq!(status, Some(2));
    let (status, _, stderr) = run(&[BLOCKS_DOMAIN, BLOCKS_PROBLEM, "--threads", "3"]);
    assert_eq!(status, Some(2));
    assert!(stderr.contains("--threads"), "{stderr}");
    for seconds in ["-1", "0", "nan", "inf"] {
        for command in [&[][..], &["ground"]] {
            let args = [
                command,
                &[BLOCKS_DOMAIN, BLOCKS_PROBLEM, "--time-limit", seconds],
            ];
            let (status, _, stderr) = run(&args.concat());
            assert_eq!(status, Some(2), "{command:?} {seconds}: {stderr}");
            assert!(
                stderr.contains("--time-limit must be a positive number of seconds"),
                "{command:?} {seconds}: {stderr}"
            );
        }
    }
}

/// A time limit beyond what a duration holds is no limit (it panicked
/// converting the seconds), with every configuration that reads it.
#[test]
fn a_time_limit_too_large_for_the_clock_is_no_limit() {
    for extra in [&[][..], &["--optimal"], &["--anytime"]] {
        let mut args = vec![BLOCKS_DOMAIN, BLOCKS_PROBLEM, "-q", "--time-limit", "1e300"];
        args.extend_from_slice(extra);
        let (status, stdout, stderr) = run(&args);
        assert_eq!(status, Some(0), "{extra:?}: {stderr}");
        assert!(stdout.contains("; cost = "), "{extra:?}: {stdout}");
    }
}

/// Sends `signal` (a name `kill` knows: `INT`, `TERM`, `KILL`, ...) to
/// the process `child`.
#[cfg(unix)]
fn send_signal(child: &std::process::Child, signal: &str) {
    let sent = StdCommand::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -{signal}");
}

/// Ctrl-C (SIGINT), SIGTERM (`timeout`, `kill`, batch systems) and
/// SIGXCPU (a CPU time limit) stop the search cleanly: statistics on
/// stderr, status 130.
#[cfg(unix)]
#[test]
fn stopping_signals_end_the_search_with_130() {
    for signal in ["INT", "TERM", "XCPU"] {
        let binary = assert_cmd::cargo::cargo_bin("plan");
        let mut child = StdCommand::new(binary)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([TILES_DOMAIN, HARD_TILES, "--search", "astar"])
            .args(["--heuristic", "blind", "--time-limit", "60"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("plan starts");
        // The first progress line shows that the search (and so the
        // handler, installed before parsing) is running.
        let mut stderr_lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let first = stderr_lines.next().expect("a progress line").unwrap();
        assert!(first.contains("expanded"), "{signal}: {first}");
        send_signal(&child, signal);
        let rest: Vec<String> = stderr_lines.map_while(Result::ok).collect();
        let output = child.wait_with_output().expect("plan ends");
        let stderr = rest.join("\n");
        assert_eq!(output.status.code(), Some(130), "{signal}: {stderr}");
        assert!(stderr.contains("interrupted"), "{signal}: {stderr}");
        assert!(stderr.contains("expanded"), "{signal}: {stderr}");
    }
}

/// `plan --anytime` on a 40-block problem (whose plans it keeps improving
/// until the time limit, unable to prove one optimal) with `-o` into
/// `dir`; returns the running process, with stderr piped, and the paths
/// of the problem and the plan file.
#[cfg(unix)]
fn start_anytime_search(
    dir: &std::path::Path,
) -> (std::process::Child, std::path::PathBuf, std::path::PathBuf) {
    let problem = dir.join("blocks-40.pddl");
    let plan_file = dir.join("best.plan");
    let _ = std::fs::remove_file(&plan_file);
    let problem_arg = problem.to_str().unwrap();
    let (status, _, stderr) = run(&[
        "generate",
        "blocksworld",
        "--blocks",
        "40",
        "-o",
        problem_arg,
    ]);
    assert_eq!(status, Some(0), "{stderr}");
    let child = StdCommand::new(assert_cmd::cargo::cargo_bin("plan"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            BLOCKS_DOMAIN,
            problem_arg,
            "--anytime",
            "--time-limit",
            "120",
            "-o",
        ])
        .arg(&plan_file)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("plan starts");
    (child, problem, plan_file)
}

/// Has `plan validate` check `plan_file` for the blocks-world `problem`;
/// returns the exit status and both outputs.
fn validate_plan_file(
    problem: &std::path::Path,
    plan_file: &std::path::Path,
) -> (Option<i32>, String) {
    let problem = problem.to_str().unwrap();
    let (status, stdout, stderr) = run(&[
        "validate",
        BLOCKS_DOMAIN,
        problem,
        plan_file.to_str().unwrap(),
    ]);
    (status, stdout + &stderr)
}

/// SIGTERM during `--anytime`'s improvement ends it with the best plan
/// found so far, written to `-o`, and status 0, as the time limit would.
#[cfg(unix)]
#[test]
fn a_stopping_signal_keeps_the_best_plan_found() {
    let dir = tempdir("term-anytime");
    let (mut child, problem, plan_file) = start_anytime_search(&dir);
    let mut stderr_lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let found = stderr_lines
        .by_ref()
        .map_while(Result::ok)
        .any(|line| line.starts_with("found a plan"));
    assert!(found, "no plan reported");
    send_signal(&child, "TERM");
    let rest: Vec<String> = stderr_lines.map_while(Result::ok).collect();
    let status = child.wait().expect("plan ends");
    let stderr = rest.join("\n");
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("solved"), "{stderr}");
    let (status, report) = validate_plan_file(&problem, &plan_file);
    assert_eq!(status, Some(0), "{report}");
}

/// A search killed outright (SIGKILL: no chance to write anything) after
/// its first second leaves its best plan so far in the `-o` file, whole.
#[cfg(unix)]
#[test]
fn a_killed_search_leaves_its_best_plan_in_the_output_file() {
    let dir = tempdir("kill-anytime");
    let (mut child, problem, plan_file) = start_anytime_search(&dir);
    // Drained on a thread, so that the search never waits on a full pipe.
    let stderr = child.stderr.take().unwrap();
    let drain = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap_or_default());
    let waited = std::time::Instant::now();
    while !plan_file.exists() {
        let still_running = child.try_wait().expect("the child's status").is_none();
        assert!(still_running, "plan ended first: {}", drain.join().unwrap());
        assert!(waited.elapsed().as_secs() < 100, "no plan file after 100 s");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    send_signal(&child, "KILL");
    child.wait().expect("plan ends");
    drain.join().unwrap();
    let (status, report) = validate_plan_file(&problem, &plan_file);
    assert_eq!(status, Some(0), "{report}");
}

/// A fresh scratch directory under the target directory.
fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_solve-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `plan` on `files` proves the task unsolvable (exit 4) and says why:
/// `unsolvable: {reason}` is the whole `-q` line, `note: {reason}` follows
/// the statistics, and `--json` lists `literals` in `"impossible_goal"`.
fn assert_unsolvable_explained(files: &[&str], reason: &str, literals: serde_json::Value) {
    let (status, _, stderr) = run(&[&["-q"], files].concat());
    assert_eq!(status, Some(4), "{stderr}");
    assert_eq!(stderr, format!("unsolvable: {reason}\n"));
    let (status, _, stderr) = run(files);
    assert_eq!(status, Some(4), "{stderr}");
    assert!(stderr.contains(&format!("note: {reason}")), "{stderr}");
    let (status, stdout, stderr) = run(&[&["--json"], files].concat());
    assert_eq!(status, Some(4), "{stderr}");
    assert_eq!(json(&stdout)["impossible_goal"], literals);
}

/// Replaces `from` by `to` in the problem file of a task written by
/// [`task_files`], and checks that `plan` then solves the task.
fn assert_solved_after_replacing(problem: &std::path::Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(problem).unwrap();
    assert!(text.contains(from), "`{from}` is not in the problem");
    std::fs::write(problem, text.replace(from, to)).unwrap();
    let domain = problem.with_file_name("domain.pddl");
    let files = [domain.to_str().unwrap(), problem.to_str().unwrap()];
    let (status, _, stderr) = run(&[&["-q"], &files[..]].concat());
    assert_eq!(status, Some(0), "{stderr}");
}

/// Writes `domain.pddl` and `problem.pddl` with these texts into the
/// folder [`tempdir`] gives `name`; returns their paths.
fn task_files(
    name: &str,
    domain_text: &str,
    problem_text: &str,
) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = tempdir(name);
    let domain = dir.join("domain.pddl");
    let problem = dir.join("problem.pddl");
    std::fs::write(&domain, domain_text).unwrap();
    std::fs::write(&problem, problem_text).unwrap();
    (domain, problem)
}

/// `total-time` in a metric counts steps, as the validator counts them:
/// the two steps of 10 + 7 (34) beat the direct road of 10 + 30 (40),
/// which a search by plan length would take, and the plan validates with
/// the cost line as printed.
#[test]
fn total_time_in_the_metric_is_optimised_and_the_plan_validates() {
    let dir = tempdir("total-time");
    let domain = dir.join("domain.pddl");
    let problem = dir.join("problem.pddl");
    let plan_file = dir.join("plan.txt");
    std::fs::write(
        &domain,
        "(define (domain walk) (:requirements :strips :numeric-fluents)
           (:predicates (at ?p) (road ?a ?b)) (:functions (fuel-used) (fuel ?a ?b))
           (:action go :parameters (?a ?b) :precondition (and (at ?a) (road ?a ?b))
             :effect (and (not (at ?a)) (at ?b) (increase (fuel-used) (fuel ?a ?b)))))",
    )
    .unwrap();
    std::fs::write(
        &problem,
        "(define (problem two-steps) (:domain walk) (:objects a b c)
           (:init (at a) (road a b) (road b c) (road a c) (= (fuel-used) 0)
                  (= (fuel a b) 7) (= (fuel b c) 7) (= (fuel a c) 30))
           (:goal (at c)) (:metric minimize (+ (* 10 (total-time)) (fuel-used))))",
    )
    .unwrap();
    let (domain, problem) = (domain.to_str().unwrap(), problem.to_str().unwrap());
    let (status, stdout, stderr) = run(&[domain, problem, "-q", "--optimal", "--json"]);
    assert_eq!(status, Some(0), "{stderr}");
    let report = json(&stdout);
    assert_eq!(report["metric_value"].as_f64(), Some(34.0), "{stdout}");
    assert_eq!(report["cost"].as_u64(), Some(34), "{stdout}");
    assert_eq!(report["optimal"], true, "{stdout}");
    let (status, _, stderr) = run(&[domain, problem, "-o", plan_file.to_str().unwrap()]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(!stderr.contains("not optimised"), "{stderr}");
    let written = std::fs::read_to_string(&plan_file).unwrap();
    assert!(
        written.ends_with("; cost = 34 (general cost)\n"),
        "{written}"
    );
    let (status, stdout, stderr) = run(&["validate", domain, problem, plan_file.to_str().unwrap()]);
    assert_eq!(status, Some(0), "{stdout}{stderr}");
}

/// A metric increased by decimals is optimised (in hundredths here): the
/// cheaper route of three short roads wins over the direct one, and every
/// cost the command prints is in the metric's units, exactly.
#[test]
fn decimal_increments_are_optimised_and_shown_in_the_metrics_units() {
    let dir = tempdir("decimal-costs");
    let domain = dir.join("domain.pddl");
    let problem = dir.join("problem.pddl");
    let plan_file = dir.join("plan.txt");
    std::fs::write(
        &domain,
        "(define (domain roads) (:requirements :strips :numeric-fluents)
           (:predicates (at ?p) (road ?a ?b)) (:functions (fuel-used) (length ?a ?b))
           (:action go :parameters (?a ?b) :precondition (and (at ?a) (road ?a ?b))
             :effect (and (not (at ?a)) (at ?b) (increase (fuel-used) (length ?a ?b)))))",
    )
    .unwrap();
    std::fs::write(
        &problem,
        "(define (problem detour) (:domain roads) (:objects a b c d)
           (:init (at a) (road a d) (road a b) (road b c) (road c d) (= (fuel-used) 0.5)
                  (= (length a d) 3.5) (= (length a b) 1.05) (= (length b c) 1.1) (= (length c d) 1.2))
           (:goal (at d)) (:metric minimize (fuel-used)))",
    )
    .unwrap();
    let (domain, problem) = (domain.to_str().unwrap(), problem.to_str().unwrap());
    let (status, stdout, stderr) = run(&[domain, problem, "--optimal", "--json"]);
    assert_eq!(status, Some(0), "{stderr}");
    let report = json(&stdout);
    assert_eq!(report["plan"].as_array().map(Vec::len), Some(3), "{stdout}");
    assert_eq!(report["cost"].as_f64(), Some(3.35), "{stdout}");
    assert_eq!(report["lower_bound"].as_f64(), Some(3.35), "{stdout}");
    assert_eq!(report["metric_value"].as_f64(), Some(3.85), "{stdout}");
    assert_eq!(report["optimal"], true, "{stdout}");
    let (status, _, stderr) = run(&[
        domain,
        problem,
        "--optimal",
        "-o",
        plan_file.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(
        stderr.contains("found a plan: 3 steps, cost 3.35\n")
            && stderr.contains("plan: 3 steps, cost 3.35, optimal\n")
            // A*'s progress, in the metric's units too (not 335); lines
            // within 50 ms of the first are shown together, before the plan.
            && stderr.contains(" h = 3.35  0 expanded")
            && stderr.contains(" f = 3.35, h = ")
            && !stderr.contains("= 335")
            && !stderr.contains("not optimised"),
        "{stderr}"
    );
    let written = std::fs::read_to_string(&plan_file).unwrap();
    assert!(
        written.ends_with("; cost = 3.85 (general cost)\n"),
        "{written}"
    );
    let (status, stdout, stderr) = run(&["validate", domain, problem, plan_file.to_str().unwrap()]);
    assert_eq!(status, Some(0), "{stdout}{stderr}");
    // The validator sums the lengths as binary fractions (3.8500000000000005);
    // its JSON report drops that noise.
    let (status, stdout, stderr) = run(&[
        "validate",
        "--json",
        domain,
        problem,
        plan_file.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(0), "{stdout}{stderr}");
    let report = &json(&stdout)["plans"][0];
    assert_eq!(report["metric"]["value"].as_f64(), Some(3.85), "{stdout}");
    assert_eq!(report["cost"].as_f64(), Some(3.85), "{stdout}");
}

/// Operator costs whose sum along the only plan passes 2^64 (2 100 steps of
/// 2^53 − 1): summed, they saturated, the search pruned the plan's path
/// and reported the task unsolvable (exit 4). Now such costs are refused
/// as costs and the plan is searched by length, with a warning.
#[test]
fn costs_whose_sum_would_overflow_are_not_searched_as_costs() {
    let dir = tempdir("huge-costs");
    let domain = dir.join("domain.pddl");
    let problem = dir.join("problem.pddl");
    std::fs::write(
        &domain,
        "(define (domain chain) (:requirements :strips :action-costs)
           (:predicates (at ?x) (next ?x ?y)) (:functions (total-cost) (step-cost))
           (:action go :parameters (?x ?y) :precondition (and (at ?x) (next ?x ?y))
             :effect (and (not (at ?x)) (at ?y) (increase (total-cost) (step-cost)))))",
    )
    .unwrap();
    let steps = 2100;
    let objects: Vec<String> = (0..=steps).map(|i| format!("n{i}")).collect();
    let links: Vec<String> = (0..steps)
        .map(|i| format!("(next n{i} n{})", i + 1))
        .collect();
    std::fs::write(
        &problem,
        format!(
            "(define (problem chain-{steps}) (:domain chain) (:objects {})
               (:init (at n0) {} (= (total-cost) 0) (= (step-cost) 9007199254740991))
               (:goal (at n{steps})) (:metric minimize (total-cost)))",
            objects.join(" "),
            links.join(" ")
        ),
    )
    .unwrap();
    let (domain, problem) = (domain.to_str().unwrap(), problem.to_str().unwrap());
    let (status, stdout, stderr) = run(&[domain, problem]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "warning: the plan is not optimised for the metric: (go n0 n1) has too large a cost"
        ),
        "{stderr}"
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("(go ")).count(),
        steps
    );
}

/// A reader that stops reading (`plan … | head`) ends `plan` by SIGPIPE,
/// as it does `cat`, instead of a panic on the broken pipe.
#[cfg(unix)]
#[test]
fn a_closed_output_pipe_ends_the_process_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let (reader, writer) = std::io::pipe().expect("a pipe");
    // Closed before `plan` starts, so its first write finds no reader.
    drop(reader);
    let output = StdCommand::new(assert_cmd::cargo::cargo_bin("plan"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([BLOCKS_DOMAIN, BLOCKS_PROBLEM, "-q"])
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("plan runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // SIGPIPE is signal 13 on every Unix that Rust supports.
    assert_eq!(output.status.signal(), Some(13), "{stderr}");
}

/// A task whose grounding never ends in practice: one action with six
/// parameters over 60 objects, 4.7 × 10^10 bindings.
fn write_ungroundable_task(dir: &std::path::Path) -> (String, String) {
    let domain = dir.join("domain.pddl");
    let problem = dir.join("problem.pddl");
    std::fs::write(
        &domain,
        "(define (domain wide) (:requirements :strips)
           (:predicates (p ?x) (q ?a ?b ?c ?d ?e ?f))
           (:action join :parameters (?a ?b ?c ?d ?e ?f)
             :precondition (and (p ?a) (p ?b) (p ?c) (p ?d) (p ?e) (p ?f))
             :effect (q ?a ?b ?c ?d ?e ?f)))",
    )
    .unwrap();
    let objects: Vec<String> = (0..60).map(|i| format!("o{i}")).collect();
    let init: Vec<String> = objects.iter().map(|o| format!("(p {o})")).collect();
    std::fs::write(
        &problem,
        format!(
            "(define (problem wide-1) (:domain wide) (:objects {}) (:init {}) (:goal (q o1 o2 o3 o4 o5 o6)))",
            objects.join(" "),
            init.join(" ")
        ),
    )
    .unwrap();
    let text = |path: std::path::PathBuf| path.to_str().unwrap().to_owned();
    (text(domain), text(problem))
}

/// The time limit covers grounding: a task too large to ground stops at
/// it with exit status 5 and says so, instead of running on.
#[test]
fn the_time_limit_stops_grounding() {
    let started = std::time::Instant::now();
    let (status, stdout, stderr) = run_ungroundable("ground-time-limit", &["--time-limit", "0.3"]);
    assert_eq!(status, Some(5), "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.starts_with("time limit reached while grounding, after 0."),
        "{stderr}"
    );
    // Generous for a loaded machine; without the check it runs for hours.
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    // With --json, the object says so too, keyed as after a search.
    let (status, stdout, stderr) =
        run_ungroundable("ground-time-limit", &["--json", "--time-limit", "0.3"]);
    assert_eq!(status, Some(5), "{stderr}");
    let report = json(&stdout);
    assert_eq!(report["status"], "time limit", "{stdout}");
    assert!(
        report["plan"].is_null() && report["expanded"] == 0,
        "{stdout}"
    );
    assert!(report["time"]["ground"].as_f64().unwrap() > 0.0, "{stdout}");
    let (_, after_search, _) = run(&[BLOCKS_DOMAIN, BLOCKS_PROBLEM, "--json"]);
    let keys = |report: &serde_json::Value| {
        let mut keys: Vec<String> = report
            .as_object()
            .expect("an object")
            .keys()
            .cloned()
            .collect();
        keys.sort();
        keys
    };
    // The same keys, and the message that says why.
    let mut expected = keys(&json(&after_search));
    expected.push("error".into());
    expected.sort();
    assert_eq!(keys(&report), expected);
}

/// The memory limit covers grounding, in `plan` and in `plan ground`:
/// the process's resident memory is checked while it grows (exit status
/// 6), and both name the flag that raises it.
#[test]
fn the_memory_limit_stops_grounding() {
    for command in [&[][..], &["ground"]] {
        let mut args = command.to_vec();
        args.extend(["--memory-limit", "100"]);
        let (status, _, stderr) = run_ungroundable("ground-memory-limit", &args);
        assert_eq!(status, Some(6), "{command:?}: {stderr}");
        // After the lines `plan` shows while grounding for long, if any.
        let at = stderr
            .find("memory limit reached while grounding, after ")
            .unwrap_or_else(|| panic!("{command:?}: {stderr}"));
        assert!(
            stderr[..at]
                .lines()
                .all(|line| line.starts_with('[') && line.contains("grounding  ")),
            "{command:?}: {stderr}"
        );
        assert!(
            stderr[at..].ends_with("\n  = note: `--memory-limit MIB` raises the limit\n"),
            "{command:?}: {stderr}"
        );
    }
}

/// `plan` with `args` on [`write_ungroundable_task`]'s task (in scratch
/// directory `name`), with grounding limits beyond what a run could
/// reach, so that only `args` stop it. A subcommand in `args` comes
/// first, before the files.
fn run_ungroundable(name: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let dir = tempdir(name);
    let (domain, problem) = write_ungroundable_task(&dir);
    let huge = "1000000000000";
    let (subcommand, args) = match args.split_first() {
        Some((&"ground", rest)) => (Some("ground"), rest),
        _ => (None, args),
    };
    let mut all: Vec<&str> = subcommand.into_iter().collect();
    all.extend([domain.as_str(), problem.as_str(), "--max-operators", huge]);
    all.extend(["--max-facts", huge]);
    all.extend_from_slice(args);
    run(&all)
}

/// The grounding limits are flags of `plan` too, and the error names the
/// flag that raises the limit it reached (exit status 6).
#[test]
fn grounding_limits_name_their_flags() {
    let dir = tempdir("ground-limits");
    let (domain, problem) = write_ungroundable_task(&dir);
    for (flag, message) in [
        (
            "--max-operators",
            "would exceed the limit of 1000 operators",
        ),
        ("--max-facts", "more than 1000 reachable facts"),
    ] {
        for command in [&[][..], &["ground"]] {
            let mut args = command.to_vec();
            args.extend([domain.as_str(), problem.as_str(), flag, "1000"]);
            let (status, _, stderr) = run(&args);
            assert_eq!(status, Some(6), "{args:?}: {stderr}");
            assert!(stderr.contains(message), "{args:?}: {stderr}");
            assert!(
                stderr.contains(&format!("= note: `{flag} N` raises the limit")),
                "{args:?}: {stderr}"
            );
        }
        let (status, stdout, _) = run(&[&domain, &problem, "--json", flag, "1000"]);
        assert_eq!(status, Some(6));
        let report = json(&stdout);
        assert_eq!(report["status"], "memory limit", "{stdout}");
        assert!(
            report["error"].as_str().unwrap().contains(message),
            "{stdout}"
        );
    }
}

/// Standard output that cannot be written (a full disk: `/dev/full`) is
/// an error with exit status 2, for every command that prints to it; it
/// was a panic.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_on_stdout_is_an_error_not_a_panic() {
    let level = "problems/puzznic/bridge.txt";
    for args in [
        &["-q", BLOCKS_DOMAIN, BLOCKS_PROBLEM][..],
        &["--json", BLOCKS_DOMAIN, BLOCKS_PROBLEM],
        &["puzznic", "problem", level],
        &["puzznic", "solve", "-q", level],
        &["generate", "blocksworld", "--blocks", "5"],
        &["ground", "--dump", BLOCKS_DOMAIN, BLOCKS_PROBLEM],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let output = StdCommand::new(assert_cmd::cargo::cargo_bin("plan"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .stdout(full)
            .output()
            .expect("plan runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("No space left on device"),
            "{args:?}: {stderr}"
        );
    }
}

/// A file whose parse would take more memory than the memory limit is
/// refused before it is read (exit 6): parsing cannot stop halfway. The
/// estimate is 16 bytes a byte: a 100 KB problem needs 1.6 MB.
#[test]
fn a_file_too_large_to_parse_within_the_memory_limit_is_refused() {
    let dir = tempdir("parse-memory");
    let problem = dir.join("padded.pddl");
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(BLOCKS_PROBLEM),
    )
    .unwrap();
    let padding = format!("; {}\n", "x".repeat(99)).repeat(1000);
    std::fs::write(&problem, padding + &text).unwrap();
    let problem = problem.to_str().unwrap();
    let (status, stdout, stderr) = run(&["-q", "--memory-limit", "2", BLOCKS_DOMAIN, problem]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(stdout.contains("; cost = "), "{stdout}");
    let size = std::fs::metadata(problem).unwrap().len();
    let plan_file = dir.join("plan.txt");
    std::fs::write(&plan_file, stdout).unwrap();
    let plan_file = plan_file.to_str().unwrap();
    // Every command that parses the problem refuses it the same way.
    for command in [&["-q"][..], &["ground"], &["check"], &["validate"]] {
        let with_limit = |mib| {
            let mut args = command.to_vec();
            args.extend(["--memory-limit", mib, BLOCKS_DOMAIN, problem]);
            if command == ["validate"] {
                args.push(plan_file);
            }
            run(&args)
        };
        let (status, _, stderr) = with_limit("1");
        assert_eq!(status, Some(6), "{command:?}: {stderr}");
        assert!(
            stderr.starts_with(&format!(
                "error: `{problem}` is {size} bytes; parsing it takes about 16 times that in memory, more than the memory limit of 1 MiB\n  = note: `--memory-limit MIB` raises the limit\n"
            )),
            "{command:?}: {stderr}"
        );
        let (status, _, stderr) = with_limit("2");
        assert_eq!(status, Some(0), "{command:?}: {stderr}");
    }
}

/// `plan` with `args` and `input` on standard input; returns the exit
/// status, stdout and stderr.
fn run_with_stdin(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let output = plan()
        .args(args)
        .write_stdin(input)
        .output()
        .expect("plan runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A file named `-` is standard input, for every command that reads
/// PDDL or plans: a plan piped from `plan` into `plan validate`, a domain
/// piped into `plan` and `plan check` (diagnostics name it `<stdin>`).
/// Standard input is read once: a second `-` is an input error, not an
/// empty file; a stream is refused under the memory limit as soon as more
/// than the limit allows has arrived (its size is not known before).
#[test]
fn a_file_named_dash_is_standard_input() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let domain_text = std::fs::read_to_string(root.join(BLOCKS_DOMAIN)).unwrap();
    let (status, plan_text, stderr) = run_with_stdin(&["-q", "-", BLOCKS_PROBLEM], &domain_text);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(plan_text.contains("; cost = "), "{plan_text}");
    let (status, stdout, stderr) = run_with_stdin(
        &["validate", BLOCKS_DOMAIN, BLOCKS_PROBLEM, "-"],
        &plan_text,
    );
    assert_eq!(status, Some(0), "{stderr}");
    assert!(stdout.starts_with("Plan valid\n"), "{stdout}");
    // A plan cut short is invalid, read from standard input as well.
    let first_step = plan_text.lines().next().unwrap();
    let (status, stdout, _) = run_with_stdin(
        &["validate", BLOCKS_DOMAIN, BLOCKS_PROBLEM, "-"],
        first_step,
    );
    assert_eq!(status, Some(1), "{stdout}");
    // Diagnostics name standard input.
    let broken = domain_text.replacen("(:action", "(:acton", 1);
    let (status, _, stderr) = run_with_stdin(&["check", "-"], &broken);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(stderr.contains(" --> <stdin>:18:4\n"), "{stderr}");
    let (status, _, stderr) = run_with_stdin(&["-q", "-", "-"], &domain_text);
    assert_eq!(status, Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "error: cannot read `<stdin>`: standard input was read already, for an earlier `-`\n"
    );
    let padded = format!("; {}\n", "x".repeat(99)).repeat(11_000) + &domain_text;
    let (status, _, stderr) = run_with_stdin(&["check", "--memory-limit", "16", "-"], &padded);
    assert_eq!(status, Some(6), "{stderr}");
    assert_eq!(
        stderr,
        "error: `<stdin>` is more than 1048576 bytes; parsing it takes about 16 times that in memory, more than the memory limit of 16 MiB\n  = note: `--memory-limit MIB` raises the limit\n"
    );
}

/// An output file named `-` is standard output, as an input file named
/// `-` is standard input: `-o -` prints the plan as without `-o` (and
/// creates no file called `-`). Where the report already goes to standard
/// output (`--json`, `plan validate`'s report) it is refused before any
/// work, since the two would mix.
#[test]
fn an_output_file_named_dash_is_standard_output() {
    let dir = tempdir("dash-output");
    let (status, to_dash, stderr) = run(&["-q", "-o", "-", BLOCKS_DOMAIN, BLOCKS_PROBLEM]);
    assert_eq!(status, Some(0), "{stderr}");
    let (_, plain, _) = run(&["-q", BLOCKS_DOMAIN, BLOCKS_PROBLEM]);
    assert_eq!(to_dash, plain);
    assert!(
        !std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("-")
            .exists()
    );
    let (status, stdout, stderr) = run(&["-q", "--json", "-o", "-", BLOCKS_DOMAIN, BLOCKS_PROBLEM]);
    assert_eq!(status, Some(2), "{stdout}");
    assert_eq!(
        stderr,
        "error: `-o -` would mix its output with the report on standard output; give it a file\n"
    );
    let plan_file = dir.join("plan.txt");
    std::fs::write(&plan_file, &plain).unwrap();
    let (status, _, stderr) = run(&[
        "validate",
        "--junit",
        "-",
        BLOCKS_DOMAIN,
        BLOCKS_PROBLEM,
        plan_file.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.starts_with("error: `--junit -` would mix"),
        "{stderr}"
    );
}

/// `plan ground --stats` counts the operators that cannot matter for the
/// goal and grounding removed; `--keep-irrelevant` keeps them, and the
/// plan found is the same either way.
#[test]
fn ground_stats_count_the_irrelevant_operators_removed() {
    let (domain, problem) = task_files(
        "relevance",
        "(define (domain relevance) (:requirements :strips)
  (:predicates (start) (goal) (noise))
  (:action reach :parameters () :precondition (start) :effect (goal))
  (:action make-noise :parameters () :precondition (start) :effect (noise)))",
        "(define (problem relevance-1) (:domain relevance)
  (:init (start)) (:goal (goal)))",
    );
    let files = [domain.to_str().unwrap(), problem.to_str().unwrap()];
    let stat = |stdout: &str, key: &str| -> String {
        stdout
            .lines()
            .find_map(|line| line.strip_prefix(key))
            .unwrap_or_else(|| panic!("no `{key}` in {stdout}"))
            .trim()
            .to_string()
    };
    let (status, stdout, stderr) = run(&[&["ground", "--stats"], &files[..]].concat());
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(stat(&stdout, "operators:"), "1");
    assert_eq!(stat(&stdout, "irrelevant operators removed:"), "1");
    let (status, stdout, stderr) =
        run(&[&["ground", "--stats", "--keep-irrelevant"], &files[..]].concat());
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(stat(&stdout, "operators:"), "2");
    assert_eq!(stat(&stdout, "irrelevant operators removed:"), "0");
    let (status, stdout, stderr) = run(&["-q", files[0], files[1]]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(stdout.starts_with("(reach)\n"), "{stdout}");
}

/// A plan of 100 000 steps, where greedy search's h falls by one per
/// expansion: the progress lines come at most one per 50 ms (plus the
/// periodic ones and the ones shown before each plan), not one per new h,
/// and the line held back last is shown before the plan (`h = 1`).
#[test]
fn progress_lines_are_spaced_out_when_h_improves_at_every_step() {
    let domain = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/long-plan/domain.pddl");
    let dir = tempdir("many-best-h");
    let problem = dir.join("count-to-100000.pddl");
    std::fs::write(
        &problem,
        "(define (problem count-to-100000) (:domain counter)
           (:init (ready) (= (count) 0)) (:goal (>= (count) 100000)))",
    )
    .unwrap();
    let started = std::time::Instant::now();
    let (status, _, stderr) = run(&[domain, problem.to_str().unwrap(), "-o", "/dev/null"]);
    let elapsed = started.elapsed();
    assert_eq!(status, Some(0), "{stderr}");
    let progress_lines = stderr.lines().filter(|l| l.contains(" expanded, ")).count();
    let found = stderr.matches("found a plan: ").count();
    // A line at most every 50 ms, a periodic one at most every second and
    // one before each plan and at the end.
    let most = 2 + elapsed.as_millis() as usize / 50 + elapsed.as_secs() as usize + found;
    assert!(
        progress_lines <= most,
        "{progress_lines} lines (at most {most}):\n{stderr}"
    );
    let before_first_plan = stderr.split("found a plan: ").next().unwrap();
    assert!(
        before_first_plan
            .lines()
            .last()
            .is_some_and(|l| l.contains(" h = 1 ")),
        "{stderr}"
    );
}
