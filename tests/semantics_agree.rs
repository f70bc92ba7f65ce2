//! Lifted and ground semantics agree: random walks through the ground task
//! are replayed, step by step, on the validator's lifted interpreter. On
//! the feature-dense tasks of `tests/semantics/`, every configuration of
//! note also finds a plan the validator accepts.
//!
//! At every state of a walk:
//! - every ground operator the search engine finds applicable is applicable
//!   in the lifted model, and a sample of the others is not;
//! - on small tasks, every lifted action applicable to any tuple of objects
//!   is a ground operator found applicable (so reachability pruned nothing
//!   it should have kept), unless the step changes nothing but the metric,
//!   which the grounder drops as useless;
//! - after the step, every ground fact and fluent has the lifted value, and
//!   the lifted atoms the grounder compiled away (static or constant ones)
//!   keep their initial truth.
//!
//! Each task is walked twice: grounded with every transition
//! (`keep_irrelevant`), where all of the above holds, and grounded as the
//! planner grounds it, without what cannot matter for the goal, where the
//! ground operators are a subset of the lifted transitions: the
//! completeness check and the compiled-away atoms are skipped there, the
//! rest holds as well.
//!
//! Random tasks (`random_task/`, a few hundred seeds;
//! `SEMANTICS_RANDOM_TASKS=N` for more) are walked the same way, and their
//! optimal plan costs are compared with a uniform-cost search over the
//! lifted model, which shares no code with the grounder or the search.

mod random_task;

use planner::generate::rng::Rng;
use planner::ground::{GroundOptions, Task};
use planner::load::load_task;
use planner::search::state::has_fact;
use planner::search::successor::StateSpace;
use planner::validate::LiftedState;
use random_task::lifted::{self, LiftedOptimum};
use random_task::random_task;
use shared_data::benchmarks;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

const WALKS: usize = 3;
const WALK_LENGTH: usize = 25;
/// Ground operators not applicable whose lifted twin is tried per state.
const NEGATIVE_SAMPLES: usize = 30;
/// Lifted tuples enumerated per state, at most, for the completeness check.
const MAX_LIFTED_TUPLES: usize = 4_000;

type Atom = (String, Vec<String>);

/// A ground atom as the lifted state names it.
fn atom_key(atom: &planner::ground::task::GroundAtom) -> Atom {
    let args = atom.args.iter().map(|a| a.to_string()).collect();
    (atom.predicate.to_string(), args)
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Checks one task, grounded both ways (see the module docs); returns
/// the number of steps compared.
fn check_task(domain: &Path, problem: &Path, seed: u64) -> usize {
    check_grounding(domain, problem, seed, true) + check_grounding(domain, problem, seed, false)
}

/// Checks one task grounded with or without its irrelevant operators.
fn check_grounding(domain: &Path, problem: &Path, seed: u64, keep_irrelevant: bool) -> usize {
    let checked =
        load_task(domain, problem, None).unwrap_or_else(|e| panic!("{}: {e}", problem.display()));
    let options = GroundOptions {
        keep_irrelevant,
        ..GroundOptions::default()
    };
    let task = match planner::ground::ground(&checked.domain, &checked.problem, &options) {
        Ok(task) => task,
        Err(e) => panic!("{}: grounding failed: {e}", problem.display()),
    };
    let initial = LiftedState::initial(&checked.domain, &checked.problem)
        .unwrap_or_else(|e| panic!("{}: {e:?}", problem.display()));
    let ground_atoms: BTreeSet<Atom> = task.facts.iter().map(atom_key).collect();
    let compiled_away = |state: &LiftedState| -> BTreeSet<Atom> {
        state
            .atoms()
            .into_iter()
            .filter(|a| !ground_atoms.contains(a))
            .collect()
    };
    let static_atoms = compiled_away(&initial);
    let objects = lifted::object_names(&checked);
    let mut rng = Rng::new(seed);
    let mut steps = 0;
    for _ in 0..WALKS {
        // Every fluent, metric counters included, to compare them all.
        let mut space = StateSpace::with_all_fluents(&task);
        let mut ground = space.initial_state();
        let mut lifted = initial.clone();
        let mut trace: Vec<String> = Vec::new();
        compare_states(&task, &mut space, &ground, &lifted, &trace, problem);
        for _ in 0..WALK_LENGTH {
            let mut applicable = Vec::new();
            space.applicable(&ground, &mut applicable);
            let context = || format!("{} after {:?}", problem.display(), trace);
            let mut successor = Vec::new();
            for &op in &applicable {
                let o = &task.operators[op as usize];
                // A step whose effects are not defined (a division by
                // zero, two updates of one fluent) is no step in either.
                let defined = space.apply(&ground, op, &mut successor);
                match lifted.apply(&o.name, &o.args) {
                    Err(f) if defined => panic!(
                        "{}: ground says {} is applicable, lifted says {}",
                        context(),
                        o.plan_line(),
                        f.message
                    ),
                    Ok(_) if !defined => panic!(
                        "{}: ground says {} cannot be applied, lifted applies it",
                        context(),
                        o.plan_line()
                    ),
                    _ => {}
                }
            }
            let applicable_set: BTreeSet<u32> = applicable.iter().copied().collect();
            // A disjunctive precondition grounds into one operator per
            // disjunct, all named alike: one that is not applicable may
            // have an applicable twin, which the lifted action is.
            let applicable_lines: BTreeSet<String> = applicable
                .iter()
                .map(|&op| task.operators[op as usize].plan_line())
                .collect();
            for _ in 0..NEGATIVE_SAMPLES.min(task.operators.len()) {
                let op = rng.index(task.operators.len()) as u32;
                if applicable_set.contains(&op)
                    || applicable_lines.contains(&task.operators[op as usize].plan_line())
                {
                    continue;
                }
                let o = &task.operators[op as usize];
                assert!(
                    lifted.apply(&o.name, &o.args).is_err(),
                    "{}: ground says {} is not applicable, lifted says it is",
                    context(),
                    o.plan_line()
                );
            }
            if keep_irrelevant {
                check_lifted_complete(
                    &checked,
                    &task,
                    &objects,
                    &lifted,
                    &applicable_set,
                    &context,
                );
            }
            // Pick a step whose effects are defined in the ground task.
            let mut next = Vec::new();
            let mut chosen = None;
            for _ in 0..applicable.len() {
                let op = applicable[rng.index(applicable.len())];
                if space.apply(&ground, op, &mut next) {
                    chosen = Some(op);
                    break;
                }
            }
            let Some(op) = chosen else { break };
            let o = &task.operators[op as usize];
            lifted = lifted.apply(&o.name, &o.args).expect("checked above");
            ground = next;
            trace.push(o.plan_line());
            compare_states(&task, &mut space, &ground, &lifted, &trace, problem);
            assert!(
                !keep_irrelevant || compiled_away(&lifted) == static_atoms,
                "{} after {:?}: a compiled-away atom changed",
                problem.display(),
                trace
            );
            steps += 1;
        }
    }
    steps
}

/// Every lifted action applicable to some object tuple is among the ground
/// applicable operators (checked where the tuples are few enough).
fn check_lifted_complete(
    checked: &planner::load::CheckedTask,
    task: &Task,
    objects: &[String],
    lifted: &LiftedState,
    applicable: &BTreeSet<u32>,
    context: &dyn Fn() -> String,
) {
    if lifted::tuple_count(checked, objects.len()) > MAX_LIFTED_TUPLES {
        return;
    }
    let ground_lines: BTreeSet<String> = applicable
        .iter()
        .map(|&op| task.operators[op as usize].plan_line())
        .collect();
    for (line, next) in lifted::successors(checked, objects, lifted) {
        // The grounder drops a step that changes nothing but the metric
        // (it is never of use in a plan).
        assert!(
            ground_lines.contains(&line) || same_state(task, lifted, &next),
            "{}: lifted {line} is applicable and changes the state, the ground task lacks it",
            context()
        );
    }
}

/// Whether two lifted states have the same atoms and the same values of
/// the fluents the ground task keeps (the metric's are operator costs).
fn same_state(task: &Task, a: &LiftedState, b: &LiftedState) -> bool {
    let kept: BTreeSet<Atom> = task.fluents.iter().map(atom_key).collect();
    let fluents = |s: &LiftedState| -> Vec<(Atom, u64)> {
        s.fluents()
            .into_iter()
            .filter(|(atom, _)| kept.contains(atom))
            .map(|(atom, value)| (atom, value.to_bits()))
            .collect()
    };
    a.atoms() == b.atoms() && fluents(a) == fluents(b)
}

fn compare_states(
    task: &Task,
    space: &mut StateSpace<'_>,
    ground: &[u64],
    lifted: &LiftedState,
    trace: &[String],
    problem: &Path,
) {
    let mut fluents = Vec::new();
    let view = space.view(ground, &mut fluents);
    let lifted_atoms: BTreeSet<Atom> = lifted.atoms().into_iter().collect();
    for (id, atom) in task.facts.iter().enumerate() {
        let key = atom_key(atom);
        // The grounder's own facts: `@goal` (a goal of several
        // alternatives) holds exactly where the lifted goal does; `@or`
        // (a disjunction inside a condition) has no lifted twin.
        let lifted_value = match atom.predicate.as_ref() {
            "@goal" => lifted.satisfies_goal().unwrap_or(false),
            name if name.starts_with('@') => continue,
            _ => lifted_atoms.contains(&key),
        };
        assert_eq!(
            has_fact(view.facts, id as u32),
            lifted_value,
            "{} after {:?}: fact {atom} differs (ground vs lifted)",
            problem.display(),
            trace
        );
    }
    let lifted_fluents: BTreeMap<Atom, f64> = lifted.fluents().into_iter().collect();
    for (id, atom) in task.fluents.iter().enumerate() {
        let ground_value = fluents[id];
        let lifted_value = lifted_fluents.get(&atom_key(atom)).copied();
        match lifted_value {
            Some(v) => assert!(
                (v - ground_value).abs() <= 1e-9 * v.abs().max(1.0),
                "{} after {:?}: fluent {atom} is {ground_value} (ground) vs {v} (lifted)",
                problem.display(),
                trace
            ),
            None => assert!(
                ground_value.is_nan(),
                "{}: fluent {atom} undefined in lifted state only",
                problem.display()
            ),
        }
    }
}

/// Every shipped domain with each of its problems (small ones first).
fn shipped_tasks() -> Vec<(PathBuf, PathBuf)> {
    let mut tasks = Vec::new();
    let domains = root().join("domains");
    let mut names: Vec<_> = std::fs::read_dir(&domains)
        .expect("domains/")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    names.sort();
    for name in names {
        let domain = domains.join(&name).join("domain.pddl");
        let Ok(entries) = std::fs::read_dir(root().join("problems").join(&name)) else {
            continue;
        };
        let mut problems: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "pddl"))
            .collect();
        problems.sort();
        for problem in problems.into_iter().take(2) {
            tasks.push((domain.clone(), problem));
        }
    }
    tasks
}

#[test]
fn shipped_domains_agree() {
    let tasks = shipped_tasks();
    assert!(
        tasks.len() >= 10,
        "expected the shipped domains, found {}",
        tasks.len()
    );
    for (i, (domain, problem)) in tasks.iter().enumerate() {
        let steps = check_task(domain, problem, 1 + i as u64);
        assert!(steps > 0, "{}: no step compared", problem.display());
    }
}

#[test]
fn shared_benchmarks_agree() {
    let Some(shared) = benchmarks() else { return };
    let mut compared = 0;
    for (index, task) in shared_data::first_tasks(&shared, 1).iter().enumerate() {
        compared += check_task(
            &shared.join(&task.domain),
            &shared.join(&task.problem),
            index as u64 + 1,
        );
    }
    assert!(compared > 100, "only {compared} steps compared");
}

/// The feature-dense tasks of `tests/semantics/` (`NAME.domain.pddl` with
/// `NAME.problem.pddl`), each walked from ten seeds: small tasks that
/// combine what the shipped and shared domains use one at a time.
#[test]
fn feature_dense_tasks_agree() {
    for domain in feature_dense_domains() {
        let problem = PathBuf::from(
            domain
                .to_string_lossy()
                .replace(".domain.pddl", ".problem.pddl"),
        );
        let steps: usize = (1..=10)
            .map(|seed| check_task(&domain, &problem, seed))
            .sum();
        assert!(
            steps > 100,
            "{}: only {steps} steps compared",
            problem.display()
        );
    }
}

/// Every configuration of note solves every feature-dense task with a plan
/// the validator accepts, and the searches that prove their plan optimal
/// agree on its cost.
#[test]
fn feature_dense_tasks_solve_in_every_configuration() {
    use planner::search::{Engine, HeuristicKind, NoObserver, SearchOptions};
    let configurations: Vec<(&str, SearchOptions)> = vec![
        ("default", SearchOptions::satisficing_default()),
        ("optimal", SearchOptions::optimal_default()),
        ("bfs", explicit(Engine::BreadthFirst, HeuristicKind::Blind)),
        ("astar hmax", explicit(Engine::AStar, HeuristicKind::HMax)),
        ("astar pdb", explicit(Engine::AStar, HeuristicKind::Pdb)),
        (
            "eager hadd",
            explicit(Engine::EagerGreedy, HeuristicKind::HAdd),
        ),
        (
            "lazy lama",
            explicit(Engine::LazyGreedy, HeuristicKind::Lama),
        ),
        ("lazy hff", explicit(Engine::LazyGreedy, HeuristicKind::HFF)),
        (
            "eager lmcount",
            explicit(Engine::EagerGreedy, HeuristicKind::LmCount),
        ),
        (
            "wastar goalcount",
            explicit(Engine::WeightedAStar, HeuristicKind::GoalCount),
        ),
    ];
    for domain in feature_dense_domains() {
        let problem = PathBuf::from(
            domain
                .to_string_lossy()
                .replace(".domain.pddl", ".problem.pddl"),
        );
        let checked = load_task(&domain, &problem, None).expect("loads");
        let task =
            planner::ground::ground(&checked.domain, &checked.problem, &GroundOptions::default())
                .expect("grounds");
        let mut optimum = None;
        for (name, options) in &configurations {
            let options = SearchOptions {
                time_limit: Some(std::time::Duration::from_secs(60)),
                ..options.clone().with_threads(1)
            };
            let result =
                planner::search::search(&task, &options, &AtomicBool::new(false), &mut NoObserver);
            let plan = result
                .plan
                .unwrap_or_else(|| panic!("{}: {name}: {:?}", problem.display(), result.outcome));
            let report = planner::solve::validate_plan(&checked, &task, &plan).expect("validates");
            assert!(
                report.is_valid(),
                "{}: {name}: {report:?}",
                problem.display()
            );
            if result.proven_optimal {
                let first = *optimum.get_or_insert(plan.cost);
                assert_eq!(plan.cost, first, "{}: {name}", problem.display());
            }
        }
        // (No optimality is claimed for a metric the costs cannot express.)
        let optimised = !matches!(
            task.cost_model,
            planner::ground::task::CostModel::NotOptimised { .. }
        );
        assert_eq!(
            optimum.is_some(),
            optimised,
            "{}: proved optimal or not",
            problem.display()
        );
    }
}

/// A configuration as `--search` and `--heuristic` name it.
fn explicit(
    engine: planner::search::Engine,
    heuristic: planner::search::HeuristicKind,
) -> planner::search::SearchOptions {
    planner::search::SearchOptions {
        engine,
        heuristic,
        weight: 2.0,
        preferred_operators: matches!(
            engine,
            planner::search::Engine::LazyGreedy | planner::search::Engine::EagerGreedy
        ),
        ..planner::search::SearchOptions::satisficing_default()
    }
    .without_fallbacks()
}

/// The domain files of `tests/semantics/`, sorted.
fn feature_dense_domains() -> Vec<PathBuf> {
    let folder = root().join("tests/semantics");
    let mut domains: Vec<PathBuf> = std::fs::read_dir(&folder)
        .expect("tests/semantics/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".domain.pddl"))
        .collect();
    domains.sort();
    assert!(!domains.is_empty(), "no task in {}", folder.display());
    domains
}

/// How many random tasks the random-task tests check, from seed 1 on
/// (`SEMANTICS_RANDOM_TASKS`, default 300).
fn random_task_count() -> u64 {
    std::env::var("SEMANTICS_RANDOM_TASKS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300)
}

/// Writes the random task of `seed` into `folder` (the file names carry
/// the seed, so a failure's message says which task to regenerate).
fn write_random_task(folder: &Path, seed: u64) -> (PathBuf, PathBuf) {
    let task = random_task(seed);
    let domain = folder.join(format!("random-{seed}.domain.pddl"));
    let problem = folder.join(format!("random-{seed}.problem.pddl"));
    std::fs::write(&domain, &task.domain).expect("writes the domain");
    std::fs::write(&problem, &task.problem).expect("writes the problem");
    (domain, problem)
}

/// Random tasks: ground and lifted successors agree along random walks.
#[test]
fn random_tasks_agree() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let mut steps = 0;
    for seed in 1..=random_task_count() {
        let (domain, problem) = write_random_task(folder.path(), seed);
        steps += check_task(&domain, &problem, seed);
    }
    eprintln!("{steps} steps compared");
    assert!(steps > 1_000, "only {steps} steps compared");
}

/// Random tasks: every optimal configuration finds a plan exactly as
/// cheap as the lifted model's cheapest, or proves the task unsolvable
/// where the lifted model has no plan; the default and greedy
/// configurations with each heuristic find a plan no cheaper wherever
/// there is one, and prove the others unsolvable; the validator accepts
/// every plan; the goal literals named as the reason for an unsolvable
/// task never hold.
#[test]
fn random_tasks_optimal_costs_agree() {
    use planner::search::{Engine, HeuristicKind, NoObserver, Outcome, SearchOptions};
    let optimal: Vec<(&str, SearchOptions)> = vec![
        ("optimal", SearchOptions::optimal_default()),
        ("astar blind", explicit(Engine::AStar, HeuristicKind::Blind)),
        ("astar hmax", explicit(Engine::AStar, HeuristicKind::HMax)),
        ("astar pdb", explicit(Engine::AStar, HeuristicKind::Pdb)),
        (
            "astar lmcut, no symmetry",
            SearchOptions {
                symmetry_reduction: false,
                ..SearchOptions::optimal_default()
            },
        ),
    ];
    let satisficing: Vec<(&str, SearchOptions)> = vec![
        ("default", SearchOptions::satisficing_default()),
        ("lazy hff", explicit(Engine::LazyGreedy, HeuristicKind::HFF)),
        (
            "eager hadd",
            explicit(Engine::EagerGreedy, HeuristicKind::HAdd),
        ),
        (
            "lazy lama",
            explicit(Engine::LazyGreedy, HeuristicKind::Lama),
        ),
        (
            "eager lmcount, novelty",
            SearchOptions {
                novelty: true,
                ..explicit(Engine::EagerGreedy, HeuristicKind::LmCount)
            },
        ),
        (
            "wastar goalcount",
            explicit(Engine::WeightedAStar, HeuristicKind::GoalCount),
        ),
    ];
    let folder = tempfile::tempdir().expect("a temporary folder");
    let (mut solvable, mut unsolvable, mut too_large, mut explained) = (0, 0, 0, 0);
    for seed in 1..=random_task_count() {
        let (domain, problem) = write_random_task(folder.path(), seed);
        let checked = load_task(&domain, &problem, None).expect("loads");
        let reference = lifted::optimum(&checked, 20_000);
        match reference {
            LiftedOptimum::Cost(_) => solvable += 1,
            LiftedOptimum::Unsolvable(_) => unsolvable += 1,
            LiftedOptimum::TooLarge => {
                too_large += 1;
                continue;
            }
        }
        let task =
            planner::ground::ground(&checked.domain, &checked.problem, &GroundOptions::default())
                .unwrap_or_else(|e| panic!("{}: grounding failed: {e}", problem.display()));
        if let LiftedOptimum::Unsolvable(states) = &reference {
            explained += check_explanation(&task, states, &problem);
        }
        let configurations = optimal
            .iter()
            .map(|(name, options)| (*name, options, true))
            .chain(
                satisficing
                    .iter()
                    .map(|(name, options)| (*name, options, false)),
            );
        for (name, options, proves_optimality) in configurations {
            let options = SearchOptions {
                time_limit: Some(std::time::Duration::from_secs(20)),
                ..options.clone().with_threads(1)
            };
            let result =
                planner::search::search(&task, &options, &AtomicBool::new(false), &mut NoObserver);
            let context = format!("{}: {name}", problem.display());
            let &LiftedOptimum::Cost(optimum) = &reference else {
                assert_eq!(result.outcome, Outcome::Unsolvable, "{context}");
                continue;
            };
            let plan = result.plan.unwrap_or_else(|| {
                panic!("{context}: {:?}, lifted optimum {optimum}", result.outcome)
            });
            let report = planner::solve::validate_plan(&checked, &task, &plan).expect("validates");
            assert!(report.is_valid(), "{context}: {report:?}");
            let cost = report.cost().expect("a valid plan has a cost");
            if proves_optimality {
                assert!(result.proven_optimal, "{context}: not proven optimal");
                assert_eq!(
                    cost, optimum,
                    "{context}: plan cost against the lifted optimum"
                );
            } else {
                assert!(
                    cost >= optimum,
                    "{context}: {cost} beats the optimum {optimum}"
                );
            }
        }
    }
    eprintln!(
        "{solvable} solvable, {unsolvable} unsolvable ({explained} explained), {too_large} too large"
    );
    assert!(
        solvable >= 30 && unsolvable >= 30 && explained >= 10,
        "too few of each kind: {solvable} solvable, {unsolvable} unsolvable \
         ({explained} explained), {too_large} too large"
    );
}

/// Checks that every goal literal that the reason for an unsolvable task
/// names (grounding's, else the relaxation's, as `plan` prints them)
/// holds in none of the task's reachable lifted `states`, polarity
/// included; returns 1 where there was a reason, else 0.
fn check_explanation(task: &Task, states: &[LiftedState], problem: &Path) -> usize {
    let named = planner::solve::unsolvable_goal_literals(task);
    for literal in &named {
        assert!(
            !lifted::ever_holds(states, literal),
            "{}: the reason names `{literal}`, which holds in a reachable state",
            problem.display()
        );
    }
    usize::from(!named.is_empty())
}

/// Writes the random task of seed `SEED` to the folder
/// `RANDOM_TASK_DIR` (default: `target/random-tasks`), to look at a
/// failing seed: `SEED=N cargo test --test semantics_agree
/// write_random_task_files -- --ignored --nocapture`.
#[test]
#[ignore = "a tool: writes the files of one random task"]
fn write_random_task_files() {
    let seed: u64 = std::env::var("SEED")
        .expect("SEED names the task")
        .parse()
        .expect("SEED is a number");
    let folder = std::env::var_os("RANDOM_TASK_DIR")
        .map_or_else(|| root().join("target/random-tasks"), PathBuf::from);
    std::fs::create_dir_all(&folder).expect("creates the folder");
    let (domain, problem) = write_random_task(&folder, seed);
    println!("{}\n{}", domain.display(), problem.display());
}
