//! Declaration tables of a domain: the type hierarchy, constants,
//! predicates and functions, built once and looked up by name.

use super::requirements::RequirementTracker;
use super::suggest::with_suggestion;
use crate::ast::{
    Domain, FunctionDecl, FunctionType, Name, PredicateDecl, Requirement, Span, Type, TypedName,
    TypedVariable,
};
use crate::error::{Diagnostic, Severity};
use hashbrown::{HashMap, HashSet};

/// The root type every type descends from.
pub(crate) const OBJECT: &str = "object";

/// Declared types and their parents.
pub(crate) struct TypeHierarchy<'a> {
    /// Each declared type (`object` excepted) with its parent types.
    parents: HashMap<&'a str, Vec<&'a str>>,
    /// Whether some type has more than one parent, so that two unrelated
    /// types may still share a subtype.
    multiple_inheritance: bool,
}

impl<'a> TypeHierarchy<'a> {
    /// Whether `name` is a declared type (or `object`).
    pub(crate) fn is_declared(&self, name: &str) -> bool {
        name == OBJECT || self.parents.contains_key(name)
    }

    /// Whether every object of type `sub` is of type `sup`. Walks up the
    /// hierarchy on demand (hierarchies are shallow), guarding cycles.
    pub(crate) fn is_subtype(&self, sub: &str, sup: &str) -> bool {
        if sub == sup || sup == OBJECT {
            return true;
        }
        let mut seen: HashSet<&str> = HashSet::new();
        let mut pending = vec![sub];
        while let Some(ty) = pending.pop() {
            for &parent in self.parents.get(ty).into_iter().flatten() {
                if parent == sup {
                    return true;
                }
                if seen.insert(parent) {
                    pending.push(parent);
                }
            }
        }
        false
    }

    /// Whether some object could be of both types `a` and `b`.
    pub(crate) fn overlaps(&self, a: &str, b: &str) -> bool {
        if self.is_subtype(a, b) || self.is_subtype(b, a) {
            return true;
        }
        self.multiple_inheritance
            && self
                .parents
                .keys()
                .any(|&ty| self.is_subtype(ty, a) && self.is_subtype(ty, b))
    }

    /// Whether a value of type `arg` may be passed where `param` is
    /// expected. `exact` arguments (objects, constants) must belong to the
    /// parameter's type; variables only need to be able to (so a variable
    /// of a supertype is accepted, as planners do). `None` means `object`.
    /// Undeclared types fit anything: they are reported where declared.
    pub(crate) fn fits(&self, arg: Option<&Type>, param: Option<&Type>, exact: bool) -> bool {
        let Some(param) = param else {
            return true;
        };
        let expected = param.names();
        if expected
            .iter()
            .any(|p| p.text == OBJECT || !self.is_declared(&p.text))
        {
            return true;
        }
        let Some(arg) = arg else {
            // An `object` argument: a variable may hold anything.
            return !exact;
        };
        arg.names().iter().any(|a| {
            !self.is_declared(&a.text)
                || expected.iter().any(|p| {
                    if exact {
                        self.is_subtype(&a.text, &p.text)
                    } else {
                        self.overlaps(&a.text, &p.text)
                    }
                })
        })
    }
}

/// What a parameter list is for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParameterList {
    /// The parameters of a predicate or function declaration: placeholders.
    Declaration,
    /// Variables bound by an action, a derived rule or a quantifier.
    Binding,
}

/// Whatever the domain declares, by name.
pub(crate) struct Tables<'a> {
    /// The type hierarchy.
    pub(crate) types: TypeHierarchy<'a>,
    /// `:constants`.
    pub(crate) constants: HashMap<&'a str, &'a TypedName>,
    /// `:predicates`.
    pub(crate) predicates: HashMap<&'a str, &'a PredicateDecl>,
    /// Names of predicates defined by `:derived` rules.
    pub(crate) derived: HashSet<&'a str>,
    /// `:functions`.
    pub(crate) functions: HashMap<&'a str, &'a FunctionDecl>,
}

/// Writes a type expression as in PDDL; `None` is `object`.
pub(crate) fn show_type(ty: Option<&Type>) -> String {
    match ty {
        None => OBJECT.to_string(),
        Some(Type::Name(name)) => name.text.clone(),
        Some(Type::Either(names, _)) => {
            let names: Vec<&str> = names.iter().map(Name::as_str).collect();
            format!("(either {})", names.join(" "))
        }
    }
}

/// Whether two type expressions name the same types (spans aside).
pub(crate) fn same_type(a: Option<&Type>, b: Option<&Type>) -> bool {
    let names = |ty: Option<&Type>| -> Vec<String> {
        match ty {
            None => vec![OBJECT.to_string()],
            Some(ty) => ty.names().iter().map(|name| name.text.clone()).collect(),
        }
    };
    names(a) == names(b)
}

/// Writes a declaration's head, e.g. `(at ?x - truck ?l - location)`.
pub(crate) fn show_signature(name: &Name, params: &[TypedVariable]) -> String {
    let mut out = format!("({}", name.text);
    for param in params {
        out.push_str(&format!(" {}", param.var));
        if let Some(ty) = &param.ty {
            out.push_str(&format!(" - {}", show_type(Some(ty))));
        }
    }
    out.push(')');
    out
}

/// Whether a function (declared or used) is the action-cost total
/// `(total-cost)`.
pub(crate) fn is_total_cost<T>(name: &Name, args: &[T]) -> bool {
    name.text == "total-cost" && args.is_empty()
}

/// `n noun`, with the noun in the plural unless `n` is 1.
pub(crate) fn plural(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// Reports a name declared twice in one list.
pub(crate) fn duplicate(what: &str, name: &str, span: Span) -> Diagnostic {
    Diagnostic::error(format!("{what} `{name}` is declared twice"), span)
        .with_label("second declaration")
}

impl<'a> Tables<'a> {
    /// Builds the tables of `domain`, reporting errors in the declarations
    /// themselves (duplicates, undeclared types, cycles) to `out` and the
    /// requirements they need to `requirements`.
    pub(crate) fn build(
        domain: &'a Domain,
        out: &mut Vec<Diagnostic>,
        requirements: &mut RequirementTracker,
    ) -> Tables<'a> {
        let types = build_types(domain, out, requirements);
        let mut tables = Tables {
            types,
            constants: HashMap::new(),
            predicates: HashMap::new(),
            derived: HashSet::new(),
            functions: HashMap::new(),
        };
        for constant in &domain.constants {
            tables.check_type_ref(constant.ty.as_ref(), out, requirements);
            if tables
                .constants
                .insert(&constant.name.text, constant)
                .is_some()
            {
                out.push(duplicate(
                    "constant",
                    &constant.name.text,
                    constant.name.span,
                ));
            }
        }
        for predicate in &domain.predicates {
            tables.check_parameters(
                &predicate.params,
                ParameterList::Declaration,
                out,
                requirements,
            );
            if tables
                .predicates
                .insert(&predicate.name.text, predicate)
                .is_some()
            {
                out.push(duplicate(
                    "predicate",
                    &predicate.name.text,
                    predicate.name.span,
                ));
            }
        }
        for function in &domain.functions {
            tables.check_parameters(
                &function.params,
                ParameterList::Declaration,
                out,
                requirements,
            );
            match &function.ty {
                // `:action-costs` allows numeric functions (for the costs)
                // but only `total-cost` needs nothing else.
                FunctionType::Number if is_total_cost(&function.name, &function.params) => {
                    requirements.need(
                        &[
                            Requirement::ActionCosts,
                            Requirement::NumericFluents,
                            Requirement::Fluents,
                        ],
                        "`total-cost`",
                        function.span,
                    )
                }
                FunctionType::Number => requirements.need(
                    &[
                        Requirement::NumericFluents,
                        Requirement::Fluents,
                        Requirement::ActionCosts,
                    ],
                    "a numeric function",
                    function.span,
                ),
                FunctionType::Object(ty) => {
                    tables.check_type_ref(Some(ty), out, requirements);
                    requirements.need(
                        &[Requirement::ObjectFluents, Requirement::Fluents],
                        "an object function",
                        function.span,
                    );
                }
            }
            if tables
                .functions
                .insert(&function.name.text, function)
                .is_some()
            {
                out.push(duplicate(
                    "function",
                    &function.name.text,
                    function.name.span,
                ));
            } else if let Some(predicate) = tables.predicates.get(function.name.as_str()) {
                out.push(
                    Diagnostic::error(
                        format!(
                            "`{}` is declared both as a predicate and as a function",
                            function.name
                        ),
                        function.name.span,
                    )
                    .with_label("declared as a function here")
                    .with_note(format!(
                        "also declared as the predicate {}",
                        show_signature(&predicate.name, &predicate.params)
                    )),
                );
            }
        }
        tables.derived = domain
            .derived
            .iter()
            .map(|rule| rule.head.name.as_str())
            .collect();
        tables
    }

    /// Checks the types of a parameter list and reports duplicate names.
    pub(crate) fn check_parameters(
        &self,
        params: &[TypedVariable],
        list: ParameterList,
        out: &mut Vec<Diagnostic>,
        requirements: &mut RequirementTracker,
    ) {
        let mut seen: HashSet<&str> = HashSet::new();
        for param in params {
            self.check_type_ref(param.ty.as_ref(), out, requirements);
            if !seen.insert(&param.var.name) {
                let diagnostic = duplicate("parameter", &param.var.to_string(), param.var.span);
                out.push(match list {
                    ParameterList::Binding => diagnostic,
                    // Only the arity of a declaration matters; some
                    // benchmarks (logistics) write `(in ?obj ?obj)`.
                    ParameterList::Declaration => Diagnostic {
                        severity: Severity::Warning,
                        ..diagnostic
                    }
                    .with_note("harmless in a declaration, where only the number and types count"),
                });
            }
        }
    }

    /// Checks that a type written after `-` is declared, and notes that it
    /// needs `:typing`.
    pub(crate) fn check_type_ref(
        &self,
        ty: Option<&Type>,
        out: &mut Vec<Diagnostic>,
        requirements: &mut RequirementTracker,
    ) {
        let Some(ty) = ty else {
            return;
        };
        match ty {
            Type::Name(_) => requirements.need(&[Requirement::Typing], "a typed list", ty.span()),
            Type::Either(..) => requirements.need(&[Requirement::Typing], "`either`", ty.span()),
        }
        for name in ty.names() {
            if !self.types.is_declared(&name.text) {
                out.push(with_suggestion(
                    undeclared_type(name),
                    &name.text,
                    self.types.parents.keys().copied(),
                ));
            }
        }
    }
}

/// An undeclared type.
fn undeclared_type(name: &Name) -> Diagnostic {
    Diagnostic::error(format!("undeclared type `{name}`"), name.span)
        .with_label("not declared in `:types`")
}

/// Collects `:types`, reporting duplicates, undeclared parents and cycles.
fn build_types<'a>(
    domain: &'a Domain,
    out: &mut Vec<Diagnostic>,
    requirements: &mut RequirementTracker,
) -> TypeHierarchy<'a> {
    let mut parents: HashMap<&'a str, Vec<&'a str>> = HashMap::new();
    let mut declared_at: HashMap<&'a str, Span> = HashMap::new();
    for entry in &domain.types {
        requirements.need(&[Requirement::Typing], "`:types`", entry.name.span);
        let name = entry.name.as_str();
        if name == OBJECT {
            // `object` is the implicit root; declaring it again is harmless.
            continue;
        }
        if declared_at.contains_key(name) {
            out.push(duplicate("type", name, entry.name.span));
            continue;
        }
        declared_at.insert(name, entry.name.span);
        let these_parents = match &entry.ty {
            None => vec![OBJECT],
            Some(ty) => ty.names().iter().map(Name::as_str).collect(),
        };
        parents.insert(name, these_parents);
    }
    // A parent that is not declared itself: planners accept it as a
    // subtype of `object`, so this is only a warning.
    let mut implicit: Vec<&'a Name> = Vec::new();
    for entry in &domain.types {
        for parent in entry.ty.iter().flat_map(Type::names) {
            if parent.text != OBJECT && !parents.contains_key(parent.as_str()) {
                implicit.push(parent);
                parents.insert(&parent.text, vec![OBJECT]);
            }
        }
    }
    for parent in implicit {
        out.push(
            Diagnostic::warning(
                format!("type `{parent}` is used as a parent but not declared"),
                parent.span,
            )
            .with_label("not declared in `:types`")
            .with_note(format!("treated as `{parent} - object`")),
        );
    }
    for (name, span) in find_cycles(&parents, &domain.types, &declared_at) {
        out.push(
            Diagnostic::error(format!("type `{name}` is its own ancestor"), span)
                .with_label("the type hierarchy has a cycle through this type"),
        );
    }
    let multiple_inheritance = parents.values().any(|ps| ps.len() > 1);
    TypeHierarchy {
        parents,
        multiple_inheritance,
    }
}

/// One type (with its declaration) on each cycle of the hierarchy, found
/// by an iterative depth-first search (linear, no recursion).
fn find_cycles<'a>(
    parents: &HashMap<&'a str, Vec<&'a str>>,
    order: &'a [TypedName],
    declared_at: &HashMap<&'a str, Span>,
) -> Vec<(&'a str, Span)> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Active,
        Done,
    }
    let mut marks: HashMap<&str, Mark> = HashMap::new();
    let mut cycles = Vec::new();
    for start in order {
        let start = start.name.as_str();
        if marks.contains_key(start) || !declared_at.contains_key(start) {
            continue;
        }
        // Stack of (type, index of the next parent to visit).
        let mut stack: Vec<(&str, usize)> = vec![(start, 0)];
        marks.insert(start, Mark::Active);
        while let Some((ty, next)) = stack.last_mut() {
            let ty_parents = parents.get(*ty).map(Vec::as_slice).unwrap_or(&[]);
            match ty_parents.get(*next) {
                None => {
                    marks.insert(*ty, Mark::Done);
                    stack.pop();
                }
                Some(&parent) => {
                    *next += 1;
                    match marks.get(parent) {
                        Some(Mark::Done) => {}
                        Some(Mark::Active) => {
                            if let Some(&span) = declared_at.get(parent) {
                                cycles.push((parent, span));
                            }
                        }
                        None => {
                            marks.insert(parent, Mark::Active);
                            stack.push((parent, 0));
                        }
                    }
                }
            }
        }
    }
    cycles
}
