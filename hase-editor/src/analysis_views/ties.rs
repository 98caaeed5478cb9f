//! Simulate ▸ Check simultaneous events: runs the design in the scheduled order of simultaneous
//! events and in shuffled orders (`hase_library::tie_check`) on a worker thread, with the next
//! run's seed and run-until time, and keeps the makespans — or the error — for the window that
//! shows them.

use std::path::{Path, PathBuf};

use hase_engine::model::Project;
use hase_library::runner::{RunError, RunOptions, base_dir_of};
use hase_library::tie_check::{TieCheck, TieCheckOptions, check_ties};

use super::worker::{Unfinished, Worker};
use crate::run::{NextRunSettings, UntilError};

/// Shuffled orders the window runs besides the scheduled one.
pub const SHUFFLED_RUNS: u32 = 8;

/// What the check came to.
pub type TiesResult = Result<TieCheck, TiesError>;

/// Why the check gave no makespans.
#[derive(Debug, thiserror::Error)]
pub enum TiesError {
    /// The run-until time typed is not a time.
    #[error(transparent)]
    Until(#[from] UntilError),
    /// The runs could not be made.
    #[error(transparent)]
    Run(#[from] RunError),
    /// No worker thread could be started.
    #[error("cannot start the check: {0}")]
    Thread(#[source] std::io::Error),
    /// The worker thread ended without a result.
    #[error("the check stopped without a result")]
    NoResult,
    /// The user stopped it.
    #[error("stopped before every order had run")]
    Stopped,
}

impl Unfinished for TiesError {
    fn stopped() -> Self {
        TiesError::Stopped
    }
    fn lost() -> Self {
        TiesError::NoResult
    }
}

/// The check in progress or done, and its window.
#[derive(Debug, Default)]
pub struct TiesCheck {
    /// The window is shown.
    pub open: bool,
    /// The result, once there is one.
    pub result: Option<TiesResult>,
    worker: Worker<TiesResult>,
}

impl TiesCheck {
    /// Start checking `project` (loaded from `file`, if any) with `settings`' seed and run-until
    /// time, and open the window.
    pub fn start(&mut self, project: &Project, file: Option<&Path>, settings: &NextRunSettings) {
        self.open = true;
        let until = match settings.until() {
            Ok(until) => until,
            Err(e) => {
                self.worker = Worker::default();
                self.result = Some(Err(e.into()));
                return;
            }
        };
        let options = TieCheckOptions {
            runs: SHUFFLED_RUNS,
            run: RunOptions {
                seed: Some(settings.seed),
                until,
                base_dir: file.map_or_else(|| PathBuf::from("."), base_dir_of),
                ..RunOptions::default()
            },
        };
        let project = project.clone();
        let started = self.worker.start("hase-ties", move |stop| {
            let options =
                TieCheckOptions { run: RunOptions { cancel: Some(stop), ..options.run }, ..options };
            check_ties(&project, &options).map_err(TiesError::from)
        });
        self.result = started.err().map(|e| Err(TiesError::Thread(e)));
    }

    /// True while the runs go on.
    pub fn is_running(&self) -> bool {
        self.worker.is_running()
    }

    /// Stop the runs; the window then says so instead of showing makespans of cut-short runs.
    pub fn stop(&self) {
        self.worker.stop();
    }

    /// Take the result when it has come; true when something changed.
    pub fn poll(&mut self) -> bool {
        self.worker.poll_into(&mut self.result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(check: &mut TiesCheck) -> TiesResult {
        let started = std::time::Instant::now();
        while !check.poll() {
            assert!(started.elapsed().as_secs() < 120, "the check did not end");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        check.result.take().unwrap()
    }

    #[test]
    fn the_binary_tree_is_checked_on_a_worker_thread_with_the_next_runs_settings() {
        let project = hase_library::examples::binary_tree_allreduce().unwrap().project;
        let mut settings = NextRunSettings::from_project(&project);
        let mut check = TiesCheck::default();
        check.start(&project, None, &settings);
        assert!(check.open && check.is_running());
        let got = finished(&mut check).unwrap();
        assert_eq!(got.shuffled.len(), SHUFFLED_RUNS as usize);
        assert!(got.depends_on_ties(), "{got}");

        // The run-until time applies to every run.
        settings.until_text = "100us".into();
        check.start(&project, None, &settings);
        let stopped = finished(&mut check).unwrap();
        assert!(stopped.makespan_range_ps().1 <= 100_000_000, "{stopped}");

        // Stopped at once: the window says so rather than showing cut-short makespans.
        settings.until_text.clear();
        check.start(&project, None, &settings);
        check.stop();
        let error = finished(&mut check).unwrap_err().to_string();
        assert_eq!(error, "stopped before every order had run");

        // A run-until text that is not a time is an error in the window, not a panic.
        settings.until_text = "soon".into();
        check.start(&project, None, &settings);
        assert!(!check.is_running());
        let error = check.result.take().unwrap().unwrap_err().to_string();
        assert!(error.contains("run until `soon`"), "{error}");
    }
}
