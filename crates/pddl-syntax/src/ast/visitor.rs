//! Walking the AST.
//!
//! [`for_each_span_domain`] / [`for_each_span_problem`] visit every span
//! of a tree mutably; [`clear_spans_domain`] / [`clear_spans_problem`] use
//! them to reset all spans so that trees can be compared modulo source
//! positions.

use super::*;

/// Calls `f` on every span in the domain.
pub fn for_each_span_domain(domain: &mut Domain, f: &mut dyn FnMut(&mut Span)) {
    let mut w = SpanWalker { f };
    w.domain(domain);
}

/// Calls `f` on every span in the problem.
pub fn for_each_span_problem(problem: &mut Problem, f: &mut dyn FnMut(&mut Span)) {
    let mut w = SpanWalker { f };
    w.problem(problem);
}

/// Calls `f` on every span in the condition.
pub fn for_each_span_condition(condition: &mut Condition, f: &mut dyn FnMut(&mut Span)) {
    SpanWalker { f }.condition(condition);
}

/// Calls `f` on every span in the effect.
pub fn for_each_span_effect(effect: &mut Effect, f: &mut dyn FnMut(&mut Span)) {
    SpanWalker { f }.effect(effect);
}

/// Sets every span of the domain to `Span::default()`.
pub fn clear_spans_domain(domain: &mut Domain) {
    for_each_span_domain(domain, &mut |s| *s = Span::default());
}

/// Sets every span of the problem to `Span::default()`.
pub fn clear_spans_problem(problem: &mut Problem) {
    for_each_span_problem(problem, &mut |s| *s = Span::default());
}

/// Sets every span of a domain or problem to `Span::default()`.
pub fn clear_spans(definition: &mut Definition) {
    match definition {
        Definition::Domain(d) => clear_spans_domain(d),
        Definition::Problem(p) => clear_spans_problem(p),
    }
}

struct SpanWalker<'f> {
    f: &'f mut dyn FnMut(&mut Span),
}

impl SpanWalker<'_> {
    fn span(&mut self, span: &mut Span) {
        (self.f)(span);
    }

    fn name(&mut self, name: &mut Name) {
        self.span(&mut name.span);
    }

    fn term(&mut self, term: &mut Term) {
        match term {
            Term::Name(n) => self.name(n),
            Term::Variable(v) => self.span(&mut v.span),
        }
    }

    fn ty(&mut self, ty: &mut Option<Type>) {
        if let Some(ty) = ty {
            self.type_expr(ty);
        }
    }

    fn type_expr(&mut self, ty: &mut Type) {
        match ty {
            Type::Name(n) => self.name(n),
            Type::Either(names, span) => {
                names.iter_mut().for_each(|n| self.name(n));
                self.span(span);
            }
        }
    }

    fn typed_names(&mut self, list: &mut [TypedName]) {
        for entry in list {
            self.name(&mut entry.name);
            self.ty(&mut entry.ty);
        }
    }

    fn typed_variables(&mut self, list: &mut [TypedVariable]) {
        for entry in list {
            self.span(&mut entry.var.span);
            self.ty(&mut entry.ty);
        }
    }

    fn atom(&mut self, atom: &mut Atom<Term>) {
        self.name(&mut atom.predicate);
        atom.args.iter_mut().for_each(|t| self.term(t));
        self.span(&mut atom.span);
    }

    fn ground_atom(&mut self, atom: &mut Atom<Name>) {
        self.name(&mut atom.predicate);
        atom.args.iter_mut().for_each(|n| self.name(n));
        self.span(&mut atom.span);
    }

    fn predicate_decl(&mut self, decl: &mut PredicateDecl) {
        self.name(&mut decl.name);
        self.typed_variables(&mut decl.params);
        self.span(&mut decl.span);
    }

    fn requirements(&mut self, flags: &mut [RequirementFlag]) {
        flags.iter_mut().for_each(|r| self.span(&mut r.span));
    }

    fn domain(&mut self, d: &mut Domain) {
        self.name(&mut d.name);
        self.requirements(&mut d.requirements);
        self.typed_names(&mut d.types);
        self.typed_names(&mut d.constants);
        d.predicates.iter_mut().for_each(|p| self.predicate_decl(p));
        for function in &mut d.functions {
            self.name(&mut function.name);
            self.typed_variables(&mut function.params);
            if let FunctionType::Object(t) = &mut function.ty {
                self.type_expr(t);
            }
            self.span(&mut function.span);
        }
        for action in &mut d.actions {
            self.name(&mut action.name);
            self.typed_variables(&mut action.parameters);
            if let Some(c) = &mut action.precondition {
                self.condition(c);
            }
            if let Some(e) = &mut action.effect {
                self.effect(e);
            }
            self.span(&mut action.span);
        }
        for rule in &mut d.derived {
            self.predicate_decl(&mut rule.head);
            self.condition(&mut rule.body);
            self.span(&mut rule.span);
        }
        self.span(&mut d.span);
    }

    fn problem(&mut self, p: &mut Problem) {
        self.name(&mut p.name);
        self.name(&mut p.domain);
        self.requirements(&mut p.requirements);
        self.typed_names(&mut p.objects);
        for element in &mut p.init {
            match element {
                InitElement::Atom(a) | InitElement::NotAtom(a) => self.ground_atom(a),
                InitElement::NumericValue(a, _, span) => {
                    self.ground_atom(a);
                    self.span(span);
                }
                InitElement::ObjectValue(a, value, span) => {
                    self.ground_atom(a);
                    self.name(value);
                    self.span(span);
                }
            }
        }
        if let Some(goal) = &mut p.goal {
            self.condition(goal);
        }
        if let Some(constraints) = &mut p.constraints {
            self.condition(constraints);
        }
        if let Some(metric) = &mut p.metric {
            self.expr(&mut metric.expr);
            self.span(&mut metric.span);
        }
        self.span(&mut p.span);
    }

    fn condition(&mut self, c: &mut Condition) {
        match &mut c.kind {
            ConditionKind::Atom(a) => self.atom(a),
            ConditionKind::Equality(a, b) => {
                self.term(a);
                self.term(b);
            }
            ConditionKind::Not(inner) => self.condition(inner),
            ConditionKind::And(parts) | ConditionKind::Or(parts) => {
                parts.iter_mut().for_each(|part| self.condition(part));
            }
            ConditionKind::Imply(a, b) => {
                self.condition(a);
                self.condition(b);
            }
            ConditionKind::Exists(vars, body) | ConditionKind::Forall(vars, body) => {
                self.typed_variables(vars);
                self.condition(body);
            }
            ConditionKind::Compare(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ConditionKind::Preference(name, body) => {
                if let Some(name) = name {
                    self.name(name);
                }
                self.condition(body);
            }
        }
        self.span(&mut c.span);
    }

    fn effect(&mut self, e: &mut Effect) {
        match &mut e.kind {
            EffectKind::And(parts) => parts.iter_mut().for_each(|part| self.effect(part)),
            EffectKind::Forall(vars, body) => {
                self.typed_variables(vars);
                self.effect(body);
            }
            EffectKind::When(condition, body) => {
                self.condition(condition);
                self.effect(body);
            }
            EffectKind::Add(a) | EffectKind::Delete(a) => self.atom(a),
            EffectKind::Numeric(_, fluent, value) => {
                self.atom(fluent);
                self.expr(value);
            }
            EffectKind::ObjectAssign(fluent, value) => {
                self.atom(fluent);
                self.term(value);
            }
        }
        self.span(&mut e.span);
    }

    fn expr(&mut self, e: &mut Expr) {
        match &mut e.kind {
            ExprKind::Number(_) | ExprKind::TotalTime => {}
            ExprKind::Fluent(a) => self.atom(a),
            ExprKind::Neg(inner) => self.expr(inner),
            ExprKind::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
        }
        self.span(&mut e.span);
    }
}
