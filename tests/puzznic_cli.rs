//! `plan puzznic ...` end to end.

use assert_cmd::Command;
use shared_data::gameboy_levels;
use std::path::Path;

fn plan() -> Command {
    Command::cargo_bin("plan").expect("the plan binary")
}

fn shipped(name: &str) -> String {
    format!("{}/problems/puzznic/{name}.txt", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `plan puzznic solve` with `args` and then the level at `level`:
/// its exit status and stdout.
fn solve(args: &[&str], level: impl AsRef<std::ffi::OsStr>) -> (Option<i32>, String) {
    let out = plan()
        .args(["puzznic", "solve"])
        .args(args)
        .arg(level)
        .output()
        .expect("runs");
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("utf-8"),
    )
}

/// A fresh scratch directory for one test, removed when dropped.
fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

#[test]
fn problem_prints_the_pddl() {
    let out = plan()
        .args(["puzznic", "problem", &shipped("chain")])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.contains("(define (problem puzznic-chain)"));
    assert!(text.contains("(at tile-a-1 r2-c4)"));
    assert!(text.contains("(same-kind tile-b-1 tile-b-2)"));
    assert!(text.contains("(:metric minimize (total-cost))"));
}

#[test]
fn malformed_levels_are_located() {
    let scratch = temp_dir();
    let dir = scratch.path();
    let cases = [
        (
            "unknown.txt",
            "; x\n#####\n#a*a#\n#####\n",
            "unknown.txt:3:3",
            "unknown character `*`",
        ),
        (
            "open.txt",
            "#####\n#a.a#\n## ##\n",
            "open.txt:2:3",
            "outside the walls",
        ),
        ("empty.txt", "; nothing here\n", "empty.txt:", "empty level"),
    ];
    for (file, text, location, message) in cases {
        let path = dir.join(file);
        std::fs::write(&path, text).expect("write");
        let out = plan()
            .args(["puzznic", "solve"])
            .arg(&path)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{file}");
        let err = String::from_utf8(out.stderr).expect("utf-8");
        assert!(err.contains(location), "{file}: {err}");
        assert!(err.contains(message), "{file}: {err}");
    }
}

#[test]
fn solve_then_show() {
    let scratch = temp_dir();
    let dir = scratch.path();
    let out = plan()
        .args(["puzznic", "solve", "--optimal", &shipped("two-colours")])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        text.contains("; solved: 6 player moves (optimal)"),
        "{text}"
    );
    assert!(text.contains("; move 1: move tile at row "), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("(push-")).count(), 6);
    let plan_path = dir.join("plan.txt");
    std::fs::write(&plan_path, &text).expect("write");

    let out = plan()
        .args([
            "puzznic",
            "show",
            "--color",
            "never",
            &shipped("two-colours"),
        ])
        .arg(&plan_path)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let shown = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        shown.starts_with("start\n#######\n#a...b#\n#b...a#\n#######\n"),
        "{shown}"
    );
    assert!(shown.contains("move 6: "));
    assert!(shown.ends_with("cleared in 6 moves\n"));
    assert!(!shown.contains('\x1b'));

    let out = plan()
        .args([
            "puzznic",
            "show",
            "--physics",
            "--color",
            "always",
            &shipped("two-colours"),
        ])
        .arg(&plan_path)
        .output()
        .expect("runs");
    let physics = String::from_utf8(out.stdout).expect("utf-8");
    assert!(physics.contains("2 tiles vanish"));
    assert!(physics.contains('\x1b'));

    let html = dir.join("plan.html");
    let out = plan()
        .args(["puzznic", "show", &shipped("two-colours")])
        .arg(&plan_path)
        .arg("--html")
        .arg(&html)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let page = std::fs::read_to_string(&html).expect("page written");
    assert!(page.contains("<svg") && page.contains("<script>") && page.contains("step forward"));
}

#[test]
fn show_rejects_an_illegal_plan() {
    let scratch = temp_dir();
    let dir = scratch.path();
    let plan_path = dir.join("bad.txt");
    std::fs::write(&plan_path, "(push-left r2-c3 r2-c2 tile-a)\n").expect("write");
    let out = plan()
        .args(["puzznic", "show", &shipped("horizontal-pair")])
        .arg(&plan_path)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stderr)
            .expect("utf-8")
            .contains("move 1 (move tile at row 2 col 3 left) is illegal")
    );
}

#[test]
fn simulator_solve_and_tiled_input() {
    let scratch = temp_dir();
    let dir = scratch.path();
    let map = r#"{ "orientation": "orthogonal", "width": 5, "height": 3,
  "layers": [ { "type": "tilelayer", "width": 5, "height": 3, "data": [1,1,1,1,1, 1,3,0,3,1, 1,1,1,1,1] } ] }"#;
    let config = r#"{ "walls": [1], "tiles": { "3": "a" } }"#;
    std::fs::write(dir.join("map.json"), map).expect("write");
    std::fs::write(dir.join("config.json"), config).expect("write");
    let out = plan()
        .args(["puzznic", "solve", "--simulator"])
        .arg(dir.join("map.json"))
        .arg("--tiled-config")
        .arg(dir.join("config.json"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.contains(": 1 move (optimal), 1 board,"), "{text}");
    assert!(
        text.contains("; move 1: move tile at row 2 col 2 right"),
        "{text}"
    );
    // Without a config the map cannot be read.
    let out = plan()
        .args(["puzznic", "problem"])
        .arg(dir.join("map.json"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(Path::new(&dir.join("config.json")).exists());
    // The same map on standard input is read as a map: it starts with `{`.
    let out = plan()
        .args(["puzznic", "solve", "--simulator", "-", "--tiled-config"])
        .arg(dir.join("config.json"))
        .write_stdin(map)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let from_stdin = String::from_utf8(out.stdout).expect("utf-8");
    let (header, moves) = from_stdin.split_once('\n').expect("a header");
    assert_eq!(header, "; level <stdin>");
    assert!(text.ends_with(moves), "{text}\n---\n{from_stdin}");
}

/// `--simulator --real-time` searches the simulator's real-time games:
/// `catch` needs a push while a tile falls, so the turn-based search
/// proves it unsolvable and the real-time one solves it in two moves.
#[test]
fn simulator_solve_by_the_real_time_rules() {
    let run = |extra: &[&str]| solve(&[&["--simulator", "-q"], extra].concat(), shipped("catch"));
    let (status, text) = run(&[]);
    assert_eq!(status, Some(4), "{text}");
    assert!(text.contains("; unsolvable: all "), "{text}");
    let (status, text) = run(&["--real-time"]);
    assert_eq!(status, Some(0), "{text}");
    assert!(
        text.contains("; solved by the simulator's BFS (real-time rules): 2 moves (optimal)"),
        "{text}"
    );
    assert!(
        text.contains("; move 2: after 1 falling step: move tile at row 4 col 3 left"),
        "{text}"
    );
}

/// The simulator's search honours the limits and refuses the planner's
/// search flags.
#[test]
fn simulator_solve_honours_limits() {
    // Ten pairs in two rows: 10 moves, found after about 475 000 boards
    // (about 20 MiB).
    let scratch = temp_dir();
    let dir = scratch.path();
    let level = dir.join("pairs.txt");
    std::fs::write(
        &level,
        "################\n#ab.cd.ef.gh.ij#\n#ba.dc.fe.hg.ji#\n################\n",
    )
    .expect("write");
    let run = |limit: &[&str]| solve(&[&["--simulator", "-q"], limit].concat(), &level);
    let (status, text) = run(&["--memory-limit", "1"]);
    assert_eq!(status, Some(6), "{text}");
    // Stopped before the tables would pass 1 MiB.
    assert!(
        text.contains("; memory limit reached (0.5 MiB of tables) after 16383 boards"),
        "{text}"
    );
    let (status, text) = run(&["--max-states", "1000"]);
    assert_eq!(status, Some(6), "{text}");
    assert!(
        text.contains("; gave up at --max-states after 1000 boards"),
        "{text}"
    );
    assert!(text.contains("at least 4 moves"), "{text}");
    // One board: not even the boards without a move are all searched.
    let (status, text) = run(&["--max-states", "1", "--real-time"]);
    assert_eq!(status, Some(6), "{text}");
    assert!(text.contains(": no lower bound proven yet"), "{text}");
    for planner_flags in [["--search", "astar"], ["--threads", "1"]] {
        let out = plan()
            .args(["puzznic", "solve", "--simulator"])
            .args(planner_flags)
            .arg(shipped("bridge"))
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{planner_flags:?}");
        let err = String::from_utf8(out.stderr).expect("utf-8");
        assert!(err.contains("cannot be used with"), "{err}");
    }
}

/// A level whose problem would not fit in memory is refused before any
/// PDDL is made: 2 400 tiles of two kinds make 2.9 million `same-kind`
/// facts.
#[test]
fn solve_refuses_a_level_too_large_for_the_planner() {
    let (status, stderr) = solve_checkerboard(60, &[]);
    assert_eq!(status, Some(6), "{stderr}");
    assert!(
        stderr.contains("level too large for the planner: its tiles make 2877600 `same-kind` facts, more than 1000000"),
        "{stderr}"
    );
}

/// `plan puzznic solve -q` with `args` on a [`checkerboard_level`] of
/// `side`: its exit status, and its stdout and stderr together.
fn solve_checkerboard(side: usize, args: &[&str]) -> (Option<i32>, String) {
    let scratch = temp_dir();
    let level = scratch.path().join("checkerboard.txt");
    std::fs::write(&level, checkerboard_level(side)).expect("write");
    let out = plan()
        .args(["puzznic", "solve", "-q"])
        .args(args)
        .arg(&level)
        .output()
        .expect("runs");
    let output = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    (out.status.code(), output.into_owned())
}

/// A `side` × `side` level of two kinds whose tiles stand in columns,
/// kinds alternating like a checkerboard, so nothing falls or vanishes
/// before the first move, with an empty column beside every two.
fn checkerboard_level(side: usize) -> String {
    let wall = "#".repeat(side + 2);
    let rows = (0..side).map(|row| {
        let cells: String = (0..side)
            .map(|col| match (col % 3, (row + col) % 2) {
                (2, _) => '.',
                (_, 0) => 'a',
                _ => 'b',
            })
            .collect();
        format!("#{cells}#")
    });
    let lines: Vec<String> = std::iter::once(wall.clone())
        .chain(rows)
        .chain(std::iter::once(wall))
        .collect();
    lines.join("\n") + "\n"
}

/// The time limit covers grounding: a 40 × 40 level of two kinds (about
/// 1 000 tiles, millions of operators) stops at it with exit status 5.
#[test]
fn solve_stops_grounding_at_the_time_limit() {
    let (status, stdout) = solve_checkerboard(40, &["--time-limit", "0.2"]);
    assert_eq!(status, Some(5), "{stdout}");
    assert!(
        stdout.contains("; time limit reached while grounding, after "),
        "{stdout}"
    );
}

/// A task that grounds for more than a second shows a line while it
/// grounds (unless `-q`), so that it does not look stuck: `plan puzznic
/// solve`, `plan` and `plan ground` alike, each stopped by its time limit.
#[test]
fn long_grounding_shows_progress() {
    let scratch = temp_dir();
    let level = scratch.path().join("checkerboard.txt");
    std::fs::write(&level, checkerboard_level(40)).expect("write");
    let problem = scratch.path().join("checkerboard.pddl");
    let out = plan()
        .args(["puzznic", "problem", "-o"])
        .arg(&problem)
        .arg(&level)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let domain = format!("{}/domains/puzznic/domain.pddl", env!("CARGO_MANIFEST_DIR"));
    let runs: [Vec<&std::ffi::OsStr>; 3] = [
        vec!["puzznic".as_ref(), "solve".as_ref(), level.as_os_str()],
        vec![domain.as_ref(), problem.as_os_str()],
        vec!["ground".as_ref(), domain.as_ref(), problem.as_os_str()],
    ];
    for args in runs {
        for quiet in [false, true] {
            let out = plan()
                .args(&args)
                .args(["--time-limit", "1.6"])
                .args(quiet.then_some("-q"))
                .output()
                .expect("runs");
            assert_eq!(out.status.code(), Some(5), "{args:?}");
            let stderr = String::from_utf8_lossy(&out.stderr);
            let shown = stderr.lines().any(|line| {
                line.starts_with('[') && line.contains("grounding  ") && line.ends_with(" MiB")
            });
            assert_eq!(shown, !quiet, "{args:?} quiet {quiet}: {stderr}");
        }
    }
}

/// A plan the default does not prove to have the fewest moves says so,
/// with the bound it knows and the flag that finds the fewest; a proven
/// one says "(optimal)" instead.
#[test]
fn an_unproven_plan_says_so() {
    let solved = |args: &[&str], level: &std::path::Path| {
        let (status, stdout) = solve(args, level);
        assert_eq!(status, Some(0), "{stdout}");
        stdout
    };
    let proven = solved(&[], shipped("bridge").as_ref());
    assert!(proven.contains("16 player moves (optimal)"), "{proven}");
    assert!(!proven.contains("not proven"), "{proven}");
    let Some(dir) = gameboy_levels() else { return };
    // 059: 31 moves by the default, 23 the fewest.
    let level = dir.join("059.txt");
    let unproven = solved(&[], &level);
    let line = unproven
        .lines()
        .find(|line| line.starts_with("; not proven the fewest moves (at least "))
        .unwrap_or_else(|| panic!("{unproven}"));
    assert!(
        line.ends_with(" are needed): --optimal finds the fewest"),
        "{line}"
    );
    let optimal = solved(&["--optimal"], &level);
    assert!(optimal.contains("23 player moves (optimal)"), "{optimal}");
    assert!(!optimal.contains("not proven"), "{optimal}");
}

/// `plan puzznic show` also reads moves as `plan puzznic solve` describes
/// them: the known solution of Game Boy level 127 clears it.
#[test]
fn show_reads_described_moves() {
    let Some(dir) = gameboy_levels() else { return };
    let moves = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/puzznic_support/gameboy-127.moves"
    );
    let out = plan()
        .args(["puzznic", "show"])
        .arg(dir.join("127.txt"))
        .arg(moves)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let shown = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        shown.contains("move 44: move tile at row 11 col 7 right"),
        "{shown}"
    );
    assert!(shown.ends_with("cleared in 44 moves\n"), "{shown}");
}

/// The configurations of `plan puzznic solve` that
/// [`assert_unsolvable_before_searching`] runs by the turn-based rules.
const TURN_BASED_CONFIGURATIONS: [&[&str]; 3] = [&[], &["--optimal"], &["--simulator"]];

/// Asserts that `plan puzznic solve` reports the level at `path`
/// unsolvable before any search (exit status 4, no search statistics) in
/// every configuration, with `message(real_time)` on stdout.
fn assert_unsolvable_before_searching(path: &Path, message: impl Fn(bool) -> String) {
    for extra in TURN_BASED_CONFIGURATIONS
        .into_iter()
        .chain([&["--real-time"][..]])
    {
        let message = message(extra == ["--real-time"]);
        let (status, stdout) = solve(extra, path);
        assert_eq!(status, Some(4), "{} {extra:?}", path.display());
        assert!(stdout.contains(&message), "{stdout}");
        assert!(!stdout.contains("expanded"), "no search ran: {stdout}");
    }
}

/// A kind with a single tile makes a level unsolvable: reported before any
/// search, with exit status 4, naming the type and its cell.
#[test]
fn a_lone_tile_is_reported_unsolvable_before_searching() {
    let scratch = temp_dir();
    let path = scratch.path().join("single.txt");
    std::fs::write(&path, "######\n#a.bb#\n######\n").expect("write");
    assert_unsolvable_before_searching(&path, |_| {
        "; unsolvable: only one tile of type `a` (at row 2 col 2)".to_owned()
    });
    // The level is still well formed: its PDDL problem can be written.
    let out = plan()
        .args(["puzznic", "problem"])
        .arg(&path)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
}

/// Tiles that can never meet make a level unsolvable too: reported before
/// any search, by the turn-based and the real-time rules alike.
#[test]
fn stranded_tiles_are_reported_unsolvable_before_searching() {
    let scratch = temp_dir();
    let cases = [
        (
            "well.txt",
            // The lower `a` can never climb out of its well.
            "#######\n#b...a#\n####.##\n#a.#b.#\n#######\n",
            (
                "row 2 col 6",
                "it can never get next to another tile of its type",
            ),
        ),
        (
            "pits.txt",
            "#####\n#.a.#\n#a#a#\n#####\n",
            ("row 2 col 3", "the three tiles of its type can never meet"),
        ),
    ];
    for (file, text, (at, reason)) in cases {
        let path = scratch.path().join(file);
        std::fs::write(&path, text).expect("write");
        assert_unsolvable_before_searching(&path, |real_time| {
            // The turn-based rules judge the settled board.
            let when = if real_time {
                ""
            } else {
                " after the level settles"
            };
            format!("; unsolvable: the tile of type `a` at {at}{when}: {reason}")
        });
    }
}

/// A level whose first settling strands a tile by the turn-based rules,
/// where by the real-time ones a push while the top tile falls saves it:
/// only the turn-based rules report it unsolvable before searching.
#[test]
fn the_first_settling_decides_only_by_the_turn_based_rules() {
    let scratch = temp_dir();
    let path = scratch.path().join("early-push.txt");
    std::fs::write(&path, "######\n#.a..#\n#....#\n#....#\n#.a.a#\n######\n").expect("write");
    for extra in TURN_BASED_CONFIGURATIONS {
        let (status, stdout) = solve(extra, &path);
        assert_eq!(status, Some(4), "{extra:?}");
        assert!(
            stdout.contains(
                "; unsolvable: the tile of type `a` at row 5 col 5 after the level settles: \
                 it is the only tile of its type"
            ),
            "{stdout}"
        );
    }
    for extra in [&["--real-time"][..], &["--real-time", "--simulator"][..]] {
        let (status, stdout) = solve(extra, &path);
        assert_eq!(status, Some(0), "{extra:?}");
        // One push, made before the top tile lands (either bottom tile
        // may move next to the other).
        assert!(
            stdout.contains("; move 1: before the first falling step: move tile at row 5"),
            "{stdout}"
        );
        assert!(!stdout.contains("; move 2:"), "{stdout}");
    }
}

#[test]
fn solve_reports_progress_on_stderr_unless_quiet() {
    let run = |quiet: bool| {
        let mut cmd = plan();
        cmd.args(["puzznic", "solve", "--optimal"]);
        if quiet {
            cmd.arg("-q");
        }
        let out = cmd.arg(shipped("chain")).output().expect("runs");
        assert_eq!(out.status.code(), Some(0));
        let stdout = String::from_utf8(out.stdout).expect("utf-8");
        assert!(stdout.contains("; solved: "), "{stdout}");
        String::from_utf8(out.stderr).expect("utf-8")
    };
    let progress = run(false);
    assert!(progress.contains(" expanded, "), "{progress}");
    assert!(progress.contains("found a plan: "), "{progress}");
    assert_eq!(run(true), "");
}

#[test]
fn solve_checks_its_search_flags_as_plan_does() {
    let cases: [&[&str]; 5] = [
        &["--weight", "0.5"],
        &["--time-limit", "0"],
        &["--anytime"],
        // The default is weighted A*, with its own novelty turn.
        &["--novelty"],
        &["--optimal", "--heuristic", "hff"],
    ];
    for flags in cases {
        let out = plan()
            .args(["puzznic", "solve", &shipped("chain")])
            .args(flags)
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {stderr}");
        assert!(stderr.contains(flags[0]), "{flags:?}: {stderr}");
    }
}

#[test]
fn solve_honours_the_memory_limit() {
    // A level of 21 tiles whose grounding takes more than the 1 MiB
    // allowed (the smallest limit: zero is refused as a mistake).
    let dir = temp_dir();
    let level = dir.path().join("crowded.txt");
    std::fs::write(
        &level,
        "############\n#..........#\n#a........b#\n#c.d....e.d#\n\
         #b.a.c..d.e#\n#d.e.b..a.c#\n#e.c.a..b.a#\n############\n",
    )
    .expect("writes");
    let (status, stdout) = solve(&["-q", "--memory-limit", "1"], &level);
    assert_eq!(status, Some(6), "{stdout}");
    assert!(stdout.contains("memory limit reached"), "{stdout}");
    let (status, _) = solve(&["-q", "--memory-limit", "0"], &level);
    assert_eq!(status, Some(2));
}

#[test]
fn real_time_solve_then_show() {
    let scratch = temp_dir();
    let dir = scratch.path();
    // By the turn-based rules the catch is unsolvable (exit 4).
    let out = plan()
        .args(["puzznic", "solve", "--optimal", "-q", &shipped("catch")])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(4));
    let out = plan()
        .args([
            "puzznic",
            "solve",
            "--real-time",
            "--optimal",
            "-q",
            &shipped("catch"),
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        text.contains("; solved: 2 player moves (optimal)"),
        "{text}"
    );
    assert!(
        text.contains("; move 2: after 1 falling step: move tile at row 4 col 3 left"),
        "{text}"
    );
    let plan_path = dir.join("catch.plan");
    std::fs::write(&plan_path, &text).expect("write");
    let out = plan()
        .args(["puzznic", "show", "--real-time", "--color", "never"])
        .arg(shipped("catch"))
        .arg(&plan_path)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let shown = String::from_utf8(out.stdout).expect("utf-8");
    assert!(shown.contains("3 tiles vanish"), "{shown}");
    assert!(shown.contains("cleared in 2 moves"), "{shown}");
    // Without --real-time the plan breaks the rules: said, not replayed.
    let out = plan()
        .args(["puzznic", "show"])
        .arg(shipped("catch"))
        .arg(&plan_path)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).expect("utf-8");
    assert!(err.contains("move 2"), "{err}");
    assert!(err.contains("real-time rules"), "{err}");
    // The real-time domain is built in too, and reads the same problems.
    let out = plan()
        .args(["puzznic", "domain", "--real-time"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let domain_path = dir.join("realtime.pddl");
    std::fs::write(&domain_path, &out.stdout).expect("write");
    let problem = format!("{}/problems/puzznic/catch.pddl", env!("CARGO_MANIFEST_DIR"));
    let out = plan()
        .args(["--optimal", "-q"])
        .arg(&domain_path)
        .arg(&problem)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.contains("; cost = 2 (general cost)"), "{text}");
}

#[test]
fn a_stopped_optimal_solve_states_the_moves_it_proved_necessary() {
    let Some(dir) = gameboy_levels() else { return };
    // Level 062 needs 18 moves (MOVES); A* with pattern databases takes
    // about 20 s to prove it, and its first f layer is 11.
    let out = plan()
        .args(["puzznic", "solve", "--optimal", "-q", "--time-limit", "8"])
        .arg(dir.join("062.txt"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(5));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let bound: usize = stdout
        .lines()
        .find_map(|line| line.strip_prefix("; time limit reached after "))
        .and_then(|rest| rest.split(": at least ").nth(1))
        .and_then(|rest| rest.strip_suffix(" moves"))
        .unwrap_or_else(|| panic!("no bound: {stdout}"))
        .parse()
        .expect("a number");
    assert!((11..=18).contains(&bound), "{bound}");
}

/// A level on standard input (`-`), in the text format or as a Tiled map
/// (told apart by its opening `{`), gets the problem name `puzznic-stdin`;
/// `plan puzznic show` reads a plan from standard input too.
#[test]
fn levels_and_plans_can_come_from_standard_input() {
    let level = std::fs::read_to_string(shipped("chain")).unwrap();
    let out = plan()
        .args(["puzznic", "problem", "-"])
        .write_stdin(level.clone())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let from_stdin = String::from_utf8(out.stdout).expect("utf-8");
    let from_file = plan()
        .args(["puzznic", "problem", &shipped("chain")])
        .output()
        .expect("runs");
    let from_file = String::from_utf8(from_file.stdout).expect("utf-8");
    assert_eq!(
        from_stdin,
        from_file.replace("(problem puzznic-chain)", "(problem puzznic-stdin)")
    );
    let (status, solved) = solve(&["-q"], shipped("chain"));
    assert_eq!(status, Some(0));
    let out = plan()
        .args(["puzznic", "show", &shipped("chain"), "-"])
        .write_stdin(solved)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let shown = String::from_utf8(out.stdout).expect("utf-8");
    assert!(shown.contains("cleared in "), "{shown}");
    // A page on standard output would mix with the summary printed there.
    let out = plan()
        .args(["puzznic", "show", "--html", "-", &shipped("chain"), "-"])
        .write_stdin("")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("error: `--html -` would mix"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `plan puzznic solve --json` with `args` on `level`: its exit
/// status and the JSON object it printed.
fn solve_json(
    args: &[&str],
    level: impl AsRef<std::ffi::OsStr>,
) -> (Option<i32>, serde_json::Value) {
    let (status, stdout) = solve(&[&["--json"], args].concat(), level);
    let report = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    (status, report)
}

/// `-o FILE` puts a solution in the file (one `plan puzznic show` reads),
/// and only a solution; `--json` reports every outcome as one object.
#[test]
fn solve_writes_a_file_or_json() {
    let scratch = temp_dir();
    let dir = scratch.path();
    let plan_path = dir.join("plan.txt");
    let out = plan()
        .args(["puzznic", "solve", "-q", "--optimal", "-o"])
        .arg(&plan_path)
        .arg(shipped("two-colours"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty(), "the solution went to the file");
    let text = std::fs::read_to_string(&plan_path).expect("written");
    assert!(
        text.contains("; solved: 6 player moves (optimal)"),
        "{text}"
    );
    let out = plan()
        .args(["puzznic", "show", &shipped("two-colours")])
        .arg(&plan_path)
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("cleared in 6 moves\n"));

    let (status, report) = solve_json(&["--optimal"], shipped("two-colours"));
    assert_eq!(status, Some(0));
    assert_eq!(report["status"], "solved");
    assert_eq!(report["solver"], "planner");
    assert_eq!(report["move_count"], 6);
    assert_eq!(report["optimal"], true);
    let moves = report["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 6);
    assert!(
        moves[0]
            .as_str()
            .expect("text")
            .starts_with("move tile at row ")
    );
    let plan_lines = report["plan"].as_array().expect("plan");
    let pushes = plan_lines
        .iter()
        .filter(|line| line.as_str().is_some_and(|l| l.starts_with("(push-")));
    assert_eq!(pushes.count(), 6);
    assert!(report["expanded"].as_u64().expect("expanded") > 0);

    // One move: the singular, by the simulator too.
    let (status, report) = solve_json(&["--simulator"], shipped("horizontal-pair"));
    assert_eq!(status, Some(0));
    assert_eq!(report["solver"], "simulator");
    assert_eq!(report["move_count"], 1);
    assert!(report["plan"].is_null());
    let message = report["messages"][0].as_str().expect("message");
    assert!(message.contains(": 1 move (optimal)"), "{message}");
    let (_, text) = solve(&["-q"], shipped("horizontal-pair"));
    assert!(text.contains("; solved: 1 player move (optimal)"), "{text}");

    // Unsolvable before any search: no file, the reason on stdout.
    let lone = dir.join("single.txt");
    std::fs::write(&lone, "######\n#a.bb#\n######\n").expect("write");
    let unwritten = dir.join("unwritten.txt");
    let out = plan()
        .args(["puzznic", "solve", "-o"])
        .arg(&unwritten)
        .arg(&lone)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(4));
    assert!(!unwritten.exists());
    assert!(String::from_utf8_lossy(&out.stdout).contains("; unsolvable: only one tile"));
    let (status, report) = solve_json(&[], &lone);
    assert_eq!(status, Some(4));
    assert_eq!(report["status"], "unsolvable");
    assert!(report["moves"].is_null());

    // A limit: its outcome and the bound proven.
    let pairs = dir.join("pairs.txt");
    std::fs::write(
        &pairs,
        "################\n#ab.cd.ef.gh.ij#\n#ba.dc.fe.hg.ji#\n################\n",
    )
    .expect("write");
    let (status, report) = solve_json(&["--simulator", "--max-states", "1000"], &pairs);
    assert_eq!(status, Some(6));
    assert_eq!(report["status"], "memory limit");
    assert_eq!(report["lower_bound"], 4);
    assert_eq!(report["boards"], 1000);

    // `-o -` would mix the plan with the JSON object.
    let (status, _) = solve(&["--json", "-o", "-"], shipped("horizontal-pair"));
    assert_eq!(status, Some(2));
}
