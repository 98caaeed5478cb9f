//! A sweep running in the background for the experiments view: started from a plan (stored in the
//! experiment store when there is one, each run committed as it finishes) or resumed from a
//! stored experiment (only its missing runs), with the progress of every run in flight and the
//! overall count. The view polls it each frame; cancel stops it (runs in flight are not kept, so a
//! resume runs exactly what is missing).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::TryRecvError;
use std::time::Instant;

use hase_engine::kernel::Progress;
use hase_library::experiment::stored::stored_trace_dir;
use hase_library::experiment::{
    ExperimentPlan, Quiet, RunKey, RunRecord, StoringObserver, SweepError, SweepEvent, SweepObserver,
    SweepOptions, SweepReport, SweepTask, plan_stored, spawn_sweep,
};
use hase_library::store::ExperimentStore;

/// A sweep in the background.
pub struct RunningSweep {
    /// The task (events, cancel flag, thread).
    pub task: SweepTask,
    /// The plan it runs.
    pub plan: Arc<ExperimentPlan>,
    /// The stored experiment it fills (`None`: kept in memory).
    pub id: Option<u64>,
    /// Runs in the experiment.
    pub total_runs: u64,
    /// Runs done before this sweep started (a resume).
    pub done_before: u64,
    /// Runs finished by this sweep.
    pub finished: u64,
    /// Of those, runs that did not go to their end.
    pub failed: u64,
    /// Runs in flight with their latest progress.
    pub in_flight: BTreeMap<RunKey, Progress>,
    /// When it started.
    pub started: Instant,
    /// Set once cancel was asked.
    pub cancelling: bool,
}

impl std::fmt::Debug for RunningSweep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunningSweep")
            .field("id", &self.id)
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

/// What polling a sweep found.
#[derive(Debug)]
pub enum SweepUpdate {
    /// A run finished (and, for a stored sweep, was committed).
    Finished(Box<RunRecord>),
    /// The sweep ended (`Err`: it could not start or the store failed).
    Done(Result<SweepReport, RunningSweepError>),
}

/// Why a sweep did not start or did not end well.
#[derive(Debug, thiserror::Error)]
pub enum RunningSweepError {
    /// The experiment store refused (creating the experiment, reading its stored runs).
    #[error(transparent)]
    Store(#[from] hase_library::store::StoreError),
    /// The stored experiment's plan could not be rebuilt.
    #[error(transparent)]
    Plan(Box<hase_library::experiment::ExperimentError>),
    /// No worker thread could be started.
    #[error("{0}")]
    Thread(#[source] std::io::Error),
    /// The sweep itself failed.
    #[error(transparent)]
    Sweep(SweepError),
    /// The sweep's thread ended without saying how the sweep went.
    #[error("the sweep thread ended without a report")]
    NoReport,
}

impl From<hase_library::experiment::ExperimentError> for RunningSweepError {
    fn from(error: hase_library::experiment::ExperimentError) -> Self {
        RunningSweepError::Plan(Box::new(error))
    }
}

/// Directory for the traces of sweeps not kept in the store.
fn scratch_trace_dir() -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("hase-experiment-{}-{n}", std::process::id()))
}

impl RunningSweep {
    /// Start `plan`: stored as a new experiment when `store` is given (its id is `self.id`),
    /// else kept in memory. `source` says where the project came from (kept in the store).
    pub fn start(
        plan: ExperimentPlan,
        store: Option<&ExperimentStore>,
        source: &str,
        jobs: usize,
    ) -> Result<Self, RunningSweepError> {
        let plan = Arc::new(plan);
        match store {
            Some(store) => {
                let id = store.create(&plan, source)?;
                Self::spawn(plan, Some((store, id)), jobs)
            }
            None => Self::spawn(plan, None, jobs),
        }
    }

    /// Run the missing runs of stored experiment `id`.
    pub fn resume(store: &ExperimentStore, id: u64, jobs: usize) -> Result<Self, RunningSweepError> {
        let plan = plan_stored(store, id)?;
        Self::spawn(Arc::new(plan), Some((store, id)), jobs)
    }

    fn spawn(
        plan: Arc<ExperimentPlan>,
        stored: Option<(&ExperimentStore, u64)>,
        jobs: usize,
    ) -> Result<Self, RunningSweepError> {
        let mut options = SweepOptions { jobs: jobs.max(1), ..SweepOptions::default() };
        let observer: Box<dyn SweepObserver + Send> = if let Some((store, id)) = stored {
            options.skip = store.stored_keys(id)?;
            options.trace_dir = stored_trace_dir(store, &plan, id);
            Box::new(StoringObserver { store: store.clone(), id, inner: Quiet })
        } else {
            options.trace_dir = plan.spec().traces.map(|_| scratch_trace_dir());
            Box::new(Quiet)
        };
        let done_before = options.skip.len() as u64;
        let task = spawn_sweep(Arc::clone(&plan), options, observer).map_err(RunningSweepError::Thread)?;
        Ok(RunningSweep {
            task,
            total_runs: plan.run_count(),
            plan,
            id: stored.map(|(_, id)| id),
            done_before,
            finished: 0,
            failed: 0,
            in_flight: BTreeMap::new(),
            started: Instant::now(),
            cancelling: false,
        })
    }

    /// Stop the sweep (runs in flight are dropped).
    pub fn cancel(&mut self) {
        self.cancelling = true;
        self.task.cancel.store(true, Ordering::SeqCst);
    }

    /// Take in what happened since the last poll.
    pub fn poll(&mut self) -> Vec<SweepUpdate> {
        let mut out = Vec::new();
        loop {
            match self.task.events.try_recv() {
                Ok(SweepEvent::Started(key)) => {
                    self.in_flight.insert(
                        key,
                        Progress { events: 0, now: hase_engine::time::SimTime::ZERO, pending: 0 },
                    );
                }
                Ok(SweepEvent::Progress(key, progress)) => {
                    self.in_flight.insert(key, progress);
                }
                Ok(SweepEvent::Finished(record)) => {
                    self.in_flight.remove(&record.key);
                    self.finished += 1;
                    if !record.status.is_success() {
                        self.failed += 1;
                    }
                    out.push(SweepUpdate::Finished(record));
                }
                Ok(SweepEvent::Done(report)) => {
                    self.in_flight.clear();
                    out.push(SweepUpdate::Done(report.map_err(RunningSweepError::Sweep)));
                    break;
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    out.push(SweepUpdate::Done(Err(RunningSweepError::NoReport)));
                    break;
                }
            }
        }
        out
    }

    /// Runs stored or finished, of all.
    pub fn done_runs(&self) -> u64 {
        self.done_before + self.finished
    }

    /// Fraction of the experiment done (0–1).
    pub fn fraction(&self) -> f32 {
        if self.total_runs == 0 { 1.0 } else { self.done_runs() as f32 / self.total_runs as f32 }
    }

    /// Progress of one run in flight, when the simulated end is known (`until`), else `None`.
    pub fn run_fraction(&self, progress: &Progress) -> Option<f32> {
        let until = self.plan.spec().until.or(self.plan.project().settings.until)?;
        (until.0 > 0).then(|| (progress.now.0 as f64 / until.0 as f64).clamp(0.0, 1.0) as f32)
    }
}
