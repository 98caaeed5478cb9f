//! The timing diagram (bottom dock tab): one bar per entity coloured by state, grouped by the
//! hierarchy, on a zoomable time axis with O and X cursors, named markers, message arrows, hover
//! details, the O–X figures and PNG/CSV export. Two diagrams (a comparison) share the view and the
//! cursors. The maths lives in [`view`], [`ticks`], [`lod`], [`cursors`], [`rows`] and
//! [`figures`]; painting in [`draw`] (bars as texels in [`strip`]); pointer and keys in
//! [`input`]; the bar above in [`panel`]; the phase bands and a comparison's difference mode in
//! [`analysis`].

pub mod bands_and_differences;
pub mod draw;
pub mod export;
pub mod input;
pub mod lod;
pub mod panel;
pub mod readout;
pub mod strip;
pub mod tab;
pub mod ticks;

use egui::{Rect, Ui, pos2, vec2};

use crate::theme::{Palette, ReplayColours};
use draw::{Geometry, RULER_HEIGHT};
use hase_editor::analysis_views::difference::Computed;
use hase_editor::replay::Replay;
use hase_editor::session::timing::rows::{self, Row};
use hase_editor::session::timing::view::{TimeView, ViewHistory};
use hase_editor::session::timing::{DiagramDrag, TimingState};

/// Width of the row label column.
pub const LABEL_WIDTH: f32 = 170.0;

/// One diagram to show.
pub struct Diagram<'a> {
    /// The run.
    pub replay: &'a Replay,
    /// Heading (comparisons).
    pub title: Option<String>,
    /// Paths of the entities selected on the canvas.
    pub selected: Vec<String>,
    /// The run's id and its trace (the records of a loaded file, or only the header of a run,
    /// whose records are rebuilt from the replay): what phases and differences are found in.
    pub source: Option<(u64, &'a hase_engine::trace::Trace)>,
}

/// What the timing tab shows this frame, besides the state it keeps between frames.
pub struct TimingContext<'a> {
    /// The diagrams, stacked (one, or both sides of a comparison).
    pub diagrams: &'a [Diagram<'a>],
    /// Identifies what is shown: the view is fitted when it changes.
    pub key: u64,
    /// The animator's time.
    pub now_ps: u64,
    /// The run shown is of an earlier version of the design: greyed, with a hint to run again.
    pub stale: bool,
    /// Replay colours.
    pub colours: &'a ReplayColours,
    /// Editor colours.
    pub palette: &'a Palette,
}

/// One diagram as laid out this frame, for its input handling and its labels.
pub struct Pane<'a> {
    /// The diagram.
    pub diagram: &'a Diagram<'a>,
    /// Its index among the diagrams shown.
    pub index: usize,
    /// The rows shown.
    pub rows: &'a [Row],
    /// Ruler, bars and scroll.
    pub geometry: Geometry,
    /// The label column.
    pub labels: Rect,
    /// Indices of the rows of the entities selected on the canvas.
    pub selected_rows: &'a [usize],
    /// End of the longest run shown (ps).
    pub end: u64,
}

/// What the user asked of the diagrams this frame, and where they were drawn.
#[derive(Debug, Default, PartialEq)]
pub struct DiagramRequests {
    /// Screen area of the diagrams (what a PNG export saves).
    pub area: Option<Rect>,
    /// Move the animator to this time.
    pub seek: Option<u64>,
    /// Select and show this entity (diagram index, path).
    pub select: Option<(usize, String)>,
    /// Export the visible diagram as PNG.
    pub export_png: bool,
    /// Export these O–X figures as CSV.
    pub export_csv: Option<String>,
}

/// Show the timing diagram tab: the bar, then one diagram per entry of `cx.diagrams` (stacked),
/// with the O–X figures on the right when asked for.
pub fn show(ui: &mut Ui, state: &mut TimingState, cx: &TimingContext<'_>) -> DiagramRequests {
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
    let end = diagrams.iter().map(|d| d.replay.end.0).max().unwrap_or(0);
    panel::bar(ui, state, cx, end, &mut out);
    let difference = bands_and_differences::difference_bar(ui, state, cx);
    let all = ui.available_rect_before_wrap();
    let table_width = if difference.is_some() {
        380.0_f32.min(all.width() * 0.45)
    } else if state.table && state.cursors.interval().is_some() {
        330.0_f32.min(all.width() * 0.4)
    } else {
        0.0
    };
    let area = Rect::from_min_max(all.min, pos2(all.max.x - table_width, all.max.y));
    out.area = Some(area);
    state.bars_width = (area.width() - LABEL_WIDTH).max(50.0);
    if state.fitted_for != Some(key) {
        state.fitted_for = Some(key);
        state.view = TimeView::fit(end, state.bars_width);
        state.history = ViewHistory::default();
        state.scroll = 0.0;
    }
    state.view.clamp(end, state.bars_width);
    if let Some(c) = &difference {
        bands_and_differences::go_to_focus(state, c, diagrams, end);
    }
    let each = area.height() / diagrams.len() as f32;
    let mut drawn = 0;
    for i in 0..diagrams.len() {
        let rect =
            Rect::from_min_size(pos2(area.min.x, area.min.y + i as f32 * each), vec2(area.width(), each));
        drawn += diagram(ui, state, cx, (i, difference.as_deref()), rect, end, &mut out);
    }
    state.drawn_marks = drawn;
    if cx.stale {
        // The run is of an earlier version of the design: greyed (the bar says to run again).
        ui.painter().rect_filled(area, 0.0, cx.palette.canvas.gamma_multiply(0.6));
    }
    if table_width > 0.0 {
        let table = Rect::from_min_max(pos2(area.max.x + 6.0, all.min.y), all.max);
        match &difference {
            Some(c) => bands_and_differences::difference_table(ui, state, c, table, cx.palette),
            None => panel::figures_table(ui, state, diagrams, table, &mut out),
        }
    }
    ui.allocate_rect(all, egui::Sense::hover());
    out
}

/// Diagram `index`: title, labels, ruler and bars with their interaction, the phase bands and
/// the differences with the other diagram (`difference`, when shown). Returns marks drawn.
fn diagram(
    ui: &mut Ui,
    state: &mut TimingState,
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
    let bars = Rect::from_min_max(pos2(ruler.min.x, ruler.max.y), pos2(rect.max.x, rect.max.y - 2.0));
    let labels = Rect::from_min_max(pos2(rect.min.x, bars.min.y), pos2(bars.min.x, bars.max.y));
    let mut shown = state.rows_of(d.replay);
    if let Some(c) = difference {
        bands_and_differences::align_rows(state, c, cx.diagrams, index, &mut shown);
    }
    let content = shown.len() as f32 * draw::ROW_HEIGHT;
    let g = Geometry { ruler, bars, scroll: state.scroll.clamp(0.0, (content - bars.height()).max(0.0)) };
    let selected_rows: Vec<usize> = shown
        .iter()
        .enumerate()
        .filter(|(_, r)| d.selected.iter().any(|p| *p == rows::row_path(d.replay, r.kind)))
        .map(|(i, _)| i)
        .collect();
    if index == 0 {
        state.highlighted = selected_rows.iter().map(|&i| rows::row_path(d.replay, shown[i].kind)).collect();
    }
    if index == 0 && d.selected != state.last_selected {
        state.last_selected.clone_from(&d.selected);
        if let Some(&first) = selected_rows.first() {
            let top = first as f32 * draw::ROW_HEIGHT;
            if top < g.scroll || top + draw::ROW_HEIGHT > g.scroll + bars.height() {
                state.scroll = (top - bars.height() / 2.0).max(0.0);
            }
        }
    }
    let mut pane =
        Pane { diagram: d, index, rows: &shown, geometry: g, labels, selected_rows: &selected_rows, end };
    input::handle(ui, state, &pane, out);
    pane.geometry.scroll = state.scroll.clamp(0.0, (content - bars.height()).max(0.0));
    state.scroll = pane.geometry.scroll;
    let g = pane.geometry;
    let painter = ui.painter();
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
    if let Some(c) = difference {
        bands_and_differences::paint_differences(ui.painter(), c, cx, (index, &shown), &g, state);
    }
    if state.analysis.bands.shown {
        bands_and_differences::phase_bands(ui, state, d, index, &g);
    }
    marks
}
