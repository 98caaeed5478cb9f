//! The design canvas: shows the open network with pan and zoom (and a run over it, when one is
//! shown), and turns pointer input into commands (place, select, move, link, corner edits).
//! Geometry and hit testing live in [`geometry`], the transform in [`view`], drawing in [`draw`]
//! (and in [`raster`] for a large network seen from far), pointer handling in [`interact`]; [`CanvasContext`] is what a frame is drawn with.

pub mod context;
pub mod drag;
pub mod draw;
pub mod frame;
pub mod geometry;
pub mod interact;
pub mod raster;
pub mod view;

use std::collections::BTreeMap;

use egui::{Pos2, Rect, Sense, Ui};
use hase_engine::time::SimTime;

use crate::actions::AppAction;
use crate::icons::Icons;
use crate::theme::{Palette, ReplayColours};
use crate::ui::animator::MapCache;
use crate::ui::animator::images::StateImages;
use crate::ui::animator::replay_frame::{Drawn, ReplayFrame};
use geometry::{CanvasScene, PortLayout};
use hase_editor::document::NetworkId;
use hase_editor::replay::events::Snapshot;
use hase_editor::run::FinishedRun;
use hase_editor::session::player::Player;
use hase_editor::state::Editor;
use view::View;

pub use drag::Drag;

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
}

/// A run shown over the design (the animator's layers of the canvas).
pub struct ReplayLayer<'a> {
    /// The run.
    pub run: &'a FinishedRun,
    /// Its replay state, moved to the player's time here.
    pub snap: &'a mut Snapshot,
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
}

/// What a palette entry carries while it is dragged onto the canvas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PalettePayload {
    /// The type to place.
    pub type_name: String,
}

/// State of the canvas panel kept between frames.
pub struct Canvas {
    views: BTreeMap<NetworkId, View>,
    scene: CanvasScene,
    scene_key: Option<(u64, u64, NetworkId)>,
    /// Node centres this frame (stored positions plus any drag offset).
    positions: Vec<Pos2>,
    ports: PortLayout,
    /// The drag in progress.
    pub drag: Drag,
    /// Screen area of the canvas in the last frame.
    pub area: Rect,
    /// Canvas point under the pointer in the last frame.
    pub pointer: Option<Pos2>,
    hover: Option<geometry::Hit>,
    scratch: draw::CanvasScratch,
    /// Shapes drawn in the last frame (for the status bar and benchmarks).
    pub drawn_nodes: usize,
    /// The last frame drew the network from far, as one image.
    pub drawn_far: bool,
    /// Far-view images drawn so far (a frame that shows the same keeps its image).
    pub far_images_drawn: u64,
    /// What the replay layers drew in the last frame (for tests and benchmarks).
    pub drawn_replay: Drawn,
}

impl Default for Canvas {
    fn default() -> Self {
        Canvas {
            views: BTreeMap::new(),
            scene: CanvasScene::default(),
            scene_key: None,
            positions: Vec::new(),
            ports: PortLayout::default(),
            drag: Drag::None,
            area: Rect::from_min_size(Pos2::ZERO, egui::Vec2::new(800.0, 600.0)),
            pointer: None,
            hover: None,
            scratch: draw::CanvasScratch::default(),
            drawn_nodes: 0,
            drawn_far: false,
            far_images_drawn: 0,
            drawn_replay: Drawn::default(),
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

    /// Make sure the scene and per-frame geometry match the document and the current drag.
    pub fn refresh(&mut self, editor: &Editor) {
        let net = editor.current_net();
        let key = (editor.generation, editor.history.revision(), net.clone());
        if self.scene_key.as_ref() != Some(&key) {
            self.scene = CanvasScene::build(&editor.doc, &net);
            self.scene_key = Some(key);
            self.hover = None;
            if !matches!(self.drag, Drag::Pan | Drag::None) {
                self.drag = Drag::None;
            }
        }
        self.positions.clear();
        self.positions.extend(self.scene.nodes.iter().map(|n| n.pos));
        if let Drag::Move { delta, .. } = &self.drag {
            for (i, node) in self.scene.nodes.iter().enumerate() {
                if editor.selection.instances.contains(&node.name) {
                    self.positions[i] += *delta;
                }
            }
        }
        self.ports.compute(&self.scene, &self.positions);
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

    /// Show the canvas in the remaining space of `ui`; returns actions chosen in its context menu.
    pub fn show(&mut self, ui: &mut Ui, editor: &mut Editor, cx: CanvasContext<'_>) -> Vec<AppAction> {
        let CanvasContext { icons, palette, replay } = cx;
        let area = ui.available_rect_before_wrap();
        let response = ui.allocate_rect(area, Sense::click_and_drag());
        self.area = area;
        let net = editor.current_net();
        self.refresh(editor);
        if editor.fit_requested && area.width() > 1.0 {
            editor.fit_requested = false;
            self.fit(&net);
        }
        interact::handle(self, ui, &response, editor);
        let actions = context::context_menu(self, &response, editor);
        context::hover_tooltip(self, &response, editor);
        // Input may have changed the document or the drag: lay out again before drawing.
        self.refresh(editor);
        let painter = ui.painter_at(area);
        let view = self.view(&net);
        let ctx = ui.ctx().clone();
        let editor: &Editor = editor;
        let mut notice = None;
        let (replay_frame, mut images) = match replay {
            Some(layer) if layer.stale => {
                notice = Some(STALE_NOTICE);
                (None, None)
            }
            Some(ReplayLayer { run, snap, player, clock_end, map, images, colours, .. }) => {
                run.replay.log.seek(snap, player.time);
                let map = map.get(self.scene(), editor, run);
                let frame = ReplayFrame {
                    replay: &run.replay,
                    snap,
                    map,
                    time: player.time,
                    resolution_ps: player.resolution_ps(clock_end),
                    window: player.load_window(run.replay.end),
                    min_level: player.min_level,
                    displayed: &editor.doc.layout(&net).displayed,
                    colours,
                };
                (Some(frame), Some(images))
            }
            None => (None, None),
        };
        let mut image = |icon: &str, state: &str| {
            images.as_mut().and_then(|i| i.get(&ctx, icon, state)).map(egui::TextureHandle::id)
        };
        let drawn = draw::draw(
            &painter,
            &frame::CanvasFrame {
                area,
                view,
                scene: &self.scene,
                positions: &self.positions,
                ports: &self.ports,
                editor,
                icons,
                palette,
                drag: &self.drag,
                hover: self.hover,
                pointer: self.pointer,
                replay: replay_frame,
                notice,
            },
            &mut self.scratch,
            &mut image,
        );
        self.drawn_nodes = drawn.nodes;
        self.drawn_far = drawn.far;
        self.far_images_drawn += u64::from(drawn.far_image_drawn);
        self.drawn_replay = drawn.replay;
        actions
    }

    /// Fit the view of `net` to its contents.
    pub fn fit(&mut self, net: &NetworkId) {
        let view = match self.scene.bounds(&self.positions) {
            Some(bounds) => View::fit(self.area, bounds, 40.0),
            None => View::default(),
        };
        self.set_view(net, view);
    }
}
