//! Opening a trace file (any form: text, compressed text, compact) for the replay views, on a
//! worker thread with progress (records read, simulated time reached, a fraction when the trace's
//! index gives the record count) and a working Stop (what was
//! read so far is kept). The loaded trace replaces the design's run; the animator shows it on the
//! open design when the paths match. Markers placed on it are kept beside the trace file
//! (`run.htrace.markers.ron`) and come back when the same trace is opened again.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use hase_engine::kernel::RunOutcome;
use hase_engine::model::Project;
use hase_engine::stats::RunStats;
use hase_engine::trace::{Trace, TraceError, TraceIndex, open_trace};
use hase_library::expected::NoClosedForm;

use super::{FinishedRun, LiveRun, NextRunSettings, ReplayOutput, RunDone, RunProblem, RunProgress, RunSlot};
use crate::replay::Replay;
use crate::replay::markers::{self, run_key};
use crate::tasks::{TaskOutput, Tasks};

/// Records between progress updates and stop checks.
const CHECK_EVERY: u64 = 50_000;

/// Read `path` on its own thread; `project` is the design the trace is shown on.
pub fn start(tasks: &Tasks, path: PathBuf, project: Project, id: u64) -> LiveRun {
    let cancel = Arc::new(AtomicBool::new(false));
    let progress = Arc::new(RunProgress::default());
    let live = LiveRun {
        id,
        cancel: Arc::clone(&cancel),
        progress: Arc::clone(&progress),
        started: Instant::now(),
        label: format!(
            "loading {}",
            path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        ),
        slot: RunSlot::Main,
        until: None,
    };
    tasks.spawn("load-trace", move || {
        let result = load(&path, project, id, &cancel, &progress)
            .map_err(|e| vec![RunProblem { path: None, text: e.to_string() }]);
        TaskOutput::Replay(Box::new(ReplayOutput::Run(RunDone { slot: RunSlot::Main, id, result })))
    });
    live
}

/// Read a trace file and build its replay model (on the calling thread).
pub fn load(
    path: &Path,
    project: Project,
    id: u64,
    cancel: &AtomicBool,
    progress: &RunProgress,
) -> Result<Box<FinishedRun>, TraceError> {
    let started = Instant::now();
    // The index written beside text and compact traces knows how many records there are (a stale
    // one, from another file of that name, is ignored).
    let file_bytes = std::fs::metadata(path).map(|m| m.len()).ok();
    if let Ok(index) = TraceIndex::load(&TraceIndex::sidecar_path(path))
        && Some(index.file_bytes) == file_bytes
    {
        progress.expected_events.store(index.records, Ordering::Relaxed);
    }
    let mut reader = open_trace(path)?;
    let header = reader.header().clone();
    let mut records = Vec::new();
    let mut stopped = false;
    while let Some(record) = reader.next_record()? {
        records.push(record);
        let n = records.len() as u64;
        if n.is_multiple_of(CHECK_EVERY) {
            progress.events.store(n, Ordering::Relaxed);
            progress.now_ps.store(records.last().map_or(0, |r| r.time().0), Ordering::Relaxed);
            if cancel.load(Ordering::Relaxed) {
                stopped = true;
                break;
            }
        }
    }
    progress.events.store(records.len() as u64, Ordering::Relaxed);
    progress.phase.store(1, Ordering::Relaxed);
    let trace = Trace { header, records };
    let replay = Replay::build(&trace);
    let wall_time_s = started.elapsed().as_secs_f64();
    let stats = RunStats {
        project: trace.header.project.clone(),
        seed: trace.header.seed,
        outcome: if stopped { "cancelled" } else { "loaded" }.to_string(),
        makespan_ps: replay.end.0,
        events: trace.records.len() as u64,
        wall_time_s,
        events_per_s: trace.records.len() as f64 / wall_time_s.max(1e-9),
        ..RunStats::default()
    };
    let label =
        path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let key = run_key(trace.header.seed, trace.header.level, None, replay.end.0, stats.events);
    let markers_file = markers::sidecar_of_trace(path);
    let markers = markers::load(&markers_file).map(|f| markers::markers_for(&f, &key)).unwrap_or_default();
    Ok(Box::new(FinishedRun {
        id,
        label,
        run_key: key,
        project,
        file: Some(path.to_path_buf()),
        markers_file: Some(markers_file),
        settings: NextRunSettings {
            level: trace.header.level,
            seed: trace.header.seed,
            until_text: String::new(),
        },
        outcome: if stopped { RunOutcome::Cancelled } else { RunOutcome::Completed },
        stats,
        trace,
        replay,
        trace_error: None,
        markers,
        expected: Err(NoClosedForm::TraceFile),
        partitioning: None,
    }))
}

#[cfg(test)]
mod tests {
    use hase_engine::trace::TraceSink;

    use super::*;
    use crate::run::task::{RunRequest, execute};

    #[test]
    fn a_written_trace_loads_back_into_the_same_replay() {
        let project = hase_library::examples::fat_tree_allreduce().unwrap().project;
        let settings = NextRunSettings::from_project(&project);
        let request =
            RunRequest { project: project.clone(), file: None, settings, slot: RunSlot::Main, id: 1 };
        let run = execute(request, &Arc::new(AtomicBool::new(false)), &RunProgress::default()).unwrap();
        // The run streamed its records into its replay; the same run's records, kept in memory.
        let options = hase_library::runner::RunOptions {
            seed: Some(run.settings.seed),
            level: Some(run.settings.level),
            trace: hase_library::runner::TraceTarget::Memory,
            ..hase_library::runner::RunOptions::default()
        };
        let trace = hase_library::runner::run_project(&project, &options, |_| {}).unwrap().trace.unwrap();
        assert_eq!(trace.header, run.trace.header);
        assert!(run.trace.records.is_empty(), "a run keeps no record list");
        let dir = tempfile::tempdir().unwrap();
        for name in ["run.htrace", "run.htb", "run.htrace.gz"] {
            let path = dir.path().join(name);
            let mut writer = hase_engine::trace::create_trace(&path, None).unwrap();
            writer.header(&trace.header).unwrap();
            for r in &trace.records {
                writer.record(r).unwrap();
            }
            writer.finish().unwrap();
            let progress = RunProgress::default();
            let loaded = load(&path, project.clone(), 2, &AtomicBool::new(false), &progress).unwrap();
            assert_eq!(loaded.trace, trace, "{name}");
            assert_eq!(format!("{:?}", loaded.replay), format!("{:?}", run.replay), "{name}");
            assert_eq!(loaded.replay.end, run.replay.end);
            assert_eq!(loaded.replay.rows, run.replay.rows);
            assert_eq!(loaded.stats.outcome, "loaded");
            assert_eq!(progress.events.load(Ordering::Relaxed), trace.records.len() as u64);
            // Markers placed on the loaded trace are saved beside it and come back with it.
            assert!(loaded.markers.is_empty());
            let sidecar = loaded.markers_file.clone().unwrap();
            assert_eq!(sidecar, dir.path().join(format!("{name}.markers.ron")));
            let marker = markers::Marker { name: format!("{name} peak"), time_ps: loaded.replay.end.0 / 2 };
            markers::save(&sidecar, &loaded.run_key, std::slice::from_ref(&marker)).unwrap();
            let again =
                load(&path, project.clone(), 3, &AtomicBool::new(false), &RunProgress::default()).unwrap();
            assert_eq!(again.markers, vec![marker]);
        }
        // With its index beside it (compact files always get one; text files when asked), the
        // load knows how many records to expect.
        let indexed = dir.path().join("indexed.htrace");
        let mut writer = hase_engine::trace::create_trace(&indexed, Some(1_000)).unwrap();
        writer.header(&trace.header).unwrap();
        for r in &trace.records {
            writer.record(r).unwrap();
        }
        writer.finish().unwrap();
        let progress = RunProgress::default();
        load(&indexed, project.clone(), 4, &AtomicBool::new(false), &progress).unwrap();
        assert_eq!(progress.expected_events.load(Ordering::Relaxed), trace.records.len() as u64);
        let unindexed = RunProgress::default();
        load(&dir.path().join("run.htrace"), project.clone(), 5, &AtomicBool::new(false), &unindexed)
            .unwrap();
        assert_eq!(unindexed.expected_events.load(Ordering::Relaxed), 0, "no index, no guess");
        let missing = load(
            &dir.path().join("none.htrace"),
            project,
            3,
            &AtomicBool::new(false),
            &RunProgress::default(),
        );
        assert!(missing.unwrap_err().to_string().contains("none.htrace"));
    }
}
