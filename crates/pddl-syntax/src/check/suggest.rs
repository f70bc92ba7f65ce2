//! "Did you mean ...?" suggestions for misspelt names.

use crate::error::Diagnostic;

/// Names longer than this get no suggestion (the edit distance costs the
/// product of the lengths).
const MAX_NAME_LEN: usize = 64;

/// With more candidates than this no suggestion is made, so that a huge
/// object list with many misspellings stays fast (and the answer does not
/// depend on which candidates a cut-off would keep).
const MAX_CANDIDATES: usize = 2_000;

/// The declared name closest to `name` (at most a third of its length in
/// edits, at least one), ties broken alphabetically for stable output.
pub(crate) fn closest<'n>(
    name: &str,
    candidates: impl IntoIterator<Item = &'n str>,
) -> Option<&'n str> {
    if name.len() > MAX_NAME_LEN {
        return None;
    }
    let candidates: Vec<&str> = candidates.into_iter().take(MAX_CANDIDATES + 1).collect();
    if candidates.len() > MAX_CANDIDATES {
        return None;
    }
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|candidate| candidate.len() <= MAX_NAME_LEN && *candidate != name)
        .map(|candidate| (edit_distance(name, candidate), candidate))
        .filter(|&(distance, _)| distance <= limit)
        .min()
        .map(|(_, candidate)| candidate)
}

/// Adds a "did you mean" note when a close declared name exists.
pub(crate) fn with_suggestion<'n>(
    diagnostic: Diagnostic,
    name: &str,
    candidates: impl IntoIterator<Item = &'n str>,
) -> Diagnostic {
    match closest(name, candidates) {
        Some(found) => diagnostic.with_note(format!("did you mean `{found}`?")),
        None => diagnostic,
    }
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        current[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_insertions_deletions_and_substitutions() {
        assert_eq!(edit_distance("blok", "block"), 1);
        assert_eq!(edit_distance("blck", "block"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn closest_prefers_the_nearest_then_alphabetical() {
        assert_eq!(
            closest("handmpty", ["handempty", "holding"]),
            Some("handempty")
        );
        assert_eq!(closest("ab", ["ac", "aa"]), Some("aa"));
        assert_eq!(closest("truck", ["location", "package"]), None);
    }
}
