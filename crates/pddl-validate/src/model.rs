//! The lifted model: a domain and problem with every name resolved to a
//! dense id, so that atoms are `(predicate id, object ids)` values and no
//! two different atoms can ever be confused (unlike joined strings, where
//! `(p o aob)` and `(p oa ob)` both read `p o a o b` without separators).

use crate::state::State;
use hashbrown::{HashMap, HashSet};
use pddl_syntax::Diagnostic;
use pddl_syntax::ast::{
    self, AssignOp, BinaryOp, Comparison, Condition, ConditionKind, Domain, Effect, EffectKind,
    Expr, ExprKind, FunctionType, InitElement, Optimization, Problem, Requirement, Span, Term,
    TypedName, TypedVariable,
};

/// Index of an object (or domain constant) in [`Model::objects`].
pub(crate) type ObjId = u32;
/// Index of a type in [`Model::types`].
pub(crate) type TypeId = usize;
/// Index of a predicate in [`Model::predicates`].
pub(crate) type PredId = usize;
/// Index of a numeric function in [`Model::functions`].
pub(crate) type FuncId = usize;
/// Index of a set of objects in [`Model::domains`].
pub(crate) type DomainId = usize;

/// Which input file a setup error is located in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFile {
    /// The domain file.
    Domain,
    /// The problem file.
    Problem,
}

/// Why a domain and problem cannot be used for validation.
#[derive(Clone, Debug, PartialEq)]
pub struct SetupError {
    /// The file the diagnostic's span points into.
    pub file: InputFile,
    /// What is wrong, and where.
    pub diagnostic: Diagnostic,
    /// Whether the cause is a PDDL feature the validator does not support
    /// (as opposed to an error in the input).
    pub unsupported: bool,
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let file = match self.file {
            InputFile::Domain => "domain",
            InputFile::Problem => "problem",
        };
        write!(f, "{file}: {}", self.diagnostic.message)
    }
}

impl std::error::Error for SetupError {}

impl SetupError {
    fn error(file: InputFile, message: impl Into<String>, span: Span) -> SetupError {
        SetupError {
            file,
            diagnostic: Diagnostic::error(message, span),
            unsupported: false,
        }
    }

    fn unsupported(file: InputFile, what: &str, span: Span) -> SetupError {
        SetupError {
            file,
            diagnostic: Diagnostic::error(format!("unsupported PDDL feature: {what}"), span)
                .with_label("not supported by the validator"),
            unsupported: true,
        }
    }
}

/// An argument of a compiled atom: a fixed object or a variable slot.
#[derive(Clone, Debug)]
pub(crate) enum Arg {
    /// A constant or object.
    Obj(ObjId),
    /// The variable in slot `slot` of the environment; `name` is without `?`.
    Var { slot: usize, name: String },
}

/// A quantified variable (or action/rule parameter).
#[derive(Clone, Debug)]
pub(crate) struct QVar {
    /// Name without the `?`.
    pub name: String,
    /// Environment slot it is bound in.
    pub slot: usize,
    /// The objects it ranges over.
    pub domain: DomainId,
    /// The declared type, for messages.
    pub type_text: String,
}

/// A compiled condition.
#[derive(Clone, Debug)]
pub(crate) struct Cond {
    pub kind: CondKind,
}

/// The forms of a compiled condition.
#[derive(Clone, Debug)]
pub(crate) enum CondKind {
    Atom(PredId, Vec<Arg>),
    Eq(Arg, Arg),
    Not(Box<Cond>),
    And(Vec<Cond>),
    Or(Vec<Cond>),
    Imply(Box<Cond>, Box<Cond>),
    Exists(Vec<QVar>, Box<Cond>),
    Forall(Vec<QVar>, Box<Cond>),
    Compare(Comparison, NExpr, NExpr),
}

/// A compiled numeric expression.
#[derive(Clone, Debug)]
pub(crate) enum NExpr {
    Num(f64),
    Fluent(FuncId, Vec<Arg>),
    Neg(Box<NExpr>),
    Bin(BinaryOp, Box<NExpr>, Box<NExpr>),
    /// `total-time`: the number of steps executed so far.
    TotalTime,
}

/// A compiled effect.
#[derive(Clone, Debug)]
pub(crate) struct Eff {
    pub kind: EffKind,
}

/// The forms of a compiled effect.
#[derive(Clone, Debug)]
pub(crate) enum EffKind {
    And(Vec<Eff>),
    Forall(Vec<QVar>, Box<Eff>),
    When(Cond, Box<Eff>),
    Add(PredId, Vec<Arg>),
    Del(PredId, Vec<Arg>),
    Numeric(AssignOp, FuncId, Vec<Arg>, NExpr),
    /// `(assign (f …) undefined)` on a numeric fluent: always an error.
    AssignUndefined(FuncId, Vec<Arg>),
}

/// A predicate with its parameter types.
#[derive(Clone, Debug)]
pub(crate) struct PredicateInfo {
    pub name: String,
    pub arity: usize,
    /// Whether `:derived` rules define it.
    pub derived: bool,
}

/// A numeric function.
#[derive(Clone, Debug)]
pub(crate) struct FunctionInfo {
    pub name: String,
    pub arity: usize,
}

/// A compiled action schema.
#[derive(Clone, Debug)]
pub(crate) struct ActionSchema {
    pub name: String,
    pub params: Vec<QVar>,
    pub precondition: Option<Cond>,
    pub effect: Option<Eff>,
    /// Environment size needed (parameters plus nested quantifiers).
    pub slots: usize,
}

/// A compiled `:derived` rule.
#[derive(Clone, Debug)]
pub(crate) struct DerivedRule {
    pub head: PredId,
    pub params: Vec<QVar>,
    pub body: Cond,
    pub slots: usize,
}

/// A condition with the environment size it needs (goal, metric…).
#[derive(Clone, Debug)]
pub(crate) struct ClosedCond {
    pub cond: Cond,
    pub slots: usize,
}

/// Everything needed to execute plans, with names resolved to ids.
#[derive(Clone, Debug)]
pub(crate) struct Model {
    pub objects: Vec<String>,
    pub object_ids: HashMap<String, ObjId>,
    /// `object_types[o]`: every type object `o` belongs to (ancestors included).
    pub object_types: Vec<HashSet<TypeId>>,
    /// Declared type names of each object, for messages.
    pub object_type_text: Vec<String>,
    /// Object sets used by parameters and quantifiers.
    pub domains: Vec<Vec<ObjId>>,
    /// The type ids each domain allows (parallel to `domains`).
    pub domain_types: Vec<Vec<TypeId>>,
    pub predicates: Vec<PredicateInfo>,
    pub functions: Vec<FunctionInfo>,
    pub actions: Vec<ActionSchema>,
    pub action_ids: HashMap<String, usize>,
    /// Derived rules grouped by stratum, lowest first.
    pub strata: Vec<Vec<DerivedRule>>,
    pub init: State,
    pub goal: Option<ClosedCond>,
    pub metric: Option<(Optimization, NExpr)>,
}

/// Builds the model, or explains why the input cannot be used.
pub(crate) fn build(domain: &Domain, problem: &Problem) -> Result<Model, SetupError> {
    let mut builder = Builder::default();
    builder.check_supported(domain, problem)?;
    builder.types(domain)?;
    builder.objects(&domain.constants, InputFile::Domain)?;
    builder.objects(&problem.objects, InputFile::Problem)?;
    builder.finish_object_types();
    builder.signatures(domain)?;
    let mut actions = Vec::new();
    let mut action_ids = HashMap::new();
    for action in &domain.actions {
        if action_ids
            .insert(action.name.text.clone(), actions.len())
            .is_some()
        {
            return Err(SetupError::error(
                InputFile::Domain,
                format!("action `{}` is defined twice", action.name),
                action.name.span,
            ));
        }
        let mut scope = Scope::default();
        let params = builder.bind(&action.parameters, &mut scope, InputFile::Domain)?;
        let precondition = action
            .precondition
            .as_ref()
            .map(|c| builder.cond(c, &mut scope, InputFile::Domain))
            .transpose()?;
        let effect = action
            .effect
            .as_ref()
            .map(|e| builder.effect(e, &mut scope))
            .transpose()?;
        actions.push(ActionSchema {
            name: action.name.text.clone(),
            params,
            precondition,
            effect,
            slots: scope.max_slots,
        });
    }
    let rules = builder.derived_rules(domain)?;
    let strata = stratify(rules, &builder.predicates).map_err(|name| {
        SetupError::error(
            InputFile::Domain,
            format!("derived predicates are not stratified: `{name}` depends negatively on itself"),
            domain.span,
        )
    })?;
    let init = builder.init(problem)?;
    let goal = match &problem.goal {
        Some(goal) => {
            let mut scope = Scope::default();
            let cond = builder.cond(goal, &mut scope, InputFile::Problem)?;
            Some(ClosedCond {
                cond,
                slots: scope.max_slots,
            })
        }
        None => None,
    };
    let metric = match &problem.metric {
        Some(metric) => {
            let mut scope = Scope::default();
            Some((
                metric.optimization,
                builder.expr(&metric.expr, &mut scope, InputFile::Problem)?,
            ))
        }
        None => None,
    };
    let Builder {
        objects,
        object_ids,
        object_types,
        object_type_text,
        domains,
        domain_types,
        predicates,
        functions,
        ..
    } = builder;
    Ok(Model {
        objects,
        object_ids,
        object_types,
        object_type_text,
        domains,
        domain_types,
        predicates,
        functions,
        actions,
        action_ids,
        strata,
        init,
        goal,
        metric,
    })
}

/// Variables in scope while compiling: name → slot.
#[derive(Default)]
struct Scope {
    vars: Vec<String>,
    max_slots: usize,
}

impl Scope {
    fn push(&mut self, name: &str) -> usize {
        self.vars.push(name.to_string());
        self.max_slots = self.max_slots.max(self.vars.len());
        self.vars.len() - 1
    }

    fn lookup(&self, name: &str) -> Option<usize> {
        self.vars.iter().rposition(|v| v == name)
    }

    fn truncate(&mut self, len: usize) {
        self.vars.truncate(len);
    }
}

#[derive(Default)]
struct Builder {
    objects: Vec<String>,
    object_ids: HashMap<String, ObjId>,
    /// Declared types of each object, before closure.
    object_declared: Vec<Vec<TypeId>>,
    object_types: Vec<HashSet<TypeId>>,
    object_type_text: Vec<String>,
    types: Vec<String>,
    type_ids: HashMap<String, TypeId>,
    /// Direct parents of each type.
    type_parents: Vec<Vec<TypeId>>,
    domains: Vec<Vec<ObjId>>,
    domain_types: Vec<Vec<TypeId>>,
    domain_ids: HashMap<Vec<TypeId>, DomainId>,
    predicates: Vec<PredicateInfo>,
    predicate_ids: HashMap<String, PredId>,
    functions: Vec<FunctionInfo>,
    function_ids: HashMap<String, FuncId>,
}

const OBJECT: TypeId = 0;

/// Most argument tuples a derived rule may have (it is evaluated for each,
/// in every state).
const MAX_DERIVED_TUPLES: usize = 10_000_000;

impl Builder {
    fn check_supported(&self, domain: &Domain, problem: &Problem) -> Result<(), SetupError> {
        let unsupported = [
            (
                Requirement::DurativeActions,
                "durative actions (`:durative-actions`)",
            ),
            (
                Requirement::DurationInequalities,
                "duration inequalities (`:duration-inequalities`)",
            ),
            (
                Requirement::ContinuousEffects,
                "continuous effects (`:continuous-effects`)",
            ),
            (
                Requirement::TimedInitialLiterals,
                "timed initial literals (`:timed-initial-literals`)",
            ),
            (Requirement::Preferences, "preferences (`:preferences`)"),
            (
                Requirement::Constraints,
                "trajectory constraints (`:constraints`)",
            ),
        ];
        for (requirements, file) in [
            (&domain.requirements, InputFile::Domain),
            (&problem.requirements, InputFile::Problem),
        ] {
            for flag in requirements {
                if let Some((_, what)) = unsupported.iter().find(|(r, _)| *r == flag.requirement) {
                    return Err(SetupError::unsupported(file, what, flag.span));
                }
            }
        }
        if let Some(constraints) = &problem.constraints {
            return Err(SetupError::unsupported(
                InputFile::Problem,
                "trajectory constraints (`:constraints`)",
                constraints.span,
            ));
        }
        for function in &domain.functions {
            if let FunctionType::Object(_) = function.ty {
                return Err(SetupError::unsupported(
                    InputFile::Domain,
                    "object fluents (`:object-fluents`)",
                    function.span,
                ));
            }
        }
        Ok(())
    }

    fn type_id(&mut self, name: &str) -> TypeId {
        if let Some(&id) = self.type_ids.get(name) {
            return id;
        }
        let id = self.types.len();
        self.types.push(name.to_string());
        self.type_parents.push(Vec::new());
        self.type_ids.insert(name.to_string(), id);
        id
    }

    fn types(&mut self, domain: &Domain) -> Result<(), SetupError> {
        self.type_id("object");
        // Declare every type first so parents may be named before their own entry.
        for entry in &domain.types {
            self.type_id(&entry.name.text);
        }
        for entry in &domain.types {
            let id = self.type_id(&entry.name.text);
            for parent in entry.ty.iter().flat_map(|t| t.names()) {
                // A parent named only after `-` is declared by that use.
                let parent_id = self.type_id(&parent.text);
                if parent_id != id {
                    self.type_parents[id].push(parent_id);
                }
            }
        }
        Ok(())
    }

    /// The type ids a type expression allows (`None` means `object`).
    fn resolve_type(
        &self,
        ty: Option<&ast::Type>,
        file: InputFile,
    ) -> Result<Vec<TypeId>, SetupError> {
        let Some(ty) = ty else {
            return Ok(vec![OBJECT]);
        };
        let mut out = Vec::new();
        for name in ty.names() {
            match self.type_ids.get(name.as_str()) {
                Some(&id) => out.push(id),
                None => {
                    return Err(SetupError::error(
                        file,
                        format!("unknown type `{name}`"),
                        name.span,
                    ));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    fn objects(&mut self, list: &[TypedName], file: InputFile) -> Result<(), SetupError> {
        for entry in list {
            let types = self.resolve_type(entry.ty.as_ref(), file)?;
            let text = entry.ty.as_ref().map_or("object".to_string(), type_text);
            let id = match self.object_ids.get(entry.name.as_str()) {
                Some(&id) => id,
                None => {
                    let id = ObjId::try_from(self.objects.len()).map_err(|_| {
                        SetupError::error(file, "too many objects", entry.name.span)
                    })?;
                    self.objects.push(entry.name.text.clone());
                    self.object_ids.insert(entry.name.text.clone(), id);
                    self.object_declared.push(Vec::new());
                    self.object_type_text.push(text.clone());
                    id
                }
            };
            // An object declared twice belongs to every type it was given.
            let declared = &mut self.object_declared[id as usize];
            if !declared.is_empty() && !declared.iter().all(|t| types.contains(t)) {
                self.object_type_text[id as usize] =
                    format!("{} and {text}", self.object_type_text[id as usize]);
            }
            declared.extend(types);
        }
        Ok(())
    }

    /// Closes each object's types under the parent relation.
    fn finish_object_types(&mut self) {
        let ancestors: Vec<HashSet<TypeId>> = (0..self.types.len())
            .map(|t| {
                let mut seen = HashSet::new();
                let mut todo = vec![t];
                while let Some(u) = todo.pop() {
                    if seen.insert(u) {
                        todo.extend(self.type_parents[u].iter().copied());
                    }
                }
                seen.insert(OBJECT);
                seen
            })
            .collect();
        self.object_types = self
            .object_declared
            .iter()
            .map(|declared| {
                let mut all: HashSet<TypeId> = declared
                    .iter()
                    .flat_map(|&t| ancestors[t].iter().copied())
                    .collect();
                all.insert(OBJECT);
                all
            })
            .collect();
    }

    /// The id of the object set allowed by `types`.
    fn domain(&mut self, types: Vec<TypeId>) -> DomainId {
        if let Some(&id) = self.domain_ids.get(&types) {
            return id;
        }
        let members = (0..self.objects.len())
            .filter(|&o| types.iter().any(|t| self.object_types[o].contains(t)))
            .map(|o| o as ObjId)
            .collect();
        let id = self.domains.len();
        self.domains.push(members);
        self.domain_types.push(types.clone());
        self.domain_ids.insert(types, id);
        id
    }

    /// Registers a new predicate under the next id.
    fn add_predicate(&mut self, name: &ast::Name, arity: usize, derived: bool) {
        self.predicate_ids
            .insert(name.text.clone(), self.predicates.len());
        self.predicates.push(PredicateInfo {
            name: name.text.clone(),
            arity,
            derived,
        });
    }

    fn signatures(&mut self, domain: &Domain) -> Result<(), SetupError> {
        for decl in &domain.predicates {
            if self.predicate_ids.contains_key(decl.name.as_str()) {
                return Err(SetupError::error(
                    InputFile::Domain,
                    format!("predicate `{}` is declared twice", decl.name),
                    decl.name.span,
                ));
            }
            for param in &decl.params {
                self.resolve_type(param.ty.as_ref(), InputFile::Domain)?;
            }
            self.add_predicate(&decl.name, decl.params.len(), false);
        }
        for rule in &domain.derived {
            let head = &rule.head;
            match self.predicate_ids.get(head.name.as_str()) {
                Some(&id) => {
                    if self.predicates[id].arity != head.params.len() {
                        return Err(SetupError::error(
                            InputFile::Domain,
                            format!(
                                "derived predicate `{}` has {} parameters here but {} elsewhere",
                                head.name,
                                head.params.len(),
                                self.predicates[id].arity
                            ),
                            head.span,
                        ));
                    }
                    self.predicates[id].derived = true;
                }
                None => {
                    self.add_predicate(&head.name, head.params.len(), true);
                }
            }
        }
        for decl in &domain.functions {
            if self.function_ids.contains_key(decl.name.as_str()) {
                return Err(SetupError::error(
                    InputFile::Domain,
                    format!("function `{}` is declared twice", decl.name),
                    decl.name.span,
                ));
            }
            self.function_ids
                .insert(decl.name.text.clone(), self.functions.len());
            self.functions.push(FunctionInfo {
                name: decl.name.text.clone(),
                arity: decl.params.len(),
            });
        }
        Ok(())
    }

    /// Binds a parameter list in `scope`, returning the compiled variables.
    fn bind(
        &mut self,
        vars: &[TypedVariable],
        scope: &mut Scope,
        file: InputFile,
    ) -> Result<Vec<QVar>, SetupError> {
        let mut out = Vec::new();
        for var in vars {
            let types = self.resolve_type(var.ty.as_ref(), file)?;
            let domain = self.domain(types);
            let slot = scope.push(&var.var.name);
            out.push(QVar {
                name: var.var.name.clone(),
                slot,
                domain,
                type_text: var.ty.as_ref().map_or("object".to_string(), type_text),
            });
        }
        Ok(out)
    }

    fn term(&self, term: &Term, scope: &Scope, file: InputFile) -> Result<Arg, SetupError> {
        match term {
            Term::Name(name) => match self.object_ids.get(name.as_str()) {
                Some(&id) => Ok(Arg::Obj(id)),
                None => Err(SetupError::error(
                    file,
                    format!("unknown object or constant `{name}`"),
                    name.span,
                )),
            },
            Term::Variable(var) => match scope.lookup(&var.name) {
                Some(slot) => Ok(Arg::Var {
                    slot,
                    name: var.name.clone(),
                }),
                None => Err(SetupError::error(
                    file,
                    format!("variable `{var}` is not bound here"),
                    var.span,
                )),
            },
        }
    }

    fn terms(
        &self,
        terms: &[Term],
        scope: &Scope,
        file: InputFile,
    ) -> Result<Vec<Arg>, SetupError> {
        terms.iter().map(|t| self.term(t, scope, file)).collect()
    }

    fn predicate<T>(&self, atom: &ast::Atom<T>, file: InputFile) -> Result<PredId, SetupError> {
        resolve_symbol(
            "predicate",
            &self.predicate_ids,
            |id| self.predicates[id].arity,
            &atom.predicate,
            atom.args.len(),
            atom.span,
            file,
        )
    }

    fn function(
        &self,
        name: &ast::Name,
        arity: usize,
        span: Span,
        file: InputFile,
    ) -> Result<FuncId, SetupError> {
        resolve_symbol(
            "function",
            &self.function_ids,
            |id| self.functions[id].arity,
            name,
            arity,
            span,
            file,
        )
    }

    fn cond(
        &mut self,
        cond: &Condition,
        scope: &mut Scope,
        file: InputFile,
    ) -> Result<Cond, SetupError> {
        let kind = match &cond.kind {
            ConditionKind::Atom(atom)
                if atom.predicate.as_str() == "="
                    && atom.args.len() == 2
                    && !self.predicate_ids.contains_key("=") =>
            {
                CondKind::Eq(
                    self.term(&atom.args[0], scope, file)?,
                    self.term(&atom.args[1], scope, file)?,
                )
            }
            ConditionKind::Atom(atom) => CondKind::Atom(
                self.predicate(atom, file)?,
                self.terms(&atom.args, scope, file)?,
            ),
            ConditionKind::Equality(a, b) => {
                CondKind::Eq(self.term(a, scope, file)?, self.term(b, scope, file)?)
            }
            ConditionKind::Not(inner) => CondKind::Not(Box::new(self.cond(inner, scope, file)?)),
            ConditionKind::And(parts) => CondKind::And(
                parts
                    .iter()
                    .map(|p| self.cond(p, scope, file))
                    .collect::<Result<_, _>>()?,
            ),
            ConditionKind::Or(parts) => CondKind::Or(
                parts
                    .iter()
                    .map(|p| self.cond(p, scope, file))
                    .collect::<Result<_, _>>()?,
            ),
            ConditionKind::Imply(a, b) => CondKind::Imply(
                Box::new(self.cond(a, scope, file)?),
                Box::new(self.cond(b, scope, file)?),
            ),
            ConditionKind::Exists(vars, body) | ConditionKind::Forall(vars, body) => {
                let depth = scope.vars.len();
                let qvars = self.bind(vars, scope, file)?;
                let body = self.cond(body, scope, file);
                scope.truncate(depth);
                let body = Box::new(body?);
                if matches!(cond.kind, ConditionKind::Exists(..)) {
                    CondKind::Exists(qvars, body)
                } else {
                    CondKind::Forall(qvars, body)
                }
            }
            ConditionKind::Compare(op, a, b) => {
                CondKind::Compare(*op, self.expr(a, scope, file)?, self.expr(b, scope, file)?)
            }
            ConditionKind::Preference(..) => {
                return Err(SetupError::unsupported(file, "preferences", cond.span));
            }
        };
        Ok(Cond { kind })
    }

    fn expr(
        &mut self,
        expr: &Expr,
        scope: &mut Scope,
        file: InputFile,
    ) -> Result<NExpr, SetupError> {
        Ok(match &expr.kind {
            ExprKind::Number(n) => NExpr::Num(*n),
            ExprKind::Fluent(atom) => NExpr::Fluent(
                self.function(&atom.predicate, atom.args.len(), atom.span, file)?,
                self.terms(&atom.args, scope, file)?,
            ),
            ExprKind::Neg(inner) => NExpr::Neg(Box::new(self.expr(inner, scope, file)?)),
            ExprKind::Binary(op, a, b) => NExpr::Bin(
                *op,
                Box::new(self.expr(a, scope, file)?),
                Box::new(self.expr(b, scope, file)?),
            ),
            ExprKind::TotalTime => NExpr::TotalTime,
        })
    }

    fn effect(&mut self, effect: &Effect, scope: &mut Scope) -> Result<Eff, SetupError> {
        let file = InputFile::Domain;
        let changed_predicate =
            |builder: &Builder, atom: &ast::Atom<Term>| -> Result<PredId, SetupError> {
                let id = builder.predicate(atom, file)?;
                if builder.predicates[id].derived {
                    return Err(SetupError::error(
                        file,
                        format!(
                            "derived predicate `{}` cannot be changed by an effect",
                            atom.predicate
                        ),
                        atom.span,
                    ));
                }
                Ok(id)
            };
        let kind = match &effect.kind {
            EffectKind::And(parts) => EffKind::And(
                parts
                    .iter()
                    .map(|p| self.effect(p, scope))
                    .collect::<Result<_, _>>()?,
            ),
            EffectKind::Forall(vars, body) => {
                let depth = scope.vars.len();
                let qvars = self.bind(vars, scope, file)?;
                let body = self.effect(body, scope);
                scope.truncate(depth);
                EffKind::Forall(qvars, Box::new(body?))
            }
            EffectKind::When(cond, body) => EffKind::When(
                self.cond(cond, scope, file)?,
                Box::new(self.effect(body, scope)?),
            ),
            EffectKind::Add(atom) => EffKind::Add(
                changed_predicate(self, atom)?,
                self.terms(&atom.args, scope, file)?,
            ),
            EffectKind::Delete(atom) => EffKind::Del(
                changed_predicate(self, atom)?,
                self.terms(&atom.args, scope, file)?,
            ),
            EffectKind::Numeric(op, target, value) => EffKind::Numeric(
                *op,
                self.function(&target.predicate, target.args.len(), target.span, file)?,
                self.terms(&target.args, scope, file)?,
                self.expr(value, scope, file)?,
            ),
            EffectKind::ObjectAssign(target, Term::Name(value))
                if value.as_str() == "undefined" =>
            {
                EffKind::AssignUndefined(
                    self.function(&target.predicate, target.args.len(), target.span, file)?,
                    self.terms(&target.args, scope, file)?,
                )
            }
            EffectKind::ObjectAssign(..) => {
                return Err(SetupError::unsupported(
                    file,
                    "object fluents (`:object-fluents`)",
                    effect.span,
                ));
            }
        };
        Ok(Eff { kind })
    }

    fn derived_rules(&mut self, domain: &Domain) -> Result<Vec<DerivedRule>, SetupError> {
        let mut rules = Vec::new();
        for rule in &domain.derived {
            let mut scope = Scope::default();
            let params = self.bind(&rule.head.params, &mut scope, InputFile::Domain)?;
            let body = self.cond(&rule.body, &mut scope, InputFile::Domain)?;
            let head = self.predicate_ids[rule.head.name.as_str()];
            // Rules are evaluated for every argument tuple in every state:
            // refuse up front what could never finish.
            let tuples = params.iter().fold(1usize, |n, p| {
                n.saturating_mul(self.domains[p.domain].len())
            });
            if tuples > MAX_DERIVED_TUPLES {
                return Err(SetupError {
                    file: InputFile::Domain,
                    diagnostic: Diagnostic::error(
                        format!(
                            "derived predicate `{}` has {tuples} argument tuples, more than the validator's limit of {MAX_DERIVED_TUPLES}",
                            rule.head.name
                        ),
                        rule.head.span,
                    ),
                    unsupported: true,
                });
            }
            rules.push(DerivedRule {
                head,
                params,
                body,
                slots: scope.max_slots,
            });
        }
        Ok(rules)
    }

    fn ground_atom(&self, atom: &ast::Atom<ast::Name>) -> Result<(PredId, Vec<ObjId>), SetupError> {
        let pred = self.predicate(atom, InputFile::Problem)?;
        Ok((pred, self.ground_names(&atom.args)?))
    }

    fn ground_names(&self, names: &[ast::Name]) -> Result<Vec<ObjId>, SetupError> {
        names
            .iter()
            .map(|n| {
                self.object_ids.get(n.as_str()).copied().ok_or_else(|| {
                    SetupError::error(InputFile::Problem, format!("unknown object `{n}`"), n.span)
                })
            })
            .collect()
    }

    fn init(&self, problem: &Problem) -> Result<State, SetupError> {
        let mut state = State::empty(self.predicates.len(), self.functions.len());
        for element in &problem.init {
            match element {
                InitElement::Atom(atom) => {
                    let (pred, args) = self.ground_atom(atom)?;
                    if self.predicates[pred].derived {
                        return Err(SetupError::error(
                            InputFile::Problem,
                            format!(
                                "derived predicate `{}` cannot be set in `:init`",
                                atom.predicate
                            ),
                            atom.span,
                        ));
                    }
                    state.atoms[pred].insert(args.into_boxed_slice());
                }
                InitElement::NotAtom(atom) => {
                    self.ground_atom(atom)?;
                }
                InitElement::NumericValue(atom, value, span) => {
                    let func = self.function(
                        &atom.predicate,
                        atom.args.len(),
                        atom.span,
                        InputFile::Problem,
                    )?;
                    let args = self.ground_names(&atom.args)?.into_boxed_slice();
                    if let Some(old) = state.fluents[func].insert(args, *value)
                        && old != *value
                    {
                        return Err(SetupError::error(
                            InputFile::Problem,
                            format!(
                                "`{}` is given two initial values, {old} and {value}",
                                atom.predicate
                            ),
                            *span,
                        ));
                    }
                }
                InitElement::ObjectValue(_, _, span) => {
                    return Err(SetupError::unsupported(
                        InputFile::Problem,
                        "object fluents (`:object-fluents`)",
                        *span,
                    ));
                }
            }
        }
        Ok(state)
    }
}

/// The text of a type expression: `t` or `(either a b)`.
fn type_text(ty: &ast::Type) -> String {
    match ty {
        ast::Type::Name(n) => n.text.clone(),
        ast::Type::Either(names, _) => {
            let names: Vec<&str> = names.iter().map(|n| n.as_str()).collect();
            format!("(either {})", names.join(" "))
        }
    }
}

/// Groups derived rules into strata so that a predicate used negatively
/// is fully computed in a lower stratum. Errors with a predicate name if
/// no stratification exists.
fn stratify(
    rules: Vec<DerivedRule>,
    predicates: &[PredicateInfo],
) -> Result<Vec<Vec<DerivedRule>>, String> {
    if rules.is_empty() {
        return Ok(Vec::new());
    }
    // stratum[p] >= stratum[q] for positive uses, > for negative uses.
    let mut stratum = vec![0usize; predicates.len()];
    let mut uses = Vec::new();
    for rule in &rules {
        let mut body_uses = Vec::new();
        derived_uses(&rule.body, true, predicates, &mut body_uses);
        uses.push((rule.head, body_uses));
    }
    let limit = predicates.len() + 1;
    let mut changed = true;
    while changed {
        changed = false;
        for (head, body_uses) in &uses {
            for &(used, positive) in body_uses {
                let needed = if positive {
                    stratum[used]
                } else {
                    stratum[used] + 1
                };
                if stratum[*head] < needed {
                    stratum[*head] = needed;
                    if needed > limit {
                        return Err(predicates[*head].name.clone());
                    }
                    changed = true;
                }
            }
        }
    }
    let top = rules.iter().map(|r| stratum[r.head]).max().unwrap_or(0);
    let mut strata: Vec<Vec<DerivedRule>> = (0..=top).map(|_| Vec::new()).collect();
    for rule in rules {
        strata[stratum[rule.head]].push(rule);
    }
    strata.retain(|s| !s.is_empty());
    Ok(strata)
}

/// Derived predicates used in `cond`, with whether each use is positive.
/// Uses under `forall`, `imply`'s condition or `not` count as negative
/// where they flip polarity; an `=`-free quantifier keeps polarity.
fn derived_uses(
    cond: &Cond,
    positive: bool,
    predicates: &[PredicateInfo],
    out: &mut Vec<(PredId, bool)>,
) {
    match &cond.kind {
        CondKind::Atom(pred, _) => {
            if predicates[*pred].derived {
                out.push((*pred, positive));
            }
        }
        CondKind::Eq(..) | CondKind::Compare(..) => {}
        CondKind::Not(inner) => derived_uses(inner, !positive, predicates, out),
        CondKind::And(parts) | CondKind::Or(parts) => {
            for part in parts {
                derived_uses(part, positive, predicates, out);
            }
        }
        CondKind::Imply(a, b) => {
            derived_uses(a, !positive, predicates, out);
            derived_uses(b, positive, predicates, out);
        }
        CondKind::Exists(_, body) => derived_uses(body, positive, predicates, out),
        // A universal quantifier is a conjunction over objects: polarity kept.
        CondKind::Forall(_, body) => derived_uses(body, positive, predicates, out),
    }
}

/// Resolves a declared predicate or function (`kind`) by name and checks that
/// it is given `arity` arguments.
fn resolve_symbol(
    kind: &str,
    ids: &HashMap<String, usize>,
    arity_of: impl Fn(usize) -> usize,
    name: &ast::Name,
    arity: usize,
    span: Span,
    file: InputFile,
) -> Result<usize, SetupError> {
    let Some(&id) = ids.get(name.as_str()) else {
        return Err(SetupError::error(
            file,
            format!("unknown {kind} `{name}`"),
            name.span,
        ));
    };
    let expected = arity_of(id);
    if expected != arity {
        return Err(SetupError::error(
            file,
            format!("{kind} `{name}` takes {expected} argument(s), {arity} given"),
            span,
        ));
    }
    Ok(id)
}
