//! The Progress tab: the running sweep's overall bar (runs done of all, failed runs, elapsed
//! time), one line per run in flight (its point's values, simulated time and events), and Cancel;
//! when nothing runs, what the last sweep did, with Resume for an interrupted stored experiment.

use std::fmt::Write as _;

use egui::{RichText, Ui};

use super::context::{ExperimentsContext, RowButton, action_row};
use hase_editor::experiments::ExperimentsView;

pub(super) fn show(ui: &mut Ui, view: &mut ExperimentsView, cx: &ExperimentsContext<'_>) {
    let Some(sweep) = &view.running else {
        ui.label("No sweep is running.");
        let interrupted =
            view.results.as_ref().and_then(|r| r.id.filter(|_| (r.records.len() as u64) < r.runs_planned));
        let buttons = [
            RowButton::new("Resume", "Run only the runs the stored experiment is missing")
                .enabled(interrupted.is_some()),
            RowButton::new("Show results", "Table and plots").enabled(view.results.is_some()),
        ];
        match action_row(ui, &buttons) {
            Some(0) => {
                if let Some(id) = interrupted {
                    view.resume(id);
                }
            }
            Some(1) => view.tab = hase_editor::experiments::ExperimentsTab::Results,
            _ => {}
        }
        return;
    };
    let title = match sweep.id {
        Some(id) => format!("Experiment {id}: {}", sweep.plan.name()),
        None => format!("{} (in memory)", sweep.plan.name()),
    };
    ui.heading(title);
    let elapsed = sweep.started.elapsed().as_secs_f64();
    ui.add(egui::ProgressBar::new(sweep.fraction()).show_percentage().text(format!(
        "{} of {} runs",
        sweep.done_runs(),
        sweep.total_runs
    )));
    let mut line = format!("{elapsed:.1} s elapsed");
    if sweep.done_before > 0 {
        let _ = write!(line, ", {} stored before this resume", sweep.done_before);
    }
    if sweep.failed > 0 {
        let _ = write!(line, ", {} failed (see the table)", sweep.failed);
    }
    ui.label(line);
    ui.label(RichText::new(format!("{} run(s) in flight", sweep.in_flight.len())).strong());
    egui::ScrollArea::vertical().max_height(320.0).show(ui, |ui| {
        for (key, progress) in &sweep.in_flight {
            let values = sweep.plan.point_values(key.point).join(", ");
            ui.horizontal(|ui| {
                ui.label(format!("{key} ({values})"));
                let text = format!("{} · {} events", progress.now, progress.events);
                if let Some(f) = sweep.run_fraction(progress) {
                    ui.add(egui::ProgressBar::new(f).desired_width(180.0).text(text));
                } else {
                    ui.spinner();
                    ui.label(RichText::new(text).color(cx.palette.text_dim));
                }
            });
        }
    });
    let cancelling = sweep.cancelling;
    let buttons = [RowButton::new(
        if cancelling { "Cancelling…" } else { "Cancel" },
        "Stop: runs in flight are dropped; Resume runs what is missing",
    )
    .enabled(!cancelling)];
    if action_row(ui, &buttons) == Some(0) {
        view.cancel();
    }
    ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
}
