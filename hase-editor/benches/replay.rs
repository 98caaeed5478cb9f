//! GUI replay preparation: what pressing F5 costs before the replay is ready, against what the
//! CLI's traced run costs for the same project (`hase run … --trace run.htb --level 2`).
//!
//! The project is the fat-tree allreduce example (8 processors, 64 KiB) looped 100 times
//! (1.28 M events). Three figures, each per run of the whole project:
//! - `cli_traced_run`: the run writing a level-2 compact trace file (what the CLI does);
//! - `editor_run_to_replay`: the editor's worker path, `run::task::execute` (run with the trace kept
//!   in memory, then the replay model built from it);
//! - `replay_build`: building the replay model alone from a trace already in memory.
//!
//! It also prints the records per run and the bytes the in-memory trace holds per record
//! (capacity of the record vector plus the labels' heap bytes).

#![allow(missing_docs, reason = "criterion's macros generate undocumented items")]
#![allow(clippy::unwrap_used, reason = "a benchmark whose project cannot run has nothing to measure")]

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hase_editor::replay::Replay;
use hase_editor::run::task::{RunRequest, execute};
use hase_editor::run::{RunProgress, RunSettings, Slot};
use hase_engine::model::Project;
use hase_engine::trace::Record;
use hase_library::overrides::apply_set;
use hase_library::runner::{RunOptions, TraceTarget, run_project};

const ITERATIONS: u32 = 100;

fn project() -> Project {
    let mut project = hase_library::examples::fat_tree_allreduce().unwrap().project;
    apply_set(&mut project, &format!("workload.iterations={ITERATIONS}")).unwrap();
    project.settings.trace_level = 2;
    project
}

fn settings(project: &Project) -> RunSettings {
    let mut settings = RunSettings::from_project(project);
    settings.level = 2;
    settings
}

fn record_bytes(record: &Record) -> usize {
    match record {
        Record::Send { label, .. } => label.capacity(),
        Record::Comment { text, .. } => text.capacity(),
        Record::Summary { key, .. } => key.capacity(),
        _ => 0,
    }
}

fn replay(c: &mut Criterion) {
    let project = project();
    let options = RunOptions { level: Some(2), trace: TraceTarget::Memory, ..RunOptions::default() };
    let trace = run_project(&project, &options, |_| {}).unwrap().trace.unwrap();
    let records = trace.records.len() as u64;
    let heap: usize = trace.records.iter().map(record_bytes).sum();
    eprintln!(
        "fat-tree allreduce x {ITERATIONS}: {records} records at level 2; in-memory trace {} B per record",
        (trace.records.capacity() * std::mem::size_of::<Record>() + heap) as u64 / records
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.htb");

    let mut group = c.benchmark_group("replay_fat_tree_allreduce_x100");
    group.sample_size(10);
    group.throughput(Throughput::Elements(records));
    group.bench_function("cli_traced_run", |b| {
        let options =
            RunOptions { level: Some(2), trace: TraceTarget::File(file.clone()), ..RunOptions::default() };
        b.iter(|| run_project(&project, &options, |_| {}).unwrap().stats.events);
    });
    group.bench_function("editor_run_to_replay", |b| {
        b.iter(|| {
            let request = RunRequest {
                project: project.clone(),
                file: None,
                settings: settings(&project),
                slot: Slot::Main,
                id: 1,
            };
            let run = execute(request, &Arc::new(AtomicBool::new(false)), &RunProgress::default()).unwrap();
            run.replay.interval_count()
        });
    });
    group.bench_function("replay_build", |b| b.iter(|| Replay::build(&trace).interval_count()));
    group.finish();
}

criterion_group!(benches, replay);
criterion_main!(benches);
