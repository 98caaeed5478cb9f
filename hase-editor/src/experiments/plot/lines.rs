//! Line plots: a metric's mean against x, one line per value of the series variable, with its
//! band; speedup and efficiency against a baseline; a ratio's set drawn the same way.

use super::model::{
    LinePlot, MeanBand, PlotError, PlotKind, PlotSettings, Plotted, PointSet, Series, SeriesPoint,
};
use crate::experiments::quantity::without_ps;
use crate::experiments::results::{MetricSummary, PointSummary};

/// The registered plot of [`PlotKind::Lines`], `Speedup`, `Efficiency` and `Ratio`.
pub(super) fn plot_lines(set: &PointSet, settings: &PlotSettings) -> Result<Plotted, PlotError> {
    lines(set, settings).map(Plotted::Lines)
}

fn band(summary: &MetricSummary, band: MeanBand) -> (f64, f64) {
    match band {
        MeanBand::None => (summary.mean, summary.mean),
        MeanBand::MinMax => (summary.min, summary.max),
        MeanBand::Ci95 => (summary.mean - summary.ci95, summary.mean + summary.ci95),
    }
}

/// The line plot of `settings` over `set` (for [`PlotKind::Lines`], `Speedup`, `Efficiency`; a
/// ratio's set comes from the `ratio` module).
pub fn lines(set: &PointSet, settings: &PlotSettings) -> Result<LinePlot, PlotError> {
    let metric = set.metric(&settings.metric)?;
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
        Some(point) => {
            Some(set.points.iter().find(|p| p.point == point).ok_or(PlotError::NoBaseline(point))?)
        }
        None => None,
    };
    let mut series = Vec::new();
    for (name, mut members) in groups {
        members.sort_by(|a, b| x_of(&a.values[x]).total_cmp(&x_of(&b.values[x])));
        let measured: Vec<(&PointSummary, MetricSummary)> = members
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
                            return Err(PlotError::NonNumericX(settings.x.clone()));
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
    // A speedup, efficiency or ratio has no unit: its title names the metric without `_ps`.
    let of = without_ps(&settings.metric);
    let y_label = match settings.kind {
        PlotKind::Speedup => format!("speedup ({of})"),
        PlotKind::Efficiency => format!("efficiency ({of})"),
        PlotKind::Ratio => format!("ratio ({of})"),
        _ => settings.metric.clone(),
    };
    Ok(LinePlot { series, x_labels: (!numeric_x).then_some(x_values), y_label })
}

/// The plot's data as CSV: one row per plotted point (series, x, y, band).
pub fn lines_csv(plot: &LinePlot) -> String {
    let header = ["series", "x", "y", "lo", "hi", "point"].map(String::from).to_vec();
    let points = plot.series.iter().flat_map(|s| {
        s.points.iter().map(|p| {
            vec![
                s.name.clone(),
                p.x_text.clone(),
                p.y.to_string(),
                p.lo.to_string(),
                p.hi.to_string(),
                p.point.to_string(),
            ]
        })
    });
    crate::csv_text::csv_text(&std::iter::once(header).chain(points).collect::<Vec<_>>())
}
