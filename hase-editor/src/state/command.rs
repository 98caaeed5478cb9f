//! [`EditorCommand`]: every change the panels ask of the editor's state — a document edit (the
//! command layer, with undo), the selection, where the user is in the hierarchy, the palette type
//! armed for placing, the canvas's fit, the port legend, the toasts and the log. The panels draw
//! from a read-only editor and return commands; the application applies them at one point of the
//! frame (`Editor::apply`).

use std::time::Duration;

use super::selection::Selection;
use crate::command::EditCommand;

/// A change of the editor's state asked for by a panel.
#[derive(Clone, Debug)]
pub enum EditorCommand {
    /// Change the document (with undo); a refusal is logged and shown with its reason, created
    /// instances become the selection.
    Edit(EditCommand),
    /// Change the document, and select these when the change is taken (a rename).
    EditAndSelect(EditCommand, Selection),
    /// Select exactly these instances and links of the open network.
    Select(Selection),
    /// Open the inner network of this compound instance of the open network.
    OpenCompound(String),
    /// Go back up to this depth of the hierarchy (0: the top level), selecting the compound left.
    GoUpTo(usize),
    /// Arm this palette type for click-to-place, or disarm (`None`).
    SetPlacing(Option<String>),
    /// Fit the open network on the canvas on its next frame.
    RequestFit,
    /// The canvas fitted the open network as asked.
    FitDone,
    /// Show or hide the port legend.
    ShowLegend(bool),
    /// Drop the toasts raised longer ago than this.
    ExpireToasts(Duration),
    /// Empty the log.
    ClearLog,
}
