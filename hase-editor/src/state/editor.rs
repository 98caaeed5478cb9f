//! [`Editor`]: the editor's state shared by every panel — the document with its history, where the
//! user is in the hierarchy, the selection, the clipboard, the log and toasts, the view settings —
//! and [`Editor::apply`], the one place an [`EditorCommand`] changes it. The document itself
//! changes only through [`Editor::run`] (the command layer, with undo).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Instant;

use hase_engine::model::Project;

use super::command::EditorCommand;
use super::log::{LogLevel, LogLine, Toast};
use super::selection::{Crumb, Selection};
use super::settings::Settings;
use crate::command::history::History;
use crate::command::{EditCommand, Fragment};
use crate::document::{Document, NetworkId};

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
    /// Edits refused so far (a field that asked for one learns from it whether it was taken).
    pub refusals: u64,
    /// The reason the last refused edit gave, as logged (`cannot rename p0: …`).
    pub last_refusal: Option<String>,
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
            refusals: 0,
            last_refusal: None,
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
                let reason = format!("cannot {label}: {e}");
                self.refusals += 1;
                self.last_refusal = Some(reason.clone());
                self.notify(LogLevel::Warning, reason);
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

    /// Carry out `command` (see [`EditorCommand`]).
    pub fn apply(&mut self, command: EditorCommand) {
        match command {
            EditorCommand::Edit(edit) => {
                self.run(edit);
            }
            EditorCommand::EditAndSelect(edit, selection) => {
                if self.run(edit) {
                    self.selection = selection;
                }
            }
            EditorCommand::Select(selection) => self.selection = selection,
            EditorCommand::OpenCompound(instance) => self.open_compound(&instance),
            EditorCommand::GoUpTo(depth) => self.go_up_to(depth),
            EditorCommand::SetPlacing(placing) => self.placing = placing,
            EditorCommand::RequestFit => self.fit_requested = true,
            EditorCommand::FitDone => self.fit_requested = false,
            EditorCommand::ShowLegend(open) => self.settings.legend_open = open,
            EditorCommand::ExpireToasts(shown_for) => self.toasts.retain(|t| t.since.elapsed() < shown_for),
            EditorCommand::ClearLog => self.log.clear(),
        }
    }

    /// The selected instances, sorted.
    pub fn selected_instances(&self) -> Vec<String> {
        self.selection.instances.iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::demo_project;

    #[test]
    fn commands_change_the_selection_and_a_refused_rename_selects_nothing_new() {
        let mut editor = Editor::new(demo_project());
        let mut one = Selection::default();
        one.only("p0");
        editor.apply(EditorCommand::Select(one.clone()));
        assert_eq!(editor.selection, one);
        editor.apply(EditorCommand::SetPlacing(Some("Router".into())));
        assert_eq!(editor.placing.as_deref(), Some("Router"));
        // Renaming p0 to a name taken: refused, counted, the selection stays.
        let mut renamed = Selection::default();
        renamed.only("p1");
        let rename = EditCommand::Rename { net: NetworkId::Top, from: "p0".into(), to: "p1".into() };
        editor.apply(EditorCommand::EditAndSelect(rename, renamed.clone()));
        assert_eq!((editor.refusals, &editor.selection), (1, &one));
        assert!(editor.last_refusal.as_deref().is_some_and(|r| r.starts_with("cannot rename")));
        // A free name: taken, and the new name is selected.
        let mut fresh = Selection::default();
        fresh.only("q0");
        let rename = EditCommand::Rename { net: NetworkId::Top, from: "p0".into(), to: "q0".into() };
        editor.apply(EditorCommand::EditAndSelect(rename, fresh.clone()));
        assert_eq!((editor.refusals, &editor.selection), (1, &fresh));
        editor.apply(EditorCommand::ClearLog);
        assert!(editor.log.is_empty());
    }
}
