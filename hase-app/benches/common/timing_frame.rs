//! One whole egui frame of the timing tab showing one replay, tessellated (its texture delta
//! dropped as a GPU upload would take it): what the timing benches time.

use std::hint::black_box;

use egui::{Pos2, RawInput, Rect, Vec2};
use hase_app::theme::{Palette, ReplayColours};
use hase_app::ui::timing::{Diagram, TimingContext, TimingView, show};
use hase_editor::replay::Replay;
use hase_editor::session::timing::TimingState;

/// Draw the diagram of `replay` in a window of `size` points with the animator at `now_ps`,
/// applying what it asks of `state`.
pub fn timing_frame(
    ctx: &egui::Context,
    replay: &Replay,
    (state, timing_view): (&mut TimingState, &mut TimingView),
    (now_ps, size): (u64, Vec2),
    (colours, palette): (&ReplayColours, &Palette),
) {
    let input = RawInput { screen_rect: Some(Rect::from_min_size(Pos2::ZERO, size)), ..RawInput::default() };
    let mut out = ctx.run_ui(input, |ui| {
        egui::CentralPanel::default().show(ui, |ui| {
            let diagrams =
                [Diagram { replay, title: None, selected: Vec::new(), source: None, expected: None }];
            let cx = TimingContext {
                diagrams: &diagrams,
                key: 1,
                now_ps,
                stale: false,
                colours,
                palette,
                project: None,
            };
            for command in show(ui, state, timing_view, &cx).commands {
                state.apply(command);
            }
        });
    });
    let primitives = ctx.tessellate(std::mem::take(&mut out.shapes), out.pixels_per_point);
    black_box(primitives.len());
    out.textures_delta.clear();
}
