//! The application's side of runs and replay: starting and stopping runs, taking in their results
//! (statistics, replay, problems in the log with their entities), the animator clock each frame,
//! the comparison, exports, marker saving, and revealing entities asked for by the log or the
//! timing diagram.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hase_engine::kernel::RunOutcome;
use hase_engine::model::Project;
use hase_engine::time::SimTime;

use super::state::App;
use crate::actions::AppAction;
use crate::theme::{Palette, ReplayColours};
use crate::ui::compare::CompareViews;
use crate::ui::dock::DockTab;
use crate::ui::reveal;
use hase_editor::analysis_views::what_if::{self, WhatIfRequest};
use hase_editor::replay::markers;
use hase_editor::run::size_check::{self, BigRunAnswer, BigRunQuestion, Verdict};
use hase_editor::run::task::{RunRequest, start};
use hase_editor::run::{
    FinishedRun, MarkerSave, ReplayFile, ReplayOutput, RunDone, RunSlot, SaveError, TraceFileError,
};
use hase_editor::session::compare::{Compare, CompareSide, thesis_example, with_variant};
use hase_editor::session::timing::TimingCommand;
use hase_editor::session::variant::Variant;
use hase_editor::session::{Reveal, SessionCommand};
use hase_editor::state::LogLevel;
use hase_editor::tasks::{FileRequest, TaskOutput};
use hase_library::estimate::Estimate;
use hase_library::mpi::record::{TIMELINE_FILES, recording_timelines};
use hase_library::what_if::set_arguments;

/// Seconds unsaved marker edits wait before they are written.
const MARKER_SAVE_DELAY_S: f64 = 1.0;

impl App {
    /// Per-frame work of runs and replay, before the UI.
    pub(super) fn replay_logic(&mut self, ctx: &egui::Context) {
        if let Some(pending) = self.session.follow_project(self.editor.generation, &self.editor.doc.project) {
            self.spawn_marker_save(pending);
        }
        self.session.stale = match &self.session.current {
            Some(run) => self.session.staleness.check(run, &self.editor),
            None => false,
        };
        let dirs: Vec<std::path::PathBuf> = self
            .editor
            .file
            .as_deref()
            .and_then(std::path::Path::parent)
            .map(std::path::Path::to_path_buf)
            .into_iter()
            .chain([std::path::PathBuf::from(".")])
            .collect();
        self.images.set_search_dirs(dirs);
        let end = self.session.clock_end();
        if self.session.player.playing {
            let dt = f64::from(ctx.input(|i| i.stable_dt).min(0.1));
            self.session.player.advance(dt, end);
            ctx.request_repaint();
        }
        if !self.session.live.is_empty() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
        if let Some(receiver) = &self.run_size.estimating {
            match receiver.try_recv() {
                Ok(estimated) => self.estimated(estimated),
                Err(std::sync::mpsc::TryRecvError::Empty) => {
                    ctx.request_repaint_after(Duration::from_millis(50));
                }
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.run_size.estimating = None,
            }
        }
        let exported = self.export_result.take();
        match exported {
            Some(Ok(path)) => {
                self.editor.notify(LogLevel::Info, format!("saved the timing diagram to {}", path.display()));
            }
            Some(Err(e)) => {
                self.editor.notify(LogLevel::Error, format!("cannot save the timing diagram: {e}"));
            }
            None => {}
        }
        self.save_markers_when_settled(ctx);
        match self.session.reveal_request.take() {
            Some(Reveal { side: None, path })
                if !reveal::reveal(&mut self.editor, &mut self.canvas, &path) =>
            {
                self.editor.notify(LogLevel::Info, format!("{path} is not in the design shown"));
            }
            Some(Reveal { side: Some(i), path }) => {
                if let Some(c) = &mut self.session.compare
                    && let (Some(side), Some(view)) =
                        (c.sides.get_mut(i), self.compare_views.sides.get_mut(i))
                {
                    reveal::reveal(&mut side.editor, &mut view.canvas, &path);
                }
            }
            Some(Reveal { side: None, .. }) | None => {}
        }
        if let Some(purpose) = self.session.file_request.take() {
            self.pick_replay_file(purpose);
        }
        if let Some(request) = self.session.what_if_request.take() {
            self.open_what_if(&request);
        }
        for job in self.session.analysis_work() {
            self.tasks.spawn(job.task_name(), move || TaskOutput::Analysis(job.work_out()));
        }
    }

    /// Run the design and, beside it, a copy with the what-if's changes; show both critical paths.
    pub(super) fn open_what_if(&mut self, request: &WhatIfRequest) {
        match what_if::variant(&self.editor.doc.project, &self.session.settings, &request.lines) {
            Ok(variant) => {
                let file = self
                    .editor
                    .file
                    .as_ref()
                    .map_or_else(|| "PROJECT.ron".into(), |f| f.display().to_string());
                self.editor.log(
                    LogLevel::Info,
                    format!(
                        "what-if, from the command line: hase run {file} {}",
                        set_arguments(&request.lines)
                    ),
                );
                self.open_variant_compare(variant);
                self.session.apply(SessionCommand::Timing(TimingCommand::ShowCriticalPath(true)));
            }
            Err(e) => self.editor.notify(LogLevel::Error, format!("cannot run the what-if: {e}")),
        }
    }

    /// Carry out a run or replay action.
    pub(super) fn replay_action(&mut self, action: AppAction) {
        match action {
            AppAction::Run => self.start_runs(),
            AppAction::Stop if !self.session.live.is_empty() => {
                self.session.stop_all();
                self.editor.log(LogLevel::Info, "stopping the run…");
            }
            AppAction::PlayPause => self.session.apply(SessionCommand::TogglePlay),
            AppAction::StepForward | AppAction::StepBack => {
                self.session.apply(SessionCommand::Step { forward: action == AppAction::StepForward });
            }
            AppAction::CompareExample => match thesis_example() {
                Ok(compare) => {
                    self.open_compare(compare);
                    self.start_runs();
                }
                Err(e) => self.editor.notify(LogLevel::Error, format!("cannot build the example: {e}")),
            },
            AppAction::CompareWithFile => self.pick_replay_file(ReplayFile::CompareWith),
            AppAction::OpenTrace => self.pick_replay_file(ReplayFile::OpenTrace),
            AppAction::ExportTrace(i) => {
                if let Some(e) = hase_engine::trace::EXPORTERS.get(i) {
                    self.pick_replay_file(ReplayFile::ExportTrace { format: e.name, source: None });
                }
            }
            AppAction::CompareTraces => {
                self.pick_replay_file(ReplayFile::CompareTraces { chosen: Vec::new(), wanted: 2 });
            }
            AppAction::CompareThreeTraces => {
                self.pick_replay_file(ReplayFile::CompareTraces { chosen: Vec::new(), wanted: 3 });
            }
            AppAction::OpenRecording => self.pick_replay_file(ReplayFile::OpenRecording),
            AppAction::CompareVariant => {
                let settings = self.session.settings.clone();
                self.windows.variant.open_with(&settings);
            }
            AppAction::CloseCompare => {
                self.session.leave_compare();
                // The dock goes back to the size of the design's run (or of no run).
                self.dock.fit_rows = self
                    .session
                    .current
                    .as_ref()
                    .map_or(0, |run| self.session.timing.rows_of(&run.replay).len());
            }
            _ => {}
        }
    }

    /// Compare the design with `variant` of it and run both.
    pub(super) fn open_variant_compare(&mut self, variant: Variant) {
        if !variant.assignments.is_empty() {
            self.editor.log(LogLevel::Info, format!("right-hand side: {}", variant.assignments.join("; ")));
        }
        let compare = with_variant(&self.editor.doc.project, self.editor.file.clone(), variant);
        self.open_compare(compare);
        self.start_runs();
    }

    fn open_compare(&mut self, compare: Compare) {
        self.editor.log(LogLevel::Info, format!("opened {}", compare.title));
        if let Some(pending) = self.session.enter_compare(compare) {
            self.spawn_marker_save(pending);
        }
        self.session.player.time = SimTime::ZERO;
        self.session.player.playing = false;
        self.session.timing.cursors = hase_editor::session::timing::cursors::Cursors::default();
        self.compare_views =
            CompareViews::for_sides(self.session.compare.as_ref().map_or(0, |c| c.sides.len()));
        self.dock.tab = DockTab::Timing;
    }

    /// Say once per file when a run reads a workload file outside the project's folder.
    fn warn_outside_folder(&mut self, name: &str, project: &Project, file: Option<&Path>) {
        let base = file.map_or_else(|| PathBuf::from("."), hase_library::runner::base_dir_of);
        for outside in hase_library::reads::files_outside_folder(project, &base) {
            if self.session.warned_outside.insert(outside.clone()) {
                self.editor.log(
                    LogLevel::Warning,
                    format!("{name} reads {}, outside the project's folder", outside.display()),
                );
            }
        }
    }

    fn start_runs(&mut self) {
        let shared = self.session.settings.clone();
        let mut requests = Vec::new();
        match &self.session.compare {
            Some(c) => {
                for (i, side) in c.sides.iter().enumerate() {
                    let slot = RunSlot::Compare(i);
                    if !self.session.running(slot) {
                        let project = side.editor.doc.project.clone();
                        let settings = side.settings.clone().unwrap_or_else(|| shared.clone());
                        requests.push((slot, project, side.editor.file.clone(), settings));
                    }
                }
            }
            None if !self.session.running(RunSlot::Main) => {
                let project = self.editor.doc.project.clone();
                requests.push((RunSlot::Main, project, self.editor.file.clone(), shared));
            }
            None => {}
        }
        if let Some(e) = requests.iter().find_map(|r| r.3.until().err()) {
            self.editor.notify(LogLevel::Warning, e.to_string());
            return;
        }
        for (slot, project, file, settings) in requests {
            let id = self.session.next_id();
            let request = RunRequest { project, file, settings, slot, id };
            if slot == RunSlot::Main {
                // The design's run is estimated first; a big one asks before it starts.
                if self.run_size.estimating.is_none() && self.run_size.question.is_none() {
                    match size_check::spawn_estimate(request, self.run_size.book.history.clone()) {
                        Ok(receiver) => self.run_size.estimating = Some(receiver),
                        Err(request) => self.launch(*request, None),
                    }
                }
            } else {
                self.launch(request, None);
            }
        }
    }

    /// Start `request` now; `estimate` is what the design's run was estimated at, to measure the
    /// rates against.
    fn launch(&mut self, request: RunRequest, estimate: Option<&Estimate>) {
        let name = match (request.slot, &self.session.compare) {
            (RunSlot::Compare(i), Some(c)) => {
                c.sides.get(i).map_or(request.project.name.clone(), |s| s.name().to_string())
            }
            _ => request.project.name.clone(),
        };
        self.warn_outside_folder(&name, &request.project, request.file.as_deref());
        self.editor.log(LogLevel::Info, format!("running {name}…"));
        if request.slot == RunSlot::Main {
            let resident = hase_library::process_memory::resident_and_peak_bytes().0;
            self.run_size.expected = estimate.map(|e| size_check::expected_of(request.id, e, resident));
        }
        let live = start(&self.tasks, request);
        self.session.live.push(live);
    }

    /// The estimate of the design's run: start it, or ask first when it is big.
    fn estimated(&mut self, estimated: size_check::Estimated) {
        self.run_size.estimating = None;
        let estimate = estimated.result.as_ref().ok().cloned();
        if let Some(e) = &estimate {
            self.editor.log(LogLevel::Info, format!("estimate: {}", e.summary()));
        }
        match BigRunQuestion::ask(estimated) {
            Verdict::Ask(question) => self.run_size.question = Some(question),
            Verdict::Start(request) => self.launch(*request, estimate.as_ref()),
        }
    }

    /// The answer to a big run's question.
    pub(super) fn big_run_answered(&mut self, answer: BigRunAnswer) {
        let Some(question) = self.run_size.question.take() else { return };
        let estimate = match answer {
            BigRunAnswer::FirstIterationOnly => question.first_iteration.clone(),
            _ => Some(question.estimate.clone()),
        };
        if answer == BigRunAnswer::FirstIterationOnly {
            self.editor
                .log(LogLevel::Info, "running the first iteration only (the design keeps its iterations)");
        }
        if let Some(request) = question.answer(answer) {
            self.launch(request, estimate.as_ref());
        }
    }

    /// Take in what the replay's background work reports.
    pub(super) fn replay_finished(&mut self, output: ReplayOutput) {
        match output {
            ReplayOutput::Run(done) => self.run_finished(done),
            ReplayOutput::Saved { what, result: Ok(path) } => {
                self.editor.log(LogLevel::Info, format!("saved {what} to {}", path.display()));
            }
            ReplayOutput::Saved { what, result: Err(e) } => {
                self.editor.notify(LogLevel::Error, format!("cannot save {what}: {e}"));
            }
            ReplayOutput::CompareProject { path, result: Ok(project) } => {
                let left = CompareSide::new(self.editor.doc.project.clone(), self.editor.file.clone());
                let right = CompareSide::new(*project, Some(path));
                let title = format!("Compare: {} vs {}", left.name(), right.name());
                self.open_compare(Compare::new(title, left, right));
                self.start_runs();
            }
            ReplayOutput::CompareTraces(Ok(runs)) => self.open_trace_compare(runs),
            ReplayOutput::CompareTraces(Err(e)) => self.editor.notify(LogLevel::Error, e.to_string()),
            ReplayOutput::CompareProject { path, result: Err(e) } => {
                self.editor.notify(LogLevel::Error, format!("cannot open {}: {e}", path.display()));
            }
        }
    }

    /// A file chosen for the replay views.
    pub(super) fn replay_file_chosen(&mut self, ctx: &egui::Context, purpose: ReplayFile, path: PathBuf) {
        match purpose {
            ReplayFile::ExportPng => {
                let path = if path.extension().is_none() { path.with_extension("png") } else { path };
                let runs: Vec<(String, Arc<FinishedRun>)> = match &self.session.compare {
                    Some(c) => c
                        .sides
                        .iter()
                        .filter_map(|s| s.run.as_ref().map(|r| (s.name().to_string(), Arc::clone(r))))
                        .collect(),
                    None => self.session.current.iter().map(|r| (r.label.clone(), Arc::clone(r))).collect(),
                };
                let figure = crate::ui::timing::figure_png::TimingFigure {
                    runs,
                    state: self.session.timing.clone(),
                    bars_width: self.dock.timing.bars_width,
                };
                crate::ui::timing::figure_png::save(ctx, figure, path, &self.export_result);
            }
            ReplayFile::ExportCsv(text) => {
                let path = if path.extension().is_none() { path.with_extension("csv") } else { path };
                self.tasks.spawn("export", move || {
                    let result = hase_engine::model::write_atomic(&path, text.as_bytes())
                        .map(|()| path.clone())
                        .map_err(|source| SaveError::Write { path: path.clone(), source });
                    TaskOutput::Replay(Box::new(ReplayOutput::Saved { what: "O–X figures".into(), result }))
                });
            }
            ReplayFile::OpenTrace => {
                self.session.leave_compare();
                self.session.stop_all();
                let id = self.session.next_id();
                let project = self.editor.doc.project.clone();
                self.editor.log(LogLevel::Info, format!("loading {}…", path.display()));
                let live = hase_editor::run::load::start(&self.tasks, path, project, id);
                self.session.live.push(live);
            }
            ReplayFile::CompareTraces { mut chosen, wanted } => {
                chosen.push(path);
                if chosen.len() < wanted {
                    self.pick_replay_file(ReplayFile::CompareTraces { chosen, wanted });
                } else {
                    let files = chosen.into_iter().map(|p| (None, p)).collect();
                    self.load_compared(files);
                }
            }
            ReplayFile::ExportTrace { format, source: None } => {
                self.pick_replay_file(ReplayFile::ExportTrace { format, source: Some(path) });
            }
            ReplayFile::ExportTrace { format, source: Some(source) } => {
                self.spawn_trace_export(format, source, path);
            }
            ReplayFile::OpenRecording => {
                let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
                let files: Vec<(Option<String>, PathBuf)> = recording_timelines(&dir)
                    .into_iter()
                    .map(|(label, p)| (Some(label.to_string()), p))
                    .collect();
                if files.is_empty() {
                    self.editor.notify(
                        LogLevel::Error,
                        format!("{} has none of a recording's timelines ({})", dir.display(), TIMELINE_FILES),
                    );
                } else {
                    self.load_compared(files);
                }
            }
            ReplayFile::CompareWith => {
                self.tasks.spawn("open", move || {
                    let result = hase_library::generated::load_project(&path).map(Box::new);
                    TaskOutput::Replay(Box::new(ReplayOutput::CompareProject { path, result }))
                });
            }
        }
    }

    fn run_finished(&mut self, done: RunDone) {
        if self.session.dropped.remove(&done.id) {
            self.editor.log(LogLevel::Info, "a run of the design replaced since was dropped");
            return;
        }
        self.session.live.retain(|l| l.slot != done.slot);
        let run = match done.result {
            Ok(run) => run,
            Err(problems) => {
                let n = problems.len();
                for p in problems {
                    self.editor.log_at(LogLevel::Warning, p.text, p.path);
                }
                self.editor.notify(
                    LogLevel::Warning,
                    format!(
                        "the run did not start: {n} problem{} (click one in Messages to see where)",
                        if n == 1 { "" } else { "s" }
                    ),
                );
                self.dock.tab = DockTab::Messages;
                return;
            }
        };
        // A comparison's side is named as it is shown ("this design, algorithm=ring").
        let label = match (done.slot, &self.session.compare) {
            (RunSlot::Compare(i), Some(c)) => c.sides.get(i).map_or(run.label.as_str(), |s| s.name()),
            _ => run.label.as_str(),
        };
        let summary =
            format!("{label}: {}", crate::ui::stats::summary_line(&run.stats, run.partitioning.as_ref()));
        let level = match &run.outcome {
            RunOutcome::Completed | RunOutcome::ReachedUntil => LogLevel::Info,
            RunOutcome::Deadlock(_) | RunOutcome::Cancelled => LogLevel::Warning,
        };
        self.editor.notify(level, summary);
        if let RunOutcome::Deadlock(report) = &run.outcome {
            for b in &report.blocked {
                self.editor.log_at(
                    LogLevel::Warning,
                    format!("  {} [{}]: {}", b.path, b.state, b.waiting_for),
                    Some(b.path.clone()),
                );
            }
            self.dock.tab = DockTab::Messages;
        } else {
            self.dock.tab = DockTab::Timing;
        }
        if let Some(e) = &run.trace_error {
            self.editor.log(LogLevel::Warning, format!("the trace is incomplete: {e}"));
        }
        let run = Arc::new(*run);
        // The dock is sized to show every row of the run (see `App::ui_root`).
        self.dock.fit_rows = self.session.timing.rows_of(&run.replay).len();
        match done.slot {
            RunSlot::Main => {
                let project = &self.editor.doc.project;
                if let Some(why) =
                    hase_editor::run::design_match::trace_of_another_design(&run.trace.header, project)
                {
                    self.editor.notify(LogLevel::Warning, why);
                }
                if self.session.current.is_none() {
                    // The dock grows for the first run: fit the design into what is left.
                    self.editor.fit_requested = true;
                }
                self.session.adopt_markers(&run);
                self.session.player.adopt_run(run.replay.end);
                if let Some(expected) = self.run_size.expected.take() {
                    let resident = hase_library::process_memory::resident_and_peak_bytes().0;
                    self.run_size.book.record(&run, &expected, resident);
                }
                if let Some(old) = self.session.current.replace(run) {
                    // A large trace takes a while to free: not on the UI thread.
                    let _ = std::thread::Builder::new().name("hase-drop".into()).spawn(move || drop(old));
                }
            }
            RunSlot::Compare(i) => {
                if let Some(c) = &mut self.session.compare
                    && let Some(side) = c.sides.get_mut(i)
                {
                    let project = &side.editor.doc.project;
                    if let Some(why) =
                        hase_editor::run::design_match::trace_of_another_design(&run.trace.header, project)
                    {
                        let side_name = if i == 0 { "left" } else { "right" };
                        self.editor.notify(LogLevel::Warning, format!("comparison, {side_name} side: {why}"));
                    }
                    c.key = c.key.wrapping_mul(31).wrapping_add(run.id);
                    side.run = Some(run);
                    let end = c.end();
                    self.session.player.adopt_run(end);
                }
            }
        }
    }

    /// Load trace files (label, path) on a worker thread, to be compared side by side.
    fn load_compared(&mut self, files: Vec<(Option<String>, PathBuf)>) {
        let project = self.editor.doc.project.clone();
        let ids: Vec<u64> = files.iter().map(|_| self.session.next_id()).collect();
        let names: Vec<String> = files.iter().map(|(_, p)| p.display().to_string()).collect();
        self.editor.log(LogLevel::Info, format!("loading {}…", names.join(", ")));
        self.tasks.spawn("load-traces", move || {
            TaskOutput::Replay(Box::new(ReplayOutput::CompareTraces(load_all(&files, &project, &ids))))
        });
    }

    /// Loaded traces side by side, each shown on the design.
    fn open_trace_compare(&mut self, runs: Vec<FinishedRun>) {
        let sides = runs
            .iter()
            .map(|run| CompareSide::new(self.editor.doc.project.clone(), None).with(run.label.clone(), None))
            .collect();
        let labels: Vec<&str> = runs.iter().map(|r| r.label.as_str()).collect();
        let title = format!("Compare traces: {}", labels.join(" vs "));
        self.open_compare(Compare::of(title, sides));
        for (i, run) in runs.into_iter().enumerate() {
            let id = run.id;
            self.run_finished(RunDone { slot: RunSlot::Compare(i), id, result: Ok(Box::new(run)) });
        }
    }

    /// Export the trace file `source` as `format` to `output` in the background (streamed, as
    /// `hase trace export` does); the log says where it went or why it failed.
    fn spawn_trace_export(&mut self, format: &'static str, source: PathBuf, output: PathBuf) {
        self.editor.log(LogLevel::Info, format!("exporting {} as {format}…", source.display()));
        self.tasks.spawn("export", move || {
            let result = hase_editor::run::export_trace(format, &source, &output).map_err(SaveError::from);
            TaskOutput::Replay(Box::new(ReplayOutput::Saved { what: format!("the {format} export"), result }))
        });
    }

    fn pick_replay_file(&mut self, purpose: ReplayFile) {
        self.ask_file(FileRequest::replay(purpose));
    }

    fn save_markers_when_settled(&mut self, ctx: &egui::Context) {
        if !self.session.timing.markers_dirty {
            self.session.markers_dirty_since = None;
            return;
        }
        let now = ctx.input(|i| i.time);
        let since = *self.session.markers_dirty_since.get_or_insert(now);
        if now - since < MARKER_SAVE_DELAY_S {
            ctx.request_repaint_after(Duration::from_secs_f64(MARKER_SAVE_DELAY_S));
            return;
        }
        self.session.timing.markers_dirty = false;
        self.session.markers_dirty_since = None;
        // Without a sidecar (comparison, project without a file) the Markers menu says why.
        if let Some(save) = self.session.marker_save() {
            self.spawn_marker_save(save);
        }
    }

    pub(super) fn spawn_marker_save(&self, save: MarkerSave) {
        self.tasks.spawn("markers", move || {
            let MarkerSave { sidecar, run_key, markers: list } = save;
            let result = markers::save(&sidecar, &run_key, &list).map(|()| sidecar).map_err(SaveError::from);
            TaskOutput::Replay(Box::new(ReplayOutput::Saved { what: "markers".into(), result }))
        });
    }

    /// The replay bar above the dock (when there is something to replay).
    pub(super) fn replay_bar(
        &self,
        ui: &mut egui::Ui,
        colours: &ReplayColours,
        palette: &Palette,
    ) -> Vec<SessionCommand> {
        let end = self.session.clock_end();
        let s = &self.session;
        let log = match &s.compare {
            Some(c) => c.sides.iter().find_map(|side| side.run.as_ref()).map(|r| &r.replay.log),
            None => s.current.as_ref().map(|r| &r.replay.log),
        };
        match log {
            Some(log) => {
                let cx = crate::ui::animator::controls::ControlsContext {
                    player: &s.player,
                    log,
                    end,
                    cursors: s.timing.cursors,
                    markers: &s.timing.markers,
                    colours,
                    palette,
                };
                crate::ui::animator::controls::show(ui, &cx)
            }
            None => Vec::new(),
        }
    }
}

/// Read trace files (on a worker thread), each shown on `project` and named by its label (else
/// its file name).
fn load_all(
    files: &[(Option<String>, PathBuf)],
    project: &Project,
    ids: &[u64],
) -> Result<Vec<FinishedRun>, TraceFileError> {
    files
        .iter()
        .zip(ids)
        .map(|((label, path), id)| {
            let cancel = std::sync::atomic::AtomicBool::new(false);
            let mut run = hase_editor::run::load::load(
                path,
                project.clone(),
                *id,
                &cancel,
                &hase_editor::run::RunProgress::default(),
            )
            .map_err(|source| TraceFileError { path: path.clone(), source })?;
            if let Some(label) = label {
                run.label.clone_from(label);
            }
            Ok(*run)
        })
        .collect()
}
