//! [`CanvasEdits`]: what one canvas frame asks of the editor. The selection and the palette type
//! armed for placing are kept as this frame's input leaves them, so that the frame's later steps
//! (the context menu, the drawing) read them as the editor will have them; the commands keep the
//! order they were asked in, a changed selection going before the edit that follows it.

use hase_editor::command::EditCommand;
use hase_editor::state::{Editor, EditorCommand, Selection};

/// The editor commands of one canvas frame, with the selection and placement tool they leave.
pub struct CanvasEdits {
    /// The selection as this frame's input leaves it.
    pub selection: Selection,
    /// The palette type armed for click-to-place as this frame's input leaves it.
    pub placing: Option<String>,
    /// The selection and placing the editor has once `commands` are applied.
    sent: (Selection, Option<String>),
    commands: Vec<EditorCommand>,
}

impl CanvasEdits {
    /// Nothing asked yet of `editor`.
    pub fn new(editor: &Editor) -> Self {
        let (selection, placing) = (editor.selection.clone(), editor.placing.clone());
        CanvasEdits { sent: (selection.clone(), placing.clone()), selection, placing, commands: Vec::new() }
    }

    /// Ask for a document edit.
    pub fn edit(&mut self, command: EditCommand) {
        self.push(EditorCommand::Edit(command));
    }

    /// Ask for `command`, after the selection and placing changed so far.
    pub fn push(&mut self, command: EditorCommand) {
        self.send_changes();
        self.commands.push(command);
    }

    /// The commands asked for, the last selection and placing changes included.
    pub fn finish(mut self) -> Vec<EditorCommand> {
        self.send_changes();
        self.commands
    }

    fn send_changes(&mut self) {
        if self.selection != self.sent.0 {
            self.sent.0.clone_from(&self.selection);
            self.commands.push(EditorCommand::Select(self.selection.clone()));
        }
        if self.placing != self.sent.1 {
            self.sent.1.clone_from(&self.placing);
            self.commands.push(EditorCommand::SetPlacing(self.placing.clone()));
        }
    }
}
