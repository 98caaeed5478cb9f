//! [`TimingCommand`]: every change the timing diagram asks of its state kept in the session — the
//! time axis and its history, the cursors O and X, the named markers, folding and the row filter,
//! the view toggles, the difference mode's settings — and the analyses it found once and keeps
//! (a run's phases and critical path, a comparison's differences). Applied at one point of the frame
//! (`TimingState::apply`, through `SessionCommand::Timing`).

use std::sync::Arc;

use hase_engine::analysis::{Align, PhaseReport};

use super::cursors::{Cursors, Which};
use super::view::TimeView;
use crate::analysis_views::critical::Found;
use crate::analysis_views::difference::Computed;

/// A change of the timing diagram's state asked for by the diagram.
#[derive(Clone, Debug)]
pub enum TimingCommand {
    /// Show this part of the time axis (a pan, a zoom, a clamp to the run).
    SetView(TimeView),
    /// Remember the view for "back" (at most every 0.6 s of input time unless `force`).
    RememberView {
        /// Input time (s).
        now_s: f64,
        /// Remember it however recently the last one was.
        force: bool,
    },
    /// Remember the view for "back", then show this one (fit, zoom to O–X, go to a row).
    GoTo(TimeView),
    /// Show this view with no history (what is shown changed: the view is fitted to it).
    Restart(TimeView),
    /// Back to the previous view.
    Back,
    /// Forward again after a back.
    Forward,
    /// Place cursor O or X.
    SetCursor(Which, u64),
    /// Place both cursors.
    SetCursors(Cursors),
    /// Add a marker named `M<n>` at this time (ps).
    AddMarker(u64),
    /// Rename marker `index`.
    RenameMarker {
        /// Its index in time order.
        index: usize,
        /// The new name.
        name: String,
    },
    /// Remove marker `index`.
    RemoveMarker(usize),
    /// The row filter text.
    SetFilter(String),
    /// Unfold the group at this path if it is folded, fold it if it is unfolded.
    ToggleFold(String),
    /// Unfold the groups at these paths.
    Unfold(Vec<String>),
    /// Fold every group.
    FoldAll,
    /// Draw message arrows, or not.
    ShowArrows(bool),
    /// Show traced parameter rows, or not.
    ShowParams(bool),
    /// Show the O–X figures beside the diagram, or not.
    ShowFigures(bool),
    /// Draw the communication phases as bands, or not.
    ShowPhases(bool),
    /// Outline the critical path and show its blame, or not.
    ShowCriticalPath(bool),
    /// The what-if menu's factor, typed assignment and open window.
    SetWhatIf(crate::analysis_views::what_if::WhatIfMenu),
    /// The comparison's difference mode on or off.
    ShowDifferences(bool),
    /// How the difference mode pairs rows.
    AlignRows(Align),
    /// The difference mode's tolerance as typed.
    SetTolerance(String),
    /// Highlight this row of the table of differences and go to it.
    FocusDifference(String),
    /// The diagrams went to the focused row.
    FocusReached,
    /// Find the phases of run `run` (on a worker thread; see `PhaseBands`).
    FindPhases(u64),
    /// Keep the phases found in run `run`.
    KeepPhases {
        /// The run's id.
        run: u64,
        /// What was found.
        report: Arc<PhaseReport>,
    },
    /// Find the critical path of run `run` (on a worker thread; see `CriticalPathView`).
    FindCriticalPath(u64),
    /// Keep the critical path found in run `run`.
    KeepCriticalPath {
        /// The run's id.
        run: u64,
        /// What was found.
        report: Arc<Found>,
    },
    /// Compare runs `[left, right]` with the difference mode's settings (on a worker thread;
    /// see `DifferenceMode::ask`).
    CompareRuns([u64; 2]),
    /// Keep the comparison of two runs.
    KeepDifference(Arc<Computed>),
}
