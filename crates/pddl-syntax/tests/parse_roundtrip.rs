//! `parse(print(ast)) == ast` modulo spans, for generated trees and for
//! every shared benchmark file.

use pddl_syntax::ast::print::{print_domain, print_problem};
use pddl_syntax::ast::visitor::{clear_spans_domain, clear_spans_problem};
use pddl_syntax::ast::*;
use pddl_syntax::{parse_domain, parse_problem};
use proptest::prelude::*;
use shared_data::benchmarks;

/// Words the grammar gives a meaning to in some position: generated names
/// avoid them so that the printed text is unambiguous.
const RESERVED: [&str; 30] = [
    "and",
    "or",
    "not",
    "imply",
    "exists",
    "forall",
    "preference",
    "either",
    "when",
    "assign",
    "increase",
    "decrease",
    "scale-up",
    "scale-down",
    "total-time",
    "number",
    "object",
    "define",
    "domain",
    "problem",
    "minimize",
    "maximize",
    "end",
    "always",
    "sometime",
    "within",
    "at-most-once",
    "sometime-after",
    "sometime-before",
    "hold-during",
];

fn span() -> Span {
    Span::default()
}

fn name() -> impl Strategy<Value = Name> + Clone {
    "[a-z][a-z0-9]{0,3}(-[a-z0-9_]{1,3})?"
        .prop_filter("reserved word", |s| !RESERVED.contains(&s.as_str()))
        .prop_map(|s| Name::new(s, span()))
}

fn variable() -> impl Strategy<Value = Variable> + Clone {
    name().prop_map(|n| Variable {
        name: n.text,
        span: span(),
    })
}

fn term() -> impl Strategy<Value = Term> {
    prop_oneof![
        name().prop_map(Term::Name),
        variable().prop_map(Term::Variable)
    ]
}

fn type_expr() -> impl Strategy<Value = Type> {
    prop_oneof![
        3 => name().prop_map(Type::Name),
        1 => prop::collection::vec(name(), 1..3).prop_map(|ns| Type::Either(ns, span())),
    ]
}

/// A typed list as the parser produces it: typed runs, then an untyped tail.
fn typed_list<T: Clone + std::fmt::Debug>(
    item: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = Vec<(T, Option<Type>)>> {
    (
        prop::collection::vec(
            (prop::collection::vec(item.clone(), 1..3), type_expr()),
            0..3,
        ),
        prop::collection::vec(item, 0..3),
    )
        .prop_map(|(groups, tail)| {
            let mut out = Vec::new();
            for (items, ty) in groups {
                out.extend(items.into_iter().map(|x| (x, Some(ty.clone()))));
            }
            out.extend(tail.into_iter().map(|x| (x, None)));
            out
        })
}

fn typed_names() -> impl Strategy<Value = Vec<TypedName>> {
    typed_list(name()).prop_map(|l| {
        l.into_iter()
            .map(|(name, ty)| TypedName { name, ty })
            .collect()
    })
}

fn typed_variables() -> impl Strategy<Value = Vec<TypedVariable>> {
    typed_list(variable()).prop_map(|l| {
        l.into_iter()
            .map(|(var, ty)| TypedVariable { var, ty })
            .collect()
    })
}

fn atom<T: std::fmt::Debug>(arg: impl Strategy<Value = T>) -> impl Strategy<Value = Atom<T>> {
    (name(), prop::collection::vec(arg, 0..3)).prop_map(|(predicate, args)| Atom {
        predicate,
        args,
        span: span(),
    })
}

fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        (-1000i32..1000).prop_map(|x| f64::from(x) / 4.0),
        any::<f64>().prop_filter("finite", |x| x.is_finite()),
    ]
}

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        number().prop_map(ExprKind::Number),
        atom(term()).prop_map(ExprKind::Fluent),
        Just(ExprKind::TotalTime),
    ];
    let op = prop_oneof![
        Just(BinaryOp::Add),
        Just(BinaryOp::Sub),
        Just(BinaryOp::Mul),
        Just(BinaryOp::Div)
    ];
    leaf.prop_map(|kind| Expr { kind, span: span() })
        .prop_recursive(3, 12, 2, move |inner| {
            prop_oneof![
                inner.clone().prop_map(|e| ExprKind::Neg(Box::new(e))),
                (op.clone(), inner.clone(), inner).prop_map(|(op, a, b)| ExprKind::Binary(
                    op,
                    Box::new(a),
                    Box::new(b)
                )),
            ]
            .prop_map(|kind| Expr { kind, span: span() })
        })
}

fn comparison() -> impl Strategy<Value = Comparison> {
    prop_oneof![
        Just(Comparison::Less),
        Just(Comparison::LessEqual),
        Just(Comparison::Equal),
        Just(Comparison::GreaterEqual),
        Just(Comparison::Greater),
    ]
}

fn condition() -> impl Strategy<Value = Condition> {
    let leaf = prop_oneof![
        3 => atom(term()).prop_map(ConditionKind::Atom),
        1 => (term(), term()).prop_map(|(a, b)| ConditionKind::Equality(a, b)),
        1 => (comparison(), expr(), expr()).prop_map(|(c, a, b)| ConditionKind::Compare(c, a, b)),
    ];
    leaf.prop_map(|kind| Condition { kind, span: span() })
        .prop_recursive(4, 24, 3, |inner| {
            prop_oneof![
                inner.clone().prop_map(|c| ConditionKind::Not(Box::new(c))),
                prop::collection::vec(inner.clone(), 0..3).prop_map(ConditionKind::And),
                prop::collection::vec(inner.clone(), 0..3).prop_map(ConditionKind::Or),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| ConditionKind::Imply(Box::new(a), Box::new(b))),
                (typed_variables(), inner.clone())
                    .prop_map(|(v, c)| ConditionKind::Exists(v, Box::new(c))),
                (typed_variables(), inner.clone())
                    .prop_map(|(v, c)| ConditionKind::Forall(v, Box::new(c))),
                (prop::option::of(name()), inner)
                    .prop_map(|(n, c)| ConditionKind::Preference(n, Box::new(c))),
            ]
            .prop_map(|kind| Condition { kind, span: span() })
        })
}

fn assign_op() -> impl Strategy<Value = AssignOp> {
    prop_oneof![
        Just(AssignOp::Assign),
        Just(AssignOp::Increase),
        Just(AssignOp::Decrease),
        Just(AssignOp::ScaleUp),
        Just(AssignOp::ScaleDown),
    ]
}

fn effect() -> impl Strategy<Value = Effect> {
    let leaf = prop_oneof![
        3 => atom(term()).prop_map(EffectKind::Add),
        2 => atom(term()).prop_map(EffectKind::Delete),
        1 => (assign_op(), atom(term()), expr()).prop_map(|(op, f, e)| EffectKind::Numeric(op, f, e)),
        1 => (atom(term()), term()).prop_map(|(f, t)| EffectKind::ObjectAssign(f, t)),
    ];
    leaf.prop_map(|kind| Effect { kind, span: span() })
        .prop_recursive(3, 16, 3, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(EffectKind::And),
                (typed_variables(), inner.clone())
                    .prop_map(|(v, e)| EffectKind::Forall(v, Box::new(e))),
                (condition(), inner).prop_map(|(c, e)| EffectKind::When(c, Box::new(e))),
            ]
            .prop_map(|kind| Effect { kind, span: span() })
        })
}

fn requirements() -> impl Strategy<Value = Vec<RequirementFlag>> {
    prop::sample::subsequence(Requirement::ALL.to_vec(), 0..5).prop_map(|rs| {
        rs.into_iter()
            .map(|requirement| RequirementFlag {
                requirement,
                span: span(),
            })
            .collect()
    })
}

fn predicate_decl() -> impl Strategy<Value = PredicateDecl> {
    (name(), typed_variables()).prop_map(|(name, params)| PredicateDecl {
        name,
        params,
        span: span(),
    })
}

fn function_decl() -> impl Strategy<Value = FunctionDecl> {
    let ty = prop_oneof![
        Just(FunctionType::Number),
        type_expr().prop_map(FunctionType::Object)
    ];
    (predicate_decl(), ty).prop_map(|(d, ty)| FunctionDecl {
        name: d.name,
        params: d.params,
        ty,
        span: span(),
    })
}

fn action() -> impl Strategy<Value = Action> {
    (
        name(),
        typed_variables(),
        prop::option::of(condition()),
        prop::option::of(effect()),
    )
        .prop_map(|(name, parameters, precondition, effect)| Action {
            name,
            parameters,
            precondition,
            effect,
            span: span(),
        })
}

fn domain() -> impl Strategy<Value = Domain> {
    (
        name(),
        requirements(),
        typed_names(),
        typed_names(),
        prop::collection::vec(predicate_decl(), 0..3),
        prop::collection::vec(function_decl(), 0..4),
        prop::collection::vec(action(), 0..3),
        prop::collection::vec(
            (predicate_decl(), condition()).prop_map(|(head, body)| DerivedPredicate {
                head,
                body,
                span: span(),
            }),
            0..2,
        ),
    )
        .prop_map(
            |(name, requirements, types, constants, predicates, functions, actions, derived)| {
                Domain {
                    name,
                    requirements,
                    types,
                    constants,
                    predicates,
                    functions,
                    actions,
                    derived,
                    span: span(),
                }
            },
        )
}

fn init_element() -> impl Strategy<Value = InitElement> {
    prop_oneof![
        3 => atom(name()).prop_map(InitElement::Atom),
        1 => atom(name()).prop_map(InitElement::NotAtom),
        1 => (atom(name()), number()).prop_map(|(a, v)| InitElement::NumericValue(a, v, span())),
        1 => (atom(name()), name()).prop_map(|(a, v)| InitElement::ObjectValue(a, v, span())),
    ]
}

fn problem() -> impl Strategy<Value = Problem> {
    let metric = (
        prop_oneof![Just(Optimization::Minimize), Just(Optimization::Maximize)],
        expr(),
    )
        .prop_map(|(optimization, expr)| Metric {
            optimization,
            expr,
            span: span(),
        });
    (
        (name(), name(), requirements(), typed_names()),
        prop::collection::vec(init_element(), 0..6),
        prop::option::of(condition()),
        prop::option::of(condition()),
        prop::option::of(metric),
    )
        .prop_map(
            |((name, domain, requirements, objects), init, goal, constraints, metric)| Problem {
                name,
                domain,
                requirements,
                objects,
                init,
                goal,
                constraints,
                metric,
                span: span(),
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn printed_domains_parse_back(domain in domain()) {
        let text = print_domain(&domain);
        let mut parsed = parse_domain(&text).map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        clear_spans_domain(&mut parsed);
        prop_assert_eq!(parsed, domain, "{}", text);
    }

    #[test]
    fn printed_problems_parse_back(problem in problem()) {
        let text = print_problem(&problem);
        let mut parsed = parse_problem(&text).map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        clear_spans_problem(&mut parsed);
        prop_assert_eq!(parsed, problem, "{}", text);
    }
}

#[test]
fn printer_output_is_canonical_pddl() {
    let text = "(define (domain D) (:requirements :strips :typing) (:types a b - t c)
      (:predicates (p ?x - a ?y) (q))
      (:functions (f ?x) - number (g) - a)
      (:action go :parameters (?x ?y - a) :precondition (and (p ?x ?y) (not (q)) (>= (f ?x) 1.5))
        :effect (and (q) (when (p ?x ?x) (increase (f ?y) (* 2 (f ?x)))))))";
    let printed = print_domain(&parse_domain(text).expect("parses"));
    let expected = "(define (domain d)
  (:requirements :strips :typing)
  (:types
    a b - t
    c)
  (:predicates
    (p ?x - a ?y)
    (q))
  (:functions
    (f ?x) - number
    (g) - a)
  (:action go
    :parameters (?x ?y - a)
    :precondition (and
      (p ?x ?y)
      (not (q))
      (>= (f ?x) 1.5))
    :effect (and
      (q)
      (when (p ?x ?x)
        (increase (f ?y) (* 2 (f ?x)))))))
";
    assert_eq!(printed, expected);
}

/// Parses, prints, parses again: the trees agree modulo spans, and
/// printing is idempotent.
#[test]
fn every_benchmark_file_round_trips() {
    let Some(dir) = benchmarks() else { return };
    let mut seen = std::collections::BTreeSet::new();
    let mut checked = 0;
    for task in shared_data::tasks(&dir) {
        for (index, file) in [&task.domain, &task.problem].into_iter().enumerate() {
            if !seen.insert(file.to_string()) {
                continue;
            }
            let text = std::fs::read_to_string(dir.join(file)).expect("readable");
            if index == 0 {
                let mut first = parse_domain(&text).expect("benchmark domain parses");
                clear_spans_domain(&mut first);
                let printed = print_domain(&first);
                let mut second =
                    parse_domain(&printed).unwrap_or_else(|e| panic!("{file}: {e:?}\n{printed}"));
                clear_spans_domain(&mut second);
                assert_eq!(first, second, "{file}");
                assert_eq!(print_domain(&second), printed, "{file}");
            } else {
                let mut first = parse_problem(&text).expect("benchmark problem parses");
                clear_spans_problem(&mut first);
                let printed = print_problem(&first);
                let mut second =
                    parse_problem(&printed).unwrap_or_else(|e| panic!("{file}: {e:?}\n{printed}"));
                clear_spans_problem(&mut second);
                assert_eq!(first, second, "{file}");
                assert_eq!(print_problem(&second), printed, "{file}");
            }
            checked += 1;
        }
    }
    assert!(checked > 600, "only {checked} files checked");
}
