//! The search flags that `plan` and `plan puzznic solve` share, and the
//! one place that turns them into search options, so both commands accept
//! and refuse the same values.

use planner::search::{Engine, HeuristicKind, SearchOptions};

#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// Search algorithm: bfs, astar, wastar, eager-greedy, lazy-greedy.
    /// With --search, --heuristic or --weight the search runs as named,
    /// without the default's hill-climbing, landmark probe and fallback
    /// turns (landmarks, novelty).
    #[arg(long, value_name = "ALGORITHM")]
    pub search: Option<Engine>,
    /// Heuristic: blind, goalcount, hmax, hadd, hff, lmcut, pdb (pattern
    /// databases), lmcount, lama (h_FF + landmark count). With --search
    /// alone: blind for bfs, the --optimal configuration's heuristic for
    /// astar, h_FF otherwise.
    #[arg(long, value_name = "HEURISTIC")]
    pub heuristic: Option<HeuristicKind>,
    /// Weight of weighted A* (w >= 1); without --search it selects weighted A*.
    #[arg(long, value_name = "W")]
    pub weight: Option<f64>,
    /// Keep improving the plan until the time limit (or until proven
    /// optimal): restarts for 90 % of the time left after the first plan
    /// (after the default's first search, lazy ones and, with two
    /// threads, eager ones beside them), then the neighbourhood search on
    /// the best plan (with two threads, also on the other kind's).
    #[arg(long)]
    pub anytime: bool,
    /// Greedy search: alternate also with open lists ordered by novelty
    /// (best-first width search), which explores where the heuristic's
    /// plateaus trap greedy search.
    #[arg(long)]
    pub novelty: bool,
    /// Also call dead ends the states caught by traps (sets of fact
    /// pairs that stay false) learned with h² on a budget of work per
    /// evaluation: sees dead ends that pairs of facts show and the
    /// relaxation misses (faster on Sokoban, slower on Puzznic), in every
    /// search; without the flag, the default's unbudgeted last turn (with
    /// novelty) learns them on tasks without numeric conditions. Not with
    /// --search bfs; tasks with axioms are searched without.
    #[arg(long)]
    pub dead_end_traps: bool,
    /// Search every state: do not merge states that differ only by a
    /// permutation of interchangeable objects (symmetry reduction).
    #[arg(long)]
    pub no_symmetry: bool,
    /// Threads to use: with 2 (the default, on machines with two or more
    /// cores) the default's last fallback turn (greedy search with
    /// novelty) starts on a second thread once the search has run 0.1 s,
    /// beside the first turns, the default's eager improvement restarts
    /// run beside its lazy ones, and A* and weighted A* (--optimal, the
    /// improvement restarts, a first turn once the last one has ended)
    /// evaluate new states on both threads after 1 000 evaluations; same
    /// plans and counts, sooner. 1 keeps to one thread.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub threads: u8,
    /// Stop after this many seconds (parsing and grounding included), or
    /// with a unit: 500ms, 90s, 5m, 2h.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = crate::units::seconds)]
    pub time_limit: Option<f64>,
    /// Stop when the search's tables would use more than this many MiB
    /// (or with a unit of powers of 1024: 512M, 4G), or, while grounding,
    /// the whole process [default: 80 % of the memory available when
    /// `plan` starts, where the system says (Linux)].
    #[arg(long, value_name = "MIB", value_parser = crate::units::mebibytes)]
    pub memory_limit: Option<u64>,
}

/// The configurations a command starts from: its default and its
/// `--optimal` one.
pub struct Configurations {
    /// Without `--optimal`.
    pub satisficing: SearchOptions,
    /// With `--optimal`; its heuristic is also the one `--search astar`
    /// uses when no heuristic is named.
    pub optimal: SearchOptions,
}

impl SearchArgs {
    /// The search options: the chosen configuration with the flags
    /// applied, or a message naming the flag whose value is refused.
    pub fn options(
        &self,
        optimal: bool,
        configurations: Configurations,
    ) -> Result<SearchOptions, String> {
        let optimal_heuristic = configurations.optimal.heuristic;
        let mut options = if optimal {
            configurations.optimal
        } else {
            configurations.satisficing
        };
        if let Some(engine) = self.search {
            options.engine = engine;
            options.heuristic = match engine {
                Engine::BreadthFirst => HeuristicKind::Blind,
                Engine::AStar => optimal_heuristic,
                _ => HeuristicKind::HFF,
            };
            options.preferred_operators =
                matches!(engine, Engine::LazyGreedy | Engine::EagerGreedy);
        }
        if let Some(heuristic) = self.heuristic {
            options.heuristic = heuristic;
        }
        if let Some(weight) = self.weight {
            if !(weight >= 1.0 && weight.is_finite()) {
                return Err(format!("--weight must be a number >= 1, got {weight}"));
            }
            options.weight = weight;
            if self.search.is_none() {
                options.engine = Engine::WeightedAStar;
            }
        }
        if let Some(seconds) = self.time_limit {
            options.time_limit = Some(crate::units::time_limit(seconds)?);
        }
        options.memory_limit_bytes = planner::memory::limit_bytes(self.memory_limit);
        options.anytime = self.anytime;
        options.symmetry_reduction = !self.no_symmetry;
        options.novelty |= self.novelty;
        options.dead_end_traps = self.dead_end_traps;
        options = options.with_threads(self.threads.into());
        if self.search.is_some() || self.heuristic.is_some() || self.weight.is_some() {
            options = options.without_fallbacks();
        }
        if self.anytime && options.time_limit.is_none() {
            return Err("--anytime needs --time-limit (it improves the plan until then)".into());
        }
        self.refuse_conflicts(optimal, &options)?;
        Ok(options)
    }

    /// Refuses flags that the chosen configuration would ignore or that
    /// break `--optimal`'s promise, rather than running something other
    /// than what was asked.
    fn refuse_conflicts(&self, optimal: bool, options: &SearchOptions) -> Result<(), String> {
        let engine = options.engine.name();
        if optimal {
            if self.weight.is_some() {
                return Err(
                    "--optimal runs A*, and --weight would make it weighted A*, \
                     which does not prove plans optimal (drop one of them)"
                        .into(),
                );
            }
            if !matches!(options.engine, Engine::AStar | Engine::BreadthFirst) {
                return Err(format!(
                    "--optimal needs --search astar or bfs; {engine} does not prove plans \
                     optimal (drop --optimal to run it)"
                ));
            }
            if !options.heuristic.is_admissible() {
                return Err(format!(
                    "--optimal needs an admissible heuristic (blind, hmax, lmcut, pdb); {} \
                     can overestimate (use --search astar --heuristic {} to run A* with it \
                     anyway)",
                    options.heuristic.name(),
                    options.heuristic.name(),
                ));
            }
        }
        if options.engine == Engine::BreadthFirst
            && self.heuristic.is_some_and(|h| h != HeuristicKind::Blind)
        {
            return Err("--search bfs uses no heuristic (drop --heuristic, \
                 or use --search astar)"
                .into());
        }
        if let Some(weight) = self.weight
            && options.engine != Engine::WeightedAStar
            && weight != 1.0
        {
            return Err(format!(
                "--weight is weighted A*'s (--search wastar); {engine} has no weight"
            ));
        }
        if self.dead_end_traps && options.engine == Engine::BreadthFirst {
            return Err("--dead-end-traps needs a heuristic search; --search bfs has none".into());
        }
        if self.novelty && !matches!(options.engine, Engine::LazyGreedy | Engine::EagerGreedy) {
            return Err(format!(
                "--novelty applies to greedy search (lazy-greedy, eager-greedy); \
                 this configuration runs {engine}"
            ));
        }
        Ok(())
    }
}
