//! Simulate ▸ Compare ▸ This design with different settings…: the dialog that gives the right-hand
//! side of a comparison its own seed, run-until time and parameter overrides, written one per line
//! exactly as `hase run --set` takes them (`workload.algorithm=ring`, `type:Router.switching=…`,
//! `fabric/r3.radix=4`, `link:p0.net.latency=20ns`). Every line is checked as typed against a
//! copy of the design; an error names its line and key, and nothing runs until all lines are valid.

use egui::{RichText, Ui};
use hase_engine::model::Project;
use hase_library::overrides::apply_set;

use crate::run::RunSettings;
use crate::theme::Palette;

/// The right-hand side of a "same design, different settings" comparison.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The design with the overrides applied.
    pub project: Project,
    /// Its run settings (trace level of the toolbar, its own seed and run-until time).
    pub settings: RunSettings,
    /// The assignments, trimmed, blank lines and `#` comments left out.
    pub assignments: Vec<String>,
    /// Short description of what differs: `algorithm=ring, seed 7`.
    pub changes: String,
}

/// Why a variant cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// One assignment is wrong.
    #[error("line {line}: `{key}`: {reason}")]
    Line {
        /// 1-based line of the assignment text.
        line: usize,
        /// The target before `=` (the whole line when there is no `=`).
        key: String,
        /// What is wrong.
        reason: String,
    },
    /// The run-until text is not a time.
    #[error(transparent)]
    Until(#[from] crate::run::UntilError),
    /// Nothing differs from the design's own run.
    #[error("nothing differs from this design: add an assignment or change the seed or run-until time")]
    NoChange,
}

/// Apply `lines` (one `target=value` per line) to a copy of `project` and pair it with its own
/// `seed` and `until_text`; `base` are the toolbar settings the left-hand side runs with.
pub fn build_variant(
    project: &Project,
    base: &RunSettings,
    seed: u64,
    until_text: &str,
    lines: &str,
) -> Result<Variant, VariantError> {
    let mut changed = project.clone();
    let mut assignments = Vec::new();
    let mut changes = Vec::new();
    for (i, raw) in lines.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let key = line.split_once('=').map_or(line, |(k, _)| k).trim().to_string();
        apply_set(&mut changed, line).map_err(|e| VariantError::Line {
            line: i + 1,
            key: key.clone(),
            reason: e.reason.to_string(),
        })?;
        let value = line.split_once('=').map_or("", |(_, v)| v).trim();
        let short = key.strip_prefix("workload.").unwrap_or(&key);
        changes.push(format!("{short}={value}"));
        assignments.push(line.to_string());
    }
    let settings = RunSettings { level: base.level, seed, until_text: until_text.trim().to_string() };
    let until = settings.until().map_err(VariantError::Until)?;
    if seed != base.seed {
        changes.push(format!("seed {seed}"));
    }
    if until != base.until().ok().flatten() {
        changes.push(match until {
            Some(t) => format!("until {t}"),
            None => "to the end".to_string(),
        });
    }
    if changes.is_empty() {
        return Err(VariantError::NoChange);
    }
    Ok(Variant { project: changed, settings, assignments, changes: changes.join(", ") })
}

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
    pub fn open_with(&mut self, base: &RunSettings) {
        self.open = true;
        self.seed = base.seed;
        self.until_text.clone_from(&base.until_text);
    }

    /// Show the dialog; returns the variant when the user asks to run it (only ever a valid one).
    pub fn show(
        &mut self,
        ctx: &egui::Context,
        project: &Project,
        base: &RunSettings,
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
        if chosen.is_some() || !open {
            self.open = false;
        }
        chosen
    }

    fn contents(
        &mut self,
        ui: &mut Ui,
        project: &Project,
        base: &RunSettings,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn fat_tree() -> (Project, RunSettings) {
        let project = hase_library::examples::fat_tree_allreduce().unwrap().project;
        let settings = RunSettings::from_project(&project);
        (project, settings)
    }

    #[test]
    fn a_variant_applies_its_lines_and_describes_itself() {
        let (project, base) = fat_tree();
        let text =
            "# the other algorithm\n  workload.algorithm = ring \n\ntype:Router.switching=cut_through\n";
        let v = build_variant(&project, &base, base.seed + 6, "2ms", text).unwrap();
        assert_eq!(v.assignments, ["workload.algorithm = ring", "type:Router.switching=cut_through"]);
        assert_eq!(v.changes, "algorithm=ring, type:Router.switching=cut_through, seed 7, until 2 ms");
        assert_eq!((v.settings.seed, v.settings.level), (7, base.level));
        let hase_engine::model::Workload::Program { params, .. } = &v.project.workload else { panic!() };
        assert_eq!(params["algorithm"], hase_engine::model::ParamValue::Text("ring".into()));
        // The design itself is untouched.
        let hase_engine::model::Workload::Program { params, .. } = &project.workload else { panic!() };
        assert_eq!(params["algorithm"], hase_engine::model::ParamValue::Text("recursive_doubling".into()));
    }

    #[test]
    fn a_bad_line_is_refused_naming_its_line_and_key() {
        let (project, base) = fat_tree();
        let e = build_variant(&project, &base, 1, "", "workload.algorithm=ring\nworkload.algoritm=ring")
            .unwrap_err();
        let VariantError::Line { line, key, reason } = &e else { panic!("{e:?}") };
        assert_eq!((*line, key.as_str()), (2, "workload.algoritm"));
        assert!(reason.starts_with("program `collective_loop` has no parameter `algoritm`"), "{reason}");
        assert!(e.to_string().starts_with("line 2: `workload.algoritm`: program"));
        let e = build_variant(&project, &base, 1, "", "type:Router.speed=3").unwrap_err();
        assert!(
            e.to_string().starts_with("line 1: `type:Router.speed`: type `Router` has no parameter"),
            "{e}"
        );
        let e = build_variant(&project, &base, 1, "", "no equals sign").unwrap_err();
        assert_eq!(e.to_string(), "line 1: `no equals sign`: expected `target=value`");
        let e = build_variant(&project, &base, 1, "soon", "workload.algorithm=ring").unwrap_err();
        assert!(matches!(e, VariantError::Until(ref t) if t.text == "soon"));
        assert_eq!(
            build_variant(&project, &base, base.seed, "", " \n# only a comment").unwrap_err(),
            VariantError::NoChange
        );
    }
}
