//! Shared helpers of the `domains_*` tests: locating the shipped files,
//! reading them with the parser, extracting the instances they encode, and
//! the table of optimal costs computed by the independent solvers.

// Each test binary uses a different part of this module.
#![allow(dead_code)]

pub mod solvers;

use pddl_syntax::ast::{ConditionKind, Domain, InitElement, Problem, Type};
use pddl_syntax::{SourceFile, check};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The shipped domains written for this project (Puzznic has its own tests).
pub const DOMAINS: [&str; 7] = [
    "blocksworld",
    "blocksworld-costs",
    "hanoi",
    "sliding-tiles",
    "queens",
    "tsp",
    "briefcase",
];

/// Optimal plan costs of shipped problems, `(domain, problem file stem,
/// cost)`: what the solvers in [`solvers`] compute from the files (asserted
/// by `domains_optimal.rs`) and what an optimal planner must find. Problems
/// too large for those solvers are absent.
pub const EXPECTED_OPTIMA: &[(&str, &str, u64)] = &[
    ("blocksworld", "blocks-04-s1", 6),
    ("blocksworld", "blocks-06-s2", 14),
    ("blocksworld", "blocks-08-s1", 20),
    ("blocksworld", "blocks-08-s2", 16),
    ("blocksworld-costs", "blocks-costs-04-s1", 15),
    ("blocksworld-costs", "blocks-costs-06-s2", 47),
    ("blocksworld-costs", "blocks-costs-08-s1", 55),
    ("hanoi", "hanoi-03", 7),
    ("hanoi", "hanoi-05", 31),
    ("hanoi", "hanoi-07", 127),
    ("hanoi", "hanoi-09", 511),
    ("hanoi", "hanoi-12", 4095),
    ("sliding-tiles", "tiles3x3-k05-s1", 5),
    ("sliding-tiles", "tiles3x3-k10-s1", 10),
    ("sliding-tiles", "tiles3x3-k20-s2", 20),
    ("sliding-tiles", "tiles3x3-k40-s1", 18),
    ("sliding-tiles", "tiles3x3-k100-s1", 22),
    ("sliding-tiles", "tiles4x4-k10-s1", 10),
    ("sliding-tiles", "tiles4x4-k20-s1", 18),
    ("sliding-tiles", "tiles4x4-k40-s1", 28),
    ("sliding-tiles", "tiles4x4-k60-s2", 38),
    ("sliding-tiles", "tiles4x4-k60-s1", 42),
    ("queens", "queens-04", 4),
    ("queens", "queens-05", 5),
    ("queens", "queens-06", 6),
    ("queens", "queens-08", 8),
    ("queens", "queens-10", 10),
    ("queens", "queens-12", 12),
    ("tsp", "tsp-04-s1", 128),
    ("tsp", "tsp-05-s1", 159),
    ("tsp", "tsp-06-s1", 163),
    ("tsp", "tsp-08-s1", 210),
    ("tsp", "tsp-10-s1", 232),
    ("tsp", "tsp-12-s1", 298),
    ("briefcase", "briefcase-l02-i01-s1", 3),
    ("briefcase", "briefcase-l03-i02-s1", 6),
    ("briefcase", "briefcase-l04-i03-s1", 11),
    ("briefcase", "briefcase-l05-i04-s1", 14),
    ("briefcase", "briefcase-l06-i05-s1", 16),
];

/// The repository root (the `planner` package).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `domains/<domain>/domain.pddl`.
pub fn domain_path(domain: &str) -> PathBuf {
    repo_root().join("domains").join(domain).join("domain.pddl")
}

/// `problems/<domain>/<stem>.pddl`.
pub fn problem_path(domain: &str, stem: &str) -> PathBuf {
    repo_root()
        .join("problems")
        .join(domain)
        .join(format!("{stem}.pddl"))
}

/// The shipped problem files of `domain`, sorted by name.
pub fn shipped_problems(domain: &str) -> Vec<PathBuf> {
    let folder = repo_root().join("problems").join(domain);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap_or_else(|error| panic!("cannot list {}: {error}", folder.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "pddl"))
        .collect();
    files.sort();
    files
}

/// The file's stem (`blocks-08-s1` for `.../blocks-08-s1.pddl`).
pub fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn read(path: &Path) -> SourceFile {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    SourceFile::new(path.display().to_string(), text)
}

/// Renders diagnostics one after the other; with `errors_only`, just the errors.
fn render(file: &SourceFile, diagnostics: &[pddl_syntax::Diagnostic], errors_only: bool) -> String {
    diagnostics
        .iter()
        .filter(|d| !errors_only || d.is_error())
        .map(|d| d.render(file))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Parses and checks the shipped domain, panicking with the rendered
/// diagnostics on any error or warning: shipped files are clean.
pub fn load_domain(domain: &str) -> Domain {
    let file = read(&domain_path(domain));
    let parsed = pddl_syntax::parse_domain(&file.text)
        .unwrap_or_else(|diagnostics| panic!("{}", render(&file, &diagnostics, true)));
    let findings = render(&file, &check::check_domain(&parsed), false);
    assert!(findings.is_empty(), "{findings}");
    parsed
}

/// Parses problem `text` (named `name` in messages) and checks it against
/// `domain`, panicking with the rendered diagnostics on any error or warning.
pub fn load_problem_text(domain: &Domain, name: &str, text: &str) -> Problem {
    let file = SourceFile::new(name, text);
    let parsed = pddl_syntax::parse_problem(&file.text)
        .unwrap_or_else(|diagnostics| panic!("{}", render(&file, &diagnostics, true)));
    let findings = render(&file, &check::check_problem(domain, &parsed), false);
    assert!(findings.is_empty(), "{findings}");
    parsed
}

/// Parses and checks a shipped problem file against `domain`.
pub fn load_problem(domain: &Domain, path: &Path) -> Problem {
    let file = read(path);
    load_problem_text(domain, &file.path, &file.text)
}

/// A ground atom as its predicate followed by its arguments.
pub type Fact = Vec<String>;

/// What the independent solvers need of a problem: objects by type, the
/// initial atoms and numeric values, and the goal atoms of a conjunctive
/// goal.
#[derive(Debug, Default)]
pub struct Facts {
    /// Objects in declaration order, with their type (`object` if untyped).
    pub objects: Vec<(String, String)>,
    /// Initial true atoms.
    pub init: Vec<Fact>,
    /// Initial numeric values, keyed by function and arguments.
    pub numbers: HashMap<Fact, f64>,
    /// Goal atoms (empty for a goal that is not a conjunction of atoms).
    pub goal: Vec<Fact>,
}

impl Facts {
    /// The objects of type `ty`, in declaration order.
    pub fn objects_of(&self, ty: &str) -> Vec<String> {
        self.objects
            .iter()
            .filter(|(_, t)| t == ty)
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// Initial atoms of `predicate`, as argument lists.
    pub fn init_of(&self, predicate: &str) -> Vec<&[String]> {
        self.init
            .iter()
            .filter(|f| f[0] == predicate)
            .map(|f| &f[1..])
            .collect()
    }

    /// Goal atoms of `predicate`, as argument lists.
    pub fn goal_of(&self, predicate: &str) -> Vec<&[String]> {
        self.goal
            .iter()
            .filter(|f| f[0] == predicate)
            .map(|f| &f[1..])
            .collect()
    }
}

/// Extracts [`Facts`] from a parsed problem.
pub fn facts(problem: &Problem) -> Facts {
    let mut out = Facts::default();
    for object in &problem.objects {
        let ty = match &object.ty {
            Some(Type::Name(name)) => name.text.clone(),
            Some(Type::Either(..)) => "either".to_owned(),
            None => "object".to_owned(),
        };
        out.objects.push((object.name.text.clone(), ty));
    }
    for element in &problem.init {
        match element {
            InitElement::Atom(atom) => out.init.push(
                std::iter::once(&atom.predicate)
                    .chain(&atom.args)
                    .map(|n| n.text.clone())
                    .collect(),
            ),
            InitElement::NumericValue(atom, value, _) => {
                let key = std::iter::once(&atom.predicate)
                    .chain(&atom.args)
                    .map(|n| n.text.clone())
                    .collect();
                out.numbers.insert(key, *value);
            }
            _ => {}
        }
    }
    let mut pending: Vec<&pddl_syntax::ast::Condition> = problem.goal.iter().collect();
    while let Some(condition) = pending.pop() {
        match &condition.kind {
            ConditionKind::And(parts) => pending.extend(parts.iter().rev()),
            ConditionKind::Atom(atom) => out.goal.push(
                std::iter::once(atom.predicate.text.clone())
                    .chain(atom.args.iter().map(|term| match term {
                        pddl_syntax::ast::Term::Name(name) => name.text.clone(),
                        pddl_syntax::ast::Term::Variable(var) => format!("?{}", var.name),
                    }))
                    .collect(),
            ),
            _ => {}
        }
    }
    out
}

/// The number in an object name such as `t12` or `l03`.
fn number_in(name: &str) -> usize {
    name.trim_start_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .unwrap_or_else(|_| panic!("no number in {name}"))
}

/// The optimal cost of the problem, computed by the independent solver of
/// its domain from the facts of the file.
pub fn independent_optimum(domain: &str, facts: &Facts) -> Option<u64> {
    match domain {
        "blocksworld" | "blocksworld-costs" => {
            let blocks: Vec<String> = facts.objects.iter().map(|(name, _)| name.clone()).collect();
            let index = |name: &String| {
                blocks
                    .iter()
                    .position(|b| b == name)
                    .expect("a declared block") as u8
            };
            let supports = |atoms: Vec<&[String]>| {
                let mut support = vec![None; blocks.len()];
                for args in atoms {
                    support[usize::from(index(&args[0]))] = Some(index(&args[1]));
                }
                support
            };
            let start = supports(facts.init_of("on"));
            let goal = supports(facts.goal_of("on"));
            let lift_cost: Vec<u64> = blocks
                .iter()
                .map(|b| {
                    facts
                        .numbers
                        .get(&vec!["weight".to_owned(), b.clone()])
                        .map_or(1, |&w| w as u64)
                })
                .collect();
            solvers::blocks_optimum(&start, &goal, &lift_cost)
        }
        "hanoi" => solvers::hanoi_bfs(facts.objects_of("disc").len()),
        "sliding-tiles" => {
            let cells = facts.objects_of("position").len();
            let size = (1..=cells)
                .find(|s| s * s == cells)
                .expect("a square board");
            let cell = |name: &str| {
                let mut parts = name
                    .split('-')
                    .skip(1)
                    .map(|p| p.parse::<usize>().expect("p-ROW-COLUMN"));
                let (row, column) = (parts.next().unwrap(), parts.next().unwrap());
                (row - 1) * size + column - 1
            };
            let mut board = vec![0u8; cells];
            for args in facts.init_of("at") {
                board[cell(&args[1])] = number_in(&args[0]) as u8;
            }
            if size == 3 {
                solvers::tiles_bfs(size, &board)
            } else {
                Some(solvers::tiles_ida_star(size, &board))
            }
        }
        "queens" => {
            let n = facts.objects_of("row").len();
            solvers::queens_solvable(n).then_some(n as u64)
        }
        "tsp" => {
            let cities = facts.objects_of("city");
            let home = &facts.init_of("home")[0][0];
            // Put the home city first, as the solvers expect.
            let mut order: Vec<&String> = vec![home];
            order.extend(cities.iter().filter(|c| *c != home));
            let distance: Vec<Vec<u64>> = order
                .iter()
                .map(|&from| {
                    order
                        .iter()
                        .map(|&to| {
                            let key = vec!["road-length".to_owned(), from.clone(), to.clone()];
                            facts.numbers.get(&key).map_or(0, |&d| d as u64)
                        })
                        .collect()
                })
                .collect();
            Some(if cities.len() <= 8 {
                solvers::tsp_brute_force(&distance)
            } else {
                solvers::tsp_held_karp(&distance)
            })
        }
        "briefcase" => {
            let locations = facts.objects_of("location");
            let home = &facts.init_of("briefcase-at")[0][0];
            assert_eq!(
                facts.goal_of("briefcase-at")[0][0],
                *home,
                "the solver assumes the briefcase returns home"
            );
            // Index 0 must be home.
            let mut order: Vec<&String> = vec![home];
            order.extend(locations.iter().filter(|l| *l != home));
            let index =
                |name: &String| order.iter().position(|l| *l == name).expect("a location") as u8;
            let items: Vec<(u8, u8)> = facts
                .objects_of("portable")
                .iter()
                .map(|item| {
                    let start = facts
                        .init_of("at")
                        .into_iter()
                        .find(|args| args[0] == *item)
                        .expect("a start");
                    let goal = facts
                        .goal_of("at")
                        .into_iter()
                        .find(|args| args[0] == *item)
                        .expect("a goal");
                    (index(&start[1]), index(&goal[1]))
                })
                .collect();
            solvers::briefcase_optimum(locations.len(), &items)
        }
        other => panic!("no independent solver for {other}"),
    }
}
