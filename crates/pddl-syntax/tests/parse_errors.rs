//! Diagnostics of the parser: what they say, where they point, and that
//! recovery reports every broken section.

use pddl_syntax::ast::{ConditionKind, EffectKind, ExprKind, InitElement, Requirement};
use pddl_syntax::{Diagnostic, SourceFile, parse_domain, parse_problem};

fn domain_errors(text: &str) -> Vec<Diagnostic> {
    match parse_domain(text) {
        Ok(domain) => panic!("expected errors, parsed {domain:?}"),
        Err(diagnostics) => diagnostics,
    }
}

fn problem_errors(text: &str) -> Vec<Diagnostic> {
    match parse_problem(text) {
        Ok(problem) => panic!("expected errors, parsed {problem:?}"),
        Err(diagnostics) => diagnostics,
    }
}

/// The source text a diagnostic points at.
fn pointed<'t>(text: &'t str, diagnostic: &Diagnostic) -> &'t str {
    &text[diagnostic.span.start..diagnostic.span.end]
}

#[test]
fn truncated_action_says_which_paren_is_missing() {
    let text = "(define (domain d) (:predicates (p)) (:action a :effect (p))";
    let errors = domain_errors(text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        errors[0].message,
        "expected `)` to close `(define`, found end of file"
    );
    assert_eq!(errors[0].span.start, text.len());

    let text = "(define (domain d) (:action a :effect (and (p)";
    let errors = domain_errors(text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        errors[0].message,
        "expected `)` to close `(and`, found end of file"
    );
}

#[test]
fn three_broken_actions_give_three_errors() {
    let text = "(define (domain d)
      (:predicates (p ?x) (q))
      (:action a :parameters (?x) :precondition (p ?x (q)) :effect (q))
      (:action ok :effect (q))
      (:action b :parameters ((?x)) :effect (q))
      (:action c :effect (and (q) ?y))
    )";
    let errors = domain_errors(text);
    assert_eq!(errors.len(), 3, "{errors:?}");
    // `(q)` as an argument: a function term, as PDDL 3.1's object fluents
    // have them.
    assert_eq!(
        errors[0].message,
        "unsupported: function terms as arguments (object fluents, :object-fluents)"
    );
    assert!(errors[0].unsupported, "{errors:?}");
    assert_eq!(
        errors[1].message,
        "expected a variable such as `?x`, found `(`"
    );
    assert_eq!(
        errors[2].message,
        "expected `(` starting an effect, found `?y`"
    );
    assert_eq!(pointed(text, &errors[2]), "?y");
}

#[test]
fn unknown_requirement_points_at_it_and_others_still_parse() {
    let text = "(define (domain d) (:requirements :strips :foo :typing :bar))";
    let errors = domain_errors(text);
    let messages: Vec<&str> = errors.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        ["unknown requirement `:foo`", "unknown requirement `:bar`"]
    );
    assert_eq!(pointed(text, &errors[0]), ":foo");
}

#[test]
fn every_standard_requirement_is_recognised() {
    let keywords: Vec<&str> = Requirement::ALL.iter().map(|r| r.keyword()).collect();
    let text = format!(
        "(define (domain d) (:requirements {}))",
        keywords.join(" ").to_uppercase()
    );
    let domain = parse_domain(&text).expect("all requirements parse");
    let parsed: Vec<Requirement> = domain.requirements.iter().map(|r| r.requirement).collect();
    assert_eq!(parsed, Requirement::ALL);
}

#[test]
fn a_name_is_expected_not_a_paren() {
    let text = "(define (domain d) (:action (a) :effect (p)))";
    let errors = domain_errors(text);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].message, "expected an action name, found `(`");
    assert_eq!(errors[0].span.start, text.find("(a)").unwrap());
}

/// Names starting with `@` are the planner's own (`(@goal)`), so a file's
/// may not: in a domain and in a problem alike.
#[test]
fn a_name_cannot_start_with_an_at_sign() {
    let text = "(define (domain d) (:predicates (@goal) (p)) (:action a :effect (p)))";
    let errors = domain_errors(text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        errors[0].message,
        "expected a predicate name, found `@goal`"
    );
    assert_eq!(
        errors[0].label.as_deref(),
        Some("names cannot start with `@`")
    );
    assert_eq!(pointed(text, &errors[0]), "@goal");
    let text = "(define (problem p) (:domain d) (:objects a @b) (:init) (:goal (p a)))";
    let errors = problem_errors(text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(pointed(text, &errors[0]), "@b");
    // Elsewhere in a name, `@` is only a character.
    let text = "(define (domain d) (:predicates (p@q)) (:action a :effect (p@q)))";
    assert!(parse_domain(text).is_ok());
}

#[test]
fn durative_actions_and_timed_literals_are_unsupported_not_syntax_errors() {
    let text = "(define (domain d) (:requirements :durative-actions)
      (:durative-action move :parameters (?x) :duration (= ?duration 2)
         :condition (at start (p ?x)) :effect (at end (q ?x)))
      (:process fill :parameters () :precondition (p) :effect (increase (v) (* #t 1))))";
    let errors = domain_errors(text);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(
        errors[0].message,
        "unsupported: durative actions (:durative-actions)"
    );
    assert!(pointed(text, &errors[0]).starts_with("(:durative-action move"));
    assert!(pointed(text, &errors[0]).ends_with("(q ?x)))"));
    assert!(errors[1].message.starts_with("unsupported: processes"));

    let text =
        "(define (problem p) (:domain d) (:init (a) (at 10 (b)) (at x y) (at 1 2)) (:goal (a)))";
    let errors = problem_errors(text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        errors[0].message,
        "unsupported: timed initial literals (:timed-initial-literals)"
    );
    assert_eq!(pointed(text, &errors[0]), "(at 10 (b))");
}

#[test]
fn trajectory_constraints_are_unsupported_but_preferences_parse() {
    let text = "(define (problem p) (:domain d) (:goal (and (a) (preference p1 (b))))
       (:constraints (always (a))))";
    let errors = problem_errors(text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0]
            .message
            .starts_with("unsupported: PDDL3 trajectory constraints")
    );

    let text = "(define (problem p) (:domain d) (:goal (preference (b))) (:constraints (and (a))))";
    let problem = parse_problem(text).expect("parses");
    let goal = problem.goal.expect("goal");
    assert!(matches!(goal.kind, ConditionKind::Preference(None, _)));
    assert!(
        matches!(problem.constraints.expect("constraints").kind, ConditionKind::And(ref v) if v.len() == 1)
    );
}

#[test]
fn deep_nesting_is_refused_with_a_clear_error() {
    let depth = 100_000;
    let text = format!(
        "(define (domain d) (:action a :precondition {}(p){} :effect (p)))",
        "(not ".repeat(depth),
        ")".repeat(depth)
    );
    let errors = domain_errors(&text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].message, "nesting deeper than 512 levels");

    // 500 levels are fine.
    let text = format!(
        "(define (domain d) (:action a :precondition {}(p){} :effect (p)))",
        "(not ".repeat(500),
        ")".repeat(500)
    );
    assert!(parse_domain(&text).is_ok());

    // Long n-ary sums fold into deep trees: refused the same way.
    let text = format!(
        "(define (problem p) (:domain d) (:goal (> (+ {}) 0)))",
        "(f) ".repeat(10_000)
    );
    let errors = problem_errors(&text);
    assert_eq!(errors[0].message, "nesting deeper than 512 levels");
}

#[test]
fn rendered_diagnostic_shows_line_and_caret() {
    let text = "(define (domain d)\n  (:action a\n    :effect (p) :cost 3))";
    let errors = domain_errors(text);
    let rendered = errors[0].render(&SourceFile::new("d.pddl", text));
    assert!(
        rendered.starts_with("error: unknown action field `:cost`\n --> d.pddl:3:17\n"),
        "{rendered}"
    );
    assert!(rendered.contains("^^^^^"), "{rendered}");
}

/// A generated problem on one line of thousands of characters: the error
/// shows a window of the line around the span, each cut end marked, with
/// the caret under the offending text; the location is the real one.
#[test]
fn rendered_diagnostic_shows_a_window_of_a_long_line() {
    let objects: String = (0..300).map(|i| format!("o{i} ")).collect();
    let atoms: String = (0..300).map(|i| format!("(p o{i}) ")).collect();
    let text = format!(
        "(define (problem p) (:domain d) (:objects {objects}) (:gaol (p o2)) (:init {atoms}))"
    );
    let errors = problem_errors(&text);
    let rendered = errors[0].render(&SourceFile::new("p.pddl", text.as_str()));
    let column = text.find("(:gaol").expect("present") + 2;
    assert!(
        rendered.contains(&format!(" --> p.pddl:1:{column}\n")),
        "{rendered}"
    );
    let lines: Vec<&str> = rendered.lines().collect();
    let shown = lines[3].strip_prefix("1 | ").expect("the source line");
    let carets = lines[4].strip_prefix("  | ").expect("the caret line");
    assert!(shown.starts_with('…') && shown.ends_with('…'), "{rendered}");
    assert!(shown.chars().count() <= 125, "{rendered}");
    let caret = carets.find('^').expect("a caret");
    let pointed: String = shown.chars().skip(caret).take(5).collect();
    assert_eq!(pointed, ":gaol", "{rendered}");
    // A line that fits is shown whole.
    let short = "(define (problem p) (:domain d) (:gaol (p)))";
    let rendered = problem_errors(short)[0].render(&SourceFile::new("p.pddl", short));
    assert!(rendered.contains(&format!("1 | {short}\n")), "{rendered}");
}

#[test]
fn names_are_lower_cased_and_comments_whitespace_ignored() {
    let text = "; header\r\n(DEFINE (Domain Blocks_World-2) ; c\r\n\t(:PREDICATES (On ?X ?y-1))\r\n\t(:action Move-It :parameters (?X) :precondition () :effect ()))";
    let domain = parse_domain(text).expect("parses");
    assert_eq!(domain.name.text, "blocks_world-2");
    assert_eq!(domain.predicates[0].name.text, "on");
    assert_eq!(domain.predicates[0].params[0].var.name, "x");
    assert_eq!(domain.predicates[0].params[1].var.name, "y-1");
    let action = &domain.actions[0];
    assert_eq!(action.name.text, "move-it");
    assert!(action.precondition.is_none() && action.effect.is_none());
    assert_eq!(
        &text[action.name.span.start..action.name.span.end],
        "Move-It"
    );
}

#[test]
fn numeric_constructs_parse_into_the_expected_shapes() {
    let text = "(define (domain d) (:requirements :numeric-fluents :action-costs :object-fluents)
      (:types truck - vehicle vehicle place - object city - (either place region))
      (:functions (fuel ?t - truck) (total-cost) - number (loc ?t - truck) - place (cap))
      (:action go :parameters (?t - truck ?from ?to - place)
        :precondition (and (>= (fuel ?t) (* 2.5 (+ 1 2 3))) (= ?from ?to) (= (cap) -1) (< total-cost 1e3))
        :effect (and (decrease (fuel ?t) (- (cap))) (increase (total-cost) 1) (assign (loc ?t) ?to)
                     (when (not (= ?t ?t)) (scale-up (cap) 2)))))";
    let domain = parse_domain(text).expect("parses");
    assert_eq!(domain.types.len(), 4);
    assert_eq!(domain.types[3].name.text, "city");
    assert_eq!(domain.types[3].ty.as_ref().unwrap().names().len(), 2);
    let function_types: Vec<bool> = domain
        .functions
        .iter()
        .map(|f| matches!(f.ty, pddl_syntax::ast::FunctionType::Number))
        .collect();
    assert_eq!(function_types, [true, true, false, true]);
    let action = &domain.actions[0];
    assert_eq!(action.parameters.len(), 3);
    let ConditionKind::And(parts) = &action.precondition.as_ref().unwrap().kind else {
        panic!()
    };
    let ConditionKind::Compare(_, _, right) = &parts[0].kind else {
        panic!()
    };
    // 2.5 * ((1 + 2) + 3)
    let ExprKind::Binary(_, two_and_half, sum) = &right.kind else {
        panic!()
    };
    assert_eq!(two_and_half.kind, ExprKind::Number(2.5));
    let ExprKind::Binary(_, inner, three) = &sum.kind else {
        panic!()
    };
    assert_eq!(three.kind, ExprKind::Number(3.0));
    assert!(matches!(inner.kind, ExprKind::Binary(..)));
    assert!(matches!(parts[1].kind, ConditionKind::Equality(..)));
    assert!(matches!(
        parts[2].kind,
        ConditionKind::Compare(
            _,
            _,
            Expr {
                kind: ExprKind::Number(-1.0),
                ..
            }
        )
    ));
    assert!(
        matches!(&parts[3].kind, ConditionKind::Compare(_, Expr { kind: ExprKind::Fluent(f), .. }, _) if f.predicate.text == "total-cost")
    );
    let EffectKind::And(effects) = &action.effect.as_ref().unwrap().kind else {
        panic!()
    };
    assert!(matches!(
        &effects[0].kind,
        EffectKind::Numeric(
            _,
            _,
            Expr {
                kind: ExprKind::Neg(_),
                ..
            }
        )
    ));
    assert!(matches!(effects[2].kind, EffectKind::ObjectAssign(..)));
    assert!(matches!(effects[3].kind, EffectKind::When(..)));

    let text = "(define (problem p) (:domain d) (:objects t1 t2 - truck a b)
      (:init (= (fuel t1) 10.5) (= (loc t1) a) (not (at t2 b)) (= (total-cost) 0))
      (:goal (and)) (:metric minimize (+ (total-cost) total-time)))";
    let problem = parse_problem(text).expect("parses");
    assert_eq!(problem.objects.len(), 4);
    assert!(problem.objects[2].ty.is_none());
    assert!(matches!(problem.init[0], InitElement::NumericValue(_, v, _) if v == 10.5));
    assert!(matches!(&problem.init[1], InitElement::ObjectValue(_, b, _) if b.text == "a"));
    assert!(matches!(problem.init[2], InitElement::NotAtom(_)));
    let metric = problem.metric.expect("metric");
    assert!(
        matches!(&metric.expr.kind, ExprKind::Binary(_, _, t) if t.kind == ExprKind::TotalTime)
    );
}

use pddl_syntax::ast::Expr;

#[test]
fn sections_in_any_order_and_missing_domain_is_an_error() {
    let text = "(define (problem p) (:goal (a)) (:init (a)) (:objects x) (:domain d))";
    let problem = parse_problem(text).expect("parses");
    assert_eq!(problem.domain.text, "d");
    let errors = problem_errors("(define (problem p) (:init (a)) (:goal (a)))");
    assert_eq!(errors[0].message, "missing `(:domain NAME)` in the problem");
}

#[test]
fn garbage_and_empty_inputs_are_errors_not_panics() {
    let with_bom = "\u{feff}(define (domain d))";
    assert_eq!(parse_domain(with_bom).expect("BOM skipped").span.start, 3);
    for text in [
        "",
        ")",
        "(",
        "(define",
        "(define (domain",
        "((((",
        "(define (domain d)) extra",
        "\u{feff}(x)",
    ] {
        assert!(parse_domain(text).is_err(), "{text:?}");
    }
    let errors = domain_errors("");
    assert_eq!(errors[0].message, "expected `(define`, found end of file");
}

#[test]
fn a_missing_paren_does_not_swallow_the_following_sections() {
    let text = "(define (domain d)
      (:predicates (p) (q))
      (:action a :precondition (and (p) :effect (q))
      (:action b :effect (and (q) (increase)))
      (:durative-action c :parameters () :duration (= ?duration 1) :condition () :effect ())
      (:action ok :effect (p)))";
    let errors = domain_errors(text);
    let messages: Vec<&str> = errors.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "expected `(` starting a condition, found `:effect`",
            "expected a function term such as `(total-cost)`, found `)`",
            "unsupported: durative actions (:durative-actions)",
        ]
    );
    let text = "(define (problem p) (:domain d) (:init (a) (b ?x) (c)\n (:goal (a)) (:metric maximize ?v))";
    let errors = problem_errors(text);
    let messages: Vec<&str> = errors.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "expected an object name, found `?x`",
            "expected `)` to close `(:init`, found `(:goal`",
            "variable `?v` used as a numeric expression"
        ]
    );
}

/// `(= (f) ?x)` is an object fluent compared with an object (PDDL 3.1),
/// which is not supported: the error says so, as an unsupported feature.
#[test]
fn comparing_a_function_with_an_object_names_object_fluents() {
    let text = "(define (domain d) (:functions (pos) - object)
      (:action go :parameters (?l) :precondition (= (pos) ?l) :effect (and)))";
    let errors = domain_errors(text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        errors[0].message,
        "unsupported: variable `?l` compared as a function's value"
    );
    assert!(errors[0].unsupported, "{errors:?}");
    assert!(errors[0].notes[0].contains("object fluents"), "{errors:?}");
}
