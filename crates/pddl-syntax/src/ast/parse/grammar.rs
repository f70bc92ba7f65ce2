//! The PDDL grammar as a recursive-descent parser over [`lexer`] tokens,
//! with error recovery at the level of sections, actions and list elements.

use super::lexer::{self, Tok, Token};
use super::{MAX_ERRORS, MAX_NESTING};
use crate::ast::*;
use crate::error::Diagnostic;
use std::borrow::Cow;

/// Marker for a failed parse whose diagnostic has already been recorded.
pub(crate) struct Failed;

type PResult<T> = Result<T, Failed>;

/// Where error recovery resumed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Recovery {
    /// After the `)` closing the broken group.
    Closed,
    /// At a `(:keyword` inside the group: a `)` is missing and a new
    /// section starts there.
    AtNextSection,
    /// At the end of the input.
    AtEndOfFile,
}

/// Where a condition appears: trajectory-constraint operators are only
/// recognised (and rejected) inside `:constraints`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Plain,
    Constraints,
}

/// The right-hand side of `=` or `assign` before we know whether it is an
/// object term or a numeric expression.
enum Operand {
    Term(Term),
    Expr(Expr),
}

/// Words that start a PDDL3 trajectory constraint.
const MODAL_OPERATORS: [&str; 9] = [
    "always",
    "sometime",
    "within",
    "at-most-once",
    "sometime-after",
    "sometime-before",
    "always-within",
    "hold-during",
    "hold-after",
];

/// `text` in lower case, borrowed when it already is.
fn lowered(text: &str) -> Cow<'_, str> {
    if text.bytes().any(|b| b.is_ascii_uppercase()) || !text.is_ascii() {
        Cow::Owned(lexer::lower(text))
    } else {
        Cow::Borrowed(text)
    }
}

/// The parser state: the text, the lookahead token and what went wrong.
pub(crate) struct Parser<'a> {
    text: &'a str,
    tok: Token,
    diagnostics: Vec<Diagnostic>,
    depth: usize,
    /// An error at the end of the file was reported: a truncated file
    /// gives one "found end of file" error, not one per open group.
    eof_reported: bool,
    /// [`MAX_ERRORS`] was reached, or the stack budget: stop.
    aborted: bool,
    /// Nesting allowed on the current stack (at most [`MAX_NESTING`]).
    stack_budget: usize,
    /// Parsing stopped because nesting exceeded `stack_budget`.
    out_of_stack_budget: bool,
}

impl<'a> Parser<'a> {
    /// A parser positioned at the start of `text`, allowed to recurse
    /// `stack_budget` levels deep before giving up with `None` from
    /// [`Parser::parse_file`] (so that the caller can retry on a bigger
    /// stack).
    pub(crate) fn new(text: &'a str, stack_budget: usize) -> Parser<'a> {
        Parser {
            text,
            // A UTF-8 byte order mark (some editors write one) is skipped.
            tok: lexer::next_token(text, if text.starts_with('\u{feff}') { 3 } else { 0 }),
            diagnostics: Vec::new(),
            depth: 0,
            eof_reported: false,
            aborted: false,
            stack_budget: stack_budget.min(MAX_NESTING),
            out_of_stack_budget: false,
        }
    }

    /// Parses the whole text as one definition; `None` when nesting went
    /// past the stack budget (below [`MAX_NESTING`]).
    pub(crate) fn parse_file(mut self) -> Option<Result<Definition, Vec<Diagnostic>>> {
        let result = self.definition();
        if self.out_of_stack_budget {
            return None;
        }
        if result.is_ok() && self.tok.kind != Tok::Eof {
            self.expected("end of file after the definition");
        }
        Some(match result {
            Ok(definition) if self.diagnostics.is_empty() => Ok(definition),
            _ => {
                if self.diagnostics.is_empty() {
                    // Unreachable by construction; never return an empty error list.
                    self.diagnostics.push(Diagnostic::error(
                        "could not parse the input",
                        Span::new(0, 0),
                    ));
                }
                Err(self.diagnostics)
            }
        })
    }

    // ----- tokens and diagnostics -----

    fn text_of(&self, span: Span) -> &'a str {
        &self.text[span.start..span.end]
    }

    fn current(&self) -> &'a str {
        self.text_of(self.tok.span)
    }

    fn bump(&mut self) -> Token {
        let token = self.tok;
        self.tok = lexer::next_token(self.text, token.span.end);
        token
    }

    fn at_word(&self, word: &str) -> bool {
        self.tok.kind == Tok::Sym && self.current().eq_ignore_ascii_case(word)
    }

    fn at_keyword(&self) -> bool {
        self.tok.kind == Tok::Sym && self.current().starts_with(':')
    }

    /// How the current token is named in messages.
    fn found(&self) -> String {
        match self.tok.kind {
            Tok::Eof => "end of file".to_owned(),
            _ => format!("`{}`", shorten(self.current())),
        }
    }

    /// How the group opened at `open` is named in messages: "`(:action`".
    fn opener(&self, open: usize) -> String {
        let next = lexer::next_token(self.text, open + 1);
        match next.kind {
            Tok::Sym | Tok::Var => format!("`({}`", shorten(self.text_of(next.span))),
            _ => "`(`".to_owned(),
        }
    }

    fn report(&mut self, diagnostic: Diagnostic) -> Failed {
        if self.aborted {
            return Failed;
        }
        if self.diagnostics.len() >= MAX_ERRORS {
            self.aborted = true;
            self.diagnostics.push(Diagnostic::error(
                format!("too many errors (more than {MAX_ERRORS}); giving up"),
                diagnostic.span,
            ));
        } else {
            self.diagnostics.push(diagnostic);
        }
        Failed
    }

    fn error(&mut self, message: impl Into<String>, span: Span) -> Failed {
        self.report(Diagnostic::error(message, span))
    }

    /// "expected WHAT, found <current token>" at the current token.
    fn expected(&mut self, what: &str) -> Failed {
        self.expected_labelled(what, format!("expected {what}"))
    }

    /// As [`Parser::expected`], with `label` under the caret.
    fn expected_labelled(&mut self, what: &str, label: String) -> Failed {
        if self.tok.kind == Tok::Eof {
            if self.eof_reported {
                return Failed;
            }
            self.eof_reported = true;
        }
        let diagnostic = Diagnostic::error(
            format!("expected {what}, found {}", self.found()),
            self.tok.span,
        )
        .with_label(label);
        self.report(diagnostic)
    }

    /// Whether another element follows inside the group opened at `open`
    /// (false at its `)`); the end of the file is an error.
    fn more(&mut self, open: Span) -> PResult<bool> {
        match self.tok.kind {
            Tok::Close => Ok(false),
            Tok::Eof => {
                let what = format!("`)` to close {}", self.opener(open.start));
                Err(self.expected(&what))
            }
            _ => Ok(true),
        }
    }

    fn expect_open(&mut self, what: &str) -> PResult<Span> {
        if self.tok.kind == Tok::Open {
            Ok(self.bump().span)
        } else {
            Err(self.expected(what))
        }
    }

    /// Consumes the `)` closing the group opened at `open`; returns the end.
    fn expect_close(&mut self, open: Span) -> PResult<usize> {
        if self.tok.kind == Tok::Close {
            Ok(self.bump().span.end)
        } else {
            let what = format!("`)` to close {}", self.opener(open.start));
            Err(self.expected(&what))
        }
    }

    /// Skips the group opened at `open` (after an error inside it) and
    /// continues after its `)`.
    fn recover(&mut self, open: usize) -> Recovery {
        match lexer::recovery_point(self.text.as_bytes(), open) {
            lexer::Resume::AfterClose(end) => {
                self.tok = lexer::next_token(self.text, end);
                Recovery::Closed
            }
            lexer::Resume::AtSection(start) => {
                self.tok = lexer::next_token(self.text, start);
                Recovery::AtNextSection
            }
            lexer::Resume::EndOfFile => {
                if !self.eof_reported {
                    self.eof_reported = true;
                    let message = format!(
                        "expected `)` to close {}, found end of file",
                        self.opener(open)
                    );
                    self.report(
                        Diagnostic::error(message, Span::new(open, open + 1))
                            .with_label("this `(` is never closed"),
                    );
                }
                let end = self.text.len();
                self.tok = Token {
                    kind: Tok::Eof,
                    span: Span::new(end, end),
                };
                Recovery::AtEndOfFile
            }
        }
    }

    /// Reports an unsupported construct spanning the group opened at `open`.
    fn unsupported(&mut self, open: usize, what: &str) -> Failed {
        let end = lexer::matching_close(self.text.as_bytes(), open).unwrap_or(self.text.len());
        self.report(
            Diagnostic::unsupported(what, Span::new(open, end))
                .with_label("this planner does not support this construct"),
        )
    }

    /// Enters one more level of nesting, refusing past [`MAX_NESTING`].
    fn enter(&mut self, open: Span) -> PResult<()> {
        if self.depth >= MAX_NESTING {
            return Err(self.nesting_error(open));
        }
        if self.depth >= self.stack_budget {
            self.out_of_stack_budget = true;
            self.aborted = true;
            return Err(Failed);
        }
        self.depth += 1;
        Ok(())
    }

    fn nesting_error(&mut self, open: Span) -> Failed {
        self.report(
            Diagnostic::error(format!("nesting deeper than {MAX_NESTING} levels"), open)
                .with_label("too deeply nested"),
        )
    }

    // ----- names and terms -----

    fn name(&mut self, what: &str) -> PResult<Name> {
        if self.tok.kind == Tok::Sym && self.current().starts_with('@') {
            // PDDL names start with a letter; the planner's own facts
            // (`(@goal)` for a goal of several alternatives) start with
            // `@`, and a name of the files must not pass for one.
            return Err(self.expected_labelled(what, "names cannot start with `@`".into()));
        }
        if self.tok.kind == Tok::Sym && !self.current().starts_with(':') {
            let token = self.bump();
            Ok(Name::new(
                lexer::lower(self.text_of(token.span)),
                token.span,
            ))
        } else {
            Err(self.expected(what))
        }
    }

    fn variable(&mut self) -> PResult<Variable> {
        if self.tok.kind == Tok::Var && self.tok.span.end - self.tok.span.start > 1 {
            let token = self.bump();
            Ok(Variable {
                name: lexer::lower(&self.text_of(token.span)[1..]),
                span: token.span,
            })
        } else {
            Err(self.expected("a variable such as `?x`"))
        }
    }

    fn term(&mut self) -> PResult<Term> {
        match self.tok.kind {
            Tok::Var => self.variable().map(Term::Variable),
            Tok::Sym if !self.current().starts_with(':') => self.name("a term").map(Term::Name),
            // `(road (pos ?t) ?to)`: a function's value as an argument.
            Tok::Open => Err(self.unsupported(
                self.tok.span.start,
                "function terms as arguments (object fluents, :object-fluents)",
            )),
            _ => Err(self.expected("a term (a name or a variable)")),
        }
    }

    /// Terms up to (not including) the closing `)`.
    fn terms(&mut self, open: Span) -> PResult<Vec<Term>> {
        let mut args = Vec::new();
        while self.more(open)? {
            args.push(self.term()?);
        }
        Ok(args)
    }

    /// Object names up to (not including) the closing `)`.
    fn object_names(&mut self, open: Span) -> PResult<Vec<Name>> {
        let mut args = Vec::new();
        while self.more(open)? {
            args.push(self.name("an object name")?);
        }
        Ok(args)
    }

    // ----- typed lists -----

    /// `x y - t z - (either u v) w` up to (not including) `)`; entries
    /// after the last `-` have no type.
    fn typed_list<T>(
        &mut self,
        open: Span,
        what: &str,
        mut item: impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<Vec<(T, Option<Type>)>> {
        let mut out: Vec<(T, Option<Type>)> = Vec::new();
        let mut untyped_from = 0;
        while self.more(open)? {
            if self.tok.kind == Tok::Sym && self.current() == "-" {
                let dash = self.bump();
                if untyped_from == out.len() {
                    return Err(self.error(format!("expected {what} before `-`"), dash.span));
                }
                let ty = self.type_expr()?;
                for entry in &mut out[untyped_from..] {
                    entry.1 = Some(ty.clone());
                }
                untyped_from = out.len();
            } else {
                out.push((item(self)?, None));
            }
        }
        Ok(out)
    }

    fn type_expr(&mut self) -> PResult<Type> {
        match self.tok.kind {
            Tok::Sym if !self.current().starts_with(':') && self.current() != "-" => {
                self.name("a type name").map(Type::Name)
            }
            Tok::Open => {
                let open = self.bump().span;
                if !self.at_word("either") {
                    return Err(self.expected("`either`"));
                }
                self.bump();
                let mut names = Vec::new();
                while self.more(open)? {
                    names.push(self.name("a type name")?);
                }
                if names.is_empty() {
                    return Err(self.expected("a type name"));
                }
                let end = self.expect_close(open)?;
                Ok(Type::Either(names, Span::new(open.start, end)))
            }
            _ => Err(self.expected("a type after `-`")),
        }
    }

    fn typed_names(&mut self, open: Span, what: &str) -> PResult<Vec<TypedName>> {
        let list = self.typed_list(open, what, |p| p.name(what))?;
        Ok(list
            .into_iter()
            .map(|(name, ty)| TypedName { name, ty })
            .collect())
    }

    fn typed_variables(&mut self, open: Span) -> PResult<Vec<TypedVariable>> {
        let list = self.typed_list(open, "a variable", |p| p.variable())?;
        Ok(list
            .into_iter()
            .map(|(var, ty)| TypedVariable { var, ty })
            .collect())
    }

    /// `( typed-variables )`.
    fn parameter_list(&mut self) -> PResult<Vec<TypedVariable>> {
        let open = self.expect_open("`(` starting a parameter list")?;
        let vars = self.typed_variables(open)?;
        self.expect_close(open)?;
        Ok(vars)
    }

    /// `( elements )` parsed one by one until `)`; a broken element is
    /// reported and skipped.
    fn elements<T>(
        &mut self,
        section: Span,
        what: &str,
        mut element: impl FnMut(&mut Self, Span) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        let mut out = Vec::new();
        loop {
            if self.aborted {
                return Err(Failed);
            }
            match self.tok.kind {
                Tok::Close => return Ok(out),
                Tok::Open => {
                    // Only `(:` counts, as in error recovery; checking the
                    // byte first keeps this off the hot path.
                    if self.text.as_bytes().get(self.tok.span.end) == Some(&b':') {
                        let next = lexer::next_token(self.text, self.tok.span.end);
                        // `(:goal` in `(:init`: this section lacks its `)`.
                        let message = format!(
                            "expected `)` to close {}, found `({}`",
                            self.opener(section.start),
                            shorten(self.text_of(next.span))
                        );
                        let span = Span::new(self.tok.span.start, next.span.end);
                        return Err(self.report(
                            Diagnostic::error(message, span)
                                .with_label("a new section starts here"),
                        ));
                    }
                    let open = self.bump().span;
                    match element(self, open) {
                        Ok(x) => out.push(x),
                        Err(Failed) => {
                            if self.recover(open.start) != Recovery::Closed {
                                // Ran into the next section (a `)` is
                                // missing) or the end: this list is over.
                                return Err(Failed);
                            }
                        }
                    }
                }
                _ => return Err(self.expected(what)),
            }
        }
    }

    // ----- definition and sections -----

    fn definition(&mut self) -> PResult<Definition> {
        let open = self.expect_open("`(define`")?;
        if !self.at_word("define") {
            return Err(self.expected("`define`"));
        }
        self.bump();
        let header = self.expect_open("`(domain NAME)` or `(problem NAME)`")?;
        let is_domain = if self.at_word("domain") {
            true
        } else if self.at_word("problem") {
            false
        } else {
            return Err(self.expected("`domain` or `problem`"));
        };
        self.bump();
        let name = self.name(if is_domain {
            "a domain name"
        } else {
            "a problem name"
        })?;
        self.expect_close(header)?;
        if is_domain {
            self.domain(open, name).map(Definition::Domain)
        } else {
            self.problem(open, name).map(Definition::Problem)
        }
    }

    /// Sections until the `)` closing `(define`; returns the end offset.
    fn sections(
        &mut self,
        define: Span,
        mut section: impl FnMut(&mut Self, Span) -> PResult<()>,
    ) -> usize {
        loop {
            if self.aborted {
                return self.text.len();
            }
            match self.tok.kind {
                Tok::Close => return self.bump().span.end,
                Tok::Eof => {
                    let what = format!("`)` to close {}", self.opener(define.start));
                    self.expected(&what);
                    return self.text.len();
                }
                Tok::Open => {
                    let open = self.bump().span;
                    if section(self, open).is_err() {
                        let _ = self.recover(open.start);
                    }
                }
                Tok::Sym | Tok::Var => {
                    self.expected("a section such as `(:predicates ...)`, or `)`");
                    while matches!(self.tok.kind, Tok::Sym | Tok::Var) {
                        self.bump();
                    }
                }
            }
        }
    }

    /// The `:keyword` starting a section, lower-cased.
    fn section_keyword(&mut self) -> PResult<(String, Span)> {
        if self.at_keyword() {
            let token = self.bump();
            Ok((lexer::lower(self.text_of(token.span)), token.span))
        } else {
            Err(self.expected("a section keyword such as `:action`"))
        }
    }

    fn requirements(&mut self, open: Span) -> PResult<Vec<RequirementFlag>> {
        let mut flags = Vec::new();
        while self.more(open)? {
            if !self.at_keyword() {
                return Err(self.expected("a requirement such as `:strips`, or `)`"));
            }
            let token = self.bump();
            let keyword = lowered(self.text_of(token.span));
            match Requirement::from_keyword(&keyword) {
                Some(requirement) => flags.push(RequirementFlag {
                    requirement,
                    span: token.span,
                }),
                None => {
                    self.report(
                        Diagnostic::error(
                            format!("unknown requirement `{}`", shorten(&keyword)),
                            token.span,
                        )
                        .with_label("not a PDDL 3.1 requirement"),
                    );
                }
            }
        }
        Ok(flags)
    }

    fn domain(&mut self, define: Span, name: Name) -> PResult<Domain> {
        let mut domain = Domain {
            name,
            requirements: Vec::new(),
            types: Vec::new(),
            constants: Vec::new(),
            predicates: Vec::new(),
            functions: Vec::new(),
            actions: Vec::new(),
            derived: Vec::new(),
            span: define,
        };
        let end = self.sections(define, |p, open| p.domain_section(&mut domain, open));
        domain.span = Span::new(define.start, end);
        Ok(domain)
    }

    fn domain_section(&mut self, domain: &mut Domain, open: Span) -> PResult<()> {
        let (keyword, keyword_span) = self.section_keyword()?;
        match keyword.as_str() {
            ":requirements" => {
                let flags = self.requirements(open)?;
                append(&mut domain.requirements, flags);
            }
            ":types" => {
                let types = self.typed_names(open, "a type name")?;
                append(&mut domain.types, types);
            }
            ":constants" => {
                let constants = self.typed_names(open, "a constant name")?;
                append(&mut domain.constants, constants);
            }
            ":predicates" => {
                let predicates = self.elements(
                    open,
                    "`(` starting a predicate declaration, or `)`",
                    |p, open| p.predicate_decl_after_open(open),
                )?;
                append(&mut domain.predicates, predicates);
            }
            ":functions" => {
                let functions = self.functions(open)?;
                append(&mut domain.functions, functions);
            }
            ":action" => {
                let action = self.action(open)?;
                domain.actions.push(action);
                return Ok(());
            }
            ":derived" => {
                let head_open = self.expect_open("`(` starting the derived predicate")?;
                let head = self.predicate_decl_after_open(head_open)?;
                let body = self.condition(Context::Plain)?;
                let end = self.expect_close(open)?;
                domain.derived.push(DerivedPredicate {
                    head,
                    body,
                    span: Span::new(open.start, end),
                });
                return Ok(());
            }
            ":durative-action" => {
                return Err(self.unsupported(open.start, "durative actions (:durative-actions)"));
            }
            ":process" => return Err(self.unsupported(open.start, "processes (PDDL+ :time)")),
            ":event" => return Err(self.unsupported(open.start, "events (PDDL+ :time)")),
            ":constraints" => {
                return Err(self.unsupported(open.start, "domain constraints (:constraints)"));
            }
            _ => {
                return Err(self.report(
                    Diagnostic::error(format!("unknown domain section `{}`", shorten(&keyword)), keyword_span)
                        .with_label("unknown section")
                        .with_note(
                            "expected one of :requirements :types :constants :predicates :functions :action :derived",
                        ),
                ));
            }
        }
        self.expect_close(open)?;
        Ok(())
    }

    /// `name typed-variables )` after the `(`.
    fn predicate_decl_after_open(&mut self, open: Span) -> PResult<PredicateDecl> {
        let name = self.name("a predicate name")?;
        let params = self.typed_variables(open)?;
        let end = self.expect_close(open)?;
        Ok(PredicateDecl {
            name,
            params,
            span: Span::new(open.start, end),
        })
    }

    fn functions(&mut self, open: Span) -> PResult<Vec<FunctionDecl>> {
        let list = self.typed_list(open, "a function declaration", |p| {
            let open = p.expect_open("a function declaration such as `(f ?x)`")?;
            let decl = p.predicate_decl_after_open(open)?;
            Ok(decl)
        })?;
        Ok(list
            .into_iter()
            .map(|(decl, ty)| FunctionDecl {
                name: decl.name,
                params: decl.params,
                ty: match ty {
                    None => FunctionType::Number,
                    Some(Type::Name(n)) if n.text == "number" => FunctionType::Number,
                    Some(other) => FunctionType::Object(other),
                },
                span: decl.span,
            })
            .collect())
    }

    fn action(&mut self, open: Span) -> PResult<Action> {
        let name = self.name("an action name")?;
        let mut parameters: Option<Vec<TypedVariable>> = None;
        let mut precondition: Option<Option<Condition>> = None;
        let mut effect: Option<Option<Effect>> = None;
        while self.more(open)? {
            if !self.at_keyword() {
                return Err(self.expected("`:parameters`, `:precondition`, `:effect` or `)`"));
            }
            let token = self.bump();
            let keyword = lowered(self.text_of(token.span));
            let duplicate = match keyword.as_ref() {
                ":parameters" => parameters.replace(self.parameter_list()?).is_some(),
                ":precondition" => precondition
                    .replace(self.optional_condition(Context::Plain)?)
                    .is_some(),
                ":effect" => effect.replace(self.optional_effect()?).is_some(),
                _ => {
                    return Err(self.report(
                        Diagnostic::error(
                            format!("unknown action field `{}`", shorten(&keyword)),
                            token.span,
                        )
                        .with_label("unknown field")
                        .with_note("expected one of :parameters :precondition :effect"),
                    ));
                }
            };
            if duplicate {
                self.error(
                    format!("duplicate `{keyword}` in action `{name}`"),
                    token.span,
                );
            }
        }
        let end = self.bump().span.end;
        Ok(Action {
            name,
            parameters: parameters.unwrap_or_default(),
            precondition: precondition.flatten(),
            effect: effect.flatten(),
            span: Span::new(open.start, end),
        })
    }

    fn problem(&mut self, define: Span, name: Name) -> PResult<Problem> {
        let mut domain_name: Option<Name> = None;
        let mut problem = Problem {
            name: name.clone(),
            domain: name,
            requirements: Vec::new(),
            objects: Vec::new(),
            init: Vec::new(),
            goal: None,
            constraints: None,
            metric: None,
            span: define,
        };
        let end = self.sections(define, |p, open| {
            p.problem_section(&mut problem, &mut domain_name, open)
        });
        problem.span = Span::new(define.start, end);
        match domain_name {
            Some(domain) => {
                problem.domain = domain;
                Ok(problem)
            }
            None => Err(self.report(
                Diagnostic::error(
                    "missing `(:domain NAME)` in the problem",
                    Span::new(define.start, define.end),
                )
                .with_label("this problem does not name its domain"),
            )),
        }
    }

    fn problem_section(
        &mut self,
        problem: &mut Problem,
        domain: &mut Option<Name>,
        open: Span,
    ) -> PResult<()> {
        let (keyword, keyword_span) = self.section_keyword()?;
        let duplicate = match keyword.as_ref() {
            ":domain" => domain.replace(self.name("a domain name")?).is_some(),
            ":requirements" => {
                let flags = self.requirements(open)?;
                append(&mut problem.requirements, flags);
                false
            }
            ":objects" => {
                let objects = self.typed_names(open, "an object name")?;
                append(&mut problem.objects, objects);
                false
            }
            ":init" => {
                let init =
                    self.elements(open, "`(` starting an initial fact, or `)`", |p, open| {
                        p.init_element(open)
                    })?;
                append(&mut problem.init, init);
                false
            }
            ":goal" => {
                let goal = match self.optional_condition(Context::Plain)? {
                    Some(goal) => goal,
                    // `()`: the empty conjunction, always true.
                    None => Condition {
                        kind: ConditionKind::And(Vec::new()),
                        span: keyword_span,
                    },
                };
                problem.goal.replace(goal).is_some()
            }
            ":constraints" => {
                let constraints = self.condition(Context::Constraints)?;
                problem.constraints.replace(constraints).is_some()
            }
            ":metric" => {
                let optimization = if self.at_word("minimize") {
                    Optimization::Minimize
                } else if self.at_word("maximize") {
                    Optimization::Maximize
                } else {
                    return Err(self.expected("`minimize` or `maximize`"));
                };
                self.bump();
                let expr = self.expr()?;
                let end = self.expect_close(open)?;
                let metric = Metric {
                    optimization,
                    expr,
                    span: Span::new(open.start, end),
                };
                if problem.metric.replace(metric).is_some() {
                    self.error("duplicate `:metric` section", keyword_span);
                }
                return Ok(());
            }
            // PDDL 1.2 planner hint, without meaning for the task: ignored.
            ":length" => {
                match lexer::matching_close(self.text.as_bytes(), open.start) {
                    Some(end) => self.tok = lexer::next_token(self.text, end),
                    None => return Err(self.expected("`)` to close `(:length`")),
                }
                return Ok(());
            }
            ":timed-initial-literals" => {
                return Err(self.unsupported(
                    open.start,
                    "timed initial literals (:timed-initial-literals)",
                ));
            }
            _ => {
                return Err(self.report(
                    Diagnostic::error(format!("unknown problem section `{}`", shorten(&keyword)), keyword_span)
                        .with_label("unknown section")
                        .with_note("expected one of :domain :requirements :objects :init :goal :constraints :metric"),
                ));
            }
        };
        if duplicate {
            self.error(format!("duplicate `{keyword}` section"), keyword_span);
        }
        self.expect_close(open)?;
        Ok(())
    }

    /// One element of `:init` after its `(`.
    fn init_element(&mut self, open: Span) -> PResult<InitElement> {
        if self.tok.kind != Tok::Sym {
            return Err(self.expected("a predicate name, `not` or `=`"));
        }
        let head = lowered(self.current());
        match &*head {
            "not" => {
                self.bump();
                let inner = self.expect_open("`(` starting an atom")?;
                let atom = self.ground_atom_after_open(inner)?;
                self.expect_close(open)?;
                Ok(InitElement::NotAtom(atom))
            }
            "=" => {
                self.bump();
                let fluent = self.ground_fluent_head()?;
                if self.tok.kind != Tok::Sym || self.at_keyword() {
                    return Err(self.expected("a number or an object name"));
                }
                let value = self.bump();
                let value_text = self.text_of(value.span);
                let end = self.expect_close(open)?;
                let span = Span::new(open.start, end);
                match lexer::number(value_text) {
                    Some(number) if number.is_finite() => {
                        Ok(InitElement::NumericValue(fluent, number, span))
                    }
                    Some(_) => Err(self.error(
                        format!("number `{}` is out of range", shorten(value_text)),
                        value.span,
                    )),
                    None => Ok(InitElement::ObjectValue(
                        fluent,
                        Name::new(lexer::lower(value_text), value.span),
                        span,
                    )),
                }
            }
            // `(at 10 (p))`, not an atom `(at 10 x)` of a predicate `at`.
            "at" if self.timed_literal_follows() => Err(self.unsupported(
                open.start,
                "timed initial literals (:timed-initial-literals)",
            )),
            _ => self.ground_atom_after_open(open).map(InitElement::Atom),
        }
    }

    /// Whether the `at` under the cursor starts a timed initial literal
    /// `(at 10 (p))` rather than an atom `(at x y)`.
    fn timed_literal_follows(&self) -> bool {
        // Byte test first: `at` atoms are common in big problems.
        let bytes = self.text.as_bytes();
        let after = lexer::skip_trivia(bytes, self.tok.span.end);
        if !bytes
            .get(after)
            .is_some_and(|b| b.is_ascii_digit() || matches!(b, b'.' | b'+' | b'-'))
        {
            return false;
        }
        let time = lexer::next_token(self.text, after);
        lexer::is_number_like(self.text_of(time.span))
            && lexer::next_token(self.text, time.span.end).kind == Tok::Open
    }

    /// `pred obj* )` after the `(`.
    fn ground_atom_after_open(&mut self, open: Span) -> PResult<Atom<Name>> {
        let predicate = self.name("a predicate name")?;
        let args = self.object_names(open)?;
        let end = self.expect_close(open)?;
        Ok(Atom {
            predicate,
            args,
            span: Span::new(open.start, end),
        })
    }

    /// `(f obj*)`, or a bare `f` for a 0-ary function.
    fn ground_fluent_head(&mut self) -> PResult<Atom<Name>> {
        if self.tok.kind == Tok::Open {
            let open = self.bump().span;
            self.ground_atom_after_open(open)
        } else {
            let name = self.name("a function term such as `(f a)`")?;
            Ok(Atom {
                span: name.span,
                predicate: name,
                args: Vec::new(),
            })
        }
    }

    // ----- conditions -----

    /// `()` (absent: `None`) or a condition.
    fn optional_condition(&mut self, context: Context) -> PResult<Option<Condition>> {
        let open = self.expect_open("`(` starting a condition")?;
        if self.tok.kind == Tok::Close {
            self.bump();
            return Ok(None);
        }
        self.condition_after_open(open, context).map(Some)
    }

    fn condition(&mut self, context: Context) -> PResult<Condition> {
        let open = self.expect_open("`(` starting a condition")?;
        self.condition_after_open(open, context)
    }

    fn condition_after_open(&mut self, open: Span, context: Context) -> PResult<Condition> {
        self.enter(open)?;
        let result = self.condition_body(open, context);
        self.depth -= 1;
        result
    }

    fn condition_body(&mut self, open: Span, context: Context) -> PResult<Condition> {
        if self.tok.kind != Tok::Sym {
            return Err(self.expected("a condition such as `(and ...)` or an atom"));
        }
        let head = lowered(self.current());
        let mut kind = match &*head {
            "and" | "or" => {
                self.bump();
                let mut parts = Vec::new();
                while self.more(open)? {
                    parts.push(self.condition(context)?);
                }
                if head == "and" {
                    ConditionKind::And(parts)
                } else {
                    ConditionKind::Or(parts)
                }
            }
            "not" => {
                self.bump();
                ConditionKind::Not(Box::new(self.condition(context)?))
            }
            "imply" => {
                self.bump();
                let premise = self.condition(context)?;
                let conclusion = self.condition(context)?;
                ConditionKind::Imply(Box::new(premise), Box::new(conclusion))
            }
            "exists" | "forall" => {
                self.bump();
                let vars = self.parameter_list()?;
                let body = Box::new(self.condition(context)?);
                if head == "exists" {
                    ConditionKind::Exists(vars, body)
                } else {
                    ConditionKind::Forall(vars, body)
                }
            }
            "preference" => {
                self.bump();
                let name = if self.tok.kind == Tok::Sym {
                    Some(self.name("a preference name")?)
                } else {
                    None
                };
                ConditionKind::Preference(name, Box::new(self.condition(context)?))
            }
            "=" => {
                self.bump();
                let left = self.operand()?;
                let right = self.operand()?;
                match (left, right) {
                    (Operand::Term(a), Operand::Term(b)) => ConditionKind::Equality(a, b),
                    (left, right) => {
                        let left = self.operand_expr(left)?;
                        let right = self.operand_expr(right)?;
                        ConditionKind::Compare(Comparison::Equal, left, right)
                    }
                }
            }
            "<" | "<=" | ">" | ">=" => {
                let comparison = match &*head {
                    "<" => Comparison::Less,
                    "<=" => Comparison::LessEqual,
                    ">" => Comparison::Greater,
                    _ => Comparison::GreaterEqual,
                };
                self.bump();
                let left = self.expr()?;
                let right = self.expr()?;
                ConditionKind::Compare(comparison, left, right)
            }
            word if context == Context::Constraints
                && (MODAL_OPERATORS.contains(&word)
                    || (word == "at" && {
                        let next = lexer::next_token(self.text, self.tok.span.end);
                        self.text_of(next.span).eq_ignore_ascii_case("end")
                    })) =>
            {
                return Err(
                    self.unsupported(open.start, "PDDL3 trajectory constraints (:constraints)")
                );
            }
            _ => {
                let predicate = self.name("a predicate name or a condition keyword")?;
                let args = self.terms(open)?;
                ConditionKind::Atom(Atom {
                    predicate,
                    args,
                    span: open,
                })
            }
        };
        let end = self.expect_close(open)?;
        let span = Span::new(open.start, end);
        if let ConditionKind::Atom(atom) = &mut kind {
            atom.span = span;
        }
        Ok(Condition { kind, span })
    }

    /// An operand of `=` or the value of `assign`: a term when it is a
    /// name or variable, otherwise a numeric expression.
    fn operand(&mut self) -> PResult<Operand> {
        match self.tok.kind {
            Tok::Var => self.variable().map(|v| Operand::Term(Term::Variable(v))),
            Tok::Sym
                if !self.at_keyword()
                    && !lexer::is_number_like(self.current())
                    && !self.current().eq_ignore_ascii_case("total-time") =>
            {
                self.name("a term").map(|n| Operand::Term(Term::Name(n)))
            }
            _ => self.expr().map(Operand::Expr),
        }
    }

    /// An operand used as a number: a bare name is a 0-ary function.
    fn operand_expr(&mut self, operand: Operand) -> PResult<Expr> {
        match operand {
            Operand::Expr(expr) => Ok(expr),
            Operand::Term(Term::Name(name)) => Ok(bare_fluent(name)),
            // `(= (f) ?x)` compares an object function's value with an
            // object: PDDL 3.1's object fluents, which are not supported.
            Operand::Term(Term::Variable(var)) => Err(self.report(
                Diagnostic::unsupported(
                    format!("variable `{var}` compared as a function's value"),
                    var.span,
                )
                .with_note(
                    "comparing a function's value with an object needs object fluents \
                     (`:object-fluents`), which are not supported; numbers compare with numbers",
                ),
            )),
        }
    }

    // ----- numeric expressions -----

    fn expr(&mut self) -> PResult<Expr> {
        self.expr_with_height().map(|(expr, _)| expr)
    }

    /// An expression and the height of its tree (1 for a leaf): n-ary
    /// operators fold into chains deeper than the text's nesting, and the
    /// height keeps those within [`MAX_NESTING`] too.
    fn expr_with_height(&mut self) -> PResult<(Expr, usize)> {
        match self.tok.kind {
            Tok::Sym if !self.at_keyword() => {
                let token = self.bump();
                let text = self.text_of(token.span);
                match lexer::number(text) {
                    Some(value) if value.is_finite() => Ok((
                        Expr {
                            kind: ExprKind::Number(value),
                            span: token.span,
                        },
                        1,
                    )),
                    Some(_) => Err(self.error(
                        format!("number `{}` is out of range", shorten(text)),
                        token.span,
                    )),
                    None if text.eq_ignore_ascii_case("total-time") => Ok((
                        Expr {
                            kind: ExprKind::TotalTime,
                            span: token.span,
                        },
                        1,
                    )),
                    None => Ok((bare_fluent(Name::new(lexer::lower(text), token.span)), 1)),
                }
            }
            Tok::Open => {
                let open = self.bump().span;
                self.enter(open)?;
                let result = self.expr_body(open);
                self.depth -= 1;
                result
            }
            Tok::Var => {
                let var = self.current();
                Err(self.error(
                    format!("variable `{}` used as a numeric expression", shorten(var)),
                    self.tok.span,
                ))
            }
            _ => Err(self.expected("a numeric expression")),
        }
    }

    fn expr_body(&mut self, open: Span) -> PResult<(Expr, usize)> {
        if self.tok.kind != Tok::Sym || self.at_keyword() {
            return Err(self.expected("an arithmetic operator or a function name"));
        }
        let op = match self.current() {
            "+" => Some(BinaryOp::Add),
            "-" => Some(BinaryOp::Sub),
            "*" => Some(BinaryOp::Mul),
            "/" => Some(BinaryOp::Div),
            _ => None,
        };
        let Some(op) = op else {
            if self.current().eq_ignore_ascii_case("total-time") {
                self.bump();
                let end = self.expect_close(open)?;
                let span = Span::new(open.start, end);
                return Ok((
                    Expr {
                        kind: ExprKind::TotalTime,
                        span,
                    },
                    1,
                ));
            }
            let predicate = self.name("a function name")?;
            let args = self.terms(open)?;
            let end = self.expect_close(open)?;
            let span = Span::new(open.start, end);
            let kind = ExprKind::Fluent(Atom {
                predicate,
                args,
                span,
            });
            return Ok((Expr { kind, span }, 1));
        };
        self.bump();
        let (first, first_height) = self.expr_with_height()?;
        let (mut result, height) = if self.tok.kind == Tok::Close {
            match op {
                BinaryOp::Sub => (
                    Expr {
                        kind: ExprKind::Neg(Box::new(first)),
                        span: open,
                    },
                    first_height + 1,
                ),
                // `(+ e)`, `(* e)`: just `e`.
                _ => (first, first_height),
            }
        } else {
            // n-ary: fold left, each fold one level deeper.
            let (mut acc, mut height) = (first, first_height);
            while self.more(open)? {
                let (right, right_height) = self.expr_with_height()?;
                height = height.max(right_height) + 1;
                if self.depth + height > MAX_NESTING {
                    return Err(self.nesting_error(open));
                }
                let span = Span::new(open.start, right.span.end);
                acc = Expr {
                    kind: ExprKind::Binary(op, Box::new(acc), Box::new(right)),
                    span,
                };
            }
            (acc, height)
        };
        let end = self.expect_close(open)?;
        if matches!(result.kind, ExprKind::Neg(_) | ExprKind::Binary(..)) {
            result.span = Span::new(open.start, end);
        }
        Ok((result, height))
    }

    // ----- effects -----

    /// `()` (absent: `None`) or an effect.
    fn optional_effect(&mut self) -> PResult<Option<Effect>> {
        let open = self.expect_open("`(` starting an effect")?;
        if self.tok.kind == Tok::Close {
            self.bump();
            return Ok(None);
        }
        self.effect_after_open(open).map(Some)
    }

    fn effect(&mut self) -> PResult<Effect> {
        let open = self.expect_open("`(` starting an effect")?;
        self.effect_after_open(open)
    }

    fn effect_after_open(&mut self, open: Span) -> PResult<Effect> {
        self.enter(open)?;
        let result = self.effect_body(open);
        self.depth -= 1;
        result
    }

    fn effect_body(&mut self, open: Span) -> PResult<Effect> {
        if self.tok.kind != Tok::Sym {
            return Err(self.expected("an effect such as `(and ...)` or an atom"));
        }
        let head = lowered(self.current());
        let assign_op = match &*head {
            "assign" => Some(AssignOp::Assign),
            "increase" => Some(AssignOp::Increase),
            "decrease" => Some(AssignOp::Decrease),
            "scale-up" => Some(AssignOp::ScaleUp),
            "scale-down" => Some(AssignOp::ScaleDown),
            _ => None,
        };
        let mut kind = match (&*head, assign_op) {
            (_, Some(op)) => {
                self.bump();
                let fluent = self.fluent_head()?;
                if op == AssignOp::Assign {
                    match self.operand()? {
                        Operand::Term(value) => EffectKind::ObjectAssign(fluent, value),
                        Operand::Expr(value) => EffectKind::Numeric(op, fluent, value),
                    }
                } else {
                    EffectKind::Numeric(op, fluent, self.expr()?)
                }
            }
            ("and", _) => {
                self.bump();
                let mut parts = Vec::new();
                while self.more(open)? {
                    parts.push(self.effect()?);
                }
                EffectKind::And(parts)
            }
            ("forall", _) => {
                self.bump();
                let vars = self.parameter_list()?;
                EffectKind::Forall(vars, Box::new(self.effect()?))
            }
            ("when", _) => {
                self.bump();
                let condition = self.condition(Context::Plain)?;
                EffectKind::When(condition, Box::new(self.effect()?))
            }
            ("not", _) => {
                self.bump();
                let inner = self.expect_open("`(` starting an atom")?;
                EffectKind::Delete(self.atom_after_open(inner)?)
            }
            _ => {
                let predicate = self.name("a predicate name or an effect keyword")?;
                let args = self.terms(open)?;
                EffectKind::Add(Atom {
                    predicate,
                    args,
                    span: open,
                })
            }
        };
        let end = self.expect_close(open)?;
        let span = Span::new(open.start, end);
        if let EffectKind::Add(atom) = &mut kind {
            atom.span = span;
        }
        Ok(Effect { kind, span })
    }

    /// `pred term* )` after the `(`.
    fn atom_after_open(&mut self, open: Span) -> PResult<Atom<Term>> {
        let predicate = self.name("a predicate name")?;
        let args = self.terms(open)?;
        let end = self.expect_close(open)?;
        Ok(Atom {
            predicate,
            args,
            span: Span::new(open.start, end),
        })
    }

    /// The fluent changed by a numeric effect: `(f t*)` or bare `f`.
    fn fluent_head(&mut self) -> PResult<Atom<Term>> {
        if self.tok.kind == Tok::Open {
            let open = self.bump().span;
            self.atom_after_open(open)
        } else {
            let name = self.name("a function term such as `(total-cost)`")?;
            Ok(Atom {
                span: name.span,
                predicate: name,
                args: Vec::new(),
            })
        }
    }
}

/// Appends `items` to `list`, moving the vector when `list` is empty (the
/// usual case: a section appears once) instead of copying every element.
fn append<T>(list: &mut Vec<T>, mut items: Vec<T>) {
    if list.is_empty() {
        *list = items;
    } else {
        list.append(&mut items);
    }
}

/// A bare function symbol used as a 0-ary function term.
fn bare_fluent(name: Name) -> Expr {
    let span = name.span;
    Expr {
        kind: ExprKind::Fluent(Atom {
            predicate: name,
            args: Vec::new(),
            span,
        }),
        span,
    }
}

/// `text` cut to a length fit for a message.
fn shorten(text: &str) -> Cow<'_, str> {
    const LIMIT: usize = 40;
    if text.len() <= LIMIT {
        return Cow::Borrowed(text);
    }
    let mut cut = LIMIT;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    Cow::Owned(format!("{}...", &text[..cut]))
}
