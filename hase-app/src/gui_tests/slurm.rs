//! Workflow tests of the experiments window's Slurm dialogs (egui_kittest, real widgets, a sled
//! store in a temporary directory). Run on Slurm… without `sbatch` on the search path writes the
//! job directory and shows the exact `sbatch` line; with an `sbatch` there (a two-line script
//! standing in for the cluster's: it prints a job id, as `sbatch --parsable` does) it submits and
//! shows the job id. The array tasks then really run — the `hase` binary of this build, `hase
//! sweep --run-task DIR` with `SLURM_ARRAY_TASK_ID` set and stderr in `logs/JOB_TASK.err`, as
//! Slurm runs them — and Collect results… brings them into the store, equal to a local sweep of
//! the same spec; with one result file gone, the missing run is named with its task and stderr
//! file. (The real single-node Slurm cluster is exercised by `tests/cli/slurm.rs`.)

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use hase_library::experiment::slurm::SlurmJob;

use super::experiments::{add_variable, app_in, open_from_menu, ready, type_into};
use super::wait_for;
use super::{harness_on, settle};
use crate::app::App;
use hase_editor::experiments::ExperimentsTab;
use hase_editor::experiments::slurm::SlurmOutcome;

/// The `hase` binary of this build (`target/<profile>/hase`, beside this test's `deps/`).
fn hase_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().and_then(Path::parent).unwrap().join("hase");
    assert!(path.is_file(), "{} is missing: build it first (cargo build -p hase-app)", path.display());
    path
}

/// A directory holding an `sbatch` that accepts any job as job `job_id`.
fn fake_sbatch(dir: &Path, job_id: u32) {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("sbatch");
    std::fs::write(&path, format!("#!/bin/sh\necho {job_id}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The app with its store, the experiments window open on a 6-point sweep (3 sizes × 2
/// algorithms), `sbatch` looked for in `search_path` only.
fn sweep_ready(data: &Path, search_path: &Path) -> Harness<'static, App> {
    let mut h = harness_on(app_in(data));
    ready(&mut h);
    open_from_menu(&mut h);
    add_variable(&mut h, "workload.message_bytes", "1K..4K *2");
    add_variable(&mut h, "algorithm", "ring, recursive_doubling");
    assert!(h.query_by_label("6 points × 1 repetition = 6 runs").is_some());
    let slurm = &mut h.state_mut().windows.experiments.slurm;
    slurm.search_path = Some(search_path.as_os_str().to_owned());
    slurm.hase_binary = Some(hase_binary());
    h
}

/// Fill Run on Slurm's dialog (2 points per task, at most 2 tasks at once, the tasks running
/// `binary`, or this build's hase when empty) and press its button.
fn run_on_slurm(h: &mut Harness<'_, App>, job_dir: &Path, button: &str, binary: &str) {
    h.get_by_label("Run on Slurm…").click();
    settle(h);
    type_into(h, "Job directory", &job_dir.display().to_string());
    type_into(h, "Partition", "short");
    type_into(h, "Time limit", "00:10:00");
    type_into(h, "Memory", "1G");
    type_into(h, "Points per task", "2");
    type_into(h, "Throttle", "2");
    type_into(h, "hase binary", binary);
    assert!(h.query_by_label("6 points, 6 runs in 3 array tasks").is_some());
    h.get_by_label(button).click();
    settle(h);
    wait_for(h, "the job directory", |a| !a.windows.experiments.slurm.busy());
    let slurm = &h.state().windows.experiments.slurm;
    assert!(slurm.error.is_none() && slurm.outcome.is_some(), "{slurm:?}");
}

/// Run every array task as Slurm would: `hase sweep --run-task DIR`, the task id in
/// `SLURM_ARRAY_TASK_ID`, stderr in `logs/JOB_TASK.err`.
fn run_tasks(job_dir: &Path, job_id: &str) {
    let job = SlurmJob::open(job_dir).unwrap();
    for task in 0..job.manifest.tasks {
        let stderr = std::fs::File::create(job.stderr_path(job_id, task)).unwrap();
        let status = std::process::Command::new(&job.manifest.settings.hase_binary)
            .args(["sweep", "--run-task"])
            .arg(&job.dir)
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .stderr(stderr)
            .status()
            .unwrap();
        assert!(status.success(), "task {task}: {status}");
    }
}

/// Collect results… from the Stored tab, typing the job directory.
fn collect(h: &mut Harness<'_, App>, job_dir: &Path) {
    h.get_by_label("Stored").click();
    settle(h);
    h.get_by_label("Collect results…").click();
    settle(h);
    type_into(h, "Job directory", &job_dir.display().to_string());
    h.get_by_label("Collect").click();
    settle(h);
    wait_for(h, "the collect", |a| !a.windows.experiments.slurm.busy());
}

#[test]
fn run_on_slurm_without_sbatch_writes_the_job_directory_and_shows_the_command() {
    let (data, no_sbatch, work) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut h = sweep_ready(data.path(), no_sbatch.path());
    let job_dir = work.path().join("job");
    run_on_slurm(&mut h, &job_dir, "Write job directory", "/shared/bin/hase-0.1");
    let script = std::fs::read_to_string(job_dir.join("job.sbatch")).unwrap();
    for line in
        ["#SBATCH --array=0-2%2", "#SBATCH --partition=short", "#SBATCH --time=00:10:00", "#SBATCH --mem=1G"]
    {
        assert!(script.contains(line), "{line} not in\n{script}");
    }
    assert!(script.contains("/shared/bin/hase-0.1 sweep --run-task"), "{script}");
    let job = SlurmJob::open(&job_dir).unwrap();
    assert_eq!((job.manifest.points, job.manifest.tasks), (6, 3));
    let command = format!("sbatch --parsable --array=0-2%2 {}/job.sbatch", job.dir.display());
    let outcome = h.state().windows.experiments.slurm.outcome.clone();
    assert_eq!(
        outcome,
        Some(SlurmOutcome::ShowCommand { dir: job.dir.clone(), command: command.clone(), tasks: 3 })
    );
    // The command is on screen, in a field it can be copied from, with a Copy button.
    assert!(h.query_all_by_value(&command).next().is_some(), "the command line is not shown");
    assert!(h.query_by_label("Copy").is_some());
    assert!(h.query_by_label("Run this on the cluster's login node:").is_some());
    // Nothing was submitted, and a second job cannot be written over the first.
    assert!(!job_dir.join("submissions.ron").exists());
    h.get_by_label("Write job directory").click();
    settle(&mut h);
    wait_for(&mut h, "the refusal", |a| !a.windows.experiments.slurm.busy());
    let error =
        h.state().windows.experiments.slurm.error.as_ref().map(ToString::to_string).unwrap_or_default();
    assert!(error.contains("not empty"), "{error}");
}

#[test]
fn submitted_tasks_run_with_run_task_are_collected_like_a_local_sweep() {
    let (data, bin, work) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    fake_sbatch(bin.path(), 4242);
    let mut h = sweep_ready(data.path(), bin.path());
    let job_dir = work.path().join("job");
    run_on_slurm(&mut h, &job_dir, "Write and submit", "");
    assert!(h.query_by_label("Submitted job 4242").is_some());
    run_tasks(&job_dir, "4242");
    collect(&mut h, &job_dir);
    let view = &h.state().windows.experiments;
    let Some(SlurmOutcome::Collected(report)) = view.slurm.outcome.clone() else {
        panic!("no collect report: {:?}", view.slurm)
    };
    assert_eq!((report.collected, report.planned, report.missing, report.failed), (6, 6, 0, 0));
    let id = report.stored.expect("stored");
    let store = view.store.clone().unwrap();
    let stored = store.runs(id).unwrap();
    assert_eq!(stored.len(), 6);
    assert!(store.info(id).unwrap().finished_at.is_some());
    assert_eq!(view.tab, ExperimentsTab::Results);
    assert_eq!(view.results.as_ref().map(|r| &r.records), Some(&stored));
    // The same spec run locally gives the same records.
    h.get_by_label("Build").click();
    settle(&mut h);
    h.get_by_label("Run sweep").click();
    settle(&mut h);
    wait_for(&mut h, "the local sweep", |a| a.windows.experiments.running.is_none());
    let local = h.state().windows.experiments.results.clone().unwrap();
    assert_ne!(local.id, Some(id));
    assert_eq!(local.records, stored);
    // The Stored list shows the collected experiment, finished with every run.
    h.get_by_label("Stored").click();
    settle(&mut h);
    assert!(h.query_all_by_label("6 / 6").count() >= 2);
}

#[test]
fn collect_names_the_missing_run_with_its_task_and_stderr_file() {
    let (data, bin, work) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    fake_sbatch(bin.path(), 77);
    let mut h = sweep_ready(data.path(), bin.path());
    let job_dir = work.path().join("job");
    run_on_slurm(&mut h, &job_dir, "Write and submit", "");
    run_tasks(&job_dir, "77");
    let job = SlurmJob::open(&job_dir).unwrap();
    // Point 3 is task 1's second point (2 points per task).
    let lost = hase_library::experiment::RunKey { point: 3, repetition: 0 };
    std::fs::remove_file(job.result_path(lost)).unwrap();
    collect(&mut h, &job_dir);
    let Some(SlurmOutcome::Collected(report)) = h.state().windows.experiments.slurm.outcome.clone() else {
        panic!("no collect report")
    };
    assert_eq!((report.collected, report.missing), (5, 1));
    let stderr = job.stderr_path("77", 1);
    let line = format!("{lost}: missing (job 77 task 1, stderr {})", stderr.display());
    assert_eq!(report.problems, std::slice::from_ref(&line));
    assert!(h.query_by_label(&line).is_some(), "the missing run is not named on screen");
    let resubmit = format!("sbatch --parsable --array=1%2 {}/job.sbatch", job.dir.display());
    assert_eq!(report.resubmit.as_deref(), Some(resubmit.as_str()));
    assert!(h.query_all_by_value(&resubmit).next().is_some());
    // The runs present are stored; the experiment waits for the missing one.
    let store = h.state().windows.experiments.store.clone().unwrap();
    let id = report.stored.unwrap();
    assert_eq!(store.runs(id).unwrap().len(), 5);
    assert!(store.info(id).unwrap().finished_at.is_none());
    // The lost run is run again; a second collect fills the same experiment and finishes it.
    run_tasks(&job_dir, "78");
    collect(&mut h, &job_dir);
    let Some(SlurmOutcome::Collected(again)) = h.state().windows.experiments.slurm.outcome.clone() else {
        panic!("no second collect report: {:?}", h.state().windows.experiments.slurm)
    };
    assert_eq!((again.collected, again.missing, again.stored), (6, 0, Some(id)));
    assert!(store.info(id).unwrap().finished_at.is_some());
}

#[test]
fn a_failed_submit_shows_the_sbatch_line_and_its_error_stays_in_the_dialog() {
    use std::os::unix::fs::PermissionsExt;
    let (data, bin, work) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // An sbatch with no controller to reach, as on a machine outside the cluster.
    let sbatch = bin.path().join("sbatch");
    std::fs::write(
        &sbatch,
        "#!/bin/sh\necho 'sbatch: error: Unable to contact slurm controller' >&2\nexit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&sbatch, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut h = sweep_ready(data.path(), bin.path());
    let job_dir = work.path().join("job");
    h.get_by_label("Run on Slurm…").click();
    settle(&mut h);
    type_into(&mut h, "Job directory", &job_dir.display().to_string());
    h.get_by_label("Write and submit").click();
    settle(&mut h);
    wait_for(&mut h, "the submit", |a| !a.windows.experiments.slurm.busy());
    let job = SlurmJob::open(&job_dir).unwrap();
    let command = format!("sbatch --parsable --array=0-5 {}/job.sbatch", job.dir.display());
    let error =
        h.state().windows.experiments.slurm.error.as_ref().map(ToString::to_string).unwrap_or_default();
    assert!(error.contains("submitting failed"), "{error}");
    // The line to run elsewhere is on screen, to copy.
    assert!(h.query_all_by_value(&command).next().is_some(), "{command} is not shown");
    assert!(h.query_by_label("Copy").is_some());
    // The window's own message is the Build tab's: another tab does not show it.
    let notice = h.state().windows.experiments.notice.clone().expect("said in the window");
    assert!(notice.error);
    h.get_by_label("Stored").click();
    settle(&mut h);
    assert!(h.state().windows.experiments.notice.is_none());
    assert!(h.state().editor.log.iter().any(|l| l.text.contains(&notice.text)), "the log keeps it");
}
