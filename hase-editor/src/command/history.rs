//! Undo/redo history: the inverse of every applied command, with a revision number per document
//! state so the editor can tell whether the document differs from what was last saved.

use super::apply::apply;
use super::edit_command::{Applied, EditCommand};
use super::error::CommandError;
use crate::document::Document;

/// One undoable step.
#[derive(Clone, Debug)]
struct Step {
    /// What the step did ("move 3 entities").
    label: String,
    /// Applying this goes back (on the undo stack) or forward (on the redo stack).
    command: EditCommand,
    /// Revision of the document before applying `command`... after it, the other revision.
    revision_before: u64,
}

/// The undo and redo stacks.
#[derive(Clone, Debug, Default)]
pub struct History {
    undo: Vec<Step>,
    redo: Vec<Step>,
    revision: u64,
    next_revision: u64,
}

/// Most steps kept; older ones are forgotten.
const MAX_STEPS: usize = 500;

impl History {
    /// Apply `command` and remember how to undo it. A refused command changes nothing.
    pub fn apply(&mut self, doc: &mut Document, command: EditCommand) -> Result<Applied, CommandError> {
        let label = command.label();
        let applied = apply(doc, command)?;
        self.undo.push(Step { label, command: applied.inverse.clone(), revision_before: self.revision });
        if self.undo.len() > MAX_STEPS {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.next_revision += 1;
        self.revision = self.next_revision;
        Ok(applied)
    }

    /// Undo the last step; returns what it did, or `None` if there is nothing to undo.
    pub fn undo(&mut self, doc: &mut Document) -> Option<Result<(String, Applied), CommandError>> {
        let step = self.undo.pop()?;
        Some(self.replay(doc, step, true))
    }

    /// Redo the last undone step.
    pub fn redo(&mut self, doc: &mut Document) -> Option<Result<(String, Applied), CommandError>> {
        let step = self.redo.pop()?;
        Some(self.replay(doc, step, false))
    }

    fn replay(
        &mut self,
        doc: &mut Document,
        step: Step,
        undoing: bool,
    ) -> Result<(String, Applied), CommandError> {
        match apply(doc, step.command.clone()) {
            Ok(applied) => {
                let back = Step {
                    label: step.label.clone(),
                    command: applied.inverse.clone(),
                    revision_before: self.revision,
                };
                self.revision = step.revision_before;
                if undoing {
                    self.redo.push(back);
                } else {
                    self.undo.push(back);
                }
                Ok((step.label, applied))
            }
            Err(e) => {
                // Should not happen; drop the broken history rather than corrupt the document.
                self.undo.clear();
                self.redo.clear();
                Err(e)
            }
        }
    }

    /// Label of the step `undo` would undo.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|s| s.label.as_str())
    }

    /// Label of the step `redo` would redo.
    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|s| s.label.as_str())
    }

    /// Identifies the current document state: equal revisions mean equal documents.
    pub fn revision(&self) -> u64 {
        self.revision
    }
}
