//! The public planning data of `../shared`, beside the repository: the
//! benchmark set (`benchmarks/`, listed in `benchmarks/tasks.tsv`) and the
//! Game Boy Puzznic levels (`puzznic/gameboy/`).
//!
//! Only the workspace's tests and benches use it. The data is never part of
//! the project, so on a fresh clone without it each lookup returns `None`
//! after saying on stderr that the caller skips, and the tests pass.

#![warn(missing_docs)]

use std::path::{Path, PathBuf};

/// `../shared` beside the repository, whether it exists or not.
fn root() -> PathBuf {
    // This crate's manifest is in `<repository>/crates/shared-data`; the
    // path is shortened by hand, since `../shared` may not exist to be
    // resolved.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let beside_repository = manifest.ancestors().nth(3).unwrap_or(manifest);
    beside_repository.join("shared")
}

/// The benchmark set, or `None` (with a skip message) when its task list
/// is absent.
pub fn benchmarks() -> Option<PathBuf> {
    present(root().join("benchmarks"), "tasks.tsv")
}

/// The folder of the Game Boy Puzznic levels (`001.txt` … `128.txt` and
/// `MOVES`), or `None` (with a skip message) when absent.
pub fn gameboy_levels() -> Option<PathBuf> {
    present(root().join("puzznic/gameboy"), "MOVES")
}

/// `dir` when it holds `file`; otherwise says that the caller skips.
fn present(dir: PathBuf, file: &str) -> Option<PathBuf> {
    if dir.join(file).is_file() {
        Some(dir)
    } else {
        eprintln!("skipping: {} not found", dir.join(file).display());
        None
    }
}

/// One task of the benchmark set: a row of `tasks.tsv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchmarkTask {
    /// `strips`, `adl` or `numeric`.
    pub kind: String,
    /// The domain file, relative to the benchmark folder.
    pub domain: String,
    /// The problem file, relative to the benchmark folder.
    pub problem: String,
}

impl BenchmarkTask {
    /// The folder the problem is in, which names its domain (`depot`).
    pub fn family(&self) -> &str {
        self.problem.split('/').next().unwrap_or_default()
    }
}

/// Every task of `tasks.tsv` in `benchmarks` (from [`benchmarks`]), in its
/// order. A row that is not three tab-separated fields fails the caller.
pub fn tasks(benchmarks: &Path) -> Vec<BenchmarkTask> {
    let path = benchmarks.join("tasks.tsv");
    let list = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    list.lines()
        .skip(1)
        .filter(|line| !line.trim().is_empty())
        .map(|line| match line.split('\t').collect::<Vec<_>>()[..] {
            [kind, domain, problem] => BenchmarkTask {
                kind: kind.to_owned(),
                domain: domain.to_owned(),
                problem: problem.to_owned(),
            },
            _ => panic!("malformed row of {}: {line:?}", path.display()),
        })
        .collect()
}

/// The first `per_family` tasks of each domain folder, in list order.
pub fn first_tasks(benchmarks: &Path, per_family: usize) -> Vec<BenchmarkTask> {
    let mut taken = std::collections::HashMap::<String, usize>::new();
    tasks(benchmarks)
        .into_iter()
        .filter(|task| {
            let n = taken.entry(task.family().to_owned()).or_default();
            *n += 1;
            *n <= per_family
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_tasks_of_each_family_come_in_list_order() {
        let dir = std::env::temp_dir().join(format!("shared-data-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("tasks.tsv"),
            "kind\tdomain\tproblem\n\
             strips\ta/domain.pddl\ta/p1.pddl\n\
             strips\ta/domain.pddl\ta/p2.pddl\n\
             adl\tb/domain.pddl\tb/p1.pddl\n\
             \n\
             strips\ta/domain.pddl\ta/p3.pddl\n",
        )
        .unwrap();
        let all = tasks(&dir);
        assert_eq!(all.len(), 4);
        assert_eq!(all[2].kind, "adl");
        assert_eq!(all[2].family(), "b");
        let first: Vec<String> = first_tasks(&dir, 1)
            .into_iter()
            .map(|t| t.problem)
            .collect();
        assert_eq!(first, ["a/p1.pddl", "b/p1.pddl"]);
        assert_eq!(first_tasks(&dir, 2).len(), 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn root_is_beside_the_repository() {
        let repository = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .canonicalize()
            .unwrap();
        let name = repository.file_name().unwrap();
        // A sibling: the repository is found from the root's parent
        // (taken lexically, since `../shared` may be absent).
        let workspace = root().parent().unwrap().join(name).join("Cargo.toml");
        let manifest = std::fs::read_to_string(workspace).unwrap();
        assert!(manifest.contains("[workspace]"));
        assert_eq!(root().file_name().unwrap(), "shared");
    }
}
