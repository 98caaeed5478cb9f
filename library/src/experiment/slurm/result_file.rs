//! One run's result file in a job directory: the run's record as RON after a first comment line
//! `// hase job STAMP`, where the stamp is a hash of the job's manifest, frozen spec and frozen
//! project. `--collect` takes a file only when its stamp is this job's and its key, seed, point
//! values and number of metrics are what the plan makes, so a file copied from another job of the
//! same shape, or edited, is named and refused instead of being stored.

use std::path::Path;

use hase_engine::model::write_atomic;

use super::error::SlurmError;
use super::layout::SlurmJob;
use crate::experiment::plan::ExperimentPlan;
use crate::experiment::record::{RecordFileError, RunKey, RunRecord};

/// The first line's start.
const STAMP_PREFIX: &str = "// hase job ";

/// Why a present result file was not taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResultRefusal {
    /// The file has no stamp, or another job's.
    ForeignJob,
    /// The file holds the record of another run.
    OtherRun(RunKey),
    /// The record's seed, point values or metric count is not what the plan makes.
    Contradicts(&'static str),
}

impl std::fmt::Display for ResultRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResultRefusal::ForeignJob => {
                f.write_str("was not written by this job (no stamp, or another job's)")
            }
            ResultRefusal::OtherRun(key) => write!(f, "holds the record of {key}"),
            ResultRefusal::Contradicts(what) => write!(f, "its {what} is not what this job's plan makes"),
        }
    }
}

impl SlurmJob {
    /// The job's stamp: a hash of `job.ron`, `spec.ron` and `project.ron` as written (the
    /// manifest holds the creation time, so two jobs of one spec differ).
    pub fn stamp(&self) -> Result<String, SlurmError> {
        let mut hasher = blake3::Hasher::new();
        hasher.update(b"hase slurm job stamp v1\n");
        for name in ["job.ron", "spec.ron", "project.ron"] {
            let path = self.dir.join(name);
            let text = hase_engine::limits::read_text_input(&path).map_err(|e| SlurmError::io(&path, e))?;
            hasher.update(&(text.len() as u64).to_le_bytes());
            hasher.update(text.as_bytes());
        }
        Ok(hasher.finalize().to_hex()[..32].to_string())
    }
}

/// Write `record` to the result file at `path` with the job's `stamp`, atomically.
pub(super) fn write_result(path: &Path, stamp: &str, record: &RunRecord) -> Result<(), RecordFileError> {
    let text = format!("{STAMP_PREFIX}{stamp}\n{}", record.to_ron());
    write_atomic(path, text.as_bytes())
        .map_err(|source| RecordFileError::Io { path: path.display().to_string(), source })
}

/// Check a record read from `path` (whose first line is `first_line`) against the job and plan.
pub(super) fn check_result(
    first_line: &str,
    stamp: &str,
    record: &RunRecord,
    key: RunKey,
    plan: &ExperimentPlan,
) -> Result<(), ResultRefusal> {
    if first_line.strip_prefix(STAMP_PREFIX).map(str::trim) != Some(stamp) {
        return Err(ResultRefusal::ForeignJob);
    }
    if record.key != key {
        return Err(ResultRefusal::OtherRun(record.key));
    }
    if record.seed != plan.seed_of(key) {
        return Err(ResultRefusal::Contradicts("seed"));
    }
    if record.values != plan.point_values(key.point) {
        return Err(ResultRefusal::Contradicts("point's values"));
    }
    if record.metrics.len() != plan.metric_names().len() {
        return Err(ResultRefusal::Contradicts("number of metrics"));
    }
    Ok(())
}

/// Read a result file: its first line (the stamp, if any) and its record.
pub(super) fn read_result(path: &Path) -> Result<(String, RunRecord), RecordFileError> {
    let shown = path.display().to_string();
    let text = hase_engine::limits::read_text_input(path)
        .map_err(|source| RecordFileError::Io { path: shown.clone(), source })?;
    parse_result(&text, &shown)
}

/// A result file's text (`shown` names it in errors): its first line and its record.
pub fn parse_result(text: &str, shown: &str) -> Result<(String, RunRecord), RecordFileError> {
    let record = RunRecord::from_ron(text, shown)?;
    Ok((text.lines().next().unwrap_or_default().to_string(), record))
}
