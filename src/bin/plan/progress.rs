//! Search progress on standard error, shared by `plan` and `plan puzznic
//! solve`.

use planner::ground::Task;
use planner::ground::task::CostModel;
use planner::search::{Plan, Progress, ProgressReason, SearchObserver};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// A new best h or f is shown at once if the last line is at least this
/// old; sooner ones wait for the next line (or the plan, or the end), the
/// latest replacing the others. A search whose h falls by one per
/// expansion (a million-step plan) would otherwise print a million lines,
/// or redraw the status line a million times.
const MIN_LINE_GAP: Duration = Duration::from_millis(50);

/// When [`GroundingProgress`] shows its first line, and then how often.
const FIRST_GROUNDING_LINE: Duration = Duration::from_secs(1);
const GROUNDING_LINE_INTERVAL: Duration = Duration::from_secs(5);

/// A line on stderr now and then while the task is grounded, which the
/// search's progress does not cover: a large task (a 98 × 98 Puzznic
/// level grounds for over a minute) would otherwise look stuck. Its
/// [`GroundingProgress::tick`] is the grounder's stop hook, which it
/// polls every few thousand units of work.
pub struct GroundingProgress {
    quiet: bool,
    start: Instant,
    next_line: std::cell::Cell<Duration>,
}

impl GroundingProgress {
    /// Timing from `start`, the start of the run; `quiet` shows nothing.
    fn new(quiet: bool, start: Instant) -> GroundingProgress {
        GroundingProgress {
            quiet,
            start,
            next_line: std::cell::Cell::new(FIRST_GROUNDING_LINE),
        }
    }

    /// Shows a line if one is due; never asks grounding to stop.
    pub fn tick(&self) -> bool {
        if self.quiet {
            return false;
        }
        let elapsed = self.start.elapsed();
        if elapsed >= self.next_line.get() {
            self.next_line.set(elapsed + GROUNDING_LINE_INTERVAL);
            let memory = planner::memory::resident_bytes()
                .map(|bytes| format!("  {} MiB", bytes >> 20))
                .unwrap_or_default();
            eprintln!(
                "[{:7.2}s] {:>16}{memory}",
                elapsed.as_secs_f64(),
                "grounding"
            );
        }
        false
    }
}

/// Shows search progress on stderr: a live status line on a terminal,
/// plain lines otherwise.
pub struct ProgressPrinter {
    quiet: bool,
    /// The searched task's, to show A*'s f and h in the metric's units.
    cost_model: Option<CostModel>,
    live: bool,
    line_open: bool,
    /// When the last line was shown.
    last_line_at: Option<Instant>,
    /// A report held back by [`MIN_LINE_GAP`], shown before the next output.
    held: Option<Progress>,
}

impl ProgressPrinter {
    pub fn new(quiet: bool) -> ProgressPrinter {
        ProgressPrinter {
            quiet,
            cost_model: None,
            live: std::io::stderr().is_terminal(),
            line_open: false,
            last_line_at: None,
            held: None,
        }
    }

    /// The lines to show while grounding, for a run that started at
    /// `start` (none where this printer is quiet).
    pub fn grounding(&self, start: Instant) -> GroundingProgress {
        GroundingProgress::new(self.quiet, start)
    }

    /// Shows a progress line: as the live status line on a terminal,
    /// otherwise printed if `worth_a_line`.
    pub fn show(&mut self, line: &str, worth_a_line: bool) {
        if self.quiet {
            return;
        }
        if self.live {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K{line}");
            let _ = err.flush();
            self.line_open = true;
        } else if worth_a_line {
            eprintln!("{line}");
        }
    }

    /// Shows report `p` as a line (a periodic one on a terminal, or
    /// after the first second).
    fn show_progress(&mut self, p: &Progress) {
        // Both where A* knows both: a line for a new best h then shows
        // what changed. Costs are shown in the metric's units, as the
        // plan's cost is; greedy search's h counts steps.
        let in_metric_units = |cost| match &self.cost_model {
            Some(model) => model.display_cost(cost).to_string(),
            None => cost.to_string(),
        };
        let h_text = |h| {
            if p.h_counts_costs {
                in_metric_units(h)
            } else {
                h.to_string()
            }
        };
        let bound = match (p.best_f, p.best_h) {
            (Some(f), Some(h)) => format!("f = {}, h = {}", in_metric_units(f), h_text(h)),
            (Some(f), None) => format!("f = {}", in_metric_units(f)),
            (None, Some(h)) => format!("h = {}", h_text(h)),
            (None, None) => String::new(),
        };
        let secs = p.elapsed.as_secs_f64();
        let rate = if secs > 0.0 {
            p.expanded as f64 / secs
        } else {
            0.0
        };
        let line = format!(
            "[{secs:7.2}s] {bound:>16}  {} expanded, {} generated, {:.0} states/s, {} MiB",
            p.expanded,
            p.generated,
            rate,
            p.memory_bytes >> 20
        );
        let worth_a_line = p.reason != ProgressReason::Periodic || secs >= 1.0;
        if worth_a_line || self.live {
            self.last_line_at = Some(Instant::now());
        }
        self.show(&line, worth_a_line);
    }

    /// Ends a live status line so later output starts on a new line
    /// (after the report held back, if any).
    pub fn finish(&mut self) {
        if let Some(held) = self.held.take() {
            self.show_progress(&held);
        }
        if self.line_open {
            eprintln!();
            self.line_open = false;
        }
    }
}

impl SearchObserver for ProgressPrinter {
    fn on_start(&mut self, task: &Task) {
        self.cost_model = Some(task.cost_model.clone());
    }

    fn on_progress(&mut self, p: &Progress) {
        if self.quiet {
            return;
        }
        let periodic = p.reason == ProgressReason::Periodic;
        let now = Instant::now();
        if !periodic
            && self
                .last_line_at
                .is_some_and(|at| now.duration_since(at) < MIN_LINE_GAP)
        {
            self.held = Some(p.clone());
            return;
        }
        // A periodic report is newer than the one held back.
        self.held = None;
        self.show_progress(p);
    }

    fn on_plan(&mut self, task: &Task, plan: &Plan) {
        if self.quiet {
            return;
        }
        self.finish();
        eprintln!(
            "found a plan: {} steps, cost {}",
            plan.operators.len(),
            task.cost_model.display_cost(plan.cost)
        );
    }
}
