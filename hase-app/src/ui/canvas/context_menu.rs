//! The canvas's right-click menu (with "What if…" on one link or instance: `crate::ui::what_if`)
//! and hover tooltips (port name, direction and link type; link ends,
//! latency and bandwidth).

use egui::{Response, Ui};
use hase_engine::model::Direction;

use super::edits::CanvasEdits;
use super::geometry::Hit;
use super::view_state::Canvas;
use crate::actions::AppAction;
use hase_editor::analysis_views::levels::can_check;
use hase_editor::command::Alignment;
use hase_editor::state::Editor;

/// Right-clicking an entity or link selects it (unless it is already selected) and opens the menu.
pub fn context_menu(
    canvas: &Canvas,
    response: &Response,
    editor: &Editor,
    edits: &mut CanvasEdits,
) -> Vec<AppAction> {
    let selection = &mut edits.selection;
    if response.secondary_clicked() {
        match canvas.hover {
            Some(Hit::Node(n) | Hit::Port(n, _)) => {
                let name = &canvas.scene.nodes[n].name;
                if !selection.instances.contains(name) {
                    selection.only(name);
                }
            }
            Some(Hit::Link(l) | Hit::Corner(l, _)) => {
                let key = canvas.scene.links[l].key.clone();
                if !selection.links.contains(&key) {
                    selection.clear();
                    selection.links.insert(key);
                }
            }
            None => {}
        }
    }
    let mut out = Vec::new();
    let instances = selection.instances.len();
    let compound = instances == 1
        && selection.instances.iter().next().is_some_and(|name| {
            canvas.scene.by_name.get(name).is_some_and(|i| canvas.scene.nodes[*i].compound)
        });
    response.context_menu(|ui| {
        let mut item = |ui: &mut Ui, enabled: bool, text: &str, action: AppAction| {
            if ui.add_enabled(enabled, egui::Button::new(text)).clicked() {
                out.push(action);
                ui.close();
            }
        };
        if compound {
            item(ui, true, "Open inner network", AppAction::OpenSelected);
            let path = crate::ui::timing::tab::paths_in(editor, selection);
            let checkable = path.first().is_some_and(|p| can_check(&editor.doc.project, p));
            item(ui, checkable, "Check levels", AppAction::CheckLevels);
            ui.separator();
        }
        let one = (instances, selection.links.len());
        item(ui, one == (1, 0) || one == (0, 1), "What if…", AppAction::WhatIf);
        ui.separator();
        item(ui, instances > 0, "Copy", AppAction::Copy);
        item(ui, editor.clipboard.is_some(), "Paste", AppAction::Paste);
        item(ui, instances > 0, "Duplicate", AppAction::Duplicate);
        item(ui, !selection.is_empty(), "Delete", AppAction::Delete);
        ui.separator();
        item(ui, instances > 1, "Align left", AppAction::Align(Alignment::Left));
        item(ui, instances > 1, "Align top", AppAction::Align(Alignment::Top));
        ui.separator();
        item(ui, instances > 0, "Group into compound", AppAction::Group);
        item(ui, compound, "Ungroup", AppAction::Ungroup);
    });
    out
}

/// A tooltip for the port or link under the pointer.
pub fn hover_tooltip(canvas: &Canvas, response: &Response, editor: &Editor) {
    if !response.hovered() || response.dragged() {
        return;
    }
    let text = match canvas.hover {
        Some(Hit::Port(n, p)) => {
            let node = &canvas.scene.nodes[n];
            let port = &node.ports[p];
            let way = match port.direction {
                Direction::In => "input",
                Direction::Out => "output",
                Direction::InOut => "in-out",
            };
            let state = match canvas.scene.peer(n, p) {
                Some((m, q)) => format!(
                    "linked to {}.{}",
                    canvas.scene.nodes[m].name, canvas.scene.nodes[m].ports[q].name
                ),
                None if port.exported => "exported as an outer port".to_string(),
                None => "free: drag from here to link".to_string(),
            };
            format!("{}.{}  ({way}, {})\n{state}", node.name, port.name, port.link_type)
        }
        Some(Hit::Link(l)) => {
            let key = &canvas.scene.links[l].key;
            let link = editor
                .doc
                .network(&editor.current_net())
                .and_then(|n| n.links.iter().find(|x| &x.key() == key));
            match link {
                Some(link) => format!(
                    "{}  —  {}\nlatency {}, bandwidth {}",
                    link.a,
                    link.b,
                    link.latency,
                    hase_engine::units::format_rate(link.bandwidth_bytes_per_s)
                ),
                None => return,
            }
        }
        _ => return,
    };
    response.clone().on_hover_text_at_pointer(text);
}
