//! Simulated time: an integer count of picoseconds.
//!
//! `SimTime` is used both for instants and for spans; field names say which (`start`, `latency`).
//! Floating point appears only when formatting for display; user text (`2.5ms`) is read exactly by
//! [`crate::units`].

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

use serde::{Deserialize, Serialize};

/// Picoseconds per unit, for parsing and display.
pub const PS_PER_NS: u64 = 1_000;
/// Picoseconds per microsecond.
pub const PS_PER_US: u64 = 1_000_000;
/// Picoseconds per millisecond.
pub const PS_PER_MS: u64 = 1_000_000_000;
/// Picoseconds per second.
pub const PS_PER_S: u64 = 1_000_000_000_000;

/// A simulated instant or span in integer picoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SimTime(pub u64);

impl SimTime {
    /// Time zero.
    pub const ZERO: SimTime = SimTime(0);
    /// The largest representable time (about 213 days).
    pub const MAX: SimTime = SimTime(u64::MAX);

    /// A time from picoseconds.
    pub const fn from_ps(ps: u64) -> Self {
        SimTime(ps)
    }
    /// A time from nanoseconds.
    pub const fn from_ns(ns: u64) -> Self {
        SimTime(ns * PS_PER_NS)
    }
    /// A time from microseconds.
    pub const fn from_us(us: u64) -> Self {
        SimTime(us * PS_PER_US)
    }
    /// A time from milliseconds.
    pub const fn from_ms(ms: u64) -> Self {
        SimTime(ms * PS_PER_MS)
    }
    /// A time from (possibly fractional) seconds, rounded to the nearest picosecond; negative or
    /// non-finite input saturates to zero or `MAX`.
    pub fn from_secs_f64(secs: f64) -> Self {
        Self::from_f64_ps(secs * PS_PER_S as f64)
    }
    /// A time from a floating picosecond count, rounded to nearest and saturated.
    pub fn from_f64_ps(ps: f64) -> Self {
        if ps.is_nan() || ps <= 0.0 {
            SimTime(0)
        } else if ps >= u64::MAX as f64 {
            SimTime::MAX
        } else {
            SimTime(ps.round() as u64)
        }
    }
    /// Picoseconds.
    pub const fn as_ps(self) -> u64 {
        self.0
    }
    /// Seconds as a float, for display and statistics only.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / PS_PER_S as f64
    }
    /// Saturating addition.
    #[must_use]
    pub const fn saturating_add(self, other: SimTime) -> SimTime {
        SimTime(self.0.saturating_add(other.0))
    }
    /// Saturating subtraction (zero if `other` is later).
    #[must_use]
    pub const fn saturating_sub(self, other: SimTime) -> SimTime {
        SimTime(self.0.saturating_sub(other.0))
    }
    /// Multiply a span by an integer count, saturating.
    #[must_use]
    pub const fn times(self, n: u64) -> SimTime {
        SimTime(self.0.saturating_mul(n))
    }

    /// Time to push `bytes` through a channel of `bandwidth_bytes_per_s`, rounded up to a whole
    /// picosecond. A bandwidth of zero means infinite (no serialisation delay).
    pub fn transmission(bytes: u64, bandwidth_bytes_per_s: u64) -> SimTime {
        if bandwidth_bytes_per_s == 0 || bytes == 0 {
            return SimTime::ZERO;
        }
        let numerator = u128::from(bytes) * u128::from(PS_PER_S);
        let ps = numerator.div_ceil(u128::from(bandwidth_bytes_per_s));
        SimTime(u64::try_from(ps).unwrap_or(u64::MAX))
    }

    /// Format with the unit that keeps the number readable and `digits` significant decimals,
    /// e.g. `640.7 us`, `1.25 ms`, `0 s`.
    pub fn display_with(self, digits: usize) -> String {
        let ps = self.0;
        let (value, unit) = if ps == 0 {
            return "0 s".to_string();
        } else if ps < PS_PER_NS {
            return format!("{ps} ps");
        } else if ps < PS_PER_US {
            (ps as f64 / PS_PER_NS as f64, "ns")
        } else if ps < PS_PER_MS {
            (ps as f64 / PS_PER_US as f64, "us")
        } else if ps < PS_PER_S {
            (ps as f64 / PS_PER_MS as f64, "ms")
        } else {
            (ps as f64 / PS_PER_S as f64, "s")
        };
        let text = format!("{value:.digits$}");
        let text = if text.contains('.') {
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            text
        };
        format!("{text} {unit}")
    }
}

impl Add for SimTime {
    type Output = SimTime;
    fn add(self, rhs: SimTime) -> SimTime {
        SimTime(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign for SimTime {
    fn add_assign(&mut self, rhs: SimTime) {
        self.0 = self.0.saturating_add(rhs.0);
    }
}

impl Sub for SimTime {
    type Output = SimTime;
    fn sub(self, rhs: SimTime) -> SimTime {
        SimTime(self.0.saturating_sub(rhs.0))
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display_with(4))
    }
}

/// A link's bandwidth made ready for sends: where a byte takes a whole number of picoseconds
/// (1 GB/s: 1,000 ps) a message's serialisation is one multiplication instead of the 128-bit
/// division of [`SimTime::transmission`], which gives the same time (a division took 3 % of a
/// packet-level fat-tree run's samples).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkRate {
    bandwidth_bytes_per_s: u64,
    /// Picoseconds a byte takes when that is a whole number, else 0.
    ps_per_byte: u64,
}

impl LinkRate {
    /// The rate of a link of `bandwidth_bytes_per_s` (0: infinite).
    pub const fn new(bandwidth_bytes_per_s: u64) -> Self {
        let ps_per_byte =
            if PS_PER_S.is_multiple_of(bandwidth_bytes_per_s) { PS_PER_S / bandwidth_bytes_per_s } else { 0 };
        LinkRate { bandwidth_bytes_per_s, ps_per_byte }
    }

    /// The bandwidth it was made from.
    pub const fn bandwidth_bytes_per_s(self) -> u64 {
        self.bandwidth_bytes_per_s
    }

    /// Time to push `bytes` through the link: exactly [`SimTime::transmission`].
    pub fn transmission(self, bytes: u64) -> SimTime {
        if self.ps_per_byte != 0 {
            SimTime(bytes.saturating_mul(self.ps_per_byte))
        } else {
            SimTime::transmission(bytes, self.bandwidth_bytes_per_s)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_readably() {
        assert_eq!(SimTime(0).to_string(), "0 s");
        assert_eq!(SimTime(12).to_string(), "12 ps");
        assert_eq!(SimTime(640_700_000).to_string(), "640.7 us");
        assert_eq!(SimTime::from_ms(2).to_string(), "2 ms");
        assert_eq!(SimTime(1_250_000_000_000).to_string(), "1.25 s");
    }

    #[test]
    fn transmission_rounds_up() {
        // 1 byte at 3 B/s is a third of a second: rounded up to the next picosecond.
        assert_eq!(SimTime::transmission(1, 3), SimTime(333_333_333_334));
        assert_eq!(SimTime::transmission(1000, 1_000_000_000), SimTime::from_us(1));
        assert_eq!(SimTime::transmission(1000, 0), SimTime::ZERO);
    }

    proptest::proptest! {
        /// A link's rate gives the time the division gives, for bandwidths that divide a second's
        /// picoseconds (where it multiplies) and for any other, up to saturation.
        #[test]
        fn a_link_rate_times_as_the_division_does(
            bytes in proptest::prop_oneof![0u64..100_000, proptest::num::u64::ANY],
            divisor_exponents in (0u32..13, 0u32..13),
            other in proptest::num::u64::ANY,
        ) {
            let (twos, fives) = divisor_exponents;
            let divides = 2u64.pow(twos) * 5u64.pow(fives);
            for bandwidth in [divides, other, 0, 1, 3, 1_000_000_000, 12_500_000_000] {
                let rate = LinkRate::new(bandwidth);
                proptest::prop_assert_eq!(rate.transmission(bytes), SimTime::transmission(bytes, bandwidth));
                proptest::prop_assert_eq!(rate.bandwidth_bytes_per_s(), bandwidth);
            }
        }
    }

    #[test]
    fn a_link_rate_multiplies_only_where_a_byte_takes_whole_picoseconds() {
        assert_eq!(LinkRate::new(1_000_000_000).ps_per_byte, 1_000);
        assert_eq!(LinkRate::new(3).ps_per_byte, 0);
        assert_eq!(LinkRate::new(0).ps_per_byte, 0);
        assert_eq!(LinkRate::new(1_000_000_000).transmission(u64::MAX), SimTime::MAX);
    }
}
