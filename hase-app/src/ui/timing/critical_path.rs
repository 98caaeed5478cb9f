//! The critical path on the timing diagram (View toggle "Critical path"): the path's stretches
//! outlined on each row, a "Longest" button that puts O and X on its longest segment, and the table
//! of time blamed per rank, link, router and phase on the right; a click on a rank, link or router
//! opens its "what if…" menu (`crate::ui::what_if`), which runs the design again with it faster. The path and
//! what is drawn from it are `hase_editor::analysis_views::critical`.

use std::sync::Arc;

use egui::{Rect, RichText, Stroke, Ui, pos2};
use hase_engine::analysis::{BlameRow, CriticalPathReport};

use super::context::{Diagram, DiagramRequests, TimingContext};
use super::draw::{Geometry, ROW_HEIGHT};
use super::edits::TimingEdits;
use crate::theme::Palette;
use crate::ui::time_text;
use crate::ui::what_if::{WhatIfContext, contents};
use hase_editor::analysis_views::critical::{Found, longest_cursors, row_spans};
use hase_editor::session::timing::TimingCommand;
use hase_editor::session::timing::rows::{Row, RowKind};
use hase_library::what_if::Target;

/// Rows listed per table of blame.
const TABLE_ROWS: usize = 8;

/// The toggle "Critical path" and, when it is on, the "Longest" button.
pub fn toggles(ui: &mut Ui, edits: &mut TimingEdits, cx: &TimingContext<'_>) {
    let first = cx.diagrams.first().filter(|d| d.source.is_some());
    let mut shown = edits.state.analysis.critical.shown;
    let hint = "Outline the chain of computation, waits, packet hops and queueing that ends at the \
                makespan, and list the time it blames on each rank, link, router and phase";
    if ui
        .add_enabled(first.is_some(), egui::Checkbox::new(&mut shown, "Critical path"))
        .on_hover_text(hint)
        .changed()
    {
        edits.push(TimingCommand::ShowCriticalPath(shown));
    }
    let Some(d) = first.filter(|_| shown) else { return };
    let longest = found(edits, d).and_then(|f| f.as_ref().as_ref().ok().and_then(longest_cursors));
    let button = ui
        .add_enabled(longest.is_some(), egui::Button::new("Longest"))
        .on_hover_text("Put O and X on the critical path's longest segment");
    if button.clicked()
        && let Some(cursors) = longest
    {
        edits.push(TimingCommand::SetCursors(cursors));
    }
}

/// The path of diagram `d`'s run once it is found; until then it is asked for (the app finds it
/// on a worker thread, so a big run's path does not hold up the window).
pub fn found(edits: &mut TimingEdits, d: &Diagram<'_>) -> Option<Arc<Found>> {
    let (id, _) = d.source?;
    let critical = &edits.state.analysis.critical;
    let found = critical.found(id);
    if found.is_none() && !critical.is_finding(id) {
        edits.push(TimingCommand::FindCriticalPath(id));
    }
    found
}

/// A spinner and a word while the path is being found (the spinner keeps the frames coming).
fn finding_note(ui: &mut Ui) {
    ui.horizontal(|ui| {
        ui.spinner();
        ui.weak("finding the critical path…");
    });
}

/// Outline the path's stretches on the visible rows of diagram `d`.
pub fn outline(
    ui: &Ui,
    edits: &mut TimingEdits,
    d: &Diagram<'_>,
    shown: &[Row],
    g: &Geometry,
    palette: &Palette,
) {
    let Some(found) = found(edits, d) else { return };
    let Ok(report) = found.as_ref() else { return };
    let view = edits.state.view;
    let left = g.bars.min.x;
    let (t0, t1) = (view.left_ps, view.right_ps(g.bars.width()));
    let painter = ui.painter().with_clip_rect(g.bars);
    let stroke = Stroke::new(2.0, palette.accent);
    for i in g.visible_rows(shown.len()) {
        let RowKind::Entity(e) = shown[i].kind else { continue };
        let top = g.row_top(i);
        for (start, end) in row_spans(report, e) {
            if end < t0 || start > t1 {
                continue;
            }
            let (x0, x1) = (view.x_of(left, start), view.x_of(left, end));
            let r = Rect::from_min_max(pos2(x0, top + 1.0), pos2(x1.max(x0 + 2.0), top + ROW_HEIGHT - 1.0));
            painter.rect_stroke(r, 1.0, stroke, egui::StrokeKind::Inside);
        }
    }
}

/// The table of blame of the first diagram's run in `rect`; a what-if asked from it goes to `out`.
pub fn blame_table(
    ui: &mut Ui,
    (edits, out): (&mut TimingEdits, &mut DiagramRequests),
    d: &Diagram<'_>,
    rect: Rect,
    cx: &TimingContext<'_>,
) {
    let palette = cx.palette;
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
    child.label(RichText::new("Time blamed along the critical path").strong());
    if d.source.is_none() {
        child.weak("No trace to find it in.");
        return;
    }
    let Some(found) = found(edits, d) else {
        finding_note(&mut child);
        return;
    };
    let report = match found.as_ref() {
        Ok(report) => report,
        Err(e) => {
            child.label(RichText::new(e.to_string()).color(palette.error));
            return;
        }
    };
    summary(&mut child, report);
    if cx.project.is_some() {
        child.weak("Click a rank, link or router: what if it were faster?");
    }
    egui::ScrollArea::vertical().id_salt("critical-path-table").auto_shrink([false, false]).show(
        &mut child,
        |ui| {
            for (title, part, rows) in [
                ("per rank", "computing", &report.ranks),
                ("per link", "queueing", &report.links),
                ("per router", "", &report.routers),
                ("per phase", "", &report.phases),
            ] {
                table(ui, (title, part), rows, (edits, out), cx);
            }
        },
    );
}

fn summary(ui: &mut Ui, report: &CriticalPathReport) {
    let share = |t: hase_engine::time::SimTime| {
        if report.makespan.0 == 0 { 0.0 } else { 100.0 * t.0 as f64 / report.makespan.0 as f64 }
    };
    let t = &report.totals;
    ui.label(format!(
        "{} in {} segments: ranks {:.0}% (computing {:.0}%), links {:.0}% (queueing {:.0}%), routers {:.0}%",
        time_text::figure(report.length),
        report.segments.len(),
        share(t.ranks),
        share(t.computing),
        share(t.links),
        share(t.queueing),
        share(t.routers)
    ));
    if let Some(s) = &report.longest {
        ui.weak(format!("longest: {} — {}", time_text::figure(s.end.saturating_sub(s.start)), s.what));
    }
}

fn table(
    ui: &mut Ui,
    (title, part): (&str, &str),
    rows: &[BlameRow],
    (edits, out): (&mut TimingEdits, &mut DiagramRequests),
    cx: &TimingContext<'_>,
) {
    if rows.is_empty() {
        return;
    }
    ui.add_space(4.0);
    ui.strong(format!("time blamed {title}"));
    egui::Grid::new(("critical-blame", title)).striped(true).num_columns(3).show(ui, |ui| {
        for row in rows.iter().take(TABLE_ROWS) {
            let target = row.entity.and_then(|_| Target::from_blame_name(&row.name));
            match (cx.project, target) {
                // The name opens the what-if menu.
                (Some(project), Some(target)) => {
                    // The menu holds text fields: it closes on a click outside it or on a run
                    // button (which closes it itself), not on every click inside.
                    let config = egui::containers::menu::MenuConfig::new()
                        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
                    egui::containers::menu::MenuButton::new(&row.name).config(config).ui(ui, |ui| {
                        let menu = &edits.state.analysis.what_if;
                        let answer =
                            contents(ui, &WhatIfContext { project, target: &target, menu, palette: cx.palette });
                        if let Some(menu) = answer.menu {
                            edits.push(TimingCommand::SetWhatIf(menu));
                        }
                        if answer.request.is_some() {
                            out.what_if = answer.request;
                        }
                    })
                    .0
                    .on_hover_text("What if this were faster? Run the design again with it changed, beside the design as it is");
                }
                _ => {
                    ui.label(&row.name);
                }
            }
            ui.label(format!("{} ({:.0}%)", time_text::figure(row.time), 100.0 * row.share));
            let of = row.of_which.filter(|t| !part.is_empty() && t.0 > 0);
            ui.label(of.map_or_else(String::new, |t| format!("{part} {}", time_text::figure(t))));
            ui.end_row();
        }
    });
    if rows.len() > TABLE_ROWS {
        ui.weak(format!("and {} more", rows.len() - TABLE_ROWS));
    }
}
