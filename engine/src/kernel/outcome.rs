//! What goes into and comes out of a run: the configuration, progress reports, run controls
//! (stop time, cancellation flag, progress callback), the outcome, build errors and the final
//! report.

use std::sync::atomic::AtomicBool;

use super::deadlock::DeadlockReport;
use crate::stats::RunStats;
use crate::time::SimTime;
use crate::trace::{TraceLevel, TraceSink};

/// Settings of one run.
pub struct SimConfig {
    /// Seed of every per-entity random stream.
    pub seed: u64,
    /// Trace level.
    pub level: TraceLevel,
    /// Where records go (none: no trace at all, fastest).
    pub sink: Option<Box<dyn TraceSink>>,
    /// Keep level-3 records (live values: parameter and array updates, array reads) when the level
    /// includes them. Off, a level-1 or level-2 run keeps its comments, messages and states but
    /// skips the live values, which can outnumber everything else.
    pub live_values: bool,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig { seed: 1, level: TraceLevel::default(), sink: None, live_values: true }
    }
}

/// Progress figures, reported every so many events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Events handled so far.
    pub events: u64,
    /// Current simulated time.
    pub now: SimTime,
    /// Events pending.
    pub pending: usize,
}

/// Controls of a `run`: stop time, cancellation flag (set from any thread) and progress callback.
pub struct RunControl<'a> {
    /// Stop after the last event at or before this time.
    pub until: Option<SimTime>,
    /// Checked every `check_every` events; when true the run ends as cancelled.
    pub cancel: Option<&'a AtomicBool>,
    /// Called every `check_every` events.
    pub progress: Option<&'a mut dyn FnMut(Progress)>,
    /// How often to check the flag and report progress (events).
    pub check_every: u64,
}

impl Default for RunControl<'_> {
    fn default() -> Self {
        RunControl { until: None, cancel: None, progress: None, check_every: 65_536 }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RunOutcome {
    /// No events left and every entity finished.
    Completed,
    /// No events left but some entities could not finish.
    Deadlock(DeadlockReport),
    /// The run-until time was reached with events still pending.
    ReachedUntil,
    /// Cancelled through the flag, or a behaviour asked to stop.
    Cancelled,
}

impl RunOutcome {
    /// One word.
    pub fn word(&self) -> &'static str {
        match self {
            RunOutcome::Completed => "completed",
            RunOutcome::Deadlock(_) => "deadlock",
            RunOutcome::ReachedUntil => "reached-until",
            RunOutcome::Cancelled => "cancelled",
        }
    }
}

/// Why a simulation could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// Behaviours and entities disagree in number.
    #[error("{behaviours} behaviours for {entities} entities")]
    Count {
        /// Behaviours given.
        behaviours: usize,
        /// Entities in the model.
        entities: usize,
    },
    /// The trace could not be started.
    #[error("cannot write trace header: {0}")]
    Trace(#[source] std::io::Error),
}

/// The result of a finished run.
#[derive(Debug)]
pub struct RunReport {
    /// How it ended.
    pub outcome: RunOutcome,
    /// Statistics.
    pub stats: RunStats,
    /// The first trace write failure, if any (the run itself continued).
    pub trace_error: Option<std::io::Error>,
}
