//! The Stored tab: every experiment in the store (id, name, start, runs stored of planned,
//! finished or interrupted), and for the one selected: open its results, resume it, rename,
//! delete, export CSV or RON; import an experiment exported elsewhere; collect the results of a
//! Slurm job directory.

use egui::{RichText, Ui};

use super::context::{ExperimentsContext, RowButton, action_row, ask, cell};
use hase_editor::experiments::slurm::SlurmDialog;
use hase_editor::experiments::{ExperimentFileRequest, ExperimentsView};

const COLLECT_HINT: &str = "Gather the results of a Slurm job directory (Run on Slurm…) as an experiment";

pub(super) fn show(ui: &mut Ui, view: &mut ExperimentsView, cx: &ExperimentsContext<'_>) {
    if view.store.is_none() {
        ui.label("No experiment store is open (the project library is not in use).");
        let buttons = [RowButton::new("Collect results…", COLLECT_HINT)];
        if action_row(ui, &buttons) == Some(0) {
            view.open_slurm(SlurmDialog::Collect);
        }
        return;
    }
    let mut open = None;
    egui::ScrollArea::vertical().max_height(ui.available_height() - 120.0).show(ui, |ui| {
        egui::Grid::new("stored-experiments").striped(true).num_columns(5).show(ui, |ui| {
            for h in ["Id", "Name", "Started", "Runs", "State"] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for e in &view.stored {
                let selected = view.selected == Some(e.id);
                // Every cell of the row selects it (and opens it on a double click).
                let mut row = ui.selectable_label(selected, e.id.to_string());
                row |= cell(ui, e.name.clone());
                row |= cell(ui, e.started_at.to_string());
                row |= cell(ui, format!("{} / {}", e.runs_stored, e.runs_planned));
                let state = match (e.finished_at, e.runs_stored < e.runs_planned) {
                    (Some(_), _) => "finished",
                    (None, true) => "interrupted",
                    (None, false) => "stored",
                };
                row |= cell(ui, state.into());
                if row.clicked() {
                    view.selected = Some(e.id);
                    view.rename_text.clone_from(&e.name);
                }
                if row.double_clicked() {
                    open = Some(e.id);
                }
                ui.end_row();
            }
        });
        if view.stored.is_empty() {
            ui.label(RichText::new("No experiments stored yet.").color(cx.palette.text_dim));
        }
    });
    if let Some(id) = open {
        view.open_stored(id);
    }
    ui.separator();
    let selected = view.selected.filter(|id| view.stored.iter().any(|e| e.id == *id));
    let interrupted = selected
        .and_then(|id| view.stored.iter().find(|e| e.id == id))
        .is_some_and(|e| e.runs_stored < e.runs_planned);
    ui.horizontal(|ui| {
        let label = ui.label("Rename to");
        ui.add(egui::TextEdit::singleline(&mut view.rename_text).desired_width(260.0)).labelled_by(label.id);
    });
    let some = selected.is_some();
    let buttons = [
        RowButton::new("Open", "Show its results").enabled(some),
        RowButton::new("Resume", "Run the runs it is missing").enabled(interrupted && view.running.is_none()),
        RowButton::new("Rename", "Give it the name typed above").enabled(some),
        RowButton::new("Delete", "Delete it with its runs and traces").enabled(some),
        RowButton::new("Export CSV…", "One row per run").enabled(some),
        RowButton::new("Export RON…", "The whole experiment, to import elsewhere").enabled(some),
        RowButton::new("Import…", "An experiment exported as RON (gets a new id)"),
        RowButton::new("Refresh", "List the store again"),
        RowButton::new("Collect results…", COLLECT_HINT),
    ];
    let clicked = action_row(ui, &buttons);
    match (clicked, selected) {
        (Some(0), Some(id)) => view.open_stored(id),
        (Some(1), Some(id)) => view.resume(id),
        (Some(2), Some(id)) => {
            let name = view.rename_text.clone();
            view.rename(id, &name);
        }
        (Some(3), Some(id)) => view.delete(id),
        (Some(4), Some(id)) => ask(view, ExperimentFileRequest::ExportCsv(id)),
        (Some(5), Some(id)) => ask(view, ExperimentFileRequest::ExportRon(id)),
        (Some(6), _) => ask(view, ExperimentFileRequest::Import),
        (Some(7), _) => view.refresh_list(),
        (Some(8), _) => view.open_slurm(SlurmDialog::Collect),
        _ => {}
    }
}
