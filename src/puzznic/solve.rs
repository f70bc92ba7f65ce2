//! Solving a level with the planner: problem generation, parsing,
//! grounding and search, and the plan turned back into player moves.

use super::Rules;
use super::level::Level;
use super::problem::{problem_pddl, timed_moves};
use super::simulator::{Move, TimedMove};
use crate::solve::{GroundingLimit, GroundingStopped};
use pddl_ground::{GroundError, GroundOptions, Task};
use pddl_search::{SearchObserver, SearchOptions, SearchResult};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The configuration of `plan puzznic solve`: weighted A* (w = 1.5) with
/// h_FF.
///
/// Puzznic is full of dead ends the relaxation does not see (tiles that
/// can no longer meet, groups of three that can no longer form), and the
/// planner's general default, lazy greedy search with preferred operators,
/// dives deep into them: on the Game Boy levels with 60 s each it solved
/// 102 of 128, weighted A* with the same heuristic solved more (every
/// level greedy solved among them; `benches/puzznic_table.sh`), because
/// the move count g keeps it from wandering far down one hopeless line.
/// With forced transitions skipped, w = 1.5 solved 123 levels against
/// w = 2's 120, losing none, with 2.5 % fewer moves and half the time
/// in total. `--search lazy-greedy` still selects the general default.
///
/// Weighted A* gets [`PUZZNIC_FALLBACK_EVALUATIONS`] heuristic
/// evaluations; without a plan by then, eager greedy search with h_FF
/// alternating with novelty (best-first width search), learning dead-end
/// traps as the general default's last turn does, goes on until a plan or
/// the time limit ([`SearchOptions::novelty_fallback`],
/// [`SearchOptions::last_turn_dead_end_traps`]).
pub fn satisficing_options() -> SearchOptions {
    SearchOptions {
        engine: pddl_search::Engine::WeightedAStar,
        weight: 1.5,
        heuristic: pddl_search::HeuristicKind::HFF,
        // Both only matter to the greedy engines.
        preferred_operators: false,
        goal_count_alternation: false,
        novelty_fallback: true,
        fallback_evaluations: PUZZNIC_FALLBACK_EVALUATIONS,
        ..SearchOptions::satisficing_default()
    }
}

/// Heuristic evaluations of the weighted A* turn before the novelty turn.
pub const PUZZNIC_FALLBACK_EVALUATIONS: u64 = 750_000;

/// The configuration of `plan puzznic solve --optimal`: A* with pattern
/// databases.
///
/// All of h_max, LM-cut and the pattern databases are admissible, so each
/// proves the fewest moves. A kind of three tiles clears only when all
/// three meet, and pattern databases count the pushes that takes for each
/// kind, summed over the kinds; the delete relaxation lets a tile be
/// everywhere it has been, so h_max and LM-cut see much less (Game Boy
/// level 059, 23 moves: 20 in the initial state against LM-cut's 12 and
/// h_max's 4; solved in 0.2 s, where A* with either ran out of 60 s).
pub fn optimal_options() -> SearchOptions {
    SearchOptions {
        heuristic: pddl_search::HeuristicKind::Pdb,
        ..SearchOptions::optimal_default()
    }
}

/// Why a level could not be handed to the search.
#[derive(Debug, thiserror::Error)]
pub enum PlanLevelError {
    /// The built-in domain or the generated problem was rejected by the
    /// parser or the checks: a bug of this module, reported as such.
    #[error("internal error: the generated Puzznic PDDL is rejected: {0}")]
    Pddl(String),
    /// The grounder refused the task.
    #[error(transparent)]
    Ground(#[from] pddl_ground::GroundError),
    /// The time limit, the memory limit or the cancellation flag stopped
    /// grounding.
    #[error(transparent)]
    Stopped(#[from] GroundingStopped),
    /// The level has so many tiles of one kind that its problem would not
    /// fit in memory: one `same-kind` fact per ordered pair of tiles of a
    /// kind.
    #[error(
        "level too large for the planner: its tiles make {same_kind_facts} `same-kind` facts, more than {MAX_SAME_KIND_FACTS} (one per ordered pair of tiles of a kind); `--simulator` searches it without PDDL"
    )]
    TooLarge {
        /// How many the level would make.
        same_kind_facts: usize,
    },
    /// The planner's plan does not clear the level when the reference
    /// simulator plays it: a bug of the planner or of the domain.
    #[error("internal error: the plan does not clear the level in the reference simulator: {0}")]
    Rejected(String),
}

/// The most `same-kind` facts a level handed to the planner may have:
/// about 40 MB of PDDL, parsed into about half a GB. A 98 × 98 level of
/// two kinds has 20.9 million, whose 824 MB problem took 9.3 GB and 28 s
/// to parse and check; the Game Boy levels have at most 222 (035).
pub const MAX_SAME_KIND_FACTS: usize = 1_000_000;

/// The ground task of a level, for the domain of `rules`, within the
/// limits and stop condition of `ground`.
pub fn ground_level(
    level: &Level,
    problem_name: &str,
    rules: Rules,
    ground: &GroundOptions,
) -> Result<Task, PlanLevelError> {
    let same_kind_facts: usize = level
        .board
        .kind_counts()
        .iter()
        .map(|&tiles| tiles * tiles.saturating_sub(1))
        .sum();
    if same_kind_facts > MAX_SAME_KIND_FACTS {
        return Err(PlanLevelError::TooLarge { same_kind_facts });
    }
    let domain_text = rules.domain();
    let domain_file = rules.domain_file();
    let problem_text = problem_pddl(level, problem_name);
    let render = |diagnostics: &[pddl_syntax::Diagnostic], path: &str, text: &str| {
        let file = pddl_syntax::SourceFile::new(path, text);
        diagnostics
            .iter()
            .map(|d| d.render(&file))
            .collect::<String>()
    };
    let domain = pddl_syntax::parse_domain(domain_text)
        .map_err(|d| PlanLevelError::Pddl(render(&d, domain_file, domain_text)))?;
    let problem = pddl_syntax::parse_problem(&problem_text)
        .map_err(|d| PlanLevelError::Pddl(render(&d, "problem.pddl", &problem_text)))?;
    let mut errors: Vec<pddl_syntax::Diagnostic> = pddl_syntax::check::check_domain(&domain);
    errors.retain(|d| d.is_error());
    if !errors.is_empty() {
        return Err(PlanLevelError::Pddl(render(
            &errors,
            domain_file,
            domain_text,
        )));
    }
    let mut errors = pddl_syntax::check::check_problem(&domain, &problem);
    errors.retain(|d| d.is_error());
    if !errors.is_empty() {
        return Err(PlanLevelError::Pddl(render(
            &errors,
            "problem.pddl",
            &problem_text,
        )));
    }
    Ok(pddl_ground::ground(&domain, &problem, ground)?)
}

/// A plan for a level: the PDDL plan lines and the player moves in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelPlan {
    /// Every action of the plan, physics included, as PDDL plan lines.
    pub plan_lines: Vec<String>,
    /// The player moves, in order, each with when it is made (always on a
    /// still board under the turn-based rules).
    pub moves: Vec<TimedMove>,
}

impl LevelPlan {
    /// Reads the plan of a search result over `task`, a ground task of
    /// `level`.
    pub fn from_operators(
        level: &Level,
        task: &Task,
        operators: &[pddl_ground::task::OperatorId],
    ) -> LevelPlan {
        let ops: Vec<&pddl_ground::task::Operator> = operators
            .iter()
            .filter_map(|&id| task.operators.get(id as usize))
            .collect();
        LevelPlan {
            plan_lines: ops.iter().map(|op| op.plan_line()).collect(),
            moves: timed_moves(
                &level.board,
                ops.iter().map(|op| (op.name.as_str(), op.args.as_slice())),
            ),
        }
    }

    /// The pushes alone, without their times.
    pub fn pushes(&self) -> Vec<Move> {
        self.moves.iter().map(|timed| timed.mv).collect()
    }
}

/// Grounds a level and searches it (the time limit in `options` covers
/// both); the plan, if any, comes back as a
/// [`LevelPlan`] along with the search result. `ground` gives the
/// grounder's limits and, in its `stop` hook, the caller's own reason to
/// stop (or a progress display, which returns `false`).
pub fn plan_level(
    level: &Level,
    problem_name: &str,
    rules: Rules,
    ground: &GroundOptions,
    options: &SearchOptions,
    cancel: &AtomicBool,
    observer: &mut dyn SearchObserver,
) -> Result<(SearchResult, Option<LevelPlan>), PlanLevelError> {
    let start = Instant::now();
    // A level of the largest size grounds into millions of operators;
    // grounding stops at the limits and at `cancel` like the search.
    let limit = GroundingLimit::new(
        start,
        options.time_limit,
        options.memory_limit_bytes,
        cancel,
    );
    let stop = || limit.reached() || ground.stop.is_some_and(|stop| stop());
    let ground = GroundOptions {
        stop: Some(&stop),
        ..ground.clone()
    };
    let task = match ground_level(level, problem_name, rules, &ground) {
        Err(PlanLevelError::Ground(GroundError::Stopped)) => return Err(limit.stopped().into()),
        task => task?,
    };
    let options = crate::solve::with_time_spent(options, start.elapsed());
    let result = pddl_search::search(&task, &options, cancel, observer);
    let plan = result
        .plan
        .as_ref()
        .map(|p| LevelPlan::from_operators(level, &task, &p.operators));
    if let Some(plan) = &plan {
        check_with_simulator(level, &plan.moves, rules)?;
    }
    Ok((result, plan))
}

/// Plays `moves` on the level with the reference simulator under `rules`:
/// they must all be legal and leave no tile.
fn check_with_simulator(
    level: &Level,
    moves: &[TimedMove],
    rules: Rules,
) -> Result<(), PlanLevelError> {
    let frames = super::replay_by_rules(&level.board, moves, rules, false)
        .map_err(|e| PlanLevelError::Rejected(e.to_string()))?;
    let left = frames.last().map_or(0, |frame| frame.board.tile_count());
    if left == 0 {
        Ok(())
    } else {
        Err(PlanLevelError::Rejected(format!(
            "{left} tiles are left after the last move"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzznic::Position;
    use crate::puzznic::level::parse_level;
    use crate::puzznic::simulator::{Direction, PushTime};

    fn level(text: &str) -> Level {
        parse_level(&pddl_syntax::SourceFile::new("level.txt", text)).expect("level parses")
    }

    #[test]
    fn the_simulator_rejects_a_plan_that_does_not_clear_the_level() {
        // A pair one cell apart: pushing the left tile right clears it.
        let pair = level("#####\n#a.a#\n#####\n");
        let push = |col, direction| TimedMove {
            mv: Move {
                from: Position { row: 1, col },
                direction,
            },
            time: PushTime::Still,
        };
        for rules in [Rules::TurnBased, Rules::RealTime] {
            assert!(check_with_simulator(&pair, &[push(1, Direction::Right)], rules).is_ok());
            // Pushing it left hits the wall; doing nothing leaves two tiles.
            assert!(matches!(
                check_with_simulator(&pair, &[push(1, Direction::Left)], rules),
                Err(PlanLevelError::Rejected(_))
            ));
            assert!(matches!(
                check_with_simulator(&pair, &[], rules),
                Err(PlanLevelError::Rejected(message)) if message.contains("2 tiles")
            ));
        }
    }
}
