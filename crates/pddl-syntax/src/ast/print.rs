//! AST → canonical PDDL text.
//!
//! [`print_domain`] and [`print_problem`] give indented text that parses
//! back to the same tree (modulo spans). [`Condition`], [`Effect`] and
//! [`Expr`] implement [`fmt::Display`] as one line of PDDL, handy in
//! messages.

use super::*;
use std::fmt::{self, Write};

/// Prints a domain as canonical, indented PDDL.
pub fn print_domain(domain: &Domain) -> String {
    let mut p = Printer::multiline();
    p.domain(domain);
    p.out
}

/// Prints a problem as canonical, indented PDDL.
pub fn print_problem(problem: &Problem) -> String {
    let mut p = Printer::multiline();
    p.problem(problem);
    p.out
}

/// Prints a domain or a problem.
pub fn print_definition(definition: &Definition) -> String {
    match definition {
        Definition::Domain(d) => print_domain(d),
        Definition::Problem(p) => print_problem(p),
    }
}

/// Prints a condition on one line.
pub fn print_condition(condition: &Condition) -> String {
    let mut p = Printer::single_line();
    p.condition(condition, 0);
    p.out
}

/// Prints an effect on one line.
pub fn print_effect(effect: &Effect) -> String {
    let mut p = Printer::single_line();
    p.effect(effect, 0);
    p.out
}

/// Prints a numeric expression on one line.
pub fn print_expr(expr: &Expr) -> String {
    let mut p = Printer::single_line();
    p.expr(expr);
    p.out
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&print_condition(self))
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&print_effect(self))
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&print_expr(self))
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Name(n) => f.write_str(&n.text),
            Term::Variable(v) => write!(f, "?{}", v.name),
        }
    }
}

impl<T: fmt::Display> fmt::Display for Atom<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}", self.predicate.text)?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        f.write_str(")")
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Name(n) => f.write_str(&n.text),
            Type::Either(names, _) => {
                f.write_str("(either")?;
                for n in names {
                    write!(f, " {}", n.text)?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Whether two optional types are written the same (spans ignored).
fn same_type(a: Option<&Type>, b: Option<&Type>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(Type::Name(x)), Some(Type::Name(y))) => x.text == y.text,
        (Some(Type::Either(xs, _)), Some(Type::Either(ys, _))) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| x.text == y.text)
        }
        _ => false,
    }
}

/// Splits a typed list into runs of consecutive entries with the same type.
fn type_groups<T>(items: &[T], ty: impl Fn(&T) -> Option<&Type>) -> Vec<(&[T], Option<&Type>)> {
    let mut groups = Vec::new();
    let mut start = 0;
    for i in 1..=items.len() {
        if i == items.len() || !same_type(ty(&items[start]), ty(&items[i])) {
            groups.push((&items[start..i], ty(&items[start])));
            start = i;
        }
    }
    groups
}

/// Writes PDDL text, either indented over several lines or on one line.
struct Printer {
    out: String,
    multiline: bool,
}

impl Printer {
    fn multiline() -> Printer {
        Printer {
            out: String::new(),
            multiline: true,
        }
    }

    fn single_line() -> Printer {
        Printer {
            out: String::new(),
            multiline: false,
        }
    }

    fn s(&mut self, text: &str) {
        self.out.push_str(text);
    }

    /// A line break followed by `indent` spaces (a space on one line).
    fn newline(&mut self, indent: usize) {
        if self.multiline {
            self.out.push('\n');
            self.out.extend(std::iter::repeat_n(' ', indent));
        } else {
            self.out.push(' ');
        }
    }

    fn number(&mut self, value: f64) {
        // `Display` for f64 is the shortest text that reads back exactly.
        let _ = write!(self.out, "{value}");
    }

    /// A typed list; an untyped run before a typed one is written `- object`
    /// so that it does not take the next run's type.
    fn typed_list<T>(
        &mut self,
        items: &[T],
        ty: impl Fn(&T) -> Option<&Type>,
        mut item: impl FnMut(&mut Self, &T),
        separator: impl Fn(&mut Self),
    ) {
        let groups = type_groups(items, ty);
        let count = groups.len();
        for (index, (group, ty)) in groups.into_iter().enumerate() {
            if index > 0 {
                separator(self);
            }
            for (i, x) in group.iter().enumerate() {
                if i > 0 {
                    self.s(" ");
                }
                item(self, x);
            }
            match ty {
                Some(ty) => {
                    let _ = write!(self.out, " - {ty}");
                }
                None if index + 1 < count => self.s(" - object"),
                None => {}
            }
        }
    }

    fn typed_variables(&mut self, vars: &[TypedVariable]) {
        self.s("(");
        self.typed_variables_bare(vars);
        self.s(")");
    }

    /// `?x ?y - t` without parentheses.
    fn typed_variables_bare(&mut self, vars: &[TypedVariable]) {
        self.typed_list(
            vars,
            |v| v.ty.as_ref(),
            |p, v| {
                let _ = write!(p.out, "?{}", v.var.name);
            },
            |p| p.s(" "),
        );
    }

    fn typed_names_section(&mut self, keyword: &str, names: &[TypedName]) {
        if names.is_empty() {
            return;
        }
        self.newline(2);
        let _ = write!(self.out, "({keyword}");
        self.newline(4);
        self.typed_list(
            names,
            |n| n.ty.as_ref(),
            |p, n| p.s(&n.name.text),
            |p| p.newline(4),
        );
        self.s(")");
    }

    fn requirements(&mut self, flags: &[RequirementFlag]) {
        if flags.is_empty() {
            return;
        }
        self.newline(2);
        self.s("(:requirements");
        for flag in flags {
            self.s(" ");
            self.s(flag.requirement.keyword());
        }
        self.s(")");
    }

    fn predicate_decl(&mut self, decl: &PredicateDecl) {
        self.s("(");
        self.s(&decl.name.text);
        if !decl.params.is_empty() {
            self.s(" ");
            self.typed_variables_bare(&decl.params);
        }
        self.s(")");
    }

    fn domain(&mut self, d: &Domain) {
        let _ = write!(self.out, "(define (domain {})", d.name.text);
        self.requirements(&d.requirements);
        self.typed_names_section(":types", &d.types);
        self.typed_names_section(":constants", &d.constants);
        if !d.predicates.is_empty() {
            self.newline(2);
            self.s("(:predicates");
            for decl in &d.predicates {
                self.newline(4);
                self.predicate_decl(decl);
            }
            self.s(")");
        }
        if !d.functions.is_empty() {
            self.newline(2);
            self.s("(:functions");
            self.newline(4);
            let types: Vec<Type> = d
                .functions
                .iter()
                .map(|f| match &f.ty {
                    FunctionType::Number => Type::Name(Name::new("number", Span::default())),
                    FunctionType::Object(t) => t.clone(),
                })
                .collect();
            let indexed: Vec<(usize, &FunctionDecl)> = d.functions.iter().enumerate().collect();
            self.typed_list(
                &indexed,
                |(i, _)| Some(&types[*i]),
                |p, (_, f)| {
                    p.predicate_decl(&PredicateDecl {
                        name: f.name.clone(),
                        params: f.params.clone(),
                        span: f.span,
                    })
                },
                |p| p.newline(4),
            );
            self.s(")");
        }
        for action in &d.actions {
            self.newline(2);
            let _ = write!(self.out, "(:action {}", action.name.text);
            self.newline(4);
            self.s(":parameters ");
            self.typed_variables(&action.parameters);
            if let Some(pre) = &action.precondition {
                self.newline(4);
                self.s(":precondition ");
                self.condition(pre, 4);
            }
            if let Some(eff) = &action.effect {
                self.newline(4);
                self.s(":effect ");
                self.effect(eff, 4);
            }
            self.s(")");
        }
        for rule in &d.derived {
            self.newline(2);
            self.s("(:derived ");
            self.predicate_decl(&rule.head);
            self.newline(4);
            self.condition(&rule.body, 4);
            self.s(")");
        }
        self.s(")");
        if self.multiline {
            self.s("\n");
        }
    }

    fn problem(&mut self, p: &Problem) {
        let _ = write!(self.out, "(define (problem {})", p.name.text);
        self.newline(2);
        let _ = write!(self.out, "(:domain {})", p.domain.text);
        self.requirements(&p.requirements);
        self.typed_names_section(":objects", &p.objects);
        self.newline(2);
        self.s("(:init");
        for element in &p.init {
            self.newline(4);
            let _ = match element {
                InitElement::Atom(a) => write!(self.out, "{a}"),
                InitElement::NotAtom(a) => write!(self.out, "(not {a})"),
                InitElement::NumericValue(a, v, _) => {
                    let _ = write!(self.out, "(= {a} ");
                    self.number(*v);
                    write!(self.out, ")")
                }
                InitElement::ObjectValue(a, v, _) => write!(self.out, "(= {a} {})", v.text),
            };
        }
        self.s(")");
        if let Some(goal) = &p.goal {
            self.newline(2);
            self.s("(:goal ");
            self.condition(goal, 4);
            self.s(")");
        }
        if let Some(constraints) = &p.constraints {
            self.newline(2);
            self.s("(:constraints ");
            self.condition(constraints, 4);
            self.s(")");
        }
        if let Some(metric) = &p.metric {
            self.newline(2);
            self.s(match metric.optimization {
                Optimization::Minimize => "(:metric minimize ",
                Optimization::Maximize => "(:metric maximize ",
            });
            self.expr(&metric.expr);
            self.s(")");
        }
        self.s(")");
        if self.multiline {
            self.s("\n");
        }
    }

    /// Children of `and`/`or`, one per line when there are several.
    fn condition_list(&mut self, keyword: &str, parts: &[Condition], indent: usize) {
        self.s("(");
        self.s(keyword);
        for part in parts {
            if parts.len() > 1 {
                self.newline(indent + 2);
            } else {
                self.s(" ");
            }
            self.condition(part, indent + 2);
        }
        self.s(")");
    }

    fn condition(&mut self, c: &Condition, indent: usize) {
        match &c.kind {
            ConditionKind::Atom(a) => {
                let _ = write!(self.out, "{a}");
            }
            ConditionKind::Equality(a, b) => {
                let _ = write!(self.out, "(= {a} {b})");
            }
            ConditionKind::Not(inner) => {
                self.s("(not ");
                self.condition(inner, indent + 2);
                self.s(")");
            }
            ConditionKind::And(parts) => self.condition_list("and", parts, indent),
            ConditionKind::Or(parts) => self.condition_list("or", parts, indent),
            ConditionKind::Imply(a, b) => {
                self.s("(imply ");
                self.condition(a, indent + 2);
                self.newline(indent + 2);
                self.condition(b, indent + 2);
                self.s(")");
            }
            ConditionKind::Exists(vars, body) | ConditionKind::Forall(vars, body) => {
                self.s(if matches!(c.kind, ConditionKind::Exists(..)) {
                    "(exists "
                } else {
                    "(forall "
                });
                self.typed_variables(vars);
                self.newline(indent + 2);
                self.condition(body, indent + 2);
                self.s(")");
            }
            ConditionKind::Compare(op, a, b) => {
                let _ = write!(self.out, "({} ", op.symbol());
                self.expr(a);
                self.s(" ");
                self.expr(b);
                self.s(")");
            }
            ConditionKind::Preference(name, body) => {
                self.s("(preference ");
                if let Some(name) = name {
                    self.s(&name.text);
                    self.s(" ");
                }
                self.condition(body, indent + 2);
                self.s(")");
            }
        }
    }

    fn effect(&mut self, e: &Effect, indent: usize) {
        match &e.kind {
            EffectKind::And(parts) => {
                self.s("(and");
                for part in parts {
                    if parts.len() > 1 {
                        self.newline(indent + 2);
                    } else {
                        self.s(" ");
                    }
                    self.effect(part, indent + 2);
                }
                self.s(")");
            }
            EffectKind::Forall(vars, body) => {
                self.s("(forall ");
                self.typed_variables(vars);
                self.newline(indent + 2);
                self.effect(body, indent + 2);
                self.s(")");
            }
            EffectKind::When(condition, body) => {
                self.s("(when ");
                self.condition(condition, indent + 2);
                self.newline(indent + 2);
                self.effect(body, indent + 2);
                self.s(")");
            }
            EffectKind::Add(a) => {
                let _ = write!(self.out, "{a}");
            }
            EffectKind::Delete(a) => {
                let _ = write!(self.out, "(not {a})");
            }
            EffectKind::Numeric(op, fluent, value) => {
                let _ = write!(self.out, "({} {fluent} ", op.keyword());
                self.expr(value);
                self.s(")");
            }
            EffectKind::ObjectAssign(fluent, value) => {
                let _ = write!(self.out, "(assign {fluent} {value})");
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Number(v) => self.number(*v),
            ExprKind::Fluent(a) => {
                let _ = write!(self.out, "{a}");
            }
            ExprKind::Neg(inner) => {
                self.s("(- ");
                self.expr(inner);
                self.s(")");
            }
            ExprKind::Binary(op, a, b) => {
                let _ = write!(self.out, "({} ", op.symbol());
                self.expr(a);
                self.s(" ");
                self.expr(b);
                self.s(")");
            }
            ExprKind::TotalTime => self.s("total-time"),
        }
    }
}
