//! [`TimingView`]: the timing diagram's view state kept between frames by the widget itself — how
//! far the rows are scrolled, the drag in progress, what the view was last fitted to, the bars'
//! width and what the last frame drew and highlighted, and the O–X figures computed for it (a
//! cache). The state the session keeps (time axis, cursors, markers, folding, toggles) is
//! `hase_editor::session::timing::TimingState`, changed only through commands.

use std::sync::Arc;

use hase_editor::session::timing::cursors::Which;
use hase_editor::session::timing::figures::RowFigures;
use hase_editor::session::timing::rows::Row;

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

/// The timing diagram's view state kept between frames (shared by both diagrams of a comparison).
pub struct TimingView {
    /// Vertical scroll of the rows.
    pub scroll: f32,
    /// What the view was last fitted to (the run, or the comparison).
    pub fitted_for: Option<u64>,
    /// Drag in progress.
    pub drag: Option<DiagramDrag>,
    /// Width of the bars in the last frame.
    pub bars_width: f32,
    /// Marks drawn in the last frame.
    pub drawn_marks: usize,
    /// Paths of the rows highlighted as selected in the last frame (first diagram).
    pub highlighted: Vec<String>,
    /// Selection on the canvas in the last frame (a change scrolls its row into view).
    pub last_selected: Vec<String>,
    /// O–X figures of the last frame, reused while nothing they depend on changes.
    pub figures_cache: Option<FiguresCache>,
}

impl Default for TimingView {
    fn default() -> Self {
        TimingView {
            scroll: 0.0,
            fitted_for: None,
            drag: None,
            bars_width: 800.0,
            drawn_marks: 0,
            highlighted: Vec::new(),
            last_selected: Vec::new(),
            figures_cache: None,
        }
    }
}

/// O–X figures computed for a cursor interval and a set of rows.
pub struct FiguresCache {
    /// Interval and the diagrams shown.
    pub key: (u64, u64, Option<u64>),
    /// Rows of each diagram.
    pub rows: Vec<Arc<[Row]>>,
    /// Figures of each diagram.
    pub figures: Vec<Vec<RowFigures>>,
}
