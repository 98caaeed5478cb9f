//! What can go wrong in the project store, as values with the path or project name the user needs
//! to act on. The GUI shows these messages as they are; the CLI prints them and exits non-zero.

use std::path::{Path, PathBuf};

use hase_engine::FilePlace;
use hase_engine::model::ProjectFileError;

use crate::experiment::record::RunKey;

/// Why a store operation failed. Every variant about the database names its directory; every
/// variant about a project names the project.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another process (usually another hase window) holds the database open.
    #[error(
        "hase database at {} is in use by another hase instance; close it or open a RON file instead",
        path.display()
    )]
    InUse {
        /// The data directory.
        path: PathBuf,
    },
    /// The database files are damaged or are not a hase database.
    #[error(
        "hase database at {} is corrupt ({detail}); move that directory aside, or start hase with \
         --data-dir <another directory> (or HASE_DATA_DIR) and import your RON files there",
        path.display()
    )]
    Corrupt {
        /// The data directory.
        path: PathBuf,
        /// What was found wrong.
        detail: String,
    },
    /// The disk (or quota) is full.
    #[error(
        "disk full while writing the hase database at {}: {source}; the last completed save is still \
         stored — export unsaved work to a RON file elsewhere, free some space and restart hase",
        path.display()
    )]
    DiskFull {
        /// The data directory.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// An earlier write failed (disk full, I/O error, damaged data); the database refuses further
    /// changes until hase is restarted, because sled cannot be trusted to make progress after such
    /// a failure. Reading (and exporting RON files) still works.
    #[error(
        "hase database at {} stopped accepting changes after an earlier error ({cause}); \
         export unsaved work to a RON file, then restart hase",
        path.display()
    )]
    Stopped {
        /// The data directory.
        path: PathBuf,
        /// The first error.
        cause: String,
    },
    /// Any other input/output error.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory the operation touched.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// No data directory was given and the platform has none (no home directory).
    #[error(
        "cannot find a data directory for the hase database (no home directory); pass --data-dir or set HASE_DATA_DIR"
    )]
    NoDataDir,
    /// The database was written by a newer hase with a different store layout.
    #[error(
        "hase database at {} has store format {found}, newer than this hase understands ({supported}); update hase",
        path.display()
    )]
    TooNew {
        /// The data directory.
        path: PathBuf,
        /// Format found in the database.
        found: u32,
        /// Newest format this build reads.
        supported: u32,
    },
    /// Any other failure reported by the database engine.
    #[error("hase database at {}: {reason}", path.display())]
    Database {
        /// The data directory.
        path: PathBuf,
        /// What the engine reported.
        reason: DatabaseReason,
    },
    /// No project of that name is stored.
    #[error("no project named '{name}' in the hase database")]
    NotFound {
        /// The project name asked for.
        name: String,
    },
    /// The project exists but that version is not (or no longer) kept.
    #[error("project '{name}' has no version {version} (versions kept: {first} to {latest})")]
    VersionNotFound {
        /// The project name.
        name: String,
        /// The version asked for.
        version: u64,
        /// Oldest version kept.
        first: u64,
        /// Newest version kept.
        latest: u64,
    },
    /// The target name of a save-as, rename or import is taken.
    #[error("a project named '{name}' already exists; choose another name or delete it first")]
    AlreadyExists {
        /// The name that is taken.
        name: String,
    },
    /// The name cannot be used as a project name.
    #[error("'{name}' is not a usable project name: {reason}")]
    InvalidName {
        /// The rejected name.
        name: String,
        /// Why.
        reason: &'static str,
    },
    /// No experiment has this id.
    #[error("no experiment {id} in the hase database (`hase experiments list` shows the ids)")]
    ExperimentNotFound {
        /// The id asked for.
        id: u64,
    },
    /// An experiment export file (import) is not RON of an experiment.
    #[error("{place}: {}", hase_engine::limits::short_error(&.source.to_string()))]
    ExportSyntax {
        /// The file, line and column.
        place: FilePlace,
        /// The RON reader's reason.
        source: ron::error::Error,
    },
    /// An experiment export file (import) that does not fit this hase or its own plan.
    #[error("{path}: {reason}")]
    ExportInvalid {
        /// The file.
        path: String,
        /// What does not fit.
        reason: ExportReason,
    },
    /// A RON file (import) or a stored record could not be parsed or rendered; the message names
    /// the file, or the project and version, with line and column.
    #[error(transparent)]
    Project(#[from] ProjectFileError),
}

/// Why an experiment export file cannot be imported although it reads.
#[derive(Debug, thiserror::Error)]
pub enum ExportReason {
    /// Another format version.
    #[error("experiment file version {version} is not one this hase reads (1 to {latest})")]
    Version {
        /// The file's version.
        version: u32,
        /// The newest this hase reads.
        latest: u32,
    },
    /// A project newer than this hase.
    #[error(
        "its project has schema version {version}, newer than this hase understands ({latest}); update hase"
    )]
    NewerProject {
        /// The project's schema version.
        version: u32,
        /// The newest this hase reads.
        latest: u32,
    },
    /// The file's spec and project do not make a plan.
    #[error("its spec does not plan on its project: {reason}")]
    SpecDoesNotPlan {
        /// Why (the spec error's text, which quotes input short).
        reason: String,
    },
    /// The header contradicts what the file's spec makes.
    #[error("the header says {field} {header}, but its spec makes {planned}")]
    HeaderContradictsSpec {
        /// Which header field.
        field: &'static str,
        /// The header's value.
        header: String,
        /// What the spec makes.
        planned: String,
    },
    /// A run outside the experiment's points, repetitions, variables or metrics.
    #[error("run {key} does not fit the experiment's plan")]
    RunOutsidePlan {
        /// The run.
        key: RunKey,
    },
}

impl StoreError {
    /// Classify an I/O error on `path`: disk full gets its own variant.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        if is_disk_full(&source) {
            StoreError::DiskFull { path: path.to_path_buf(), source }
        } else {
            StoreError::Io { path: path.to_path_buf(), source }
        }
    }
}

/// ENOSPC (28 on Linux and macOS) or EDQUOT (122 on Linux), whichever way the error reached us.
fn is_disk_full(error: &std::io::Error) -> bool {
    matches!(error.kind(), std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded)
        || matches!(error.raw_os_error(), Some(28 | 122))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disk_full_is_recognised_by_kind_and_by_errno() {
        let dir = Path::new("/data/hase");
        let by_errno = StoreError::io(dir, std::io::Error::from_raw_os_error(28));
        assert!(matches!(by_errno, StoreError::DiskFull { .. }), "{by_errno}");
        assert!(by_errno.to_string().contains("/data/hase"), "{by_errno}");
        let by_kind = StoreError::io(dir, std::io::Error::from(std::io::ErrorKind::StorageFull));
        assert!(matches!(by_kind, StoreError::DiskFull { .. }));
        let other = StoreError::io(dir, std::io::Error::from(std::io::ErrorKind::PermissionDenied));
        assert!(matches!(other, StoreError::Io { .. }));
    }
}

/// What the database engine reported, for [`StoreError::Database`].
#[derive(Debug, thiserror::Error)]
pub enum DatabaseReason {
    /// sled's own lock on its files is held (by another program, or by this hase after a failed
    /// write left the database open).
    #[error(
        "its files are locked by another program, or by this hase after an earlier failure; restart hase"
    )]
    Locked,
    /// Another failure of the engine.
    #[error(transparent)]
    Engine(sled::Error),
}
