//! The application: panels laid out around the canvas, actions (menus and shortcuts) carried out in
//! one place, background task results handled, the window title and the unsaved-changes question on
//! close. `logic_step` runs before each frame's UI (`eframe::App::logic`), `ui_root` draws it.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use egui::{Panel, Ui, ViewportCommand};
use hase_engine::model::{Project, TypeRegistry};

use crate::actions::Action;
use crate::command::{Command, Fragment};
use crate::default_project::demo_project;
use crate::icons::Icons;
use crate::state::{Editor, Level};
use crate::tasks::{FilePurpose, TaskOutput, Tasks};
use crate::theme::{self, Palette, ThemeChoice};
use crate::ui::canvas::Canvas;
use crate::ui::canvas::view::View;
use crate::ui::dialogs::{self, Answer, Pending};
use crate::ui::dock::Dock;
use crate::ui::inspector::Inspector;
use crate::ui::palette::PalettePanel;
use crate::ui::{breadcrumb, legend, menu, status, toasts};

/// How the application starts.
#[derive(Clone, Debug, Default)]
pub struct StartOptions {
    /// A project file to open instead of the demo project.
    pub project: Option<PathBuf>,
    /// Save a screenshot here after `screenshot_frames` frames, then exit.
    pub screenshot: Option<PathBuf>,
    /// Frames to render before the screenshot.
    pub screenshot_frames: u64,
}

struct Screenshot {
    path: PathBuf,
    after_frames: u64,
    requested: bool,
    done: Arc<AtomicBool>,
}

/// The hase desktop application.
pub struct App {
    /// Document, selection, log, settings.
    pub editor: Editor,
    /// The canvas panel.
    pub canvas: Canvas,
    /// The dock panel.
    pub dock: Dock,
    inspector: Inspector,
    palette_panel: PalettePanel,
    icons: Icons,
    tasks: Tasks,
    /// Question waiting for an answer about unsaved changes.
    pub pending: Option<Pending>,
    after_save: Option<Pending>,
    allow_close: bool,
    title: String,
    theme_applied: Option<ThemeChoice>,
    screenshot: Option<Screenshot>,
    paste_count: u32,
    frames: u64,
}

impl App {
    /// An application started with `options`. A project file that cannot be read is reported in
    /// the log and the demo project opens instead.
    pub fn new(options: StartOptions) -> Self {
        let mut load_error = None;
        let (project, file) = match &options.project {
            Some(path) => match hase_engine::model::load_project(path) {
                Ok(p) => (p, Some(path.clone())),
                Err(e) => {
                    load_error = Some(e.to_string());
                    (demo_project(), None)
                }
            },
            None => (demo_project(), None),
        };
        let mut editor = Editor::new(project);
        editor.file = file;
        match (&load_error, &editor.file) {
            (Some(e), _) => editor.notify(Level::Error, format!("cannot open project: {e}")),
            (None, Some(path)) => editor.log(Level::Info, format!("opened {}", path.display())),
            (None, None) => editor.log(
                Level::Info,
                "demo project loaded (File > Open… loads a .ron project)",
            ),
        }
        App {
            editor,
            canvas: Canvas::default(),
            dock: Dock::default(),
            inspector: Inspector::default(),
            palette_panel: PalettePanel::default(),
            icons: Icons::default(),
            tasks: Tasks::default(),
            pending: None,
            after_save: None,
            allow_close: false,
            title: String::new(),
            theme_applied: None,
            screenshot: options.screenshot.map(|path| Screenshot {
                path,
                after_frames: options.screenshot_frames.max(1),
                requested: false,
                done: Arc::new(AtomicBool::new(false)),
            }),
            paste_count: 0,
            frames: 0,
        }
    }

    /// Work done before the UI each frame: background results, theme, title, close requests and
    /// keyboard shortcuts.
    pub fn logic_step(&mut self, ctx: &egui::Context) {
        for output in self.tasks.poll() {
            self.task_finished(ctx, output);
        }
        if self.theme_applied != Some(self.editor.settings.theme) {
            self.theme_applied = Some(self.editor.settings.theme);
            let theme = match self.editor.settings.theme {
                ThemeChoice::Dark => egui::Theme::Dark,
                ThemeChoice::Light => egui::Theme::Light,
            };
            ctx.set_theme(theme);
            ctx.set_visuals_of(theme, theme::visuals(self.editor.settings.theme));
        }
        let title = format!(
            "{}{} — hase",
            self.editor.doc.project.name,
            if self.editor.is_dirty() { " *" } else { "" }
        );
        if title != self.title {
            ctx.send_viewport_cmd(ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        if ctx.input(|i| i.viewport().close_requested()) && self.editor.is_dirty() && !self.allow_close {
            ctx.send_viewport_cmd(ViewportCommand::CancelClose);
            self.pending = Some(Pending::Quit);
        }
        if self.pending.is_none() {
            let typing = ctx.egui_wants_keyboard_input();
            for action in Action::KEYED {
                if typing && action.is_canvas_edit() {
                    continue;
                }
                let pressed = |s: Option<egui::KeyboardShortcut>| {
                    s.is_some_and(|s| ctx.input_mut(|i| i.consume_shortcut(&s)))
                };
                if pressed(action.shortcut()) || pressed(action.alternative()) {
                    self.perform(ctx, action);
                }
            }
        }
    }

    /// The window title last sent: project name, ` *` when unsaved, ` — hase`.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// Draw the whole window.
    pub fn ui_root(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        self.frames += 1;
        self.screenshot_step(&ctx);
        self.icons.ensure_loaded(&ctx);
        let palette = Palette::for_choice(self.editor.settings.theme);
        let mut actions = Vec::new();

        Panel::top("menu").show(ui, |ui| actions.extend(menu::show(ui, &self.editor)));
        let zoom = self.canvas.view(&self.editor.current_net()).zoom;
        Panel::bottom("status").show(ui, |ui| {
            status::show(ui, &self.editor, zoom, self.tasks.running());
        });
        Panel::bottom("dock")
            .resizable(true)
            .default_size(170.0)
            .size_range(60.0..=600.0)
            .show(ui, |ui| self.dock.show(ui, &mut self.editor, &palette));
        Panel::left("palette")
            .resizable(true)
            .default_size(210.0)
            .size_range(150.0..=400.0)
            .show(ui, |ui| {
                self.palette_panel
                    .show(ui, &mut self.editor, &self.icons, &palette);
            });
        Panel::right("inspector")
            .resizable(true)
            .default_size(360.0)
            .size_range(240.0..=600.0)
            .show(ui, |ui| {
                self.inspector.show(ui, &mut self.editor, &self.tasks, &palette);
            });
        egui::CentralPanel::no_frame().show(ui, |ui| {
            // No gap between the breadcrumb bar and the canvas (the window background would show).
            ui.spacing_mut().item_spacing.y = 0.0;
            egui::Frame::new()
                .inner_margin(egui::Margin::symmetric(10, 5))
                .fill(ui.visuals().panel_fill)
                .show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    if let Some(depth) = breadcrumb::show(ui, &self.editor, &palette) {
                        self.editor.go_up_to(depth);
                    }
                });
            let line = ui.available_rect_before_wrap();
            ui.painter().hline(
                line.x_range(),
                line.min.y,
                egui::Stroke::new(1.0, palette.grid_major),
            );
            actions.extend(self.canvas.show(ui, &mut self.editor, &self.icons, &palette));
            actions.extend(zoom_buttons(ui, self.canvas.area));
        });
        toasts::show(&ctx, self.canvas.area, &mut self.editor, &palette);
        legend::show(&ctx, &mut self.editor, &palette);
        if let Some(pending) = self.pending {
            match dialogs::unsaved_changes(&ctx, &self.editor, pending) {
                Some(Answer::Save) => {
                    self.pending = None;
                    self.after_save = Some(pending);
                    self.perform(&ctx, Action::Save);
                }
                Some(Answer::Discard) => {
                    self.pending = None;
                    self.go_on(&ctx, pending);
                }
                Some(Answer::Cancel) => self.pending = None,
                None => {}
            }
        }
        for action in actions {
            self.perform(&ctx, action);
        }
    }

    fn screenshot_step(&mut self, ctx: &egui::Context) {
        let Some(shot) = &mut self.screenshot else { return };
        ctx.request_repaint();
        if shot.done.load(Ordering::SeqCst) {
            self.allow_close = true;
            ctx.send_viewport_cmd(ViewportCommand::Close);
            return;
        }
        if self.frames >= shot.after_frames && !shot.requested {
            shot.requested = true;
            let (path, done, repaint) = (shot.path.clone(), Arc::clone(&shot.done), ctx.clone());
            ctx.request_screenshot(move |image| {
                let bytes: Vec<u8> = image.pixels.iter().flat_map(egui::Color32::to_array).collect();
                let [w, h] = image.size;
                if let Err(e) =
                    image::save_buffer(&path, &bytes, w as u32, h as u32, image::ExtendedColorType::Rgba8)
                {
                    eprintln!("hase: cannot save screenshot {}: {e}", path.display());
                }
                done.store(true, Ordering::SeqCst);
                repaint.request_repaint();
            });
        }
    }

    /// Carry out an action.
    pub fn perform(&mut self, ctx: &egui::Context, action: Action) {
        let net = self.editor.current_net();
        let dirty = self.editor.is_dirty();
        match action {
            Action::NewProject if dirty => self.pending = Some(Pending::NewProject),
            Action::NewProject => self.go_on(ctx, Pending::NewProject),
            Action::Open if dirty => self.pending = Some(Pending::Open),
            Action::Open => self.go_on(ctx, Pending::Open),
            Action::Save => match self.editor.file.clone() {
                Some(path) => self.tasks.save_project(
                    ctx,
                    self.editor.doc.project.clone(),
                    path,
                    self.editor.history.revision(),
                ),
                None => self.perform(ctx, Action::SaveAs),
            },
            Action::SaveAs => self
                .tasks
                .pick_file(ctx, FilePurpose::SaveProjectAs, vec!["ron".into()]),
            Action::Quit if dirty => self.pending = Some(Pending::Quit),
            Action::Quit => self.go_on(ctx, Pending::Quit),
            Action::Undo => self.editor.undo(),
            Action::Redo => self.editor.redo(),
            Action::Copy | Action::Cut => {
                let names = self.editor.selected_instances();
                if !names.is_empty() {
                    self.editor.clipboard = Some(Fragment::copy(&self.editor.doc, &net, &names));
                    self.paste_count = 0;
                    self.editor
                        .log(Level::Info, format!("copied {} entities", names.len()));
                    if action == Action::Cut {
                        self.perform(ctx, Action::Delete);
                    }
                }
            }
            Action::Paste => {
                if let Some(fragment) = self.editor.clipboard.clone() {
                    self.paste_count += 1;
                    let shift = 2.0 * self.editor.settings.grid_step * self.paste_count as f32;
                    let offset = hase_engine::model::Pos::new(shift, shift);
                    self.editor.run(Command::Paste {
                        net,
                        fragment,
                        offset,
                    });
                }
            }
            Action::Duplicate => {
                let names = self.editor.selected_instances();
                if !names.is_empty() {
                    let fragment = Fragment::copy(&self.editor.doc, &net, &names);
                    let shift = 2.0 * self.editor.settings.grid_step;
                    let offset = hase_engine::model::Pos::new(shift, shift);
                    self.editor.run(Command::Paste {
                        net,
                        fragment,
                        offset,
                    });
                }
            }
            Action::Delete => self.delete_selection(),
            Action::SelectAll => {
                if let Some(network) = self.editor.doc.network(&net) {
                    self.editor.selection.instances = network.instances.keys().cloned().collect();
                    self.editor.selection.links.clear();
                }
            }
            Action::Align(how) => {
                let instances = self.editor.selected_instances();
                self.editor.run(Command::Align { net, instances, how });
            }
            Action::Group => self.group(),
            Action::Ungroup => {
                if let [instance] = self.editor.selected_instances().as_slice() {
                    let instance = instance.clone();
                    self.editor.run(Command::Ungroup { net, instance });
                }
            }
            Action::ZoomIn => self.canvas.zoom_by(&net, 1.25),
            Action::ZoomOut => self.canvas.zoom_by(&net, 0.8),
            Action::ZoomFit => self.editor.fit_requested = true,
            Action::ZoomReset => {
                let v = self.canvas.view(&net);
                self.canvas.set_view(
                    &net,
                    View {
                        pan: v.pan / v.zoom,
                        zoom: 1.0,
                    },
                );
            }
            Action::ToggleGrid => self.editor.settings.grid = !self.editor.settings.grid,
            Action::ToggleSnap => self.editor.settings.snap = !self.editor.settings.snap,
            Action::Theme(choice) => self.editor.settings.theme = choice,
            Action::ToggleLegend => self.editor.settings.legend_open = !self.editor.settings.legend_open,
            Action::GoUp => {
                if !self.editor.crumbs.is_empty() {
                    let depth = self.editor.crumbs.len() - 1;
                    self.editor.go_up_to(depth);
                }
            }
            Action::Validate => self.validate(),
            Action::OpenSelected => {
                if let [name] = self.editor.selected_instances().as_slice() {
                    let name = name.clone();
                    self.editor.open_compound(&name);
                }
            }
            Action::Escape => {
                self.editor.placing = None;
                self.canvas.drag = crate::ui::canvas::Drag::None;
                self.editor.selection.clear();
            }
        }
    }

    /// Carry on with what the unsaved-changes question interrupted.
    fn go_on(&mut self, ctx: &egui::Context, pending: Pending) {
        match pending {
            Pending::Quit => {
                self.allow_close = true;
                ctx.send_viewport_cmd(ViewportCommand::Close);
            }
            Pending::NewProject => {
                self.editor.replace_project(Project::new("untitled"), None);
                self.editor.log(Level::Info, "new project");
            }
            Pending::Open => self
                .tasks
                .pick_file(ctx, FilePurpose::OpenProject, vec!["ron".into()]),
        }
    }

    fn delete_selection(&mut self) {
        let net = self.editor.current_net();
        let mut commands: Vec<Command> = self
            .editor
            .selection
            .links
            .iter()
            .map(|key| Command::Unlink {
                net: net.clone(),
                key: key.clone(),
            })
            .collect();
        // Links that go with a removed instance are removed by it; do not unlink them twice.
        let removed = &self.editor.selection.instances;
        commands.retain(|c| match c {
            Command::Unlink { key, .. } => !removed
                .iter()
                .any(|n| key.starts_with(&format!("{n}.")) || key.contains(&format!("--{n}."))),
            _ => true,
        });
        commands.extend(removed.iter().map(|name| Command::RemoveInstance {
            net: net.clone(),
            name: name.clone(),
        }));
        if commands.is_empty() {
            return;
        }
        let label = format!(
            "delete {} item{}",
            commands.len(),
            if commands.len() == 1 { "" } else { "s" }
        );
        if self.editor.run(Command::Batch { label, commands }) {
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
        if self.editor.run(Command::Group {
            net,
            instances,
            type_name: type_name.clone(),
            instance_name,
        }) {
            let ports = self
                .editor
                .doc
                .entity_type(&type_name)
                .map_or(0, |t| t.ports.len());
            self.editor.log(
                Level::Info,
                format!("new compound type {type_name} with {ports} outer ports"),
            );
        }
    }

    fn validate(&mut self) {
        let registry = TypeRegistry::for_project(self.editor.doc.builtins(), &self.editor.doc.project);
        match hase_engine::validate::validate_project(&self.editor.doc.project, &registry) {
            Ok(()) => {
                let n = &self.editor.doc.project.network;
                let text = format!(
                    "design check passed: {} entities, {} links",
                    n.instances.len(),
                    n.links.len()
                );
                self.editor.notify(Level::Info, text);
            }
            Err(errors) => {
                for e in &errors.0 {
                    self.editor.log(Level::Warning, e.to_string());
                }
                let n = errors.0.len();
                self.editor.notify(
                    Level::Warning,
                    format!(
                        "design check found {n} problem{} (see Messages)",
                        if n == 1 { "" } else { "s" }
                    ),
                );
                self.dock.tab = crate::ui::dock::DockTab::Messages;
            }
        }
    }

    fn task_finished(&mut self, ctx: &egui::Context, output: TaskOutput) {
        match output {
            TaskOutput::FileChosen { path: None, .. } => self.after_save = None,
            TaskOutput::FileChosen {
                purpose,
                path: Some(path),
            } => match purpose {
                FilePurpose::OpenProject => self.tasks.open_project(ctx, path),
                FilePurpose::SaveProjectAs => {
                    let path = if path.extension().is_none() {
                        path.with_extension("ron")
                    } else {
                        path
                    };
                    let project = self.editor.doc.project.clone();
                    self.tasks
                        .save_project(ctx, project, path, self.editor.history.revision());
                }
                FilePurpose::Param {
                    net,
                    instances,
                    param,
                } => {
                    let base = self
                        .editor
                        .file
                        .as_ref()
                        .and_then(|f| f.parent().map(std::path::Path::to_path_buf));
                    let shown = base
                        .and_then(|b| path.strip_prefix(b).ok().map(std::path::Path::to_path_buf))
                        .unwrap_or(path);
                    let value = hase_engine::model::ParamValue::Text(shown.display().to_string());
                    let commands = instances
                        .into_iter()
                        .map(|instance| Command::SetParam {
                            net: net.clone(),
                            instance,
                            param: param.clone(),
                            value: Some(value.clone()),
                        })
                        .collect();
                    self.editor.run(Command::Batch {
                        label: format!("set {param}"),
                        commands,
                    });
                }
            },
            TaskOutput::ProjectOpened {
                path,
                result: Ok(project),
            } => {
                self.editor.replace_project(*project, Some(path.clone()));
                self.editor.log(Level::Info, format!("opened {}", path.display()));
            }
            TaskOutput::ProjectOpened { path, result: Err(e) } => {
                self.editor
                    .notify(Level::Error, format!("cannot open {}: {e}", path.display()));
            }
            TaskOutput::ProjectSaved {
                path,
                revision,
                result: Ok(()),
            } => {
                self.editor.saved_revision = revision;
                self.editor.log(Level::Info, format!("saved {}", path.display()));
                self.editor.file = Some(path);
                if let Some(pending) = self.after_save.take() {
                    self.go_on(ctx, pending);
                }
            }
            TaskOutput::ProjectSaved {
                path, result: Err(e), ..
            } => {
                self.after_save = None;
                self.editor
                    .notify(Level::Error, format!("cannot save {}: {e}", path.display()));
            }
        }
    }
}

/// Small zoom controls floating over the canvas's top-right corner.
fn zoom_buttons(ui: &mut Ui, area: egui::Rect) -> Vec<Action> {
    let mut out = Vec::new();
    let size = egui::vec2(34.0, 24.0);
    let mut x = area.max.x - 12.0;
    for (text, action, tip) in [
        ("Fit", Action::ZoomFit, "Zoom to fit (F)"),
        ("+", Action::ZoomIn, "Zoom in (Ctrl +, or Ctrl+wheel)"),
        ("−", Action::ZoomOut, "Zoom out (Ctrl −)"),
    ] {
        x -= size.x + 4.0;
        let rect = egui::Rect::from_min_size(egui::pos2(x, area.min.y + 10.0), size);
        if ui.put(rect, egui::Button::new(text)).on_hover_text(tip).clicked() {
            out.push(action);
        }
    }
    out
}

impl eframe::App for App {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.logic_step(ctx);
    }

    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.ui_root(ui);
    }
}

/// Open the main window and run until it closes.
pub fn run_gui(options: StartOptions) -> eframe::Result {
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("hase")
            .with_app_id("hase")
            .with_inner_size([1500.0, 920.0])
            .with_min_inner_size([900.0, 560.0]),
        renderer: eframe::Renderer::Glow,
        ..Default::default()
    };
    eframe::run_native(
        "hase",
        native,
        Box::new(move |_cc| Ok(Box::new(App::new(options)))),
    )
}
