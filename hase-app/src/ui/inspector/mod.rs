//! The inspector: what is selected and its editable properties — an instance's name, type,
//! abstraction level (compounds) and parameters; a link's latency, bandwidth and corners; the
//! project when nothing is selected. Quantities are read by the one units parser and shown back in
//! the unit last typed for that field. The editor is read only here: the edits asked for come
//! back as editor commands; an edit a field waits on is checked the next frame (the private `asked` module).

mod asked;
mod params;
pub mod placement;
pub mod workload;

use egui::{RichText, Ui};
use hase_engine::model::{AbstractionLevel, EntityType};
use hase_engine::time::SimTime;
use hase_engine::units::{self, Dimension};

use crate::theme::Palette;
use asked::{Asked, Outcome};
use hase_editor::command::EditCommand;
use hase_editor::state::{Editor, EditorCommand, Selection};
use hase_editor::tasks::Tasks;
pub use params::shared_params;

/// The inspector's view state: field buffers, reset whenever the selection or the document
/// changes, and the edits its fields wait on.
#[derive(Default)]
pub struct Inspector {
    key: Option<(u64, u64, hase_editor::document::NetworkId)>,
    selection: Selection,
    buffers: params::Buffers,
    name: String,
    name_error: Option<String>,
    /// A rename asked for in the last frame (its refusal is shown under the name).
    renaming: Option<Asked<()>>,
    /// The workload and run-settings editor (shown when nothing is selected).
    pub workload: workload::WorkloadEditor,
    /// "Check levels" was pressed (taken by the app).
    pub check_levels: bool,
}

/// Width of the parameter grid's last column (the display menu, or Reset) and the grid's margins.
const DISPLAY_COLUMN: f32 = 64.0;

impl Inspector {
    /// The data sheet (a `sheet` parameter value) whose View… button was pressed, once.
    pub fn take_sheet_request(&mut self) -> Option<String> {
        self.buffers.view_sheet.take()
    }

    /// Show the inspector; returns the changes of the editor asked for.
    pub fn show(
        &mut self,
        ui: &mut Ui,
        editor: &Editor,
        tasks: &Tasks,
        palette: &Palette,
    ) -> Vec<EditorCommand> {
        // Compared without formatting or cloning, so a large selection costs nothing per frame.
        let key = (editor.generation, editor.history.revision(), editor.current_net());
        let changed = self.key.as_ref() != Some(&key) || self.selection != editor.selection;
        if changed {
            self.key = Some(key);
            self.selection.clone_from(&editor.selection);
            self.buffers.reset_fields();
            self.name = editor.selection.instances.iter().next().cloned().unwrap_or_default();
            self.name_error = None;
        }
        if let Some(Outcome::Refused((), reason)) = self.renaming.take().map(|asked| asked.outcome(editor)) {
            self.name_error = Some(reason);
        }
        let mut out = Vec::new();
        ui.add_space(6.0);
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            if !editor.selection.instances.is_empty() {
                self.instances(ui, editor, (tasks, palette), &mut out);
            } else if editor.selection.links.len() == 1 {
                self.link(ui, editor, palette, &mut out);
            } else if !editor.selection.links.is_empty() {
                ui.heading(format!("{} links", editor.selection.links.len()));
                ui.weak("Press Delete to remove them.");
            } else {
                project(ui, editor);
                self.workload.show(ui, editor, (tasks, palette), &mut out);
            }
        });
        out
    }

    fn instances(
        &mut self,
        ui: &mut Ui,
        editor: &Editor,
        (tasks, palette): (&Tasks, &Palette),
        out: &mut Vec<EditorCommand>,
    ) {
        let net = editor.current_net();
        let names = editor.selected_instances();
        let Some(network) = editor.doc.network(&net) else {
            return;
        };
        let types: Vec<&EntityType> = names
            .iter()
            .filter_map(|n| network.instances.get(n))
            .filter_map(|i| editor.doc.entity_type(&i.type_name))
            .collect();
        if types.len() != names.len() {
            ui.colored_label(palette.error, "Some selected entities have an unknown type.");
            return;
        }
        let single = names.len() == 1;
        let first_type = types[0].clone();
        let same_type = types.iter().all(|t| t.name == first_type.name);
        let params: Vec<hase_engine::model::ParamDef> = shared_params(&types).into_iter().cloned().collect();
        if single {
            ui.heading(&names[0]);
            ui.horizontal(|ui| {
                let label = ui.label("Name");
                let response = ui
                    .add(
                        egui::TextEdit::singleline(&mut self.name)
                            .desired_width(160.0)
                            .id_salt("instance-name"),
                    )
                    .labelled_by(label.id);
                if response.lost_focus() && self.name != names[0] {
                    let to = self.name.trim().to_string();
                    let mut renamed = Selection::default();
                    renamed.only(&to);
                    let rename = EditCommand::Rename { net: net.clone(), from: names[0].clone(), to };
                    out.push(EditorCommand::EditAndSelect(rename, renamed));
                    self.renaming = Some(Asked::new(editor, ()));
                }
            });
            if let Some(e) = &self.name_error {
                ui.label(RichText::new(e).color(palette.error).small());
            }
        } else {
            ui.heading(format!("{} entities", names.len()));
            // A large selection (a whole inserted network) lists its first names only.
            let listed = names.iter().take(12).cloned().collect::<Vec<_>>().join(", ");
            match names.len().checked_sub(12).filter(|more| *more > 0) {
                Some(more) => ui.weak(format!("{listed} … and {more} more")),
                None => ui.weak(listed),
            };
        }
        ui.add_space(4.0);
        if same_type {
            ui.label(RichText::new(&first_type.name).strong());
            if !first_type.description.is_empty() {
                ui.weak(&first_type.description);
            }
        } else {
            ui.weak("Mixed types: only shared parameters are shown.");
        }
        if single
            && editor.current_net() == hase_editor::document::NetworkId::Top
            && let Some(text) = placement::processor_rank_text(editor, &names[0])
        {
            // Wrapped, so the line never widens the panel (the canvas beside it would move).
            ui.add(egui::Label::new(RichText::new(text).weak()).wrap());
        }
        if same_type && first_type.is_compound() {
            ui.add_space(6.0);
            self.check_levels |= Self::level(ui, editor, (&names, &first_type), out);
        }
        ui.add_space(8.0);
        ui.separator();
        ui.label(RichText::new("Parameters").strong());
        if params.is_empty() {
            ui.weak("No shared parameters.");
        }
        // Widths are fixed before the grid: a grid sized by its own contents would grow every frame.
        // The value column takes what the names, the display menu and the spacing leave, so that
        // a row fits the panel as it is.
        let font = egui::TextStyle::Body.resolve(ui.style());
        let colour = ui.visuals().text_color();
        let names_width = params
            .iter()
            .map(|d| ui.painter().layout_no_wrap(d.name.clone(), font.clone(), colour).size().x)
            .fold(0.0_f32, f32::max);
        let width = (ui.available_width() - names_width - DISPLAY_COLUMN - 3.0 * 8.0).clamp(80.0, 420.0);
        let row = params::RowContext { tasks, names: &names, palette, width };
        let mut edit = params::ParamEdit { editor, buffers: &mut self.buffers, row: &row, out: &mut *out };
        egui::Grid::new("params").num_columns(3).spacing([8.0, 6.0]).striped(true).show(ui, |ui| {
            for def in &params {
                params::param_row(ui, &mut edit, def);
            }
        });
        let live = first_type.behaviour.as_deref().map_or(&[][..], hase_entities::catalogue::live_values);
        if same_type && !live.is_empty() {
            ui.add_space(8.0);
            ui.label(RichText::new("Live values").strong()).on_hover_text(
                "What the entity traces while it runs (trace level 3 or below); a displayed one is shown \
                 beside the entity in the animator, arrays with written cells and read cells marked",
            );
            egui::Grid::new("live").num_columns(3).spacing([8.0, 6.0]).striped(true).show(ui, |ui| {
                for value in live {
                    out.extend(params::live_row(ui, editor, &names, value));
                }
            });
        }
    }

    /// The abstraction level of compounds; returns true when "Check levels" was pressed.
    fn level(
        ui: &mut Ui,
        editor: &Editor,
        (names, ty): (&[String], &EntityType),
        out: &mut Vec<EditorCommand>,
    ) -> bool {
        let net = editor.current_net();
        let Some(network) = editor.doc.network(&net) else {
            return false;
        };
        let levels: Vec<AbstractionLevel> =
            names.iter().filter_map(|n| network.instances.get(n).map(|i| i.level)).collect();
        let shared = levels.first().copied().filter(|l| levels.iter().all(|x| x == l));
        let mut chosen = None;
        ui.horizontal(|ui| {
            ui.label("Abstraction");
            for level in [AbstractionLevel::Detailed, AbstractionLevel::Behavioural] {
                let enabled = level == AbstractionLevel::Detailed || ty.behaviour.is_some();
                let button = egui::Button::selectable(shared == Some(level), level.word());
                let response = ui.add_enabled(enabled, button);
                let response = if enabled {
                    response.on_hover_text(match level {
                        AbstractionLevel::Detailed => "Simulate the inner network",
                        AbstractionLevel::Behavioural => "Simulate the type's own model (same ports)",
                    })
                } else {
                    response.on_disabled_hover_text(format!("`{}` has no behavioural model", ty.name))
                };
                if response.clicked() {
                    chosen = Some(level);
                }
            }
        });
        if let Some(level) = chosen.filter(|l| Some(*l) != shared) {
            let commands = names
                .iter()
                .map(|n| EditCommand::SetLevel { net: net.clone(), instance: n.clone(), level })
                .collect();
            out.push(EditorCommand::Edit(EditCommand::Batch {
                label: format!("set {} {}", names.join(", "), level.word()),
                commands,
            }));
        }
        let mut check = false;
        if names.len() == 1 {
            ui.horizontal(|ui| {
                if ui.button("Open inner network").clicked() {
                    out.push(EditorCommand::OpenCompound(names[0].clone()));
                }
                check = ui
                    .add_enabled(ty.behaviour.is_some(), egui::Button::new("Check levels"))
                    .on_hover_text(
                        "Run the design with this compound detailed, then behavioural, on the same \
                         workload, and compare the makespans and message latencies",
                    )
                    .on_disabled_hover_text(format!("`{}` has no behavioural model", ty.name))
                    .clicked();
            });
        }
        check
    }

    fn link(&mut self, ui: &mut Ui, editor: &Editor, palette: &Palette, out: &mut Vec<EditorCommand>) {
        let net = editor.current_net();
        let Some(key) = editor.selection.links.iter().next().cloned() else {
            return;
        };
        let Some(link) =
            editor.doc.network(&net).and_then(|n| n.links.iter().find(|l| l.key() == key)).cloned()
        else {
            return;
        };
        ui.heading("Link");
        ui.label(format!("{}  —  {}", link.a, link.b));
        ui.add_space(6.0);
        let mut apply = None;
        egui::Grid::new("link").num_columns(2).spacing([8.0, 6.0]).show(ui, |ui| {
            for (field, dimension, value) in [
                ("latency", Dimension::Time, link.latency.as_ps()),
                ("bandwidth", Dimension::Rate, link.bandwidth_bytes_per_s),
            ] {
                let key = format!("link.{field}");
                let shown = match self.buffers.units.get(&key) {
                    Some(unit) => units::format_in(value, unit),
                    None if dimension == Dimension::Time => units::format_time(SimTime(value)),
                    None => units::format_rate(value),
                };
                let label = ui.label(field).id;
                let text = self.buffers.text.entry(field.to_string()).or_insert_with(|| shown.clone());
                // A fixed size: inside a grid, a text field only gets last frame's column width.
                let response = ui
                    .add_sized(
                        [160.0, ui.spacing().interact_size.y],
                        egui::TextEdit::singleline(text).id_salt(("link", field)),
                    )
                    .labelled_by(label)
                    .on_hover_text(match dimension {
                        Dimension::Time => "a time such as 10ns, 1.5us; Enter to apply",
                        _ => "a rate such as 1GBps, 10Gbps, 125MB/s, 1G (= 10⁹ B/s) or unlimited; Enter to apply",
                    });
                ui.end_row();
                if response.lost_focus() && *text != shown {
                    match units::parse_typed(dimension, text) {
                        Ok((value, unit)) => {
                            self.buffers.errors.remove(field);
                            let symbol_given = !unit.symbol.is_empty();
                            self.buffers.remember_unit(&key, symbol_given.then_some(unit));
                            apply = Some((field, value));
                        }
                        Err(e) => {
                            self.buffers.errors.insert(field.to_string(), format!("{field}: {e}"));
                        }
                    }
                }
            }
        });
        for e in self.buffers.errors.values() {
            ui.label(RichText::new(e).color(palette.error).small());
        }
        if let Some((field, value)) = apply {
            let (mut latency, mut bandwidth) = (link.latency, link.bandwidth_bytes_per_s);
            if field == "latency" {
                latency = SimTime(value);
            } else {
                bandwidth = value;
            }
            if (latency, bandwidth) == (link.latency, link.bandwidth_bytes_per_s) {
                // Same value in another unit: show it in the unit just typed.
                self.buffers.text.remove(field);
            } else {
                out.push(EditorCommand::Edit(EditCommand::SetLinkProps {
                    net: net.clone(),
                    key: key.clone(),
                    latency,
                    bandwidth_bytes_per_s: bandwidth,
                }));
            }
        }
        ui.add_space(6.0);
        let corners = editor.doc.layout(&net).corners.get(&key).map_or(0, Vec::len);
        ui.weak(format!("{corners} corner point(s); double-click the link to add one, drag to move it."));
        ui.horizontal(|ui| {
            if ui.add_enabled(corners > 0, egui::Button::new("Straighten")).clicked() {
                out.push(EditorCommand::Edit(EditCommand::SetCorners {
                    net: net.clone(),
                    key: key.clone(),
                    corners: Vec::new(),
                }));
            }
            if ui.button("Delete link").clicked() {
                out.push(EditorCommand::Edit(EditCommand::Unlink { net: net.clone(), key: key.clone() }));
            }
        });
    }
}

fn project(ui: &mut Ui, editor: &Editor) {
    let net = editor.current_net();
    let project = &editor.doc.project;
    ui.heading(&project.name);
    if !project.description.is_empty() {
        ui.weak(&project.description);
    }
    ui.add_space(6.0);
    if let Some(network) = editor.doc.network(&net) {
        egui::Grid::new("project").num_columns(2).spacing([12.0, 4.0]).show(ui, |ui| {
            ui.label("Entities");
            ui.label(network.instances.len().to_string());
            ui.end_row();
            ui.label("Links");
            ui.label(network.links.len().to_string());
            ui.end_row();
            ui.label("Routing");
            ui.label(network.routing.name());
            ui.end_row();
            ui.label("Project types");
            ui.label(project.types.len().to_string());
            ui.end_row();
        });
    }
    if let hase_editor::document::NetworkId::Type(t) = &net {
        ui.add_space(6.0);
        ui.label(RichText::new(format!("Inner network of {t}")).strong());
        ui.weak("Edits here change every instance of this type.");
        if let Some(c) = project.types.get(t).and_then(|t| t.compound.as_ref()) {
            for e in &c.exports {
                ui.weak(format!("outer port {} is {}", e.outer, e.inner));
            }
        }
    }
    ui.add_space(6.0);
    ui.weak("Select an entity or a link to edit it.");
}
