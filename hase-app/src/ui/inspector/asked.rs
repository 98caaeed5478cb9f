//! [`Asked`]: an edit a field of the inspector asked for, remembered until the next frame shows
//! whether the editor took it or refused it (with the reason it logged), for the field to show
//! the reason or close.

use hase_editor::state::Editor;

/// An edit asked for, and what the field needs to know about it.
pub struct Asked<T> {
    /// The document's generation and the editor's count of refused edits when it was asked for.
    asked_at: (u64, u64),
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
        Asked { asked_at: (editor.generation, editor.refusals), what }
    }

    /// What became of it, once the editor has applied the frame's commands.
    pub fn outcome(self, editor: &Editor) -> Outcome<T> {
        let (generation, refusals) = self.asked_at;
        match &editor.last_refusal {
            Some(reason) if editor.generation == generation && editor.refusals > refusals => {
                Outcome::Refused(self.what, reason.clone())
            }
            _ => Outcome::Taken(self.what),
        }
    }
}
