//! The experiments window (Simulate ▸ Experiments…): tabs to build a sweep, follow it running,
//! browse stored experiments and read the results (table and plots). The state is the egui-free
//! [`ExperimentsView`] of `hase-editor`; these views draw it and change it, and leave requests
//! (a point to open, a file dialog) in it for the app. Each tab is drawn from one context struct;
//! the Slurm dialogs (Run on Slurm…, Collect results…) are drawn beside the window.

mod build;
mod colour_bar;
mod context;
pub mod figure;
mod fit_panel;
mod plot;
mod results;
mod run;
mod slurm;
mod stored;

use egui::{RichText, Ui};
use hase_editor::experiments::{ExperimentFileRequest, ExperimentsTab, ExperimentsView};

pub use context::{ExperimentsContext, RowButton, action_row};

/// Show the window (when open).
pub fn show(ctx: &egui::Context, view: &mut ExperimentsView, cx: &ExperimentsContext<'_>) {
    if !view.open {
        return;
    }
    let area = cx.area;
    let mut open = true;
    // Beside the palette, so that it stays at hand; below the menu and toolbar, which it never
    // covers (its size follows the user's, not its content's).
    let left = crate::ui::palette::PALETTE_WIDTH + 16.0;
    egui::Window::new("Experiments")
        .open(&mut open)
        .default_size([(area.width() - left - 24.0).min(1180.0), (area.height() - 40.0).min(760.0)])
        .default_pos(area.min + egui::vec2(left, 0.0))
        .constrain_to(area)
        .max_height((area.height() - 8.0).max(360.0))
        .min_size([560.0, 360.0])
        .collapsible(false)
        .resizable(true)
        .show(ctx, |ui| contents(ui, view, cx));
    view.open &= open;
    slurm::show(ctx, view, cx);
}

fn contents(ui: &mut Ui, view: &mut ExperimentsView, cx: &ExperimentsContext<'_>) {
    ui.horizontal(|ui| {
        for (tab, text) in [
            (ExperimentsTab::Build, "Build"),
            (ExperimentsTab::Run, "Progress"),
            (ExperimentsTab::Stored, "Stored"),
            (ExperimentsTab::Results, "Results"),
        ] {
            if ui.selectable_label(view.tab == tab, text).clicked() {
                // A message is about what was last done where it was said: another tab starts
                // without it (the Messages tab of the dock keeps it).
                if view.tab != tab {
                    view.notice = None;
                }
                view.tab = tab;
                if tab == ExperimentsTab::Stored {
                    view.refresh_list();
                }
            }
        }
        if let Some(sweep) = &view.running {
            ui.separator();
            ui.add(egui::ProgressBar::new(sweep.fraction()).desired_width(160.0).text(format!(
                "{} / {} runs",
                sweep.done_runs(),
                sweep.total_runs
            )));
        }
    });
    if let Some(notice) = &view.notice {
        let colour = if notice.error { cx.palette.error } else { ui.visuals().text_color() };
        ui.label(RichText::new(&notice.text).color(colour));
    }
    if let Some(why) = &cx.no_store {
        ui.label(
            RichText::new(format!("Sweeps are kept in memory only: {why}"))
                .color(cx.palette.text_dim)
                .small(),
        );
    }
    ui.separator();
    match view.tab {
        ExperimentsTab::Build => build::show(ui, view, cx),
        ExperimentsTab::Run => run::show(ui, view, cx),
        ExperimentsTab::Stored => stored::show(ui, view, cx),
        ExperimentsTab::Results => results::show(ui, view, cx),
    }
    // Every tab fills the window: it keeps its size from tab to tab.
    ui.allocate_space(ui.available_size());
}

/// The title of hase's own file dialog for `file`.
pub fn file_title(file: &ExperimentFileRequest) -> &'static str {
    match file {
        ExperimentFileRequest::SaveSpec => "Save the sweep spec (RON)",
        ExperimentFileRequest::LoadSpec => "Load a sweep spec (RON)",
        ExperimentFileRequest::ExportCsv(_) => "Export the experiment's results (CSV)",
        ExperimentFileRequest::ExportRon(_) => "Export the experiment (RON)",
        ExperimentFileRequest::Import => "Import an experiment (RON)",
        ExperimentFileRequest::PlotPng => "Save the plot (PNG)",
        ExperimentFileRequest::PlotCsv(_) => "Save the plotted data (CSV)",
        ExperimentFileRequest::ResultsCsv(_) => "Save the results, one row a run (CSV)",
        ExperimentFileRequest::SlurmJob => "Choose the Slurm job directory's job.ron",
    }
}
