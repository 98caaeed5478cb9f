//! The unit spellings each quantity accepts, and the unit each is shown in by default.
//!
//! - **Time** (base: picoseconds): `ps`, `ns`, `us` (`µs`), `ms`, `s`; a bare number is picoseconds.
//! - **Size** (base: bytes): binary, as MPI sizes are counted: `K` = `KiB` = `KB` = 1,024 bytes,
//!   `M` = 1,024², `G` = 1,024³, `T` = 1,024⁴; an optional `B`/`byte(s)` after the prefix.
//! - **Rate** (base: bytes per second): decimal SI, as links are rated and as SimGrid reads them:
//!   `1G` = `1GB/s` = `1GBps` = 10⁹ B/s; bits with `b`/`bit` (`10Gbps` = `10Gbit/s` = 1.25·10⁹ B/s);
//!   binary only when written with `i` (`1GiB/s`, `1GiBps` = 1,024³ B/s).
//! - **Flop rate** (base: flop/s): `f`, `kf`, `Mf`, `Gf`, `Tf`, `Pf` (also `flops`, `flop/s`,
//!   `Gflops`), binary with `i` (`Gif`), SimGrid's `speed` spelling.

use super::dimension::Dimension;

/// Base quantities per unit, as the fraction `num / den`.
pub type Ratio = (u128, u128);

const KI: u128 = 1 << 10;

/// The decimal or binary (`Ki`, `Mi`, …) prefix of a rate or flop-rate unit.
fn si_prefix(prefix: &str) -> Option<u128> {
    Some(match prefix {
        "" => 1,
        "k" | "K" => 1_000,
        "M" => 1_000_000,
        "G" => 1_000_000_000,
        "T" => 1_000_000_000_000,
        "P" => 1_000_000_000_000_000,
        "E" => 1_000_000_000_000_000_000,
        "Ki" => KI,
        "Mi" => KI.pow(2),
        "Gi" => KI.pow(3),
        "Ti" => KI.pow(4),
        "Pi" => KI.pow(5),
        "Ei" => KI.pow(6),
        _ => return None,
    })
}

fn time(unit: &str) -> Option<Ratio> {
    Some(match unit {
        "" | "ps" => (1, 1),
        "ns" => (1_000, 1),
        "us" | "µs" | "μs" => (1_000_000, 1),
        "ms" => (1_000_000_000, 1),
        "s" => (1_000_000_000_000, 1),
        _ => return None,
    })
}

fn size(unit: &str) -> Option<Ratio> {
    let body = ["bytes", "byte", "B", "b"].iter().find_map(|s| unit.strip_suffix(s)).unwrap_or(unit);
    let body = body.strip_suffix('i').filter(|b| !b.is_empty()).unwrap_or(body);
    let power = match body {
        "" => 0,
        "k" | "K" => 1,
        "m" | "M" => 2,
        "g" | "G" => 3,
        "t" | "T" => 4,
        _ => return None,
    };
    Some((KI.pow(power), 1))
}

fn rate(unit: &str) -> Option<Ratio> {
    // `GB/s`, `GBps`, `Gbps`: the per-second part first.
    let body = unit.strip_suffix("/s").unwrap_or(unit);
    let body = match body.strip_suffix("ps") {
        Some(rest) if rest.ends_with(['B', 'b']) => rest,
        _ => body,
    };
    let (prefix, bits) = if let Some(p) = body.strip_suffix("bit") {
        (p, true)
    } else if let Some(p) = body.strip_suffix('b') {
        (p, true)
    } else if let Some(p) = body.strip_suffix('B') {
        (p, false)
    } else if body.len() < unit.len() {
        // `/s` or `ps` with no `B` or `b` before it (`G/s`, `ps` alone) is not a rate.
        return None;
    } else {
        (body, false)
    };
    si_prefix(prefix).map(|scale| (scale, if bits { 8 } else { 1 }))
}

fn flop_rate(unit: &str) -> Option<Ratio> {
    let prefix = ["flop/s", "flops", "f"].iter().find_map(|s| unit.strip_suffix(s))?;
    si_prefix(prefix).map(|scale| (scale, 1))
}

/// The value of one `unit` in base quantities of `dimension`, or `None` if it is not a unit of it.
/// An empty unit is the base quantity itself.
pub fn lookup(dimension: Dimension, unit: &str) -> Option<Ratio> {
    if unit.is_empty() {
        return Some((1, 1));
    }
    match dimension {
        Dimension::Time => time(unit),
        Dimension::Size => size(unit),
        Dimension::Rate => rate(unit),
        Dimension::FlopRate => flop_rate(unit),
    }
}

/// The units values are shown in when none was typed, largest first: the first whose size the value
/// reaches is used.
pub fn display_units(dimension: Dimension) -> &'static [(&'static str, Ratio)] {
    match dimension {
        Dimension::Time => &[
            ("s", (1_000_000_000_000, 1)),
            ("ms", (1_000_000_000, 1)),
            ("us", (1_000_000, 1)),
            ("ns", (1_000, 1)),
            ("ps", (1, 1)),
        ],
        // Sizes are shown as plain byte counts (the parameter's unit label says `bytes`).
        Dimension::Size => &[("", (1, 1))],
        Dimension::Rate => &[
            ("TB/s", (1_000_000_000_000, 1)),
            ("GB/s", (1_000_000_000, 1)),
            ("MB/s", (1_000_000, 1)),
            ("kB/s", (1_000, 1)),
            ("B/s", (1, 1)),
        ],
        Dimension::FlopRate => &[
            ("Tf", (1_000_000_000_000, 1)),
            ("Gf", (1_000_000_000, 1)),
            ("Mf", (1_000_000, 1)),
            ("kf", (1_000, 1)),
            ("f", (1, 1)),
        ],
    }
}

/// What the units of a dimension are, for error messages.
pub fn unit_help(dimension: Dimension) -> &'static str {
    match dimension {
        Dimension::Time => "use ps, ns, us, ms or s",
        Dimension::Size => "use B, K, M, G or T (×1,024ⁿ; also KiB, MB, GiB)",
        Dimension::Rate => {
            "use B/s, kB/s, MB/s, GB/s, TB/s (also GBps, or a bare prefix: 1G = 10⁹ B/s), bits as Gbps or \
             Gbit/s, binary as GiB/s"
        }
        Dimension::FlopRate => "use f, kf, Mf, Gf, Tf (also Gflops or Gflop/s)",
    }
}

/// An example of a value of the dimension, for error messages.
pub fn example(dimension: Dimension) -> &'static str {
    match dimension {
        Dimension::Time => "a time such as 10us, 2.5ms, 300ns, 40ps or 1s",
        Dimension::Size => "a size such as 512, 64K, 2M or 1G",
        Dimension::Rate => "a rate such as 1GBps, 125MB/s, 10Gbps or 1G",
        Dimension::FlopRate => "a speed such as 1Gf, 100Mf or 2.5e9",
    }
}
