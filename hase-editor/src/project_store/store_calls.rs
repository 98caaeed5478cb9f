//! Store calls on worker threads: each spawns a task through [`Tasks`] and reports a
//! [`LibraryOutput`] (wrapped in `TaskOutput::Library`) that the app handles on the UI thread.
//! Errors arrive as the store's own (`StoreError`), which name the database directory or the project.

use std::path::{Path, PathBuf};

use hase_engine::model::Project;
use hase_library::store::{ProjectStore, StoreOptions};

use super::LibraryLocation;
use super::output::LibraryOutput;
use crate::tasks::{TaskOutput, Tasks};

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
