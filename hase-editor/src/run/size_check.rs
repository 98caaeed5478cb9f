//! The size check before a run of the design: the run's estimate is worked out on the
//! `hase-estimate` thread; a small run starts at once, a big one (see
//! [`hase_library::estimate::Estimate::big`]) waits for an answer: run anyway, the first iteration
//! only (a temporary override, the document unchanged), or trace level 4 (states only). After each
//! run of the design, its measured rates join the history the next estimate uses.

use std::path::PathBuf;
use std::sync::mpsc::Receiver;

use hase_library::estimate::{
    BigRun, Estimate, EstimateError, RateHistory, RunRates, estimate_project, first_iteration_only,
};

use super::FinishedRun;
use super::task::RunRequest;
use crate::project_store::LibraryLocation;

/// Trace level offered for a big run: state intervals only, no messages.
pub const STATES_ONLY_LEVEL: u8 = 4;

/// The measured rates and where they are kept.
#[derive(Clone, Debug, Default)]
pub struct RateBook {
    /// The last runs' rates.
    pub history: RateHistory,
    /// The file they are kept in (`None`: in memory only, as without a library).
    pub file: Option<PathBuf>,
}

impl RateBook {
    /// The rates kept beside the project library at `location`.
    pub fn at(location: &LibraryLocation) -> Self {
        let file = match location {
            LibraryLocation::Off => None,
            LibraryLocation::Default => RateHistory::default_file().ok(),
            LibraryLocation::Dir(dir) => Some(RateHistory::file_in(dir)),
        };
        let history = file.as_deref().map(RateHistory::load).unwrap_or_default();
        RateBook { history, file }
    }

    /// Add what `run` measured against `expected` (the estimate it started with), and keep the
    /// history. A failure to write only loses the cache.
    pub fn record(&mut self, run: &FinishedRun, expected: &Expected, resident_after_bytes: u64) {
        if run.id != expected.run_id || !run.outcome.word().starts_with("completed") {
            return;
        }
        self.history.record(RunRates {
            units: expected.units,
            entities: expected.entities,
            events: run.stats.events,
            wall_s: run.stats.wall_time_s,
            memory_bytes: resident_after_bytes.saturating_sub(expected.resident_before_bytes),
            level: run.settings.level,
        });
        if let Some(file) = &self.file {
            let _ = self.history.save(file);
        }
    }
}

/// The size check's state in the app: the rates, an estimate in flight, a big run's question, and
/// what the run of the design in progress was estimated at.
#[derive(Debug, Default)]
pub struct RunSize {
    /// The measured rates.
    pub book: RateBook,
    /// The estimate being worked out, when there is one.
    pub estimating: Option<Receiver<Estimated>>,
    /// A big run waiting for an answer.
    pub question: Option<Box<BigRunQuestion>>,
    /// The estimate the design's run in progress started with.
    pub expected: Option<Expected>,
}

/// What a run of the design was estimated at when it started.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    /// The run.
    pub run_id: u64,
    /// Its design's work units.
    pub units: f64,
    /// Its design's entities.
    pub entities: u64,
    /// The process's resident memory when it started.
    pub resident_before_bytes: u64,
}

/// The estimate of a run asked for, from the `hase-estimate` thread.
#[derive(Debug)]
pub struct Estimated {
    /// The run it is for.
    pub request: RunRequest,
    /// The estimate, or why there is none (the run then starts and reports its own problems).
    pub result: Result<Estimate, EstimateError>,
    /// The estimate of its first iteration only, for a big run whose workload has iterations.
    pub first_iteration: Option<Estimate>,
    /// The machine's available memory.
    pub available_bytes: Option<u64>,
}

/// Work out the estimate of `request` on the `hase-estimate` thread; it arrives on the returned
/// channel. When the thread cannot start, the request comes back to be run at once.
pub fn spawn_estimate(
    request: RunRequest,
    history: RateHistory,
) -> Result<Receiver<Estimated>, Box<RunRequest>> {
    let (sender, receiver) = std::sync::mpsc::channel();
    let kept = request.clone();
    let started = std::thread::Builder::new().name("hase-estimate".into()).spawn(move || {
        let base =
            request.file.as_deref().map_or_else(|| PathBuf::from("."), hase_library::runner::base_dir_of);
        let (seed, level) = (request.settings.seed, request.settings.level);
        let available_bytes = hase_library::process_memory::available_memory_bytes();
        let result = estimate_project(&request.project, &base, seed, level, &history);
        let first_iteration = match &result {
            Ok(e) if e.big(available_bytes).is_some() => first_iteration_only(&request.project)
                .and_then(|once| estimate_project(&once, &base, seed, level, &history).ok()),
            _ => None,
        };
        // The receiver is gone only when the app no longer waits for it.
        let _ = sender.send(Estimated { request, result, first_iteration, available_bytes });
    });
    match started {
        Ok(_) => Ok(receiver),
        Err(_) => Err(Box::new(kept)),
    }
}

/// A big run waiting for an answer.
#[derive(Debug)]
pub struct BigRunQuestion {
    /// The run as asked for.
    pub request: RunRequest,
    /// Its estimate.
    pub estimate: Estimate,
    /// Why it is big.
    pub big: BigRun,
    /// The estimate of its first iteration only (`None`: the workload has no iterations).
    pub first_iteration: Option<Estimate>,
}

/// What an estimate leads to.
#[derive(Debug)]
pub enum Verdict {
    /// A small run (or one that could not be estimated): start it.
    Start(Box<RunRequest>),
    /// A big run: ask first.
    Ask(Box<BigRunQuestion>),
}

/// The answers to a big run's question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BigRunAnswer {
    /// Run it as asked.
    RunAnyway,
    /// Run one iteration of the workload (the document keeps its count).
    FirstIterationOnly,
    /// Run it at trace level [`STATES_ONLY_LEVEL`].
    StatesOnly,
    /// Do not run.
    Cancel,
}

impl BigRunQuestion {
    /// What to do with `estimated`: ask when the run is big, else start it at once (also when
    /// it could not be estimated: the run then reports its own problems).
    pub fn ask(estimated: Estimated) -> Verdict {
        let Estimated { request, result, first_iteration, available_bytes } = estimated;
        match result {
            Ok(estimate) => match estimate.big(available_bytes) {
                Some(big) => {
                    Verdict::Ask(Box::new(BigRunQuestion { request, estimate, big, first_iteration }))
                }
                None => Verdict::Start(Box::new(request)),
            },
            Err(_) => Verdict::Start(Box::new(request)),
        }
    }

    /// The run to start for `answer` (`None`: cancelled).
    pub fn answer(self: Box<Self>, answer: BigRunAnswer) -> Option<RunRequest> {
        let mut request = self.request;
        match answer {
            BigRunAnswer::RunAnyway => {}
            BigRunAnswer::FirstIterationOnly => request.project = first_iteration_only(&request.project)?,
            BigRunAnswer::StatesOnly => request.settings.level = STATES_ONLY_LEVEL,
            BigRunAnswer::Cancel => return None,
        }
        Some(request)
    }

    /// The design's iteration count, when its workload has one.
    pub fn iterations(&self) -> Option<i64> {
        self.estimate.work.iterations
    }
}

/// What run `run_id` starts with, from its estimate and the resident memory before it.
pub fn expected_of(run_id: u64, estimate: &Estimate, resident_before_bytes: u64) -> Expected {
    Expected { run_id, units: estimate.work.units(), entities: estimate.work.entities, resident_before_bytes }
}
