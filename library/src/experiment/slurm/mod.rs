//! Running a sweep as a Slurm job array on a cluster (no home-made distributed runner: Slurm
//! schedules, hase runs points and gathers results). Everything works on a job directory on the
//! shared file system:
//!
//! - [`layout`]: the directory (frozen spec and project, manifest, `job.sbatch`, `results/`,
//!   `logs/`), [`prepare`] writes it, [`SlurmJob::open`] reads it back and plans it again.
//! - [`tasks`]: which points an array task runs (`K` consecutive points per task).
//! - [`script`]: the text of `job.sbatch`.
//! - [`mod@run_task`]: what one array task does: its runs, one result file per run, written
//!   atomically; runs whose file is present are skipped, so resubmitting is the resume.
//! - [`mod@collect`]: the result files gathered into the same records (and CSV) as a local sweep,
//!   with the missing and failed runs named with their Slurm job, task and stderr file.
//! - [`mod@submit`]: the `sbatch` command (all tasks, or only those with missing runs), submitting,
//!   and the job's status from `squeue` when it is on the `PATH`, else from the files.
//!
//! The layout and the commands are documented in `docs/experiments.md` ("On a Slurm cluster").

pub mod collect;
pub mod layout;
pub mod run_task;
pub mod script;
pub mod submit;
pub mod tasks;

#[cfg(test)]
mod tests;

use std::path::PathBuf;

pub use collect::{Collected, MissingRun, collect};
pub use layout::{SlurmJob, SlurmManifest, SlurmSettings, prepare};
pub use run_task::{TaskReport, run_task};
pub use script::job_script;
pub use submit::{
    JobStatus, RunState, Submission, SubmitOutcome, job_status, sbatch_in, sbatch_on_path, submit,
    submit_command, submit_command_line, submit_or_show, submit_or_show_in,
};
pub use tasks::{task_count, task_of_point, task_points};

use super::error::SpecError;
use super::record::RecordFileError;
use super::sweep::SweepError;

/// What can go wrong with a Slurm job directory.
#[derive(Debug, thiserror::Error)]
pub enum SlurmError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A file of the job directory is not what hase wrote.
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The directory holds no job (no `job.ron`).
    #[error("{dir}: not a hase Slurm job directory (no job.ron; make one with `hase sweep … --slurm DIR`)")]
    NotAJob {
        /// The directory.
        dir: PathBuf,
    },
    /// The directory already holds a job or other files.
    #[error("{dir}: the directory is not empty; give a new directory (or submit the job in it again)")]
    NotEmpty {
        /// The directory.
        dir: PathBuf,
    },
    /// A path cannot be written into `#SBATCH` lines.
    #[error("{path}: {reason}")]
    BadPath {
        /// The path.
        path: PathBuf,
        /// Why not.
        reason: String,
    },
    /// A setting is out of range.
    #[error("{setting}: {reason}")]
    BadSetting {
        /// The setting (`--points-per-task`, `--throttle`, …).
        setting: String,
        /// Why not.
        reason: String,
    },
    /// The array task id is missing or wrong.
    #[error("array task {task}: {reason}")]
    Task {
        /// The task id as given (or the variable's name when it is missing).
        task: String,
        /// Why it cannot run.
        reason: String,
    },
    /// The frozen spec no longer plans (a different hase version reading it).
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A result file is unreadable.
    #[error(transparent)]
    Record(#[from] RecordFileError),
    /// The task's runs could not start.
    #[error(transparent)]
    Sweep(#[from] SweepError),
    /// A Slurm command failed.
    #[error("`{command}` failed: {detail}")]
    Command {
        /// The command line.
        command: String,
        /// Exit status and stderr, or why it could not start.
        detail: String,
    },
}

impl SlurmError {
    /// An I/O error on `path`.
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        SlurmError::Io { path: path.into(), source }
    }

    /// A RON error in `path`.
    pub(crate) fn ron(path: impl Into<PathBuf>, error: &ron::error::SpannedError) -> Self {
        SlurmError::Syntax {
            path: path.into(),
            line: error.span.start.line,
            column: error.span.start.col,
            message: error.code.to_string(),
        }
    }
}
