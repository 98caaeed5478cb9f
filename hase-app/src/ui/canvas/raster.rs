//! A large network seen from far, drawn as one image. When thousands of entities are in view and
//! each is only a few screen points across, every link becomes a one-pixel line and every entity
//! a small square in an image the size of the canvas, uploaded as one texture. Drawn as shapes,
//! a 256×256 torus was half a million of them to tessellate and paint each frame, and a frame
//! took seconds. With a run shown, the lines take their load colour, the squares their state
//! colour, and each message on the wire is a dot along its link; selected entities and links keep
//! the selection colour.

use egui::{Color32, ColorImage, Painter, Pos2, Rect, TextureHandle, TextureOptions, pos2};

use super::drag::Drag;
use super::frame::CanvasFrame;
use super::geometry::NODE_SIZE;
use super::view::View;
use crate::ui::animator::overlay;
use crate::ui::animator::replay_frame::Drawn;
use hase_editor::document::NetworkId;
use hase_editor::state::Selection;

/// Entities smaller than this on screen (points) are drawn in the image...
pub const FAR_BELOW_NODE_PX: f32 = 4.0;
/// ...when at least this many are in view.
pub const FAR_FROM_NODES: usize = 2_000;

/// Whether the frame draws its network as one image: `visible_nodes` in view, each smaller than
/// [`FAR_BELOW_NODE_PX`].
pub fn wanted(f: &CanvasFrame<'_>, visible_nodes: usize) -> bool {
    NODE_SIZE * f.view.zoom < FAR_BELOW_NODE_PX && visible_nodes >= FAR_FROM_NODES
}

/// The image's texture and the drawing's scratch buffers, kept between frames, with what the
/// image shows: it is drawn again only when that changes.
#[derive(Default)]
pub struct Raster {
    texture: Option<TextureHandle>,
    shown: Option<Shown>,
    points: Vec<Pos2>,
    per_link: Vec<u32>,
    packets: Vec<(usize, bool, f32)>,
}

impl Raster {
    /// Free the texture while the canvas draws shapes (the next far view makes a new one).
    pub fn release(&mut self) {
        self.texture = None;
        self.shown = None;
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

/// Pixels of an image covering a screen area, drawn into in screen coordinates.
pub struct Pixels {
    width: usize,
    height: usize,
    colours: Vec<Color32>,
    /// Screen position of the image's top left corner.
    origin: Pos2,
    /// Image pixels per screen point.
    scale: f32,
}

/// How opaque a link's line is: half, so that crossing lines build up.
const LINK_OPACITY: f32 = 0.5;

/// The part of the segment from `a` to `b` inside `[0, width] × [0, height]` (Liang–Barsky), if
/// any; `None` too for a segment with a coordinate that is not a number.
fn clip(a: (f32, f32), b: (f32, f32), width: f32, height: f32) -> Option<((f32, f32), (f32, f32))> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (p, q) in [(-dx, a.0), (dx, width - a.0), (-dy, a.1), (dy, height - a.1)] {
        if !(p.is_finite() && q.is_finite()) {
            return None;
        }
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t0 <= t1).then_some(((a.0 + t0 * dx, a.1 + t0 * dy), (a.0 + t1 * dx, a.1 + t1 * dy)))
}

impl Pixels {
    /// A transparent image of `area` at `scale` pixels per point.
    pub fn new(area: Rect, scale: f32) -> Self {
        let width = (area.width() * scale).round().max(1.0) as usize;
        let height = (area.height() * scale).round().max(1.0) as usize;
        Pixels { width, height, colours: vec![Color32::TRANSPARENT; width * height], origin: area.min, scale }
    }

    /// Width and height in pixels.
    pub fn size(&self) -> [usize; 2] {
        [self.width, self.height]
    }

    /// The colour at pixel `(x, y)`.
    pub fn at(&self, x: usize, y: usize) -> Color32 {
        self.colours[y * self.width + x]
    }

    fn to_pixel(&self, p: Pos2) -> (f32, f32) {
        ((p.x - self.origin.x) * self.scale, (p.y - self.origin.y) * self.scale)
    }

    fn plot(&mut self, x: f32, y: f32, colour: Color32) {
        if x >= 0.0 && y >= 0.0 && (x as usize) < self.width && (y as usize) < self.height {
            self.colours[y as usize * self.width + x as usize] = colour;
        }
    }

    /// Lay `colour` (premultiplied, as `Color32` is) over the pixel at `(x, y)`.
    fn blend(&mut self, x: f32, y: f32, colour: Color32) {
        if x >= 0.0 && y >= 0.0 && (x as usize) < self.width && (y as usize) < self.height {
            let pixel = &mut self.colours[y as usize * self.width + x as usize];
            let keep = 255 - u16::from(colour.a());
            let mix = |over: u8, under: u8| {
                (u16::from(over) + (u16::from(under) * keep + 127) / 255).min(255) as u8
            };
            *pixel = crate::theme::premultiplied(
                mix(colour.r(), pixel.r()),
                mix(colour.g(), pixel.g()),
                mix(colour.b(), pixel.b()),
                mix(colour.a(), pixel.a()),
            );
        }
    }

    /// A one-pixel line from `a` to `b` (screen points), laid over what is there (see
    /// [`Pixels::polyline`]).
    pub fn line(&mut self, a: Pos2, b: Pos2, colour: Color32) {
        self.polyline(&[a, b], colour);
    }

    /// One-pixel lines through `points` (screen points), laid over what is there: lines that
    /// cross many times build up, as thin strokes do, instead of the last one hiding the others
    /// in a moiré. Each pixel of the polyline is laid once, even where two steps or two segments
    /// meet in it; what falls outside the image is clipped off before stepping along.
    pub fn polyline(&mut self, points: &[Pos2], colour: Color32) {
        let mut last = None;
        for w in points.windows(2) {
            let (a, b) = (self.to_pixel(w[0]), self.to_pixel(w[1]));
            let Some(((ax, ay), (bx, by))) = clip(a, b, self.width as f32, self.height as f32) else {
                last = None;
                continue;
            };
            let steps = (bx - ax).abs().max((by - ay).abs()).ceil().max(1.0);
            let (dx, dy) = ((bx - ax) / steps, (by - ay) / steps);
            for i in 0..=steps as u32 {
                let t = i as f32;
                let pixel = ((ax + dx * t).floor(), (ay + dy * t).floor());
                if last != Some(pixel) {
                    self.blend(pixel.0, pixel.1, colour);
                    last = Some(pixel);
                }
            }
        }
    }

    /// A square `side` points wide (at least one pixel) centred on `centre` (screen points).
    pub fn square(&mut self, centre: Pos2, side: f32, colour: Color32) {
        let (cx, cy) = self.to_pixel(centre);
        let px = (side * self.scale).round().max(1.0);
        let (x0, y0) = ((cx - px / 2.0).round(), (cy - px / 2.0).round());
        for y in 0..px as u32 {
            for x in 0..px as u32 {
                self.plot(x0 + x as f32, y0 + y as f32, colour);
            }
        }
    }

    fn into_image(self) -> ColorImage {
        ColorImage::new([self.width, self.height], self.colours)
    }
}

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
    let mut pixels = Pixels::new(f.area, scale);
    let area = f.view.visible(f.area).expand(NODE_SIZE);
    let replay = f.replay.as_ref().filter(|o| o.min_level <= 2);
    for (l, link) in f.scene.links.iter().enumerate() {
        if !f.ports.link_in_view(l, area) {
            continue;
        }
        f.ports.link_points(f.scene, link, &mut raster.points);
        let load = match replay {
            Some(o) => o.map.trace_links_of_link.get(l).map_or(0.0, |t| overlay::link_load(o, t)),
            None => 0.0,
        };
        let colour = if f.selection.links.contains(&link.key) {
            f.palette.selection
        } else if let Some(o) = replay
            && load >= 0.02
        {
            drawn.tinted_links += 1;
            o.colours.load(load.min(1.0))
        } else {
            f.palette.link_type_colour(&link.link_type).gamma_multiply(LINK_OPACITY)
        };
        for p in &mut raster.points {
            *p = f.view.to_screen(f.area, *p);
        }
        pixels.polyline(&raster.points, colour);
    }
    let side = NODE_SIZE * f.view.zoom;
    for &i in visible {
        let node = &f.scene.nodes[i];
        let state = f.replay.as_ref().and_then(|o| {
            let entities = o.map.entities_of_node.get(i).filter(|e| !e.is_empty())?;
            drawn.nodes += 1;
            let direct = entities.len() == 1 && o.map.direct[entities[0] as usize];
            Some(overlay::node_state(o, entities, direct).colour)
        });
        let colour = if f.selection.instances.contains(&node.name) {
            f.palette.selection
        } else {
            state.unwrap_or_else(|| f.palette.category_colour(&node.category))
        };
        pixels.square(f.view.to_screen(f.area, f.positions[i]), side, colour);
    }
    if let Some(o) = replay {
        overlay::flights_on_links(f, o, &mut raster.per_link, &mut raster.packets);
        for &(link, forward, fraction) in &raster.packets {
            f.ports.link_points(f.scene, &f.scene.links[link], &mut raster.points);
            if !forward {
                raster.points.reverse();
            }
            let at = f.view.to_screen(f.area, overlay::along(&raster.points, fraction));
            if f.area.contains(at) {
                pixels.square(at, 2.0, o.colours.packet);
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
    use egui::vec2;

    use super::*;

    fn image() -> Pixels {
        Pixels::new(Rect::from_min_size(pos2(100.0, 50.0), vec2(20.0, 10.0)), 1.0)
    }

    fn coloured(p: &Pixels) -> usize {
        let [w, h] = p.size();
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| p.at(x, y) != Color32::TRANSPARENT)
            .count()
    }

    #[test]
    fn a_line_sets_one_pixel_per_step_and_leaves_out_what_is_off_the_image() {
        let mut p = image();
        p.line(pos2(100.0, 55.0), pos2(109.0, 55.0), Color32::RED);
        assert_eq!(coloured(&p), 10);
        assert_eq!((p.at(0, 5), p.at(9, 5), p.at(10, 5)), (Color32::RED, Color32::RED, Color32::TRANSPARENT));
        // A diagonal that leaves the image at its bottom edge: only its part inside is drawn.
        let mut p = image();
        p.line(pos2(100.0, 50.0), pos2(120.0, 70.0), Color32::RED);
        assert_eq!(coloured(&p), 10);
        assert_eq!(p.at(9, 9), Color32::RED);
        // Entirely outside: nothing.
        let mut p = image();
        p.line(pos2(0.0, 0.0), pos2(90.0, 40.0), Color32::RED);
        assert_eq!(coloured(&p), 0);
    }

    #[test]
    fn each_pixel_of_a_polyline_is_laid_once_and_long_lines_are_clipped_not_thinned() {
        let half = Color32::WHITE.gamma_multiply(0.5);
        // Sub-pixel steps and a corner: every pixel laid once, so all have the same colour.
        let mut p = image();
        p.polyline(&[pos2(100.3, 50.2), pos2(107.9, 53.1), pos2(103.2, 59.6)], half);
        let [w, h] = p.size();
        let laid: Vec<Color32> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| p.at(x, y))
            .filter(|c| c.a() > 0)
            .collect();
        assert!(laid.len() > 10 && laid.iter().all(|&c| c == half), "{laid:?}");
        // A line a million points long across the image: one unbroken row of 20 pixels.
        let mut p = image();
        p.line(pos2(-1.0e6, 55.5), pos2(1.0e6, 55.5), Color32::RED);
        assert_eq!(coloured(&p), 20);
        assert!((0..20).all(|x| p.at(x, 5) == Color32::RED));
        // Coordinates that are not numbers draw nothing.
        let mut p = image();
        p.line(pos2(f32::NAN, 55.0), pos2(110.0, 55.0), Color32::RED);
        p.line(pos2(f32::INFINITY, 55.0), pos2(110.0, 55.0), Color32::RED);
        assert_eq!(coloured(&p), 0);
    }

    #[test]
    fn crossing_half_opaque_lines_build_up_where_they_cross() {
        let half = Color32::WHITE.gamma_multiply(0.5);
        let mut p = image();
        p.line(pos2(100.0, 55.0), pos2(119.0, 55.0), half);
        p.line(pos2(110.0, 50.0), pos2(110.0, 59.0), half);
        let (once, twice) = (p.at(3, 5), p.at(10, 5));
        assert_eq!(once, half);
        assert!(twice.a() > once.a() && twice.r() > once.r(), "{once:?} then {twice:?}");
        // Opaque over anything is itself.
        p.line(pos2(110.0, 50.0), pos2(110.0, 59.0), Color32::RED);
        assert_eq!(p.at(10, 5), Color32::RED);
    }

    #[test]
    fn a_square_is_at_least_a_pixel_and_scales_with_the_screen() {
        let mut p = image();
        p.square(pos2(110.5, 55.5), 0.2, Color32::GREEN);
        assert_eq!(coloured(&p), 1);
        assert_eq!(p.at(10, 5), Color32::GREEN);
        let mut p = image();
        p.square(pos2(110.0, 55.0), 3.0, Color32::GREEN);
        assert_eq!(coloured(&p), 9);
        // Twice the pixels per point: the image and the square both double.
        let mut p = Pixels::new(Rect::from_min_size(pos2(100.0, 50.0), vec2(20.0, 10.0)), 2.0);
        assert_eq!(p.size(), [40, 20]);
        p.square(pos2(110.0, 55.0), 3.0, Color32::GREEN);
        assert_eq!(coloured(&p), 36);
        // Half off the image's corner: only the quarter inside.
        let mut p = image();
        p.square(pos2(100.0, 50.0), 4.0, Color32::GREEN);
        assert_eq!(coloured(&p), 4);
    }
}
