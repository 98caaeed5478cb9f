//! Tests of the level of detail, with the first version of the algorithm kept as a reference
//! that the faster one must match mark for mark.

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
        r.levels = vec![hase_editor::replay::pyramid::summarise(&r, bucket)];
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

/// Rows of short and long intervals with gaps, starting anywhere in the u64 range (late starts
/// exercise the f64 rounding of big times), optionally with a summary level.
fn arb_late_row() -> impl Strategy<Value = Intervals> {
    (
        prop_oneof![Just(0u64), 0u64..1 << 40, (1u64 << 52)..(1 << 54), (1u64 << 62)..(1 << 63)],
        proptest::collection::vec((0u64..3, prop_oneof![1u64..4, 1u64..60, 1u64..2_000], 0u16..6), 1..400),
    )
        .prop_map(|(offset, raw)| {
            let mut r = Intervals::default();
            let mut t = offset;
            for (gap, len, state) in raw {
                t += gap;
                r.push(t, t + len, state);
                t += len;
            }
            r
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn marks_equal_those_of_the_reference_algorithm(
        r in arb_late_row(),
        bucket in prop_oneof![Just(0u64), 1u64..200],
        left_frac in 0.0f64..1.0,
        ps_per_pt in prop_oneof![0.05f64..2.0, 2.0f64..50.0, 50.0f64..2_000.0],
        width in 10f32..600.0,
    ) {
        let mut r = r;
        if bucket > 0 {
            r.levels = vec![hase_editor::replay::pyramid::summarise(&r, bucket)];
        }
        let (first, last) = (r.start[0], r.end[r.len() - 1]);
        let left = first.saturating_sub(100) + ((last - first) as f64 * left_frac) as u64;
        let v = TimeView { left_ps: left, ps_per_pt };
        let (mut fast, mut slow) = (vec![Mark { x0: 0.0, x1: 0.0, state: 9, count: 1, first: 0 }], Vec::new());
        slow.push(fast[0]);
        build_marks(&r, &v, width, &mut fast);
        reference::build_marks(&r, &v, width, &mut slow);
        prop_assert_eq!(fast, slow);
    }
}

#[test]
fn marks_of_a_dense_row_equal_the_reference_at_every_zoom() {
    // As in the timing bench: random lengths averaging 100 ns and random states.
    let mut r = Intervals::default();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut t = 0;
    for _ in 0..100_000 {
        let len = 1 + next(200_000);
        r.push(t, t + len, next(6) as u16);
        t += len;
    }
    r.build_levels();
    let width = 1_400.0;
    let mut scratch = MarkScratch::default();
    for view in [
        TimeView::fit(t, width),
        TimeView::showing(t / 2, t / 2 + t / 100, width),
        TimeView::showing(t / 3, t / 3 + t / 20_000, width),
        TimeView::showing(t / 2, t / 2 + 1_000_000, width),
    ] {
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        build_marks_with(&r, &view, width, &mut scratch, &mut fast);
        reference::build_marks(&r, &view, width, &mut slow);
        assert!(!fast.is_empty());
        assert_eq!(fast, slow, "{view:?}");
    }
}

/// The first version of [`marks_of`] (before the screen x were worked out ahead and the common
/// one-to-three-intervals point was counted without branches), kept to compare against.
mod reference {
    use super::super::{COLOUR_SAMPLE, MIN_MARK_PT, Mark, gallop, push};
    use hase_editor::replay::columns::Intervals;
    use hase_editor::session::timing::view::TimeView;

    pub fn build_marks(row: &Intervals, view: &TimeView, width: f32, out: &mut Vec<Mark>) {
        match row.level_for(view.ps_per_pt) {
            Some(level) => marks_of(&level.spans, Some(&level.counts), view, width, out),
            None => marks_of(row, None, view, width, out),
        }
    }

    fn marks_of(row: &Intervals, counts: Option<&[u32]>, view: &TimeView, width: f32, out: &mut Vec<Mark>) {
        let count_of =
            |from: usize, to: usize| counts.map_or((to - from) as u32, |c| c[from..to].iter().sum());
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
}
