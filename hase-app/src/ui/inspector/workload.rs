//! The workload and run settings, edited in the inspector when nothing is selected: idle, a
//! built-in MPI program (its parameters edited by kind, a refused value keeps the field and
//! shows why), one instruction stream per rank (inline text checked as it is applied, or a file
//! chosen with a dialog), or a SimGrid time-independent trace; then the seed, trace level and
//! run-until time. Every change is one `SetWorkload` or `SetRunSettings` command, returned to the
//! inspector; a change a field waits on (a program parameter, an inline stream) is checked the
//! next frame.

use std::collections::BTreeMap;

use egui::{RichText, Ui};
use hase_engine::model::{
    AbstractionLevel, Network, ParamDef, ParamKind, ParamValue, RunSettings, StreamSource, Workload,
};
use hase_engine::units::parse_time;
use hase_entities::workload::programs::{self, ProgramInfo};
use hase_entities::workload::stream::parse_stream;

use super::asked::{Asked, Outcome};
use crate::theme::Palette;
use hase_editor::command::EditCommand;
use hase_editor::document::Document;
use hase_editor::state::{Editor, EditorCommand};
use hase_editor::tasks::{FilePurpose, FileRequest, Tasks};

/// What each trace level keeps (HASE's levels: L records everything at L and above).
const TRACE_LEVEL_TEXT: [&str; 5] = [
    "1 · everything: comments and source lines",
    "2 · message sends and above",
    "3 · memory and array updates and above",
    "4 · state changes and above",
    "5 · summary only",
];

/// Field buffers of the workload editor, reset when the document changes.
#[derive(Default)]
pub struct WorkloadEditor {
    key: Option<(u64, u64)>,
    ranks: u32,
    text: BTreeMap<String, String>,
    errors: BTreeMap<String, String>,
    /// The unit each program parameter was last typed in, shown back in it (kept across edits).
    units: BTreeMap<String, hase_engine::units::Unit>,
    /// The rank placement editor.
    placement: super::placement::PlacementEditor,
    /// The rank whose inline stream is open in the text editor, with the text being edited.
    stream: Option<(u32, String)>,
    stream_error: Option<String>,
    /// Give the stream text the keyboard on the next frame (it was just opened).
    focus_stream: bool,
    /// A workload asked for in the last frame: the program parameter it sets (its refusal is
    /// shown at the parameter), or `None` for an inline stream (the stream editor closes once it
    /// is taken).
    asked: Option<Asked<Option<String>>>,
}

/// Number of processors (ranks) of the project: processor instances, counted inside compounds
/// shown at their detailed level.
pub fn processor_count(doc: &Document) -> u32 {
    fn count(doc: &Document, network: &Network, depth: u32) -> u32 {
        if depth > 32 {
            return 0;
        }
        network
            .instances
            .values()
            .map(|inst| match doc.entity_type(&inst.type_name) {
                Some(t)
                    if t.compound.is_some()
                        && (inst.level == AbstractionLevel::Detailed || t.behaviour.is_none()) =>
                {
                    t.compound.as_ref().map_or(0, |c| count(doc, &c.network, depth + 1))
                }
                Some(t) if t.behaviour.as_deref() == Some(hase_entities::catalogue::PROCESSOR) => 1,
                _ => 0,
            })
            .sum()
    }
    count(doc, &doc.project.network, 0)
}

fn kind_word(workload: &Workload) -> &'static str {
    match workload {
        Workload::Idle => "Idle",
        Workload::Program { .. } => "Program",
        Workload::Streams { .. } => "Streams",
        Workload::TimeIndependentTrace { .. } => "Trace",
    }
}

impl WorkloadEditor {
    /// Show the workload and run-settings sections; the changes asked for go into `out`.
    pub fn show(
        &mut self,
        ui: &mut Ui,
        editor: &Editor,
        (tasks, palette): (&Tasks, &Palette),
        out: &mut Vec<EditorCommand>,
    ) {
        match self.asked.take().map(|asked| asked.outcome(editor)) {
            Some(Outcome::Refused(Some(param), reason)) => {
                self.errors.insert(param, reason);
            }
            Some(Outcome::Taken(None)) => {
                self.stream = None;
                self.stream_error = None;
            }
            _ => {}
        }
        let key = (editor.generation, editor.history.revision());
        if self.key != Some(key) {
            self.key = Some(key);
            // The workload's ranks: every processor, or as many as the placement names.
            self.ranks = match &editor.doc.project.placement {
                hase_engine::model::Placement::All => processor_count(&editor.doc),
                hase_engine::model::Placement::First(n) => *n,
                hase_engine::model::Placement::Ranks(r) => r.len() as u32,
                hase_engine::model::Placement::Hosts(h) => h.len() as u32,
            };
            self.text.clear();
            self.errors.clear();
        }
        ui.add_space(10.0);
        ui.separator();
        ui.label(RichText::new("Workload").strong());
        let workload = editor.doc.project.workload.clone();
        let mut chosen = None;
        ui.horizontal(|ui| {
            for (word, hint) in [
                ("Idle", "Processors have nothing to do"),
                ("Program", "A built-in MPI program run by every rank"),
                ("Streams", "One instruction stream per rank (COMPUTE/SEND/RECV…)"),
                ("Trace", "A SimGrid time-independent trace recorded from a real program"),
            ] {
                if ui.selectable_label(kind_word(&workload) == word, word).on_hover_text(hint).clicked() {
                    chosen = Some(word);
                }
            }
        });
        if let Some(word) = chosen.filter(|w| *w != kind_word(&workload)) {
            let next = match word {
                "Program" => Workload::Program { name: "collective_loop".into(), params: BTreeMap::new() },
                "Streams" => Workload::Streams { streams: BTreeMap::new() },
                "Trace" => Workload::TimeIndependentTrace { path: String::new() },
                _ => Workload::Idle,
            };
            out.push(EditorCommand::Edit(EditCommand::SetWorkload { workload: next }));
            return;
        }
        match &workload {
            Workload::Idle => {
                ui.weak("The processors have nothing to do: a run ends at once.");
            }
            Workload::Program { name, params } => {
                out.extend(self.program(ui, editor, (name, params), palette));
            }
            Workload::Streams { streams } => out.extend(self.streams(ui, editor, tasks, streams, palette)),
            Workload::TimeIndependentTrace { path } => out.extend(self.trace(ui, tasks, path)),
        }
        if !matches!(workload, Workload::Idle) {
            ui.add_space(6.0);
            out.extend(self.placement.show(ui, editor, palette));
        }
        out.extend(self.run_settings(ui, editor, palette));
    }

    fn program(
        &mut self,
        ui: &mut Ui,
        editor: &Editor,
        (name, params): (&str, &BTreeMap<String, ParamValue>),
        palette: &Palette,
    ) -> Option<EditorCommand> {
        let catalogue = programs::catalogue();
        let mut chosen = None;
        egui::ComboBox::from_id_salt("workload-program")
            .selected_text(name)
            .width(220.0)
            .show_ui(ui, |ui| {
                for p in &catalogue {
                    if ui.selectable_label(p.name == name, p.name).on_hover_text(p.description).clicked() {
                        chosen = Some(p.name);
                    }
                }
            })
            .response
            .accessible_name("Built-in program");
        if let Some(next) = chosen.filter(|n| *n != name) {
            return Some(EditorCommand::Edit(EditCommand::SetWorkload {
                workload: Workload::Program { name: next.into(), params: BTreeMap::new() },
            }));
        }
        let Some(info) = catalogue.iter().find(|p| p.name == name) else {
            ui.label(
                RichText::new(format!("`{name}` is not a built-in program; choose one above."))
                    .color(palette.error),
            );
            return None;
        };
        ui.weak(info.description);
        ui.add_space(4.0);
        let mut set = None;
        egui::Grid::new("workload-params").num_columns(3).spacing([8.0, 6.0]).striped(true).show(ui, |ui| {
            for def in &info.params {
                let label = ui.label(&def.name);
                let label_id = label.id;
                if !def.description.is_empty() {
                    label.on_hover_text(&def.description);
                }
                let current = params.get(&def.name).or(def.default.as_ref());
                ui.vertical(|ui| {
                    if let Some(value) = self.value_field(ui, def, current, label_id) {
                        set = Some((def.name.clone(), Some(value)));
                    }
                    if let Some(e) = self.errors.get(&def.name) {
                        ui.label(RichText::new(e).color(palette.error).small());
                    }
                });
                ui.horizontal(|ui| {
                    if let Some(unit) = &def.unit {
                        ui.weak(unit);
                    }
                    let overridden = params.contains_key(&def.name);
                    let reset = ui.add_enabled(overridden, egui::Button::new("reset").small());
                    let default =
                        def.default.as_ref().map_or_else(|| "none".into(), |v| def.display(v, None));
                    if reset.on_hover_text(format!("Back to the default, {default}")).clicked() {
                        set = Some((def.name.clone(), None));
                    }
                });
                ui.end_row();
            }
        });
        let asked = set.map(|(param, value)| {
            let mut params = params.clone();
            match value {
                Some(v) => params.insert(param.clone(), v),
                None => params.remove(&param),
            };
            self.asked = Some(Asked::new(editor, Some(param)));
            EditorCommand::Edit(EditCommand::SetWorkload {
                workload: Workload::Program { name: name.into(), params },
            })
        });
        suitability(ui, info, params, self.ranks, palette);
        asked
    }

    /// An editor for one program parameter; returns a new value once one is given and accepted.
    fn value_field(
        &mut self,
        ui: &mut Ui,
        def: &ParamDef,
        current: Option<&ParamValue>,
        label: egui::Id,
    ) -> Option<ParamValue> {
        match &def.kind {
            ParamKind::Bool => {
                let mut value = current.and_then(ParamValue::as_bool).unwrap_or(false);
                ui.checkbox(&mut value, "").labelled_by(label).changed().then_some(ParamValue::Bool(value))
            }
            ParamKind::Enum { choices } => {
                let shown = current.and_then(ParamValue::as_text).unwrap_or("").to_string();
                let mut chosen = None;
                egui::ComboBox::from_id_salt(("workload-param", &def.name))
                    .selected_text(&shown)
                    .width(170.0)
                    .show_ui(ui, |ui| {
                        for c in choices {
                            if ui.selectable_label(*c == shown, c).clicked() {
                                chosen = Some(c.clone());
                            }
                        }
                    })
                    .response
                    .labelled_by(label);
                chosen.filter(|c| *c != shown).map(ParamValue::Text)
            }
            kind => {
                let shown = current.map_or_else(String::new, |v| def.display(v, self.units.get(&def.name)));
                let text = self.text.entry(def.name.clone()).or_insert_with(|| shown.clone());
                // A grid column keeps last frame's width: claim the field's width so a table of
                // text fields alone does not stay as narrow as its first frame.
                ui.set_min_width(170.0);
                let response = ui
                    .add(
                        egui::TextEdit::singleline(text)
                            .desired_width(170.0)
                            .id_salt(("workload-param", &def.name)),
                    )
                    .labelled_by(label);
                let response = response.on_hover_text(format!("{}; Enter to apply", kind.expected()));
                if !(response.lost_focus() && *text != shown) {
                    return None;
                }
                match def.parse_typed(text) {
                    Ok((value, unit)) => {
                        self.errors.remove(&def.name);
                        match unit {
                            Some(unit) => self.units.insert(def.name.clone(), unit),
                            None => self.units.remove(&def.name),
                        };
                        Some(value)
                    }
                    Err(e) => {
                        self.errors.insert(def.name.clone(), format!("{}: {e}", def.name));
                        None
                    }
                }
            }
        }
    }

    fn streams(
        &mut self,
        ui: &mut Ui,
        editor: &Editor,
        tasks: &Tasks,
        streams: &BTreeMap<u32, StreamSource>,
        palette: &Palette,
    ) -> Option<EditorCommand> {
        let ranks = self.ranks;
        ui.weak(format!(
            "{ranks} processors (ranks 0–{}). Ranks without a stream stay idle.",
            ranks.saturating_sub(1)
        ));
        if let Some((&extra, _)) = streams.range(ranks..).next() {
            ui.label(
                RichText::new(format!(
                    "A stream is given for rank {extra}, but the workload runs on only {ranks} ranks."
                ))
                .color(palette.warning),
            );
        }
        let mut change: Option<(u32, Option<StreamSource>)> = None;
        let row_height = ui.spacing().interact_size.y + 4.0;
        egui::ScrollArea::vertical().id_salt("workload-streams").max_height(220.0).show_rows(
            ui,
            row_height,
            ranks as usize,
            |ui, rows| {
                for rank in rows {
                    let rank = rank as u32;
                    ui.horizontal(|ui| {
                        ui.add_sized([56.0, row_height - 4.0], egui::Label::new(format!("rank {rank}")));
                        let summary = match streams.get(&rank) {
                            None => "idle".to_string(),
                            Some(StreamSource::Inline(t)) => format!("inline, {} lines", t.lines().count()),
                            Some(StreamSource::File(p)) => format!("file {p}"),
                        };
                        ui.add_sized(
                            [150.0, row_height - 4.0],
                            egui::Label::new(RichText::new(summary).weak()).truncate(),
                        );
                        let edit = ui
                            .small_button("Edit")
                            .accessible_name(format!("Edit the stream of rank {rank}"));
                        if edit.on_hover_text("Write this rank's stream here").clicked() {
                            let text = match streams.get(&rank) {
                                Some(StreamSource::Inline(t)) => t.clone(),
                                _ => String::new(),
                            };
                            self.stream = Some((rank, text));
                            self.stream_error = None;
                            self.focus_stream = true;
                        }
                        if ui.small_button("File…").on_hover_text("Bind a stream file to this rank").clicked()
                        {
                            tasks.ask_file(FileRequest::project(
                                FilePurpose::StreamFile { rank },
                                vec!["txt".into(), "stream".into()],
                            ));
                        }
                        if ui
                            .add_enabled(streams.contains_key(&rank), egui::Button::new("Clear").small())
                            .clicked()
                        {
                            change = Some((rank, None));
                        }
                    });
                }
            },
        );
        if let Some((rank, text)) = &mut self.stream {
            ui.add_space(4.0);
            let label = ui.label(RichText::new(format!("Stream of rank {rank}")).strong()).id;
            let field = ui
                .add(
                    egui::TextEdit::multiline(text)
                        .code_editor()
                        .desired_rows(8)
                        .desired_width(f32::INFINITY)
                        .hint_text("COMPUTE 10us\nSEND 1 4K\nRECV 1")
                        .id_salt("workload-stream-text"),
                )
                .labelled_by(label);
            if std::mem::take(&mut self.focus_stream) {
                field.request_focus();
            }
            if let Some(e) = &self.stream_error {
                ui.label(RichText::new(e).color(palette.error).small());
            }
            let mut close = false;
            ui.horizontal(|ui| {
                if ui.button("Apply stream").clicked() {
                    match parse_stream(text, &format!("rank {rank} stream")) {
                        Ok(_) => change = Some((*rank, Some(StreamSource::Inline(text.clone())))),
                        Err(e) => self.stream_error = Some(e.to_string()),
                    }
                }
                close = ui.button("Close").clicked();
            });
            if close {
                self.stream = None;
            }
        }
        change.map(|(rank, source)| {
            let mut streams = streams.clone();
            match source {
                Some(s) => streams.insert(rank, s),
                None => streams.remove(&rank),
            };
            self.asked = Some(Asked::new(editor, None));
            EditorCommand::Edit(EditCommand::SetWorkload { workload: Workload::Streams { streams } })
        })
    }

    fn trace(&mut self, ui: &mut Ui, tasks: &Tasks, path: &str) -> Option<EditorCommand> {
        ui.weak("A SimGrid time-independent trace: one file with every rank, or a file listing one file per rank. The path is relative to the project file.");
        let text = self.text.entry("trace-path".into()).or_insert_with(|| path.to_string());
        let mut commit = None;
        ui.horizontal(|ui| {
            let response = ui
                .add(
                    egui::TextEdit::singleline(text)
                        .desired_width(210.0)
                        .hint_text("no file chosen")
                        .id_salt("workload-trace"),
                )
                .accessible_name("Trace file");
            if response.lost_focus() && text.trim() != path {
                commit = Some(text.trim().to_string());
            }
            if ui.button("Browse…").clicked() {
                tasks.ask_file(FileRequest::project(FilePurpose::TraceFile, Vec::new()));
            }
        });
        commit.map(|path| {
            EditorCommand::Edit(EditCommand::SetWorkload {
                workload: Workload::TimeIndependentTrace { path },
            })
        })
    }

    fn run_settings(&mut self, ui: &mut Ui, editor: &Editor, palette: &Palette) -> Option<EditorCommand> {
        ui.add_space(10.0);
        ui.separator();
        ui.label(RichText::new("Run settings").strong());
        let settings = editor.doc.project.settings.clone();
        let mut next = None;
        egui::Grid::new("run-settings").num_columns(2).spacing([12.0, 6.0]).show(ui, |ui| {
            let label =
                ui.label("Seed").on_hover_text("Every random stream derives from it: same seed, same run").id;
            let seed = self.text.entry("seed".into()).or_insert_with(|| settings.seed.to_string());
            let response = ui
                .add(egui::TextEdit::singleline(seed).desired_width(140.0).id_salt("run-seed"))
                .labelled_by(label);
            if response.lost_focus() && seed.trim() != settings.seed.to_string() {
                match seed.trim().parse::<u64>() {
                    Ok(value) => next = Some(RunSettings { seed: value, ..settings.clone() }),
                    Err(_) => {
                        self.errors.insert(
                            "seed".into(),
                            format!("seed `{}` is not a whole number ≥ 0", seed.trim()),
                        );
                    }
                }
            }
            ui.end_row();
            let label = ui.label("Trace level").on_hover_text("Level L keeps everything at L and above").id;
            let index = usize::from(settings.trace_level.clamp(1, 5) - 1);
            egui::ComboBox::from_id_salt("run-trace-level")
                .selected_text(TRACE_LEVEL_TEXT[index])
                .width(240.0)
                .show_ui(ui, |ui| {
                    for (i, text) in TRACE_LEVEL_TEXT.iter().enumerate() {
                        let level = i as u8 + 1;
                        if ui.selectable_label(level == settings.trace_level, *text).clicked()
                            && level != settings.trace_level
                        {
                            next = Some(RunSettings { trace_level: level, ..settings.clone() });
                        }
                    }
                })
                .response
                .labelled_by(label);
            ui.end_row();
            let label = ui
                .label("Run until")
                .on_hover_text("Stop the run at this simulated time (empty: until the workload ends)")
                .id;
            let shown = settings.until.map_or_else(String::new, hase_engine::units::format_time);
            let until = self.text.entry("until".into()).or_insert_with(|| shown.clone());
            let response = ui
                .add(
                    egui::TextEdit::singleline(until)
                        .desired_width(140.0)
                        .hint_text("the end")
                        .id_salt("run-until"),
                )
                .labelled_by(label);
            if response.lost_focus() && until.trim() != shown {
                if until.trim().is_empty() {
                    next = Some(RunSettings { until: None, ..settings.clone() });
                } else {
                    match parse_time(until) {
                        Ok(t) => next = Some(RunSettings { until: Some(t), ..settings.clone() }),
                        Err(e) => {
                            self.errors.insert("until".into(), e.to_string());
                        }
                    }
                }
            }
            ui.end_row();
        });
        for field in ["seed", "until"] {
            if let Some(e) = self.errors.get(field) {
                ui.label(RichText::new(e).color(palette.error).small());
            }
        }
        next.map(|settings| {
            self.errors.remove("seed");
            self.errors.remove("until");
            EditorCommand::Edit(EditCommand::SetRunSettings { settings })
        })
    }
}

/// Warn when the program cannot run on this network as set (too few ranks, an algorithm that does
/// not implement the chosen collective): the check a run makes, made now.
fn suitability(
    ui: &mut Ui,
    info: &ProgramInfo,
    params: &BTreeMap<String, ParamValue>,
    ranks: u32,
    palette: &Palette,
) {
    if ranks == 0 {
        ui.label(RichText::new("The network has no processors to run it.").color(palette.warning));
        return;
    }
    if let Err(e) = programs::instantiate(info.name, params, 0, ranks) {
        ui.label(RichText::new(format!("Cannot run on {ranks} processors: {e}")).color(palette.warning));
    }
}
