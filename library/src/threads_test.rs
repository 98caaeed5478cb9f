//! Runs on several threads against the run on one: every example project and a 16×16 torus halo
//! exchange, on 1, 2 and 4 threads, must give the same trace (every record, level 1 with live
//! values, and its fingerprint), the same statistics report and the same makespan.
//!
//! Why these runs can catch a wrong merge: many events of different partitions fall on the same
//! picosecond (every rank of a halo exchange sends its faces at the same instant, routers forward
//! packets that arrive together), and the torus test checks that some of those instants hold
//! records of the two partitions interleaved (a, b, a). A merge that ordered equal times by
//! partition, or by anything but the scheduling numbers the sequential kernel gives, would write
//! such an instant's records in another order and fail the trace comparison.

use std::collections::BTreeMap;
use std::path::PathBuf;

use hase_engine::kernel::{Partitioning, RunOutcome};
use hase_engine::model::{ParamValue, Project, Workload};
use hase_engine::stats::RunStats;
use hase_engine::trace::Record;
use hase_templates::{ProjectForm, TemplateSpec, Topology, template_project};

use crate::catalogue::registry_for;
use crate::examples;
use crate::runner::{RunOptions, RunResult, TraceTarget, run_project};

/// The directory of the example projects' extra files (instruction streams).
fn projects_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../projects")
}

fn run_on(project: &Project, threads: usize) -> RunResult {
    run_at(1, project, threads)
}

/// A run with a trace of `level`.
fn run_at(level: u8, project: &Project, threads: usize) -> RunResult {
    let options = RunOptions {
        level: Some(level),
        live_values: Some(true),
        trace: TraceTarget::Memory,
        fingerprint: true,
        base_dir: projects_dir(),
        threads: Some(threads),
        ..RunOptions::default()
    };
    run_project(project, &options, |_| {}).unwrap_or_else(|e| panic!("{}: {e}", project.name))
}

/// The report as JSON, without the two figures that measure the host (wall time, events per second).
fn report_text(stats: &RunStats) -> String {
    let mut stats = stats.clone();
    stats.wall_time_s = 0.0;
    stats.events_per_s = 0.0;
    serde_json::to_string_pretty(&stats).unwrap_or_default()
}

/// The entity a record is about (`None` for a record about no single one).
fn entity_of(record: &Record) -> Option<u32> {
    match record {
        Record::Send { from, .. } => Some(*from),
        Record::State { entity, .. }
        | Record::Param { entity, .. }
        | Record::Array { entity, .. }
        | Record::ArrayRead { entity, .. }
        | Record::Comment { entity, .. } => Some(*entity),
        Record::Summary { .. } => None,
    }
}

/// Instants whose records come from two partitions interleaved (a, b, a), with the partition of
/// an entity as `owner` gives it.
fn interleaved_instants(records: &[Record], owner: impl Fn(u32) -> u32) -> usize {
    let mut by_time: BTreeMap<u64, Vec<u32>> = BTreeMap::new();
    for r in records {
        if let Some(e) = entity_of(r) {
            let parts = by_time.entry(r.time().as_ps()).or_default();
            let p = owner(e);
            if parts.last() != Some(&p) {
                parts.push(p);
            }
        }
    }
    by_time.values().filter(|parts| parts.len() >= 3).count()
}

/// Run `project` on 1, 2 and 4 threads and compare everything; the trace of one thread.
fn same_on_every_thread_count(project: &Project) -> Vec<Record> {
    same_at_level(1, project)
}

/// [`same_on_every_thread_count`] with a trace of `level`.
fn same_at_level(level: u8, project: &Project) -> Vec<Record> {
    let one = run_at(level, project, 1);
    assert_eq!(one.partitioning, Partitioning::One(hase_engine::kernel::OnePartition::OneThread));
    let one_trace = one.trace.as_ref().expect("a kept trace");
    assert!(!one_trace.records.is_empty(), "{}: no records", project.name);
    for threads in [2, 4] {
        let many = run_at(level, project, threads);
        assert!(
            matches!(many.partitioning, Partitioning::Split { partitions, .. } if partitions == threads),
            "{}: {}",
            project.name,
            many.partitioning
        );
        assert_eq!(many.outcome, one.outcome, "{} on {threads} threads", project.name);
        assert_eq!(many.stats.makespan_ps, one.stats.makespan_ps, "{} on {threads} threads", project.name);
        let trace = many.trace.as_ref().expect("a kept trace");
        assert_eq!(trace.header, one_trace.header, "{} on {threads} threads", project.name);
        if let Some(i) = trace.records.iter().zip(&one_trace.records).position(|(a, b)| a != b) {
            panic!(
                "{} on {threads} threads: record {i} is {:?}, one thread wrote {:?}",
                project.name, trace.records[i], one_trace.records[i]
            );
        }
        assert_eq!(trace.records.len(), one_trace.records.len(), "{} on {threads} threads", project.name);
        assert_eq!(many.fingerprint, one.fingerprint, "{} on {threads} threads", project.name);
        assert_eq!(
            report_text(&many.stats),
            report_text(&one.stats),
            "{} on {threads} threads",
            project.name
        );
    }
    one.trace.map(|t| t.records).unwrap_or_default()
}

#[test]
fn every_example_is_the_same_on_one_two_and_four_threads() {
    for example in examples::all().unwrap() {
        assert_eq!(
            run_on(&example.project, 1).outcome,
            RunOutcome::Completed,
            "{} must run to completion",
            example.file
        );
        same_on_every_thread_count(&example.project);
    }
}

/// A 16×16 torus running the halo exchange (`hase new --template torus2d --dims 16x16 --program
/// halo2d`).
fn torus_halo(x: u32, y: u32) -> Project {
    let registry = registry_for(&Project::new("halo"));
    let spec = TemplateSpec::new(Topology::Torus2D { x, y });
    let mut project = template_project(&spec, &registry, "torus halo", &ProjectForm::Flat).unwrap();
    project.workload =
        Workload::Program { name: "halo2d".into(), params: BTreeMap::<String, ParamValue>::new() };
    project
}

#[test]
fn a_torus_halo_exchange_is_the_same_on_one_two_and_four_threads() {
    let records = same_on_every_thread_count(&torus_halo(16, 16));
    // Every link of the torus has 10 ns of latency, so every entity is an atom and two partitions
    // take them alternately in entity order.
    let interleaved = interleaved_instants(&records, |e| e % 2);
    assert!(interleaved > 100, "only {interleaved} instants mix the records of the two partitions");
}

/// At level 2 every message is traced and the last partition is dealt less (its thread writes
/// more of the trace while it waits): the trace and the report stay those of one thread.
#[test]
fn a_torus_halo_traced_at_level_two_is_the_same_on_one_two_and_four_threads() {
    let records = same_at_level(2, &torus_halo(16, 16));
    let sends = records.iter().filter(|r| matches!(r, Record::Send { .. })).count();
    assert!(sends > 1_000, "only {sends} sends traced");
}
