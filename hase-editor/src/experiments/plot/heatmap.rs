//! The heatmap: a metric's mean over two variables, one tile per point.

use std::fmt::Write as _;

use super::model::{HeatmapGrid, PlotError, PlotSettings, Plotted, PointSet};

/// The registered plot of `PlotKind::Heatmap`.
pub(super) fn plot_heatmap(set: &PointSet, settings: &PlotSettings) -> Result<Plotted, PlotError> {
    heatmap(set, settings).map(Plotted::Heatmap)
}

/// The heatmap of the metric over `settings.x` (columns) and `settings.series` (rows).
pub fn heatmap(set: &PointSet, settings: &PlotSettings) -> Result<HeatmapGrid, PlotError> {
    let metric = set.metric(&settings.metric)?;
    let column_var = set.index(&settings.x, "variable")?;
    let y_name = settings.series.as_deref().ok_or(PlotError::NoRows)?;
    let row_var = set.index(y_name, "variable")?;
    if column_var == row_var {
        return Err(PlotError::SameVariable);
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

/// The grid as CSV: one row per cell (row value, column value, mean; empty where no point).
pub fn heatmap_csv(grid: &HeatmapGrid) -> String {
    let mut text = String::from("row,column,value\n");
    for (r, y) in grid.y_values.iter().enumerate() {
        for (c, x) in grid.x_values.iter().enumerate() {
            let v = grid.cells[r * grid.x_values.len() + c].map_or(String::new(), |v| v.to_string());
            let _ = writeln!(text, "{y},{x},{v}");
        }
    }
    text
}
