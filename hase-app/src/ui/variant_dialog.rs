//! Simulate ▸ Compare ▸ This design with different settings…: the dialog that gives the right-hand
//! side of a comparison its own seed, run-until time and parameter overrides, one per line as
//! `hase run --set` takes them. Every line is checked as typed against a copy of the design
//! (`hase_editor::session::variant::build_variant`); an error names its line and key, and nothing
//! runs until all lines are valid.

use egui::{RichText, Ui};
use hase_editor::run::NextRunSettings;
use hase_editor::session::variant::{Variant, VariantError, build_variant};
use hase_engine::model::Project;

use crate::theme::Palette;

/// The dialog's state.
#[derive(Clone, Debug, Default)]
pub struct VariantDialog {
    /// Shown.
    pub open: bool,
    /// Seed of the right-hand side.
    pub seed: u64,
    /// Run-until time of the right-hand side, as typed.
    pub until_text: String,
    /// The assignments, one per line (kept between openings).
    pub lines: String,
}

impl VariantDialog {
    /// Open with the toolbar's seed and run-until time.
    pub fn open_with(&mut self, base: &NextRunSettings) {
        self.open = true;
        self.seed = base.seed;
        self.until_text.clone_from(&base.until_text);
    }

    /// Show the dialog; returns the variant when the user asks to run it (only ever a valid one).
    pub fn show(
        &mut self,
        ctx: &egui::Context,
        project: &Project,
        base: &NextRunSettings,
        palette: &Palette,
    ) -> Option<Variant> {
        if !self.open {
            return None;
        }
        let mut open = self.open;
        let mut chosen = None;
        egui::Window::new("Compare with different settings")
            .open(&mut open)
            .pivot(egui::Align2::CENTER_TOP)
            .default_pos(ctx.content_rect().center_top() + egui::vec2(0.0, 60.0))
            .collapsible(false)
            .resizable(false)
            .default_width(520.0)
            .show(ctx, |ui| chosen = self.contents(ui, project, base, palette));
        // The window's shortcuts wait while it is open (`App::dialog_open`): it closes on Escape itself.
        if chosen.is_some() || !open || ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            self.open = false;
        }
        chosen
    }

    fn contents(
        &mut self,
        ui: &mut Ui,
        project: &Project,
        base: &NextRunSettings,
        palette: &Palette,
    ) -> Option<Variant> {
        ui.label(format!(
            "Left: this design as it is (seed {}, {}). Right: this design with the settings below.",
            base.seed,
            if base.until_text.trim().is_empty() {
                "to the end".to_string()
            } else {
                format!("until {}", base.until_text.trim())
            }
        ));
        ui.add_space(6.0);
        egui::Grid::new("variant-grid").num_columns(2).spacing([10.0, 6.0]).show(ui, |ui| {
            let label = ui.label("right seed");
            ui.add(egui::DragValue::new(&mut self.seed).speed(1.0)).labelled_by(label.id);
            ui.end_row();
            let label = ui.label("right run until");
            ui.add(
                egui::TextEdit::singleline(&mut self.until_text)
                    .hint_text("end (e.g. 2.5ms)")
                    .desired_width(120.0),
            )
            .labelled_by(label.id);
            ui.end_row();
        });
        ui.add_space(6.0);
        let label = ui.label("overrides, one per line (as `hase run --set`)");
        ui.add(
            egui::TextEdit::multiline(&mut self.lines)
                .hint_text("workload.algorithm=ring\ntype:Router.switching=cut_through")
                .code_editor()
                .desired_rows(5)
                .desired_width(f32::INFINITY),
        )
        .labelled_by(label.id);
        ui.weak(
            "Targets: workload.<param>, type:<Type>.<param>, <instance path>.<param>, \
             link:<instance>.<port>.latency|bandwidth",
        );
        ui.add_space(6.0);
        let result = build_variant(project, base, self.seed, &self.until_text, &self.lines);
        match &result {
            Ok(v) => {
                ui.label(RichText::new(format!("right: this design, {}", v.changes)).strong());
            }
            // Not an error yet: the user has not asked for anything.
            Err(e @ VariantError::NoChange) => {
                ui.weak(e.to_string());
            }
            Err(e) => {
                ui.label(RichText::new(e.to_string()).color(palette.error));
            }
        }
        ui.add_space(4.0);
        let mut chosen = None;
        ui.horizontal(|ui| {
            if ui.add_enabled(result.is_ok(), egui::Button::new("Run both")).clicked() {
                chosen = result.ok();
            }
            if ui.button("Cancel").clicked() {
                self.open = false;
            }
        });
        chosen
    }
}
