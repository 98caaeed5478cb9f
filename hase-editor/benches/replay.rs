//! GUI replay preparation: what pressing F5 costs before the replay is ready, against what the
//! CLI's traced run costs for the same project (`hase run … --trace run.htb --level 2`).
//!
//! The project is the fat-tree allreduce example (8 processors, 64 KiB) looped 100 times
//! (1.28 M events). Three figures, each per run of the whole project:
//! - `cli_traced_run`: the run writing a level-2 compact trace file (what the CLI does);
//! - `editor_run_to_replay`: the editor's worker path, `run::task::execute` (the run streams its
//!   records into a `ReplayRecorder` on the worker; no record list is kept);
//! - `replay_build`: building the replay model alone from a trace already in memory (what loading
//!   a trace file does after reading it).
//!
//! A second group does the same for a large network: a 128×128 torus (32,768 entities) running
//! one periodic halo exchange, 1.8 M events and 0.9 M records at level 2, kept as its generator
//! recipe as `hase new --template torus2d` writes it. There the replay's size per entity counts
//! as much as per record (checkpoints copy the state of every entity), so it prints the peak the
//! editor's run adds per entity and per record, and times the CLI's traced run against the
//! editor's run to replay.
//!
//! Before measuring it prints, for one editor run done first in the process, the peak resident
//! memory it added per record (`VmHWM` after a reset, minus `VmRSS` before) and what stayed with
//! the replay ready (`VmRSS` after, minus before), and for comparison
//! the bytes the in-memory record list of the CLI path holds per record (capacity of the record
//! vector plus the labels' heap bytes).

#![allow(missing_docs, reason = "criterion's macros generate undocumented items")]
#![allow(clippy::unwrap_used, reason = "a benchmark whose project cannot run has nothing to measure")]

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hase_editor::replay::Replay;
use hase_editor::run::task::{RunRequest, execute};
use hase_editor::run::{FinishedRun, NextRunSettings, RunProgress, RunSlot};
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

fn settings(project: &Project) -> NextRunSettings {
    let mut settings = NextRunSettings::from_project(project);
    settings.level = 2;
    settings
}

fn record_bytes(record: &Record) -> usize {
    match record {
        // A label is shared (`Arc<str>`): its text plus the two reference counts, counted once per
        // record here because a run's records do not share theirs.
        Record::Send { label, .. } => label.len() + 2 * std::mem::size_of::<usize>(),
        Record::Comment { text, .. } => text.capacity(),
        Record::Summary { key, .. } => key.capacity(),
        _ => 0,
    }
}

/// The editor's worker from F5 until the replay is ready.
fn editor_run_of(project: &Project) -> Box<FinishedRun> {
    let request = RunRequest {
        project: project.clone(),
        file: None,
        settings: settings(project),
        slot: RunSlot::Main,
        id: 1,
    };
    execute(request, &Arc::new(AtomicBool::new(false)), &RunProgress::default()).unwrap()
}

fn editor_run(project: &Project) -> usize {
    editor_run_of(project).replay.interval_count()
}

/// One editor run with the process's peak reset before it: the run, and the resident bytes
/// before, after, and at the peak.
fn measured_editor_run(project: &Project) -> (Box<FinishedRun>, u64, u64, u64) {
    hase_library::process_memory::reset_peak();
    let (before, _) = hase_library::process_memory::resident_and_peak_bytes();
    let run = editor_run_of(project);
    let (after, peak) = hase_library::process_memory::resident_and_peak_bytes();
    (run, before, after, peak)
}

fn replay(c: &mut Criterion) {
    let project = project();
    // Peak memory of the editor path first, before anything else has grown the heap.
    let (run, rss_before, rss_after, peak) = measured_editor_run(&project);
    // Departures and arrivals are read from the flights, not stored as events: counted here.
    let streamed = run.replay.log.events.len() + 2 * run.replay.flights().len();
    drop(run);
    let options = RunOptions { level: Some(2), trace: TraceTarget::Memory, ..RunOptions::default() };
    let trace = run_project(&project, &options, |_| {}).unwrap().trace.unwrap();
    let records = trace.records.len() as u64;
    let heap: usize = trace.records.iter().map(record_bytes).sum();
    let per_record = |bytes: u64| bytes.saturating_sub(rss_before) / records.max(1);
    eprintln!(
        "editor run to replay ({streamed} replay events): resident memory per record {} B at the peak, {} B with the replay ready",
        per_record(peak),
        per_record(rss_after)
    );
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
    group.bench_function("editor_run_to_replay", |b| b.iter(|| editor_run(&project)));
    group.bench_function("replay_build", |b| b.iter(|| Replay::build(&trace).interval_count()));
    group.finish();
}

/// The large network: what the editor's run adds at its peak, per entity and per record, then
/// the CLI's traced run against the editor's run to replay.
fn replay_large(c: &mut Criterion) {
    let mut project = hase_library::scale_projects::torus_halo(128, 128);
    project.settings.trace_level = 2;
    let (run, rss_before, rss_after, peak) = measured_editor_run(&project);
    let entities = run.replay.header.entities.len() as u64;
    let checkpoints = run.replay.log.checkpoint_count();
    drop(run);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.htb");
    let in_memory = RunOptions { level: Some(2), trace: TraceTarget::Memory, ..RunOptions::default() };
    let records = run_project(&project, &in_memory, |_| {}).unwrap().trace.unwrap().records.len() as u64;
    let options = RunOptions { level: Some(2), trace: TraceTarget::File(file), ..RunOptions::default() };
    let added = |bytes: u64| bytes.saturating_sub(rss_before);
    eprintln!(
        "torus 128x128 halo, editor run to replay: {entities} entities, {records} records, {checkpoints} checkpoints; \
         peak +{} MiB = {} B/entity = {} B/record; with the replay ready +{} MiB",
        added(peak) >> 20,
        added(peak) / entities.max(1),
        added(peak) / records.max(1),
        added(rss_after) >> 20,
    );
    let mut group = c.benchmark_group("replay_torus_halo_128x128");
    group.sample_size(10);
    group.throughput(Throughput::Elements(records));
    group.bench_function("cli_traced_run", |b| {
        b.iter(|| run_project(&project, &options, |_| {}).unwrap().stats.events);
    });
    group.bench_function("editor_run_to_replay", |b| b.iter(|| editor_run(&project)));
    group.finish();
}

criterion_group!(benches, replay, replay_large);
criterion_main!(benches);
