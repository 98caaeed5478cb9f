//! The timing diagram's time axis: which picosecond sits at the left edge and how many picoseconds
//! one screen point spans. Data stay integer picoseconds; f64 appears only in the mapping to screen
//! x. Zoom about a fixed point, pan, limits (never past the run, never finer than 0.01 ps per
//! point), zoom to fit and to a range, and an undo stack of views.

/// Finest zoom: picoseconds per screen point.
pub const MIN_PS_PER_PT: f64 = 0.01;
/// Part of the view that must still show the run when panning past its end.
const KEEP_VISIBLE: f64 = 0.1;
/// Views kept for "back".
const HISTORY: usize = 64;

/// The mapping between time and screen x over a strip `width` points wide starting at `left_x`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeView {
    /// Time at the left edge (ps).
    pub left_ps: u64,
    /// Picoseconds per screen point.
    pub ps_per_pt: f64,
}

impl Default for TimeView {
    fn default() -> Self {
        TimeView { left_ps: 0, ps_per_pt: 1_000.0 }
    }
}

impl TimeView {
    /// Screen x of time `t` for a strip starting at `left_x`.
    pub fn x_of(&self, left_x: f32, t: u64) -> f32 {
        let dt = i128::from(t) - i128::from(self.left_ps);
        left_x + (dt as f64 / self.ps_per_pt) as f32
    }

    /// Time at screen x (clamped at zero). Only the offset from the left edge goes through f64,
    /// so picoseconds stay exact however late the view is.
    pub fn time_at(&self, left_x: f32, x: f32) -> u64 {
        offset_time(self.left_ps, f64::from(x - left_x) * self.ps_per_pt)
    }

    /// Time at the right edge of a strip `width` points wide.
    pub fn right_ps(&self, width: f32) -> u64 {
        self.left_ps.saturating_add((f64::from(width) * self.ps_per_pt).ceil() as u64)
    }

    /// Largest zoom-out: the whole run with a margin.
    pub fn max_ps_per_pt(end_ps: u64, width: f32) -> f64 {
        (end_ps.max(1) as f64 * 1.05 / f64::from(width.max(1.0))).max(MIN_PS_PER_PT)
    }

    /// Keep the zoom within limits and the run in view.
    pub fn clamp(&mut self, end_ps: u64, width: f32) {
        self.ps_per_pt = self.ps_per_pt.clamp(MIN_PS_PER_PT, Self::max_ps_per_pt(end_ps, width));
        let span = f64::from(width.max(1.0)) * self.ps_per_pt;
        let latest_left = (end_ps as f64 - span * KEEP_VISIBLE).max(0.0) as u64;
        self.left_ps = self.left_ps.min(latest_left);
    }

    /// Multiply the zoom by `factor` (> 1 zooms in) keeping the time under screen x `fixed_x` fixed.
    pub fn zoom_about(&mut self, left_x: f32, fixed_x: f32, factor: f64, end_ps: u64, width: f32) {
        let anchor = self.time_at(left_x, fixed_x);
        let limit = Self::max_ps_per_pt(end_ps, width);
        self.ps_per_pt = (self.ps_per_pt / factor).clamp(MIN_PS_PER_PT, limit);
        self.left_ps = offset_time(anchor, -f64::from(fixed_x - left_x) * self.ps_per_pt);
        self.clamp(end_ps, width);
    }

    /// Move by `dx` screen points (positive moves the content right, showing earlier time).
    pub fn pan_by(&mut self, dx: f32, end_ps: u64, width: f32) {
        self.left_ps = offset_time(self.left_ps, -f64::from(dx) * self.ps_per_pt);
        self.clamp(end_ps, width);
    }

    /// The view showing `[t0, t1)` across `width` points (at least [`MIN_PS_PER_PT`]).
    pub fn showing(t0: u64, t1: u64, width: f32) -> TimeView {
        let span = t1.saturating_sub(t0).max(1) as f64;
        TimeView { left_ps: t0, ps_per_pt: (span / f64::from(width.max(1.0))).max(MIN_PS_PER_PT) }
    }

    /// The view showing the whole run.
    pub fn fit(end_ps: u64, width: f32) -> TimeView {
        TimeView::showing(0, end_ps.max(1), width)
    }
}

/// `base + offset` rounded to a picosecond and clamped to the u64 range.
fn offset_time(base: u64, offset_ps: f64) -> u64 {
    let t = i128::from(base) + offset_ps.round() as i128;
    t.clamp(0, i128::from(u64::MAX)) as u64
}

/// Views to go back to, and forward again.
#[derive(Clone, Debug, Default)]
pub struct ViewHistory {
    back: Vec<TimeView>,
    forward: Vec<TimeView>,
}

impl ViewHistory {
    /// Remember `view` before changing it; clears the forward list.
    pub fn push(&mut self, view: TimeView) {
        if self.back.last() != Some(&view) {
            self.back.push(view);
            if self.back.len() > HISTORY {
                self.back.remove(0);
            }
        }
        self.forward.clear();
    }

    /// The previous view (the current one becomes a forward step).
    pub fn back(&mut self, current: TimeView) -> Option<TimeView> {
        let v = self.back.pop()?;
        self.forward.push(current);
        Some(v)
    }

    /// Undo a `back`.
    pub fn forward(&mut self, current: TimeView) -> Option<TimeView> {
        let v = self.forward.pop()?;
        self.back.push(current);
        Some(v)
    }

    /// True if `back` has something.
    pub fn can_go_back(&self) -> bool {
        !self.back.is_empty()
    }

    /// True if `forward` has something.
    pub fn can_go_forward(&self) -> bool {
        !self.forward.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const END: u64 = 1_000_000;

    #[test]
    fn time_and_x_are_inverse() {
        let v = TimeView { left_ps: 5_000, ps_per_pt: 250.0 };
        assert!((v.x_of(100.0, 5_000) - 100.0).abs() < 1e-6);
        assert!((v.x_of(100.0, 30_000) - 200.0).abs() < 1e-4);
        assert_eq!(v.time_at(100.0, 200.0), 30_000);
        // Times before the left edge map left of it; x left of zero time clamps to 0.
        assert!((v.x_of(100.0, 0) - 80.0).abs() < 1e-4);
        assert_eq!(v.time_at(100.0, 0.0), 0);
        // Large times keep picosecond precision near the view.
        let far = TimeView { left_ps: 1 << 60, ps_per_pt: 1.0 };
        assert_eq!(far.time_at(0.0, 7.0), (1 << 60) + 7);
        assert!((far.x_of(0.0, (1 << 60) + 7) - 7.0).abs() < 1e-6);
    }

    #[test]
    fn zoom_keeps_the_time_under_the_pointer() {
        let mut v = TimeView { left_ps: 0, ps_per_pt: 1_000.0 };
        let under = v.time_at(0.0, 400.0);
        v.zoom_about(0.0, 400.0, 4.0, END, 1_000.0);
        assert!((v.ps_per_pt - 250.0).abs() < 1e-9);
        assert_eq!(v.time_at(0.0, 400.0), under);
        // Zooming out beyond the whole run stops at the run plus 5 %.
        v.zoom_about(0.0, 400.0, 1e-6, END, 1_000.0);
        assert!((v.ps_per_pt - 1_050.0).abs() < 1e-9);
        assert_eq!(v.left_ps, 0);
        // Zooming in stops at 0.01 ps per point.
        v.zoom_about(0.0, 400.0, 1e12, END, 1_000.0);
        assert!((v.ps_per_pt - MIN_PS_PER_PT).abs() < 1e-12);
    }

    #[test]
    fn panning_stops_at_zero_and_keeps_a_tenth_of_the_view_on_the_run() {
        let mut v = TimeView { left_ps: 100_000, ps_per_pt: 100.0 };
        v.pan_by(2_000.0, END, 1_000.0);
        assert_eq!(v.left_ps, 0);
        v.pan_by(-50_000.0, END, 1_000.0);
        // Span 100,000 ps: the left edge may go to END − 10,000 at most.
        assert_eq!(v.left_ps, 990_000);
        assert!(v.right_ps(1_000.0) >= END);
    }

    #[test]
    fn fit_and_range() {
        let v = TimeView::fit(END, 500.0);
        assert_eq!(v.left_ps, 0);
        assert!((v.ps_per_pt - 2_000.0).abs() < 1e-9);
        let r = TimeView::showing(200, 300, 100.0);
        assert_eq!((r.left_ps, r.ps_per_pt), (200, 1.0));
    }

    #[test]
    fn history_goes_back_and_forward() {
        let a = TimeView { left_ps: 1, ps_per_pt: 1.0 };
        let b = TimeView { left_ps: 2, ps_per_pt: 1.0 };
        let c = TimeView { left_ps: 3, ps_per_pt: 1.0 };
        let mut h = ViewHistory::default();
        h.push(a);
        h.push(b);
        assert_eq!(h.back(c), Some(b));
        assert_eq!(h.back(b), Some(a));
        assert!(!h.can_go_back());
        assert_eq!(h.forward(a), Some(b));
        assert_eq!(h.forward(b), Some(c));
        assert_eq!(h.forward(c), None);
        h.push(c);
        assert!(!h.can_go_forward());
    }
}
