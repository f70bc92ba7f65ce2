//! Search progress on standard error, shared by `plan` and `plan puzznic
//! solve`.

use planner::ground::Task;
use planner::ground::task::CostModel;
use planner::search::{Plan, Progress, ProgressReason, SearchObserver};
use std::io::{IsTerminal, Write};

/// Shows search progress on stderr: a live status line on a terminal,
/// plain lines otherwise.
pub struct ProgressPrinter {
    quiet: bool,
    /// The searched task's, to show A*'s f and h in the metric's units.
    cost_model: Option<CostModel>,
    live: bool,
    line_open: bool,
}

impl ProgressPrinter {
    pub fn new(quiet: bool) -> ProgressPrinter {
        ProgressPrinter {
            quiet,
            cost_model: None,
            live: std::io::stderr().is_terminal(),
            line_open: false,
        }
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

    /// Ends a live status line so later output starts on a new line.
    pub fn finish(&mut self) {
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
        self.show(&line, p.reason != ProgressReason::Periodic || secs >= 1.0);
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
