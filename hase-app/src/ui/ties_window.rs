//! The "Simultaneous events" window (Simulate ▸ Check simultaneous events…): the design run with
//! the events of each instant in the order they were scheduled and in shuffled orders
//! (`hase_editor::analysis_views::TiesCheck`), shown as each run's makespan and its change, and
//! what the spread means — or why the check could not run.

use egui::{RichText, Ui};
use hase_engine::time::SimTime;
use hase_library::tie_check::TieCheck;

use crate::theme::Palette;
use crate::ui::time_text;
use hase_editor::analysis_views::TiesCheck;
use hase_editor::analysis_views::ties::SHUFFLED_RUNS;

/// The window's title, which tests look for.
pub const TITLE: &str = "Simultaneous events";

/// Show the window while it is open; returns true when its × closes it.
pub fn show(ctx: &egui::Context, check: &TiesCheck, palette: &Palette) -> bool {
    if !check.open {
        return false;
    }
    if check.is_running() {
        ctx.request_repaint_after(std::time::Duration::from_millis(100));
    }
    let mut open = true;
    egui::Window::new(TITLE)
        .id(egui::Id::unique("check-ties"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .default_width(440.0)
        .default_pos(ctx.content_rect().center_top() + egui::vec2(-220.0, 90.0))
        .show(ctx, |ui| contents(ui, check, palette));
    !open
}

fn contents(ui: &mut Ui, check: &TiesCheck, palette: &Palette) {
    ui.label(
        "Events at the same picosecond run in the order they were scheduled: a rule of the \
         simulator, not of the machine. Here the design also runs with them shuffled.",
    );
    ui.add_space(4.0);
    match &check.result {
        None => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!(
                    "running the design in the scheduled order and {SHUFFLED_RUNS} shuffled ones…"
                ));
                if ui.button("Stop").clicked() {
                    check.stop();
                }
            });
        }
        Some(Err(e)) => {
            ui.label(RichText::new(e.to_string()).color(palette.error));
        }
        Some(Ok(result)) => table(ui, result, palette),
    }
}

fn table(ui: &mut Ui, result: &TieCheck, palette: &Palette) {
    egui::Grid::new("ties-table").num_columns(3).striped(true).spacing([14.0, 3.0]).show(ui, |ui| {
        ui.label(RichText::new("order").strong());
        ui.label(RichText::new("makespan").strong());
        ui.label(RichText::new("change").strong());
        ui.end_row();
        for run in std::iter::once(&result.scheduled).chain(&result.shuffled) {
            ui.label(run.tie_seed.map_or_else(|| "scheduled".to_string(), |s| format!("shuffled, seed {s}")));
            let makespan = time_text::figure(SimTime(run.makespan_ps));
            if run.outcome == "completed" {
                ui.monospace(makespan);
            } else {
                ui.monospace(RichText::new(format!("{makespan} ({})", run.outcome)).color(palette.error));
            }
            ui.monospace(format!("{:+.2} %", result.change_percent(run.makespan_ps)));
            ui.end_row();
        }
    });
    ui.add_space(6.0);
    let (low, high) = result.makespan_range_ps();
    if result.depends_on_ties() {
        ui.label(
            RichText::new(format!(
                "The result depends on the order of simultaneous events: {} to {} ({:+.2} % to \
                 {:+.2} % of the scheduled order's). A prediction is no more precise than this range.",
                time_text::figure(SimTime(low)),
                time_text::figure(SimTime(high)),
                result.change_percent(low),
                result.change_percent(high)
            ))
            .color(palette.warning),
        );
    } else {
        ui.label(
            RichText::new("Every order gave the same makespan: the result does not depend on it.")
                .color(palette.info),
        );
    }
    ui.label(RichText::new("hase check-ties gives the same on the command line.").weak());
}
