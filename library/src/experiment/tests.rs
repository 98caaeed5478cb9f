//! Sweeps as a whole: plans from specs with errors naming the line, parallel runs identical to
//! serial ones, isolation of failing and deadlocking points, cancel and resume, single runs that
//! reproduce a sweep's, the stored sweep and the shipped example.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use hase_engine::model::{Project, StreamSource, Workload};
use hase_templates::{ProjectForm, TemplateSpec, Topology, template_project};

use super::*;
use crate::catalogue::registry_for;
use crate::examples;
use crate::runner::{RunOptions, run_project};
use crate::store::ExperimentStore;

fn spec(variables: &[(&str, &str)]) -> SweepSpec {
    let mut spec = SweepSpec::new(ProjectSource::File("p.ron".into()));
    spec.variables = variables
        .iter()
        .map(|(t, v)| VariableSpec { target: (*t).into(), values: (*v).into(), name: None })
        .collect();
    spec
}

fn plan(project: Project, spec: SweepSpec) -> ExperimentPlan {
    ExperimentPlan::new(spec, project, PathBuf::from("."), &SpecOrigin::Code).unwrap()
}

/// A small allreduce sweep: 3 sizes × 2 algorithms on the 8-processor fat tree, 2 repetitions.
fn allreduce_plan() -> ExperimentPlan {
    let mut s = spec(&[("workload.message_bytes", "1K..4K *2"), ("algorithm", "ring,recursive_doubling")]);
    s.repetitions = 2;
    s.metrics = vec!["makespan_ps".into(), "link_bytes".into(), "utilisation:p0".into()];
    plan(examples::fat_tree_allreduce().unwrap().project, s)
}

fn options(jobs: usize) -> SweepOptions {
    SweepOptions { jobs, ..SweepOptions::default() }
}

fn csv_of(plan: &ExperimentPlan, records: &[RunRecord]) -> String {
    csv_text(&plan.variable_names(), &plan.metric_names(), records)
}

#[test]
fn one_and_two_jobs_give_byte_identical_results() {
    let plan = allreduce_plan();
    assert_eq!((plan.point_count(), plan.run_count()), (6, 12));
    let serial = run_sweep(&plan, &options(1), &Quiet).unwrap();
    let parallel = run_sweep(&plan, &options(2), &Quiet).unwrap();
    assert!(!serial.stopped && !parallel.stopped);
    assert_eq!(serial.records.len(), 12);
    assert!(serial.records.iter().all(|r| r.status == RunStatus::Completed));
    assert_eq!(csv_of(&plan, &serial.records), csv_of(&plan, &parallel.records));
    // Bigger messages take longer, for either algorithm.
    let makespan = |r: &RunRecord| r.metrics[0].unwrap().as_f64();
    let ring: Vec<f64> = serial
        .records
        .iter()
        .filter(|r| r.values[1] == "ring" && r.key.repetition == 0)
        .map(makespan)
        .collect();
    assert!(ring.windows(2).all(|w| w[0] < w[1]), "{ring:?}");
}

#[test]
fn a_single_run_reproduces_the_sweep_and_hase_run() {
    let plan = allreduce_plan();
    let sweep = run_sweep(&plan, &options(2), &Quiet).unwrap();
    let key = RunKey { point: 3, repetition: 1 };
    let alone = plan.run_one(key, &RunOneOptions::default(), &mut |_| {}).unwrap();
    assert_eq!(sweep.records.iter().find(|r| r.key == key), Some(&alone));
    assert_eq!(alone.seed, run_seed(1, 3, 1));
    // The same run by hand: the point's values as --set overrides and the run's seed.
    let mut project = examples::fat_tree_allreduce().unwrap().project;
    crate::overrides::apply_set(&mut project, &format!("workload.message_bytes={}", alone.values[0]))
        .unwrap();
    crate::overrides::apply_set(&mut project, &format!("workload.algorithm={}", alone.values[1])).unwrap();
    let by_hand =
        run_project(&project, &RunOptions { seed: Some(alone.seed), ..RunOptions::default() }, |_| {})
            .unwrap();
    assert_eq!(alone.metrics[0], Some(MetricValue::Int(by_hand.stats.makespan_ps)));
}

/// A ring of 4 routers where every rank sends 64 KiB two hops the same way round: with one-packet
/// buffers the routers jam (see tests/e2e/failures.rs); unbounded buffers complete. A root that is
/// not a rank fails to build. Each point is recorded as what it was; the others complete.
#[test]
fn deadlocking_and_failing_points_are_recorded_and_the_rest_complete() {
    let registry = registry_for(&Project::new("jam"));
    let mut project = template_project(
        &TemplateSpec::new(Topology::Ring { nodes: 4 }),
        &registry,
        "jam",
        &ProjectForm::Flat,
    )
    .unwrap();
    project.workload = Workload::Streams {
        streams: (0..4)
            .map(|r| (r, StreamSource::Inline(format!("SEND {} 64K\nRECV ANY", (r + 2) % 4))))
            .collect(),
    };
    // Every message eager, so that only the buffers can block.
    crate::overrides::apply_set(&mut project, "type:Processor.eager_limit=1M").unwrap();
    let plan = plan(project, spec(&[("type:Router.buffer_packets", "0, 1, 8")]));
    let report = run_sweep(&plan, &options(2), &Quiet).unwrap();
    let status: Vec<RunStatus> = report.records.iter().map(|r| r.status).collect();
    assert_eq!(status[0], RunStatus::Completed);
    assert_eq!(status[1], RunStatus::Deadlock);
    assert!(report.records[1].detail.contains("no credit from downstream"), "{}", report.records[1].detail);
    assert_eq!(report.records.len(), 3, "every point ran");

    let mut failing = spec(&[("workload.root", "0, 12")]);
    failing.metrics = vec!["makespan_ps".into()];
    let mut bcast = examples::fat_tree_allreduce().unwrap().project;
    crate::overrides::apply_set(&mut bcast, "workload.operation=bcast").unwrap();
    crate::overrides::apply_set(&mut bcast, "workload.algorithm=binomial").unwrap();
    let report = run_sweep(&plan_with(bcast, failing), &options(1), &Quiet).unwrap();
    assert_eq!(report.records[0].status, RunStatus::Completed, "{}", report.records[0].detail);
    assert_eq!(report.records[1].status, RunStatus::Failed);
    assert!(report.records[1].detail.contains("root 12"), "{}", report.records[1].detail);
    assert_eq!(report.records[1].metrics, [None]);
}

fn plan_with(project: Project, spec: SweepSpec) -> ExperimentPlan {
    plan(project, spec)
}

/// Stops the sweep after `limit` runs finished.
struct StopAfter {
    limit: usize,
    done: AtomicUsize,
    cancel: Arc<AtomicBool>,
    seen: Mutex<Vec<RunKey>>,
}

impl SweepObserver for StopAfter {
    fn finished(&self, record: &RunRecord) -> Result<(), ObserverError> {
        self.seen.lock().unwrap().push(record.key);
        if self.done.fetch_add(1, Ordering::SeqCst) + 1 >= self.limit {
            self.cancel.store(true, Ordering::SeqCst);
        }
        Ok(())
    }
}

#[test]
fn a_cancelled_sweep_resumes_with_only_the_missing_runs() {
    let plan = allreduce_plan();
    let full = run_sweep(&plan, &options(1), &Quiet).unwrap();
    let first = options(2);
    let stop = StopAfter {
        limit: 3,
        done: AtomicUsize::new(0),
        cancel: first.cancel.clone(),
        seen: Mutex::new(Vec::new()),
    };
    let part = run_sweep(&plan, &first, &stop).unwrap();
    assert!(part.stopped, "cancelled before the end");
    assert!((3..12).contains(&part.records.len()), "{} runs", part.records.len());
    let done: BTreeSet<RunKey> = part.records.iter().map(|r| r.key).collect();
    let rest = run_sweep(&plan, &SweepOptions { skip: done.clone(), ..options(2) }, &Quiet).unwrap();
    assert_eq!(rest.skipped as usize, done.len());
    assert!(rest.records.iter().all(|r| !done.contains(&r.key)), "only missing runs ran");
    let mut all = part.records;
    all.extend(rest.records);
    assert_eq!(csv_of(&plan, &all), csv_of(&plan, &full.records));
}

#[test]
fn a_stored_sweep_commits_every_run_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let store = ExperimentStore::open(dir.path()).unwrap();
    let mut s = spec(&[("workload.message_bytes", "1K,2K,4K")]);
    s.traces = Some(2);
    let plan = plan(examples::fat_tree_allreduce().unwrap().project, s);
    let id = store.create(&plan, "test").unwrap();
    let first = options(1);
    let stop = StopAfter {
        limit: 1,
        done: AtomicUsize::new(0),
        cancel: first.cancel.clone(),
        seen: Mutex::new(Vec::new()),
    };
    let report = run_stored(&store, id, &plan, &first, &stop).unwrap();
    assert!(report.stopped);
    assert_eq!(store.stored_keys(id).unwrap().len(), 1);
    assert!(store.info(id).unwrap().finished_at.is_none());
    let report = run_stored(&store, id, &plan, &options(2), &Quiet).unwrap();
    assert_eq!((report.skipped, report.records.len()), (1, 2));
    let info = store.info(id).unwrap();
    assert!(info.finished_at.is_some(), "every run stored: finished");
    let runs = store.runs(id).unwrap();
    assert_eq!(runs.len(), 3);
    for run in &runs {
        let trace = run.trace.as_ref().unwrap();
        assert!(trace.starts_with(&store.trace_dir(id).display().to_string()), "{trace}");
        let text = std::fs::read_to_string(trace).unwrap();
        assert!(text.contains("ALLREDUCE"), "the trace of {} holds the run", run.key);
    }
    // The stored experiment plans again to the same runs (a resume needs nothing else).
    let again = plan_stored(&store, id).unwrap();
    assert_eq!(again.run_count(), 3);
    assert_eq!(again.point_values(2), ["4096"]);
}

#[test]
fn spec_errors_name_the_line_at_fault() {
    let text = "(\n  schema_version: 1,\n  project: File(\"x.ron\"),\n  variables: [\n    (target: \"workload.message_bytes\", values: \"1K..4K *2\"),\n    (target: \"workload.nonsense\", values: \"1\"),\n  ],\n)";
    let origin = SpecOrigin::File { path: "s.ron".into(), text: text.into() };
    let project = examples::fat_tree_allreduce().unwrap().project;
    let err =
        ExperimentPlan::new(spec_from_ron(text, "s.ron").unwrap(), project.clone(), ".".into(), &origin)
            .unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("s.ron:6:14: workload.nonsense:") && msg.contains("has no parameter"), "{msg}");
    let text = text.replace("nonsense\", values: \"1\"", "algorithm\", values: \"ring\"").replace(
        "  ],\n)",
        "  ],\n  constraint: \"bytes > 1\",\n  metrics: [\"events\", \"utilisation:p77\"],\n)",
    );
    let origin = SpecOrigin::File { path: "s.ron".into(), text: text.clone() };
    let err =
        ExperimentPlan::new(spec_from_ron(&text, "s.ron").unwrap(), project.clone(), ".".into(), &origin)
            .unwrap_err();
    assert!(err.to_string().starts_with("s.ron:8:3: `bytes > 1`: `bytes` is not a variable"), "{err}");
    let text = text.replace("  constraint: \"bytes > 1\",\n", "");
    let origin = SpecOrigin::File { path: "s.ron".into(), text: text.clone() };
    let err = ExperimentPlan::new(spec_from_ron(&text, "s.ron").unwrap(), project, ".".into(), &origin)
        .unwrap_err();
    assert!(err.to_string().starts_with("s.ron:8:23: `utilisation:p77`"), "{err}");
}

#[test]
fn the_shipped_example_plans_its_points() {
    let plan = example::example_plan().unwrap();
    assert_eq!(
        plan.variable_names(),
        ["network", "workload.algorithm", "bytes"]
            .map(String::from)
            .to_vec()
            .iter()
            .map(|s| if s == "workload.algorithm" { "algorithm".to_string() } else { s.clone() })
            .collect::<Vec<_>>()
    );
    assert_eq!(plan.point_count(), 2 * 4 * 6);
    assert_eq!(plan.point_values(47), ["binary_tree:8", "rabenseifner", "1048576"]);
    let binary = plan.project_for(47).unwrap();
    assert_eq!(binary.generator.as_ref().unwrap().template, "binary_tree");
    // The first and last points run (the biggest message on the contended binary tree).
    for point in [0, 47] {
        let record =
            plan.run_one(RunKey { point, repetition: 0 }, &RunOneOptions::default(), &mut |_| {}).unwrap();
        assert_eq!(record.status, RunStatus::Completed, "{}", record.detail);
    }
}

/// What a GUI worker does: start a sweep in the background, read its events, stop it.
#[test]
fn a_background_sweep_reports_each_run_and_can_be_cancelled() {
    let plan = Arc::new(allreduce_plan());
    let task = spawn_sweep(plan.clone(), options(2), Box::new(Quiet)).unwrap();
    let (mut started, mut finished) = (BTreeSet::new(), Vec::new());
    let report = loop {
        match task.events.recv().unwrap() {
            SweepEvent::Started(key) => assert!(started.insert(key), "{key} started twice"),
            SweepEvent::Progress(key, _) => assert!(started.contains(&key)),
            SweepEvent::Finished(record) => finished.push(*record),
            SweepEvent::Done(report) => break report.unwrap(),
        }
    };
    task.thread.join().unwrap();
    assert_eq!((started.len(), finished.len(), report.records.len()), (12, 12, 12));
    finished.sort_by_key(|r| r.key);
    assert_eq!(finished, report.records);

    let task = spawn_sweep(plan, options(1), Box::new(Quiet)).unwrap();
    task.cancel.store(true, Ordering::SeqCst);
    let report = loop {
        if let SweepEvent::Done(report) = task.events.recv().unwrap() {
            break report.unwrap();
        }
    };
    assert!(report.stopped && report.records.len() < 12, "{} runs after cancel", report.records.len());
}

#[test]
fn repetitions_are_bounded_with_the_points_before_anything_is_sized() {
    let project = examples::fat_tree_allreduce().unwrap().project;
    let mut s = spec(&[("workload.message_bytes", "1K..4K *2")]);
    s.repetitions = 100_000_000;
    let err =
        ExperimentPlan::new(s.clone(), project.clone(), PathBuf::from("."), &SpecOrigin::Code).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("3 points × 100000000 repetitions is 300000000 runs"), "{text}");
    assert!(text.contains("limit of 10000000"), "{text}");
    s.repetitions = u32::MAX;
    assert!(ExperimentPlan::new(s.clone(), project.clone(), PathBuf::from("."), &SpecOrigin::Code).is_err());
    s.repetitions = 3_000_000;
    let plan = ExperimentPlan::new(s, project, PathBuf::from("."), &SpecOrigin::Code).unwrap();
    assert_eq!(plan.run_count(), 9_000_000);
}

#[test]
fn what_a_failed_run_read_from_a_file_is_in_no_detail_and_no_export() {
    let dir = tempfile::tempdir().unwrap();
    let secret = "HASE_TEST_SECRET=hunter2-7f3a";
    std::fs::write(dir.path().join("stream.txt"), format!("{secret}\nSEND 1 8\n")).unwrap();
    std::fs::write(dir.path().join("trace.ti"), format!("{secret} init\n0 send 1 8\n")).unwrap();
    let mut failed = Vec::new();
    for workload in [
        Workload::Streams { streams: (0..8).map(|r| (r, StreamSource::File("stream.txt".into()))).collect() },
        Workload::TimeIndependentTrace { path: "trace.ti".into() },
    ] {
        let mut project = examples::fat_tree_allreduce().unwrap().project;
        project.workload = workload;
        let plan = ExperimentPlan::new(
            spec(&[("type:Router.buffer_packets", "1, 8")]),
            project,
            dir.path().to_path_buf(),
            &SpecOrigin::Code,
        )
        .unwrap();
        let store = ExperimentStore::open(&dir.path().join("data")).unwrap();
        let id = store.create(&plan, "secret").unwrap();
        let report = run_stored(&store, id, &plan, &options(1), &Quiet).unwrap();
        assert_eq!(report.records.len(), 2);
        for record in store.runs(id).unwrap() {
            assert_eq!(record.status, RunStatus::Failed, "{}", record.detail);
            assert!(!record.detail.is_empty(), "a failed run says why");
            assert!(!record.detail.contains("hunter2"), "the secret is kept: {}", record.detail);
            failed.push(record.detail);
        }
        let export = dir.path().join(format!("export{id}.ron"));
        store.export_ron(id, &export).unwrap();
        let exported = std::fs::read_to_string(&export).unwrap();
        assert!(!exported.contains("hunter2"), "the secret is exported");
        drop(store);
    }
    // The reason still names the file and line.
    assert!(failed.iter().all(|d| d.contains(":1")), "{failed:?}");
}

/// A deterministic workload gives its repetitions one makespan; with the ties shuffled each
/// repetition takes its own order, and the 3D torus halo's makespans spread. A run alone with the
/// repetition's seed as tie seed reproduces it.
#[test]
fn shuffled_ties_make_the_repetitions_of_a_deterministic_point_differ() {
    let project = examples::torus3d_halo().unwrap().project;
    let makespans = |shuffle: bool| -> Vec<u64> {
        let mut s = spec(&[]);
        s.repetitions = 4;
        s.shuffle_ties = shuffle;
        s.metrics = vec!["makespan_ps".into()];
        let sweep = run_sweep(&plan(project.clone(), s), &options(2), &Quiet).unwrap();
        let mut records = sweep.records;
        records.sort_by_key(|r| r.key.repetition);
        records.iter().map(|r| r.metrics[0].unwrap().as_f64() as u64).collect()
    };
    let scheduled = makespans(false);
    assert!(scheduled.windows(2).all(|w| w[0] == w[1]), "{scheduled:?}");
    let shuffled = makespans(true);
    let distinct: BTreeSet<u64> = shuffled.iter().copied().collect();
    assert!(distinct.len() > 1, "{shuffled:?}");
    let seed = run_seed(1, 0, 2);
    let options = RunOptions {
        seed: Some(seed),
        tie_order: hase_engine::kernel::TieOrder::Shuffled { seed },
        ..RunOptions::default()
    };
    let alone = run_project(&project, &options, |_| {}).unwrap();
    assert_eq!(alone.stats.makespan_ps, shuffled[2]);
}
