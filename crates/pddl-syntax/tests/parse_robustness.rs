//! Arbitrary and damaged input never panics, overflows the stack or
//! produces an error without a diagnostic.

use pddl_syntax::{SourceFile, parse_definition};
use proptest::prelude::*;
use shared_data::benchmarks;
use std::sync::OnceLock;

/// Parses `text`; on failure checks that the diagnostics are usable.
/// Returns whether the text parsed.
fn parse_checked(text: &str) -> bool {
    match parse_definition(text) {
        Ok(_) => true,
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty(), "an error without a diagnostic");
            assert!(
                diagnostics.len() <= 101,
                "{} diagnostics",
                diagnostics.len()
            );
            let file = SourceFile::new("input.pddl", text);
            for d in &diagnostics {
                assert!(
                    d.span.start <= d.span.end && d.span.end <= text.len(),
                    "span {:?} out of bounds",
                    d.span
                );
                assert!(text.is_char_boundary(d.span.start) && text.is_char_boundary(d.span.end));
                assert!(d.render(&file).contains("input.pddl:"));
            }
            false
        }
    }
}

/// A few benchmark files (the first domain and problem of each folder),
/// empty when the shared folder is absent.
fn samples() -> &'static [String] {
    static SAMPLES: OnceLock<Vec<String>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        let Some(dir) = benchmarks() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for task in shared_data::first_tasks(&dir, 1) {
            for file in [&task.domain, &task.problem] {
                if let Ok(text) = std::fs::read_to_string(dir.join(file))
                    && text.len() < 50_000
                {
                    out.push(text);
                }
            }
        }
        out
    })
}

#[derive(Clone, Debug)]
enum Mutation {
    Truncate,
    DeleteParen,
    DuplicateParen,
    InsertGarbage(String),
}

fn mutate(text: &str, mutation: &Mutation, where_: usize) -> String {
    // Parentheses outside comments.
    let mut parens = Vec::new();
    let mut in_comment = false;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b';' => in_comment = true,
            b'\n' => in_comment = false,
            b'(' | b')' if !in_comment => parens.push(i),
            _ => {}
        }
    }
    let mut cut = where_ % (text.len() + 1);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    match mutation {
        Mutation::Truncate => text[..cut].to_owned(),
        Mutation::DeleteParen | Mutation::DuplicateParen if parens.is_empty() => text.to_owned(),
        Mutation::DeleteParen => {
            let at = parens[where_ % parens.len()];
            format!("{}{}", &text[..at], &text[at + 1..])
        }
        Mutation::DuplicateParen => {
            let at = parens[where_ % parens.len()];
            format!("{}{}", &text[..at + 1], &text[at..])
        }
        Mutation::InsertGarbage(garbage) => format!("{}{}{}", &text[..cut], garbage, &text[cut..]),
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        Just(Mutation::Truncate),
        Just(Mutation::DeleteParen),
        Just(Mutation::DuplicateParen),
        "[()?:;= \n-]{1,4}|[a-z0-9]{1,3}".prop_map(Mutation::InsertGarbage),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_strings_do_not_panic(text in any::<String>()) {
        parse_checked(&text);
    }

    #[test]
    fn pddl_like_strings_do_not_panic(text in "(\\(|\\)|define|domain|problem|:action|:init|:goal|:types|and|not|=|[a-z]|\\?x|-|1\\.5| |\n|;c\n)*") {
        parse_checked(&text);
    }

    #[test]
    fn mutated_benchmarks_do_not_panic(index in any::<usize>(), mutation in mutation(), where_ in any::<usize>()) {
        let samples = samples();
        if !samples.is_empty() {
            let text = &samples[index % samples.len()];
            let mutated = mutate(text, &mutation, where_);
            let parsed = parse_checked(&mutated);
            // Losing or adding one parenthesis always unbalances the file.
            if matches!(mutation, Mutation::DeleteParen | Mutation::DuplicateParen) && mutated != *text {
                prop_assert!(!parsed);
            }
        }
    }
}

#[test]
fn hundred_thousand_nested_parens_in_every_position() {
    let depth = 100_000;
    let open = "(".repeat(depth);
    let deep_and = "(and ".repeat(depth);
    let deep_sum = "(+ 1 ".repeat(depth);
    let cases = [
        open.clone(),
        format!("{open}{}", ")".repeat(depth)),
        format!("(define (domain d) {open}"),
        format!("(define (domain d) (:action a :precondition {deep_and}"),
        format!(
            "(define (domain d) (:action a :effect {deep_and}(p){})))",
            ")".repeat(depth)
        ),
        format!(
            "(define (problem p) (:domain d) (:goal (> {deep_sum} 2{}) 1)))",
            ")".repeat(depth)
        ),
        format!("(define (problem p) (:domain d) (:init {open}"),
        format!("(define (domain d) (:types a - {open}"),
        format!(
            "(define (domain d) (:derived (p) {}(q){}))",
            "(not ".repeat(depth),
            ")".repeat(depth)
        ),
    ];
    for text in &cases {
        assert!(!parse_checked(text), "{}", &text[..60]);
    }
}

#[test]
fn the_deepest_accepted_nesting_parses_on_a_small_caller_stack() {
    let depth = 500;
    let text = format!(
        "(define (domain d) (:action a :precondition {}(p){} :effect {}(p){}))",
        "(forall (?x) (imply (p) ".repeat(depth / 2),
        "))".repeat(depth / 2),
        "(when (p) ".repeat(depth),
        ")".repeat(depth),
    );
    let parsed = std::thread::Builder::new()
        .stack_size(128 * 1024)
        .spawn(move || parse_definition(&text).is_ok())
        .expect("thread starts")
        .join()
        .expect("no stack overflow");
    assert!(parsed);
}

#[test]
fn folded_sums_nested_in_sums_stay_within_the_depth_limit() {
    // Each level folds 300 operands into a 300-deep chain, with the next
    // level as its first operand: shallow text, deep tree.
    let nested = |levels: usize| {
        let mut sum = "(f)".to_owned();
        for _ in 0..levels {
            sum = format!("(+ {sum}{})", " 1".repeat(300));
        }
        format!("(define (problem p) (:domain d) (:goal (> {sum} 0)))")
    };
    assert!(parse_checked(&nested(1)));
    let errors = parse_definition(&nested(200)).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].message, "nesting deeper than 512 levels");
}

#[test]
fn hundred_megabytes_of_input_are_handled() {
    // Mostly whitespace and comments: cheap to build, long to scan.
    let filler = " ; a comment line\n".repeat(50 * 1024 * 1024 / 18);
    let text = format!("(define (domain big){filler}(:predicates (p)){filler})");
    assert!(text.len() > 100_000_000);
    assert!(parse_checked(&text));
    let truncated = &text[..text.len() - 1];
    let errors = parse_definition(truncated).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(
        errors[0].message,
        "expected `)` to close `(define`, found end of file"
    );
}
