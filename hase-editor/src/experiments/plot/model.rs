//! The plots' data model: which plot and its choices ([`PlotSettings`]), the points plotted
//! ([`PointSet`]), what a plot shows ([`Plotted`]: lines or a heatmap grid) and why it cannot be
//! drawn ([`PlotError`]).

use std::collections::BTreeMap;

use crate::experiments::results::{PointSummary, Results};

/// Which plot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlotKind {
    /// The metric's mean against x.
    #[default]
    Lines,
    /// Baseline metric ÷ metric (a time: how many times faster).
    Speedup,
    /// Speedup ÷ (x ÷ baseline x): speedup per unit of the resource on the x axis.
    Efficiency,
    /// The metric over two variables.
    Heatmap,
    /// Numerator ÷ denominator, point by point.
    Ratio,
}

/// What a plot shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Plotted {
    /// Lines (with their bands) against x.
    Lines(LinePlot),
    /// Tiles over two variables.
    Heatmap(HeatmapGrid),
}

/// Why a plot cannot be drawn from the results.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlotError {
    /// The metric chosen is not among the results'.
    #[error("the results have no metric `{0}`")]
    NoMetric(String),
    /// A variable chosen is not among the results'.
    #[error("the results have no {what} `{name}`")]
    NoVariable {
        /// What was looked for (`variable`).
        what: &'static str,
        /// Its name.
        name: String,
    },
    /// A ratio divides one value of a variable by another, so that variable leaves the plot: it
    /// cannot also be its x axis or its lines.
    #[error(
        "the ratio divides one `{variable}` by another, so `{variable}` cannot also be {role}: divide by \
         another variable, or choose another {role}"
    )]
    RatioVariableShown {
        /// The variable divided.
        variable: String,
        /// Where the plot also has it (`x`, `Lines per`).
        role: &'static str,
    },
    /// The baseline point chosen has no results.
    #[error("the baseline point {0} has no results")]
    NoBaseline(u64),
    /// Efficiency divides by x, which must be a number.
    #[error("efficiency needs a numeric x variable; `{0}` is not")]
    NonNumericX(String),
    /// A heatmap's rows variable is not chosen.
    #[error("a heatmap needs a second variable (rows)")]
    NoRows,
    /// A heatmap's columns and rows are the same variable.
    #[error("choose two different variables for the heatmap")]
    SameVariable,
    /// A ratio's denominator is not chosen.
    #[error("choose what to divide by")]
    NoDenominator,
    /// The experiment divided by is not loaded.
    #[error("experiment {0} is not loaded")]
    NotLoaded(u64),
    /// The experiment divided by has other variables.
    #[error("experiment {id} has other variables ({theirs}) than this one ({ours})")]
    OtherVariables {
        /// Its id.
        id: u64,
        /// Its variables, comma-separated.
        theirs: String,
        /// This experiment's.
        ours: String,
    },
    /// No numerator point has a denominator.
    #[error("no point of the numerator has a matching point in the denominator")]
    NoMatch,
    /// No results are open to plot.
    #[error("no results are open")]
    NoResults,
}

/// The band drawn around each mean.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MeanBand {
    /// None.
    None,
    /// Smallest to largest repetition.
    #[default]
    MinMax,
    /// The 95 % confidence interval of the mean.
    Ci95,
}

/// What the denominator of a ratio is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RatioSource {
    /// Within this experiment: points where `variable` is `numerator` over those where it is
    /// `denominator` (the other variables equal).
    Split {
        /// The variable compared.
        variable: String,
        /// Its value on top.
        numerator: String,
        /// Its value below.
        denominator: String,
    },
    /// Another stored experiment with the same variables, matched by their values.
    Experiment(u64),
}

/// The plot's choices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlotSettings {
    /// Which plot.
    pub kind: PlotKind,
    /// The metric.
    pub metric: String,
    /// The x-axis variable.
    pub x: String,
    /// One series per value of this variable (heatmap: the y axis).
    pub series: Option<String>,
    /// The band.
    pub band: MeanBand,
    /// Logarithmic x axis.
    pub log_x: bool,
    /// Logarithmic y axis.
    pub log_y: bool,
    /// The value each other variable is held at (default: its first value).
    pub fixed: BTreeMap<String, String>,
    /// The baseline point of speedup and efficiency (`None`: each series' first point).
    pub baseline: Option<u64>,
    /// The ratio's denominator.
    pub ratio: Option<RatioSource>,
}

/// One plotted point.
#[derive(Clone, Debug, PartialEq)]
pub struct SeriesPoint {
    /// Position on the x axis (the value, or its index for words).
    pub x: f64,
    /// The x value's text.
    pub x_text: String,
    /// The plotted value.
    pub y: f64,
    /// Band bottom.
    pub lo: f64,
    /// Band top.
    pub hi: f64,
    /// The experiment point it shows (a ratio: the numerator's).
    pub point: u64,
}

/// One line.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text (`algorithm = ring`).
    pub name: String,
    /// Points by x.
    pub points: Vec<SeriesPoint>,
}

/// A line plot's data.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinePlot {
    /// The lines.
    pub series: Vec<Series>,
    /// x labels when x is not numeric (index → text).
    pub x_labels: Option<Vec<String>>,
    /// y-axis label.
    pub y_label: String,
}

/// A heatmap's data: `cells[row * x_values.len() + column]`, rows are y values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HeatmapGrid {
    /// Column values.
    pub x_values: Vec<String>,
    /// Row values.
    pub y_values: Vec<String>,
    /// Mean per cell (`None`: no point there).
    pub cells: Vec<Option<f64>>,
    /// The point of each cell.
    pub points: Vec<Option<u64>>,
}

/// Points with their variables: an experiment's, or a ratio's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PointSet {
    /// Variable names.
    pub variables: Vec<String>,
    /// Metric names.
    pub metrics: Vec<String>,
    /// The points.
    pub points: Vec<PointSummary>,
}

impl PointSet {
    /// The set of `results`.
    pub fn of(results: &Results) -> Self {
        PointSet {
            variables: results.variables.clone(),
            metrics: results.metrics.clone(),
            points: results.points(),
        }
    }

    pub(super) fn values_of(&self, variable: usize) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for p in &self.points {
            if let Some(v) = p.values.get(variable)
                && !out.contains(v)
            {
                out.push(v.clone());
            }
        }
        out
    }

    pub(super) fn index(&self, name: &str, what: &'static str) -> Result<usize, PlotError> {
        self.variables
            .iter()
            .position(|v| v == name)
            .ok_or_else(|| PlotError::NoVariable { what, name: name.to_string() })
    }

    pub(super) fn metric(&self, name: &str) -> Result<usize, PlotError> {
        self.metrics.iter().position(|m| m == name).ok_or_else(|| PlotError::NoMetric(name.to_string()))
    }

    /// Points whose variables other than `free` hold their fixed (or first) value.
    pub(super) fn slice(&self, free: &[usize], fixed: &BTreeMap<String, String>) -> Vec<&PointSummary> {
        let held: Vec<(usize, String)> = (0..self.variables.len())
            .filter(|i| !free.contains(i))
            .filter_map(|i| {
                let value = fixed
                    .get(&self.variables[i])
                    .cloned()
                    .or_else(|| self.values_of(i).into_iter().next())?;
                Some((i, value))
            })
            .collect();
        self.points.iter().filter(|p| held.iter().all(|(i, v)| p.values.get(*i) == Some(v))).collect()
    }
}
