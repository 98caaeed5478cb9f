//! `hase sweep` on a Slurm cluster: `--slurm DIR` writes the job directory (and submits it unless
//! `--dry-run`), `--run-task DIR` is what each array task runs, `--collect DIR` gathers the
//! results into the same CSV as a local sweep (and, with `--store`, into the experiment store),
//! `--status DIR` shows every run's state, `--resubmit DIR` submits the tasks with missing runs.
//! The work is done by `hase_library::experiment::slurm`.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use hase_engine::model::write_atomic;
use hase_library::experiment::ExperimentPlan;
use hase_library::experiment::SweepOptions;
use hase_library::experiment::slurm::run_array_task::{array_task_from_env, check_array_task};
use hase_library::experiment::slurm::submit::array_tasks_with_missing_runs;
use hase_library::experiment::slurm::{
    SlurmJob, SlurmSettings, collect, job_status, prepare, run_array_task, store_collected, submit,
    submit_command,
};
use hase_library::store::{Database, ExperimentStore};

use super::sweep_args::SweepArgs;

/// Exit code of `--collect` when runs are missing (the CSV holds the runs present).
const INCOMPLETE: u8 = 3;
/// Exit code of a cancelled task.
const CANCELLED: u8 = 4;

/// `--slurm DIR`: write the job directory for `plan` and submit it unless `--dry-run`.
pub(super) fn write_and_submit(args: &SweepArgs, plan: &ExperimentPlan) -> anyhow::Result<ExitCode> {
    let slurm = &args.slurm;
    let dir = slurm.slurm.as_deref().context("--slurm DIR is needed")?;
    let hase_binary = match &slurm.hase_binary {
        Some(path) => std::path::absolute(path).with_context(|| format!("{}", path.display()))?,
        None => std::env::current_exe().context("cannot find this hase binary; give --hase-binary")?,
    };
    let settings = SlurmSettings {
        partition: slurm.partition.clone(),
        time: slurm.time.clone(),
        mem: slurm.mem.clone(),
        points_per_task: slurm.points_per_task,
        throttle: slurm.throttle,
        sbatch_args: slurm.sbatch_args.clone(),
        hase_binary,
        data_dir: args.data_dir.as_deref().map(std::path::absolute).transpose()?,
    };
    let job = prepare(plan, &settings, dir)?;
    let m = &job.manifest;
    let mut err = std::io::stderr().lock();
    writeln!(
        err,
        "{}: {} points × {} repetitions = {} runs in {} array tasks ({} points each)",
        job.dir.display(),
        m.points,
        m.repetitions,
        plan.run_count(),
        m.tasks,
        m.settings.points_per_task
    )?;
    if slurm.dry_run {
        writeln!(err, "not submitted (--dry-run); submit with: {}", submit_command(&job, None).join(" "))?;
        return Ok(ExitCode::SUCCESS);
    }
    let submission = submit(&job, None)?;
    writeln!(err, "submitted job {} (array {})", submission.job_id, submission.array)?;
    writeln!(
        err,
        "follow with: hase sweep --status {0}; gather with: hase sweep --collect {0}",
        job.dir.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `--run-task`, `--collect`, `--status` or `--resubmit`.
pub(super) fn job_command(args: &SweepArgs, options: &SweepOptions) -> anyhow::Result<ExitCode> {
    let slurm = &args.slurm;
    if let Some(dir) = &slurm.run_task {
        return task(args, dir, options);
    }
    if let Some(dir) = &slurm.collect {
        return gather(args, dir);
    }
    if let Some(dir) = &slurm.status {
        return status(dir);
    }
    if let Some(dir) = &slurm.resubmit {
        return resubmit(dir, slurm.dry_run);
    }
    anyhow::bail!("no Slurm job command given")
}

fn open(dir: &Path) -> anyhow::Result<(SlurmJob, ExperimentPlan)> {
    let job = SlurmJob::open(dir)?;
    let plan = job.plan()?;
    Ok((job, plan))
}

fn task(args: &SweepArgs, dir: &Path, options: &SweepOptions) -> anyhow::Result<ExitCode> {
    let (job, plan) = open(dir)?;
    let task = match args.slurm.task {
        Some(task) => {
            check_array_task(task, job.manifest.tasks)?;
            task
        }
        None => {
            array_task_from_env(std::env::var("SLURM_ARRAY_TASK_ID").ok().as_deref(), job.manifest.tasks)?
        }
    };
    // Inside Slurm the task uses the CPUs it was given, else one thread (a node's other cores
    // belong to other tasks).
    let jobs = args.jobs.map_or_else(
        || std::env::var("SLURM_CPUS_PER_TASK").ok().and_then(|v| v.parse().ok()).unwrap_or(1),
        |j| j as usize,
    );
    let report = run_array_task(&job, &plan, task, &SweepOptions { jobs, ..options.clone() })?;
    let mut err = std::io::stderr().lock();
    writeln!(
        err,
        "task {task}: points {}..{}: {} runs written, {} already present, {} did not go to their end",
        report.points.start,
        report.points.end,
        report.written,
        report.skipped,
        report.failed.len()
    )?;
    if let Some(e) = &report.write_error {
        anyhow::bail!("task {task} stopped: {e}");
    }
    if report.stopped {
        writeln!(err, "cancelled")?;
        return Ok(ExitCode::from(CANCELLED));
    }
    Ok(ExitCode::SUCCESS)
}

fn gather(args: &SweepArgs, dir: &Path) -> anyhow::Result<ExitCode> {
    let (job, plan) = open(dir)?;
    let collected = collect(&job, &plan)?;
    let text = collected.csv(&plan);
    match &args.csv {
        Some(path) => {
            write_atomic(path, text.as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    let mut err = std::io::stderr().lock();
    for (key, attempt) in &collected.failed {
        let record = collected.records.iter().find(|r| r.key == *key);
        let (word, first) =
            record.map_or(("failed", ""), |r| (r.status.word(), r.detail.lines().next().unwrap_or_default()));
        writeln!(err, "{key}: {word}: {first} ({attempt})")?;
    }
    for missing in &collected.missing {
        let problem = missing.problem.as_ref().map(|p| format!(": {p}")).unwrap_or_default();
        writeln!(err, "{}: missing{problem} ({})", missing.key, missing.attempt)?;
    }
    writeln!(
        err,
        "{} of {} runs collected ({} did not go to their end), {} missing",
        collected.records.len(),
        collected.planned,
        collected.failed.len(),
        collected.missing.len()
    )?;
    if args.store {
        let database =
            Database::open_default(args.data_dir.as_deref().or(job.manifest.settings.data_dir.as_deref()))?;
        let store = ExperimentStore::with_database(database)?;
        let stored = store_collected(&store, &job, &job.stamp()?, &plan, &collected)?;
        let how = if stored.filled_existing { "filled" } else { "stored as" };
        writeln!(err, "{how} experiment {}", stored.id)?;
    }
    if !collected.is_complete() {
        writeln!(err, "resubmit the missing runs with: hase sweep --resubmit {}", job.dir.display())?;
        return Ok(ExitCode::from(INCOMPLETE));
    }
    Ok(ExitCode::SUCCESS)
}

fn status(dir: &Path) -> anyhow::Result<ExitCode> {
    let (job, plan) = open(dir)?;
    let status = job_status(&job, &plan)?;
    let mut out = std::io::stdout().lock();
    let counts: Vec<String> = status.counts().iter().map(|(word, n)| format!("{n} {word}")).collect();
    writeln!(out, "{}: {} runs: {}", job.dir.display(), status.runs.len(), counts.join(", "))?;
    writeln!(out, "queue states from {}", status.source)?;
    for (key, state) in
        status.runs.iter().filter(|(_, s)| *s != hase_library::experiment::slurm::RunState::Done)
    {
        writeln!(out, "{key}: {}", state.word())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn resubmit(dir: &Path, dry_run: bool) -> anyhow::Result<ExitCode> {
    let (job, plan) = open(dir)?;
    let tasks = array_tasks_with_missing_runs(&job, &plan);
    let mut err = std::io::stderr().lock();
    if tasks.is_empty() {
        writeln!(err, "every run has its result; nothing to submit")?;
        return Ok(ExitCode::SUCCESS);
    }
    if dry_run {
        writeln!(err, "{}", submit_command(&job, Some(&tasks)).join(" "))?;
        return Ok(ExitCode::SUCCESS);
    }
    let submission = submit(&job, Some(&tasks))?;
    writeln!(err, "submitted job {} (array {})", submission.job_id, submission.array)?;
    Ok(ExitCode::SUCCESS)
}
