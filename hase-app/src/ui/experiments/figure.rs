//! Export plot PNG…: the plot shown in the Results tab drawn again as a figure to save — a title
//! (what against what, of which experiment), the plot with its axes, ticks, units and legend (and
//! the closed form's dashed "expected" lines), and
//! the provenance line (spec, seed, hase version, project; see
//! `hase_editor::experiments::provenance`), on a light background unless the window's theme is
//! asked for. It is drawn over the window until the screenshot has been taken (eframe takes it
//! while painting the next frame), then saved cropped to its rectangle.

use std::path::PathBuf;

use egui::{Rect, RichText};

use super::plot as draw;
use crate::theme::{Palette, ThemeChoice};
use hase_editor::experiments::ExperimentsView;
use hase_editor::experiments::expected_lines::expected_lines;
use hase_editor::experiments::plot::{PlotKind, Plotted, build};
use hase_editor::experiments::provenance::{provenance, provenance_in_memory};

/// Size of a figure (points): a page-width plot.
pub const FIGURE_SIZE: egui::Vec2 = egui::vec2(960.0, 620.0);
/// Frames a figure is drawn before its screenshot is asked for (its layout settles in the first).
const FRAMES_BEFORE_SHOT: u8 = 2;
/// Frames a figure stays drawn after its screenshot was asked for, waiting for it. eframe takes a
/// screenshot when it paints the frame after the one that asked, so the figure must still be
/// there then; it goes once the saved file (or the error) is reported, or after this many frames.
pub const FRAMES_WAITING_FOR_SHOT: u8 = 60;

/// A figure being exported.
#[derive(Clone, Debug)]
pub struct FigureExport {
    /// Where the PNG goes.
    pub path: PathBuf,
    /// Frames drawn so far.
    pub frames: u8,
    /// The screenshot has been asked for.
    pub requested: bool,
}

impl FigureExport {
    /// A figure to save at `path`.
    pub fn new(path: PathBuf) -> Self {
        FigureExport { path, frames: 0, requested: false }
    }

    /// True once the figure has been drawn long enough to be photographed and has not asked yet.
    pub fn ready(&self) -> bool {
        !self.requested && self.frames >= FRAMES_BEFORE_SHOT
    }

    /// True if the screenshot was asked for and has not come within [`FRAMES_WAITING_FOR_SHOT`].
    pub fn gave_up(&self) -> bool {
        self.requested && self.frames >= FRAMES_BEFORE_SHOT.saturating_add(FRAMES_WAITING_FOR_SHOT)
    }
}

/// The title of the plot shown: `makespan_ps against workload.message_bytes, per algorithm`.
pub fn title(view: &ExperimentsView) -> String {
    let p = &view.plot;
    let what = if p.kind == PlotKind::Heatmap {
        format!("{} over {} and {}", p.metric, p.x, p.series.as_deref().unwrap_or("?"))
    } else {
        let per = p.series.as_deref().map(|s| format!(", per {s}")).unwrap_or_default();
        let kind = match p.kind {
            PlotKind::Speedup => "speedup of ",
            PlotKind::Efficiency => "efficiency of ",
            PlotKind::Ratio => "ratio of ",
            _ => "",
        };
        format!("{kind}{} against {}{per}", p.metric, p.x)
    };
    match &view.results {
        Some(r) => format!("{what} — {}", r.name),
        None => what,
    }
}

/// The provenance line of the results shown.
pub fn provenance_line(view: &ExperimentsView) -> String {
    let Some(results) = &view.results else { return String::new() };
    let stored = results.id.and_then(|id| view.store.as_ref().and_then(|s| s.info(id).ok()));
    match stored {
        Some(info) => provenance(&info),
        None => provenance_in_memory(&results.name, results.records.len()),
    }
}

/// Draw the figure of the plot shown over the window; returns its rectangle.
pub fn show(ctx: &egui::Context, view: &ExperimentsView, window_theme: ThemeChoice) -> Rect {
    let choice = if view.figure_light { ThemeChoice::Light } else { window_theme };
    let palette = Palette::for_choice(choice);
    let title = title(view);
    let provenance = provenance_line(view);
    let plotted = view.plotted_set().and_then(|set| build(&set, &view.plot).map(|p| (set, p)));
    let response = egui::Area::new(egui::Id::unique("experiment-figure"))
        .order(egui::Order::Foreground)
        .fixed_pos(ctx.content_rect().min)
        .show(ctx, |ui| {
            *ui.visuals_mut() = crate::theme::visuals(choice);
            egui::Frame::new().fill(palette.canvas).inner_margin(egui::Margin::same(18)).show(ui, |ui| {
                ui.set_width(FIGURE_SIZE.x);
                ui.label(RichText::new(&title).size(18.0).strong().color(palette.text));
                ui.add_space(6.0);
                ui.allocate_ui(egui::vec2(FIGURE_SIZE.x, FIGURE_SIZE.y - 90.0), |ui| match &plotted {
                    Ok((_, Plotted::Lines(plot))) => {
                        let overlay = match &view.results {
                            Some(results) => plotted
                                .as_ref()
                                .map(|(set, _)| super::fit_panel::overlay(view, results, set, plot))
                                .unwrap_or_default(),
                            None => Vec::new(),
                        };
                        let logs = (view.plot.log_x, view.plot.log_y);
                        let expected = expected_lines(plot, &view.plot, &view.expected.1);
                        draw::lines(ui, "figure-lines", plot, logs, &view.plot.x, &overlay, &expected);
                    }
                    Ok((_, Plotted::Heatmap(grid))) => {
                        let rows = view.plot.series.clone().unwrap_or_default();
                        draw::heatmap(ui, "figure-heatmap", grid, (&view.plot.x, &rows), &view.plot.metric);
                    }
                    Err(e) => {
                        ui.label(RichText::new(e.to_string()).color(palette.error));
                    }
                });
                ui.add_space(6.0);
                ui.label(RichText::new(&provenance).small().color(palette.text_dim));
            });
        });
    ctx.request_repaint();
    response.response.rect
}
