//! Carrying out actions (menus, shortcuts, context menu): file operations, edits turned into
//! commands, view changes, the design check.

use egui::ViewportCommand;
use hase_engine::model::{PortRef, Project, TypeRegistry};
use hase_library::what_if::Target;

use super::state::App;
use super::windows::SweepOnOpen;
use crate::actions::AppAction;
use crate::ui::canvas::view::View;
use crate::ui::dialogs::UnsavedQuestion;
use hase_editor::command::{EditCommand, Fragment};
use hase_editor::session::SessionCommand;
use hase_editor::session::timing::TimingCommand;
use hase_editor::state::LogLevel;
use hase_editor::tasks::{FilePurpose, FileRequest};

impl App {
    /// Carry out an action.
    pub fn perform(&mut self, ctx: &egui::Context, action: AppAction) {
        let net = self.editor.current_net();
        let dirty = self.editor.is_dirty();
        match action {
            AppAction::NewProject if dirty => self.pending = Some(UnsavedQuestion::NewProject),
            AppAction::NewProject => self.go_on(ctx, UnsavedQuestion::NewProject),
            AppAction::Open => self.open(),
            AppAction::ImportRon => {
                self.ask_file(FileRequest::project(FilePurpose::ImportRon, vec!["ron".into()]));
            }
            AppAction::ImportSimgrid(latency) => {
                self.ask_file(FileRequest::project(FilePurpose::ImportSimgrid(latency), vec!["xml".into()]));
            }
            AppAction::ExportRon => {
                let file_name = format!("{}.ron", self.editor.doc.project.name);
                self.ask_file(FileRequest::project(FilePurpose::ExportRon { file_name }, vec!["ron".into()]));
            }
            AppAction::OpenExample(index) => self.open_example(ctx, index, SweepOnOpen::ItsOwn),
            AppAction::InsertTemplate => self.windows.template.open_with("fat_tree", &self.editor),
            AppAction::Save => self.save(),
            AppAction::SaveAs => self.save_as(),
            AppAction::Quit if dirty => self.pending = Some(UnsavedQuestion::Quit),
            AppAction::Quit => self.go_on(ctx, UnsavedQuestion::Quit),
            AppAction::Undo => self.editor.undo(),
            AppAction::Redo => self.editor.redo(),
            AppAction::Copy | AppAction::Cut => {
                let names = self.editor.selected_instances();
                if !names.is_empty() {
                    self.editor.clipboard = Some(Fragment::copy(&self.editor.doc, &net, &names));
                    self.paste_count = 0;
                    self.editor.log(LogLevel::Info, format!("copied {} entities", names.len()));
                    if action == AppAction::Cut {
                        self.perform(ctx, AppAction::Delete);
                    }
                }
            }
            AppAction::Paste => {
                if let Some(fragment) = self.editor.clipboard.clone() {
                    self.paste_count += 1;
                    let shift = 2.0 * self.editor.settings.grid_step * self.paste_count as f32;
                    let offset = hase_engine::model::Pos::new(shift, shift);
                    self.editor.run(EditCommand::Paste { net, fragment, offset });
                }
            }
            AppAction::Duplicate => {
                let names = self.editor.selected_instances();
                if !names.is_empty() {
                    let fragment = Fragment::copy(&self.editor.doc, &net, &names);
                    let shift = 2.0 * self.editor.settings.grid_step;
                    let offset = hase_engine::model::Pos::new(shift, shift);
                    self.editor.run(EditCommand::Paste { net, fragment, offset });
                }
            }
            AppAction::Delete => self.delete_selection(),
            AppAction::SelectAll => {
                if let Some(network) = self.editor.doc.network(&net) {
                    self.editor.selection.instances = network.instances.keys().cloned().collect();
                    self.editor.selection.links.clear();
                }
            }
            AppAction::Align(how) => {
                let instances = self.editor.selected_instances();
                self.editor.run(EditCommand::Align { net, instances, how });
            }
            AppAction::Group => self.group(),
            AppAction::Ungroup => {
                if let [instance] = self.editor.selected_instances().as_slice() {
                    let instance = instance.clone();
                    self.editor.run(EditCommand::Ungroup { net, instance });
                }
            }
            AppAction::ZoomIn => self.canvas.zoom_by(&net, 1.25),
            AppAction::ZoomOut => self.canvas.zoom_by(&net, 0.8),
            AppAction::ZoomFit => self.editor.fit_requested = true,
            AppAction::ZoomReset => {
                let v = self.canvas.view(&net);
                self.canvas.set_view(&net, View { pan: v.pan / v.zoom, zoom: 1.0 });
            }
            AppAction::ToggleGrid => self.editor.settings.grid = !self.editor.settings.grid,
            AppAction::ToggleSnap => self.editor.settings.snap = !self.editor.settings.snap,
            AppAction::Theme(choice) => self.editor.settings.theme = choice,
            AppAction::ToggleLegend => self.editor.settings.legend_open = !self.editor.settings.legend_open,
            AppAction::GoUp => {
                if !self.editor.crumbs.is_empty() {
                    let depth = self.editor.crumbs.len() - 1;
                    self.editor.go_up_to(depth);
                }
            }
            AppAction::Validate => self.validate(),
            AppAction::CheckLevels => self.check_levels(),
            AppAction::CheckTies => {
                let project = &self.editor.doc.project;
                self.windows.ties.start(project, self.editor.file.as_deref(), &self.session.settings);
            }
            AppAction::WhatIf => self.what_if_selected(),
            AppAction::OpenSelected => {
                if let [name] = self.editor.selected_instances().as_slice() {
                    let name = name.clone();
                    self.editor.open_compound(&name);
                }
            }
            AppAction::Run
            | AppAction::Stop
            | AppAction::PlayPause
            | AppAction::StepForward
            | AppAction::StepBack
            | AppAction::CompareExample
            | AppAction::CompareWithFile
            | AppAction::CompareVariant
            | AppAction::CompareTraces
            | AppAction::CompareThreeTraces
            | AppAction::OpenRecording
            | AppAction::CloseCompare
            | AppAction::OpenTrace
            | AppAction::ExportTrace(_) => self.replay_action(action),
            AppAction::Help(topic) => self.windows.help = Some(topic),
            AppAction::Experiments => self.open_experiments(),
            AppAction::OpenExperimentExample => self.open_experiment_example(ctx),
            AppAction::Escape if self.close_top_window() => {}
            AppAction::Escape => {
                self.editor.placing = None;
                self.canvas.drag = crate::ui::canvas::Drag::None;
                self.editor.selection.clear();
            }
        }
    }

    /// Escape closes the window over the panels, the one opened last first (Help before the
    /// experiments' Slurm dialog before Experiments …); returns false when none is open.
    fn close_top_window(&mut self) -> bool {
        if self.session.timing.analysis.what_if.open.take().is_some() {
            return true;
        }
        let w = &mut self.windows;
        if w.help.take().is_some() || w.experiments.slurm.dialog.take().is_some() {
            return true;
        }
        [
            &mut w.sheet_viewer.open,
            &mut w.levels.open,
            &mut w.ties.open,
            &mut w.experiments.open,
            &mut w.browser.open,
        ]
        .into_iter()
        .any(std::mem::take)
    }

    /// Open the what-if window for the one link or instance selected on the canvas.
    fn what_if_selected(&mut self) {
        let crumbs: Vec<String> = self.editor.crumbs.iter().map(|c| c.instance.clone()).collect();
        let prefix = crate::ui::animator::map::prefix_of(&crumbs);
        let selection = &self.editor.selection;
        let target = match (selection.instances.len(), selection.links.len()) {
            (1, 0) => {
                selection.instances.first().map(|name| Target::Instance { path: format!("{prefix}{name}") })
            }
            (0, 1) => {
                let key = selection.links.first();
                let net = self.editor.doc.network(&self.editor.current_net());
                net.and_then(|n| n.links.iter().find(|l| Some(&l.key()) == key)).map(|l| {
                    let end = |p: &PortRef| PortRef::new(&format!("{prefix}{}", p.instance), &p.port);
                    Target::Link { a: end(&l.a), b: end(&l.b) }
                })
            }
            _ => None,
        };
        let mut menu = self.session.timing.analysis.what_if.clone();
        menu.open = target;
        self.session.apply(SessionCommand::Timing(TimingCommand::SetWhatIf(menu)));
    }

    /// Carry on with what the unsaved-changes question interrupted.
    pub(super) fn go_on(&mut self, ctx: &egui::Context, pending: UnsavedQuestion) {
        match pending {
            UnsavedQuestion::Quit => {
                self.allow_close = true;
                ctx.send_viewport_cmd(ViewportCommand::Close);
            }
            UnsavedQuestion::NewProject => {
                let previous = self.editor.doc.project.name.clone();
                self.editor.replace_project(Project::new("untitled"), None);
                self.windows.experiments.switch_project(&previous, &self.editor.doc.project.name);
                self.library.version = None;
                self.library.document_settled(std::time::Instant::now());
                self.editor.log(LogLevel::Info, "new project");
            }
            UnsavedQuestion::Open => self.adopt_incoming(),
        }
    }

    fn delete_selection(&mut self) {
        let net = self.editor.current_net();
        let mut commands: Vec<EditCommand> = self
            .editor
            .selection
            .links
            .iter()
            .map(|key| EditCommand::Unlink { net: net.clone(), key: key.clone() })
            .collect();
        // Links that go with a removed instance are removed by it; do not unlink them twice.
        let removed = &self.editor.selection.instances;
        commands.retain(|c| match c {
            EditCommand::Unlink { key, .. } => {
                !removed.iter().any(|n| key.starts_with(&format!("{n}.")) || key.contains(&format!("--{n}.")))
            }
            _ => true,
        });
        commands.extend(
            removed.iter().map(|name| EditCommand::RemoveInstance { net: net.clone(), name: name.clone() }),
        );
        if commands.is_empty() {
            return;
        }
        let label = format!("delete {} item{}", commands.len(), if commands.len() == 1 { "" } else { "s" });
        if self.editor.run(EditCommand::Batch { label, commands }) {
            self.editor.selection.clear();
        }
    }

    fn group(&mut self) {
        let net = self.editor.current_net();
        let instances = self.editor.selected_instances();
        let Some(network) = self.editor.doc.network(&net) else {
            return;
        };
        if instances.is_empty() {
            return;
        }
        let type_name = self.editor.doc.fresh_type_name("Compound");
        let instance_name = network.fresh_name("c");
        if self.editor.run(EditCommand::Group { net, instances, type_name: type_name.clone(), instance_name })
        {
            let ports = self.editor.doc.entity_type(&type_name).map_or(0, |t| t.ports.len());
            self.editor
                .log(LogLevel::Info, format!("new compound type {type_name} with {ports} outer ports"));
        }
    }

    fn validate(&mut self) {
        let registry = TypeRegistry::for_project(self.editor.doc.builtins(), &self.editor.doc.project);
        match hase_engine::validate::validate_project(&self.editor.doc.project, &registry) {
            Ok(()) => {
                let n = &self.editor.doc.project.network;
                let text =
                    format!("design check passed: {} entities, {} links", n.instances.len(), n.links.len());
                self.editor.notify(LogLevel::Info, text);
            }
            Err(errors) => {
                for e in &errors.0 {
                    // Clicking the line reveals the entity (project-wide problems have no path).
                    let path = (!e.path.is_empty()).then(|| e.path.clone());
                    self.editor.log_at(LogLevel::Warning, e.to_string(), path);
                }
                let n = errors.0.len();
                self.editor.notify(
                    LogLevel::Warning,
                    format!("design check found {n} problem{} (see Messages)", if n == 1 { "" } else { "s" }),
                );
                self.dock.tab = crate::ui::dock::DockTab::Messages;
            }
        }
    }
}
