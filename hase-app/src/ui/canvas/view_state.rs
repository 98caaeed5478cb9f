//! [`Canvas`]: the canvas panel's view state kept between frames — the pan and zoom of each
//! network, the scene laid out for the document (rebuilt when it changes), node and port positions
//! this frame, the drag in progress, what the pointer is over, scratch buffers, and what the last
//! frame drew (for the status bar, tests and benchmarks). None of it is the editor's state.

use std::collections::BTreeMap;

use egui::{Pos2, Rect};

use super::drag::Drag;
use super::draw;
use super::geometry::{self, CanvasScene, PortLayout};
use super::view::View;
use crate::ui::animator::replay_frame::Drawn;
use hase_editor::document::NetworkId;
use hase_editor::state::{Editor, Selection};

/// The canvas panel's view state kept between frames.
pub struct Canvas {
    pub(super) views: BTreeMap<NetworkId, View>,
    pub(super) scene: CanvasScene,
    pub(super) scene_key: Option<(u64, u64, NetworkId)>,
    /// Node centres this frame (stored positions plus any drag offset).
    pub(super) positions: Vec<Pos2>,
    pub(super) ports: PortLayout,
    /// The node centres `ports` was laid out for (laid out again only when they or the scene
    /// change: a frame that moves nothing reuses it).
    ports_laid_out_for: Option<Vec<Pos2>>,
    /// The drag in progress.
    pub drag: Drag,
    /// The drag just ended is kept one more frame, drawn as it ended, until the editor has the
    /// edit it asked for.
    pub(super) settling: bool,
    /// Screen area of the canvas in the last frame.
    pub area: Rect,
    /// Canvas point under the pointer in the last frame.
    pub pointer: Option<Pos2>,
    pub(super) hover: Option<geometry::Hit>,
    pub(super) scratch: draw::CanvasScratch,
    /// Shapes drawn in the last frame (for the status bar and benchmarks).
    pub drawn_nodes: usize,
    /// The last frame drew the network from far, as one image.
    pub drawn_far: bool,
    /// Far-view images drawn so far (a frame that shows the same keeps its image).
    pub far_images_drawn: u64,
    /// What the replay layers drew in the last frame (for tests and benchmarks).
    pub drawn_replay: Drawn,
    /// A palette template dropped on the canvas (the app opens the template dialog on it).
    pub template_dropped: Option<&'static str>,
    /// Screen points along the bottom that a fit leaves free (for the replay's legend).
    pub(super) reserved_bottom: f32,
}

impl Default for Canvas {
    fn default() -> Self {
        Canvas {
            views: BTreeMap::new(),
            scene: CanvasScene::default(),
            scene_key: None,
            positions: Vec::new(),
            ports: PortLayout::default(),
            ports_laid_out_for: None,
            drag: Drag::None,
            settling: false,
            area: Rect::from_min_size(Pos2::ZERO, egui::Vec2::new(800.0, 600.0)),
            pointer: None,
            hover: None,
            scratch: draw::CanvasScratch::default(),
            drawn_nodes: 0,
            drawn_far: false,
            far_images_drawn: 0,
            drawn_replay: Drawn::default(),
            template_dropped: None,
            reserved_bottom: 0.0,
        }
    }
}

impl Canvas {
    /// The view of network `net`.
    pub fn view(&self, net: &NetworkId) -> View {
        self.views.get(net).copied().unwrap_or_default()
    }

    /// Set the view of network `net`.
    pub fn set_view(&mut self, net: &NetworkId, view: View) {
        self.views.insert(net.clone(), view);
    }

    /// Zoom the view of `net` about the centre of the canvas.
    pub fn zoom_by(&mut self, net: &NetworkId, factor: f32) {
        let area = self.area;
        let v = self.views.entry(net.clone()).or_default();
        v.zoom_about(area, area.center(), factor);
    }

    /// Make sure the scene and per-frame geometry match the document, the selection (what a drag
    /// moves) and the current drag.
    pub fn refresh(&mut self, editor: &Editor, selection: &Selection) {
        let net = editor.current_net();
        let key = (editor.generation, editor.history.revision(), net.clone());
        if self.scene_key.as_ref() != Some(&key) {
            self.scene = CanvasScene::build(&editor.doc, &net);
            self.scene_key = Some(key);
            self.ports_laid_out_for = None;
            self.hover = None;
            if !matches!(self.drag, Drag::Pan | Drag::None) {
                self.drag = Drag::None;
            }
        }
        self.positions.clear();
        self.positions.extend(self.scene.nodes.iter().map(|n| n.pos));
        if let Drag::Move { delta, .. } = &self.drag {
            for (i, node) in self.scene.nodes.iter().enumerate() {
                if selection.instances.contains(&node.name) {
                    self.positions[i] += *delta;
                }
            }
        }
        if self.ports_laid_out_for.as_deref() != Some(&self.positions[..]) {
            self.ports.compute(&self.scene, &self.positions);
            self.ports_laid_out_for = Some(self.positions.clone());
        }
    }

    /// The scene shown.
    pub fn scene(&self) -> &CanvasScene {
        &self.scene
    }

    /// Node centres in the last frame (stored positions plus any drag offset), by scene node.
    pub fn positions(&self) -> &[Pos2] {
        &self.positions
    }

    /// Port positions in the last frame.
    pub fn port_layout(&self) -> &PortLayout {
        &self.ports
    }

    /// Screen position of instance `name` in the last frame (for tests and tooling).
    pub fn screen_pos_of(&self, editor: &Editor, name: &str) -> Option<Pos2> {
        let i = *self.scene.by_name.get(name)?;
        Some(self.view(&editor.current_net()).to_screen(self.area, self.positions[i]))
    }

    /// Screen position of port `port` of instance `name` in the last frame.
    pub fn screen_pos_of_port(&self, editor: &Editor, name: &str, port: &str) -> Option<Pos2> {
        let i = *self.scene.by_name.get(name)?;
        let node = &self.scene.nodes[i];
        let p = node.ports.iter().position(|p| p.name == port)?;
        let at = self.ports.pos[node.first_port + p];
        Some(self.view(&editor.current_net()).to_screen(self.area, at))
    }

    /// Fit the view of `net` to its contents (above the replay's legend when one is drawn).
    pub fn fit(&mut self, net: &NetworkId) {
        let mut room = self.area;
        room.max.y = (room.max.y - self.reserved_bottom).max(room.min.y + room.height() * 0.5);
        let view = match self.scene.bounds(&self.positions) {
            Some(bounds) => {
                // The view is centred in the area: shift it up by half the room left free.
                let mut view = View::fit(room, bounds, 40.0);
                view.pan.y -= (self.area.height() - room.height()) / 2.0;
                view
            }
            None => View::default(),
        };
        self.set_view(net, view);
    }
}
