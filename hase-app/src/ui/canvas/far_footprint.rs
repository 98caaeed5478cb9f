//! Where each link and node of the far view falls in its image (see `raster`): the pixels of every
//! link's one-pixel line, of every visible node's square, and every link's points on screen. They
//! are worked out once for a view and kept while the canvas area, the view, the scale and the laid
//! out design stay, so that a new moment of a run only colours the same pixels again.

use egui::{Pos2, Rect};

use super::frame::CanvasFrame;
use super::geometry::NODE_SIZE;
use super::pixels::Grid;
use super::view::View;
use hase_editor::document::NetworkId;

/// The pixels of every link and visible node of one view, kept between frames.
#[derive(Default)]
pub struct Footprint {
    key: Option<FootprintKey>,
    /// Every link's pixels, link after link.
    link_pixels: Vec<u32>,
    /// Where each link's pixels start in `link_pixels` (one more entry than links).
    link_pixel_start: Vec<u32>,
    /// Every link's points on screen, link after link (none for a link out of view).
    link_screen: Vec<Pos2>,
    /// Where each link's screen points start in `link_screen` (one more entry than links).
    link_screen_start: Vec<u32>,
    /// The visible nodes, in drawing order.
    nodes: Vec<usize>,
    /// Every visible node's pixels, node after node.
    node_pixels: Vec<u32>,
    /// Where each visible node's pixels start in `node_pixels` (one more entry than `nodes`).
    node_pixel_start: Vec<u32>,
}

/// Everything the footprint depends on.
#[derive(Clone, Debug, PartialEq)]
struct FootprintKey {
    grid: Grid,
    area: Rect,
    view: View,
    /// The document's generation and revision, and the network shown.
    document: (u64, u64, NetworkId),
    links: usize,
    nodes: usize,
}

/// The slice `start[i]..start[i + 1]` of `items` (empty past the end).
fn span<'a, T>(items: &'a [T], start: &[u32], i: usize) -> &'a [T] {
    match (start.get(i), start.get(i + 1)) {
        (Some(&a), Some(&b)) => &items[a as usize..b as usize],
        _ => &[],
    }
}

impl Footprint {
    /// Make the footprint that of `f` on `grid` with `visible` nodes, working it out again unless
    /// the one kept is of the same view and design; `keep` false works it out in any case (while a
    /// drag moves entities without changing the document). Returns true if it was worked out.
    pub fn ensure(&mut self, f: &CanvasFrame<'_>, grid: Grid, visible: &[usize], keep: bool) -> bool {
        let key = FootprintKey {
            grid,
            area: f.area,
            view: f.view,
            document: (f.editor.generation, f.editor.history.revision(), f.editor.current_net()),
            links: f.scene.links.len(),
            nodes: f.scene.nodes.len(),
        };
        if keep && self.key.as_ref() == Some(&key) && self.nodes == visible {
            return false;
        }
        self.link_pixels.clear();
        self.link_pixel_start.clear();
        self.link_screen.clear();
        self.link_screen_start.clear();
        let in_view = f.view.visible(f.area).expand(NODE_SIZE);
        for l in 0..f.scene.links.len() {
            self.link_pixel_start.push(self.link_pixels.len() as u32);
            self.link_screen_start.push(self.link_screen.len() as u32);
            if !f.ports.link_in_view(l, in_view) {
                continue;
            }
            let from = self.link_screen.len();
            self.link_screen.extend(f.ports.link_path(l).iter().map(|&p| f.view.to_screen(f.area, p)));
            grid.polyline(&self.link_screen[from..], &mut self.link_pixels);
        }
        self.link_pixel_start.push(self.link_pixels.len() as u32);
        self.link_screen_start.push(self.link_screen.len() as u32);
        self.nodes.clear();
        self.nodes.extend_from_slice(visible);
        self.node_pixels.clear();
        self.node_pixel_start.clear();
        let side = NODE_SIZE * f.view.zoom;
        for &i in visible {
            self.node_pixel_start.push(self.node_pixels.len() as u32);
            grid.square(f.view.to_screen(f.area, f.positions[i]), side, &mut self.node_pixels);
        }
        self.node_pixel_start.push(self.node_pixels.len() as u32);
        self.key = Some(key);
        true
    }

    /// Forget the footprint (the next frame works it out anew).
    pub fn clear(&mut self) {
        *self = Footprint::default();
    }

    /// The pixels of link `l`'s line (empty for a link out of view).
    pub fn link_pixels(&self, l: usize) -> &[u32] {
        span(&self.link_pixels, &self.link_pixel_start, l)
    }

    /// Link `l`'s points on screen (empty for a link out of view).
    pub fn link_screen(&self, l: usize) -> &[Pos2] {
        span(&self.link_screen, &self.link_screen_start, l)
    }

    /// True if link `l` is in view (its points were placed on screen).
    pub fn link_in_view(&self, l: usize) -> bool {
        !self.link_screen(l).is_empty()
    }

    /// The visible nodes with their squares' pixels, in drawing order.
    pub fn nodes(&self) -> impl Iterator<Item = (usize, &[u32])> + '_ {
        self.nodes.iter().enumerate().map(|(k, &i)| (i, span(&self.node_pixels, &self.node_pixel_start, k)))
    }
}
