//! Comparison runner for `benches/compare.sh`: solves DOMAIN PROBLEM with
//! ferroplan's one-call API (`ferroplan::solve` with `Options::default()`), prints
//! the plan in IPC form on stdout followed by "; length N" (and "; metric M").
//! Not part of the workspace: compare.sh copies it into a scratch crate and
//! builds it there, so the project never depends on ferroplan.
//! Exit 0 = solved, 1 = no plan, 2 = usage/read/parse error.
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: ferroplan-runner DOMAIN PROBLEM");
        return ExitCode::from(2);
    }
    let read = |path: &str| std::fs::read_to_string(path).map_err(|e| eprintln!("{path}: {e}"));
    let (Ok(domain), Ok(problem)) = (read(&args[1]), read(&args[2])) else {
        return ExitCode::from(2);
    };
    match ferroplan::solve(&domain, &problem, &ferroplan::Options::default()) {
        Ok(solution) => match solution.plan.filter(|_| solution.solved) {
            Some(plan) => {
                for step in &plan.steps {
                    if step.args.is_empty() {
                        println!("({})", step.action);
                    } else {
                        println!("({} {})", step.action, step.args.join(" "));
                    }
                }
                println!("; length {}", plan.length);
                if let Some(metric) = plan.metric {
                    println!("; metric {metric}");
                }
                ExitCode::SUCCESS
            }
            None => {
                for note in &solution.notes {
                    eprintln!("note: {note}");
                }
                eprintln!("no plan found");
                ExitCode::from(1)
            }
        },
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}
