//! The experiment store: create, list, runs in order, rename, delete (with traces), export and
//! import (RON and CSV), verify, and the errors users see.

use std::path::PathBuf;

use super::*;
use crate::examples;
use crate::experiment::{
    ExperimentPlan, MetricValue, ProjectSource, RunKey, RunRecord, RunStatus, SpecOrigin, SweepSpec,
    VariableSpec,
};

fn plan() -> ExperimentPlan {
    let mut spec = SweepSpec::new(ProjectSource::File("p.ron".into()));
    spec.name = "sizes".into();
    spec.repetitions = 2;
    spec.variables.push(VariableSpec {
        target: "workload.message_bytes".into(),
        values: "1K,2K".into(),
        name: None,
    });
    ExperimentPlan::new(
        spec,
        examples::fat_tree_allreduce().unwrap().project,
        PathBuf::from("."),
        &SpecOrigin::Code,
    )
    .unwrap()
}

fn record(plan: &ExperimentPlan, point: u64, repetition: u32) -> RunRecord {
    let key = RunKey { point, repetition };
    RunRecord {
        key,
        seed: plan.seed_of(key),
        values: plan.point_values(point),
        status: if point == 1 { RunStatus::Deadlock } else { RunStatus::Completed },
        detail: String::new(),
        metrics: (0..plan.metric_names().len()).map(|i| Some(MetricValue::Int(i as u64 + point))).collect(),
        trace: None,
    }
}

#[test]
fn experiments_are_created_listed_filled_and_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let store = ExperimentStore::open(dir.path()).unwrap();
    let plan = plan();
    let a = store.create(&plan, "file p.ron").unwrap();
    let b = store.create(&plan, "file p.ron").unwrap();
    assert_eq!((a, b), (1, 2));
    for (point, rep) in [(1, 1), (0, 0), (1, 0)] {
        store.record_run(a, &record(&plan, point, rep)).unwrap();
    }
    let keys: Vec<(u64, u32)> =
        store.runs(a).unwrap().iter().map(|r| (r.key.point, r.key.repetition)).collect();
    assert_eq!(keys, [(0, 0), (1, 0), (1, 1)], "runs come back in run order");
    let list = store.list().unwrap();
    assert_eq!(
        list.iter().map(|s| (s.id, s.runs_stored, s.runs_planned)).collect::<Vec<_>>(),
        [(1, 3, 4), (2, 0, 4)]
    );
    let info = store.info(a).unwrap();
    assert_eq!((info.name.as_str(), info.hase_version.as_str()), ("sizes", HASE_VERSION));
    assert_eq!(info.project, *plan.project());
    assert_eq!(info.spec, *plan.spec());
    store.rename(a, "renamed").unwrap();
    assert_eq!(store.info(a).unwrap().name, "renamed");
    std::fs::create_dir_all(store.trace_dir(a)).unwrap();
    std::fs::write(store.trace_dir(a).join("point-000000-rep-000.trace"), "x").unwrap();
    store.delete(a).unwrap();
    assert!(!store.trace_dir(a).exists(), "its traces go with it");
    assert!(matches!(store.info(a), Err(StoreError::ExperimentNotFound { id: 1 })));
    assert!(matches!(store.runs(a), Err(StoreError::ExperimentNotFound { .. })));
    assert!(matches!(store.record_run(a, &record(&plan, 0, 0)), Err(StoreError::ExperimentNotFound { .. })));
    assert_eq!(store.create(&plan, "again").unwrap(), 3, "ids are never reused");
    assert_eq!(store.verify().unwrap(), (2, 0));
    let err = store.delete(99).unwrap_err().to_string();
    assert!(err.contains("no experiment 99") && err.contains("hase experiments list"), "{err}");
}

#[test]
fn experiments_survive_reopening_and_share_the_database_with_projects() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan();
    {
        let db = Database::open(dir.path()).unwrap();
        let projects = ProjectStore::with_database(db.clone(), StoreOptions::default()).unwrap();
        let experiments = ExperimentStore::with_database(db).unwrap();
        projects.save(plan.project()).unwrap();
        let id = experiments.create(&plan, "stored").unwrap();
        experiments.record_run(id, &record(&plan, 0, 1)).unwrap();
    }
    let store = ExperimentStore::open(dir.path()).unwrap();
    assert_eq!(store.runs(1).unwrap(), [record(&plan, 0, 1)]);
    assert_eq!(
        ProjectStore::with_database(store.database().clone(), StoreOptions::default())
            .unwrap()
            .list()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn export_and_import_round_trip_and_csv_is_in_run_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = ExperimentStore::open(&dir.path().join("a")).unwrap();
    let plan = plan();
    let id = store.create(&plan, "file p.ron").unwrap();
    for (point, rep) in [(1, 1), (0, 0), (0, 1), (1, 0)] {
        store.record_run(id, &record(&plan, point, rep)).unwrap();
    }
    store.mark_finished(id).unwrap();
    let file = dir.path().join("e.ron");
    store.export_ron(id, &file).unwrap();
    let other = ExperimentStore::open(&dir.path().join("b")).unwrap();
    other.create(&plan, "first").unwrap();
    let imported = other.import_ron(&file).unwrap();
    assert_eq!(imported, 2, "an import gets a new id");
    assert_eq!(other.runs(imported).unwrap(), store.runs(id).unwrap());
    let (mine, theirs) = (store.info(id).unwrap(), other.info(imported).unwrap());
    assert_eq!(
        (&theirs.spec, &theirs.project, theirs.finished_at),
        (&mine.spec, &mine.project, mine.finished_at)
    );
    let (csv_a, csv_b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
    store.export_csv(id, &csv_a).unwrap();
    other.export_csv(imported, &csv_b).unwrap();
    let text = std::fs::read_to_string(&csv_a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&csv_b).unwrap());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "point,workload.message_bytes,repetition,seed,outcome,makespan_ps,events,messages,latency_mean_ps,latency_max_ps"
    );
    assert!(
        lines[1].starts_with("0,1024,0,")
            && lines[4].starts_with("1,2048,1,")
            && lines[4].contains(",deadlock,"),
        "{text}"
    );
    // A damaged file names its line; a run outside the plan is refused.
    let broken = std::fs::read_to_string(&file).unwrap().replacen("points:", "pints:", 1);
    std::fs::write(&file, broken).unwrap();
    let err = other.import_ron(&file).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("{}:", file.display())) && err.contains("missing field named `points`"),
        "{err}"
    );
    assert_eq!(other.list().unwrap().len(), 2, "a failed import adds nothing");
}

#[test]
fn an_import_whose_header_contradicts_its_spec_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = ExperimentStore::open(&dir.path().join("a")).unwrap();
    let plan = plan();
    let id = store.create(&plan, "file p.ron").unwrap();
    store.record_run(id, &record(&plan, 0, 0)).unwrap();
    let file = dir.path().join("e.ron");
    store.export_ron(id, &file).unwrap();
    let exported = std::fs::read_to_string(&file).unwrap();
    let other = ExperimentStore::open(&dir.path().join("b")).unwrap();
    for (from, to, says) in [
        (
            "points: 2,",
            "points: 18446744073709551615,",
            "the header says points 18446744073709551615, but its spec makes 2",
        ),
        ("repetitions: 2,", "repetitions: 3,", "the header says repetitions 3, but its spec makes 2"),
        ("\"makespan_ps\",", "\"events\",", "the header says metrics events, events"),
    ] {
        assert!(exported.contains(from), "{from} not in the export");
        std::fs::write(&file, exported.replacen(from, to, 1)).unwrap();
        let err = other.import_ron(&file).unwrap_err().to_string();
        assert!(err.contains(says), "{err}");
        // The file, then the reason: no made-up `:0:0` position.
        assert!(err.starts_with(&format!("{}: the header says", file.display())), "{err}");
    }
    assert!(other.list().unwrap().is_empty(), "a refused import adds nothing");
}
