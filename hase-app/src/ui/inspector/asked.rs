//! [`Asked`]: an edit a field of the inspector asked for, remembered until the next frame shows
//! whether the editor took it (the document changed) or refused it (the reason is then the log's
//! last line, which the refusal wrote), for the field to show the reason or close.

use hase_editor::state::Editor;

/// An edit asked for, and what the field needs to know about it.
pub struct Asked<T> {
    /// The document's generation and revision when it was asked for.
    document: (u64, u64),
    /// What the field keeps about it (the parameter it sets …).
    pub what: T,
}

/// What became of an edit asked for.
pub enum Outcome<T> {
    /// The editor took it.
    Taken(T),
    /// The editor refused it, for this reason.
    Refused(T, String),
}

impl<T> Asked<T> {
    /// An edit asked of `editor` this frame.
    pub fn new(editor: &Editor, what: T) -> Self {
        Asked { document: (editor.generation, editor.history.revision()), what }
    }

    /// What became of it, once the editor has applied the frame's commands.
    pub fn outcome(self, editor: &Editor) -> Outcome<T> {
        if (editor.generation, editor.history.revision()) == self.document {
            let reason = editor.log.last().map(|l| l.text.clone()).unwrap_or_default();
            Outcome::Refused(self.what, reason)
        } else {
            Outcome::Taken(self.what)
        }
    }
}
