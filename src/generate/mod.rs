//! Problem generators for the shipped domains (`plan generate`).
//!
//! Each generator returns the text of a problem file for the domain in
//! `domains/<name>/domain.pddl`. Randomised generators take a seed and are
//! deterministic for it (see [`rng`]); every size is checked against a
//! limit first so that a typo cannot ask for gigabytes of output.

pub mod blocksworld;
pub mod briefcase;
pub mod hanoi;
pub mod queens;
pub mod rng;
pub mod sliding_tiles;
mod text;
pub mod tsp;

/// Why a problem could not be generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// A size option is outside the range the generator supports.
    #[error("--{option} must be between {min} and {max}, got {value}")]
    OutOfRange {
        /// The command-line option (without `--`), e.g. `blocks`.
        option: &'static str,
        /// The value asked for.
        value: usize,
        /// The smallest value allowed.
        min: usize,
        /// The largest value allowed.
        max: usize,
    },
}

/// Checks that `value` of `option` lies in `min..=max`.
fn check_range(
    option: &'static str,
    value: usize,
    min: usize,
    max: usize,
) -> Result<(), GenerateError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(GenerateError::OutOfRange {
            option,
            value,
            min,
            max,
        })
    }
}

/// Zero-pads `value` to the width of `max`, so that names sort by number
/// (`b01` ... `b12`).
fn padded(value: usize, max: usize) -> String {
    let width = max.to_string().len();
    format!("{value:0width$}")
}
