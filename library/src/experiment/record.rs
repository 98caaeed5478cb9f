//! What one run of an experiment produced: its key (point, repetition), seed, the values of the
//! point, how it ended, the metrics and the trace it kept. Records are what the store commits as
//! each run finishes and what a single-point run (a Slurm array task) writes as its result file.

use std::path::Path;

use hase_engine::FilePlace;
use hase_engine::model::write_atomic;
use serde::{Deserialize, Serialize};

/// One run of an experiment: a point and a repetition. Runs sort by point, then repetition —
/// the order of the CSV and of every listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RunKey {
    /// Point index (0-based, in combination order after the constraint).
    pub point: u64,
    /// Repetition index (0-based).
    pub repetition: u32,
}

impl std::fmt::Display for RunKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "point {} rep {}", self.point, self.repetition)
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RunStatus {
    /// Every entity finished.
    Completed,
    /// The spec's (or project's) run-until time was reached.
    ReachedUntil,
    /// Nothing could happen any more with work left; the detail is the deadlock report.
    Deadlock,
    /// The point's project could not be made or run (bad override, elaboration, workload); the
    /// detail is the error.
    Failed,
    /// The run panicked (a bug in hase); the detail is the panic message.
    Panicked,
}

impl RunStatus {
    /// The word in the CSV's `outcome` column.
    pub fn word(self) -> &'static str {
        match self {
            RunStatus::Completed => "completed",
            RunStatus::ReachedUntil => "reached-until",
            RunStatus::Deadlock => "deadlock",
            RunStatus::Failed => "failed",
            RunStatus::Panicked => "panicked",
        }
    }

    /// True when the run went to its end (completed or stopped at the run-until time).
    pub fn is_success(self) -> bool {
        matches!(self, RunStatus::Completed | RunStatus::ReachedUntil)
    }
}

/// A measured value: integers stay exact (picoseconds beyond 2^53 exist), the rest are reals.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum MetricValue {
    /// A count or a time in picoseconds.
    Int(u64),
    /// A fraction, a mean, seconds of wall time.
    Float(f64),
}

impl MetricValue {
    /// As a real number (for plots).
    pub fn as_f64(self) -> f64 {
        match self {
            MetricValue::Int(v) => v as f64,
            MetricValue::Float(v) => v,
        }
    }
}

impl std::fmt::Display for MetricValue {
    /// Integers in full; reals as the shortest text that reads back as the same number.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MetricValue::Int(v) => write!(f, "{v}"),
            MetricValue::Float(v) => write!(f, "{v}"),
        }
    }
}

/// The result of one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Which run.
    pub key: RunKey,
    /// The run's seed (see `seeds::run_seed`).
    pub seed: u64,
    /// The point's value of every variable, as canonical text, in variable order.
    pub values: Vec<String>,
    /// How it ended.
    pub status: RunStatus,
    /// Deadlock report, error or panic message; empty for a run that went to its end.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
    /// One entry per metric of the experiment, in metric order (`None`: not measured, e.g. a
    /// failed run, or an entity the point's network does not have).
    pub metrics: Vec<Option<MetricValue>>,
    /// The trace file the run wrote, if the spec asked for traces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<String>,
}

/// Why a result file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum RecordFileError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The file is not a run record.
    #[error("{place}: {}", hase_engine::limits::short_error(&.source.to_string()))]
    Syntax {
        /// The file, line and column.
        place: FilePlace,
        /// The RON reader's reason.
        source: ron::error::Error,
    },
}

impl RunRecord {
    /// The record as RON text (the store's and the result files' form).
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new().depth_limit(2).indentor("  ".to_string());
        // Strings, integers, floats and plain enums only: serialisation cannot fail.
        ron::ser::to_string_pretty(self, config).unwrap_or_default()
    }

    /// Parse a record; `origin` names the source in errors.
    pub fn from_ron(text: &str, origin: &str) -> Result<Self, RecordFileError> {
        ron::from_str(text).map_err(|e: ron::error::SpannedError| RecordFileError::Syntax {
            place: FilePlace::at(origin, e.span.start.line, e.span.start.col),
            source: e.code,
        })
    }

    /// Write the record to `path` atomically (a killed writer leaves no half file).
    pub fn write_file(&self, path: &Path) -> Result<(), RecordFileError> {
        write_atomic(path, self.to_ron().as_bytes())
            .map_err(|source| RecordFileError::Io { path: path.display().to_string(), source })
    }

    /// Read a record written by [`RunRecord::write_file`].
    pub fn read_file(path: &Path) -> Result<Self, RecordFileError> {
        let shown = path.display().to_string();
        let text = hase_engine::limits::read_text_input(path)
            .map_err(|source| RecordFileError::Io { path: shown.clone(), source })?;
        RunRecord::from_ron(&text, &shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_through_files() {
        let dir = tempfile::tempdir().unwrap();
        let record = RunRecord {
            key: RunKey { point: 3, repetition: 1 },
            seed: u64::MAX,
            values: vec!["1024".into(), "ring".into()],
            status: RunStatus::Deadlock,
            detail: "deadlock at 1 us: 2 entities cannot finish\n  p0 [RECV]: …".into(),
            metrics: vec![Some(MetricValue::Int(1 << 60)), None, Some(MetricValue::Float(0.1 + 0.2))],
            trace: None,
        };
        let path = dir.path().join("r.ron");
        record.write_file(&path).unwrap();
        assert_eq!(RunRecord::read_file(&path).unwrap(), record);
        std::fs::write(&path, "(key: oops)").unwrap();
        let err = RunRecord::read_file(&path).unwrap_err().to_string();
        assert!(err.contains("r.ron:1:"), "{err}");
    }

    #[test]
    fn keys_sort_by_point_then_repetition() {
        let mut keys = [(2, 0), (1, 5), (1, 0)].map(|(point, repetition)| RunKey { point, repetition });
        keys.sort();
        assert_eq!(keys.map(|k| (k.point, k.repetition)), [(1, 0), (1, 5), (2, 0)]);
        assert_eq!(MetricValue::Float(0.1 + 0.2).to_string(), "0.30000000000000004");
    }
}
