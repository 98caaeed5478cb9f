//! The canvas view transform: pan and zoom between canvas units (document positions) and screen
//! points, zoom about a fixed point and zoom-to-fit. Pure maths, tested without a UI.

use egui::{Pos2, Rect, Vec2};

/// Smallest zoom (a 1,024-node network fits on a laptop screen).
pub const MIN_ZOOM: f32 = 0.01;
/// Largest zoom.
pub const MAX_ZOOM: f32 = 4.0;

/// Where the canvas origin sits and how large a canvas unit is on screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// Screen offset of the canvas origin from the centre of the canvas area.
    pub pan: Vec2,
    /// Screen points per canvas unit.
    pub zoom: f32,
}

impl Default for View {
    fn default() -> Self {
        View { pan: Vec2::ZERO, zoom: 1.0 }
    }
}

impl View {
    /// Canvas point → screen point, for a canvas drawn in `area`.
    pub fn to_screen(&self, area: Rect, p: Pos2) -> Pos2 {
        area.center() + self.pan + p.to_vec2() * self.zoom
    }

    /// Screen point → canvas point.
    pub fn to_canvas(&self, area: Rect, s: Pos2) -> Pos2 {
        ((s - area.center() - self.pan) / self.zoom).to_pos2()
    }

    /// Canvas rectangle → screen rectangle.
    pub fn rect_to_screen(&self, area: Rect, r: Rect) -> Rect {
        Rect::from_min_max(self.to_screen(area, r.min), self.to_screen(area, r.max))
    }

    /// The part of the canvas visible in `area`, in canvas units.
    pub fn visible(&self, area: Rect) -> Rect {
        Rect::from_min_max(self.to_canvas(area, area.min), self.to_canvas(area, area.max))
    }

    /// Multiply the zoom by `factor` (clamped to the allowed range) keeping the canvas point under
    /// screen point `fixed` where it is.
    pub fn zoom_about(&mut self, area: Rect, fixed: Pos2, factor: f32) {
        let anchor = self.to_canvas(area, fixed);
        self.zoom = (self.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        // Solve to_screen(anchor) == fixed for pan.
        self.pan = fixed - area.center() - anchor.to_vec2() * self.zoom;
    }

    /// Move the view by a screen distance.
    pub fn pan_by(&mut self, delta: Vec2) {
        self.pan += delta;
    }

    /// The view showing `bounds` (canvas units) centred in `area` with `margin` screen points around
    /// it, never zooming in beyond 1:1.
    pub fn fit(area: Rect, bounds: Rect, margin: f32) -> View {
        let room = (area.size() - Vec2::splat(2.0 * margin)).max(Vec2::splat(1.0));
        let size = bounds.size().max(Vec2::splat(1.0));
        let zoom = (room.x / size.x).min(room.y / size.y).clamp(MIN_ZOOM, 1.0);
        View { pan: -bounds.center().to_vec2() * zoom, zoom }
    }
}

/// Snap a canvas point to the nearest grid intersection.
pub fn snap(p: Pos2, grid: f32) -> Pos2 {
    Pos2::new((p.x / grid).round() * grid, (p.y / grid).round() * grid)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area() -> Rect {
        Rect::from_min_size(Pos2::new(100.0, 50.0), Vec2::new(800.0, 600.0))
    }

    #[test]
    fn screen_and_canvas_are_inverse() {
        let v = View { pan: Vec2::new(13.0, -7.0), zoom: 0.37 };
        let p = Pos2::new(-250.0, 410.0);
        let back = v.to_canvas(area(), v.to_screen(area(), p));
        assert!((back - p).length() < 1e-3);
        // The canvas origin sits at the area centre plus pan.
        assert_eq!(v.to_screen(area(), Pos2::ZERO), Pos2::new(513.0, 343.0));
    }

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        let mut v = View::default();
        let cursor = Pos2::new(700.0, 120.0);
        let under = v.to_canvas(area(), cursor);
        v.zoom_about(area(), cursor, 2.5);
        assert!((v.zoom - 2.5).abs() < 1e-6);
        assert!((v.to_screen(area(), under) - cursor).length() < 1e-3);
        v.zoom_about(area(), cursor, 100.0);
        assert!((v.zoom - MAX_ZOOM).abs() < f32::EPSILON);
        assert!((v.to_screen(area(), under) - cursor).length() < 1e-2);
    }

    #[test]
    fn fit_centres_and_contains_the_bounds() {
        let bounds = Rect::from_min_max(Pos2::new(-2000.0, 0.0), Pos2::new(2000.0, 1000.0));
        let v = View::fit(area(), bounds, 20.0);
        // Width limits: (800 − 40) / 4000.
        assert!((v.zoom - 0.19).abs() < 1e-6);
        assert!((v.to_screen(area(), bounds.center()) - area().center()).length() < 1e-3);
        let shown = v.visible(area());
        assert!(shown.contains_rect(bounds));
        // Small bounds are shown at 1:1, not blown up.
        let tiny = Rect::from_center_size(Pos2::new(5.0, 5.0), Vec2::splat(10.0));
        assert!((View::fit(area(), tiny, 20.0).zoom - 1.0).abs() < f32::EPSILON);
    }

    #[test]
    fn snapping_rounds_to_the_grid() {
        assert_eq!(snap(Pos2::new(31.0, -29.0), 20.0), Pos2::new(40.0, -20.0));
    }
}
