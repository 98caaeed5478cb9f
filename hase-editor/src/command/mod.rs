//! Commands: the only way the document changes. The UI emits [`EditCommand`] values and [`apply`]
//! carries each out, returning the command that undoes it; [`history::History`] keeps those for undo/redo.
//! Compound edits (group, ungroup, paste, align) expand into batches of primitive commands, so their
//! undo is the primitives' undos in reverse order.

mod apply;
mod compound;
mod edit;
mod edit_command;
mod error;
mod fragment;
pub mod history;
mod primitives;
pub mod project;
pub mod template;
mod template_insert;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_project;

pub use apply::apply;
pub use edit::align_moves;
pub use edit_command::{Applied, EditCommand, TypeDef, workload_word};
pub use error::{CommandError, ExportedAction, RoutingConflict};
pub use fragment::{Alignment, Fragment};
pub use template_insert::{InsertForm, TemplateInsert};
