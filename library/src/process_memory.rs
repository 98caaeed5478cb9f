//! This process's memory as Linux reports it in `/proc/self/status`: resident (`VmRSS`) and peak
//! resident (`VmHWM`) bytes, and resetting the peak — what the status bar shows and what the memory
//! benchmarks measure — and the memory the system has available. Elsewhere the figures read as absent (0 or `None`).

/// The value of `field` (such as `VmRSS:`) in a `/proc/<pid>/status` text, in bytes.
pub fn status_bytes(status: &str, field: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kib: u64 = line.trim_start_matches(field).trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib * 1024)
}

/// Resident and peak resident bytes of this process (0 where the system does not say).
pub fn resident_and_peak_bytes() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name| status_bytes(&status, name).unwrap_or(0);
    (field("VmRSS:"), field("VmHWM:"))
}

/// Memory the system can give without swapping (`MemAvailable` in `/proc/meminfo`), when known.
pub fn available_memory_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    status_bytes(&meminfo, "MemAvailable:")
}

/// Reset the peak resident figure to the current one (Linux: `5` into `/proc/self/clear_refs`).
pub fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_in_bytes() {
        let status = "Name:\thase\nVmHWM:\t 9000 kB\nVmRSS:\t 2411724 kB\n";
        assert_eq!(status_bytes(status, "VmRSS:"), Some(2_411_724 * 1024));
        assert_eq!(status_bytes(status, "VmHWM:"), Some(9000 * 1024));
        assert_eq!(status_bytes(status, "VmSwap:"), None);
        let (resident, peak) = resident_and_peak_bytes();
        assert!(resident > 0 && peak >= resident, "{resident} {peak}");
    }
}
