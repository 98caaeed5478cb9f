//! Toasts: short messages (refused links, failed edits) shown at the top of the canvas for a few
//! seconds, clear of the zoom buttons (top right) and the replay's clock and load legend (bottom
//! left). Every toast is also in the log.

use std::time::Duration;

use egui::{Color32, CornerRadius, FontId, Id, LayerId, Order, Pos2, Rect, Stroke, StrokeKind, Vec2};

use crate::theme::Palette;
use hase_editor::state::{EditorCommand, LogLevel, Toast};

/// How long a toast stays.
const SHOWN_FOR: Duration = Duration::from_secs(5);

/// Draw the toasts still shown over `area`; returns the command dropping the expired ones, if any.
pub fn show(ctx: &egui::Context, area: Rect, toasts: &[Toast], palette: &Palette) -> Option<EditorCommand> {
    let expired = toasts.iter().any(|t| t.since.elapsed() >= SHOWN_FOR);
    let shown: Vec<&Toast> = toasts.iter().filter(|t| t.since.elapsed() < SHOWN_FOR).collect();
    let drop = expired.then_some(EditorCommand::ExpireToasts(SHOWN_FOR));
    if shown.is_empty() {
        return drop;
    }
    let painter = ctx.layer_painter(LayerId::new(Order::Foreground, Id::unique("toasts")));
    // Below the zoom buttons, newest first, narrower than the space between the corners.
    let mut y = area.min.y + 44.0;
    let wrap = (area.width() - 300.0).max(200.0);
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
        let size = galley.size() + Vec2::new(28.0, 16.0);
        let rect = Rect::from_min_size(Pos2::new(area.center().x - size.x / 2.0, y), size);
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
        y = rect.max.y + 6.0;
    }
    ctx.request_repaint_after(Duration::from_millis(100));
    drop
}
