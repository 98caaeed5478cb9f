//! hase-app: the `hase` desktop application (the views of the editor) and its command line.
//!
//! The editor's state lives in the egui-free `hase-editor` crate; its modules are re-exported here
//! under their old names so the views read `crate::command`, `crate::state`, … as before:
//! [`command`] (the only place the document changes, with undo/redo), [`document`], [`state`]
//! (selection, hierarchy path, log, settings), [`run`] and [`replay`] (runs and the data the
//! animator and timing diagram read), [`library`], [`tasks`], [`examples`].
//!
//! Views: [`app`] (the eframe application: panels, actions, background results, window title),
//! [`session`] (runs with the replay views' state), [`ui`] (one module per panel), [`theme`]
//! (every colour), [`file_dialog`] (the platform's file dialogs).

pub use hase_editor::{
    analysis, command, document, examples, experiments, library, replay, run, state, tasks,
};

pub mod actions;
pub mod app;
pub mod file_dialog;
pub mod icons;
pub mod session;
pub mod theme;
pub mod ui;

#[cfg(test)]
use hase_editor::fixtures;
#[cfg(test)]
mod gui_tests;
#[cfg(test)]
mod gui_tests_analysis;
#[cfg(test)]
mod gui_tests_design;
#[cfg(test)]
mod gui_tests_experiments;
#[cfg(test)]
mod gui_tests_files;
#[cfg(test)]
mod gui_tests_library;
#[cfg(test)]
mod gui_tests_newcomer;
#[cfg(test)]
mod gui_tests_sheet;
#[cfg(test)]
mod gui_tests_slurm;
#[cfg(test)]
mod panel_tests;
#[cfg(test)]
mod replay_gui_tests;
#[cfg(test)]
mod replay_gui_tests_linked;
