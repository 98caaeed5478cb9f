//! File ▸ Open from library…: the projects in the library with their last save time and number of
//! versions; open, rename or delete (after a confirmation) the selected one; its version history
//! with timestamps, from which an earlier version can be opened. The window only asks; the app
//! runs the store calls on worker threads and hands the answers back.

use egui::{RichText, Ui};
use hase_library::store::{ProjectSummary, StoreError, VersionInfo};

use crate::theme::Palette;

/// What the user asked the browser for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrowserRequest {
    /// Read the project list again.
    Refresh,
    /// Read the history of a project.
    History(String),
    /// Open a project: its newest version, or the one given.
    Open {
        /// Project name.
        name: String,
        /// Version (`None`: the newest).
        version: Option<u64>,
    },
    /// Rename a project.
    Rename {
        /// Current name.
        from: String,
        /// New name.
        to: String,
    },
    /// Delete a project with its history.
    Delete(String),
}

/// State of the project browser window.
#[derive(Default)]
pub struct LibraryBrowser {
    /// Shown.
    pub open: bool,
    /// The project list, once read (or why it could not be).
    pub list: Option<Result<Vec<ProjectSummary>, StoreError>>,
    /// The selected project.
    pub selected: Option<String>,
    /// The history of the selected project, once read.
    pub history: Option<(String, Result<Vec<VersionInfo>, StoreError>)>,
    /// Directory of the database, shown at the top.
    pub location: String,
    /// A rename being typed: (project, new name).
    pub renaming: Option<(String, String)>,
    /// A delete waiting for confirmation.
    pub confirm_delete: Option<String>,
    /// The last failure of a rename or delete.
    pub error: Option<String>,
}

impl LibraryBrowser {
    /// Open the window; the list is read again.
    pub fn show_window(&mut self) -> Vec<BrowserRequest> {
        self.open = true;
        self.error = None;
        let mut out = vec![BrowserRequest::Refresh];
        if let Some(name) = &self.selected {
            out.push(BrowserRequest::History(name.clone()));
        }
        out
    }

    /// Show the window (and the delete confirmation); returns the requests made this frame.
    pub fn show(&mut self, ctx: &egui::Context, palette: &Palette) -> Vec<BrowserRequest> {
        let mut out = Vec::new();
        if !self.open {
            return out;
        }
        let mut open = true;
        egui::Window::new("Project library")
            .open(&mut open)
            .pivot(egui::Align2::CENTER_TOP)
            .default_pos(ctx.content_rect().center_top() + egui::vec2(0.0, 80.0))
            .collapsible(false)
            .default_size([760.0, 420.0])
            .show(ctx, |ui| self.contents(ui, palette, &mut out));
        self.open &= open;
        if let Some(name) = self.confirm_delete.clone() {
            let versions = self.summary(&name).map_or(0, |s| s.version_count);
            let modal = egui::Modal::new(egui::Id::unique("confirm-delete")).show(ctx, |ui| {
                ui.set_width(380.0);
                ui.heading("Delete project");
                ui.label(format!(
                    "Delete “{name}” and all {versions} of its stored version{}? This cannot be undone.",
                    if versions == 1 { "" } else { "s" }
                ));
                ui.add_space(8.0);
                ui.horizontal(|ui| {
                    if ui.button(RichText::new("Delete").color(palette.error)).clicked() {
                        out.push(BrowserRequest::Delete(name.clone()));
                        self.confirm_delete = None;
                    }
                    if ui.button("Cancel").clicked() {
                        self.confirm_delete = None;
                    }
                });
            });
            if modal.should_close() {
                self.confirm_delete = None;
            }
        }
        out
    }

    fn summary(&self, name: &str) -> Option<&ProjectSummary> {
        self.list.as_ref()?.as_ref().ok()?.iter().find(|s| s.name == name)
    }

    fn contents(&mut self, ui: &mut Ui, palette: &Palette, out: &mut Vec<BrowserRequest>) {
        ui.set_min_size(egui::vec2(720.0, 340.0));
        ui.horizontal(|ui| {
            ui.weak(format!("Database: {}", self.location));
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button("Refresh").clicked() {
                    out.push(BrowserRequest::Refresh);
                }
            });
        });
        if let Some(e) = &self.error {
            ui.label(RichText::new(e).color(palette.error));
        }
        ui.separator();
        let height = ui.available_height().max(260.0) - 40.0;
        ui.columns(2, |columns| {
            self.projects(&mut columns[0], height, out);
            self.versions(&mut columns[1], palette, height, out);
        });
        ui.separator();
        let selected = self.selected.clone();
        ui.horizontal(|ui| {
            let some = selected.is_some();
            if ui.add_enabled(some, egui::Button::new(RichText::new("Open").strong())).clicked()
                && let Some(name) = &selected
            {
                out.push(BrowserRequest::Open { name: name.clone(), version: None });
            }
            if ui.add_enabled(some, egui::Button::new("Rename…")).clicked()
                && let Some(name) = &selected
            {
                self.renaming = Some((name.clone(), name.clone()));
            }
            if ui.add_enabled(some, egui::Button::new("Delete…")).clicked() {
                self.confirm_delete.clone_from(&selected);
            }
        });
        if let Some((from, to)) = &mut self.renaming {
            let mut done = None;
            ui.horizontal(|ui| {
                ui.label(format!("Rename “{from}” to"));
                let response = ui
                    .add(egui::TextEdit::singleline(to).desired_width(220.0).id_salt("rename-project"))
                    .accessible_name("New name");
                let enter = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if ui.button("Rename").clicked() || enter {
                    done = Some(true);
                }
                if ui.button("Cancel").clicked() {
                    done = Some(false);
                }
            });
            match done {
                Some(true) if to.trim() != from.as_str() => {
                    out.push(BrowserRequest::Rename { from: from.clone(), to: to.trim().to_string() });
                    self.renaming = None;
                }
                Some(_) => self.renaming = None,
                None => {}
            }
        }
    }

    fn projects(&mut self, ui: &mut Ui, height: f32, out: &mut Vec<BrowserRequest>) {
        ui.label(RichText::new("Projects").strong());
        let list = match &self.list {
            None => {
                ui.spinner();
                return;
            }
            Some(Err(e)) => {
                ui.label(e.to_string());
                return;
            }
            Some(Ok(list)) => list,
        };
        if list.is_empty() {
            ui.weak("No projects saved yet: File › Save stores the open project here.");
            return;
        }
        let mut clicked = None;
        egui::ScrollArea::vertical().id_salt("library-projects").max_height(height).show(ui, |ui| {
            egui::Grid::new("library-projects-grid").num_columns(3).striped(true).spacing([12.0, 4.0]).show(
                ui,
                |ui| {
                    ui.weak("name");
                    ui.weak("last saved");
                    ui.weak("versions");
                    ui.end_row();
                    for summary in list {
                        let selected = self.selected.as_deref() == Some(summary.name.as_str());
                        let response = ui.selectable_label(selected, &summary.name);
                        if response.clicked() {
                            clicked = Some((summary.name.clone(), false));
                        }
                        if response.double_clicked() {
                            clicked = Some((summary.name.clone(), true));
                        }
                        ui.label(summary.saved_at.to_string());
                        ui.label(summary.version_count.to_string());
                        ui.end_row();
                    }
                },
            );
        });
        if let Some((name, open)) = clicked {
            if open {
                out.push(BrowserRequest::Open { name: name.clone(), version: None });
            }
            if self.selected.as_deref() != Some(name.as_str()) {
                self.history = None;
                out.push(BrowserRequest::History(name.clone()));
                self.selected = Some(name);
            }
        }
    }

    fn versions(&self, ui: &mut Ui, palette: &Palette, height: f32, out: &mut Vec<BrowserRequest>) {
        let Some(name) = &self.selected else {
            ui.label(RichText::new("Versions").strong());
            ui.weak("Select a project to see its versions.");
            return;
        };
        ui.label(RichText::new(format!("Versions of “{name}”")).strong());
        match &self.history {
            Some((of, Ok(versions))) if of == name => {
                egui::ScrollArea::vertical().id_salt("library-versions").max_height(height).show(ui, |ui| {
                    egui::Grid::new("library-versions-grid")
                        .num_columns(4)
                        .striped(true)
                        .spacing([10.0, 4.0])
                        .show(ui, |ui| {
                            for (i, v) in versions.iter().enumerate().rev() {
                                ui.label(format!("v{}", v.version));
                                ui.label(v.saved_at.to_string());
                                ui.weak(format!("{:.1} kB", v.size_bytes as f64 / 1000.0));
                                let newest = if i + 1 == versions.len() { " (newest)" } else { "" };
                                let button = ui.small_button(format!("Open v{}", v.version));
                                if button
                                    .on_hover_text(format!("Open version {} of {name}{newest}", v.version))
                                    .clicked()
                                {
                                    out.push(BrowserRequest::Open {
                                        name: name.clone(),
                                        version: Some(v.version),
                                    });
                                }
                                ui.end_row();
                            }
                        });
                });
            }
            Some((of, Err(e))) if of == name => {
                ui.label(RichText::new(e.to_string()).color(palette.error));
            }
            _ => {
                ui.spinner();
            }
        }
    }
}
