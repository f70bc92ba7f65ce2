//! The ground task: what every search engine runs on.
//!
//! Facts, numeric fluents and operators are identified by dense integer
//! ids (indices into the vectors of [`Task`]). Facts that never change
//! have been compiled away: every fact id here can change value.

use std::fmt;
use std::sync::Arc;

/// Index of a propositional fact in [`Task::facts`].
pub type FactId = u32;
/// Index of a numeric fluent in [`Task::fluents`].
pub type FluentId = u32;
/// Index of an operator in [`Task::operators`].
pub type OperatorId = u32;
/// Operator cost: a non-negative integer (PDDL costs must be integral to
/// become operator costs; see [`CostModel`]).
pub type Cost = u64;

/// A name in a ground task (of a predicate, function, action or object),
/// lower case. Shared: the copies in every atom and operator that use a
/// name cost a reference count each, not an allocation (grounding a
/// 60-block blocks-world task took 30 % longer with a `String` each).
/// It reads as a `str` and compares with one.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(Arc<str>);

impl Name {
    /// The name as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Name {
    fn from(name: &str) -> Self {
        Name(name.into())
    }
}

impl From<String> for Name {
    fn from(name: String) -> Self {
        Name(name.into())
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        *self == *other.0
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        **self == *other.0
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        **self == *other.0
    }
}

/// A ground atom such as `(on a b)`: predicate and object names, lower case.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroundAtom {
    /// Predicate (or function) name.
    pub predicate: Name,
    /// Object names in order.
    pub args: Vec<Name>,
}

impl fmt::Display for GroundAtom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}", self.predicate)?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        f.write_str(")")
    }
}

impl GroundAtom {
    /// Whether the grounder made this atom up (`(@goal)` for a goal of
    /// several alternatives, `(@or n)` for a disjunction inside a
    /// condition...): such atoms name nothing in the files, so messages
    /// do not show them. The parser refuses names of the files that start
    /// with `@`.
    pub fn is_grounder_own(&self) -> bool {
        self.predicate.starts_with('@')
    }
}

/// A ground numeric expression over fluent ids.
#[derive(Clone, Debug, PartialEq)]
pub enum NumExpr {
    /// A constant.
    Const(f64),
    /// The current value of a fluent.
    Fluent(FluentId),
    /// Unary minus.
    Neg(Box<NumExpr>),
    /// `a + b`.
    Add(Box<NumExpr>, Box<NumExpr>),
    /// `a - b`.
    Sub(Box<NumExpr>, Box<NumExpr>),
    /// `a * b`.
    Mul(Box<NumExpr>, Box<NumExpr>),
    /// `a / b`.
    Div(Box<NumExpr>, Box<NumExpr>),
}

impl NumExpr {
    /// Evaluates the expression; `None` when a fluent is undefined (NaN)
    /// or a division by zero occurs.
    pub fn eval(&self, fluents: &[f64]) -> Option<f64> {
        let v = match self {
            NumExpr::Const(c) => *c,
            NumExpr::Fluent(f) => fluents[*f as usize],
            NumExpr::Neg(a) => -a.eval(fluents)?,
            NumExpr::Add(a, b) => a.eval(fluents)? + b.eval(fluents)?,
            NumExpr::Sub(a, b) => a.eval(fluents)? - b.eval(fluents)?,
            NumExpr::Mul(a, b) => a.eval(fluents)? * b.eval(fluents)?,
            NumExpr::Div(a, b) => {
                let d = b.eval(fluents)?;
                if d == 0.0 {
                    return None;
                }
                a.eval(fluents)? / d
            }
        };
        (!v.is_nan()).then_some(v)
    }

    /// Calls `f` on every fluent the expression reads, in order.
    pub fn for_each_fluent(&self, f: &mut impl FnMut(FluentId)) {
        match self {
            NumExpr::Const(_) => {}
            NumExpr::Fluent(id) => f(*id),
            NumExpr::Neg(a) => a.for_each_fluent(f),
            NumExpr::Add(a, b) | NumExpr::Sub(a, b) | NumExpr::Mul(a, b) | NumExpr::Div(a, b) => {
                a.for_each_fluent(f);
                b.for_each_fluent(f);
            }
        }
    }
}

/// Numeric effect operators (same meaning as in the syntax crate).
pub use pddl_syntax::ast::AssignOp;
/// Numeric comparison operators (same meaning as in the syntax crate).
pub use pddl_syntax::ast::Comparison;

/// A ground numeric condition `lhs OP rhs`.
#[derive(Clone, Debug, PartialEq)]
pub struct NumCondition {
    /// Comparison operator.
    pub op: Comparison,
    /// Left-hand side.
    pub lhs: NumExpr,
    /// Right-hand side.
    pub rhs: NumExpr,
}

impl NumCondition {
    /// Whether the condition holds; false when either side is undefined.
    pub fn holds(&self, fluents: &[f64]) -> bool {
        match (self.lhs.eval(fluents), self.rhs.eval(fluents)) {
            (Some(a), Some(b)) => self.op.holds(a, b),
            _ => false,
        }
    }
}

/// A ground numeric effect `(op fluent expr)`.
#[derive(Clone, Debug, PartialEq)]
pub struct NumEffect {
    /// Effect operator.
    pub op: AssignOp,
    /// The fluent changed.
    pub fluent: FluentId,
    /// Right-hand side, evaluated in the state before the step.
    pub expr: NumExpr,
}

/// A conjunction of ground literals and numeric conditions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conjunction {
    /// Facts that must be true.
    pub pos: Vec<FactId>,
    /// Facts that must be false.
    pub neg: Vec<FactId>,
    /// Numeric conditions that must hold.
    pub numeric: Vec<NumCondition>,
}

impl Conjunction {
    /// Whether the conjunction has no conditions at all.
    pub fn is_empty(&self) -> bool {
        self.pos.is_empty() && self.neg.is_empty() && self.numeric.is_empty()
    }

    /// Calls `f` on every fluent its numeric conditions read, in order.
    pub fn for_each_fluent(&self, f: &mut impl FnMut(FluentId)) {
        for n in &self.numeric {
            n.lhs.for_each_fluent(f);
            n.rhs.for_each_fluent(f);
        }
    }
}

/// Effects that take place when their condition holds in the state before
/// the step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConditionalEffect {
    /// Condition, evaluated in the state before the step.
    pub condition: Conjunction,
    /// Facts made true.
    pub add: Vec<FactId>,
    /// Facts made false (an add of the same step wins).
    pub del: Vec<FactId>,
    /// Numeric effects.
    pub numeric: Vec<NumEffect>,
}

/// A ground operator.
#[derive(Clone, Debug, PartialEq)]
pub struct Operator {
    /// Action schema name, lower case.
    pub name: Name,
    /// Object names bound to the schema's parameters, in order.
    pub args: Vec<Name>,
    /// Precondition.
    pub precondition: Conjunction,
    /// Unconditional facts made true.
    pub add: Vec<FactId>,
    /// Unconditional facts made false (an add of the same step wins).
    pub del: Vec<FactId>,
    /// Unconditional numeric effects.
    pub numeric: Vec<NumEffect>,
    /// Conditional effects.
    pub conditional: Vec<ConditionalEffect>,
    /// Cost (see [`Task::cost_model`]).
    pub cost: Cost,
}

impl Operator {
    /// The operator as an IPC plan line: `(name arg1 arg2)`.
    pub fn plan_line(&self) -> String {
        let mut s = format!("({}", self.name);
        for a in &self.args {
            s.push(' ');
            s.push_str(a);
        }
        s.push(')');
        s
    }
}

/// A derived-predicate rule: `head` becomes true when `body` holds.
/// Axioms are evaluated to a fixpoint, stratum by stratum, after each
/// step; derived facts are false unless derived.
#[derive(Clone, Debug, PartialEq)]
pub struct Axiom {
    /// The derived fact.
    pub head: FactId,
    /// The rule body; negative literals only mention facts of lower strata.
    pub body: Conjunction,
    /// Stratum (0 = lowest); evaluate strata in increasing order.
    pub stratum: u32,
}

/// How operator costs relate to the problem's metric.
#[derive(Clone, Debug, PartialEq)]
pub enum CostModel {
    /// No metric: every operator costs 1.
    Unit,
    /// The metric minimises a sum of fluents that operators only increase
    /// (and of `total-time`, one per step) by state-independent
    /// non-negative amounts with at most
    /// [`MAX_COST_DECIMALS`] decimal places; those increments, times
    /// `scale`, are the operator costs (each at most
    /// [`MAX_OPERATOR_COST`]), and the fluents were removed from
    /// the state. `offset` is the metric value in the initial state, so a
    /// plan's metric value is `offset + cost / scale`.
    FromMetric {
        /// The metric's fluents, e.g. `total-cost`, and `(total-time)`
        /// where the metric counts it (each step adds one: the actions are
        /// instantaneous, one after the other).
        fluents: Vec<String>,
        /// Value of the metric in the initial state.
        offset: f64,
        /// Operator cost units per unit of the metric: 1 where every
        /// increment is an integer, else the smallest power of ten that
        /// makes every increment one (satellite's slews of 18.17 cost
        /// 1 817 at scale 100), so that searches add integers exactly.
        scale: Cost,
    },
    /// There is a metric, but it could not be turned into costs: operators
    /// cost 1 and the metric's fluents stay in the state.
    NotOptimised {
        /// Why not, for the user.
        reason: String,
    },
}

/// Most decimal places an increment of the metric may have to become an
/// operator cost (see [`CostModel::FromMetric`]).
pub const MAX_COST_DECIMALS: u32 = 6;

/// The largest cost an operator may have, in cost units (2^32 − 1): a
/// plan found by search has fewer than 2^32 steps, so no plan's cost
/// overflows a [`Cost`]. A metric whose increments would cost more falls
/// back to [`CostModel::NotOptimised`].
pub const MAX_OPERATOR_COST: Cost = u32::MAX as Cost;

impl CostModel {
    /// Operator cost units per unit of the metric (1 unless
    /// [`CostModel::FromMetric`] scaled decimal increments).
    pub fn scale(&self) -> Cost {
        match self {
            CostModel::FromMetric { scale, .. } => *scale,
            CostModel::Unit | CostModel::NotOptimised { .. } => 1,
        }
    }

    /// A cost (of a plan, a bound, a heuristic value) in units of the
    /// metric.
    pub fn in_metric_units(&self, cost: Cost) -> f64 {
        cost as f64 / self.scale() as f64
    }

    /// The metric's value after a plan of cost `cost` when the metric
    /// became operator costs (`offset + cost / scale`), `None` otherwise.
    /// Summed in cost units where the offset is a whole number of them,
    /// so that a decimal value is the double nearest to it (0.3, where
    /// `0.1 + 0.2` gives 0.30000000000000004).
    pub fn metric_value_of(&self, cost: Cost) -> Option<f64> {
        let CostModel::FromMetric { offset, scale, .. } = self else {
            return None;
        };
        let scale = *scale as f64;
        let offset_units = offset * scale;
        let whole_units = offset_units.round();
        Some(
            if (offset_units - whole_units).abs() <= 1e-9 * scale.max(offset_units.abs())
                && whole_units.abs() < (1u64 << 53) as f64
            {
                (whole_units + cost as f64) / scale
            } else {
                offset + cost as f64 / scale
            },
        )
    }

    /// A cost shown in units of the metric, exactly: `1817` at scale 100
    /// shows as `18.17`.
    pub fn display_cost(&self, cost: Cost) -> CostDisplay {
        CostDisplay::at_scale(cost, self.scale())
    }
}

/// A cost in units of the metric as exact decimal text (see
/// [`CostModel::display_cost`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CostDisplay {
    cost: Cost,
    scale: Cost,
}

impl CostDisplay {
    /// `cost` in cost units of which `scale` (a power of ten) make one
    /// unit of the metric.
    pub(crate) fn at_scale(cost: Cost, scale: Cost) -> CostDisplay {
        CostDisplay { cost, scale }
    }
}

impl fmt::Display for CostDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.cost / self.scale.max(1);
        let mut fraction = self.cost % self.scale.max(1);
        if fraction == 0 {
            return write!(f, "{whole}");
        }
        // The scale is a power of ten: its digits after the leading 1.
        let mut digits = self.scale.ilog10() as usize;
        while fraction.is_multiple_of(10) {
            fraction /= 10;
            digits -= 1;
        }
        write!(f, "{whole}.{fraction:0digits$}")
    }
}

/// The problem's metric, as a ground expression over fluent ids.
#[derive(Clone, Debug, PartialEq)]
pub struct GroundMetric {
    /// `true` for minimize.
    pub minimize: bool,
    /// The expression (fluents compiled into costs are absent: see
    /// [`CostModel::FromMetric`]).
    pub expr: NumExpr,
}

/// A ground planning task.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    /// Domain name.
    pub domain_name: String,
    /// Problem name.
    pub problem_name: String,
    /// Fact names; a fact's id is its index.
    pub facts: Vec<GroundAtom>,
    /// Numeric fluent names; a fluent's id is its index.
    pub fluents: Vec<GroundAtom>,
    /// Operators, in a deterministic order.
    pub operators: Vec<Operator>,
    /// Derived-predicate rules.
    pub axioms: Vec<Axiom>,
    /// Facts true in the initial state (sorted, before axioms). The task
    /// holds the operators relaxed reachability found from these facts:
    /// starting elsewhere, some plans may need operators it lacks.
    pub init_facts: Vec<FactId>,
    /// Initial fluent values, indexed by fluent id; NaN means undefined.
    pub init_fluents: Vec<f64>,
    /// The goal. Grounding drops the operators and facts that cannot
    /// matter for it (unless [`crate::GroundOptions::keep_irrelevant`]), so to plan
    /// for other goals in one ground task, ground it with that option.
    pub goal: Conjunction,
    /// The metric, if the problem has one.
    pub metric: Option<GroundMetric>,
    /// How operator costs were obtained.
    pub cost_model: CostModel,
    /// Classes of interchangeable objects (names, sorted; two or more per
    /// class): permuting objects within classes maps every state to one
    /// with the same goal distance (see the grounder's `symmetry` module).
    /// They depend on the operators, the static facts and the goal, not
    /// on the dynamic initial facts. A caller that changes the goal may
    /// leave them as they are (the search drops the classes the goal
    /// tells apart); one that changes operators must clear them or search
    /// without symmetry reduction.
    pub interchangeable_objects: Vec<Vec<String>>,
    /// Where grounding found that no state can satisfy the goal, the goal
    /// literals that made it so, in the goal's order (an atom nothing can
    /// make true, even ignoring delete effects, a static fact of the wrong
    /// value, an atom needed false that is true at first and that nothing
    /// deletes, or a comparison of unchanging fluents that is false); empty
    /// otherwise, also where an equality made the goal false.
    pub impossible_goal: Vec<ImpossibleLiteral>,
    /// Where the goal keeps some of its alternatives: the literals that
    /// grounding found can never hold, as in [`Task::impossible_goal`],
    /// which took the others away (`(or (at city) (at shop))` with no
    /// road to the city: `(at city)`); empty otherwise. They complete a
    /// reason found later for a task without a plan.
    pub dropped_goal_literals: Vec<ImpossibleLiteral>,
    /// Operators left out because their unconditional numeric effects
    /// change one fluent twice in one step, which PDDL 2.1 leaves
    /// undefined (the validator rejects such a step): usually two
    /// parameters naming the same object, as `(move a a)` with
    /// `(decrease (load ?from) 1)` and `(increase (load ?to) 1)`.
    pub double_updates: DoubleUpdates,
}

/// The operators grounding left out because they change one fluent twice
/// ([`Task::double_updates`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DoubleUpdates {
    /// How many.
    pub dropped: usize,
    /// The first of them, as a plan line, with the fluent it changes twice.
    pub example: Option<(String, GroundAtom)>,
}

/// A goal literal that no state reachable from the initial one satisfies
/// ([`Task::impossible_goal`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImpossibleLiteral {
    /// An atom the goal needs true (`positive`) or false that nothing can
    /// make so.
    Atom {
        /// The atom.
        atom: GroundAtom,
        /// Whether the goal needs it true (else false).
        positive: bool,
    },
    /// A numeric comparison false in the initial state whose fluents no
    /// action changes, written with their names, as `(> (capacity) 10)`.
    Comparison(String),
}

impl fmt::Display for ImpossibleLiteral {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImpossibleLiteral::Atom {
                atom,
                positive: true,
            } => write!(f, "{atom}"),
            ImpossibleLiteral::Atom {
                atom,
                positive: false,
            } => write!(f, "(not {atom})"),
            ImpossibleLiteral::Comparison(text) => f.write_str(text),
        }
    }
}

impl Task {
    /// Whether any operator has a cost other than 1.
    pub fn has_general_costs(&self) -> bool {
        self.operators.iter().any(|o| o.cost != 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costs_show_in_units_of_the_metric() {
        let at = |scale| CostModel::FromMetric {
            fluents: Vec::new(),
            offset: 0.0,
            scale,
        };
        let shown = |model: &CostModel, cost| model.display_cost(cost).to_string();
        assert_eq!(shown(&CostModel::Unit, 1817), "1817");
        assert_eq!(shown(&at(1), 0), "0");
        assert_eq!(shown(&at(100), 1817), "18.17");
        assert_eq!(shown(&at(100), 1810), "18.1");
        assert_eq!(shown(&at(100), 1800), "18");
        assert_eq!(shown(&at(100), 5), "0.05");
        assert_eq!(shown(&at(100_000), 59_343_345), "593.43345");
        assert_eq!(shown(&at(1_000_000), 1), "0.000001");
        assert_eq!(at(100).in_metric_units(1817), 18.17);
        let from = |offset, scale| CostModel::FromMetric {
            fluents: Vec::new(),
            offset,
            scale,
        };
        assert_eq!(0.1 + 20.0 / 100.0, 0.30000000000000004);
        assert_eq!(from(0.1, 100).metric_value_of(20), Some(0.3));
        assert_eq!(from(2.0, 1).metric_value_of(3), Some(5.0));
        assert_eq!(
            from(1.0 / 3.0, 10).metric_value_of(5),
            Some(1.0 / 3.0 + 0.5)
        );
        assert_eq!(CostModel::Unit.metric_value_of(3), None);
    }

    #[test]
    fn a_name_reads_and_compares_as_its_string() {
        let name = Name::from("on");
        assert_eq!(name, "on");
        assert_eq!("on", name);
        assert_eq!(name, String::from("on"));
        assert_eq!(String::from("on"), name);
        assert_ne!(name, "off");
        assert_eq!(name.as_str(), "on");
        assert_eq!(name.len(), 2);
        assert_eq!(format!("{name} {name:?}"), "on \"on\"");
        let mut by_name = hashbrown::HashMap::new();
        by_name.insert(name.clone(), 1);
        assert_eq!(by_name.get("on"), Some(&1));
        // Copies share one string.
        assert!(Arc::ptr_eq(&name.0, &name.clone().0));
    }
}
