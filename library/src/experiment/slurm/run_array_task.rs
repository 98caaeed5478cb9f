//! One array task: run the task's points (every repetition) of the frozen plan on `jobs` threads,
//! writing each run's record to its own result file atomically as it finishes (a killed task
//! leaves whole files or none). Runs whose result file is already there are skipped, so
//! submitting the array again (or only some tasks) is the resume.

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::Arc;

use super::array_tasks::array_task_points;
use super::error::SlurmError;
use super::layout::SlurmJob;
use super::result_file::write_result;
use crate::experiment::plan::ExperimentPlan;
use crate::experiment::record::{RunKey, RunRecord};
use crate::experiment::sweep::{ObserverError, SweepObserver, SweepOptions, run_sweep};

/// What one array task did.
#[derive(Clone, Debug)]
pub struct ArrayTaskReport {
    /// The array task.
    pub task: u64,
    /// Its points.
    pub points: Range<u64>,
    /// Runs made now, each with a result file.
    pub written: u64,
    /// Runs whose result file was already there.
    pub skipped: u64,
    /// Runs made now that did not go to their end (deadlock, failure, panic).
    pub failed: Vec<RunKey>,
    /// True when the task stopped before every run was made (cancelled, or a file not written).
    pub stopped: bool,
    /// The result file that could not be written, if any.
    pub write_error: Option<Arc<ObserverError>>,
}

/// The task id from `SLURM_ARRAY_TASK_ID`'s value, checked against the job's task count.
pub fn array_task_from_env(value: Option<&str>, tasks: u64) -> Result<u64, SlurmError> {
    let text = value.ok_or_else(|| SlurmError::ArrayTask {
        task: "SLURM_ARRAY_TASK_ID".into(),
        reason: "not set: run this inside the array job (or give --task N)".into(),
    })?;
    let task: u64 = text
        .trim()
        .parse()
        .map_err(|_| SlurmError::ArrayTask { task: text.into(), reason: "not a task number".into() })?;
    check_array_task(task, tasks)?;
    Ok(task)
}

/// Refuse a task beyond the job's array.
pub fn check_array_task(task: u64, tasks: u64) -> Result<(), SlurmError> {
    if task >= tasks {
        return Err(SlurmError::ArrayTask {
            task: task.to_string(),
            reason: format!("the job has tasks 0 to {}", tasks.saturating_sub(1)),
        });
    }
    Ok(())
}

/// Writes each finished run's result file.
struct ResultWriter<'a> {
    job: &'a SlurmJob,
    stamp: String,
}

impl SweepObserver for ResultWriter<'_> {
    fn finished(&self, record: &RunRecord) -> Result<(), ObserverError> {
        Ok(write_result(&self.job.result_path(record.key), &self.stamp, record)?)
    }
}

/// Run array task `task` of `job` (`plan` is [`SlurmJob::plan`]); `options.jobs` threads and
/// its cancel flag are used, its skip set and trace directory are set here.
pub fn run_array_task(
    job: &SlurmJob,
    plan: &ExperimentPlan,
    task: u64,
    options: &SweepOptions,
) -> Result<ArrayTaskReport, SlurmError> {
    check_array_task(task, job.manifest.tasks)?;
    let points = array_task_points(task, job.manifest.settings.points_per_task, plan.point_count());
    let results = job.results_dir();
    std::fs::create_dir_all(&results).map_err(|e| SlurmError::io(&results, e))?;
    let mut skip = BTreeSet::new();
    let mut present = 0;
    for key in plan.runs() {
        if !points.contains(&key.point) {
            skip.insert(key);
        } else if job.result_path(key).is_file() {
            skip.insert(key);
            present += 1;
        }
    }
    let options =
        SweepOptions { skip, trace_dir: plan.spec().traces.map(|_| job.traces_dir()), ..options.clone() };
    let report = run_sweep(plan, &options, &ResultWriter { job, stamp: job.stamp()? })?;
    Ok(ArrayTaskReport {
        task,
        points,
        written: report.records.len() as u64,
        skipped: present,
        failed: report.records.iter().filter(|r| !r.status.is_success()).map(|r| r.key).collect(),
        stopped: report.stopped,
        write_error: report.observer_error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_ids_come_from_the_environment_and_are_checked() {
        assert_eq!(array_task_from_env(Some("3"), 4).unwrap(), 3);
        let missing = array_task_from_env(None, 4).unwrap_err().to_string();
        assert!(missing.contains("SLURM_ARRAY_TASK_ID"), "{missing}");
        let beyond = array_task_from_env(Some("4"), 4).unwrap_err().to_string();
        assert!(beyond.contains("tasks 0 to 3"), "{beyond}");
        assert!(array_task_from_env(Some("x"), 4).unwrap_err().to_string().contains("not a task number"));
    }
}
