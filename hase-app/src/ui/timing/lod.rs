//! Level of detail for one row of the timing diagram. Only the visible slice of the row is read
//! (two binary searches); an interval at least a point wide becomes its own mark; sub-point
//! intervals are merged per screen point into one mark that covers the whole point, so a short
//! event never disappears — it shows as a merged mark (drawn with an activity tick) at its place.
//! Skipping over the merged intervals is a galloping search, so a frame costs about one search per
//! screen point per row however many intervals the row holds. Touching marks of the same kind and
//! state are joined, which keeps long busy stretches at full zoom-out to a single rectangle.
//! (Compare puffin's flame graph, which culls scopes below a width instead of merging them.)

use hase_editor::replay::columns::Intervals;

use hase_editor::session::timing::view::TimeView;

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

/// Screen x of the visible intervals' starts and ends, and their starts as f64, reused from row
/// to row so a frame allocates once.
#[derive(Debug, Default)]
pub struct MarkScratch {
    start_x: Vec<f64>,
    end_x: Vec<f64>,
}

/// The marks of `row` for a strip `width` points wide showing `view`, appended to `out`: from the
/// row's coarsest summary level whose buckets fit in a point, or from the row itself.
pub fn build_marks(row: &Intervals, view: &TimeView, width: f32, out: &mut Vec<Mark>) {
    build_marks_with(row, view, width, &mut MarkScratch::default(), out);
}

/// [`build_marks`] with buffers kept between rows.
pub fn build_marks_with(
    row: &Intervals,
    view: &TimeView,
    width: f32,
    scratch: &mut MarkScratch,
    out: &mut Vec<Mark>,
) {
    match row.level_for(view.ps_per_pt) {
        Some(level) => marks_of(&level.spans, Some(&level.counts), view, width, scratch, out),
        None => marks_of(row, None, view, width, scratch, out),
    }
}

/// The marks of intervals `row` (each standing for `counts[i]` raw intervals when given).
///
/// Every interval's screen x is worked out first in one tight loop over the visible slice (the
/// compiler vectorises it), so the walk below — whose branches depend on the data and are often
/// mispredicted — has little left to redo after each one. Index `i` counts from the slice start.
fn marks_of(
    row: &Intervals,
    counts: Option<&[u32]>,
    view: &TimeView,
    width: f32,
    scratch: &mut MarkScratch,
    out: &mut Vec<Mark>,
) {
    let t0 = view.left_ps;
    let t1 = view.right_ps(width);
    let range = row.visible(t0, t1.saturating_add(1));
    let base = range.start;
    let count_of = |from: usize, to: usize| {
        counts.map_or((to - from) as u32, |c| c[base + from..base + to].iter().sum())
    };
    let pp = view.ps_per_pt;
    let left = t0 as f64;
    let per_ps = 1.0 / pp;
    let x_of = |t: u64| (t as f64 - left) * per_ps;
    let limit = f64::from(width) + 1.0;
    let (starts, ends, states) = (&row.start[range.clone()], &row.end[range.clone()], &row.state[range]);
    let n = starts.len();
    scratch.start_x.clear();
    scratch.start_x.extend(starts.iter().map(|&t| x_of(t)));
    scratch.end_x.clear();
    scratch.end_x.extend(ends.iter().map(|&t| x_of(t)));
    let (start_x, end_x) = (&scratch.start_x[..n], &scratch.end_x[..n]);
    let mut cursor = -1.0f64;
    let mut i = 0;
    let start_len = out.len();
    while i < n {
        let xs = start_x[i].max(cursor);
        if xs >= limit {
            break;
        }
        let xe = end_x[i].min(limit);
        if xe - xs >= MIN_MARK_PT {
            let mark = Mark {
                x0: xs as f32,
                x1: xe as f32,
                state: states[i],
                count: count_of(i, i + 1),
                first: base + i,
            };
            push(out, start_len, mark);
            cursor = xe;
            i += 1;
            continue;
        }
        let column_end = xs + MIN_MARK_PT;
        // First time past the point (truncate + 1: an interval starting exactly at the point's
        // end joins this point, which its mark still touches). No `ceil`: it is a libm call here.
        let threshold = left + column_end * pp;
        let threshold = if threshold >= u64::MAX as f64 { u64::MAX } else { threshold as u64 + 1 };
        let j = if i + 4 <= n {
            // Most points hold one to three intervals: count the next three starts before the
            // threshold without branching (they are sorted, so the count is the index), and
            // gallop on only when all three are inside the point.
            let k = i
                + 1
                + usize::from(starts[i + 1] < threshold)
                + usize::from(starts[i + 2] < threshold)
                + usize::from(starts[i + 3] < threshold);
            if k == i + 4 { gallop(starts, k, n, threshold) } else { k }
        } else {
            gallop(starts, i + 1, n, threshold)
        };
        let from = (left + xs * pp) as u64;
        let state = dominant_state((starts, ends, states), i, j, from, threshold);
        let mark =
            Mark { x0: xs as f32, x1: column_end as f32, state, count: count_of(i, j), first: base + i };
        push(out, start_len, mark);
        cursor = column_end;
        // The last merged interval may run on past this point: draw its remainder next.
        i = if end_x[j - 1] > column_end { j - 1 } else { j };
    }
}

/// The state covering most of `[t0, t1)` among the first few intervals of `i..j` (the first of
/// them on a tie). Where the slice has room, always looks at [`COLOUR_SAMPLE`] intervals and
/// masks those past `j`, a fixed loop the compiler turns into selects rather than branches.
fn dominant_state(
    (starts, ends, states): (&[u64], &[u64], &[u16]),
    i: usize,
    j: usize,
    t0: u64,
    t1: u64,
) -> u16 {
    let mut best_overlap = 0u64;
    let mut best_state = states[i];
    let last = if i + COLOUR_SAMPLE <= states.len() { i + COLOUR_SAMPLE } else { j };
    for k in i..last {
        let overlap = if k < j { ends[k].min(t1).saturating_sub(starts[k].max(t0)) } else { 0 };
        let better = overlap > best_overlap;
        best_overlap = if better { overlap } else { best_overlap };
        best_state = if better { states[k] } else { best_state };
    }
    best_state
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
mod tests;
