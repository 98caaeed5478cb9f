//! Columnar interval rows for the timing diagram: per row, sorted non-overlapping intervals kept
//! as three parallel vectors (start, end, state) so that finding what is visible is two binary
//! searches and a frame touches only the visible slice. Times are integer picoseconds.

use std::ops::Range;

/// One row's intervals: `[start[i], end[i])` in state `state[i]`, sorted by start, not overlapping.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Intervals {
    /// Interval starts (ps), increasing.
    pub start: Vec<u64>,
    /// Interval ends (ps, exclusive), increasing.
    pub end: Vec<u64>,
    /// State (or value) index of each interval.
    pub state: Vec<u16>,
    /// Summary levels for zoomed-out frames (see [`super::pyramid`]); empty for sparse rows.
    pub levels: Vec<PyramidLevel>,
}

impl Intervals {
    /// Give back the spare capacity the columns grew while recording (a finished row only reads).
    pub fn shrink_to_fit(&mut self) {
        self.start.shrink_to_fit();
        self.end.shrink_to_fit();
        self.state.shrink_to_fit();
    }

    /// Number of intervals.
    pub fn len(&self) -> usize {
        self.start.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.start.is_empty()
    }

    /// Append an interval; it must start at or after the previous one's end. Empty intervals are
    /// left out.
    pub fn push(&mut self, start: u64, end: u64, state: u16) {
        if end <= start {
            return;
        }
        debug_assert!(self.end.last().is_none_or(|&e| e <= start), "intervals must not overlap");
        self.start.push(start);
        self.end.push(end);
        self.state.push(state);
    }

    /// Indices of the intervals that intersect `[t0, t1)`.
    pub fn visible(&self, t0: u64, t1: u64) -> Range<usize> {
        let first = self.end.partition_point(|&e| e <= t0);
        let last = self.start.partition_point(|&s| s < t1);
        first..last.max(first)
    }

    /// Index of the interval containing `t`, if any.
    pub fn at(&self, t: u64) -> Option<usize> {
        let i = self.start.partition_point(|&s| s <= t).checked_sub(1)?;
        (t < self.end[i]).then_some(i)
    }

    /// Index of the first interval starting at or after `t`.
    pub fn first_starting_at_or_after(&self, t: u64) -> usize {
        self.start.partition_point(|&s| s < t)
    }

    /// The state edge (an interval start or end) nearest to `t`, if one lies within `max_distance`.
    pub fn nearest_edge(&self, t: u64, max_distance: u64) -> Option<u64> {
        let mut best: Option<u64> = None;
        let mut consider = |edge: u64| {
            if edge.abs_diff(t) <= max_distance && best.is_none_or(|b| edge.abs_diff(t) < b.abs_diff(t)) {
                best = Some(edge);
            }
        };
        let i = self.start.partition_point(|&s| s < t);
        for k in [i.wrapping_sub(1), i] {
            if let Some(&s) = self.start.get(k) {
                consider(s);
            }
        }
        let j = self.end.partition_point(|&e| e < t);
        for k in [j.wrapping_sub(1), j] {
            if let Some(&e) = self.end.get(k) {
                consider(e);
            }
        }
        best
    }

    /// Time spent in each state within `[t0, t1)`, indexed by state (length `states`; states beyond
    /// it are ignored).
    pub fn time_in_states(&self, t0: u64, t1: u64, states: usize) -> Vec<u64> {
        let mut out = vec![0; states];
        if t1 <= t0 {
            return out;
        }
        for i in self.visible(t0, t1) {
            let overlap = self.end[i].min(t1) - self.start[i].max(t0);
            if let Some(slot) = out.get_mut(usize::from(self.state[i])) {
                *slot += overlap;
            }
        }
        out
    }

    /// Build from a step function given as sorted `(time, +1 | -1)` changes: one interval per
    /// stretch of constant non-zero count, the count as its state (saturating at `u16::MAX`).
    pub fn from_count_changes(changes: &mut [(u64, i32)]) -> Intervals {
        changes.sort_unstable();
        let mut out = Intervals::default();
        let mut count: i64 = 0;
        let mut since = 0;
        let mut k = 0;
        while k < changes.len() {
            let t = changes[k].0;
            let mut delta = 0i64;
            while k < changes.len() && changes[k].0 == t {
                delta += i64::from(changes[k].1);
                k += 1;
            }
            if delta == 0 {
                continue;
            }
            if count > 0 {
                out.push(since, t, u16::try_from(count).unwrap_or(u16::MAX));
            }
            count += delta;
            since = t;
        }
        out
    }
}

/// One summary level of a dense row (built by `pyramid`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PyramidLevel {
    /// Bucket width (ps).
    pub bucket_ps: u64,
    /// Summary intervals (state: the dominant one).
    pub spans: Intervals,
    /// Raw intervals each summary interval stands for.
    pub counts: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> Intervals {
        let mut r = Intervals::default();
        r.push(10, 20, 1);
        r.push(20, 35, 2);
        r.push(50, 60, 1);
        r
    }

    #[test]
    fn visible_range_finds_intersecting_intervals_only() {
        let r = row();
        assert_eq!(r.visible(0, 10), 0..0);
        assert_eq!(r.visible(0, 11), 0..1);
        assert_eq!(r.visible(20, 21), 1..2);
        assert_eq!(r.visible(35, 50), 2..2);
        assert_eq!(r.visible(34, 51), 1..3);
        assert_eq!(r.visible(60, 90), 3..3);
    }

    #[test]
    fn lookup_and_edges() {
        let r = row();
        assert_eq!(r.at(9), None);
        assert_eq!(r.at(10), Some(0));
        assert_eq!(r.at(34), Some(1));
        assert_eq!(r.at(40), None);
        assert_eq!(r.nearest_edge(33, 5), Some(35));
        assert_eq!(r.nearest_edge(42, 5), None);
        assert_eq!(r.nearest_edge(47, 5), Some(50));
        assert_eq!(r.nearest_edge(0, 9), None);
    }

    #[test]
    fn time_in_states_clips_to_the_window() {
        // 15..20 in state 1 (5), 20..35 in state 2 (15), 50..55 in state 1 (5).
        assert_eq!(row().time_in_states(15, 55, 3), vec![0, 10, 15]);
        assert_eq!(row().time_in_states(55, 15, 3), vec![0, 0, 0]);
    }

    #[test]
    fn count_changes_become_a_step_function() {
        // Two children busy over 0..10 and 5..20: count 1, 2, 1.
        let mut changes = vec![(0, 1), (10, -1), (5, 1), (20, -1), (30, 1), (30, -1)];
        let r = Intervals::from_count_changes(&mut changes);
        assert_eq!(r.start, vec![0, 5, 10]);
        assert_eq!(r.end, vec![5, 10, 20]);
        assert_eq!(r.state, vec![1, 2, 1]);
    }
}
