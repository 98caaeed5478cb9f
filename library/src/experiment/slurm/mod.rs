//! Running a sweep as a Slurm job array on a cluster (no home-made distributed runner: Slurm
//! schedules, hase runs points and gathers results). Everything works on a job directory on the
//! shared file system:
//!
//! - [`layout`]: the directory (frozen spec and project, manifest, `job.sbatch`, `results/`,
//!   `logs/`); [`SlurmJob::open`] reads it back and plans it again.
//! - [`mod@prepare`]: writes the directory.
//! - [`array_tasks`]: which points an array task runs (`K` consecutive points per array task).
//! - [`script`]: the text of `job.sbatch`.
//! - [`mod@run_array_task`]: what one array task does: its runs, one result file per run, written
//!   atomically; runs whose file is present are skipped, so resubmitting is the resume.
//! - [`result_file`]: a result file, stamped with its job, and the checks `--collect` makes.
//! - [`mod@collect`]: the result files gathered into the same records (and CSV) as a local sweep,
//!   with the missing and failed runs named with their Slurm job, task and stderr file.
//! - [`mod@store_collected`]: `--collect --store`, into the experiment of an earlier collect of
//!   the same job when there is one.
//! - [`submissions`]: the `sbatch` calls made so far (`submissions.ron`).
//! - [`mod@submit`]: the `sbatch` command (all tasks, or only those with missing runs), submitting,
//!   and the job's status from `squeue` when it is on the `PATH`, else from the files.
//!
//! The layout and the commands are documented in `docs/experiments.md` ("On a Slurm cluster").

pub mod array_tasks;
pub mod collect;
mod error;
pub mod layout;
pub mod prepare;
pub mod result_file;
pub mod run_array_task;
pub mod script;
pub mod store_collected;
pub mod submissions;
pub mod submit;

#[cfg(test)]
mod tests;

pub use array_tasks::{array_task_count, array_task_of_point, array_task_points};
pub use collect::{Collected, MissingRun, MissingRunProblem, collect};
pub use error::SlurmError;
pub use layout::{SlurmJob, SlurmManifest, SlurmSettings};
pub use prepare::prepare;
pub use result_file::ResultRefusal;
pub use run_array_task::{ArrayTaskReport, run_array_task};
pub use script::job_script;
pub use store_collected::{StoredCollect, collect_source, store_collected};
pub use submissions::Submission;
pub use submit::{
    JobStatus, RunState, SubmitOutcome, job_status, sbatch_in, sbatch_on_path, submit, submit_command,
    submit_command_line, submit_or_show, submit_or_show_in,
};
