//! One frame of the timing tab: the bar, then one diagram per entry of the context (two side by
//! side when the width allows, else stacked), each
//! with its title, labels, ruler and bars, its input, the phase bands, the critical path and the
//! differences with the other diagram; the table of differences, the critical path's blame or the
//! O–X figures on the right. The session's state
//! is read only: what the frame changes in it comes back as commands.

use egui::{Rect, Ui, pos2, vec2};

use super::context::{DiagramRequests, LABEL_WIDTH, Pane, TimingContext};
use super::draw::{self, Geometry, RULER_HEIGHT};
use super::edits::TimingEdits;
use super::view_state::TimingView;
use super::{bands_and_differences, critical_path, input, panel};
use hase_editor::analysis_views::difference::Computed;
use hase_editor::session::timing::rows;
use hase_editor::session::timing::view::TimeView;
use hase_editor::session::timing::{TimingCommand, TimingState};

/// Show the timing diagram tab: the bar, then one diagram per entry of `cx.diagrams` ([`pane_rects`]),
/// with the O–X figures on the right when asked for. `state` is the session's; `view` the widget's
/// own.
pub fn show(
    ui: &mut Ui,
    state: &TimingState,
    view: &mut TimingView,
    cx: &TimingContext<'_>,
) -> DiagramRequests {
    let TimingContext { diagrams, key, .. } = *cx;
    let mut out = DiagramRequests::default();
    if diagrams.is_empty() {
        ui.add_space(12.0);
        ui.vertical_centered(|ui| {
            ui.weak("Run a simulation (Simulate > Run, F5) to see its timing diagram.")
        });
        // Keep the dock's size while there is nothing to show.
        ui.allocate_rect(ui.available_rect_before_wrap(), egui::Sense::hover());
        return out;
    }
    let mut edits = TimingEdits::new(state);
    let end = diagrams.iter().map(|d| d.replay.end.0).max().unwrap_or(0);
    panel::bar(ui, &mut edits, view, cx, end, &mut out);
    let shown = bands_and_differences::difference_bar(ui, &mut edits, cx);
    let difference = shown.computed();
    let all = ui.available_rect_before_wrap();
    let difference_on = !matches!(shown, bands_and_differences::DifferenceShown::Off);
    let table_width = if difference_on || edits.state.analysis.critical.shown {
        380.0_f32.min(all.width() * 0.45)
    } else if edits.state.table && edits.state.cursors.interval().is_some() {
        330.0_f32.min(all.width() * 0.4)
    } else {
        0.0
    };
    let area = Rect::from_min_max(all.min, pos2(all.max.x - table_width, all.max.y));
    out.area = Some(area);
    let panes = pane_rects(area, diagrams.len());
    let bars_width = (panes[0].width() - LABEL_WIDTH).max(50.0);
    // A view showing the whole run goes on showing it when the bars' width changes (the window
    // is resized, a table beside the diagrams comes or goes); a zoomed view keeps its zoom.
    let showed_whole = edits.state.view == TimeView::fit(end, view.bars_width);
    let resized = (bars_width - view.bars_width).abs() > 0.5;
    view.bars_width = bars_width;
    if view.fitted_for != Some(key) {
        view.fitted_for = Some(key);
        edits.push(TimingCommand::Restart(TimeView::fit(end, bars_width)));
        view.scroll = 0.0;
    } else if showed_whole && resized {
        edits.push(TimingCommand::SetView(TimeView::fit(end, bars_width)));
    }
    let mut clamped = edits.state.view;
    clamped.clamp(end, view.bars_width);
    if clamped != edits.state.view {
        edits.push(TimingCommand::SetView(clamped));
    }
    if let Some(c) = &difference {
        bands_and_differences::go_to_focus(&mut edits, view, c, diagrams, end);
    }
    let mut drawn = 0;
    for (i, rect) in panes.into_iter().enumerate() {
        drawn += diagram(ui, (&mut edits, &mut *view), cx, (i, difference.as_deref()), rect, end, &mut out);
    }
    view.drawn_marks = drawn;
    if cx.stale {
        // The run is of an earlier version of the design: greyed (the bar says to run again).
        ui.painter().rect_filled(area, 0.0, cx.palette.canvas.gamma_multiply(0.6));
    }
    if table_width > 0.0 {
        let table = Rect::from_min_max(pos2(area.max.x + 6.0, all.min.y), all.max);
        match &difference {
            Some(c) => bands_and_differences::difference_table(ui, &mut edits, c, table, cx.palette),
            // The bar says the comparison is being made; its table comes here.
            None if difference_on => {}
            None if edits.state.analysis.critical.shown => {
                critical_path::blame_table(ui, (&mut edits, &mut out), &diagrams[0], table, cx);
            }
            None => panel::figures_table(ui, &edits.state, view, diagrams, table, &mut out),
        }
    }
    ui.allocate_rect(all, egui::Sense::hover());
    out.commands = edits.finish();
    out
}

/// Bars of a diagram narrower than this (points) stack two diagrams rather than set them side by
/// side.
const SIDE_BY_SIDE_BARS: f32 = 300.0;
/// Gap between two diagrams side by side.
const SIDE_GAP: f32 = 12.0;

/// Where each of `count` diagrams goes in `area`: two side by side when the width gives each
/// `SIDE_BY_SIDE_BARS` of bars (a comparison: each run under its canvas, every row of both at
/// the dock's full height, one time axis scale for both), else stacked.
pub fn pane_rects(area: Rect, count: usize) -> Vec<Rect> {
    let count = count.max(1);
    if count == 2 && area.width() >= 2.0 * (LABEL_WIDTH + SIDE_BY_SIDE_BARS) + SIDE_GAP {
        let each = (area.width() - SIDE_GAP) / 2.0;
        return (0..2)
            .map(|i| {
                Rect::from_min_size(
                    pos2(area.min.x + i as f32 * (each + SIDE_GAP), area.min.y),
                    vec2(each, area.height()),
                )
            })
            .collect();
    }
    let each = area.height() / count as f32;
    (0..count)
        .map(|i| {
            Rect::from_min_size(pos2(area.min.x, area.min.y + i as f32 * each), vec2(area.width(), each))
        })
        .collect()
}

/// Diagram `index`: title, labels, ruler and bars with their interaction, the phase bands and
/// the differences with the other diagram (`difference`, when shown). Returns marks drawn.
fn diagram(
    ui: &mut Ui,
    (edits, view): (&mut TimingEdits, &mut TimingView),
    cx: &TimingContext<'_>,
    (index, difference): (usize, Option<&Computed>),
    rect: Rect,
    end: u64,
    out: &mut DiagramRequests,
) -> usize {
    let d = &cx.diagrams[index];
    let (now_ps, colours, palette) = (cx.now_ps, cx.colours, cx.palette);
    let mut top = rect.min.y;
    if let Some(title) = &d.title {
        ui.painter().text(
            pos2(rect.min.x + 4.0, top + 2.0),
            egui::Align2::LEFT_TOP,
            title,
            egui::FontId::proportional(13.0),
            palette.text,
        );
        top += 18.0;
    }
    let ruler = Rect::from_min_max(pos2(rect.min.x + LABEL_WIDTH, top), pos2(rect.max.x, top + RULER_HEIGHT));
    // Phase labels get a strip of their own between the ruler and the first row.
    let chips = if edits.state.analysis.bands.shown { bands_and_differences::LABEL_STRIP } else { 0.0 };
    let bars = Rect::from_min_max(pos2(ruler.min.x, ruler.max.y + chips), pos2(rect.max.x, rect.max.y - 2.0));
    let labels = Rect::from_min_max(pos2(rect.min.x, bars.min.y), pos2(bars.min.x, bars.max.y));
    let mut shown = edits.state.rows_of(d.replay);
    if let Some(c) = difference {
        let mut aligned = shown.to_vec();
        bands_and_differences::align_rows(&edits.state, c, cx.diagrams, index, &mut aligned);
        shown = aligned.into();
    }
    let content = shown.len() as f32 * draw::ROW_HEIGHT;
    let g = Geometry { ruler, bars, scroll: view.scroll.clamp(0.0, (content - bars.height()).max(0.0)) };
    let selected_rows: Vec<usize> = shown
        .iter()
        .enumerate()
        // A row's path ends with its label: only rows passing that test build their path.
        .filter(|(_, r)| {
            d.selected.iter().any(|p| p.ends_with(r.label.as_str()) && *p == rows::row_path(d.replay, r.kind))
        })
        .map(|(i, _)| i)
        .collect();
    if index == 0 {
        view.highlighted = selected_rows.iter().map(|&i| rows::row_path(d.replay, shown[i].kind)).collect();
    }
    if index == 0 && d.selected != view.last_selected {
        view.last_selected.clone_from(&d.selected);
        if let Some(&first) = selected_rows.first() {
            let top = first as f32 * draw::ROW_HEIGHT;
            if top < g.scroll || top + draw::ROW_HEIGHT > g.scroll + bars.height() {
                view.scroll = (top - bars.height() / 2.0).max(0.0);
            }
        }
    }
    let mut pane =
        Pane { diagram: d, index, rows: &shown, geometry: g, labels, selected_rows: &selected_rows, end };
    input::handle(ui, (&mut *edits, &mut *view), &pane, out);
    pane.geometry.scroll = view.scroll.clamp(0.0, (content - bars.height()).max(0.0));
    view.scroll = pane.geometry.scroll;
    let g = pane.geometry;
    let painter = ui.painter();
    let state = &edits.state;
    panel::labels(painter, &pane, state, cx);
    let scene = draw::DiagramScene {
        replay: d.replay,
        rows: &shown,
        view: state.view,
        cursors: state.cursors,
        markers: &state.markers,
        now_ps,
        selected_rows: &selected_rows,
        arrows: state.arrows,
        colours,
        palette,
        strip_id: egui::Id::unique(("timing bars", index)),
    };
    let marks = draw::paint(painter, &scene, &g);
    if let Some(expected) = d.expected {
        super::expected_mark::show(ui, index, &state.view, &g, expected, colours);
    }
    if let Some(c) = difference {
        bands_and_differences::paint_differences(ui.painter(), c, cx, (index, &shown), &g, state);
    }
    if edits.state.analysis.bands.shown {
        bands_and_differences::phase_bands(ui, edits, d, index, &g);
    }
    if edits.state.analysis.critical.shown {
        critical_path::outline(ui, edits, d, &shown, &g, palette);
    }
    marks
}
