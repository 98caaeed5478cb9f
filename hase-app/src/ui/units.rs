//! Reading quantities with units from text fields: bandwidths (`1 GB/s`, `125MB/s`, `10 Gbit/s`,
//! or a plain number of bytes per second). Decimal prefixes, as network links are rated; what is
//! shown back uses [`crate::ui::canvas::context::bandwidth_text`].

/// Read a bandwidth in bytes per second: a number, optionally followed by `B/s`, `kB/s`, `MB/s`,
/// `GB/s`, `TB/s` (bytes, ×1000ⁿ) or `bit/s`, `kbit/s`, `Mbit/s`, `Gbit/s`, `Tbit/s` (also written
/// `b/s`, `Gb/s`); the `/s` may be left out. `0` or `unlimited` means no limit.
pub fn parse_bandwidth(text: &str) -> Result<u64, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("unlimited") {
        return Ok(0);
    }
    let split = text.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number = number.trim().replace('_', "");
    let value: f64 = number.parse().map_err(|_| {
        format!(
            "`{text}` is not a bandwidth: expected a number with a unit such as 1 GB/s, 125 MB/s or 10 Gbit/s"
        )
    })?;
    if !value.is_finite() || value < 0.0 {
        return Err(format!("`{text}`: a bandwidth cannot be negative"));
    }
    let unit = unit.trim().trim_end_matches("/s").trim_end_matches("ps");
    let (prefix, bits) = match unit {
        "" | "B" => ("", false),
        "b" | "bit" => ("", true),
        _ => {
            let (prefix, rest) = unit.split_at(1);
            match rest {
                "B" => (prefix, false),
                "b" | "bit" => (prefix, true),
                _ => return Err(unknown_unit(text, unit)),
            }
        }
    };
    let scale = match prefix {
        "" => 1.0,
        "k" | "K" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        _ => return Err(unknown_unit(text, unit)),
    };
    let bytes = value * scale / if bits { 8.0 } else { 1.0 };
    if bytes > u64::MAX as f64 / 2.0 {
        return Err(format!("`{text}` is too large"));
    }
    Ok(bytes.round() as u64)
}

fn unknown_unit(text: &str, unit: &str) -> String {
    format!("unknown unit `{unit}` in `{text}`: use B/s, kB/s, MB/s, GB/s, TB/s or bit/s, Mbit/s, Gbit/s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bandwidths_with_and_without_units() {
        assert_eq!(parse_bandwidth("1 GB/s"), Ok(1_000_000_000));
        assert_eq!(parse_bandwidth("125MB/s"), Ok(125_000_000));
        assert_eq!(parse_bandwidth("1.5 kB"), Ok(1_500));
        assert_eq!(parse_bandwidth("10 Gbit/s"), Ok(1_250_000_000));
        assert_eq!(parse_bandwidth("100 Mb/s"), Ok(12_500_000));
        assert_eq!(parse_bandwidth("1_000"), Ok(1_000));
        assert_eq!(parse_bandwidth("unlimited"), Ok(0));
        assert_eq!(parse_bandwidth("2 GBps"), Ok(2_000_000_000));
    }

    #[test]
    fn bad_bandwidths_say_why() {
        assert!(parse_bandwidth("fast").unwrap_err().contains("not a bandwidth"));
        assert!(parse_bandwidth("-1 GB/s").unwrap_err().contains("negative"));
        assert!(parse_bandwidth("3 XB/s").unwrap_err().starts_with("unknown unit `XB`"));
        assert!(parse_bandwidth("3 parsecs").unwrap_err().starts_with("unknown unit"));
    }
}
