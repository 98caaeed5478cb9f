//! [`SessionCommand`]: every change the replay views ask of the session — the animator's clock,
//! what the statistics tab shows, the timing diagram's state, the comparison's designs, entities
//! to reveal, files to ask for. The panels draw from a read-only view of the session and return
//! commands; the application collects them from every panel during a frame and applies them at
//! one point (`Session::apply`).

use hase_engine::time::SimTime;

use super::stats_order::{EntityColumn, LinkColumn};
use super::timing::command::TimingCommand;
use crate::run::{NextRunSettings, ReplayFile};
use crate::state::command::EditorCommand;

/// An entity to select and show on a canvas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reveal {
    /// The comparison's side whose canvas shows it; `None` for the design's canvas.
    pub side: Option<usize>,
    /// The entity's instance path.
    pub path: String,
}

/// A change of the session asked for by a view.
#[derive(Clone, Debug)]
pub enum SessionCommand {
    /// Play or pause the animator (playing from the end starts again).
    TogglePlay,
    /// Jump to the next (`forward`) or previous event shown of the runs shown, and pause.
    Step {
        /// Next rather than previous.
        forward: bool,
    },
    /// Move the animator to a time (clamped to the runs), going on playing if it was.
    Scrub(SimTime),
    /// Pause the animator and move it to a time (clamped to the runs).
    PauseAt(SimTime),
    /// Start again at the end, or not.
    SetLooping(bool),
    /// The lowest trace level the animator shows (2 messages, 3 updates, 4 states only).
    SetMinLevel(u8),
    /// Simulated picoseconds per second of playback.
    SetSpeed {
        /// The speed.
        ps_per_s: f64,
    },
    /// Settings of the next run (the toolbar's).
    SetRunSettings(NextRunSettings),
    /// Show this side of the comparison in the statistics tab.
    ShowStatsOf(usize),
    /// A click on the entity table's heading of this column.
    SortEntities(EntityColumn),
    /// A click on the link table's heading of this column.
    SortLinks(LinkColumn),
    /// Select and show an entity on a canvas.
    Reveal(Reveal),
    /// Ask the user for a file (the app opens the dialog).
    AskFile(ReplayFile),
    /// Change the timing diagram's state.
    Timing(TimingCommand),
    /// Run the design again with these changes beside it (a what-if from the critical path).
    WhatIf(crate::analysis_views::what_if::WhatIfRequest),
    /// Change the editor of a comparison's side (its canvas: selection, hierarchy, fit).
    EditSide {
        /// The side.
        side: usize,
        /// The change.
        command: EditorCommand,
    },
}
