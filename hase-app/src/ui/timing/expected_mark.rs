//! The expected end of a run on the timing diagram: where the design's closed form
//! (`hase_library::expected`: the hop model, or the data sheet the network runs on) says the last rank should finish, a dashed vertical line over the
//! bars and a flag "expected 355.5 us" on the ruler, so a deviation stands out; hovering the flag
//! names the formula and where it comes from. PNG figures draw the same mark.

use egui::{Painter, Rect, Role, Sense, Shape, Stroke, Ui, WidgetInfo, pos2};
use hase_editor::session::timing::view::TimeView;
use hase_engine::time::SimTime;
use hase_library::expected::{Expected, FormSource};

use super::draw::{Geometry, flag_at};
use crate::theme::ReplayColours;

/// The flag's text: `expected 355.5 us`.
pub fn label(expected: &Expected) -> String {
    format!("expected {}", crate::ui::time_text::figure(expected.makespan))
}

/// What hovering the flag says: the formula, the calls it adds up, and its source.
pub fn source_text(expected: &Expected) -> String {
    let loop_text = if expected.calls == 1 {
        String::new()
    } else {
        format!(
            "\n{} calls of {} each, {} of computation after each",
            expected.calls,
            crate::ui::time_text::figure(expected.call),
            crate::ui::time_text::figure(expected.compute)
        )
    };
    let source = match expected.form.source {
        FormSource::HopModel => {
            "The hop model of a collective whose messages never share a link (docs/collectives.md, \
             docs/analysis.md)."
        }
        FormSource::DataSheet => {
            "The data sheet the network runs on: every rank leaves a call at the last entry plus the \
             sheet's t(p, d) (docs/datasheets.md)."
        }
    };
    format!("Closed form: {}{loop_text}\n{source}", expected.form)
}

/// Paint the mark; returns the flag's rectangle when the expected end is in view.
pub fn paint(
    painter: &Painter,
    view: &TimeView,
    g: &Geometry,
    expected: &Expected,
    colours: &ReplayColours,
) -> Option<Rect> {
    let x = view.x_of(g.bars.min.x, SimTime::as_ps(expected.makespan));
    // A fitted view ends at the run's end: a mark there may round a hair past the edge.
    if !(g.bars.min.x - 1.0..=g.bars.max.x + 1.0).contains(&x) {
        return None;
    }
    let x = x.clamp(g.bars.min.x, g.bars.max.x - 1.0);
    painter.with_clip_rect(g.bars).add(Shape::dashed_line(
        &[pos2(x, g.bars.min.y), pos2(x, g.bars.max.y)],
        Stroke::new(1.5, colours.expected),
        6.0,
        4.0,
    ));
    let ruler = painter.with_clip_rect(g.ruler);
    let text = label(expected);
    // Near the right end (where a run that meets its closed form ends) the flag reaches left.
    let leftward = x + 8.0 * text.chars().count() as f32 > g.ruler.max.x;
    let foot = pos2(x, g.ruler.max.y);
    Some(flag_at(&ruler, foot, &text, (colours.expected, colours.bar_text), leftward))
}

/// The mark on a diagram of the window: painted, with the formula on hover.
pub fn show(
    ui: &Ui,
    index: usize,
    view: &TimeView,
    g: &Geometry,
    expected: &Expected,
    colours: &ReplayColours,
) {
    let Some(rect) = paint(ui.painter(), view, g, expected, colours) else { return };
    let response =
        ui.interact(rect.intersect(g.ruler), egui::Id::unique(("expected end", index)), Sense::hover());
    let text = label(expected);
    response.widget_info(|| WidgetInfo::labeled(Role::Label, true, &text));
    response.on_hover_text(source_text(expected));
}
