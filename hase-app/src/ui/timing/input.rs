//! Pointer and keys on one timing diagram. Wheel zooms about the pointer (Shift+wheel pans,
//! Alt+wheel or the wheel over the labels scrolls the rows); dragging pans, Shift-drag spans O to
//! X, dragging near a cursor moves it (snapping to the pointed row's state edges, else any row's,
//! unless Alt is held). A click on the bars moves the animator there and selects the row's entity;
//! on the ruler the left button places O and the right one X; O and X keys place a cursor at the
//! pointer, Z zooms to O–X. Hovering a bar shows its state, start, end and duration; the right
//! button opens a menu.

use egui::{Id, Key, Modifiers, PointerButton, Response, Sense, Ui};
use hase_engine::time::SimTime;

use super::context::{Diagram, DiagramRequests, Pane};
use super::draw::Geometry;
use super::edits::TimingEdits;
use super::lod::build_marks;
use super::view_state::{DiagramDrag, TimingView};
use hase_editor::session::timing::cursors::{Which, snap};
use hase_editor::session::timing::rows::{Row, RowKind, intervals, row_path};
use hase_editor::session::timing::{TimingCommand, TimingState};

/// Pointer distance (points) within which a placement snaps to a state edge or grabs a cursor.
const SNAP_PT: f32 = 6.0;

/// The pointer and keys of one frame, for a drag.
struct DragInput<'a> {
    g: &'a Geometry,
    modifiers: Modifiers,
    end: u64,
    now_s: f64,
}

/// Handle this frame's input for the diagram of `pane`.
pub fn handle(
    ui: &Ui,
    (edits, view): (&mut TimingEdits, &mut TimingView),
    pane: &Pane<'_>,
    out: &mut DiagramRequests,
) {
    let (d, index, shown, g, labels, end) =
        (pane.diagram, pane.index, pane.rows, &pane.geometry, pane.labels, pane.end);
    let id = Id::unique(("timing-diagram", index));
    let width = g.bars.width();
    let ruler = ui.interact(g.ruler, id.with("ruler"), Sense::click_and_drag());
    let bars = ui.interact(g.bars, id.with("bars"), Sense::click_and_drag());
    let label_response = ui.interact(labels, id.with("labels"), Sense::click());
    let (modifiers, scroll, zoom, now_s) =
        ui.input(|i| (i.modifiers, i.smooth_scroll_delta, i.zoom_delta(), i.time));
    let pointer = bars.hover_pos().or_else(|| ruler.hover_pos());
    let hovered_row = ui.input(|i| i.pointer.hover_pos()).and_then(|p| g.row_at(p.y, shown.len()));
    // Snap to the pointed row's edges first, then to any row's.
    let snap_edges = |state: &TimingState, t: u64, alt: bool| {
        if alt {
            return t;
        }
        let reach = (f64::from(SNAP_PT) * state.view.ps_per_pt) as u64;
        if let Some(edge) = hovered_row
            .and_then(|i| intervals(d.replay, shown[i].kind))
            .and_then(|row| row.nearest_edge(t, reach))
        {
            return edge;
        }
        let rows = g.visible_rows(shown.len()).filter_map(|i| intervals(d.replay, shown[i].kind));
        snap(rows, t, reach)
    };

    // Wheel and pinch.
    if let Some(p) = pointer {
        if (zoom - 1.0).abs() > f32::EPSILON {
            edits.push(TimingCommand::RememberView { now_s, force: false });
            let mut v = edits.state.view;
            v.zoom_about(g.bars.min.x, p.x, f64::from(zoom), end, width);
            edits.push(TimingCommand::SetView(v));
        } else if modifiers.alt {
            view.scroll -= scroll.y + scroll.x;
        } else {
            if scroll.y.abs() > 0.0 {
                edits.push(TimingCommand::RememberView { now_s, force: false });
                let mut v = edits.state.view;
                v.zoom_about(g.bars.min.x, p.x, f64::from((scroll.y / 200.0).exp()), end, width);
                edits.push(TimingCommand::SetView(v));
            }
            if scroll.x.abs() > 0.0 {
                let mut v = edits.state.view;
                v.pan_by(scroll.x, end, width);
                edits.push(TimingCommand::SetView(v));
            }
        }
    } else if label_response.hovered() {
        view.scroll -= scroll.y;
    }

    // Drags.
    let input = DragInput { g, modifiers, end, now_s };
    for response in [&bars, &ruler] {
        drag(ui, (&mut *edits, &mut *view), response, &input, &snap_edges);
    }

    // Clicks.
    if let Some(p) = ruler.interact_pointer_pos() {
        let t = snap_edges(&edits.state, edits.state.view.time_at(g.bars.min.x, p.x), modifiers.alt);
        if ruler.clicked() {
            edits.push(TimingCommand::SetCursor(Which::O, t));
        } else if ruler.secondary_clicked() {
            edits.push(TimingCommand::SetCursor(Which::X, t));
        }
    }
    if bars.clicked()
        && let Some(p) = bars.interact_pointer_pos()
    {
        out.seek = Some(edits.state.view.time_at(g.bars.min.x, p.x));
        if let Some(row) = g.row_at(p.y, shown.len()) {
            out.select = Some((index, row_path(d.replay, shown[row].kind)));
        }
    }
    if label_response.clicked()
        && let Some(p) = label_response.interact_pointer_pos()
        && let Some(row) = g.row_at(p.y, shown.len())
    {
        match shown[row].kind {
            group @ RowKind::Group(_) => edits.push(TimingCommand::ToggleFold(row_path(d.replay, group))),
            kind => out.select = Some((index, row_path(d.replay, kind))),
        }
    }

    // Keys over the diagram.
    if let Some(p) = pointer {
        let t = edits.state.view.time_at(g.bars.min.x, p.x);
        for (key, which) in [(Key::O, Which::O), (Key::X, Which::X)] {
            if ui.input_mut(|i| i.consume_key(Modifiers::NONE, key) || i.consume_key(Modifiers::ALT, key)) {
                let snapped = snap_edges(&edits.state, t, modifiers.alt);
                edits.push(TimingCommand::SetCursor(which, snapped));
            }
        }
        if ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Z))
            && let Some(v) = edits.state.cursors_view(end, view.bars_width)
        {
            edits.push(TimingCommand::GoTo(v));
        }
    }

    context_menu(edits, &bars, (g, view.bars_width), end, out);
    if view.drag.is_none() {
        hover_details(&edits.state, d, shown, g, bars);
    }
}

fn drag(
    ui: &Ui,
    (edits, view): (&mut TimingEdits, &mut TimingView),
    response: &Response,
    input: &DragInput<'_>,
    snap_edges: &impl Fn(&TimingState, u64, bool) -> u64,
) {
    let DragInput { g, modifiers, end, now_s } = *input;
    let width = g.bars.width();
    if response.drag_started_by(PointerButton::Primary) {
        let origin = ui.input(|i| i.pointer.press_origin()).unwrap_or_default();
        let state = &edits.state;
        let near = |t: Option<u64>| {
            t.is_some_and(|t| (state.view.x_of(g.bars.min.x, t) - origin.x).abs() <= SNAP_PT)
        };
        view.drag = Some(if near(state.cursors.x) {
            DiagramDrag::Cursor(Which::X)
        } else if near(state.cursors.o) {
            DiagramDrag::Cursor(Which::O)
        } else if modifiers.shift {
            let t = snap_edges(state, state.view.time_at(g.bars.min.x, origin.x), modifiers.alt);
            edits.push(TimingCommand::SetCursor(Which::O, t));
            edits.push(TimingCommand::SetCursor(Which::X, t));
            DiagramDrag::Select
        } else {
            edits.push(TimingCommand::RememberView { now_s, force: true });
            DiagramDrag::Pan
        });
    }
    if response.dragged() {
        let pointer = response.interact_pointer_pos();
        match (view.drag, pointer) {
            (Some(DiagramDrag::Pan), _) => {
                let delta = response.drag_delta();
                let mut v = edits.state.view;
                v.pan_by(delta.x, end, width);
                edits.push(TimingCommand::SetView(v));
                view.scroll -= delta.y;
            }
            (Some(DiagramDrag::Cursor(which)), Some(p)) => {
                let t = snap_edges(&edits.state, edits.state.view.time_at(g.bars.min.x, p.x), modifiers.alt);
                edits.push(TimingCommand::SetCursor(which, t));
            }
            (Some(DiagramDrag::Select), Some(p)) => {
                let t = snap_edges(&edits.state, edits.state.view.time_at(g.bars.min.x, p.x), modifiers.alt);
                edits.push(TimingCommand::SetCursor(Which::X, t));
            }
            _ => {}
        }
    }
    if response.drag_stopped() {
        view.drag = None;
    }
}

/// The bars' right-click menu; `bars_width` is what the views it goes to are fitted across.
fn context_menu(
    edits: &mut TimingEdits,
    bars: &Response,
    (g, bars_width): (&Geometry, f32),
    end: u64,
    out: &mut DiagramRequests,
) {
    let at = bars.interact_pointer_pos().or_else(|| bars.hover_pos());
    if bars.secondary_clicked()
        && let Some(p) = at
    {
        let t = edits.state.view.time_at(g.bars.min.x, p.x);
        bars.ctx.data_mut(|data| data.insert_temp(Id::unique("timing-menu-time"), t));
    }
    let state = &edits.state;
    let mut asked = Vec::new();
    bars.context_menu(|ui| {
        let t: u64 = ui.ctx().data(|data| data.get_temp(Id::unique("timing-menu-time"))).unwrap_or(0);
        ui.weak(format!("at {}", crate::ui::time_text::at(SimTime(t), state.resolution_ps())));
        if ui.button("Place O here").clicked() {
            asked.push(TimingCommand::SetCursor(Which::O, t));
            ui.close();
        }
        if ui.button("Place X here").clicked() {
            asked.push(TimingCommand::SetCursor(Which::X, t));
            ui.close();
        }
        if ui.button("Add marker here").clicked() {
            asked.push(TimingCommand::AddMarker(t));
            ui.close();
        }
        if ui.button("Move the animator here").clicked() {
            out.seek = Some(t);
            ui.close();
        }
        ui.separator();
        if ui.add_enabled(state.cursors.interval().is_some(), egui::Button::new("Zoom to O–X")).clicked() {
            if let Some(v) = state.cursors_view(end, bars_width) {
                asked.push(TimingCommand::GoTo(v));
            }
            ui.close();
        }
        if ui.button("Zoom to fit").clicked() {
            asked.push(TimingCommand::GoTo(TimingState::fitted_view(end, bars_width)));
            ui.close();
        }
    });
    for command in asked {
        edits.push(command);
    }
}

#[allow(clippy::many_single_char_names, reason = "d diagram, g geometry, p pointer, t time, i interval, x")]
fn hover_details(state: &TimingState, d: &Diagram<'_>, shown: &[Row], g: &Geometry, bars: Response) {
    let Some(p) = bars.hover_pos() else { return };
    let Some(row) = g.row_at(p.y, shown.len()) else { return };
    let kind = shown[row].kind;
    let Some(data) = intervals(d.replay, kind) else { return };
    let t = state.view.time_at(g.bars.min.x, p.x);
    let mut marks = Vec::new();
    build_marks(data, &state.view, g.bars.width(), &mut marks);
    let x = p.x - g.bars.min.x;
    let merged = marks.iter().find(|m| m.x0 <= x && x < m.x1).filter(|m| m.is_merged()).map(|m| m.count);
    let Some(i) = data.at(t) else { return };
    let (start, end) = (SimTime(data.start[i]), SimTime(data.end[i]));
    let what = match kind {
        RowKind::Entity(e) => d.replay.state_name(e, data.state[i]).to_string(),
        RowKind::Group(gr) => {
            let members = d.replay.groups.get(gr as usize).map_or(0, |g| g.members.len());
            format!("{} of {members} busy", data.state[i])
        }
        RowKind::Param(k) => {
            d.replay.params[k].labels.get(usize::from(data.state[i])).cloned().unwrap_or_default()
        }
    };
    let path = row_path(d.replay, kind);
    bars.on_hover_ui_at_pointer(|ui| {
        ui.strong(&path);
        let res = state.resolution_ps();
        let text = |t: SimTime| crate::ui::time_text::at(t, res);
        ui.label(format!("{what}: {} – {}", text(start), text(end)));
        ui.label(format!("duration {}", text(end - start)));
        if let Some(n) = merged {
            ui.weak(format!("{n} short intervals share this point: zoom in to see them"));
        }
    });
}
