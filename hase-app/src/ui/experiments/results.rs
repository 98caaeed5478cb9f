//! The Results tab: the plot's choices (which plot, metric, x variable, series or rows, band, log
//! axes, the value other variables are held at, the speedup baseline, the ratio's denominator),
//! the plot (with the closed form's expected lines and, when a series has none, why), its
//! exports, and the table of points sortable by any column. A double-click on a row or a plotted
//! point opens that point's run in the animator and the timing diagram.

use egui::{RichText, Ui};

use super::context::{ExperimentsContext, RowButton, action_row, ask, cell};
use super::plot as draw;
use hase_editor::experiments::expected_lines::expected_lines;
use hase_editor::experiments::plot::{MeanBand, PLOT_KINDS, PlotKind, Plotted, PointSet, RatioSource, build};
use hase_editor::experiments::quantity::{spread_text, value_text, variable_text};
use hase_editor::experiments::results::Results;
use hase_editor::experiments::table::SortColumn;
use hase_editor::experiments::{ExperimentFileRequest, ExperimentsView};

/// Rows drawn in the table at most (the CSV export has them all).
const TABLE_ROWS_SHOWN: usize = 5_000;

pub(super) fn show(ui: &mut Ui, view: &mut ExperimentsView, cx: &ExperimentsContext<'_>) {
    let Some(results) = view.results.clone() else {
        ui.label("No results yet: run a sweep, or open a stored experiment.");
        return;
    };
    let owner = results.id.map_or_else(|| "in memory".to_string(), |id| format!("experiment {id}"));
    ui.label(
        RichText::new(format!(
            "{} ({owner}): {} of {} runs",
            results.name,
            results.records.len(),
            results.runs_planned
        ))
        .strong(),
    );
    controls(ui, view, &results);
    super::fit_panel::show(ui, view, &results, cx);
    let set = view.plotted_set();
    let available = ui.available_height();
    let plot_height = (available * 0.58).max(200.0);
    let mut export_csv = None;
    let mut open = None;
    ui.allocate_ui(egui::vec2(ui.available_width(), plot_height), |ui| {
        let plotted =
            set.as_ref().map_err(Clone::clone).and_then(|set| build(set, &view.plot).map(|p| (set, p)));
        match plotted {
            Ok((_, Plotted::Heatmap(grid))) => {
                let rows = view.plot.series.clone().unwrap_or_default();
                let (clicked, rect) =
                    draw::heatmap(ui, "experiment-heatmap", &grid, (&view.plot.x, &rows), &view.plot.metric);
                (open, view.plot_rect) = (clicked, Some([rect.min.x, rect.min.y, rect.max.x, rect.max.y]));
                export_csv = Some(Plotted::Heatmap(grid).csv());
            }
            Ok((set, Plotted::Lines(plot))) => {
                let overlay = super::fit_panel::overlay(view, &results, set, &plot);
                view.expected_points();
                let expected = expected_lines(&plot, &view.plot, &view.expected.1);
                let (clicked, rect) = draw::lines(
                    ui,
                    "experiment-lines",
                    &plot,
                    (view.plot.log_x, view.plot.log_y),
                    &view.plot.x,
                    &overlay,
                    &expected,
                );
                if let Some(note) = &expected.note {
                    ui.label(RichText::new(note).small().color(cx.palette.text_dim));
                }
                (open, view.plot_rect) = (clicked, Some([rect.min.x, rect.min.y, rect.max.x, rect.max.y]));
                export_csv = Some(Plotted::Lines(plot).csv());
            }
            Err(e) => {
                ui.label(RichText::new(e.to_string()).color(cx.palette.error));
            }
        }
    });
    let buttons = [
        RowButton::new("Export plot PNG…", "The plot as an image").enabled(export_csv.is_some()),
        RowButton::new("Export plot CSV…", "The plotted values").enabled(export_csv.is_some()),
        RowButton::new("Export results CSV…", "Every run, one row each"),
        RowButton::new(
            "Open point's run",
            "The selected point in the animator and timing diagram (its trace, or run again)",
        )
        .enabled(view.selected_point.is_some()),
    ];
    ui.checkbox(&mut view.figure_light, "Figures on a light background")
        .on_hover_text("Export plot PNG… draws the figure light (else in the window's theme)");
    match action_row(ui, &buttons) {
        Some(3) => open = view.selected_point,
        Some(0) => ask(view, ExperimentFileRequest::PlotPng),
        Some(1) => ask(view, ExperimentFileRequest::PlotCsv(export_csv.unwrap_or_default())),
        Some(2) => ask(view, ExperimentFileRequest::ResultsCsv(results.csv())),
        _ => {}
    }
    ui.separator();
    if let Some(point) = table(ui, view, &results) {
        open = Some(point);
    }
    if open.is_some() {
        view.open_point = open;
    }
}

fn combo(ui: &mut Ui, label: &str, value: &mut String, choices: &[String]) {
    let name = ui.label(label);
    egui::ComboBox::from_id_salt(("experiment-plot", label))
        .selected_text(value.as_str())
        .show_ui(ui, |ui| {
            for c in choices {
                ui.selectable_value(value, c.clone(), c);
            }
        })
        .response
        .labelled_by(name.id);
}

fn controls(ui: &mut Ui, view: &mut ExperimentsView, results: &Results) {
    let p = &mut view.plot;
    ui.horizontal_wrapped(|ui| {
        for entry in &PLOT_KINDS {
            ui.selectable_value(&mut p.kind, entry.kind, entry.label);
        }
        ui.separator();
        combo(ui, "Metric", &mut p.metric, &results.metrics);
        combo(ui, "x", &mut p.x, &results.variables);
        let second = if p.kind == PlotKind::Heatmap { "Rows" } else { "Lines per" };
        let name = ui.label(second);
        let shown = p.series.clone().unwrap_or_else(|| "—".into());
        egui::ComboBox::from_id_salt("experiment-plot-series")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut p.series, None, "—");
                for v in &results.variables {
                    ui.selectable_value(&mut p.series, Some(v.clone()), v);
                }
            })
            .response
            .labelled_by(name.id);
    });
    ui.horizontal_wrapped(|ui| {
        if p.kind != PlotKind::Heatmap {
            ui.label("Band");
            ui.selectable_value(&mut p.band, MeanBand::None, "none");
            ui.selectable_value(&mut p.band, MeanBand::MinMax, "min–max");
            ui.selectable_value(&mut p.band, MeanBand::Ci95, "95 % CI");
            ui.checkbox(&mut p.log_x, "log x");
            ui.checkbox(&mut p.log_y, "log y");
        }
        // Variables on no axis are held at one value each.
        for (i, v) in results.variables.iter().enumerate() {
            if *v == p.x || p.series.as_deref() == Some(v.as_str()) {
                continue;
            }
            if let Some(RatioSource::Split { variable, .. }) = &p.ratio
                && p.kind == PlotKind::Ratio
                && variable == v
            {
                continue;
            }
            let values = results.values_of(i);
            let mut held =
                p.fixed.get(v).cloned().unwrap_or_else(|| values.first().cloned().unwrap_or_default());
            combo(ui, &format!("{v} ="), &mut held, &values);
            p.fixed.insert(v.clone(), held);
        }
    });
    if matches!(p.kind, PlotKind::Speedup | PlotKind::Efficiency) {
        ui.horizontal(|ui| {
            ui.label("Baseline");
            let points = results.points();
            let text = |point: u64| {
                points
                    .iter()
                    .find(|q| q.point == point)
                    .map_or(format!("point {point}"), |q| format!("point {point} ({})", q.values.join(", ")))
            };
            let shown = p.baseline.map_or_else(|| "first point of each line".to_string(), text);
            egui::ComboBox::from_id_salt("experiment-baseline").selected_text(shown).show_ui(ui, |ui| {
                ui.selectable_value(&mut p.baseline, None, "first point of each line");
                for q in &points {
                    ui.selectable_value(&mut p.baseline, Some(q.point), text(q.point));
                }
            });
        });
    }
    if p.kind == PlotKind::Ratio {
        ratio_controls(ui, view, results);
    }
}

fn ratio_controls(ui: &mut Ui, view: &mut ExperimentsView, results: &Results) {
    let mut load = None;
    ui.horizontal_wrapped(|ui| {
        ui.label("Divide by");
        let p = &mut view.plot;
        let split = matches!(p.ratio, Some(RatioSource::Split { .. }) | None);
        if ui.radio(split, "another value of a variable").clicked() && !split {
            p.ratio = None;
        }
        let stored_other =
            view.stored.iter().filter(|e| Some(e.id) != results.id).map(|e| e.id).collect::<Vec<_>>();
        if ui
            .add_enabled(!stored_other.is_empty(), egui::RadioButton::new(!split, "another experiment"))
            .clicked()
            && split
        {
            load = stored_other.first().copied();
        }
        if split {
            let mut variable = match &p.ratio {
                Some(RatioSource::Split { variable, .. }) => variable.clone(),
                // The variable the lines are drawn per is the one to divide (its lines become
                // the ratio), else the first one not on the x axis.
                _ => p.series.take().unwrap_or_else(|| {
                    let off_x = results.variables.iter().find(|v| **v != p.x);
                    off_x.or(results.variables.first()).cloned().unwrap_or_default()
                }),
            };
            combo(ui, "variable", &mut variable, &results.variables);
            let values = results.variable_index(&variable).map(|i| results.values_of(i)).unwrap_or_default();
            let (mut numerator, mut denominator) = match &p.ratio {
                Some(RatioSource::Split { variable: v, numerator, denominator }) if *v == variable => {
                    (numerator.clone(), denominator.clone())
                }
                _ => {
                    (values.first().cloned().unwrap_or_default(), values.get(1).cloned().unwrap_or_default())
                }
            };
            combo(ui, "numerator", &mut numerator, &values);
            combo(ui, "denominator", &mut denominator, &values);
            p.ratio = Some(RatioSource::Split { variable, numerator, denominator });
        } else {
            let current = match p.ratio {
                Some(RatioSource::Experiment(id)) => id,
                _ => 0,
            };
            egui::ComboBox::from_id_salt("experiment-ratio-other")
                .selected_text(format!("experiment {current}"))
                .show_ui(ui, |ui| {
                    for e in view.stored.iter().filter(|e| Some(e.id) != results.id) {
                        if ui.selectable_label(current == e.id, format!("{}: {}", e.id, e.name)).clicked() {
                            load = Some(e.id);
                        }
                    }
                });
        }
    });
    if let Some(id) = load {
        view.load_other(id);
    }
}

/// The table of points; returns the point double-clicked.
fn table(ui: &mut Ui, view: &mut ExperimentsView, results: &Results) -> Option<u64> {
    let points = PointSet::of(results).points;
    let order = view.sort.order(&points);
    let mut open = None;
    let mut clicked = None;
    egui::ScrollArea::both().id_salt("experiment-table").auto_shrink([false, false]).show(ui, |ui| {
        egui::Grid::new("experiment-points").striped(true).show(ui, |ui| {
            let mut header = |ui: &mut Ui, text: &str, column: SortColumn| {
                let arrow = match (view.sort.column == column, view.sort.descending) {
                    (true, false) => " (asc)",
                    (true, true) => " (desc)",
                    _ => "",
                };
                if ui
                    .button(RichText::new(format!("{text}{arrow}")).strong())
                    .on_hover_text("Sort by this column")
                    .clicked()
                {
                    clicked = Some(column);
                }
            };
            header(ui, "point", SortColumn::Point);
            for (i, v) in results.variables.iter().enumerate() {
                header(ui, v, SortColumn::Variable(i));
            }
            ui.label(RichText::new("runs").strong());
            for (i, m) in results.metrics.iter().enumerate() {
                header(ui, m, SortColumn::Metric(i));
            }
            ui.end_row();
            for &i in order.iter().take(TABLE_ROWS_SHOWN) {
                let p = &points[i];
                let selected = view.selected_point == Some(p.point);
                // Every cell of the row selects it (and opens it on a double click).
                let mut row = ui
                    .selectable_label(selected, p.point.to_string())
                    .on_hover_text("Click to select, double-click to open this point's run");
                for (v, name) in p.values.iter().zip(&results.variables) {
                    row |= cell(ui, variable_text(name, v));
                }
                row |= cell(
                    ui,
                    if p.failed > 0 {
                        format!("{} ({} failed)", p.runs, p.failed)
                    } else {
                        p.runs.to_string()
                    },
                );
                for (m, name) in p.metrics.iter().zip(&results.metrics) {
                    row |= cell(
                        ui,
                        match m {
                            Some(s) if s.n > 1 => spread_text(name, s.mean, s.ci95),
                            Some(s) => value_text(name, s.mean),
                            None => "–".into(),
                        },
                    );
                }
                if row.clicked() {
                    view.selected_point = Some(p.point);
                }
                if row.double_clicked() {
                    open = Some(p.point);
                }
                ui.end_row();
            }
        });
        if order.len() > TABLE_ROWS_SHOWN {
            ui.label(format!(
                "{} more points: export the CSV to see them all",
                order.len() - TABLE_ROWS_SHOWN
            ));
        }
    });
    if let Some(column) = clicked {
        view.sort.click(column);
    }
    open
}
