//! A job directory end to end without Slurm: prepare, run every array task in-process, collect
//! (byte-identical to a local sweep), lose a result and resume only its task.

use std::path::PathBuf;

use super::*;
use crate::examples;
use crate::experiment::{
    ExperimentPlan, ProjectSource, Quiet, RunKey, RunRecord, SpecOrigin, SweepOptions, SweepSpec,
    VariableSpec, csv_text, run_sweep,
};

/// 3 sizes × 2 algorithms, 2 repetitions: 6 points, 12 runs.
fn plan() -> ExperimentPlan {
    let mut spec = SweepSpec::new(ProjectSource::File("p.ron".into()));
    spec.variables = [("workload.message_bytes", "1K..4K *2"), ("algorithm", "ring,recursive_doubling")]
        .iter()
        .map(|(t, v)| VariableSpec { target: (*t).into(), values: (*v).into(), name: None })
        .collect();
    spec.repetitions = 2;
    let project = examples::fat_tree_allreduce().unwrap().project;
    ExperimentPlan::new(spec, project, PathBuf::from("."), &SpecOrigin::Code).unwrap()
}

fn settings(per_task: u64) -> SlurmSettings {
    let mut settings = SlurmSettings::new(PathBuf::from("/usr/local/bin/hase"));
    settings.points_per_task = per_task;
    settings
}

fn one_job() -> SweepOptions {
    SweepOptions { jobs: 1, ..SweepOptions::default() }
}

#[test]
fn prepared_directory_reopens_and_plans_the_same_experiment() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("job");
    let local = plan();
    let job = prepare(&local, &settings(4), &dir).unwrap();
    assert_eq!((job.manifest.points, job.manifest.repetitions, job.manifest.tasks), (6, 2, 2));
    for file in ["job.ron", "spec.ron", "project.ron", "job.sbatch", "results", "logs"] {
        assert!(dir.join(file).exists(), "{file}");
    }
    let script = std::fs::read_to_string(dir.join("job.sbatch")).unwrap();
    assert!(script.contains("#SBATCH --array=0-1\n"), "{script}");
    let reopened = SlurmJob::open(&dir).unwrap();
    assert_eq!(reopened.manifest, job.manifest);
    let again = reopened.plan().unwrap();
    assert_eq!(again.variable_names(), local.variable_names());
    assert_eq!(again.metric_names(), local.metric_names());
    assert_eq!(
        (0..6).map(|p| again.point_values(p)).collect::<Vec<_>>(),
        (0..6).map(|p| local.point_values(p)).collect::<Vec<_>>()
    );
    // A used directory is refused, and so are impossible settings.
    assert!(matches!(prepare(&local, &settings(4), &dir), Err(SlurmError::NotEmpty { .. })));
    let err = prepare(&local, &settings(0), &tmp.path().join("other")).unwrap_err().to_string();
    assert!(err.contains("--points-per-task"), "{err}");
    let err = SlurmJob::open(tmp.path()).unwrap_err().to_string();
    assert!(err.contains("not a hase Slurm job directory"), "{err}");
}

#[test]
fn tasks_write_one_file_per_run_collect_matches_a_local_sweep_and_a_lost_result_resumes_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let local = plan();
    let job = prepare(&local, &settings(2), &tmp.path().join("job")).unwrap();
    let plan = job.plan().unwrap();
    assert_eq!(job.manifest.tasks, 3);
    for task in 0..3 {
        let report = run_array_task(&job, &plan, task, &one_job()).unwrap();
        assert_eq!((report.written, report.skipped, report.points), (4, 0, task * 2..task * 2 + 2));
        assert!(!report.stopped && report.failed.is_empty());
    }
    // One whole file per run, nothing else (no temporary files of the atomic writes).
    let mut names: Vec<String> = std::fs::read_dir(job.results_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into())
        .collect();
    names.sort();
    assert_eq!(names.len(), 12);
    assert_eq!(names[0], "point-000000-rep-000.ron");
    assert_eq!(names[11], "point-000005-rep-001.ron");
    let collected = collect(&job, &plan).unwrap();
    assert!(collected.is_complete() && collected.failed.is_empty());
    let swept = run_sweep(&local, &SweepOptions { jobs: 2, ..SweepOptions::default() }, &Quiet).unwrap();
    let local_csv = csv_text(&local.variable_names(), &local.metric_names(), &swept.records);
    assert_eq!(collected.csv(&plan), local_csv);

    // Lose point 3 rep 1 (task 1), as if its task had been killed; Slurm ran it as job 57.
    let lost = RunKey { point: 3, repetition: 1 };
    std::fs::remove_file(job.result_path(lost)).unwrap();
    submissions::record_submission(&job, Submission { job_id: "57".into(), array: "0-2".into() }).unwrap();
    std::fs::write(job.stderr_path("57", 1), "slurmstepd: error: *** JOB 57 CANCELLED ***\n").unwrap();
    let partial = collect(&job, &plan).unwrap();
    assert_eq!(partial.records.len(), 11);
    assert_eq!(partial.missing.len(), 1);
    let missing = &partial.missing[0];
    assert_eq!((missing.key, missing.attempt.task, missing.attempt.job_id.as_deref()), (lost, 1, Some("57")));
    assert_eq!(missing.attempt.stderr.as_deref(), Some(job.stderr_path("57", 1).as_path()));
    assert!(missing.attempt.to_string().contains("job 57 task 1, stderr "), "{}", missing.attempt);
    assert_eq!(submit::array_tasks_with_missing_runs(&job, &plan), [1]);
    assert_eq!(submit_command(&job, Some(&[1]))[2], "--array=1");

    // A present file is kept as it is: the resumed task writes only the lost run.
    let kept = job.result_path(RunKey { point: 2, repetition: 0 });
    let mut marked = RunRecord::read_file(&kept).unwrap();
    marked.detail = "kept".into();
    marked.write_file(&kept).unwrap();
    let report = run_array_task(&job, &plan, 1, &one_job()).unwrap();
    assert_eq!((report.written, report.skipped), (1, 3));
    assert_eq!(RunRecord::read_file(&kept).unwrap().detail, "kept");
    marked.detail.clear();
    result_file::write_result(&kept, &job.stamp().unwrap(), &marked).unwrap();
    assert_eq!(collect(&job, &plan).unwrap().csv(&plan), local_csv);
    // A task beyond the array is refused.
    assert!(run_array_task(&job, &plan, 3, &one_job()).unwrap_err().to_string().contains("tasks 0 to 2"));
}

#[test]
fn status_from_files_when_nothing_was_submitted() {
    let tmp = tempfile::tempdir().unwrap();
    let job = prepare(&plan(), &settings(3), &tmp.path().join("job")).unwrap();
    let plan = job.plan().unwrap();
    run_array_task(&job, &plan, 0, &one_job()).unwrap();
    let status = job_status(&job, &plan).unwrap();
    assert!(status.source.starts_with("files"), "{}", status.source);
    let counts = status.counts();
    assert_eq!((counts["done"], counts["missing"]), (6, 6));
    assert_eq!(status.runs[6], (RunKey { point: 3, repetition: 0 }, RunState::Missing));
}

#[test]
fn a_fifo_where_a_result_belongs_is_named_with_why_by_status_and_collect() {
    let tmp = tempfile::tempdir().unwrap();
    let job = prepare(&plan(), &settings(3), &tmp.path().join("job")).unwrap();
    let plan = job.plan().unwrap();
    let key = RunKey { point: 3, repetition: 0 };
    let fifo = job.result_path(key);
    std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo {}", fifo.display());
    let status = job_status(&job, &plan).unwrap();
    assert_eq!(status.runs[6], (key, RunState::NotAFile("a FIFO")));
    assert_eq!(status.runs[6].1.word(), "missing (its result is a FIFO, not a regular file)");
    let collected = collect(&job, &plan).unwrap();
    let missing = collected.missing.iter().find(|m| m.key == key).unwrap();
    let problem = missing.problem.as_ref().map(ToString::to_string).unwrap_or_default();
    assert!(problem.ends_with("a FIFO, not a regular file"), "{problem}");
}

#[test]
fn submit_or_show_looks_for_sbatch_in_the_search_path_given() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let job = prepare(&plan(), &settings(4), &tmp.path().join("job")).unwrap();
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    assert_eq!(sbatch_in(empty.as_os_str()), None);
    let line = format!("sbatch --parsable --array=0-1 {}/job.sbatch", job.dir.display());
    assert_eq!(submit_or_show_in(&job, None, empty.as_os_str()).unwrap(), SubmitOutcome::ShowCommand(line));
    assert!(submissions::submissions(&job).unwrap().is_empty());
    // An sbatch that answers as `sbatch --parsable` does (job id; cluster name) is run and its
    // job id recorded.
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::fs::write(bin.join("sbatch"), "#!/bin/sh\necho '31;cluster'\n").unwrap();
    std::fs::set_permissions(bin.join("sbatch"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = std::env::join_paths([empty.clone(), bin.clone()]).unwrap();
    assert_eq!(sbatch_in(&path), Some(bin.join("sbatch")));
    let submitted = Submission { job_id: "31".into(), array: "0-1".into() };
    assert_eq!(submit_or_show_in(&job, None, &path).unwrap(), SubmitOutcome::Submitted(submitted.clone()));
    assert_eq!(submissions::submissions(&job).unwrap(), [submitted]);
}

/// Every run of a 3-task job written, then one file replaced by `damage`; what `--collect` says.
fn collect_with(damage: impl FnOnce(&SlurmJob, &std::path::Path)) -> Collected {
    let tmp = tempfile::tempdir().unwrap();
    let job = prepare(&plan(), &settings(2), &tmp.path().join("job")).unwrap();
    let plan = job.plan().unwrap();
    for task in 0..3 {
        run_array_task(&job, &plan, task, &one_job()).unwrap();
    }
    damage(&job, &job.result_path(RunKey { point: 1, repetition: 0 }));
    collect(&job, &plan).unwrap()
}

fn refusal(collected: &Collected) -> String {
    assert_eq!(collected.records.len(), 11, "the other runs are taken");
    let missing = &collected.missing[0];
    assert_eq!(missing.key, RunKey { point: 1, repetition: 0 });
    missing.problem.as_ref().map(ToString::to_string).unwrap_or_default()
}

#[test]
fn collect_refuses_foreign_edited_and_cut_result_files() {
    // A file copied from another job of the same shape (another seed, so another stamp).
    let copied = collect_with(|_, path| {
        let tmp = tempfile::tempdir().unwrap();
        let mut other_plan = plan().spec().clone();
        other_plan.seed = 99;
        let other_plan = ExperimentPlan::new(
            other_plan,
            examples::fat_tree_allreduce().unwrap().project,
            PathBuf::from("."),
            &SpecOrigin::Code,
        )
        .unwrap();
        let other = prepare(&other_plan, &settings(2), &tmp.path().join("other")).unwrap();
        run_array_task(&other, &other.plan().unwrap(), 0, &one_job()).unwrap();
        std::fs::copy(other.result_path(RunKey { point: 1, repetition: 0 }), path).unwrap();
    });
    assert!(refusal(&copied).ends_with("was not written by this job (no stamp, or another job's)"));
    // A file without the stamp line (written by hand, or by a hase that did not stamp).
    let unstamped = collect_with(|_, path| {
        let record = RunRecord::read_file(path).unwrap();
        record.write_file(path).unwrap();
    });
    assert!(refusal(&unstamped).contains("was not written by this job"));
    // The job's own stamp, but an edited seed, a cut metric list, another run's record.
    let edit = |change: fn(&mut RunRecord)| {
        collect_with(move |job, path| {
            let mut record = RunRecord::read_file(path).unwrap();
            change(&mut record);
            result_file::write_result(path, &job.stamp().unwrap(), &record).unwrap();
        })
    };
    assert!(refusal(&edit(|r| r.seed ^= 1)).ends_with("its seed is not what this job's plan makes"));
    assert!(
        refusal(&edit(|r| {
            r.metrics.pop();
        }))
        .ends_with("its number of metrics is not what this job's plan makes")
    );
    assert!(
        refusal(&edit(|r| r.values[0] = "9999".into()))
            .ends_with("its point's values is not what this job's plan makes")
    );
    assert!(refusal(&edit(|r| r.key.point = 2)).ends_with("holds the record of point 2 rep 0"));
}

#[test]
fn collect_store_twice_fills_one_experiment() {
    let tmp = tempfile::tempdir().unwrap();
    let job = prepare(&plan(), &settings(2), &tmp.path().join("job")).unwrap();
    let plan = job.plan().unwrap();
    let store = crate::store::ExperimentStore::open(&tmp.path().join("db")).unwrap();
    let stamp = job.stamp().unwrap();
    run_array_task(&job, &plan, 0, &one_job()).unwrap();
    let first = store_collected(&store, &job, &stamp, &plan, &collect(&job, &plan).unwrap()).unwrap();
    assert_eq!(first, StoredCollect { id: 1, filled_existing: false });
    for task in 1..3 {
        run_array_task(&job, &plan, task, &one_job()).unwrap();
    }
    let second = store_collected(&store, &job, &stamp, &plan, &collect(&job, &plan).unwrap()).unwrap();
    assert_eq!(second, StoredCollect { id: 1, filled_existing: true });
    assert_eq!(store.list().unwrap().len(), 1);
    assert_eq!(store.runs(1).unwrap().len(), 12);
    assert!(store.info(1).unwrap().finished_at.is_some());
}
