//! The mouse wheel over a canvas. egui smooths a wheel notch over several frames, and while it
//! runs down it draws frame after frame: on a big network each frame costs a whole redraw (and a
//! software renderer renders the whole window each time), so left to egui one notch costs five
//! times the zoom step itself. Over a canvas the app takes the wheel's events before egui sees them
//! ([`take_canvas_wheel`], from `raw_input_hook`) and the canvas applies them at once
//! ([`wheel_points`]). Ctrl/Cmd+wheel (egui's zoom gesture) and the wheel over anything else —
//! panels, windows, menus, the dock's lists — are left to egui.

use egui::{Event, Id, Order, Pos2, RawInput, Rect, Ui, Vec2};

/// Where this frame's wheel events taken over a canvas are kept for the canvas to read.
fn stash_id() -> Id {
    Id::unique("hase-canvas-wheel")
}

/// A wheel event the canvas takes: one without Ctrl/Cmd (egui turns those into its zoom gesture).
fn is_canvas_wheel(event: &Event) -> bool {
    matches!(event, Event::MouseWheel { modifiers, .. } if !modifiers.ctrl && !modifiers.command)
}

/// Before egui takes `raw_input`: if the pointer is over one of `canvas_areas` (as last drawn) and
/// no window, menu or popup is over it there, move its wheel events out of `raw_input` and keep them
/// for the canvas to read this frame. Every frame starts with none kept.
pub fn take_canvas_wheel(ctx: &egui::Context, raw_input: &mut RawInput, canvas_areas: &[Rect]) {
    let moved_to = raw_input.events.iter().rev().find_map(|e| match e {
        Event::PointerMoved(p) => Some(*p),
        _ => None,
    });
    let pointer: Option<Pos2> = moved_to.or_else(|| ctx.input(|i| i.pointer.latest_pos()));
    let over_canvas = pointer.is_some_and(|p| {
        canvas_areas.iter().any(|a| a.contains(p))
            && ctx.layer_id_at(p).is_none_or(|layer| layer.order == Order::Background)
    });
    let mut taken = Vec::new();
    if over_canvas {
        raw_input.events.retain(|e| {
            if is_canvas_wheel(e) {
                taken.push(e.clone());
                false
            } else {
                true
            }
        });
    }
    ctx.data_mut(|d| d.insert_temp(stash_id(), taken));
}

/// This frame's wheel turn over the canvas in points: the events taken for it, and any egui still
/// has (a harness without `raw_input_hook`). Shift turns it sideways and Alt up and down, as egui
/// does.
pub fn wheel_points(ui: &Ui) -> Vec2 {
    let line = ui.ctx().options(|o| o.input_options.line_scroll_speed);
    let taken: Vec<Event> = ui.ctx().data(|d| d.get_temp(stash_id())).unwrap_or_default();
    ui.input(|i| {
        let page = i.viewport_rect().height();
        let total = taken.iter().chain(i.events.iter().filter(|e| is_canvas_wheel(e))).fold(
            Vec2::ZERO,
            |sum, event| match event {
                Event::MouseWheel { unit, delta, .. } => {
                    sum + match unit {
                        egui::MouseWheelUnit::Point => *delta,
                        egui::MouseWheelUnit::Line => *delta * line,
                        egui::MouseWheelUnit::Page => *delta * page,
                    }
                }
                _ => sum,
            },
        );
        if i.modifiers.shift {
            Vec2::new(total.x + total.y, 0.0)
        } else if i.modifiers.alt {
            Vec2::new(0.0, total.x + total.y)
        } else {
            total
        }
    })
}

#[cfg(test)]
mod tests {
    use egui::{Modifiers, MouseWheelSource, MouseWheelUnit, TouchPhase, pos2, vec2};

    use super::*;

    fn notch(modifiers: Modifiers) -> Event {
        Event::MouseWheel {
            unit: MouseWheelUnit::Line,
            delta: vec2(0.0, 1.0),
            phase: TouchPhase::Move,
            source: MouseWheelSource::Wheel,
            modifiers,
        }
    }

    /// One frame with the pointer at `at` and two notches (one plain, one with Ctrl) over a
    /// window whose canvas is `canvas`: the events egui was left and the canvas's wheel turn.
    fn frame(ctx: &egui::Context, at: Pos2, canvas: Rect) -> (Vec<Event>, Vec2) {
        let screen = Rect::from_min_size(Pos2::ZERO, vec2(800.0, 600.0));
        let mut input = RawInput {
            screen_rect: Some(screen),
            events: vec![Event::PointerMoved(at), notch(Modifiers::NONE), notch(Modifiers::CTRL)],
            ..RawInput::default()
        };
        take_canvas_wheel(ctx, &mut input, &[canvas]);
        let left = input.events.clone();
        let mut turn = Vec2::ZERO;
        let mut out = ctx.run_ui(input, |ui| {
            egui::CentralPanel::default().show(ui, |ui| turn = wheel_points(ui));
        });
        out.textures_delta.clear();
        (left, turn)
    }

    #[test]
    fn a_plain_notch_over_the_canvas_goes_to_it_whole_and_not_to_egui() {
        let ctx = egui::Context::default();
        let canvas = Rect::from_min_max(pos2(100.0, 100.0), pos2(500.0, 400.0));
        // A first frame draws the panel, so that the pointer is over its layer.
        let _ = frame(&ctx, pos2(10.0, 10.0), canvas);
        let line = ctx.options(|o| o.input_options.line_scroll_speed);
        let (left, turn) = frame(&ctx, pos2(300.0, 250.0), canvas);
        assert_eq!(turn, vec2(0.0, line), "the whole notch in this frame");
        // The Ctrl notch (egui's zoom gesture) stays with egui; the plain one does not.
        let wheels: Vec<&Event> = left.iter().filter(|e| matches!(e, Event::MouseWheel { .. })).collect();
        assert_eq!(wheels, [&notch(Modifiers::CTRL)]);
        // Outside the canvas, egui keeps both, and nothing is kept for the canvas.
        let (left, _) = frame(&ctx, pos2(600.0, 500.0), canvas);
        assert_eq!(left.iter().filter(|e| matches!(e, Event::MouseWheel { .. })).count(), 2);
        let kept: Vec<Event> = ctx.data(|d| d.get_temp(stash_id())).unwrap_or_default();
        assert!(kept.is_empty());
    }
}
