//! AST → canonical PDDL text.
