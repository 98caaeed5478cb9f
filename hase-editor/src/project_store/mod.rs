//! The project library as the editor sees it: where the sled store lives, whether it opened, the
//! autosave schedule, and which stored version the document came from. Every store call runs on a
//! worker thread ([`store_calls`]); this module only holds state and decides when to autosave.

pub mod output;
pub mod store_calls;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use hase_library::store::{ProjectStore, Recovery};

pub use output::LibraryOutput;

/// How often unsaved changes are written to the recovery slot.
pub const AUTOSAVE_INTERVAL: Duration = Duration::from_secs(30);

/// Where the project library lives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LibraryLocation {
    /// No library: projects are RON files only (tests, benchmarks).
    #[default]
    Off,
    /// `HASE_DATA_DIR`, else the platform's data directory.
    Default,
    /// This directory (`--data-dir`).
    Dir(PathBuf),
}

/// Whether the library can be used.
#[derive(Clone, Debug, Default)]
pub enum LibraryStatus {
    /// Not in use (see [`LibraryLocation::Off`]).
    #[default]
    Off,
    /// Being opened on a worker thread.
    Opening,
    /// Open.
    Open(ProjectStore),
    /// It could not be opened: the message says why (in use, corrupt, I/O) and what to do.
    Unavailable(String),
}

/// The library state the app keeps.
#[derive(Debug, Default)]
pub struct Library {
    /// Where it lives.
    pub location: LibraryLocation,
    /// Open or not.
    pub status: LibraryStatus,
    /// Autosaves found when it opened, waiting for the user to restore or discard them.
    pub recovery: Vec<Recovery>,
    /// The message of a failed open, until the user has answered the dialog.
    pub failure_dialog: Option<String>,
    /// Stored version the document was loaded from or last saved as (name, version).
    pub version: Option<(String, u64)>,
    /// (Editor generation, history revision) last written to the recovery slot.
    autosaved: Option<(u64, u64)>,
    /// When the last autosave started (or the editor started).
    last_autosave: Option<Instant>,
    /// An autosave is being written.
    pub autosave_running: bool,
    /// Time between autosaves ([`AUTOSAVE_INTERVAL`]; tests shorten it).
    pub interval: Duration,
    /// The store has been asked to open.
    pub open_requested: bool,
    /// Drop this project's recovery record once the running autosave has finished.
    pub discard_after_autosave: Option<String>,
    /// Close the window once the recovery record being dropped is gone.
    pub close_after_discard: bool,
}

impl Library {
    /// A library at `location`, not opened yet.
    pub fn new(location: LibraryLocation) -> Self {
        let status =
            if location == LibraryLocation::Off { LibraryStatus::Off } else { LibraryStatus::Opening };
        Library { location, status, interval: AUTOSAVE_INTERVAL, ..Library::default() }
    }

    /// The open store, if any.
    pub fn store(&self) -> Option<&ProjectStore> {
        match &self.status {
            LibraryStatus::Open(store) => Some(store),
            _ => None,
        }
    }

    /// A sentence for menus and tooltips when the library cannot be used.
    pub fn why_unavailable(&self) -> Option<String> {
        match &self.status {
            LibraryStatus::Open(_) => None,
            LibraryStatus::Off => Some("The project library is not in use in this session.".into()),
            LibraryStatus::Opening => Some("The project library is still opening.".into()),
            LibraryStatus::Unavailable(message) => {
                Some(format!("The project library is unavailable: {message}"))
            }
        }
    }

    /// Should an autosave start now? Only with an open store, unsaved changes that differ from
    /// the last autosave, no autosave running, and [`Library::interval`] since the last one.
    /// Returns the time left otherwise (`None`: nothing to wait for).
    pub fn autosave_due(
        &mut self,
        now: Instant,
        dirty: bool,
        state: (u64, u64),
    ) -> Result<(), Option<Duration>> {
        if self.store().is_none() || !dirty || self.autosave_running || self.autosaved == Some(state) {
            return Err(None);
        }
        let last = *self.last_autosave.get_or_insert(now);
        let waited = now.saturating_duration_since(last);
        if waited < self.interval {
            return Err(Some(self.interval.saturating_sub(waited)));
        }
        Ok(())
    }

    /// An autosave of `state` started at `now`.
    pub fn autosave_started(&mut self, now: Instant, state: (u64, u64)) {
        self.autosave_running = true;
        self.last_autosave = Some(now);
        self.autosaved = Some(state);
    }

    /// The document was saved or replaced: the next change starts a fresh autosave period.
    pub fn document_settled(&mut self, now: Instant) {
        self.autosaved = None;
        self.last_autosave = Some(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open_library() -> (tempfile::TempDir, Library) {
        let dir = tempfile::tempdir().unwrap();
        let store = ProjectStore::open(dir.path()).unwrap();
        let mut library = Library::new(LibraryLocation::Dir(dir.path().to_path_buf()));
        library.status = LibraryStatus::Open(store);
        (dir, library)
    }

    #[test]
    fn autosave_waits_for_the_interval_and_for_new_changes() {
        let (_dir, mut library) = open_library();
        let t0 = Instant::now();
        // Nothing unsaved: nothing to do.
        assert_eq!(library.autosave_due(t0, false, (0, 1)), Err(None));
        // The first change starts the period.
        assert_eq!(library.autosave_due(t0, true, (0, 1)), Err(Some(AUTOSAVE_INTERVAL)));
        let later = t0 + Duration::from_secs(10);
        assert_eq!(library.autosave_due(later, true, (0, 2)), Err(Some(Duration::from_secs(20))));
        let due = t0 + AUTOSAVE_INTERVAL;
        assert_eq!(library.autosave_due(due, true, (0, 2)), Ok(()));
        library.autosave_started(due, (0, 2));
        // While it runs, and afterwards for the same revision, nothing more.
        assert_eq!(library.autosave_due(due + AUTOSAVE_INTERVAL, true, (0, 2)), Err(None));
        library.autosave_running = false;
        assert_eq!(library.autosave_due(due + AUTOSAVE_INTERVAL, true, (0, 2)), Err(None));
        // A new revision waits a full period after the last autosave.
        assert_eq!(
            library.autosave_due(due + Duration::from_secs(5), true, (0, 3)),
            Err(Some(Duration::from_secs(25)))
        );
        assert_eq!(library.autosave_due(due + AUTOSAVE_INTERVAL, true, (0, 3)), Ok(()));
    }

    #[test]
    fn no_store_no_autosave() {
        let mut library = Library::new(LibraryLocation::Off);
        let t0 = Instant::now();
        assert_eq!(library.autosave_due(t0 + AUTOSAVE_INTERVAL * 3, true, (0, 1)), Err(None));
        assert!(library.why_unavailable().is_some());
        library.status = LibraryStatus::Unavailable("hase database at /x is in use".into());
        assert!(library.why_unavailable().unwrap().contains("is in use"));
    }
}
