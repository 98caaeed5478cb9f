//! The animator: replays a run's trace on the design canvas, on the clock of
//! `hase_editor::session::player::Player`; [`map`] ties trace entities and links to the canvas's
//! nodes and links; [`overlay`] holds the canvas's replay layers (states, packets, link load and
//! live parameter values), drawn by the canvas itself, and [`critical_layer`] the critical path on the drawing; [`images`] finds per-type state images; [`controls`] is the replay bar.

pub mod controls;
pub mod critical_layer;
pub mod images;
pub mod map;
pub mod overlay;
pub mod replay_frame;

use crate::ui::canvas::geometry::CanvasScene;
use hase_editor::document::NetworkId;
use hase_editor::run::FinishedRun;
use hase_editor::state::Editor;
use map::SceneMap;

/// The trace-to-canvas map of the network on screen, rebuilt when the run, the document or the
/// open network changes.
#[derive(Default)]
pub struct MapCache {
    key: Option<(u64, u64, u64, NetworkId)>,
    map: SceneMap,
}

impl MapCache {
    /// The map for `run` on the canvas drawing `scene`, `editor`'s open network.
    pub fn get(&mut self, scene: &CanvasScene, editor: &Editor, run: &FinishedRun) -> &SceneMap {
        let net = editor.current_net();
        let key = (run.id, editor.generation, editor.history.revision(), net);
        if self.key.as_ref() != Some(&key) {
            let instances: Vec<String> = editor.crumbs.iter().map(|c| c.instance.clone()).collect();
            let build = self.map.build + 1;
            self.map = SceneMap::build(&run.replay, scene, &map::prefix_of(&instances));
            self.map.build = build;
            self.key = Some(key);
        }
        &self.map
    }
}
