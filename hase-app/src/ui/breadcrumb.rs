//! The breadcrumb bar above the canvas: the path from the top level to the open compound; each
//! step leads back up.

use egui::{RichText, Ui};

use crate::theme::Palette;
use hase_editor::state::Editor;

/// Show the breadcrumb bar; returns the depth the user asked to go back to.
pub fn show(ui: &mut Ui, editor: &Editor, palette: &Palette) -> Option<usize> {
    let mut target = None;
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        let top = RichText::new(&editor.doc.project.name).strong();
        if editor.crumbs.is_empty() {
            ui.label(top);
        } else if ui.link(top).on_hover_text("Back to the top level").clicked() {
            target = Some(0);
        }
        for (depth, crumb) in editor.crumbs.iter().enumerate() {
            ui.label(RichText::new("›").color(palette.text_dim));
            let text = format!("{} ({})", crumb.instance, crumb.type_name);
            if depth + 1 == editor.crumbs.len() {
                ui.label(RichText::new(text).strong());
            } else if ui.link(text).clicked() {
                target = Some(depth + 1);
            }
        }
        if let Some(last) = editor.crumbs.last() {
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button("Up one level").on_hover_text("Alt+Up").clicked() {
                    target = Some(editor.crumbs.len() - 1);
                }
                ui.weak(format!(
                    "inner network of {}: edits change every instance of the type",
                    last.type_name
                ));
            });
        }
    });
    target
}
