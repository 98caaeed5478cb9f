//! Running an experiment's runs in parallel on a rayon pool of `jobs` threads. Runs start in
//! order (a FIFO scope), each isolated by [`ExperimentPlan::run_one`]; an observer hears of each
//! start, progress and finish (the store commits each finished run there, the CLI draws bars, the
//! GUI forwards them through a channel). Cancel with the flag at any time: runs in flight stop and
//! are not recorded, so a resume (the same call with the finished runs in `skip`) runs exactly
//! the missing ones. Records come back sorted by (point, repetition) whatever the thread count.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use hase_engine::kernel::Progress;

use super::plan::{ExperimentPlan, RunOneOptions};
use super::record::{RecordFileError, RunKey, RunRecord};
use crate::store::error::StoreError;

/// Stack of each worker thread: deep compound hierarchies recurse during elaboration.
const WORKER_STACK_BYTES: usize = 16 * 1024 * 1024;

/// Hears what a sweep does. Called from worker threads, concurrently.
pub trait SweepObserver: Sync {
    /// A run starts.
    fn started(&self, _key: RunKey) {}
    /// A run reports progress.
    fn progress(&self, _key: RunKey, _progress: Progress) {}
    /// A run finished and produced `record`. An error stops the sweep (as a cancel would) and is
    /// reported in [`SweepReport::observer_error`]: the store does this when it cannot commit.
    fn finished(&self, _record: &RunRecord) -> Result<(), ObserverError> {
        Ok(())
    }
}

/// Why an observer could not take a finished run (which stops the sweep).
#[derive(Debug, thiserror::Error)]
pub enum ObserverError {
    /// The store could not commit the run.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The run's result file could not be written.
    #[error(transparent)]
    ResultFile(#[from] RecordFileError),
    /// A file the observer writes (a log, a report) could not be written.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// An observer that hears nothing.
pub struct Quiet;

impl SweepObserver for Quiet {}

/// How to run a sweep.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Set from any thread to stop the sweep.
    pub cancel: Arc<AtomicBool>,
    /// Runs already done (a resume): not run again.
    pub skip: BTreeSet<RunKey>,
    /// Where per-run traces go when the spec asks for them.
    pub trace_dir: Option<PathBuf>,
    /// Report progress every this many events (0: the runner's default).
    pub progress_every: u64,
}

impl Default for SweepOptions {
    fn default() -> Self {
        SweepOptions {
            jobs: std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            cancel: Arc::new(AtomicBool::new(false)),
            skip: BTreeSet::new(),
            trace_dir: None,
            progress_every: 0,
        }
    }
}

/// What a sweep did.
#[derive(Clone, Debug, Default)]
pub struct SweepReport {
    /// The records of the runs made now, sorted by (point, repetition).
    pub records: Vec<RunRecord>,
    /// Runs skipped because they were done before.
    pub skipped: u64,
    /// True when the sweep stopped before every run was made (cancel, or an observer error).
    pub stopped: bool,
    /// The observer's error that stopped the sweep, if any.
    pub observer_error: Option<Arc<ObserverError>>,
}

/// Why a sweep could not start.
#[derive(Clone, Debug, thiserror::Error)]
pub enum SweepError {
    /// The worker pool could not be made.
    #[error("cannot start {jobs} worker threads: {source}")]
    Pool {
        /// Threads asked for.
        jobs: usize,
        /// Why not.
        source: Arc<rayon::ThreadPoolBuildError>,
    },
    /// A background sweep's thread ended without sending its report.
    #[error("the sweep thread ended without a report")]
    Ended,
}

/// Run every run of `plan` not in `options.skip` (see the module documentation).
pub fn run_sweep(
    plan: &ExperimentPlan,
    options: &SweepOptions,
    observer: &dyn SweepObserver,
) -> Result<SweepReport, SweepError> {
    let jobs = options.jobs.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(WORKER_STACK_BYTES)
        .thread_name(|i| format!("hase-sweep-{i}"))
        .build()
        .map_err(|source| SweepError::Pool { jobs, source: Arc::new(source) })?;
    let todo: Vec<RunKey> = plan.runs().filter(|k| !options.skip.contains(k)).collect();
    let skipped = plan.run_count() - todo.len() as u64;
    let records = Mutex::new(Vec::with_capacity(todo.len()));
    let observer_error: Mutex<Option<Arc<ObserverError>>> = Mutex::new(None);
    let cancel = &options.cancel;
    let one = RunOneOptions {
        cancel: Some(cancel.clone()),
        trace_dir: options.trace_dir.clone(),
        progress_every: options.progress_every,
    };
    pool.scope_fifo(|scope| {
        for key in todo {
            let (records, observer_error, one) = (&records, &observer_error, &one);
            scope.spawn_fifo(move |_| {
                if cancel.load(Ordering::Relaxed) {
                    return;
                }
                observer.started(key);
                let Some(record) = plan.run_one(key, one, &mut |p| observer.progress(key, p)) else { return };
                if let Err(e) = observer.finished(&record) {
                    cancel.store(true, Ordering::Relaxed);
                    observer_error.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(Arc::new(e));
                    return;
                }
                records.lock().unwrap_or_else(PoisonError::into_inner).push(record);
            });
        }
    });
    let mut records = records.into_inner().unwrap_or_else(PoisonError::into_inner);
    records.sort_by_key(|r| r.key);
    let observer_error = observer_error.into_inner().unwrap_or_else(PoisonError::into_inner);
    let stopped = records.len() as u64 + skipped < plan.run_count();
    Ok(SweepReport { records, skipped, stopped, observer_error })
}

/// What a background sweep reports through its channel.
#[derive(Clone, Debug)]
pub enum SweepEvent {
    /// A run started.
    Started(RunKey),
    /// A run's progress.
    Progress(RunKey, Progress),
    /// A run finished (and, for a stored sweep, was committed).
    Finished(Box<RunRecord>),
    /// The sweep ended.
    Done(Result<SweepReport, SweepError>),
}

/// Forwards events to a channel (an observer that wraps another one, such as the store's).
struct ChannelObserver<'a> {
    sender: Mutex<Sender<SweepEvent>>,
    inner: &'a dyn SweepObserver,
}

impl SweepObserver for ChannelObserver<'_> {
    fn started(&self, key: RunKey) {
        self.inner.started(key);
        let _ = self.sender.lock().unwrap_or_else(PoisonError::into_inner).send(SweepEvent::Started(key));
    }
    fn progress(&self, key: RunKey, progress: Progress) {
        self.inner.progress(key, progress);
        let sender = self.sender.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = sender.send(SweepEvent::Progress(key, progress));
    }
    fn finished(&self, record: &RunRecord) -> Result<(), ObserverError> {
        self.inner.finished(record)?;
        let sender = self.sender.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = sender.send(SweepEvent::Finished(Box::new(record.clone())));
        Ok(())
    }
}

/// A sweep on a background thread: events arrive on `events` (the last is [`SweepEvent::Done`]),
/// `cancel` stops it. What a GUI worker drives.
pub struct SweepTask {
    /// Events as they happen.
    pub events: Receiver<SweepEvent>,
    /// Set to stop the sweep.
    pub cancel: Arc<AtomicBool>,
    /// The thread; joins after `Done` was sent.
    pub thread: JoinHandle<()>,
}

/// Start `plan` on a background thread with `options` (its cancel flag is the task's), telling
/// `observer` too (e.g. an [`super::stored::StoringObserver`] that commits each run).
pub fn spawn_sweep(
    plan: Arc<ExperimentPlan>,
    options: SweepOptions,
    observer: Box<dyn SweepObserver + Send>,
) -> std::io::Result<SweepTask> {
    let (sender, events) = channel();
    let cancel = options.cancel.clone();
    let thread = std::thread::Builder::new().name("hase-sweep".into()).spawn(move || {
        let forward = ChannelObserver { sender: Mutex::new(sender.clone()), inner: &*observer };
        let report = run_sweep(&plan, &options, &forward);
        let _ = sender.send(SweepEvent::Done(report));
    })?;
    Ok(SweepTask { events, cancel, thread })
}
