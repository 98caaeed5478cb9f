//! The app's side of the experiments view: the experiment store taken from the project library's
//! database once it is open, the running sweep polled each frame, the window drawn with its
//! context, the files it asked for (specs, exports, imports, the plot as PNG or CSV), the example
//! experiment from File ▸ Open example, and a point opened in the animator and timing diagram
//! (its kept trace, or a run of the point with the same seed).

use std::path::PathBuf;

use hase_library::experiment::example::{PROJECT_FILE, SPEC_TEXT};
use hase_library::experiment::{spec_from_ron, spec_to_ron};
use hase_library::store::ExperimentStore;

use super::state::App;
use super::windows::{Incoming, SweepOnOpen};
use crate::theme::Palette;
use crate::ui::experiments::ExperimentsContext;
use hase_editor::experiments::ExperimentFileRequest;
use hase_editor::run::task::RunRequest;
use hase_editor::run::{NextRunSettings, RunSlot};
use hase_editor::state::LogLevel;
use hase_editor::tasks::{FileRequest, TaskOutput};

impl App {
    /// Per-frame work: the store, the running sweep, and the requests the window left.
    pub(super) fn experiments_step(&mut self, ctx: &egui::Context) {
        let view = &mut self.windows.experiments;
        if view.store.is_none()
            && let Some(projects) = self.library.store()
        {
            match ExperimentStore::with_database(projects.database().clone()) {
                Ok(store) => {
                    view.store = Some(store);
                    view.refresh_list();
                }
                Err(e) => self.editor.log(LogLevel::Warning, format!("experiment store: {e}")),
            }
        }
        let view = &mut self.windows.experiments;
        if view.slurm.busy() {
            let notice_before = view.notice.clone();
            if view.poll_slurm() {
                ctx.request_repaint_after(std::time::Duration::from_millis(50));
            } else if view.notice != notice_before
                && let Some(n) = view.notice.clone()
            {
                let level = if n.error { LogLevel::Warning } else { LogLevel::Info };
                self.editor.log(level, format!("experiments: {}", n.text));
            }
        }
        let view = &mut self.windows.experiments;
        if view.running.is_some() {
            let notice_before = view.notice.clone();
            if view.poll() {
                ctx.request_repaint_after(std::time::Duration::from_millis(100));
            } else if view.notice != notice_before
                && let Some(n) = view.notice.clone()
            {
                let level = if n.error { LogLevel::Warning } else { LogLevel::Info };
                self.editor.log(level, format!("experiments: {}", n.text));
            }
        }
        let exported = self.windows.plot_export.take();
        if exported.is_some() {
            // The screenshot has been taken: the figure drawn for it can go.
            self.windows.figure = None;
        }
        match exported {
            Some(Ok(path)) => {
                self.editor.notify(LogLevel::Info, format!("saved the plot to {}", path.display()));
            }
            Some(Err(e)) => self.editor.notify(LogLevel::Error, format!("cannot save the plot: {e}")),
            None => {}
        }
        self.start_pending_point();
        if let Some(point) = self.windows.experiments.open_point.take() {
            self.open_experiment_point(ctx, point);
        }
        if let Some(purpose) = self.windows.experiments.file_request.take() {
            self.ask_file(FileRequest::experiment(purpose));
        }
    }

    /// Draw the window.
    pub(super) fn show_experiments(&mut self, ctx: &egui::Context, palette: &Palette) {
        let no_store = self.windows.experiments.store.is_none().then(|| {
            self.library.why_unavailable().unwrap_or_else(|| "the experiment store did not open".into())
        });
        let cx = ExperimentsContext {
            project: &self.editor.doc.project,
            file: self.editor.file.as_deref(),
            generation: self
                .editor
                .generation
                .wrapping_mul(1 << 20)
                .wrapping_add(self.editor.history.revision()),
            no_store,
            palette,
            area: self.below_bars,
        };
        crate::ui::experiments::show(ctx, &mut self.windows.experiments, &cx);
        // Export plot PNG…: the figure is drawn over the window until it has been photographed.
        if let Some(figure) = &mut self.windows.figure {
            let theme = self.editor.settings.theme;
            let rect = crate::ui::experiments::figure::show(ctx, &self.windows.experiments, theme);
            figure.frames = figure.frames.saturating_add(1);
            if figure.ready() {
                figure.requested = true;
                let path = figure.path.clone();
                crate::ui::timing::export::request(ctx, rect, path, &self.windows.plot_export);
            } else if figure.gave_up() {
                self.windows.figure = None;
                self.editor.notify(LogLevel::Error, "cannot save the plot: the window took no screenshot");
            } else {
                ctx.request_repaint();
            }
        }
    }

    /// Simulate ▸ Experiments….
    pub(super) fn open_experiments(&mut self) {
        self.windows.experiments.open = true;
        self.windows.experiments.refresh_list();
    }

    /// File ▸ Open example ▸ the example experiment: its project replaces the design, its spec
    /// fills the builder.
    pub(super) fn open_experiment_example(&mut self, ctx: &egui::Context) {
        let Some(index) = hase_editor::examples::EXAMPLES.iter().position(|e| e.file == PROJECT_FILE) else {
            return self.editor.notify(LogLevel::Error, "the example experiment's project is not embedded");
        };
        match spec_from_ron(SPEC_TEXT, "allreduce_trees.sweep.ron") {
            Ok(spec) => self.open_example(ctx, index, SweepOnOpen::Spec(Box::new(spec))),
            Err(e) => return self.editor.notify(LogLevel::Error, format!("the example experiment: {e}")),
        }
        self.open_experiments();
    }

    /// A file chosen in a dialog the experiments view asked for.
    pub(super) fn experiment_file_chosen(
        &mut self,
        ctx: &egui::Context,
        purpose: &ExperimentFileRequest,
        path: PathBuf,
    ) {
        let view = &mut self.windows.experiments;
        match purpose {
            ExperimentFileRequest::SaveSpec => {
                let text = spec_to_ron(&view.builder.to_spec(&self.editor.doc.project.name));
                self.write_in_background("the sweep spec", path, text);
            }
            ExperimentFileRequest::LoadSpec => match hase_library::experiment::load_spec(&path) {
                Ok(spec) => {
                    view.load_spec(&spec);
                    self.editor.log(LogLevel::Info, format!("loaded the sweep spec {}", path.display()));
                }
                Err(e) => self.editor.notify(LogLevel::Error, e.to_string()),
            },
            ExperimentFileRequest::PlotCsv(text) => {
                let text = text.clone();
                self.write_in_background("the plotted data", path.with_extension("csv"), text);
            }
            ExperimentFileRequest::ResultsCsv(text) => {
                let text = text.clone();
                self.write_in_background("the results", path.with_extension("csv"), text);
            }
            ExperimentFileRequest::PlotPng => {
                if view.plot_rect.is_none() {
                    return self.editor.notify(LogLevel::Warning, "show a plot first");
                }
                let path = if path.extension().is_none() { path.with_extension("png") } else { path };
                self.windows.figure = Some(crate::ui::experiments::figure::FigureExport::new(path));
                ctx.request_repaint();
            }
            ExperimentFileRequest::SlurmJob => {
                // The job directory is the one holding the job.ron chosen.
                let dir = path.parent().map_or(path.clone(), std::path::Path::to_path_buf);
                view.slurm.collect_dir = dir.display().to_string();
                view.collect_slurm();
            }
            ExperimentFileRequest::ExportCsv(_)
            | ExperimentFileRequest::ExportRon(_)
            | ExperimentFileRequest::Import => {
                view.store_file_chosen(purpose, &path);
                if let Some(n) = view.notice.clone() {
                    self.editor.notify(if n.error { LogLevel::Error } else { LogLevel::Info }, n.text);
                }
            }
        }
    }

    fn write_in_background(&self, what: &str, path: PathBuf, text: String) {
        let what = what.to_string();
        self.tasks.spawn("export", move || {
            let result = hase_engine::model::write_atomic(&path, text.as_bytes())
                .map(|()| path.clone())
                .map_err(|source| hase_editor::run::SaveError::Write { path: path.clone(), source });
            TaskOutput::Replay(Box::new(hase_editor::run::ReplayOutput::Saved { what, result }))
        });
    }

    /// Open `point` of the results shown: the point's project replaces the design (after the
    /// unsaved-changes question, if any), then its kept trace is read, or the point runs again with
    /// its seed. The design is named after the point and is unsaved, and belongs to no library
    /// version: Save asks a name for it rather than storing the point's values as the next version
    /// of the project the experiment was made from.
    pub(super) fn open_experiment_point(&mut self, ctx: &egui::Context, point: u64) {
        let mut run = match self.windows.experiments.point_run(point) {
            Ok(run) => run,
            Err(e) => return self.editor.notify(LogLevel::Error, format!("cannot open point {point}: {e}")),
        };
        self.session.leave_compare();
        self.session.stop_all();
        run.project.name = format!("{} ({})", run.project.name, run.label);
        let message = format!("opened {} as “{}” (not saved)", run.label, run.project.name);
        let project = run.project.clone();
        self.windows.pending_point = Some(run);
        let sweep = SweepOnOpen::Keep;
        self.offer(ctx, Incoming { project, file: None, version: None, unsaved: true, message, sweep });
        self.start_pending_point();
    }

    /// Start the point waiting in `windows.pending_point` once its project is the design (drop it
    /// if the question about unsaved changes was cancelled).
    pub(super) fn start_pending_point(&mut self) {
        if self.windows.pending_point.is_none() || self.pending.is_some() {
            return;
        }
        let Some(run) = self.windows.pending_point.take() else { return };
        if self.windows.incoming.is_some() {
            // Cancelled: the design stays, and so does the project offered (for a later answer).
            self.windows.incoming = None;
            return;
        }
        // The design was replaced: let the session forget the old design's run first, so that
        // this run is not taken for one of it.
        if let Some(pending) = self.session.follow_project(self.editor.generation, &self.editor.doc.project) {
            self.spawn_marker_save(pending);
        }
        let id = self.session.next_id();
        let live = if let Some(path) = run.trace {
            self.editor.log(LogLevel::Info, format!("loading the kept trace {}…", path.display()));
            hase_editor::run::load::start(&self.tasks, path, run.project, id)
        } else {
            self.editor.log(LogLevel::Info, format!("running {} again (seed {})…", run.label, run.seed));
            let settings = NextRunSettings {
                level: run.level,
                seed: run.seed,
                until_text: run.until.map(|t| format!("{}ps", t.0)).unwrap_or_default(),
            };
            let request = RunRequest { project: run.project, file: None, settings, slot: RunSlot::Main, id };
            hase_editor::run::task::start(&self.tasks, request)
        };
        self.session.live.push(live);
    }
}
