//! The analyses the timing diagram asked for, as jobs for worker threads: which runs' critical
//! paths, phases and comparison were asked for since the last look ([`jobs_asked`]), and working
//! one out into the command that keeps its result ([`AnalysisJob::work_out`]). The app runs each
//! job as a named task; the per-panel test harnesses run them in place.

use std::sync::Arc;

use super::timing::TimingCommand;
use crate::analysis_views::TimingAnalysis;
use crate::analysis_views::difference::{DifferenceRequest, compare_runs};
use crate::analysis_views::{bands, critical};
use crate::run::FinishedRun;

/// An analysis of a run the views asked for, to be worked out on a worker thread.
#[derive(Clone, Debug)]
pub enum AnalysisJob {
    /// Its critical path (`analysis_views::critical::find_in_run`).
    CriticalPath(Arc<FinishedRun>),
    /// Its communication phases (`analysis_views::bands::find_in_run`).
    Phases(Arc<FinishedRun>),
    /// The comparison of two runs (`analysis_views::difference::compare_runs`).
    Difference {
        /// What to compare, and how.
        request: DifferenceRequest,
        /// The runs, left then right.
        runs: [Arc<FinishedRun>; 2],
    },
}

impl AnalysisJob {
    /// The name of the worker thread that works it out.
    pub fn task_name(&self) -> &'static str {
        match self {
            AnalysisJob::CriticalPath(_) => "critical-path",
            AnalysisJob::Phases(_) => "phases",
            AnalysisJob::Difference { .. } => "difference",
        }
    }

    /// Work it out (seconds on a big run): the command that keeps the result.
    pub fn work_out(self) -> TimingCommand {
        match self {
            AnalysisJob::CriticalPath(run) => {
                TimingCommand::KeepCriticalPath { run: run.id, report: critical::find_in_run(&run) }
            }
            AnalysisJob::Phases(run) => {
                TimingCommand::KeepPhases { run: run.id, report: bands::find_in_run(&run) }
            }
            AnalysisJob::Difference { request, runs: [a, b] } => TimingCommand::KeepDifference(compare_runs(
                &request,
                [(&a.trace, &a.replay), (&b.trace, &b.replay)],
            )),
        }
    }
}

/// The analyses asked for in `analysis` since the last call, for the runs `run_of` finds by id;
/// an analysis of a run it does not find (no longer shown) is dropped from the asking.
pub fn jobs_asked(
    analysis: &mut TimingAnalysis,
    run_of: impl Fn(u64) -> Option<Arc<FinishedRun>>,
) -> Vec<AnalysisJob> {
    let mut work = Vec::new();
    for id in analysis.critical.asked.start_asked() {
        match run_of(id) {
            Some(run) => work.push(AnalysisJob::CriticalPath(run)),
            None => analysis.critical.asked.done(id),
        }
    }
    for id in analysis.bands.asked.start_asked() {
        match run_of(id) {
            Some(run) => work.push(AnalysisJob::Phases(run)),
            None => analysis.bands.asked.done(id),
        }
    }
    if let Some(request) = analysis.difference.start_asked() {
        match (run_of(request.key.runs[0]), run_of(request.key.runs[1])) {
            (Some(a), Some(b)) => work.push(AnalysisJob::Difference { request, runs: [a, b] }),
            _ => analysis.difference.dropped(),
        }
    }
    work
}
