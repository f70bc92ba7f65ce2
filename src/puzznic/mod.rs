//! Puzznic: level files, a reference simulator, PDDL problems, solving
//! with the planner, and plan rendering (`plan puzznic`).
//!
//! The rules are the turn-based ones of the shared Puzznic README: pushes
//! of resting tiles one cell left or right, gravity until still,
//! simultaneous vanishing of every tile next to one of its kind, chain
//! reactions, and the level cleared when no tile is left. [`Rules::RealTime`]
//! adds the arcade rule that a resting tile may be pushed while others
//! fall, one push per falling step.

#![warn(missing_docs)]

pub mod bfs;
pub mod dead_ends;
pub mod level;
pub mod problem;
pub mod render;
pub mod simulator;
pub mod solve;
pub mod tiled;

pub use bfs::{
    BfsLimit, BfsLimits, BfsOutcome, BfsStats, solve_bfs, solve_bfs_real_time_until,
    solve_bfs_until,
};
pub use dead_ends::{DeadEnd, DeadEndReason, DeadEnds};
pub use level::{Board, Cell, Level, Position, parse_level};
pub use problem::{
    TileObject, parse_plan_moves, problem_name, problem_pddl, tile_objects, timed_moves,
};
pub use simulator::{
    Direction, Move, MoveError, Physics, PhysicsStep, PushTime, RealTime, TimedMove,
};
pub use simulator::{Frame, ReplayError, replay, replay_by_rules, replay_real_time};
pub use solve::{
    LevelPlan, PlanLevelError, ground_level, optimal_options, plan_level, satisficing_options,
};
pub use tiled::{TiledConfig, parse_tiled};

use crate::input::{InputError, read_source};
use std::path::Path;

/// The Puzznic domain (`domains/puzznic/domain.pddl`), built in so that
/// `plan puzznic` needs no domain file.
pub const DOMAIN: &str = include_str!("../../domains/puzznic/domain.pddl");

/// The real-time variant (`domains/puzznic/realtime.pddl`); it reads the
/// same problems as [`DOMAIN`].
pub const REAL_TIME_DOMAIN: &str = include_str!("../../domains/puzznic/realtime.pddl");

/// Which rules a level is played by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rules {
    /// The turn-based rules: the player pushes only when the board is
    /// still. The reference for the shared `MOVES` figures.
    #[default]
    TurnBased,
    /// The arcade and NES rules: a resting tile may also be pushed while
    /// other tiles fall, one push per falling step.
    RealTime,
}

impl Rules {
    /// The PDDL domain of these rules.
    pub fn domain(self) -> &'static str {
        match self {
            Rules::TurnBased => DOMAIN,
            Rules::RealTime => REAL_TIME_DOMAIN,
        }
    }

    /// The file name the domain is shipped as, for messages.
    pub fn domain_file(self) -> &'static str {
        match self {
            Rules::TurnBased => "domains/puzznic/domain.pddl",
            Rules::RealTime => "domains/puzznic/realtime.pddl",
        }
    }
}

/// Why a level file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LevelLoadError {
    /// A file could not be read.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The level is malformed; the rendered diagnostics say where and why.
    #[error("{rendered}")]
    Invalid {
        /// Every diagnostic, rendered against its file.
        rendered: String,
    },
}

/// Reads a level: a Tiled JSON map when the file name ends in `.json`
/// (or, for standard input, `-`, when the text starts with `{`; with
/// `tiled_config` naming the tile ids, or the map's own `puzznic`
/// property), the text format otherwise.
pub fn read_level(path: &Path, tiled_config: Option<&Path>) -> Result<Level, LevelLoadError> {
    let source = read_source(path)?;
    let invalid = |diagnostics: Vec<pddl_syntax::Diagnostic>, file: &pddl_syntax::SourceFile| {
        LevelLoadError::Invalid {
            rendered: diagnostics
                .iter()
                .map(|d| d.render(file))
                .collect::<Vec<_>>()
                .join("\n"),
        }
    };
    // Standard input has no name to go by: a JSON map starts with `{`,
    // which no text level does (`{` is not a tile).
    let is_json = if crate::input::is_stdin(path) {
        source.text.trim_start().starts_with('{')
    } else {
        path.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    };
    if !is_json {
        return parse_level(&source).map_err(|d| invalid(d, &source));
    }
    let config = match tiled_config {
        Some(config_path) => {
            let config_source = read_source(config_path)?;
            Some(TiledConfig::parse(&config_source).map_err(|d| invalid(d, &config_source))?)
        }
        None => None,
    };
    parse_tiled(&source, config.as_ref()).map_err(|d| invalid(d, &source))
}
