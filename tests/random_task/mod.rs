//! Random small tasks for `semantics_agree.rs`, and a solver of their
//! lifted model that shares no code with the grounder or the search.
//!
//! [`random_task`] writes a domain and a problem from a seed: typed
//! objects and constants, derived predicates, ADL preconditions
//! (`or`, `imply`, `exists`, `forall`, equality, negation), conditional
//! and universally quantified effects, numeric fluents (a counter and a
//! level per object, bounded by guards, compared in sums; one often
//! undefined, read by effects only) and, on half the seeds, action costs
//! (constant, zero or read from a static function) with a `total-cost`
//! metric. Every name is used within its type, so each task is valid PDDL;
//! its meaning is whatever the seed made, and many are unsolvable.
//!
//! [`lifted`] steps through the validator's lifted model: every action on
//! every tuple of objects, and the cheapest plan by uniform-cost search
//! over its states, the reference the planner's optimal searches must
//! match.

pub mod lifted;

use planner::generate::rng::Rng;
use std::fmt::Write;

/// The types of the random tasks: `sub - base`, `other`, `object` above
/// them, and `(either sub other)` for parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Type {
    Object,
    Base,
    Sub,
    Other,
    SubOrOther,
}

impl Type {
    /// The types an object may be declared with.
    const OBJECT: [Type; 4] = [Type::Object, Type::Base, Type::Sub, Type::Other];
    /// The types a variable or a predicate's parameter may be declared with.
    const DECLARABLE: [Type; 5] = [
        Type::Object,
        Type::Base,
        Type::Sub,
        Type::Other,
        Type::SubOrOther,
    ];

    fn name(self) -> &'static str {
        match self {
            Type::Object => "object",
            Type::Base => "base",
            Type::Sub => "sub",
            Type::Other => "other",
            Type::SubOrOther => "(either sub other)",
        }
    }

    /// Whether every object of `self` is an object of `of`.
    fn within(self, of: Type) -> bool {
        of == Type::Object
            || self == of
            || (self == Type::Sub && matches!(of, Type::Base | Type::SubOrOther))
            || (self == Type::Other && of == Type::SubOrOther)
    }
}

/// A name usable as a term: a variable (`?x`) or an object or constant.
type Typed = (String, Type);

struct Predicate {
    name: String,
    params: Vec<Type>,
}

/// Where a condition may use derived predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Derived {
    /// Anywhere: in actions and goals, a lower stratum.
    Anywhere,
    /// Only where not negated: in a derived predicate's own body, so that
    /// the rules stay stratified.
    Positive,
    /// Nowhere.
    Nowhere,
}

/// What a condition may use.
#[derive(Clone, Copy, Debug)]
struct Scope {
    /// Comparisons of numeric expressions.
    numeric: bool,
    derived: Derived,
}

impl Scope {
    const ACTION: Scope = Scope {
        numeric: true,
        derived: Derived::Anywhere,
    };
    /// Conditions under a quantified effect, where the counter is not
    /// compared (only for variety: nothing forbids it).
    const LOGICAL: Scope = Scope {
        numeric: false,
        derived: Derived::Anywhere,
    };

    /// The scope under a negation.
    fn negated(self) -> Scope {
        Scope {
            derived: match self.derived {
                Derived::Positive => Derived::Nowhere,
                other => other,
            },
            ..self
        }
    }
}

/// A random domain and problem, as PDDL text.
pub struct RandomTask {
    /// The domain file's text.
    pub domain: String,
    /// The problem file's text.
    pub problem: String,
}

/// The constants every random domain declares, one per branch of the
/// type tree, so that every type has a ground term in the domain.
const CONSTANTS: [(&str, Type); 2] = [("ka", Type::Sub), ("kb", Type::Other)];

/// The sizes of a random task. Two shapes take turns by seed: lifted
/// tasks exercise typing and instantiation; dense ones, with nullary
/// predicates over few objects, make actions meet on the same atoms, where
/// effects interact (what relevance analysis must get right).
#[derive(Clone, Copy)]
struct Shape {
    /// Inclusive ranges of how many basic predicates, actions and objects.
    predicates: (u64, u64),
    actions: (u64, u64),
    objects: (u64, u64),
    /// Arities and parameter counts are below these.
    arity_below: u64,
    parameters_below: u64,
    /// Inclusive range of effect items per action.
    effects: (u64, u64),
    /// Connectives nest at most this deep in preconditions.
    depth: usize,
}

impl Shape {
    const LIFTED: Shape = Shape {
        predicates: (2, 4),
        actions: (2, 5),
        objects: (2, 3),
        arity_below: 3,
        parameters_below: 3,
        effects: (1, 3),
        depth: 2,
    };
    const DENSE: Shape = Shape {
        predicates: (4, 6),
        actions: (3, 7),
        objects: (1, 2),
        arity_below: 1,
        parameters_below: 2,
        effects: (2, 4),
        depth: 0,
    };
}

struct Generator {
    rng: Rng,
    shape: Shape,
    /// Predicates that effects may change.
    basic: Vec<Predicate>,
    /// Derived predicates (one parameter of type `base`, or none).
    derived: Vec<Predicate>,
    /// Variables made so far, for fresh quantified names.
    fresh: usize,
}

impl Generator {
    fn chance(&mut self, percent: u64) -> bool {
        self.rng.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.rng.index(items.len())]
    }

    /// A term of type `ty` from `names` (variables in scope, constants,
    /// or objects in the problem); `names` always holds one of each type.
    fn term(&mut self, ty: Type, names: &[Typed]) -> String {
        let fitting: Vec<&Typed> = names.iter().filter(|(_, t)| t.within(ty)).collect();
        // Mostly variables where there are some, so that actions touch
        // more than the constants.
        let variables: Vec<&Typed> = fitting
            .iter()
            .copied()
            .filter(|(n, _)| n.starts_with('?'))
            .collect();
        let from = if !variables.is_empty() && self.chance(80) {
            variables
        } else {
            fitting
        };
        from[self.rng.index(from.len())].0.clone()
    }

    fn atom(&mut self, derived: bool, names: &[Typed]) -> String {
        let list = if derived { &self.derived } else { &self.basic };
        let predicate = &list[self.rng.index(list.len())];
        let (name, params) = (predicate.name.clone(), predicate.params.clone());
        let mut text = format!("({name}");
        for ty in params {
            text.push(' ');
            text.push_str(&self.term(ty, names));
        }
        text.push(')');
        text
    }

    /// An atom of a basic predicate, negated on some seeds.
    fn literal(&mut self, names: &[Typed]) -> String {
        let atom = self.atom(false, names);
        if self.chance(35) {
            format!("(not {atom})")
        } else {
            atom
        }
    }

    fn fresh_variable(&mut self) -> Typed {
        self.fresh += 1;
        let ty = self.pick(&Type::DECLARABLE);
        (format!("?q{}", self.fresh), ty)
    }

    /// A numeric expression: the counter `(f0)`, a level `(g ?x)`, a
    /// small number, or a sum of two of them.
    fn expression(&mut self, names: &[Typed], depth: usize) -> String {
        match self.rng.below(if depth == 0 { 3 } else { 4 }) {
            0 => "(f0)".to_string(),
            1 => format!("(g {})", self.term(Type::Base, names)),
            2 => self.rng.below(3).to_string(),
            _ => format!(
                "(+ {} {})",
                self.expression(names, depth - 1),
                self.expression(names, depth - 1)
            ),
        }
    }

    /// A condition over `names`, at most `depth` connectives deep, using
    /// what `scope` allows.
    fn condition(&mut self, names: &[Typed], depth: usize, scope: Scope) -> String {
        let choice = if depth == 0 {
            self.rng.below(5)
        } else {
            self.rng.below(11)
        };
        let negated = scope.negated();
        match choice {
            0 | 1 => {
                let derived = scope.derived != Derived::Nowhere
                    && !self.derived.is_empty()
                    && self.chance(30);
                self.atom(derived, names)
            }
            2 => format!("(not {})", self.atom(false, names)),
            3 => {
                let ty = self.pick(&Type::DECLARABLE);
                let (a, b) = (self.term(ty, names), self.term(ty, names));
                if self.chance(50) {
                    format!("(= {a} {b})")
                } else {
                    format!("(not (= {a} {b}))")
                }
            }
            4 if scope.numeric => {
                let op = self.pick(&["<", ">=", "=", ">", "<="]);
                let left = self.expression(names, 1);
                let right = self.expression(names, 0);
                format!("({op} {left} {right})")
            }
            4 => self.atom(false, names),
            5 | 6 => format!(
                "(and {} {})",
                self.condition(names, depth - 1, scope),
                self.condition(names, depth - 1, scope)
            ),
            7 => format!(
                "(or {} {})",
                self.condition(names, depth - 1, scope),
                self.condition(names, depth - 1, scope)
            ),
            8 => format!(
                "(imply {} {})",
                self.condition(names, depth - 1, negated),
                self.condition(names, depth - 1, scope)
            ),
            9 => format!("(not {})", self.condition(names, depth - 1, negated)),
            _ => {
                let variable = self.fresh_variable();
                let quantifier = self.pick(&["exists", "forall"]);
                let header = format!("({} - {})", variable.0, variable.1.name());
                let mut inner = names.to_vec();
                inner.push(variable);
                let body = self.condition(&inner, depth - 1, scope);
                format!("({quantifier} {header} {body})")
            }
        }
    }

    /// One action; `costs` adds an `increase` of `(total-cost)`.
    fn action(&mut self, index: usize, costs: bool) -> String {
        let mut params: Vec<Typed> = (0..self.rng.below(self.shape.parameters_below))
            .map(|i| (format!("?x{i}"), self.pick(&Type::DECLARABLE)))
            .collect();
        let mut names: Vec<Typed> = CONSTANTS.iter().map(|&(n, t)| (n.to_string(), t)).collect();
        names.extend(params.iter().cloned());
        let depth = self.rng.index(self.shape.depth + 1);
        let mut preconditions = vec![self.condition(&names, depth, Scope::ACTION)];
        let mut effects = Vec::new();
        let (fewest, most) = self.shape.effects;
        for _ in 0..self.rng.in_range(fewest, most) {
            let effect = match self.rng.below(4) {
                0 | 1 => self.literal(&names),
                2 => {
                    let condition = self.condition(&names, 1, Scope::ACTION);
                    let (a, b) = (self.literal(&names), self.literal(&names));
                    format!("(when {condition} (and {a} {b}))")
                }
                _ => {
                    let variable = self.fresh_variable();
                    let header = format!("({} - {})", variable.0, variable.1.name());
                    let mut inner = names.clone();
                    inner.push(variable);
                    let literal = self.literal(&inner);
                    if self.chance(60) {
                        let condition = self.condition(&inner, 1, Scope::LOGICAL);
                        format!("(forall {header} (when {condition} {literal}))")
                    } else {
                        format!("(forall {header} {literal})")
                    }
                }
            };
            effects.push(effect);
        }
        // The counter and the levels stay within -1..=3 (guards below), so
        // the state space is finite.
        let levelled: Vec<String> = params
            .iter()
            .filter(|(_, t)| t.within(Type::Base))
            .map(|(n, _)| n.clone())
            .collect();
        if !levelled.is_empty() && self.chance(40) {
            let x = self.pick_string(&levelled);
            match self.rng.below(3) {
                0 => {
                    preconditions.push(format!("(< (g {x}) 2)"));
                    effects.push(format!("(increase (g {x}) 1)"));
                }
                1 => {
                    preconditions.push(format!("(> (g {x}) 0)"));
                    effects.push(format!("(decrease (g {x}) 1)"));
                }
                _ => effects.push(format!("(assign (g {x}) (f0))")),
            }
        }
        if self.chance(20) {
            let variable = self.fresh_variable();
            let (q, header) = (variable.0.clone(), format!("({} - base)", variable.0));
            let mut inner = names.clone();
            inner.push((q.clone(), Type::Base));
            let condition = self.condition(&inner, 0, Scope::LOGICAL);
            effects.push(format!(
                "(forall {header} (when (and (< (g {q}) 2) {condition}) (increase (g {q}) 1)))"
            ));
        }
        // `(spare)`, undefined at first in half the problems, is read by
        // effects only, which cannot apply while it is undefined
        // (`increase` reads the fluent it changes).
        match self.rng.below(10) {
            0 => effects.push("(assign (spare) 1)".to_string()),
            1 => effects.push("(assign (spare) (- 3 (spare)))".to_string()),
            2 => effects.push("(increase (spare) 0)".to_string()),
            _ => {}
        }
        match self.rng.below(6) {
            0 => {
                preconditions.push("(< (f0) 3)".to_string());
                effects.push("(increase (f0) 1)".to_string());
            }
            1 => {
                preconditions.push("(> (f0) 0)".to_string());
                effects.push("(decrease (f0) 1)".to_string());
            }
            2 if !levelled.is_empty() => {
                let x = self.pick_string(&levelled);
                effects.push(format!("(assign (f0) (g {x}))"));
            }
            2 => effects.push(format!("(assign (f0) {})", self.rng.below(3))),
            3 => {
                preconditions.push("(< (f0) 3)".to_string());
                let condition = self.condition(&names, 1, Scope::LOGICAL);
                effects.push(format!("(when {condition} (increase (f0) 1))"));
            }
            _ => {}
        }
        if costs {
            let weighted: Vec<String> = params
                .iter()
                .filter(|(_, t)| t.within(Type::Base))
                .map(|(n, _)| n.clone())
                .collect();
            let amount = if !weighted.is_empty() && self.chance(40) {
                format!("(w {})", self.pick_string(&weighted))
            } else {
                self.rng.below(4).to_string()
            };
            effects.push(format!("(increase (total-cost) {amount})"));
        }
        let parameters: Vec<String> = params
            .drain(..)
            .map(|(n, t)| format!("{n} - {}", t.name()))
            .collect();
        format!(
            "  (:action a{index}\n    :parameters ({})\n    :precondition (and {})\n    :effect (and {}))\n",
            parameters.join(" "),
            preconditions.join(" "),
            effects.join(" ")
        )
    }

    fn pick_string(&mut self, items: &[String]) -> String {
        items[self.rng.index(items.len())].clone()
    }
}

/// Every tuple of `names` fitting `params` (at most a few hundred here).
fn tuples(params: &[Type], names: &[Typed]) -> Vec<Vec<String>> {
    let mut out = vec![Vec::new()];
    for &ty in params {
        out = out
            .into_iter()
            .flat_map(|prefix: Vec<String>| {
                names
                    .iter()
                    .filter(move |(_, t)| t.within(ty))
                    .map(move |(n, _)| {
                        let mut tuple = prefix.clone();
                        tuple.push(n.clone());
                        tuple
                    })
            })
            .collect();
    }
    out
}

/// The random task of `seed`.
pub fn random_task(seed: u64) -> RandomTask {
    let shape = if seed.is_multiple_of(2) {
        Shape::DENSE
    } else {
        Shape::LIFTED
    };
    let mut generator = Generator {
        rng: Rng::new(seed),
        shape,
        basic: Vec::new(),
        derived: Vec::new(),
        fresh: 0,
    };
    let g = &mut generator;
    for i in 0..g.rng.in_range(shape.predicates.0, shape.predicates.1) {
        let params = (0..g.rng.below(shape.arity_below))
            .map(|_| g.pick(&Type::DECLARABLE))
            .collect();
        g.basic.push(Predicate {
            name: format!("p{i}"),
            params,
        });
    }
    let mut derived_rules = String::new();
    if g.chance(50) {
        let param = g.pick(&[Type::Base, Type::Object]);
        let mut names: Vec<Typed> = CONSTANTS.iter().map(|&(n, t)| (n.to_string(), t)).collect();
        names.push(("?y".to_string(), param));
        // Declared first, so that its body may use it (not negated).
        g.derived.push(Predicate {
            name: "d".to_string(),
            params: vec![param],
        });
        let scope = Scope {
            numeric: true,
            derived: Derived::Positive,
        };
        let body = g.condition(&names, 2, scope);
        writeln!(
            derived_rules,
            "  (:derived (d ?y - {}) {body})",
            param.name()
        )
        .unwrap();
    }
    let costs = g.chance(50);
    let mut actions = String::new();
    for i in 0..g.rng.in_range(shape.actions.0, shape.actions.1) {
        actions.push_str(&g.action(i as usize, costs));
    }
    let predicate_line = |p: &Predicate| {
        let mut text = format!("({}", p.name);
        for (i, ty) in p.params.iter().enumerate() {
            write!(text, " ?v{i} - {}", ty.name()).unwrap();
        }
        text + ")"
    };
    let predicates: Vec<String> = g
        .basic
        .iter()
        .chain(&g.derived)
        .map(predicate_line)
        .collect();
    let functions = if costs {
        "(f0) (g ?x - base) (spare) (w ?x - base) (total-cost)"
    } else {
        "(f0) (g ?x - base) (spare)"
    };
    let domain = format!(
        "; A random task of tests/semantics_agree.rs, seed {seed}.\n\
         (define (domain random-{seed})\n  \
         (:requirements :adl :derived-predicates :numeric-fluents :action-costs)\n  \
         (:types sub - base base other - object)\n  \
         (:constants ka - sub kb - other)\n  \
         (:predicates {})\n  (:functions {functions})\n{derived_rules}{actions})\n",
        predicates.join(" ")
    );

    let mut names: Vec<Typed> = CONSTANTS.iter().map(|&(n, t)| (n.to_string(), t)).collect();
    let objects: Vec<Typed> = (0..g.rng.in_range(shape.objects.0, shape.objects.1))
        .map(|i| (format!("o{i}"), g.pick(&Type::OBJECT)))
        .collect();
    names.extend(objects.iter().cloned());
    let mut init = Vec::new();
    // Atoms as (true initially, text), for goals that do not hold at once.
    let mut atoms: Vec<(bool, String)> = Vec::new();
    for predicate in &generator.basic {
        for tuple in tuples(&predicate.params, &names) {
            let text = if tuple.is_empty() {
                format!("({})", predicate.name)
            } else {
                format!("({} {})", predicate.name, tuple.join(" "))
            };
            let holds = generator.rng.below(100) < 35;
            if holds {
                init.push(text.clone());
            }
            atoms.push((holds, text));
        }
    }
    let g = &mut generator;
    let counter = g.rng.below(3);
    init.push(format!("(= (f0) {counter})"));
    if g.chance(50) {
        init.push("(= (spare) 1)".to_string());
    }
    for (name, ty) in &names {
        if ty.within(Type::Base) {
            init.push(format!("(= (g {name}) {})", g.rng.below(3)));
            if costs {
                init.push(format!("(= (w {name}) {})", g.rng.below(4)));
            }
        }
    }
    if costs {
        init.push("(= (total-cost) 0)".to_string());
    }
    let mut goals = Vec::new();
    for _ in 0..g.rng.in_range(1, 3) {
        let goal = match g.rng.below(9) {
            0 if !g.derived.is_empty() => g.atom(true, &names),
            8 => g.condition(&names, 2, Scope::ACTION),
            1 => format!("(or {} {})", g.literal(&names), g.literal(&names)),
            2 => format!("(>= (f0) {})", counter + g.rng.below(2)),
            3 if g.chance(50) => {
                let x = g.term(Type::Base, &names);
                format!("(>= (g {x}) {})", g.rng.in_range(1, 3))
            }
            3 => g.literal(&names),
            // Mostly a literal false in the initial state.
            _ => {
                let (holds, atom) = &atoms[g.rng.index(atoms.len())];
                if *holds {
                    format!("(not {atom})")
                } else {
                    atom.clone()
                }
            }
        };
        goals.push(goal);
    }
    let object_lines: Vec<String> = objects
        .iter()
        .map(|(n, t)| format!("{n} - {}", t.name()))
        .collect();
    let metric = if costs {
        "\n  (:metric minimize (total-cost))"
    } else {
        ""
    };
    let problem = format!(
        "(define (problem random-{seed}-p) (:domain random-{seed})\n  \
         (:objects {})\n  (:init {})\n  (:goal (and {})){metric})\n",
        object_lines.join(" "),
        init.join(" "),
        goals.join(" ")
    );
    RandomTask { domain, problem }
}
