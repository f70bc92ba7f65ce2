//! Normalisation of the lifted domain and problem: objects and type sets,
//! predicate and function tables, conditions in negation normal form with
//! numbered variables, flattened effects.

use crate::GroundError;
use hashbrown::HashMap;
use pddl_syntax::Diagnostic;
use pddl_syntax::ast::{
    AssignOp, Atom, BinaryOp, Comparison, Condition, ConditionKind, Domain, Effect, EffectKind,
    Expr, ExprKind, FunctionType, InitElement, Optimization, Problem, Span, Term, Type,
    TypedVariable,
};

/// Index of an object in [`Model::objects`].
pub(crate) type ObjId = u32;
/// Index of a variable within one action, derived rule or goal.
pub(crate) type VarId = u32;
/// Index of a predicate in [`Model::predicates`].
pub(crate) type PredId = u32;
/// Index of a function in [`Model::functions`].
pub(crate) type FuncId = u32;
/// Index of an object set in [`Model::sets`].
pub(crate) type SetId = u32;

/// Deepest nesting of conditions or effects accepted, so that the
/// recursive passes below cannot overflow the stack.
const MAX_DEPTH: usize = 600;

/// An argument of a lifted atom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Arg {
    /// A variable, bound by a parameter list or quantifier.
    Var(VarId),
    /// A fixed object.
    Obj(ObjId),
}

/// What can change a predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PredKind {
    /// No action changes it: its facts are those of the initial state.
    Static,
    /// Some action adds or deletes it.
    Fluent,
    /// Defined by `:derived` rules.
    Derived,
}

/// A declared predicate.
#[derive(Clone, Debug)]
pub(crate) struct Predicate {
    pub name: String,
    pub arity: usize,
    pub kind: PredKind,
}

/// A declared numeric function.
#[derive(Clone, Debug)]
pub(crate) struct Function {
    pub name: String,
    pub arity: usize,
    /// No action changes it: its values are folded into constants.
    pub is_static: bool,
}

/// A lifted atom.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LAtom {
    pub pred: PredId,
    pub args: Vec<Arg>,
}

/// A quantified (or parameter) variable with the set of objects it ranges over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct QVar {
    pub var: VarId,
    pub set: SetId,
}

/// A lifted numeric expression.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum LExpr {
    Const(f64),
    Fluent(FuncId, Vec<Arg>),
    Neg(Box<LExpr>),
    Bin(BinaryOp, Box<LExpr>, Box<LExpr>),
    /// `total-time`: only accepted in a metric.
    TotalTime(Span),
}

/// A lifted condition in negation normal form: negation only on literals.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Formula {
    True,
    Lit {
        atom: LAtom,
        positive: bool,
    },
    Eq {
        a: Arg,
        b: Arg,
        positive: bool,
    },
    Num {
        op: Comparison,
        lhs: LExpr,
        rhs: LExpr,
    },
    And(Vec<Formula>),
    Or(Vec<Formula>),
    Forall(Vec<QVar>, Box<Formula>),
    Exists(Vec<QVar>, Box<Formula>),
}

/// A lifted numeric effect.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LNumEffect {
    pub op: AssignOp,
    pub func: FuncId,
    pub args: Vec<Arg>,
    pub expr: LExpr,
}

/// Effects sharing one `forall` prefix and one `when` condition.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct EffectGroup {
    pub forall: Vec<QVar>,
    pub condition: Formula,
    pub adds: Vec<LAtom>,
    pub dels: Vec<LAtom>,
    pub nums: Vec<LNumEffect>,
    pub span: Span,
}

impl EffectGroup {
    /// A group with no effects yet, under `forall` and `condition`.
    fn empty(forall: Vec<QVar>, condition: Formula, span: Span) -> Self {
        EffectGroup {
            forall,
            condition,
            adds: Vec::new(),
            dels: Vec::new(),
            nums: Vec::new(),
            span,
        }
    }
}

/// A normalised action schema. Variables `0..params.len()` are the
/// parameters; quantified variables follow.
#[derive(Clone, Debug)]
pub(crate) struct LAction {
    pub name: String,
    pub span: Span,
    pub params: Vec<QVar>,
    pub num_vars: usize,
    /// Existential variables of the precondition's top-level conjunction,
    /// pulled out so that reachability can bind them.
    pub pre_exists: Vec<QVar>,
    pub pre: Formula,
    pub groups: Vec<EffectGroup>,
}

/// A normalised derived-predicate rule.
#[derive(Clone, Debug)]
pub(crate) struct LDerived {
    pub head: PredId,
    pub params: Vec<QVar>,
    pub num_vars: usize,
    pub exists: Vec<QVar>,
    pub body: Formula,
    pub span: Span,
}

/// The metric, lifted.
#[derive(Clone, Debug)]
pub(crate) struct LMetric {
    pub minimize: bool,
    pub expr: LExpr,
}

/// The normalised domain and problem.
#[derive(Clone, Debug)]
pub(crate) struct Model {
    pub domain_name: String,
    pub problem_name: String,
    pub objects: Vec<String>,
    /// Object sets (types and `either` unions), each sorted.
    pub sets: Vec<Vec<ObjId>>,
    pub predicates: Vec<Predicate>,
    pub functions: Vec<Function>,
    pub actions: Vec<LAction>,
    pub derived: Vec<LDerived>,
    /// Initial atoms of static and fluent predicates.
    pub init_atoms: Vec<(PredId, Vec<ObjId>)>,
    /// Initial function values.
    pub init_values: HashMap<(FuncId, Vec<ObjId>), f64>,
    pub goal: Formula,
    pub goal_num_vars: usize,
    pub goal_span: Span,
    pub metric: Option<LMetric>,
}

impl Model {
    /// The value of a ground function term in the initial state (NaN when undefined).
    pub fn init_value(&self, func: FuncId, args: &[ObjId]) -> f64 {
        self.init_values
            .get(&(func, args.to_vec()))
            .copied()
            .unwrap_or(f64::NAN)
    }
}

fn unsupported(message: impl Into<String>, span: Span, in_problem: bool) -> GroundError {
    GroundError::Unsupported {
        diagnostic: Diagnostic::error(message, span),
        in_problem,
    }
}

fn invalid(message: impl Into<String>, span: Span, in_problem: bool) -> GroundError {
    GroundError::Invalid {
        diagnostic: Diagnostic::error(message, span),
        in_problem,
    }
}

/// Variables in scope while translating one action, rule or goal.
#[derive(Default)]
struct Scope {
    names: Vec<(String, VarId)>,
    next: VarId,
}

impl Scope {
    fn bind(&mut self, name: &str) -> VarId {
        let id = self.next;
        self.next += 1;
        self.names.push((name.to_string(), id));
        id
    }
    fn lookup(&self, name: &str) -> Option<VarId> {
        self.names
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|&(_, v)| v)
    }
}

struct Builder {
    in_problem: bool,
    object_ids: HashMap<String, ObjId>,
    objects: Vec<String>,
    type_members: HashMap<String, Vec<ObjId>>,
    set_ids: HashMap<Vec<ObjId>, SetId>,
    sets: Vec<Vec<ObjId>>,
    pred_ids: HashMap<String, PredId>,
    predicates: Vec<Predicate>,
    func_ids: HashMap<String, FuncId>,
    functions: Vec<Function>,
}

/// Normalises a checked domain and problem.
pub(crate) fn normalize(domain: &Domain, problem: &Problem) -> Result<Model, GroundError> {
    if let Some(c) = &problem.constraints {
        return Err(unsupported(
            "`:constraints` are not supported",
            c.span,
            true,
        ));
    }
    let mut b = Builder {
        in_problem: false,
        object_ids: HashMap::new(),
        objects: Vec::new(),
        type_members: HashMap::new(),
        set_ids: HashMap::new(),
        sets: Vec::new(),
        pred_ids: HashMap::new(),
        predicates: Vec::new(),
        func_ids: HashMap::new(),
        functions: Vec::new(),
    };
    b.build_types(domain, problem)?;
    for p in &domain.predicates {
        if b.pred_ids.contains_key(&p.name.text) {
            continue;
        }
        b.pred_ids
            .insert(p.name.text.clone(), b.predicates.len() as PredId);
        b.predicates.push(Predicate {
            name: p.name.text.clone(),
            arity: p.params.len(),
            kind: PredKind::Static,
        });
    }
    for f in &domain.functions {
        if let FunctionType::Object(_) = f.ty {
            return Err(unsupported(
                format!(
                    "object fluent `{}` (object-valued functions are not supported)",
                    f.name
                ),
                f.span,
                false,
            ));
        }
        if b.func_ids.contains_key(&f.name.text) {
            continue;
        }
        b.func_ids
            .insert(f.name.text.clone(), b.functions.len() as FuncId);
        b.functions.push(Function {
            name: f.name.text.clone(),
            arity: f.params.len(),
            is_static: true,
        });
    }
    // Derived predicates: declared in `:predicates` normally; accept an
    // undeclared head too.
    for d in &domain.derived {
        let id = match b.pred_ids.get(&d.head.name.text) {
            Some(&id) => id,
            None => {
                let id = b.predicates.len() as PredId;
                b.pred_ids.insert(d.head.name.text.clone(), id);
                b.predicates.push(Predicate {
                    name: d.head.name.text.clone(),
                    arity: d.head.params.len(),
                    kind: PredKind::Static,
                });
                id
            }
        };
        b.predicates[id as usize].kind = PredKind::Derived;
    }

    let mut actions = Vec::with_capacity(domain.actions.len());
    for a in &domain.actions {
        actions.push(b.action(a)?);
    }
    let mut derived = Vec::with_capacity(domain.derived.len());
    for d in &domain.derived {
        derived.push(b.derived(d)?);
    }
    // Classify: a predicate an action changes is fluent, a function an
    // action changes is not static.
    for a in &actions {
        for g in &a.groups {
            for atom in g.adds.iter().chain(&g.dels) {
                let p = &mut b.predicates[atom.pred as usize];
                match p.kind {
                    PredKind::Derived => {
                        return Err(invalid(
                            format!("action `{}` changes derived predicate `{}`", a.name, p.name),
                            g.span,
                            false,
                        ));
                    }
                    _ => p.kind = PredKind::Fluent,
                }
            }
            for n in &g.nums {
                b.functions[n.func as usize].is_static = false;
            }
        }
    }

    b.in_problem = true;
    let mut init_atoms = Vec::new();
    let mut init_values = HashMap::new();
    for element in &problem.init {
        match element {
            InitElement::Atom(atom) => {
                let (pred, args) = b.ground_atom(atom)?;
                if b.predicates[pred as usize].kind != PredKind::Derived {
                    init_atoms.push((pred, args));
                }
            }
            InitElement::NotAtom(_) => {}
            InitElement::NumericValue(atom, value, _) => {
                let func = b.function(&atom.predicate, atom.args.len(), atom.span)?;
                let args = atom
                    .args
                    .iter()
                    .map(|n| b.object(n))
                    .collect::<Result<Vec<_>, _>>()?;
                init_values.insert((func, args), *value);
            }
            InitElement::ObjectValue(_, _, span) => {
                return Err(unsupported(
                    "object fluent value in `:init` (object fluents are not supported)",
                    *span,
                    true,
                ));
            }
        }
    }
    let (goal, goal_num_vars, goal_span) = match &problem.goal {
        Some(g) => {
            let mut scope = Scope::default();
            let f = b.condition(g, true, &mut scope, 0)?;
            (f, scope.next as usize, g.span)
        }
        None => (Formula::True, 0, problem.span),
    };
    let metric = match &problem.metric {
        Some(m) => {
            let scope = Scope::default();
            Some(LMetric {
                minimize: m.optimization == Optimization::Minimize,
                expr: b.expr(&m.expr, &scope, true, 0)?,
            })
        }
        None => None,
    };
    Ok(Model {
        domain_name: domain.name.text.clone(),
        problem_name: problem.name.text.clone(),
        objects: b.objects,
        sets: b.sets,
        predicates: b.predicates,
        functions: b.functions,
        actions,
        derived,
        init_atoms,
        init_values,
        goal,
        goal_num_vars,
        goal_span,
        metric,
    })
}

impl Builder {
    /// Objects (constants, then problem objects) and the members of every type.
    fn build_types(&mut self, domain: &Domain, problem: &Problem) -> Result<(), GroundError> {
        let mut parents: HashMap<String, Vec<String>> = HashMap::new();
        for t in &domain.types {
            let entry = parents.entry(t.name.text.clone()).or_default();
            if let Some(ty) = &t.ty {
                entry.extend(ty.names().iter().map(|n| n.text.clone()));
            }
        }
        let mut declared: Vec<(ObjId, Option<&Type>)> = Vec::new();
        for o in domain.constants.iter().chain(&problem.objects) {
            let id = match self.object_ids.get(&o.name.text) {
                Some(&id) => id,
                None => {
                    let id = self.objects.len() as ObjId;
                    self.object_ids.insert(o.name.text.clone(), id);
                    self.objects.push(o.name.text.clone());
                    id
                }
            };
            declared.push((id, o.ty.as_ref()));
        }
        for (id, ty) in declared {
            let mut stack: Vec<String> = ty.map_or_else(Vec::new, |t| {
                t.names().iter().map(|n| n.text.clone()).collect()
            });
            let mut seen: Vec<String> = Vec::new();
            while let Some(t) = stack.pop() {
                if seen.contains(&t) {
                    continue;
                }
                if let Some(ps) = parents.get(&t) {
                    stack.extend(ps.iter().cloned());
                }
                self.type_members.entry(t.clone()).or_default().push(id);
                seen.push(t);
            }
        }
        for t in parents.keys() {
            self.type_members.entry(t.clone()).or_default();
        }
        for ps in parents.values() {
            for p in ps {
                self.type_members.entry(p.clone()).or_default();
            }
        }
        self.type_members.insert(
            "object".to_string(),
            (0..self.objects.len() as ObjId).collect(),
        );
        for members in self.type_members.values_mut() {
            members.sort_unstable();
            members.dedup();
        }
        Ok(())
    }

    fn intern_set(&mut self, mut members: Vec<ObjId>) -> SetId {
        members.sort_unstable();
        members.dedup();
        if let Some(&id) = self.set_ids.get(&members) {
            return id;
        }
        let id = self.sets.len() as SetId;
        self.set_ids.insert(members.clone(), id);
        self.sets.push(members);
        id
    }

    fn type_set(&mut self, ty: Option<&Type>) -> Result<SetId, GroundError> {
        let names: Vec<(String, Span)> = match ty {
            None => vec![("object".to_string(), Span::default())],
            Some(t) => t.names().iter().map(|n| (n.text.clone(), n.span)).collect(),
        };
        let mut members = Vec::new();
        for (name, span) in names {
            match self.type_members.get(&name) {
                Some(m) => members.extend_from_slice(m),
                None => {
                    return Err(invalid(
                        format!("unknown type `{name}`"),
                        span,
                        self.in_problem,
                    ));
                }
            }
        }
        Ok(self.intern_set(members))
    }

    fn object(&self, name: &pddl_syntax::ast::Name) -> Result<ObjId, GroundError> {
        self.object_ids.get(&name.text).copied().ok_or_else(|| {
            invalid(
                format!("unknown object `{}`", name.text),
                name.span,
                self.in_problem,
            )
        })
    }

    fn predicate(
        &self,
        name: &pddl_syntax::ast::Name,
        arity: usize,
        span: Span,
    ) -> Result<PredId, GroundError> {
        self.symbol(
            "predicate",
            &self.pred_ids,
            |id| self.predicates[id as usize].arity,
            name,
            arity,
            span,
        )
    }

    fn function(
        &self,
        name: &pddl_syntax::ast::Name,
        arity: usize,
        span: Span,
    ) -> Result<FuncId, GroundError> {
        self.symbol(
            "function",
            &self.func_ids,
            |id| self.functions[id as usize].arity,
            name,
            arity,
            span,
        )
    }

    /// Resolves a declared predicate or function (`kind`) by name and checks
    /// that it is given `arity` arguments.
    fn symbol(
        &self,
        kind: &str,
        ids: &HashMap<String, u32>,
        arity_of: impl Fn(u32) -> usize,
        name: &pddl_syntax::ast::Name,
        arity: usize,
        span: Span,
    ) -> Result<u32, GroundError> {
        let id = *ids.get(&name.text).ok_or_else(|| {
            invalid(
                format!("unknown {kind} `{}`", name.text),
                name.span,
                self.in_problem,
            )
        })?;
        let expected = arity_of(id);
        if expected != arity {
            return Err(invalid(
                format!(
                    "{kind} `{}` takes {expected} arguments, given {arity}",
                    name.text
                ),
                span,
                self.in_problem,
            ));
        }
        Ok(id)
    }

    fn ground_atom(
        &self,
        atom: &Atom<pddl_syntax::ast::Name>,
    ) -> Result<(PredId, Vec<ObjId>), GroundError> {
        let pred = self.predicate(&atom.predicate, atom.args.len(), atom.span)?;
        let args = atom
            .args
            .iter()
            .map(|n| self.object(n))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((pred, args))
    }

    fn term(&self, t: &Term, scope: &Scope) -> Result<Arg, GroundError> {
        match t {
            Term::Name(n) => self.object(n).map(Arg::Obj),
            Term::Variable(v) => scope.lookup(&v.name).map(Arg::Var).ok_or_else(|| {
                invalid(
                    format!("unbound variable `?{}`", v.name),
                    v.span,
                    self.in_problem,
                )
            }),
        }
    }

    fn terms(&self, ts: &[Term], scope: &Scope) -> Result<Vec<Arg>, GroundError> {
        ts.iter().map(|t| self.term(t, scope)).collect()
    }

    fn atom(&self, atom: &Atom<Term>, scope: &Scope) -> Result<LAtom, GroundError> {
        let pred = self.predicate(&atom.predicate, atom.args.len(), atom.span)?;
        let args = self.terms(&atom.args, scope)?;
        Ok(LAtom { pred, args })
    }

    /// Resolves a numeric fluent `(f t1 .. tn)` to its function and arguments.
    fn fluent(&self, atom: &Atom<Term>, scope: &Scope) -> Result<(FuncId, Vec<Arg>), GroundError> {
        let func = self.function(&atom.predicate, atom.args.len(), atom.span)?;
        let args = self.terms(&atom.args, scope)?;
        Ok((func, args))
    }

    fn bind_vars(
        &mut self,
        vars: &[TypedVariable],
        scope: &mut Scope,
    ) -> Result<Vec<QVar>, GroundError> {
        let mut out = Vec::with_capacity(vars.len());
        for v in vars {
            let set = self.type_set(v.ty.as_ref())?;
            out.push(QVar {
                var: scope.bind(&v.var.name),
                set,
            });
        }
        Ok(out)
    }

    fn too_deep(&self, span: Span) -> GroundError {
        unsupported(
            format!("nesting deeper than {MAX_DEPTH} levels"),
            span,
            self.in_problem,
        )
    }

    /// Translates a condition, negated when `positive` is false, into NNF.
    fn condition(
        &mut self,
        c: &Condition,
        positive: bool,
        scope: &mut Scope,
        depth: usize,
    ) -> Result<Formula, GroundError> {
        if depth > MAX_DEPTH {
            return Err(self.too_deep(c.span));
        }
        let d = depth + 1;
        Ok(match &c.kind {
            ConditionKind::Atom(a) => Formula::Lit {
                atom: self.atom(a, scope)?,
                positive,
            },
            ConditionKind::Equality(x, y) => Formula::Eq {
                a: self.term(x, scope)?,
                b: self.term(y, scope)?,
                positive,
            },
            ConditionKind::Not(inner) => self.condition(inner, !positive, scope, d)?,
            ConditionKind::And(cs) | ConditionKind::Or(cs) => {
                let parts = cs
                    .iter()
                    .map(|x| self.condition(x, positive, scope, d))
                    .collect::<Result<Vec<_>, _>>()?;
                let conjunctive = matches!(c.kind, ConditionKind::And(_)) == positive;
                if conjunctive {
                    Formula::And(parts)
                } else {
                    Formula::Or(parts)
                }
            }
            ConditionKind::Imply(a, b) => {
                // a → b  ≡  ¬a ∨ b;  ¬(a → b)  ≡  a ∧ ¬b.
                let left = self.condition(a, !positive, scope, d)?;
                let right = self.condition(b, positive, scope, d)?;
                if positive {
                    Formula::Or(vec![left, right])
                } else {
                    Formula::And(vec![left, right])
                }
            }
            ConditionKind::Exists(vars, body) | ConditionKind::Forall(vars, body) => {
                let mark = scope.names.len();
                let qvars = self.bind_vars(vars, scope)?;
                let inner = self.condition(body, positive, scope, d);
                scope.names.truncate(mark);
                let inner = Box::new(inner?);
                let existential = matches!(c.kind, ConditionKind::Exists(..)) == positive;
                if existential {
                    Formula::Exists(qvars, inner)
                } else {
                    Formula::Forall(qvars, inner)
                }
            }
            ConditionKind::Compare(op, l, r) => {
                let lhs = self.expr(l, scope, false, d)?;
                let rhs = self.expr(r, scope, false, d)?;
                if positive {
                    Formula::Num { op: *op, lhs, rhs }
                } else {
                    let flipped = match op {
                        Comparison::Less => Comparison::GreaterEqual,
                        Comparison::LessEqual => Comparison::Greater,
                        Comparison::GreaterEqual => Comparison::Less,
                        Comparison::Greater => Comparison::LessEqual,
                        Comparison::Equal => {
                            return Ok(Formula::Or(vec![
                                Formula::Num {
                                    op: Comparison::Less,
                                    lhs: lhs.clone(),
                                    rhs: rhs.clone(),
                                },
                                Formula::Num {
                                    op: Comparison::Greater,
                                    lhs,
                                    rhs,
                                },
                            ]));
                        }
                    };
                    Formula::Num {
                        op: flipped,
                        lhs,
                        rhs,
                    }
                }
            }
            ConditionKind::Preference(_, _) => {
                return Err(unsupported(
                    "preferences are not supported",
                    c.span,
                    self.in_problem,
                ));
            }
        })
    }

    fn expr(
        &self,
        e: &Expr,
        scope: &Scope,
        in_metric: bool,
        depth: usize,
    ) -> Result<LExpr, GroundError> {
        if depth > MAX_DEPTH {
            return Err(self.too_deep(e.span));
        }
        let d = depth + 1;
        Ok(match &e.kind {
            ExprKind::Number(v) => LExpr::Const(*v),
            ExprKind::Fluent(atom) => {
                let (func, args) = self.fluent(atom, scope)?;
                LExpr::Fluent(func, args)
            }
            ExprKind::Neg(a) => LExpr::Neg(Box::new(self.expr(a, scope, in_metric, d)?)),
            ExprKind::Binary(op, a, b) => LExpr::Bin(
                *op,
                Box::new(self.expr(a, scope, in_metric, d)?),
                Box::new(self.expr(b, scope, in_metric, d)?),
            ),
            ExprKind::TotalTime if in_metric => LExpr::TotalTime(e.span),
            ExprKind::TotalTime => {
                return Err(unsupported(
                    "`total-time` outside a metric is not supported",
                    e.span,
                    self.in_problem,
                ));
            }
        })
    }

    fn action(&mut self, a: &pddl_syntax::ast::Action) -> Result<LAction, GroundError> {
        let mut scope = Scope::default();
        let params = self.bind_vars(&a.parameters, &mut scope)?;
        let pre = match &a.precondition {
            Some(c) => self.condition(c, true, &mut scope, 0)?,
            None => Formula::True,
        };
        let mut pre_exists = Vec::new();
        let pre = pull_exists(pre, &mut pre_exists);
        let mut groups = vec![EffectGroup::empty(Vec::new(), Formula::True, a.span)];
        if let Some(e) = &a.effect {
            self.effect(e, 0, &mut groups, &mut scope, 0)?;
        }
        groups.retain(|g| !(g.adds.is_empty() && g.dels.is_empty() && g.nums.is_empty()));
        Ok(LAction {
            name: a.name.text.clone(),
            span: a.span,
            params,
            num_vars: scope.next as usize,
            pre_exists,
            pre,
            groups,
        })
    }

    fn effect(
        &mut self,
        e: &Effect,
        group: usize,
        groups: &mut Vec<EffectGroup>,
        scope: &mut Scope,
        depth: usize,
    ) -> Result<(), GroundError> {
        if depth > MAX_DEPTH {
            return Err(self.too_deep(e.span));
        }
        let d = depth + 1;
        match &e.kind {
            EffectKind::And(es) => {
                for x in es {
                    self.effect(x, group, groups, scope, d)?;
                }
            }
            EffectKind::Add(atom) => {
                let atom = self.atom(atom, scope)?;
                groups[group].adds.push(atom);
            }
            EffectKind::Delete(atom) => {
                let atom = self.atom(atom, scope)?;
                groups[group].dels.push(atom);
            }
            EffectKind::Numeric(op, atom, expr) => {
                let (func, args) = self.fluent(atom, scope)?;
                let expr = self.expr(expr, scope, false, d)?;
                groups[group].nums.push(LNumEffect {
                    op: *op,
                    func,
                    args,
                    expr,
                });
            }
            EffectKind::ObjectAssign(_, _) => {
                return Err(unsupported(
                    "object fluent assignment (object fluents are not supported)",
                    e.span,
                    false,
                ));
            }
            EffectKind::Forall(vars, inner) => {
                let mark = scope.names.len();
                let qvars = self.bind_vars(vars, scope)?;
                let mut forall = groups[group].forall.clone();
                forall.extend(qvars);
                let condition = groups[group].condition.clone();
                groups.push(EffectGroup::empty(forall, condition, e.span));
                let new_group = groups.len() - 1;
                let result = self.effect(inner, new_group, groups, scope, d);
                scope.names.truncate(mark);
                result?;
            }
            EffectKind::When(c, inner) => {
                let cond = self.condition(c, true, scope, d)?;
                let condition = match groups[group].condition.clone() {
                    Formula::True => cond,
                    outer => Formula::And(vec![outer, cond]),
                };
                let forall = groups[group].forall.clone();
                groups.push(EffectGroup::empty(forall, condition, e.span));
                let new_group = groups.len() - 1;
                self.effect(inner, new_group, groups, scope, d)?;
            }
        }
        Ok(())
    }

    fn derived(&mut self, d: &pddl_syntax::ast::DerivedPredicate) -> Result<LDerived, GroundError> {
        let mut scope = Scope::default();
        let head = self.predicate(&d.head.name, d.head.params.len(), d.head.span)?;
        let params = self.bind_vars(&d.head.params, &mut scope)?;
        let body = self.condition(&d.body, true, &mut scope, 0)?;
        let mut exists = Vec::new();
        let body = pull_exists(body, &mut exists);
        Ok(LDerived {
            head,
            params,
            num_vars: scope.next as usize,
            exists,
            body,
            span: d.span,
        })
    }
}

/// Moves the variables of existentials in the top-level conjunction into
/// `out`, returning the formula without those quantifiers (variables are
/// numbered uniquely, so nothing can be captured).
fn pull_exists(f: Formula, out: &mut Vec<QVar>) -> Formula {
    match f {
        Formula::Exists(vars, body) => {
            out.extend(vars);
            pull_exists(*body, out)
        }
        Formula::And(parts) => {
            Formula::And(parts.into_iter().map(|p| pull_exists(p, out)).collect())
        }
        other => other,
    }
}
