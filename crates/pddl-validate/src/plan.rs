//! Reading plans in the IPC plan format.
//!
//! One `(action arg …)` per line; `;` starts a comment; blank lines are
//! ignored; a step may carry a time stamp `0.001:` before it and a
//! duration `[1.0]` after it; letter case does not matter. A comment of
//! the form `; cost = N` records the cost the planner claims.

use pddl_syntax::Diagnostic;
use pddl_syntax::ast::Span;
use std::fmt;

/// One step of a plan: an action name applied to object names.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanStep {
    /// The action name, lower case.
    pub action: String,
    /// The object names, lower case, in order.
    pub args: Vec<String>,
    /// Byte span of the `( … )` in the plan text.
    pub span: Span,
    /// 1-based line number in the plan text.
    pub line: usize,
    /// The time stamp written before the step, if any.
    pub time: Option<f64>,
    /// The `[duration]` written after the step, if any.
    pub duration: Option<f64>,
}

impl PlanStep {
    /// A step with no position information, e.g. for steps built in code.
    pub fn new(
        action: impl Into<String>,
        args: impl IntoIterator<Item = impl Into<String>>,
    ) -> PlanStep {
        PlanStep {
            action: action.into().to_lowercase(),
            args: args.into_iter().map(|a| a.into().to_lowercase()).collect(),
            span: Span::default(),
            line: 0,
            time: None,
            duration: None,
        }
    }
}

impl fmt::Display for PlanStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}", self.action)?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        f.write_str(")")
    }
}

/// The cost a plan file claims in a `; cost = N` comment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClaimedCost {
    /// The claimed value.
    pub value: f64,
    /// Whether the comment says the cost counts steps (`(unit cost)`, as
    /// Fast Downward and `plan solve` write), rather than the metric.
    pub unit: bool,
    /// Where the comment is.
    pub span: Span,
}

/// A parsed plan.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    /// The steps in order.
    pub steps: Vec<PlanStep>,
    /// The cost claimed by a `; cost = N` comment (the last one if several).
    pub claimed_cost: Option<ClaimedCost>,
}

impl Plan {
    /// A plan made of the given steps, claiming no cost.
    pub fn from_steps(steps: Vec<PlanStep>) -> Plan {
        Plan {
            steps,
            claimed_cost: None,
        }
    }
}

/// Parses a plan. On failure returns one diagnostic per malformed line
/// (spans index into `text`).
pub fn parse_plan(text: &str) -> Result<Plan, Vec<Diagnostic>> {
    let mut plan = Plan::default();
    let mut errors = Vec::new();
    let mut line_start = 0;
    for (index, raw_line) in text.split('\n').enumerate() {
        let offset = line_start;
        line_start += raw_line.len() + 1;
        let (code, comment) = match raw_line.find(';') {
            Some(at) => (&raw_line[..at], Some((&raw_line[at + 1..], offset + at))),
            None => (raw_line, None),
        };
        if let Some((comment, at)) = comment
            && let Some(value) = claimed_cost(comment)
        {
            plan.claimed_cost = Some(ClaimedCost {
                value,
                unit: comment.to_ascii_lowercase().contains("unit cost"),
                span: Span::new(at, offset + raw_line.trim_end().len()),
            });
        }
        match parse_line(code, offset, index + 1) {
            Ok(Some(step)) => plan.steps.push(step),
            Ok(None) => {}
            Err(diagnostic) => errors.push(diagnostic),
        }
    }
    if errors.is_empty() {
        Ok(plan)
    } else {
        Err(errors)
    }
}

/// The value of a `cost = N` comment (text after the `;`), if it is one.
fn claimed_cost(comment: &str) -> Option<f64> {
    let rest = comment.trim_start().to_ascii_lowercase();
    let rest = rest.strip_prefix("cost")?.trim_start();
    let rest = rest
        .strip_prefix('=')
        .or_else(|| rest.strip_prefix(':'))?
        .trim_start();
    let number: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '(')
        .collect();
    number.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// A cursor over one line of plan text.
struct LineScanner<'t> {
    text: &'t str,
    pos: usize,
    /// Byte offset of the line in the whole plan.
    offset: usize,
}

impl<'t> LineScanner<'t> {
    fn skip_space(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    /// Takes characters while `keep` holds.
    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> &'t str {
        let start = self.pos;
        let text: &'t str = self.text;
        let rest = &text[start..];
        let len = rest.find(|c: char| !keep(c)).unwrap_or(rest.len());
        self.pos += len;
        &text[start..start + len]
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.offset + start, self.offset + end)
    }

    /// An error spanning the next token (or one character at the end).
    fn error_here(&self, message: &str, label: &str) -> Diagnostic {
        let rest = &self.text[self.pos..];
        // At least one character, unless the line has ended.
        let first = rest.chars().next().map_or(0, char::len_utf8);
        let len = rest
            .find(char::is_whitespace)
            .unwrap_or(rest.len())
            .max(first);
        Diagnostic::error(message, self.span(self.pos, self.pos + len)).with_label(label)
    }
}

/// A character that ends a name in a plan.
fn ends_name(c: char) -> bool {
    c.is_whitespace() || matches!(c, '(' | ')' | '[' | ']' | ';')
}

/// Parses the code part of one line (comment removed): `None` if blank.
fn parse_line(code: &str, offset: usize, line: usize) -> Result<Option<PlanStep>, Diagnostic> {
    let mut scan = LineScanner {
        text: code,
        pos: 0,
        offset,
    };
    scan.skip_space();
    let Some(first) = scan.peek() else {
        return Ok(None);
    };
    let mut time = None;
    if first.is_ascii_digit() || first == '.' {
        let start = scan.pos;
        let number = scan.take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-'));
        let parsed = number
            .parse::<f64>()
            .ok()
            .filter(|t| t.is_finite() && *t >= 0.0);
        let end = scan.pos;
        let Some(parsed) = parsed else {
            return Err(Diagnostic::error(
                format!("invalid time stamp `{number}`"),
                scan.span(start, end),
            )
            .with_label("expected a non-negative number"));
        };
        scan.skip_space();
        if scan.peek() != Some(':') {
            return Err(scan.error_here("expected `:` after the time stamp", "expected `:` here"));
        }
        scan.pos += 1;
        scan.skip_space();
        time = Some(parsed);
    }
    let open = scan.pos;
    if scan.peek() != Some('(') {
        return Err(scan
            .error_here("expected `(` to start a plan step", "expected `(action arg …)` here")
            .with_note("each line of a plan holds one step such as `(move a b)`, optionally after a time stamp `0.001:`"));
    }
    scan.pos += 1;
    let mut names = Vec::new();
    loop {
        scan.skip_space();
        match scan.peek() {
            None => {
                return Err(Diagnostic::error(
                    "unclosed `(`: expected `)` before the end of the line",
                    scan.span(open, open + 1),
                )
                .with_label("this `(` is never closed")
                .with_note("a plan step must be written on one line"));
            }
            Some(')') => {
                scan.pos += 1;
                break;
            }
            Some('(') => {
                return Err(scan.error_here(
                    "unexpected `(` inside a plan step",
                    "nested parentheses are not allowed",
                ));
            }
            Some('[') | Some(']') => {
                return Err(scan.error_here(
                    "unexpected bracket inside a plan step",
                    "expected an object name or `)`",
                ));
            }
            Some(_) => {
                let start = scan.pos;
                let name = scan.take_while(|c| !ends_name(c));
                if name.starts_with('?') {
                    return Err(Diagnostic::error(
                        format!("variable `{name}` in a plan step"),
                        scan.span(start, scan.pos),
                    )
                    .with_label("a plan names objects, not variables"));
                }
                names.push(name.to_lowercase());
            }
        }
    }
    let close = scan.pos;
    if names.is_empty() {
        return Err(
            Diagnostic::error("empty plan step `()`", scan.span(open, close))
                .with_label("expected an action name"),
        );
    }
    scan.skip_space();
    let mut duration = None;
    if scan.peek() == Some('[') {
        let start = scan.pos;
        scan.pos += 1;
        let number = scan.take_while(|c| c != ']').trim().to_string();
        if scan.peek() != Some(']') {
            return Err(Diagnostic::error(
                "unclosed `[`: expected `]`",
                scan.span(start, start + 1),
            )
            .with_label("opened here"));
        }
        scan.pos += 1;
        match number.parse::<f64>() {
            Ok(d) if d.is_finite() && d >= 0.0 => duration = Some(d),
            _ => {
                return Err(Diagnostic::error(
                    format!("invalid duration `[{number}]`"),
                    scan.span(start, scan.pos),
                )
                .with_label("expected a non-negative number"));
            }
        }
        scan.skip_space();
    }
    if scan.peek().is_some() {
        return Err(scan
            .error_here(
                "unexpected text after the plan step",
                "expected the end of the line",
            )
            .with_note("write one step per line; comments start with `;`"));
    }
    let mut names = names.into_iter();
    let action = names.next().unwrap_or_default();
    Ok(Some(PlanStep {
        action,
        args: names.collect(),
        span: scan.span(open, close),
        line,
        time,
        duration,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_steps_time_stamps_durations_comments_and_case() {
        let text =
            "; a plan\n\n0.001: (Move A B) [1.5]\n(pick-up C)  ; done\n; cost = 2 (unit cost)\n";
        let plan = parse_plan(text).unwrap();
        assert_eq!(plan.steps.len(), 2);
        assert_eq!(plan.steps[0].action, "move");
        assert_eq!(plan.steps[0].args, vec!["a", "b"]);
        assert_eq!(plan.steps[0].time, Some(0.001));
        assert_eq!(plan.steps[0].duration, Some(1.5));
        assert_eq!(plan.steps[0].line, 3);
        assert_eq!(
            &text[plan.steps[0].span.start..plan.steps[0].span.end],
            "(Move A B)"
        );
        assert_eq!(plan.steps[1].to_string(), "(pick-up c)");
        assert_eq!(plan.steps[1].line, 4);
        assert_eq!(
            plan.claimed_cost.map(|c| (c.value, c.unit)),
            Some((2.0, true))
        );
    }

    #[test]
    fn empty_plan_is_fine() {
        assert_eq!(parse_plan("").unwrap().steps.len(), 0);
        assert_eq!(parse_plan("  \n; nothing\r\n").unwrap().steps.len(), 0);
    }

    #[test]
    fn crlf_lines() {
        let plan = parse_plan("(a x)\r\n(b y)\r\n").unwrap();
        assert_eq!(plan.steps[1].args, vec!["y"]);
    }

    #[test]
    fn malformed_lines_are_located() {
        let text = "(move a b)\nmove a b\n(move a\n(move (a) b)\n()\n(move ?x)\n(a) junk\n1.0 (a)\n(a) [x]\n";
        let errors = parse_plan(text).unwrap_err();
        assert_eq!(errors.len(), 8);
        let file = pddl_syntax::SourceFile::new("p.plan", text);
        let lines: Vec<usize> = errors
            .iter()
            .map(|e| file.line_col(e.span.start).0)
            .collect();
        assert_eq!(lines, vec![2, 3, 4, 5, 6, 7, 8, 9]);
        assert!(errors[0].render(&file).contains("p.plan:2:1"));
        assert!(errors[2].render(&file).contains("p.plan:4:7"));
    }
}
