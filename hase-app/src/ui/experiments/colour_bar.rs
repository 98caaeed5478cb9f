//! The heatmap's colour bar: the colour scale ([`crate::theme::heat_colour`]) drawn upright beside
//! the tiles, lowest value at the bottom, titled with the metric and its unit (`makespan_ps
//! (ms)`) and ticked in that unit, so a tile's colour reads as a value without hovering it.

use egui::{Align2, FontId, Mesh, Pos2, Rect, Shape, Stroke, Ui};

use crate::theme::heat_colour;
use hase_editor::experiments::quantity::Axis;

/// Width the bar takes beside the plot (the scale, its ticks and their numbers).
pub const BAR_SPACE: f32 = 96.0;
/// Width of the coloured scale itself.
const SCALE_WIDTH: f32 = 16.0;
/// Intervals between ticks the range is at least cut into.
const TICK_INTERVALS: usize = 4;

/// The value range the colours span: the smallest and largest finite values, widened when they
/// are equal (a single colour still needs a range); `None` without any finite value.
pub fn value_range(values: &[f64]) -> Option<(f64, f64)> {
    let finite = values.iter().copied().filter(|v| v.is_finite());
    let (lo, hi) = finite.fold(None, |r: Option<(f64, f64)>, v| match r {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })?;
    Some(if hi > lo { (lo, hi) } else { (lo - 0.5 * lo.abs().max(1.0), hi + 0.5 * hi.abs().max(1.0)) })
}

/// The bar's title and ticks (value, text) for `metric` over `range`, in the unit of its
/// largest value: values round in that unit (1, 2 or 5 times a power of ten apart, four to
/// about eight of them) inside the range.
pub fn title_and_ticks(metric: &str, (lo, hi): (f64, f64)) -> (String, Vec<(f64, String)>) {
    let axis = Axis::new(metric, lo.abs().max(hi.abs()));
    let factor = axis.unit_factor();
    let step = round_step((hi - lo) / TICK_INTERVALS as f64 / factor) * factor;
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    let ticks =
        (first..=last.min(first + 20)).map(|k| (k as f64 * step, axis.tick(k as f64 * step, step))).collect();
    (axis.title(metric), ticks)
}

/// The round step (1, 2 or 5 times a power of ten) at or below `rough`.
fn round_step(rough: f64) -> f64 {
    if !(rough.is_finite() && rough > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(rough.log10().floor());
    let base = [5.0, 2.0, 1.0].into_iter().find(|m| m * power <= rough).unwrap_or(1.0);
    base * power
}

/// Draw the bar in `rect` (its height is the plot's) for `metric` over `range`.
pub fn show(ui: &Ui, rect: Rect, metric: &str, range: (f64, f64)) {
    let painter = ui.painter_at(rect);
    let text = ui.visuals().text_color();
    let font = FontId::proportional(12.0);
    let (title, ticks) = title_and_ticks(metric, range);
    let title_at = Pos2::new(rect.min.x + 6.0, rect.min.y + 2.0);
    let title_galley = painter.layout(title, font.clone(), text, rect.width() - 8.0);
    let title_height = title_galley.size().y;
    painter.galley(title_at, title_galley, text);
    let scale = Rect::from_min_max(
        Pos2::new(rect.min.x + 8.0, rect.min.y + title_height + 14.0),
        Pos2::new(rect.min.x + 8.0 + SCALE_WIDTH, rect.max.y - 30.0),
    );
    if scale.height() < 20.0 {
        return;
    }
    // One band a few points high per step of the scale, lowest value at the bottom.
    let steps = (scale.height() / 3.0).ceil().max(1.0) as usize;
    let mut mesh = Mesh::default();
    for k in 0..steps {
        let (y0, y1) = (k as f32 / steps as f32, (k + 1) as f32 / steps as f32);
        let band = Rect::from_x_y_ranges(
            scale.x_range(),
            scale.max.y - scale.height() * y1..=scale.max.y - scale.height() * y0,
        );
        mesh.add_colored_rect(band, heat_colour(f32::midpoint(y0, y1)));
    }
    painter.add(Shape::mesh(mesh));
    painter.rect_stroke(scale, 0.0, Stroke::new(1.0, text.gamma_multiply(0.6)), egui::StrokeKind::Outside);
    let (lo, hi) = range;
    for (value, label) in ticks {
        let y = scale.max.y - scale.height() * ((value - lo) / (hi - lo)) as f32;
        painter.line_segment(
            [Pos2::new(scale.max.x, y), Pos2::new(scale.max.x + 4.0, y)],
            Stroke::new(1.0, text),
        );
        painter.text(Pos2::new(scale.max.x + 7.0, y), Align2::LEFT_CENTER, label, font.clone(), text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::theme::{HEAT_MISSING, HEAT_SCALE};

    #[test]
    fn the_bar_is_titled_and_ticked_in_the_metrics_unit() {
        // 1 ms to 3 ms in picoseconds: ticks every half millisecond with the digit that step
        // needs, the title names ms.
        let (title, ticks) = title_and_ticks("makespan_ps", (1e9, 3e9));
        assert_eq!(title, "makespan (ms)");
        let texts: Vec<&str> = ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(texts, ["1.0", "1.5", "2.0", "2.5", "3.0"]);
        // An uneven range gets round ticks inside it: 51 us to 1.724 ms, every 0.2 ms.
        let (title, ticks) = title_and_ticks("makespan_ps", (51.18e6, 1.724e9));
        assert_eq!(title, "makespan (ms)");
        let texts: Vec<&str> = ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(texts, ["0.2", "0.4", "0.6", "0.8", "1.0", "1.2", "1.4", "1.6"]);
        assert!(ticks.iter().all(|t| t.0 >= 51.18e6 && t.0 <= 1.724e9));
        // Sizes: 1 KiB to 5 KiB, a tick every KiB.
        let (title, ticks) = title_and_ticks("link_bytes", (1024.0, 5120.0));
        assert_eq!(title, "link_bytes (KiB)");
        let texts: Vec<&str> = ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(texts, ["1", "2", "3", "4", "5"]);
        // A metric without a dimension: plain numbers, an untouched title.
        let (title, ticks) = title_and_ticks("events", (0.0, 400.0));
        assert_eq!(title, "events");
        assert_eq!(ticks.last().map(|t| t.1.as_str()), Some("400"));
    }

    #[test]
    fn the_range_spans_finite_values_and_is_never_empty() {
        assert_eq!(value_range(&[3.0, f64::NAN, 1.0, 2.0]), Some((1.0, 3.0)));
        assert_eq!(value_range(&[f64::NAN]), None);
        let (lo, hi) = value_range(&[5.0, 5.0]).unwrap();
        assert!(lo < 5.0 && hi > 5.0);
    }

    #[test]
    fn colours_run_from_the_first_stop_to_the_last() {
        assert_eq!(heat_colour(0.0), HEAT_SCALE[0]);
        assert_eq!(heat_colour(1.0), HEAT_SCALE[HEAT_SCALE.len() - 1]);
        assert_eq!(heat_colour(0.5), HEAT_SCALE[2]);
        assert_eq!(heat_colour(-3.0), HEAT_SCALE[0]);
        assert_eq!(heat_colour(f32::NAN), HEAT_MISSING);
    }
}
