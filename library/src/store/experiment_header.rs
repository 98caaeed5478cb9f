//! One header type for an experiment, in the two forms it is written in: the store's record
//! (spec and project as RON text, no runs, no file version) and the export file (spec and
//! project as values, every run, and the file format version first). Fields the record does not
//! have are left out when it is written, so both forms read and write as they always have.

use serde::{Deserialize, Serialize};

use crate::experiment::record::RunRecord;

/// An experiment: what it is, where it came from, and what it plans.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExperimentHeader<Spec, Project, Runs: RunList> {
    /// Export file format version (0 in the store's records, which do not write it).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub experiment_file_version: u32,
    /// Experiment name.
    pub name: String,
    /// `hase` version that started it.
    pub hase_version: String,
    /// Start time, milliseconds since the Unix epoch.
    pub started_at_ms: u64,
    /// When every run was done, if it was.
    #[serde(default)]
    pub finished_at_ms: Option<u64>,
    /// Where the project came from (a file path, or a stored project and version).
    pub source: String,
    /// Directory its workload files are read from.
    pub base_dir: String,
    /// Points planned.
    pub points: u64,
    /// Repetitions per point.
    pub repetitions: u32,
    /// Variable names (CSV columns), in order.
    pub variables: Vec<String>,
    /// Metric names, in order.
    pub metrics: Vec<String>,
    /// The spec.
    pub spec: Spec,
    /// The exact project it ran against.
    pub project: Project,
    /// Every stored run (export files; the store keeps runs in records of their own).
    #[serde(default, skip_serializing_if = "RunList::is_absent")]
    pub runs: Runs,
}

/// The runs a header carries: every run ([`Vec`] of records) or none at all ([`NoRuns`]).
pub trait RunList: Default {
    /// True when there is no list to write (not an empty one).
    fn is_absent(&self) -> bool;
}

impl RunList for Vec<RunRecord> {
    fn is_absent(&self) -> bool {
        false
    }
}

/// No run list: the store's header records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoRuns;

impl RunList for NoRuns {
    fn is_absent(&self) -> bool {
        true
    }
}

#[allow(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_zero(version: &u32) -> bool {
    *version == 0
}
