//! Search configuration: which engine, which heuristic, which limits.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::search_algorithms::parallel_evaluation::EVALUATIONS_BEFORE_HELPER;

/// A search algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Breadth-first search (goal test at generation; optimal for unit costs only).
    BreadthFirst,
    /// A* with reopening: optimal with an admissible heuristic, for any costs including 0.
    AStar,
    /// Weighted A* (`f = g + w·h`, `w ≥ 1`) with reopening.
    WeightedAStar,
    /// Eager greedy best-first search on `h`.
    EagerGreedy,
    /// Lazy greedy best-first search (successors evaluated when expanded).
    LazyGreedy,
}

impl Engine {
    /// Every engine, in the order of their CLI names.
    pub const ALL: [Engine; 5] = [
        Engine::BreadthFirst,
        Engine::AStar,
        Engine::WeightedAStar,
        Engine::EagerGreedy,
        Engine::LazyGreedy,
    ];

    /// The CLI name: `bfs astar wastar eager-greedy lazy-greedy`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::BreadthFirst => "bfs",
            Engine::AStar => "astar",
            Engine::WeightedAStar => "wastar",
            Engine::EagerGreedy => "eager-greedy",
            Engine::LazyGreedy => "lazy-greedy",
        }
    }
}

/// A heuristic (see the `heuristics` module for what each computes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    /// 0 at goal states, the cheapest operator cost elsewhere.
    Blind,
    /// Number of unsatisfied goal conditions.
    GoalCount,
    /// Bonet & Geffner's h_max (admissible).
    HMax,
    /// Bonet & Geffner's h_add.
    HAdd,
    /// Hoffmann's FF heuristic (relaxed plan cost) with preferred operators.
    HFF,
    /// Helmert & Domshlak's landmark-cut heuristic (admissible).
    LmCut,
    /// Pattern databases, one per goal and the variables its achievers
    /// depend on, summed where additive (admissible).
    Pdb,
    /// LAMA's landmark-count heuristic (path-dependent, unit costs) with
    /// preferred operators.
    LmCount,
    /// LAMA-first's pair: greedy engines alternate h_FF and landmark
    /// count (RHW landmarks with greedy-necessary and reasonable
    /// orderings; preferred operators from both, goal-count alternation
    /// replaced by landmark count, except on tasks with numeric
    /// conditions, which landmarks ignore); other engines use h_FF alone.
    Lama,
}

impl HeuristicKind {
    /// Every heuristic, in the order of their CLI names.
    pub const ALL: [HeuristicKind; 9] = [
        HeuristicKind::Blind,
        HeuristicKind::GoalCount,
        HeuristicKind::HMax,
        HeuristicKind::HAdd,
        HeuristicKind::HFF,
        HeuristicKind::LmCut,
        HeuristicKind::Pdb,
        HeuristicKind::LmCount,
        HeuristicKind::Lama,
    ];

    /// The CLI name: `blind goalcount hmax hadd hff lmcut pdb lmcount lama`.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Blind => "blind",
            HeuristicKind::GoalCount => "goalcount",
            HeuristicKind::HMax => "hmax",
            HeuristicKind::HAdd => "hadd",
            HeuristicKind::HFF => "hff",
            HeuristicKind::LmCut => "lmcut",
            HeuristicKind::Pdb => "pdb",
            HeuristicKind::LmCount => "lmcount",
            HeuristicKind::Lama => "lama",
        }
    }

    /// Whether the heuristic supplies preferred operators
    /// ([`crate::heuristics::Heuristic::has_preferred_operators`]), known
    /// without building it.
    pub fn gives_preferred_operators(self) -> bool {
        matches!(
            self,
            HeuristicKind::HFF | HeuristicKind::LmCount | HeuristicKind::Lama
        )
    }

    /// Whether the heuristic never overestimates the optimal cost
    /// (so that A* with it returns optimal plans).
    pub fn is_admissible(self) -> bool {
        matches!(
            self,
            HeuristicKind::Blind | HeuristicKind::HMax | HeuristicKind::LmCut | HeuristicKind::Pdb
        )
    }
}

/// A name that is not one of the accepted CLI names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{name}` (expected one of: {expected})")]
pub struct UnknownName {
    /// "engine" or "heuristic".
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The accepted names, comma separated.
    pub expected: String,
}

impl FromStr for Engine {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Engine::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownName {
                what: "engine",
                name: s.to_string(),
                expected: Engine::ALL.map(Engine::name).join(", "),
            })
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HeuristicKind {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        HeuristicKind::ALL
            .into_iter()
            .find(|h| h.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownName {
                what: "heuristic",
                name: s.to_string(),
                expected: HeuristicKind::ALL.map(HeuristicKind::name).join(", "),
            })
    }
}

impl fmt::Display for HeuristicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Heuristic evaluations each fallback turn of the default gets
/// ([`SearchOptions::fallback_evaluations`]).
pub(crate) const DEFAULT_FALLBACK_EVALUATIONS: u64 = 50_000;

/// Heuristic evaluations the default's first search makes before
/// hill-climbing takes over ([`SearchOptions::hill_climbing_after`]): small
/// tasks are solved within them, with the plans and restarts they had
/// before the climb (blocks, gripper, logistics, miconic, satellite,
/// rovers), so only searches that take longer pay for a climb that fails.
pub const HILL_CLIMBING_AFTER: u64 = 1_000;

/// Heuristic evaluations of the landmark probe: where the hill-climbing
/// after the first [`HILL_CLIMBING_AFTER`] evaluations is stuck or has
/// spent its own, the first search with landmark count in place of h_FF
/// gets this many (see [`SearchOptions::hill_climbing_after`]).
pub const LANDMARK_PROBE_EVALUATIONS: u64 = 1_000;

/// Heuristic evaluations the hill-climbing gets
/// ([`SearchOptions::hill_climbing_after`]). Where it climbs it has needed
/// far fewer (driverlog p02: a first plan after about 150, where lazy
/// greedy search needs about 6 000); where it gets stuck (depot p04, visitall,
/// whose plans take hundreds of steps) they are lost, a few per cent of
/// the time of such tasks.
pub const HILL_CLIMBING_EVALUATIONS: u64 = 1_000;

/// Evaluations the hill-climbing gains each time it reaches a lower
/// estimate, on top of [`HILL_CLIMBING_EVALUATIONS`]: a climb that improves
/// on at least every other evaluation goes on (20 000 goals of one step
/// each: solved in 17 s, where lazy greedy search, queueing 20 000
/// successors per expansion, ran out of memory after 90 s). With 2, 159 of
/// 160 shared tasks (every fourth, 20 s each) got the same plans, and
/// settlers 19 a cheaper one; with 4, depot p19 got a plan a step longer
/// and freecell p19 none within 20 s.
pub const HILL_CLIMBING_EVALUATIONS_PER_IMPROVEMENT: u64 = 2;

/// How long the default's first turns run alone before the last turn
/// starts beside them ([`SearchOptions::background_last_turn`]): tasks
/// solved sooner never start a second thread (starting one costs about
/// as much as solving a small task).
pub const BACKGROUND_DELAY: Duration = Duration::from_millis(100);

/// Everything that configures one call of [`crate::search`].
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOptions {
    /// The search algorithm.
    pub engine: Engine,
    /// The heuristic (ignored by breadth-first search).
    pub heuristic: HeuristicKind,
    /// Weight `w ≥ 1` of weighted A* (values below 1 and NaN are treated as
    /// 1; an infinite weight orders by `h` alone, as greedy search does).
    pub weight: f64,
    /// Use the heuristic's preferred operators (greedy engines only).
    pub preferred_operators: bool,
    /// Stop with [`crate::Outcome::TimeLimit`] after this long.
    pub time_limit: Option<Duration>,
    /// Stop with [`crate::Outcome::MemoryLimit`] once the search's own
    /// data structures are estimated to exceed this many bytes.
    pub memory_limit_bytes: Option<u64>,
    /// Greedy engines: alternate the heuristic's open lists with open
    /// lists ordered by goal count (the goal part of landmark count;
    /// ignored with [`HeuristicKind::Lama`], which alternates with landmark
    /// count itself); helps where the relaxation plateaus, e.g. visitall.
    pub goal_count_alternation: bool,
    /// After the first plan, keep searching for cheaper plans (weighted A*
    /// restarts with decreasing weights, pruning by the best cost found;
    /// after a greedy search with preferred operators, lazy ones with
    /// preferred operators and goal count alternation, as LAMA's, and
    /// with [`SearchOptions::parallel_evaluation`] eager ones beside them
    /// on a second thread) until the time limit or until the last plan is
    /// proven optimal; with
    /// `improve_plans`, the last tenth of the time left after the first
    /// plan goes to the search of the best plan's neighbourhood.
    pub anytime: bool,
    /// Improve a plan that is not proven optimal: weighted A* restarts
    /// bounded by the best cost (after a greedy search with preferred
    /// operators, LAMA's lazy ones for half the budget, then eager ones;
    /// as with `anytime`, but within a budget of
    /// heuristic evaluations up to three times the first search's, at
    /// least 10 000 where operators cost other than 1 and 5 000 where
    /// they all cost 1 but the first plan costs at least 160 % of LM-cut's
    /// bound, so results stay deterministic), loop removal and greedy action elimination on
    /// every plan found, and a search of the final plan's neighbourhood
    /// ([`crate::plan_improvement`]). A first plan no costlier than
    /// LM-cut's value of the initial state is optimal and left as it is;
    /// where the restarts' budget is a floor (the plan may be far from
    /// optimal), A* with h_max bounded by the plan's cost first spends a
    /// share of it trying to prove the plan optimal or to find an optimal
    /// one, which on small state spaces ends the search sooner than the
    /// restarts would (also before the restarts of `anytime`).
    pub improve_plans: bool,
    /// Treat states that differ only by a permutation of interchangeable
    /// objects as one state ([`crate::symmetry`]).
    pub symmetry_reduction: bool,
    /// Greedy search with h_FF: if the first search has no plan after
    /// [`SearchOptions::fallback_evaluations`], give greedy search with
    /// h_FF and landmark count ([`HeuristicKind::Lama`]) a turn of as
    /// many before going on (see `first_search` in the `turns` module;
    /// ignored on tasks with numeric conditions, which landmarks ignore).
    /// It also allows the landmark probe after a stuck climb
    /// ([`SearchOptions::hill_climbing_after`]).
    pub landmark_fallback: bool,
    /// Greedy search with preferred operators: once the configured search
    /// has made this many heuristic evaluations without a plan, it stops
    /// and enforced hill-climbing
    /// ([`crate::search_algorithms::hill_climbing`]) gets
    /// [`HILL_CLIMBING_EVALUATIONS`], and
    /// [`HILL_CLIMBING_EVALUATIONS_PER_IMPROVEMENT`] more per improvement.
    /// A plan of the climb is the first plan
    /// (the restarts' budget counting the configured search's evaluations
    /// and, per state the climb evaluated, as many as the configured search
    /// makes per state); without one, the turns run from the start as they
    /// would have without the climb (the evaluations of both counting as a
    /// turn that ended without a plan). Where the climb is stuck or has
    /// spent its evaluations and `landmark_fallback` applies, the landmark
    /// probe follows: the configured search with landmark count in place
    /// of h_FF for [`LANDMARK_PROBE_EVALUATIONS`]; its plan is the first
    /// plan (the restarts' budget counting its own evaluations as the
    /// deciding turn's, those before it as a turn that ended without a
    /// plan); without one, the turns run from the start. Tasks solved
    /// within this many evaluations get exactly the plan they got without
    /// the climb. `None`: no climb and no probe.
    pub hill_climbing_after: Option<u64>,
    /// If the first search (and the landmark turn) has no plan after
    /// [`SearchOptions::fallback_evaluations`] each, go on with greedy
    /// search alternating with novelty ([`SearchOptions::novelty`]) until
    /// a plan or a limit: the configured engine if it is greedy, eager
    /// greedy search after weighted A*, with the same heuristic (ignored
    /// after A* and breadth-first search, whose plans are optimal).
    pub novelty_fallback: bool,
    /// Heuristic evaluations each turn gets before the next with
    /// `landmark_fallback` or `novelty_fallback`.
    pub fallback_evaluations: u64,
    /// Greedy engines: alternate also with open lists ordered by novelty
    /// ([`crate::heuristics::novelty`], best-first width search's
    /// BFWS(f1)), which explores where the heuristic's plateaus trap a
    /// greedy search.
    pub novelty: bool,
    /// Where the fallbacks give a last turn ([`SearchOptions::novelty_fallback`]
    /// or the configured search again after the landmark turn), start it
    /// on a second thread once the first turns have run this long,
    /// beside them, instead of after them (on machines with two or more
    /// cores); `None` runs the turns one after the other. The plan,
    /// outcome and counts of expansions, generations and evaluations are
    /// those of the turns run one after the other (a plan of the first
    /// turns wins; the last turn's own search is the same), so only the
    /// wall time changes, except where a time limit or a cancellation
    /// stops the first turns: then a plan the last turn has found already
    /// is returned. The memory limit covers both searches together; a
    /// last turn stopped by it is run again alone after the first turns.
    pub background_last_turn: Option<Duration>,
    /// A*, weighted A* and eager greedy search with one heuristic whose
    /// value depends on the state alone (h_max, h_add, h_FF, LM-cut; also
    /// the default's improvement restarts): once a search has made this many
    /// evaluations, evaluate each expansion's new states on two threads
    /// (on machines with two or more cores;
    /// [`crate::search_algorithms::parallel_evaluation`]). The search,
    /// plans and counts are those of one thread; only the wall time
    /// changes. `None` evaluates on the search's thread only. Turns that
    /// run beside a background last turn start their helper only once
    /// that turn has ended. With `Some`, the default's eager improvement
    /// restarts also run on a second thread beside its lazy ones, with
    /// the same results (`restarts::lazy_and_eager_side_by_side`).
    pub parallel_evaluation: Option<u64>,
    /// A*, weighted A* and the greedy engines: also call dead ends the
    /// states that learned traps catch, learning them with h² on a budget
    /// of work per evaluation ([`crate::heuristics::traps`]). Sees dead
    /// ends that need pairs of facts (two Sokoban boxes side by side
    /// against a wall), where relaxation heuristics see only single
    /// facts; tasks with axioms are searched without. Off by default:
    /// measured, it saves time on Sokoban and costs time on Puzznic (see
    /// "Dead-end traps" in `docs/search.md`). Each search of the
    /// configured engine and of the fallback turns learns its own traps
    /// (the fixpoint from the initial state that learning starts from
    /// runs once per thread); the default's hill-climbing, optimality
    /// probe and improvement restarts search without them.
    pub dead_end_traps: bool,
    /// The unbudgeted last turn of the fallbacks
    /// ([`SearchOptions::novelty_fallback`]), which decides only where the
    /// turns before it spent their budgets without a plan, learns dead-end
    /// traps as [`SearchOptions::dead_end_traps`] would, on tasks without
    /// numeric conditions (which h² ignores, so it sees less there). Tasks
    /// the first turns solve are searched as without; of those they do
    /// not, Sokoban's have the dead ends that pairs of facts show (sat08
    /// p20 solved, p18 61 → 45 in a third of the time, p19 22 → 26), and
    /// Puzznic's are searched alike (see "Dead-end traps" in
    /// `docs/search.md`).
    pub last_turn_dead_end_traps: bool,
}

impl SearchOptions {
    /// The fast satisficing configuration: lazy greedy search with h_FF
    /// and preferred operators, alternating with goal count (LAMA-style
    /// alternation and boosting), with a turn for landmark count where it
    /// needs many evaluations (`landmark_fallback`) and, if that fails
    /// too, an unbounded last turn alternating also with novelty
    /// (`novelty_fallback`); then a bounded
    /// improvement of the plan (`improve_plans`). ([`HeuristicKind::Lama`]
    /// alone solves more depot and parcprinter tasks, but loses transport
    /// p20 and finds costlier plans.)
    pub fn satisficing_default() -> Self {
        SearchOptions {
            engine: Engine::LazyGreedy,
            heuristic: HeuristicKind::HFF,
            weight: 1.0,
            preferred_operators: true,
            goal_count_alternation: true,
            time_limit: None,
            memory_limit_bytes: None,
            anytime: false,
            improve_plans: true,
            symmetry_reduction: true,
            landmark_fallback: true,
            hill_climbing_after: Some(HILL_CLIMBING_AFTER),
            novelty_fallback: true,
            fallback_evaluations: DEFAULT_FALLBACK_EVALUATIONS,
            novelty: false,
            background_last_turn: Some(BACKGROUND_DELAY),
            parallel_evaluation: Some(EVALUATIONS_BEFORE_HELPER),
            dead_end_traps: false,
            last_turn_dead_end_traps: true,
        }
    }

    /// Drops the fallback turns (`landmark_fallback`, `novelty_fallback`)
    /// and the hill-climbing before them, so that the configured search
    /// runs exactly as configured: what a configuration named on the
    /// command line asks for.
    pub fn without_fallbacks(self) -> Self {
        SearchOptions {
            landmark_fallback: false,
            hill_climbing_after: None,
            novelty_fallback: false,
            ..self
        }
    }

    /// Limits the search to `threads` threads: with 1, the fallback turns
    /// run one after the other ([`SearchOptions::background_last_turn`]
    /// `None`) and each search evaluates states on its own thread
    /// ([`SearchOptions::parallel_evaluation`] `None`); with 2 or more, the
    /// last turn may start beside the first ones after
    /// [`BACKGROUND_DELAY`], the eager improvement restarts run beside
    /// the lazy ones, and single searches evaluate on two threads (no
    /// search uses more than 2).
    pub fn with_threads(self, threads: usize) -> Self {
        SearchOptions {
            background_last_turn: (threads >= 2).then_some(BACKGROUND_DELAY),
            parallel_evaluation: (threads >= 2).then_some(EVALUATIONS_BEFORE_HELPER),
            ..self
        }
    }

    /// The optimal configuration: A* with LM-cut.
    pub fn optimal_default() -> Self {
        SearchOptions {
            engine: Engine::AStar,
            heuristic: HeuristicKind::LmCut,
            weight: 1.0,
            preferred_operators: false,
            goal_count_alternation: false,
            time_limit: None,
            memory_limit_bytes: None,
            anytime: false,
            improve_plans: true,
            symmetry_reduction: true,
            landmark_fallback: false,
            hill_climbing_after: None,
            novelty_fallback: false,
            fallback_evaluations: DEFAULT_FALLBACK_EVALUATIONS,
            novelty: false,
            // A* has no fallback turns.
            background_last_turn: None,
            parallel_evaluation: Some(EVALUATIONS_BEFORE_HELPER),
            dead_end_traps: false,
            last_turn_dead_end_traps: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for e in Engine::ALL {
            assert_eq!(e.to_string().parse::<Engine>(), Ok(e));
        }
        for h in HeuristicKind::ALL {
            assert_eq!(h.to_string().parse::<HeuristicKind>(), Ok(h));
        }
        assert_eq!("lazy-greedy".parse::<Engine>(), Ok(Engine::LazyGreedy));
        assert_eq!("hff".parse::<HeuristicKind>(), Ok(HeuristicKind::HFF));
        let err = "dfs".parse::<Engine>().unwrap_err();
        assert!(err.to_string().contains("bfs, astar"), "{err}");
    }
}
