//! Writing a PDDL problem file in one consistent layout for every generator.

use std::fmt::Write;

/// Objects per line in `:objects`, so large problems stay readable.
const OBJECTS_PER_LINE: usize = 12;

/// A problem file under construction: a header comment, typed object
/// groups, init facts, goal conjuncts and an optional metric.
#[derive(Debug, Default)]
pub(crate) struct ProblemText {
    name: String,
    domain: String,
    comments: Vec<String>,
    objects: Vec<(Vec<String>, String)>,
    init: Vec<String>,
    goal: Vec<String>,
    metric: Option<String>,
}

impl ProblemText {
    /// A problem `name` of `domain`, introduced by `comments` (one per line).
    pub(crate) fn new(name: &str, domain: &str, comments: &[String]) -> ProblemText {
        ProblemText {
            name: name.to_owned(),
            domain: domain.to_owned(),
            comments: comments.to_vec(),
            ..ProblemText::default()
        }
    }

    /// Declares `names` as objects of type `ty` (untyped when `ty` is empty).
    pub(crate) fn objects(&mut self, names: Vec<String>, ty: &str) {
        if !names.is_empty() {
            self.objects.push((names, ty.to_owned()));
        }
    }

    /// Adds an init element, e.g. `(on b1 b2)` or `(= (weight b1) 3)`.
    pub(crate) fn init(&mut self, fact: String) {
        self.init.push(fact);
    }

    /// Adds a goal conjunct.
    pub(crate) fn goal(&mut self, condition: String) {
        self.goal.push(condition);
    }

    /// Sets `(:metric minimize (total-cost))` and the matching initial value.
    pub(crate) fn minimize_total_cost(&mut self) {
        self.init.insert(0, "(= (total-cost) 0)".to_owned());
        self.metric = Some("minimize (total-cost)".to_owned());
    }

    /// The finished file.
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        for comment in &self.comments {
            out.push_str(";; ");
            out.push_str(comment);
            out.push('\n');
        }
        // Writing to a String cannot fail, so the results are ignored.
        let _ = writeln!(out, "(define (problem {})", self.name);
        let _ = writeln!(out, "  (:domain {})", self.domain);
        if !self.objects.is_empty() {
            out.push_str("  (:objects");
            for (names, ty) in &self.objects {
                for (index, chunk) in names.chunks(OBJECTS_PER_LINE).enumerate() {
                    out.push_str("\n    ");
                    out.push_str(&chunk.join(" "));
                    if !ty.is_empty() && (index + 1) * OBJECTS_PER_LINE >= names.len() {
                        let _ = write!(out, " - {ty}");
                    }
                }
            }
            out.push_str(")\n");
        }
        out.push_str("  (:init");
        for fact in &self.init {
            out.push_str("\n    ");
            out.push_str(fact);
        }
        out.push_str(")\n");
        match self.goal.as_slice() {
            [single] => {
                let _ = write!(out, "  (:goal {single})");
            }
            conjuncts => {
                out.push_str("  (:goal (and");
                for condition in conjuncts {
                    out.push_str("\n    ");
                    out.push_str(condition);
                }
                out.push_str("))");
            }
        }
        if let Some(metric) = &self.metric {
            let _ = write!(out, "\n  (:metric {metric})");
        }
        out.push_str(")\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::ProblemText;

    #[test]
    fn layout() {
        let mut text = ProblemText::new("p", "d", &["hello".to_owned()]);
        text.objects(vec!["a".into(), "b".into()], "block");
        text.init("(clear a)".into());
        text.goal("(on a b)".into());
        text.goal("(clear a)".into());
        text.minimize_total_cost();
        assert_eq!(
            text.render(),
            ";; hello\n(define (problem p)\n  (:domain d)\n  (:objects\n    a b - block)\n  (:init\n    \
             (= (total-cost) 0)\n    (clear a))\n  (:goal (and\n    (on a b)\n    (clear a)))\n  \
             (:metric minimize (total-cost)))\n"
        );
    }

    #[test]
    fn long_object_lists_wrap_and_type_once() {
        let mut text = ProblemText::new("p", "d", &[]);
        text.objects((1..=13).map(|i| format!("o{i}")).collect(), "thing");
        text.goal("(done)".into());
        let rendered = text.render();
        assert_eq!(rendered.matches(" - thing").count(), 1);
        assert!(rendered.contains("o12\n    o13 - thing)"), "{rendered}");
        assert!(rendered.contains("(:goal (done))"));
    }
}
