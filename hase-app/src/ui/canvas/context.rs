//! What one canvas frame is drawn with ([`CanvasContext`], with the run shown over the design in a
//! [`ReplayLayer`]), what it asks for ([`CanvasOutput`]), and what a palette entry carries while it
//! is dragged onto the canvas ([`PalettePayload`]).

use hase_editor::analysis_views::critical::DrawingWeights;
use hase_editor::replay::events::Snapshot;
use hase_editor::run::FinishedRun;
use hase_editor::session::player::Player;
use hase_editor::state::EditorCommand;
use hase_engine::time::SimTime;

use crate::actions::AppAction;
use crate::icons::Icons;
use crate::theme::{Palette, ReplayColours};
use crate::ui::animator::MapCache;
use crate::ui::animator::images::StateImages;

/// Shown on the canvas instead of a run that ran an earlier version of the design.
pub const STALE_NOTICE: &str =
    "The run shown is of an earlier version of this design: press Run (F5) to run this one.";

/// What one canvas frame is drawn with, besides the canvas's own state and the editor.
pub struct CanvasContext<'a> {
    /// Icon textures.
    pub icons: &'a Icons,
    /// Colours.
    pub palette: &'a Palette,
    /// A run shown over the design.
    pub replay: Option<ReplayLayer<'a>>,
    /// Fit the open network this frame, whether or not the editor asks for it (a comparison's
    /// canvas whose area changed).
    pub fit: bool,
}

/// A run shown over the design (the animator's layers of the canvas).
pub struct ReplayLayer<'a> {
    /// The run.
    pub run: &'a FinishedRun,
    /// Its replay state at the player's time.
    pub snap: &'a Snapshot,
    /// The animator's clock and what it shows.
    pub player: &'a Player,
    /// The end of the run the clock follows (a comparison's longer run), for its time digits.
    pub clock_end: SimTime,
    /// The trace-to-canvas map, rebuilt when the run or the design changes.
    pub map: &'a mut MapCache,
    /// State images of the types.
    pub images: &'a mut StateImages,
    /// Replay colours.
    pub colours: &'a ReplayColours,
    /// The run is of an earlier version of the design: it is not drawn, a notice says so.
    pub stale: bool,
    /// The critical path's weights, when it is shown.
    pub critical: Option<&'a DrawingWeights>,
}

/// What one canvas frame asks for.
#[derive(Debug, Default)]
pub struct CanvasOutput {
    /// Actions chosen in the right-click menu.
    pub actions: Vec<AppAction>,
    /// Changes of the editor (selection, edits, hierarchy, placing, fit), in order.
    pub commands: Vec<EditorCommand>,
}

/// What a palette entry carries while it is dragged onto the canvas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PalettePayload {
    /// The type to place.
    pub type_name: String,
}

/// What a palette template carries while it is dragged onto the canvas (dropped, it opens the
/// template dialog, as a click does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TemplatePayload {
    /// The topology's name (`hase_templates::Topology::all_names`).
    pub name: &'static str,
}
