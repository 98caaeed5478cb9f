//! What can go wrong with a Slurm job directory.

use std::path::{Path, PathBuf};

use hase_engine::FilePlace;

use crate::experiment::error::SpecError;
use crate::experiment::record::RecordFileError;
use crate::experiment::sweep::SweepError;

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
    #[error("{place}: {}", hase_engine::limits::short_error(&.source.to_string()))]
    Ron {
        /// The file, line and column.
        place: FilePlace,
        /// The RON reader's reason.
        source: ron::error::Error,
    },
    /// A file of the job directory no longer fits the job (another version, another spec).
    #[error("{place}: {message}")]
    Mismatch {
        /// The file.
        place: FilePlace,
        /// What does not fit.
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
    ArrayTask {
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
    /// A Slurm command could not be started.
    #[error("`{command}` failed: {source}")]
    CommandStart {
        /// The command line.
        command: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A Slurm command failed.
    #[error("`{command}` failed: {detail}")]
    Command {
        /// The command line.
        command: String,
        /// Exit status and stderr, or the output it should not have given.
        detail: String,
    },
}

impl SlurmError {
    /// An I/O error on `path`.
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        SlurmError::Io { path: path.into(), source }
    }

    /// A RON error in `path`.
    pub(crate) fn ron(path: &Path, error: ron::error::SpannedError) -> Self {
        let place = FilePlace::at(path.display().to_string(), error.span.start.line, error.span.start.col);
        SlurmError::Ron { place, source: error.code }
    }

    /// A file of the job (`job.ron`) that no longer fits the job.
    pub(crate) fn mismatch(path: &Path, message: String) -> Self {
        SlurmError::Mismatch { place: FilePlace::at(path.display().to_string(), 1, 1), message }
    }
}
