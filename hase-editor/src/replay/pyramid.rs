//! Summary levels of a dense row for zoomed-out frames. A level cuts time into buckets of equal
//! width; a bucket where several intervals meet becomes one summary interval (spanning the parts
//! of those intervals inside it, coloured by the one covering most of it, with how many it stands
//! for), and stretches of a single interval between such buckets are kept whole. A frame whose
//! screen point is at least one bucket wide draws from the level instead of the raw row, touching
//! a few buckets per point instead of every interval: the raw data of a 10-million-interval trace
//! is not read at all at full zoom-out. Every raw interval's time is covered by the summary
//! intervals, so a short event still leaves a mark where it happened.

use super::columns::{Intervals, PyramidLevel};

/// Bucket counts tried for the levels (fine to coarse, a factor of 4 apart; the coarsest still
/// has more buckets than a wide screen has points).
const BUCKET_COUNTS: [u64; 7] = [1 << 23, 1 << 21, 1 << 19, 1 << 17, 1 << 15, 1 << 13, 1 << 11];
/// A level is tried when the row has this many intervals per bucket, and kept when it has at most
/// this fraction of the row's intervals.
const MIN_REDUCTION: usize = 2;

/// A bucket being filled.
struct Pending {
    start: u64,
    end: u64,
    count: u32,
    best: (u64, u16),
}

impl Pending {
    fn add(&mut self, start: u64, end: u64, state: u16) {
        self.end = end;
        self.count += 1;
        if end - start > self.best.0 {
            self.best = (end - start, state);
        }
    }
}

fn flush(level: &mut PyramidLevel, pending: &mut Option<Pending>) {
    if let Some(p) = pending.take() {
        level.spans.push(p.start, p.end, p.best.1);
        level.counts.push(p.count);
    }
}

/// The level of `row` with buckets `bucket_ps` wide.
pub fn summarise(row: &Intervals, bucket_ps: u64) -> PyramidLevel {
    let mut level = PyramidLevel { bucket_ps, ..PyramidLevel::default() };
    let mut pending: Option<Pending> = None;
    let bucket_of = |t: u64| t / bucket_ps;
    for k in 0..row.len() {
        let (s, e, state) = (row.start[k], row.end[k], row.state[k]);
        let (first, last) = (bucket_of(s), bucket_of(e - 1));
        // Finish the bucket being filled if this interval starts in a later one (or after a gap).
        if pending.as_ref().is_some_and(|p| bucket_of(p.end - 1) != first || p.end != s) {
            flush(&mut level, &mut pending);
        }
        if first == last {
            pending.get_or_insert(Pending { start: s, end: s, count: 0, best: (0, state) }).add(s, e, state);
            continue;
        }
        // Head in the first bucket, whole buckets in the middle, tail in the last bucket.
        let head_end = (first + 1) * bucket_ps;
        pending
            .get_or_insert(Pending { start: s, end: s, count: 0, best: (0, state) })
            .add(s, head_end, state);
        flush(&mut level, &mut pending);
        let tail_start = last * bucket_ps;
        if tail_start > head_end {
            level.spans.push(head_end, tail_start, state);
            level.counts.push(1);
        }
        pending = Some(Pending { start: tail_start, end: tail_start, count: 0, best: (0, state) });
        if let Some(p) = &mut pending {
            p.add(tail_start, e, state);
        }
    }
    flush(&mut level, &mut pending);
    level
}

impl Intervals {
    /// Build the summary levels worth having (each at most half the row's size).
    pub fn build_levels(&mut self) {
        self.levels.clear();
        let Some(&end) = self.end.last() else { return };
        for buckets in BUCKET_COUNTS {
            let bucket_ps = end.div_ceil(buckets).max(1);
            if self.len() < MIN_REDUCTION * buckets as usize || bucket_ps <= 1 {
                continue;
            }
            let level = summarise(self, bucket_ps);
            if level.spans.len() * MIN_REDUCTION <= self.len() {
                self.levels.push(level);
            }
        }
    }

    /// The coarsest level whose buckets are no wider than `ps_per_pt` (so a bucket is at most a
    /// screen point), if any.
    pub fn level_for(&self, ps_per_pt: f64) -> Option<&PyramidLevel> {
        self.levels.iter().rev().find(|l| l.bucket_ps as f64 <= ps_per_pt)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn dense_buckets_collapse_and_long_intervals_stay_whole() {
        let mut row = Intervals::default();
        // Bucket 0..10: three short intervals; then one long interval 9..35 would overlap, so:
        row.push(0, 2, 1);
        row.push(2, 3, 2);
        row.push(3, 9, 3);
        row.push(9, 35, 4);
        row.push(35, 36, 5);
        let level = summarise(&row, 10);
        // Bucket 0: [0, 10) from four pieces (the long one's head 9..10), dominant 3 (6 ps).
        // Middle of the long one: [10, 30). Bucket 3: its tail 30..35 and 35..36.
        assert_eq!(level.spans.start, vec![0, 10, 30]);
        assert_eq!(level.spans.end, vec![10, 30, 36]);
        assert_eq!(level.spans.state, vec![3, 4, 4]);
        assert_eq!(level.counts, vec![4, 1, 2]);
    }

    #[test]
    fn levels_are_built_only_for_dense_rows_and_chosen_by_zoom() {
        let mut dense = Intervals::default();
        for k in 0..100_000u64 {
            dense.push(k * 10, k * 10 + 10, (k % 3) as u16);
        }
        dense.build_levels();
        let buckets: Vec<u64> = dense.levels.iter().map(|l| l.bucket_ps).collect();
        // 1,000,000 ps of data: buckets of 1,000,000/32,768, /8,192 and /2,048 (finer ones would
        // not halve it).
        assert_eq!(buckets, vec![31, 123, 489]);
        assert_eq!(dense.level_for(30.0), None);
        assert_eq!(dense.level_for(200.0).map(|l| l.bucket_ps), Some(123));
        assert_eq!(dense.level_for(1e9).map(|l| l.bucket_ps), Some(489));
        let mut sparse = Intervals::default();
        sparse.push(0, 1_000_000, 0);
        sparse.build_levels();
        assert!(sparse.levels.is_empty());
    }

    proptest! {
        #[test]
        fn summary_covers_every_interval_and_counts_them_all(
            raw in proptest::collection::vec((0u64..30, 1u64..200, 0u16..5), 1..300),
            bucket in 1u64..500,
        ) {
            let mut row = Intervals::default();
            let mut t = 0;
            for (gap, len, state) in raw {
                t += gap;
                row.push(t, t + len, state);
                t += len;
            }
            let level = summarise(&row, bucket);
            for w in level.spans.start.windows(2) {
                prop_assert!(w[0] < w[1]);
            }
            for k in 0..level.spans.len() {
                let (s, e) = (level.spans.start[k], level.spans.end[k]);
                prop_assert!(e - s <= bucket || level.counts[k] == 1, "a merged span wider than a bucket");
            }
            // Every raw picosecond is inside a summary span, and nothing else is.
            for k in 0..row.len() {
                for t in [row.start[k], row.end[k] - 1, u64::midpoint(row.start[k], row.end[k])] {
                    prop_assert!(level.spans.at(t).is_some(), "{t} uncovered");
                }
            }
            let covered: u64 = (0..level.spans.len()).map(|k| level.spans.end[k] - level.spans.start[k]).sum();
            let raw_total: u64 = (0..row.len()).map(|k| row.end[k] - row.start[k]).sum();
            prop_assert_eq!(covered, raw_total);
            // Counts add up to the raw intervals plus one per extra piece of a split interval.
            let total: u32 = level.counts.iter().sum();
            prop_assert!(total as usize >= row.len());
        }
    }
}
