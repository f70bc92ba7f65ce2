//! What the operating system says about memory (Linux `/proc`; elsewhere
//! nothing): the process's peak, for the statistics, its current size,
//! for the memory limit while grounding, and what is free, for the
//! default memory limit.

/// The process's peak resident memory.
pub fn peak_bytes() -> Option<u64> {
    kib_field(
        &std::fs::read_to_string("/proc/self/status").ok()?,
        "VmHWM:",
    )
}

/// The process's resident memory now.
pub fn resident_bytes() -> Option<u64> {
    kib_field(
        &std::fs::read_to_string("/proc/self/status").ok()?,
        "VmRSS:",
    )
}

/// The memory the system can give to new work without swapping
/// (`MemAvailable`).
pub fn available_bytes() -> Option<u64> {
    kib_field(
        &std::fs::read_to_string("/proc/meminfo").ok()?,
        "MemAvailable:",
    )
}

/// The share of the available memory that the search may use when no
/// `--memory-limit` is given: the search's estimate counts its own tables
/// only, and the rest of the process and the system need some too.
const DEFAULT_SHARE_PERCENT: u64 = 80;

/// The default memory limit in MiB: `DEFAULT_SHARE_PERCENT` (80 %) of the
/// available memory, so that a search stops cleanly with exit status 6
/// before the system runs out; `None` where the system does not say.
pub fn default_limit_mib() -> Option<u64> {
    Some((available_bytes()? / 100 * DEFAULT_SHARE_PERCENT) >> 20)
}

/// A memory limit in bytes: `mib` MiB where given, the default limit
/// ([`default_limit_mib`]) otherwise.
pub fn limit_bytes(mib: Option<u64>) -> Option<u64> {
    mib.or_else(default_limit_mib)
        .map(|mib| mib.saturating_mul(1 << 20))
}

/// The value of a `Name:   1234 kB` line, in bytes.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_kib_field() {
        let meminfo = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   2048 kB\n";
        assert_eq!(kib_field(meminfo, "MemAvailable:"), Some(2048 * 1024));
        assert_eq!(kib_field(meminfo, "MemTotal:"), Some(24_000_000 * 1024));
        assert_eq!(kib_field(meminfo, "SwapTotal:"), None);
        assert_eq!(kib_field("MemAvailable: lots\n", "MemAvailable:"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_process_is_resident_and_its_peak_is_at_least_that() {
        assert!(resident_bytes().expect("Linux has VmRSS") > 0);
        assert!(peak_bytes().expect("Linux has VmHWM") > 0);
        // From one reading: in two, the kernel's peak may lag behind a
        // resident size that other test threads have shrunk since.
        let status = std::fs::read_to_string("/proc/self/status").expect("Linux has it");
        let resident = kib_field(&status, "VmRSS:").expect("VmRSS");
        let peak = kib_field(&status, "VmHWM:").expect("VmHWM");
        assert!(peak >= resident, "{resident} > {peak}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_default_limit_is_below_what_is_available() {
        let available = available_bytes().expect("Linux has MemAvailable");
        let limit = default_limit_mib().expect("and so a default") << 20;
        assert!(limit > 0 && limit < available, "{limit} of {available}");
    }
}
