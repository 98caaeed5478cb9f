//! The `sbatch` calls hase made for a job, kept in `submissions.ron` in the job directory: which
//! job id ran which array tasks.

use std::collections::BTreeSet;

use hase_engine::model::write_atomic;
use serde::{Deserialize, Serialize};

use super::error::SlurmError;
use super::layout::SlurmJob;

/// One `sbatch` of the job.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submission {
    /// Slurm's job id.
    pub job_id: String,
    /// The array submitted (`0-11`, `3,5-6`, with `%N` when throttled).
    pub array: String,
}

impl Submission {
    /// The task ids of the array (below `tasks`).
    pub fn task_ids(&self, tasks: u64) -> Vec<u64> {
        let spec = self.array.split('%').next().unwrap_or_default();
        let mut ids = BTreeSet::new();
        for part in spec.split(',') {
            let (lo, hi) = part.split_once('-').unwrap_or((part, part));
            if let (Ok(lo), Ok(hi)) = (lo.trim().parse::<u64>(), hi.trim().parse::<u64>()) {
                ids.extend((lo..=hi.min(tasks.saturating_sub(1))).take_while(|t| *t < tasks));
            }
        }
        ids.into_iter().collect()
    }
}

/// The submissions made by hase so far (`submissions.ron`; none when absent).
pub fn submissions(job: &SlurmJob) -> Result<Vec<Submission>, SlurmError> {
    let path = job.dir.join("submissions.ron");
    match hase_engine::limits::read_text_input(&path) {
        Ok(text) => ron::from_str(&text).map_err(|e| SlurmError::ron(&path, e)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(SlurmError::io(&path, e)),
    }
}

/// Add a submission to `submissions.ron` (rewritten atomically).
pub fn record_submission(job: &SlurmJob, submission: Submission) -> Result<(), SlurmError> {
    let mut all = submissions(job)?;
    all.push(submission);
    let path = job.dir.join("submissions.ron");
    let text = ron::ser::to_string_pretty(&all, ron::ser::PrettyConfig::new()).unwrap_or_default();
    write_atomic(&path, text.as_bytes()).map_err(|e| SlurmError::io(&path, e))
}
