//! What one frame of the timing diagrams is drawn with ([`TimingContext`]: the [`Diagram`]s, the
//! animator's time, colours), each diagram as laid out for its input and labels ([`Pane`]), and
//! what the frame asks for ([`DiagramRequests`]: the state's commands, a time to move the
//! animator to, an entity to show, exports).

use egui::Rect;

use super::draw::Geometry;
use crate::theme::{Palette, ReplayColours};
use hase_editor::replay::Replay;
use hase_editor::session::timing::TimingCommand;
use hase_editor::session::timing::rows::Row;

/// Width of the row label column.
pub const LABEL_WIDTH: f32 = 170.0;

/// One diagram to show.
pub struct Diagram<'a> {
    /// The run.
    pub replay: &'a Replay,
    /// Heading (comparisons).
    pub title: Option<String>,
    /// Paths of the entities selected on the canvas.
    pub selected: Vec<String>,
    /// The run's id and its trace (the records of a loaded file, or only the header of a run,
    /// whose records are rebuilt from the replay): what phases and differences are found in.
    pub source: Option<(u64, &'a hase_engine::trace::Trace)>,
    /// The run's expected makespan from a closed form, marked on the ruler.
    pub expected: Option<&'a hase_library::expected::Expected>,
}

/// What the timing tab shows this frame, besides the state it keeps between frames.
pub struct TimingContext<'a> {
    /// The diagrams, stacked (one, or both sides of a comparison).
    pub diagrams: &'a [Diagram<'a>],
    /// Identifies what is shown: the view is fitted when it changes.
    pub key: u64,
    /// The animator's time.
    pub now_ps: u64,
    /// The run shown is of an earlier version of the design: greyed, with a hint to run again.
    pub stale: bool,
    /// Replay colours.
    pub colours: &'a ReplayColours,
    /// Editor colours.
    pub palette: &'a Palette,
    /// The design being edited: what a what-if from the critical path changes (a copy of).
    pub project: Option<&'a hase_engine::model::Project>,
}

/// One diagram as laid out this frame, for its input handling and its labels.
pub struct Pane<'a> {
    /// The diagram.
    pub diagram: &'a Diagram<'a>,
    /// Its index among the diagrams shown.
    pub index: usize,
    /// The rows shown.
    pub rows: &'a [Row],
    /// Ruler, bars and scroll.
    pub geometry: Geometry,
    /// The label column.
    pub labels: Rect,
    /// Indices of the rows of the entities selected on the canvas.
    pub selected_rows: &'a [usize],
    /// End of the longest run shown (ps).
    pub end: u64,
}

/// What the user asked of the diagrams this frame, and where they were drawn.
#[derive(Debug, Default)]
pub struct DiagramRequests {
    /// Changes of the diagrams' state kept in the session, in order.
    pub commands: Vec<TimingCommand>,
    /// Screen area of the diagrams (what a PNG export saves).
    pub area: Option<Rect>,
    /// Move the animator to this time.
    pub seek: Option<u64>,
    /// Select and show this entity (diagram index, path).
    pub select: Option<(usize, String)>,
    /// Export the visible diagram as PNG.
    pub export_png: bool,
    /// Export these O–X figures as CSV.
    pub export_csv: Option<String>,
    /// Run this what-if from the critical path.
    pub what_if: Option<hase_editor::analysis_views::what_if::WhatIfRequest>,
}
