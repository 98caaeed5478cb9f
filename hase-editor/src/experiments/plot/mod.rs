//! What the experiments view plots, computed without any GUI: a metric against one variable with
//! one series per value of another (mean, with a min/max or 95 % band over repetitions), speedup
//! and efficiency against a baseline point, a heatmap of a metric over two variables, and the
//! ratio of two result sets point by point (two experiments, or two values of one variable).
//! Variables that are neither the x axis nor the series are held at one chosen value each.
//!
//! Every kind of plot is one function registered in [`PLOT_KINDS`]: adding a kind is a variant of
//! [`PlotKind`], its function (beside the others in [`lines`] or [`heatmap`], or a file of its
//! own) and its row in the list; `docs/experiments.md` describes it (a test checks every row).

mod heatmap;
mod lines;
mod model;
mod ratio;

pub use heatmap::{heatmap, heatmap_csv};
pub use lines::{lines, lines_csv};
pub use model::{
    HeatmapGrid, LinePlot, MeanBand, PlotError, PlotKind, PlotSettings, Plotted, PointSet, RatioSource,
    Series, SeriesPoint,
};
pub use ratio::ratio;

/// One kind of plot: its name in the view and the function that builds it.
pub struct PlotKindEntry {
    /// The kind.
    pub kind: PlotKind,
    /// Its name in the view (and in `docs/experiments.md`, in bold).
    pub label: &'static str,
    /// What it plots of a point set (for a ratio, the set [`ratio`] divided).
    pub build: fn(&PointSet, &PlotSettings) -> Result<Plotted, PlotError>,
}

/// Every kind of plot, in the order the view offers them.
pub const PLOT_KINDS: [PlotKindEntry; 5] = [
    PlotKindEntry { kind: PlotKind::Lines, label: "Lines", build: lines::plot_lines },
    PlotKindEntry { kind: PlotKind::Speedup, label: "Speedup", build: lines::plot_lines },
    PlotKindEntry { kind: PlotKind::Efficiency, label: "Efficiency", build: lines::plot_lines },
    PlotKindEntry { kind: PlotKind::Heatmap, label: "Heatmap", build: heatmap::plot_heatmap },
    PlotKindEntry { kind: PlotKind::Ratio, label: "Ratio", build: lines::plot_lines },
];

/// Its entry in [`PLOT_KINDS`].
pub fn entry_of(kind: PlotKind) -> &'static PlotKindEntry {
    PLOT_KINDS.iter().find(|e| e.kind == kind).unwrap_or(&PLOT_KINDS[0])
}

impl PlotKind {
    /// Its name in the view.
    pub fn label(self) -> &'static str {
        entry_of(self).label
    }
}

impl Plotted {
    /// The plotted values as CSV (what Export plot CSV… writes).
    pub fn csv(&self) -> String {
        match self {
            Plotted::Lines(plot) => lines_csv(plot),
            Plotted::Heatmap(grid) => heatmap_csv(grid),
        }
    }
}

/// The plot `settings` ask for, of `set` (see [`PLOT_KINDS`]).
pub fn build(set: &PointSet, settings: &PlotSettings) -> Result<Plotted, PlotError> {
    (entry_of(settings.kind).build)(set, settings)
}
