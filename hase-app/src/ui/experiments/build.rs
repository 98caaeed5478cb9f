//! The Build tab: the design's parameters on the left (click one to sweep it), the variables with
//! their value texts and the number of values (or the error, under the variable at fault), how
//! they combine, the constraint, repetitions, seed, traces and metrics; the preview of points and
//! runs; run, save and load the spec.

use egui::{RichText, Ui};

use super::context::{ExperimentsContext, RowButton, action_row, ask};
use hase_editor::experiments::builder::{CombineMode, base_dir_of};
use hase_editor::experiments::targets::{same_parameter, sweep_targets};
use hase_editor::experiments::{ExperimentFileRequest, ExperimentsView};

/// Metric names offered in the menu (patterns such as `state_ps:STATE@GROUP` are typed).
const METRICS: [&str; 13] = [
    "makespan_ps",
    "events",
    "messages",
    "latency_mean_ps",
    "latency_min_ps",
    "latency_max_ps",
    "link_bytes",
    "link_msgs",
    "max_link_utilisation",
    "dropped_messages",
    "wall_time_s",
    "events_per_s",
    "utilisation:*",
];

pub(super) fn show(ui: &mut Ui, view: &mut ExperimentsView, cx: &ExperimentsContext<'_>) {
    let base_dir = base_dir_of(cx.file);
    view.refresh_preview(cx.project, &base_dir, cx.generation);
    egui::Panel::left("experiment-targets").resizable(true).default_size(280.0).show(ui, |ui| {
        targets(ui, view, cx);
    });
    egui::CentralPanel::no_frame().show(ui, |ui| {
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            variables(ui, view, cx);
            ui.separator();
            settings(ui, view);
            ui.separator();
            metrics(ui, view);
            ui.separator();
            preview_and_actions(ui, view, cx, &base_dir);
        });
    });
}

fn targets(ui: &mut Ui, view: &mut ExperimentsView, cx: &ExperimentsContext<'_>) {
    ui.heading("Parameters");
    ui.horizontal(|ui| {
        let label = ui.label("Filter");
        ui.add(egui::TextEdit::singleline(&mut view.target_filter).desired_width(160.0))
            .labelled_by(label.id);
    });
    ui.label(RichText::new("Click a parameter to sweep it.").color(cx.palette.text_dim).small());
    let filter = view.target_filter.to_lowercase();
    let all = sweep_targets(cx.project);
    egui::ScrollArea::vertical().id_salt("targets").auto_shrink([false, false]).show(ui, |ui| {
        let mut group = None;
        for t in all.iter().filter(|t| filter.is_empty() || t.target.to_lowercase().contains(&filter)) {
            if group != Some(t.group) {
                group = Some(t.group);
                ui.label(RichText::new(t.group.label()).strong());
            }
            let taken = view.builder.variables.iter().any(|v| same_parameter(&v.target, &t.target));
            let button = egui::Button::new(format!("+ {}", t.target)).frame(false);
            if ui
                .add_enabled(!taken, button)
                .on_hover_text(format!("now {}", if t.current.is_empty() { "unset" } else { &t.current }))
                .clicked()
            {
                view.builder.add_variable(&t.target, &t.current);
            }
        }
    });
}

fn variables(ui: &mut Ui, view: &mut ExperimentsView, cx: &ExperimentsContext<'_>) {
    ui.heading("Variables");
    if view.builder.variables.is_empty() {
        ui.label("None yet: pick parameters on the left.");
    }
    ui.label(
        RichText::new(
            "Values: a, b, c · lo..hi +step · lo..hi *factor (units as in the inspector: 64K, 10us)",
        )
        .color(cx.palette.text_dim)
        .small(),
    );
    let groups = view.builder.combine == CombineMode::Groups;
    let mut remove = None;
    for (i, row) in view.builder.variables.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            let label = ui.label(RichText::new(format!("{} =", row.target)).monospace());
            ui.add(egui::TextEdit::singleline(&mut row.values).desired_width(220.0)).labelled_by(label.id);
            let name_label = ui.label("name");
            ui.add(egui::TextEdit::singleline(&mut row.name).hint_text(&row.target).desired_width(110.0))
                .labelled_by(name_label.id);
            if groups {
                ui.label("group");
                ui.add(egui::DragValue::new(&mut row.group).range(0..=99));
            }
            match view.preview.value_counts.get(i).copied().flatten() {
                Some(n) => {
                    ui.label(format!("{n} value{}", if n == 1 { "" } else { "s" }));
                }
                None => {
                    ui.label(RichText::new("×").color(cx.palette.error));
                }
            }
            if ui.small_button("Remove").on_hover_text("Stop sweeping this parameter").clicked() {
                remove = Some(i);
            }
        });
        if let Some(Some(error)) = view.preview.variable_errors.get(i) {
            ui.label(RichText::new(error.to_string()).color(cx.palette.error));
        }
    }
    if let Some(i) = remove {
        view.builder.variables.remove(i);
    }
}

fn settings(ui: &mut Ui, view: &mut ExperimentsView) {
    let b = &mut view.builder;
    ui.horizontal(|ui| {
        ui.label("Combine");
        ui.radio_value(&mut b.combine, CombineMode::Cross, "Cross product")
            .on_hover_text("Every combination; the first variable changes slowest");
        ui.radio_value(&mut b.combine, CombineMode::Zip, "Zip")
            .on_hover_text("All variables advance together");
        ui.radio_value(&mut b.combine, CombineMode::Groups, "Zip groups")
            .on_hover_text("Variables with the same group number advance together; groups cross");
    });
    ui.horizontal(|ui| {
        let label = ui.label("Constraint");
        ui.add(
            egui::TextEdit::singleline(&mut b.constraint)
                .hint_text("bytes >= 4096 || network == \"fat_tree:2x3\"")
                .desired_width(360.0),
        )
        .labelled_by(label.id);
    });
    ui.horizontal(|ui| {
        ui.label("Repetitions");
        ui.add(egui::DragValue::new(&mut b.repetitions).range(1..=1000));
        ui.label("Seed");
        ui.add(egui::DragValue::new(&mut b.seed));
        egui::ComboBox::from_label("Traces")
            .selected_text(if b.trace_level == 0 {
                "none".to_string()
            } else {
                format!("level {}", b.trace_level)
            })
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut b.trace_level, 0, "none");
                for level in 1..=5 {
                    ui.selectable_value(&mut b.trace_level, level, format!("level {level}"));
                }
            })
            .response
            .on_hover_text("Keep a trace of every run (opens at once in the replay views)");
        ui.checkbox(&mut b.shuffle_ties, "Shuffle simultaneous events").on_hover_text(
            "Each run takes the events of one instant in an order drawn from its seed, so the \
             repetitions of a point show how far that order moves the result.",
        );
    });
    ui.horizontal(|ui| {
        let label = ui.label("Name");
        ui.add(egui::TextEdit::singleline(&mut b.name).hint_text("the project's name").desired_width(260.0))
            .labelled_by(label.id);
        ui.label("Workers");
        ui.add(egui::DragValue::new(&mut view.jobs).range(1..=256));
    });
}

fn metrics(ui: &mut Ui, view: &mut ExperimentsView) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Metrics");
        let mut remove = None;
        for (i, m) in view.builder.metrics.iter().enumerate() {
            if ui.small_button(format!("{m} ×")).on_hover_text("Remove this metric").clicked() {
                remove = Some(i);
            }
        }
        if let Some(i) = remove {
            view.builder.metrics.remove(i);
        }
        egui::ComboBox::from_id_salt("experiment-add-metric").selected_text("Add metric").show_ui(ui, |ui| {
            for m in METRICS {
                if !view.builder.metrics.iter().any(|x| x == m) && ui.selectable_label(false, m).clicked() {
                    view.builder.metrics.push(m.to_string());
                }
            }
        });
    });
    ui.label(
        RichText::new("Also: state_ps:STATE@type:T, utilisation:ENTITY, utilisation:p0.net — type the name in the spec file or below.")
            .small(),
    );
    ui.horizontal(|ui| {
        let text = &mut view.metric_text;
        let label = ui.label("Metric name");
        let response = ui.add(egui::TextEdit::singleline(text).desired_width(260.0)).labelled_by(label.id);
        let entered = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if (ui.button("Add").clicked() || entered) && !text.trim().is_empty() {
            view.builder.metrics.push(text.trim().to_string());
            text.clear();
        }
    });
}

fn preview_and_actions(
    ui: &mut Ui,
    view: &mut ExperimentsView,
    cx: &ExperimentsContext<'_>,
    base_dir: &std::path::Path,
) {
    let p = &view.preview;
    if let (Some(points), Some(runs)) = (p.points, p.runs) {
        let reps = view.builder.repetitions;
        ui.label(
            RichText::new(format!(
                "{points} point{} × {reps} repetition{} = {runs} run{}",
                if points == 1 { "" } else { "s" },
                if reps == 1 { "" } else { "s" },
                if runs == 1 { "" } else { "s" }
            ))
            .strong(),
        );
    } else {
        let text = p.error.as_ref().map_or_else(|| "the sweep cannot be planned".into(), ToString::to_string);
        ui.label(RichText::new(text).color(cx.palette.error));
    }
    let can_run = view.preview.is_ok() && view.running.is_none();
    let buttons = [
        RowButton::new("Run sweep", "Run every point in the background (stored as an experiment)")
            .enabled(can_run),
        RowButton::new("Save spec…", "Write the spec as RON (hase sweep --spec reads it)"),
        RowButton::new("Load spec…", "Read a spec file into the builder"),
        RowButton::new("Clear", "Start a new sweep"),
        RowButton::new(
            "Run on Slurm…",
            "Write a Slurm job directory for this sweep and submit it (or show the sbatch command)",
        )
        .enabled(view.preview.is_ok()),
    ];
    match action_row(ui, &buttons) {
        Some(0) => {
            let source = match cx.file {
                Some(f) => format!("file {}", f.display()),
                None => format!("the design “{}” in the editor", cx.project.name),
            };
            view.start(cx.project, base_dir, &source);
        }
        Some(1) => ask(view, ExperimentFileRequest::SaveSpec),
        Some(2) => ask(view, ExperimentFileRequest::LoadSpec),
        Some(3) => view.builder = hase_editor::experiments::builder::SweepBuilder::default(),
        Some(4) => view.open_slurm(hase_editor::experiments::slurm::SlurmDialog::Submit),
        _ => {}
    }
}
