//! Diagnostics with spans, rendered like a compiler: `file:line:col`, the
//! offending source line, and a caret underline.

use crate::ast::Span;
use std::fmt;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The input is wrong; processing cannot give a trustworthy result.
    Error,
    /// Suspicious but usable input.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// A problem found in some input, located by a byte span in that input.
///
/// A diagnostic does not know which file it belongs to: the code that
/// parsed or checked a file renders its diagnostics with that file's
/// [`SourceFile`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{severity}: {message}")]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// One-line summary, e.g. "expected `)`, found `foo`".
    pub message: String,
    /// Where the problem is.
    pub span: Span,
    /// Short text printed under the caret, e.g. "expected a name here".
    pub label: Option<String>,
    /// Further explanations printed after the snippet.
    pub notes: Vec<String>,
    /// Whether the input is well-formed PDDL that uses a feature this
    /// toolkit does not support (as opposed to wrong input).
    pub unsupported: bool,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
            label: None,
            notes: Vec::new(),
            unsupported: false,
        }
    }

    /// An error saying that `what` is valid PDDL this toolkit does not
    /// support; the message reads "unsupported: WHAT".
    pub fn unsupported(what: impl std::fmt::Display, span: Span) -> Diagnostic {
        Diagnostic {
            unsupported: true,
            ..Diagnostic::error(format!("unsupported: {what}"), span)
        }
    }

    /// A warning at `span`.
    pub fn warning(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(message, span)
        }
    }

    /// The same diagnostic with a label under the caret.
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = Some(label.into());
        self
    }

    /// The same diagnostic with one more note.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Renders the diagnostic against the file it was found in.
    pub fn render(&self, file: &SourceFile) -> String {
        let (line, col) = file.line_col(self.span.start);
        let mut out = format!("{}: {}\n", self.severity, self.message);
        out.push_str(&format!(" --> {}:{}:{}\n", file.path, line, col));
        let line_text = file.line_text(line);
        let gutter = line.to_string();
        let pad = " ".repeat(gutter.len());
        // Underline at most to the end of the line the span starts on.
        let line_start = file.line_start(line);
        let mut start_in_line = (self.span.start - line_start).min(line_text.len());
        let mut end_in_line = (self.span.end.max(self.span.start + 1) - line_start)
            .clamp(start_in_line, line_text.len());
        // A span may start or end inside a character that stands in for
        // bytes that were not UTF-8: widen it to whole characters.
        while !line_text.is_char_boundary(start_in_line) {
            start_in_line -= 1;
        }
        while !line_text.is_char_boundary(end_in_line) {
            end_in_line += 1;
        }
        let (line_text, before, under) = clip_long_line(
            &line_text[..start_in_line],
            &line_text[start_in_line..end_in_line],
            &line_text[end_in_line..],
        );
        let caret_pad: String = before
            .chars()
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let carets = "^".repeat(under.chars().count().max(1));
        out.push_str(&format!(
            "{pad} |\n{gutter} | {line_text}\n{pad} | {caret_pad}{carets}"
        ));
        if let Some(label) = &self.label {
            out.push(' ');
            out.push_str(label);
        }
        out.push('\n');
        for note in &self.notes {
            out.push_str(&format!("{pad} = note: {note}\n"));
        }
        out
    }
}

/// Source lines longer than this many characters are shown as a window
/// of about this many around the span: generated problems often put
/// thousands of characters on one line.
const MAX_SHOWN_CHARS: usize = 120;
/// How many characters before the span such a window keeps.
const SHOWN_BEFORE_SPAN: usize = 40;

/// The line to show, split around the span as (`line`, the part before
/// the span, the span's part): the whole line if it is short, otherwise
/// [`MAX_SHOWN_CHARS`] characters or so around the span, each cut end
/// marked with `…`.
fn clip_long_line(before: &str, under: &str, after: &str) -> (String, String, String) {
    let count = |text: &str| text.chars().count();
    if count(before) + count(under) + count(after) <= MAX_SHOWN_CHARS {
        return (
            format!("{before}{under}{after}"),
            before.into(),
            under.into(),
        );
    }
    let shown_before: String = match count(before).checked_sub(SHOWN_BEFORE_SPAN) {
        Some(skip) if skip > 0 => std::iter::once('…')
            .chain(before.chars().skip(skip))
            .collect(),
        _ => before.into(),
    };
    let room = MAX_SHOWN_CHARS.saturating_sub(count(&shown_before));
    let shown_under: String = under.chars().take(room.max(1)).collect();
    let room = room.saturating_sub(count(&shown_under));
    let mut shown_after: String = after.chars().take(room).collect();
    if count(&shown_under) < count(under) || count(&shown_after) < count(after) {
        shown_after.push('…');
    }
    let line = format!("{shown_before}{shown_under}{shown_after}");
    (line, shown_before, shown_under)
}

/// The diagnostics of one failed step, as an error value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} error(s), first: {}", self.0.iter().filter(|d| d.is_error()).count(), self.0.first().map(|d| d.message.as_str()).unwrap_or("none"))]
pub struct Diagnostics(pub Vec<Diagnostic>);

/// Text of an input file with its path, for locating and rendering spans.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Path (or other name) shown in diagnostics.
    pub path: String,
    /// The whole text.
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// Wraps a text with the path used to name it in diagnostics.
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        SourceFile {
            path: path.into(),
            text,
            line_starts,
        }
    }

    /// Decodes raw bytes. Bytes that are not UTF-8 inside a `;` comment
    /// are read as `?` (one byte for one, so offsets stay those of the
    /// file): older benchmark files carry Latin-1 comments (authors'
    /// names), which Fast Downward reads too. Anywhere else invalid UTF-8
    /// is an error located at the first bad byte (the returned file holds
    /// the text lossily decoded so the diagnostic can be rendered).
    // Called once per input file: the error's size does not matter.
    #[allow(clippy::result_large_err)]
    pub fn from_bytes(
        path: impl Into<String>,
        bytes: Vec<u8>,
    ) -> Result<SourceFile, (SourceFile, Diagnostic)> {
        let bytes = match String::from_utf8(bytes) {
            Ok(text) => return Ok(SourceFile::new(path, text)),
            Err(e) => e.into_bytes(),
        };
        match text_with_comment_bytes_replaced(&bytes) {
            Ok(text) => Ok(SourceFile::new(path, text)),
            Err(mut text) => {
                // The text up to the bad byte has the file's offsets; the
                // rest is decoded lossily, only to be shown.
                let at = text.len();
                text.push_str(&String::from_utf8_lossy(&bytes[at..]));
                let diagnostic = Diagnostic::error("invalid UTF-8 in input", Span::new(at, at + 1))
                    .with_label("this byte is not valid UTF-8")
                    .with_note("PDDL files must be ASCII or UTF-8 text (outside `;` comments)");
                Err((SourceFile::new(path, text), diagnostic))
            }
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self.line_starts[line - 1];
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count())
            + 1;
        (line, col)
    }

    /// Byte offset where 1-based `line` starts.
    fn line_start(&self, line: usize) -> usize {
        self.line_starts[line - 1]
    }

    /// The text of 1-based `line`, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_start(line);
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |&e| e - 1);
        let text = self.text.get(start..end).unwrap_or("");
        text.strip_suffix('\r').unwrap_or(text)
    }
}

/// `bytes` as text, each byte that is not UTF-8 inside a `;` comment read
/// as `?`; where a byte outside comments is not UTF-8, the text before it
/// (as long as the bytes before it) as the error.
fn text_with_comment_bytes_replaced(bytes: &[u8]) -> Result<String, String> {
    let mut text = String::with_capacity(bytes.len());
    let mut in_comment = false;
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid();
        if let Some(last_line) = valid.rfind('\n') {
            in_comment = valid[last_line..].contains(';');
        } else {
            in_comment |= valid.contains(';');
        }
        text.push_str(valid);
        let invalid = chunk.invalid();
        if invalid.is_empty() {
            continue;
        }
        if !in_comment {
            return Err(text);
        }
        text.extend(std::iter::repeat_n('?', invalid.len()));
    }
    Ok(text)
}

#[cfg(test)]
mod decoding_tests {
    use super::*;

    #[test]
    fn bytes_that_are_not_utf8_are_read_as_question_marks_in_comments_only() {
        // Latin-1 `é` (0xE9) in a comment, then code after the comment.
        let bytes = b"; caf\xe9 by J\xf6rg\n(define (domain d))\n".to_vec();
        let file = SourceFile::from_bytes("d.pddl", bytes.clone()).expect("accepted");
        assert_eq!(file.text, "; caf? by J?rg\n(define (domain d))\n");
        assert_eq!(
            file.text.len(),
            bytes.len(),
            "offsets stay those of the file"
        );
        // A comment after code on the same line, at the end without a newline.
        let file = SourceFile::from_bytes("d.pddl", b"(a) ; \xff\xfe".to_vec()).expect("accepted");
        assert_eq!(file.text, "(a) ; ??");
        // UTF-8 stays as it is.
        let file = SourceFile::from_bytes("d.pddl", "; café\n(a)".as_bytes().to_vec()).unwrap();
        assert_eq!(file.text, "; café\n(a)");
    }

    #[test]
    fn bytes_that_are_not_utf8_outside_comments_are_an_error_at_the_byte() {
        // The comment ends at the newline: the byte in the name is code.
        let bytes = b"; \xe9\n(define (domain d\xe9))".to_vec();
        let (file, diagnostic) = SourceFile::from_bytes("d.pddl", bytes).unwrap_err();
        let rendered = diagnostic.render(&file);
        assert!(rendered.contains("d.pddl:2:18"), "{rendered}");
        assert!(rendered.contains("not valid UTF-8"), "{rendered}");
    }
}
