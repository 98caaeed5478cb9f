//! Drawing the experiments' plots with egui_plot: lines with their bands (min/max or 95 %), on
//! linear or logarithmic axes (values plotted as log10, axes labelled with the values), times and
//! sizes in the unit of the axis's largest value (named in its title), word values on the x axis by
//! name, the closed form's expected makespan dashed over each series that has one; the heatmap
//! with one labelled tile per cell and a colour bar in the metric's unit. A double-click on a
//! plotted point (or tile) asks to open that point's run. The plot's screen rectangle is kept
//! for "Export plot PNG" (returned with the point double-clicked).

use egui::Ui;
use egui_plot::{FilledArea, GridMark, Heatmap, Legend, Line, MarkerShape, Plot, PlotPoints, Points};

use hase_editor::experiments::expected_lines::ExpectedLines;
use hase_editor::experiments::plot::{HeatmapGrid, LinePlot};
use hase_editor::experiments::quantity::{Axis, value_text, variable_text};

use super::colour_bar;
use crate::theme::{EXPECTED_LINE, SERIES, heat_colour};

fn to_axis(v: f64, log: bool) -> f64 {
    if log { v.max(f64::MIN_POSITIVE).log10() } else { v }
}

/// Draw a line plot, with `overlay` lines (a fitted formula: name, points in the plot's values)
/// dashed over it, and the `expected` lines of its series from their
/// closed forms, dashed over their series in one colour under one legend entry "expected"; returns the
/// point double-clicked, if any, and the plot's rectangle.
pub fn lines(
    ui: &mut Ui,
    id: &str,
    plot: &LinePlot,
    (log_x, log_y): (bool, bool),
    x_name: &str,
    overlay: &[(String, Vec<[f64; 2]>)],
    expected: &ExpectedLines,
) -> (Option<u64>, egui::Rect) {
    let labels = plot.x_labels.clone();
    let log_x = log_x && labels.is_none();
    let largest = |value: fn(&hase_editor::experiments::plot::SeriesPoint) -> f64| {
        plot.series.iter().flat_map(|s| s.points.iter().map(value)).fold(0.0_f64, |m, v| m.max(v.abs()))
    };
    let x_axis = Axis::new(x_name, largest(|p| p.x));
    let y_axis = Axis::new(&plot.y_label, largest(|p| p.hi.max(p.y)));
    let (x_title, y_title) = (x_axis.title(x_name), y_axis.title(&plot.y_label));
    let (x_factor, y_factor) = (x_axis.unit_factor(), y_axis.unit_factor());
    let (x_bytes, y_bytes) = (x_axis.is_bytes(), y_axis.is_bytes());
    let plotted: Vec<[f64; 2]> = plot
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| [to_axis(p.x, log_x), to_axis(p.y, log_y)]))
        .collect();
    let mut chart = Plot::new(id)
        .legend(Legend::default().position(legend_corner(&plotted)))
        .allow_double_click_reset(false)
        .x_axis_label(if log_x { x_axis.log_title(x_name) } else { x_title })
        .y_axis_label(if log_y { y_axis.log_title(&plot.y_label) } else { y_title })
        .y_axis_min_width(56.0)
        .x_axis_formatter(move |mark: GridMark, _range| match &labels {
            Some(words) => {
                let i = mark.value.round();
                if (mark.value - i).abs() < 1e-6 && i >= 0.0 {
                    words.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            }
            None if log_x => x_axis.log_tick(10f64.powf(mark.value)),
            None => x_axis.tick(mark.value, mark.step_size),
        })
        .y_axis_formatter(move |mark: GridMark, _range| {
            if log_y {
                y_axis.log_tick(10f64.powf(mark.value))
            } else {
                y_axis.tick(mark.value, mark.step_size)
            }
        });
    if log_x && x_bytes {
        chart = chart.x_grid_spacer(|input| octave_marks(input.bounds));
    } else if log_x {
        chart = chart.x_grid_spacer(decimal_log_marks);
    } else if plot.x_labels.is_none() {
        chart = chart.x_grid_spacer(unit_grid(x_factor));
    }
    if log_y && y_bytes {
        chart = chart.y_grid_spacer(|input| octave_marks(input.bounds));
    } else if log_y {
        chart = chart.y_grid_spacer(decimal_log_marks);
    } else {
        chart = chart.y_grid_spacer(unit_grid(y_factor));
    }
    let response = chart.show(ui, |plot_ui| {
        for (i, s) in plot.series.iter().enumerate() {
            let colour = SERIES[i % SERIES.len()];
            let xs: Vec<f64> = s.points.iter().map(|p| to_axis(p.x, log_x)).collect();
            let has_band = s.points.iter().any(|p| p.hi > p.lo);
            if has_band {
                let lo: Vec<f64> = s.points.iter().map(|p| to_axis(p.lo, log_y)).collect();
                let hi: Vec<f64> = s.points.iter().map(|p| to_axis(p.hi, log_y)).collect();
                plot_ui.add(
                    FilledArea::new(&s.name, &xs, &lo, &hi)
                        .fill_color(colour.gamma_multiply(0.25))
                        .allow_hover(false),
                );
            }
            let pts: Vec<[f64; 2]> =
                s.points.iter().zip(&xs).map(|(p, x)| [*x, to_axis(p.y, log_y)]).collect();
            plot_ui.add(Line::new(&s.name, PlotPoints::new(pts.clone())).color(colour).width(2.0));
            plot_ui.add(
                Points::new(&s.name, PlotPoints::new(pts))
                    .color(colour)
                    .radius(3.5)
                    .shape(MarkerShape::Circle),
            );
        }
        for (_, points) in &expected.lines {
            let pts: Vec<[f64; 2]> =
                points.iter().map(|[x, y]| [to_axis(*x, log_x), to_axis(*y, log_y)]).collect();
            plot_ui.add(
                Line::new("expected", PlotPoints::new(pts))
                    .color(EXPECTED_LINE)
                    .width(2.0)
                    .style(egui_plot::LineStyle::dashed_loose()),
            );
        }
        for (i, (name, points)) in overlay.iter().enumerate() {
            let colour = SERIES[i % SERIES.len()];
            let pts: Vec<[f64; 2]> =
                points.iter().map(|[x, y]| [to_axis(*x, log_x), to_axis(*y, log_y)]).collect();
            plot_ui.add(
                Line::new(name, PlotPoints::new(pts))
                    .color(colour)
                    .width(1.5)
                    .style(egui_plot::LineStyle::dashed_dense()),
            );
        }
    });
    let rect = response.response.rect;
    if !response.response.double_clicked() {
        return (None, rect);
    }
    let Some(pointer) = response.response.interact_pointer_pos() else { return (None, rect) };
    let transform = response.transform;
    let mut best: Option<(f32, u64)> = None;
    for s in &plot.series {
        for p in &s.points {
            let at = transform
                .position_from_point(&egui_plot::PlotPoint::new(to_axis(p.x, log_x), to_axis(p.y, log_y)));
            let d = at.distance(pointer);
            if d < 14.0 && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, p.point));
            }
        }
    }
    (best.map(|(_, point)| point), rect)
}

/// Draw a heatmap with its colour bar on the right; returns the point of the tile
/// double-clicked, if any, and the rectangle of the plot and its bar.
pub fn heatmap(
    ui: &mut Ui,
    id: &str,
    grid: &HeatmapGrid,
    (x_name, y_name): (&str, &str),
    metric: &str,
) -> (Option<u64>, egui::Rect) {
    let cols = grid.x_values.len();
    let values: Vec<f64> = grid.cells.iter().map(|c| c.unwrap_or(f64::NAN)).collect();
    // Values in their units (`16 KiB`, not `16384`), as in the table.
    let in_unit = |name: &str, words: &[String]| -> Vec<String> {
        words.iter().map(|w| variable_text(name, w)).collect()
    };
    let (xs, ys) = (in_unit(x_name, &grid.x_values), in_unit(y_name, &grid.y_values));
    let tick = |words: &[String], v: f64| {
        let i = (v - 0.5).round();
        if (v - 0.5 - i).abs() < 1e-6 && i >= 0.0 {
            words.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let metric_name = metric.to_string();
    // The colours span the finite values; the colour bar beside the tiles reads them back.
    let range = colour_bar::value_range(&values);
    let (lo, hi) = range.unwrap_or((0.0, 1.0));
    let size = ui.available_size();
    let bar_space = if range.is_some() { colour_bar::BAR_SPACE } else { 0.0 };
    let inner = ui.horizontal_top(|ui| {
        let response = Plot::new(id)
            .width((size.x - bar_space - ui.spacing().item_spacing.x).max(120.0))
            .height(size.y.max(120.0))
            .allow_double_click_reset(false)
            .x_axis_label(x_name.to_string())
            .y_axis_label(y_name.to_string())
            .y_axis_min_width(72.0)
            .show_grid(false)
            .x_grid_spacer(|input| half_marks(input.bounds))
            .y_grid_spacer(|input| half_marks(input.bounds))
            .x_axis_formatter(move |mark: GridMark, _| tick(&xs, mark.value))
            .y_axis_formatter(move |mark: GridMark, _| tick(&ys, mark.value))
            .show(ui, |plot_ui| {
                plot_ui.add(
                    Heatmap::new(values, cols.max(1))
                        .custom_mapping(Box::new(move |v| heat_colour(((v - lo) / (hi - lo)) as f32)))
                        .formatter(Box::new(move |v| {
                            if v.is_nan() { "–".into() } else { value_text(&metric_name, v) }
                        }))
                        .name("heatmap"),
                );
            });
        let mut rect = response.response.rect;
        if let Some(range) = range {
            let (bar, _) = ui.allocate_exact_size(egui::vec2(bar_space, rect.height()), egui::Sense::hover());
            colour_bar::show(ui, bar, metric, range);
            rect = rect.union(bar);
        }
        (response, rect)
    });
    let (response, rect) = inner.inner;
    if !response.response.double_clicked() || cols == 0 {
        return (None, rect);
    }
    let Some(pointer) = response.response.interact_pointer_pos() else { return (None, rect) };
    let at = response.transform.value_from_position(pointer);
    let (column, row) = (at.x.floor(), at.y.floor());
    if column < 0.0 || row < 0.0 || column as usize >= cols {
        return (None, rect);
    }
    (grid.points.get(row as usize * cols + column as usize).copied().flatten(), rect)
}

/// Grid marks at the centres of tiles (x.5), where the axis labels go.
/// Grid marks at round steps of the axis's unit (a KiB axis ticks at 10, 20, 30 KiB, not at
/// 10,000-byte steps that read 9.77, 19.5, 29.3 KiB): egui_plot's decimal spacer applied to the
/// values in the unit, `factor` being the unit's size in the plotted values.
fn unit_grid(factor: f64) -> impl Fn(egui_plot::GridInput) -> Vec<GridMark> {
    let decimal = egui_plot::log_grid_spacer(10);
    move |input| {
        let factor = if factor > 0.0 { factor } else { 1.0 };
        let scaled = egui_plot::GridInput {
            bounds: (input.bounds.0 / factor, input.bounds.1 / factor),
            base_step_size: input.base_step_size / factor,
        };
        decimal(scaled)
            .into_iter()
            .map(|m| GridMark { value: m.value * factor, step_size: m.step_size * factor })
            .collect()
    }
}

/// Marks of a log axis of sizes (values plotted as log10) at powers of two: every octave, or every
/// second, fourth … when that gives more than [`MOST_OCTAVE_MARKS`] marks in `bounds`, so that the
/// labels read 1 KiB, 2 KiB, 4 KiB … rather than 1000 B, 9.766 KiB, 97.66 KiB.
fn octave_marks(bounds: (f64, f64)) -> Vec<GridMark> {
    let octave = std::f64::consts::LOG10_2;
    let (first, last) = ((bounds.0 / octave).ceil(), (bounds.1 / octave).floor());
    if !(first.is_finite() && last.is_finite()) || last < first {
        return Vec::new();
    }
    let mut stride = 1.0;
    while (last - first) / stride + 1.0 > MOST_OCTAVE_MARKS && stride < 1024.0 {
        stride *= 2.0;
    }
    let start = (first / stride).ceil() * stride;
    let count = ((last - start) / stride).floor().max(-1.0) as i64 + 1;
    (0..count)
        .map(|i| GridMark { value: (start + i as f64 * stride) * octave, step_size: stride * octave })
        .collect()
}

/// Marks of a log axis (values plotted as log10): egui_plot's powers of ten over a decade or more;
/// over less, where those would fall at 0.631 and 0.794, round values 1, 2 or 5 × 10ⁿ apart
/// (0.6, 0.7, 0.8 …), about [`NARROW_LOG_MARKS`] of them.
fn decimal_log_marks(input: egui_plot::GridInput) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    if !(lo.is_finite() && hi.is_finite()) || hi - lo >= 1.0 {
        return egui_plot::log_grid_spacer(10)(input);
    }
    let (from, to) = (10f64.powf(lo), 10f64.powf(hi));
    let rough = (to - from) / NARROW_LOG_MARKS;
    let decade = 10f64.powf(rough.log10().floor());
    let step =
        [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * decade).find(|s| *s >= rough).unwrap_or(decade * 10.0);
    let first = (from / step).ceil();
    let count = ((to / step).floor() - first).max(-1.0) as i64 + 1;
    let step_size = (hi - lo) / NARROW_LOG_MARKS;
    (0..count).map(|i| GridMark { value: ((first + i as f64) * step).log10(), step_size }).collect()
}

/// About how many marks [`decimal_log_marks`] puts on a log axis that spans less than a decade.
const NARROW_LOG_MARKS: f64 = 5.0;

/// The most marks [`octave_marks`] puts on an axis.
const MOST_OCTAVE_MARKS: f64 = 12.0;

fn half_marks(bounds: (f64, f64)) -> Vec<GridMark> {
    let (lo, hi) = bounds;
    let first = (lo - 0.5).ceil().max(0.0) as i64;
    let last = (hi - 0.5).floor() as i64;
    (first..=last.min(first + 200)).map(|i| GridMark { value: i as f64 + 0.5, step_size: 1.0 }).collect()
}

/// The corner of the plot the legend covers the fewest of `points` in (the plot's values): each
/// corner's share is the third of the range nearest it on both axes; on a tie the first of top
/// left, top right, bottom right, bottom left.
fn legend_corner(points: &[[f64; 2]]) -> egui_plot::Corner {
    use egui_plot::Corner;
    let range = |axis: usize| {
        let values = points.iter().map(|p| p[axis]).filter(|v| v.is_finite());
        let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
        move |v: f64| if hi > lo { (v - lo) / (hi - lo) } else { 0.5 }
    };
    let (x, y) = (range(0), range(1));
    let near = |corner: Corner, p: &[f64; 2]| {
        let (fx, fy) = (x(p[0]), y(p[1]));
        let left = fx <= 1.0 / 3.0;
        let right = fx >= 2.0 / 3.0;
        let top = fy >= 2.0 / 3.0;
        let bottom = fy <= 1.0 / 3.0;
        match corner {
            Corner::LeftTop => left && top,
            Corner::RightTop => right && top,
            Corner::RightBottom => right && bottom,
            Corner::LeftBottom => left && bottom,
        }
    };
    [Corner::LeftTop, Corner::RightTop, Corner::RightBottom, Corner::LeftBottom]
        .into_iter()
        .min_by_key(|&corner| points.iter().filter(|p| near(corner, p)).count())
        .unwrap_or(Corner::LeftTop)
}

#[cfg(test)]
mod tests {
    use egui_plot::Corner;

    use super::{decimal_log_marks, legend_corner, octave_marks, unit_grid};

    #[test]
    fn a_narrow_log_axis_is_marked_at_round_values() {
        let marks = |from: f64, to: f64| -> Vec<f64> {
            let input = egui_plot::GridInput { bounds: (from.log10(), to.log10()), base_step_size: 0.01 };
            decimal_log_marks(input).iter().map(|m| (10f64.powf(m.value) * 1e6).round() / 1e6).collect()
        };
        // A ratio between 0.6 and 0.97: 0.6, 0.7, 0.8, 0.9 rather than 0.631 and 0.794.
        assert_eq!(marks(0.6, 0.97), [0.6, 0.7, 0.8, 0.9]);
        assert_eq!(marks(12.0, 95.0), [20.0, 40.0, 60.0, 80.0]);
        // A decade or more: powers of ten (egui_plot's own marks include them).
        let wide = marks(0.9, 1100.0);
        assert!([1.0, 10.0, 100.0, 1000.0].iter().all(|v| wide.contains(v)), "{wide:?}");
    }

    /// The sizes a log axis of bytes marks, from bounds in log10 of bytes.
    fn marked_bytes(from: f64, to: f64) -> Vec<u64> {
        octave_marks((from.log10(), to.log10())).iter().map(|m| 10f64.powf(m.value).round() as u64).collect()
    }

    #[test]
    fn a_log_axis_of_bytes_is_marked_at_powers_of_two() {
        // 1 KiB to 1 MiB: every octave, 11 marks.
        let k = 1024;
        assert_eq!(
            marked_bytes(1000.0, 1.1e6),
            [k, 2 * k, 4 * k, 8 * k, 16 * k, 32 * k, 64 * k, 128 * k, 256 * k, 512 * k, k * k]
        );
        // 1 B to 1 MiB: 21 octaves, so every second one.
        let wide = marked_bytes(0.9, 1.1e6);
        assert_eq!(wide.first(), Some(&1));
        assert_eq!(wide.last(), Some(&(k * k)));
        assert!(wide.windows(2).all(|w| w[1] == 4 * w[0]), "{wide:?}");
        // Nothing to mark inside one octave's gap, and nothing for empty bounds.
        assert!(marked_bytes(1100.0, 1900.0).is_empty());
        assert!(octave_marks((3.0, 2.0)).is_empty());
    }

    #[test]
    fn the_legend_goes_where_the_points_are_not() {
        // Rising data leaves the top left free.
        let rising = [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]];
        assert_eq!(legend_corner(&rising), Corner::LeftTop);
        // A ratio that starts high and falls: the top left holds the first point, the top right
        // is free.
        let falling = [[1.0, 4.0], [2.0, 3.0], [3.0, 2.0], [4.0, 1.0]];
        assert_eq!(legend_corner(&falling), Corner::RightTop);
        // Points in both top corners: the bottom right.
        let valley = [[1.0, 4.0], [2.0, 1.0], [2.5, 1.2], [4.0, 4.0]];
        assert_eq!(legend_corner(&valley), Corner::RightBottom);
        assert_eq!(legend_corner(&[]), Corner::LeftTop);
    }

    /// On a KiB axis (factor 1024) every mark is a whole multiple of its step, and every step a
    /// power of ten KiB: the labelled marks read 0, 10, 20, 30 KiB.
    #[test]
    fn a_binary_unit_axis_ticks_at_round_numbers_of_its_unit() {
        let input = egui_plot::GridInput { bounds: (0.0, 33.0 * 1024.0), base_step_size: 100.0 };
        let marks = unit_grid(1024.0)(input);
        assert!(!marks.is_empty());
        for m in &marks {
            let steps = m.value / m.step_size;
            assert!((steps - steps.round()).abs() < 1e-9, "a mark at {} KiB", m.value / 1024.0);
            let decade = (m.step_size / 1024.0).log10();
            assert!((decade - decade.round()).abs() < 1e-9, "a step of {} KiB", m.step_size / 1024.0);
        }
        let tens: Vec<f64> = marks
            .iter()
            .filter(|m| (m.step_size - 10.0 * 1024.0).abs() < 1e-9)
            .map(|m| m.value / 1024.0)
            .collect();
        assert_eq!(tens, [0.0, 10.0, 20.0, 30.0]);
    }
}
