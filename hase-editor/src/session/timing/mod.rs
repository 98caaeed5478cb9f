//! The timing diagram's state kept between frames (shared by both diagrams of a comparison): the
//! time axis and its history, the cursors O and X, named markers, folding and the row filter, the
//! view toggles, and the phase bands and difference mode. The maths lives in [`view`] (time ↔
//! points), [`cursors`], [`rows`] (which rows show, folded by the hierarchy) and [`figures`] (the
//! O–X figures of each row).

pub mod cursors;
pub mod figures;
pub mod rows;
pub mod view;

use std::collections::BTreeSet;

use crate::replay::Replay;
use crate::replay::markers::Marker;
use cursors::{Cursors, Which};
use rows::{Row, RowOptions};
use view::{TimeView, ViewHistory};

/// A drag in progress on a diagram.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DiagramDrag {
    /// Moving the view.
    Pan,
    /// Moving a cursor.
    Cursor(Which),
    /// Shift-drag: O at the start, X follows the pointer.
    Select,
}

/// State of the timing diagram kept between frames (shared by both diagrams of a comparison).
#[allow(clippy::struct_excessive_bools, reason = "independent view toggles")]
pub struct TimingState {
    /// Time axis.
    pub view: TimeView,
    /// Views to go back to.
    pub history: ViewHistory,
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
    /// Vertical scroll of the rows.
    pub scroll: f32,
    /// The run (or comparison) the view was last fitted to.
    pub fitted_for: Option<u64>,
    /// Drag in progress.
    pub drag: Option<DiagramDrag>,
    /// When the view was last pushed to the history (input time, s).
    pub last_push_s: f64,
    /// Width of the bars in the last frame.
    pub bars_width: f32,
    /// Marks drawn in the last frame.
    pub drawn_marks: usize,
    /// Markers changed since they were last saved.
    pub markers_dirty: bool,
    /// Where the markers go when they are not saved (shown in the Markers menu).
    pub markers_note: Option<String>,
    /// Paths of the rows highlighted as selected in the last frame (first diagram).
    pub highlighted: Vec<String>,
    /// Selection on the canvas in the last frame (a change scrolls its row into view).
    pub last_selected: Vec<String>,
    /// O–X figures of the last frame, reused while nothing they depend on changes.
    pub figures_cache: Option<FiguresCache>,
    /// Phase bands and the difference mode.
    pub analysis: crate::analysis_views::TimingAnalysis,
}

/// O–X figures computed for a cursor interval and a set of rows.
pub struct FiguresCache {
    /// Interval and the diagrams shown.
    pub key: (u64, u64, Option<u64>),
    /// Rows of each diagram.
    pub rows: Vec<Vec<Row>>,
    /// Figures of each diagram.
    pub figures: Vec<Vec<figures::RowFigures>>,
}

impl Default for TimingState {
    fn default() -> Self {
        TimingState {
            view: TimeView::default(),
            history: ViewHistory::default(),
            cursors: Cursors::default(),
            markers: Vec::new(),
            unfolded: BTreeSet::new(),
            filter: String::new(),
            arrows: false,
            params: false,
            table: false,
            scroll: 0.0,
            fitted_for: None,
            drag: None,
            last_push_s: 0.0,
            bars_width: 800.0,
            drawn_marks: 0,
            markers_dirty: false,
            markers_note: None,
            highlighted: Vec::new(),
            last_selected: Vec::new(),
            figures_cache: None,
            analysis: crate::analysis_views::TimingAnalysis::default(),
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

    /// Show the whole run.
    pub fn fit(&mut self, end_ps: u64) {
        self.history.push(self.view);
        self.view = TimeView::fit(end_ps, self.bars_width.max(100.0));
    }

    /// Show the interval between the cursors.
    pub fn zoom_to_cursors(&mut self, end_ps: u64) {
        if let Some((a, b)) = self.cursors.interval()
            && b > a
        {
            self.history.push(self.view);
            let width = self.bars_width.max(100.0);
            let margin = (b - a) / 20;
            self.view = TimeView::showing(a.saturating_sub(margin), b + margin, width);
            self.view.clamp(end_ps, width);
        }
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

    /// The rows of a diagram with the current folding and filter.
    pub fn rows_of(&self, replay: &Replay) -> Vec<Row> {
        rows::rows(replay, RowOptions { unfolded: &self.unfolded, filter: &self.filter, params: self.params })
    }
}
