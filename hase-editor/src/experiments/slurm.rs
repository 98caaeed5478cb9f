//! The experiments view's Slurm dialogs, without any GUI. **Run on Slurm…** writes a job
//! directory for the sweep being built (`hase_library::experiment::slurm::prepare`) and submits it
//! where `sbatch` is on the `PATH` (the job id is shown), else shows the exact `sbatch` line to run
//! on the cluster's login node. **Collect results…** reads a job directory's result files
//! (`SlurmJob::open`, `collect`) into the experiment store — one experiment per job directory,
//! filled again by a later collect — and shows them like a local sweep's, naming every missing or
//! failed run with its array task and stderr file. Both run on a background thread; the view polls
//! it each frame, so the window never waits for the file system or `sbatch`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::Receiver;

use hase_library::experiment::ExperimentPlan;
use hase_library::experiment::slurm::submit::array_tasks_with_missing_runs;
use hase_library::experiment::slurm::{
    SlurmError, SlurmJob, SlurmSettings, SubmitOutcome, collect, prepare, store_collected,
    submit_command_line, submit_or_show_in,
};
use hase_library::store::{ExperimentStore, StoreError};

use super::results::Results;

/// Which Slurm dialog is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlurmDialog {
    /// Run on Slurm…: write the job directory and submit it (or show the command).
    Submit,
    /// Collect results…: gather a job directory's results.
    Collect,
}

/// The fields of the Run on Slurm dialog, as typed (`hase sweep --slurm`'s options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlurmForm {
    /// The job directory (new or empty, on a file system the cluster's nodes share).
    pub dir: String,
    /// `--partition` (empty: the cluster's default).
    pub partition: String,
    /// `--time` of each task (empty: the partition's default).
    pub time: String,
    /// `--mem` of each task (empty: the partition's default).
    pub mem: String,
    /// `--points-per-task`.
    pub points_per_task: String,
    /// `--throttle` (empty: no limit).
    pub throttle: String,
    /// `--hase-binary`: the hase the tasks run, as the cluster's nodes see it (empty: this program).
    pub hase_binary: String,
}

impl Default for SlurmForm {
    fn default() -> Self {
        SlurmForm {
            dir: String::new(),
            partition: String::new(),
            time: String::new(),
            mem: String::new(),
            points_per_task: "1".into(),
            throttle: String::new(),
            hase_binary: String::new(),
        }
    }
}

/// Why Run on Slurm… or Collect results… did not go through.
#[derive(Debug, thiserror::Error)]
pub enum SlurmPanelError {
    /// The job directory field is empty (Run on Slurm).
    #[error("Job directory: give a new or empty directory")]
    NoJobDir,
    /// The job directory field is empty (Collect results).
    #[error("Job directory: give the directory Run on Slurm wrote")]
    NoCollectDir,
    /// The hase binary typed is not an absolute path.
    #[error("hase binary: “{0}” is not an absolute path")]
    RelativeBinary(String),
    /// Points per task is not a whole number of at least 1.
    #[error("Points per task: “{0}” is not a whole number of at least 1")]
    PointsPerTask(String),
    /// The throttle is not a whole number of at least 1.
    #[error("Throttle: “{0}” is not a whole number of at least 1 (or empty)")]
    Throttle(String),
    /// This program's path is unknown (the tasks would run it).
    #[error("cannot find this hase binary: {0}")]
    ThisBinary(#[source] std::io::Error),
    /// No background thread could be started.
    #[error("cannot start a thread: {0}")]
    Thread(#[source] std::io::Error),
    /// The background thread ended without a result.
    #[error("the Slurm task ended without an answer")]
    NoAnswer,
    /// The sweep built does not plan.
    #[error(transparent)]
    Plan(#[from] hase_library::experiment::SpecError),
    /// Writing, reading or collecting the job directory failed.
    #[error(transparent)]
    Slurm(Box<SlurmError>),
    /// The job directory is written, but `sbatch` failed.
    #[error("the job directory {} is written, but submitting failed: {source}", dir.display())]
    Submit {
        /// The job directory.
        dir: PathBuf,
        /// The `sbatch` line that failed, to run where a Slurm controller answers.
        command: String,
        /// Why submitting failed.
        #[source]
        source: Box<SlurmError>,
    },
    /// Storing the collected runs failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<SlurmError> for SlurmPanelError {
    fn from(error: SlurmError) -> Self {
        SlurmPanelError::Slurm(Box::new(error))
    }
}

pub(super) fn optional(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

impl SlurmForm {
    /// The job directory typed.
    pub fn job_dir(&self) -> Result<PathBuf, SlurmPanelError> {
        optional(&self.dir).map(PathBuf::from).ok_or(SlurmPanelError::NoJobDir)
    }

    /// The settings typed, for tasks running the binary typed, else `this_binary` (with `data_dir`
    /// as `--data-dir`).
    pub fn settings(
        &self,
        this_binary: PathBuf,
        data_dir: Option<PathBuf>,
    ) -> Result<SlurmSettings, SlurmPanelError> {
        let hase_binary = match optional(&self.hase_binary) {
            None => this_binary,
            Some(text) if Path::new(&text).is_absolute() => PathBuf::from(text),
            Some(text) => return Err(SlurmPanelError::RelativeBinary(text)),
        };
        let points_per_task = match self.points_per_task.trim().parse::<u64>() {
            Ok(k) if k >= 1 => k,
            _ => return Err(SlurmPanelError::PointsPerTask(self.points_per_task.trim().to_string())),
        };
        let throttle = match optional(&self.throttle) {
            None => None,
            Some(text) => match text.parse::<u32>() {
                Ok(n) if n >= 1 => Some(n),
                _ => return Err(SlurmPanelError::Throttle(text)),
            },
        };
        Ok(SlurmSettings {
            partition: optional(&self.partition),
            time: optional(&self.time),
            mem: optional(&self.mem),
            points_per_task,
            throttle,
            sbatch_args: Vec::new(),
            hase_binary,
            data_dir,
        })
    }
}

/// What a collect found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollectReport {
    /// The job directory.
    pub dir: PathBuf,
    /// Runs with a result file.
    pub collected: usize,
    /// Runs planned.
    pub planned: u64,
    /// Runs without a result file.
    pub missing: usize,
    /// Runs whose result says they did not go to their end.
    pub failed: usize,
    /// One line per missing or failed run: the run, its array task, job id and stderr file.
    pub problems: Vec<String>,
    /// The stored experiment the results went into (`None`: no store, kept in memory).
    pub stored: Option<u64>,
    /// The `sbatch` line that submits the tasks with missing runs (the resume), if any.
    pub resubmit: Option<String>,
}

/// What the last Slurm action ended with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlurmOutcome {
    /// The job directory was written and `sbatch` accepted it.
    Submitted {
        /// The job directory.
        dir: PathBuf,
        /// Slurm's job id.
        job_id: String,
        /// The array submitted.
        array: String,
        /// Array tasks.
        tasks: u64,
    },
    /// The job directory was written; `sbatch` is not here: run `command` on the cluster.
    ShowCommand {
        /// The job directory.
        dir: PathBuf,
        /// The `sbatch` line.
        command: String,
        /// Array tasks.
        tasks: u64,
    },
    /// A job directory's results were gathered.
    Collected(CollectReport),
}

/// A collect's results, for the view.
pub(super) struct Gathered {
    pub(super) report: CollectReport,
    pub(super) results: Results,
    pub(super) plan: Arc<ExperimentPlan>,
}

/// What the background thread sends back.
pub(super) enum Finished {
    Prepared(Result<SlurmOutcome, SlurmPanelError>),
    Collected(Result<Box<Gathered>, SlurmPanelError>),
}

/// The Slurm dialogs' state.
#[derive(Default)]
pub struct SlurmPanel {
    /// The dialog open, if any.
    pub dialog: Option<SlurmDialog>,
    /// Run on Slurm's fields.
    pub form: SlurmForm,
    /// Collect's job directory field.
    pub collect_dir: String,
    /// What the last action ended with.
    pub outcome: Option<SlurmOutcome>,
    /// Why the last action failed.
    pub error: Option<SlurmPanelError>,
    /// Where `sbatch` is looked for (`None`: the process's `PATH`; tests give their own).
    pub search_path: Option<OsString>,
    /// The hase binary the tasks run (`None`: this program).
    pub hase_binary: Option<PathBuf>,
    /// Frames during which the view brings the dialog in front of the experiments window (set
    /// when it is opened from that window, which the click raises at the end of its frame).
    pub raise_frames: u8,
    pub(super) work: Option<Receiver<Finished>>,
}

impl std::fmt::Debug for SlurmPanel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SlurmPanel")
            .field("dialog", &self.dialog)
            .field("outcome", &self.outcome)
            .field("error", &self.error)
            .field("busy", &self.busy())
            .finish_non_exhaustive()
    }
}

impl SlurmPanel {
    /// True while a prepare or collect runs in the background.
    pub fn busy(&self) -> bool {
        self.work.is_some()
    }

    /// The `PATH` searched for `sbatch`.
    pub(super) fn search_path(&self) -> OsString {
        self.search_path.clone().or_else(|| std::env::var_os("PATH")).unwrap_or_default()
    }

    /// True when `sbatch` is found (the dialog then submits; else it shows the command).
    pub fn sbatch_here(&self) -> bool {
        hase_library::experiment::slurm::sbatch_in(&self.search_path()).is_some()
    }

    /// The hase binary the tasks will run.
    pub(super) fn hase_binary(&self) -> Result<PathBuf, SlurmPanelError> {
        match &self.hase_binary {
            Some(path) => Ok(path.clone()),
            None => std::env::current_exe().map_err(SlurmPanelError::ThisBinary),
        }
    }
}

/// Prepare `dir` for `plan` and submit it (or give the command): the background thread's work.
pub(super) fn prepare_and_submit(
    plan: &ExperimentPlan,
    settings: &SlurmSettings,
    dir: &Path,
    search_path: &OsString,
) -> Result<SlurmOutcome, SlurmPanelError> {
    let job = prepare(plan, settings, dir)?;
    let tasks = job.manifest.tasks;
    match submit_or_show_in(&job, None, search_path) {
        Ok(SubmitOutcome::Submitted(s)) => {
            Ok(SlurmOutcome::Submitted { dir: job.dir, job_id: s.job_id, array: s.array, tasks })
        }
        Ok(SubmitOutcome::ShowCommand(command)) => {
            Ok(SlurmOutcome::ShowCommand { dir: job.dir, command, tasks })
        }
        Err(source) => {
            let command = submit_command_line(&job, None);
            Err(SlurmPanelError::Submit { dir: job.dir, command, source: Box::new(source) })
        }
    }
}

/// Collect `dir` (into `store` when given): the background thread's work.
pub(super) fn gather(dir: &Path, store: Option<&ExperimentStore>) -> Result<Box<Gathered>, SlurmPanelError> {
    let job = SlurmJob::open(dir)?;
    let plan = job.plan()?;
    let collected = collect(&job, &plan)?;
    let stored = match store {
        Some(store) => Some(store_collected(store, &job, &job.stamp()?, &plan, &collected)?.id),
        None => None,
    };
    let mut problems = Vec::new();
    for (key, attempt) in &collected.failed {
        let record = collected.records.iter().find(|r| r.key == *key);
        let (word, first) =
            record.map_or(("failed", ""), |r| (r.status.word(), r.detail.lines().next().unwrap_or_default()));
        problems.push(format!("{key}: {word}: {first} ({attempt})"));
    }
    for missing in &collected.missing {
        let problem = missing.problem.as_ref().map(|p| format!(": {p}")).unwrap_or_default();
        problems.push(format!("{}: missing{problem} ({})", missing.key, missing.attempt));
    }
    let tasks = array_tasks_with_missing_runs(&job, &plan);
    let resubmit = (!tasks.is_empty()).then(|| submit_command_line(&job, Some(&tasks)));
    let mut records = collected.records.clone();
    records.sort_by_key(|r| r.key);
    let results = Results {
        id: stored,
        name: plan.name().to_string(),
        variables: plan.variable_names(),
        metrics: plan.metric_names(),
        runs_planned: plan.run_count(),
        records,
    };
    let report = CollectReport {
        dir: job.dir.clone(),
        collected: collected.records.len(),
        planned: collected.planned,
        missing: collected.missing.len(),
        failed: collected.failed.len(),
        problems,
        stored,
        resubmit,
    };
    Ok(Box::new(Gathered { report, results, plan: Arc::new(plan) }))
}
