//! Modal dialogs of the project library: the offer to restore autosaved work found at start-up,
//! the message when the database cannot be opened (with the way out: RON files), and the name
//! asked for by Save as.

use egui::{Id, Modal, RichText};
use hase_library::store::Recovery;

use crate::theme::Palette;

/// The answer to the recovery offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecoveryAnswer {
    /// Open the autosaved project (by index in the list).
    Restore(usize),
    /// Drop the autosave (by index).
    Discard(usize),
    /// Keep the autosaves for the next start and close the dialog.
    Later,
}

/// Offer to restore the autosaves `records`; returns the answer once given.
pub fn recovery(ctx: &egui::Context, records: &[Recovery]) -> Option<RecoveryAnswer> {
    let mut answer = None;
    let response = Modal::new(Id::unique("recovery")).show(ctx, |ui| {
        ui.set_width(520.0);
        ui.heading("Recover unsaved work?");
        ui.add_space(4.0);
        ui.label(
            "hase did not close cleanly last time. These projects had changes that were autosaved but \
             never saved:",
        );
        ui.add_space(6.0);
        for (i, record) in records.iter().enumerate() {
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.vertical(|ui| {
                        ui.set_width(340.0);
                        ui.label(RichText::new(&record.name).strong());
                        let base = record.based_on_version.map_or_else(
                            || "never saved to the library".to_string(),
                            |v| format!("edits on version {v}"),
                        );
                        ui.weak(format!("autosaved {} · {base}", record.saved_at));
                    });
                    if ui
                        .button("Restore")
                        .on_hover_text("Open the autosaved project (still unsaved)")
                        .clicked()
                    {
                        answer = Some(RecoveryAnswer::Restore(i));
                    }
                    if ui.button("Discard").on_hover_text("Throw the autosaved changes away").clicked() {
                        answer = Some(RecoveryAnswer::Discard(i));
                    }
                });
            });
        }
        ui.add_space(8.0);
        if ui
            .button("Decide later")
            .on_hover_text("Keep the autosaves; they are offered again next time")
            .clicked()
        {
            answer = Some(RecoveryAnswer::Later);
        }
    });
    if response.should_close() && answer.is_none() {
        answer = Some(RecoveryAnswer::Later);
    }
    answer
}

/// The answer to the message about a library that cannot be opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureAnswer {
    /// Choose a RON file to open.
    OpenRon,
    /// Go on without the library.
    Continue,
}

/// Say why the library cannot be opened (`message` names the directory and the cause).
pub fn library_failure(ctx: &egui::Context, message: &str, palette: &Palette) -> Option<FailureAnswer> {
    let mut answer = None;
    let response = Modal::new(Id::unique("library-failure")).show(ctx, |ui| {
        ui.set_width(520.0);
        ui.heading("The project library cannot be opened");
        ui.add_space(4.0);
        ui.label(RichText::new(message).color(palette.warning));
        ui.add_space(6.0);
        ui.label(
            "You can still edit and save projects as RON files: File › Save writes the project to a \
             RON file while the library is unavailable.",
        );
        ui.add_space(10.0);
        ui.horizontal(|ui| {
            if ui.button(RichText::new("Open a RON file…").strong()).clicked() {
                answer = Some(FailureAnswer::OpenRon);
            }
            if ui.button("Continue without the library").clicked() {
                answer = Some(FailureAnswer::Continue);
            }
        });
    });
    if response.should_close() && answer.is_none() {
        answer = Some(FailureAnswer::Continue);
    }
    answer
}

/// The name typed for Save as, and why the last one was refused.
#[derive(Clone, Debug, Default)]
pub struct SaveAsPrompt {
    /// The name being typed.
    pub name: String,
    /// Why the last try failed (name taken, not usable).
    pub error: Option<String>,
    /// The save is running; the dialog is hidden until it reports.
    pub waiting: bool,
    /// The project's first save to the library (File ▸ Save of a project not stored yet).
    pub first_save: bool,
}

/// What the Save as dialog asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PromptAnswer {
    /// Save under this name.
    Save(String),
    /// Do nothing.
    Cancel,
}

/// Ask for the name of a copy of the project in the library.
pub fn save_as(ctx: &egui::Context, prompt: &mut SaveAsPrompt, palette: &Palette) -> Option<PromptAnswer> {
    let mut answer = None;
    let response = Modal::new(Id::unique("save-as")).show(ctx, |ui| {
        ui.set_width(420.0);
        if prompt.first_save {
            ui.heading("Save to the library");
            ui.label("Name the project: it is stored in the library under this name (Enter saves).");
        } else {
            ui.heading("Save as");
            ui.label(
                "Save a copy of the project in the library under a new name; you go on editing the copy \
                 (Enter saves).",
            );
        }
        ui.add_space(6.0);
        // Enter confirms. It is taken before the field sees it: a single-line field gives up the
        // focus on Enter and reports that only on the next frame, when the key is gone.
        let enter = ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Enter));
        let field = ui
            .add(egui::TextEdit::singleline(&mut prompt.name).desired_width(400.0).id_salt("save-as-name"))
            .accessible_name("Project name");
        if ui.memory(|m| m.focused().is_none()) {
            field.request_focus();
        }
        if let Some(e) = &prompt.error {
            ui.label(RichText::new(e).color(palette.error).small());
        }
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button(RichText::new("Save").strong()).clicked() || enter {
                answer = Some(PromptAnswer::Save(prompt.name.trim().to_string()));
            }
            if ui.button("Cancel").clicked() {
                answer = Some(PromptAnswer::Cancel);
            }
        });
    });
    if response.should_close() && answer.is_none() {
        answer = Some(PromptAnswer::Cancel);
    }
    answer
}
