//! The palette: every entity type the project can use (built-ins and the project's own), grouped
//! by category, each with its icon. Drag an entry onto the canvas to place it, or click it and then
//! click the canvas. Below them, the topology templates: a click, or a drag onto the canvas, opens
//! the template dialog.

use std::collections::BTreeMap;

use egui::{CornerRadius, Rect, Sense, Stroke, StrokeKind, Ui, Vec2, WidgetInfo};
use hase_engine::model::{Direction, EntityType};

use super::canvas::draw::draw_glyph;
use super::canvas::{PalettePayload, TemplatePayload};
use crate::icons::Icons;
use crate::theme::{Palette, category_index};
use hase_editor::state::{Editor, EditorCommand};

/// Palette panel's view state: the filter typed, and a template clicked for the app to take.
#[derive(Default)]
pub struct PalettePanel {
    filter: String,
    /// A template clicked in the Templates section (the app opens the template dialog on it).
    pub template_clicked: Option<&'static str>,
}

/// Width of the palette panel as the window opens (windows open beside it, not over it).
pub const PALETTE_WIDTH: f32 = 210.0;

/// Category display order.
const ORDER: [&str; 4] = ["Processors", "Switches", "Networks", "Compounds"];

impl PalettePanel {
    /// Show the palette; returns the change of the type armed for placing, when one is clicked.
    pub fn show(
        &mut self,
        ui: &mut Ui,
        editor: &Editor,
        icons: &Icons,
        palette: &Palette,
    ) -> Option<EditorCommand> {
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            ui.heading("Library");
        });
        ui.add(
            egui::TextEdit::singleline(&mut self.filter)
                .hint_text("Filter types…")
                .desired_width(f32::INFINITY),
        )
        .accessible_name("Filter types");
        ui.add_space(4.0);
        let filter = self.filter.to_lowercase();
        let mut groups: BTreeMap<(usize, String), Vec<&EntityType>> = BTreeMap::new();
        for ty in editor.doc.all_types() {
            if !filter.is_empty() && !ty.name.to_lowercase().contains(&filter) {
                continue;
            }
            let category = if ty.category.is_empty() { "Other" } else { ty.category.as_str() };
            let rank = ORDER.iter().position(|c| *c == category).unwrap_or(ORDER.len());
            groups.entry((rank, category.to_string())).or_default().push(ty);
        }
        let mut clicked = None;
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            for ((_, category), types) in &groups {
                egui::CollapsingHeader::new(egui::RichText::new(category).strong())
                    .id_salt(("palette", category))
                    .default_open(true)
                    .show(ui, |ui| {
                        for ty in types {
                            let armed = editor.placing.as_deref() == Some(ty.name.as_str());
                            if entry(ui, ty, armed, icons, palette) {
                                clicked = Some(ty.name.clone());
                            }
                        }
                    });
            }
            if groups.is_empty() {
                ui.weak("No type matches the filter.");
            }
            let clicked = templates(ui, icons, palette);
            self.template_clicked = self.template_clicked.or(clicked);
            ui.add_space(8.0);
            ui.weak(
                "Drag a type onto the canvas, or click it and then click the canvas (Shift keeps placing). \
                 Drag a template onto the canvas, or click it, to generate a network.",
            );
        });
        clicked.map(|name| {
            let placing = if editor.placing.as_deref() == Some(name.as_str()) { None } else { Some(name) };
            EditorCommand::SetPlacing(placing)
        })
    }
}

/// One palette row; returns true if clicked.
fn entry(ui: &mut Ui, ty: &EntityType, armed: bool, icons: &Icons, palette: &Palette) -> bool {
    let height = 34.0;
    let (rect, response) =
        ui.allocate_exact_size(Vec2::new(ui.available_width(), height), Sense::click_and_drag());
    response.widget_info(|| WidgetInfo::labeled(egui::Role::Button, true, &ty.name));
    response.dnd_set_drag_payload(PalettePayload { type_name: ty.name.clone() });
    let visuals = ui.style().interact_selectable(&response, armed);
    if response.hovered() || armed {
        row_highlight(ui, rect, visuals.weak_bg_fill);
    }
    let icon_rect = Rect::from_min_size(rect.min + Vec2::new(4.0, 3.0), Vec2::splat(height - 6.0));
    paint_icon(ui, icon_rect, ty, icons, palette);
    let text_pos = egui::pos2(icon_rect.max.x + 8.0, rect.center().y);
    ui.painter().text(
        text_pos,
        egui::Align2::LEFT_CENTER,
        &ty.name,
        egui::FontId::proportional(14.0),
        visuals.text_color(),
    );
    if response.dragged() {
        ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
        if let Some(p) = ui.ctx().pointer_interact_pos() {
            let ghost = Rect::from_center_size(p, Vec2::splat(40.0));
            let painter = ui
                .ctx()
                .layer_painter(egui::LayerId::new(egui::Order::Tooltip, egui::Id::unique("palette-ghost")));
            painter.rect(
                ghost,
                CornerRadius::same(6),
                palette.node_fill.gamma_multiply(0.8),
                Stroke::new(1.0, palette.selection),
                StrokeKind::Inside,
            );
            if let Some(t) = ty.icon.as_deref().and_then(|n| icons.get(n)) {
                painter.image(
                    t.id(),
                    ghost.shrink(5.0),
                    Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
                    crate::theme::ICON_TINT,
                );
            }
        }
    }
    let clicked = response.clicked();
    response.on_hover_ui(|ui| tooltip(ui, ty));
    clicked
}

fn paint_icon(ui: &Ui, rect: Rect, ty: &EntityType, icons: &Icons, palette: &Palette) {
    let painter = ui.painter();
    if let Some(texture) = ty.icon.as_deref().and_then(|n| icons.get(n)) {
        painter.image(
            texture.id(),
            rect,
            Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
            crate::theme::ICON_TINT,
        );
    } else {
        let colour = palette.category[category_index(&ty.category)];
        painter.rect(
            rect.shrink(1.0),
            CornerRadius::same(5),
            palette.node_fill,
            Stroke::new(1.0, palette.node_stroke),
            StrokeKind::Inside,
        );
        draw_glyph(painter, rect.shrink(4.0), category_index(&ty.category), ty.compound.is_some(), colour);
    }
}

fn tooltip(ui: &mut Ui, ty: &EntityType) {
    ui.set_max_width(320.0);
    ui.strong(&ty.name);
    if !ty.description.is_empty() {
        ui.label(&ty.description);
    }
    ui.add_space(4.0);
    let ports: Vec<String> = ty
        .ports
        .iter()
        .map(|p| {
            let arrow = match p.direction {
                Direction::In => "in",
                Direction::Out => "out",
                Direction::InOut => "in-out",
            };
            let count = match &p.count {
                hase_engine::model::PortCount::One => String::new(),
                hase_engine::model::PortCount::Fixed(n) => format!("[{n}]"),
                hase_engine::model::PortCount::Param(param) => format!("[{param}]"),
            };
            format!("{}{count} ({arrow}, {})", p.name, p.link_type)
        })
        .collect();
    if !ports.is_empty() {
        ui.weak(format!("Ports: {}", ports.join(", ")));
    }
    let mut levels = Vec::new();
    if ty.compound.is_some() {
        levels.push("detailed (inner network)");
    }
    if ty.behaviour.is_some() {
        levels.push("behavioural");
    }
    ui.weak(format!("Levels: {}", levels.join(", ")));
}

/// The Templates section: one row per topology, drawn like the type rows; returns the template
/// clicked.
fn templates(ui: &mut Ui, icons: &Icons, palette: &Palette) -> Option<&'static str> {
    let mut clicked = None;
    egui::CollapsingHeader::new(egui::RichText::new("Templates").strong())
        .id_salt(("palette", "Templates"))
        .default_open(true)
        .show(ui, |ui| {
            for name in hase_templates::Topology::all_names() {
                let title = crate::ui::template_dialog::template_title(name);
                let help = hase_templates::Topology::dims_help(name).unwrap_or("");
                let height = 26.0;
                let (rect, response) =
                    ui.allocate_exact_size(Vec2::new(ui.available_width(), height), Sense::click_and_drag());
                response.widget_info(|| WidgetInfo::labeled(egui::Role::Button, true, title));
                response.dnd_set_drag_payload(TemplatePayload { name });
                if response.dragged() {
                    ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
                }
                let visuals = ui.style().interact(&response);
                if response.hovered() {
                    row_highlight(ui, rect, visuals.weak_bg_fill);
                }
                let icon = Rect::from_min_size(rect.min + Vec2::new(8.0, 3.0), Vec2::splat(height - 6.0));
                match icons.get("network") {
                    Some(texture) => {
                        let uv = Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
                        ui.painter().image(texture.id(), icon, uv, crate::theme::ICON_TINT);
                    }
                    None => draw_glyph(
                        ui.painter(),
                        icon,
                        category_index("Networks"),
                        true,
                        palette.category_colour("Networks"),
                    ),
                }
                ui.painter().text(
                    egui::pos2(icon.max.x + 10.0, rect.center().y),
                    egui::Align2::LEFT_CENTER,
                    title,
                    egui::FontId::proportional(14.0),
                    visuals.text_color(),
                );
                if response.on_hover_text(format!("Generate a {title}… ({help})")).clicked() {
                    clicked = Some(name);
                }
            }
        });
    clicked
}

/// The rounded background of a hovered or armed palette row.
fn row_highlight(ui: &Ui, rect: Rect, fill: egui::Color32) {
    ui.painter().rect(rect, CornerRadius::same(4), fill, Stroke::NONE, StrokeKind::Inside);
}
