//! `NativeRun`: what one run produced — outcome, makespan, statistics (as the JSON `hase run
//! --stats` writes, which the Python half loads into dicts), the deadlock report, and the trace as
//! columns when it was kept in memory or written to a file.

use std::path::PathBuf;

use hase_engine::kernel::RunOutcome;
use hase_library::expected::{Expected, NoClosedForm, stats_json_with_expected};
use hase_library::runner::RunResult;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::HaseError;
use crate::trace_columns::{TraceColumns, read_trace_file};

/// One finished run.
#[pyclass(module = "hase._hase", frozen)]
pub struct NativeRun {
    result: RunResult,
    trace_file: Option<PathBuf>,
    /// The closed form's expected timing (completed runs only), as `hase run --stats` adds it.
    expected: Option<Result<Expected, NoClosedForm>>,
}

impl NativeRun {
    /// Wrap a run's result; `trace_file` is where its trace was written, if anywhere.
    pub fn new(
        result: RunResult,
        trace_file: Option<PathBuf>,
        expected: Option<Result<Expected, NoClosedForm>>,
    ) -> Self {
        NativeRun { result, trace_file, expected }
    }
}

#[pymethods]
impl NativeRun {
    /// `completed`, `deadlock`, `reached-until` or `cancelled`.
    #[getter]
    fn outcome(&self) -> String {
        self.result.stats.outcome.clone()
    }

    /// Simulated time at the end of the run, in picoseconds.
    #[getter]
    fn makespan_ps(&self) -> u64 {
        self.result.stats.makespan_ps
    }

    /// Events handled.
    #[getter]
    fn events(&self) -> u64 {
        self.result.stats.events
    }

    /// The seed of the run.
    #[getter]
    fn seed(&self) -> u64 {
        self.result.stats.seed
    }

    /// The deadlock report (who waited for what), if the run deadlocked.
    #[getter]
    fn deadlock_report(&self) -> Option<String> {
        match &self.result.outcome {
            RunOutcome::Deadlock(report) => Some(report.to_string()),
            _ => None,
        }
    }

    /// The trace fingerprint, if asked for.
    #[getter]
    fn fingerprint(&self) -> Option<String> {
        self.result.fingerprint.clone()
    }

    /// The first trace write failure, if any.
    #[getter]
    fn trace_error(&self) -> Option<String> {
        self.result.trace_error.as_ref().map(ToString::to_string)
    }

    /// The statistics as JSON text (what `hase run --stats` writes, `expected` field included).
    fn stats_json(&self) -> PyResult<String> {
        stats_json_with_expected(&self.result.stats, self.expected.as_ref())
            .map_err(|e| HaseError::new_err(format!("cannot write the statistics as JSON: {e}")))
    }

    /// The trace as columns: from memory if kept, else read back from its file.
    fn trace_columns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        if let Some(trace) = &self.result.trace {
            let mut columns = TraceColumns::new(&trace.header);
            for record in &trace.records {
                columns.push(record);
            }
            return columns.finish(py, &trace.header, trace.end_time());
        }
        match &self.trace_file {
            Some(path) => read_trace_file(py, path),
            None => Err(HaseError::new_err(
                "this run kept no trace: run with keep_trace=True or trace=PATH (at level 4 or below)",
            )),
        }
    }
}
