//! The one sled database behind every hase store (projects and experiments), with the
//! guards around it: an exclusive lock file so a second hase process is told the database is in
//! use, crash-safe creation, a store-format record checked on every open, and the translation of
//! sled's errors (and panics) into [`StoreError`] values that name the directory.
//!
//! Layout of a data directory:
//! - `hase.lock` — held (advisory `flock`) for as long as a [`Database`] is open;
//! - `store.sled/` — the sled database; each store keeps its records in its own trees (see
//!   [`tree_names`]), so stores never see each other's keys;
//! - `store.creating` — present only while a new database is being created; if a crash leaves it
//!   behind, the half-made database is discarded and created again on the next open.

use std::fs::{File, OpenOptions, TryLockError};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sled::transaction::TransactionError;

use super::error::{DatabaseReason, StoreError};
use super::handle::{FailState, SledHandle};
use super::location::resolve_data_dir;

/// Store format this build writes and the newest it reads. Bump it (and add a migration in
/// `Database::open`) when the key or record layout of any tree changes.
pub const STORE_FORMAT: u32 = 1;

const SLED_DIR: &str = "store.sled";
const LOCK_FILE: &str = "hase.lock";
const CREATING_MARKER: &str = "store.creating";
const FORMAT_KEY: &[u8] = b"store_format";
/// Upper bound of sled's page cache; hase stores are small, the default (1 GiB) is far too much.
const CACHE_CAPACITY_BYTES: u64 = 64 * 1024 * 1024;

/// Names of the sled trees. Rule: `<store>/<what>`; a store owns every tree with its prefix.
pub(crate) mod tree_names {
    /// Database-wide records (the store format).
    pub const META: &str = "meta";
    /// Project name → index record (version range, last save time).
    pub const PROJECT_INDEX: &str = "projects/index";
    /// Project name, 0, version (big-endian) → version record (save time, RON text).
    pub const PROJECT_VERSIONS: &str = "projects/versions";
    /// Project name → autosave (recovery) record.
    pub const PROJECT_RECOVERY: &str = "projects/recovery";
    /// Experiment id (big-endian) → header record (spec, frozen project, times).
    pub const EXPERIMENT_INDEX: &str = "experiments/index";
    /// Experiment id, point, repetition (big-endian) → run record.
    pub const EXPERIMENT_RUNS: &str = "experiments/runs";
    /// The next experiment id.
    pub const EXPERIMENT_META: &str = "experiments/meta";
}

/// An open hase database. Cheap to clone (clones share one sled instance and one lock); the
/// lock is released when the last clone is dropped. `Send + Sync`: the GUI keeps one and calls it
/// from worker threads; every call blocks on disk I/O, so never call it on the UI thread.
#[derive(Clone)]
pub struct Database {
    inner: Arc<Inner>,
}

struct Inner {
    db: SledHandle<sled::Db>,
    data_dir: PathBuf,
    /// Held for its lock; closing the file releases it.
    _lock: File,
    /// The first write failure, after which changes are refused (see [`StoreError::Stopped`]).
    failure: FailState,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database").field("data_dir", &self.inner.data_dir).finish_non_exhaustive()
    }
}

impl Database {
    /// Open (creating if needed) the database in `data_dir`.
    pub fn open(data_dir: &Path) -> Result<Self, StoreError> {
        std::fs::create_dir_all(data_dir).map_err(|e| StoreError::io(data_dir, e))?;
        let lock = acquire_lock(data_dir)?;
        let sled_path = data_dir.join(SLED_DIR);
        let marker = data_dir.join(CREATING_MARKER);
        let interrupted = exists(&marker)?;
        let db = if interrupted || !exists(&sled_path)? {
            create_fresh(data_dir, &sled_path, &marker)?
        } else {
            let db = open_sled(data_dir, &sled_path)?;
            check_format(data_dir, &db)?;
            db
        };
        let failure = FailState::default();
        let db = SledHandle::new(db, failure.clone());
        Ok(Database { inner: Arc::new(Inner { db, data_dir: data_dir.to_path_buf(), _lock: lock, failure }) })
    }

    /// Open the database in the directory chosen by [`resolve_data_dir`] (explicit path, else
    /// `HASE_DATA_DIR`, else the platform data directory).
    pub fn open_default(explicit: Option<&Path>) -> Result<Self, StoreError> {
        Database::open(&resolve_data_dir(explicit)?)
    }

    /// The data directory this database lives in.
    pub fn data_dir(&self) -> &Path {
        &self.inner.data_dir
    }

    /// Write every buffered change to disk and fsync. When this returns `Ok`, all earlier
    /// changes survive a crash of the process or of the machine.
    pub fn flush(&self) -> Result<(), StoreError> {
        self.check_writable()?;
        self.inner.db.flush().map(|_| ()).map_err(|e| self.error(e))
    }

    /// Fail-stop: once a write has failed (disk full, I/O error, damaged data), refuse every
    /// further change with [`StoreError::Stopped`] instead of calling sled (see `handle.rs`).
    /// Stores call this before writing.
    pub(crate) fn check_writable(&self) -> Result<(), StoreError> {
        match self.inner.failure.cause() {
            Some(cause) => Err(StoreError::Stopped { path: self.inner.data_dir.clone(), cause }),
            None => Ok(()),
        }
    }

    /// Open (creating if missing) one of the trees named in [`tree_names`].
    pub(crate) fn tree(&self, name: &str) -> Result<SledHandle<sled::Tree>, StoreError> {
        let tree = self.inner.db.open_tree(name).map_err(|e| self.error(e))?;
        Ok(SledHandle::new(tree, self.inner.failure.clone()))
    }

    /// Translate an error sled reported during normal operation. I/O errors and damage stop
    /// the database from accepting further changes (see [`Database::check_writable`]).
    pub(crate) fn error(&self, error: sled::Error) -> StoreError {
        let path = self.inner.data_dir.clone();
        let translated = match error {
            sled::Error::Io(source) => StoreError::io(&path, source),
            sled::Error::Corruption { at, .. } => StoreError::Corrupt {
                path,
                detail: format!("the database engine found damaged data at {at:?}"),
            },
            other => StoreError::Database { path, reason: DatabaseReason::Engine(other) },
        };
        match &translated {
            StoreError::DiskFull { source, .. } | StoreError::Io { source, .. } => {
                self.inner.failure.record(source.to_string());
            }
            StoreError::Corrupt { detail, .. } => self.inner.failure.record(detail.clone()),
            _ => {}
        }
        translated
    }

    /// Translate the outcome of a failed transaction: our own abort reason, or a storage error.
    pub(crate) fn transaction_error(&self, error: TransactionError<StoreError>) -> StoreError {
        match error {
            TransactionError::Abort(reason) => reason,
            TransactionError::Storage(storage) => self.error(storage),
        }
    }
}

fn exists(path: &Path) -> Result<bool, StoreError> {
    path.try_exists().map_err(|e| StoreError::io(path, e))
}

/// Take the exclusive lock on `hase.lock`, or report that another process holds it.
fn acquire_lock(data_dir: &Path) -> Result<File, StoreError> {
    let path = data_dir.join(LOCK_FILE);
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| StoreError::io(&path, e))?;
    // A process this one is starting (another thread's `Command::spawn`) holds a copy of every
    // open descriptor between its fork and its exec, and with it the lock of a database this
    // process has just closed; a short wait tells that moment apart from a real second holder.
    let mut attempts_left = LOCK_ATTEMPTS;
    loop {
        attempts_left -= 1;
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(TryLockError::WouldBlock) if attempts_left > 0 => {
                std::thread::sleep(std::time::Duration::from_millis(LOCK_RETRY_MS));
            }
            Err(TryLockError::WouldBlock) => {
                return Err(StoreError::InUse { path: data_dir.to_path_buf() });
            }
            Err(TryLockError::Error(e)) => return Err(StoreError::io(&path, e)),
        }
    }
}

/// Tries at `hase.lock` before reporting the database in use (see [`acquire_lock`]).
const LOCK_ATTEMPTS: u32 = 25;
/// Wait between those tries.
const LOCK_RETRY_MS: u64 = 20;

/// Open sled, turning its errors and any panic while it reads damaged files into values.
/// Tries at sled's own file lock before reporting it held (see [`open_sled`]).
const SLED_LOCK_ATTEMPTS: u32 = 50;
/// Wait between those tries.
const SLED_LOCK_RETRY_MS: u64 = 20;

fn open_sled(data_dir: &Path, sled_path: &Path) -> Result<sled::Db, StoreError> {
    let config = sled::Config::new().path(sled_path).cache_capacity(CACHE_CAPACITY_BYTES);
    // sled's background flusher can hold its file lock for a moment after this process dropped
    // the previous handle; we hold `hase.lock`, so a short wait tells that apart from a real holder.
    let mut attempts_left = SLED_LOCK_ATTEMPTS;
    let opened = loop {
        let opened = catch_unwind(AssertUnwindSafe(|| config.open()));
        attempts_left -= 1;
        match &opened {
            Ok(Err(sled::Error::Io(e)))
                if attempts_left > 0 && e.to_string().contains("could not acquire lock") =>
            {
                std::thread::sleep(std::time::Duration::from_millis(SLED_LOCK_RETRY_MS));
            }
            _ => break opened,
        }
    };
    match opened {
        Ok(Ok(db)) => Ok(db),
        Ok(Err(error)) => Err(open_error(data_dir, error)),
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown failure".to_string());
            Err(StoreError::Corrupt {
                path: data_dir.to_path_buf(),
                detail: format!("the database engine failed while reading it: {message}"),
            })
        }
    }
}

/// Translate an error sled reported while opening: anything but I/O means the files are damaged.
fn open_error(data_dir: &Path, error: sled::Error) -> StoreError {
    let path = data_dir.to_path_buf();
    match error {
        // sled's own lock on its `db` file. We hold `hase.lock` already, so no other hase has
        // it open: either this process leaked it after a failed write (see `handle.rs`) or
        // another program holds it.
        sled::Error::Io(source) if source.to_string().contains("could not acquire lock") => {
            StoreError::Database { path, reason: DatabaseReason::Locked }
        }
        sled::Error::Io(source) => StoreError::io(&path, source),
        sled::Error::Corruption { at, .. } => {
            StoreError::Corrupt { path, detail: format!("damaged data at {at:?}") }
        }
        sled::Error::Unsupported(message) | sled::Error::ReportableBug(message) => {
            StoreError::Corrupt { path, detail: message }
        }
        other @ sled::Error::CollectionNotFound(_) => StoreError::Corrupt { path, detail: other.to_string() },
    }
}

/// Create a new database: marker first, then sled with its format record, flushed, then the
/// marker removed. A crash at any point leaves either the marker (redo) or a complete database.
fn create_fresh(data_dir: &Path, sled_path: &Path, marker: &Path) -> Result<sled::Db, StoreError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |e| StoreError::io(&path, e)
    };
    File::create(marker).and_then(|f| f.sync_all()).map_err(io(marker))?;
    sync_dir(data_dir);
    if exists(sled_path)? {
        std::fs::remove_dir_all(sled_path).map_err(io(sled_path))?;
    }
    let db = open_sled(data_dir, sled_path)?;
    let format_error = |e| open_error(data_dir, e);
    let meta = db.open_tree(tree_names::META).map_err(format_error)?;
    meta.insert(FORMAT_KEY, &STORE_FORMAT.to_be_bytes()).map_err(format_error)?;
    db.flush().map_err(format_error)?;
    std::fs::remove_file(marker).map_err(io(marker))?;
    sync_dir(data_dir);
    Ok(db)
}

/// Persist a directory's entries (creations, removals). Best effort: not every platform can.
fn sync_dir(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}

/// The format record must be there (we write it before anything else) and not be newer than us.
fn check_format(data_dir: &Path, db: &sled::Db) -> Result<(), StoreError> {
    let corrupt =
        |detail: &str| StoreError::Corrupt { path: data_dir.to_path_buf(), detail: detail.to_string() };
    let has_meta = db.tree_names().iter().any(|name| name.as_ref() == tree_names::META.as_bytes());
    if !has_meta {
        return Err(corrupt(
            "its store format record is missing: the files were damaged or are not a hase database",
        ));
    }
    let meta = db.open_tree(tree_names::META).map_err(|e| open_error(data_dir, e))?;
    let record = meta.get(FORMAT_KEY).map_err(|e| open_error(data_dir, e))?;
    let Some(bytes) = record else {
        return Err(corrupt(
            "its store format record is missing: the files were damaged or are not a hase database",
        ));
    };
    let found = <[u8; 4]>::try_from(bytes.as_ref())
        .map(u32::from_be_bytes)
        .map_err(|_| corrupt("its store format record is malformed"))?;
    match found {
        0 => Err(corrupt("its store format record is 0")),
        found if found > STORE_FORMAT => {
            Err(StoreError::TooNew { path: data_dir.to_path_buf(), found, supported: STORE_FORMAT })
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn database_is_send_and_sync() {
        assert_send_sync::<Database>();
    }

    #[test]
    fn second_open_of_the_same_directory_is_in_use() {
        let dir = tempfile::tempdir().unwrap();
        let first = Database::open(dir.path()).unwrap();
        let err = Database::open(dir.path()).unwrap_err();
        assert!(matches!(&err, StoreError::InUse { path } if path == dir.path()), "{err}");
        assert!(err.to_string().contains("in use by another hase instance"), "{err}");
        // A clone shares the lock; dropping every handle releases it.
        let clone = first.clone();
        drop(first);
        assert!(matches!(Database::open(dir.path()), Err(StoreError::InUse { .. })));
        drop(clone);
        Database::open(dir.path()).unwrap();
    }

    #[test]
    fn after_a_write_failure_changes_are_refused_without_touching_sled() {
        let dir = tempfile::tempdir().unwrap();
        let db = Database::open(dir.path()).unwrap();
        db.flush().unwrap();
        let first = db.error(sled::Error::Io(std::io::Error::from_raw_os_error(28)));
        assert!(matches!(first, StoreError::DiskFull { .. }), "{first}");
        let err = db.flush().unwrap_err();
        assert!(
            matches!(&err, StoreError::Stopped { cause, .. } if cause.contains("No space left")),
            "{err}"
        );
        // A later, different failure does not replace the first cause.
        db.error(sled::Error::Io(std::io::Error::other("second")));
        assert!(db.check_writable().unwrap_err().to_string().contains("No space left"));
        // Engine errors that are not I/O or damage do not stop the database.
        let other = tempfile::tempdir().unwrap();
        let healthy = Database::open(other.path()).unwrap();
        healthy.error(sled::Error::Unsupported("x".into()));
        healthy.check_writable().unwrap();
    }

    #[test]
    fn sleds_own_lock_held_behind_our_lock_says_restart() {
        let source = std::io::Error::other("could not acquire lock on \"/x/store.sled/db\": WouldBlock");
        let err = open_error(Path::new("/x"), sled::Error::Io(source));
        assert!(matches!(err, StoreError::Database { .. }), "{err}");
        assert!(err.to_string().ends_with("restart hase"), "{err}");
    }

    #[test]
    fn interrupted_creation_is_redone() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(SLED_DIR)).unwrap();
        std::fs::write(dir.path().join(SLED_DIR).join("db"), b"half-written").unwrap();
        std::fs::write(dir.path().join(CREATING_MARKER), b"").unwrap();
        let db = Database::open(dir.path()).unwrap();
        assert!(!dir.path().join(CREATING_MARKER).exists());
        drop(db);
        Database::open(dir.path()).unwrap();
    }

    #[test]
    fn a_newer_store_format_is_refused_with_advice() {
        let dir = tempfile::tempdir().unwrap();
        {
            let db = Database::open(dir.path()).unwrap();
            db.tree(tree_names::META).unwrap().insert(FORMAT_KEY, &7_u32.to_be_bytes()).unwrap();
            db.flush().unwrap();
        }
        let err = Database::open(dir.path()).unwrap_err();
        assert!(matches!(err, StoreError::TooNew { found: 7, supported: STORE_FORMAT, .. }), "{err}");
        assert!(err.to_string().contains("update hase"));
    }

    #[test]
    fn a_file_in_place_of_the_data_directory_is_an_io_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("not-a-dir");
        std::fs::write(&blocker, b"x").unwrap();
        let err = Database::open(&blocker).unwrap_err();
        assert!(matches!(&err, StoreError::Io { path, .. } if path == &blocker), "{err}");
        assert!(err.to_string().contains("not-a-dir"), "{err}");
    }
}
