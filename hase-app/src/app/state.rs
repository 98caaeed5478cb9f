//! [`App`]: everything the application keeps between frames — the editor, the panels' view state,
//! the session of runs, the windows and dialogs, the project library, background tasks — and
//! [`StartOptions`], how it starts. The frame itself is drawn in the parent module; the sibling
//! modules add the app's answers to actions, tasks and store calls.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::windows::Windows;
use crate::actions::AppAction;
use crate::icons::Icons;
use crate::theme::ThemeChoice;
use crate::ui::animator::MapCache;
use crate::ui::animator::images::StateImages;
use crate::ui::canvas::Canvas;
use crate::ui::dialogs::UnsavedQuestion;
use crate::ui::dock::Dock;
use crate::ui::inspector::Inspector;
use crate::ui::palette::PalettePanel;
use crate::ui::status;
use hase_editor::project_store::{Library, LibraryLocation};
use hase_editor::session::Session;
use hase_editor::state::Editor;
use hase_editor::tasks::Tasks;

/// How the application starts.
#[derive(Clone, Debug, Default)]
pub struct StartOptions {
    /// A project file to open instead of the default example (the fat-tree allreduce).
    pub project: Option<PathBuf>,
    /// Save a screenshot here after `screenshot_frames` frames, then exit.
    pub screenshot: Option<PathBuf>,
    /// Frames to render before the screenshot.
    pub screenshot_frames: u64,
    /// Where the project library lives (default: none, as in tests; the binary passes
    /// `--data-dir`, `HASE_DATA_DIR` or the platform directory).
    pub library: LibraryLocation,
    /// Actions carried out on the first frame (`--run`, `--compare-example`).
    pub start_actions: Vec<AppAction>,
    /// A trace file opened in the replay views on the first frame (`--trace`, e.g. a prediction
    /// `hase mpi predict -o` wrote).
    pub trace: Option<PathBuf>,
}

pub(super) struct Screenshot {
    pub(super) path: PathBuf,
    pub(super) after_frames: u64,
    pub(super) requested: bool,
    pub(super) done: Arc<AtomicBool>,
}

/// The hase desktop application.
pub struct App {
    /// Document, selection, log, settings.
    pub editor: Editor,
    /// The canvas panel.
    pub canvas: Canvas,
    /// The dock panel.
    pub dock: Dock,
    /// Runs, the animator and the timing diagram.
    pub session: Session,
    /// The comparison's canvases.
    pub compare_views: crate::ui::compare::CompareViews,
    /// Result of the last PNG export of the timing diagram, written by the screenshot callback.
    pub(super) export_result: crate::ui::timing::export::ExportResult,
    pub(super) images: StateImages,
    pub(super) main_map: MapCache,
    pub(super) inspector: Inspector,
    pub(super) palette_panel: PalettePanel,
    pub(super) icons: Icons,
    pub(super) tasks: Tasks,
    /// Question waiting for an answer about unsaved changes.
    pub pending: Option<UnsavedQuestion>,
    pub(super) after_save: Option<UnsavedQuestion>,
    pub(super) allow_close: bool,
    pub(super) title: String,
    pub(super) theme_applied: Option<ThemeChoice>,
    pub(super) screenshot: Option<Screenshot>,
    pub(super) paste_count: u32,
    pub(super) frames: u64,
    /// The project library (sled store) and the autosave schedule.
    pub library: Library,
    /// Windows and dialogs over the panels.
    pub windows: Windows,
    /// File dialogs (the desktop's, or hase's own where there is none).
    pub files: crate::file_dialog::FileDialogs,
    pub(super) memory: status::MemoryGauge,
    pub(super) start_actions: Vec<AppAction>,
    pub(super) start_trace: Option<PathBuf>,
    /// The size check before a run of the design (estimate, big-run question, measured rates).
    pub run_size: hase_editor::run::size_check::RunSize,
    /// The window's area below its menu and run toolbar and above its status bar, where windows
    /// such as Experiments stay (set each frame once those bars are laid out).
    pub(crate) below_bars: egui::Rect,
}
