//! A large network seen from far, drawn as one image. When thousands of entities are in view and
//! each is only a few screen points across, every link becomes a one-pixel line and every entity
//! a small square in an image the size of the canvas, uploaded as one texture. Drawn as shapes,
//! a 256×256 torus was half a million of them to tessellate and paint each frame, and a frame
//! took seconds. With a run shown, the lines take their load colour, the squares their state
//! colour, and each message on the wire is a dot along its link (unless the dots would cover more
//! than a quarter of the image); selected entities and links keep the selection colour.

use egui::{Color32, ColorImage, Painter, Rect, TextureHandle, TextureOptions, pos2};

use super::drag::Drag;
use super::far_footprint::Footprint;
use super::far_moment::Moment;
use super::frame::CanvasFrame;
use super::geometry::NODE_SIZE;
use super::pixels::{Grid, Pixels};
use super::view::View;
use crate::ui::animator::overlay;
use crate::ui::animator::replay_frame::Drawn;
use hase_editor::document::NetworkId;
use hase_editor::state::Selection;

/// Entities smaller than this on screen (points) are drawn in the image...
pub const FAR_BELOW_NODE_PX: f32 = 4.0;
/// ...when at least this many are in view.
pub const FAR_FROM_NODES: usize = 2_000;

/// A message on the wire is a dot this many points across.
const MESSAGE_DOT_PT: f32 = 2.0;

/// Whether `messages` dots of `dot_pixels` each are drawn on an image of `image_pixels`: only
/// while they would cover at most a quarter of it. Beyond that (a 256×256 torus's halo exchange
/// puts a quarter of a million messages on the wire) the dots hide the whole network under one
/// colour, and the links' load colours already show where the traffic is.
fn dots_fit(messages: usize, dot_pixels: usize, image_pixels: usize) -> bool {
    messages.saturating_mul(dot_pixels) <= image_pixels / 4
}

/// Whether the frame draws its network as one image: `visible_nodes` in view, each smaller than
/// [`FAR_BELOW_NODE_PX`].
pub fn wanted(f: &CanvasFrame<'_>, visible_nodes: usize) -> bool {
    NODE_SIZE * f.view.zoom < FAR_BELOW_NODE_PX && visible_nodes >= FAR_FROM_NODES
}

/// The image's texture, kept between frames with what the image shows (it is drawn again only
/// when that changes), and the two parts it is drawn from, each kept while what it depends on
/// stays: where every link and node falls in the image (the view) and what the run shows at the
/// moment (the time). A scrub or step colours the kept pixels anew; a zoom step places the kept
/// moment anew.
#[derive(Default)]
pub struct Raster {
    texture: Option<TextureHandle>,
    shown: Option<Shown>,
    footprint: Footprint,
    moment: Moment,
    /// Footprints and moments worked out so far (for tests and benchmarks).
    pub worked_out: (u64, u64),
}

impl Raster {
    /// Free the texture and what it was drawn from while the canvas draws shapes (the next far
    /// view makes them anew).
    pub fn release(&mut self) {
        if self.texture.is_some() || self.shown.is_some() {
            self.texture = None;
            self.shown = None;
            self.footprint.clear();
            self.moment.clear();
        }
    }
}

/// The image kept: what it shows, where it went on screen, and what drawing it counted.
#[derive(Clone, Debug)]
struct Shown {
    picture: Picture,
    rect: Rect,
    drawn: Drawn,
}

/// Everything the image depends on. Hovering is left out: the pointer's tooltip names what is
/// under it, and a highlight a pixel wide would redraw the whole image at every move.
#[derive(Clone, Debug, PartialEq)]
struct Picture {
    area: Rect,
    view: View,
    scale: f32,
    /// The document's generation and revision, and the network shown.
    document: (u64, u64, NetworkId),
    selection: Selection,
    replay: Option<RunShown>,
    canvas_colour: Color32,
}

/// The run an image shows: which run (its address, end, flights and events tell runs apart),
/// the moment, the load window and the lowest level shown.
#[derive(Clone, Debug, PartialEq)]
struct RunShown {
    run: (usize, u64, usize, usize),
    time_ps: u64,
    window: (u64, u64),
    min_level: u8,
}

fn picture_now(f: &CanvasFrame<'_>, scale: f32) -> Picture {
    Picture {
        area: f.area,
        view: f.view,
        scale,
        document: (f.editor.generation, f.editor.history.revision(), f.editor.current_net()),
        selection: f.selection.clone(),
        replay: f.replay.as_ref().map(|o| RunShown {
            run: (
                std::ptr::from_ref(o.replay) as usize,
                o.replay.end.0,
                o.replay.flights().len(),
                o.replay.log.events.len(),
            ),
            time_ps: o.time.0,
            window: o.window,
            min_level: o.min_level,
        }),
        canvas_colour: f.palette.canvas,
    }
}

/// How opaque a link's line is: half, so that crossing lines build up.
const LINK_OPACITY: f32 = 0.5;

/// Draw the links and the `visible` nodes of `f` (with its run, if any) as one image over the
/// canvas area, or show the image kept if it shows the same; counts what the run's layers drew
/// into `drawn`. Returns true if the image was drawn anew.
pub fn draw(
    painter: &Painter,
    f: &CanvasFrame<'_>,
    visible: &[usize],
    raster: &mut Raster,
    drawn: &mut Drawn,
) -> bool {
    // As sharp as the screen, but no larger than the largest texture the painter takes.
    let largest = painter.ctx().input(|i| i.max_texture_side) as f32;
    let scale = painter
        .ctx()
        .pixels_per_point()
        .min(largest / f.area.width().max(1.0))
        .min(largest / f.area.height().max(1.0));
    let picture = picture_now(f, scale);
    // A drag moves entities without changing the document until it ends: redraw all along.
    let dragging = !matches!(f.drag, Drag::None | Drag::Pan);
    if let (Some(texture), Some(shown)) = (&raster.texture, &raster.shown)
        && !dragging
        && shown.picture == picture
    {
        add_counts(drawn, shown.drawn);
        painter.image(
            texture.id(),
            shown.rect,
            Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
            Color32::WHITE,
        );
        return false;
    }
    let before = *drawn;
    let grid = Grid::new(f.area, scale);
    raster.worked_out.0 += u64::from(raster.footprint.ensure(f, grid, visible, !dragging));
    let replay = f.replay.as_ref().filter(|o| o.min_level <= 2);
    let state = f.replay.as_ref().map(|o| {
        raster.worked_out.1 += u64::from(raster.moment.ensure(f, o));
        &raster.moment
    });
    let footprint = &raster.footprint;
    let mut pixels = Pixels::on(grid);
    let selected_links = !f.selection.links.is_empty();
    // Links of one type share a colour: worked out once per run of equal types.
    let mut type_colour: Option<(&str, Color32)> = None;
    for (l, link) in f.scene.links.iter().enumerate() {
        if !footprint.link_in_view(l) {
            continue;
        }
        let load = match (replay, state) {
            (Some(_), Some(m)) => m.loads.get(l).copied().unwrap_or(0.0),
            _ => 0.0,
        };
        let colour = if selected_links && f.selection.links.contains(&link.key) {
            f.palette.selection
        } else if let Some(o) = replay
            && load >= 0.02
        {
            drawn.tinted_links += 1;
            o.colours.load(load.min(1.0))
        } else {
            match type_colour {
                Some((kind, colour)) if kind == link.link_type => colour,
                _ => {
                    let colour = f.palette.link_type_colour(&link.link_type).gamma_multiply(LINK_OPACITY);
                    type_colour = Some((&link.link_type, colour));
                    colour
                }
            }
        };
        pixels.blend(footprint.link_pixels(l), colour);
    }
    let selected_nodes = !f.selection.instances.is_empty();
    for (i, square) in footprint.nodes() {
        let node = &f.scene.nodes[i];
        let state = state.and_then(|m| m.node_colours.get(i).copied().flatten());
        if state.is_some() {
            drawn.nodes += 1;
        }
        let colour = if selected_nodes && f.selection.instances.contains(&node.name) {
            f.palette.selection
        } else {
            state.unwrap_or_else(|| f.palette.category_colour(&node.category))
        };
        pixels.plot(square, colour);
    }
    let [image_width, image_height] = pixels.size();
    let dot_px = (MESSAGE_DOT_PT * scale).round().max(1.0) as usize;
    if let (Some(o), Some(m)) = (replay, state)
        && dots_fit(m.packets.len(), dot_px * dot_px, image_width * image_height)
    {
        for &(link, forward, fraction) in &m.packets {
            let points = footprint.link_screen(link);
            if points.is_empty() {
                continue;
            }
            // A message going from the link's `b` end is the same fraction of the way back.
            let at = overlay::along(points, if forward { fraction } else { 1.0 - fraction });
            if f.area.contains(at) {
                pixels.square(at, MESSAGE_DOT_PT, o.colours.packet);
                drawn.packets += 1;
            }
        }
    }
    let [width, height] = pixels.size();
    let image = pixels.into_image();
    let texture = raster.texture.get_or_insert_with(|| {
        painter.ctx().load_texture(
            "canvas far view",
            ColorImage::filled([1, 1], Color32::TRANSPARENT),
            TextureOptions::NEAREST,
        )
    });
    texture.set(image, TextureOptions::NEAREST);
    let rect = Rect::from_min_size(f.area.min, egui::vec2(width as f32 / scale, height as f32 / scale));
    painter.image(texture.id(), rect, Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)), Color32::WHITE);
    let counted = Drawn {
        tinted_links: drawn.tinted_links - before.tinted_links,
        packets: drawn.packets - before.packets,
        nodes: drawn.nodes - before.nodes,
        ..Drawn::default()
    };
    raster.shown = Some(Shown { picture, rect, drawn: counted });
    true
}

/// Add what a kept image counted when it was drawn.
fn add_counts(drawn: &mut Drawn, kept: Drawn) {
    drawn.tinted_links += kept.tinted_links;
    drawn.packets += kept.packets;
    drawn.nodes += kept.nodes;
}

#[cfg(test)]
mod tests {
    use super::dots_fit;

    #[test]
    fn message_dots_are_drawn_while_they_cover_at_most_a_quarter_of_the_image() {
        // A 1,000 × 700 image of 2 × 2 pixel dots: up to 43,750 dots.
        let image = 1_000 * 700;
        assert!(dots_fit(0, 4, image));
        assert!(dots_fit(9_216, 4, image), "a 48×48 torus's faces are dots");
        assert!(dots_fit(43_750, 4, image));
        assert!(!dots_fit(43_751, 4, image));
        assert!(!dots_fit(262_144, 4, image), "a 256×256 torus's faces are left to the link colours");
        assert!(!dots_fit(usize::MAX, 4, image), "no overflow");
    }
}
