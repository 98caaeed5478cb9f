//! Toasts: short messages (refused links, failed edits) shown for a few seconds in the canvas's
//! bottom-right corner, just above the status bar, stacked upwards and narrow, so that they sit
//! off the design (which is fitted to the middle of the canvas) and clear of the zoom buttons (top
//! right) and the replay's clock and load legend (bottom left). Every toast is also in the log.

use std::time::Duration;

use egui::{Color32, CornerRadius, FontId, Id, LayerId, Order, Pos2, Rect, Stroke, StrokeKind, Vec2};

use crate::theme::Palette;
use hase_editor::state::{EditorCommand, LogLevel, Toast};

/// How long a toast stays.
const SHOWN_FOR: Duration = Duration::from_secs(4);
/// The widest a toast is drawn (points); longer texts wrap.
const WIDEST: f32 = 360.0;
/// Gap between a toast and the canvas's edges.
const MARGIN: f32 = 10.0;

/// Draw the toasts still shown over `area`; returns the command dropping the expired ones, if any.
pub fn show(ctx: &egui::Context, area: Rect, toasts: &[Toast], palette: &Palette) -> Option<EditorCommand> {
    let expired = toasts.iter().any(|t| t.since.elapsed() >= SHOWN_FOR);
    let shown: Vec<&Toast> = toasts.iter().filter(|t| t.since.elapsed() < SHOWN_FOR).collect();
    let drop = expired.then_some(EditorCommand::ExpireToasts(SHOWN_FOR));
    if shown.is_empty() {
        return drop;
    }
    let painter = ctx.layer_painter(LayerId::new(Order::Foreground, Id::unique("toasts")));
    let wrap = wrap_width(area);
    let mut laid = Vec::new();
    for toast in shown.iter().rev() {
        let age = toast.since.elapsed().as_secs_f32();
        let fade = (SHOWN_FOR.as_secs_f32() - age).clamp(0.0, 1.0);
        let colour = match toast.level {
            LogLevel::Info => palette.info,
            LogLevel::Warning => palette.warning,
            LogLevel::Error => palette.error,
        };
        let galley = painter.layout(
            toast.text.clone(),
            FontId::proportional(14.0),
            palette.text.gamma_multiply(fade),
            wrap,
        );
        laid.push((galley.size() + Vec2::new(28.0, 16.0), galley, colour, fade));
    }
    let sizes: Vec<Vec2> = laid.iter().map(|l| l.0).collect();
    for (rect, (_, galley, colour, fade)) in placements(area, &sizes).into_iter().zip(laid) {
        painter.rect(
            rect,
            CornerRadius::same(6),
            palette.overlay.gamma_multiply(fade),
            Stroke::new(1.0, colour.gamma_multiply(fade)),
            StrokeKind::Inside,
        );
        painter.rect_filled(
            Rect::from_min_size(rect.min, Vec2::new(4.0, rect.height())),
            CornerRadius { nw: 6, sw: 6, ne: 0, se: 0 },
            colour.gamma_multiply(fade),
        );
        painter.galley(rect.min + Vec2::new(16.0, 8.0), galley, Color32::PLACEHOLDER);
    }
    ctx.request_repaint_after(Duration::from_millis(100));
    drop
}

/// The width a toast's text wraps at over `area`: at most a third of the canvas.
fn wrap_width(area: Rect) -> f32 {
    (area.width() / 3.0).clamp(160.0, WIDEST) - 28.0
}

/// Where toasts of `sizes` (newest first) go over `area`: right-aligned in its bottom-right
/// corner, the newest lowest and older ones above it; those that would rise out of the area are
/// left out.
pub fn placements(area: Rect, sizes: &[Vec2]) -> Vec<Rect> {
    let mut bottom = area.max.y - MARGIN;
    let mut rects = Vec::new();
    for size in sizes {
        let rect = Rect::from_min_max(
            Pos2::new(area.max.x - MARGIN - size.x, bottom - size.y),
            Pos2::new(area.max.x - MARGIN, bottom),
        );
        if rect.min.y < area.min.y {
            break;
        }
        rects.push(rect);
        bottom = rect.min.y - 6.0;
    }
    rects
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Toasts stay in the canvas's bottom-right corner: right of its middle (where a fitted
    /// design is), below its middle, apart from each other, and none outside the canvas.
    #[test]
    fn toasts_stack_in_the_bottom_right_corner() {
        for area in [
            Rect::from_min_size(Pos2::new(220.0, 40.0), Vec2::new(1060.0, 420.0)),
            Rect::from_min_size(Pos2::new(220.0, 40.0), Vec2::new(1380.0, 700.0)),
        ] {
            let widest = wrap_width(area) + 28.0;
            assert!(widest <= area.width() / 3.0 + 1e-3);
            let sizes = vec![Vec2::new(widest, 36.0); 3];
            let rects = placements(area, &sizes);
            assert_eq!(rects.len(), 3);
            for (i, r) in rects.iter().enumerate() {
                assert!(area.contains_rect(*r), "{r:?} outside {area:?}");
                assert!(r.min.x >= area.center().x, "toast {i} reaches left of the middle: {r:?}");
                assert!((r.max.x - (area.max.x - MARGIN)).abs() < 1e-3);
                for other in &rects[i + 1..] {
                    assert!(!r.intersects(*other), "{r:?} over {other:?}");
                    assert!(other.max.y < r.min.y, "an older toast is drawn below a newer one");
                }
            }
            assert!(rects[0].max.y > area.center().y, "the newest toast is not at the bottom");
            // More than fit: the ones that would leave the canvas are left out.
            let many = placements(area, &[Vec2::new(200.0, 120.0); 20]);
            assert!(many.len() < 20 && many.iter().all(|r| area.contains_rect(*r)));
        }
    }
}
