//! Why a task is unsolvable from the start, where the relaxation can tell:
//! the goal literals that the delete relaxation with linear numeric
//! conditions (h_add's and h_FF's, see [`super::numeric`]) never reaches
//! from the initial state. Such a literal is out of reach in the task
//! itself, since the relaxation only ever allows more.

use pddl_ground::Task;
use pddl_ground::task::{Conjunction, FactId, NumCondition};

use super::numeric::NumericRelaxation;
use super::relaxation::{Combine, CostType, Exploration, INFINITE, RelaxedTask};
use crate::successor::StateSpace;

/// A literal of a task's goal ([`pddl_ground::Task::goal`]), or of one of
/// its alternatives.
#[derive(Clone, Debug, PartialEq)]
pub enum GoalLiteral {
    /// A fact the goal needs true (`positive`) or false.
    Fact {
        /// The fact.
        fact: FactId,
        /// Whether the goal needs it true.
        positive: bool,
    },
    /// A numeric condition the goal needs.
    Comparison(NumCondition),
}

/// The goal literals the relaxation never reaches from the initial state;
/// empty where it reaches the goal. The relaxation reaches a conjunction
/// as soon as it reaches each part, so where the goal is out of its reach,
/// some literal is, unless it is one the relaxation does not judge: a
/// comparison that is not linear. A goal of several alternatives is one
/// fact of the grounder's own (`@goal`, and `@or` for a disjunction
/// inside a condition) with an axiom per alternative: for such a fact the
/// literals out of reach in each alternative are named instead, so that
/// every alternative needs one of the literals returned. Within a
/// conjunction: facts needed true, then false, then comparisons, each in
/// the conjunction's order; no literal twice.
pub fn relaxed_unreachable_goal(task: &Task) -> Vec<GoalLiteral> {
    let relaxed = RelaxedTask::with_numeric(task, CostType::Unit);
    let mut exploration = Exploration::new(&relaxed);
    let mut space = StateSpace::new(task);
    let initial = space.initial_state();
    let mut fluents = Vec::new();
    let view = space.view(&initial, &mut fluents);
    let goal = exploration.run(&relaxed, view, Combine::Max, false, |_| 1);
    if goal != INFINITE {
        return Vec::new();
    }
    let mut unreached = Unreached {
        task,
        // Comparisons' propositions are looked up again (they are interned).
        numeric: relaxed.numeric.clone(),
        relaxed: &relaxed,
        exploration: &exploration,
        expanding: Vec::new(),
    };
    let mut named = Vec::new();
    for explanation in unreached.conjuncts(&task.goal) {
        add_new(&mut named, explanation);
    }
    named
}

/// Explains why the exploration never reached a conjunction, through the
/// grounder's own derived facts.
struct Unreached<'a> {
    task: &'a Task,
    numeric: NumericRelaxation,
    relaxed: &'a RelaxedTask,
    exploration: &'a Exploration,
    /// The grounder's facts whose alternatives are being explained (a
    /// guard against a cycle).
    expanding: Vec<FactId>,
}

impl Unreached<'_> {
    fn unreached(&self, p: u32) -> bool {
        self.exploration.prop_cost.get(p as usize) == Some(&INFINITE)
    }

    /// Per part of `conjunction` out of reach that can be named, the
    /// literals that explain it (never none): the part itself, or for a
    /// fact of the grounder's own, what its alternatives miss
    /// ([`Unreached::alternatives`]).
    fn conjuncts(&mut self, conjunction: &Conjunction) -> Vec<Vec<GoalLiteral>> {
        let task = self.task;
        let mut out = Vec::new();
        for &fact in &conjunction.pos {
            if !self.unreached(fact) {
                continue;
            }
            if task.facts[fact as usize].is_grounder_own() && !self.expanding.contains(&fact) {
                self.expanding.push(fact);
                let explanation = self.alternatives(fact);
                self.expanding.pop();
                if !explanation.is_empty() {
                    out.push(explanation);
                }
            } else {
                out.push(vec![GoalLiteral::Fact {
                    fact,
                    positive: true,
                }]);
            }
        }
        for &fact in &conjunction.neg {
            if self
                .relaxed
                .negated_prop(fact)
                .is_some_and(|p| self.unreached(p))
            {
                out.push(vec![GoalLiteral::Fact {
                    fact,
                    positive: false,
                }]);
            }
        }
        let first = self.relaxed.first_numeric_prop();
        for condition in &conjunction.numeric {
            let props = self.numeric.conditions_of(std::slice::from_ref(condition));
            if props.iter().any(|&n| self.unreached(first + n)) {
                out.push(vec![GoalLiteral::Comparison(condition.clone())]);
            }
        }
        out
    }

    /// Literals such that every alternative (axiom) of `fact` needs one of
    /// them: for each alternative, the explanation of its first part out
    /// of reach, unless one of its parts is explained by literals named
    /// already; empty where some alternative's parts cannot be named.
    fn alternatives(&mut self, fact: FactId) -> Vec<GoalLiteral> {
        let task = self.task;
        let mut named = Vec::new();
        for axiom in task.axioms.iter().filter(|axiom| axiom.head == fact) {
            let parts = self.conjuncts(&axiom.body);
            if parts.is_empty() {
                // An alternative out of reach for a reason not named (a
                // comparison the relaxation does not judge): naming the
                // others' literals would not explain the fact.
                return Vec::new();
            }
            let covered = parts
                .iter()
                .any(|part| part.iter().all(|literal| named.contains(literal)));
            if let Some(first) = parts.into_iter().next().filter(|_| !covered) {
                add_new(&mut named, first);
            }
        }
        named
    }
}

/// Appends the literals of `more` that `named` lacks.
fn add_new(named: &mut Vec<GoalLiteral>, more: Vec<GoalLiteral>) {
    for literal in more {
        if !named.contains(&literal) {
            named.push(literal);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TaskBuilder;
    use pddl_ground::task::{AssignOp, Comparison};

    /// `drive` adds f1 but needs fuel, which it and `burn` (adding f2)
    /// only use up; nothing deletes f0; nothing adds f3 to f5.
    fn fuel_task(fuel: f64) -> TaskBuilder {
        let mut t = TaskBuilder::new(6);
        let tank = t.fluent(fuel);
        let drive = t.op("drive", &[], &[1], &[]);
        t.num_pre(drive, tank, Comparison::GreaterEqual, 1.0);
        t.num_effect(drive, tank, AssignOp::Decrease, 1.0);
        let burn = t.op("burn", &[], &[2], &[]);
        t.num_effect(burn, tank, AssignOp::Decrease, 1.0);
        t
    }

    #[test]
    fn names_the_literals_out_of_reach() {
        // Fuel 0 and falling: f1 and a full tank are out of reach, and so
        // is f0 false (true at first, nothing deletes it); f2 is not.
        let mut t = fuel_task(0.0);
        t.num_goal(0, Comparison::GreaterEqual, 5.0);
        t.neg_goal(0);
        let task = t.build(&[0], &[1, 2]);
        assert_eq!(
            relaxed_unreachable_goal(&task),
            [
                GoalLiteral::Fact {
                    fact: 1,
                    positive: true
                },
                GoalLiteral::Fact {
                    fact: 0,
                    positive: false
                },
                GoalLiteral::Comparison(task.goal.numeric[0].clone())
            ]
        );
        // With fuel, everything but the full tank is in reach.
        let mut t = fuel_task(2.0);
        t.num_goal(0, Comparison::GreaterEqual, 5.0);
        let task = t.build(&[0], &[1, 2]);
        assert_eq!(
            relaxed_unreachable_goal(&task),
            [GoalLiteral::Comparison(task.goal.numeric[0].clone())]
        );
        let task = fuel_task(2.0).build(&[0], &[1, 2]);
        assert!(relaxed_unreachable_goal(&task).is_empty());
    }

    #[test]
    fn names_what_each_alternative_of_a_goal_misses() {
        // The goal (or f3 (and f1 f2) (and f2 f4 f3)): nothing adds f3 or
        // f4, and without fuel f1 is out of reach too, so every
        // alternative misses f3 or f1, and f4 need not be named.
        let task = |fuel: f64, own: &str| {
            let mut t = fuel_task(fuel);
            t.axiom(5, &[3], &[], 0);
            t.axiom(5, &[1, 2], &[], 0);
            t.axiom(5, &[2, 4, 3], &[], 0);
            let mut task = t.build(&[0], &[5]);
            crate::testing::name_fact(&mut task, 5, own, &[]);
            task
        };
        let fact = |fact| GoalLiteral::Fact {
            fact,
            positive: true,
        };
        assert_eq!(
            relaxed_unreachable_goal(&task(0.0, "@goal")),
            [fact(3), fact(1)]
        );
        // With fuel, the second alternative is in reach.
        assert!(relaxed_unreachable_goal(&task(1.0, "@goal")).is_empty());
        // A derived predicate of the domain's is named itself.
        assert_eq!(relaxed_unreachable_goal(&task(0.0, "done")), [fact(5)]);
    }
}
