//! The Slurm dialogs of the experiments window: **Run on Slurm…** (job directory, partition, time
//! limit, memory, points per task, throttle; writes the job directory and submits it, or shows the
//! `sbatch` line to copy to the cluster, also when submitting here failed) and **Collect results…** (a job directory, typed or
//! chosen by its `job.ron`; the runs collected, and every missing or failed run named with its
//! array task and stderr file). The state and the background work are `hase-editor`'s
//! [`hase_editor::experiments::slurm`]; this draws it.

use egui::{RichText, Ui};

use super::context::{ExperimentsContext, RowButton, action_row, ask};
use crate::theme::Palette;
use hase_editor::experiments::slurm::{CollectReport, SlurmDialog, SlurmOutcome, SlurmPanelError};
use hase_editor::experiments::{ExperimentFileRequest, ExperimentsView};

/// Draw the open Slurm dialog, if any.
pub(super) fn show(ctx: &egui::Context, view: &mut ExperimentsView, cx: &ExperimentsContext<'_>) {
    let Some(dialog) = view.slurm.dialog else { return };
    let title = match dialog {
        SlurmDialog::Submit => "Run on Slurm",
        SlurmDialog::Collect => "Collect Slurm results",
    };
    let screen = ctx.content_rect();
    let mut open = true;
    let id = egui::Id::unique("experiments-slurm-dialog");
    let window = egui::Window::new(title).id(id);
    if view.slurm.raise_frames > 0 {
        // Opened from the experiments window, which the click raises: come in front of it.
        view.slurm.raise_frames -= 1;
        ctx.request_repaint();
        ctx.move_to_top(egui::LayerId::new(egui::Order::Middle, id));
    }
    window
        .open(&mut open)
        .default_width((screen.width() - 160.0).clamp(360.0, 720.0))
        // Below the experiments window's tabs, so that they stay at hand.
        .default_pos(cx.area.min + egui::vec2(120.0, 100.0))
        .collapsible(false)
        .resizable(true)
        .show(ctx, |ui| match dialog {
            SlurmDialog::Submit => submit(ui, view, cx),
            SlurmDialog::Collect => collect(ui, view, cx),
        });
    if !open {
        view.slurm.dialog = None;
    }
    if view.slurm.busy() {
        ctx.request_repaint_after(std::time::Duration::from_millis(50));
    }
}

/// A single-line field with a label the tests (and screen readers) find it by.
fn field(ui: &mut Ui, label: &str, text: &mut String, hint: &str, width: f32) {
    ui.horizontal(|ui| {
        let l = ui.add_sized([120.0, 20.0], egui::Label::new(label));
        ui.add(egui::TextEdit::singleline(text).hint_text(hint).desired_width(width)).labelled_by(l.id);
    });
}

fn submit(ui: &mut Ui, view: &mut ExperimentsView, cx: &ExperimentsContext<'_>) {
    ui.label(
        RichText::new(
            "Writes a job directory (the frozen project and spec, job.sbatch) on a file system the \
             cluster's nodes share; every array task runs its points and writes one result file per run.",
        )
        .small(),
    );
    let wide = (ui.available_width() - 140.0).max(160.0);
    let form = &mut view.slurm.form;
    field(ui, "Job directory", &mut form.dir, "/shared/me/experiment-1 (new or empty)", wide);
    field(ui, "Partition", &mut form.partition, "default", 160.0);
    field(ui, "Time limit", &mut form.time, "HH:MM:SS per task", 160.0);
    field(ui, "Memory", &mut form.mem, "e.g. 2G per task", 160.0);
    field(ui, "Points per task", &mut form.points_per_task, "1", 80.0);
    field(ui, "Throttle", &mut form.throttle, "tasks at once (empty: any)", 160.0);
    field(ui, "hase binary", &mut form.hase_binary, "as the nodes see it (empty: this program)", wide);
    if let (Some(points), Ok(k)) =
        (view.preview.points, view.slurm.form.points_per_task.trim().parse::<u64>())
        && k > 0
    {
        let runs = view.preview.runs.unwrap_or(points);
        ui.label(format!("{points} points, {runs} runs in {} array tasks", points.div_ceil(k)));
    }
    let sbatch = view.slurm.sbatch_here();
    ui.label(
        RichText::new(if sbatch {
            "sbatch is on this machine's PATH: the job is submitted at once."
        } else {
            "sbatch is not on this machine's PATH: the directory is written and the command to run on \
             the cluster's login node is shown."
        })
        .color(cx.palette.text_dim)
        .small(),
    );
    let busy = view.slurm.busy();
    let buttons = [
        RowButton::new(
            if sbatch { "Write and submit" } else { "Write job directory" },
            "Write the job directory for the sweep built in this window",
        )
        .enabled(!busy && view.preview.is_ok()),
        RowButton::new("Close", "Close this dialog"),
    ];
    let base_dir = hase_editor::experiments::builder::base_dir_of(cx.file);
    match action_row(ui, &buttons) {
        Some(0) => view.prepare_slurm(cx.project, &base_dir),
        Some(1) => view.slurm.dialog = None,
        _ => {}
    }
    status(ui, view, cx.palette, "Writing the job directory…");
}

fn collect(ui: &mut Ui, view: &mut ExperimentsView, cx: &ExperimentsContext<'_>) {
    ui.label(
        RichText::new(
            "Reads the result files of a job directory written by Run on Slurm… (or hase sweep --slurm) \
             into the experiment store, as a local sweep's.",
        )
        .small(),
    );
    let wide = (ui.available_width() - 140.0).max(160.0);
    field(ui, "Job directory", &mut view.slurm.collect_dir, "the directory holding job.ron", wide);
    let busy = view.slurm.busy();
    let buttons = [
        RowButton::new("Collect", "Gather the results present").enabled(!busy),
        RowButton::new("Choose job.ron…", "Pick the job directory by its job.ron").enabled(!busy),
        RowButton::new("Close", "Close this dialog"),
    ];
    match action_row(ui, &buttons) {
        Some(0) => view.collect_slurm(),
        Some(1) => ask(view, ExperimentFileRequest::SlurmJob),
        Some(2) => view.slurm.dialog = None,
        _ => {}
    }
    status(ui, view, cx.palette, "Collecting…");
}

/// The spinner while busy, the error, or the outcome.
fn status(ui: &mut Ui, view: &ExperimentsView, palette: &Palette, working: &str) {
    ui.separator();
    if view.slurm.busy() {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(working);
        });
        return;
    }
    if let Some(error) = &view.slurm.error {
        ui.label(RichText::new(error.to_string()).color(palette.error));
        if let SlurmPanelError::Submit { command, .. } = error {
            ui.label(
                RichText::new("Submit it where a Slurm controller answers (the cluster's login node):")
                    .strong(),
            );
            copyable(ui, "Submit command", command);
        }
    }
    match &view.slurm.outcome {
        Some(SlurmOutcome::Submitted { dir, job_id, array, tasks }) => {
            ui.label(RichText::new(format!("Submitted job {job_id}")).strong());
            ui.label(format!("array {array}: {tasks} tasks, in {}", dir.display()));
            ui.label(RichText::new("When it has run: Collect results… on this directory.").small());
        }
        Some(SlurmOutcome::ShowCommand { dir, command, tasks }) => {
            ui.label(format!("Wrote {} ({tasks} array tasks).", dir.display()));
            ui.label(RichText::new("Run this on the cluster's login node:").strong());
            copyable(ui, "Submit command", command);
        }
        Some(SlurmOutcome::Collected(report)) => collected(ui, report, palette),
        None => {}
    }
}

/// A command line shown whole (wrapped), selectable, with a Copy button; edits are not kept.
fn copyable(ui: &mut Ui, name: &str, text: &str) {
    ui.horizontal(|ui| {
        let mut shown = text.to_string();
        let width = (ui.available_width() - 70.0).max(160.0);
        ui.add(egui::TextEdit::multiline(&mut shown).code_editor().desired_rows(1).desired_width(width))
            .on_hover_text(name);
        if ui.button("Copy").on_hover_text("Copy to the clipboard").clicked() {
            ui.ctx().copy_text(text.to_string());
        }
    });
}

fn collected(ui: &mut Ui, report: &CollectReport, palette: &Palette) {
    let into = report
        .stored
        .map_or_else(|| "kept in memory (no store)".to_string(), |id| format!("experiment {id}"));
    ui.label(
        RichText::new(format!("{} of {} runs collected into {into}", report.collected, report.planned))
            .strong(),
    );
    if report.problems.is_empty() {
        ui.label("Every run has its result. The table and plots are in Results.");
        return;
    }
    ui.label(
        RichText::new(format!("{} missing, {} did not go to their end:", report.missing, report.failed))
            .color(palette.error),
    );
    egui::ScrollArea::vertical().max_height(160.0).show(ui, |ui| {
        for line in &report.problems {
            ui.label(RichText::new(line).monospace());
        }
    });
    if let Some(line) = &report.resubmit {
        ui.label("Resubmit the tasks with missing runs on the cluster:");
        copyable(ui, "Resubmit command", line);
    }
}
