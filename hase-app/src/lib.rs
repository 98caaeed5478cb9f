//! hase-app: the `hase` desktop application (the design editor); the command line joins it later.
//!
//! - [`app`]: the eframe application: panels, actions, background results, window title.
//! - [`command`]: the only place the document changes, with undo/redo.
//! - [`document`]: the edited project plus the built-in types.
//! - [`state`]: what the panels share (selection, hierarchy path, log, settings).
//! - [`ui`]: one module per panel; [`theme`]: every colour; [`tasks`]: background work.
//! - [`run`]: simulation runs in the editor; [`replay`]: the data the animator and timing diagram read.

pub mod actions;
pub mod app;
pub mod command;
pub mod document;
pub mod examples;
pub mod icons;
pub mod library;
pub mod replay;
pub mod run;
pub mod state;
pub mod tasks;
pub mod theme;
pub mod ui;

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod gui_tests;
#[cfg(test)]
mod gui_tests_design;
#[cfg(test)]
mod gui_tests_library;
#[cfg(test)]
mod replay_gui_tests;
#[cfg(test)]
mod replay_gui_tests_linked;
