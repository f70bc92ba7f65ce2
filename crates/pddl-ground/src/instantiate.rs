//! Instantiation of the reachable bindings into ground operators, axioms,
//! goal and metric, over provisional fact ids (one per reachable fact of a
//! fluent or derived predicate).

use crate::bindings::{Bindings, Source, SourceCache};
use crate::datalog::Reach;
use crate::merged_effects::MergedEffects;
use crate::normalize::{Arg, Formula, LAction, LExpr, Model, ObjId, PredId, PredKind, QVar};
use crate::stop::{FreedInBackground, StopPoll};
use crate::task::{
    Axiom, ConditionalEffect, Conjunction, DoubleUpdates, FactId, FluentId, GroundAtom,
    ImpossibleLiteral, Name, NumCondition, NumEffect, NumExpr, Operator,
};
use crate::{GroundError, GroundOptions};
use indexmap::IndexMap;
use pddl_syntax::Diagnostic;
use pddl_syntax::ast::{BinaryOp, Span};

/// Most alternatives a disjunctive condition may expand to (per operator,
/// effect or axiom) before grounding refuses it.
const MAX_DISJUNCTS: usize = 256;
/// Most nodes one ground condition may expand to (quantifiers over large
/// object sets).
const MAX_FORMULA_NODES: usize = 2_000_000;

/// A ground condition, simplified as it is built.
#[derive(Clone, Debug)]
pub(crate) enum G {
    True,
    False,
    Lit(FactId, bool),
    Num(NumCondition),
    And(Vec<G>),
    Or(Vec<G>),
}

/// The metric, analysed.
#[derive(Clone, Debug)]
pub(crate) struct MetricInfo {
    pub minimize: bool,
    /// The metric as a weighted sum, or why it is not of that form.
    pub linear: Result<LinearMetric, String>,
    /// The ground expression; `None` when it uses `total-time`.
    pub expr: Option<NumExpr>,
}

/// A metric of the form `constant + Σ weight·fluent + per_step·total-time`.
#[derive(Clone, Debug, Default)]
pub(crate) struct LinearMetric {
    pub terms: Vec<(FluentId, f64)>,
    pub constant: f64,
    /// The weight of `total-time`, which for a sequence of instantaneous
    /// actions is the number of steps (as the validator and VAL count it).
    pub per_step: f64,
}

/// Ground task over provisional fact ids, before compaction.
pub(crate) struct RawTask {
    pub facts: Vec<GroundAtom>,
    /// Per provisional fact: whether it is derived (set by axioms).
    pub derived: Vec<bool>,
    pub fluents: Vec<GroundAtom>,
    pub init_fluents: Vec<f64>,
    pub operators: Vec<Operator>,
    pub axioms: Vec<Axiom>,
    pub init_facts: Vec<FactId>,
    pub goal: Conjunction,
    pub metric: Option<MetricInfo>,
    /// Whether any conditional effect changes a fluent (for the cost model).
    pub conditional_numeric: Vec<FluentId>,
    /// See [`Task::impossible_goal`](crate::Task::impossible_goal).
    pub impossible_goal: Vec<ImpossibleLiteral>,
    /// See [`Task::dropped_goal_literals`](crate::Task::dropped_goal_literals).
    pub dropped_goal_literals: Vec<ImpossibleLiteral>,
    /// See [`Task::double_updates`](crate::Task::double_updates).
    pub double_updates: DoubleUpdates,
}

struct Grounder<'a> {
    model: &'a Model,
    reach: &'a Reach,
    /// First provisional fact id of each model predicate's relation.
    fact_offset: Vec<u32>,
    /// Number of provisional facts of the model's predicates; extra facts
    /// (auxiliary and goal facts) are numbered from here.
    n_facts: u32,
    extra_facts: Vec<GroundAtom>,
    /// Per extra fact: whether axioms derive it, and its stratum.
    extra_derived: Vec<Option<u32>>,
    /// Stratum of every predicate (0 for non-derived ones).
    pred_strata: Vec<u32>,
    /// Axioms defining auxiliary facts.
    aux_axioms: Vec<Axiom>,
    /// Interned fluents, keyed by `[function, args...]`.
    fluents: IndexMap<Vec<u32>, FluentId>,
    /// The model's object names, shared by every ground atom and operator
    /// that names them (a reference count each, not a copy).
    object_names: Vec<Name>,
    key: Vec<ObjId>,
    budget: usize,
    /// While grounding the goal: the literals found false for good.
    false_goal_literals: Option<Vec<ImpossibleLiteral>>,
    /// How the bindings of quantified effects and existential conditions
    /// are enumerated.
    binding_sources: SourceCache,
}

fn unsupported(message: String, span: Span) -> GroundError {
    GroundError::Unsupported {
        diagnostic: Diagnostic::error(message, span),
        in_problem: false,
    }
}

impl Grounder<'_> {
    fn resolve(&mut self, args: &[Arg], bind: &[ObjId]) {
        self.key.clear();
        self.key.extend(args.iter().map(|a| match a {
            Arg::Obj(o) => *o,
            Arg::Var(v) => bind[*v as usize],
        }));
    }

    /// The provisional id of a reachable fact of a fluent/derived
    /// predicate, `Err(true/false)` for a static fact's truth value, and
    /// `Err(false)` for an unreachable fact.
    fn fact(&mut self, pred: PredId, args: &[Arg], bind: &[ObjId]) -> Result<FactId, bool> {
        self.resolve(args, bind);
        let found = self.reach.relations[pred as usize].find(&self.key);
        match self.model.predicates[pred as usize].kind {
            PredKind::Static => Err(found.is_some()),
            _ => found
                .map(|i| self.fact_offset[pred as usize] + i)
                .ok_or(false),
        }
    }

    fn fluent(&mut self, func: u32, args: &[Arg], bind: &[ObjId]) -> NumExpr {
        self.resolve(args, bind);
        if self.model.functions[func as usize].is_static {
            return NumExpr::Const(self.model.init_value(func, &self.key));
        }
        self.key.insert(0, func);
        if let Some(&id) = self.fluents.get(self.key.as_slice()) {
            return NumExpr::Fluent(id);
        }
        let id = self.fluents.len() as FluentId;
        self.fluents.insert(self.key.clone(), id);
        NumExpr::Fluent(id)
    }

    fn expr(&mut self, e: &LExpr, bind: &[ObjId]) -> Result<NumExpr, Span> {
        Ok(match e {
            LExpr::Const(c) => NumExpr::Const(*c),
            LExpr::Fluent(f, args) => self.fluent(*f, args, bind),
            LExpr::Neg(a) => match self.expr(a, bind)? {
                NumExpr::Const(c) => NumExpr::Const(-c),
                x => NumExpr::Neg(Box::new(x)),
            },
            LExpr::Bin(op, a, b) => {
                let a = self.expr(a, bind)?;
                let b = self.expr(b, bind)?;
                match (a, b) {
                    (NumExpr::Const(x), NumExpr::Const(y)) => NumExpr::Const(match op {
                        BinaryOp::Add => x + y,
                        BinaryOp::Sub => x - y,
                        BinaryOp::Mul => x * y,
                        BinaryOp::Div if y == 0.0 => f64::NAN,
                        BinaryOp::Div => x / y,
                    }),
                    (a, b) => {
                        let (a, b) = (Box::new(a), Box::new(b));
                        match op {
                            BinaryOp::Add => NumExpr::Add(a, b),
                            BinaryOp::Sub => NumExpr::Sub(a, b),
                            BinaryOp::Mul => NumExpr::Mul(a, b),
                            BinaryOp::Div => NumExpr::Div(a, b),
                        }
                    }
                }
            }
            LExpr::TotalTime(span) => return Err(*span),
        })
    }

    fn spend(&mut self, span: Span) -> Result<(), Box<GroundError>> {
        if self.budget == 0 {
            return Err(Box::new(unsupported(
                format!(
                    "a quantified condition expands to more than {MAX_FORMULA_NODES} ground conditions"
                ),
                span,
            )));
        }
        self.budget -= 1;
        Ok(())
    }

    /// [`Self::formula`] for a whole condition, its error unboxed for
    /// the callers outside the recursion.
    fn condition(
        &mut self,
        f: &Formula,
        bind: &mut Vec<ObjId>,
        span: Span,
    ) -> Result<G, GroundError> {
        self.formula(f, bind, span).map_err(|e| *e)
    }

    /// Grounds a formula under `bind`, expanding quantifiers and
    /// evaluating static facts, equality and constant comparisons. (The
    /// error is boxed: every node of every ground condition returns
    /// through this `Result`, and the error is large.)
    fn formula(
        &mut self,
        f: &Formula,
        bind: &mut Vec<ObjId>,
        span: Span,
    ) -> Result<G, Box<GroundError>> {
        self.spend(span)?;
        Ok(match f {
            Formula::True => G::True,
            Formula::Lit { atom, positive } => match self.fact(atom.pred, &atom.args, bind) {
                Ok(id) => G::Lit(id, *positive),
                Err(value) => {
                    if value == *positive {
                        G::True
                    } else {
                        self.note_false_goal_literal(|gr| ImpossibleLiteral::Atom {
                            atom: GroundAtom {
                                predicate: Name::from(
                                    gr.model.predicates[atom.pred as usize].name.as_str(),
                                ),
                                args: gr.object_names(&gr.key),
                            },
                            positive: *positive,
                        });
                        G::False
                    }
                }
            },
            Formula::Eq { a, b, positive } => {
                let value = |x: &Arg| match x {
                    Arg::Obj(o) => *o,
                    Arg::Var(v) => bind[*v as usize],
                };
                if (value(a) == value(b)) == *positive {
                    G::True
                } else {
                    G::False
                }
            }
            Formula::Num {
                op,
                lhs: lifted_lhs,
                rhs: lifted_rhs,
            } => {
                let to_unsupported =
                    |s: Span| unsupported("`total-time` in a condition is not supported".into(), s);
                let lhs = self.expr(lifted_lhs, bind).map_err(to_unsupported)?;
                let rhs = self.expr(lifted_rhs, bind).map_err(to_unsupported)?;
                let holds = match (&lhs, &rhs) {
                    // An undefined value (a static function without a
                    // value) makes the comparison false.
                    (NumExpr::Const(c), _) | (_, NumExpr::Const(c)) if c.is_nan() => false,
                    (NumExpr::Const(a), NumExpr::Const(b)) => op.holds(*a, *b),
                    _ => return Ok(G::Num(NumCondition { op: *op, lhs, rhs })),
                };
                if holds {
                    G::True
                } else {
                    self.note_false_goal_literal(|gr| {
                        ImpossibleLiteral::Comparison(format!(
                            "({} {} {})",
                            op.symbol(),
                            gr.show_expr(lifted_lhs, bind),
                            gr.show_expr(lifted_rhs, bind)
                        ))
                    });
                    G::False
                }
            }
            Formula::And(parts) => {
                // Allocated at the first part that stays: most conditions of
                // a quantified effect fail on their first, static, part.
                let mut out = Vec::new();
                for p in parts {
                    match self.formula(p, bind, span)? {
                        G::True => {}
                        G::False => return Ok(G::False),
                        G::And(inner) => out.extend(inner),
                        g => out.push(g),
                    }
                }
                make_and(out)
            }
            Formula::Or(parts) => {
                let mut out = Vec::new();
                for p in parts {
                    match self.formula(p, bind, span)? {
                        G::False => {}
                        G::True => return Ok(G::True),
                        G::Or(inner) => out.extend(inner),
                        g => out.push(g),
                    }
                }
                make_or(out)
            }
            Formula::Forall(qs, body) | Formula::Exists(qs, body) => {
                let universal = matches!(f, Formula::Forall(..));
                let mut out = Vec::new();
                let model = self.model;
                // An existential quantifier's values come through indexes
                // where its body allows (`bindings.rs`): the values left
                // out make the body false, which an `or` drops anyway.
                let universal_sources: Vec<Source>;
                let existential_sources;
                let sources: &[Source] = if universal {
                    universal_sources = qs.iter().map(|q| Source::Set(q.set)).collect();
                    &universal_sources
                } else {
                    existential_sources =
                        self.binding_sources.exists(model, self.reach, f, qs, body);
                    &existential_sources
                };
                let mut bindings = Bindings::new(sources, &model.sets, bind);
                while let Some(values) = bindings.next() {
                    for (q, &v) in qs.iter().zip(values) {
                        bind[q.var as usize] = v;
                    }
                    match (self.formula(body, bind, span)?, universal) {
                        (G::True, true) | (G::False, false) => {}
                        (G::False, true) => return Ok(G::False),
                        (G::True, false) => return Ok(G::True),
                        (G::And(inner), true) => out.extend(inner),
                        (G::Or(inner), false) => out.extend(inner),
                        (g, _) => out.push(g),
                    }
                }
                if universal {
                    make_and(out)
                } else {
                    make_or(out)
                }
            }
        })
    }
}

fn make_and(mut parts: Vec<G>) -> G {
    match parts.len() {
        0 => G::True,
        1 => parts.pop().unwrap_or(G::True),
        _ => G::And(parts),
    }
}

fn make_or(mut parts: Vec<G>) -> G {
    match parts.len() {
        0 => G::False,
        1 => parts.pop().unwrap_or(G::False),
        _ => G::Or(parts),
    }
}

/// The names of `args`, shared from `object_names`.
fn names_of(object_names: &[Name], args: &[ObjId]) -> Vec<Name> {
    args.iter()
        .map(|&o| object_names[o as usize].clone())
        .collect()
}

/// The conjuncts of `condition` known from the initial state alone (static
/// atoms, equalities), each with the position in `forall` of its last
/// quantified variable (`None`: it uses none of them): once a check fails,
/// every binding sharing the values up to that position fails the
/// condition too. Puzznic's effects range over tiles x cells x cells, and
/// a check such as `(below ?c ?d)` rules out most of them at once.
fn prefix_checks<'f>(
    model: &Model,
    forall: &[QVar],
    condition: &'f Formula,
) -> Vec<(Option<usize>, &'f Formula)> {
    let parts = match condition {
        Formula::And(parts) => parts.as_slice(),
        single => std::slice::from_ref(single),
    };
    // The position in `forall` of the last quantified variable of `args`.
    let level = |args: &mut dyn Iterator<Item = &Arg>| {
        args.filter_map(|a| match a {
            Arg::Var(v) => forall.iter().position(|q| q.var == *v),
            Arg::Obj(_) => None,
        })
        .max()
    };
    let mut checks: Vec<(Option<usize>, &Formula)> = parts
        .iter()
        .filter_map(|part| match part {
            Formula::Lit { atom, .. }
                if model.predicates[atom.pred as usize].kind == PredKind::Static =>
            {
                Some((level(&mut atom.args.iter()), part))
            }
            Formula::Eq { a, b, .. } => Some((level(&mut [a, b].into_iter()), part)),
            _ => None,
        })
        .collect();
    // Shortest prefixes first: they skip the most.
    checks.sort_by_key(|&(level, _)| level);
    checks
}

/// Disjunctive normal form of a ground condition: `None` when it would
/// have more than [`MAX_DISJUNCTS`] disjuncts. Contradictory disjuncts
/// (a fact required both true and false) are dropped.
pub(crate) fn dnf(g: &G) -> Option<Vec<Conjunction>> {
    let mut out = match g {
        G::True => vec![Conjunction::default()],
        G::False => Vec::new(),
        G::Lit(f, true) => vec![Conjunction {
            pos: vec![*f],
            ..Conjunction::default()
        }],
        G::Lit(f, false) => vec![Conjunction {
            neg: vec![*f],
            ..Conjunction::default()
        }],
        G::Num(c) => vec![Conjunction {
            numeric: vec![c.clone()],
            ..Conjunction::default()
        }],
        G::Or(parts) => {
            let mut out = Vec::new();
            for p in parts {
                out.extend(dnf(p)?);
                if out.len() > MAX_DISJUNCTS {
                    return None;
                }
            }
            out
        }
        G::And(parts) => {
            // Literals first, in one conjunction; then the product with
            // the disjunctive parts.
            let mut base = Conjunction::default();
            let mut rest = Vec::new();
            for p in parts {
                match p {
                    G::Lit(f, true) => base.pos.push(*f),
                    G::Lit(f, false) => base.neg.push(*f),
                    G::Num(c) => base.numeric.push(c.clone()),
                    other => rest.push(other),
                }
            }
            let mut acc = vec![base];
            for p in rest {
                let alternatives = dnf(p)?;
                let mut next = Vec::with_capacity(acc.len() * alternatives.len());
                for a in &acc {
                    for b in &alternatives {
                        let mut c = a.clone();
                        c.pos.extend_from_slice(&b.pos);
                        c.neg.extend_from_slice(&b.neg);
                        c.numeric.extend(b.numeric.iter().cloned());
                        next.push(c);
                        if next.len() > MAX_DISJUNCTS {
                            return None;
                        }
                    }
                }
                acc = next;
            }
            acc
        }
    };
    for c in &mut out {
        tidy(c);
    }
    out.retain(|c| !contradictory(c));
    Some(out)
}

/// Calls `f` with each of `items` and `shared`: a copy of it for all but
/// the last item, which takes `shared` itself (so one item, the usual
/// case, copies nothing).
fn share_among<I, T: Clone>(items: Vec<I>, shared: T, mut f: impl FnMut(I, T)) {
    let mut items = items.into_iter().peekable();
    while let Some(item) = items.next() {
        if items.peek().is_some() {
            f(item, shared.clone());
        } else {
            f(item, shared);
            return;
        }
    }
}

/// Sorts and deduplicates the literals of a conjunction.
pub(crate) fn tidy(c: &mut Conjunction) {
    c.pos.sort_unstable();
    c.pos.dedup();
    c.neg.sort_unstable();
    c.neg.dedup();
}

fn contradictory(c: &Conjunction) -> bool {
    // Both sorted: a merge walk finds a common fact.
    let (mut i, mut j) = (0, 0);
    while i < c.pos.len() && j < c.neg.len() {
        match c.pos[i].cmp(&c.neg[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// What may stop [`Grounder::effects`] within one binding, whose
/// quantified effects can take minutes and gigabytes on their own (a
/// 40 × 30 Puzznic board: millions of conditional effects of the matching
/// step).
struct EffectLimits<'p, 's> {
    /// Asked once per binding of the quantified variables.
    stop: &'p StopPoll<'s>,
    /// How many more conditional effects the binding may have.
    conditional_room: usize,
    /// How many unconditional effects it may have before duplicates are
    /// removed (`(forall (?a ?b ?c) (not (done)))` makes one per binding).
    unconditional_room: usize,
    /// [`GroundOptions::max_operators`], for the error.
    max_operators: usize,
}

/// Ground effects shared by the operators of one binding.
#[derive(Default)]
struct Effects {
    add: Vec<FactId>,
    del: Vec<FactId>,
    numeric: Vec<NumEffect>,
    conditional: MergedEffects,
}

impl Grounder<'_> {
    fn effects(
        &mut self,
        action_index: usize,
        action: &LAction,
        bind: &mut Vec<ObjId>,
        conditional_numeric: &mut Vec<FluentId>,
        limits: &EffectLimits<'_, '_>,
    ) -> Result<Effects, GroundError> {
        let too_many = || GroundError::TooManyOperators {
            action: action.name.clone(),
            limit: limits.max_operators,
        };
        // Millions of effects on a large Puzznic level: not freed inline
        // when a stop or an error returns early.
        let mut out = FreedInBackground::new(Effects::default(), |e| e.conditional.len());
        let model = self.model;
        for (group_index, g) in action.groups.iter().enumerate() {
            let sources = self
                .binding_sources
                .get(model, self.reach, action_index, group_index);
            let checks = prefix_checks(model, &g.forall, &g.condition);
            let mut bindings = Bindings::new(&sources, &model.sets, bind);
            'bindings: while let Some(values) = bindings.next() {
                if limits.stop.tick(1) {
                    return Err(GroundError::Stopped);
                }
                for (q, &v) in g.forall.iter().zip(values) {
                    bind[q.var as usize] = v;
                }
                self.budget = MAX_FORMULA_NODES;
                for &(level, check) in &checks {
                    if matches!(self.condition(check, bind, g.span)?, G::False) {
                        // False for every binding that shares this prefix.
                        bindings.skip_rest_of(level);
                        continue 'bindings;
                    }
                }
                let condition = self.condition(&g.condition, bind, g.span)?;
                if matches!(condition, G::False) {
                    continue;
                }
                let mut add = Vec::new();
                let mut del = Vec::new();
                let mut numeric = Vec::new();
                for a in &g.adds {
                    // An unreachable add can only come with a condition
                    // that cannot hold; skip it.
                    if let Ok(id) = self.fact(a.pred, &a.args, bind) {
                        add.push(id);
                    }
                }
                for d in &g.dels {
                    if let Ok(id) = self.fact(d.pred, &d.args, bind) {
                        del.push(id);
                    }
                }
                for n in &g.nums {
                    let fluent = match self.fluent(n.func, &n.args, bind) {
                        NumExpr::Fluent(id) => id,
                        _ => continue,
                    };
                    let expr = self.expr(&n.expr, bind).map_err(|s| {
                        unsupported("`total-time` in an effect is not supported".into(), s)
                    })?;
                    numeric.push(NumEffect {
                        op: n.op,
                        fluent,
                        expr,
                    });
                }
                if add.is_empty() && del.is_empty() && numeric.is_empty() {
                    continue;
                }
                if matches!(condition, G::True) {
                    out.add.extend(add);
                    out.del.extend(del);
                    out.numeric.extend(numeric);
                    if out.add.len() + out.del.len() + out.numeric.len() > limits.unconditional_room
                    {
                        return Err(too_many());
                    }
                    continue;
                }
                // Numeric effects must not be duplicated over disjuncts.
                let alternatives = self.alternatives(&condition, numeric.is_empty());
                conditional_numeric.extend(numeric.iter().map(|n| n.fluent));
                let effect = ConditionalEffect {
                    condition: Conjunction::default(),
                    add,
                    del,
                    numeric,
                };
                share_among(alternatives, effect, |condition, effect| {
                    out.conditional.push(ConditionalEffect {
                        condition,
                        ..effect
                    });
                });
                if out.conditional.len() > limits.conditional_room {
                    return Err(too_many());
                }
            }
        }
        let mut out = out.into_inner();
        for v in [&mut out.add, &mut out.del] {
            v.sort_unstable();
            v.dedup();
        }
        Ok(out)
    }

    /// The stratum of a derived fact, `None` for other facts.
    fn derived_stratum(&self, f: FactId) -> Option<u32> {
        if f >= self.n_facts {
            return self.extra_derived[(f - self.n_facts) as usize];
        }
        let pred = self
            .fact_offset
            .partition_point(|&o| o <= f)
            .saturating_sub(1);
        (self.model.predicates[pred].kind == PredKind::Derived).then(|| self.pred_strata[pred])
    }

    fn new_fact(&mut self, predicate: &str, args: Vec<Name>, stratum: Option<u32>) -> FactId {
        let id = self.n_facts + self.extra_facts.len() as FactId;
        self.extra_facts.push(GroundAtom {
            predicate: predicate.into(),
            args,
        });
        self.extra_derived.push(stratum);
        id
    }

    /// The alternatives of a ground condition: its DNF when `split` is
    /// allowed (or it has one disjunct) and it is small enough, otherwise
    /// one conjunction in which every disjunction is replaced by an
    /// auxiliary derived fact (with one axiom per disjunct).
    fn alternatives(&mut self, g: &G, split: bool) -> Vec<Conjunction> {
        if let Some(d) = dnf(g).filter(|d| split || d.len() <= 1) {
            return d;
        }
        if matches!(g, G::False) {
            return Vec::new();
        }
        let mut c = self.compile(g);
        tidy(&mut c);
        vec![c]
    }

    fn compile(&mut self, g: &G) -> Conjunction {
        let mut out = Conjunction::default();
        match g {
            G::True => {}
            G::Lit(f, true) => out.pos.push(*f),
            G::Lit(f, false) => out.neg.push(*f),
            G::Num(c) => out.numeric.push(c.clone()),
            G::And(parts) => {
                for p in parts {
                    let c = self.compile(p);
                    out.pos.extend(c.pos);
                    out.neg.extend(c.neg);
                    out.numeric.extend(c.numeric);
                }
            }
            G::False | G::Or(_) => {
                let parts: &[G] = if let G::Or(parts) = g { parts } else { &[] };
                let bodies: Vec<Conjunction> = parts.iter().map(|p| self.compile(p)).collect();
                // Above every derived fact it uses, strictly above the
                // negated ones.
                let stratum = bodies
                    .iter()
                    .flat_map(|b| {
                        let pos = b.pos.iter().filter_map(|&f| self.derived_stratum(f));
                        let neg = b
                            .neg
                            .iter()
                            .filter_map(|&f| self.derived_stratum(f).map(|s| s + 1));
                        pos.chain(neg).collect::<Vec<_>>()
                    })
                    .max()
                    .unwrap_or(0);
                let n = self.extra_facts.len().to_string();
                let head = self.new_fact("@or", vec![n.into()], Some(stratum));
                for mut body in bodies {
                    tidy(&mut body);
                    self.aux_axioms.push(Axiom {
                        head,
                        body,
                        stratum,
                    });
                }
                out.pos.push(head);
            }
        }
        out
    }

    fn object_names(&self, args: &[ObjId]) -> Vec<Name> {
        names_of(&self.object_names, args)
    }

    /// Records a goal literal found false for good, built by `literal`
    /// only while the goal is being grounded.
    fn note_false_goal_literal(&mut self, literal: impl FnOnce(&Self) -> ImpossibleLiteral) {
        if self.false_goal_literals.is_some() {
            let literal = literal(self);
            self.false_goal_literals
                .get_or_insert_default()
                .push(literal);
        }
    }

    /// A lifted numeric expression under `bind`, as PDDL text with the
    /// objects' and functions' names.
    fn show_expr(&self, e: &LExpr, bind: &[ObjId]) -> String {
        match e {
            LExpr::Const(c) => c.to_string(),
            LExpr::Fluent(func, args) => {
                let mut text = format!("({}", self.model.functions[*func as usize].name);
                for arg in args {
                    let object = match arg {
                        Arg::Obj(o) => *o,
                        Arg::Var(v) => bind[*v as usize],
                    };
                    text.push(' ');
                    text.push_str(&self.object_names[object as usize]);
                }
                text.push(')');
                text
            }
            LExpr::Neg(inner) => format!("(- {})", self.show_expr(inner, bind)),
            LExpr::Bin(op, a, b) => format!(
                "({} {} {})",
                op.symbol(),
                self.show_expr(a, bind),
                self.show_expr(b, bind)
            ),
            LExpr::TotalTime(_) => "total-time".to_string(),
        }
    }
}

/// Stratum of every predicate (0 for non-derived), or the derived rule
/// whose negative dependency closes a cycle.
fn strata(model: &Model) -> Result<Vec<u32>, GroundError> {
    fn deps(f: &Formula, model: &Model, out: &mut Vec<(PredId, bool)>) {
        match f {
            Formula::Lit { atom, positive }
                if model.predicates[atom.pred as usize].kind == PredKind::Derived =>
            {
                out.push((atom.pred, *positive));
            }
            Formula::And(ps) | Formula::Or(ps) => ps.iter().for_each(|p| deps(p, model, out)),
            Formula::Forall(_, b) | Formula::Exists(_, b) => deps(b, model, out),
            _ => {}
        }
    }
    let mut stratum = vec![0u32; model.predicates.len()];
    let rule_deps: Vec<Vec<(PredId, bool)>> = model
        .derived
        .iter()
        .map(|d| {
            let mut out = Vec::new();
            deps(&d.body, model, &mut out);
            out
        })
        .collect();
    let limit = model.derived.len() as u32 + 1;
    loop {
        let mut changed = false;
        for (d, ds) in model.derived.iter().zip(&rule_deps) {
            for &(p, positive) in ds {
                let need = stratum[p as usize] + u32::from(!positive);
                if stratum[d.head as usize] < need {
                    stratum[d.head as usize] = need;
                    changed = true;
                    if need > limit {
                        return Err(unsupported(
                            format!(
                                "derived predicate `{}` depends negatively on itself (not stratifiable)",
                                model.predicates[d.head as usize].name
                            ),
                            d.span,
                        ));
                    }
                }
            }
        }
        if !changed {
            return Ok(stratum);
        }
    }
}

/// Operators and their conditional effects, counted together: what
/// freeing them costs.
pub(crate) fn operator_parts(operators: &[Operator]) -> usize {
    operators.len() + operators.iter().map(|o| o.conditional.len()).sum::<usize>()
}

/// Instantiates every reachable binding.
pub(crate) fn instantiate(
    model: &Model,
    reach: &Reach,
    options: &GroundOptions,
) -> Result<RawTask, GroundError> {
    let object_names: Vec<Name> = model
        .objects
        .iter()
        .map(|o| Name::from(o.as_str()))
        .collect();
    let mut fact_offset = Vec::with_capacity(model.predicates.len());
    let non_static_facts: usize = model
        .predicates
        .iter()
        .enumerate()
        .filter(|(_, pred)| pred.kind != PredKind::Static)
        .map(|(p, _)| reach.relations[p].len())
        .sum();
    let mut facts = Vec::with_capacity(non_static_facts);
    let mut derived = Vec::with_capacity(non_static_facts);
    for (p, pred) in model.predicates.iter().enumerate() {
        fact_offset.push(facts.len() as u32);
        if pred.kind == PredKind::Static {
            continue;
        }
        let rel = &reach.relations[p];
        let predicate = Name::from(pred.name.as_str());
        for i in 0..rel.len() as u32 {
            facts.push(GroundAtom {
                predicate: predicate.clone(),
                args: names_of(&object_names, rel.tuple(i)),
            });
            derived.push(pred.kind == PredKind::Derived);
        }
    }
    let mut gr = Grounder {
        model,
        reach,
        fact_offset,
        n_facts: facts.len() as u32,
        extra_facts: Vec::new(),
        extra_derived: Vec::new(),
        pred_strata: strata(model)?,
        aux_axioms: Vec::new(),
        fluents: IndexMap::new(),
        object_names,
        key: Vec::new(),
        budget: MAX_FORMULA_NODES,
        false_goal_literals: None,
        binding_sources: SourceCache::default(),
    };

    // About one operator per applicable binding: reserved up front (up to
    // a bound, as witnesses can make the bindings far more than the
    // operators), since growing a vector of operators copies them all.
    let bindings: usize = reach
        .action_bindings
        .iter()
        .map(|&r| reach.relations[r as usize].len())
        .sum();
    // Not freed inline when a stop or an error returns early.
    let mut operators = FreedInBackground::new(
        Vec::with_capacity(bindings.min(1 << 16)),
        |operators: &Vec<Operator>| operator_parts(operators),
    );
    let stop = StopPoll::new(options.stop);
    let mut conditional_numeric = Vec::new();
    let mut conditional_count = 0usize;
    // Conditional effects in all, counting one per operator that has it.
    let conditional_limit = options.max_operators.saturating_mul(4);
    for (ai, action) in model.actions.iter().enumerate() {
        let action_name = Name::from(action.name.as_str());
        let rel = &reach.relations[reach.action_bindings[ai] as usize];
        let n_params = action.params.len();
        let mut order: Vec<u32> = (0..rel.len() as u32).collect();
        order.sort_unstable_by(|&x, &y| rel.tuple(x).cmp(rel.tuple(y)));
        let mut bind = vec![0 as ObjId; action.num_vars];
        let mut start = 0;
        while start < order.len() {
            if stop.tick(1) {
                return Err(GroundError::Stopped);
            }
            let params = &rel.tuple(order[start])[..n_params];
            let mut end = start + 1;
            while end < order.len() && &rel.tuple(order[end])[..n_params] == params {
                end += 1;
            }
            for (q, &o) in action.params.iter().zip(params) {
                bind[q.var as usize] = o;
            }
            // The precondition: one disjunct per witness of the
            // top-level existentials.
            let mut alternatives = Vec::new();
            let mut satisfied = false;
            for &t in &order[start..end] {
                let tuple = rel.tuple(t);
                for (q, &o) in action.pre_exists.iter().zip(&tuple[n_params..]) {
                    bind[q.var as usize] = o;
                }
                gr.budget = MAX_FORMULA_NODES;
                match gr.condition(&action.pre, &mut bind, action.span)? {
                    G::False => {}
                    G::True => {
                        satisfied = true;
                        break;
                    }
                    g => alternatives.push(g),
                }
            }
            let params = params.to_vec();
            start = end;
            let pre = if satisfied {
                G::True
            } else {
                make_or(alternatives)
            };
            let disjuncts = gr.alternatives(&pre, true);
            if disjuncts.is_empty() {
                continue;
            }
            // Quantified effects can make one binding thousands of
            // conditional effects (Puzznic's matching step): the stop
            // condition and the limit are checked as they are made.
            let limits = EffectLimits {
                stop: &stop,
                conditional_room: (conditional_limit - conditional_count) / disjuncts.len(),
                unconditional_room: conditional_limit,
                max_operators: options.max_operators,
            };
            let Effects {
                add,
                del,
                numeric,
                conditional,
            } = gr.effects(ai, action, &mut bind, &mut conditional_numeric, &limits)?;
            let conditional = conditional.into_vec();
            if add.is_empty() && del.is_empty() && numeric.is_empty() && conditional.is_empty() {
                // No effect at all: never useful in a plan.
                continue;
            }
            conditional_count += conditional.len() * disjuncts.len();
            if operators.len() + disjuncts.len() > options.max_operators
                || conditional_count > conditional_limit
            {
                return Err(GroundError::TooManyOperators {
                    action: action.name.clone(),
                    limit: options.max_operators,
                });
            }
            let operator = Operator {
                name: action_name.clone(),
                args: gr.object_names(&params),
                precondition: Conjunction::default(),
                add,
                del,
                numeric,
                conditional,
                cost: 1,
            };
            // `vanish` has one disjunct and millions of effects: moved,
            // not copied.
            share_among(disjuncts, operator, |precondition, operator| {
                operators.push(Operator {
                    precondition,
                    ..operator
                });
            });
        }
    }

    let mut axioms = Vec::new();
    for (di, d) in model.derived.iter().enumerate() {
        let rel = &reach.relations[reach.derived_bindings[di] as usize];
        let mut bind = vec![0 as ObjId; d.num_vars];
        let vars: Vec<QVar> = d.params.iter().chain(&d.exists).copied().collect();
        for t in 0..rel.len() as u32 {
            if stop.tick(1) {
                return Err(GroundError::Stopped);
            }
            let tuple = rel.tuple(t);
            for (q, &o) in vars.iter().zip(tuple) {
                bind[q.var as usize] = o;
            }
            let head_args: Vec<Arg> = tuple[..d.params.len()]
                .iter()
                .map(|&o| Arg::Obj(o))
                .collect();
            let head = match gr.fact(d.head, &head_args, &bind) {
                Ok(id) => id,
                Err(_) => continue,
            };
            gr.budget = MAX_FORMULA_NODES;
            let body = gr.condition(&d.body, &mut bind, d.span)?;
            let disjuncts = gr.alternatives(&body, true);
            for body in disjuncts {
                axioms.push(Axiom {
                    head,
                    body,
                    stratum: gr.pred_strata[d.head as usize],
                });
            }
        }
        if axioms.len() > options.max_operators {
            return Err(GroundError::TooManyOperators {
                action: format!("(:derived {})", model.predicates[d.head as usize].name),
                limit: options.max_operators,
            });
        }
    }
    axioms.sort_by_key(|a| (a.stratum, a.head));

    let mut bind = vec![0 as ObjId; model.goal_num_vars];
    gr.budget = MAX_FORMULA_NODES;
    gr.false_goal_literals = Some(Vec::new());
    let goal_formula = gr.condition(&model.goal, &mut bind, model.goal_span)?;
    let false_goal_literals = gr.false_goal_literals.take().unwrap_or_default();
    let goal_disjuncts = gr.alternatives(&goal_formula, true);
    // A goal that no state satisfies is explained by them; otherwise
    // they took away alternatives of the goal.
    let (impossible_goal, dropped_goal_literals) = if goal_disjuncts.is_empty() {
        (false_goal_literals, Vec::new())
    } else {
        (Vec::new(), false_goal_literals)
    };
    axioms.append(&mut gr.aux_axioms);
    let goal = match goal_disjuncts.len() {
        1 => goal_disjuncts.into_iter().next().unwrap_or_default(),
        n => {
            // No alternative: a fact that nothing makes true. Several: a
            // derived goal fact with one axiom per alternative.
            let top = axioms.iter().map(|a| a.stratum).max().map_or(0, |s| s + 1);
            let id = if n == 0 {
                gr.new_fact("@unreachable-goal", Vec::new(), None)
            } else {
                gr.new_fact("@goal", Vec::new(), Some(top))
            };
            for body in goal_disjuncts {
                axioms.push(Axiom {
                    head: id,
                    body,
                    stratum: top,
                });
            }
            Conjunction {
                pos: vec![id],
                ..Conjunction::default()
            }
        }
    };
    axioms.append(&mut gr.aux_axioms);
    axioms.sort_by_key(|a| (a.stratum, a.head));
    for (extra, stratum) in gr.extra_facts.drain(..).zip(&gr.extra_derived) {
        derived.push(stratum.is_some());
        facts.push(extra);
    }

    let metric = model.metric.as_ref().map(|m| {
        let expr = gr.expr(&m.expr, &[]).ok();
        let linear = linear(&m.expr, &mut gr);
        MetricInfo {
            minimize: m.minimize,
            linear,
            expr,
        }
    });

    let mut init_facts = Vec::new();
    for (pred, args) in &model.init_atoms {
        if model.predicates[*pred as usize].kind == PredKind::Fluent {
            let args: Vec<Arg> = args.iter().map(|&o| Arg::Obj(o)).collect();
            if let Ok(id) = gr.fact(*pred, &args, &[]) {
                init_facts.push(id);
            }
        }
    }
    init_facts.sort_unstable();
    init_facts.dedup();

    let fluents: Vec<GroundAtom> = gr
        .fluents
        .keys()
        .map(|key| GroundAtom {
            predicate: Name::from(model.functions[key[0] as usize].name.as_str()),
            args: gr.object_names(&key[1..]),
        })
        .collect();
    let init_fluents = gr
        .fluents
        .keys()
        .map(|key| model.init_value(key[0], &key[1..]))
        .collect();
    conditional_numeric.sort_unstable();
    conditional_numeric.dedup();
    Ok(RawTask {
        impossible_goal,
        dropped_goal_literals,
        double_updates: DoubleUpdates::default(),
        facts,
        derived,
        fluents,
        init_fluents,
        operators: operators.into_inner(),
        axioms,
        init_facts,
        goal,
        metric,
        conditional_numeric,
    })
}

/// The metric as a weighted sum of fluents and `total-time`, folding
/// static functions.
fn linear(e: &LExpr, gr: &mut Grounder) -> Result<LinearMetric, String> {
    fn go(e: &LExpr, gr: &mut Grounder, scale: f64, sum: &mut LinearMetric) -> Result<(), String> {
        match e {
            LExpr::Const(c) => sum.constant += scale * c,
            LExpr::Fluent(f, args) => match gr.fluent(*f, args, &[]) {
                NumExpr::Const(c) => sum.constant += scale * c,
                NumExpr::Fluent(id) => sum.terms.push((id, scale)),
                _ => return Err("the metric is not a weighted sum of fluents".into()),
            },
            LExpr::Neg(a) => go(a, gr, -scale, sum)?,
            LExpr::Bin(BinaryOp::Add, a, b) => {
                go(a, gr, scale, sum)?;
                go(b, gr, scale, sum)?;
            }
            LExpr::Bin(BinaryOp::Sub, a, b) => {
                go(a, gr, scale, sum)?;
                go(b, gr, -scale, sum)?;
            }
            LExpr::Bin(op @ (BinaryOp::Mul | BinaryOp::Div), a, b) => {
                let as_const = |x: &LExpr, gr: &mut Grounder| match gr.expr(x, &[]) {
                    Ok(NumExpr::Const(c)) => Some(c),
                    _ => None,
                };
                match (op, as_const(a, gr), as_const(b, gr)) {
                    (BinaryOp::Mul, Some(c), _) => go(b, gr, scale * c, sum)?,
                    (BinaryOp::Mul, None, Some(c)) => go(a, gr, scale * c, sum)?,
                    (BinaryOp::Div, _, Some(c)) if c != 0.0 => go(a, gr, scale / c, sum)?,
                    _ => return Err("the metric is not a weighted sum of fluents".into()),
                }
            }
            LExpr::TotalTime(_) => sum.per_step += scale,
        }
        Ok(())
    }
    let mut sum = LinearMetric::default();
    go(e, gr, 1.0, &mut sum)?;
    Ok(sum)
}
