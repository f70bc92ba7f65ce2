//! Tokens of PDDL text: `(`, `)`, variables `?x`, and symbols (names,
//! keywords, numbers, operators), separated by whitespace and `;` comments.

use crate::ast::Span;
use nom::branch::alt;
use nom::character::complete::char;
use nom::combinator::{all_consuming, map, value};
use nom::number::complete::recognize_float;
use nom::{IResult, Parser};

/// The kind of a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// `(`
    Open,
    /// `)`
    Close,
    /// A symbol starting with `?`.
    Var,
    /// Any other symbol: name, `:keyword`, number, operator, `-`.
    Sym,
    /// End of input.
    Eof,
}

/// A token and where it was written.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub kind: Tok,
    pub span: Span,
}

/// Bytes that end a symbol. All are ASCII, so byte offsets found by
/// scanning are always UTF-8 character boundaries.
fn is_delimiter(byte: u8) -> bool {
    byte.is_ascii_whitespace() || matches!(byte, b'(' | b')' | b';')
}

/// A maximal run of non-delimiter bytes (byte-level scan for speed). A `?`
/// after the first byte starts a new token, so `(aircraft?a)`, as written
/// in some IPC domains, reads as `aircraft` followed by the variable `?a`.
fn symbol(input: &str) -> IResult<&str, &str> {
    let bytes = input.as_bytes();
    let len = match bytes.first() {
        Some(&first) if !is_delimiter(first) => {
            1 + bytes[1..]
                .iter()
                .position(|&b| is_delimiter(b) || b == b'?')
                .unwrap_or(bytes.len() - 1)
        }
        _ => 0,
    };
    if len == 0 {
        return Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::TakeTill1,
        )));
    }
    Ok((&input[len..], &input[..len]))
}

/// One token at the very start of `input` (no leading trivia).
fn raw_token(input: &str) -> IResult<&str, Tok> {
    alt((
        value(Tok::Open, char('(')),
        value(Tok::Close, char(')')),
        map(symbol, |s: &str| {
            if s.starts_with('?') {
                Tok::Var
            } else {
                Tok::Sym
            }
        }),
    ))
    .parse(input)
}

/// The offset of the first byte at or after `pos` that is neither
/// whitespace nor inside a `;` comment.
pub(crate) fn skip_trivia(bytes: &[u8], mut pos: usize) -> usize {
    loop {
        while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        if pos < bytes.len() && bytes[pos] == b';' {
            pos += bytes[pos..]
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(bytes.len() - pos);
        } else {
            return pos;
        }
    }
}

/// The token starting at the first non-trivia byte at or after `pos`.
pub(crate) fn next_token(text: &str, pos: usize) -> Token {
    let start = skip_trivia(text.as_bytes(), pos);
    let rest = &text[start..];
    match raw_token(rest) {
        Ok((after, kind)) => Token {
            kind,
            span: Span::new(start, start + (rest.len() - after.len())),
        },
        // Only an empty rest fails: every other byte starts some token.
        Err(_) => Token {
            kind: Tok::Eof,
            span: Span::new(text.len(), text.len()),
        },
    }
}

/// The end offset (one past the `)`) of the balanced group opening at
/// `open`, or `None` when the input ends first. Iterative: any depth.
pub(crate) fn matching_close(bytes: &[u8], open: usize) -> Option<usize> {
    match scan_group(bytes, open, false) {
        Resume::AfterClose(end) => Some(end),
        Resume::AtSection(_) | Resume::EndOfFile => None,
    }
}

/// Where parsing resumes after an error inside a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Resume {
    /// After the group's `)`, at this offset.
    AfterClose(usize),
    /// At this `(:keyword`: sections do not nest, so the group lacks a `)`
    /// and the next section starts here.
    AtSection(usize),
    /// The input ends inside the group.
    EndOfFile,
}

/// Where to resume after an error in the group opened at `open`: after
/// its `)`, or at the first `(:` inside it (a later section that a
/// missing `)` swallowed). Iterative: any depth.
pub(crate) fn recovery_point(bytes: &[u8], open: usize) -> Resume {
    scan_group(bytes, open, true)
}

/// Scans the group opened at `open`, skipping `;` comments, to its `)`;
/// with `stop_at_section`, stops at the first `(:` inside it instead.
/// Iterative: any depth.
fn scan_group(bytes: &[u8], open: usize, stop_at_section: bool) -> Resume {
    let mut depth = 0usize;
    let mut pos = open;
    while pos < bytes.len() {
        match bytes[pos] {
            b'(' => {
                if stop_at_section && pos > open && bytes.get(pos + 1) == Some(&b':') {
                    return Resume::AtSection(pos);
                }
                depth += 1;
            }
            b')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Resume::AfterClose(pos + 1);
                }
            }
            b';' => {
                pos += bytes[pos..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .unwrap_or(bytes.len() - pos);
                continue;
            }
            _ => {}
        }
        pos += 1;
    }
    Resume::EndOfFile
}

/// The value of a numeric literal such as `3`, `-2.5`, `1e3`; `None` for
/// anything else (including names that merely start with digits).
pub(crate) fn number(symbol: &str) -> Option<f64> {
    let first = *symbol.as_bytes().first()?;
    if !(first.is_ascii_digit() || matches!(first, b'-' | b'+' | b'.')) {
        return None;
    }
    all_consuming(recognize_float::<&str, nom::error::Error<&str>>)
        .parse(symbol)
        .ok()?;
    symbol.parse::<f64>().ok()
}

/// Whether `symbol` looks like a numeric literal (even one out of range).
pub(crate) fn is_number_like(symbol: &str) -> bool {
    number(symbol).is_some()
}

/// `text` in lower case, copying it only once (ASCII fast path).
pub(crate) fn lower(text: &str) -> String {
    if text.is_ascii() {
        let mut owned = text.to_owned();
        owned.make_ascii_lowercase();
        owned
    } else {
        text.to_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_skip_comments_and_whitespace() {
        let text = " ;c\r\n\t(AT ?x\t-1.5);x";
        let mut pos = 0;
        let mut kinds = Vec::new();
        loop {
            let token = next_token(text, pos);
            kinds.push((token.kind, &text[token.span.start..token.span.end]));
            if token.kind == Tok::Eof {
                break;
            }
            pos = token.span.end;
        }
        assert_eq!(
            kinds,
            vec![
                (Tok::Open, "("),
                (Tok::Sym, "AT"),
                (Tok::Var, "?x"),
                (Tok::Sym, "-1.5"),
                (Tok::Close, ")"),
                (Tok::Eof, "")
            ]
        );
    }

    #[test]
    fn a_question_mark_starts_a_variable_inside_a_symbol() {
        let text = "(aircraft?a)";
        let kinds: Vec<(Tok, &str)> = [1, 9, 11]
            .iter()
            .map(|&pos| {
                let t = next_token(text, pos);
                (t.kind, &text[t.span.start..t.span.end])
            })
            .collect();
        assert_eq!(
            kinds,
            [(Tok::Sym, "aircraft"), (Tok::Var, "?a"), (Tok::Close, ")")]
        );
    }

    #[test]
    fn numbers_are_recognised_strictly() {
        assert_eq!(number("3"), Some(3.0));
        assert_eq!(number("-2.5"), Some(-2.5));
        assert_eq!(number(".5"), Some(0.5));
        assert_eq!(number("1e3"), Some(1000.0));
        assert_eq!(number("1a"), None);
        assert_eq!(number("-"), None);
        assert_eq!(number("inf"), None);
        assert_eq!(number("a1"), None);
    }

    #[test]
    fn recovery_stops_at_the_next_section() {
        let text = b"(:action a (p ; (:x\n (q) (:action b))";
        assert_eq!(recovery_point(text, 0), Resume::AtSection(25));
        assert_eq!(
            recovery_point(b"(:init (a)) (:goal", 0),
            Resume::AfterClose(11)
        );
        assert_eq!(recovery_point(b"(a (b", 0), Resume::EndOfFile);
    }

    #[test]
    fn matching_close_ignores_comments() {
        assert_eq!(matching_close(b"(a (b) ;)\n c) d", 0), Some(13));
        assert_eq!(matching_close(b"(((", 0), None);
    }
}
