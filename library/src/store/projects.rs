//! The project store: named projects with a bounded history of saved versions, kept as the RON
//! text the engine writes (so any stored version exports byte-for-byte as a `.ron` file).
//! This file opens the store and reads it; `saving.rs` changes it, `recovery.rs` keeps autosaves,
//! `ron_files.rs` imports and exports, `verify.rs` checks a whole store.
//!
//! Every call is synchronous and may block on disk I/O: the GUI calls the store from a worker
//! thread. [`ProjectStore`] is `Send + Sync` and cheap to clone; clones share one database.

use std::path::Path;

use hase_engine::model::Project;

use crate::generated::project_from_ron;

use super::database::{Database, tree_names};
use super::error::StoreError;
use super::handle::SledHandle;
use super::records::{IndexRecord, decode_version, parse_version_key, version_key, version_prefix};
use super::timestamp::Timestamp;

/// How many versions of each project are kept unless configured otherwise.
pub const DEFAULT_MAX_VERSIONS: u64 = 50;

/// Longest project name accepted, in bytes.
pub const MAX_NAME_BYTES: usize = 200;

/// Settings of a project store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreOptions {
    /// Versions kept per project; older ones are dropped when a save exceeds it. The newest is
    /// never dropped: values below 1 count as 1.
    pub max_versions: u64,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions { max_versions: DEFAULT_MAX_VERSIONS }
    }
}

/// One line of the project list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectSummary {
    /// Project name (the key in the store and the `name` inside its RON).
    pub name: String,
    /// When the newest version was saved.
    pub saved_at: Timestamp,
    /// How many versions are kept.
    pub version_count: u64,
    /// Number of the newest version (versions count up from 1 and are never reused).
    pub latest_version: u64,
}

/// One entry of a project's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VersionInfo {
    /// Version number.
    pub version: u64,
    /// When it was saved.
    pub saved_at: Timestamp,
    /// Size of its RON text in bytes.
    pub size_bytes: usize,
}

/// A project read from the store, with the version it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredProject {
    /// The parsed project.
    pub project: Project,
    /// Which version it is.
    pub version: VersionInfo,
}

/// Projects in a hase database (see the module documentation).
#[derive(Clone)]
pub struct ProjectStore {
    pub(super) db: Database,
    pub(super) index: SledHandle<sled::Tree>,
    pub(super) versions: SledHandle<sled::Tree>,
    pub(super) recovery: SledHandle<sled::Tree>,
    pub(super) max_versions: u64,
}

impl std::fmt::Debug for ProjectStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProjectStore")
            .field("data_dir", &self.db.data_dir())
            .field("max_versions", &self.max_versions)
            .finish_non_exhaustive()
    }
}

impl ProjectStore {
    /// Open the store in `data_dir` with default options.
    pub fn open(data_dir: &Path) -> Result<Self, StoreError> {
        ProjectStore::open_with(data_dir, StoreOptions::default())
    }

    /// Open the store in `data_dir`.
    pub fn open_with(data_dir: &Path, options: StoreOptions) -> Result<Self, StoreError> {
        ProjectStore::with_database(Database::open(data_dir)?, options)
    }

    /// Open the store in the directory chosen by `--data-dir` (`explicit`), `HASE_DATA_DIR` or
    /// the platform data directory, in that order.
    pub fn open_default(explicit: Option<&Path>, options: StoreOptions) -> Result<Self, StoreError> {
        ProjectStore::with_database(Database::open_default(explicit)?, options)
    }

    /// The project store of an already open database (which other stores may share). Checks
    /// that every project's first and latest versions are present.
    pub fn with_database(db: Database, options: StoreOptions) -> Result<Self, StoreError> {
        let store = ProjectStore {
            index: db.tree(tree_names::PROJECT_INDEX)?,
            versions: db.tree(tree_names::PROJECT_VERSIONS)?,
            recovery: db.tree(tree_names::PROJECT_RECOVERY)?,
            max_versions: options.max_versions.max(1),
            db,
        };
        for entry in store.index.iter() {
            let (key, value) = entry.map_err(|e| store.db.error(e))?;
            let name = store.key_name(&key)?;
            let record = store.decode_index(name, &value)?;
            for version in [record.first, record.latest] {
                if !store.versions.contains_key(version_key(name, version)).map_err(|e| store.db.error(e))? {
                    return Err(store.corrupt(format!(
                        "project '{name}' lists versions {} to {}, but version {version} is missing",
                        record.first, record.latest
                    )));
                }
            }
        }
        Ok(store)
    }

    /// The database this store lives in.
    pub fn database(&self) -> &Database {
        &self.db
    }

    /// Versions kept per project.
    pub fn max_versions(&self) -> u64 {
        self.max_versions
    }

    /// Every project, sorted by the bytes of its UTF-8 name (so `Zeta` before `alpha`).
    pub fn list(&self) -> Result<Vec<ProjectSummary>, StoreError> {
        let mut projects = Vec::new();
        for entry in self.index.iter() {
            let (key, value) = entry.map_err(|e| self.db.error(e))?;
            let name = self.key_name(&key)?;
            let record = self.decode_index(name, &value)?;
            projects.push(ProjectSummary {
                name: name.to_string(),
                saved_at: record.saved_at,
                version_count: record.count(),
                latest_version: record.latest,
            });
        }
        Ok(projects)
    }

    /// Whether a project of that name is stored.
    pub fn exists(&self, name: &str) -> Result<bool, StoreError> {
        self.index.contains_key(name).map_err(|e| self.db.error(e))
    }

    /// The newest version of a project.
    pub fn load(&self, name: &str) -> Result<StoredProject, StoreError> {
        let record = self.index_record(name)?;
        self.load_version(name, record.latest)
    }

    /// One version of a project (see [`ProjectStore::history`] for the numbers kept).
    pub fn load_version(&self, name: &str, version: u64) -> Result<StoredProject, StoreError> {
        let (info, ron) = self.ron_text(name, Some(version))?;
        let project = self.parse_stored(name, version, &ron)?;
        Ok(StoredProject { project, version: info })
    }

    /// The stored RON text of a version (`None`: the newest) — exactly what was saved.
    pub fn ron_text(&self, name: &str, version: Option<u64>) -> Result<(VersionInfo, String), StoreError> {
        let record = self.index_record(name)?;
        let version = version.unwrap_or(record.latest);
        if !(record.first..=record.latest).contains(&version) {
            return Err(StoreError::VersionNotFound {
                name: name.to_string(),
                version,
                first: record.first,
                latest: record.latest,
            });
        }
        let bytes = self.versions.get(version_key(name, version)).map_err(|e| self.db.error(e))?;
        let bytes =
            bytes.ok_or_else(|| self.corrupt(format!("version {version} of project '{name}' is missing")))?;
        let (saved_at, ron) = decode_version(&bytes)
            .ok_or_else(|| self.corrupt(format!("version {version} of project '{name}' is malformed")))?;
        Ok((VersionInfo { version, saved_at, size_bytes: ron.len() }, ron.to_string()))
    }

    /// The versions kept of a project, oldest first.
    pub fn history(&self, name: &str) -> Result<Vec<VersionInfo>, StoreError> {
        self.index_record(name)?;
        let mut history = Vec::new();
        for entry in self.versions.scan_prefix(version_prefix(name)) {
            let (key, value) = entry.map_err(|e| self.db.error(e))?;
            let (_, version) = parse_version_key(&key)
                .ok_or_else(|| self.corrupt(format!("a version key of project '{name}' is malformed")))?;
            let (saved_at, ron) = decode_version(&value)
                .ok_or_else(|| self.corrupt(format!("version {version} of project '{name}' is malformed")))?;
            history.push(VersionInfo { version, saved_at, size_bytes: ron.len() });
        }
        Ok(history)
    }

    /// The index record of a project, or `NotFound`.
    pub(super) fn index_record(&self, name: &str) -> Result<IndexRecord, StoreError> {
        let bytes = self.index.get(name).map_err(|e| self.db.error(e))?;
        let bytes = bytes.ok_or_else(|| StoreError::NotFound { name: name.to_string() })?;
        self.decode_index(name, &bytes)
    }

    pub(super) fn decode_index(&self, name: &str, bytes: &[u8]) -> Result<IndexRecord, StoreError> {
        IndexRecord::decode(bytes)
            .ok_or_else(|| self.corrupt(format!("the index record of project '{name}' is malformed")))
    }

    pub(super) fn key_name<'k>(&self, key: &'k [u8]) -> Result<&'k str, StoreError> {
        std::str::from_utf8(key)
            .map_err(|_| self.corrupt("a project name in the index is not UTF-8".to_string()))
    }

    /// Parse stored RON; errors name the database, project and version, then line and column.
    pub(super) fn parse_stored(&self, name: &str, version: u64, ron: &str) -> Result<Project, StoreError> {
        let origin = format!("{}: project '{name}' version {version}", self.db.data_dir().display());
        Ok(project_from_ron(ron, &origin)?)
    }

    pub(super) fn corrupt(&self, detail: String) -> StoreError {
        StoreError::Corrupt { path: self.db.data_dir().to_path_buf(), detail }
    }
}

/// Check that `name` can be a project name: not empty, no surrounding white space, no control
/// characters (the store separates names from version numbers with a 0 byte), not too long.
pub fn validate_name(name: &str) -> Result<(), StoreError> {
    match name_problem(name) {
        Some(reason) => Err(StoreError::InvalidName { name: hase_engine::limits::quote(name), reason }),
        None => Ok(()),
    }
}

/// Why `name` cannot be a project name (see [`validate_name`]), or `None` when it can.
pub fn name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("it is empty")
    } else if name.trim() != name {
        Some("it starts or ends with white space")
    } else if name.chars().any(char::is_control) {
        Some("it contains a control character")
    } else if name.len() > MAX_NAME_BYTES {
        Some("it is longer than 200 bytes")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn the_store_can_be_shared_with_worker_threads() {
        assert_send_sync::<ProjectStore>();
    }

    /// A store with two projects, closed again; returns the data directory.
    fn filled_store() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let store = ProjectStore::open(dir.path()).unwrap();
        for name in ["mesh", "tree"] {
            for _ in 0..3 {
                store.save(&Project::new(name)).unwrap();
            }
        }
        dir
    }

    #[test]
    fn opening_a_store_twice_reports_it_in_use() {
        let dir = filled_store();
        let first = ProjectStore::open(dir.path()).unwrap();
        let err = ProjectStore::open(dir.path()).unwrap_err();
        assert!(matches!(&err, StoreError::InUse { path } if path == dir.path()), "{err}");
        assert_eq!(
            err.to_string(),
            format!(
                "hase database at {} is in use by another hase instance; close it or open a RON file instead",
                dir.path().display()
            )
        );
        assert_eq!(first.list().unwrap().len(), 2, "the first handle is unaffected");
    }

    fn assert_corrupt(dir: &Path, what: &str) {
        let err = ProjectStore::open(dir).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, StoreError::Corrupt { .. }), "{what}: {text}");
        assert!(text.contains(&dir.display().to_string()) && text.contains("--data-dir"), "{what}: {text}");
    }

    /// Bytes that look like nothing sled wrote.
    fn garbage(len: usize) -> Vec<u8> {
        (0..len as u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect()
    }

    #[test]
    fn garbage_in_the_data_file_is_reported_as_corrupt_every_time() {
        let dir = filled_store();
        std::fs::write(dir.path().join("store.sled").join("db"), garbage(70_000)).unwrap();
        // sled itself reads such a file as an empty database; the missing format record gives it away.
        assert_corrupt(dir.path(), "garbage db");
        assert_corrupt(dir.path(), "garbage db, second open");
    }

    #[test]
    fn garbage_in_the_config_file_is_reported_as_corrupt() {
        let dir = filled_store();
        std::fs::write(dir.path().join("store.sled").join("conf"), garbage(100)).unwrap();
        assert_corrupt(dir.path(), "garbage conf");
    }

    #[test]
    fn a_missing_latest_version_is_found_at_open() {
        let dir = filled_store();
        {
            let store = ProjectStore::open(dir.path()).unwrap();
            store.versions.remove(version_key("tree", 3)).unwrap();
            store.database().flush().unwrap();
        }
        let err = ProjectStore::open(dir.path()).unwrap_err();
        assert!(
            err.to_string().contains("project 'tree' lists versions 1 to 3, but version 3 is missing"),
            "{err}"
        );
    }

    #[test]
    fn unknown_projects_and_versions_are_named() {
        let dir = filled_store();
        let store = ProjectStore::open(dir.path()).unwrap();
        let err = store.load("ring").unwrap_err();
        assert_eq!(err.to_string(), "no project named 'ring' in the hase database");
        assert!(matches!(store.history("ring"), Err(StoreError::NotFound { .. })));
        let err = store.load_version("mesh", 9).unwrap_err();
        assert_eq!(err.to_string(), "project 'mesh' has no version 9 (versions kept: 1 to 3)");
    }

    #[test]
    fn options_clamp_the_limit_to_one() {
        let dir = tempfile::tempdir().unwrap();
        let store = ProjectStore::open_with(dir.path(), StoreOptions { max_versions: 0 }).unwrap();
        assert_eq!(store.max_versions(), 1);
        assert_eq!(StoreOptions::default().max_versions, DEFAULT_MAX_VERSIONS);
    }
}
