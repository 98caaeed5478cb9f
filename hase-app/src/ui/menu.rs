//! The menu bar: File, Edit, Insert, View, Simulate and Help; labels and shortcuts come from the
//! action table (`actions`).

use egui::{Button, Ui};

use crate::actions::AppAction;
use crate::theme::ThemeChoice;
use hase_editor::command::Alignment;
use hase_editor::examples::EXAMPLES;
use hase_editor::project_store::Library;
use hase_editor::state::Editor;
use hase_library::import::simgrid::LatencyModel;

/// A menu entry for `action`, with its label and shortcut from the action table.
fn item(ui: &mut Ui, enabled: bool, action: AppAction, out: &mut Vec<AppAction>) {
    item_as(ui, enabled, action.label(), action, out);
}

/// A menu entry for `action` with another text (Undo names what it undoes).
fn item_as(ui: &mut Ui, enabled: bool, text: &str, action: AppAction, out: &mut Vec<AppAction>) {
    let mut button = Button::new(text);
    if let Some(shortcut) = action.shortcut() {
        button = button.shortcut_text(ui.ctx().format_shortcut(&shortcut));
    }
    if ui.add_enabled(enabled, button).clicked() {
        out.push(action);
    }
}

/// Show the menu bar; returns the actions chosen.
pub fn show(ui: &mut Ui, editor: &Editor, library: &Library) -> Vec<AppAction> {
    let mut out = Vec::new();
    let has_selection = !editor.selection.is_empty();
    let many = editor.selection.instances.len();
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            file_menu(ui, editor, library, &mut out);
        });
        ui.menu_button("Edit", |ui| {
            let undo =
                editor.history.undo_label().map_or_else(|| "Undo".to_string(), |l| format!("Undo {l}"));
            let redo =
                editor.history.redo_label().map_or_else(|| "Redo".to_string(), |l| format!("Redo {l}"));
            item_as(ui, editor.history.undo_label().is_some(), &undo, AppAction::Undo, &mut out);
            item_as(ui, editor.history.redo_label().is_some(), &redo, AppAction::Redo, &mut out);
            ui.separator();
            item(ui, many > 0, AppAction::Cut, &mut out);
            item(ui, many > 0, AppAction::Copy, &mut out);
            item(ui, editor.clipboard.is_some(), AppAction::Paste, &mut out);
            item(ui, many > 0, AppAction::Duplicate, &mut out);
            item(ui, has_selection, AppAction::Delete, &mut out);
            item(ui, true, AppAction::SelectAll, &mut out);
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
                        item_as(ui, enabled, &text, AppAction::Align(how), &mut out);
                    }
                });
            });
            ui.separator();
            item(ui, many > 0, AppAction::Group, &mut out);
            item(ui, many == 1, AppAction::Ungroup, &mut out);
        });
        ui.menu_button("Insert", |ui| {
            ui.menu_button("Network", |ui| {
                item(ui, true, AppAction::InsertTemplate, &mut out);
            });
        });
        ui.menu_button("View", |ui| {
            item(ui, true, AppAction::ZoomIn, &mut out);
            item(ui, true, AppAction::ZoomOut, &mut out);
            item(ui, true, AppAction::ZoomFit, &mut out);
            item(ui, true, AppAction::ZoomReset, &mut out);
            ui.separator();
            let (mut grid, mut snap) = (editor.settings.grid, editor.settings.snap);
            if ui.checkbox(&mut grid, "Grid").clicked() {
                out.push(AppAction::ToggleGrid);
            }
            if ui.checkbox(&mut snap, "Snap to grid").clicked() {
                out.push(AppAction::ToggleSnap);
            }
            ui.menu_button("Theme", |ui| {
                for (choice, text) in [(ThemeChoice::Dark, "Dark"), (ThemeChoice::Light, "Light")] {
                    if ui.radio(editor.settings.theme == choice, text).clicked() {
                        out.push(AppAction::Theme(choice));
                    }
                }
            });
            item(ui, true, AppAction::ToggleLegend, &mut out);
            ui.separator();
            item(ui, !editor.crumbs.is_empty(), AppAction::GoUp, &mut out);
        });
        ui.menu_button("Simulate", |ui| {
            item(ui, true, AppAction::Validate, &mut out);
            item(ui, true, AppAction::CheckTies, &mut out);
            ui.separator();
            item(ui, true, AppAction::Run, &mut out);
            item(ui, true, AppAction::Stop, &mut out);
            crate::ui::run_bar::compare_menu(ui, &mut out);
            crate::ui::run_bar::trace_item(ui, &mut out);
            crate::ui::run_bar::export_trace_menu(ui, &mut out);
            ui.separator();
            item(ui, true, AppAction::PlayPause, &mut out);
            item(ui, true, AppAction::StepForward, &mut out);
            item(ui, true, AppAction::StepBack, &mut out);
            ui.separator();
            item(ui, true, AppAction::Experiments, &mut out);
        });
        crate::ui::help::menu(ui, &mut out);
    });
    out
}

fn file_menu(ui: &mut Ui, editor: &Editor, library: &Library, out: &mut Vec<AppAction>) {
    let why = library.why_unavailable();
    item(ui, true, AppAction::NewProject, out);
    let open = if why.is_none() { "Open from library…" } else { "Open RON file…" };
    item_as(ui, true, open, AppAction::Open, out);
    ui.menu_button("Open example", |ui| {
        for (i, example) in EXAMPLES.iter().enumerate() {
            if ui.button(example.title).on_hover_text(format!("projects/{}", example.file)).clicked() {
                out.push(AppAction::OpenExample(i));
            }
        }
        ui.separator();
        if ui.button("Compare: fat tree vs binary tree").clicked() {
            out.push(AppAction::CompareExample);
        }
        if ui
            .button(AppAction::OpenExperimentExample.label())
            .on_hover_text("projects/experiments/allreduce_trees.sweep.ron, in the experiments view")
            .clicked()
        {
            out.push(AppAction::OpenExperimentExample);
        }
    });
    ui.separator();
    let (save_hint, import_hint) = match &why {
        None => (
            "Store a new version in the project library",
            "Read a RON file into the project library: it is added as a new version of the project it \
             names (or as a new project) and opened",
        ),
        Some(_) if editor.file.is_some() => {
            ("Write the RON file (the library is unavailable)", "Open a RON file")
        }
        Some(_) => ("Choose a RON file to write (the library is unavailable)", "Open a RON file"),
    };
    let mut save = Button::new("Save");
    if let Some(shortcut) = AppAction::Save.shortcut() {
        save = save.shortcut_text(ui.ctx().format_shortcut(&shortcut));
    }
    if ui.add(save).on_hover_text(save_hint).clicked() {
        out.push(AppAction::Save);
    }
    item(ui, true, AppAction::SaveAs, out);
    ui.separator();
    ui.menu_button("Import", |ui| {
        if ui.button("RON…").on_hover_text(import_hint).clicked() {
            out.push(AppAction::ImportRon);
        }
        let simgrid = "A SimGrid platform file (a cluster, or hosts, links and routes) as a new project";
        let links = AppAction::ImportSimgrid(LatencyModel::Links);
        if ui.button(links.label()).on_hover_text(simgrid).clicked() {
            out.push(links);
        }
        let flow_hint = "A SimGrid cluster whose links carry no latency: each message waits its whole \
                         route's latency at the network interface, then takes the links' bandwidth, \
                         sharing them with other messages in inverse proportion to route latency, as \
                         SimGrid's flow model times it (hase import simgrid --latency flow)";
        let flow = AppAction::ImportSimgrid(LatencyModel::Flow);
        if ui.button(flow.label()).on_hover_text(flow_hint).clicked() {
            out.push(flow);
        }
    });
    if ui.button("Export RON…").on_hover_text("Write the project to a RON file").clicked() {
        out.push(AppAction::ExportRon);
    }
    if let Some(why) = why {
        ui.add_enabled(false, Button::new("Project library unavailable")).on_disabled_hover_text(why);
    }
    ui.separator();
    item(ui, true, AppAction::Quit, out);
}
