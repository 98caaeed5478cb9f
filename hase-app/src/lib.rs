//! hase-app: the `hase` desktop application (the views of the editor) and its command line.
//!
//! The editor's state lives in the egui-free `hase-editor` crate, which the views name directly
//! (`hase_editor::command`, `hase_editor::state`, …).
//!
//! Everything here is the desktop application, built with the `gui` feature (on by default); the
//! command line lives in the binary (`src/cli/`) and needs none of it.
//!
//! Views: [`app`] (the eframe application: panels, actions, background results, window title),
//! [`ui`] (one module per panel), [`theme`]
//! (every colour), [`file_dialog`] (the platform's file dialogs).

#[cfg(feature = "gui")]
pub mod actions;
#[cfg(feature = "gui")]
pub mod app;
#[cfg(feature = "gui")]
pub mod file_dialog;
#[cfg(feature = "gui")]
pub mod icons;
#[cfg(feature = "gui")]
pub mod theme;
#[cfg(feature = "gui")]
pub mod ui;

#[cfg(test)]
#[cfg(feature = "gui")]
mod gui_tests;
