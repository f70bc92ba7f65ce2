//! The problem generators: deterministic for a seed, different across
//! seeds, sizes respected, output parses and checks, and the `plan
//! generate` front end writes the library's text.

mod domains_support;

use assert_cmd::Command;
use domains_support::{facts, load_domain, load_problem_text, solvers};
use planner::generate::{GenerateError, blocksworld, briefcase, hanoi, queens, sliding_tiles, tsp};

/// Parses and checks generated `text` against the shipped `domain`, and
/// returns its facts.
fn checked_facts(domain: &str, text: &str) -> domains_support::Facts {
    facts(&load_problem_text(
        &load_domain(domain),
        "generated.pddl",
        text,
    ))
}

/// A generator at a fixed size: seed to problem text.
type SeededGenerator = Box<dyn Fn(u64) -> String>;

/// Every seeded generator at a small size, with its domain.
fn seeded_generators() -> Vec<(&'static str, SeededGenerator)> {
    vec![
        (
            "blocksworld",
            Box::new(|seed| blocksworld::generate(7, false, seed).unwrap()),
        ),
        (
            "blocksworld-costs",
            Box::new(|seed| blocksworld::generate(7, true, seed).unwrap()),
        ),
        (
            "sliding-tiles",
            Box::new(|seed| sliding_tiles::generate(3, 30, seed).unwrap()),
        ),
        (
            "sliding-tiles",
            Box::new(|seed| sliding_tiles::generate(4, 30, seed).unwrap()),
        ),
        ("tsp", Box::new(|seed| tsp::generate(7, seed).unwrap())),
        (
            "briefcase",
            Box::new(|seed| briefcase::generate(4, 5, seed).unwrap()),
        ),
    ]
}

#[test]
fn same_seed_same_text_and_different_seeds_differ() {
    for (domain, generate) in seeded_generators() {
        assert_eq!(generate(7), generate(7), "{domain}");
        assert_ne!(generate(7), generate(8), "{domain}");
        // Beyond the header comment, which names the seed.
        let body = |text: String| {
            text.lines()
                .filter(|l| !l.starts_with(";;") && !l.contains("(problem "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_ne!(body(generate(1)), body(generate(2)), "{domain}");
    }
}

#[test]
fn generated_problems_parse_and_check() {
    for (domain, generate) in seeded_generators() {
        for seed in [0, 1, u64::MAX] {
            checked_facts(domain, &generate(seed));
        }
    }
    checked_facts("hanoi", &hanoi::generate(4).unwrap());
    checked_facts("queens", &queens::generate(5).unwrap());
}

#[test]
fn blocksworld_sizes_and_configurations() {
    for blocks in [1, 2, 9, 30] {
        let f = checked_facts(
            "blocksworld",
            &blocksworld::generate(blocks, false, 3).unwrap(),
        );
        assert_eq!(f.objects.len(), blocks);
        // Each block stands on exactly one thing at the start and in the goal.
        assert_eq!(f.init_of("on").len() + f.init_of("ontable").len(), blocks);
        assert_eq!(f.goal_of("on").len() + f.goal_of("ontable").len(), blocks);
        assert_eq!(
            f.init_of("clear").len(),
            f.init_of("ontable").len(),
            "one clear top per tower"
        );
        assert_eq!(f.init_of("handempty").len(), 1);
    }
    let f = checked_facts(
        "blocksworld-costs",
        &blocksworld::generate(12, true, 5).unwrap(),
    );
    assert_eq!(f.objects_of("block").len(), 12);
    let weights: Vec<f64> = f
        .numbers
        .iter()
        .filter(|(k, _)| k[0] == "weight")
        .map(|(_, &v)| v)
        .collect();
    assert_eq!(weights.len(), 12);
    assert!(
        weights
            .iter()
            .all(|&w| (1.0..=blocksworld::MAX_WEIGHT as f64).contains(&w))
    );
    assert_eq!(f.numbers.get(&vec!["total-cost".to_owned()]), Some(&0.0));
}

#[test]
fn hanoi_and_queens_sizes() {
    let f = checked_facts("hanoi", &hanoi::generate(6).unwrap());
    assert_eq!(f.objects_of("disc").len(), 6);
    assert_eq!(f.objects_of("peg").len(), 3);
    assert_eq!(f.goal.len(), 6);
    // Each disc rests on the 3 pegs and on each larger disc: 6*3 + 15.
    assert_eq!(f.init_of("smaller").len(), 18 + 15);

    let f = checked_facts("queens", &queens::generate(8).unwrap());
    assert_eq!(f.objects_of("row").len(), 8);
    assert_eq!(f.objects_of("column").len(), 8);
    assert_eq!(f.init_of("above").len(), 28);
    // Ordered pairs of distinct squares sharing a diagonal: per direction
    // the sum over diagonals of len*(len-1), 2*(0+2+6+...+42) + 56 = 280.
    assert_eq!(f.init_of("same-diagonal").len(), 2 * 280);
}

#[test]
fn tsp_sizes_and_symmetric_integer_roads() {
    let f = checked_facts("tsp", &tsp::generate(9, 4).unwrap());
    let cities = f.objects_of("city");
    assert_eq!(cities.len(), 9);
    assert_eq!(
        f.goal_of("visited").len(),
        8,
        "all but home, visited from the start"
    );
    assert_eq!(f.init_of("home"), [["c1".to_owned()]]);
    let roads: Vec<_> = f
        .numbers
        .iter()
        .filter(|(k, _)| k[0] == "road-length")
        .collect();
    assert_eq!(roads.len(), 9 * 8);
    for (key, &length) in roads {
        assert_eq!(length.fract(), 0.0);
        assert!(
            (0.0..=142.0).contains(&length),
            "at most the grid's diagonal"
        );
        let back = vec![key[0].clone(), key[2].clone(), key[1].clone()];
        assert_eq!(f.numbers.get(&back), Some(&length));
    }
    assert_eq!(tsp::road_length((0, 0), (3, 4)), 5);
    assert_eq!(tsp::road_length((0, 0), (1, 1)), 1);
    assert_eq!(tsp::road_length((0, 0), (1, 2)), 2);
}

#[test]
fn briefcase_sizes() {
    let f = checked_facts("briefcase", &briefcase::generate(6, 4, 9).unwrap());
    assert_eq!(f.objects_of("location").len(), 6);
    assert_eq!(f.objects_of("portable").len(), 4);
    assert_eq!(f.init_of("at").len(), 4);
    for (start, goal) in f.init_of("at").iter().zip(f.goal_of("at")) {
        assert_eq!(start[0], goal[0]);
        assert_ne!(start[1], goal[1], "every item has somewhere to go");
    }
}

/// The board of a generated sliding-tiles problem, row-major, 0 for blank.
fn board_of(size: usize, f: &domains_support::Facts) -> Vec<u8> {
    let cell = |name: &str| {
        let parts: Vec<usize> = name
            .split('-')
            .skip(1)
            .map(|p| p.parse().unwrap())
            .collect();
        (parts[0] - 1) * size + parts[1] - 1
    };
    let mut board = vec![0u8; size * size];
    for args in f.init_of("at") {
        board[cell(&args[1])] = args[0][1..].parse().unwrap();
    }
    assert_eq!(f.init_of("blank").len(), 1);
    assert_eq!(board[cell(&f.init_of("blank")[0][0])], 0);
    board
}

#[test]
fn sliding_tiles_scrambles_are_solvable_within_their_length() {
    for seed in 1..=20 {
        let moves = (seed as usize * 7) % 31;
        let f = checked_facts(
            "sliding-tiles",
            &sliding_tiles::generate(3, moves, seed).unwrap(),
        );
        assert_eq!(f.objects_of("tile").len(), 8);
        assert_eq!(f.objects_of("position").len(), 9);
        assert_eq!(f.init_of("adjacent").len(), 24);
        let board = board_of(3, &f);
        assert!(solvers::tiles_solvable(3, &board));
        let optimum = solvers::tiles_bfs(3, &board).expect("solvable");
        assert!(optimum <= moves as u64, "seed {seed}: {optimum} > {moves}");
    }
    for seed in 1..=20 {
        let f = checked_facts(
            "sliding-tiles",
            &sliding_tiles::generate(4, 200, seed).unwrap(),
        );
        assert_eq!(f.objects_of("tile").len(), 15);
        assert_eq!(f.init_of("adjacent").len(), 48);
        assert!(solvers::tiles_solvable(4, &board_of(4, &f)), "seed {seed}");
    }
}

#[test]
fn sizes_out_of_range_are_refused() {
    let range = |option, value, min, max| {
        Err(GenerateError::OutOfRange {
            option,
            value,
            min,
            max,
        })
    };
    assert_eq!(
        blocksworld::generate(0, false, 1),
        range("blocks", 0, 1, blocksworld::MAX_BLOCKS)
    );
    assert_eq!(hanoi::generate(41), range("discs", 41, 1, hanoi::MAX_DISCS));
    assert_eq!(
        sliding_tiles::generate(1, 5, 1),
        range("size", 1, 2, sliding_tiles::MAX_SIZE)
    );
    assert_eq!(queens::generate(0), range("n", 0, 1, queens::MAX_QUEENS));
    assert_eq!(tsp::generate(1, 1), range("cities", 1, 2, tsp::MAX_CITIES));
    assert_eq!(
        briefcase::generate(0, 1, 1),
        range("locations", 0, 1, briefcase::MAX_LOCATIONS)
    );
    assert_eq!(
        GenerateError::OutOfRange {
            option: "blocks",
            value: 0,
            min: 1,
            max: 9
        }
        .to_string(),
        "--blocks must be between 1 and 9, got 0"
    );
}

#[test]
fn plan_generate_writes_the_library_text() {
    let output = Command::cargo_bin("plan")
        .unwrap()
        .args(["generate", "blocksworld", "--blocks", "5", "--seed", "3"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        blocksworld::generate(5, false, 3).unwrap()
    );

    let output = Command::cargo_bin("plan")
        .unwrap()
        .args([
            "generate",
            "sliding-tiles",
            "--size",
            "4",
            "--scramble",
            "12",
            "--seed",
            "2",
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        sliding_tiles::generate(4, 12, 2).unwrap()
    );

    let file = std::env::temp_dir().join(format!("domains-generate-{}.pddl", std::process::id()));
    let output = Command::cargo_bin("plan")
        .unwrap()
        .args(["generate", "tsp", "--cities", "5", "-o"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty());
    let written = std::fs::read_to_string(&file).unwrap();
    let _ = std::fs::remove_file(&file);
    assert_eq!(
        written,
        tsp::generate(5, 1).unwrap(),
        "the seed defaults to 1"
    );
}

#[test]
fn plan_generate_refuses_bad_sizes_with_an_input_error() {
    let output = Command::cargo_bin("plan")
        .unwrap()
        .args(["generate", "queens", "--n", "0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(planner::exit::INPUT_ERROR));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--n must be between 1 and"));
    assert!(output.stdout.is_empty());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Any seed and size within the limits gives a clean problem of that
    /// size, the same one every time.
    #[test]
    fn any_seed_and_size_gives_a_clean_problem(
        seed in proptest::prelude::any::<u64>(),
        size in 1usize..=9,
        moves in 0usize..=60,
    ) {
        let blocks = blocksworld::generate(size, seed % 2 == 0, seed).unwrap();
        proptest::prop_assert_eq!(&blocks, &blocksworld::generate(size, seed % 2 == 0, seed).unwrap());
        let domain = if seed % 2 == 0 { "blocksworld-costs" } else { "blocksworld" };
        proptest::prop_assert_eq!(checked_facts(domain, &blocks).objects.len(), size);

        let side = 2 + size % 3;
        let f = checked_facts("sliding-tiles", &sliding_tiles::generate(side, moves, seed).unwrap());
        proptest::prop_assert!(solvers::tiles_solvable(side, &board_of(side, &f)));

        let f = checked_facts("tsp", &tsp::generate(size + 1, seed).unwrap());
        proptest::prop_assert_eq!(f.objects_of("city").len(), size + 1);

        let f = checked_facts("briefcase", &briefcase::generate(size, size - 1, seed).unwrap());
        proptest::prop_assert_eq!(f.objects_of("location").len(), size);
        proptest::prop_assert_eq!(f.objects_of("portable").len(), size - 1);
    }
}
