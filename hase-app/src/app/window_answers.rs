//! The windows and dialogs over the main window shown each frame: the template dialog, the project
//! browser, the big run's question, the Save-as name, the library failure message and the recovery offer. Each shows
//! itself and answers; this file turns answers into commands, store calls and file dialogs.

use hase_engine::model::{StreamSource, Workload};

use super::state::App;
use super::windows::{Incoming, SweepOnOpen};
use crate::theme::Palette;
use crate::ui::library_dialogs::{self, FailureAnswer, PromptAnswer, RecoveryAnswer};
use hase_editor::command::EditCommand;
use hase_editor::session::SessionCommand;
use hase_editor::session::timing::TimingCommand;
use hase_editor::state::LogLevel;
use hase_editor::tasks::{FilePurpose, FileRequest};

impl App {
    /// Show the windows; a modal question about unsaved changes goes first.
    pub(super) fn show_windows(&mut self, ctx: &egui::Context, palette: &Palette) {
        crate::ui::help::show(ctx, &mut self.windows.help, palette);
        self.show_experiments(ctx, palette);
        if let Some((request, path)) = self.files.show(ctx, palette) {
            self.file_chosen(ctx, request, path);
        }
        let template = self.palette_panel.template_clicked.take().or(self.canvas.template_dropped.take());
        if let Some(name) = template {
            self.windows.template.open_with(name, &self.editor);
        }
        if let Some(command) = self.windows.template.show(ctx, &self.editor, palette) {
            let label = command.label();
            if self.editor.run(command) {
                self.editor.log(
                    LogLevel::Info,
                    format!("{label}: {} entities", self.editor.selection.instances.len()),
                );
                self.editor.fit_requested = true;
            } else {
                self.windows.template.open = true;
            }
        }
        for request in self.windows.browser.show(ctx, palette) {
            self.browser_request(request);
        }
        let (project, settings) = (&self.editor.doc.project, &self.session.settings);
        if let Some(variant) = self.windows.variant.show(ctx, project, settings, palette) {
            self.open_variant_compare(variant);
        }
        let project = &self.editor.doc.project;
        let answer = crate::ui::what_if::window(ctx, project, &self.session.timing.analysis.what_if, palette);
        if let Some(menu) = answer.menu {
            self.session.apply(SessionCommand::Timing(TimingCommand::SetWhatIf(menu)));
        }
        if let Some(request) = answer.request {
            self.open_what_if(&request);
        }
        if let Some(question) = &self.run_size.question
            && let Some(answer) = crate::ui::big_run_dialog::show(ctx, question)
        {
            self.big_run_answered(answer);
        }
        self.windows.sheet_viewer.show(ctx, palette);
        // The check's result, when it comes, is taken before the window shows it.
        self.windows.levels.poll();
        if crate::ui::levels_window::show(ctx, &self.windows.levels, palette) {
            self.windows.levels.open = false;
        }
        self.windows.ties.poll();
        if crate::ui::ties_window::show(ctx, &self.windows.ties, palette) {
            self.windows.ties.open = false;
        }
        if self.pending.is_some() {
            return;
        }
        if let Some(message) = self.library.failure_dialog.clone() {
            match library_dialogs::library_failure(ctx, &message, palette) {
                Some(FailureAnswer::OpenRon) => {
                    self.library.failure_dialog = None;
                    self.ask_file(FileRequest::project(FilePurpose::OpenProject, vec!["ron".into()]));
                }
                Some(FailureAnswer::Continue) => self.library.failure_dialog = None,
                None => {}
            }
            return;
        }
        if !self.library.recovery.is_empty() {
            match library_dialogs::recovery(ctx, &self.library.recovery) {
                Some(RecoveryAnswer::Restore(i)) if i < self.library.recovery.len() => {
                    let record = self.library.recovery.remove(i);
                    let version = record.based_on_version.map(|v| (record.name.clone(), v));
                    let message =
                        format!("restored the autosave of “{}” from {}", record.name, record.saved_at);
                    // The other offers wait for the next start.
                    self.library.recovery.clear();
                    self.offer(
                        ctx,
                        Incoming {
                            project: record.project,
                            file: None,
                            version,
                            unsaved: true,
                            message,
                            sweep: SweepOnOpen::ItsOwn,
                        },
                    );
                }
                Some(RecoveryAnswer::Discard(i)) if i < self.library.recovery.len() => {
                    let record = self.library.recovery.remove(i);
                    if let Some(store) = self.library.store().cloned() {
                        self.tasks.library_discard_recovery(&store, record.name);
                    }
                }
                Some(RecoveryAnswer::Later) => self.library.recovery.clear(),
                _ => {}
            }
            return;
        }
        if let Some(prompt) = &mut self.windows.save_as
            && !prompt.waiting
        {
            match library_dialogs::save_as(ctx, prompt, palette) {
                Some(PromptAnswer::Save(name)) => {
                    if let Err(e) = hase_library::store::validate_name(&name) {
                        prompt.error = Some(e.to_string());
                    } else {
                        prompt.waiting = true;
                        self.save_as_named(name);
                    }
                }
                Some(PromptAnswer::Cancel) => {
                    self.windows.save_as = None;
                    self.after_save = None;
                }
                None => {}
            }
        }
    }

    /// Check levels on the compound selected (its full path, inside the compound open).
    pub(super) fn check_levels(&mut self) {
        let paths = crate::ui::timing::tab::selected_paths(&self.editor);
        let [path] = paths.as_slice() else {
            self.editor.notify(LogLevel::Warning, "Check levels: select one compound");
            return;
        };
        let project = &self.editor.doc.project;
        self.windows.levels.start(project, self.editor.file.as_deref(), path);
    }

    /// A file chosen for the workload: the stream of `rank`, or (`None`) the trace. The path is
    /// kept relative to the project file's folder when it lies inside it.
    pub(super) fn workload_file_chosen(&mut self, rank: Option<u32>, path: &std::path::Path) {
        let base = self.editor.file.as_ref().and_then(|f| f.parent().map(std::path::Path::to_path_buf));
        let shown = base
            .and_then(|b| path.strip_prefix(b).ok().map(std::path::Path::to_path_buf))
            .unwrap_or_else(|| path.to_path_buf());
        let shown = shown.display().to_string();
        let workload = match rank {
            Some(rank) => {
                let mut streams = match &self.editor.doc.project.workload {
                    Workload::Streams { streams } => streams.clone(),
                    _ => std::collections::BTreeMap::new(),
                };
                streams.insert(rank, StreamSource::File(shown));
                Workload::Streams { streams }
            }
            None => Workload::TimeIndependentTrace { path: shown },
        };
        self.editor.run(EditCommand::SetWorkload { workload });
    }
}
