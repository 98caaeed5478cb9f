//! Submitting a job directory with `sbatch` (every task, or only the tasks with missing runs:
//! the resume), the record of submissions (`submissions.ron`), and the status of every run from
//! the result files plus, when the Slurm clients are on the `PATH`, `squeue` (pending, running)
//! and `sacct` (tasks that ended without writing their results).

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use hase_engine::limits::{CappedReadError, check_regular_file, printable_error};

use super::array_tasks::{array_spec, array_task_of_point};
use super::error::SlurmError;
use super::layout::SlurmJob;
use super::script::{array_value, shell_quote};
use super::submissions::{Submission, record_submission};
use crate::experiment::plan::ExperimentPlan;
use crate::experiment::record::{RunKey, RunRecord};

/// The array value for `tasks` (all of them when `None`), throttled as the job asks.
fn array_for(job: &SlurmJob, tasks: Option<&[u64]>) -> String {
    let throttle = job.manifest.settings.throttle;
    match tasks {
        None => array_value(job.manifest.tasks, throttle),
        Some(list) => {
            let value = array_spec(list);
            match throttle {
                Some(n) => format!("{value}%{n}"),
                None => value,
            }
        }
    }
}

/// The command that submits `tasks` of `job` (all of them when `None`): what the GUI shows to
/// run on a login node, and what [`submit`] runs. The `--array` given overrides the script's.
pub fn submit_command(job: &SlurmJob, tasks: Option<&[u64]>) -> Vec<String> {
    vec![
        "sbatch".into(),
        "--parsable".into(),
        format!("--array={}", array_for(job, tasks)),
        job.script_path().display().to_string(),
    ]
}

/// The submit command as one shell line (what the GUI shows to copy to a login node).
pub fn submit_command_line(job: &SlurmJob, tasks: Option<&[u64]>) -> String {
    let words: Vec<String> = submit_command(job, tasks).iter().map(|w| shell_quote(w)).collect();
    words.join(" ")
}

/// The `sbatch` found in the directories of `search_path` (a `PATH`-style list), if any.
pub fn sbatch_in(search_path: &std::ffi::OsStr) -> Option<std::path::PathBuf> {
    std::env::split_paths(search_path)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join("sbatch"))
        .find(|candidate| candidate.is_file())
}

/// True when `sbatch` is on the `PATH` (this machine can submit: a login node or a cluster node).
pub fn sbatch_on_path() -> bool {
    std::env::var_os("PATH").is_some_and(|paths| sbatch_in(&paths).is_some())
}

/// What [`submit_or_show`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubmitOutcome {
    /// `sbatch` ran and accepted the job.
    Submitted(Submission),
    /// `sbatch` is not here: run this line on a login node.
    ShowCommand(String),
}

/// Submit `job` when `sbatch` is on the `PATH`, else give the line to run on a login node (the
/// GUI's "Run on Slurm…").
pub fn submit_or_show(job: &SlurmJob, tasks: Option<&[u64]>) -> Result<SubmitOutcome, SlurmError> {
    submit_or_show_in(job, tasks, &std::env::var_os("PATH").unwrap_or_default())
}

/// [`submit_or_show`] looking for `sbatch` in `search_path` (a `PATH`-style list) rather than the
/// process's `PATH`; the `sbatch` found there is the one run.
pub fn submit_or_show_in(
    job: &SlurmJob,
    tasks: Option<&[u64]>,
    search_path: &std::ffi::OsStr,
) -> Result<SubmitOutcome, SlurmError> {
    match sbatch_in(search_path) {
        Some(sbatch) => submit_with(job, tasks, &sbatch).map(SubmitOutcome::Submitted),
        None => Ok(SubmitOutcome::ShowCommand(submit_command_line(job, tasks))),
    }
}

/// The tasks that have a run without a result file.
pub fn array_tasks_with_missing_runs(job: &SlurmJob, plan: &ExperimentPlan) -> Vec<u64> {
    let per_task = job.manifest.settings.points_per_task;
    let tasks: BTreeSet<u64> = plan
        .runs()
        .filter(|key| !job.result_path(*key).is_file())
        .map(|key| array_task_of_point(key.point, per_task))
        .collect();
    tasks.into_iter().collect()
}

/// Submit `tasks` of `job` (all when `None`) with `sbatch` and record the submission.
pub fn submit(job: &SlurmJob, tasks: Option<&[u64]>) -> Result<Submission, SlurmError> {
    submit_with(job, tasks, std::path::Path::new("sbatch"))
}

/// [`submit`] with the `sbatch` program at `sbatch`.
fn submit_with(
    job: &SlurmJob,
    tasks: Option<&[u64]>,
    sbatch: &std::path::Path,
) -> Result<Submission, SlurmError> {
    let command = submit_command(job, tasks);
    let shown = command.join(" ");
    let output = Command::new(sbatch)
        .args(&command[1..])
        .current_dir(&job.dir)
        .output()
        .map_err(|source| SlurmError::CommandStart { command: shown.clone(), source })?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        let detail = format!("{}: {}", output.status, String::from_utf8_lossy(&output.stderr).trim());
        return Err(SlurmError::Command { command: shown, detail });
    }
    // `--parsable` prints `JOBID` or `JOBID;CLUSTER`.
    let job_id = stdout.lines().next().unwrap_or_default().split(';').next().unwrap_or_default().trim();
    if job_id.is_empty() || !job_id.chars().all(|c| c.is_ascii_digit()) {
        return Err(SlurmError::Command { command: shown, detail: format!("unexpected output {stdout:?}") });
    }
    let submission = Submission { job_id: job_id.to_string(), array: array_for(job, tasks) };
    record_submission(job, submission.clone())?;
    Ok(submission)
}

/// The state of one run.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RunState {
    /// Its result file says it went to its end.
    Done,
    /// Its result file says it did not (deadlock, failure, panic).
    Failed,
    /// No result yet; its task is running.
    Running,
    /// No result yet; its task waits in the queue.
    Pending,
    /// No result; Slurm says its task ended so (`FAILED`, `TIMEOUT`, `OUT_OF_MEMORY`, …).
    TaskEnded(String),
    /// No result and the queue does not know its task.
    Missing,
    /// Something other than a regular file where its result belongs (a FIFO, a device, a
    /// directory): never read.
    NotAFile(&'static str),
}

impl RunState {
    /// The word shown by `hase sweep --status`.
    pub fn word(&self) -> String {
        match self {
            RunState::Done => "done".into(),
            RunState::Failed => "failed".into(),
            RunState::Running => "running".into(),
            RunState::Pending => "pending".into(),
            RunState::TaskEnded(state) => format!("task {}", state.to_lowercase()),
            RunState::Missing => "missing".into(),
            RunState::NotAFile(what) => format!("missing (its result is {what}, not a regular file)"),
        }
    }
}

/// The status of a job's runs.
#[derive(Clone, Debug)]
pub struct JobStatus {
    /// Every run's state, in run order.
    pub runs: Vec<(RunKey, RunState)>,
    /// Where queue states came from: `squeue`, `squeue and sacct`, or why files alone.
    pub source: String,
}

impl JobStatus {
    /// How many runs are in each state (by word).
    pub fn counts(&self) -> BTreeMap<String, u64> {
        let mut counts = BTreeMap::new();
        for (_, state) in &self.runs {
            *counts.entry(state.word()).or_default() += 1;
        }
        counts
    }
}

/// Why a Slurm client's answer cannot be used.
#[derive(Debug, thiserror::Error)]
enum ClientError {
    /// It could not be started.
    #[error("{program}: {source}")]
    Start {
        /// The program.
        program: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// It ended with a failure status.
    #[error("{program}: {stderr}")]
    Failed {
        /// The program.
        program: String,
        /// What it wrote to stderr, on one line and cut short ([`one_line`]).
        stderr: String,
    },
}

/// Run a Slurm client; `Err` says why its answer cannot be used.
fn client(program: &str, args: &[String]) -> Result<String, ClientError> {
    let output = Command::new(program)
        .args(args)
        .output()
        .map_err(|source| ClientError::Start { program: program.to_string(), source })?;
    if !output.status.success() {
        let stderr = one_line(&String::from_utf8_lossy(&output.stderr));
        return Err(ClientError::Failed { program: program.to_string(), stderr });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Characters of a Slurm client's complaint that `--status` shows.
const MAX_CLIENT_COMPLAINT_CHARS: usize = 200;

/// A client's stderr as one line for `--status`: its non-empty lines joined by `; `, control
/// characters escaped, cut at [`MAX_CLIENT_COMPLAINT_CHARS`] characters.
fn one_line(stderr: &str) -> String {
    let joined = stderr.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("; ");
    let printable = printable_error(&joined);
    match printable.char_indices().nth(MAX_CLIENT_COMPLAINT_CHARS) {
        Some((cut, _)) => format!("{}…", &printable[..cut]),
        None => printable,
    }
}

/// Task states from lines `JOBID_TASK STATE` (squeue `-r -o '%i %T'`, sacct `-X -P -o JobID,State`
/// with `|`), for `job_ids` only.
pub fn parse_array_task_states(text: &str, job_ids: &BTreeSet<String>) -> BTreeMap<u64, String> {
    let mut states = BTreeMap::new();
    for line in text.lines() {
        let mut words = line.split(|c: char| c == '|' || c.is_whitespace()).filter(|w| !w.is_empty());
        let (Some(id), Some(state)) = (words.next(), words.next()) else { continue };
        let Some((job, task)) = id.split_once('_') else { continue };
        if let (true, Ok(task)) = (job_ids.contains(job), task.parse::<u64>()) {
            states.insert(task, state.to_string());
        }
    }
    states
}

/// The status of every run of `job` (planned as `plan`).
pub fn job_status(job: &SlurmJob, plan: &ExperimentPlan) -> Result<JobStatus, SlurmError> {
    let attempts = super::collect::array_task_attempts(job)?;
    let job_ids: BTreeSet<String> = attempts.values().filter_map(|a| a.job_id.clone()).collect();
    let id_list = job_ids.iter().cloned().collect::<Vec<_>>().join(",");
    let (queued, ended, source) = if job_ids.is_empty() {
        (BTreeMap::new(), BTreeMap::new(), "files (the job was never submitted by hase)".to_string())
    } else {
        let squeue = client(
            "squeue",
            &["-h".into(), "-r".into(), format!("--jobs={id_list}"), "-o".into(), "%i %T".into()],
        );
        let sacct = client(
            "sacct",
            &[
                "-n".into(),
                "-X".into(),
                "-P".into(),
                format!("--jobs={id_list}"),
                "-o".into(),
                "JobID,State".into(),
            ],
        );
        let source = match (&squeue, &sacct) {
            (Ok(_), Ok(_)) => "squeue and sacct".to_string(),
            (Ok(_), Err(why)) => format!("squeue (no sacct: {why})"),
            (Err(why), _) => format!("files (no squeue: {why})"),
        };
        let queued = squeue.map(|t| parse_array_task_states(&t, &job_ids)).unwrap_or_default();
        let ended = sacct.map(|t| parse_array_task_states(&t, &job_ids)).unwrap_or_default();
        (queued, ended, source)
    };
    let per_task = job.manifest.settings.points_per_task;
    let mut runs = Vec::new();
    for key in plan.runs() {
        let path = job.result_path(key);
        let task = array_task_of_point(key.point, per_task);
        let state = if let Err(CappedReadError::NotRegular { what, .. }) = check_regular_file(&path) {
            RunState::NotAFile(what)
        } else if path.is_file() {
            match RunRecord::read_file(&path) {
                Ok(r) if r.status.is_success() => RunState::Done,
                _ => RunState::Failed,
            }
        } else {
            match queued.get(&task).map(String::as_str) {
                Some("RUNNING" | "COMPLETING") => RunState::Running,
                Some(_) => RunState::Pending,
                None => match ended.get(&task).map(String::as_str) {
                    Some(s) if !matches!(s, "RUNNING" | "PENDING" | "COMPLETED") => {
                        RunState::TaskEnded(s.into())
                    }
                    _ => RunState::Missing,
                },
            }
        };
        runs.push((key, state));
    }
    Ok(JobStatus { runs, source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clients_complaint_is_one_short_printable_line() {
        let stderr = format!("squeue: error: first\n\n  \u{1b}[31msecond  \n{}\n", "x".repeat(5_000));
        let line = one_line(&stderr);
        assert!(line.starts_with("squeue: error: first; \\u{1b}[31msecond; xxx"), "{line}");
        assert!(!line.contains('\n') && !line.contains('\u{1b}'), "{line}");
        assert_eq!(line.chars().count(), MAX_CLIENT_COMPLAINT_CHARS + 1);
        assert_eq!(one_line("one\n"), "one");
    }

    #[test]
    fn the_submit_line_quotes_and_restricts_the_array() {
        let job = SlurmJob {
            dir: std::path::PathBuf::from("/shared/exp"),
            manifest: crate::experiment::slurm::layout::tests_support::manifest(12, Some(3)),
        };
        assert_eq!(
            submit_command_line(&job, None),
            "sbatch --parsable --array=0-11%3 /shared/exp/job.sbatch"
        );
        assert_eq!(submit_command(&job, Some(&[1, 2, 5]))[2], "--array=1-2,5%3");
    }

    #[test]
    fn submissions_name_their_tasks() {
        let s = |array: &str| Submission { job_id: "7".into(), array: array.into() };
        assert_eq!(s("0-3%2").task_ids(12), [0, 1, 2, 3]);
        assert_eq!(s("2,5-6,9").task_ids(12), [2, 5, 6, 9]);
        assert_eq!(s("10-20").task_ids(12), [10, 11]);
    }

    #[test]
    fn queue_lines_give_task_states_of_our_jobs_only() {
        let ids: BTreeSet<String> = ["41".to_string(), "45".to_string()].into();
        let squeue = "41_0 RUNNING\n41_3 PENDING\n99_1 RUNNING\n45_7 COMPLETING\nnonsense\n";
        let states = parse_array_task_states(squeue, &ids);
        assert_eq!(states.len(), 3);
        assert_eq!(states[&0], "RUNNING");
        assert_eq!(states[&7], "COMPLETING");
        let sacct = "41_2|TIMEOUT\n41_1|COMPLETED\n";
        assert_eq!(parse_array_task_states(sacct, &ids)[&2], "TIMEOUT");
    }
}
