//! Level of detail for one row of the timing diagram. Only the visible slice of the row is read
//! (two binary searches); an interval at least a point wide becomes its own mark; sub-point
//! intervals are merged per screen point into one mark that covers the whole point, so a short
//! event never disappears — it shows as a merged mark (drawn with an activity tick) at its place.
//! Skipping over the merged intervals is a galloping search, so a frame costs about one search per
//! screen point per row however many intervals the row holds. Touching marks of the same kind and
//! state are joined, which keeps long busy stretches at full zoom-out to a single rectangle.
//! (Compare puffin's flame graph, which culls scopes below a width instead of merging them.)

use crate::replay::columns::Intervals;

use super::view::TimeView;

/// Narrowest mark, in screen points.
pub const MIN_MARK_PT: f64 = 1.0;
/// Intervals looked at to colour a merged mark.
const COLOUR_SAMPLE: usize = 4;

/// One drawn mark, in points relative to the strip's left edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mark {
    /// Left edge.
    pub x0: f32,
    /// Right edge.
    pub x1: f32,
    /// State colouring the mark (for merged marks, the one covering most of the first point).
    pub state: u16,
    /// Intervals the mark stands for (1: a plain interval).
    pub count: u32,
    /// Index of the first interval (in the row, or in the summary level drawn).
    pub first: usize,
}

impl Mark {
    /// True if the mark stands for several intervals too short to draw apart.
    pub fn is_merged(&self) -> bool {
        self.count > 1
    }
}

/// First index in `from..to` whose start is `>= threshold`, searching outward from `from`.
fn gallop(start: &[u64], from: usize, to: usize, threshold: u64) -> usize {
    let mut lo = from;
    let mut step = 1;
    let mut hi = from;
    while hi < to && start[hi] < threshold {
        lo = hi + 1;
        hi = (hi + step).min(to);
        step *= 2;
    }
    lo + start[lo..hi].partition_point(|&s| s < threshold)
}

/// The marks of `row` for a strip `width` points wide showing `view`, appended to `out`: from the
/// row's coarsest summary level whose buckets fit in a point, or from the row itself.
pub fn build_marks(row: &Intervals, view: &TimeView, width: f32, out: &mut Vec<Mark>) {
    match row.level_for(view.ps_per_pt) {
        Some(level) => marks_of(&level.spans, Some(&level.counts), view, width, out),
        None => marks_of(row, None, view, width, out),
    }
}

/// The marks of intervals `row` (each standing for `counts[i]` raw intervals when given).
fn marks_of(row: &Intervals, counts: Option<&[u32]>, view: &TimeView, width: f32, out: &mut Vec<Mark>) {
    let count_of = |from: usize, to: usize| counts.map_or((to - from) as u32, |c| c[from..to].iter().sum());
    let t0 = view.left_ps;
    let t1 = view.right_ps(width);
    let range = row.visible(t0, t1.saturating_add(1));
    let pp = view.ps_per_pt;
    let left = t0 as f64;
    let per_ps = 1.0 / pp;
    let x_of = |t: u64| (t as f64 - left) * per_ps;
    let limit = f64::from(width) + 1.0;
    let mut cursor = -1.0f64;
    let mut i = range.start;
    let start_len = out.len();
    while i < range.end {
        let xs = x_of(row.start[i]).max(cursor);
        if xs >= limit {
            break;
        }
        let xe = x_of(row.end[i]).min(limit);
        if xe - xs >= MIN_MARK_PT {
            push(
                out,
                start_len,
                Mark {
                    x0: xs as f32,
                    x1: xe as f32,
                    state: row.state[i],
                    count: count_of(i, i + 1),
                    first: i,
                },
            );
            cursor = xe;
            i += 1;
            continue;
        }
        let column_end = xs + MIN_MARK_PT;
        // First time past the point (truncate + 1: an interval starting exactly at the point's
        // end joins this point, which its mark still touches). No `ceil`: it is a libm call here.
        let threshold = left + column_end * pp;
        let threshold = if threshold >= u64::MAX as f64 { u64::MAX } else { threshold as u64 + 1 };
        let j = gallop(&row.start, i + 1, range.end, threshold);
        let from = (left + xs * pp) as u64;
        let state = dominant_state(row, i, j, from, threshold);
        push(
            out,
            start_len,
            Mark { x0: xs as f32, x1: column_end as f32, state, count: count_of(i, j), first: i },
        );
        cursor = column_end;
        // The last merged interval may run on past this point: draw its remainder next.
        i = if x_of(row.end[j - 1]) > column_end { j - 1 } else { j };
    }
}

/// The state covering most of `[t0, t1)` among the first few intervals of `i..j`.
fn dominant_state(row: &Intervals, i: usize, j: usize, t0: u64, t1: u64) -> u16 {
    let mut best = (0u64, row.state[i]);
    for k in i..j.min(i + COLOUR_SAMPLE) {
        let overlap = row.end[k].min(t1).saturating_sub(row.start[k].max(t0));
        if overlap > best.0 {
            best = (overlap, row.state[k]);
        }
    }
    best.1
}

/// Append `mark`, joining it to the previous one when they touch and look alike.
fn push(out: &mut Vec<Mark>, start_len: usize, mark: Mark) {
    if out.len() > start_len
        && let Some(last) = out.last_mut()
        && last.state == mark.state
        && last.is_merged() == mark.is_merged()
        && (last.x1 - mark.x0).abs() < 1e-3
    {
        last.x1 = mark.x1;
        last.count += mark.count;
        return;
    }
    out.push(mark);
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn row(spans: &[(u64, u64, u16)]) -> Intervals {
        let mut r = Intervals::default();
        for &(s, e, st) in spans {
            r.push(s, e, st);
        }
        r
    }

    #[test]
    fn wide_intervals_are_drawn_as_they_are() {
        let r = row(&[(0, 100, 0), (100, 300, 1)]);
        let v = TimeView { left_ps: 0, ps_per_pt: 10.0 };
        let mut marks = Vec::new();
        build_marks(&r, &v, 50.0, &mut marks);
        assert_eq!(marks.len(), 2);
        assert_eq!((marks[0].x0, marks[0].x1, marks[0].state), (0.0, 10.0, 0));
        assert_eq!((marks[1].x0, marks[1].x1, marks[1].state), (10.0, 30.0, 1));
    }

    #[test]
    fn a_short_event_inside_a_long_idle_stays_visible() {
        // 1 ps of state 2 at 5,000 ps, 100 ps per point: 0.01 point wide.
        let r = row(&[(0, 5_000, 0), (5_000, 5_001, 2), (5_001, 20_000, 0)]);
        let v = TimeView { left_ps: 0, ps_per_pt: 100.0 };
        let mut marks = Vec::new();
        build_marks(&r, &v, 200.0, &mut marks);
        let merged: Vec<&Mark> = marks.iter().filter(|m| m.is_merged()).collect();
        assert_eq!(merged.len(), 1);
        assert_eq!((merged[0].x0, merged[0].x1), (50.0, 51.0));
        assert_eq!(merged[0].count, 2);
        // The idle stretch goes on after the merged point.
        assert_eq!(marks.last().map(|m| (m.x0, m.x1, m.state)), Some((51.0, 200.0, 0)));
    }

    #[test]
    fn a_million_intervals_in_a_few_hundred_points() {
        let mut r = Intervals::default();
        for k in 0..1_000_000u64 {
            r.push(k * 10, k * 10 + 7, (k % 3) as u16);
        }
        let v = TimeView::fit(10_000_000, 500.0);
        let mut marks = Vec::new();
        build_marks(&r, &v, 500.0, &mut marks);
        assert!(marks.len() <= 502, "{}", marks.len());
        let covered: u32 = marks.iter().map(|m| m.count).sum();
        assert!(covered >= 1_000_000, "{covered}");
    }

    fn arb_row() -> impl Strategy<Value = Intervals> {
        proptest::collection::vec((0u64..50, 1u64..400, 0u16..4), 1..200).prop_map(|raw| {
            let mut r = Intervals::default();
            let mut t = 0;
            for (gap, len, state) in raw {
                t += gap;
                r.push(t, t + len, state);
                t += len;
            }
            r
        })
    }

    proptest! {
        #[test]
        fn from_a_summary_level_every_interval_has_a_mark_within_a_point(
            r in arb_row(),
            bucket in 1u64..300,
            left in 0u64..5_000,
            points_per_bucket in 0.05f64..1.0,
            width in 10f32..600.0,
        ) {
            let mut r = r;
            r.levels = vec![crate::replay::pyramid::summarise(&r, bucket)];
            // At least a bucket per point, so the level is the one drawn.
            let ps_per_pt = bucket as f64 / points_per_bucket;
            let v = TimeView { left_ps: left, ps_per_pt };
            prop_assert!(r.level_for(ps_per_pt).is_some());
            let mut marks = Vec::new();
            build_marks(&r, &v, width, &mut marks);
            let x = |t: u64| ((t as f64 - left as f64) / ps_per_pt) as f32;
            for k in r.visible(v.left_ps, v.right_ps(width)) {
                let (xs, xe) = (x(r.start[k]).max(-1.0), x(r.end[k]).min(width + 1.0));
                if xs > xe {
                    continue;
                }
                prop_assert!(
                    marks.iter().any(|m| m.x0 <= xe + 1.0 + 1e-3 && m.x1 >= xs - 1.0 - 1e-3),
                    "interval {k} at {xs}..{xe} has no mark near it"
                );
            }
        }

        #[test]
        fn every_visible_interval_meets_a_mark_where_it_is(
            r in arb_row(),
            left in 0u64..5_000,
            ps_per_pt in 0.05f64..400.0,
            width in 10f32..600.0,
        ) {
            let v = TimeView { left_ps: left, ps_per_pt };
            let mut marks = Vec::new();
            build_marks(&r, &v, width, &mut marks);
            prop_assert!(marks.len() as f32 <= width + 3.0);
            for w in marks.windows(2) {
                prop_assert!(w[0].x1 <= w[1].x0 + 1e-3, "marks overlap: {:?}", w);
            }
            let x = |t: u64| ((t as f64 - left as f64) / ps_per_pt) as f32;
            for k in r.visible(v.left_ps, v.right_ps(width)) {
                let (xs, xe) = (x(r.start[k]).max(-1.0), x(r.end[k]).min(width + 1.0));
                if xs > xe {
                    continue; // entirely in the sliver right of the strip
                }
                prop_assert!(
                    marks.iter().any(|m| m.x0 <= xe + 1e-3 && m.x1 >= xs - 1e-3),
                    "interval {k} at {xs}..{xe} has no mark"
                );
            }
        }
    }
}
