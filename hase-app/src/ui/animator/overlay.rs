//! The replay layers of the canvas (drawn by `canvas::draw` between and over its own layers, so
//! names stay readable): links tinted by their load over a window around the current time (under
//! the entities), entity states as coloured rings and badges (or the type's state image),
//! compounds showing how many of their members are busy, packets moving along links (one marker
//! each, or a counted cluster when many share a link), live values of displayed parameters and
//! arrays, and a small legend with the simulated time.

use egui::epaint::{PathShape, PathStroke};
use egui::{
    Align2, Color32, CornerRadius, FontId, Painter, Pos2, Rect, Shape, Stroke, StrokeKind, TextureId, Vec2,
    pos2, vec2,
};
use hase_engine::model::ParamDisplay;

use super::replay_frame::{Drawn, ReplayFrame};
use crate::theme::Palette;
use crate::ui::canvas::frame::{CanvasFrame, text_bottom};
use crate::ui::canvas::geometry::NODE_SIZE;
use hase_editor::replay::events::ArrayCell;
use hase_editor::replay::is_idle_state;

/// Packets on one link drawn one by one; more become a counted cluster.
pub const MAX_SINGLE_PACKETS: usize = 4;
/// Below this on-screen size nodes only get their fill tinted.
const TINY_NODE_PX: f32 = 14.0;

/// Scratch buffers reused between frames.
#[derive(Default)]
pub struct OverlayScratch {
    points: Vec<Pos2>,
    per_link: Vec<u32>,
    packets: Vec<(usize, bool, f32)>,
    /// (map build, time, departed, arrived) that `packets` and `per_link` were placed for: a
    /// frame at the same moment (a zoom or pan step) keeps them.
    packets_for: Option<(u64, u64, usize, usize)>,
    inside: Vec<u32>,
}

/// What every replay layer is drawn with: the painter, the canvas frame, the run's frame and the
/// part of the canvas on screen (in canvas units, with a node's margin).
#[derive(Clone, Copy)]
struct Layer<'a, 'f, 'o> {
    painter: &'a Painter,
    f: &'a CanvasFrame<'f>,
    o: &'a ReplayFrame<'o>,
    visible: Rect,
}

impl<'a, 'f, 'o> Layer<'a, 'f, 'o> {
    fn new(painter: &'a Painter, f: &'a CanvasFrame<'f>, o: &'a ReplayFrame<'o>) -> Self {
        Layer { painter, f, o, visible: f.view.visible(f.area).expand(NODE_SIZE) }
    }
}

/// The point a fraction `t` of the way along a polyline.
pub fn along(points: &[Pos2], t: f32) -> Pos2 {
    let total: f32 = points.windows(2).map(|w| (w[1] - w[0]).length()).sum();
    let mut left = total * t.clamp(0.0, 1.0);
    for w in points.windows(2) {
        let len = (w[1] - w[0]).length();
        if left <= len && len > 0.0 {
            return w[0] + (w[1] - w[0]) * (left / len);
        }
        left -= len;
    }
    points.last().copied().unwrap_or(Pos2::ZERO)
}

/// Links tinted by their load (under the entities, so names and states stay on top).
pub fn draw_load_layer(
    painter: &Painter,
    f: &CanvasFrame<'_>,
    o: &ReplayFrame<'_>,
    scratch: &mut OverlayScratch,
) -> usize {
    if o.min_level > 2 {
        return 0;
    }
    draw_load(&Layer::new(painter, f, o), &mut scratch.points)
}

/// Entity states, packets and displayed values (over the entities). `image` finds a state image
/// texture for (icon, state).
pub fn draw_state_layers(
    painter: &Painter,
    f: &CanvasFrame<'_>,
    o: &ReplayFrame<'_>,
    scratch: &mut OverlayScratch,
    image: &mut dyn FnMut(&str, &str) -> Option<TextureId>,
    drawn: &mut Drawn,
) {
    let layer = Layer::new(painter, f, o);
    drawn.nodes = draw_states(&layer, image, &mut scratch.inside);
    if o.min_level <= 2 {
        let (single, clusters) = draw_packets(&layer, scratch);
        drawn.packets = single;
        drawn.clusters = clusters;
    }
}

/// Displayed parameter values and arrays beside their entities, and the legend with the clock.
pub fn draw_value_layers(painter: &Painter, f: &CanvasFrame<'_>, o: &ReplayFrame<'_>, drawn: &mut Drawn) {
    if o.min_level <= 3 {
        draw_values(&Layer::new(painter, f, o), drawn);
    }
    draw_legend(painter, f, o, drawn.cells_written + drawn.cells_read > 0);
}

fn screen_points(f: &CanvasFrame<'_>, link: usize, out: &mut Vec<Pos2>) {
    f.ports.link_points(f.scene, &f.scene.links[link], out);
    for p in out.iter_mut() {
        *p = f.view.to_screen(f.area, *p);
    }
}

/// The load of canvas link `trace_links` stands for over the load window: the highest of its
/// trace links' (0 idle, 1 saturated).
pub fn link_load(o: &ReplayFrame<'_>, trace_links: &[u32]) -> f32 {
    trace_links
        .iter()
        .filter_map(|&t| o.replay.links.get(t as usize))
        .map(|traffic| traffic.load(o.window.0, o.window.1))
        .fold(0.0f64, f64::max) as f32
}

/// What a canvas node shows of the run at the frame's time.
pub struct NodeState<'a> {
    /// Its colour: its state's, or between idle and busy by the share of its entities busy.
    pub colour: Color32,
    /// True if it (or any of its entities) is doing something.
    pub active: bool,
    /// What its badge says.
    pub badge: Badge<'a>,
}

/// A node's badge: the state of a node that is one entity, or how many of a compound's
/// entities are busy.
pub enum Badge<'a> {
    /// The entity's state (empty before its first).
    State(&'a str),
    /// Busy entities, of how many.
    Busy(usize, usize),
}

/// The run's state of the node showing `entities` (`direct` if the node is the one entity).
pub fn node_state<'a>(o: &ReplayFrame<'a>, entities: &[u32], direct: bool) -> NodeState<'a> {
    if direct && let [e] = entities {
        return match o.snap.states.get(*e as usize).copied().flatten() {
            Some(s) => {
                let name = o.replay.state_name(*e, s);
                NodeState {
                    colour: o.colours.state(name),
                    active: !is_idle_state(name),
                    badge: Badge::State(name),
                }
            }
            None => NodeState { colour: o.colours.idle, active: false, badge: Badge::State("") },
        };
    }
    let busy = entities
        .iter()
        .filter(|&&e| {
            o.snap
                .states
                .get(e as usize)
                .copied()
                .flatten()
                .is_some_and(|s| !is_idle_state(o.replay.state_name(e, s)))
        })
        .count();
    let fraction = busy as f32 / entities.len().max(1) as f32;
    NodeState {
        colour: o.colours.idle.lerp_to_gamma(o.colours.busy, fraction),
        active: busy > 0,
        badge: Badge::Busy(busy, entities.len()),
    }
}

/// Every message on the wire that runs along a canvas link: `(link, forward, fraction of the way
/// along)` into `packets`, and how many run along each link into `per_link`.
pub fn flights_on_links(
    f: &CanvasFrame<'_>,
    o: &ReplayFrame<'_>,
    per_link: &mut Vec<u32>,
    packets: &mut Vec<(usize, bool, f32)>,
) {
    per_link.clear();
    per_link.resize(f.scene.links.len(), 0);
    packets.clear();
    let t = o.time.0;
    for &k in &o.snap.in_flight {
        let flight = &o.replay.flights()[k as usize];
        let Some((link, forward)) = o.map.flight_link(flight.from_end()) else { continue };
        let span = flight.arrive.0.saturating_sub(flight.depart.0);
        let fraction =
            if span == 0 { 1.0 } else { (t.saturating_sub(flight.depart.0) as f64 / span as f64) as f32 };
        per_link[link] += 1;
        packets.push((link, forward, fraction));
    }
}

fn draw_load(layer: &Layer<'_, '_, '_>, points: &mut Vec<Pos2>) -> usize {
    let Layer { painter, f, o, visible } = *layer;
    let zoom = f.view.zoom.clamp(0.4, 1.5);
    let mut tinted = 0;
    for (l, trace_links) in o.map.trace_links_of_link.iter().enumerate() {
        if trace_links.is_empty() {
            continue;
        }
        // Out of view first: the load is the costlier test.
        if !f.ports.link_in_view(l, visible) {
            continue;
        }
        let load = link_load(o, trace_links);
        if load < 0.02 {
            continue;
        }
        f.ports.link_points(f.scene, &f.scene.links[l], points);
        for p in points.iter_mut() {
            *p = f.view.to_screen(f.area, *p);
        }
        let strength = load.min(1.0);
        let stroke = Stroke::new(
            (2.5 + 9.0 * strength) * zoom,
            o.colours.load(strength).gamma_multiply(0.35 + 0.55 * strength),
        );
        painter.add(PathShape::line(points.clone(), PathStroke::from(stroke)));
        tinted += 1;
    }
    tinted
}

fn draw_states(
    layer: &Layer<'_, '_, '_>,
    image: &mut dyn FnMut(&str, &str) -> Option<TextureId>,
    inside: &mut Vec<u32>,
) -> usize {
    let Layer { painter, f, o, visible } = *layer;
    // Messages between members of one closed compound: counted on its badge.
    inside.clear();
    inside.resize(f.scene.nodes.len(), 0);
    if o.min_level <= 2 {
        for &k in &o.snap.in_flight {
            let flight = &o.replay.flights()[k as usize];
            let a = o.map.node_of_entity.get(flight.from as usize).copied().flatten();
            let b = o.map.node_of_entity.get(flight.to as usize).copied().flatten();
            if let (Some(a), Some(b)) = (a, b)
                && a == b
                && !o.map.direct[flight.from as usize]
            {
                inside[a] += 1;
            }
        }
    }
    let zoom = f.view.zoom;
    let mut count = 0;
    for (i, entities) in o.map.entities_of_node.iter().enumerate() {
        if entities.is_empty() || !visible.contains(f.positions[i]) {
            continue;
        }
        count += 1;
        let node = &f.scene.nodes[i];
        let centre = f.view.to_screen(f.area, f.positions[i]);
        let size = NODE_SIZE * zoom;
        let rect = Rect::from_center_size(centre, Vec2::splat(size));
        let single = entities.len() == 1 && o.map.direct[entities[0] as usize];
        let NodeState { colour, active, badge } = node_state(o, entities, single);
        if size < TINY_NODE_PX {
            if active {
                painter.rect_filled(rect.expand(1.0), CornerRadius::same(1), colour);
            }
            continue;
        }
        let badge = match badge {
            Badge::State(name) => name.to_string(),
            Badge::Busy(busy, of) => {
                let extra = if inside[i] > 0 { format!(" · {} msgs", inside[i]) } else { String::new() };
                format!("{busy}/{of} busy{extra}")
            }
        };
        if single
            && let Some(icon) = node.icon.as_deref()
            && let Some(texture) = image(icon, &badge)
        {
            let inner = rect.shrink(size * 0.12);
            painter.rect_filled(inner, CornerRadius::same(4), f.palette.node_fill);
            painter.image(
                texture,
                inner,
                Rect::from_min_max(Pos2::ZERO, pos2(1.0, 1.0)),
                crate::theme::ICON_TINT,
            );
        }
        let width = if active { 3.5 } else { 1.5 } * zoom.clamp(0.5, 1.4);
        let radius = CornerRadius::same((8.0 * zoom).clamp(1.0, 12.0) as u8 + 2);
        painter.rect_stroke(
            rect.expand(2.0 * zoom.clamp(0.5, 1.4)),
            radius,
            Stroke::new(width, colour),
            StrokeKind::Outside,
        );
        if active && zoom >= 0.3 && !badge.is_empty() {
            pill(
                painter,
                pos2(centre.x, rect.min.y - 6.0 * zoom.clamp(0.5, 1.2)),
                &badge,
                colour,
                o.colours.bar_text,
                10.5 * zoom.clamp(0.7, 1.3),
            );
        }
    }
    count
}

/// A rounded label standing on `bottom_centre`.
fn pill(painter: &Painter, bottom_centre: Pos2, text: &str, fill: Color32, text_colour: Color32, px: f32) {
    let galley = painter.layout_no_wrap(text.to_string(), FontId::proportional(px), text_colour);
    let size = galley.size() + vec2(8.0, 2.0);
    let rect = Rect::from_min_size(pos2(bottom_centre.x - size.x / 2.0, bottom_centre.y - size.y), size);
    painter.rect_filled(rect, CornerRadius::same((size.y / 2.0) as u8), fill);
    painter.galley(rect.min + vec2(4.0, 1.0), galley, text_colour);
}

fn draw_packets(layer: &Layer<'_, '_, '_>, scratch: &mut OverlayScratch) -> (usize, usize) {
    let Layer { painter, f, o, visible } = *layer;
    let OverlayScratch { points, per_link, packets, packets_for, .. } = scratch;
    let key = (o.map.build, o.time.0, o.snap.departed, o.snap.arrived);
    if o.map.build == 0 || *packets_for != Some(key) || per_link.len() != f.scene.links.len() {
        flights_on_links(f, o, per_link, packets);
        *packets_for = Some(key);
    }
    let zoom = f.view.zoom.clamp(0.5, 1.4);
    let radius = 4.5 * zoom;
    let stroke = Stroke::new(1.0, f.palette.canvas);
    let mut single = 0;
    for &(link, forward, fraction) in packets.iter() {
        if per_link[link] as usize > MAX_SINGLE_PACKETS || !f.ports.link_in_view(link, visible) {
            continue;
        }
        screen_points(f, link, points);
        if !forward {
            points.reverse();
        }
        let at = along(points, fraction);
        if f.area.expand(radius).contains(at) {
            painter.circle(at, radius, o.colours.packet, stroke);
            single += 1;
        }
    }
    let mut clusters = 0;
    for (link, &n) in per_link.iter().enumerate() {
        if (n as usize) <= MAX_SINGLE_PACKETS {
            continue;
        }
        if !f.ports.link_in_view(link, visible) {
            continue;
        }
        screen_points(f, link, points);
        let at = along(points, 0.5);
        let text = n.to_string();
        let r = radius + 3.0 + 2.5 * text.len() as f32;
        painter.circle(at, r, o.colours.packet, stroke);
        painter.text(
            at,
            Align2::CENTER_CENTER,
            text,
            FontId::proportional(10.0 * zoom.max(0.9)),
            o.colours.packet_text,
        );
        clusters += 1;
    }
    (single, clusters)
}

#[allow(clippy::many_single_char_names, reason = "o overlay, e entity, p parameter, x and y on screen")]
fn draw_values(layer: &Layer<'_, '_, '_>, drawn: &mut Drawn) {
    let Layer { painter, f, o, visible } = *layer;
    let zoom = f.view.zoom;
    if zoom < 0.45 {
        return;
    }
    let px = 11.0 * zoom.min(1.3);
    let font = FontId::monospace(px);
    for (i, entities) in o.map.entities_of_node.iter().enumerate() {
        let [e] = entities.as_slice() else { continue };
        if !o.map.direct[*e as usize] || !visible.contains(f.positions[i]) {
            continue;
        }
        let node = &f.scene.nodes[i];
        let Some(choices) = o.displayed.get(&node.name) else { continue };
        let Some(info) = o.replay.header.entities.get(*e as usize) else { continue };
        let centre = f.view.to_screen(f.area, f.positions[i]);
        // Below the name and any parameter labels the canvas drew.
        let mut y = centre.y + text_bottom(zoom, node.labels.len()) + 2.0;
        for (param, how) in choices {
            if *how == ParamDisplay::Hidden {
                continue;
            }
            let Some(p) = info.params.iter().position(|n| n == param) else { continue };
            let value = o.snap.param(*e, p);
            let cells: Vec<(u32, ArrayCell)> = o
                .snap
                .arrays
                .range((*e, p as u16, 0)..=(*e, p as u16, u32::MAX))
                .map(|(&(_, _, index), cell)| (index, *cell))
                .collect();
            let text = match value {
                Some(v) => o.replay.log.values.get(v as usize).map(ToString::to_string).unwrap_or_default(),
                None if cells.is_empty() => continue,
                None => String::new(),
            };
            drawn.values += 1;
            // An array has no value of its own: its name heads its cells.
            let label = match (*how, value) {
                (ParamDisplay::NameValue, Some(_)) => format!("{param} = {text}"),
                (ParamDisplay::NameValue, None) => param.clone(),
                _ => text,
            };
            let mut x = centre.x;
            if !label.is_empty() || cells.is_empty() {
                let galley = painter.layout_no_wrap(label, font.clone(), f.palette.text);
                let r = Rect::from_center_size(
                    pos2(centre.x, y + galley.size().y / 2.0),
                    galley.size() + vec2(6.0, 2.0),
                );
                painter.rect(
                    r,
                    CornerRadius::same(3),
                    f.palette.overlay,
                    Stroke::new(1.0, f.palette.accent),
                    StrokeKind::Inside,
                );
                painter.galley(r.min + vec2(3.0, 1.0), galley, f.palette.text);
                y += r.height() + 2.0;
                x = centre.x;
            }
            if !cells.is_empty() {
                draw_array(painter, f.palette, o, &cells, pos2(x, y), &font, drawn);
                y += px * 1.6;
            }
        }
    }
}

/// How an array cell is marked at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellMark {
    /// Neither written nor read lately.
    Plain,
    /// Read within the highlight span, after any write in it.
    Read,
    /// Written within the highlight span.
    Written,
}

/// The mark of `cell` at `now_ps`: the later of its last write and last read, if that was at most
/// `span_ps` ago (and not in the future); a write and a read at the same time show as a write,
/// since the write is what changed the shown value.
pub fn cell_mark(cell: &ArrayCell, now_ps: u64, span_ps: u64) -> CellMark {
    let lately = |t: Option<u64>| t.filter(|t| *t <= now_ps && t + span_ps >= now_ps);
    match (lately(cell.updated_ps), lately(cell.read_ps)) {
        (Some(w), Some(r)) if r > w => CellMark::Read,
        (Some(_), _) => CellMark::Written,
        (None, Some(_)) => CellMark::Read,
        (None, None) => CellMark::Plain,
    }
}

/// An array as a row of cells, each coloured by its [`cell_mark`] over half the load window.
fn draw_array(
    painter: &Painter,
    palette: &Palette,
    o: &ReplayFrame<'_>,
    cells: &[(u32, ArrayCell)],
    top_centre: Pos2,
    font: &FontId,
    drawn: &mut Drawn,
) {
    const MAX_CELLS: usize = 8;
    let shown = &cells[..cells.len().min(MAX_CELLS)];
    let texts: Vec<String> = shown
        .iter()
        .map(|(_, c)| {
            c.value
                .and_then(|v| o.replay.log.values.get(v as usize))
                .map_or_else(|| "?".to_string(), ToString::to_string)
        })
        .collect();
    let widths: Vec<f32> =
        texts.iter().map(|t| font.size * 0.62 * t.chars().count().max(1) as f32 + 6.0).collect();
    let total: f32 = widths.iter().sum::<f32>() + if cells.len() > MAX_CELLS { 14.0 } else { 0.0 };
    let mut x = top_centre.x - total / 2.0;
    let h = font.size * 1.4;
    for ((text, w), (_, cell)) in texts.iter().zip(&widths).zip(shown) {
        let (fill, colour) = match cell_mark(cell, o.time.0, (o.window.1 - o.window.0) / 2) {
            CellMark::Written => {
                drawn.cells_written += 1;
                (o.colours.array_write, o.colours.array_mark_text)
            }
            CellMark::Read => {
                drawn.cells_read += 1;
                (o.colours.array_read, o.colours.array_mark_text)
            }
            CellMark::Plain => (palette.overlay, palette.text),
        };
        let r = Rect::from_min_size(pos2(x, top_centre.y), vec2(*w, h));
        painter.rect(r, CornerRadius::ZERO, fill, Stroke::new(1.0, palette.node_stroke), StrokeKind::Inside);
        painter.text(r.center(), Align2::CENTER_CENTER, text, font.clone(), colour);
        x += w;
    }
    if cells.len() > MAX_CELLS {
        painter.text(
            pos2(x + 2.0, top_centre.y + h / 2.0),
            Align2::LEFT_CENTER,
            "…",
            font.clone(),
            palette.text_dim,
        );
    }
}

fn draw_legend(painter: &Painter, f: &CanvasFrame<'_>, o: &ReplayFrame<'_>, arrays_marked: bool) {
    let base = f.area.left_bottom() + vec2(14.0, -14.0);
    let font = FontId::proportional(12.0);
    // A backdrop under everything the legend draws, so it stays readable over a busy network;
    // its size is known once the rest is laid out.
    let backdrop = painter.add(Shape::Noop);
    let mut extent = Rect::NOTHING;
    if arrays_marked {
        // Which colour is a write and which a read, beside the clock.
        let mut x = base.x + 150.0;
        for (fill, word) in [(o.colours.array_write, "written"), (o.colours.array_read, "read")] {
            let swatch = Rect::from_min_size(pos2(x, base.y - 30.0 - 11.0), vec2(11.0, 11.0));
            painter.rect_filled(swatch, CornerRadius::ZERO, fill);
            let label = painter.text(
                swatch.right_center() + vec2(4.0, 0.0),
                Align2::LEFT_CENTER,
                word,
                font.clone(),
                f.palette.text_dim,
            );
            x = label.right() + 12.0;
            extent = extent.union(swatch).union(label);
        }
    }
    extent = extent.union(painter.text(
        base + vec2(0.0, -30.0),
        Align2::LEFT_BOTTOM,
        format!("t = {}", crate::ui::time_text::at(o.time, o.resolution_ps)),
        FontId::proportional(15.0),
        f.palette.text,
    ));
    if o.min_level <= 2 {
        extent = extent.union(draw_load_scale(painter, f, o, base, font));
    }
    painter.set(backdrop, Shape::rect_filled(extent.expand(6.0), CornerRadius::same(4), f.palette.overlay));
}

/// The load colour scale of the legend, standing on `base`; returns where it drew.
fn draw_load_scale(
    painter: &Painter,
    f: &CanvasFrame<'_>,
    o: &ReplayFrame<'_>,
    base: Pos2,
    font: FontId,
) -> Rect {
    let bar = Rect::from_min_size(base + vec2(0.0, -16.0), vec2(120.0, 8.0));
    let steps = 24;
    for k in 0..steps {
        let t = k as f32 / (steps - 1) as f32;
        let r = Rect::from_min_size(
            pos2(bar.min.x + bar.width() * k as f32 / steps as f32, bar.min.y),
            vec2(bar.width() / steps as f32 + 0.5, bar.height()),
        );
        painter.rect_filled(r, CornerRadius::ZERO, o.colours.load(t));
    }
    let label = painter.text(
        bar.right_center() + vec2(6.0, 0.0),
        Align2::LEFT_CENTER,
        "link load: idle – saturated",
        font,
        f.palette.text_dim,
    );
    bar.union(label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn along_a_polyline() {
        let pts = [pos2(0.0, 0.0), pos2(10.0, 0.0), pos2(10.0, 30.0)];
        assert_eq!(along(&pts, 0.0), pos2(0.0, 0.0));
        assert_eq!(along(&pts, 0.25), pos2(10.0, 0.0));
        assert_eq!(along(&pts, 0.5), pos2(10.0, 10.0));
        assert_eq!(along(&pts, 2.0), pos2(10.0, 30.0));
        assert_eq!(along(&[pos2(3.0, 4.0)], 0.5), pos2(3.0, 4.0));
    }

    #[test]
    fn array_cells_are_marked_by_their_latest_write_or_read_within_the_span() {
        let cell = |updated: Option<u64>, read: Option<u64>| ArrayCell {
            value: Some(0),
            updated_ps: updated,
            read_ps: read,
        };
        // Span 10 ps, now 100 ps: events at 90..=100 count.
        assert_eq!(cell_mark(&cell(Some(95), None), 100, 10), CellMark::Written);
        assert_eq!(cell_mark(&cell(Some(89), None), 100, 10), CellMark::Plain);
        assert_eq!(cell_mark(&cell(Some(50), Some(90)), 100, 10), CellMark::Read);
        assert_eq!(cell_mark(&cell(Some(100), Some(100)), 100, 10), CellMark::Written);
        // The later of a recent write and a recent read shows.
        assert_eq!(cell_mark(&cell(Some(95), Some(98)), 100, 10), CellMark::Read);
        assert_eq!(cell_mark(&cell(Some(98), Some(95)), 100, 10), CellMark::Written);
        assert_eq!(cell_mark(&cell(None, Some(100)), 100, 10), CellMark::Read);
        assert_eq!(cell_mark(&cell(None, None), 100, 10), CellMark::Plain);
        // A write later than now (the cell of a future snapshot) is not shown as recent.
        assert_eq!(cell_mark(&cell(Some(120), Some(99)), 100, 10), CellMark::Read);
    }
}
