//! Tracking which requirements the constructs in a file need, to warn once
//! per requirement that is used but not declared.

use crate::ast::{Requirement, RequirementFlag, Span};
use crate::error::Diagnostic;
use hashbrown::HashSet;
use indexmap::IndexMap;

/// The first place a missing requirement was needed, and how often.
struct MissingUse {
    construct: &'static str,
    span: Span,
    /// The latest use, to count repeated reports of one use once.
    last_span: Span,
    count: usize,
}

/// Declared requirements (with their implications) and the uses of
/// undeclared ones.
pub(crate) struct RequirementTracker {
    declared: HashSet<Requirement>,
    missing: IndexMap<Requirement, MissingUse>,
}

impl RequirementTracker {
    /// A tracker for the union of the given requirement lists. An empty
    /// union means `:strips`, as PDDL specifies.
    pub(crate) fn new<'a>(
        flags: impl IntoIterator<Item = &'a RequirementFlag>,
    ) -> RequirementTracker {
        let mut declared: HashSet<Requirement> = flags
            .into_iter()
            .flat_map(|flag| flag.requirement.implied())
            .collect();
        declared.insert(Requirement::Strips);
        RequirementTracker {
            declared,
            missing: IndexMap::new(),
        }
    }

    /// Whether any of `alternatives` is declared.
    pub(crate) fn has_any(&self, alternatives: &[Requirement]) -> bool {
        alternatives.iter().any(|r| self.declared.contains(r))
    }

    /// Records that `construct` at `span` needs one of `alternatives` (the
    /// first is the one suggested).
    pub(crate) fn need(
        &mut self,
        alternatives: &[Requirement],
        construct: &'static str,
        span: Span,
    ) {
        let Some(&suggested) = alternatives.first() else {
            return;
        };
        if self.has_any(alternatives) {
            return;
        }
        self.missing
            .entry(suggested)
            // One type written for several names (`a b - t`) is one use.
            .and_modify(|found| {
                if found.last_span != span {
                    found.count += 1;
                    found.last_span = span;
                }
            })
            .or_insert(MissingUse {
                construct,
                span,
                last_span: span,
                count: 1,
            });
    }

    /// One warning per missing requirement, located at its first use.
    pub(crate) fn into_warnings(self) -> impl Iterator<Item = Diagnostic> {
        self.missing.into_iter().map(|(requirement, found)| {
            let keyword = requirement.keyword();
            let mut warning = Diagnostic::warning(
                format!(
                    "{} needs requirement `{keyword}`, which is not declared",
                    found.construct
                ),
                found.span,
            )
            .with_label(format!("needs `{keyword}`"))
            .with_note(format!("add `{keyword}` to `(:requirements ...)`"));
            if found.count > 1 {
                warning = warning.with_note(format!(
                    "{} more use(s) need it; only the first is shown",
                    found.count - 1
                ));
            }
            warning
        })
    }
}
