//! [`CanvasFrame`]: everything one frame of the canvas draws from (area, view, scene, the editor,
//! the selection and placement tool this frame leaves, the replay layers' part), what it drew
//! ([`FrameDrawn`]), and the sizes of names and labels at a zoom, which the animator's values keep
//! clear of ([`text_bottom`]).

use egui::{Pos2, Rect};

use super::drag::Drag;
use super::geometry::{CanvasScene, Hit, NODE_SIZE, PORT_RADIUS, PortLayout};
use super::view::View;
use crate::icons::Icons;
use crate::theme::Palette;
use crate::ui::animator::replay_frame::{Drawn, ReplayFrame};
use hase_editor::state::{Editor, Selection};

/// Below this zoom names are left out (they would run into their neighbours' names).
const NAMES_FROM_ZOOM: f32 = 0.4;
/// Below this zoom displayed parameter labels are left out.
const LABELS_FROM_ZOOM: f32 = 0.55;
/// Smallest name and label sizes in screen points (what stays readable).
const MIN_NAME_PX: f32 = 9.0;
const MIN_LABEL_PX: f32 = 8.0;

/// Everything one frame of drawing needs.
pub struct CanvasFrame<'a> {
    /// Screen area of the canvas.
    pub area: Rect,
    /// Pan and zoom.
    pub view: View,
    /// The network.
    pub scene: &'a CanvasScene,
    /// Node centres this frame.
    pub positions: &'a [Pos2],
    /// Port positions this frame.
    pub ports: &'a PortLayout,
    /// The document and settings.
    pub editor: &'a Editor,
    /// The selection as this frame's input leaves it.
    pub selection: &'a Selection,
    /// The palette type armed for click-to-place, as this frame's input leaves it.
    pub placing: Option<&'a str>,
    /// Icon textures.
    pub icons: &'a Icons,
    /// Colours.
    pub palette: &'a Palette,
    /// Drag in progress.
    pub drag: &'a Drag,
    /// What the pointer is over.
    pub hover: Option<Hit>,
    /// Pointer in canvas units.
    pub pointer: Option<Pos2>,
    /// The run shown over the design, if any.
    pub replay: Option<ReplayFrame<'a>>,
    /// A line shown in the canvas's lower left corner instead of the replay's legend (why the
    /// run is not drawn: it ran an earlier version of the design).
    pub notice: Option<&'a str>,
}

/// What one frame drew.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameDrawn {
    /// Entities drawn (the rest were culled).
    pub nodes: usize,
    /// The network was drawn from far, as one image (see `raster`).
    pub far: bool,
    /// That image was drawn anew (not kept from the frame before).
    pub far_image_drawn: bool,
    /// What the replay layers drew.
    pub replay: Drawn,
}

/// Size of entity names at `zoom`, or `None` when they are left out.
pub fn name_px(zoom: f32) -> Option<f32> {
    (zoom >= NAMES_FROM_ZOOM).then(|| (13.0 * zoom.min(1.4)).max(MIN_NAME_PX))
}

/// Size of displayed parameter labels at `zoom`, or `None` when they are left out.
pub fn label_px(zoom: f32) -> Option<f32> {
    (zoom >= LABELS_FROM_ZOOM).then(|| (11.0 * zoom.min(1.4)).max(MIN_LABEL_PX))
}

/// How far below an entity's centre its name and `label_lines` parameter labels end, in screen
/// points at `zoom` (what the animator's live values must stay clear of).
pub fn text_bottom(zoom: f32, label_lines: usize) -> f32 {
    let mut y = NODE_SIZE * zoom * 0.5 + 3.0 * zoom + PORT_RADIUS * zoom;
    if let Some(px) = name_px(zoom) {
        y += px * 1.25;
        if let Some(px) = label_px(zoom) {
            y += label_lines as f32 * px * 1.25;
        }
    }
    y
}
