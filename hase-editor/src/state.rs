//! The editor's state shared by every panel: the document with its history, where the user is in
//! the hierarchy, the selection, the clipboard, the log and toasts, and the view settings. Panels
//! change the document only through [`Editor::run`] (which goes through the command layer).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Instant;

use hase_engine::model::Project;

use crate::command::history::History;
use crate::command::{EditCommand, Fragment};
use crate::document::{Document, NetworkId};

/// One step into the hierarchy: the compound instance opened and its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crumb {
    /// Instance name in the parent network.
    pub instance: String,
    /// Its compound type (whose inner network is shown).
    pub type_name: String,
}

/// Selected instances and links of the open network.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Instance names.
    pub instances: BTreeSet<String>,
    /// Link keys.
    pub links: BTreeSet<String>,
}

impl Selection {
    /// True if nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.instances.is_empty() && self.links.is_empty()
    }
    /// Select nothing.
    pub fn clear(&mut self) {
        self.instances.clear();
        self.links.clear();
    }
    /// Select exactly one instance.
    pub fn only(&mut self, name: &str) {
        self.clear();
        self.instances.insert(name.to_string());
    }
}

/// How important a log line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogLevel {
    /// Something happened.
    Info,
    /// Something was refused or looks wrong.
    Warning,
    /// Something failed.
    Error,
}

/// One line of the log.
#[derive(Clone, Debug)]
pub struct LogLine {
    /// Seconds since the editor started.
    pub at_s: f64,
    /// Importance.
    pub level: LogLevel,
    /// Text.
    pub text: String,
    /// The entity the line is about (instance path, possibly with `.port`): clicking the line
    /// reveals it.
    pub path: Option<String>,
}

/// A short message shown over the canvas for a few seconds.
#[derive(Clone, Debug)]
pub struct Toast {
    /// Importance.
    pub level: LogLevel,
    /// Text.
    pub text: String,
    /// When it was raised.
    pub since: Instant,
}

/// Light or dark (the colours themselves live in the app's theme).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ThemeChoice {
    /// Dark background (default).
    #[default]
    Dark,
    /// Light background.
    Light,
}

/// View settings of the editor.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Draw the grid.
    pub grid: bool,
    /// Snap moved and placed entities to the grid.
    pub snap: bool,
    /// Grid spacing in canvas units.
    pub grid_step: f32,
    /// Colours.
    pub theme: ThemeChoice,
    /// The port legend window is open.
    pub legend_open: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { grid: true, snap: true, grid_step: 20.0, theme: ThemeChoice::Dark, legend_open: false }
    }
}

/// Everything the panels share.
pub struct Editor {
    /// The project being edited.
    pub doc: Document,
    /// Undo/redo.
    pub history: History,
    /// Path from the top level to the open network.
    pub crumbs: Vec<Crumb>,
    /// Selection in the open network.
    pub selection: Selection,
    /// Copied entities.
    pub clipboard: Option<Fragment>,
    /// A palette type armed for click-to-place.
    pub placing: Option<String>,
    /// Messages.
    pub log: Vec<LogLine>,
    /// Messages shown over the canvas.
    pub toasts: Vec<Toast>,
    /// View settings.
    pub settings: Settings,
    /// The RON file the project was loaded from or saved to.
    pub file: Option<PathBuf>,
    /// History revision at the last save (or load).
    pub saved_revision: u64,
    /// Set when the canvas should fit the open network on its next frame.
    pub fit_requested: bool,
    /// Counts project replacements (New, Open), so caches keyed by history revision stay valid.
    pub generation: u64,
    started: Instant,
}

impl Editor {
    /// An editor on `project`.
    pub fn new(project: Project) -> Self {
        Editor {
            doc: Document::with_builtins(project),
            history: History::default(),
            crumbs: Vec::new(),
            selection: Selection::default(),
            clipboard: None,
            placing: None,
            log: Vec::new(),
            toasts: Vec::new(),
            settings: Settings::default(),
            file: None,
            saved_revision: 0,
            fit_requested: true,
            generation: 0,
            started: Instant::now(),
        }
    }

    /// Replace the project (File ▸ New / Open): history, selection and hierarchy start afresh.
    pub fn replace_project(&mut self, project: Project, file: Option<PathBuf>) {
        let settings = self.settings.clone();
        let log = std::mem::take(&mut self.log);
        let generation = self.generation + 1;
        let started = self.started;
        *self = Editor::new(project);
        self.started = started;
        self.settings = settings;
        self.log = log;
        self.generation = generation;
        self.file = file;
    }

    /// The network shown on the canvas.
    pub fn current_net(&self) -> NetworkId {
        self.crumbs.last().map_or(NetworkId::Top, |c| NetworkId::Type(c.type_name.clone()))
    }

    /// True if the document differs from what was last saved or loaded.
    pub fn is_dirty(&self) -> bool {
        self.history.revision() != self.saved_revision
    }

    /// Record a message in the log.
    pub fn log(&mut self, level: LogLevel, text: impl Into<String>) {
        self.log_at(level, text, None);
    }

    /// Record a message about the entity at `path` (clicking it in the log reveals the entity).
    pub fn log_at(&mut self, level: LogLevel, text: impl Into<String>, path: Option<String>) {
        self.log.push(LogLine { at_s: self.started.elapsed().as_secs_f64(), level, text: text.into(), path });
    }

    /// Record a message and show it over the canvas.
    pub fn notify(&mut self, level: LogLevel, text: impl Into<String>) {
        let text = text.into();
        self.log(level, text.clone());
        self.toasts.push(Toast { level, text, since: Instant::now() });
        if self.toasts.len() > 4 {
            self.toasts.remove(0);
        }
    }

    /// Apply a command. A refusal is logged and shown with its reason; created instances become
    /// the selection. Returns true if the command was applied.
    pub fn run(&mut self, command: EditCommand) -> bool {
        let label = command.label();
        match self.history.apply(&mut self.doc, command) {
            Ok(applied) => {
                if !applied.created.is_empty() {
                    self.selection.clear();
                    self.selection.instances.extend(applied.created);
                }
                self.after_change();
                true
            }
            Err(e) => {
                self.notify(LogLevel::Warning, format!("cannot {label}: {e}"));
                false
            }
        }
    }

    /// Undo the last edit.
    pub fn undo(&mut self) {
        match self.history.undo(&mut self.doc) {
            None => {}
            Some(Ok((label, applied))) => {
                self.log(LogLevel::Info, format!("undid {label}"));
                if !applied.created.is_empty() {
                    self.selection.clear();
                    self.selection.instances.extend(applied.created);
                }
                self.after_change();
            }
            Some(Err(e)) => self.notify(LogLevel::Error, format!("undo failed: {e}")),
        }
    }

    /// Redo the last undone edit.
    pub fn redo(&mut self) {
        match self.history.redo(&mut self.doc) {
            None => {}
            Some(Ok((label, applied))) => {
                self.log(LogLevel::Info, format!("redid {label}"));
                if !applied.created.is_empty() {
                    self.selection.clear();
                    self.selection.instances.extend(applied.created);
                }
                self.after_change();
            }
            Some(Err(e)) => self.notify(LogLevel::Error, format!("redo failed: {e}")),
        }
    }

    /// Keep the hierarchy path and the selection pointing at things that exist.
    fn after_change(&mut self) {
        while !self.crumbs.is_empty() && self.doc.network(&self.current_net()).is_none() {
            self.crumbs.pop();
            self.selection.clear();
        }
        let net = self.current_net();
        if let Some(network) = self.doc.network(&net) {
            self.selection.instances.retain(|n| network.instances.contains_key(n));
            let keys: BTreeSet<String> = network.links.iter().map(hase_engine::model::Link::key).collect();
            self.selection.links.retain(|k| keys.contains(k));
        }
    }

    /// Open compound instance `instance` of the current network (double-click).
    pub fn open_compound(&mut self, instance: &str) {
        let net = self.current_net();
        let Some(inst) = self.doc.network(&net).and_then(|n| n.instances.get(instance)) else {
            return;
        };
        let type_name = inst.type_name.clone();
        if self.doc.project.types.get(&type_name).is_some_and(|t| t.compound.is_some()) {
            self.crumbs.push(Crumb { instance: instance.to_string(), type_name });
            self.selection.clear();
            self.fit_requested = true;
        } else {
            self.notify(LogLevel::Info, format!("{instance} ({type_name}) has no inner network to open"));
        }
    }

    /// Go back up to depth `depth` of the hierarchy (0 = top level).
    pub fn go_up_to(&mut self, depth: usize) {
        if depth < self.crumbs.len() {
            let child = self.crumbs[depth].instance.clone();
            self.crumbs.truncate(depth);
            self.selection.only(&child);
        }
    }

    /// The selected instances, sorted.
    pub fn selected_instances(&self) -> Vec<String> {
        self.selection.instances.iter().cloned().collect()
    }
}
