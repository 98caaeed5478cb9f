//! The status bar: project and unsaved mark, where in the hierarchy, selection, zoom, background
//! tasks, and the run state (progress of a run in progress, or the last run's outcome).

use egui::Ui;

use crate::session::Session;
use crate::state::Editor;

/// Show the status bar.
pub fn show(ui: &mut Ui, editor: &Editor, zoom: f32, running_tasks: usize, session: &Session) {
    ui.horizontal(|ui| {
        let dirty = if editor.is_dirty() { " *" } else { "" };
        ui.label(format!("{}{dirty}", editor.doc.project.name));
        ui.separator();
        let mut path = vec!["top".to_string()];
        path.extend(editor.crumbs.iter().map(|c| c.instance.clone()));
        ui.label(path.join(" / "));
        ui.separator();
        let sel = &editor.selection;
        let selection = match (sel.instances.len(), sel.links.len()) {
            (0, 0) => "nothing selected".to_string(),
            (1, 0) => format!("selected: {}", sel.instances.iter().next().map_or("", String::as_str)),
            (n, 0) => format!("{n} entities selected"),
            (0, l) => format!("{l} link{} selected", if l == 1 { "" } else { "s" }),
            (n, l) => format!("{n} entities, {l} links selected"),
        };
        ui.label(selection);
        if let Some(t) = &editor.placing {
            ui.separator();
            ui.label(format!("placing {t}: click the canvas (Esc cancels)"));
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.label(format!("zoom {:.0}%", zoom * 100.0));
            ui.separator();
            crate::ui::run_bar::status(ui, session);
            if running_tasks > 0 {
                ui.separator();
                ui.spinner();
                ui.label(format!(
                    "{running_tasks} task{} running",
                    if running_tasks == 1 { "" } else { "s" }
                ));
            }
        });
    });
}
