//! The timing diagram's analysis layers: communication phases as translucent bands labelled with
//! their class (a click on a band's label puts O and X on its edges), and a comparison's
//! difference mode — the second diagram's rows aligned with the first's (by MPI rank or by path),
//! rows that differ marked, the stretches where aligned rows are in different states
//! highlighted, and the table of the largest per-row differences (a click scrolls and zooms both
//! diagrams to the row). The state and the analyses are `hase_editor::analysis_views`.

use std::collections::BTreeMap;
use std::sync::Arc;

use egui::{Color32, FontId, Painter, Rect, RichText, Sense, Stroke, Ui, pos2, vec2};
use hase_engine::analysis::{Align, Phase, PhaseReport};
use hase_engine::time::SimTime;

use super::context::{Diagram, TimingContext};
use super::draw::{Geometry, ROW_HEIGHT};
use super::edits::TimingEdits;
use super::view_state::TimingView;
use crate::theme::Palette;
use crate::ui::time_text;
use hase_editor::analysis_views::bands::{details, label, visible};
use hase_editor::analysis_views::difference::{Comparison, Computed, TABLE_ROWS, differing_spans};
use hase_editor::replay::Replay;
use hase_editor::session::timing::cursors::Cursors;
use hase_editor::session::timing::rows::{Row, RowKind, row_path};
use hase_editor::session::timing::view::TimeView;
use hase_editor::session::timing::{TimingCommand, TimingState};

/// Height of a band's clickable label.
const CHIP_HEIGHT: f32 = 16.0;
/// Height of the strip above the first row where the bands' labels go (so that no label covers
/// a row).
pub const LABEL_STRIP: f32 = CHIP_HEIGHT + 2.0;

/// The toggles in the timing bar: "Phases", and "Differences" when two runs are compared.
pub fn toggles(ui: &mut Ui, edits: &mut TimingEdits, cx: &TimingContext<'_>) {
    let has_source = cx.diagrams.iter().any(|d| d.source.is_some());
    let mut shown = edits.state.analysis.bands.shown;
    let toggled = ui
        .add_enabled(has_source, egui::Checkbox::new(&mut shown, "Phases"))
        .on_hover_text(
            "Communication phases as bands: loosely synchronous (exchange, shift), pipeline, tree; \
             click a band's label to put O and X on its edges",
        )
        .changed();
    if toggled {
        edits.push(TimingCommand::ShowPhases(shown));
    }
    let bands = &edits.state.analysis.bands;
    if shown && cx.diagrams.iter().filter_map(|d| d.source).any(|(id, _)| bands.is_finding(id)) {
        ui.spinner().on_hover_text("finding the phases…");
    }
    if cx.diagrams.len() == 2 {
        let both = cx.diagrams.iter().all(|d| d.source.is_some());
        let mut on = edits.state.analysis.difference.on;
        let toggled = ui
            .add_enabled(both, egui::Checkbox::new(&mut on, "Differences"))
            .on_hover_text(
                "Align the two diagrams row by row, mark what differs, list the largest differences",
            )
            .changed();
        if toggled {
            edits.push(TimingCommand::ShowDifferences(on));
        }
    }
}

/// The difference mode as the diagrams show it.
pub enum DifferenceShown {
    /// Off, or not two runs to compare.
    Off,
    /// On, the comparison not made yet (or the tolerance does not read): the table's place is
    /// kept, so that the diagrams are fitted to the width they keep.
    Waiting,
    /// On, with the comparison of the two runs.
    Ready(Arc<Computed>),
}

impl DifferenceShown {
    /// The comparison, when it is made.
    pub fn computed(&self) -> Option<Arc<Computed>> {
        match self {
            Self::Ready(c) => Some(Arc::clone(c)),
            Self::Off | Self::Waiting => None,
        }
    }
}

/// The difference mode's line under the bar (alignment, tolerance, verdict) and its comparison,
/// when it is on and two runs are shown.
pub fn difference_bar(ui: &mut Ui, edits: &mut TimingEdits, cx: &TimingContext<'_>) -> DifferenceShown {
    let [a, b] = cx.diagrams else { return DifferenceShown::Off };
    if !edits.state.analysis.difference.on {
        return DifferenceShown::Off;
    }
    let (Some((id_a, _)), Some((id_b, _))) = (a.source, b.source) else { return DifferenceShown::Off };
    let mut result = DifferenceShown::Waiting;
    ui.horizontal(|ui| {
        ui.label("Align rows by");
        let mut align = edits.state.analysis.difference.align;
        ui.selectable_value(&mut align, Align::Rank, "rank")
            .on_hover_text("Processes by MPI rank, other rows by path");
        ui.selectable_value(&mut align, Align::Path, "path").on_hover_text("Every row by instance path");
        if align != edits.state.analysis.difference.align {
            edits.push(TimingCommand::AlignRows(align));
        }
        ui.separator();
        let label = ui.label("tolerance");
        let mut tolerance = edits.state.analysis.difference.tolerance_text.clone();
        let typed = ui
            .add(egui::TextEdit::singleline(&mut tolerance).hint_text("0, 10ns, 1%").desired_width(70.0))
            .labelled_by(label.id)
            .changed();
        if typed {
            edits.push(TimingCommand::SetTolerance(tolerance));
        }
        match edits.state.analysis.difference.comparison([id_a, id_b]) {
            Ok(Comparison::Ready(c)) => {
                let verdict = if c.diff.equal {
                    RichText::new("equal within the tolerance").color(cx.palette.info)
                } else {
                    RichText::new(format!("{} rows differ", c.differing.len())).color(cx.palette.error)
                };
                ui.label(verdict);
                result = DifferenceShown::Ready(c);
            }
            Ok(Comparison::Finding) => {
                ui.spinner();
                ui.label("comparing the runs…");
            }
            Ok(Comparison::NotAsked) => {
                edits.push(TimingCommand::CompareRuns([id_a, id_b]));
                ui.spinner();
                ui.label("comparing the runs…");
            }
            Err(e) => {
                ui.label(RichText::new(e.to_string()).color(cx.palette.error));
            }
        }
    });
    result
}

/// The name a row is aligned by on side `side`: `r<rank>` or the entity's path, a group's path.
pub fn row_key(c: &Computed, side: usize, replay: &Replay, row: &Row) -> String {
    match row.kind {
        RowKind::Entity(e) => c.entity_key(side, replay, e),
        kind => row_path(replay, kind),
    }
}

/// Put the second diagram's rows in the order of the first's (rows the first lacks go last).
pub fn align_rows(
    state: &TimingState,
    c: &Computed,
    diagrams: &[Diagram<'_>],
    index: usize,
    shown: &mut [Row],
) {
    let (Some(first), true) = (diagrams.first(), index > 0) else { return };
    // Each key's first place among the first diagram's rows.
    let mut order: BTreeMap<String, usize> = BTreeMap::new();
    for (i, r) in state.rows_of(first.replay).iter().enumerate() {
        order.entry(row_key(c, 0, first.replay, r)).or_insert(i);
    }
    let replay = diagrams[index].replay;
    shown.sort_by_cached_key(|r| order.get(&row_key(c, index, replay, r)).copied().unwrap_or(usize::MAX));
}

/// The rows of diagram `index` that differ: a mark beside the bars, the stretches of time where
/// the row and its partner in the other diagram are in different states, the focused row outlined.
pub fn paint_differences(
    painter: &Painter,
    c: &Computed,
    cx: &TimingContext<'_>,
    (index, shown): (usize, &[Row]),
    g: &Geometry,
    state: &TimingState,
) {
    let (replay, other) = (cx.diagrams[index].replay, 1 - index.min(1));
    let other_replay = cx.diagrams[other].replay;
    let clip = painter.with_clip_rect(g.bars.expand2(vec2(6.0, 0.0)));
    let left = g.bars.min.x;
    let (t0, t1) = (state.view.left_ps, state.view.right_ps(g.bars.width()));
    let colour = cx.palette.error;
    for i in g.visible_rows(shown.len()) {
        let row = &shown[i];
        let key = row_key(c, index, replay, row);
        let top = g.row_top(i);
        let band = Rect::from_min_max(pos2(left, top + 1.0), pos2(g.bars.max.x, top + ROW_HEIGHT - 1.0));
        if state.analysis.difference.focus.as_deref() == Some(key.as_str()) {
            clip.rect_stroke(band, 2.0, Stroke::new(2.0, cx.palette.accent), egui::StrokeKind::Inside);
        }
        if !c.differs(&key) {
            continue;
        }
        clip.rect_filled(
            Rect::from_min_max(pos2(left - 5.0, band.min.y), pos2(left - 1.0, band.max.y)),
            1.0,
            colour,
        );
        let (RowKind::Entity(e), Some(partner)) = (row.kind, c.entity_of(other, other_replay, &key)) else {
            continue;
        };
        let (Some(mine), Some(theirs)) =
            (replay.rows.get(e as usize), other_replay.rows.get(partner as usize))
        else {
            continue;
        };
        for (s, end) in
            differing_spans((mine, names(replay, e)), (theirs, names(other_replay, partner)), t0, t1)
        {
            let (x0, x1) = (state.view.x_of(left, s), state.view.x_of(left, end));
            let r = Rect::from_min_max(pos2(x0, band.min.y + 2.0), pos2(x1.max(x0 + 1.0), band.max.y - 2.0));
            clip.rect_filled(r, 0.0, colour.gamma_multiply(0.35));
            clip.hline(r.x_range(), r.max.y, Stroke::new(1.5, colour));
        }
    }
}

/// The phases of diagram `index` as bands over its bars, each with a clickable label in the strip
/// above the first row.
pub fn phase_bands(ui: &Ui, edits: &mut TimingEdits, d: &Diagram<'_>, index: usize, g: &Geometry) {
    let Some((id, _)) = d.source else { return };
    // The phases are found on a worker thread: asked for here, drawn once they are there.
    let bands = &edits.state.analysis.bands;
    let Some(report) = bands.found(id) else {
        if !bands.is_finding(id) {
            edits.push(TimingCommand::FindPhases(id));
        }
        return;
    };
    let state = &edits.state;
    let mut clicked = None;
    let strip = Rect::from_min_max(pos2(g.bars.min.x, g.bars.min.y - LABEL_STRIP), g.bars.max);
    for (chip, phase) in paint_bands(ui.painter(), &report, &state.view, g) {
        let response = ui
            .interact(
                chip.intersect(strip),
                ui.scope_id().with(("phase-band", index, phase.number)),
                Sense::click(),
            )
            .on_hover_text(details(phase));
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label(phase)));
        if response.clicked() {
            clicked = Some(Cursors { o: Some(phase.start.as_ps()), x: Some(phase.end.as_ps()) });
        }
    }
    if let Some(cursors) = clicked {
        edits.push(TimingCommand::SetCursors(cursors));
    }
}

/// Paint the phases of `report` in view as bands over the bars of `g`, each with its labelled chip
/// in the strip of [`LABEL_STRIP`] above them; returns each chip drawn with its phase.
pub fn paint_bands<'r>(
    painter: &Painter,
    report: &'r PhaseReport,
    view: &TimeView,
    g: &Geometry,
) -> Vec<(Rect, &'r Phase)> {
    let left = g.bars.min.x;
    let (t0, t1) = (view.left_ps, view.right_ps(g.bars.width()));
    let strip = Rect::from_min_max(pos2(g.bars.min.x, g.bars.min.y - LABEL_STRIP), g.bars.max);
    let painter = painter.with_clip_rect(strip.intersect(painter.clip_rect()));
    let font = FontId::proportional(11.0);
    let mut chips = Vec::new();
    for phase in visible(report, t0, t1) {
        let colour = crate::theme::phase_colour(phase.kind);
        let x0 = view.x_of(left, phase.start.as_ps()).max(left);
        let x1 = view.x_of(left, phase.end.as_ps()).min(g.bars.max.x).max(x0 + 1.0);
        let band = Rect::from_min_max(pos2(x0, g.bars.min.y), pos2(x1, g.bars.max.y));
        painter.rect_filled(band, 0.0, colour.gamma_multiply(0.2));
        for x in [x0, x1] {
            painter.vline(x, band.y_range(), Stroke::new(1.0, colour.gamma_multiply(0.8)));
        }
        let galley = painter.layout_no_wrap(label(phase), font.clone(), Color32::WHITE);
        let chip = Rect::from_min_size(pos2(x0, strip.min.y + 1.0), vec2(galley.size().x + 8.0, CHIP_HEIGHT));
        painter.rect_filled(chip, 3.0, colour.gamma_multiply(0.9));
        painter.galley(chip.left_center() + vec2(4.0, -galley.size().y / 2.0), galley, Color32::WHITE);
        chips.push((chip, phase));
    }
    chips
}

/// Scroll and zoom both diagrams to the row clicked in the table (once per click).
pub fn go_to_focus(
    edits: &mut TimingEdits,
    view: &mut TimingView,
    c: &Computed,
    diagrams: &[Diagram<'_>],
    end: u64,
) {
    let mode = &edits.state.analysis.difference;
    if !mode.focus_pending {
        return;
    }
    let focus = mode.focus.clone();
    edits.push(TimingCommand::FocusReached);
    let Some(name) = focus else { return };
    let entities: Vec<Option<u32>> =
        diagrams.iter().enumerate().map(|(side, d)| c.entity_of(side, d.replay, &name)).collect();
    let mut groups = Vec::new();
    for (d, e) in diagrams.iter().zip(&entities) {
        if let Some(e) = e {
            for group in d.replay.groups_of(*e) {
                if let Some(info) = d.replay.header.groups.get(group as usize) {
                    groups.push(info.path.clone());
                }
            }
        }
    }
    if !groups.is_empty() {
        edits.push(TimingCommand::Unfold(groups));
    }
    let (Some(first), Some(Some(e0))) = (diagrams.first(), entities.first()) else { return };
    if let Some(i) = edits.state.rows_of(first.replay).iter().position(|r| r.kind == RowKind::Entity(*e0)) {
        view.scroll = (i as f32 - 2.0).max(0.0) * ROW_HEIGHT;
    }
    let (Some(second), Some(Some(e1))) = (diagrams.get(1), entities.get(1)) else { return };
    let (Some(a), Some(b)) = (first.replay.rows.get(*e0 as usize), second.replay.rows.get(*e1 as usize))
    else {
        return;
    };
    let spans = differing_spans((a, names(first.replay, *e0)), (b, names(second.replay, *e1)), 0, end.max(1));
    if let (Some(s), Some(e)) = (spans.first(), spans.last()) {
        let (from, to) = (s.0, e.1);
        let width = view.bars_width.max(100.0);
        let margin = (to - from) / 20 + 1;
        let mut shown = TimeView::showing(from.saturating_sub(margin), to + margin, width);
        shown.clamp(end, width);
        edits.push(TimingCommand::GoTo(shown));
    }
}

/// The table of the largest per-row differences, with the comparison's summary above it.
pub fn difference_table(ui: &mut Ui, edits: &mut TimingEdits, c: &Computed, rect: Rect, palette: &Palette) {
    let state = &edits.state;
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
    let diff = &c.diff;
    let m = &diff.summary.makespan;
    child.label(RichText::new("Largest differences (right − left)").strong());
    child.label(format!(
        "makespan {} to {} ({})",
        time_text::figure(SimTime(m.a_ps)),
        time_text::figure(SimTime(m.b_ps)),
        signed(m.diff_ps)
    ));
    child.label(format!(
        "messages {} / {}, matched {}, only left {}, only right {}",
        diff.summary.messages.0,
        diff.summary.messages.1,
        diff.events.matched,
        diff.events.only_in_a,
        diff.events.only_in_b
    ));
    if let Some(first) = &diff.events.first_timing_divergence {
        child.weak(format!(
            "first timing divergence: {} to {} #{} ({})",
            first.src,
            first.dst,
            first.occurrence,
            signed(first.end.diff_ps)
        ));
    }
    let mut clicked = None;
    egui::ScrollArea::vertical().id_salt("difference-table").auto_shrink([false, false]).show(
        &mut child,
        |ui| {
            egui::Grid::new("difference-grid").striped(true).num_columns(3).show(ui, |ui| {
                ui.strong("row");
                ui.strong("total");
                ui.strong("largest state difference");
                ui.end_row();
                for row in diff.rows.iter().filter(|r| r.difference_ps > 0).take(TABLE_ROWS) {
                    let focused = state.analysis.difference.focus.as_deref() == Some(row.name.as_str());
                    let text = RichText::new(&row.name).color(if c.differs(&row.name) {
                        palette.error
                    } else {
                        palette.text
                    });
                    if ui
                        .selectable_label(focused, text)
                        .on_hover_text("Show this row in both diagrams")
                        .clicked()
                    {
                        clicked = Some(row.name.clone());
                    }
                    ui.label(time_text::figure(SimTime(row.difference_ps)));
                    let largest = row.states.iter().max_by_key(|(_, p)| p.diff_ps.unsigned_abs());
                    ui.label(largest.map_or_else(String::new, |(s, p)| format!("{s} {}", signed(p.diff_ps))));
                    ui.end_row();
                }
            });
            if diff.rows.iter().all(|r| r.difference_ps == 0) {
                ui.weak("No row differs.");
            }
        },
    );
    if let Some(name) = clicked {
        edits.push(TimingCommand::FocusDifference(name));
    }
}

/// `+1.2 us`, `−3 ns`.
fn signed(ps: i64) -> String {
    let text = time_text::figure(SimTime(ps.unsigned_abs()));
    if ps < 0 { format!("−{text}") } else { format!("+{text}") }
}

/// The state names of entity `e`.
fn names(replay: &Replay, e: u32) -> &[String] {
    replay.header.entities.get(e as usize).map_or(&[][..], |i| &i.states[..])
}
