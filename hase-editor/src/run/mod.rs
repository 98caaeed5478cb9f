//! Simulation runs in the editor: the run settings of the toolbar (trace level, seed, run-until
//! time), runs in progress (cancel flag and progress counters shared with the worker), finished
//! runs (statistics, the in-memory trace and its replay model). The app's session holds them with
//! the replay views' state. The worker itself is in [`task`]; trace files are read by [`load`];
//! [`size_check`] estimates a run before it starts; [`version`] tells whether a run still shows the design being edited, [`design_match`] whether a
//! trace file is a run of it at all; [`export`] writes a trace file in another viewer's format.

pub mod design_match;
pub mod export;
pub mod load;
pub mod size_check;
pub mod task;
pub mod version;

pub use export::export_trace;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::Instant;

use hase_engine::kernel::{Partitioning, RunOutcome};
use hase_engine::model::Project;
use hase_engine::stats::RunStats;
use hase_engine::time::SimTime;
use hase_engine::trace::Trace;
use hase_engine::units::{UnitError, parse_time};
use hase_library::expected::{Expected, NoClosedForm};

use crate::replay::Replay;
use crate::replay::markers::Marker;

/// Settings of the next run, as the toolbar edits them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NextRunSettings {
    /// Trace level 1–5.
    pub level: u8,
    /// Seed.
    pub seed: u64,
    /// Run-until time as typed (`2.5ms`); empty for "until done".
    pub until_text: String,
}

impl NextRunSettings {
    /// The project's own settings.
    pub fn from_project(project: &Project) -> Self {
        NextRunSettings {
            level: project.settings.trace_level.clamp(1, 5),
            seed: project.settings.seed,
            until_text: project
                .settings
                .until
                .map(|t| t.display_with(6).replace(' ', ""))
                .unwrap_or_default(),
        }
    }

    /// The run-until time, or why the text is not a time.
    pub fn until(&self) -> Result<Option<SimTime>, UntilError> {
        if self.until_text.trim().is_empty() {
            return Ok(None);
        }
        parse_time(&self.until_text)
            .map(Some)
            .map_err(|source| UntilError { text: self.until_text.trim().to_string(), source })
    }
}

/// A run-until text that is not a time.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("run until `{text}`: {source}")]
pub struct UntilError {
    /// The text typed.
    pub text: String,
    /// Why it is not a time.
    pub source: UnitError,
}

/// Which view a run belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunSlot {
    /// The design being edited.
    Main,
    /// One side of the comparison (0 left, 1 right).
    Compare(usize),
}

/// Counters the worker updates and the status bar reads.
#[derive(Debug, Default)]
pub struct RunProgress {
    /// Events handled so far.
    pub events: AtomicU64,
    /// Simulated time reached (ps).
    pub now_ps: AtomicU64,
    /// 0 simulating, 1 building the replay model.
    pub phase: AtomicU8,
    /// Events (records) expected in all, when known (a trace file with its index); 0 unknown.
    pub expected_events: AtomicU64,
}

/// A run in progress.
#[derive(Debug)]
pub struct LiveRun {
    /// Run id (its [`RunDone`] carries the same).
    pub id: u64,
    /// Set to stop the run.
    pub cancel: Arc<AtomicBool>,
    /// Progress counters.
    pub progress: Arc<RunProgress>,
    /// When it started.
    pub started: Instant,
    /// Project name.
    pub label: String,
    /// Where the result goes.
    pub slot: RunSlot,
    /// Run-until time, for the progress fraction.
    pub until: Option<SimTime>,
}

impl LiveRun {
    /// Events per wall-clock second so far.
    pub fn events_per_s(&self) -> f64 {
        let s = self.started.elapsed().as_secs_f64();
        if s > 0.0 { self.progress.events.load(Ordering::Relaxed) as f64 / s } else { 0.0 }
    }

    /// One line for the status bar.
    pub fn describe(&self) -> String {
        let now = SimTime(self.progress.now_ps.load(Ordering::Relaxed));
        if self.progress.phase.load(Ordering::Relaxed) == 1 {
            return format!("{}: preparing replay…", self.label);
        }
        if self.cancel.load(Ordering::Relaxed) {
            return format!("{}: stopping at {now}…", self.label);
        }
        format!(
            "{}: sim time {now} · {} events · {:.2} M events/s",
            self.label,
            self.progress.events.load(Ordering::Relaxed),
            self.events_per_s() / 1e6
        )
    }

    /// Fraction done when a run-until time or the number of records to read is known.
    pub fn fraction(&self) -> Option<f32> {
        let share = |done: u64, all: u64| (all > 0).then(|| (done as f64 / all as f64).min(1.0) as f32);
        let expected = self.progress.expected_events.load(Ordering::Relaxed);
        match self.until {
            Some(until) => share(self.progress.now_ps.load(Ordering::Relaxed), until.0),
            None => share(self.progress.events.load(Ordering::Relaxed), expected),
        }
    }
}

/// A finished run, kept for the statistics and the replay views.
pub struct FinishedRun {
    /// Unique within the session.
    pub id: u64,
    /// Project name.
    pub label: String,
    /// The project as it was run.
    pub project: Project,
    /// Its file, if any (the project's, or the trace file's for a loaded trace).
    pub file: Option<PathBuf>,
    /// Where its markers are saved (`None`: kept in memory only, e.g. a comparison's runs).
    pub markers_file: Option<PathBuf>,
    /// Settings used.
    pub settings: NextRunSettings,
    /// How it ended.
    pub outcome: RunOutcome,
    /// Statistics.
    pub stats: RunStats,
    /// The trace at the chosen level: its header, and its records for a loaded trace file (a run
    /// streams its records into `replay` and keeps none).
    pub trace: Trace,
    /// Replay model built from the trace.
    pub replay: Replay,
    /// A trace write failure, if any.
    pub trace_error: Option<std::io::Error>,
    /// Identity of the run for its markers.
    pub run_key: String,
    /// Markers loaded from the sidecar.
    pub markers: Vec<Marker>,
    /// The makespan the design's closed form gives, or why it has none
    /// (`hase_library::expected`): drawn beside the measured one.
    pub expected: Result<Expected, NoClosedForm>,
    /// How the simulation was spread over threads, or why it ran on one (`None` for a loaded
    /// trace, which was not simulated here).
    pub partitioning: Option<Partitioning>,
}

impl std::fmt::Debug for FinishedRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FinishedRun")
            .field("id", &self.id)
            .field("label", &self.label)
            .field("outcome", &self.outcome.word())
            .field("records", &self.trace.records.len())
            .finish_non_exhaustive()
    }
}

/// One problem that stopped a run from starting, with the entity it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunProblem {
    /// Instance path (possibly with `.port`), if the problem is about one entity.
    pub path: Option<String>,
    /// What is wrong.
    pub text: String,
}

/// What the worker reports.
#[derive(Debug)]
pub struct RunDone {
    /// Where the result goes.
    pub slot: RunSlot,
    /// Run id.
    pub id: u64,
    /// The run, or the problems that stopped it.
    pub result: Result<Box<FinishedRun>, Vec<RunProblem>>,
}

/// A file the replay views asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayFile {
    /// Save the visible timing diagram as PNG.
    ExportPng,
    /// Save these O–X figures as CSV.
    ExportCsv(String),
    /// Compare the design with this project file.
    CompareWith,
    /// Load this trace file into the replay views.
    OpenTrace,
    /// Compare `wanted` trace files (two or three), chosen left to right: those chosen so far.
    CompareTraces {
        /// The files chosen so far.
        chosen: Vec<PathBuf>,
        /// How many to compare.
        wanted: usize,
    },
    /// Export a trace file to another viewer's format (`hase trace export`): first the trace to
    /// read (`source` not chosen yet), then where to write.
    ExportTrace {
        /// The exporter's name (`otf2`).
        format: &'static str,
        /// The trace file, once chosen.
        source: Option<PathBuf>,
    },
    /// Open a recording's timelines side by side (`hase mpi record`'s directory, found from any
    /// file in it): its real, predicted and replayed runs, those that are there.
    OpenRecording,
}

/// What background work of the replay views reports (through `TaskOutput::Replay`).
#[derive(Debug)]
pub enum ReplayOutput {
    /// A run finished.
    Run(RunDone),
    /// A file was written.
    Saved {
        /// What was saved (for the log).
        what: String,
        /// Where, or why not.
        result: Result<PathBuf, SaveError>,
    },
    /// Trace files to compare were read (left to right), or why not.
    CompareTraces(Result<Vec<FinishedRun>, TraceFileError>),
    /// A project file to compare with was read.
    CompareProject {
        /// The file.
        path: PathBuf,
        /// The project, or why it could not be read.
        result: Result<Box<Project>, hase_engine::model::ProjectFileError>,
    },
}

/// Why a file of the replay views was not written.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The markers' sidecar.
    #[error(transparent)]
    Markers(#[from] crate::replay::markers::MarkerFileError),
    /// A trace exported to another viewer's format.
    #[error(transparent)]
    Export(#[from] export::ExportTraceError),
    /// Another file (the O–X figures).
    #[error("{}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
}

/// A trace file that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {source}", path.display())]
pub struct TraceFileError {
    /// The file.
    pub path: PathBuf,
    /// What the trace reader said.
    #[source]
    pub source: hase_engine::trace::TraceError,
}

/// Markers to write to a sidecar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkerSave {
    /// The sidecar file.
    pub sidecar: PathBuf,
    /// The run they belong to.
    pub run_key: String,
    /// The markers.
    pub markers: Vec<Marker>,
}

/// Shown in the Markers menu while a comparison is open.
pub const COMPARE_MARKERS_NOTE: &str =
    "Markers of a comparison are kept for this session only (they are not saved).";
/// Shown in the Markers menu for a run of a project without a file.
pub const UNSAVED_MARKERS_NOTE: &str =
    "Markers are kept for this session only (save the project to a file to keep them).";

impl Default for NextRunSettings {
    fn default() -> Self {
        NextRunSettings { level: 2, seed: 1, until_text: String::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_come_from_the_project_and_parse_units() {
        let mut project = Project::new("p");
        project.settings.seed = 9;
        project.settings.trace_level = 4;
        project.settings.until = Some(SimTime::from_us(2500));
        let s = NextRunSettings::from_project(&project);
        assert_eq!((s.seed, s.level, s.until_text.as_str()), (9, 4, "2.5ms"));
        assert_eq!(s.until(), Ok(Some(SimTime::from_us(2500))));
        let bad = NextRunSettings { until_text: "12 parsecs".into(), ..s.clone() };
        let error = bad.until().unwrap_err();
        assert_eq!(error.text, "12 parsecs");
        assert!(error.to_string().starts_with("run until `12 parsecs`"), "{error}");
        let none = NextRunSettings { until_text: "  ".into(), ..s };
        assert_eq!(none.until(), Ok(None));
    }

    fn run_in(dir: &std::path::Path, slot: RunSlot) -> Arc<FinishedRun> {
        crate::fixtures::finished_tree_run(dir, slot)
    }

    #[test]
    fn only_the_designs_run_files_its_markers() {
        let dir = tempfile::tempdir().unwrap();
        let run = run_in(dir.path(), RunSlot::Main);
        // The design's run keeps its markers beside the project file…
        assert_eq!(run.markers_file.as_deref(), Some(dir.path().join("tree.markers.ron").as_path()));
        assert!(run.markers.is_empty());
        // …the comparison's runs keep them in memory only.
        assert_eq!(run_in(dir.path(), RunSlot::Compare(1)).markers_file, None);
    }
}
