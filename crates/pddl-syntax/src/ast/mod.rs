//! The abstract syntax tree of a PDDL domain or problem.
//!
//! Every node carries the byte [`Span`] of the source text it was parsed
//! from. Names are stored in lower case (PDDL is case-insensitive); the
//! original spelling stays recoverable through the span. Equality on the
//! tree is span-sensitive; use [`crate::ast::print`] output or
//! [`Eq`] after [`crate::ast::visitor::clear_spans`] to compare modulo spans.

pub mod parse;
pub mod print;
pub mod visitor;

use std::fmt;

/// A half-open byte range `start..end` into the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A name (of a type, object, predicate, function, action, domain...),
/// normalised to lower case.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Name {
    /// The lower-case text.
    pub text: String,
    /// Where it was written.
    pub span: Span,
}

impl Name {
    /// A name with the given (already lower-case) text.
    pub fn new(text: impl Into<String>, span: Span) -> Name {
        Name {
            text: text.into(),
            span,
        }
    }

    /// The lower-case text.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A variable such as `?x`; `name` holds the lower-case text without the `?`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variable {
    /// The lower-case name without the leading `?`.
    pub name: String,
    /// Where it was written, including the `?`.
    pub span: Span,
}

impl fmt::Display for Variable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "?{}", self.name)
    }
}

/// A term: a constant/object name or a variable.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// An object or constant.
    Name(Name),
    /// A variable bound by a parameter list or quantifier.
    Variable(Variable),
}

impl Term {
    /// The source span of the term.
    pub fn span(&self) -> Span {
        match self {
            Term::Name(n) => n.span,
            Term::Variable(v) => v.span,
        }
    }
}

/// A type expression after `-`: a single type or `(either t1 t2 ...)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// A single named type.
    Name(Name),
    /// `(either t1 t2 ...)`.
    Either(Vec<Name>, Span),
}

impl Type {
    /// The named types this expression allows.
    pub fn names(&self) -> &[Name] {
        match self {
            Type::Name(n) => std::slice::from_ref(n),
            Type::Either(ns, _) => ns,
        }
    }

    /// The source span of the type expression.
    pub fn span(&self) -> Span {
        match self {
            Type::Name(n) => n.span,
            Type::Either(_, s) => *s,
        }
    }
}

/// An entry of a typed list of names (`a b - t`): `ty` is `None` when no
/// type was given, which means `object`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypedName {
    /// The declared name.
    pub name: Name,
    /// Its declared type, `None` for the implicit `object`.
    pub ty: Option<Type>,
}

/// An entry of a typed list of variables (`?a ?b - t`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypedVariable {
    /// The declared variable.
    pub var: Variable,
    /// Its declared type, `None` for the implicit `object`.
    pub ty: Option<Type>,
}

/// A predicate or function applied to arguments: `(on ?x b)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atom<T> {
    /// Predicate (or function) name.
    pub predicate: Name,
    /// Arguments in order.
    pub args: Vec<T>,
    /// The whole `( ... )`.
    pub span: Span,
}

/// A requirement flag such as `:strips`, with its span.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RequirementFlag {
    /// Which requirement.
    pub requirement: Requirement,
    /// Where it was written.
    pub span: Span,
}

/// Every requirement keyword of PDDL 3.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Requirement {
    Strips,
    Typing,
    NegativePreconditions,
    DisjunctivePreconditions,
    Equality,
    ExistentialPreconditions,
    UniversalPreconditions,
    QuantifiedPreconditions,
    ConditionalEffects,
    Fluents,
    NumericFluents,
    ObjectFluents,
    Adl,
    DurativeActions,
    DurationInequalities,
    ContinuousEffects,
    DerivedPredicates,
    TimedInitialLiterals,
    Preferences,
    Constraints,
    ActionCosts,
}

impl Requirement {
    /// All requirements, in declaration order.
    pub const ALL: [Requirement; 21] = [
        Requirement::Strips,
        Requirement::Typing,
        Requirement::NegativePreconditions,
        Requirement::DisjunctivePreconditions,
        Requirement::Equality,
        Requirement::ExistentialPreconditions,
        Requirement::UniversalPreconditions,
        Requirement::QuantifiedPreconditions,
        Requirement::ConditionalEffects,
        Requirement::Fluents,
        Requirement::NumericFluents,
        Requirement::ObjectFluents,
        Requirement::Adl,
        Requirement::DurativeActions,
        Requirement::DurationInequalities,
        Requirement::ContinuousEffects,
        Requirement::DerivedPredicates,
        Requirement::TimedInitialLiterals,
        Requirement::Preferences,
        Requirement::Constraints,
        Requirement::ActionCosts,
    ];

    /// The keyword as written in PDDL, with its leading colon.
    pub fn keyword(self) -> &'static str {
        match self {
            Requirement::Strips => ":strips",
            Requirement::Typing => ":typing",
            Requirement::NegativePreconditions => ":negative-preconditions",
            Requirement::DisjunctivePreconditions => ":disjunctive-preconditions",
            Requirement::Equality => ":equality",
            Requirement::ExistentialPreconditions => ":existential-preconditions",
            Requirement::UniversalPreconditions => ":universal-preconditions",
            Requirement::QuantifiedPreconditions => ":quantified-preconditions",
            Requirement::ConditionalEffects => ":conditional-effects",
            Requirement::Fluents => ":fluents",
            Requirement::NumericFluents => ":numeric-fluents",
            Requirement::ObjectFluents => ":object-fluents",
            Requirement::Adl => ":adl",
            Requirement::DurativeActions => ":durative-actions",
            Requirement::DurationInequalities => ":duration-inequalities",
            Requirement::ContinuousEffects => ":continuous-effects",
            Requirement::DerivedPredicates => ":derived-predicates",
            Requirement::TimedInitialLiterals => ":timed-initial-literals",
            Requirement::Preferences => ":preferences",
            Requirement::Constraints => ":constraints",
            Requirement::ActionCosts => ":action-costs",
        }
    }

    /// Looks a keyword up (lower case, with the leading colon).
    pub fn from_keyword(keyword: &str) -> Option<Requirement> {
        Requirement::ALL
            .into_iter()
            .find(|r| r.keyword() == keyword)
    }

    /// The requirements this one implies (itself included), e.g. `:adl`
    /// implies `:strips`, `:typing`, `:equality`, ...
    pub fn implied(self) -> Vec<Requirement> {
        use Requirement::*;
        let mut out = vec![self];
        match self {
            Adl => out.extend([
                Strips,
                Typing,
                NegativePreconditions,
                DisjunctivePreconditions,
                Equality,
                ExistentialPreconditions,
                UniversalPreconditions,
                QuantifiedPreconditions,
                ConditionalEffects,
            ]),
            QuantifiedPreconditions => {
                out.extend([ExistentialPreconditions, UniversalPreconditions])
            }
            Fluents => out.extend([NumericFluents, ObjectFluents]),
            _ => {}
        }
        out
    }
}

/// The declaration of a predicate or of the head of a derived predicate:
/// `(at ?x - locatable ?l - location)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PredicateDecl {
    /// Predicate name.
    pub name: Name,
    /// Typed parameters.
    pub params: Vec<TypedVariable>,
    /// The whole `( ... )`.
    pub span: Span,
}

/// The value type of a function declared in `:functions`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FunctionType {
    /// `- number`, or no type at all.
    Number,
    /// `- object` or another object type: an object fluent.
    Object(Type),
}

/// A function declared in `:functions`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FunctionDecl {
    /// Function name.
    pub name: Name,
    /// Typed parameters.
    pub params: Vec<TypedVariable>,
    /// Value type.
    pub ty: FunctionType,
    /// The `( ... )` of the declaration.
    pub span: Span,
}

/// An `(:action ...)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    /// Action name.
    pub name: Name,
    /// `:parameters`, empty when absent.
    pub parameters: Vec<TypedVariable>,
    /// `:precondition`, `None` when absent or `()`.
    pub precondition: Option<Condition>,
    /// `:effect`, `None` when absent or `()`.
    pub effect: Option<Effect>,
    /// The whole `(:action ...)`.
    pub span: Span,
}

/// A `(:derived (head ...) body)` rule.
#[derive(Clone, Debug, PartialEq)]
pub struct DerivedPredicate {
    /// The derived predicate with its parameters.
    pub head: PredicateDecl,
    /// The condition that makes the head true.
    pub body: Condition,
    /// The whole `(:derived ...)`.
    pub span: Span,
}

/// A PDDL domain.
#[derive(Clone, Debug, PartialEq)]
pub struct Domain {
    /// `(domain NAME)`.
    pub name: Name,
    /// `:requirements`; empty when absent (which means `:strips`).
    pub requirements: Vec<RequirementFlag>,
    /// `:types`, each with its parent type(s).
    pub types: Vec<TypedName>,
    /// `:constants`.
    pub constants: Vec<TypedName>,
    /// `:predicates`.
    pub predicates: Vec<PredicateDecl>,
    /// `:functions`.
    pub functions: Vec<FunctionDecl>,
    /// `:action`s in source order.
    pub actions: Vec<Action>,
    /// `:derived` rules in source order.
    pub derived: Vec<DerivedPredicate>,
    /// The whole `(define ...)`.
    pub span: Span,
}

/// A goal description / precondition.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    /// What kind of condition.
    pub kind: ConditionKind,
    /// The `( ... )` it was parsed from.
    pub span: Span,
}

/// The forms a condition can take.
#[derive(Clone, Debug, PartialEq)]
pub enum ConditionKind {
    /// An atom `(p t1 ... tn)`.
    Atom(Atom<Term>),
    /// `(= t1 t2)` on two terms (objects or variables).
    Equality(Term, Term),
    /// `(not c)`.
    Not(Box<Condition>),
    /// `(and c1 ... cn)`; `(and)` is true.
    And(Vec<Condition>),
    /// `(or c1 ... cn)`; `(or)` is false.
    Or(Vec<Condition>),
    /// `(imply a b)`.
    Imply(Box<Condition>, Box<Condition>),
    /// `(exists (vars) c)`.
    Exists(Vec<TypedVariable>, Box<Condition>),
    /// `(forall (vars) c)`.
    Forall(Vec<TypedVariable>, Box<Condition>),
    /// A numeric comparison `(< e1 e2)` etc.
    Compare(Comparison, Expr, Expr),
    /// `(preference [name] c)`: parsed, rejected later as unsupported.
    Preference(Option<Name>, Box<Condition>),
}

/// Numeric comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// `<`
    Less,
    /// `<=`
    LessEqual,
    /// `=`
    Equal,
    /// `>=`
    GreaterEqual,
    /// `>`
    Greater,
}

impl Comparison {
    /// The operator as written in PDDL.
    pub fn symbol(self) -> &'static str {
        match self {
            Comparison::Less => "<",
            Comparison::LessEqual => "<=",
            Comparison::Equal => "=",
            Comparison::GreaterEqual => ">=",
            Comparison::Greater => ">",
        }
    }

    /// Whether `a OP b` holds.
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Comparison::Less => a < b,
            Comparison::LessEqual => a <= b,
            Comparison::Equal => a == b,
            Comparison::GreaterEqual => a >= b,
            Comparison::Greater => a > b,
        }
    }
}

/// A numeric expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What kind of expression.
    pub kind: ExprKind,
    /// Where it was written.
    pub span: Span,
}

/// The forms a numeric expression can take.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A number literal (finite).
    Number(f64),
    /// A function term `(f t1 ... tn)`, including 0-ary `(total-cost)`.
    Fluent(Atom<Term>),
    /// Unary minus `(- e)`.
    Neg(Box<Expr>),
    /// A binary operation; n-ary `(+ a b c)` is parsed left-associatively.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `total-time`, only meaningful in a metric.
    TotalTime,
}

/// Binary arithmetic operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
}

impl BinaryOp {
    /// The operator as written in PDDL.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
        }
    }
}

/// An effect.
#[derive(Clone, Debug, PartialEq)]
pub struct Effect {
    /// What kind of effect.
    pub kind: EffectKind,
    /// Where it was written.
    pub span: Span,
}

/// The forms an effect can take.
#[derive(Clone, Debug, PartialEq)]
pub enum EffectKind {
    /// `(and e1 ... en)`.
    And(Vec<Effect>),
    /// `(forall (vars) e)`.
    Forall(Vec<TypedVariable>, Box<Effect>),
    /// `(when c e)`.
    When(Condition, Box<Effect>),
    /// An atom made true.
    Add(Atom<Term>),
    /// `(not atom)`: an atom made false.
    Delete(Atom<Term>),
    /// `(assign|increase|... (f args) expr)`.
    Numeric(AssignOp, Atom<Term>, Expr),
    /// `(assign (f args) term)` for an object fluent (or `undefined`,
    /// written as the name `undefined`).
    ObjectAssign(Atom<Term>, Term),
}

/// Numeric effect operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AssignOp {
    /// `assign`
    Assign,
    /// `increase`
    Increase,
    /// `decrease`
    Decrease,
    /// `scale-up`
    ScaleUp,
    /// `scale-down`
    ScaleDown,
}

impl AssignOp {
    /// The keyword as written in PDDL.
    pub fn keyword(self) -> &'static str {
        match self {
            AssignOp::Assign => "assign",
            AssignOp::Increase => "increase",
            AssignOp::Decrease => "decrease",
            AssignOp::ScaleUp => "scale-up",
            AssignOp::ScaleDown => "scale-down",
        }
    }

    /// The new value of a fluent whose old value is `old` when the
    /// right-hand side evaluates to `value`.
    pub fn apply(self, old: f64, value: f64) -> f64 {
        match self {
            AssignOp::Assign => value,
            AssignOp::Increase => old + value,
            AssignOp::Decrease => old - value,
            AssignOp::ScaleUp => old * value,
            AssignOp::ScaleDown => old / value,
        }
    }
}

/// One element of a problem's `:init`.
#[derive(Clone, Debug, PartialEq)]
pub enum InitElement {
    /// A true ground atom.
    Atom(Atom<Name>),
    /// `(not atom)`: allowed, and a no-op under the closed-world assumption.
    NotAtom(Atom<Name>),
    /// `(= (f a b) 3.5)`.
    NumericValue(Atom<Name>, f64, Span),
    /// `(= (f a) b)` for an object fluent.
    ObjectValue(Atom<Name>, Name, Span),
}

/// Optimisation direction of a metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Optimization {
    /// `minimize`
    Minimize,
    /// `maximize`
    Maximize,
}

/// `(:metric minimize|maximize expr)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    /// Direction.
    pub optimization: Optimization,
    /// The expression to optimise.
    pub expr: Expr,
    /// The whole `(:metric ...)`.
    pub span: Span,
}

/// A PDDL problem.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// `(problem NAME)`.
    pub name: Name,
    /// `(:domain NAME)`.
    pub domain: Name,
    /// `:requirements`.
    pub requirements: Vec<RequirementFlag>,
    /// `:objects`.
    pub objects: Vec<TypedName>,
    /// `:init`.
    pub init: Vec<InitElement>,
    /// `:goal`; `None` only if the section is missing (a checked error).
    pub goal: Option<Condition>,
    /// `:constraints`: parsed, rejected later as unsupported.
    pub constraints: Option<Condition>,
    /// `:metric`.
    pub metric: Option<Metric>,
    /// The whole `(define ...)`.
    pub span: Span,
}

/// A parsed PDDL file: either a domain or a problem.
// One value per parsed file: boxing would only add indirection.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Definition {
    /// `(define (domain ...) ...)`.
    Domain(Domain),
    /// `(define (problem ...) ...)`.
    Problem(Problem),
}
