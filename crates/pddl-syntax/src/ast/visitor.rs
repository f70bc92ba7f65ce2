//! Walking the AST.
