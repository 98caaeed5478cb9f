//! The replay bar under the canvas: step back, play/pause, step forward, loop, a scrub bar over the
//! whole run (showing O, X and markers), the time, the speed in simulated time per second on a log
//! scale, and which trace levels are animated. The right-hand controls are laid out first, from
//! the right edge, so the scrub bar takes what is left and nothing is cut at narrow widths.

use egui::{Align, Align2, CornerRadius, FontId, Layout, Rect, Sense, Stroke, Ui, pos2, vec2};
use hase_engine::time::SimTime;

use super::Player;
use crate::replay::events::EventLog;
use crate::replay::markers::Marker;
use crate::theme::{Palette, ReplayColours};
use crate::ui::time_text;
use crate::ui::timing::cursors::Cursors;

/// What the replay bar shows besides the player it drives.
pub struct ControlsContext<'a> {
    /// The events stepped through.
    pub log: &'a EventLog,
    /// End of the run (or of the longer run of a comparison).
    pub end: SimTime,
    /// The timing diagram's O and X, shown on the scrub bar.
    pub cursors: Cursors,
    /// Named markers, shown on the scrub bar.
    pub markers: &'a [Marker],
    /// Replay colours.
    pub colours: &'a ReplayColours,
    /// Editor colours.
    pub palette: &'a Palette,
}

/// Show the bar.
pub fn show(ui: &mut Ui, player: &mut Player, cx: &ControlsContext<'_>) {
    let (log, end) = (cx.log, cx.end);
    ui.horizontal(|ui| {
        let glyph = |text: &str| egui::Button::new(egui::RichText::new(text).monospace());
        if ui.add(glyph("|◀")).on_hover_text("Previous event (left arrow key)").clicked() {
            player.step(log, false);
        }
        let play = if player.playing { "|| Pause" } else { "▶ Play " };
        if ui.add(glyph(play)).on_hover_text("Play or pause (Space)").clicked() {
            player.toggle(end);
        }
        if ui.add(glyph("▶|")).on_hover_text("Next event (right arrow key)").clicked() {
            player.step(log, true);
        }
        ui.checkbox(&mut player.looping, "Loop");
        ui.separator();
        ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
            let combo = egui::ComboBox::from_id_salt("replay-level")
                .width(140.0)
                .selected_text(level_text(player.min_level))
                .show_ui(ui, |ui| {
                    for level in [2, 3, 4] {
                        ui.selectable_value(&mut player.min_level, level, level_text(level));
                    }
                })
                .response;
            let label = ui.label("show");
            combo.labelled_by(label.id).on_hover_text("Which trace records the animator shows");
            ui.separator();
            speed(ui, player, end);
            ui.separator();
            let resolution = player.resolution_ps(end);
            let now =
                format!("{} / {}", time_text::at(player.time, resolution), time_text::at(end, resolution));
            ui.label(egui::RichText::new(now).monospace());
            let width = ui.available_width().max(60.0);
            scrub(ui, player, cx, width);
        });
    });
}

fn level_text(level: u8) -> &'static str {
    match level {
        2 => "messages + states",
        3 => "updates + states",
        _ => "states only",
    }
}

fn scrub(ui: &mut Ui, player: &mut Player, cx: &ControlsContext<'_>, width: f32) {
    let ControlsContext { end, cursors, markers, colours, palette, .. } = *cx;
    let (rect, response) = ui.allocate_exact_size(vec2(width, 18.0), Sense::click_and_drag());
    let response = response.on_hover_text("Scrub: click or drag to move through the run");
    let track = Rect::from_center_size(rect.center(), vec2(rect.width(), 6.0));
    let x_of = |t: u64| track.min.x + track.width() * (t as f64 / end.0.max(1) as f64) as f32;
    if let Some(p) = response.interact_pointer_pos()
        && (response.dragged() || response.clicked())
    {
        let f = ((p.x - track.min.x) / track.width()).clamp(0.0, 1.0);
        player.seek(SimTime::from_f64_ps(f64::from(f) * end.0 as f64), end);
    }
    let painter = ui.painter_at(rect.expand(2.0));
    painter.rect_filled(track, CornerRadius::same(3), colours.ruler);
    let done = Rect::from_min_max(track.min, pos2(x_of(player.time.0), track.max.y));
    painter.rect_filled(done, CornerRadius::same(3), palette.accent.gamma_multiply(0.7));
    if let Some((a, b)) = cursors.interval() {
        painter.rect_filled(
            Rect::from_x_y_ranges(x_of(a)..=x_of(b).max(x_of(a) + 1.0), track.y_range()),
            0.0,
            colours.interval,
        );
    }
    for m in markers {
        painter.vline(x_of(m.time_ps), rect.y_range(), Stroke::new(1.0, colours.marker));
    }
    for (t, c) in [(cursors.o, colours.cursor_o), (cursors.x, colours.cursor_x)] {
        if let Some(t) = t {
            painter.vline(x_of(t), rect.y_range(), Stroke::new(1.5, c));
        }
    }
    painter.circle(
        pos2(x_of(player.time.0), track.center().y),
        6.0,
        colours.time_line,
        Stroke::new(1.0, palette.canvas),
    );
    if response.hovered()
        && let Some(p) = response.hover_pos()
    {
        let f = ((p.x - track.min.x) / track.width()).clamp(0.0, 1.0);
        let t = SimTime::from_f64_ps(f64::from(f) * end.0 as f64);
        painter.text(
            pos2(p.x, rect.min.y),
            Align2::CENTER_BOTTOM,
            time_text::at(t, player.resolution_ps(end)),
            FontId::proportional(10.0),
            palette.text_dim,
        );
    }
}

/// Speed slider on log10(ps per second), from 1 ps/s to ten times the run per second (laid out
/// right to left: the rate, the slider, its label).
fn speed(ui: &mut Ui, player: &mut Player, end: SimTime) {
    let hi = (end.0.max(1) as f64 * 10.0).log10().max(1.0);
    let mut exponent = player.speed_ps_per_s.max(1.0).log10().clamp(0.0, hi);
    ui.label(egui::RichText::new(time_text::rate(player.speed_ps_per_s)).monospace())
        .on_hover_text("Simulated time per second of playback");
    let slider = ui.add(egui::Slider::new(&mut exponent, 0.0..=hi).show_value(false).step_by(0.05));
    let label = ui.label("speed");
    if slider.labelled_by(label.id).changed() {
        player.speed_ps_per_s = 10f64.powf(exponent);
    }
}
