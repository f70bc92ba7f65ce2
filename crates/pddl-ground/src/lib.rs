//! Grounding: a checked PDDL domain and problem become a ground [`Task`]
//! with dense integer ids, conditional effects and numeric fluents.
//!
//! The pipeline:
//! 1. Normalisation (`normalize.rs`): types become object sets, conditions are put in
//!    negation normal form (`imply` removed, negations pushed to literals,
//!    negated comparisons flipped), effects are flattened into groups
//!    sharing one `forall` prefix and one `when` condition, and
//!    predicates/functions are classified as static, fluent or derived.
//! 2. Reachability (`datalog.rs`): relaxed reachability. Every action, effect and derived
//!    rule becomes a Datalog rule over its positive preconditions (plus a
//!    type test per variable: a filter where another atom binds the
//!    variable, an atom of its own where none does); a semi-naive,
//!    queue-driven fixpoint with
//!    joins ordered by shared variables finds the reachable facts and the
//!    applicable parameter bindings, never enumerating the full product
//!    (and, once a rule's head is bound, never past a fact derived
//!    already).
//! 3. Instantiation (`instantiate.rs`): each reachable binding becomes operators. Static
//!    facts, equality and static functions are evaluated; quantifiers in
//!    conditions are expanded over the (finite) object sets; disjunctive
//!    preconditions are split into one operator per disjunct of the
//!    (simplified, ground) DNF, as long as it has at most 256 disjuncts;
//!    beyond that (and for conditions of conditional effects with numeric
//!    effects, which must not be applied twice) each disjunction becomes an
//!    auxiliary derived fact `(@or n)` with one axiom per disjunct.
//!    A disjunctive goal becomes a derived `(@goal)` fact the same way.
//!    `forall`/`when` effects stay conditional effects; their bindings are
//!    enumerated as a join (`bindings.rs`): a variable takes only the
//!    values that a positive literal of the condition pairs with those
//!    bound before it (static atoms, reachable facts), and a static
//!    conjunct that fails rules out every binding sharing the values it
//!    uses. Derived predicates
//!    become stratified axioms. Top-level existentials of a precondition
//!    are bound by reachability (one operator per reachable witness after
//!    simplification), nested quantifiers are expanded.
//!    Conditional effects of one operator with the same condition (and
//!    no numbers) become one effect as they are made
//!    (`merged_effects.rs`).
//! 4. Finishing (`finish.rs`): facts that never change are compiled away
//!    (effects whose conditions that makes equal are merged), metric
//!    fluents that only count costs become operator costs, what cannot
//!    matter for reaching the goal is removed (`relevance.rs`, unless
//!    [`GroundOptions::keep_irrelevant`]), and ids are renumbered in a
//!    sorted, deterministic order.
//! 5. Symmetry (`symmetry.rs`): classes of interchangeable objects, which
//!    search may use to treat symmetric states as one.
//!
//! Costs: a metric `minimize` of a non-negatively weighted sum of fluents
//! (`(total-cost)`, `(+ (* 2 (fuel-used)) (moves))`...) that operators
//! only `increase` by state-independent amounts (constants and static
//! functions, folded) becomes integer operator costs
//! ([`task::CostModel::FromMetric`]; increments with decimals, up to
//! [`task::MAX_COST_DECIMALS`] places, are scaled by a power of ten into
//! integers, each at most [`task::MAX_OPERATOR_COST`], so that no plan's
//! cost overflows); otherwise the fluents stay in the
//! state and operators cost 1 ([`task::CostModel::NotOptimised`], with the
//! reason). `total-time` in a metric counts the plan's steps (the actions
//! are instantaneous, one after the other, as the validator and VAL time
//! them), so a weighted sum with it adds its weight to every operator's
//! cost; a metric with `total-time` that cannot become costs has no
//! [`task::GroundMetric`] (the validator evaluates it).
//!
//! Limits: [`GroundOptions::max_operators`] and
//! [`GroundOptions::max_facts`] stop grounding with an error before memory
//! runs out, and [`GroundOptions::stop`] (a deadline, a memory limit, a
//! cancellation flag) with [`GroundError::Stopped`] when the caller says;
//! conditions deeper than 600 levels and quantifier expansions above two
//! million nodes per condition are refused as unsupported.

#![warn(missing_docs)]

mod bindings;
pub(crate) mod datalog;
pub mod dump;
mod finish;
mod instantiate;
mod merged_effects;
pub(crate) mod normalize;
mod relevance;
mod stop;
mod symmetry;
pub mod task;

pub use task::Task;

use pddl_syntax::Diagnostic;
use pddl_syntax::ast::{Domain, Problem};
use std::time::{Duration, Instant};

/// Limits and switches for grounding.
#[derive(Clone)]
pub struct GroundOptions<'s> {
    /// Stop with [`GroundError::TooManyOperators`] once this many operators
    /// (or applicable bindings of one action) have been instantiated, or
    /// four times as many conditional effects (counted once per operator
    /// that has them), or one operator would have as many effects.
    pub max_operators: usize,
    /// Stop with [`GroundError::TooManyFacts`] once relaxed reachability
    /// has found this many facts.
    pub max_facts: usize,
    /// Asked every few tenths of a millisecond of work; once it returns
    /// true, grounding stops with [`GroundError::Stopped`] (a large
    /// partial task is then freed on a thread of its own: that takes
    /// seconds, which the caller does not wait for). A time limit
    /// or a cancellation flag shared with another thread goes here.
    /// `None`: grounding runs until it ends or a limit above stops it.
    pub stop: Option<&'s dyn Fn() -> bool>,
    /// Keep the operators, conditional effects, axioms and facts that
    /// cannot matter for reaching the goal. By default they are removed
    /// (relevance analysis, as Fast Downward's translator does; plans,
    /// solvability and optimal costs stay the same). Keeping them gives
    /// the ground task every reachable transition of the lifted model,
    /// which tests comparing the two rely on.
    pub keep_irrelevant: bool,
}

impl Default for GroundOptions<'_> {
    /// Sized for a 24 GB machine: a ground operator takes a few hundred
    /// bytes, a reachable fact well under a hundred. No stop condition.
    fn default() -> Self {
        GroundOptions {
            max_operators: 5_000_000,
            max_facts: 20_000_000,
            stop: None,
            keep_irrelevant: false,
        }
    }
}

impl std::fmt::Debug for GroundOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroundOptions")
            .field("max_operators", &self.max_operators)
            .field("max_facts", &self.max_facts)
            .field("stop", &self.stop.map(|_| "condition"))
            .field("keep_irrelevant", &self.keep_irrelevant)
            .finish()
    }
}

/// Why grounding failed.
#[derive(Debug, thiserror::Error)]
pub enum GroundError {
    /// The problem uses something this grounder does not support; the
    /// diagnostic names it and points at it (span in the `in_problem` file
    /// when `true`, in the domain file otherwise).
    #[error("unsupported: {}", .diagnostic.message)]
    Unsupported {
        /// What and where.
        diagnostic: Diagnostic,
        /// Whether the span refers to the problem file.
        in_problem: bool,
    },
    /// The input is wrong in a way the semantic checks should have caught
    /// (an undeclared name, a wrong arity...): grounding refuses it rather
    /// than guessing.
    #[error("invalid input: {}", .diagnostic.message)]
    Invalid {
        /// What and where.
        diagnostic: Diagnostic,
        /// Whether the span refers to the problem file.
        in_problem: bool,
    },
    /// An action instantiated more operators than allowed.
    #[error("grounding stopped: action `{action}` would exceed the limit of {limit} operators")]
    TooManyOperators {
        /// The action schema that blew up.
        action: String,
        /// The limit in force.
        limit: usize,
    },
    /// Relaxed reachability found more facts than allowed.
    #[error("grounding stopped: more than {limit} reachable facts")]
    TooManyFacts {
        /// The limit in force.
        limit: usize,
    },
    /// [`GroundOptions::stop`] said stop before grounding ended.
    #[error("grounding stopped before it ended (the caller's stop condition)")]
    Stopped,
}

impl GroundError {
    /// The diagnostic and whether it belongs to the problem file, for the
    /// errors that point into the input.
    pub fn diagnostic(&self) -> Option<(&Diagnostic, bool)> {
        match self {
            GroundError::Unsupported {
                diagnostic,
                in_problem,
            }
            | GroundError::Invalid {
                diagnostic,
                in_problem,
            } => Some((diagnostic, *in_problem)),
            _ => None,
        }
    }
}

/// Figures about one grounding run, for `plan ground --stats`.
#[derive(Clone, Debug, Default)]
pub struct GroundStats {
    /// Objects (constants and problem objects).
    pub objects: usize,
    /// Facts found reachable by the relaxed analysis (all predicates,
    /// static ones and type facts included), before compaction.
    pub relaxed_facts: usize,
    /// Operators removed as irrelevant for the goal (see
    /// [`GroundOptions::keep_irrelevant`]).
    pub irrelevant_operators: usize,
    /// Ground operators per action schema, in domain order (after that
    /// removal).
    pub operators_per_action: Vec<(String, usize)>,
    /// Time to normalise the domain and problem.
    pub normalise_time: Duration,
    /// Time of the relaxed reachability fixpoint.
    pub reachability_time: Duration,
    /// Time to instantiate operators, axioms and goal, and to finish the
    /// task (constant facts, costs, renumbering).
    pub instantiate_time: Duration,
}

/// Grounds a domain and problem that passed [`pddl_syntax::check`].
pub fn ground(
    domain: &Domain,
    problem: &Problem,
    options: &GroundOptions,
) -> Result<Task, GroundError> {
    ground_with_stats(domain, problem, options).map(|(task, _)| task)
}

/// Grounds like [`ground`] and also returns figures about the run.
pub fn ground_with_stats(
    domain: &Domain,
    problem: &Problem,
    options: &GroundOptions,
) -> Result<(Task, GroundStats), GroundError> {
    let mut stats = GroundStats::default();
    let start = Instant::now();
    let model = normalize::normalize(domain, problem)?;
    stats.objects = model.objects.len();
    stats.normalise_time = start.elapsed();

    let start = Instant::now();
    let reach = datalog::reachability(&model, options)?;
    stats.relaxed_facts = reach.total_facts();
    stats.reachability_time = start.elapsed();

    let start = Instant::now();
    let raw = instantiate::instantiate(&model, &reach, options)?;
    let stop = stop::StopPoll::new(options.stop);
    let (mut task, irrelevant) = finish::finish(&model, raw, !options.keep_irrelevant, &stop)?;
    stats.irrelevant_operators = irrelevant;
    task.interchangeable_objects = symmetry::interchangeable_objects(&model, &task);
    stats.instantiate_time = start.elapsed();
    stats.operators_per_action = model
        .actions
        .iter()
        .map(|a| {
            (
                a.name.clone(),
                task.operators.iter().filter(|o| o.name == a.name).count(),
            )
        })
        .collect();
    Ok((task, stats))
}
