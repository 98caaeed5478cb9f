//! "Fit a formula" in the Results tab: the metric and the variables playing `p`, `n` or a
//! pipeline's grain `g`, the fit (`hase_editor::analysis_views::FitPanel`, the same as
//! `hase experiments fit`), the formula with its coefficients' standard errors and the quality of
//! the fit, and the fitted curve for the line plot to draw over the measured points.

use egui::{RichText, Ui};

use super::context::ExperimentsContext;
use hase_editor::analysis_views::fit_panel::{MAX_TERMS, curve, formula};
use hase_editor::experiments::ExperimentsView;
use hase_editor::experiments::fit_text::{formula_text, held_out_text, prediction_text};
use hase_editor::experiments::plot::{LinePlot, PlotKind, PointSet, lines};
use hase_editor::experiments::quantity::value_text;
use hase_editor::experiments::results::Results;
use hase_library::fit::FitWarning;

/// Most values of the leading variable the panel holds out.
const MAX_HOLDOUT: usize = 4;

/// The button that opens the panel, and the panel when open.
pub(super) fn show(ui: &mut Ui, view: &mut ExperimentsView, results: &Results, cx: &ExperimentsContext<'_>) {
    let panel = &mut view.fit;
    if !panel.open {
        if ui
            .button("Fit a formula…")
            .on_hover_text("Fit the time to complexity terms in p and n (or a pipeline's grain) and draw it")
            .clicked()
        {
            panel.open_on(results);
        }
        return;
    }
    let mut fit_now = false;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new("Fit a formula").strong());
            combo(ui, "time", &mut panel.metric, &results.metrics, false);
            combo(ui, "p =", &mut panel.p, &results.variables, true);
            combo(ui, "n =", &mut panel.n, &results.variables, true);
            combo(ui, "g =", &mut panel.g, &results.variables, true);
            let label = ui.label("terms ≤");
            ui.add(egui::DragValue::new(&mut panel.max_terms).range(1..=MAX_TERMS)).labelled_by(label.id);
            if ui.button("Fit now").clicked() {
                fit_now = true;
            }
            ui.checkbox(&mut panel.per_series, "each series on its own")
                .on_hover_text("Fit each line of the plot on its own runs (else one formula for every run)");
            ui.checkbox(&mut panel.on_plot, "curve on the plot");
            let label = ui.label("predict at");
            ui.add(
                egui::TextEdit::singleline(&mut panel.predict_at)
                    .hint_text("p=1024, n=1M; …")
                    .desired_width(150.0),
            )
            .labelled_by(label.id)
            .on_hover_text(
                "Extrapolate the formula to larger p and n (points separated by ';'), then Fit now",
            );
            let label = ui.label("hold out largest");
            ui.add(egui::DragValue::new(&mut panel.holdout).range(0..=MAX_HOLDOUT))
                .labelled_by(label.id)
                .on_hover_text(
                    "Leave the runs at this many of the largest values of p (else n) out of the fit and \
                     show its error there (as `--holdout`); 0 fits every run",
                );
            if ui.button("Close").clicked() {
                panel.open = false;
            }
        });
        let Some(result) = &panel.result else {
            ui.weak("Choose the time metric and the variables, then Fit now (as `hase experiments fit`).");
            return;
        };
        let fit = match result {
            Ok(_) if panel.fit_of(results).is_none() => {
                ui.weak("The fit shown was of another experiment: Fit now again.");
                return;
            }
            Ok(fit) => fit,
            Err(e) => {
                ui.label(RichText::new(e.to_string()).color(cx.palette.error));
                return;
            }
        };
        let Some(best) = formula(fit) else { return };
        ui.label(RichText::new(format!("{} ≈ {}", fit.metric, formula_text(&fit.metric, best))).monospace());
        ui.label(format!(
            "R² {:.6}   rms residual {}   largest relative error {:.2} %   {} runs fitted, {} left out",
            best.r_squared,
            value_text(&fit.metric, best.rmse),
            best.max_relative_error * 100.0,
            fit.samples.len(),
            fit.skipped
        ));
        if let Some(selection) = &fit.formula {
            let runner = selection.runners_up.first().map_or_else(String::new, |r| {
                let text = formula_text(&fit.metric, r);
                format!("; runner-up (criterion {:+.1}): {text}", r.criterion - selection.best.criterion)
            });
            ui.weak(format!(
                "every run of the experiment (as `hase experiments fit`): {} formulas considered{runner}",
                selection.considered
            ));
            // What to know before trusting it (as the command line prints them).
            for warning in &selection.warnings {
                ui.label(RichText::new(format!("warning: {warning}")).color(cx.palette.warning));
            }
        }
        if let Some(error) = &panel.predict_error {
            ui.label(RichText::new(error).color(cx.palette.error));
        }
        for p in &fit.predictions {
            ui.label(RichText::new(prediction_text(fit, p)).monospace());
        }
        if !fit.held_out.is_empty() {
            ui.label(format!("held out, {} runs:", fit.held_out.len()));
            for h in &fit.held_out {
                ui.label(RichText::new(held_out_text(fit, h)).monospace());
            }
        }
        if let Some(grain) = &fit.grain {
            ui.label(match (grain.optimal_grain, grain.optimal_time) {
                (Some(g), Some(t)) => {
                    format!("optimal grain g* = √(c/b) = {g:.2} (time {})", value_text(&fit.metric, t))
                }
                _ => "no interior optimum: the time only falls or only rises with the grain".to_string(),
            });
        }
        for (name, result) in &panel.series {
            let text = match result.as_ref().map(|f| (f, formula(f))) {
                Ok((f, Some(best))) => {
                    let ahead: Vec<String> =
                        f.predictions.iter().map(|p| value_text(&f.metric, p.time)).collect();
                    let ahead = if ahead.is_empty() {
                        String::new()
                    } else {
                        format!("   predicted {}", ahead.join(", "))
                    };
                    let best_text = formula_text(&f.metric, best);
                    let little = f.formula.as_ref().is_some_and(|s| {
                        s.warnings.iter().any(|w| matches!(w, FitWarning::ExplainsLittle { .. }))
                    });
                    let little = if little { "   explains little: measure more points" } else { "" };
                    format!("{name}: {} ≈ {best_text}   (R² {:.4}){ahead}{little}", f.metric, best.r_squared)
                }
                Ok((_, None)) => continue,
                Err(e) => format!("{name}: {e}"),
            };
            ui.label(RichText::new(text).monospace().small());
        }
    });
    if fit_now {
        let plot = (view.plot.kind == PlotKind::Lines)
            .then(|| view.plotted_set().ok().and_then(|set| lines(&set, &view.plot).ok()))
            .flatten();
        view.fit.fit(results, plot.as_ref());
    }
}

/// The fitted curve to draw over the line plot of `set`: when the panel's last fit is of these
/// results, asked for on the plot, and the plot shows the fitted metric as plain lines.
pub(super) fn overlay(
    view: &ExperimentsView,
    results: &Results,
    set: &PointSet,
    plot: &LinePlot,
) -> Vec<(String, Vec<[f64; 2]>)> {
    let panel = &view.fit;
    match panel.fit_of(results) {
        Some(fit) if panel.on_plot && view.plot.kind == PlotKind::Lines && view.plot.metric == fit.metric => {
            curve(|name| panel.fit_for_series(results, name), set, plot)
        }
        _ => Vec::new(),
    }
}

fn combo(ui: &mut Ui, label: &str, value: &mut String, choices: &[String], optional: bool) {
    ui.label(label);
    let shown = if value.is_empty() { "—" } else { value.as_str() };
    egui::ComboBox::from_id_salt(("fit-formula", label)).selected_text(shown).show_ui(ui, |ui| {
        if optional {
            ui.selectable_value(value, String::new(), "—");
        }
        for c in choices {
            ui.selectable_value(value, c.clone(), c);
        }
    });
}
