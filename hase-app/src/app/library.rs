//! The app's side of the project library: opening the store once, autosaving while there are
//! unsaved changes, File ▸ Save / Save as / Import / Export / Open example, and what to do when a
//! store call reports back. Projects that replace the document arrive as an [`Incoming`] and wait
//! for the unsaved-changes question when the document is dirty.

use std::time::Instant;

use super::state::App;
use super::windows::{Incoming, SweepOnOpen};
use crate::ui::dialogs::UnsavedQuestion;
use crate::ui::library_browser::BrowserRequest;
use crate::ui::library_dialogs::SaveAsPrompt;
use hase_editor::command::EditCommand;
use hase_editor::project_store::{LibraryOutput, LibraryStatus};
use hase_editor::state::LogLevel;
use hase_editor::tasks::{FilePurpose, FileRequest};

impl App {
    /// Library work before each frame: ask the store to open once, autosave when due.
    pub(super) fn library_step(&mut self, ctx: &egui::Context) {
        if matches!(self.library.status, LibraryStatus::Opening) && !self.library.open_requested {
            self.library.open_requested = true;
            self.tasks.library_open(self.library.location.clone());
        }
        let now = Instant::now();
        let state = (self.editor.generation, self.editor.history.revision());
        match self.library.autosave_due(now, self.editor.is_dirty(), state) {
            Ok(()) => {
                if let Some(store) = self.library.store() {
                    self.tasks.library_autosave(store, self.editor.doc.project.clone());
                    self.library.autosave_started(now, state);
                }
            }
            Err(Some(wait)) => ctx.request_repaint_after(wait),
            Err(None) => {}
        }
    }

    /// File ▸ Save: a new version in the library; without a library, the RON file. A project not
    /// in the library yet (new, an example, a file) is named first, as Save as does.
    pub(super) fn save(&mut self) {
        let state = (self.editor.generation, self.editor.history.revision());
        if let Some(store) = self.library.store() {
            if self.library.version.is_none() {
                let name = self.editor.doc.project.name.clone();
                self.windows.save_as =
                    Some(SaveAsPrompt { name, first_save: true, ..SaveAsPrompt::default() });
                return;
            }
            self.tasks.library_save(store, self.editor.doc.project.clone(), state);
            return;
        }
        match self.editor.file.clone() {
            Some(path) => {
                self.tasks.save_project(
                    self.editor.doc.project.clone(),
                    path,
                    self.editor.history.revision(),
                );
            }
            None => {
                self.ask_file(FileRequest::project(FilePurpose::SaveProjectAs, vec!["ron".into()]));
            }
        }
    }

    /// File ▸ Save as: a copy under a new name in the library; without a library, a RON file.
    pub(super) fn save_as(&mut self) {
        if self.library.store().is_some() {
            let name = format!("{} (copy)", self.editor.doc.project.name);
            self.windows.save_as = Some(SaveAsPrompt { name, ..SaveAsPrompt::default() });
        } else {
            self.ask_file(FileRequest::project(FilePurpose::SaveProjectAs, vec!["ron".into()]));
        }
    }

    /// Save as, once the name is typed.
    pub(super) fn save_as_named(&mut self, name: String) {
        let state = (self.editor.generation, self.editor.history.revision());
        if let Some(store) = self.library.store() {
            self.tasks.library_save_as(store, self.editor.doc.project.clone(), name, state);
        }
    }

    /// File ▸ Open from library (or, without a library, a RON file).
    pub(super) fn open(&mut self) {
        match self.library.store() {
            Some(store) => {
                let store = store.clone();
                self.windows.browser.location = store.database().data_dir().display().to_string();
                for request in self.windows.browser.show_window() {
                    self.browser_request(request);
                }
            }
            None => self.ask_file(FileRequest::project(FilePurpose::OpenProject, vec!["ron".into()])),
        }
    }

    /// File ▸ Open example ▸ `index`.
    pub(super) fn open_example(&mut self, ctx: &egui::Context, index: usize, sweep: SweepOnOpen) {
        let Some(example) = hase_editor::examples::EXAMPLES.get(index) else { return };
        match example.project() {
            Ok(project) => self.offer(
                ctx,
                Incoming {
                    project,
                    file: None,
                    version: None,
                    unsaved: false,
                    message: format!("opened example {}", example.file),
                    sweep,
                },
            ),
            Err(e) => self.editor.notify(LogLevel::Error, format!("cannot open example: {e}")),
        }
    }

    /// Carry out a request of the project browser.
    pub(super) fn browser_request(&mut self, request: BrowserRequest) {
        let Some(store) = self.library.store().cloned() else { return };
        match request {
            BrowserRequest::Refresh => self.tasks.library_list(&store),
            BrowserRequest::History(name) => self.tasks.library_history(&store, name),
            BrowserRequest::Open { name, version } => self.tasks.library_load(&store, name, version),
            BrowserRequest::Rename { from, to } => self.tasks.library_rename(&store, from, to),
            BrowserRequest::Delete(name) => self.tasks.library_delete(&store, name),
        }
    }

    /// A project to replace the document: at once when nothing is unsaved, else after asking.
    pub(super) fn offer(&mut self, ctx: &egui::Context, incoming: Incoming) {
        self.windows.incoming = Some(incoming);
        if self.editor.is_dirty() {
            self.pending = Some(UnsavedQuestion::Open);
        } else {
            self.go_on(ctx, UnsavedQuestion::Open);
        }
    }

    /// Replace the document with the project waiting in `windows.incoming`.
    pub(super) fn adopt_incoming(&mut self) {
        let Some(incoming) = self.windows.incoming.take() else { return };
        let previous = self.editor.doc.project.name.clone();
        self.editor.replace_project(incoming.project, incoming.file);
        let experiments = &mut self.windows.experiments;
        match incoming.sweep {
            SweepOnOpen::ItsOwn => experiments.switch_project(&previous, &self.editor.doc.project.name),
            SweepOnOpen::Keep => experiments.keep_sweep_of(&previous),
            SweepOnOpen::Spec(spec) => {
                experiments.switch_project(&previous, &self.editor.doc.project.name);
                experiments.load_spec(&spec);
            }
        }
        if incoming.unsaved {
            // Nothing saved holds this state: it stays marked unsaved until it is saved.
            self.editor.saved_revision = u64::MAX;
        }
        self.library.version = incoming.version;
        self.library.document_settled(Instant::now());
        self.editor.log(LogLevel::Info, incoming.message);
    }

    /// The user threw the document's changes away: drop its autosave too, so it is not offered
    /// as lost work next time. Returns true if a store call was started.
    pub(super) fn discard_autosave(&mut self) -> bool {
        let Some(store) = self.library.store().cloned() else { return false };
        let name = self.editor.doc.project.name.clone();
        if self.library.autosave_running {
            self.library.discard_after_autosave = Some(name);
        } else {
            self.tasks.library_discard_recovery(&store, name);
        }
        true
    }

    /// A store call reported back.
    pub(super) fn library_finished(&mut self, ctx: &egui::Context, output: LibraryOutput) {
        match output {
            LibraryOutput::Opened(Ok((store, recovery))) => {
                let dir = store.database().data_dir().display().to_string();
                self.editor.log(LogLevel::Info, format!("project library: {dir}"));
                self.windows.browser.location = dir;
                self.library.status = LibraryStatus::Open(store);
                // A project already open (from a file, or an example) gets autosaved from now on.
                self.library.document_settled(Instant::now());
                self.library.recovery = recovery;
            }
            LibraryOutput::Opened(Err(e)) => {
                let message = e.to_string();
                self.editor.log(LogLevel::Warning, format!("project library unavailable: {message}"));
                self.library.status = LibraryStatus::Unavailable(message.clone());
                self.library.failure_dialog = Some(message);
            }
            LibraryOutput::Listed(result) => self.windows.browser.list = Some(result),
            LibraryOutput::History { name, result } => self.windows.browser.history = Some((name, result)),
            LibraryOutput::Loaded(Ok(stored)) => {
                let (name, version) = (stored.project.name.clone(), stored.version.version);
                self.windows.browser.open = false;
                let incoming = Incoming {
                    project: stored.project,
                    file: None,
                    version: Some((name.clone(), version)),
                    unsaved: false,
                    message: format!("opened “{name}” version {version} from the library"),
                    sweep: SweepOnOpen::ItsOwn,
                };
                self.offer(ctx, incoming);
            }
            LibraryOutput::Loaded(Err(e)) => self.editor.notify(LogLevel::Error, format!("cannot open: {e}")),
            LibraryOutput::Saved { revision, generation, result } => {
                self.saved(ctx, generation, revision, result);
            }
            LibraryOutput::SavedAs { revision, generation, result } => match result {
                Ok((project, info)) => {
                    self.windows.save_as = None;
                    // The browser lists the new project.
                    self.browser_request(BrowserRequest::Refresh);
                    if generation == self.editor.generation {
                        let unchanged = self.editor.history.revision() == revision;
                        let name = project.name.clone();
                        if self.editor.run(EditCommand::SetProjectName { name }) && unchanged {
                            self.editor.saved_revision = self.editor.history.revision();
                        }
                    }
                    self.library.version = Some((project.name.clone(), info.version));
                    self.library.document_settled(Instant::now());
                    self.editor.notify(LogLevel::Info, format!("saved as “{}” in the library", project.name));
                    if let Some(pending) = self.after_save.take() {
                        self.go_on(ctx, pending);
                    }
                }
                Err(e) => {
                    if let Some(prompt) = &mut self.windows.save_as {
                        prompt.waiting = false;
                        prompt.error = Some(e.to_string());
                    }
                }
            },
            LibraryOutput::Renamed { from, to, result } => self.renamed(&from, &to, result),
            LibraryOutput::Deleted { name, result } => {
                match result {
                    Ok(()) => {
                        self.editor.log(LogLevel::Info, format!("deleted “{name}” from the library"));
                        let browser = &mut self.windows.browser;
                        browser.selected = None;
                        browser.history = None;
                        if self.library.version.as_ref().is_some_and(|(n, _)| *n == name) {
                            self.library.version = None;
                        }
                    }
                    Err(e) => self.windows.browser.error = Some(e.to_string()),
                }
                self.browser_request(BrowserRequest::Refresh);
            }
            LibraryOutput::Imported { path, result: Ok((project, info)) } => {
                let incoming = Incoming {
                    message: format!(
                        "imported {}: added to the project library as version {} of “{}”",
                        path.display(),
                        info.version,
                        project.name
                    ),
                    version: Some((project.name.clone(), info.version)),
                    project,
                    file: None,
                    unsaved: false,
                    sweep: SweepOnOpen::ItsOwn,
                };
                self.offer(ctx, incoming);
            }
            LibraryOutput::Imported { path, result: Err(e) } => {
                self.editor.notify(LogLevel::Error, format!("cannot import {}: {e}", path.display()));
            }
            LibraryOutput::Exported { path, result: Ok(()) } => {
                self.editor.notify(LogLevel::Info, format!("exported to {}", path.display()));
            }
            LibraryOutput::Exported { path, result: Err(e) } => {
                self.editor.notify(LogLevel::Error, format!("cannot export to {}: {e}", path.display()));
            }
            LibraryOutput::Autosaved(result) => {
                self.library.autosave_running = false;
                if let Err(e) = result {
                    self.editor.log(LogLevel::Warning, format!("autosave failed: {e}"));
                }
                if let Some(name) = self.library.discard_after_autosave.take()
                    && let Some(store) = self.library.store().cloned()
                {
                    self.tasks.library_discard_recovery(&store, name);
                }
            }
            LibraryOutput::RecoveryDiscarded { name, result } => {
                if let Err(e) = result {
                    self.editor.log(LogLevel::Warning, format!("cannot drop the autosave of “{name}”: {e}"));
                }
                if self.library.close_after_discard {
                    self.library.close_after_discard = false;
                    self.go_on(ctx, UnsavedQuestion::Quit);
                }
            }
        }
    }

    fn saved(
        &mut self,
        ctx: &egui::Context,
        generation: u64,
        revision: u64,
        result: Result<hase_library::store::VersionInfo, hase_library::store::StoreError>,
    ) {
        match result {
            Ok(info) => {
                if generation == self.editor.generation {
                    self.editor.saved_revision = revision;
                }
                let name = self.editor.doc.project.name.clone();
                self.editor.log(
                    LogLevel::Info,
                    format!("saved “{name}” as version {} in the library", info.version),
                );
                self.library.version = Some((name, info.version));
                self.library.document_settled(Instant::now());
                if let Some(pending) = self.after_save.take() {
                    self.go_on(ctx, pending);
                }
            }
            Err(e) => {
                self.after_save = None;
                self.editor.notify(LogLevel::Error, format!("cannot save: {e}"));
            }
        }
    }

    fn renamed(&mut self, from: &str, to: &str, result: Result<(), hase_library::store::StoreError>) {
        match result {
            Ok(()) => {
                self.editor.log(LogLevel::Info, format!("renamed “{from}” to “{to}” in the library"));
                let browser = &mut self.windows.browser;
                if browser.selected.as_deref() == Some(from) {
                    browser.selected = Some(to.to_string());
                    browser.history = None;
                    self.browser_request(BrowserRequest::History(to.to_string()));
                }
                if let Some((name, _)) = &mut self.library.version
                    && name == from
                {
                    *name = to.to_string();
                }
                // The open document is that project: it follows, and stays saved if it was.
                if self.editor.doc.project.name == from {
                    let clean = !self.editor.is_dirty();
                    if self.editor.run(EditCommand::SetProjectName { name: to.to_string() }) && clean {
                        self.editor.saved_revision = self.editor.history.revision();
                    }
                }
            }
            Err(e) => self.windows.browser.error = Some(e.to_string()),
        }
        self.browser_request(BrowserRequest::Refresh);
    }
}
