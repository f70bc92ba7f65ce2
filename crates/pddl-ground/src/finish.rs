//! Finishing the ground task: the cost model, compiling away facts that
//! never change (and merging the conditional effects whose conditions
//! that makes equal), and renumbering facts and fluents in sorted order.

use crate::GroundError;
use crate::instantiate::{LinearMetric, MetricInfo, RawTask, operator_parts, tidy};
use crate::merged_effects::MergedEffects;
use crate::normalize::Model;
use crate::relevance::drop_irrelevant;
use crate::stop::{FreedInBackground, StopPoll};
use crate::task::{
    AssignOp, Conjunction, Cost, CostDisplay, CostModel, FactId, FluentId, GroundAtom,
    GroundMetric, ImpossibleLiteral, MAX_COST_DECIMALS, MAX_OPERATOR_COST, NumCondition, NumEffect,
    NumExpr, Operator, Task,
};

/// Most rounds of constant-fact elimination (each round can only expose
/// more constants by dropping operators; a few rounds reach the fixpoint
/// in practice).
const MAX_ROUNDS: usize = 8;

/// Finishes `raw` into a task; with `prune_irrelevant`, also removes what
/// cannot matter for reaching the goal (see `relevance.rs`). Returns the
/// task and the number of operators that removal took away, or
/// [`GroundError::Stopped`] once `stop` says so.
pub(crate) fn finish(
    model: &Model,
    raw: RawTask,
    prune_irrelevant: bool,
    stop: &StopPoll<'_>,
) -> Result<(Task, usize), GroundError> {
    let mut raw = FreedInBackground::new(raw, |raw| operator_parts(&raw.operators));
    let finished = finish_in_place(model, &mut raw, prune_irrelevant, stop)?;
    // What the task did not take is small: freed here.
    drop(raw.into_inner());
    Ok(finished)
}

/// [`finish`], leaving in `raw` what the task did not take.
fn finish_in_place(
    model: &Model,
    raw: &mut RawTask,
    prune_irrelevant: bool,
    stop: &StopPoll<'_>,
) -> Result<(Task, usize), GroundError> {
    // Each phase walks every operator and effect, seconds on a large
    // Puzznic level (9 s in all on a 98 x 98 one, relevance analysis 4.7 s
    // of it): the stop condition is asked between them, and the longer
    // ones ask it as they go.
    drop_double_updates(raw);
    // Operators that need always-false facts go first, so that the
    // fluents only they change count as unchanged; folding may in turn
    // drop operators and expose more constant facts.
    eliminate_constant_facts(raw, stop)?;
    stop.go_on()?;
    fold_unchanged_fluents(raw);
    let (cost_model, metric) = cost_model(raw);
    stop.go_on()?;
    let irrelevant = if prune_irrelevant {
        drop_irrelevant(raw, metric.as_ref(), stop)?
    } else {
        0
    };
    stop.go_on()?;
    eliminate_constant_facts(raw, stop)?;
    stop.go_on()?;
    let task = compact(model, raw, cost_model, metric, stop)?;
    stop.go_on()?;
    Ok((task, irrelevant))
}

/// Replaces fluents that no operator changes by their initial value and
/// folds constant subexpressions.
fn fold_expr(e: &mut NumExpr, written: &[bool], init: &[f64]) {
    let folded = match e {
        NumExpr::Const(_) => return,
        NumExpr::Fluent(id) => {
            if written[*id as usize] {
                return;
            }
            init[*id as usize]
        }
        NumExpr::Neg(a) => {
            fold_expr(a, written, init);
            match **a {
                NumExpr::Const(c) => -c,
                _ => return,
            }
        }
        NumExpr::Add(a, b) | NumExpr::Sub(a, b) | NumExpr::Mul(a, b) | NumExpr::Div(a, b) => {
            fold_expr(a, written, init);
            fold_expr(b, written, init);
            if !matches!((&**a, &**b), (NumExpr::Const(_), NumExpr::Const(_))) {
                return;
            }
            // Both sides are constants: evaluation needs no state.
            e.eval(&[]).unwrap_or(f64::NAN)
        }
    };
    *e = NumExpr::Const(folded);
}

/// Fluents that no operator changes keep their initial value everywhere:
/// they become constants, and numeric conditions that become constant are
/// decided (operators, conditional effects and axioms that can never
/// apply are removed; a goal condition that can never hold is kept, so
/// the task stays visibly unsolvable).
fn fold_unchanged_fluents(raw: &mut RawTask) {
    let mut written = vec![false; raw.fluents.len()];
    for op in &raw.operators {
        for n in op
            .numeric
            .iter()
            .chain(op.conditional.iter().flat_map(|c| &c.numeric))
        {
            written[n.fluent as usize] = true;
        }
    }
    if written.iter().all(|&w| w) {
        return;
    }
    let init = raw.init_fluents.clone();
    // Folds a conjunction's conditions; false when one can never hold.
    let decide = |c: &mut Conjunction, keep_false: bool| -> bool {
        let mut possible = true;
        c.numeric.retain_mut(|n| {
            fold_expr(&mut n.lhs, &written, &init);
            fold_expr(&mut n.rhs, &written, &init);
            if !matches!((&n.lhs, &n.rhs), (NumExpr::Const(_), NumExpr::Const(_))) {
                return true;
            }
            let holds = n.holds(&[]);
            possible &= holds;
            !holds && keep_false
        });
        possible
    };
    raw.operators.retain_mut(|op| {
        if !decide(&mut op.precondition, false) {
            return false;
        }
        for n in &mut op.numeric {
            fold_expr(&mut n.expr, &written, &init);
        }
        let mut shortened = false;
        op.conditional.retain_mut(|c| {
            for n in &mut c.numeric {
                fold_expr(&mut n.expr, &written, &init);
            }
            let len = c.condition.numeric.len();
            let possible = decide(&mut c.condition, false);
            shortened |= len != c.condition.numeric.len();
            possible
        });
        if shortened {
            // An effect whose numeric conditions always hold may now have
            // the condition of another.
            MergedEffects::merge(&mut op.conditional);
        }
        true
    });
    raw.axioms.retain_mut(|a| decide(&mut a.body, false));
    decide(&mut raw.goal, true);
}

/// Every fluent read by a condition or an effect's right-hand side.
fn fluents_read(raw: &RawTask) -> Vec<bool> {
    let mut read = vec![false; raw.fluents.len()];
    let mut mark = |id: FluentId| read[id as usize] = true;
    for op in &raw.operators {
        op.precondition.for_each_fluent(&mut mark);
        for n in &op.numeric {
            n.expr.for_each_fluent(&mut mark);
        }
        for c in &op.conditional {
            c.condition.for_each_fluent(&mut mark);
            for n in &c.numeric {
                n.expr.for_each_fluent(&mut mark);
            }
        }
    }
    for a in &raw.axioms {
        a.body.for_each_fluent(&mut mark);
    }
    raw.goal.for_each_fluent(&mut mark);
    read
}

/// Decides how operator costs relate to the metric; on success removes
/// the cost fluents' effects from the operators and sets their costs.
fn cost_model(raw: &mut RawTask) -> (CostModel, Option<GroundMetric>) {
    let Some(info) = raw.metric.take() else {
        return (CostModel::Unit, None);
    };
    match costs_from_metric(raw, &info) {
        Ok(MetricCosts {
            costs,
            scale,
            fluents,
            counts_steps,
            offset,
        }) => {
            let is_cost: Vec<bool> = (0..raw.fluents.len() as FluentId)
                .map(|f| fluents.contains(&f))
                .collect();
            for (op, cost) in raw.operators.iter_mut().zip(costs) {
                op.cost = cost;
                op.numeric.retain(|n| !is_cost[n.fluent as usize]);
            }
            let mut names: Vec<String> = fluents
                .iter()
                .map(|&f| raw.fluents[f as usize].to_string())
                .collect();
            if counts_steps {
                names.push("(total-time)".into());
            }
            (
                CostModel::FromMetric {
                    fluents: names,
                    offset,
                    scale,
                },
                Some(GroundMetric {
                    minimize: true,
                    expr: NumExpr::Const(0.0),
                }),
            )
        }
        Err(reason) => (
            CostModel::NotOptimised { reason },
            info.expr.map(|expr| GroundMetric {
                minimize: info.minimize,
                expr,
            }),
        ),
    }
}

/// A metric turned into operator costs (see [`CostModel::FromMetric`]).
struct MetricCosts {
    /// Per operator, in units of `scale`.
    costs: Vec<Cost>,
    scale: Cost,
    /// The fluents the costs replace.
    fluents: Vec<FluentId>,
    /// Whether `total-time` counts (each step costs its weight).
    counts_steps: bool,
    /// The metric's value in the initial state.
    offset: f64,
}

/// The metric as operator costs, or why it cannot become them.
fn costs_from_metric(raw: &RawTask, info: &MetricInfo) -> Result<MetricCosts, String> {
    if !info.minimize {
        return Err("the metric is maximised".into());
    }
    let LinearMetric {
        terms,
        constant,
        per_step,
    } = info.linear.clone()?;
    if per_step < 0.0 {
        return Err("the metric decreases with `total-time`".into());
    }
    let mut weights = vec![0.0f64; raw.fluents.len()];
    for (f, w) in terms {
        weights[f as usize] += w;
    }
    let fluents: Vec<FluentId> = (0..raw.fluents.len() as FluentId)
        .filter(|&f| weights[f as usize] != 0.0)
        .collect();
    let mut offset = constant;
    for &f in &fluents {
        let name = &raw.fluents[f as usize];
        if weights[f as usize] < 0.0 {
            return Err(format!("the metric decreases with {name}"));
        }
        let init = raw.init_fluents[f as usize];
        if init.is_nan() {
            return Err(format!("{name} has no initial value"));
        }
        offset += weights[f as usize] * init;
        if raw.conditional_numeric.contains(&f) {
            return Err(format!("{name} is changed by a conditional effect"));
        }
    }
    let read = fluents_read(raw);
    if let Some(&f) = fluents.iter().find(|&&f| read[f as usize]) {
        return Err(format!(
            "{} is used in a condition or expression",
            raw.fluents[f as usize]
        ));
    }
    let mut costs = Vec::with_capacity(raw.operators.len());
    for op in &raw.operators {
        // Each step adds one to `total-time`.
        let mut cost = per_step;
        for n in &op.numeric {
            let w = weights[n.fluent as usize];
            if w == 0.0 {
                continue;
            }
            let name = &raw.fluents[n.fluent as usize];
            match (n.op, &n.expr) {
                (AssignOp::Increase, NumExpr::Const(v)) if *v >= 0.0 => cost += w * v,
                (AssignOp::Increase, NumExpr::Const(v)) => {
                    return Err(format!(
                        "{} increases {name} by a negative amount ({v})",
                        op.plan_line()
                    ));
                }
                (AssignOp::Increase, _) => {
                    return Err(format!(
                        "{} increases {name} by a state-dependent amount",
                        op.plan_line()
                    ));
                }
                _ => {
                    return Err(format!(
                        "{} changes {name} other than by `increase`",
                        op.plan_line()
                    ));
                }
            }
        }
        if !cost.is_finite() {
            return Err(format!("{} has an infinite cost", op.plan_line()));
        }
        costs.push(cost);
    }
    let (costs, scale) = scale_to_integers(raw, &costs)?;
    Ok(MetricCosts {
        costs,
        scale,
        fluents,
        counts_steps: per_step != 0.0,
        offset,
    })
}

/// The operator costs as integers, in units of the returned scale: the
/// smallest power of ten, up to [`MAX_COST_DECIMALS`] decimal places, that
/// makes every cost an integer (a metric in decimals, such as satellite's
/// slew times, then still becomes costs, which searches add exactly).
fn scale_to_integers(raw: &RawTask, costs: &[f64]) -> Result<(Vec<Cost>, Cost), String> {
    // Searches number their states with 32 bits, so a path has fewer than
    // 2^32 steps: with every cost below 2^32 no path's cost can overflow
    // a `Cost` (an overflow would make a search prune every path past it
    // and report a solvable task unsolvable).
    const LARGEST: f64 = MAX_OPERATOR_COST as f64;
    // Tolerance for the decimal value's binary rounding (18.17 * 100 is
    // 1816.9999999999998), a few units in the last place of a double.
    let integral = |c: f64| (c - c.round()).abs() <= 1e-9 + c.abs() * 1e-13;
    let scale = (0..=MAX_COST_DECIMALS)
        .map(|decimals| 10u64.pow(decimals))
        .find(|&scale| costs.iter().all(|&c| integral(c * scale as f64)));
    let Some(scale) = scale else {
        // The largest scale failed: some cost fails at it.
        let finest = 10f64.powi(MAX_COST_DECIMALS as i32);
        let offender = raw
            .operators
            .iter()
            .zip(costs)
            .find(|&(_, &c)| !integral(c * finest))
            .map_or_else(String::new, |(op, cost)| {
                format!("{} has a cost ({cost}) ", op.plan_line())
            });
        return Err(format!(
            "{offender}with more than {MAX_COST_DECIMALS} decimal places"
        ));
    };
    costs
        .iter()
        .zip(&raw.operators)
        .map(|(&cost, op)| {
            let scaled = (cost * scale as f64).round();
            if scaled <= LARGEST {
                Ok(scaled as Cost)
            } else {
                Err(format!(
                    "{} has too large a cost ({cost}; at most {})",
                    op.plan_line(),
                    CostDisplay::at_scale(MAX_OPERATOR_COST, scale)
                ))
            }
        })
        .collect::<Result<_, _>>()
        .map(|costs| (costs, scale))
}

/// Removes the operators whose unconditional numeric effects change one
/// fluent twice (two parameters naming the same object, or two effects
/// written on `total-cost`): by PDDL 2.1 such a step is not defined, and
/// the validator rejects it. (Where conditional effects do it, the search
/// finds out when it applies the operator.) Before the cost model, which
/// would otherwise add up two increases of the metric.
/// They are counted in [`RawTask::double_updates`], for the note that
/// explains a task left without a plan.
fn drop_double_updates(raw: &mut RawTask) {
    let double_updates = &mut raw.double_updates;
    let fluents = &raw.fluents;
    raw.operators.retain(|op| {
        let twice = op.numeric.iter().enumerate().find_map(|(i, e)| {
            op.numeric[..i]
                .iter()
                .any(|earlier| earlier.fluent == e.fluent)
                .then_some(e.fluent)
        });
        let Some(fluent) = twice else {
            return true;
        };
        double_updates.dropped += 1;
        double_updates
            .example
            .get_or_insert_with(|| (op.plan_line(), fluents[fluent as usize].clone()));
        false
    });
}

/// Removes facts that are always true (initially true, never deleted) or
/// always false (initially false, never added or derived), and the
/// operators, effects and axioms they make impossible.
fn eliminate_constant_facts(raw: &mut RawTask, stop: &StopPoll<'_>) -> Result<(), GroundError> {
    let n = raw.facts.len();
    let mut init = vec![false; n];
    for &f in &raw.init_facts {
        init[f as usize] = true;
    }
    for _ in 0..MAX_ROUNDS {
        let mut added = vec![false; n];
        let mut deleted = vec![false; n];
        for op in &raw.operators {
            op.add.iter().for_each(|&f| added[f as usize] = true);
            op.del.iter().for_each(|&f| deleted[f as usize] = true);
            for c in &op.conditional {
                c.add.iter().for_each(|&f| added[f as usize] = true);
                c.del.iter().for_each(|&f| deleted[f as usize] = true);
            }
        }
        for a in &raw.axioms {
            added[a.head as usize] = true;
        }
        // Some(true): always true; Some(false): always false.
        let constant: Vec<Option<bool>> = (0..n)
            .map(|f| {
                if raw.derived[f] {
                    (!added[f]).then_some(false)
                } else if init[f] && !deleted[f] {
                    Some(true)
                } else if !init[f] && !added[f] {
                    Some(false)
                } else {
                    None
                }
            })
            .collect();
        let mut changed = false;
        let before = (raw.operators.len(), raw.axioms.len());
        // Returns false when the conjunction can never hold.
        let simplify = |c: &mut Conjunction, changed: &mut bool| -> bool {
            if c.pos.iter().any(|&f| constant[f as usize] == Some(false))
                || c.neg.iter().any(|&f| constant[f as usize] == Some(true))
            {
                return false;
            }
            let len = c.pos.len() + c.neg.len();
            c.pos.retain(|&f| constant[f as usize].is_none());
            c.neg.retain(|&f| constant[f as usize].is_none());
            *changed |= len != c.pos.len() + c.neg.len();
            true
        };
        raw.operators.retain_mut(|op| {
            if stop.tick(1 + op.conditional.len() as u32) {
                return true; // left as it is: the task is dropped
            }
            if !simplify(&mut op.precondition, &mut changed) {
                return false;
            }
            let mut merged = Vec::new();
            let mut shortened = false;
            op.conditional.retain_mut(|c| {
                let len = c.condition.pos.len() + c.condition.neg.len();
                if !simplify(&mut c.condition, &mut changed) {
                    return false;
                }
                shortened |= len != c.condition.pos.len() + c.condition.neg.len();
                c.add.retain(|&f| constant[f as usize].is_none());
                c.del.retain(|&f| constant[f as usize].is_none());
                if c.condition.is_empty() {
                    merged.push(std::mem::take(c));
                    return false;
                }
                !(c.add.is_empty() && c.del.is_empty() && c.numeric.is_empty())
            });
            if shortened {
                // Conditions that differed only in constant facts may now
                // be equal.
                MergedEffects::merge(&mut op.conditional);
            }
            for c in merged {
                op.add.extend(c.add);
                op.del.extend(c.del);
                op.numeric.extend(c.numeric);
            }
            op.add.retain(|&f| constant[f as usize].is_none());
            op.del.retain(|&f| constant[f as usize].is_none());
            op.add.sort_unstable();
            op.add.dedup();
            op.del.sort_unstable();
            op.del.dedup();
            !(op.add.is_empty()
                && op.del.is_empty()
                && op.numeric.is_empty()
                && op.conditional.is_empty())
        });
        if stop.stopped() {
            return Err(GroundError::Stopped);
        }
        raw.axioms
            .retain_mut(|a| simplify(&mut a.body, &mut changed));
        // An impossible goal keeps its always-false fact, so the task
        // stays visibly unsolvable, and names the literals that made it
        // so where instantiation had not (an atom true at first that
        // nothing deletes, needed false).
        let mut goal = raw.goal.clone();
        if simplify(&mut goal, &mut changed) {
            raw.goal = goal;
        } else if raw.impossible_goal.is_empty() {
            raw.impossible_goal = constant_goal_literals(raw, &constant);
        }
        changed |= before != (raw.operators.len(), raw.axioms.len());
        if !changed {
            break;
        }
    }
    Ok(())
}

/// The goal's atoms needed false that are true at first and that nothing
/// deletes, but not the grounder's own facts (`@goal`...), which name
/// nothing in the files. (An atom needed true that nothing adds is named
/// by instantiation already, from relaxed reachability.)
fn constant_goal_literals(raw: &RawTask, constant: &[Option<bool>]) -> Vec<ImpossibleLiteral> {
    raw.goal
        .neg
        .iter()
        .filter(|&&f| constant[f as usize] == Some(true))
        .map(|&f| &raw.facts[f as usize])
        .filter(|atom| !atom.is_grounder_own())
        .map(|atom| ImpossibleLiteral::Atom {
            atom: atom.clone(),
            positive: false,
        })
        .collect()
}

/// Calls `f` on every fact id and every fluent id of the task's parts.
struct Ids<'a> {
    facts: &'a mut dyn FnMut(&mut FactId),
    fluents: &'a mut dyn FnMut(&mut FluentId),
}

impl Ids<'_> {
    fn conjunction(&mut self, c: &mut Conjunction) {
        c.pos
            .iter_mut()
            .chain(c.neg.iter_mut())
            .for_each(|f| (self.facts)(f));
        for NumCondition { lhs, rhs, .. } in &mut c.numeric {
            self.expr(lhs);
            self.expr(rhs);
        }
    }
    fn expr(&mut self, e: &mut NumExpr) {
        match e {
            NumExpr::Const(_) => {}
            NumExpr::Fluent(id) => (self.fluents)(id),
            NumExpr::Neg(a) => self.expr(a),
            NumExpr::Add(a, b) | NumExpr::Sub(a, b) | NumExpr::Mul(a, b) | NumExpr::Div(a, b) => {
                self.expr(a);
                self.expr(b);
            }
        }
    }
    fn effects(&mut self, add: &mut [FactId], del: &mut [FactId], numeric: &mut [NumEffect]) {
        add.iter_mut()
            .chain(del.iter_mut())
            .for_each(|f| (self.facts)(f));
        for n in numeric {
            (self.fluents)(&mut n.fluent);
            self.expr(&mut n.expr);
        }
    }
    fn operator(&mut self, op: &mut Operator) {
        self.conjunction(&mut op.precondition);
        self.effects(&mut op.add, &mut op.del, &mut op.numeric);
        for c in &mut op.conditional {
            self.conjunction(&mut c.condition);
            self.effects(&mut c.add, &mut c.del, &mut c.numeric);
        }
    }
    fn task(&mut self, raw: &mut RawTask, metric: &mut Option<GroundMetric>) {
        for op in &mut raw.operators {
            self.operator(op);
        }
        for a in &mut raw.axioms {
            (self.facts)(&mut a.head);
            self.conjunction(&mut a.body);
        }
        self.conjunction(&mut raw.goal);
        if let Some(m) = metric {
            self.expr(&mut m.expr);
        }
    }
}

/// Keeps only the facts and fluents still used, numbered in sorted name
/// order, and sorts every id list; [`GroundError::Stopped`] once `stop`
/// says so (asked between its passes).
fn compact(
    model: &Model,
    raw: &mut RawTask,
    cost_model: CostModel,
    mut metric: Option<GroundMetric>,
    stop: &StopPoll<'_>,
) -> Result<Task, GroundError> {
    let mut fact_used = vec![false; raw.facts.len()];
    let mut fluent_used = vec![false; raw.fluents.len()];
    Ids {
        facts: &mut |f: &mut FactId| fact_used[*f as usize] = true,
        fluents: &mut |f: &mut FluentId| fluent_used[*f as usize] = true,
    }
    .task(raw, &mut metric);
    stop.go_on()?;
    let fact_map = sorted_renumbering(&raw.facts, &fact_used);
    let fluent_map = sorted_renumbering(&raw.fluents, &fluent_used);
    stop.go_on()?;
    Ids {
        facts: &mut |f: &mut FactId| *f = fact_map[*f as usize],
        fluents: &mut |f: &mut FluentId| *f = fluent_map[*f as usize],
    }
    .task(raw, &mut metric);
    stop.go_on()?;
    let facts = renumbered(std::mem::take(&mut raw.facts), &fact_map);
    let fluents = renumbered(std::mem::take(&mut raw.fluents), &fluent_map);
    let mut init_fluents = vec![f64::NAN; fluents.len()];
    for (old, &new) in fluent_map.iter().enumerate() {
        if new != FactId::MAX {
            init_fluents[new as usize] = raw.init_fluents[old];
        }
    }
    let mut init_facts: Vec<FactId> = raw
        .init_facts
        .iter()
        .map(|&f| fact_map[f as usize])
        .filter(|&f| f != FactId::MAX)
        .collect();
    init_facts.sort_unstable();
    for op in &mut raw.operators {
        if stop.tick(1 + op.conditional.len() as u32) {
            return Err(GroundError::Stopped);
        }
        tidy(&mut op.precondition);
        for v in [&mut op.add, &mut op.del] {
            v.sort_unstable();
            v.dedup();
        }
        for c in &mut op.conditional {
            tidy(&mut c.condition);
            for v in [&mut c.add, &mut c.del] {
                v.sort_unstable();
                v.dedup();
            }
        }
    }
    for a in &mut raw.axioms {
        tidy(&mut a.body);
    }
    raw.axioms.sort_by_key(|a| (a.stratum, a.head));
    tidy(&mut raw.goal);
    Ok(Task {
        domain_name: model.domain_name.clone(),
        problem_name: model.problem_name.clone(),
        facts,
        fluents,
        operators: std::mem::take(&mut raw.operators),
        axioms: std::mem::take(&mut raw.axioms),
        init_facts,
        init_fluents,
        goal: std::mem::take(&mut raw.goal),
        metric,
        cost_model,
        interchangeable_objects: Vec::new(),
        impossible_goal: std::mem::take(&mut raw.impossible_goal),
        dropped_goal_literals: std::mem::take(&mut raw.dropped_goal_literals),
        double_updates: std::mem::take(&mut raw.double_updates),
    })
}

/// New id of every used name in sorted order; `u32::MAX` for unused ones.
fn sorted_renumbering(names: &[GroundAtom], used: &[bool]) -> Vec<u32> {
    let mut kept: Vec<u32> = (0..names.len() as u32)
        .filter(|&i| used[i as usize])
        .collect();
    kept.sort_by(|&a, &b| names[a as usize].cmp(&names[b as usize]));
    let mut map = vec![u32::MAX; names.len()];
    for (new, &old) in kept.iter().enumerate() {
        map[old as usize] = new as u32;
    }
    map
}

fn renumbered(names: Vec<GroundAtom>, map: &[u32]) -> Vec<GroundAtom> {
    let mut out: Vec<(u32, GroundAtom)> = names
        .into_iter()
        .zip(map)
        .filter(|(_, m)| **m != u32::MAX)
        .map(|(n, &m)| (m, n))
        .collect();
    out.sort_by_key(|(m, _)| *m);
    out.into_iter().map(|(_, n)| n).collect()
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::stop::UNITS_PER_POLL;
    use crate::{GroundOptions, datalog, instantiate::instantiate, normalize::normalize};

    /// 6^5 = 7 776 operators with 6 conditional effects each, of which
    /// the goal needs one (see the file).
    const WIDE_DOMAIN: &str = include_str!("../tests/wide/domain.pddl");
    const WIDE_PROBLEM: &str = include_str!("../tests/wide/problem.pddl");

    /// Runs `phase` on the wide task's raw task with a stop condition that
    /// says stop from its `stop_at`-th question on; returns whether the
    /// phase stopped and how many times it asked.
    fn run_stopping_at(
        stop_at: usize,
        phase: impl Fn(&mut RawTask, &StopPoll<'_>) -> Result<(), GroundError>,
    ) -> (bool, usize) {
        let domain = pddl_syntax::parse_domain(WIDE_DOMAIN).expect("parses");
        let problem = pddl_syntax::parse_problem(WIDE_PROBLEM).expect("parses");
        let model = normalize(&domain, &problem).expect("normalises");
        let options = GroundOptions::default();
        let reach = datalog::reachability(&model, &options).expect("reachability");
        let mut raw = instantiate(&model, &reach, &options).expect("instantiates");
        let asked = Cell::new(0usize);
        let condition = || {
            asked.set(asked.get() + 1);
            asked.get() >= stop_at
        };
        let poll = StopPoll::new(Some(&condition));
        let result = phase(&mut raw, &poll);
        assert!(
            matches!(result, Ok(()) | Err(GroundError::Stopped)),
            "{result:?}"
        );
        (result.is_err(), asked.get())
    }

    /// Runs `phase` on the wide task without stopping, asserting that it
    /// asks at least `at_least` times, then stopping at each of those
    /// questions in turn, asserting that it stops there.
    fn assert_stops_at_every_question(
        name: &str,
        at_least: usize,
        phase: impl Fn(&mut RawTask, &StopPoll<'_>) -> Result<(), GroundError> + Copy,
    ) {
        let (stopped, questions) = run_stopping_at(usize::MAX, phase);
        assert!(!stopped, "{name}");
        assert!(
            questions >= at_least,
            "{name}: asked {questions} times, expected {at_least} at least"
        );
        for stop_at in 1..=questions {
            assert_eq!(
                run_stopping_at(stop_at, phase),
                (true, stop_at),
                "{name}, stopped at question {stop_at}"
            );
        }
    }

    /// The finishing phases that walk every operator and effect ask the
    /// stop condition as they go, not only between phases (on a large
    /// Puzznic level each takes seconds), and stop at whichever question
    /// says stop.
    #[test]
    fn long_finishing_phases_ask_the_stop_condition_as_they_go() {
        let work = 7_776 * 7 / UNITS_PER_POLL as usize;
        assert_stops_at_every_question("constant facts", work, eliminate_constant_facts);
        // Relevance analysis asks after each of its seven indexes too.
        assert_stops_at_every_question("relevance", 7 + work, |raw, poll| {
            drop_irrelevant(raw, None, poll).map(|removed| assert_eq!(removed, 7_775 + 6))
        });
    }
}
