//! Insert ▸ Network from template…: topology and dimensions (with their help text), link latency
//! and bandwidth, the switch and processor components (only compatible types are offered, the
//! project's own included), the fat tree's up-link choice, flat or compound insertion, names; a
//! live preview of the switch, processor and link counts, and every problem shown inline before
//! anything is inserted. Inserting emits one `EditCommand::InsertTemplate` (one undo step).

use egui::{RichText, Ui};
use hase_engine::model::{DownChoice, Project, UpChoice};
use hase_engine::units::{UnitError, format_rate, format_time, parse_rate, parse_time};
use hase_templates::{Compatible, LinkParams, TemplateError, TemplateSpec, Topology, compatible_components};

use crate::theme::Palette;
use hase_editor::command::template;
use hase_editor::command::{CommandError, EditCommand};
use hase_editor::command::{InsertForm, TemplateInsert};
use hase_editor::document::NetworkId;
use hase_editor::state::Editor;

/// Largest network (switches and processors) inserted from the dialog: inserting takes about a
/// tenth of a second per 2,000 entities on the UI thread (larger networks: `hase new`).
pub const MAX_ENTITIES: u64 = 8_192;
/// Networks up to this many instances are generated for the preview as the fields change.
const PREVIEW_LIMIT: u64 = MAX_ENTITIES;

/// Menu text of each template, by template name.
pub fn template_title(name: &str) -> &'static str {
    hase_templates::family_named(name).map_or("Template", |family| family.title)
}

fn default_dims(name: &str) -> &'static str {
    hase_templates::family_named(name).map_or("8", |family| family.example_dims)
}

/// What the preview was computed for, and what it found.
struct Preview {
    key: (TemplateSpec, Option<String>, u64, u64, NetworkId),
    generated: Option<Result<Project, CommandError>>,
    compatible: Compatible,
}

/// State of the template dialog.
#[allow(clippy::struct_excessive_bools, reason = "independent switches of a form")]
pub struct TemplateDialog {
    /// Shown.
    pub open: bool,
    /// Template name (`fat_tree`).
    pub template: &'static str,
    /// Dimensions as typed (`2,3`).
    pub dims: String,
    /// Fat-tree up-link choice.
    pub up_choice: UpChoice,
    /// PGFT down-link choice among parallel cables.
    pub down_choice: DownChoice,
    /// Processor links are ideal (zero latency, no serialisation).
    pub ideal_hosts: bool,
    /// Switch component.
    pub switch_type: String,
    /// Processor component.
    pub endpoint_type: String,
    /// Switch link latency and bandwidth as typed.
    pub link: (String, String),
    /// Processor link latency and bandwidth as typed.
    pub endpoint_link: (String, String),
    /// Insert as one compound network type.
    pub compound: bool,
    /// Compound type name.
    pub type_name: String,
    /// Compound instance name.
    pub instance_name: String,
    /// Insert the processors too.
    pub processors: bool,
    /// Prefix of generated names.
    pub prefix: String,
    prefix_edited: bool,
    preview: Option<Preview>,
}

impl Default for TemplateDialog {
    fn default() -> Self {
        let link = LinkParams::default();
        let shown = (format_time(link.latency), format_rate(link.bandwidth_bytes_per_s));
        TemplateDialog {
            open: false,
            template: "fat_tree",
            dims: default_dims("fat_tree").into(),
            up_choice: UpChoice::default(),
            down_choice: DownChoice::default(),
            ideal_hosts: false,
            switch_type: "Router".into(),
            endpoint_type: "Processor".into(),
            link: shown.clone(),
            endpoint_link: shown,
            compound: false,
            type_name: String::new(),
            instance_name: String::new(),
            processors: true,
            prefix: String::new(),
            prefix_edited: false,
            preview: None,
        }
    }
}

/// Why a field of the dialog cannot be read.
#[derive(Debug, thiserror::Error)]
enum FieldError {
    /// The dimensions do not describe a network of the template.
    #[error(transparent)]
    Topology(#[from] TemplateError),
    /// The network is larger than the editor inserts at a time.
    #[error(
        "{switches} switches and {processors} processors: the editor inserts at most {MAX_ENTITIES} entities \
         at a time; generate larger networks with `hase new`"
    )]
    TooLarge {
        /// Switches of the network.
        switches: u64,
        /// Processors of the network.
        processors: u64,
    },
    /// The latency is not a time.
    #[error("latency: {0}")]
    Latency(UnitError),
    /// The bandwidth is not a rate.
    #[error("bandwidth: {0}")]
    Bandwidth(UnitError),
}

/// Fields that could not be read, each with its reason.
#[derive(Debug, Default)]
struct FieldErrors {
    dims: Option<FieldError>,
    link: Option<FieldError>,
    endpoint_link: Option<FieldError>,
}

fn link_params(fields: &(String, String)) -> Result<LinkParams, FieldError> {
    let latency = parse_time(&fields.0).map_err(FieldError::Latency)?;
    let bandwidth_bytes_per_s = parse_rate(&fields.1).map_err(FieldError::Bandwidth)?;
    Ok(LinkParams { latency, bandwidth_bytes_per_s })
}

impl TemplateDialog {
    /// Open the dialog on template `name` for the open network of `editor`.
    pub fn open_with(&mut self, name: &'static str, editor: &Editor) {
        self.open = true;
        self.select_template(name, editor);
        let net = editor.current_net();
        let has_processors = editor.doc.network(&net).is_some_and(|n| {
            n.instances
                .values()
                .any(|i| editor.doc.entity_type(&i.type_name).is_some_and(|t| t.category == "Processors"))
        });
        self.processors = !has_processors;
        let network_empty = editor.doc.network(&net).is_none_or(|n| n.instances.is_empty());
        self.compound = !network_empty && self.flat_routing_conflict(editor).is_some();
        self.prefix.clear();
        self.prefix_edited = false;
    }

    fn select_template(&mut self, name: &'static str, editor: &Editor) {
        self.template = name;
        self.dims = default_dims(name).into();
        let Ok(topology) = self.topology() else { return };
        // The template's own components replace the built-in defaults of another template; a
        // component the user chose stays while it fits.
        let defaults = TemplateSpec::new(topology.clone());
        let compatible = compatible_components(&topology, &template::registry(&editor.doc));
        let builtin = |t: &str| ["Router", "Switch2x2", "Processor", "ProcessorTxRx"].contains(&t);
        if builtin(&self.switch_type) || !compatible.switches.contains(&self.switch_type) {
            self.switch_type = defaults.switch_type;
        }
        if builtin(&self.endpoint_type) || !compatible.endpoints.contains(&self.endpoint_type) {
            self.endpoint_type = defaults.endpoint_type;
        }
        self.rename_compound(editor);
    }

    fn rename_compound(&mut self, editor: &Editor) {
        let stem = self.topology().map_or_else(|_| "Network".to_string(), |t| t.type_name());
        self.type_name = fresh(&stem, |n| editor.doc.entity_type(n).is_some(), "_");
        let net = editor.current_net();
        let taken = |n: &str| editor.doc.network(&net).is_some_and(|net| net.instances.contains_key(n));
        self.instance_name = fresh(hase_templates::FABRIC, taken, "");
    }

    fn topology(&self) -> Result<Topology, FieldError> {
        let dims = Topology::parse_dims(&self.dims)?;
        let topology = Topology::parse(self.template, &dims)?;
        let counts = topology.counts();
        if counts.switches + counts.endpoints > MAX_ENTITIES {
            return Err(FieldError::TooLarge { switches: counts.switches, processors: counts.endpoints });
        }
        Ok(topology)
    }

    fn flat_routing_conflict(&self, editor: &Editor) -> Option<String> {
        let topology = self.topology().ok()?;
        template::flat_conflict(&editor.doc, &editor.current_net(), &topology.routing(self.up_choice))
            .map(|conflict| conflict.to_string())
    }

    /// The request the fields describe, or the reasons they cannot be read.
    fn request(&self) -> Result<TemplateInsert, Box<FieldErrors>> {
        let topology = self.topology();
        let link = link_params(&self.link);
        let endpoint_link =
            if self.ideal_hosts { Ok(LinkParams::IDEAL) } else { link_params(&self.endpoint_link) };
        match (topology, link, endpoint_link) {
            (Ok(topology), Ok(link), Ok(endpoint_link)) => {
                let mut spec = TemplateSpec::new(topology);
                spec.switch_type.clone_from(&self.switch_type);
                spec.endpoint_type.clone_from(&self.endpoint_type);
                spec.link = link;
                spec.endpoint_link = endpoint_link;
                spec.up_choice = self.up_choice;
                spec.down_choice = self.down_choice;
                let form = if self.compound {
                    InsertForm::Compound {
                        type_name: self.type_name.trim().into(),
                        instance: self.instance_name.trim().into(),
                    }
                } else {
                    InsertForm::Flat
                };
                Ok(TemplateInsert {
                    spec,
                    form,
                    prefix: self.prefix.trim().into(),
                    processors: self.processors,
                })
            }
            (t, l, e) => Err(Box::new(FieldErrors { dims: t.err(), link: l.err(), endpoint_link: e.err() })),
        }
    }

    /// Recompute the preview when the request's generated part or the document changed.
    fn refresh_preview(&mut self, editor: &Editor, request: &TemplateInsert) {
        let type_name = match &request.form {
            InsertForm::Compound { type_name, .. } => Some(type_name.clone()),
            InsertForm::Flat => None,
        };
        let key = (
            request.spec.clone(),
            type_name,
            editor.generation,
            editor.history.revision(),
            editor.current_net(),
        );
        if self.preview.as_ref().is_some_and(|p| p.key == key) {
            return;
        }
        let counts = request.spec.topology.counts();
        let generated = (counts.switches + counts.endpoints <= PREVIEW_LIMIT)
            .then(|| template::generate(&editor.doc, request));
        let compatible = compatible_components(&request.spec.topology, &template::registry(&editor.doc));
        self.preview = Some(Preview { key, generated, compatible });
    }

    /// Show the dialog; returns the insert command when the user asks for it.
    pub fn show(&mut self, ctx: &egui::Context, editor: &Editor, palette: &Palette) -> Option<EditCommand> {
        if !self.open {
            return None;
        }
        let mut open = true;
        let mut command = None;
        egui::Window::new("Insert network from template")
            .open(&mut open)
            .pivot(egui::Align2::CENTER_TOP)
            .default_pos(ctx.content_rect().center_top() + egui::vec2(0.0, 60.0))
            .collapsible(false)
            .resizable(false)
            .default_width(480.0)
            .show(ctx, |ui| command = self.contents(ui, editor, palette));
        // The window's shortcuts wait while it is open (`App::dialog_open`): it closes on Escape itself.
        let escape = ctx.input(|i| i.key_pressed(egui::Key::Escape));
        self.open &= open && command.is_none() && !escape;
        command
    }

    fn contents(&mut self, ui: &mut Ui, editor: &Editor, palette: &Palette) -> Option<EditCommand> {
        let request = self.request();
        if let Ok(request) = &request {
            self.refresh_preview(editor, request);
        }
        let errors = request.as_ref().err();
        let error_line = |ui: &mut Ui, error: Option<&FieldError>| {
            if let Some(e) = error {
                ui.label(RichText::new(e.to_string()).color(palette.error).small());
            }
        };
        let width = 250.0;
        egui::Grid::new("template-fields").num_columns(2).spacing([12.0, 8.0]).show(ui, |ui| {
            let label = ui.label("Topology").id;
            let mut chosen = None;
            egui::ComboBox::from_id_salt("template-topology")
                .selected_text(template_title(self.template))
                .width(width)
                .show_ui(ui, |ui| {
                    for name in Topology::all_names() {
                        if ui.selectable_label(name == self.template, template_title(name)).clicked() {
                            chosen = Some(name);
                        }
                    }
                })
                .response
                .labelled_by(label);
            if let Some(name) = chosen.filter(|n| *n != self.template) {
                self.select_template(name, editor);
            }
            ui.end_row();

            let label = top_label(ui, "Dimensions");
            ui.vertical(|ui| {
                let response = ui
                    .add(
                        egui::TextEdit::singleline(&mut self.dims)
                            .desired_width(width)
                            .id_salt("template-dims"),
                    )
                    .labelled_by(label);
                if response.changed() {
                    self.rename_compound(editor);
                }
                ui.weak(Topology::dims_help(self.template).unwrap_or(""));
                error_line(ui, errors.and_then(|e| e.dims.as_ref()));
            });
            ui.end_row();

            if matches!(self.template, "fat_tree" | "pgft") {
                let label = ui.label("Up links").id;
                egui::ComboBox::from_id_salt("template-up")
                    .selected_text(up_word(self.up_choice))
                    .width(width)
                    .show_ui(ui, |ui| {
                        for choice in [UpChoice::ByDestination, UpChoice::BySource, UpChoice::First] {
                            ui.selectable_value(&mut self.up_choice, choice, up_word(choice))
                                .on_hover_text(up_help(choice));
                        }
                    })
                    .response
                    .labelled_by(label);
                ui.end_row();
            }
            if self.template == "pgft" {
                let label = ui.label("Down cables").id;
                egui::ComboBox::from_id_salt("template-down")
                    .selected_text(down_word(self.down_choice))
                    .width(width)
                    .show_ui(ui, |ui| {
                        for choice in [DownChoice::ByDestination, DownChoice::BySource] {
                            ui.selectable_value(&mut self.down_choice, choice, down_word(choice))
                                .on_hover_text(down_help(choice));
                        }
                    })
                    .response
                    .labelled_by(label);
                ui.end_row();
            }
            let compatible = self.preview.as_ref().map(|p| p.compatible.clone()).unwrap_or_default();
            let label = ui.label("Switch").id;
            component_combo(ui, label, "Switch", &mut self.switch_type, &compatible.switches, width);
            ui.end_row();
            let label = ui.label("Processor").id;
            component_combo(ui, label, "Processor", &mut self.endpoint_type, &compatible.endpoints, width);
            ui.end_row();

            for (label, fields, error, salt, ideal) in [
                ("Switch links", &mut self.link, errors.and_then(|e| e.link.as_ref()), "template-link", None),
                (
                    "Processor links",
                    &mut self.endpoint_link,
                    errors.and_then(|e| e.endpoint_link.as_ref()),
                    "template-plink",
                    Some(&mut self.ideal_hosts),
                ),
            ] {
                top_label(ui, label);
                ui.vertical(|ui| {
                    let fields_enabled = !ideal.as_deref().copied().unwrap_or(false);
                    ui.horizontal(|ui| {
                        if !fields_enabled {
                            ui.disable();
                        }
                        ui.weak("latency");
                        ui.add(
                            egui::TextEdit::singleline(&mut fields.0)
                                .desired_width(70.0)
                                .id_salt((salt, "latency")),
                        )
                        .accessible_name(format!("{label} latency"));
                        ui.weak("bandwidth");
                        ui.add(
                            egui::TextEdit::singleline(&mut fields.1)
                                .desired_width(90.0)
                                .id_salt((salt, "bandwidth")),
                        )
                        .accessible_name(format!("{label} bandwidth"));
                    });
                    if let Some(ideal) = ideal {
                        ui.checkbox(ideal, "ideal: zero latency, no serialisation").on_hover_text(
                            "The processor acts as its switch's own port, as SimGrid's torus hosts do",
                        );
                    }
                    error_line(ui, error);
                });
                ui.end_row();
            }

            top_label(ui, "Insert as");
            ui.vertical(|ui| {
                ui.radio_value(&mut self.compound, false, "Flat: switches and processors in this network");
                ui.radio_value(
                    &mut self.compound,
                    true,
                    "One compound network type (detailed or behavioural)",
                );
                if self.compound {
                    ui.horizontal(|ui| {
                        ui.weak("type");
                        ui.add(
                            egui::TextEdit::singleline(&mut self.type_name)
                                .desired_width(130.0)
                                .id_salt("template-type"),
                        )
                        .accessible_name("Type name");
                        ui.weak("instance");
                        ui.add(
                            egui::TextEdit::singleline(&mut self.instance_name)
                                .desired_width(80.0)
                                .id_salt("template-instance"),
                        )
                        .accessible_name("Instance name");
                    });
                }
            });
            ui.end_row();

            ui.label("Processors");
            let ranks = self
                .topology()
                .map_or(String::new(), |t| format!(" (ranks 0–{})", t.counts().endpoints.saturating_sub(1)));
            ui.checkbox(&mut self.processors, format!("Insert the processors{ranks}"));
            ui.end_row();

            let label = ui.label("Name prefix").id;
            let response = ui
                .add(
                    egui::TextEdit::singleline(&mut self.prefix)
                        .desired_width(120.0)
                        .hint_text("none")
                        .id_salt("template-prefix"),
                )
                .labelled_by(label);
            if response.changed() {
                self.prefix_edited = true;
            }
            ui.end_row();
        });
        ui.add_space(6.0);
        ui.separator();
        let ready = self.preview_section(ui, editor, palette, request.ok());
        ui.add_space(6.0);
        let mut command = None;
        ui.horizontal(|ui| {
            let insert =
                ui.add_enabled(ready.is_some(), egui::Button::new(RichText::new("Insert network").strong()));
            if insert.clicked()
                && let Some(request) = ready
            {
                command = Some(EditCommand::InsertTemplate {
                    net: editor.current_net(),
                    insert: Box::new(request),
                });
            }
            if ui.button("Cancel").clicked() {
                self.open = false;
            }
        });
        command
    }

    /// The preview: counts, then the first problem; returns the request if it can be inserted.
    fn preview_section(
        &mut self,
        ui: &mut Ui,
        editor: &Editor,
        palette: &Palette,
        request: Option<TemplateInsert>,
    ) -> Option<TemplateInsert> {
        ui.label(RichText::new("Preview").strong());
        let Some(mut request) = request else {
            ui.weak("Fix the fields marked above to see the network.");
            return None;
        };
        let counts = request.spec.topology.counts();
        let (endpoints, endpoint_links) =
            if request.processors { (counts.endpoints, counts.endpoint_links) } else { (0, 0) };
        let compound = if self.compound { "1 compound network holding " } else { "" };
        ui.label(format!(
            "{}: {compound}{} switches, {endpoints} processors, {} links ({} between switches, {endpoint_links} to processors)",
            request.spec.topology.describe(),
            counts.switches,
            counts.switch_links + endpoint_links,
            counts.switch_links,
        ));
        let net = editor.current_net();
        let problem = |ui: &mut Ui, text: &str| {
            ui.label(RichText::new(text).color(palette.error));
        };
        if !self.compound
            && let Some(why) =
                template::flat_conflict(&editor.doc, &net, &request.spec.topology.routing(self.up_choice))
        {
            ui.label(RichText::new(why.to_string()).color(palette.warning));
            if ui.button("Insert as a compound network instead").clicked() {
                self.compound = true;
            }
            return None;
        }
        let generated = self.preview.as_ref().and_then(|p| p.generated.as_ref());
        match generated {
            Some(Err(e)) => {
                problem(ui, &e.to_string());
                return None;
            }
            Some(Ok(project)) => {
                if !self.prefix_edited {
                    self.prefix = template::free_prefix(&editor.doc, &net, project, &request);
                    request.prefix.clone_from(&self.prefix);
                }
                let clashes = template::collisions(&editor.doc, &net, project, &request);
                if let Some(first) = clashes.first() {
                    problem(
                        ui,
                        &format!(
                            "{} names are already used here (first: {first}); choose a name prefix",
                            clashes.len()
                        ),
                    );
                    return None;
                }
                if !request.prefix.is_empty() {
                    ui.weak(format!(
                        "Names start with `{}` so that they do not clash with existing ones.",
                        request.prefix
                    ));
                }
            }
            None => {
                ui.weak("A large network: it is checked when you insert it.");
            }
        }
        if let InsertForm::Compound { type_name, instance } = &request.form {
            if let Err(e) = hase_editor::document::check_instance_name(instance) {
                problem(ui, &format!("instance {e}"));
                return None;
            }
            if editor.doc.entity_type(type_name).is_some() {
                problem(ui, &format!("type `{type_name}` already exists; choose another type name"));
                return None;
            }
        }
        Some(request)
    }
}

/// `stem` if `taken` says it is free, else `stem{sep}2`, `stem{sep}3`, ….
fn fresh(stem: &str, taken: impl Fn(&str) -> bool, sep: &str) -> String {
    if !taken(stem) {
        return stem.to_string();
    }
    (2..=10_000).map(|i| format!("{stem}{sep}{i}")).find(|n| !taken(n)).unwrap_or_else(|| stem.to_string())
}

fn down_word(choice: DownChoice) -> &'static str {
    match choice {
        DownChoice::ByDestination => "by destination",
        DownChoice::BySource => "by source (as SimGrid)",
    }
}

fn down_help(choice: DownChoice) -> &'static str {
    match choice {
        DownChoice::ByDestination => "Cable dest mod p: destinations below one child spread over the cables.",
        DownChoice::BySource => "Cable source mod p, as SimGrid's FAT_TREE clusters choose it.",
    }
}

fn up_word(choice: UpChoice) -> &'static str {
    match choice {
        UpChoice::ByDestination => "by destination",
        UpChoice::BySource => "by source",
        UpChoice::First => "always the first",
    }
}

fn up_help(choice: UpChoice) -> &'static str {
    match choice {
        UpChoice::ByDestination => {
            "Spread traffic to different destinations over different up links (the usual k-ary n-tree rule)."
        }
        UpChoice::BySource => "Each source always climbs the same way.",
        UpChoice::First => {
            "Always the first up link: the fat tree behaves like a plain tree (for comparisons)."
        }
    }
}

fn component_combo(
    ui: &mut Ui,
    label: egui::Id,
    name: &str,
    chosen: &mut String,
    compatible: &[String],
    width: f32,
) {
    let fits = compatible.contains(chosen);
    let shown = if fits { chosen.clone() } else { format!("{chosen} (does not fit)") };
    let combo = egui::ComboBox::from_id_salt(("template-component", name)).selected_text(shown).width(width);
    combo
        .show_ui(ui, |ui| {
            for name in compatible {
                ui.selectable_value(chosen, name.clone(), name);
            }
            if compatible.is_empty() {
                ui.weak("No type fits these positions.");
            }
        })
        .response
        .labelled_by(label);
}

/// A grid row label aligned with the first line of a taller cell beside it; returns its id.
fn top_label(ui: &mut Ui, text: &str) -> egui::Id {
    ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
        ui.add_space(2.0);
        ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend)).id
    })
    .inner
}
