//! `--collect --store`: the runs gathered from a job directory go into one experiment of the
//! store. The experiment's source names the job's directory and stamp, so a second collect of the
//! same job (after resubmitting the missing runs) fills the experiment the first one made.

use super::collect::Collected;
use super::layout::SlurmJob;
use crate::experiment::plan::ExperimentPlan;
use crate::store::{ExperimentStore, StoreError};

/// Where the collected runs were stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredCollect {
    /// The experiment.
    pub id: u64,
    /// True when an earlier collect of this job had made it.
    pub filled_existing: bool,
}

/// The source text of the experiment a job's collect stores into.
pub fn collect_source(job: &SlurmJob, stamp: &str) -> String {
    format!("Slurm job directory {} (job {stamp})", job.dir.display())
}

/// Store `collected` (from `job`, whose stamp is `stamp`) into the experiment an earlier collect
/// of the same job made, or a new one; marks it finished when no run is missing.
pub fn store_collected(
    store: &ExperimentStore,
    job: &SlurmJob,
    stamp: &str,
    plan: &ExperimentPlan,
    collected: &Collected,
) -> Result<StoredCollect, StoreError> {
    let source = collect_source(job, stamp);
    let mut existing = None;
    for summary in store.list()?.iter().rev() {
        if store.info(summary.id)?.source == source {
            existing = Some(summary.id);
            break;
        }
    }
    let id = match existing {
        Some(id) => id,
        None => store.create(plan, &source)?,
    };
    for record in &collected.records {
        store.record_run(id, record)?;
    }
    if collected.is_complete() && store.info(id)?.finished_at.is_none() {
        store.mark_finished(id)?;
    }
    Ok(StoredCollect { id, filled_existing: existing.is_some() })
}
