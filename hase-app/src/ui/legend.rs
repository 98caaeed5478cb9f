//! The port legend (View ▸ Port legend): what the port markers, link colours and level badges on the
//! canvas mean.

use std::collections::BTreeSet;

use egui::{Pos2, Rect, Sense, Stroke, Ui, Vec2};
use hase_engine::model::Direction;

use super::canvas::draw::port_shape;
use super::canvas::geometry::BodySide;
use crate::theme::Palette;
use hase_editor::state::{Editor, EditorCommand};

fn marker(ui: &mut Ui, palette: &Palette, direction: Direction, linked: bool, colour: egui::Color32) {
    let (rect, _) = ui.allocate_exact_size(Vec2::new(28.0, 18.0), Sense::hover());
    let body = Rect::from_min_size(rect.min + Vec2::new(2.0, 3.0), Vec2::new(12.0, 12.0));
    ui.painter().rect_filled(body, 2.0, palette.node_stroke);
    let at = Pos2::new(body.max.x, body.center().y);
    let (fill, stroke) = if linked {
        (colour, Stroke::new(1.2, palette.canvas))
    } else {
        (palette.node_fill, Stroke::new(1.6, colour))
    };
    ui.painter().add(port_shape(at, BodySide::Right, direction, 5.0, fill, stroke));
}

/// Show the legend window if it is open; returns the command closing it when its × is clicked.
pub fn show(ctx: &egui::Context, editor: &Editor, palette: &Palette) -> Option<EditorCommand> {
    let mut open = editor.settings.legend_open;
    egui::Window::new("Port legend")
        .open(&mut open)
        .resizable(false)
        .collapsible(false)
        .default_width(300.0)
        .default_pos([250.0, 100.0])
        .show(ctx, |ui| {
            let packet = palette.link_type_colour("packet");
            egui::Grid::new("legend-shapes").num_columns(2).spacing([8.0, 6.0]).show(ui, |ui| {
                for (direction, text) in [
                    (Direction::In, "input port (triangle points into the entity)"),
                    (Direction::Out, "output port (triangle points out)"),
                    (Direction::InOut, "bidirectional port (circle)"),
                ] {
                    marker(ui, palette, direction, true, packet);
                    ui.label(text);
                    ui.end_row();
                }
                marker(ui, palette, Direction::InOut, false, packet);
                ui.label("hollow: not connected");
                ui.end_row();
            });
            ui.separator();
            ui.label("Colour = link type (only equal link types connect):");
            let mut kinds: BTreeSet<String> = BTreeSet::new();
            for ty in editor.doc.all_types() {
                kinds.extend(ty.ports.iter().map(|p| p.link_type.clone()));
            }
            for kind in kinds {
                ui.horizontal(|ui| {
                    marker(ui, palette, Direction::InOut, true, palette.link_type_colour(&kind));
                    ui.label(kind);
                });
            }
            ui.separator();
            ui.label("Badge on a compound entity: D = detailed (inner network), B = behavioural model.");
            ui.label("A ring around an inner port: exported as an outer port of the compound.");
            ui.label("While dragging a link, ports it may connect to light up green.");
        });
    (open != editor.settings.legend_open).then_some(EditorCommand::ShowLegend(open))
}
