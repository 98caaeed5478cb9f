//! [`LibraryOutput`]: what a store call on a worker thread reports (wrapped in
//! `TaskOutput::Library`), with the store's own errors, which name the database directory or the
//! project.

use std::path::PathBuf;

use hase_engine::model::{Project, ProjectFileError};
use hase_library::store::{
    ProjectStore, ProjectSummary, Recovery, StoreError, StoredProject, Timestamp, VersionInfo,
};

/// What a library task reports.
#[derive(Debug)]
pub enum LibraryOutput {
    /// The store opened (with the autosaves found in it), or why not.
    Opened(Result<(ProjectStore, Vec<Recovery>), StoreError>),
    /// The project list.
    Listed(Result<Vec<ProjectSummary>, StoreError>),
    /// The versions kept of a project.
    History {
        /// The project.
        name: String,
        /// Oldest first.
        result: Result<Vec<VersionInfo>, StoreError>,
    },
    /// A project (or one version of it) was read to be opened.
    Loaded(Result<StoredProject, StoreError>),
    /// The document was saved as a new version.
    Saved {
        /// History revision saved.
        revision: u64,
        /// Editor generation saved.
        generation: u64,
        /// The new version.
        result: Result<VersionInfo, StoreError>,
    },
    /// The document was saved under a new name.
    SavedAs {
        /// History revision saved.
        revision: u64,
        /// Editor generation saved.
        generation: u64,
        /// The renamed project and its first version.
        result: Result<(Project, VersionInfo), StoreError>,
    },
    /// A stored project was renamed.
    Renamed {
        /// Old name.
        from: String,
        /// New name.
        to: String,
        /// Success or why not.
        result: Result<(), StoreError>,
    },
    /// A stored project was deleted.
    Deleted {
        /// Its name.
        name: String,
        /// Success or why not.
        result: Result<(), StoreError>,
    },
    /// A RON file was read and stored.
    Imported {
        /// The file.
        path: PathBuf,
        /// The project and the version it was stored as.
        result: Result<(Project, VersionInfo), StoreError>,
    },
    /// The document was written to a RON file.
    Exported {
        /// The file.
        path: PathBuf,
        /// Success or why not.
        result: Result<(), ProjectFileError>,
    },
    /// The document was written to the recovery slot.
    Autosaved(Result<Timestamp, StoreError>),
    /// A recovery record was dropped.
    RecoveryDiscarded {
        /// Project name.
        name: String,
        /// Whether there was one, or why it failed.
        result: Result<bool, StoreError>,
    },
}
