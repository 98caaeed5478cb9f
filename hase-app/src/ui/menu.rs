//! The menu bar: File, Edit, View and Simulate. Entries that belong to later work (running,
//! templates, experiments) are shown disabled with the reason, never faked.

use egui::{Button, Ui};

use crate::actions::Action;
use crate::command::Alignment;
use crate::state::Editor;
use crate::theme::ThemeChoice;

fn item(ui: &mut Ui, enabled: bool, text: &str, action: Action, out: &mut Vec<Action>) {
    let mut button = Button::new(text);
    if let Some(shortcut) = action.shortcut() {
        button = button.shortcut_text(ui.ctx().format_shortcut(&shortcut));
    }
    if ui.add_enabled(enabled, button).clicked() {
        out.push(action);
    }
}

fn later(ui: &mut Ui, text: &str, why: &str) {
    ui.add_enabled(false, Button::new(text)).on_disabled_hover_text(why);
}

/// Show the menu bar; returns the actions chosen.
pub fn show(ui: &mut Ui, editor: &Editor) -> Vec<Action> {
    let mut out = Vec::new();
    let has_selection = !editor.selection.is_empty();
    let many = editor.selection.instances.len();
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            item(ui, true, "New project", Action::NewProject, &mut out);
            item(ui, true, "Open…", Action::Open, &mut out);
            crate::ui::run_bar::examples_menu(ui, &mut out);
            ui.separator();
            item(ui, true, "Save", Action::Save, &mut out);
            item(ui, true, "Save as…", Action::SaveAs, &mut out);
            later(ui, "Save to library", "The project library (sled store) arrives with persistence work.");
            ui.separator();
            item(ui, true, "Quit", Action::Quit, &mut out);
        });
        ui.menu_button("Edit", |ui| {
            let undo =
                editor.history.undo_label().map_or_else(|| "Undo".to_string(), |l| format!("Undo {l}"));
            let redo =
                editor.history.redo_label().map_or_else(|| "Redo".to_string(), |l| format!("Redo {l}"));
            item(ui, editor.history.undo_label().is_some(), &undo, Action::Undo, &mut out);
            item(ui, editor.history.redo_label().is_some(), &redo, Action::Redo, &mut out);
            ui.separator();
            item(ui, many > 0, "Cut", Action::Cut, &mut out);
            item(ui, many > 0, "Copy", Action::Copy, &mut out);
            item(ui, editor.clipboard.is_some(), "Paste", Action::Paste, &mut out);
            item(ui, many > 0, "Duplicate", Action::Duplicate, &mut out);
            item(ui, has_selection, "Delete", Action::Delete, &mut out);
            item(ui, true, "Select all", Action::SelectAll, &mut out);
            ui.separator();
            ui.add_enabled_ui(many > 1, |ui| {
                ui.menu_button("Align", |ui| {
                    for how in Alignment::ALL {
                        let enabled =
                            !matches!(how, Alignment::DistributeHorizontal | Alignment::DistributeVertical)
                                || many > 2;
                        let mut text = how.label().to_string();
                        if let Some(first) = text.get_mut(0..1) {
                            first.make_ascii_uppercase();
                        }
                        item(ui, enabled, &text, Action::Align(how), &mut out);
                    }
                });
            });
            ui.separator();
            item(ui, many > 0, "Group into compound", Action::Group, &mut out);
            item(ui, many == 1, "Ungroup", Action::Ungroup, &mut out);
        });
        ui.menu_button("View", |ui| {
            item(ui, true, "Zoom in", Action::ZoomIn, &mut out);
            item(ui, true, "Zoom out", Action::ZoomOut, &mut out);
            item(ui, true, "Zoom to fit", Action::ZoomFit, &mut out);
            item(ui, true, "Actual size", Action::ZoomReset, &mut out);
            ui.separator();
            let (mut grid, mut snap) = (editor.settings.grid, editor.settings.snap);
            if ui.checkbox(&mut grid, "Grid").clicked() {
                out.push(Action::ToggleGrid);
            }
            if ui.checkbox(&mut snap, "Snap to grid").clicked() {
                out.push(Action::ToggleSnap);
            }
            ui.menu_button("Theme", |ui| {
                for (choice, text) in [(ThemeChoice::Dark, "Dark"), (ThemeChoice::Light, "Light")] {
                    if ui.radio(editor.settings.theme == choice, text).clicked() {
                        out.push(Action::Theme(choice));
                    }
                }
            });
            item(ui, true, "Port legend", Action::ToggleLegend, &mut out);
            ui.separator();
            item(ui, !editor.crumbs.is_empty(), "Up one level", Action::GoUp, &mut out);
        });
        ui.menu_button("Simulate", |ui| {
            item(ui, true, "Check design", Action::Validate, &mut out);
            ui.separator();
            item(ui, true, "Run", Action::Run, &mut out);
            item(ui, true, "Stop", Action::Stop, &mut out);
            crate::ui::run_bar::compare_menu(ui, &mut out);
            crate::ui::run_bar::trace_item(ui, &mut out);
            ui.separator();
            item(ui, true, "Play / pause replay", Action::PlayPause, &mut out);
            item(ui, true, "Next event", Action::StepForward, &mut out);
            item(ui, true, "Previous event", Action::StepBack, &mut out);
            ui.separator();
            later(ui, "Templates…", "The template generator dialog arrives with the templates work item.");
            later(ui, "Experiments…", "Parameter sweeps arrive with the experiments work item.");
        });
    });
    out
}
