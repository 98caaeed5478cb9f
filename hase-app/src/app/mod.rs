//! The application: panels laid out around the canvas, actions (menus and shortcuts) carried out in
//! one place, background task results handled, the window title and the unsaved-changes question on
//! close. `logic_step` runs before each frame's UI (`eframe::App::logic`), `ui_root` draws it; the
//! panels draw from read-only state and return what they ask for (actions, editor commands,
//! session commands), carried out once at the end of the frame (`finish_frame`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use egui::{Panel, Ui, ViewportCommand};

mod experiments;
mod finished;
mod library;
mod perform;
mod runs;
mod state;
mod window_answers;
mod windows;

pub use state::{App, StartOptions};

use state::Screenshot;

use crate::actions::AppAction;
use crate::icons::Icons;
use crate::theme::{self, Palette, ReplayColours, ThemeChoice};
use crate::ui::animator::MapCache;
use crate::ui::animator::images::StateImages;
use crate::ui::canvas::{Canvas, CanvasContext, ReplayLayer};
use crate::ui::dialogs::{self, Answer, UnsavedQuestion};
use crate::ui::dock::{Dock, DockContext};
use crate::ui::inspector::Inspector;
use crate::ui::palette::PalettePanel;
use crate::ui::{breadcrumb, legend, menu, run_bar, status, toasts};
use hase_editor::analysis_views::critical::drawing_weights;
use hase_editor::examples::default_project;
use hase_editor::project_store::Library;
use hase_editor::session::{Session, SessionCommand};
use hase_editor::state::{Editor, EditorCommand, LogLevel};
use hase_editor::tasks::Tasks;

impl App {
    /// An application started with `options`. A project file that cannot be read is reported in
    /// the log and the default example opens instead.
    pub fn new(options: StartOptions) -> Self {
        let mut load_error = None;
        let (project, file) = match &options.project {
            Some(path) => match hase_library::generated::load_project(path) {
                Ok(p) => (p, Some(path.clone())),
                Err(e) => {
                    load_error = Some(e.to_string());
                    (default_project(), None)
                }
            },
            None => (default_project(), None),
        };
        let mut editor = Editor::new(project);
        editor.file = file;
        match (&load_error, &editor.file) {
            (Some(e), _) => editor.notify(LogLevel::Error, format!("cannot open project: {e}")),
            (None, Some(path)) => editor.log(LogLevel::Info, format!("opened {}", path.display())),
            (None, None) => {
                editor.log(LogLevel::Info, "example project loaded (File › Open example lists the others)");
            }
        }
        App {
            editor,
            canvas: Canvas::default(),
            dock: Dock::default(),
            session: Session::default(),
            compare_views: crate::ui::compare::CompareViews::default(),
            export_result: crate::ui::timing::export::ExportResult::default(),
            images: StateImages::default(),
            main_map: MapCache::default(),
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
            below_bars: egui::Rect::EVERYTHING,
            run_size: hase_editor::run::size_check::RunSize {
                book: hase_editor::run::size_check::RateBook::at(&options.library),
                ..Default::default()
            },
            library: Library::new(options.library),
            windows: windows::Windows::default(),
            files: crate::file_dialog::FileDialogs::default(),
            memory: status::MemoryGauge::default(),
            start_actions: options.start_actions,
            start_trace: options.trace,
        }
    }

    /// Work done before the UI each frame: background results, theme, title, close requests and
    /// keyboard shortcuts.
    pub fn logic_step(&mut self, ctx: &egui::Context) {
        if self.frames == 0 {
            let repaint = ctx.clone();
            self.tasks.set_waker(hase_editor::tasks::Waker::new(move || repaint.request_repaint()));
        }
        for output in self.tasks.poll() {
            self.task_finished(ctx, output);
        }
        self.library_step(ctx);
        self.replay_logic(ctx);
        self.experiments_step(ctx);
        for action in std::mem::take(&mut self.start_actions) {
            self.perform(ctx, action);
        }
        if let Some(path) = self.start_trace.take() {
            self.replay_file_chosen(ctx, hase_editor::run::ReplayFile::OpenTrace, path);
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
            self.pending = Some(UnsavedQuestion::Quit);
        }
        if !self.dialog_open() {
            let typing = ctx.egui_wants_keyboard_input();
            for action in crate::actions::KEYED.iter().copied() {
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

    /// True while a dialog waits for an answer (the unsaved-changes question, Save as, the library
    /// messages, a file dialog, the template and comparison forms, a big run's question): the window's shortcuts wait too,
    /// so Ctrl+O does not open the library over it.
    pub fn dialog_open(&self) -> bool {
        self.pending.is_some()
            || self.files.is_open()
            || self.windows.save_as.is_some()
            || self.windows.template.open
            || self.windows.variant.open
            || self.run_size.question.is_some()
            || self.library.failure_dialog.is_some()
            || !self.library.recovery.is_empty()
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
        let mut edits: Vec<EditorCommand> = Vec::new();
        let mut commands = Vec::new();
        self.session.seek_cursors();

        Panel::top("menu").show(ui, |ui| actions.extend(menu::show(ui, &self.editor, &self.library)));
        let colours = ReplayColours::for_choice(self.editor.settings.theme);
        let toolbar = Panel::top("run-toolbar")
            .show(ui, |ui| run_bar::show(ui, &self.session, &self.editor.doc.project.settings, &palette))
            .inner;
        actions.extend(toolbar.actions);
        commands.extend(toolbar.commands);
        if let Some(settings) = toolbar.settings {
            edits.push(EditorCommand::Edit(hase_editor::command::EditCommand::SetRunSettings { settings }));
        }
        let zoom = self.canvas.view(&self.editor.current_net()).zoom;
        Panel::bottom("status").show(ui, |ui| {
            let estimating = self.run_size.estimating.is_some();
            status::show(
                ui,
                &self.editor,
                zoom,
                self.tasks.running(),
                estimating,
                &self.session,
                &mut self.memory,
            );
        });
        self.below_bars = ui.available_rect_before_wrap();
        // The dock grows once there is a run to show (a panel id of its own keeps the size apart).
        let replaying = self.session.current.is_some() || self.session.compare.is_some();
        // Sized to its content once there is a run: every timing row when the window allows (at
        // most 40% of it, so that the design keeps most of the window); the id carries the row
        // count, so a run with other rows is fitted again.
        let most = ui.available_height() * 0.4;
        let fitted = |rows: usize| {
            (rows as f32 * crate::ui::timing::draw::ROW_HEIGHT + 150.0).clamp(200.0, most.max(200.0))
        };
        let (dock_id, dock_size) = match (&self.session.compare, replaying) {
            // A comparison: room for several rows of each side's diagram (two side by side), the
            // canvases above take the rest.
            (Some(c), _) => (
                ("dock-compare", c.sides.len()),
                crate::ui::timing::compare_dock_height(c.sides.len(), ui.available_height()),
            ),
            (None, true) => (("dock-replay", self.dock.fit_rows), fitted(self.dock.fit_rows)),
            (None, false) => (("dock", 0), 170.0),
        };
        if self.dock.shown.replace(dock_id) != Some(dock_id) {
            // The canvas changes size with the dock: show the whole design in what is left.
            self.editor.fit_requested = true;
        }
        let dock = Panel::bottom(dock_id)
            .resizable(true)
            .default_size(dock_size)
            .size_range(60.0..=800.0)
            .show(ui, |ui| {
                let s = &self.session;
                let cx = DockContext {
                    editor: &self.editor,
                    current: s.current.as_deref(),
                    compare: s.compare.as_ref(),
                    now: s.player.time,
                    stale: s.stale,
                    stats_order: &s.stats_order,
                    stats_side: s.stats_side,
                    timing: &s.timing,
                    palette: &palette,
                };
                self.dock.show(ui, &cx)
            })
            .inner;
        if dock.clear_log {
            edits.push(EditorCommand::ClearLog);
        }
        commands.extend(dock.commands);
        if replaying {
            Panel::bottom("replay-bar")
                .show(ui, |ui| commands.extend(self.replay_bar(ui, &colours, &palette)));
        }
        if let Some(compare) = &self.session.compare {
            egui::CentralPanel::default().show(ui, |ui| {
                let cx = crate::ui::compare::CompareContext {
                    player: &self.session.player,
                    icons: &self.icons,
                    images: &mut self.images,
                    colours: &colours,
                    palette: &palette,
                    critical: Some(&self.session.timing.analysis.critical).filter(|view| view.shown),
                };
                commands.extend(crate::ui::compare::show(ui, compare, &mut self.compare_views, cx));
            });
            self.finish_frame(&ctx, actions, edits, commands);
            return;
        }
        Panel::left("palette")
            .resizable(true)
            .default_size(crate::ui::palette::PALETTE_WIDTH)
            .size_range(150.0..=400.0)
            .show(ui, |ui| {
                edits.extend(self.palette_panel.show(ui, &self.editor, &self.icons, &palette));
            });
        Panel::right("inspector").resizable(true).default_size(360.0).size_range(240.0..=600.0).show(
            ui,
            |ui| {
                edits.extend(self.inspector.show(ui, &self.editor, &self.tasks, &palette));
            },
        );
        if std::mem::take(&mut self.inspector.check_levels) {
            self.check_levels();
        }
        if let Some(sheet) = self.inspector.take_sheet_request() {
            // A relative sheet path is the project's, as when the simulator loads it.
            let base = self
                .editor
                .file
                .as_deref()
                .and_then(std::path::Path::parent)
                .map(std::path::Path::to_path_buf);
            self.windows.sheet_viewer.open(&sheet, &base.unwrap_or_else(|| ".".into()));
        }
        egui::CentralPanel::no_frame().show(ui, |ui| {
            // No gap between the breadcrumb bar and the canvas (the window background would show).
            ui.spacing_mut().item_spacing.y = 0.0;
            egui::Frame::new()
                .inner_margin(egui::Margin::symmetric(10, 5))
                .fill(ui.visuals().panel_fill)
                .show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    if let Some(depth) = breadcrumb::show(ui, &self.editor, &palette) {
                        edits.push(EditorCommand::GoUpTo(depth));
                    }
                });
            let line = ui.available_rect_before_wrap();
            ui.painter().hline(line.x_range(), line.min.y, egui::Stroke::new(1.0, palette.grid_major));
            let clock_end = self.session.clock_end();
            let critical = self.session.current.as_deref().and_then(|run| {
                let view = &self.session.timing.analysis.critical;
                let found = view.found(run.id).filter(|_| view.shown)?;
                found.as_ref().as_ref().ok().map(drawing_weights)
            });
            let replay = self.session.current.as_deref().map(|run| ReplayLayer {
                run,
                snap: &self.session.cursor,
                player: &self.session.player,
                clock_end,
                map: &mut self.main_map,
                images: &mut self.images,
                colours: &colours,
                stale: self.session.stale,
                critical: critical.as_ref(),
            });
            let cx = CanvasContext { icons: &self.icons, palette: &palette, replay, fit: false };
            let canvas = self.canvas.show(ui, &self.editor, cx);
            actions.extend(canvas.actions);
            edits.extend(canvas.commands);
            actions.extend(zoom_buttons(ui, self.canvas.area));
        });
        self.finish_frame(&ctx, actions, edits, commands);
    }

    /// Overlays, then what the panels asked for this frame: the editor commands (applied here,
    /// the one place the panels change the editor), the windows and the unsaved-changes question,
    /// the session commands (the one place the views change the session) and the actions.
    fn finish_frame(
        &mut self,
        ctx: &egui::Context,
        actions: Vec<AppAction>,
        mut edits: Vec<EditorCommand>,
        commands: Vec<SessionCommand>,
    ) {
        let ctx = ctx.clone();
        let palette = Palette::for_choice(self.editor.settings.theme);
        edits.extend(toasts::show(&ctx, self.toast_area(), &self.editor.toasts, &palette));
        edits.extend(legend::show(&ctx, &self.editor, &palette));
        for edit in edits {
            self.editor.apply(edit);
        }
        self.show_windows(&ctx, &palette);
        if let Some(pending) = self.pending {
            let to_library = self.library.store().is_some();
            match dialogs::unsaved_changes(&ctx, &self.editor, pending, to_library) {
                Some(Answer::Save) => {
                    self.pending = None;
                    self.after_save = Some(pending);
                    self.perform(&ctx, AppAction::Save);
                }
                Some(Answer::Discard) => {
                    self.pending = None;
                    if self.discard_autosave() && pending == UnsavedQuestion::Quit {
                        // Close once the autosave is dropped (see `library_finished`).
                        self.library.close_after_discard = true;
                    } else {
                        self.go_on(&ctx, pending);
                    }
                }
                Some(Answer::Cancel) => self.pending = None,
                None => {}
            }
        }
        for command in commands {
            self.session.apply(command);
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
}

/// Small zoom controls floating over the canvas's top-right corner.
fn zoom_buttons(ui: &mut Ui, area: egui::Rect) -> Vec<AppAction> {
    let mut out = Vec::new();
    let size = egui::vec2(34.0, 24.0);
    let mut x = area.max.x - 12.0;
    for (text, action, tip) in [
        ("Fit", AppAction::ZoomFit, "Zoom to fit (F)"),
        ("+", AppAction::ZoomIn, "Zoom in (Ctrl +, or the wheel)"),
        ("−", AppAction::ZoomOut, "Zoom out (Ctrl −, or the wheel)"),
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

    fn raw_input_hook(&mut self, ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        crate::ui::canvas::wheel::take_canvas_wheel(ctx, raw_input, &self.canvas_areas());
    }
}

impl App {
    /// The canvases shown: the design's, or in a comparison its sides' (left to right), which
    /// take the design canvas's place.
    pub(crate) fn canvas_areas(&self) -> Vec<egui::Rect> {
        if self.session.compare.is_some() {
            self.compare_views.sides.iter().map(|v| v.canvas.area).collect()
        } else {
            vec![self.canvas.area]
        }
    }

    /// Where toasts go: the bottom-right corner of the rightmost canvas shown.
    pub(crate) fn toast_area(&self) -> egui::Rect {
        self.canvas_areas().last().copied().unwrap_or(self.canvas.area)
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
    eframe::run_native("hase", native, Box::new(move |_cc| Ok(Box::new(App::new(options)))))
}
