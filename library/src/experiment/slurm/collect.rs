//! Gathering a job's result files into records: every run of the plan is either present (its
//! record, completed or not) or missing. Missing and failed runs are named with the array task
//! that runs them, the Slurm job id of the task's last attempt and its stderr file (found in
//! `logs/`, else the last submission of the task from `submissions.ron`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use super::array_tasks::array_task_of_point;
use super::error::SlurmError;
use super::layout::SlurmJob;
use super::result_file::{ResultRefusal, check_result, read_result};
use super::submissions::submissions;
use crate::experiment::csv::csv_text;
use crate::experiment::plan::ExperimentPlan;
use crate::experiment::record::{RecordFileError, RunKey, RunRecord};

/// Where a task ran (or was submitted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayTaskAttempt {
    /// The array task.
    pub task: u64,
    /// The Slurm job id of its last attempt, if it was submitted.
    pub job_id: Option<String>,
    /// Its stderr file, if the task started (the file exists).
    pub stderr: Option<PathBuf>,
}

impl std::fmt::Display for ArrayTaskAttempt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.job_id {
            Some(job) => write!(f, "job {job} task {}", self.task)?,
            None => write!(f, "task {} (never submitted)", self.task)?,
        }
        match &self.stderr {
            Some(path) => write!(f, ", stderr {}", path.display()),
            None if self.job_id.is_some() => f.write_str(", no stderr file (the task has not started)"),
            None => Ok(()),
        }
    }
}

/// A run without a (readable) result file.
#[derive(Clone, Debug)]
pub struct MissingRun {
    /// The run.
    pub key: RunKey,
    /// Its task's last attempt.
    pub attempt: ArrayTaskAttempt,
    /// Why a present file was not taken (unreadable, or another run's record).
    pub problem: Option<MissingRunProblem>,
}

/// Why a run's result file, present, was not taken.
#[derive(Clone, Debug, thiserror::Error)]
pub enum MissingRunProblem {
    /// The file cannot be read as a run record.
    #[error(transparent)]
    Unreadable(Arc<RecordFileError>),
    /// The file is another job's, another run's, or contradicts the plan.
    #[error("{path} {refusal}")]
    Refused {
        /// The file, as shown.
        path: String,
        /// Why it was not taken.
        refusal: ResultRefusal,
    },
}

/// A job's results.
#[derive(Clone, Debug)]
pub struct Collected {
    /// Records of the runs present, in run order.
    pub records: Vec<RunRecord>,
    /// Runs missing, in run order.
    pub missing: Vec<MissingRun>,
    /// Runs present that did not go to their end, with their task's attempt.
    pub failed: Vec<(RunKey, ArrayTaskAttempt)>,
    /// Runs planned.
    pub planned: u64,
}

impl Collected {
    /// True when every run has a result.
    pub fn is_complete(&self) -> bool {
        self.missing.is_empty()
    }

    /// The CSV of the runs present: the same text as a local `hase sweep` of the same spec.
    pub fn csv(&self, plan: &ExperimentPlan) -> String {
        csv_text(&plan.variable_names(), &plan.metric_names(), &self.records)
    }
}

/// The last attempt of every task that has a log or a submission.
pub fn array_task_attempts(job: &SlurmJob) -> Result<BTreeMap<u64, ArrayTaskAttempt>, SlurmError> {
    let mut attempts: BTreeMap<u64, ArrayTaskAttempt> = BTreeMap::new();
    for submission in submissions(job)? {
        for task in submission.task_ids(job.manifest.tasks) {
            attempts.insert(
                task,
                ArrayTaskAttempt { task, job_id: Some(submission.job_id.clone()), stderr: None },
            );
        }
    }
    let logs = job.logs_dir();
    let mut logged: BTreeMap<u64, (u64, String)> = BTreeMap::new();
    if let Ok(entries) = std::fs::read_dir(&logs) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some((job_id, task)) = name.strip_suffix(".err").and_then(|s| s.split_once('_')) else {
                continue;
            };
            let (Ok(number), Ok(task)) = (job_id.parse::<u64>(), task.parse::<u64>()) else { continue };
            if logged.get(&task).is_none_or(|(n, _)| *n < number) {
                logged.insert(task, (number, job_id.to_string()));
            }
        }
    }
    for (task, (number, job_id)) in logged {
        let newer_submission = attempts
            .get(&task)
            .and_then(|a| a.job_id.as_deref())
            .and_then(|j| j.parse::<u64>().ok())
            .is_some_and(|submitted| submitted > number);
        if !newer_submission {
            let stderr = Some(job.stderr_path(&job_id, task));
            attempts.insert(task, ArrayTaskAttempt { task, job_id: Some(job_id), stderr });
        }
    }
    Ok(attempts)
}

/// Gather the result files of `job` (planned as `plan`); a file is taken only when it carries this
/// job's stamp and agrees with the plan (see `result_file`).
pub fn collect(job: &SlurmJob, plan: &ExperimentPlan) -> Result<Collected, SlurmError> {
    let attempts = array_task_attempts(job)?;
    let stamp = job.stamp()?;
    let per_task = job.manifest.settings.points_per_task;
    let attempt_of = |key: RunKey| {
        let task = array_task_of_point(key.point, per_task);
        attempts.get(&task).cloned().unwrap_or(ArrayTaskAttempt { task, job_id: None, stderr: None })
    };
    let mut collected =
        Collected { records: Vec::new(), missing: Vec::new(), failed: Vec::new(), planned: plan.run_count() };
    for key in plan.runs() {
        let path = job.result_path(key);
        if std::fs::symlink_metadata(&path).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
            collected.missing.push(MissingRun { key, attempt: attempt_of(key), problem: None });
            continue;
        }
        match read_result(&path) {
            Ok((first, record)) => match check_result(&first, &stamp, &record, key, plan) {
                Ok(()) => {
                    if !record.status.is_success() {
                        collected.failed.push((key, attempt_of(key)));
                    }
                    collected.records.push(record);
                }
                Err(refusal) => collected.missing.push(MissingRun {
                    key,
                    attempt: attempt_of(key),
                    problem: Some(MissingRunProblem::Refused { path: path.display().to_string(), refusal }),
                }),
            },
            Err(e) => {
                collected.missing.push(MissingRun {
                    key,
                    attempt: attempt_of(key),
                    problem: Some(MissingRunProblem::Unreadable(Arc::new(e))),
                });
            }
        }
    }
    Ok(collected)
}
