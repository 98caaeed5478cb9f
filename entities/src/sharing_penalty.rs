//! A message's sharing penalty: what a latency-weighted queue (a network interface with
//! `nic_sharing = "latency_weighted"`, a router output with `output_sharing = "latency_weighted"`)
//! weighs its share of a link by. It is the latency of the message's route, as in SimGrid's CM02
//! network model, whose max-min sharing gives each flow crossing a link a share of its bandwidth in
//! inverse proportion to that penalty.
//!
//! Every packet carries its message's penalty in two bytes (a packet stays at 48 bytes): an 11-bit
//! mantissa and a 5-bit exponent of picoseconds, rounded down. Latencies below 2048 ps are exact,
//! longer ones lose less than one part in 1024, and the largest is about 4.4 s (longer saturate).
//! Routes whose latencies are a power of two apart (1 us and 2 us, 2 us and 4 us) keep their exact
//! ratio.
//!
//! A weighted queue tags each waiting message's next packet with a virtual time in integers, and
//! a packet's bytes times its penalty ([`SharingPenalty::service`]) is what sending it advances
//! its message's tag by, so while messages stay queued each receives bytes in proportion to
//! 1 / penalty. Both weighted queues (`processor::outbox` at the interface, `weighted_queue` at
//! router outputs) send the packet with the smallest virtual finish; they differ in where a
//! message that joins starts.

use hase_engine::time::SimTime;

/// Bits of the mantissa of the carried penalty.
const MANTISSA_BITS: u32 = 11;
const MANTISSA_MASK: u16 = (1 << MANTISSA_BITS) - 1;
/// The largest exponent of the carried penalty.
const MAX_EXPONENT: u32 = (1 << (16 - MANTISSA_BITS)) - 1;

/// A route's latency as a packet carries it (see the module header).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct SharingPenalty(u16);

impl SharingPenalty {
    /// No penalty: a message whose route latency is unknown or zero. It weighs as 1 ps.
    pub const NONE: SharingPenalty = SharingPenalty(0);

    /// The penalty of a route of `latency`, rounded down to 11 significant bits.
    pub fn from_latency(latency: SimTime) -> Self {
        let ps = latency.0;
        let significant = u64::BITS - ps.leading_zeros();
        if significant <= MANTISSA_BITS {
            return SharingPenalty(ps as u16);
        }
        let exponent = significant - MANTISSA_BITS;
        if exponent > MAX_EXPONENT {
            return SharingPenalty(u16::MAX);
        }
        let mantissa = (ps >> exponent) as u16;
        SharingPenalty(((exponent as u16) << MANTISSA_BITS) | mantissa)
    }

    /// The latency it stands for, in picoseconds (zero for [`Self::NONE`]).
    pub fn picoseconds(self) -> u64 {
        let exponent = u32::from(self.0 >> MANTISSA_BITS);
        u64::from(self.0 & MANTISSA_MASK) << exponent
    }

    /// What sending `bytes` adds to a message's virtual finish time: bytes times the penalty in
    /// picoseconds (at least 1 ps, so a message without a penalty still takes its turn).
    pub fn service(self, bytes: u64) -> u128 {
        u128::from(bytes) * u128::from(self.picoseconds().max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_latencies_are_exact_and_long_ones_round_down_to_eleven_bits() {
        for ps in [0, 1, 7, 2047] {
            assert_eq!(SharingPenalty::from_latency(SimTime(ps)).picoseconds(), ps);
        }
        // 1 us = 1953.125 × 2^9 ps: kept as 1953 × 2^9.
        assert_eq!(SharingPenalty::from_latency(SimTime::from_us(1)).picoseconds(), 1953 << 9);
        for ps in [2048u64, 3_000_001, 999_999_999, 4_000_000_000_000] {
            let kept = SharingPenalty::from_latency(SimTime(ps)).picoseconds();
            assert!(kept <= ps && ps - kept < ps / 1024 + 1, "{ps} kept as {kept}");
        }
    }

    #[test]
    fn latencies_a_power_of_two_apart_keep_their_ratio_and_order_is_kept() {
        let one = SharingPenalty::from_latency(SimTime::from_us(1)).picoseconds();
        for k in [2, 4, 8, 64] {
            assert_eq!(SharingPenalty::from_latency(SimTime::from_us(k)).picoseconds(), k * one);
        }
        let mut last = SharingPenalty::NONE;
        for ns in (0..200_000).step_by(997) {
            let p = SharingPenalty::from_latency(SimTime::from_ns(ns));
            assert!(p >= last && p.picoseconds() >= last.picoseconds(), "{ns} ns");
            last = p;
        }
    }

    #[test]
    fn a_latency_beyond_the_range_saturates() {
        let largest = SharingPenalty::from_latency(SimTime(u64::MAX));
        assert_eq!(largest, SharingPenalty(u16::MAX));
        assert_eq!(largest.picoseconds(), 2047 << 31);
        assert_eq!(SharingPenalty::from_latency(SimTime::from_ms(10_000)), largest);
    }

    #[test]
    fn service_is_bytes_times_the_penalty_and_never_free() {
        let p = SharingPenalty::from_latency(SimTime(100));
        assert_eq!(p.service(4096), 409_600);
        assert_eq!(SharingPenalty::NONE.service(4096), 4096);
        assert_eq!(SharingPenalty::NONE.service(0), 0);
    }
}
