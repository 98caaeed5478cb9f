//! What the animator's layers of one canvas frame draw from ([`ReplayFrame`]) and what they drew
//! ([`Drawn`]).

use std::collections::BTreeMap;

use hase_editor::replay::Replay;
use hase_editor::replay::events::Snapshot;
use hase_engine::model::ParamDisplay;
use hase_engine::time::SimTime;

use super::map::SceneMap;
use crate::theme::ReplayColours;
use hase_editor::analysis_views::critical::DrawingWeights;

/// The replay layers of one canvas frame: what the canvas frame draws between and over its
/// own layers when a run is shown (the canvas part — area, view, scene, positions, ports, colours
/// — is the frame's).
pub struct ReplayFrame<'a> {
    /// The run.
    pub replay: &'a Replay,
    /// Replay state at `time`.
    pub snap: &'a Snapshot,
    /// Trace → canvas.
    pub map: &'a SceneMap,
    /// Current time.
    pub time: SimTime,
    /// Time text resolution of the replay clock (ps), so the legend reads as the replay bar.
    pub resolution_ps: u64,
    /// Load window (ps).
    pub window: (u64, u64),
    /// Lowest trace level shown (2 messages, 3 updates, 4 states).
    pub min_level: u8,
    /// Display choices of the shown network: instance → parameter → how.
    pub displayed: &'a BTreeMap<String, BTreeMap<String, ParamDisplay>>,
    /// Replay colours.
    pub colours: &'a ReplayColours,
    /// The critical path's weights, when it is shown.
    pub critical: Option<&'a DrawingWeights>,
}

/// What a frame drew (for tests and benchmarks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Drawn {
    /// Links tinted by load.
    pub tinted_links: usize,
    /// Links and nodes drawn on the critical path.
    pub critical: usize,
    /// Packets drawn one by one.
    pub packets: usize,
    /// Clusters drawn.
    pub clusters: usize,
    /// Nodes given a state.
    pub nodes: usize,
    /// Displayed parameter values and arrays drawn beside their nodes.
    pub values: usize,
    /// Array cells drawn marked as written lately.
    pub cells_written: usize,
    /// Array cells drawn marked as read lately.
    pub cells_read: usize,
}
