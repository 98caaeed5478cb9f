//! The "Check levels" window: the compound's two abstraction levels run on the same workload
//! (`hase_editor::analysis_views::LevelsCheck`), shown as the makespan at each level and their
//! difference, the message latencies compared, and the verdict — or why the check could not run.

use egui::{RichText, Ui};
use hase_engine::time::SimTime;
use hase_library::check_levels::{LevelCheck, ModelKind};

use crate::theme::Palette;
use crate::ui::time_text;
use hase_editor::analysis_views::LevelsCheck;

/// Show the window while it is open; returns true when its × closes it.
pub fn show(ctx: &egui::Context, check: &LevelsCheck, palette: &Palette) -> bool {
    if !check.open {
        return false;
    }
    if check.is_running() {
        ctx.request_repaint_after(std::time::Duration::from_millis(100));
    }
    let mut open = true;
    egui::Window::new(format!("Check levels: {}", check.compound))
        .id(egui::Id::unique("check-levels"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .default_width(460.0)
        .default_pos(ctx.content_rect().center_top() + egui::vec2(-230.0, 90.0))
        .show(ctx, |ui| contents(ui, check, palette));
    !open
}

fn contents(ui: &mut Ui, check: &LevelsCheck, palette: &Palette) {
    match &check.result {
        None => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("running the design at both levels…");
                if ui.button("Stop").clicked() {
                    check.stop();
                }
            });
        }
        Some(Err(e)) => {
            ui.label(RichText::new(e.to_string()).color(palette.error));
        }
        Some(Ok(checks)) => {
            for c in checks {
                one(ui, c, palette);
            }
        }
    }
}

fn one(ui: &mut Ui, c: &LevelCheck, palette: &Palette) {
    let model = match &c.model {
        ModelKind::HopCount => "hop-count model".to_string(),
        ModelKind::DataSheet { sheet, band } => format!("data sheet {sheet} ({band})"),
    };
    ui.label(RichText::new(format!("{} — behavioural level: {model}", c.compound)).strong());
    let difference = i128::from(c.behavioural_ps) - i128::from(c.detailed_ps);
    let percent = if c.detailed_ps == 0 { 0.0 } else { difference as f64 * 100.0 / c.detailed_ps as f64 };
    egui::Grid::new(("levels", &c.compound)).num_columns(2).spacing([12.0, 4.0]).show(ui, |ui| {
        ui.label("detailed makespan");
        ui.monospace(time_text::figure(SimTime(c.detailed_ps)));
        ui.end_row();
        ui.label("behavioural makespan");
        ui.monospace(time_text::figure(SimTime(c.behavioural_ps)));
        ui.end_row();
        ui.label("difference");
        let sign = if difference < 0 { "−" } else { "+" };
        ui.monospace(format!(
            "{sign}{} ({percent:+.2} %)",
            time_text::figure(SimTime(u64::try_from(difference.unsigned_abs()).unwrap_or(u64::MAX)))
        ));
        ui.end_row();
        if let Some((lo, hi)) = c.band_ps {
            ui.label("sheet bands (min – max)");
            ui.monospace(format!("{} – {}", time_text::figure(SimTime(lo)), time_text::figure(SimTime(hi))));
            ui.end_row();
        }
        let l = &c.latency;
        ui.label("messages");
        ui.monospace(format!("{} matched, {} unmatched, {} differ", l.matched, l.unmatched, l.differing));
        ui.end_row();
        ui.label("largest latency difference");
        ui.monospace(format!(
            "{}{}",
            time_text::figure(SimTime(l.max_difference_ps)),
            l.worst.as_deref().map_or_else(String::new, |w| format!(" ({w})"))
        ));
        ui.end_row();
    });
    // The verdict says "valid: …" or "not valid: …" itself.
    let colour = if c.valid { palette.info } else { palette.error };
    ui.label(RichText::new(&c.verdict).color(colour));
    ui.add_space(6.0);
}
