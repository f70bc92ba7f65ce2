//! Every shipped domain and problem (except Puzznic's) parses and checks
//! cleanly, and every shipped problem is exactly what its generator writes.

mod domains_support;

use domains_support::{
    DOMAINS, domain_path, load_domain, load_problem, problem_path, shipped_problems, stem,
};
use planner::generate::{blocksworld, briefcase, hanoi, queens, sliding_tiles, tsp};

#[test]
fn every_shipped_domain_parses_and_checks_cleanly() {
    for domain in DOMAINS {
        let parsed = load_domain(domain);
        assert_eq!(
            parsed.name.text, domain,
            "the domain's name is its folder's name"
        );
        assert!(
            !parsed.requirements.is_empty(),
            "{domain} declares its :requirements"
        );
        let text = std::fs::read_to_string(domain_path(domain)).expect("readable");
        assert!(
            text.starts_with(";; "),
            "{domain} starts with a header comment explaining the encoding"
        );
    }
}

#[test]
fn every_shipped_problem_parses_and_checks_cleanly() {
    for domain in DOMAINS {
        let parsed_domain = load_domain(domain);
        let files = shipped_problems(domain);
        assert!(
            files.len() >= 4,
            "{domain} ships a handful of problems, found {}",
            files.len()
        );
        for path in files {
            let problem = load_problem(&parsed_domain, &path);
            assert_eq!(problem.domain.text, domain, "{}", path.display());
            assert_eq!(
                problem.name.text,
                stem(&path),
                "a problem's file is named after it"
            );
        }
    }
}

/// The generator call behind each shipped problem: `(domain, problem name,
/// text)`. Regenerate a file with the command in its first line.
fn shipped_manifest() -> Vec<(&'static str, String, String)> {
    let mut out = Vec::new();
    let mut add = |domain: &'static str, name: String, text: Result<String, _>| {
        out.push((domain, name, text.expect("a valid size")));
    };
    for (blocks, seed) in [
        (4, 1),
        (6, 2),
        (8, 1),
        (8, 2),
        (12, 1),
        (16, 1),
        (25, 1),
        (50, 1),
    ] {
        add(
            "blocksworld",
            blocksworld::problem_name(blocks, false, seed),
            blocksworld::generate(blocks, false, seed),
        );
    }
    for (blocks, seed) in [(4, 1), (6, 2), (8, 1), (12, 1), (16, 1)] {
        add(
            "blocksworld-costs",
            blocksworld::problem_name(blocks, true, seed),
            blocksworld::generate(blocks, true, seed),
        );
    }
    for discs in [3, 5, 7, 9, 12] {
        add("hanoi", hanoi::problem_name(discs), hanoi::generate(discs));
    }
    for (size, moves, seed) in [
        (3, 5, 1),
        (3, 10, 1),
        (3, 20, 2),
        (3, 40, 1),
        (3, 100, 1),
        (4, 10, 1),
        (4, 20, 1),
        (4, 40, 1),
        (4, 60, 1),
        (4, 60, 2),
    ] {
        add(
            "sliding-tiles",
            sliding_tiles::problem_name(size, moves, seed),
            sliding_tiles::generate(size, moves, seed),
        );
    }
    for n in [4, 5, 6, 8, 10, 12] {
        add("queens", queens::problem_name(n), queens::generate(n));
    }
    for cities in [4, 5, 6, 8, 10, 12, 30] {
        add(
            "tsp",
            tsp::problem_name(cities, 1),
            tsp::generate(cities, 1),
        );
    }
    for (locations, items) in [
        (2, 1),
        (3, 2),
        (4, 3),
        (5, 4),
        (6, 5),
        (8, 8),
        (10, 10),
        (12, 12),
    ] {
        add(
            "briefcase",
            briefcase::problem_name(locations, items, 1),
            briefcase::generate(locations, items, 1),
        );
    }
    out
}

#[test]
fn shipped_problems_are_exactly_the_generators_output() {
    let manifest = shipped_manifest();
    for (domain, name, text) in &manifest {
        let path = problem_path(domain, name);
        let shipped =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            shipped == *text,
            "{} differs from its generator's output",
            path.display()
        );
    }
    for domain in DOMAINS {
        let listed = manifest.iter().filter(|(d, _, _)| *d == domain).count();
        assert_eq!(
            shipped_problems(domain).len(),
            listed,
            "every file in problems/{domain} is in the manifest"
        );
    }
}
