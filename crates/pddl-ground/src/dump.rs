//! A readable text form of a ground task, for `plan ground --dump`.
//!
//! Facts and fluents are written by name; every section starts with its
//! count, so the dump can be diffed and grepped.

use crate::task::{Conjunction, CostModel, NumCondition, NumEffect, NumExpr, Task};
use std::fmt::Write as _;

/// Writes the task in its text form.
pub fn write_task(task: &Task, out: &mut impl std::io::Write) -> std::io::Result<()> {
    out.write_all(task_to_string(task).as_bytes())
}

/// The task in its text form.
pub fn task_to_string(task: &Task) -> String {
    let mut s = String::new();
    // Writing to a String cannot fail.
    let _ = write_all(task, &mut s);
    s
}

fn write_all(task: &Task, s: &mut String) -> std::fmt::Result {
    let fact = |f: u32| {
        task.facts
            .get(f as usize)
            .map_or_else(|| format!("#{f}"), |a| a.to_string())
    };
    writeln!(s, "domain {}", task.domain_name)?;
    writeln!(s, "problem {}", task.problem_name)?;
    match &task.cost_model {
        CostModel::Unit => writeln!(s, "cost model: unit")?,
        CostModel::FromMetric {
            fluents,
            offset,
            scale,
        } => {
            write!(
                s,
                "cost model: from metric [{}], offset {offset}",
                fluents.join(", ")
            )?;
            if *scale != 1 {
                write!(s, ", {scale} cost units per metric unit")?;
            }
            writeln!(s)?
        }
        CostModel::NotOptimised { reason } => writeln!(s, "cost model: not optimised ({reason})")?,
    }
    if let Some(m) = &task.metric {
        writeln!(
            s,
            "metric: {} {}",
            if m.minimize { "minimize" } else { "maximize" },
            expr(task, &m.expr)
        )?;
    }
    writeln!(s, "facts {}", task.facts.len())?;
    for (i, f) in task.facts.iter().enumerate() {
        writeln!(s, "  {i} {f}")?;
    }
    writeln!(s, "fluents {}", task.fluents.len())?;
    for (i, f) in task.fluents.iter().enumerate() {
        writeln!(
            s,
            "  {i} {f} = {}",
            task.init_fluents.get(i).copied().unwrap_or(f64::NAN)
        )?;
    }
    writeln!(s, "init {}", task.init_facts.len())?;
    for &f in &task.init_facts {
        writeln!(s, "  {}", fact(f))?;
    }
    writeln!(s, "goal")?;
    conjunction(task, &task.goal, "  ", s)?;
    writeln!(s, "operators {}", task.operators.len())?;
    for op in &task.operators {
        writeln!(s, "  {} cost {}", op.plan_line(), op.cost)?;
        conjunction(task, &op.precondition, "    pre ", s)?;
        effects(task, &op.add, &op.del, &op.numeric, "    ", s)?;
        for c in &op.conditional {
            writeln!(s, "    when")?;
            conjunction(task, &c.condition, "      if ", s)?;
            effects(task, &c.add, &c.del, &c.numeric, "      ", s)?;
        }
    }
    writeln!(s, "axioms {}", task.axioms.len())?;
    for a in &task.axioms {
        writeln!(s, "  stratum {} {}", a.stratum, fact(a.head))?;
        conjunction(task, &a.body, "    if ", s)?;
    }
    Ok(())
}

fn conjunction(task: &Task, c: &Conjunction, prefix: &str, s: &mut String) -> std::fmt::Result {
    for &f in &c.pos {
        writeln!(s, "{prefix}{}", name(task, f))?;
    }
    for &f in &c.neg {
        writeln!(s, "{prefix}(not {})", name(task, f))?;
    }
    for NumCondition { op, lhs, rhs } in &c.numeric {
        writeln!(
            s,
            "{prefix}({} {} {})",
            op.symbol(),
            expr(task, lhs),
            expr(task, rhs)
        )?;
    }
    Ok(())
}

fn effects(
    task: &Task,
    add: &[u32],
    del: &[u32],
    numeric: &[NumEffect],
    prefix: &str,
    s: &mut String,
) -> std::fmt::Result {
    for &f in add {
        writeln!(s, "{prefix}add {}", name(task, f))?;
    }
    for &f in del {
        writeln!(s, "{prefix}del {}", name(task, f))?;
    }
    for n in numeric {
        let fluent = task
            .fluents
            .get(n.fluent as usize)
            .map_or_else(|| format!("#{}", n.fluent), |a| a.to_string());
        writeln!(
            s,
            "{prefix}({} {fluent} {})",
            n.op.keyword(),
            expr(task, &n.expr)
        )?;
    }
    Ok(())
}

fn name(task: &Task, f: u32) -> String {
    task.facts
        .get(f as usize)
        .map_or_else(|| format!("#{f}"), |a| a.to_string())
}

/// A ground expression in PDDL prefix syntax.
pub fn expr(task: &Task, e: &NumExpr) -> String {
    match e {
        NumExpr::Const(c) => format!("{c}"),
        NumExpr::Fluent(f) => task
            .fluents
            .get(*f as usize)
            .map_or_else(|| format!("#{f}"), |a| a.to_string()),
        NumExpr::Neg(a) => format!("(- {})", expr(task, a)),
        NumExpr::Add(a, b) => format!("(+ {} {})", expr(task, a), expr(task, b)),
        NumExpr::Sub(a, b) => format!("(- {} {})", expr(task, a), expr(task, b)),
        NumExpr::Mul(a, b) => format!("(* {} {})", expr(task, a), expr(task, b)),
        NumExpr::Div(a, b) => format!("(/ {} {})", expr(task, a), expr(task, b)),
    }
}
