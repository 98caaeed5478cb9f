//! The session of runs and replay views: the design's finished run and the runs in progress (the
//! [`crate::run`] model) together with the state of the views that show them — the animator's
//! clock ([`player`]), the timing diagram ([`timing`]), the comparison ([`compare`], [`variant`]),
//! the statistics tables' order ([`stats_order`]) — and the rules that keep markers with the run
//! they belong to. The views change it only through [`SessionCommand`]s ([`command`]), which the
//! application collects from every panel during a frame and applies at one point.

pub mod analysis_jobs;
pub mod command;
pub mod compare;
pub mod player;
pub mod stats_order;
pub mod timing;
pub mod variant;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use hase_engine::model::Project;
use hase_engine::time::SimTime;

pub use analysis_jobs::{AnalysisJob, jobs_asked};
pub use command::{Reveal, SessionCommand};
use compare::Compare;
use player::Player;
use stats_order::StatsOrder;
use timing::TimingState;

use crate::replay::events::Snapshot;
use crate::replay::markers::Marker;
use crate::run::version::Staleness;
use crate::run::{
    COMPARE_MARKERS_NOTE, FinishedRun, LiveRun, MarkerSave, NextRunSettings, ReplayFile, RunSlot,
    UNSAVED_MARKERS_NOTE,
};

/// Runs and replay views of the editor.
#[derive(Default)]
pub struct Session {
    /// Settings of the next run.
    pub settings: NextRunSettings,
    /// The project settings the toolbar last took over (and the project generation).
    settings_seen: Option<(u64, hase_engine::model::RunSettings)>,
    /// Runs in progress.
    pub live: Vec<LiveRun>,
    /// The last finished run of the design.
    pub current: Option<Arc<FinishedRun>>,
    /// Animator clock and controls.
    pub player: Player,
    /// Replay state of `current` at the player's time.
    pub cursor: Snapshot,
    /// Timing diagram state (view, cursors, folding, filter).
    pub timing: TimingState,
    /// The side-by-side comparison, when open.
    pub compare: Option<Compare>,
    /// An entity to select and show on a canvas (clicked in the log or the diagram).
    pub reveal_request: Option<Reveal>,
    /// Sort order of the statistics tables.
    pub stats_order: StatsOrder,
    /// Which comparison side the statistics tab shows.
    pub stats_side: usize,
    /// When unsaved marker changes were first seen (input time, s).
    pub markers_dirty_since: Option<f64>,
    /// A file the replay views asked for (the app opens the dialog).
    pub file_request: Option<ReplayFile>,
    /// A what-if the views asked for (the app opens the comparison and runs both sides).
    pub what_if_request: Option<crate::analysis_views::what_if::WhatIfRequest>,
    /// The design's markers, put aside while a comparison is open.
    pub stashed_markers: Option<Vec<Marker>>,
    /// Whether `current` still shows the design being edited.
    pub staleness: Staleness,
    /// `current` ran an earlier version of the design (worked out each frame).
    pub stale: bool,
    /// Runs whose results are dropped when they arrive (started for a design since replaced).
    pub dropped: BTreeSet<u64>,
    /// Files outside a project's folder that a run read and the log already warned about (once each).
    pub warned_outside: BTreeSet<PathBuf>,
    next_id: u64,
}

impl Session {
    /// Take the run settings from the project whenever a different project is opened or its
    /// settings change (an inspector edit, an undo): the project is the one source of truth. When
    /// another project replaced the document (File ▸ New, Open…), the design's run is forgotten
    /// (see [`Session::forget_design_run`]); its unsaved markers are returned to be saved.
    pub fn follow_project(&mut self, generation: u64, project: &Project) -> Option<MarkerSave> {
        let replaced = self.settings_seen.as_ref().is_some_and(|(seen, _)| *seen != generation);
        let seen = Some((generation, project.settings.clone()));
        if self.settings_seen != seen {
            self.settings_seen = seen;
            self.settings = NextRunSettings::from_project(project);
        }
        if replaced { self.forget_design_run() } else { None }
    }

    /// Forget the design's run and its views (the animator's clock, the timing diagram's view,
    /// cursors and markers): runs of the design in progress are stopped and their results will be
    /// dropped. A comparison, which holds its own designs, stays. Returns the run's unsaved
    /// markers, to be saved beside it.
    pub fn forget_design_run(&mut self) -> Option<MarkerSave> {
        let pending = self.timing.markers_dirty.then(|| self.marker_save()).flatten();
        for live in self.live.iter().filter(|l| l.slot == RunSlot::Main) {
            live.cancel.store(true, Ordering::SeqCst);
            self.dropped.insert(live.id);
        }
        self.live.retain(|l| l.slot != RunSlot::Main);
        self.current = None;
        self.cursor = Snapshot::default();
        self.stale = false;
        if self.compare.is_some() {
            self.stashed_markers = None;
        } else {
            self.player = Player::default();
            self.timing = TimingState::default();
            self.markers_dirty_since = None;
        }
        pending
    }

    /// A fresh run id.
    pub fn next_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// True while a run of `slot` is in progress.
    pub fn running(&self, slot: RunSlot) -> bool {
        self.live.iter().any(|l| l.slot == slot)
    }

    /// Ask every run in progress to stop.
    pub fn stop_all(&self) {
        for l in &self.live {
            l.cancel.store(true, Ordering::SeqCst);
        }
    }

    /// Where the markers being edited go: the sidecar of the design's run (its project or trace
    /// file), or `None` while comparing or when the run has no file.
    pub fn marker_save(&self) -> Option<MarkerSave> {
        if self.compare.is_some() {
            return None;
        }
        let run = self.current.as_ref()?;
        Some(MarkerSave {
            sidecar: run.markers_file.clone()?,
            run_key: run.run_key.clone(),
            markers: self.timing.markers.clone(),
        })
    }

    /// Open `compare`. The design's markers are put aside (and returned when they still need
    /// saving); the comparison starts without markers and keeps the ones placed in memory only.
    pub fn enter_compare(&mut self, compare: Compare) -> Option<MarkerSave> {
        let pending = self.timing.markers_dirty.then(|| self.marker_save()).flatten();
        if self.compare.is_none() {
            self.stashed_markers = Some(std::mem::take(&mut self.timing.markers));
        } else {
            self.timing.markers.clear();
        }
        self.compare = Some(compare);
        self.timing.markers_dirty = false;
        self.markers_dirty_since = None;
        self.timing.markers_note = Some(COMPARE_MARKERS_NOTE.to_string());
        pending
    }

    /// Close the comparison (if open) and bring the design's markers back; the player stops and
    /// takes the design's run again: its clock within that run, its speed chosen for its length.
    pub fn leave_compare(&mut self) {
        if self.compare.take().is_none() {
            return;
        }
        self.timing.markers = self.stashed_markers.take().unwrap_or_default();
        self.timing.markers_dirty = false;
        self.markers_dirty_since = None;
        self.player.playing = false;
        self.player.speed_for_end = None;
        match &self.current {
            Some(run) => self.player.adopt_run(run.replay.end),
            None => self.player.time = SimTime::ZERO,
        }
        self.timing.markers_note = self.main_markers_note();
    }

    /// Take the markers of a new run of the design (put aside while a comparison is open).
    pub fn adopt_markers(&mut self, run: &FinishedRun) {
        if self.compare.is_some() {
            self.stashed_markers = Some(run.markers.clone());
            return;
        }
        self.timing.markers.clone_from(&run.markers);
        self.timing.markers_dirty = false;
        self.markers_dirty_since = None;
        self.timing.markers_note = (run.markers_file.is_none()).then(|| UNSAVED_MARKERS_NOTE.to_string());
    }

    fn main_markers_note(&self) -> Option<String> {
        match &self.current {
            Some(run) if run.markers_file.is_none() => Some(UNSAVED_MARKERS_NOTE.to_string()),
            _ => None,
        }
    }

    /// The run whose time the player follows: the comparison's longest run when comparing, else
    /// the design's run.
    pub fn clock_end(&self) -> SimTime {
        match &self.compare {
            Some(c) => c.end(),
            None => self.current.as_ref().map_or(SimTime::ZERO, |r| r.replay.end),
        }
    }
}

impl Session {
    /// Carry out `command`.
    pub fn apply(&mut self, command: SessionCommand) {
        let end = self.clock_end();
        match command {
            SessionCommand::TogglePlay => self.player.toggle(end),
            SessionCommand::Step { forward } => self.step(forward),
            SessionCommand::Scrub(t) => self.player.seek(t, end),
            SessionCommand::PauseAt(t) => {
                self.player.playing = false;
                self.player.seek(t, end);
            }
            SessionCommand::SetLooping(looping) => self.player.looping = looping,
            SessionCommand::SetMinLevel(level) => self.player.min_level = level,
            SessionCommand::SetSpeed { ps_per_s } => self.player.speed_ps_per_s = ps_per_s,
            SessionCommand::SetRunSettings(settings) => self.settings = settings,
            SessionCommand::ShowStatsOf(side) => self.stats_side = side,
            SessionCommand::SortEntities(column) => self.stats_order.click_entities(column),
            SessionCommand::SortLinks(column) => self.stats_order.click_links(column),
            SessionCommand::Reveal(reveal) => self.reveal_request = Some(reveal),
            SessionCommand::AskFile(purpose) => self.file_request = Some(purpose),
            SessionCommand::WhatIf(request) => self.what_if_request = Some(request),
            SessionCommand::Timing(command) => self.timing.apply(command),
            SessionCommand::EditSide { side, command } => {
                if let Some(side) = self.compare.as_mut().and_then(|c| c.sides.get_mut(side)) {
                    side.editor.apply(command);
                }
            }
        }
    }

    /// The analyses the views asked for since the last call, to be worked out on worker threads
    /// (a run no longer shown is dropped from the asking).
    pub fn analysis_work(&mut self) -> Vec<AnalysisJob> {
        let analysis = &self.timing.analysis;
        if !(analysis.critical.asked.any_asked()
            || analysis.bands.asked.any_asked()
            || analysis.difference.is_asked())
        {
            return Vec::new();
        }
        let shown: Vec<Arc<FinishedRun>> = self
            .current
            .iter()
            .chain(self.compare.iter().flat_map(|c| c.sides.iter().filter_map(|s| s.run.as_ref())))
            .cloned()
            .collect();
        jobs_asked(&mut self.timing.analysis, |id| shown.iter().find(|run| run.id == id).map(Arc::clone))
    }

    /// Move the replay state of every run shown (the design's, the comparison's sides) to the
    /// animator's time, for the canvases to draw.
    pub fn seek_cursors(&mut self) {
        let time = self.player.time;
        if let Some(run) = &self.current {
            run.replay.log.seek(&mut self.cursor, time);
        }
        if let Some(compare) = &mut self.compare {
            for side in &mut compare.sides {
                if let Some(run) = &side.run {
                    run.replay.log.seek(&mut side.cursor, time);
                }
            }
        }
    }

    /// Jump to the next (or previous) event shown of any run shown and pause: the nearest one of
    /// either side when comparing.
    fn step(&mut self, forward: bool) {
        let logs: Vec<&crate::replay::events::EventLog> = match &self.compare {
            Some(c) => c.sides.iter().filter_map(|s| s.run.as_ref()).map(|r| &r.replay.log).collect(),
            None => self.current.iter().map(|r| &r.replay.log).collect(),
        };
        let player = &mut self.player;
        let targets = logs.iter().filter_map(|log| {
            if forward {
                log.next_event_after(player.time, player.min_level)
            } else {
                log.previous_event_before(player.time, player.min_level)
            }
        });
        let target = if forward { targets.min() } else { targets.max() };
        player.playing = false;
        if let Some(t) = target {
            player.time = t;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::timing::TimingCommand;

    fn run_in(dir: &std::path::Path, slot: RunSlot) -> Arc<FinishedRun> {
        crate::fixtures::finished_tree_run(dir, slot)
    }

    #[test]
    fn analyses_asked_for_are_handed_out_once_for_a_run_shown() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Session::default();
        let run = run_in(dir.path(), RunSlot::Main);
        s.current = Some(Arc::clone(&run));
        s.apply(SessionCommand::Timing(TimingCommand::FindCriticalPath(run.id)));
        // A run no longer shown is dropped from the asking.
        s.apply(SessionCommand::Timing(TimingCommand::FindCriticalPath(run.id + 7)));
        s.apply(SessionCommand::Timing(TimingCommand::FindPhases(run.id)));
        let work = s.analysis_work();
        let AnalysisJob::CriticalPath(path_of) = &work[0] else { panic!("{work:?}") };
        let AnalysisJob::Phases(phases_of) = &work[1] else { panic!("{work:?}") };
        assert_eq!((work.len(), path_of.id, phases_of.id), (2, run.id, run.id));
        assert!(s.timing.analysis.critical.is_finding(run.id));
        assert!(!s.timing.analysis.critical.is_finding(run.id + 7));
        s.apply(SessionCommand::Timing(TimingCommand::FindCriticalPath(run.id)));
        assert!(s.analysis_work().is_empty(), "being found already");
        let phases = crate::analysis_views::bands::find_in_run(phases_of);
        s.apply(SessionCommand::Timing(TimingCommand::KeepPhases { run: run.id, report: phases }));
        assert!(s.timing.analysis.bands.found(run.id).is_some());
        let report = crate::analysis_views::critical::find_in_run(path_of);
        s.apply(SessionCommand::Timing(TimingCommand::KeepCriticalPath { run: run.id, report }));
        assert!(!s.timing.analysis.critical.is_finding(run.id));
        assert!(s.timing.analysis.critical.found(run.id).is_some_and(|f| f.is_ok()));
    }

    #[test]
    fn a_comparison_asked_for_is_handed_out_once_and_kept() {
        use crate::analysis_views::difference::{Comparison, compare_runs};
        let dir = tempfile::tempdir().unwrap();
        let mut s = Session::default();
        let run = run_in(dir.path(), RunSlot::Main);
        s.current = Some(Arc::clone(&run));
        let timing = |c: TimingCommand| SessionCommand::Timing(c);
        let shown = |s: &Session, ids| s.timing.analysis.difference.comparison(ids);
        // A run no longer shown: nothing to work out, nothing left waiting.
        s.apply(timing(TimingCommand::CompareRuns([run.id, run.id + 7])));
        assert!(s.analysis_work().is_empty());
        assert!(!s.timing.analysis.difference.is_finding());
        let ids = [run.id, run.id];
        s.apply(timing(TimingCommand::CompareRuns(ids)));
        s.apply(timing(TimingCommand::CompareRuns(ids)));
        let work = s.analysis_work();
        let [AnalysisJob::Difference { request, runs }] = &work[..] else { panic!("{work:?}") };
        assert!(matches!(shown(&s, ids), Ok(Comparison::Finding)));
        s.apply(timing(TimingCommand::CompareRuns(ids)));
        assert!(s.analysis_work().is_empty(), "being worked out already");
        let computed =
            compare_runs(request, [(&runs[0].trace, &runs[0].replay), (&runs[1].trace, &runs[1].replay)]);
        assert!(computed.diff.equal, "a run against itself");
        s.apply(timing(TimingCommand::KeepDifference(computed)));
        assert!(matches!(shown(&s, ids), Ok(Comparison::Ready(_))));
        assert!(!s.timing.analysis.difference.is_finding());
        // Another tolerance is another comparison; one that does not read asks for nothing.
        s.apply(timing(TimingCommand::SetTolerance("1%".into())));
        assert!(matches!(shown(&s, ids), Ok(Comparison::NotAsked)));
        s.apply(timing(TimingCommand::SetTolerance("soon".into())));
        assert!(shown(&s, ids).is_err());
        s.apply(timing(TimingCommand::CompareRuns(ids)));
        assert!(s.analysis_work().is_empty());
    }

    #[test]
    fn comparison_markers_stay_apart_from_the_designs_run() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Session::default();
        let run = run_in(dir.path(), RunSlot::Main);
        assert_eq!(run.markers_file.as_deref(), Some(dir.path().join("tree.markers.ron").as_path()));
        s.current = Some(Arc::clone(&run));
        s.adopt_markers(&run);
        assert_eq!(s.timing.markers_note, None);
        s.timing.add_marker(1_000);
        let design_markers = s.timing.markers.clone();
        // Opening a comparison hands back the unsaved design markers and starts with none.
        let pending = s.enter_compare(compare::thesis_example().unwrap()).unwrap();
        assert_eq!(pending.sidecar, dir.path().join("tree.markers.ron"));
        assert_eq!(
            (pending.run_key.as_str(), pending.markers.as_slice()),
            (run.run_key.as_str(), &design_markers[..])
        );
        assert!(s.timing.markers.is_empty() && !s.timing.markers_dirty);
        assert_eq!(s.timing.markers_note.as_deref(), Some(COMPARE_MARKERS_NOTE));
        // Markers placed while comparing are never filed under the design's run…
        s.timing.add_marker(5);
        assert_eq!(s.marker_save(), None);
        // …nor under the comparison's own runs.
        assert_eq!(run_in(dir.path(), RunSlot::Compare(1)).markers_file, None);
        // A design run finishing meanwhile updates the markers put aside, not the comparison's.
        s.adopt_markers(&run);
        assert_eq!(s.timing.markers.len(), 1);
        assert_eq!(s.timing.markers[0].time_ps, 5);
        // Closing brings the design's markers back, saved where they belong.
        s.stashed_markers = Some(design_markers.clone());
        s.leave_compare();
        assert!(s.compare.is_none());
        assert_eq!(s.timing.markers, design_markers);
        assert_eq!(s.timing.markers_note, None);
        assert_eq!(s.marker_save().map(|m| m.sidecar), Some(dir.path().join("tree.markers.ron")));
        // Closing twice changes nothing.
        s.leave_compare();
        assert_eq!(s.timing.markers, design_markers);
        // A run of a project without a file says its markers are not saved.
        let mut unsaved = Session::default();
        let mut r = run_in(dir.path(), RunSlot::Main);
        Arc::get_mut(&mut r).unwrap().markers_file = None;
        unsaved.adopt_markers(&r);
        assert_eq!(unsaved.timing.markers_note.as_deref(), Some(UNSAVED_MARKERS_NOTE));
    }

    #[test]
    fn closing_a_comparison_gives_the_player_back_to_the_designs_run() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Session::default();
        let run = run_in(dir.path(), RunSlot::Main);
        s.current = Some(Arc::clone(&run));
        s.player.adopt_run(run.replay.end);
        let design_speed = s.player.speed_ps_per_s;
        s.enter_compare(compare::thesis_example().unwrap());
        // Played to the end of a comparison three times as long, at its speed.
        let compare_end = SimTime(run.replay.end.0 * 3);
        s.player.adopt_run(compare_end);
        s.player.time = compare_end;
        s.player.playing = true;
        assert_ne!(s.player.speed_ps_per_s.to_bits(), design_speed.to_bits());
        s.leave_compare();
        assert_eq!(s.player.time, run.replay.end, "the clock is within the design's run");
        assert!(!s.player.playing);
        assert_eq!(s.player.speed_ps_per_s.to_bits(), design_speed.to_bits());
        assert_eq!(s.clock_end(), run.replay.end);
    }
}
