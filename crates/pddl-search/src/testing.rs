//! Builds small ground tasks by hand for unit tests.

use pddl_ground::Task;
use pddl_ground::task::{
    AssignOp, Axiom, Comparison, ConditionalEffect, Conjunction, Cost, CostModel, FactId, FluentId,
    GroundAtom, NumCondition, NumEffect, NumExpr, Operator, OperatorId,
};

/// A hand-built task under construction: facts are `f0 f1 ...`.
pub struct TaskBuilder {
    facts: usize,
    fluents: Vec<f64>,
    operators: Vec<Operator>,
    axioms: Vec<Axiom>,
    goal_numeric: Vec<NumCondition>,
    goal_neg: Vec<FactId>,
}

impl TaskBuilder {
    /// A builder with `facts` facts and no fluents.
    pub fn new(facts: usize) -> Self {
        TaskBuilder {
            facts,
            fluents: Vec::new(),
            operators: Vec::new(),
            axioms: Vec::new(),
            goal_numeric: Vec::new(),
            goal_neg: Vec::new(),
        }
    }

    /// Adds a unit-cost operator.
    pub fn op(&mut self, name: &str, pre: &[FactId], add: &[FactId], del: &[FactId]) -> OperatorId {
        self.operators.push(Operator {
            name: name.into(),
            args: Vec::new(),
            precondition: Conjunction {
                pos: pre.to_vec(),
                neg: Vec::new(),
                numeric: Vec::new(),
            },
            add: add.to_vec(),
            del: del.to_vec(),
            numeric: Vec::new(),
            conditional: Vec::new(),
            cost: 1,
        });
        (self.operators.len() - 1) as OperatorId
    }

    /// Adds an operator with a cost.
    pub fn op_cost(
        &mut self,
        name: &str,
        pre: &[FactId],
        add: &[FactId],
        del: &[FactId],
        cost: Cost,
    ) -> OperatorId {
        let id = self.op(name, pre, add, del);
        self.operators[id as usize].cost = cost;
        id
    }

    /// Adds a negative precondition.
    pub fn neg_pre(&mut self, op: OperatorId, fact: FactId) {
        self.operators[op as usize].precondition.neg.push(fact);
    }

    /// Adds a conditional effect.
    pub fn cond(&mut self, op: OperatorId, condition: &[FactId], add: &[FactId], del: &[FactId]) {
        self.operators[op as usize]
            .conditional
            .push(ConditionalEffect {
                condition: Conjunction {
                    pos: condition.to_vec(),
                    ..Default::default()
                },
                add: add.to_vec(),
                del: del.to_vec(),
                numeric: Vec::new(),
            });
    }

    /// Adds an axiom.
    pub fn axiom(&mut self, head: FactId, pos: &[FactId], neg: &[FactId], stratum: u32) {
        self.axioms.push(Axiom {
            head,
            body: Conjunction {
                pos: pos.to_vec(),
                neg: neg.to_vec(),
                numeric: Vec::new(),
            },
            stratum,
        });
    }

    /// Adds a fluent with an initial value.
    pub fn fluent(&mut self, init: f64) -> FluentId {
        self.fluents.push(init);
        (self.fluents.len() - 1) as FluentId
    }

    /// Adds a numeric precondition `fluent OP constant`.
    pub fn num_pre(&mut self, op: OperatorId, fluent: FluentId, cmp: Comparison, value: f64) {
        self.operators[op as usize]
            .precondition
            .numeric
            .push(NumCondition {
                op: cmp,
                lhs: NumExpr::Fluent(fluent),
                rhs: NumExpr::Const(value),
            });
    }

    /// Adds a numeric effect `(op fluent constant)`.
    pub fn num_effect(&mut self, op: OperatorId, fluent: FluentId, assign: AssignOp, value: f64) {
        self.operators[op as usize].numeric.push(NumEffect {
            op: assign,
            fluent,
            expr: NumExpr::Const(value),
        });
    }

    /// Adds a numeric goal `fluent OP constant`.
    pub fn num_goal(&mut self, fluent: FluentId, cmp: Comparison, value: f64) {
        self.goal_numeric.push(NumCondition {
            op: cmp,
            lhs: NumExpr::Fluent(fluent),
            rhs: NumExpr::Const(value),
        });
    }

    /// Adds a negative goal.
    pub fn neg_goal(&mut self, fact: FactId) {
        self.goal_neg.push(fact);
    }

    /// The task with this initial state and positive goal.
    pub fn build(&self, init: &[FactId], goal: &[FactId]) -> Task {
        let mut init_facts = init.to_vec();
        init_facts.sort_unstable();
        Task {
            domain_name: "test".into(),
            problem_name: "test".into(),
            facts: (0..self.facts)
                .map(|i| GroundAtom {
                    predicate: format!("f{i}").into(),
                    args: Vec::new(),
                })
                .collect(),
            fluents: (0..self.fluents.len())
                .map(|i| GroundAtom {
                    predicate: format!("v{i}").into(),
                    args: Vec::new(),
                })
                .collect(),
            operators: self.operators.clone(),
            axioms: self.axioms.clone(),
            init_facts,
            init_fluents: self.fluents.clone(),
            goal: Conjunction {
                pos: goal.to_vec(),
                neg: self.goal_neg.clone(),
                numeric: self.goal_numeric.clone(),
            },
            metric: None,
            cost_model: CostModel::Unit,
            interchangeable_objects: Vec::new(),
            impossible_goal: Vec::new(),
            dropped_goal_literals: Vec::new(),
            double_updates: Default::default(),
        }
    }
}

/// Facts 0..5, init {0}, goal {3, 4}:
/// a: 0 → 1 (cost 2), b: 0 → 2 (3), c: 1,2 → 3 (1), d: 1 → 4 (4), e: 0 → 3 (10).
/// Optimal plan a b c d, cost 10.
pub fn diamond() -> Task {
    let mut b = TaskBuilder::new(5);
    b.op_cost("a", &[0], &[1], &[], 2);
    b.op_cost("b", &[0], &[2], &[], 3);
    b.op_cost("c", &[1, 2], &[3], &[], 1);
    b.op_cost("d", &[1], &[4], &[], 4);
    b.op_cost("e", &[0], &[3], &[], 10);
    b.build(&[0], &[3, 4])
}

/// A ring of `n` cells with a robot that must carry a ball from cell 0 to
/// cell `n/2`: facts `(at robot ci)` = i, `(at ball ci)` = n + i,
/// `(holding)` = 2n. Optimal: pick, n/2 moves, drop = n/2 + 2.
pub fn ring(n: u32) -> Task {
    let mut b = TaskBuilder::new(2 * n as usize + 1);
    let holding = 2 * n;
    for i in 0..n {
        let j = (i + 1) % n;
        b.op("right", &[i], &[j], &[i]);
        b.op("left", &[j], &[i], &[j]);
        b.op("pick", &[i, n + i], &[holding], &[n + i]);
        b.op("drop", &[i, holding], &[n + i], &[holding]);
    }
    let mut task = b.build(&[0, n], &[n + n / 2]);
    for i in 0..n {
        let cell = format!("c{i}");
        name_fact(&mut task, i, "at", &["robot", &cell]);
        name_fact(&mut task, n + i, "at", &["ball", &cell]);
    }
    name_fact(&mut task, holding, "holding", &[]);
    task
}

/// Gripper with two hands and `n` interchangeable balls to carry from
/// room a to room b (facts named as in the IPC domain).
pub fn gripper(n: usize) -> Task {
    let balls: Vec<String> = (1..=n).map(|i| format!("b{i}")).collect();
    let mut names = Vec::new();
    for ball in &balls {
        names.push(atom("at", &[ball, "a"]));
        names.push(atom("at", &[ball, "b"]));
        names.push(atom("carry", &[ball, "left"]));
        names.push(atom("carry", &[ball, "right"]));
    }
    let robot_a = names.len();
    names.push(atom("robot", &["a"]));
    names.push(atom("robot", &["b"]));
    names.push(atom("free", &["left"]));
    names.push(atom("free", &["right"]));
    let fact = |i: usize| i as FactId;
    let (robot_a, robot_b) = (fact(robot_a), fact(robot_a + 1));
    let mut b = TaskBuilder::new(names.len());
    b.op("move-a-b", &[robot_a], &[robot_b], &[robot_a]);
    b.op("move-b-a", &[robot_b], &[robot_a], &[robot_b]);
    for i in 0..n {
        for hand in 0..2 {
            let free = robot_b + 1 + hand as FactId;
            let carry = fact(4 * i + 2 + hand);
            for (room, robot) in [(fact(4 * i), robot_a), (fact(4 * i + 1), robot_b)] {
                b.op("pick", &[room, robot, free], &[carry], &[room, free]);
                b.op("drop", &[carry, robot], &[room, free], &[carry]);
            }
        }
    }
    let init: Vec<FactId> = (0..n)
        .map(|i| fact(4 * i))
        .chain([robot_a, robot_b + 1, robot_b + 2])
        .collect();
    let goal: Vec<FactId> = (0..n).map(|i| fact(4 * i + 1)).collect();
    let mut task = b.build(&init, &goal);
    task.facts = names;
    task.interchangeable_objects = vec![balls];
    task
}

/// A ground atom `(predicate args…)`.
pub fn atom(predicate: &str, args: &[&str]) -> GroundAtom {
    GroundAtom {
        predicate: predicate.into(),
        args: args.iter().map(|&a| a.into()).collect(),
    }
}

/// Names fact `f` `(predicate args…)` (the builder names facts `f0 f1 …`).
pub fn name_fact(task: &mut Task, f: FactId, predicate: &str, args: &[&str]) {
    task.facts[f as usize] = atom(predicate, args);
}

/// A small pseudo-random generator (deterministic tests, no dependency).
pub struct Lcg(pub u64);

impl Lcg {
    /// A number below `n`.
    pub fn below(&mut self, n: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % u64::from(n)) as u32
    }
}

/// A random task: two objects on 4 positions each (facts 0..4 and 4..8,
/// named so that they may form variables), 3 flags (8..11); moves,
/// flag setters and operators with conditional effects, some with
/// negative preconditions, costs 0 to 3.
pub fn random_task(rng: &mut Lcg) -> Task {
    let mut b = TaskBuilder::new(11);
    let position = |o: u32, p: u32| o * 4 + p;
    for _ in 0..14 {
        let cost = Cost::from(rng.below(4));
        match rng.below(3) {
            0 => {
                let (o, p, q) = (rng.below(2), rng.below(4), rng.below(4));
                let mut pre = vec![position(o, p)];
                if rng.below(2) == 0 {
                    pre.push(8 + rng.below(3));
                }
                let op = b.op_cost("move", &pre, &[position(o, q)], &[position(o, p)], cost);
                if rng.below(3) == 0 {
                    b.neg_pre(op, 8 + rng.below(3));
                }
            }
            1 => {
                let pre = [position(rng.below(2), rng.below(4))];
                let del = if rng.below(2) == 0 {
                    vec![8 + rng.below(3)]
                } else {
                    Vec::new()
                };
                b.op_cost("flag", &pre, &[8 + rng.below(3)], &del, cost);
            }
            _ => {
                let op = b.op_cost("when", &[], &[], &[], cost);
                for _ in 0..1 + rng.below(3) {
                    let (o, p, q) = (rng.below(2), rng.below(4), rng.below(4));
                    if rng.below(2) == 0 {
                        b.cond(
                            op,
                            &[position(o, p), 8 + rng.below(3)],
                            &[position(o, q)],
                            &[position(o, p)],
                        );
                    } else {
                        b.cond(op, &[position(o, p)], &[8 + rng.below(3)], &[]);
                    }
                }
            }
        }
    }
    let init = [position(0, 0), position(1, rng.below(4)), 8];
    let goal = if rng.below(2) == 0 {
        vec![position(0, 1 + rng.below(3)), 8 + rng.below(3)]
    } else {
        vec![position(1, rng.below(4)), position(0, rng.below(4))]
    };
    let mut task = b.build(&init, &goal);
    for o in 0..2 {
        for p in 0..4 {
            name_fact(
                &mut task,
                position(o, p),
                "at",
                &[&format!("o{o}"), &format!("p{p}")],
            );
        }
    }
    task
}

/// The optimal cost of `task` by blind A*, `None` when it is unsolvable.
pub fn optimal_cost(task: &Task) -> Option<Cost> {
    let options = crate::SearchOptions {
        engine: crate::Engine::AStar,
        heuristic: crate::HeuristicKind::Blind,
        ..crate::SearchOptions::optimal_default()
    };
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let result = crate::search(task, &options, &cancel, &mut crate::NoObserver);
    match result.outcome {
        crate::Outcome::Solved => result.plan.map(|p| p.cost),
        crate::Outcome::Unsolvable => None,
        other => panic!("{other:?}"),
    }
}

/// Every state reachable in `space`, breadth-first from the initial state.
pub fn reachable_states(space: &mut crate::successor::StateSpace<'_>) -> Vec<Vec<u64>> {
    let init = space.initial_state();
    let mut seen: hashbrown::HashSet<Vec<u64>> = hashbrown::HashSet::from_iter([init.clone()]);
    let mut queue = std::collections::VecDeque::from([init]);
    let mut all = Vec::new();
    let (mut ops, mut next) = (Vec::new(), Vec::new());
    while let Some(state) = queue.pop_front() {
        space.applicable(&state, &mut ops);
        for &op in &ops {
            if space.apply(&state, op, &mut next) && seen.insert(next.clone()) {
                queue.push_back(next.clone());
            }
        }
        all.push(state);
    }
    all
}
