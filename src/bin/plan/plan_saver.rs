//! `plan -o FILE`: the best plan found so far kept in FILE while the
//! search goes on, so that a process killed before it ends (SIGKILL, the
//! kernel's out-of-memory killer, a batch system's hard limit) leaves its
//! best plan behind, as Fast Downward's numbered plan files do.
//!
//! Nothing is written in the search's first [`SAVE_AFTER`]: a millisecond
//! task would otherwise pay for a file write per improvement (a task that
//! ends sooner gets its plan from the final write only). From then on the
//! latest plan is written when it arrives, or, for one found sooner, at the
//! next progress report, to a temporary file beside FILE that is then
//! renamed over it, so FILE always holds a whole plan (the old one or the
//! new one); a process killed during such a write leaves that file
//! (`.FILE.PID.partial`) behind.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use planner::ground::Task;
use planner::ground::task::CostModel;
use planner::search::Plan;
use planner::solve::plan_text;

/// How long the search runs before plans are saved as they are found.
pub const SAVE_AFTER: Duration = Duration::from_secs(1);

/// Saves the latest plan of a running search to the `-o` file (see the
/// module docs).
pub struct PlanSaver {
    path: PathBuf,
    start: Instant,
    /// The text of the latest plan, not yet saved.
    pending: Option<String>,
    /// Set after a failed write: the final write reports the error.
    failed: bool,
}

impl PlanSaver {
    /// A saver for the output file `path`, timing from `start`; `None`
    /// where the file cannot be replaced by a rename: standard output
    /// (`-`), and anything that is not a regular file or absent (a
    /// device such as `/dev/null`, a pipe, a symbolic link, whose target
    /// the rename would replace by a file).
    pub fn new(path: &Path, start: Instant) -> Option<PlanSaver> {
        if crate::output::is_stdout(path) {
            return None;
        }
        let replaceable = match std::fs::symlink_metadata(path) {
            Ok(metadata) => metadata.file_type().is_file(),
            Err(error) => error.kind() == std::io::ErrorKind::NotFound,
        };
        replaceable.then(|| PlanSaver {
            path: path.to_path_buf(),
            start,
            pending: None,
            failed: false,
        })
    }

    /// Takes a plan the search found: saved now if the search has run
    /// long enough, else kept for [`PlanSaver::save_if_due`].
    pub fn plan_found(&mut self, task: &Task, plan: &Plan) {
        let metric_value = planner::search::found_plan_metric_value(task, plan);
        // A metric the ground task cannot evaluate (`total-time`) takes the
        // validator's replay: the final write gives its value (and no older,
        // costlier plan is saved meanwhile).
        if metric_value.is_none() && matches!(task.cost_model, CostModel::NotOptimised { .. }) {
            self.pending = None;
            return;
        }
        self.pending = Some(plan_text(task, plan, metric_value));
        self.save_if_due();
    }

    /// Saves the pending plan if the search has run for [`SAVE_AFTER`].
    pub fn save_if_due(&mut self) {
        if self.failed || self.pending.is_none() || self.start.elapsed() < SAVE_AFTER {
            return;
        }
        if let Some(text) = self.pending.take() {
            self.failed = replace_file(&self.path, text.as_bytes()).is_err();
        }
    }
}

/// Writes `bytes` to a temporary file beside `path` and renames it over
/// `path`: a reader, or a process killed meanwhile, sees the old contents
/// or the new ones, never a mix.
fn replace_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("no file name"))?;
    let mut temporary_name = std::ffi::OsString::from(".");
    temporary_name.push(name);
    temporary_name.push(format!(".{}.partial", std::process::id()));
    let temporary = path.with_file_name(temporary_name);
    let written =
        std::fs::write(&temporary, bytes).and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}
