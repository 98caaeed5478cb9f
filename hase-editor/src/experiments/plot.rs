//! What the experiments view plots, computed without any GUI: a metric against one variable with
//! one series per value of another (mean, with a min/max or 95 % band over repetitions), speedup
//! and efficiency against a baseline point, a heatmap of a metric over two variables, and the
//! ratio of two result sets point by point (two experiments, or two values of one variable).
//! Variables that are neither the x axis nor the series are held at one chosen value each.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::results::{PointSummary, Results, Summary};

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

impl PlotKind {
    /// Every kind, in the order the view offers them.
    pub const ALL: [PlotKind; 5] =
        [PlotKind::Lines, PlotKind::Speedup, PlotKind::Efficiency, PlotKind::Heatmap, PlotKind::Ratio];

    /// Its name in the view.
    pub fn label(self) -> &'static str {
        match self {
            PlotKind::Lines => "Lines",
            PlotKind::Speedup => "Speedup",
            PlotKind::Efficiency => "Efficiency",
            PlotKind::Heatmap => "Heatmap",
            PlotKind::Ratio => "Ratio",
        }
    }
}

/// The band drawn around each mean.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Band {
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
    pub band: Band,
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

    fn values_of(&self, variable: usize) -> Vec<String> {
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

    fn index(&self, name: &str, what: &str) -> Result<usize, String> {
        self.variables
            .iter()
            .position(|v| v == name)
            .ok_or_else(|| format!("the results have no {what} `{name}`"))
    }

    /// Points whose variables other than `free` hold their fixed (or first) value.
    fn slice(&self, free: &[usize], fixed: &BTreeMap<String, String>) -> Vec<&PointSummary> {
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

fn band(summary: &Summary, band: Band) -> (f64, f64) {
    match band {
        Band::None => (summary.mean, summary.mean),
        Band::MinMax => (summary.min, summary.max),
        Band::Ci95 => (summary.mean - summary.ci95, summary.mean + summary.ci95),
    }
}

/// The line plot of `settings` over `set` (for [`PlotKind::Lines`], `Speedup`, `Efficiency`; a
/// ratio's set comes from [`ratio`]).
pub fn lines(set: &PointSet, settings: &PlotSettings) -> Result<LinePlot, String> {
    let metric = set
        .metrics
        .iter()
        .position(|m| *m == settings.metric)
        .ok_or_else(|| format!("the results have no metric `{}`", settings.metric))?;
    let x = set.index(&settings.x, "variable")?;
    let series_var = settings.series.as_deref().map(|s| set.index(s, "variable")).transpose()?;
    let free: Vec<usize> = std::iter::once(x).chain(series_var).collect();
    let slice = set.slice(&free, &settings.fixed);
    let x_values = set.values_of(x);
    let numeric_x = x_values.iter().all(|v| v.parse::<f64>().is_ok());
    let x_of = |text: &str| -> f64 {
        if numeric_x {
            text.parse().unwrap_or(0.0)
        } else {
            x_values.iter().position(|v| v == text).unwrap_or(0) as f64
        }
    };
    let groups: Vec<(String, Vec<&PointSummary>)> = match series_var {
        Some(s) => set
            .values_of(s)
            .into_iter()
            .map(|value| {
                let members = slice.iter().copied().filter(|p| p.values.get(s) == Some(&value)).collect();
                (format!("{} = {value}", set.variables[s]), members)
            })
            .collect(),
        None => vec![(settings.metric.clone(), slice.clone())],
    };
    let baseline = match settings.baseline {
        Some(point) => Some(
            set.points
                .iter()
                .find(|p| p.point == point)
                .ok_or_else(|| format!("the baseline point {point} has no results"))?,
        ),
        None => None,
    };
    let mut series = Vec::new();
    for (name, mut members) in groups {
        members.sort_by(|a, b| x_of(&a.values[x]).total_cmp(&x_of(&b.values[x])));
        let measured: Vec<(&PointSummary, Summary)> = members
            .into_iter()
            .filter_map(|p| p.metrics.get(metric).copied().flatten().map(|s| (p, s)))
            .collect();
        let base = match baseline {
            Some(b) => b.metrics.get(metric).copied().flatten().map(|s| (b, s)),
            None => measured.first().copied(),
        };
        let mut points = Vec::new();
        for (p, s) in &measured {
            let x_text = p.values[x].clone();
            let (lo, hi) = band(s, settings.band);
            let (y, lo, hi) = match settings.kind {
                PlotKind::Lines | PlotKind::Ratio | PlotKind::Heatmap => (s.mean, lo, hi),
                PlotKind::Speedup | PlotKind::Efficiency => {
                    let Some((bp, bs)) = base else { continue };
                    // Faster is larger: a band's high end comes from the lowest time.
                    let (mut y, mut lo2, mut hi2) = (bs.mean / s.mean, bs.mean / hi, bs.mean / lo);
                    if settings.kind == PlotKind::Efficiency {
                        let (xb, xp) = (bp.values[x].parse::<f64>(), x_text.parse::<f64>());
                        let (Ok(xb), Ok(xp)) = (xb, xp) else {
                            return Err(format!(
                                "efficiency needs a numeric x variable; `{}` is not",
                                settings.x
                            ));
                        };
                        let scale = xb / xp;
                        (y, lo2, hi2) = (y * scale, lo2 * scale, hi2 * scale);
                    }
                    (y, lo2, hi2)
                }
            };
            points.push(SeriesPoint { x: x_of(&x_text), x_text, y, lo, hi, point: p.point });
        }
        if !points.is_empty() {
            series.push(Series { name, points });
        }
    }
    let y_label = match settings.kind {
        PlotKind::Speedup => format!("speedup ({})", settings.metric),
        PlotKind::Efficiency => format!("efficiency ({})", settings.metric),
        PlotKind::Ratio => format!("ratio ({})", settings.metric),
        _ => settings.metric.clone(),
    };
    Ok(LinePlot { series, x_labels: (!numeric_x).then_some(x_values), y_label })
}

/// The heatmap of the metric over `settings.x` (columns) and `settings.series` (rows).
pub fn heatmap(set: &PointSet, settings: &PlotSettings) -> Result<HeatmapGrid, String> {
    let metric = set
        .metrics
        .iter()
        .position(|m| *m == settings.metric)
        .ok_or_else(|| format!("the results have no metric `{}`", settings.metric))?;
    let column_var = set.index(&settings.x, "variable")?;
    let y_name = settings.series.as_deref().ok_or("a heatmap needs a second variable (rows)")?;
    let row_var = set.index(y_name, "variable")?;
    if column_var == row_var {
        return Err("choose two different variables for the heatmap".into());
    }
    let slice = set.slice(&[column_var, row_var], &settings.fixed);
    let (x_values, y_values) = (set.values_of(column_var), set.values_of(row_var));
    let mut cells = vec![None; x_values.len() * y_values.len()];
    let mut points = vec![None; cells.len()];
    for p in slice {
        let (Some(column), Some(row)) = (
            x_values.iter().position(|v| Some(v) == p.values.get(column_var)),
            y_values.iter().position(|v| Some(v) == p.values.get(row_var)),
        ) else {
            continue;
        };
        let i = row * x_values.len() + column;
        cells[i] = p.metrics.get(metric).copied().flatten().map(|s| s.mean);
        points[i] = Some(p.point);
    }
    Ok(HeatmapGrid { x_values, y_values, cells, points })
}

/// Numerators, denominators, the variables left and the matching key of a point.
type Sides<'a> = (
    Vec<&'a PointSummary>,
    Vec<&'a PointSummary>,
    Vec<String>,
    Box<dyn Fn(&PointSummary) -> Vec<String> + 'a>,
);

/// Numerator ÷ denominator per metric, point by point: `Split` divides two values of one
/// variable of `set` (the variable leaves the result); `other` is the second experiment's set,
/// matched on the values of every variable (both must have the same variables).
pub fn ratio(set: &PointSet, source: &RatioSource, other: Option<&PointSet>) -> Result<PointSet, String> {
    let (numerators, denominators, variables, key_of): Sides<'_> = match source {
        RatioSource::Split { variable, numerator, denominator } => {
            let v = set.index(variable, "variable")?;
            let num = set.points.iter().filter(|p| p.values.get(v) == Some(numerator)).collect();
            let den = set.points.iter().filter(|p| p.values.get(v) == Some(denominator)).collect();
            let variables =
                set.variables.iter().enumerate().filter(|(i, _)| *i != v).map(|(_, n)| n.clone()).collect();
            let key = move |p: &PointSummary| {
                p.values.iter().enumerate().filter(|(i, _)| *i != v).map(|(_, s)| s.clone()).collect()
            };
            (num, den, variables, Box::new(key))
        }
        RatioSource::Experiment(id) => {
            let other = other.ok_or_else(|| format!("experiment {id} is not loaded"))?;
            if other.variables != set.variables {
                return Err(format!(
                    "experiment {id} has other variables ({}) than this one ({})",
                    other.variables.join(", "),
                    set.variables.join(", ")
                ));
            }
            let num = set.points.iter().collect();
            let den = other.points.iter().collect();
            (num, den, set.variables.clone(), Box::new(|p: &PointSummary| p.values.clone()))
        }
    };
    let denominators: BTreeMap<Vec<String>, &PointSummary> =
        denominators.into_iter().map(|p| (key_of(p), p)).collect();
    let metric_count = set.metrics.len();
    let mut points = Vec::new();
    for n in numerators {
        let key = key_of(n);
        let Some(d) = denominators.get(&key) else { continue };
        let metrics = (0..metric_count)
            .map(|m| {
                let (a, b) = (n.metrics.get(m).copied().flatten()?, d.metrics.get(m).copied().flatten()?);
                (b.mean != 0.0).then(|| {
                    let r = a.mean / b.mean;
                    let (lo, hi) =
                        if b.max > 0.0 && b.min > 0.0 { (a.min / b.max, a.max / b.min) } else { (r, r) };
                    Summary { mean: r, min: lo, max: hi, ci95: 0.0, n: a.n.min(b.n) }
                })
            })
            .collect();
        points.push(PointSummary { values: key, metrics, ..n.clone() });
    }
    if points.is_empty() {
        return Err("no point of the numerator has a matching point in the denominator".into());
    }
    Ok(PointSet { variables, metrics: set.metrics.clone(), points })
}

/// The plot's data as CSV: one row per plotted point (series, x, y, band).
pub fn lines_csv(plot: &LinePlot) -> String {
    let mut out = String::from("series,x,y,lo,hi,point\n");
    for s in &plot.series {
        for p in &s.points {
            let quote = |t: &str| {
                if t.contains([',', '"']) { format!("\"{}\"", t.replace('"', "\"\"")) } else { t.to_string() }
            };
            let _ = writeln!(
                out,
                "{},{},{},{},{},{}",
                quote(&s.name),
                quote(&p.x_text),
                p.y,
                p.lo,
                p.hi,
                p.point
            );
        }
    }
    out
}
