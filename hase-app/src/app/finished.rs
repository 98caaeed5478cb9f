//! What the app does when background work finishes: open the file dialog asked for, open the
//! chosen file, import a SimGrid platform, save where the user chose, set a file parameter, replace
//! the project, record a save.

use std::path::PathBuf;

use super::state::App;
use crate::file_dialog::NO_PORTAL_NOTICE;
use hase_editor::command::EditCommand;
use hase_editor::state::LogLevel;
use hase_editor::tasks::{FilePurpose, FileRequest, FileTarget, TaskOutput};

impl App {
    /// Open a file dialog for `request` (the desktop's, or hase's own where there is none), in the
    /// project file's folder.
    pub(crate) fn ask_file(&mut self, request: FileRequest) {
        let start = self.file_start_dir();
        self.files.ask(&self.tasks, request, start);
    }

    fn file_start_dir(&self) -> Option<PathBuf> {
        let beside_project =
            self.editor.file.as_ref().and_then(|f| f.parent()).map(std::path::Path::to_path_buf);
        beside_project.filter(|d| !d.as_os_str().is_empty()).or_else(|| std::env::current_dir().ok())
    }

    /// A file dialog closed with `path` (`None`: cancelled).
    pub(crate) fn file_chosen(&mut self, ctx: &egui::Context, request: FileRequest, path: Option<PathBuf>) {
        match (request.target, path) {
            (FileTarget::Project(_), None) => self.after_save = None,
            (FileTarget::Replay(_) | FileTarget::Experiment(_), None) => {}
            (FileTarget::Experiment(purpose), Some(path)) => self.experiment_file_chosen(ctx, &purpose, path),
            (FileTarget::Project(purpose), Some(path)) => self.project_file_chosen(purpose, path),
            (FileTarget::Replay(purpose), Some(path)) => self.replay_file_chosen(ctx, purpose, path),
        }
    }

    /// Handle what a background task reported (file dialogs, file and store I/O).
    pub(crate) fn task_finished(&mut self, ctx: &egui::Context, output: TaskOutput) {
        match output {
            TaskOutput::FileWanted(request) => self.ask_file(request),
            TaskOutput::FileDialogClosed { request, path: None, shown: false }
                if self.files.backend == crate::file_dialog::Backend::Desktop =>
            {
                let start = self.file_start_dir();
                // Told inside the dialog (a toast would cover its title) and in the log.
                if self.files.desktop_missing(request, start) {
                    self.editor.log(LogLevel::Info, NO_PORTAL_NOTICE);
                }
            }
            TaskOutput::FileDialogClosed { request, path, .. } => self.file_chosen(ctx, request, path),
            TaskOutput::ProjectOpened { path, result: Ok(project) } => {
                let message = format!("opened {}", path.display());
                let incoming = super::windows::Incoming {
                    project: *project,
                    file: Some(path),
                    version: None,
                    unsaved: false,
                    message,
                    sweep: super::windows::SweepOnOpen::ItsOwn,
                };
                self.offer(ctx, incoming);
            }
            TaskOutput::Library(output) => self.library_finished(ctx, *output),
            TaskOutput::PlatformImported { path, result: Ok((project, summary, notes)) } => {
                for note in notes {
                    self.editor.log(LogLevel::Warning, note);
                }
                let incoming = super::windows::Incoming {
                    project: *project,
                    file: None,
                    version: None,
                    unsaved: true,
                    message: format!("imported {}: {summary}", path.display()),
                    sweep: super::windows::SweepOnOpen::ItsOwn,
                };
                self.offer(ctx, incoming);
            }
            TaskOutput::PlatformImported { path, result: Err(e) } => {
                self.editor.notify(LogLevel::Error, format!("cannot import {}: {e}", path.display()));
            }
            TaskOutput::ProjectOpened { path, result: Err(e) } => {
                self.editor.notify(LogLevel::Error, format!("cannot open {}: {e}", path.display()));
            }
            TaskOutput::Replay(output) => self.replay_finished(*output),
            TaskOutput::Analysis(command) => {
                self.session.apply(hase_editor::session::SessionCommand::Timing(command));
            }
            TaskOutput::ProjectSaved { path, revision, result: Ok(()) } => {
                self.editor.saved_revision = revision;
                self.editor.log(LogLevel::Info, format!("saved {}", path.display()));
                self.editor.file = Some(path);
                if let Some(pending) = self.after_save.take() {
                    self.go_on(ctx, pending);
                }
            }
            TaskOutput::ProjectSaved { path, result: Err(e), .. } => {
                self.after_save = None;
                self.editor.notify(LogLevel::Error, format!("cannot save {}: {e}", path.display()));
            }
        }
    }

    /// A file chosen for the project: open, import, export, save as, or a workload or parameter file.
    fn project_file_chosen(&mut self, purpose: FilePurpose, path: PathBuf) {
        match purpose {
            FilePurpose::OpenProject => self.tasks.open_project(path),
            FilePurpose::ImportRon => match self.library.store().cloned() {
                Some(store) => self.tasks.library_import(&store, path),
                None => self.tasks.open_project(path),
            },
            FilePurpose::ExportRon { .. } => {
                let path = if path.extension().is_none() { path.with_extension("ron") } else { path };
                self.tasks.export_ron(self.editor.doc.project.clone(), path);
            }
            FilePurpose::StreamFile { rank } => self.workload_file_chosen(Some(rank), &path),
            FilePurpose::TraceFile => self.workload_file_chosen(None, &path),
            FilePurpose::ImportSimgrid(latency) => self.tasks.import_simgrid(path, latency),
            FilePurpose::SaveProjectAs => {
                let path = if path.extension().is_none() { path.with_extension("ron") } else { path };
                let project = self.editor.doc.project.clone();
                self.tasks.save_project(project, path, self.editor.history.revision());
            }
            FilePurpose::Param { net, instances, param } => {
                let base =
                    self.editor.file.as_ref().and_then(|f| f.parent().map(std::path::Path::to_path_buf));
                let shown = base
                    .and_then(|b| path.strip_prefix(b).ok().map(std::path::Path::to_path_buf))
                    .unwrap_or(path);
                let value = hase_engine::model::ParamValue::Text(shown.display().to_string());
                let commands = instances
                    .into_iter()
                    .map(|instance| EditCommand::SetParam {
                        net: net.clone(),
                        instance,
                        param: param.clone(),
                        value: Some(value.clone()),
                    })
                    .collect();
                self.editor.run(EditCommand::Batch { label: format!("set {param}"), commands });
            }
        }
    }
}
