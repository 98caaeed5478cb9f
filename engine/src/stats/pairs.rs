//! Message latencies per pair of ranks: a log-linear histogram (16 buckets per power of two, so a
//! bucket is at most 1/16 of its value wide) kept sparse per pair, and the percentiles read from it.

use serde::{Deserialize, Serialize};

use crate::vecmap::VecMap;

/// Buckets per power of two.
const SUB_BUCKETS: u64 = 16;
const SUB_BITS: u32 = 4;

/// The bucket of a latency and its bounds `[lo, hi)` in ps.
fn bucket(ps: u64) -> u32 {
    if ps < SUB_BUCKETS {
        return ps as u32;
    }
    let exponent = ps.ilog2();
    let sub = (ps >> (exponent - SUB_BITS)) & (SUB_BUCKETS - 1);
    (exponent - SUB_BITS + 1) * SUB_BUCKETS as u32 + sub as u32
}

fn bounds(index: u32) -> (u64, u64) {
    let i = u64::from(index);
    if i < SUB_BUCKETS {
        return (i, i + 1);
    }
    let shift = i / SUB_BUCKETS - 1;
    let sub = i % SUB_BUCKETS;
    ((SUB_BUCKETS + sub) << shift, (SUB_BUCKETS + sub + 1).saturating_mul(1 << shift))
}

/// Running figures of one pair: 48 bytes (a test pins it), since a halo exchange on 65,536 ranks
/// keeps 262,144 of them. The sum is a 128-bit number kept as two words, which a `u128` would
/// align to 16 bytes and pad, and the bucket list is boxed, since most pairs never make one.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairAcc {
    count: u64,
    sum_low: u64,
    sum_high: u64,
    min: u64,
    max: u64,
    /// Non-empty buckets in order: a sorted vector, since a pair's messages mostly take a few
    /// latencies (one bucket is 16 bytes here, where a map's first node took 144 per pair). None
    /// while every sample lies in one bucket, the one of `min`, which then holds all `count` of
    /// them: most pairs of a regular exchange never need a second, and so never allocate.
    buckets: Option<Box<VecMap<u32, u64>>>,
}

impl PairAcc {
    pub fn add(&mut self, ps: u64) {
        let b = bucket(ps);
        if self.buckets.is_none() && self.count > 0 && b != bucket(self.min) {
            // A second bucket: write out the one the samples so far share.
            self.buckets = Some(Box::new(VecMap::from([(bucket(self.min), self.count)])));
        }
        self.min = if self.count == 0 { ps } else { self.min.min(ps) };
        self.max = self.max.max(ps);
        self.count += 1;
        let (low, carry) = self.sum_low.overflowing_add(ps);
        self.sum_low = low;
        self.sum_high += u64::from(carry);
        if let Some(buckets) = &mut self.buckets {
            *buckets.get_or_insert_with(b, || 0) += 1;
        }
    }

    /// Take in the samples of `other` (the same pair counted elsewhere): the figures are those of
    /// counting both sets of samples into one.
    pub fn absorb(&mut self, other: &PairAcc) {
        if other.count == 0 {
            return;
        }
        if self.count == 0 {
            *self = other.clone();
            return;
        }
        let mut buckets: VecMap<u32, u64> = self.buckets().collect();
        for (b, n) in other.buckets() {
            *buckets.get_or_insert_with(b, || 0) += n;
        }
        let (low, carry) = self.sum_low.overflowing_add(other.sum_low);
        self.sum_low = low;
        self.sum_high += other.sum_high + u64::from(carry);
        self.count += other.count;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        self.buckets = (buckets.len() > 1).then(|| Box::new(buckets));
    }

    /// The sum of every sample.
    fn sum(&self) -> u128 {
        (u128::from(self.sum_high) << 64) | u128::from(self.sum_low)
    }

    /// The non-empty buckets in order, as `(bucket, count)`.
    fn buckets(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        let shared = (self.buckets.is_none() && self.count > 0).then(|| (bucket(self.min), self.count));
        shared.into_iter().chain(self.buckets.iter().flat_map(|list| list.iter().map(|(&b, &n)| (b, n))))
    }

    /// The `q` quantile (0–1): the middle of the bucket holding it, kept within min..max.
    fn quantile(&self, q: f64) -> u64 {
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count.max(1));
        let mut seen = 0;
        for (b, n) in self.buckets() {
            seen += n;
            if seen >= rank {
                let (lo, hi) = bounds(b);
                return (lo + (hi - lo) / 2).clamp(self.min, self.max);
            }
        }
        self.max
    }

    pub fn report(&self, src: u32, dst: u32) -> PairLatency {
        PairLatency {
            src,
            dst,
            count: self.count,
            min_ps: self.min,
            max_ps: self.max,
            mean_ps: if self.count == 0 { 0.0 } else { self.sum() as f64 / self.count as f64 },
            p50_ps: self.quantile(0.5),
            p90_ps: self.quantile(0.9),
            p99_ps: self.quantile(0.99),
            buckets: self
                .buckets()
                .map(|(b, n)| {
                    let (lo, hi) = bounds(b);
                    (lo, hi, n)
                })
                .collect(),
        }
    }
}

/// Latencies of the messages one rank received from another.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PairLatency {
    /// Sending rank.
    pub src: u32,
    /// Receiving rank.
    pub dst: u32,
    /// Messages.
    pub count: u64,
    /// Smallest latency.
    pub min_ps: u64,
    /// Largest.
    pub max_ps: u64,
    /// Mean.
    pub mean_ps: f64,
    /// Median (within a bucket's width, at most 1/16 of the value).
    pub p50_ps: u64,
    /// 90th percentile.
    pub p90_ps: u64,
    /// 99th percentile.
    pub p99_ps: u64,
    /// Non-empty buckets: `(lower bound, upper bound, count)`, bounds in ps, upper exclusive.
    pub buckets: Vec<(u64, u64, u64)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_every_value_once_and_are_narrow() {
        for ps in (0..5000).chain([u64::MAX / 3, u64::MAX - 1, 1 << 40, (1 << 40) - 1]) {
            let (lo, hi) = bounds(bucket(ps));
            assert!(lo <= ps && (ps < hi || hi == u64::MAX), "{ps} in [{lo}, {hi})");
            assert!((hi - lo) * SUB_BUCKETS <= lo.max(SUB_BUCKETS), "{ps}: [{lo}, {hi}) too wide");
        }
        assert_eq!(bucket(15) + 1, bucket(16));
        assert_eq!(bounds(bucket(1000)), (992, 1024));
    }

    #[test]
    fn percentiles_of_a_known_sample() {
        let mut acc = PairAcc::default();
        for ps in 1..=1000_u64 {
            acc.add(ps * 1000);
        }
        let r = acc.report(3, 5);
        assert_eq!((r.src, r.dst, r.count, r.min_ps, r.max_ps), (3, 5, 1000, 1000, 1_000_000));
        assert!((r.mean_ps - 500_500.0).abs() < 1e-6);
        for (got, exact) in [(r.p50_ps, 500_000.0), (r.p90_ps, 900_000.0), (r.p99_ps, 990_000.0)] {
            assert!((got as f64 - exact).abs() <= exact / 16.0, "{got} vs {exact}");
        }
        assert_eq!(r.buckets.iter().map(|b| b.2).sum::<u64>(), 1000);
        let mut one = PairAcc::default();
        one.add(7);
        assert_eq!((one.quantile(0.5), one.quantile(0.99)), (7, 7));
    }

    /// Samples that share one bucket are counted without a bucket list; the report is the same as
    /// counting every sample into its bucket, whether a second bucket comes first, later or never.
    #[test]
    fn a_pair_in_one_bucket_allocates_nothing_and_reports_as_if_counted() {
        let mut same = PairAcc::default();
        for ps in [1000, 1010, 1001, 1000] {
            same.add(ps);
        }
        assert!(same.buckets.is_none(), "one shared bucket needs no list");
        assert_eq!(std::mem::size_of::<PairAcc>(), 48);
        // The two-word sum carries: three of the largest latencies and a small one.
        let mut huge = PairAcc::default();
        for ps in [u64::MAX, u64::MAX, 5, u64::MAX] {
            huge.add(ps);
        }
        assert_eq!(huge.sum(), 3 * u128::from(u64::MAX) + 5);
        let mean = huge.report(0, 1).mean_ps;
        assert!((mean / (0.75 * u64::MAX as f64) - 1.0).abs() < 1e-12, "mean {mean}");
        assert_eq!(same.report(0, 1).buckets, [(992, 1024, 4)]);
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for case in 0..500 {
            let mut acc = PairAcc::default();
            let mut reference: std::collections::BTreeMap<u32, u64> = std::collections::BTreeMap::new();
            let n = 1 + case % 40;
            let mut total = 0u128;
            for _ in 0..n {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Mostly one narrow range (one or two buckets), now and then far away.
                let ps = if state.is_multiple_of(7) { state % 1_000_000 } else { 5_000 + state % 300 };
                acc.add(ps);
                total += u128::from(ps);
                *reference.entry(bucket(ps)).or_default() += 1;
            }
            let want: Vec<(u64, u64, u64)> = reference
                .iter()
                .map(|(&b, &n)| {
                    let (lo, hi) = bounds(b);
                    (lo, hi, n)
                })
                .collect();
            assert_eq!(acc.report(0, 1).buckets, want, "case {case}");
            assert_eq!(acc.buckets.is_none(), reference.len() == 1, "case {case}");
            assert_eq!(acc.sum(), total, "case {case}");
        }
    }
}
