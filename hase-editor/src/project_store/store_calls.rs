//! Store calls on worker threads: each spawns a task through [`Tasks`] and reports a
//! [`LibraryOutput`] (wrapped in `TaskOutput::Library`) that the app handles on the UI thread.
//! Errors arrive as the store's own (`StoreError`), which name the database directory or the project.

use std::path::{Path, PathBuf};

use hase_engine::model::Project;
use hase_engine::model::ProjectFileError;
use hase_library::store::{
    ProjectStore, ProjectSummary, Recovery, StoreError, StoreOptions, StoredProject, Timestamp, VersionInfo,
};

use super::LibraryLocation;
use crate::tasks::{TaskOutput, Tasks};

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

impl Tasks {
    fn library(&self, work: impl FnOnce() -> LibraryOutput + Send + 'static) {
        self.spawn("library", move || TaskOutput::Library(Box::new(work())));
    }

    /// Open the store at `location` and read its recovery records.
    pub fn library_open(&self, location: LibraryLocation) {
        self.library(move || {
            let explicit = match &location {
                LibraryLocation::Dir(dir) => Some(dir.as_path()),
                _ => None,
            };
            let opened = ProjectStore::open_default(explicit, StoreOptions::default()).and_then(|store| {
                let recovery = store.recovery()?;
                Ok((store, recovery))
            });
            LibraryOutput::Opened(opened)
        });
    }

    /// List the stored projects.
    pub fn library_list(&self, store: &ProjectStore) {
        let store = store.clone();
        self.library(move || LibraryOutput::Listed(store.list()));
    }

    /// Read the history of project `name`.
    pub fn library_history(&self, store: &ProjectStore, name: String) {
        let store = store.clone();
        self.library(move || {
            let result = store.history(&name);
            LibraryOutput::History { name, result }
        });
    }

    /// Read project `name` (its newest version, or `version`) to open it.
    pub fn library_load(&self, store: &ProjectStore, name: String, version: Option<u64>) {
        let store = store.clone();
        self.library(move || {
            let result = match version {
                Some(v) => store.load_version(&name, v),
                None => store.load(&name),
            };
            LibraryOutput::Loaded(result)
        });
    }

    /// Save `project` as a new version of itself.
    pub fn library_save(&self, store: &ProjectStore, project: Project, (generation, revision): (u64, u64)) {
        let store = store.clone();
        self.library(move || LibraryOutput::Saved { revision, generation, result: store.save(&project) });
    }

    /// Save `project` as a new project called `name`.
    pub fn library_save_as(
        &self,
        store: &ProjectStore,
        project: Project,
        name: String,
        (generation, revision): (u64, u64),
    ) {
        let store = store.clone();
        self.library(move || LibraryOutput::SavedAs {
            revision,
            generation,
            result: store.save_as(&project, &name),
        });
    }

    /// Rename stored project `from` to `to`.
    pub fn library_rename(&self, store: &ProjectStore, from: String, to: String) {
        let store = store.clone();
        self.library(move || {
            let result = store.rename(&from, &to);
            LibraryOutput::Renamed { from, to, result }
        });
    }

    /// Delete stored project `name` with its history.
    pub fn library_delete(&self, store: &ProjectStore, name: String) {
        let store = store.clone();
        self.library(move || {
            let result = store.delete(&name);
            LibraryOutput::Deleted { name, result }
        });
    }

    /// Read a RON file and store it (a new project, or a new version of the one of that name).
    pub fn library_import(&self, store: &ProjectStore, path: PathBuf) {
        let store = store.clone();
        self.library(move || {
            let result = store.import_ron(&path);
            LibraryOutput::Imported { path, result }
        });
    }

    /// Write `project` to a RON file (atomically).
    pub fn export_ron(&self, project: Project, path: PathBuf) {
        self.library(move || {
            let result = hase_library::generated::save_project(&project, Path::new(&path));
            LibraryOutput::Exported { path, result }
        });
    }

    /// Write `project` to its recovery slot.
    pub fn library_autosave(&self, store: &ProjectStore, project: Project) {
        let store = store.clone();
        self.library(move || LibraryOutput::Autosaved(store.autosave(&project)));
    }

    /// Drop the recovery record of project `name`.
    pub fn library_discard_recovery(&self, store: &ProjectStore, name: String) {
        let store = store.clone();
        self.library(move || {
            let result = store.discard_recovery(&name);
            LibraryOutput::RecoveryDiscarded { name, result }
        });
    }
}
