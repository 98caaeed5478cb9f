//! Crash-safety of stored sweeps. Like `crash_test.rs`, the test re-executes its own binary as a
//! sweeping process (the ignored test `experiment_sweep_child`, which does nothing unless the
//! environment selects it): it creates or resumes experiment 1 and runs it on two workers, logging
//! each run after the store committed it. The parent kills it with SIGKILL at a random moment,
//! reopens the database and checks:
//! - the store opens and [`ExperimentStore::verify`] passes;
//! - every run the child logged as committed is stored (a commit is durable);
//! - every stored run equals the same run made in the parent (nothing half-written or mixed up);
//!
//! and at the end, that resuming in-process completes the experiment with the CSV of a sweep that
//! was never interrupted. Set `HASE_CRASH_SEED` to replay the kill timings of a failed run.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::ExperimentStore;
use crate::examples;
use crate::experiment::{
    ExperimentPlan, ProjectSource, Quiet, RunKey, RunRecord, SpecOrigin, SweepObserver, SweepOptions,
    SweepSpec, VariableSpec, csv_text, run_stored, run_sweep,
};

const DIR_ENV: &str = "HASE_SWEEP_CRASH_DIR";
const SEED_ENV: &str = "HASE_CRASH_SEED";
const ROUNDS: u32 = 8;

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

/// Logs each committed run as `E point rep`.
struct Log(Mutex<File>);

impl SweepObserver for Log {
    fn finished(&self, record: &RunRecord) -> Result<(), String> {
        let line = format!("E {} {}\n", record.key.point, record.key.repetition);
        self.0.lock().unwrap().write_all(line.as_bytes()).map_err(|e| e.to_string())
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
    run_stored(&store, id, &plan, &SweepOptions { jobs: 2, ..SweepOptions::default() }, &log).unwrap();
}

/// Kills and reaps the child however the test ends.
struct Sweeper(Child);

impl Drop for Sweeper {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn stored_sweeps_survive_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let seed: u64 = std::env::var(SEED_ENV).ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
    });
    eprintln!("sweep crash test seed {seed} (replay with {SEED_ENV}={seed})");
    let plan = plan();
    let reference = run_sweep(&plan, &SweepOptions { jobs: 2, ..SweepOptions::default() }, &Quiet).unwrap();
    let child_test = format!("{}::experiment_sweep_child", module_path!().split_once("::").unwrap().1);
    let mut state = seed;
    let mut stored_before = 0;
    for round in 0..ROUNDS {
        let stderr_path = dir.path().join(format!("stderr-{round}"));
        let child = Command::new(std::env::current_exe().unwrap())
            .args([child_test.as_str(), "--exact", "--ignored", "--test-threads=1"])
            .env(DIR_ENV, dir.path())
            .stdout(Stdio::null())
            .stderr(File::create(&stderr_path).unwrap())
            .spawn()
            .unwrap();
        let mut sweeper = Sweeper(child);
        let log_path = dir.path().join("log");
        let logged = || std::fs::read_to_string(&log_path).unwrap_or_default().lines().count();
        let before = logged();
        let waited = Instant::now();
        while logged() == before {
            let exited = sweeper.0.try_wait().unwrap();
            assert!(
                exited.is_none() && waited.elapsed() < Duration::from_secs(30),
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
        }

        let store = ExperimentStore::open(&dir.path().join("data"))
            .unwrap_or_else(|e| panic!("round {round}: the store does not reopen after the kill: {e}"));
        store.verify().unwrap_or_else(|e| panic!("round {round}: verify failed: {e}"));
        let runs = store.runs(1).unwrap();
        let log = std::fs::read_to_string(&log_path).unwrap();
        for line in log.lines() {
            let [_, point, repetition] = line.split(' ').collect::<Vec<_>>()[..] else { panic!("{line}") };
            let key = RunKey { point: point.parse().unwrap(), repetition: repetition.parse().unwrap() };
            assert!(runs.iter().any(|r| r.key == key), "round {round}: committed {key} is lost");
        }
        for run in &runs {
            let want = reference.records.iter().find(|r| r.key == run.key).unwrap();
            assert_eq!(run, want, "round {round}: stored {} differs from the same run made here", run.key);
        }
        assert!(
            runs.len() >= stored_before,
            "round {round}: stored runs went from {stored_before} to {}",
            runs.len()
        );
        stored_before = runs.len();
        if finished {
            break; // it finished before the kill: nothing left to interrupt
        }
    }
    let store = ExperimentStore::open(&dir.path().join("data")).unwrap();
    let report =
        run_stored(&store, 1, &plan, &SweepOptions { jobs: 2, ..SweepOptions::default() }, &Quiet).unwrap();
    eprintln!(
        "sweep crash test: {stored_before} runs stored over the kills, {} made on resume",
        report.records.len()
    );
    assert_eq!(report.skipped as usize, stored_before);
    assert!(stored_before > 0 && report.records.len() + stored_before == reference.records.len());
    let resumed = csv_text(&plan.variable_names(), &plan.metric_names(), &store.runs(1).unwrap());
    assert_eq!(resumed, csv_text(&plan.variable_names(), &plan.metric_names(), &reference.records));
    assert!(store.info(1).unwrap().finished_at.is_some());
}
