//! The parts of the timing tab around the bars: the bar of buttons (fit, zoom to O–X, view back and
//! forward, filter, toggles, markers, export), the O/X readout, the row labels (with fold arrows,
//! selection and each row's state at the animator's time) and the table of O–X figures.

use std::sync::Arc;

use egui::{Align2, Color32, FontId, Painter, Rect, RichText, Stroke, Ui, pos2, vec2};
use hase_engine::time::SimTime;

use super::context::{Diagram, DiagramRequests, Pane, TimingContext};
use super::draw::ROW_HEIGHT;
use super::edits::TimingEdits;
use super::readout::readout;
use super::view_state::{FiguresCache, TimingView};
use crate::ui::time_text;
use hase_editor::session::timing::figures::{figures, to_csv};
use hase_editor::session::timing::rows::{Row, RowKind, intervals};
use hase_editor::session::timing::{TimingCommand, TimingState};

/// Shown beside the readout while the run is of an earlier version of the design.
pub const STALE_HINT: &str = "earlier design: Run (F5) again";

/// The bar above the diagrams and the readout line.
pub fn bar(
    ui: &mut Ui,
    edits: &mut TimingEdits,
    view: &mut TimingView,
    cx: &TimingContext<'_>,
    end: u64,
    out: &mut DiagramRequests,
) {
    let (diagrams, now_ps) = (cx.diagrams, cx.now_ps);
    ui.horizontal_wrapped(|ui| {
        if ui.button("Fit").on_hover_text("Show the whole run").clicked() {
            edits.push(TimingCommand::GoTo(TimingState::fitted_view(end, view.bars_width)));
        }
        let has_interval = edits.state.cursors.interval().is_some_and(|(a, b)| b > a);
        if ui
            .add_enabled(has_interval, egui::Button::new("Zoom O–X"))
            .on_hover_text("Show the interval between the cursors (Z)")
            .clicked()
            && let Some(v) = edits.state.cursors_view(end, view.bars_width)
        {
            edits.push(TimingCommand::GoTo(v));
        }
        let history = &edits.state.history;
        let (back, forward) = (history.can_go_back(), history.can_go_forward());
        if ui
            .add_enabled(back, egui::Button::new(RichText::new("◀").monospace()))
            .on_hover_text("Previous view")
            .clicked()
        {
            edits.push(TimingCommand::Back);
        }
        if ui
            .add_enabled(forward, egui::Button::new(RichText::new("▶").monospace()))
            .on_hover_text("Next view")
            .clicked()
        {
            edits.push(TimingCommand::Forward);
        }
        ui.separator();
        let mut filter = edits.state.filter.clone();
        let typed = ui
            .add(
                egui::TextEdit::singleline(&mut filter)
                    .hint_text("find: p2, r_12_*, fabric/*")
                    .desired_width(190.0)
                    // The rows filter as the user types; Enter keeps the focus here, so that
                    // keys typed next (Ctrl+A) edit the search, not the design.
                    .return_key(None),
            )
            .on_hover_text(
                "Find rows: a whole name (p2 finds p2, not p20), a pattern with * and ? (r_12_*, \
                 fabric/*), or any part of a path or of a state's name",
            )
            .changed();
        if typed {
            edits.push(TimingCommand::SetFilter(filter));
        }
        let groups: Vec<String> =
            diagrams.iter().flat_map(|d| d.replay.header.groups.iter().map(|g| g.path.clone())).collect();
        if !groups.is_empty() {
            if ui.button("Unfold all").on_hover_text("Show the rows inside every compound").clicked() {
                edits.push(TimingCommand::Unfold(groups));
            }
            if ui.button("Fold all").on_hover_text("One summary row per compound (▶ unfolds one)").clicked()
            {
                edits.push(TimingCommand::FoldAll);
            }
            ui.separator();
        }
        let (mut arrows, mut params, mut table) = (edits.state.arrows, edits.state.params, edits.state.table);
        if ui.checkbox(&mut arrows, "Messages").on_hover_text("Arrows from sender to receiver").changed() {
            edits.push(TimingCommand::ShowArrows(arrows));
        }
        let params_hint = "Rows for traced live values: a run traces them when the design displays one \
                           (inspector ▸ Live values) and the trace level is 3 or lower";
        if ui.checkbox(&mut params, "Parameters").on_hover_text(params_hint).changed() {
            edits.push(TimingCommand::ShowParams(params));
        }
        let figures_hint = "Time per state and messages between O and X";
        if ui.checkbox(&mut table, "O–X figures").on_hover_text(figures_hint).changed() {
            edits.push(TimingCommand::ShowFigures(table));
        }
        super::bands_and_differences::toggles(ui, edits, cx);
        super::critical_path::toggles(ui, edits, cx);
        ui.separator();
        if ui.button("+ Marker").on_hover_text("Add a named marker at O, or at the animator's time").clicked()
        {
            edits.push(TimingCommand::AddMarker(edits.state.cursors.o.unwrap_or(now_ps)));
        }
        markers_menu(ui, edits, out);
        ui.separator();
        if ui.button("PNG…").on_hover_text("Save the visible diagram as an image").clicked() {
            out.export_png = true;
        }
        if ui
            .add_enabled(has_interval, egui::Button::new("CSV…"))
            .on_hover_text("Save the O–X figures of every row")
            .clicked()
            && let Some((a, b)) = edits.state.cursors.interval()
        {
            let mut text = String::new();
            for d in diagrams {
                let shown = edits.state.rows_of(d.replay);
                text.push_str(&to_csv(&figures(d.replay, &shown, a, b), a, b));
            }
            out.export_csv = Some(text);
        }
    });
    let state = &edits.state;
    let resolution = state.resolution_ps();
    ui.horizontal(|ui| {
        ui.label(RichText::new(readout(&state.cursors, resolution)).monospace());
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.weak(format!("animator at {}", time_text::at(SimTime(now_ps), resolution)));
            if cx.stale {
                ui.label(RichText::new(STALE_HINT).color(cx.palette.warning));
            }
        });
    });
}

fn markers_menu(ui: &mut Ui, edits: &mut TimingEdits, out: &mut DiagramRequests) {
    let state = &edits.state;
    let resolution = state.resolution_ps();
    let label = format!("Markers ({})", state.markers.len());
    let mut asked = Vec::new();
    ui.menu_button(label, |ui| {
        if let Some(note) = &state.markers_note {
            ui.weak(note);
        }
        if state.markers.is_empty() {
            ui.weak("No markers: + Marker adds one.");
        }
        let mut remove = None;
        for (i, m) in state.markers.iter().enumerate() {
            ui.horizontal(|ui| {
                let mut name = m.name.clone();
                if ui.add(egui::TextEdit::singleline(&mut name).desired_width(90.0)).changed() {
                    asked.push(TimingCommand::RenameMarker { index: i, name });
                }
                let at = time_text::at(SimTime(m.time_ps), resolution);
                if ui.button(at).on_hover_text("Move the animator here").clicked() {
                    out.seek = Some(m.time_ps);
                }
                if ui.small_button("×").on_hover_text("Remove").clicked() {
                    remove = Some(i);
                }
            });
        }
        if let Some(i) = remove {
            asked.push(TimingCommand::RemoveMarker(i));
        }
    });
    for command in asked {
        edits.push(command);
    }
}

/// Paint the row labels of `pane`: indentation, fold arrow of groups, name, and a swatch of the
/// state at the animator's time.
#[allow(clippy::many_single_char_names, reason = "g geometry, r row, x position, c centre")]
pub fn labels(painter: &Painter, pane: &Pane<'_>, state: &TimingState, cx: &TimingContext<'_>) {
    let (replay, shown, g, rect, selected) =
        (pane.diagram.replay, pane.rows, &pane.geometry, pane.labels, pane.selected_rows);
    let (now_ps, colours, palette) = (cx.now_ps, cx.colours, cx.palette);
    let clip = painter.with_clip_rect(rect);
    let font = FontId::proportional(12.0);
    for i in g.visible_rows(shown.len()) {
        let row = &shown[i];
        let top = g.row_top(i);
        let r = Rect::from_min_size(pos2(rect.min.x, top), vec2(rect.width(), ROW_HEIGHT));
        if selected.contains(&i) {
            clip.rect_filled(r, 0.0, colours.row_selected);
        } else if i % 2 == 1 {
            clip.rect_filled(r, 0.0, colours.row_alt);
        }
        let mut x = r.min.x + 4.0 + f32::from(row.depth) * 12.0;
        let swatch = Rect::from_min_size(pos2(x, top + 4.0), vec2(8.0, ROW_HEIGHT - 8.0));
        let now_state = intervals(replay, row.kind).and_then(|iv| iv.at(now_ps).map(|k| iv.state[k]));
        let swatch_colour = match (row.kind, now_state) {
            (RowKind::Entity(e), Some(s)) => colours.state(replay.state_name(e, s)),
            (RowKind::Group(_), Some(_)) => colours.busy,
            (RowKind::Param(_), Some(s)) => colours.states[usize::from(s) % colours.states.len()],
            _ => Color32::TRANSPARENT,
        };
        if let RowKind::Group(gr) = row.kind {
            let path = &replay.header.groups[gr as usize].path;
            let open = state.unfolded.contains(path) || !state.filter.trim().is_empty();
            // A disclosure triangle: ▶ folded, ▼ unfolded (a click on the label toggles it).
            let c = r.left_center() + vec2(x - r.min.x + 5.0, 0.0);
            let points = if open {
                vec![c + vec2(-5.0, -3.0), c + vec2(5.0, -3.0), c + vec2(0.0, 4.5)]
            } else {
                vec![c + vec2(-3.0, -5.0), c + vec2(4.5, 0.0), c + vec2(-3.0, 5.0)]
            };
            clip.add(egui::Shape::convex_polygon(points, palette.text, Stroke::NONE));
            x += 14.0;
        } else {
            clip.rect_filled(swatch, 2.0, swatch_colour);
            x += 12.0;
        }
        let text = match row.kind {
            RowKind::Group(gr) => {
                let n = replay.groups.get(gr as usize).map_or(0, |g| g.members.len());
                format!("{} ({n})", row.label)
            }
            _ => row.label.clone(),
        };
        let colour = if matches!(row.kind, RowKind::Param(_)) { palette.text_dim } else { palette.text };
        clip.text(pos2(x, r.center().y), Align2::LEFT_CENTER, text, font.clone(), colour);
    }
    painter.vline(rect.max.x - 0.5, rect.y_range(), Stroke::new(1.0, palette.grid_major));
}

/// The O–X figures beside the diagrams.
pub fn figures_table(
    ui: &mut Ui,
    state: &TimingState,
    view: &mut TimingView,
    diagrams: &[Diagram<'_>],
    rect: Rect,
    out: &mut DiagramRequests,
) {
    let Some((a, b)) = state.cursors.interval() else { return };
    let key = (a, b, view.fitted_for);
    let rows: Vec<Arc<[Row]>> = diagrams.iter().map(|d| state.rows_of(d.replay)).collect();
    let fresh = view.figures_cache.as_ref().is_some_and(|c| c.key == key && c.rows == rows);
    if !fresh {
        let figures = diagrams.iter().zip(&rows).map(|(d, shown)| figures(d.replay, shown, a, b)).collect();
        view.figures_cache = Some(FiguresCache { key, rows, figures });
    }
    let Some(cache) = &view.figures_cache else { return };
    let span = (b - a).max(1);
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
    let res = state.resolution_ps();
    let (from, to, length) = (
        time_text::at(SimTime(a), res),
        time_text::at(SimTime(b), res),
        time_text::span(i128::from(b - a), res),
    );
    child.label(RichText::new(format!("{from} – {to}  ({length})")).strong());
    egui::ScrollArea::vertical().id_salt("ox-figures").auto_shrink([false, false]).show(&mut child, |ui| {
        for (d, computed) in diagrams.iter().zip(&cache.figures) {
            if let Some(title) = &d.title {
                ui.label(RichText::new(title).strong());
            }
            egui::Grid::new(("ox-grid", d.replay.end.0, d.replay.header.entities.len())).striped(true).show(
                ui,
                |ui| {
                    ui.strong("row");
                    ui.strong("time per state");
                    ui.strong("sent / recv");
                    ui.end_row();
                    for f in computed {
                        if ui.link(&f.path).clicked() {
                            out.select = Some((0, f.path.clone()));
                        }
                        let mut states = f.states.clone();
                        states.sort_by_key(|s| std::cmp::Reverse(s.1));
                        let text: Vec<String> = states
                            .iter()
                            .take(3)
                            .map(|(n, t)| format!("{n} {:.0}%", *t as f64 * 100.0 / span as f64))
                            .collect();
                        ui.label(text.join(" · "));
                        ui.label(format!("{} / {}", f.sent, f.received));
                        ui.end_row();
                    }
                },
            );
        }
    });
}
