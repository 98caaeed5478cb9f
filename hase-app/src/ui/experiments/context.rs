//! What every tab of the experiments window is drawn with: [`ExperimentsContext`] (what the window
//! reads from the rest of the app), table cells that select their row ([`cell`]), the action rows
//! of [`RowButton`]s that tools such as the Slurm dialogs add their buttons to, and [`ask`] for a
//! file dialog.

use std::path::Path;

use egui::Ui;
use hase_editor::experiments::{ExperimentFileRequest, ExperimentsView};
use hase_engine::model::Project;

use crate::theme::Palette;

/// What the experiments window reads from the rest of the app.
pub struct ExperimentsContext<'a> {
    /// The design being edited (sweeps are built and run on it).
    pub project: &'a Project,
    /// Its file, if it has one (workload files are read beside it).
    pub file: Option<&'a Path>,
    /// The editor's generation (the preview is recomputed when the design changes).
    pub generation: u64,
    /// Why there is no experiment store, if there is none.
    pub no_store: Option<String>,
    /// Colours.
    pub palette: &'a Palette,
    /// Where windows may go: below the menu and the run toolbar, above the status bar.
    pub area: egui::Rect,
}

/// A cell of a table whose rows are selected by a click anywhere on them: its response joins
/// the row's.
pub fn cell(ui: &mut Ui, text: String) -> egui::Response {
    ui.add(egui::Label::new(text).sense(egui::Sense::click()).selectable(false))
}

/// One button of an action row; rows are lists of these so that other tools (Slurm) can add
/// theirs next to the view's own.
pub struct RowButton<'a> {
    /// Text (also the accessible name tests click).
    pub text: &'a str,
    /// Hover text.
    pub hint: &'a str,
    /// Clickable.
    pub enabled: bool,
}

impl<'a> RowButton<'a> {
    /// An enabled button.
    pub const fn new(text: &'a str, hint: &'a str) -> Self {
        RowButton { text, hint, enabled: true }
    }

    /// The same button, clickable only when `enabled`.
    #[must_use]
    pub const fn enabled(self, enabled: bool) -> Self {
        RowButton { enabled, ..self }
    }
}

/// Draw `buttons` in a row; returns the index clicked.
pub fn action_row(ui: &mut Ui, buttons: &[RowButton<'_>]) -> Option<usize> {
    let mut clicked = None;
    ui.horizontal_wrapped(|ui| {
        for (i, b) in buttons.iter().enumerate() {
            let response = ui.add_enabled(b.enabled, egui::Button::new(b.text));
            let response = if b.enabled {
                response.on_hover_text(b.hint)
            } else {
                response.on_disabled_hover_text(b.hint)
            };
            if response.clicked() {
                clicked = Some(i);
            }
        }
    });
    clicked
}

/// Ask the app for a file dialog.
pub fn ask(view: &mut ExperimentsView, purpose: ExperimentFileRequest) {
    view.file_request = Some(purpose);
}
