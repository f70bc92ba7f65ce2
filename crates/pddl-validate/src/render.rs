//! Rendering compiled atoms, expressions and conditions back to PDDL text,
//! with bound variables replaced by the objects they stand for.

use crate::model::{Arg, Cond, CondKind, FuncId, Model, NExpr, ObjId, PredId, QVar};
use std::fmt::Write;

impl Model {
    /// `(pred a b)`.
    pub(crate) fn atom_text(&self, pred: PredId, args: &[ObjId]) -> String {
        self.call_text(&self.predicates[pred].name, args)
    }

    /// `(f a b)`.
    pub(crate) fn fluent_text(&self, func: FuncId, args: &[ObjId]) -> String {
        self.call_text(&self.functions[func].name, args)
    }

    fn call_text(&self, head: &str, args: &[ObjId]) -> String {
        let mut out = format!("({head}");
        for &arg in args {
            out.push(' ');
            out.push_str(&self.objects[arg as usize]);
        }
        out.push(')');
        out
    }

    /// An argument: the object if its slot is below `bound`, else `?var`.
    fn arg_text(&self, arg: &Arg, env: &[ObjId], bound: usize) -> String {
        match arg {
            Arg::Obj(o) => self.objects[*o as usize].clone(),
            Arg::Var { slot, name } if *slot < bound => env
                .get(*slot)
                .map_or_else(|| format!("?{name}"), |o| self.objects[*o as usize].clone()),
            Arg::Var { name, .. } => format!("?{name}"),
        }
    }

    fn args_text(&self, head: &str, args: &[Arg], env: &[ObjId], bound: usize) -> String {
        let mut out = format!("({head}");
        for arg in args {
            out.push(' ');
            out.push_str(&self.arg_text(arg, env, bound));
        }
        out.push(')');
        out
    }

    /// A numeric expression; variables in slots below `bound` are shown as objects.
    pub(crate) fn render_expr(&self, expr: &NExpr, env: &[ObjId], bound: usize) -> String {
        match expr {
            NExpr::Num(n) => format_number(*n),
            NExpr::TotalTime => "total-time".to_string(),
            NExpr::Fluent(func, args) => {
                self.args_text(&self.functions[*func].name, args, env, bound)
            }
            NExpr::Neg(inner) => format!("(- {})", self.render_expr(inner, env, bound)),
            NExpr::Bin(op, a, b) => format!(
                "({} {} {})",
                op.symbol(),
                self.render_expr(a, env, bound),
                self.render_expr(b, env, bound)
            ),
        }
    }

    /// A condition; variables in slots below `bound` are shown as objects.
    pub(crate) fn render_cond(&self, cond: &Cond, env: &[ObjId], bound: usize) -> String {
        let list = |parts: &[Cond]| {
            parts
                .iter()
                .map(|p| self.render_cond(p, env, bound))
                .collect::<Vec<_>>()
                .join(" ")
        };
        match &cond.kind {
            CondKind::Atom(pred, args) => {
                self.args_text(&self.predicates[*pred].name, args, env, bound)
            }
            CondKind::Eq(a, b) => format!(
                "(= {} {})",
                self.arg_text(a, env, bound),
                self.arg_text(b, env, bound)
            ),
            CondKind::Not(inner) => format!("(not {})", self.render_cond(inner, env, bound)),
            CondKind::And(parts) => format!("(and {})", list(parts)),
            CondKind::Or(parts) => format!("(or {})", list(parts)),
            CondKind::Imply(a, b) => {
                format!(
                    "(imply {} {})",
                    self.render_cond(a, env, bound),
                    self.render_cond(b, env, bound)
                )
            }
            CondKind::Exists(vars, body) => {
                format!(
                    "(exists ({}) {})",
                    vars_text(vars),
                    self.render_cond(body, env, bound.min(first_slot(vars)))
                )
            }
            CondKind::Forall(vars, body) => {
                format!(
                    "(forall ({}) {})",
                    vars_text(vars),
                    self.render_cond(body, env, bound.min(first_slot(vars)))
                )
            }
            CondKind::Compare(op, a, b) => format!(
                "({} {} {})",
                op.symbol(),
                self.render_expr(a, env, bound),
                self.render_expr(b, env, bound)
            ),
        }
    }

    /// `?x = a, ?y = b` for the given variables under `env`.
    pub(crate) fn bindings_text(&self, vars: &[QVar], env: &[ObjId]) -> String {
        let mut out = String::new();
        for (i, var) in vars.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(
                out,
                "?{} = {}",
                var.name, self.objects[env[var.slot] as usize]
            );
        }
        out
    }
}

/// The lowest slot a quantifier binds (its variables stay shown as `?x`).
fn first_slot(vars: &[QVar]) -> usize {
    vars.iter().map(|v| v.slot).min().unwrap_or(usize::MAX)
}

/// `?x - t ?y - u`.
pub(crate) fn vars_text(vars: &[QVar]) -> String {
    vars.iter()
        .map(|v| format!("?{} - {}", v.name, v.type_text))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A number for people: whole numbers without `.0`, others with at most
/// six decimals (so float noise such as `109.87599999999999` reads `109.876`),
/// and from 10^15 on in scientific notation (`1e300`, not 301 digits).
pub fn format_number(n: f64) -> String {
    if n == n.trunc() && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else if n.abs() < 1e15 {
        let text = format!("{n:.6}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{n:e}")
    }
}

/// A number for machines (the JSON reports): rounded to 15 significant
/// digits, as many as every `f64` holds exactly (C's `DBL_DIG`), so that a
/// sum of binary fractions such as 251.19799999999998 reads 251.198, the
/// value the plan's costs add up to, while every integer below 10^15 and
/// every decimal the input wrote keep all their digits.
pub(crate) fn json_number(n: f64) -> f64 {
    if !n.is_finite() {
        return n;
    }
    format!("{n:.14e}").parse().unwrap_or(n)
}

#[cfg(test)]
mod tests {
    use super::{format_number, json_number};

    #[test]
    fn json_numbers_lose_float_noise_and_nothing_else() {
        assert_eq!(json_number(251.19799999999998), 251.198);
        assert_eq!(json_number(0.1 + 0.2), 0.3);
        assert_eq!(json_number(999_999_999_999_999.0), 999_999_999_999_999.0);
        assert_eq!(json_number(593.43345), 593.43345);
        assert_eq!(json_number(-2.5e-7), -2.5e-7);
        assert_eq!(json_number(1e300), 1e300);
        assert!(json_number(f64::NAN).is_nan());
    }

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(format_number(12.0), "12");
        assert_eq!(format_number(-3.0), "-3");
        assert_eq!(format_number(109.87599999999999), "109.876");
        assert_eq!(format_number(0.5), "0.5");
        // Large ones in scientific notation, not hundreds of digits.
        assert_eq!(format_number(1e300), "1e300");
        assert_eq!(format_number(-2.5e20), "-2.5e20");
        assert_eq!(format_number(1e15), "1e15");
        assert_eq!(format_number(999_999_999_999_999.0), "999999999999999");
    }
}
