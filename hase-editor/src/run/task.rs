//! The simulation worker: runs a project on the `hase-sim` thread through [`Tasks`], with the
//! cancel flag and progress counters of a [`LiveRun`], builds the replay model there from the
//! trace records at the chosen level as the run writes them (no record list is kept; a stopped run
//! has its partial replay at once), loads the run's markers, and reports a [`RunDone`].

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use hase_engine::elaborate::ElabError;
use hase_engine::kernel::Progress;
use hase_engine::model::Project;
use hase_engine::trace::Trace;
use hase_entities::factory::FactoryError;
use hase_library::expected::expected_run_in;
use hase_library::runner::{RunError, RunOptions, TraceTarget, run_project_into};

use super::{FinishedRun, LiveRun, NextRunSettings, ReplayOutput, RunDone, RunProblem, RunProgress, RunSlot};
use crate::replay::markers::{self, run_key};
use crate::replay::recorder::ReplayRecorder;
use crate::tasks::{TaskOutput, Tasks};

/// Events between progress reports and cancel checks.
const PROGRESS_EVERY: u64 = 50_000;

/// What to run.
#[derive(Clone, Debug)]
pub struct RunRequest {
    /// The project.
    pub project: Project,
    /// Its file (workload paths are relative to its directory; markers are saved beside it).
    pub file: Option<PathBuf>,
    /// Level, seed, stop time.
    pub settings: NextRunSettings,
    /// Where the result goes.
    pub slot: RunSlot,
    /// Run id.
    pub id: u64,
}

/// Start a run on the `hase-sim` thread; the returned handle stops it and shows its progress.
/// The run-until text must already have been checked.
pub fn start(tasks: &Tasks, request: RunRequest) -> LiveRun {
    let cancel = Arc::new(AtomicBool::new(false));
    let progress = Arc::new(RunProgress::default());
    let until = request.settings.until().ok().flatten();
    let live = LiveRun {
        id: request.id,
        cancel: Arc::clone(&cancel),
        progress: Arc::clone(&progress),
        started: Instant::now(),
        label: request.project.name.clone(),
        slot: request.slot,
        until,
    };
    tasks.spawn("sim", move || {
        let (slot, id) = (request.slot, request.id);
        let result = execute(request, &cancel, &progress);
        TaskOutput::Replay(Box::new(ReplayOutput::Run(RunDone { slot, id, result })))
    });
    live
}

/// Run and build the replay model (on the calling thread).
pub fn execute(
    request: RunRequest,
    cancel: &Arc<AtomicBool>,
    progress: &RunProgress,
) -> Result<Box<FinishedRun>, Vec<RunProblem>> {
    let until = request.settings.until().map_err(|e| vec![RunProblem { path: None, text: e.to_string() }])?;
    let base_dir =
        request.file.as_deref().map_or_else(|| PathBuf::from("."), hase_library::runner::base_dir_of);
    let options = RunOptions {
        seed: Some(request.settings.seed),
        level: Some(request.settings.level),
        until,
        trace: TraceTarget::None,
        fingerprint: false,
        base_dir: base_dir.clone(),
        cancel: Some(Arc::clone(cancel)),
        progress_every: PROGRESS_EVERY,
        // Live values are traced when the design displays one (inspector ▸ Live values).
        live_values: None,
        threads: None,
        tie_order: hase_engine::kernel::TieOrder::Scheduled,
    };
    let recorder = Arc::new(Mutex::new(ReplayRecorder::new()));
    let sink = Box::new(Arc::clone(&recorder));
    let result = run_project_into(&request.project, &options, Some(sink), |p: Progress| {
        progress.events.store(p.events, Ordering::Relaxed);
        progress.now_ps.store(p.now.0, Ordering::Relaxed);
    })
    .map_err(problems)?;
    progress.events.store(result.stats.events, Ordering::Relaxed);
    progress.now_ps.store(result.stats.makespan_ps, Ordering::Relaxed);
    progress.phase.store(1, Ordering::Relaxed);
    let recorder = std::mem::take(&mut *recorder.lock().unwrap_or_else(PoisonError::into_inner));
    let mut replay = recorder.finish();
    replay.unused = result.unused_processors.iter().copied().collect();
    let trace = Trace { header: replay.header.clone(), records: Vec::new() };
    let key = run_key(
        request.settings.seed,
        request.settings.level,
        until.map(|u| u.0),
        result.stats.makespan_ps,
        result.stats.events,
    );
    // A comparison's runs keep their markers in memory only: they are not the design's run.
    let markers_file = match request.slot {
        RunSlot::Main => request.file.as_deref().map(markers::sidecar_of),
        RunSlot::Compare(_) => None,
    };
    let markers = markers_file
        .as_deref()
        .and_then(|f| markers::load(f).ok())
        .map(|file| markers::markers_for(&file, &key))
        .unwrap_or_default();
    let expected = expected_run_in(&request.project, &base_dir);
    Ok(Box::new(FinishedRun {
        id: request.id,
        label: request.project.name.clone(),
        project: request.project,
        file: request.file,
        markers_file,
        settings: request.settings,
        outcome: result.outcome,
        stats: result.stats,
        trace,
        replay,
        trace_error: result.trace_error,
        run_key: key,
        markers,
        expected,
        partitioning: Some(result.partitioning),
    }))
}

/// The problems in a run error, each with the entity it names when there is one.
pub fn problems(error: RunError) -> Vec<RunProblem> {
    match error {
        RunError::Elaborate(ElabError::Invalid(errors)) => errors
            .0
            .into_iter()
            .map(|e| RunProblem { path: Some(e.path.clone()), text: e.to_string() })
            .collect(),
        RunError::Elaborate(ElabError::At { path, message })
        | RunError::Build(FactoryError::At { path, message }) => {
            vec![RunProblem { text: format!("{path}: {message}"), path: Some(path) }]
        }
        RunError::Build(e @ (FactoryError::Sheet { .. } | FactoryError::InnerNetwork { .. })) => {
            vec![RunProblem { path: e.entity_path().map(str::to_string), text: e.to_string() }]
        }
        other => {
            let text = other.to_string();
            vec![RunProblem { path: leading_path(&text), text }]
        }
    }
}

/// The instance path a message starts with (`` `fabric/r3`: … `` or `fabric/r3: …`), if any.
fn leading_path(text: &str) -> Option<String> {
    let head = text.split(": ").next()?.trim_matches('`');
    let plausible = !head.is_empty()
        && head.len() < text.len()
        && head.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '/' | '.' | '[' | ']' | '-'));
    plausible.then(|| head.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(project: Project, settings: NextRunSettings) -> RunRequest {
        RunRequest { project, file: None, settings, slot: RunSlot::Main, id: 1 }
    }

    #[test]
    fn runs_the_binary_tree_example_and_builds_its_replay() {
        let project = hase_library::examples::binary_tree_allreduce().unwrap().project;
        let settings = NextRunSettings::from_project(&project);
        let progress = RunProgress::default();
        let run = execute(request(project, settings), &Arc::new(AtomicBool::new(false)), &progress).unwrap();
        assert_eq!(run.outcome.word(), "completed");
        // 8 processors and 7 switches, every one with state intervals.
        assert_eq!(run.replay.rows.len(), 15);
        assert!(run.replay.rows.iter().all(|r| !r.is_empty()));
        assert_eq!(run.replay.end.0, run.stats.makespan_ps);
        assert!(!run.replay.flights().is_empty());
        assert_eq!(progress.phase.load(Ordering::Relaxed), 1);
        assert_eq!(progress.events.load(Ordering::Relaxed), run.stats.events);
    }

    #[test]
    fn a_cancelled_run_reports_cancelled() {
        let mut project = hase_library::examples::torus3d_halo().unwrap().project;
        // Long enough to reach the first cancel check (every 50,000 events).
        hase_library::overrides::apply_set(&mut project, "workload.iterations=400").unwrap();
        let settings = NextRunSettings::from_project(&project);
        let run =
            execute(request(project, settings), &Arc::new(AtomicBool::new(true)), &RunProgress::default())
                .unwrap();
        assert_eq!(run.outcome.word(), "cancelled");
        // Stop shows the partial run: the replay holds what ran before the stop.
        let replayed = run.replay.log.events.len() + 2 * run.replay.flights().len();
        assert!(replayed > 10_000, "{replayed} events replayed");
        assert!(run.replay.end.0 > 0 && run.replay.end.0 >= run.stats.makespan_ps);
    }

    #[test]
    fn problems_name_their_entities() {
        let mut project = hase_library::examples::binary_tree_allreduce().unwrap().project;
        project.network.links.retain(|l| l.a.instance != "p3" && l.b.instance != "p3");
        let settings = NextRunSettings::from_project(&project);
        let problems =
            execute(request(project, settings), &Arc::new(AtomicBool::new(false)), &RunProgress::default())
                .unwrap_err();
        assert!(problems.iter().any(|p| p.path.as_deref() == Some("p3.net")), "{problems:?}");
        let bad_until = NextRunSettings { until_text: "soon".into(), ..NextRunSettings::default() };
        let problems = execute(
            request(Project::new("x"), bad_until),
            &Arc::new(AtomicBool::new(false)),
            &RunProgress::default(),
        )
        .unwrap_err();
        assert_eq!(problems[0].path, None);
        assert!(problems[0].text.contains("soon"));
        assert_eq!(leading_path("`fabric/r3`: needs 4 ports"), Some("fabric/r3".into()));
        assert_eq!(leading_path("cannot read workload"), None);
    }
}
