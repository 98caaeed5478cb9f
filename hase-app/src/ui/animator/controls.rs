//! The replay bar under the canvas: step back, play/pause, step forward, loop, a scrub bar over the
//! whole run (showing O, X and markers), the time, the speed in simulated time per second on a log
//! scale, and which trace levels are animated. The right-hand controls are laid out first, from
//! the right edge, so the scrub bar takes what is left and nothing is cut at narrow widths. What the
//! user does comes back as session commands.

use egui::{Align, Align2, CornerRadius, FontId, Layout, Rect, Sense, Stroke, Ui, pos2, vec2};
use hase_engine::time::SimTime;

use crate::theme::{Palette, ReplayColours};
use crate::ui::time_text;
use hase_editor::replay::events::EventLog;
use hase_editor::replay::markers::Marker;
use hase_editor::session::SessionCommand;
use hase_editor::session::player::Player;
use hase_editor::session::timing::cursors::Cursors;

/// What the replay bar shows.
pub struct ControlsContext<'a> {
    /// The animator's clock.
    pub player: &'a Player,
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

/// Show the bar; returns what the user asked of the animator.
pub fn show(ui: &mut Ui, cx: &ControlsContext<'_>) -> Vec<SessionCommand> {
    let (player, end) = (cx.player, cx.end);
    let mut commands = Vec::new();
    ui.horizontal(|ui| {
        let glyph = |text: &str| egui::Button::new(egui::RichText::new(text).monospace());
        if ui.add(glyph("|◀")).on_hover_text("Previous event (left arrow key)").clicked() {
            commands.push(SessionCommand::Step { forward: false });
        }
        let play = if player.playing { "|| Pause" } else { "▶ Play " };
        if ui.add(glyph(play)).on_hover_text("Play or pause (Space)").clicked() {
            commands.push(SessionCommand::TogglePlay);
        }
        if ui.add(glyph("▶|")).on_hover_text("Next event (right arrow key)").clicked() {
            commands.push(SessionCommand::Step { forward: true });
        }
        let mut looping = player.looping;
        if ui.checkbox(&mut looping, "Loop").changed() {
            commands.push(SessionCommand::SetLooping(looping));
        }
        ui.separator();
        ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
            let mut min_level = player.min_level;
            let combo = egui::ComboBox::from_id_salt("replay-level")
                .width(140.0)
                .selected_text(level_text(player.min_level))
                .show_ui(ui, |ui| {
                    for level in [2, 3, 4] {
                        ui.selectable_value(&mut min_level, level, level_text(level));
                    }
                })
                .response;
            if min_level != player.min_level {
                commands.push(SessionCommand::SetMinLevel(min_level));
            }
            let label = ui.label("show");
            combo.labelled_by(label.id).on_hover_text("Which trace records the animator shows");
            ui.separator();
            commands.extend(speed(ui, player, end));
            ui.separator();
            let resolution = player.resolution_ps(end);
            let now =
                format!("{} / {}", time_text::at(player.time, resolution), time_text::at(end, resolution));
            ui.label(egui::RichText::new(now).monospace());
            let width = ui.available_width().max(60.0);
            commands.extend(scrub(ui, cx, width));
        });
    });
    commands
}

fn level_text(level: u8) -> &'static str {
    match level {
        2 => "messages + states",
        3 => "updates + states",
        _ => "states only",
    }
}

/// The scrub bar; a click or drag on it asks to move the clock there.
fn scrub(ui: &mut Ui, cx: &ControlsContext<'_>, width: f32) -> Option<SessionCommand> {
    let ControlsContext { player, end, cursors, markers, colours, palette, .. } = *cx;
    let mut command = None;
    let (rect, response) = ui.allocate_exact_size(vec2(width, 18.0), Sense::click_and_drag());
    let response = response.on_hover_text("Scrub: click or drag to move through the run");
    let track = Rect::from_center_size(rect.center(), vec2(rect.width(), 6.0));
    let x_of = |t: u64| track.min.x + track.width() * (t as f64 / end.0.max(1) as f64) as f32;
    if let Some(p) = response.interact_pointer_pos()
        && (response.dragged() || response.clicked())
    {
        let f = ((p.x - track.min.x) / track.width()).clamp(0.0, 1.0);
        command = Some(SessionCommand::Scrub(SimTime::from_f64_ps(f64::from(f) * end.0 as f64)));
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
    command
}

/// Speed slider on log10(ps per second), from 1 ps/s to ten times the run per second (laid out
/// right to left: the rate, the slider, its label).
fn speed(ui: &mut Ui, player: &Player, end: SimTime) -> Option<SessionCommand> {
    let hi = (end.0.max(1) as f64 * 10.0).log10().max(1.0);
    let mut exponent = player.speed_ps_per_s.max(1.0).log10().clamp(0.0, hi);
    ui.label(egui::RichText::new(time_text::rate(player.speed_ps_per_s)).monospace())
        .on_hover_text("Simulated time per second of playback");
    let slider = ui.add(egui::Slider::new(&mut exponent, 0.0..=hi).show_value(false).step_by(0.05));
    let label = ui.label("speed");
    slider
        .labelled_by(label.id)
        .changed()
        .then(|| SessionCommand::SetSpeed { ps_per_s: 10f64.powf(exponent) })
}
