//! Modal dialogs: the unsaved-changes question asked before quitting, starting a new project or
//! opening another.

use egui::{Id, Modal, RichText};

use hase_editor::state::Editor;

/// What waits for the user's answer about unsaved changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnsavedQuestion {
    /// Quit the application.
    Quit,
    /// Start a new, empty project.
    NewProject,
    /// Open the project waiting to replace the document (from the library, an example or a file).
    Open,
}

/// The user's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Save first, then go on.
    Save,
    /// Go on without saving.
    Discard,
    /// Do nothing.
    Cancel,
}

/// Show the unsaved-changes dialog for `pending`; `to_library` says Save stores the project in
/// the library (else it writes the RON file). Returns the answer once given.
pub fn unsaved_changes(
    ctx: &egui::Context,
    editor: &Editor,
    pending: UnsavedQuestion,
    to_library: bool,
) -> Option<Answer> {
    let mut answer = None;
    let verb = match pending {
        UnsavedQuestion::Quit => "quitting",
        UnsavedQuestion::NewProject => "starting a new project",
        UnsavedQuestion::Open => "opening another project",
    };
    let response = Modal::new(Id::unique("unsaved-changes")).show(ctx, |ui| {
        ui.set_width(380.0);
        ui.heading("Unsaved changes");
        ui.add_space(4.0);
        ui.label(format!(
            "“{}” has changes that are not saved. Save them before {verb}?",
            editor.doc.project.name
        ));
        ui.add_space(10.0);
        ui.horizontal(|ui| {
            let save = if to_library || editor.file.is_some() { "Save" } else { "Save as…" };
            if ui.button(RichText::new(save).strong()).clicked() {
                answer = Some(Answer::Save);
            }
            if ui.button("Discard changes").clicked() {
                answer = Some(Answer::Discard);
            }
            if ui.button("Cancel").clicked() {
                answer = Some(Answer::Cancel);
            }
        });
    });
    if response.should_close() && answer.is_none() {
        answer = Some(Answer::Cancel);
    }
    answer
}
