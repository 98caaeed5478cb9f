//! Parameter editors chosen by [`ParamKind`]: text fields for numbers with units, times (`10us`) and
//! arrays, sliders for ranges, combo boxes for enums, checkboxes, multi-line text, and file fields
//! with a picker. Values are read with `ParamDef::parse_typed` (the one units parser: `10Gbps`,
//! `64K`, `1Gf`) and shown back in the unit they were typed in; a refused value keeps the field and
//! shows the reason. With several entities selected, the shared parameter is set on all of them.

use std::collections::BTreeMap;

use egui::{RichText, Ui};
use hase_engine::model::{EntityType, ParamDef, ParamDisplay, ParamKind, ParamValue};
use hase_engine::units::{Dimension, Unit};
use hase_entities::catalogue::LiveValue;

use crate::theme::Palette;
use hase_editor::command::EditCommand;
use hase_editor::document::NetworkId;
use hase_editor::state::{Editor, EditorCommand};
use hase_editor::tasks::{FilePurpose, FileRequest, Tasks};

/// Text being edited and reasons for refused values, per parameter; and the unit each field was last
/// typed in, which outlives the selection so values are shown back in the units the user writes.
#[derive(Default)]
pub struct Buffers {
    /// Field text by parameter name.
    pub text: BTreeMap<String, String>,
    /// Refusal reason by parameter name.
    pub errors: BTreeMap<String, String>,
    /// The unit last typed, by parameter name (`link.latency`, `link.bandwidth` for links).
    pub units: BTreeMap<String, Unit>,
    /// A data sheet the user asked to view (the `sheet` value), for the app to open.
    pub view_sheet: Option<String>,
}

impl Buffers {
    /// Forget the field texts and refusals (the selection or the document changed); keep the units.
    pub fn reset_fields(&mut self) {
        self.text.clear();
        self.errors.clear();
    }

    /// Remember the unit a value of `field` was typed in (`None`: a bare number or a unitless kind).
    pub fn remember_unit(&mut self, field: &str, unit: Option<Unit>) {
        match unit {
            Some(unit) => self.units.insert(field.to_string(), unit),
            None => self.units.remove(field),
        };
    }
}

/// The current value of `def` on the selected instances: `Some` if they all agree.
fn shared_value(editor: &Editor, net: &NetworkId, names: &[String], def: &ParamDef) -> Option<ParamValue> {
    let network = editor.doc.network(net)?;
    let mut values = names.iter().map(|n| {
        let inst = network.instances.get(n)?;
        let ty = editor.doc.entity_type(&inst.type_name)?;
        ty.value_of(&inst.params, &def.name).cloned()
    });
    let first = values.next()??;
    values.all(|v| v.as_ref() == Some(&first)).then_some(first)
}

/// Set `param` to `value` on every named instance, as one undoable step.
fn commit(net: &NetworkId, names: &[String], param: &str, value: &ParamValue) -> EditorCommand {
    let mut commands: Vec<EditCommand> = names
        .iter()
        .map(|n| EditCommand::SetParam {
            net: net.clone(),
            instance: n.clone(),
            param: param.to_string(),
            value: Some(value.clone()),
        })
        .collect();
    if commands.len() == 1
        && let Some(single) = commands.pop()
    {
        return EditorCommand::Edit(single);
    }
    EditorCommand::Edit(EditCommand::Batch {
        label: format!("set {param} on {} entities", names.len()),
        commands,
    })
}

/// What a parameter's field edits with: the editor (read only), the field buffers, the row's
/// context, and the commands the inspector returns.
pub struct ParamEdit<'a, 'b> {
    /// The editor.
    pub editor: &'a Editor,
    /// The field buffers.
    pub buffers: &'b mut Buffers,
    /// The row's context.
    pub row: &'a RowContext<'a>,
    /// The commands asked for.
    pub out: &'b mut Vec<EditorCommand>,
}

/// What every parameter row of the inspector is shown with.
pub struct RowContext<'a> {
    /// Background work (the file picker of file parameters).
    pub tasks: &'a Tasks,
    /// The selected instances whose parameters are edited.
    pub names: &'a [String],
    /// Colours.
    pub palette: &'a Palette,
    /// Width of the editors.
    pub width: f32,
}

/// Show one parameter row (label, editor, unit, display choice) in a grid.
pub fn param_row(ui: &mut Ui, edit: &mut ParamEdit<'_, '_>, def: &ParamDef) {
    let (names, palette) = (edit.row.names, edit.row.palette);
    let net = edit.editor.current_net();
    let current = shared_value(edit.editor, &net, names, def);
    let label = ui.label(&def.name);
    let label_id = label.id;
    if !def.description.is_empty() {
        label.on_hover_text(&def.description);
    }
    ui.vertical(|ui| {
        ui.horizontal(|ui| {
            editor_for(ui, edit, (def, current.as_ref()), label_id);
        });
        if is_sheet(def) {
            // The buttons under the field, so that a narrow inspector keeps room for the path.
            ui.horizontal(|ui| sheet_buttons(ui, edit, def, current.as_ref()));
        }
        if let Some(e) = edit.buffers.errors.get(&def.name) {
            ui.label(RichText::new(e).color(palette.error).small());
        }
    });
    edit.out.extend(display_choice(ui, edit.editor, &net, names, &def.name));
    ui.end_row();
}

/// The field of parameter `def` (whose shared value is `current`), chosen by its kind.
fn editor_for(
    ui: &mut Ui,
    edit: &mut ParamEdit<'_, '_>,
    (def, current): (&ParamDef, Option<&ParamValue>),
    label_id: egui::Id,
) {
    let RowContext { tasks, names, width, .. } = *edit.row;
    let net = edit.editor.current_net();
    let (buffers, out) = (&mut *edit.buffers, &mut *edit.out);
    match &def.kind {
        ParamKind::Bool => {
            let mut value = current.and_then(ParamValue::as_bool).unwrap_or(false);
            let response = ui
                .add(egui::Checkbox::new(&mut value, "").indeterminate(current.is_none()))
                .labelled_by(label_id);
            if response.changed() {
                out.push(commit(&net, names, &def.name, &ParamValue::Bool(value)));
            }
        }
        ParamKind::Enum { choices } => {
            let shown = current.and_then(ParamValue::as_text).unwrap_or("(mixed)").to_string();
            let mut chosen = None;
            // A long choice (`recursive_doubling`) is cut to the column rather than widening it
            // (and the panel with it); the whole word is on hover and in the list.
            let combo = ui.scope(|ui| {
                ui.set_max_width(width);
                egui::ComboBox::from_id_salt(("param", &def.name))
                    .selected_text(&shown)
                    .width(width)
                    .truncate()
                    .show_ui(ui, |ui| {
                        for c in choices {
                            if ui.selectable_label(*c == shown, c).clicked() {
                                chosen = Some(c.clone());
                            }
                        }
                    })
                    .response
                    .labelled_by(label_id)
            });
            combo.inner.on_hover_text(&shown);
            if let Some(c) = chosen.filter(|c| *c != shown) {
                out.push(commit(&net, names, &def.name, &ParamValue::Text(c)));
            }
        }
        ParamKind::Range { min, max, step } => {
            let key = def.name.clone();
            let mut value = buffers
                .text
                .get(&key)
                .and_then(|t| t.parse::<f64>().ok())
                .or_else(|| current.and_then(ParamValue::as_float))
                .unwrap_or(*min);
            let mut slider = egui::Slider::new(&mut value, *min..=*max);
            if *step > 0.0 {
                slider = slider.step_by(*step);
            }
            let response = ui.add(slider).labelled_by(label_id);
            if response.dragged() {
                buffers.text.insert(key.clone(), value.to_string());
            }
            if response.drag_stopped() || (response.changed() && !response.dragged()) {
                buffers.text.remove(&key);
                if Some(value) != current.and_then(ParamValue::as_float) {
                    out.push(commit(&net, names, &def.name, &ParamValue::Float(value)));
                }
            }
        }
        kind => {
            let shown = current.map_or_else(String::new, |v| def.display(v, buffers.units.get(&def.name)));
            let text = buffers.text.entry(def.name.clone()).or_insert_with(|| shown.clone());
            let multiline = matches!(kind, ParamKind::Text);
            let file = matches!(kind, ParamKind::File { .. });
            // The unit after the field, measured, with the space before it: the row stays inside
            // the value column, so the panel does not widen when an entity is selected.
            let unit_in_text = matches!(def.dimension(), Some(Dimension::Rate | Dimension::FlopRate));
            let unit_room = def.unit.as_ref().filter(|_| !unit_in_text).map_or(0.0, |unit| {
                let font = egui::TextStyle::Body.resolve(ui.style());
                let colour = ui.visuals().weak_text_color();
                ui.painter().layout_no_wrap(unit.clone(), font, colour).size().x + ui.spacing().item_spacing.x
            });
            let sheet = is_sheet(def);
            // The field's frame adds its margin on both sides of the text's width.
            let margin = ui.spacing().button_padding.x.max(4.0) * 2.0;
            let field_width = if sheet {
                width - margin
            } else if file {
                width - 70.0 - margin
            } else {
                width - unit_room - margin
            };
            let edit = if multiline {
                egui::TextEdit::multiline(text).desired_rows(3)
            } else {
                egui::TextEdit::singleline(text)
            };
            let hint = if current.is_none() { "(mixed)" } else { "" };
            let response = ui
                .add(edit.desired_width(field_width).hint_text(hint).id_salt(("param", &def.name)))
                .labelled_by(label_id);
            let response = response.on_hover_text(format!("{}; Enter to apply", kind.expected()));
            // Rates and flop rates carry their unit in the text itself.
            if let Some(unit) = def.unit.as_ref().filter(|_| !unit_in_text) {
                ui.weak(unit);
            }
            if response.lost_focus() && *text != shown {
                match def.parse_typed(text) {
                    Ok((value, unit)) => {
                        buffers.errors.remove(&def.name);
                        buffers.remember_unit(&def.name, unit);
                        // Once taken, the document changes and the fields start again from it.
                        out.push(commit(&net, names, &def.name, &value));
                    }
                    Err(e) => {
                        buffers.errors.insert(def.name.clone(), e.to_string());
                    }
                }
            }
            if !sheet && file && ui.button("Browse…").clicked() {
                ask_for_file(tasks, net, names, def);
            }
        }
    }
}

/// A file picker for a file parameter of the selected instances.
fn ask_for_file(tasks: &Tasks, net: NetworkId, names: &[String], def: &ParamDef) {
    let extensions = match &def.kind {
        ParamKind::File { extensions } => extensions.clone(),
        _ => Vec::new(),
    };
    tasks.ask_file(FileRequest::project(
        FilePurpose::Param { net, instances: names.to_vec(), param: def.name.clone() },
        extensions,
    ));
}

/// The data-sheet network parameter: a file, or a built-in sheet by name.
const SHEET_PARAM: &str = "sheet";

/// Whether `def` is the data-sheet file parameter of a network model.
fn is_sheet(def: &ParamDef) -> bool {
    def.name == SHEET_PARAM && matches!(def.kind, ParamKind::File { .. })
}

/// Under a `sheet` field: a file picker, a menu of the built-in sheets and a button opening the
/// viewer.
fn sheet_buttons(ui: &mut Ui, edit: &mut ParamEdit<'_, '_>, def: &ParamDef, current: Option<&ParamValue>) {
    let (tasks, names) = (edit.row.tasks, edit.row.names);
    let net = edit.editor.current_net();
    let (buffers, out) = (&mut *edit.buffers, &mut *edit.out);
    if ui.button("Browse…").on_hover_text("A data-sheet file (.ron)").clicked() {
        ask_for_file(tasks, net.clone(), names, def);
    }
    ui.menu_button("Built-in", |ui| {
        for name in hase_entities::netmodel::datasheet::builtin_names() {
            if ui.button(name).clicked() {
                buffers.text.remove(SHEET_PARAM);
                out.push(commit(&net, names, SHEET_PARAM, &ParamValue::Text(name.into())));
                ui.close();
            }
        }
    })
    .response
    .on_hover_text("Built-in data sheets");
    let value = current.and_then(ParamValue::as_text);
    let view = ui.add_enabled(value.is_some(), egui::Button::new("View…"));
    if view.on_hover_text("Plot the sheet's equations and calculate times").clicked() {
        buffers.view_sheet = value.map(str::to_string);
    }
}

/// One live-value row in a grid: its name (the description on hover), whether it is one value or an
/// array, and the display choice that makes the animator show it during a replay; returns the
/// display change asked for.
pub fn live_row(ui: &mut Ui, editor: &Editor, names: &[String], value: &LiveValue) -> Option<EditorCommand> {
    let net = editor.current_net();
    ui.label(value.name).on_hover_text(value.description);
    ui.weak(if value.array { "array" } else { "value" });
    let asked = display_choice(ui, editor, &net, names, value.name);
    ui.end_row();
    asked
}

/// Whether (and how) `param` is shown beside the named instances on the canvas; returns the
/// change asked for.
fn display_choice(
    ui: &mut Ui,
    editor: &Editor,
    net: &NetworkId,
    names: &[String],
    param: &str,
) -> Option<EditorCommand> {
    let layout = editor.doc.layout(net);
    let current: Vec<ParamDisplay> = names
        .iter()
        .map(|n| layout.displayed.get(n).and_then(|m| m.get(param)).copied().unwrap_or_default())
        .collect();
    let shared = current.first().copied().filter(|c| current.iter().all(|x| x == c));
    let word = |d: ParamDisplay| match d {
        ParamDisplay::Hidden => "off",
        ParamDisplay::Value => "value",
        ParamDisplay::NameValue => "n = v",
    };
    let mut chosen = None;
    egui::ComboBox::from_id_salt(("display", param))
        .selected_text(RichText::new(shared.map_or("(mixed)", word)).small())
        .width(52.0)
        .show_ui(ui, |ui| {
            for d in [ParamDisplay::Hidden, ParamDisplay::Value, ParamDisplay::NameValue] {
                if ui.selectable_label(shared == Some(d), word(d)).clicked() {
                    chosen = Some(d);
                }
            }
        })
        .response
        .on_hover_text("Show this parameter on the canvas: off, its value, or name = value");
    chosen.filter(|d| Some(*d) != shared).map(|display| {
        let commands = names
            .iter()
            .map(|n| EditCommand::SetDisplay {
                net: net.clone(),
                instance: n.clone(),
                param: param.to_string(),
                display,
            })
            .collect();
        EditorCommand::Edit(EditCommand::Batch { label: format!("display {param}"), commands })
    })
}

/// The parameters every one of `types` has with the same kind (what a multi-selection can edit).
pub fn shared_params<'a>(types: &[&'a EntityType]) -> Vec<&'a ParamDef> {
    let Some((first, rest)) = types.split_first() else {
        return Vec::new();
    };
    first
        .params
        .iter()
        .filter(|p| rest.iter().all(|t| t.param(&p.name).is_some_and(|q| q.kind == p.kind)))
        .collect()
}
