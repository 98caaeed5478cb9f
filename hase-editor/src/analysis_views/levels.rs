//! "Check levels" on a compound (canvas context menu, inspector button): runs the project with
//! the compound detailed and behavioural on the same workload (`hase_library::check_levels`) on a
//! worker thread, and keeps the result — per-level makespans, the difference, the verdict — or
//! the error for the window that shows it.

use std::path::Path;

use hase_engine::model::Project;
use hase_library::check_levels::{CheckLevelsError, CheckLevelsOptions, LevelCheck, check_levels};
use hase_library::overrides::switchable_compounds;
use hase_library::runner::{RunOptions, base_dir_of};

use super::worker::{Unfinished, Worker};

/// What the check of one compound came to.
pub type LevelsResult = Result<Vec<LevelCheck>, LevelsError>;

/// Why the check of a compound gave no makespans.
#[derive(Debug, thiserror::Error)]
pub enum LevelsError {
    /// The runs could not be made.
    #[error(transparent)]
    Check(#[from] CheckLevelsError),
    /// No worker thread could be started.
    #[error("cannot start the check: {0}")]
    Thread(#[source] std::io::Error),
    /// The worker thread ended without a result.
    #[error("the check stopped without a result")]
    NoResult,
    /// The user stopped it.
    #[error("stopped before both levels had run")]
    Stopped,
}

impl Unfinished for LevelsError {
    fn stopped() -> Self {
        LevelsError::Stopped
    }
    fn lost() -> Self {
        LevelsError::NoResult
    }
}

/// The check in progress or done, and its window.
#[derive(Debug, Default)]
pub struct LevelsCheck {
    /// The window is shown.
    pub open: bool,
    /// The compound checked (instance path).
    pub compound: String,
    /// The result, once there is one.
    pub result: Option<LevelsResult>,
    worker: Worker<LevelsResult>,
}

/// True when `path` is a compound of `project` with a behavioural level (the action is offered).
pub fn can_check(project: &Project, path: &str) -> bool {
    switchable_compounds(project).iter().any(|c| c == path)
}

impl LevelsCheck {
    /// Start checking `compound` of `project` (loaded from `file`, if any) and open the window.
    pub fn start(&mut self, project: &Project, file: Option<&Path>, compound: &str) {
        let project = project.clone();
        let options = CheckLevelsOptions {
            compound: Some(compound.to_string()),
            run: RunOptions {
                base_dir: file.map_or_else(|| std::path::PathBuf::from("."), base_dir_of),
                ..RunOptions::default()
            },
            ..CheckLevelsOptions::default()
        };
        self.open = true;
        self.compound = compound.to_string();
        let started = self.worker.start("hase-levels", move |stop| {
            let options =
                CheckLevelsOptions { run: RunOptions { cancel: Some(stop), ..options.run }, ..options };
            check_levels(&project, &options).map_err(LevelsError::from)
        });
        self.result = started.err().map(|e| Err(LevelsError::Thread(e)));
    }

    /// True while the runs go on.
    pub fn is_running(&self) -> bool {
        self.worker.is_running()
    }

    /// Stop the runs; the window then says so.
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

    #[test]
    fn the_toggle_example_checks_its_fabric_on_a_worker_thread() {
        let project = hase_library::examples::abstraction_toggle().unwrap().project;
        assert!(can_check(&project, "fabric"));
        assert!(!can_check(&project, "p0"));
        let mut check = LevelsCheck::default();
        check.start(&project, None, "fabric");
        assert!(check.open && check.is_running());
        let started = std::time::Instant::now();
        while !check.poll() {
            assert!(started.elapsed().as_secs() < 120, "the check did not end");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let checks = check.result.take().unwrap().unwrap();
        assert_eq!(checks.len(), 1);
        // Contention-free workload: the hop-count level gives the detailed times exactly.
        assert_eq!(checks[0].detailed_ps, checks[0].behavioural_ps);
        assert!(checks[0].valid, "{}", checks[0].verdict);
        // Stopped at once: the window says so.
        check.start(&project, None, "fabric");
        check.stop();
        while !check.poll() {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let error = check.result.take().unwrap().unwrap_err().to_string();
        assert_eq!(error, "stopped before both levels had run");
        // A compound without a behavioural level is an error shown in the window, not a panic.
        check.start(&project, None, "p0");
        while !check.poll() {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let error = check.result.unwrap().unwrap_err().to_string();
        assert!(error.contains("`p0` is not a compound with a behavioural level"), "{error}");
    }
}
