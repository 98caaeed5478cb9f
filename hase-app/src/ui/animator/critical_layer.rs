//! The critical path on the drawing (View toggle "Critical path" of the timing diagram): each
//! link and node the path crosses outlined in the accent colour, thicker by the share of the
//! makespan blamed on it (the heaviest drawn thickest). Drawn under the entities, over the load
//! tint. The weights are `hase_editor::analysis_views::critical::drawing_weights`.

use egui::epaint::{PathShape, PathStroke};
use egui::{Painter, Pos2, Rect, Stroke, StrokeKind, Vec2};

use super::replay_frame::ReplayFrame;
use crate::ui::canvas::frame::CanvasFrame;
use crate::ui::canvas::geometry::NODE_SIZE;

/// Thickness (points at zoom 1) of the heaviest link or node; the others scale down from it.
const HEAVIEST_PX: f32 = 12.0;
/// Thickness of the lightest one drawn.
const LIGHTEST_PX: f32 = 2.0;

/// Draw the path's links and nodes; returns how many were drawn.
pub fn draw_critical_layer(
    painter: &Painter,
    f: &CanvasFrame<'_>,
    o: &ReplayFrame<'_>,
    points: &mut Vec<Pos2>,
) -> usize {
    let Some(w) = o.critical else { return 0 };
    let links: Vec<f64> = o
        .map
        .trace_links_of_link
        .iter()
        .map(|trace_links| {
            trace_links
                .iter()
                .filter_map(|&t| o.replay.header.links.get(t as usize))
                .map(|l| w.links.get(&(l.a.0.min(l.b.0), l.a.0.max(l.b.0))).copied().unwrap_or(0.0))
                .sum()
        })
        .collect();
    let nodes: Vec<f64> = o
        .map
        .entities_of_node
        .iter()
        .map(|entities| entities.iter().map(|e| w.entities.get(e).copied().unwrap_or(0.0)).sum())
        .collect();
    let heaviest = links.iter().chain(&nodes).copied().fold(0.0f64, f64::max);
    if heaviest <= 0.0 {
        return 0;
    }
    let zoom = f.view.zoom.clamp(0.4, 1.5);
    let width = |share: f64| (LIGHTEST_PX + (HEAVIEST_PX - LIGHTEST_PX) * (share / heaviest) as f32) * zoom;
    let colour = f.palette.accent;
    let visible = f.view.visible(f.area).expand(NODE_SIZE);
    let mut drawn = 0;
    for (l, share) in links.iter().enumerate() {
        if *share <= 0.0 {
            continue;
        }
        if !f.ports.link_in_view(l, visible) {
            continue;
        }
        f.ports.link_points(f.scene, &f.scene.links[l], points);
        for p in points.iter_mut() {
            *p = f.view.to_screen(f.area, *p);
        }
        let stroke = Stroke::new(width(*share), colour.gamma_multiply(0.8));
        painter.add(PathShape::line(points.clone(), PathStroke::from(stroke)));
        drawn += 1;
    }
    for (i, share) in nodes.iter().enumerate() {
        if *share <= 0.0 || !visible.contains(f.positions[i]) {
            continue;
        }
        let centre = f.view.to_screen(f.area, f.positions[i]);
        let thickness = width(*share);
        let rect = Rect::from_center_size(centre, Vec2::splat(NODE_SIZE * f.view.zoom + thickness));
        painter.rect_stroke(
            rect,
            6.0,
            Stroke::new(thickness, colour.gamma_multiply(0.8)),
            StrokeKind::Outside,
        );
        drawn += 1;
    }
    drawn
}
