//! The timing diagram's state kept in the session between frames (shared by both diagrams of a
//! comparison): the time axis and its history, the cursors O and X, named markers, folding and the
//! row filter, the view toggles, and the phase bands, critical path and difference mode; changed only through
//! [`TimingCommand`]s ([`command`]). The maths lives in [`view`] (time ↔ points), [`cursors`],
//! [`rows`] (which rows show, folded by the hierarchy) and [`figures`] (the O–X figures of each
//! row).

pub mod command;
pub mod cursors;
pub mod figures;
pub mod row_cache;
pub mod rows;
pub mod view;

use std::collections::BTreeSet;
use std::sync::Arc;

pub use command::TimingCommand;

use crate::replay::Replay;
use crate::replay::markers::Marker;
use cursors::Cursors;
use row_cache::RowCache;
use rows::{Row, RowOptions};
use view::{TimeView, ViewHistory};

/// State of the timing diagram kept between frames (shared by both diagrams of a comparison).
#[derive(Clone, Debug)]
#[allow(clippy::struct_excessive_bools, reason = "independent view toggles")]
pub struct TimingState {
    /// Time axis.
    pub view: TimeView,
    /// Views to go back to.
    pub history: ViewHistory,
    /// When the view was last remembered in the history (input time, s).
    pub last_push_s: f64,
    /// O and X.
    pub cursors: Cursors,
    /// Named markers of the run.
    pub markers: Vec<Marker>,
    /// Groups shown unfolded, by path.
    pub unfolded: BTreeSet<String>,
    /// Row filter text.
    pub filter: String,
    /// Draw message arrows.
    pub arrows: bool,
    /// Show traced parameter rows.
    pub params: bool,
    /// Show the O–X figures beside the diagram.
    pub table: bool,
    /// Markers changed since they were last saved.
    pub markers_dirty: bool,
    /// Where the markers go when they are not saved (shown in the Markers menu).
    pub markers_note: Option<String>,
    /// Phase bands and the difference mode.
    pub analysis: crate::analysis_views::TimingAnalysis,
    /// The rows last shown, kept between frames ([`TimingState::rows_of`]).
    pub row_cache: RowCache,
}

impl Default for TimingState {
    fn default() -> Self {
        TimingState {
            view: TimeView::default(),
            history: ViewHistory::default(),
            last_push_s: 0.0,
            cursors: Cursors::default(),
            markers: Vec::new(),
            unfolded: BTreeSet::new(),
            filter: String::new(),
            arrows: false,
            params: false,
            table: false,
            markers_dirty: false,
            markers_note: None,
            analysis: crate::analysis_views::TimingAnalysis::default(),
            row_cache: RowCache::default(),
        }
    }
}

impl TimingState {
    /// Remember the current view for "back" (at most every 0.6 s for continuous gestures).
    pub fn push_view(&mut self, now_s: f64, force: bool) {
        if force || now_s - self.last_push_s > 0.6 {
            self.history.push(self.view);
            self.last_push_s = now_s;
        }
    }

    /// The view showing the whole run across bars `width` points wide (at least 100).
    pub fn fitted_view(end_ps: u64, width: f32) -> TimeView {
        TimeView::fit(end_ps, width.max(100.0))
    }

    /// The view showing the interval between the cursors (with a margin), if they span one.
    pub fn cursors_view(&self, end_ps: u64, width: f32) -> Option<TimeView> {
        let (a, b) = self.cursors.interval()?;
        if b <= a {
            return None;
        }
        let width = width.max(100.0);
        let margin = (b - a) / 20;
        let mut view = TimeView::showing(a.saturating_sub(margin), b + margin, width);
        view.clamp(end_ps, width);
        Some(view)
    }

    /// Add a marker named `M<n>` at `t`.
    pub fn add_marker(&mut self, t: u64) {
        let n = self.markers.len() + 1;
        self.markers.push(Marker { name: format!("M{n}"), time_ps: t });
        self.markers.sort_by_key(|m| m.time_ps);
        self.markers_dirty = true;
    }

    /// The time one point of the bars spans: the resolution every time shown with the diagram
    /// follows (see `time_text`).
    pub fn resolution_ps(&self) -> u64 {
        (self.view.ps_per_pt.max(1.0)) as u64
    }

    /// The rows of a diagram with the current folding and filter (kept between frames while
    /// these and the replay stay the same).
    pub fn rows_of(&self, replay: &Replay) -> Arc<[Row]> {
        let options = RowOptions { unfolded: &self.unfolded, filter: &self.filter, params: self.params };
        self.row_cache.rows(replay, options)
    }
}

impl TimingState {
    /// Carry out `command` (see [`TimingCommand`]).
    pub fn apply(&mut self, command: TimingCommand) {
        let difference = &mut self.analysis.difference;
        match command {
            TimingCommand::SetView(view) => self.view = view,
            TimingCommand::RememberView { now_s, force } => self.push_view(now_s, force),
            TimingCommand::GoTo(view) => {
                self.history.push(self.view);
                self.view = view;
            }
            TimingCommand::Restart(view) => {
                self.view = view;
                self.history = ViewHistory::default();
            }
            TimingCommand::Back => {
                if let Some(v) = self.history.back(self.view) {
                    self.view = v;
                }
            }
            TimingCommand::Forward => {
                if let Some(v) = self.history.forward(self.view) {
                    self.view = v;
                }
            }
            TimingCommand::SetCursor(which, t) => self.cursors.set(which, t),
            TimingCommand::SetCursors(cursors) => self.cursors = cursors,
            TimingCommand::AddMarker(t) => self.add_marker(t),
            TimingCommand::RenameMarker { index, name } => {
                if let Some(m) = self.markers.get_mut(index) {
                    m.name = name;
                    self.markers_dirty = true;
                }
            }
            TimingCommand::RemoveMarker(index) => {
                if index < self.markers.len() {
                    self.markers.remove(index);
                    self.markers_dirty = true;
                }
            }
            TimingCommand::SetFilter(filter) => self.filter = filter,
            TimingCommand::ToggleFold(path) => {
                if !self.unfolded.remove(&path) {
                    self.unfolded.insert(path);
                }
            }
            TimingCommand::Unfold(paths) => self.unfolded.extend(paths),
            TimingCommand::FoldAll => self.unfolded.clear(),
            TimingCommand::ShowArrows(on) => self.arrows = on,
            TimingCommand::ShowParams(on) => self.params = on,
            TimingCommand::ShowFigures(on) => self.table = on,
            TimingCommand::ShowPhases(on) => self.analysis.bands.shown = on,
            TimingCommand::ShowCriticalPath(on) => self.analysis.critical.shown = on,
            TimingCommand::SetWhatIf(menu) => self.analysis.what_if = menu,
            TimingCommand::ShowDifferences(on) => difference.on = on,
            TimingCommand::AlignRows(align) => difference.align = align,
            TimingCommand::SetTolerance(text) => difference.tolerance_text = text,
            TimingCommand::FocusDifference(row) => {
                difference.focus = Some(row);
                difference.focus_pending = true;
            }
            TimingCommand::FocusReached => difference.focus_pending = false,
            TimingCommand::FindPhases(run) => self.analysis.bands.ask(run),
            TimingCommand::KeepPhases { run, report } => self.analysis.bands.keep(run, report),
            TimingCommand::FindCriticalPath(run) => self.analysis.critical.ask(run),
            TimingCommand::KeepCriticalPath { run, report } => self.analysis.critical.keep(run, report),
            TimingCommand::CompareRuns(runs) => difference.ask(runs),
            TimingCommand::KeepDifference(computed) => difference.keep(computed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_go_to_back_and_forward_and_markers_are_renamed_as_changed() {
        let mut state = TimingState::default();
        let first = state.view;
        let zoomed = TimeView { left_ps: 100, ps_per_pt: 2.0 };
        state.apply(TimingCommand::GoTo(zoomed));
        assert_eq!(state.view, zoomed);
        state.apply(TimingCommand::Back);
        assert_eq!(state.view, first);
        state.apply(TimingCommand::Forward);
        assert_eq!(state.view, zoomed);
        state.apply(TimingCommand::Restart(first));
        assert!(!state.history.can_go_back());
        state.apply(TimingCommand::AddMarker(50));
        state.markers_dirty = false;
        state.apply(TimingCommand::RenameMarker { index: 0, name: "start".into() });
        assert_eq!((state.markers[0].name.as_str(), state.markers_dirty), ("start", true));
        state.apply(TimingCommand::ToggleFold("net".into()));
        assert!(state.unfolded.contains("net"));
        state.apply(TimingCommand::ToggleFold("net".into()));
        assert!(state.unfolded.is_empty());
        state.apply(TimingCommand::ShowCriticalPath(true));
        assert!(state.analysis.critical.shown);
    }
}
