//! Drawing the canvas: grid, links, entities (icon or fallback glyph, name, displayed parameters,
//! level badge), typed port markers, and the overlays of the drag in progress. When a run is shown
//! its layers go in between (see `animator::overlay`): load tints over the links but under the
//! entities, states and packets over the entities, and names over everything but the values and
//! the legend, on a backdrop, so they stay readable while the run plays. Only what is inside the
//! visible area is drawn; detail is dropped as the zoom shrinks it below legibility.

use egui::epaint::{CircleShape, PathShape, PathStroke, RectShape};
use egui::{
    Align2, Color32, CornerRadius, FontId, Painter, Pos2, Rect, Shape, Stroke, StrokeKind, TextureId, Vec2,
};
use hase_engine::model::{AbstractionLevel, Direction};

use super::drag::Drag;
use super::frame::{CanvasFrame, FrameDrawn, label_px, name_px};
use super::geometry::{BodySide, Hit, NODE_SIZE, PORT_RADIUS, node_extent};
use super::raster;
use crate::theme::category_index;
use crate::ui::animator::{critical_layer, overlay};

/// Buffers reused between frames.
#[derive(Default)]
pub struct CanvasScratch {
    points: Vec<Pos2>,
    visible: Vec<usize>,
    replay: overlay::OverlayScratch,
    far: raster::Raster,
}

/// Below this many screen points per node, entities are drawn as plain squares.
const SIMPLE_NODE_PX: f32 = 14.0;
/// Draw the whole canvas with the replay layers of `f.replay`. `image` finds a state image
/// texture for (icon, state).
pub fn draw(
    painter: &Painter,
    f: &CanvasFrame<'_>,
    scratch: &mut CanvasScratch,
    image: &mut dyn FnMut(&str, &str) -> Option<TextureId>,
) -> FrameDrawn {
    let mut drawn = FrameDrawn::default();
    painter.rect_filled(f.area, CornerRadius::ZERO, f.palette.canvas);
    if f.editor.settings.grid {
        draw_grid(painter, f);
    }
    let visible = f.view.visible(f.area).expand(4.0);
    scratch.visible.clear();
    scratch
        .visible
        .extend((0..f.scene.nodes.len()).filter(|&i| node_extent(f.positions[i]).intersects(visible)));
    drawn.nodes = scratch.visible.len();
    drawn.far = raster::wanted(f, scratch.visible.len());
    if drawn.far {
        drawn.far_image_drawn =
            raster::draw(painter, f, &scratch.visible, &mut scratch.far, &mut drawn.replay);
    } else {
        scratch.far.release();
        draw_links(painter, f, visible, &mut scratch.points);
        if let Some(o) = &f.replay {
            drawn.replay.tinted_links = overlay::draw_load_layer(painter, f, o, &mut scratch.replay);
            drawn.replay.critical = critical_layer::draw_critical_layer(painter, f, o, &mut scratch.points);
        }
        for &i in &scratch.visible {
            draw_node(painter, f, i);
        }
        if let Some(o) = &f.replay {
            overlay::draw_state_layers(painter, f, o, &mut scratch.replay, image, &mut drawn.replay);
        }
        for &i in &scratch.visible {
            draw_node_text(painter, f, i);
        }
    }
    if let Some(o) = &f.replay {
        overlay::draw_value_layers(painter, f, o, &mut drawn.replay);
    }
    if let Some(notice) = f.notice {
        draw_notice(painter, f, notice);
    }
    draw_overlays(painter, f);
    drawn
}

/// A line in the lower left corner, on a backdrop.
fn draw_notice(painter: &Painter, f: &CanvasFrame<'_>, text: &str) {
    let galley = painter.layout(
        text.to_string(),
        FontId::proportional(13.0),
        f.palette.text,
        (f.area.width() - 40.0).max(120.0),
    );
    let at = f.area.left_bottom() + Vec2::new(14.0, -14.0 - galley.size().y);
    let backdrop = Rect::from_min_size(at, galley.size()).expand(6.0);
    painter.rect(
        backdrop,
        CornerRadius::same(4),
        f.palette.overlay,
        Stroke::new(1.0, f.palette.warning),
        StrokeKind::Inside,
    );
    painter.galley(at, galley, f.palette.text);
}

fn draw_grid(painter: &Painter, f: &CanvasFrame<'_>) {
    let step = f.editor.settings.grid_step;
    // Coarsen until lines are at least 10 points apart; every fifth line is major.
    let mut k = 1.0;
    while step * k * f.view.zoom < 10.0 {
        k *= 5.0;
    }
    let step = step * k;
    let visible = f.view.visible(f.area);
    let first_x = (visible.min.x / step).floor() as i64;
    let last_x = (visible.max.x / step).ceil() as i64;
    let first_y = (visible.min.y / step).floor() as i64;
    let last_y = (visible.max.y / step).ceil() as i64;
    let colour = |i: i64| {
        if i.rem_euclid(5) == 0 { f.palette.grid_major } else { f.palette.grid_minor }
    };
    for i in first_x..=last_x {
        let x = f.view.to_screen(f.area, Pos2::new(i as f32 * step, 0.0)).x;
        painter.vline(x, f.area.y_range(), Stroke::new(1.0, colour(i)));
    }
    for i in first_y..=last_y {
        let y = f.view.to_screen(f.area, Pos2::new(0.0, i as f32 * step)).y;
        painter.hline(f.area.x_range(), y, Stroke::new(1.0, colour(i)));
    }
}

fn draw_links(painter: &Painter, f: &CanvasFrame<'_>, visible: Rect, points: &mut Vec<Pos2>) {
    let zoom = f.view.zoom;
    for (l, link) in f.scene.links.iter().enumerate() {
        if !f.ports.link_in_view(l, visible) {
            continue;
        }
        f.ports.link_points(f.scene, link, points);
        let selected = f.selection.links.contains(&link.key);
        let hovered = f.hover == Some(Hit::Link(l));
        let colour = if selected {
            f.palette.selection
        } else if hovered {
            f.palette.hover
        } else {
            f.palette.link_type_colour(&link.link_type).gamma_multiply(0.85)
        };
        let width = if selected || hovered { 2.6 } else { 1.6 } * zoom.clamp(0.5, 1.5);
        for p in points.iter_mut() {
            *p = f.view.to_screen(f.area, *p);
        }
        if selected || hovered {
            // A soft halo under the line so a selected link stands out from its neighbours.
            let halo = Stroke::new(width + 6.0, colour.gamma_multiply(0.25));
            polyline(painter, points, halo);
        }
        polyline(painter, points, Stroke::new(width, colour));
        if selected {
            for c in &link.corners {
                let s = f.view.to_screen(f.area, *c);
                painter.rect(
                    Rect::from_center_size(s, Vec2::splat(8.0)),
                    CornerRadius::same(2),
                    f.palette.canvas,
                    Stroke::new(1.5, f.palette.selection),
                    StrokeKind::Middle,
                );
            }
        }
    }
}

fn polyline(painter: &Painter, points: &[Pos2], stroke: Stroke) {
    if let [a, b] = points {
        painter.line_segment([*a, *b], stroke);
    } else {
        painter.add(PathShape::line(points.to_vec(), PathStroke::from(stroke)));
    }
}

/// An entity's name and displayed parameters under its body, on a backdrop of the canvas colour
/// (links and load tints pass under names without hiding them).
fn draw_node_text(painter: &Painter, f: &CanvasFrame<'_>, i: usize) {
    let node = &f.scene.nodes[i];
    let zoom = f.view.zoom;
    if NODE_SIZE * zoom < SIMPLE_NODE_PX {
        return;
    }
    let Some(name_px) = name_px(zoom) else { return };
    let centre = f.view.to_screen(f.area, f.positions[i]);
    let mut y = centre.y + NODE_SIZE * zoom * 0.5 + 3.0 * zoom + PORT_RADIUS * zoom;
    let backdrop = f.palette.canvas.gamma_multiply(0.8);
    let line = |text: &str, font: FontId, colour: Color32, y: f32| {
        let galley = painter.layout_no_wrap(text.to_string(), font, colour);
        let at = Pos2::new(centre.x - galley.size().x / 2.0, y);
        painter.rect_filled(
            Rect::from_min_size(at, galley.size()).expand2(Vec2::new(2.0, 0.0)),
            CornerRadius::same(2),
            backdrop,
        );
        painter.galley(at, galley, colour);
    };
    line(&node.name, FontId::proportional(name_px), f.palette.text, y);
    y += name_px * 1.25;
    if let Some(label_px) = label_px(zoom) {
        for label in &node.labels {
            line(label, FontId::monospace(label_px), f.palette.text_dim, y);
            y += label_px * 1.25;
        }
    }
}

fn draw_node(painter: &Painter, f: &CanvasFrame<'_>, i: usize) {
    let node = &f.scene.nodes[i];
    let zoom = f.view.zoom;
    let centre = f.view.to_screen(f.area, f.positions[i]);
    let size = NODE_SIZE * zoom;
    let rect = Rect::from_center_size(centre, Vec2::splat(size));
    let selected = f.selection.instances.contains(&node.name);
    let hovered = f.hover == Some(Hit::Node(i));
    let category = f.palette.category_colour(&node.category);
    if size < SIMPLE_NODE_PX {
        let fill = if selected { f.palette.selection } else { category };
        painter.rect_filled(rect, CornerRadius::same(1), fill);
        return;
    }
    let radius = CornerRadius::same((8.0 * zoom).clamp(1.0, 12.0) as u8);
    let outline = if selected {
        Stroke::new(2.2, f.palette.selection)
    } else if hovered {
        Stroke::new(1.5, f.palette.hover)
    } else {
        Stroke::new(1.0, f.palette.node_stroke)
    };
    painter.add(RectShape::new(rect, radius, f.palette.node_fill, outline, StrokeKind::Inside));
    let inner = rect.shrink(size * 0.12);
    match node.icon.as_deref().and_then(|n| f.icons.get(n)) {
        Some(texture) => {
            painter.image(
                texture.id(),
                inner,
                Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)),
                crate::theme::ICON_TINT,
            );
        }
        None => draw_glyph(painter, inner, category_index(&node.category), node.compound, category),
    }
    if node.compound {
        draw_badge(painter, f, rect, node.level);
    }
    draw_ports(painter, f, i);
}

/// A fallback glyph for types without an icon, by category.
#[allow(clippy::many_single_char_names, reason = "r, s, c: rectangle, size, centre of the glyph")]
pub fn draw_glyph(painter: &Painter, r: Rect, category: usize, compound: bool, colour: Color32) {
    let s = r.width();
    let stroke = Stroke::new((s * 0.06).max(1.0), colour);
    let c = r.center();
    if compound {
        // Stacked boxes: a network inside.
        for k in 0..3 {
            let o = (k as f32 - 1.0) * s * 0.12;
            let b = Rect::from_center_size(c + Vec2::new(o, -o), Vec2::splat(s * 0.5));
            painter.rect(b, CornerRadius::same(3), colour.gamma_multiply(0.25), stroke, StrokeKind::Middle);
        }
        return;
    }
    match category {
        0 => {
            // Chip with pins.
            let body = Rect::from_center_size(c, Vec2::splat(s * 0.56));
            painter.rect(body, CornerRadius::same(3), colour.gamma_multiply(0.3), stroke, StrokeKind::Middle);
            for k in 0..3 {
                let t = (k as f32 - 1.0) * s * 0.16;
                let (near, far) = (s * 0.28, s * 0.42);
                for (a, b) in [
                    (Vec2::new(t, -near), Vec2::new(t, -far)),
                    (Vec2::new(t, near), Vec2::new(t, far)),
                    (Vec2::new(-near, t), Vec2::new(-far, t)),
                    (Vec2::new(near, t), Vec2::new(far, t)),
                ] {
                    painter.line_segment([c + a, c + b], stroke);
                }
            }
        }
        1 => {
            // Crossing arrows.
            painter.circle_stroke(c, s * 0.42, stroke);
            painter.line_segment([c - Vec2::splat(s * 0.22), c + Vec2::splat(s * 0.22)], stroke);
            painter.line_segment(
                [c + Vec2::new(-s * 0.22, s * 0.22), c + Vec2::new(s * 0.22, -s * 0.22)],
                stroke,
            );
        }
        2 => {
            // Three connected dots.
            let pts = [
                c + Vec2::new(0.0, -s * 0.3),
                c + Vec2::new(-s * 0.3, s * 0.22),
                c + Vec2::new(s * 0.3, s * 0.22),
            ];
            for k in 0..3 {
                painter.line_segment([pts[k], pts[(k + 1) % 3]], stroke);
            }
            for p in pts {
                painter.circle_filled(p, s * 0.1, colour);
            }
        }
        _ => {
            painter.rect(
                Rect::from_center_size(c, Vec2::splat(s * 0.6)),
                CornerRadius::same(4),
                colour.gamma_multiply(0.25),
                stroke,
                StrokeKind::Middle,
            );
        }
    }
}

/// The abstraction level of a compound, as a letter badge on the icon's top-right corner
/// (D detailed, B behavioural); it stays while the icon is drawn, even when names are too small.
fn draw_badge(painter: &Painter, f: &CanvasFrame<'_>, icon: Rect, level: AbstractionLevel) {
    let px = icon.width() * 0.3;
    let (text, fill) = match level {
        AbstractionLevel::Detailed => ("D", f.palette.badge_detailed),
        AbstractionLevel::Behavioural => ("B", f.palette.badge_behavioural),
    };
    let badge = Rect::from_center_size(icon.right_top() + Vec2::new(-px * 0.15, px * 0.15), Vec2::splat(px));
    painter.rect_filled(badge, CornerRadius::same((px * 0.3) as u8), fill);
    painter.text(
        badge.center(),
        Align2::CENTER_CENTER,
        text,
        FontId::proportional(px * 0.85),
        f.palette.badge_text,
    );
}

fn draw_ports(painter: &Painter, f: &CanvasFrame<'_>, i: usize) {
    let node = &f.scene.nodes[i];
    let zoom = f.view.zoom;
    let r = (PORT_RADIUS * zoom).clamp(2.5, 7.0);
    let compatible = match f.drag {
        Drag::Link { compatible, .. } => Some(compatible),
        _ => None,
    };
    for (p, port) in node.ports.iter().enumerate() {
        let flat = node.first_port + p;
        let at = f.view.to_screen(f.area, f.ports.pos[flat]);
        let side = f.ports.side[flat];
        let mut fill = f.palette.link_type_colour(&port.link_type);
        let mut outline = Stroke::new(1.2, f.palette.canvas);
        let hovered = f.hover == Some(Hit::Port(i, p));
        if let Some(ok) = compatible {
            if ok[flat] {
                fill = f.palette.compatible;
                outline = Stroke::new(2.0, f.palette.compatible.gamma_multiply(0.5));
            } else {
                fill = fill.gamma_multiply(0.3);
            }
        }
        if hovered {
            let refused = compatible.is_some_and(|ok| !ok[flat]);
            outline = Stroke::new(2.0, if refused { f.palette.error } else { f.palette.text });
        }
        let linked = port.link.is_some() || port.exported;
        let body_fill = if linked || compatible.is_some() { fill } else { f.palette.node_fill };
        let body_stroke = if linked || compatible.is_some() { outline } else { Stroke::new(1.6, fill) };
        painter.add(port_shape(at, side, port.direction, r, body_fill, body_stroke));
        if port.exported {
            painter.circle_stroke(at, r + 2.5, Stroke::new(1.0, fill));
        }
    }
}

/// True if the link being dragged may end at port `p` of node `n`.
fn port_accepts(f: &CanvasFrame<'_>, compatible: &[bool], n: usize, p: usize) -> bool {
    f.scene.nodes.get(n).is_some_and(|node| compatible.get(node.first_port + p).copied().unwrap_or(false))
}

/// The marker of a port: a circle for in-out ports, a triangle pointing into the body for inputs
/// and out of it for outputs.
pub fn port_shape(
    at: Pos2,
    side: BodySide,
    direction: Direction,
    r: f32,
    fill: Color32,
    stroke: Stroke,
) -> Shape {
    let out = side.outward();
    let across = Vec2::new(-out.y, out.x);
    let tri = |towards: Vec2| {
        let tip = at + towards * r * 1.2;
        let base = at - towards * r * 0.9;
        vec![tip, base + across * r, base - across * r]
    };
    match direction {
        Direction::InOut => Shape::Circle(CircleShape { center: at, radius: r, fill, stroke }),
        Direction::Out => Shape::convex_polygon(tri(out), fill, stroke),
        Direction::In => Shape::convex_polygon(tri(-out), fill, stroke),
    }
}

fn draw_overlays(painter: &Painter, f: &CanvasFrame<'_>) {
    let to_screen = |p: Pos2| f.view.to_screen(f.area, p);
    match f.drag {
        Drag::Link { from, to, compatible } => {
            let node = &f.scene.nodes[from.0];
            let start = to_screen(f.ports.pos[node.first_port + from.1]);
            // Green only over a port the link can end at; an occupied or mistyped one is refused.
            let colour = match f.hover {
                Some(Hit::Port(n, p)) if port_accepts(f, compatible, n, p) => f.palette.compatible,
                Some(Hit::Port(..)) => f.palette.error,
                _ => f.palette.selection,
            };
            painter.add(Shape::dashed_line(&[start, to_screen(*to)], Stroke::new(2.0, colour), 6.0, 4.0));
        }
        Drag::Band { start, end } => {
            let r = Rect::from_two_pos(to_screen(*start), to_screen(*end));
            painter.rect(
                r,
                CornerRadius::same(2),
                f.palette.selection.gamma_multiply(0.12),
                Stroke::new(1.0, f.palette.selection),
                StrokeKind::Middle,
            );
        }
        Drag::Corner { pos, .. } => {
            painter.circle_stroke(to_screen(*pos), 5.0, Stroke::new(1.5, f.palette.selection));
        }
        Drag::Move { .. } | Drag::Pan | Drag::None => {}
    }
    if let (Some(type_name), Some(p)) = (f.placing, f.pointer) {
        let r = Rect::from_center_size(to_screen(p), Vec2::splat(NODE_SIZE * f.view.zoom));
        painter.rect(
            r,
            CornerRadius::same(6),
            f.palette.selection.gamma_multiply(0.10),
            Stroke::new(1.2, f.palette.selection),
            StrokeKind::Inside,
        );
        painter.text(
            Pos2::new(r.center().x, r.max.y + 4.0),
            Align2::CENTER_TOP,
            format!("place {type_name}"),
            FontId::proportional(12.0),
            f.palette.text_dim,
        );
    }
}
