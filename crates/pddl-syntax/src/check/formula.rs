//! Checks of conditions, effects, numeric expressions and ground atoms
//! against the declaration tables.

use super::requirements::RequirementTracker;
use super::suggest::with_suggestion;
use super::tables::{ParameterList, Tables, is_total_cost, plural, show_signature, show_type};
use crate::ast::{
    AssignOp, Atom, Condition, ConditionKind, Effect, EffectKind, Expr, ExprKind, FunctionDecl,
    FunctionType, InitElement, Name, Requirement, Span, Term, Type, TypedName, TypedVariable,
};
use crate::error::Diagnostic;
use hashbrown::HashMap;

// The parser refuses deeper nesting; checking the same limit keeps the
// checker's recursion bounded for trees built by other code too.
use crate::ast::parse::MAX_NESTING;

/// Where a formula is, for wording diagnostics about unbound variables.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// In an action or derived rule of the domain.
    Domain,
    /// In the goal or metric of a problem.
    Problem,
}

/// The type of an argument, once resolved.
struct ArgType<'a> {
    /// Its declared type; `None` is `object`.
    ty: Option<&'a Type>,
    /// Whether it is a known object (its type is exact) rather than a
    /// variable (which may hold any object of a subtype).
    exact: bool,
}

/// Checks formulas, collecting diagnostics and requirement uses.
pub(crate) struct Checker<'t, 'a> {
    tables: &'t Tables<'a>,
    /// The problem's objects when checking a problem.
    objects: Option<&'t HashMap<&'a str, &'a TypedName>>,
    place: Place,
    /// Variables in scope, innermost last.
    scope: Vec<&'a TypedVariable>,
    /// Requirements needed by what was checked.
    pub(crate) requirements: &'t mut RequirementTracker,
    /// Diagnostics found so far.
    pub(crate) out: &'t mut Vec<Diagnostic>,
    /// Whether the nesting limit was already reported.
    too_deep_reported: bool,
}

impl<'t, 'a> Checker<'t, 'a> {
    /// A checker for formulas of the domain (`objects` is `None`) or of a
    /// problem.
    pub(crate) fn new(
        tables: &'t Tables<'a>,
        objects: Option<&'t HashMap<&'a str, &'a TypedName>>,
        requirements: &'t mut RequirementTracker,
        out: &'t mut Vec<Diagnostic>,
    ) -> Checker<'t, 'a> {
        let place = if objects.is_some() {
            Place::Problem
        } else {
            Place::Domain
        };
        Checker {
            tables,
            objects,
            place,
            scope: Vec::new(),
            requirements,
            out,
            too_deep_reported: false,
        }
    }

    /// Runs `body` with `params` in scope, after checking the list itself.
    pub(crate) fn with_bound(&mut self, params: &'a [TypedVariable], body: impl FnOnce(&mut Self)) {
        self.tables
            .check_parameters(params, ParameterList::Binding, self.out, self.requirements);
        let depth = self.scope.len();
        self.scope.extend(params);
        body(self);
        self.scope.truncate(depth);
    }

    /// Whether `depth` is too deep; reports it once.
    fn too_deep(&mut self, depth: usize, span: Span) -> bool {
        if depth <= MAX_NESTING {
            return false;
        }
        if !self.too_deep_reported {
            self.too_deep_reported = true;
            self.out.push(
                Diagnostic::error("formula nested too deeply to check", span)
                    .with_label(format!("more than {MAX_NESTING} levels deep")),
            );
        }
        true
    }

    /// Checks a precondition, goal or derived-rule body.
    pub(crate) fn condition(&mut self, condition: &'a Condition, depth: usize) {
        if self.too_deep(depth, condition.span) {
            return;
        }
        let depth = depth + 1;
        match &condition.kind {
            ConditionKind::Atom(atom) => self.predicate_atom(atom, false),
            ConditionKind::Equality(left, right) => {
                self.requirements
                    .need(&[Requirement::Equality], "`=`", condition.span);
                self.term(left);
                self.term(right);
            }
            ConditionKind::Not(inner) => {
                // `(not (= a b))` was allowed by `:equality` alone since PDDL 1.2.
                if !matches!(inner.kind, ConditionKind::Equality(..)) {
                    self.requirements.need(
                        &[Requirement::NegativePreconditions],
                        "`not` in a condition",
                        condition.span,
                    );
                }
                self.condition(inner, depth);
            }
            ConditionKind::And(parts) => parts.iter().for_each(|part| self.condition(part, depth)),
            ConditionKind::Or(parts) => {
                self.requirements.need(
                    &[Requirement::DisjunctivePreconditions],
                    "`or`",
                    condition.span,
                );
                parts.iter().for_each(|part| self.condition(part, depth));
            }
            ConditionKind::Imply(premise, conclusion) => {
                self.requirements.need(
                    &[Requirement::DisjunctivePreconditions],
                    "`imply`",
                    condition.span,
                );
                self.condition(premise, depth);
                self.condition(conclusion, depth);
            }
            ConditionKind::Exists(vars, body) => {
                self.requirements.need(
                    &[Requirement::ExistentialPreconditions],
                    "`exists`",
                    condition.span,
                );
                self.with_bound(vars, |checker| checker.condition(body, depth));
            }
            ConditionKind::Forall(vars, body) => {
                self.requirements.need(
                    &[Requirement::UniversalPreconditions],
                    "`forall` in a condition",
                    condition.span,
                );
                self.with_bound(vars, |checker| checker.condition(body, depth));
            }
            ConditionKind::Compare(_, left, right) => {
                // `(= (pos ?t) ?to)` with an object-valued `pos` compares
                // objects: PDDL 3.1's object fluents, not a misuse.
                if let Some(function) = [left, right]
                    .into_iter()
                    .find_map(|side| self.object_function(side))
                {
                    self.out.push(Diagnostic::unsupported(
                        format!(
                            "object fluents (:object-fluents): `{function}` has objects as values"
                        ),
                        condition.span,
                    ));
                    return;
                }
                self.requirements.need(
                    &[Requirement::NumericFluents, Requirement::Fluents],
                    "a numeric comparison",
                    condition.span,
                );
                self.expr(left, depth);
                self.expr(right, depth);
            }
            // Preferences are rejected later as unsupported; still check
            // the names inside.
            ConditionKind::Preference(_, inner) => self.condition(inner, depth),
        }
    }

    /// Checks an action effect.
    pub(crate) fn effect(&mut self, effect: &'a Effect, depth: usize) {
        if self.too_deep(depth, effect.span) {
            return;
        }
        let depth = depth + 1;
        match &effect.kind {
            EffectKind::And(parts) => parts.iter().for_each(|part| self.effect(part, depth)),
            EffectKind::Forall(vars, body) => {
                self.requirements.need(
                    &[Requirement::ConditionalEffects],
                    "`forall` in an effect",
                    effect.span,
                );
                self.with_bound(vars, |checker| checker.effect(body, depth));
            }
            EffectKind::When(condition, body) => {
                self.requirements
                    .need(&[Requirement::ConditionalEffects], "`when`", effect.span);
                self.condition(condition, depth);
                self.effect(body, depth);
            }
            EffectKind::Add(atom) | EffectKind::Delete(atom) => self.predicate_atom(atom, true),
            EffectKind::Numeric(op, target, value) => {
                if *op == AssignOp::Increase && is_total_cost(&target.predicate, &target.args) {
                    self.requirements.need(
                        &[
                            Requirement::ActionCosts,
                            Requirement::NumericFluents,
                            Requirement::Fluents,
                        ],
                        "`total-cost`",
                        effect.span,
                    );
                } else {
                    self.requirements.need(
                        &[Requirement::NumericFluents, Requirement::Fluents],
                        "a numeric effect",
                        effect.span,
                    );
                }
                self.fluent(target, FluentUse::Number);
                self.expr(value, depth);
            }
            EffectKind::ObjectAssign(target, value) => {
                // `undefined` is the value of no object: it fits any type.
                let undefined = matches!(value, Term::Name(name) if name.text == "undefined");
                let found = if undefined { None } else { self.term(value) };
                if let Some(function) = self.fluent(target, FluentUse::Object)
                    && let (Some(found), FunctionType::Object(expected)) = (found, &function.ty)
                {
                    self.check_fit(&found, Some(expected), value.span(), || value_of(function));
                }
            }
        }
    }

    /// Checks a numeric expression.
    pub(crate) fn expr(&mut self, expr: &'a Expr, depth: usize) {
        if self.too_deep(depth, expr.span) {
            return;
        }
        let depth = depth + 1;
        match &expr.kind {
            ExprKind::Number(_) | ExprKind::TotalTime => {}
            // PDDL3's `(is-violated NAME)` counts a preference's
            // violations: preferences are not supported (and NAME is no
            // object), which is what to say rather than two undeclared names.
            ExprKind::Fluent(atom)
                if atom.predicate.as_str() == "is-violated"
                    && !self.tables.functions.contains_key("is-violated") =>
            {
                self.out.push(Diagnostic::unsupported(
                    "PDDL3 preferences (`is-violated`)",
                    atom.span,
                ));
            }
            ExprKind::Fluent(atom) => {
                self.fluent(atom, FluentUse::Number);
            }
            ExprKind::Neg(inner) => self.expr(inner, depth),
            ExprKind::Binary(_, left, right) => {
                self.expr(left, depth);
                self.expr(right, depth);
            }
        }
    }

    /// Checks an atom used as a predicate: declared, not a function, right
    /// arguments; effects may not change derived predicates.
    fn predicate_atom(&mut self, atom: &'a Atom<Term>, in_effect: bool) {
        let args: Vec<_> = atom
            .args
            .iter()
            .map(|arg| (arg.span(), self.term(arg)))
            .collect();
        let Some(params) = self.predicate_params(&atom.predicate) else {
            return;
        };
        if in_effect && self.tables.derived.contains(atom.predicate.as_str()) {
            self.out.push(
                Diagnostic::error(
                    format!(
                        "derived predicate `{}` changed by an effect",
                        atom.predicate
                    ),
                    atom.span,
                )
                .with_label("actions cannot change a derived predicate")
                .with_note("derived predicates are defined by their `:derived` rules only"),
            );
        }
        self.arguments(&atom.predicate, atom.span, params, args);
    }

    /// The parameters of predicate `name`, or a diagnostic when `name` is
    /// not a predicate.
    fn predicate_params(&mut self, name: &Name) -> Option<&'a [TypedVariable]> {
        if let Some(declaration) = self.tables.predicates.get(name.as_str()) {
            return Some(&declaration.params);
        }
        let diagnostic = match self.tables.functions.get(name.as_str()) {
            Some(function) => {
                Diagnostic::error(format!("function `{name}` used as a predicate"), name.span)
                    .with_label("a function, not a predicate")
                    .with_note(format!(
                        "declared in `:functions` as {}",
                        show_signature(&function.name, &function.params)
                    ))
            }
            None => with_suggestion(
                Diagnostic::error(format!("undeclared predicate `{name}`"), name.span)
                    .with_label("not declared in `:predicates`"),
                &name.text,
                self.tables.predicates.keys().copied(),
            ),
        };
        self.out.push(diagnostic);
        None
    }

    /// Checks a function term; returns its declaration when it is a
    /// function of the expected kind.
    fn fluent(&mut self, atom: &'a Atom<Term>, expected: FluentUse) -> Option<&'a FunctionDecl> {
        let args: Vec<_> = atom
            .args
            .iter()
            .map(|arg| (arg.span(), self.term(arg)))
            .collect();
        let function = self.function_decl(&atom.predicate, expected)?;
        self.arguments(&atom.predicate, atom.span, &function.params, args);
        Some(function)
    }

    /// The name of the object-valued function that `expr` applies, if it
    /// is such an application.
    fn object_function(&self, expr: &'a Expr) -> Option<&'a Name> {
        let ExprKind::Fluent(atom) = &expr.kind else {
            return None;
        };
        let function = self.tables.functions.get(atom.predicate.as_str())?;
        matches!(function.ty, FunctionType::Object(_)).then_some(&atom.predicate)
    }

    /// The declaration of function `name` if it is a function of the
    /// `expected` kind; otherwise reports why not.
    fn function_decl(&mut self, name: &Name, expected: FluentUse) -> Option<&'a FunctionDecl> {
        let Some(&function) = self.tables.functions.get(name.as_str()) else {
            let diagnostic = if self.tables.predicates.contains_key(name.as_str()) {
                Diagnostic::error(format!("predicate `{name}` used as a function"), name.span)
                    .with_label("a predicate, not a function")
            } else {
                with_suggestion(
                    Diagnostic::error(format!("undeclared function `{name}`"), name.span)
                        .with_label("not declared in `:functions`"),
                    &name.text,
                    self.tables.functions.keys().copied(),
                )
            };
            self.out.push(diagnostic);
            return None;
        };
        match (expected, &function.ty) {
            (FluentUse::Number, FunctionType::Object(ty)) => {
                self.out.push(
                    Diagnostic::error(
                        format!("object function `{name}` used as a number"),
                        name.span,
                    )
                    .with_label(format!(
                        "its values are objects of type `{}`",
                        show_type(Some(ty))
                    )),
                );
                None
            }
            (FluentUse::Object, FunctionType::Number) => {
                self.out.push(
                    Diagnostic::error(
                        format!("numeric function `{name}` assigned an object"),
                        name.span,
                    )
                    .with_label("its values are numbers"),
                );
                None
            }
            _ => Some(function),
        }
    }

    /// Resolves a term: a variable in scope or a declared object/constant.
    /// Returns `None` (after reporting) when it is neither.
    fn term(&mut self, term: &'a Term) -> Option<ArgType<'a>> {
        match term {
            Term::Variable(var) => {
                if let Some(bound) = self
                    .scope
                    .iter()
                    .rev()
                    .find(|bound| bound.var.name == var.name)
                {
                    return Some(ArgType {
                        ty: bound.ty.as_ref(),
                        exact: false,
                    });
                }
                let label = match self.place {
                    Place::Domain => "not a parameter or a quantified variable here",
                    Place::Problem => "not bound by a quantifier here",
                };
                self.out.push(
                    Diagnostic::error(format!("unbound variable `{var}`"), var.span)
                        .with_label(label),
                );
                None
            }
            Term::Name(name) => self.object(name),
        }
    }

    /// Resolves an object or constant name.
    fn object(&mut self, name: &'a Name) -> Option<ArgType<'a>> {
        let found = self
            .objects
            .and_then(|objects| objects.get(name.as_str()))
            .or_else(|| self.tables.constants.get(name.as_str()));
        if let Some(declaration) = found {
            return Some(ArgType {
                ty: declaration.ty.as_ref(),
                exact: true,
            });
        }
        let diagnostic = match self.place {
            Place::Domain => Diagnostic::error(format!("undeclared constant `{name}`"), name.span)
                .with_label("not declared in `:constants`"),
            Place::Problem => Diagnostic::error(format!("undeclared object `{name}`"), name.span)
                .with_label("not declared in `:objects` nor as a domain constant"),
        };
        let objects = self
            .objects
            .into_iter()
            .flat_map(|objects| objects.keys().copied());
        let constants = self.tables.constants.keys().copied();
        let diagnostic = with_suggestion(diagnostic, &name.text, objects.chain(constants));
        self.out.push(diagnostic);
        None
    }

    /// Checks the number and types of the (already resolved) arguments of
    /// an atom against the declared parameters.
    fn arguments(
        &mut self,
        callee: &Name,
        span: Span,
        params: &'a [TypedVariable],
        args: Vec<(Span, Option<ArgType<'a>>)>,
    ) {
        if args.len() != params.len() {
            self.out.push(
                Diagnostic::error(
                    format!(
                        "`{callee}` takes {}, but {} {} given",
                        plural(params.len(), "argument"),
                        args.len(),
                        if args.len() == 1 { "was" } else { "were" },
                    ),
                    span,
                )
                .with_label("wrong number of arguments")
                .with_note(format!("declared as {}", show_signature(callee, params))),
            );
            return;
        }
        for (position, ((arg_span, arg), param)) in args.into_iter().zip(params).enumerate() {
            if let Some(arg) = arg {
                self.check_fit(&arg, param.ty.as_ref(), arg_span, || {
                    (
                        format!("argument {} of `{callee}`", position + 1),
                        format!("declared as {}", show_signature(callee, params)),
                    )
                });
            }
        }
    }

    /// Reports an argument whose type does not fit `expected`.
    fn check_fit(
        &mut self,
        arg: &ArgType<'a>,
        expected: Option<&Type>,
        span: Span,
        describe: impl FnOnce() -> (String, String),
    ) {
        if self.tables.types.fits(arg.ty, expected, arg.exact) {
            return;
        }
        let found = show_type(arg.ty);
        let expected = show_type(expected);
        let (what, declaration) = describe();
        self.out.push(
            Diagnostic::error(
                format!("wrong type for {what}: expected `{expected}`, found `{found}`"),
                span,
            )
            .with_label(format!("this has type `{found}`"))
            .with_note(declaration),
        );
    }

    /// Checks a ground atom of `:init` (`value` for a function's value).
    pub(crate) fn init_element(&mut self, element: &'a InitElement) {
        match element {
            InitElement::Atom(atom) | InitElement::NotAtom(atom) => {
                let args = self.ground_args(atom);
                if let Some(params) = self.predicate_params(&atom.predicate) {
                    self.arguments(&atom.predicate, atom.span, params, args);
                }
            }
            InitElement::NumericValue(atom, _, _) => {
                let args = self.ground_args(atom);
                if let Some(function) = self.function_decl(&atom.predicate, FluentUse::Number) {
                    self.arguments(&atom.predicate, atom.span, &function.params, args);
                }
            }
            InitElement::ObjectValue(atom, value, _) => {
                let args = self.ground_args(atom);
                let numeric = self
                    .tables
                    .functions
                    .get(atom.predicate.as_str())
                    .is_some_and(|function| function.ty == FunctionType::Number);
                if numeric
                    && value
                        .text
                        .starts_with(|c: char| c.is_ascii_digit() || "+-.".contains(c))
                {
                    self.out.push(
                        Diagnostic::error(format!("invalid number `{value}`"), value.span)
                            .with_label("not a number")
                            .with_note(format!("`{}` is a numeric function", atom.predicate)),
                    );
                    return;
                }
                let value_type = self.object(value);
                if let Some(function) = self.function_decl(&atom.predicate, FluentUse::Object) {
                    self.arguments(&atom.predicate, atom.span, &function.params, args);
                    if let (Some(found), FunctionType::Object(expected)) =
                        (value_type, &function.ty)
                    {
                        self.check_fit(&found, Some(expected), value.span, || value_of(function));
                    }
                }
            }
        }
    }

    /// Resolves the object arguments of a ground atom.
    fn ground_args(&mut self, atom: &'a Atom<Name>) -> Vec<(Span, Option<ArgType<'a>>)> {
        atom.args
            .iter()
            .map(|arg| (arg.span, self.object(arg)))
            .collect()
    }
}

/// Describes the value of an object function, for [`Checker::check_fit`].
fn value_of(function: &FunctionDecl) -> (String, String) {
    let declared = show_signature(&function.name, &function.params);
    let ty = match &function.ty {
        FunctionType::Number => "number".to_string(),
        FunctionType::Object(ty) => show_type(Some(ty)),
    };
    (
        format!("the value of `{}`", function.name),
        format!("declared as {declared} - {ty}"),
    )
}

/// What a function term is used as.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FluentUse {
    /// A number (expressions, numeric effects).
    Number,
    /// An object (object-fluent assignment).
    Object,
}
