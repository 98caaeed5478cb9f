//! Persistence: the embedded sled database in the user's data directory that holds projects
//! (with a bounded version history and an autosave recovery slot) and experiments (spec, frozen
//! project, one record per finished run); plus RON (and CSV) import and export.
//!
//! - [`Database`]: the one open database of a data directory (lock, creation, format check,
//!   error translation). Stores share it and keep their records in their own sled trees.
//! - [`ProjectStore`]: list, load, save, save-as, rename, delete, history, autosave/recovery,
//!   import/export RON, verify.
//! - [`ExperimentStore`]: create, list, info, record each run as it finishes, runs, rename,
//!   delete, export RON/CSV, import RON, verify.
//! - [`resolve_data_dir`]: `--data-dir`, else `HASE_DATA_DIR`, else the platform data directory.
//!
//! All calls are synchronous and block on disk I/O: the GUI calls them from a worker thread.
//! [`Database`] and [`ProjectStore`] are `Send + Sync` and cheap to clone.
//!
//! Guarantees: a change (save, save-as, rename, delete) is one sled transaction, flushed to disk
//! before it reports success, so after a crash the store holds either the state before the
//! change or the state after it, and every completed change. The crash-safety test
//! (`crash_test.rs`) kills a writing process at random moments and checks exactly that; the
//! experiment crash test (`experiment_crash_test.rs`) does the same to a process running a sweep.

mod database;
pub(crate) mod error;
mod experiment_files;
mod experiment_header;
mod experiment_records;
mod experiments;
mod handle;
mod location;
mod projects;
mod records;
mod recovery;
mod ron_files;
mod saving;
mod timestamp;
mod verify;

#[cfg(test)]
mod crash_test;
#[cfg(test)]
mod disk_full_test;
#[cfg(test)]
mod experiment_crash_test;
#[cfg(test)]
mod experiment_tests;

pub use database::{Database, STORE_FORMAT};
pub use error::{DatabaseReason, ExportReason, StoreError};
pub use experiment_files::{EXPERIMENT_EXPORT_VERSION, ExperimentExport, read_export};
pub use experiment_header::{ExperimentHeader, NoRuns, RunList};
pub use experiments::{ExperimentInfo, ExperimentStore, ExperimentSummary, HASE_VERSION};
pub use location::{DATA_DIR_ENV, platform_data_dir, resolve_data_dir};
pub use projects::{
    DEFAULT_MAX_VERSIONS, MAX_NAME_BYTES, ProjectStore, ProjectSummary, StoreOptions, StoredProject,
    VersionInfo, name_problem, validate_name,
};
pub use recovery::Recovery;
pub use timestamp::{Timestamp, UtcDateTime};
pub use verify::VerifyReport;
