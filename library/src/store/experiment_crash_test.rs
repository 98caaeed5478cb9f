//! Crash-safety of stored sweeps. Like `crash_test.rs`, the test re-executes its own binary as a
//! sweeping process (the ignored test `experiment_sweep_child`, which does nothing unless the
//! environment selects it): it creates or resumes experiment 1 and runs it on two workers, logging
//! each run after the store committed it. The parent kills it with SIGKILL at a random moment,
//! reopens the database and checks:
//! - the store opens and [`ExperimentStore::verify`] passes;
//! - every run the child logged as committed is stored (a commit is durable: 0 lost acknowledged
//!   runs), and at most the runs in flight (one per worker) are stored but not yet logged;
//! - every stored run equals the same run made in the parent (nothing half-written or mixed up);
//!
//! and whenever a sweep is complete (or at the end), that resuming in-process runs only the missing
//! runs and gives the CSV of a sweep that was never interrupted. A sweep that completes between
//! kills starts a fresh campaign (a new database), so any number of kills can be made.
//! Set `HASE_CRASH_SEED` to replay the kill timings of a failed run and `HASE_CRASH_ROUNDS` to kill
//! more often than the default 8 times (`scripts/kill-test 1000` runs this test too).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::ExperimentStore;
use crate::examples;
use crate::experiment::{
    ExperimentPlan, ObserverError, ProjectSource, Quiet, RunKey, RunRecord, SpecOrigin, SweepObserver,
    SweepOptions, SweepReport, SweepSpec, VariableSpec, csv_text, run_stored, run_sweep,
};

const DIR_ENV: &str = "HASE_SWEEP_CRASH_DIR";
const SEED_ENV: &str = "HASE_CRASH_SEED";
const ROUNDS_ENV: &str = "HASE_CRASH_ROUNDS";
const DEFAULT_ROUNDS: u32 = 8;
/// Workers of the killed sweep (so at most this many runs are in flight at a kill).
const JOBS: usize = 2;

fn plan() -> ExperimentPlan {
    let mut spec = SweepSpec::new(ProjectSource::File("fat_tree_allreduce.ron".into()));
    spec.variables = vec![
        VariableSpec { target: "workload.message_bytes".into(), values: "1K..128K +1K".into(), name: None },
        VariableSpec { target: "algorithm".into(), values: "ring, recursive_doubling".into(), name: None },
    ];
    spec.metrics = vec!["makespan_ps".into(), "events".into(), "link_bytes".into()];
    ExperimentPlan::new(
        spec,
        examples::fat_tree_allreduce().unwrap().project,
        PathBuf::from("."),
        &SpecOrigin::Code,
    )
    .unwrap()
}

fn options() -> SweepOptions {
    SweepOptions { jobs: JOBS, ..SweepOptions::default() }
}

/// Logs each committed run as `E point rep`.
struct Log(Mutex<File>);

impl SweepObserver for Log {
    fn finished(&self, record: &RunRecord) -> Result<(), ObserverError> {
        let line = format!("E {} {}\n", record.key.point, record.key.repetition);
        Ok(self.0.lock().unwrap().write_all(line.as_bytes())?)
    }
}

#[test]
#[ignore = "sweeping process of stored_sweeps_survive_sigkill; does nothing unless started by it"]
fn experiment_sweep_child() {
    let Some(dir) = std::env::var_os(DIR_ENV) else { return };
    let dir = Path::new(&dir);
    let store = ExperimentStore::open(&dir.join("data")).unwrap();
    let plan = plan();
    let id = match store.list().unwrap().first() {
        Some(summary) => summary.id,
        None => store.create(&plan, "crash test").unwrap(),
    };
    let log = Log(Mutex::new(OpenOptions::new().create(true).append(true).open(dir.join("log")).unwrap()));
    run_stored(&store, id, &plan, &options(), &log).unwrap();
}

/// Kills and reaps the child however the test ends.
struct Sweeper(Child);

impl Drop for Sweeper {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// What the kills checked, for the report.
#[derive(Debug, Default)]
struct Tally {
    kills: u32,
    campaigns: u32,
    acknowledged_runs_checked: usize,
    stored_not_yet_acknowledged: usize,
    /// Runs of the current campaign committed but never logged (their sweeper was killed between).
    campaign_unacknowledged: usize,
    resumed_runs: usize,
}

#[test]
fn stored_sweeps_survive_sigkill() {
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let seed: u64 = std::env::var(SEED_ENV).ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
    });
    eprintln!("sweep crash test seed {seed} (replay with {SEED_ENV}={seed})");
    let rounds: u32 = std::env::var(ROUNDS_ENV).ok().and_then(|s| s.parse().ok()).unwrap_or(DEFAULT_ROUNDS);
    let plan = plan();
    let reference = run_sweep(&plan, &options(), &Quiet).unwrap();
    let child_test = format!("{}::experiment_sweep_child", module_path!().split_once("::").unwrap().1);
    let mut state = seed;
    let mut tally = Tally::default();
    let mut campaign = dir.path().join("campaign-0");
    let mut stored_before = 0;
    for round in 0..rounds {
        if stored_before == reference.records.len() {
            // Killed after its last commit: complete, nothing left to interrupt.
            finish_campaign(&campaign, &plan, &reference, stored_before, &mut tally);
            campaign = dir.path().join(format!("campaign-{}", tally.campaigns));
            stored_before = 0;
        }
        std::fs::create_dir_all(&campaign).unwrap();
        let stderr_path = dir.path().join(format!("stderr-{round}"));
        let child = Command::new(std::env::current_exe().unwrap())
            .args([child_test.as_str(), "--exact", "--ignored", "--test-threads=1"])
            .env(DIR_ENV, &campaign)
            .stdout(Stdio::null())
            .stderr(File::create(&stderr_path).unwrap())
            .spawn()
            .unwrap();
        let mut sweeper = Sweeper(child);
        let log_path = campaign.join("log");
        let logged = || std::fs::read_to_string(&log_path).unwrap_or_default().lines().count();
        let before = logged();
        let waited = Instant::now();
        while logged() == before {
            let exited = sweeper.0.try_wait().unwrap();
            assert!(
                exited.is_none() && waited.elapsed() < Duration::from_mins(1),
                "round {round}: the sweep ended or never committed a run:\n{}",
                std::fs::read_to_string(&stderr_path).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        state = crate::experiment::seeds::mix(state);
        std::thread::sleep(Duration::from_millis(state % 150));
        let finished = sweeper.0.try_wait().unwrap().is_some();
        if !finished {
            sweeper.0.kill().unwrap();
            sweeper.0.wait().unwrap();
            tally.kills += 1;
        }
        stored_before = check_after_kill(&campaign, round, &reference, stored_before, &mut tally);
        if finished {
            // The sweep completed before the kill: check the campaign, start a fresh one.
            finish_campaign(&campaign, &plan, &reference, stored_before, &mut tally);
            campaign = dir.path().join(format!("campaign-{}", tally.campaigns));
            stored_before = 0;
        }
    }
    if stored_before > 0 {
        finish_campaign(&campaign, &plan, &reference, stored_before, &mut tally);
    }
    eprintln!("sweep crash test: {rounds} rounds in {:.1} s, {tally:?}", started.elapsed().as_secs_f64());
    eprintln!(
        "sweep crash test: {} kills, {} acknowledged runs checked after kills, 0 lost",
        tally.kills, tally.acknowledged_runs_checked
    );
    assert!(tally.campaigns >= 1 && tally.kills >= 1, "{tally:?}");
}

/// Reopen the campaign's store after a kill and check it; returns the number of stored runs.
fn check_after_kill(
    campaign: &Path,
    round: u32,
    reference: &SweepReport,
    stored_before: usize,
    tally: &mut Tally,
) -> usize {
    let store = ExperimentStore::open(&campaign.join("data"))
        .unwrap_or_else(|e| panic!("round {round}: the store does not reopen after the kill: {e}"));
    store.verify().unwrap_or_else(|e| panic!("round {round}: verify failed: {e}"));
    let runs = store.runs(1).unwrap();
    let log = std::fs::read_to_string(campaign.join("log")).unwrap();
    for line in log.lines() {
        let [_, point, repetition] = line.split(' ').collect::<Vec<_>>()[..] else { panic!("{line}") };
        let key = RunKey { point: point.parse().unwrap(), repetition: repetition.parse().unwrap() };
        assert!(runs.iter().any(|r| r.key == key), "round {round}: committed {key} is lost");
        tally.acknowledged_runs_checked += 1;
    }
    // Each kill leaves at most one run per worker committed but not yet logged.
    let unacknowledged = runs.len() - log.lines().count();
    let new = unacknowledged - tally.campaign_unacknowledged;
    assert!(new <= JOBS, "round {round}: {new} more runs stored but never logged");
    tally.stored_not_yet_acknowledged += new;
    tally.campaign_unacknowledged = unacknowledged;
    for run in &runs {
        let want = reference.records.iter().find(|r| r.key == run.key).unwrap();
        assert_eq!(run, want, "round {round}: stored {} differs from the same run made here", run.key);
    }
    assert!(
        runs.len() >= stored_before,
        "round {round}: stored runs went from {stored_before} to {}",
        runs.len()
    );
    runs.len()
}

/// Resume the campaign's experiment in-process: only the missing runs are made, and the CSV is that
/// of the uninterrupted sweep.
fn finish_campaign(
    campaign: &Path,
    plan: &ExperimentPlan,
    reference: &SweepReport,
    stored_before: usize,
    tally: &mut Tally,
) {
    let store = ExperimentStore::open(&campaign.join("data")).unwrap();
    let report = run_stored(&store, 1, plan, &options(), &Quiet).unwrap();
    assert_eq!(report.skipped as usize, stored_before);
    assert_eq!(report.records.len() + stored_before, reference.records.len());
    let resumed = csv_text(&plan.variable_names(), &plan.metric_names(), &store.runs(1).unwrap());
    assert_eq!(resumed, csv_text(&plan.variable_names(), &plan.metric_names(), &reference.records));
    assert!(store.info(1).unwrap().finished_at.is_some());
    tally.resumed_runs += report.records.len();
    tally.campaigns += 1;
    tally.campaign_unacknowledged = 0;
}
