//! The values of `--time-limit` and `--memory-limit`: a plain number in
//! the flag's unit (seconds, MiB), or a number with a unit of its own, as
//! Fast Downward's driver takes them (`--time-limit 5m`, `--memory-limit
//! 4G`).

use std::time::Duration;

/// Seconds of a `--time-limit` value: `90` or `90s`, `500ms`, `1.5m` (or
/// `min`), `2h`. [`time_limit`] checks the sign and range.
pub fn seconds(text: &str) -> Result<f64, String> {
    const UNITS: [(&str, f64); 5] = [
        ("ms", 0.001),
        ("s", 1.0),
        ("min", 60.0),
        ("m", 60.0),
        ("h", 3600.0),
    ];
    let (number, scale) = split_unit(text, &UNITS);
    number
        .parse::<f64>()
        .map(|n| n * scale.unwrap_or(1.0))
        .map_err(|_| "expected seconds: a number, or one with a unit (500ms, 90s, 5m, 2h)".into())
}

/// The limit of a `--time-limit` value in seconds, refused unless positive.
pub fn time_limit(seconds: f64) -> Result<Duration, String> {
    if !(seconds > 0.0 && seconds.is_finite()) {
        return Err(format!(
            "--time-limit must be a positive number of seconds, got {seconds}"
        ));
    }
    // Beyond what a duration holds (about 10^19 s) is no limit.
    Ok(Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX))
}

/// MiB of a `--memory-limit` value: `4096`, or with a unit of powers of
/// 1024: `512M` (`MiB`, `MB`), `4G` (`GiB`, `GB`), `1T`, `65536K`;
/// fractions are rounded up to whole MiB (`1.5G` is 1 536 MiB). Zero is
/// refused: no search, grounding or parse fits in it, so it can only be a
/// mistake (as `--time-limit 0` is refused).
pub fn mebibytes(text: &str) -> Result<u64, String> {
    const UNITS: [(&str, f64); 12] = [
        ("KiB", 1.0 / 1024.0),
        ("KB", 1.0 / 1024.0),
        ("K", 1.0 / 1024.0),
        ("MiB", 1.0),
        ("MB", 1.0),
        ("M", 1.0),
        ("GiB", 1024.0),
        ("GB", 1024.0),
        ("G", 1024.0),
        ("TiB", 1048576.0),
        ("TB", 1048576.0),
        ("T", 1048576.0),
    ];
    let expected =
        || "expected MiB: a positive whole number, or one with a unit (512M, 4G)".to_string();
    let (number, scale) = split_unit(text, &UNITS);
    let mebibytes = match scale {
        // Without a unit: whole MiB, as before units were accepted.
        None => number.parse::<u64>().map_err(|_| expected())?,
        Some(scale) => {
            let value = number.parse::<f64>().map_err(|_| expected())?;
            if !(value >= 0.0 && value.is_finite()) {
                return Err(expected());
            }
            // Saturates at u64::MAX, which is no limit in practice.
            (value * scale).ceil() as u64
        }
    };
    if mebibytes == 0 {
        return Err(expected());
    }
    Ok(mebibytes)
}

/// `text` (trimmed) without the first unit of `units` it ends with
/// (matched without regard to case), and that unit's scale (`None`
/// without a unit).
fn split_unit<'t>(text: &'t str, units: &[(&str, f64)]) -> (&'t str, Option<f64>) {
    let text = text.trim();
    for &(unit, scale) in units {
        if let Some(at) = text.len().checked_sub(unit.len())
            && text.is_char_boundary(at)
            && text[at..].eq_ignore_ascii_case(unit)
        {
            return (text[..at].trim_end(), Some(scale));
        }
    }
    (text, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_take_a_unit_or_none() {
        assert_eq!(seconds("90"), Ok(90.0));
        assert_eq!(seconds("2.5"), Ok(2.5));
        assert_eq!(seconds("90s"), Ok(90.0));
        assert_eq!(seconds("500ms"), Ok(0.5));
        assert_eq!(seconds("1.5m"), Ok(90.0));
        assert_eq!(seconds("2 min"), Ok(120.0));
        assert_eq!(seconds("2H"), Ok(7200.0));
        // The sign is checked where the limit is used, with its message.
        assert_eq!(seconds("-1"), Ok(-1.0));
        for bad in ["", "s", "5x", "m5", "five", "5 ms s"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn mebibytes_take_a_unit_of_powers_of_1024_or_none() {
        assert_eq!(mebibytes("4096"), Ok(4096));
        assert_eq!(mebibytes("512M"), Ok(512));
        assert_eq!(mebibytes("512MiB"), Ok(512));
        assert_eq!(mebibytes("4G"), Ok(4096));
        assert_eq!(mebibytes("4gb"), Ok(4096));
        assert_eq!(mebibytes("1.5G"), Ok(1536));
        assert_eq!(mebibytes("1T"), Ok(1 << 20));
        assert_eq!(mebibytes("65536K"), Ok(64));
        // Part of a MiB is a whole one.
        assert_eq!(mebibytes("1K"), Ok(1));
        // A plain number is whole MiB, and no limit is zero.
        for bad in [
            "", "G", "1.5", "-1", "-1G", "4X", "nan G", "inf G", "0", "0G", "0.0K",
        ] {
            assert!(mebibytes(bad).is_err(), "{bad}");
        }
    }
}
