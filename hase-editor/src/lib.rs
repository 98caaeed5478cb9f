//! hase-editor: the editor's state without any GUI (rerun's model: state crates apart from view
//! crates). `hase-app` draws it with egui; nothing here knows about egui, eframe or winit (the
//! dependency-rule test in `tests/tests/e2e/architecture.rs` checks it).
//!
//! - [`document`]: the edited project plus the built-in types.
//! - [`command`]: the only place the document changes, with undo/redo.
//! - [`state`]: what the panels share (selection, hierarchy path, log, settings).
//! - [`run`]: simulation runs from the editor (settings, the worker, finished runs, trace files).
//! - [`replay`]: the data the animator and the timing diagram read.
//! - [`session`]: runs with the replay views' state (animator clock, timing diagram, comparison,
//!   statistics order), changed through `SessionCommand`s.
//! - [`experiments`]: the experiments view (sweep builder, background sweep, results, plots).
//! - [`project_store`]: the project library (sled store) as the editor sees it, and its store calls.
//! - [`tasks`]: background work reporting through a channel; [`examples`]: `projects/` embedded.

pub mod analysis_views;
pub mod command;
pub mod csv_text;
pub mod document;
pub mod examples;
pub mod experiments;
pub mod project_store;
pub mod replay;
pub mod run;
pub mod session;
pub mod state;
pub mod tasks;

#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
