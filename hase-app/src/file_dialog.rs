//! File dialogs: the desktop's (rfd through the XDG desktop portal, off the UI thread) while it
//! works, hase's own ([`FileBrowser`], inside the window) where it does not. Where no portal runs (a
//! minimal or tiling-WM desktop, a remote X session, plain Xvfb) rfd answers "nothing chosen" at
//! once, which looks like a cancel; a desktop dialog that closes without a file faster than a person
//! could answer was never shown, so the app says so once and uses its own dialog from then on.
//! `HASE_FILE_DIALOG=builtin` chooses hase's own dialog from the start.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::theme::Palette;
use crate::ui::file_browser::{BrowserAnswer, FileBrowser};
use hase_editor::tasks::{FileRequest, TaskOutput, Tasks};

/// Said once, when the desktop's file dialog turns out not to be there.
pub const NO_PORTAL_NOTICE: &str = "No desktop file dialog answered (no XDG desktop portal runs here): hase uses its \
                                    own file dialog from now on.";

/// A desktop dialog answering "nothing" sooner than this was never shown.
pub const AT_ONCE: Duration = Duration::from_millis(400);

/// Which dialogs are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The desktop's (through rfd), until it turns out not to be there.
    Desktop,
    /// hase's own.
    InApp,
}

/// Asks the desktop for a file: blocks its (worker) thread until the dialog closes.
pub type DesktopDialog = fn(&FileRequest, Option<&Path>) -> Option<PathBuf>;

/// The desktop's dialog through rfd.
pub fn rfd_dialog(request: &FileRequest, start_dir: Option<&Path>) -> Option<PathBuf> {
    let mut dialog = rfd::FileDialog::new();
    if !request.extensions.is_empty() {
        dialog = dialog.add_filter("accepted", &request.extensions);
    }
    if let Some(dir) = start_dir {
        dialog = dialog.set_directory(dir);
    }
    match request.suggested_name() {
        Some(name) if request.saves() => dialog.set_file_name(name).save_file(),
        _ if request.saves() => dialog.save_file(),
        _ => dialog.pick_file(),
    }
}

/// A desktop without a file dialog (no portal): answers "nothing" at once.
pub fn no_desktop(_: &FileRequest, _: Option<&Path>) -> Option<PathBuf> {
    None
}

/// The app's file dialogs.
pub struct FileDialogs {
    /// Which dialogs are used.
    pub backend: Backend,
    /// How the desktop is asked (tests stand in a desktop without a portal).
    pub desktop: DesktopDialog,
    /// The user has been told that hase's own dialog is used.
    pub told: bool,
    open: Option<(FileRequest, FileBrowser)>,
}

impl Default for FileDialogs {
    fn default() -> Self {
        let builtin = std::env::var("HASE_FILE_DIALOG").is_ok_and(|v| v == "builtin");
        FileDialogs {
            backend: if builtin { Backend::InApp } else { Backend::Desktop },
            // Tests never open a desktop dialog: they stand in a desktop without a portal.
            desktop: if cfg!(test) { no_desktop } else { rfd_dialog },
            told: false,
            open: None,
        }
    }
}

impl FileDialogs {
    /// True while hase's own dialog is open.
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Open a dialog for `request`, starting in `start_dir`. The desktop's answers arrive as
    /// `TaskOutput::FileDialogClosed`; hase's own through [`FileDialogs::show`].
    pub fn ask(&mut self, tasks: &Tasks, request: FileRequest, start_dir: Option<PathBuf>) {
        match self.backend {
            Backend::InApp => self.open_in_app(request, start_dir),
            Backend::Desktop => {
                let desktop = self.desktop;
                tasks.spawn("file-dialog", move || {
                    let asked = Instant::now();
                    let path = desktop(&request, start_dir.as_deref());
                    let shown = path.is_some() || asked.elapsed() >= AT_ONCE;
                    TaskOutput::FileDialogClosed { request, path, shown }
                });
            }
        }
    }

    /// The desktop's dialog closed at once without a file: use hase's own from now on and open it
    /// for `request`. Returns true the first time (when the user is to be told).
    pub fn desktop_missing(&mut self, request: FileRequest, start_dir: Option<PathBuf>) -> bool {
        self.backend = Backend::InApp;
        self.open_in_app(request, start_dir);
        let first = !std::mem::replace(&mut self.told, true);
        if first && let Some((_, browser)) = self.open.as_mut() {
            browser.notice = Some(NO_PORTAL_NOTICE.to_string());
        }
        first
    }

    fn open_in_app(&mut self, request: FileRequest, start_dir: Option<PathBuf>) {
        let dir =
            start_dir.filter(|d| d.is_dir()).or_else(|| std::env::current_dir().ok()).unwrap_or_default();
        let name = request.suggested_name().unwrap_or_default();
        let browser =
            FileBrowser::new(title(&request), request.saves(), dir, name, request.extensions.clone());
        self.open = Some((request, browser));
    }

    /// Show hase's own dialog while it is open; returns the request and the file chosen (`None`:
    /// cancelled) once it closes.
    pub fn show(&mut self, ctx: &egui::Context, palette: &Palette) -> Option<(FileRequest, Option<PathBuf>)> {
        let (_, browser) = self.open.as_mut()?;
        let path = match browser.show(ctx, palette)? {
            BrowserAnswer::Chosen(path) => Some(path),
            BrowserAnswer::Cancel => None,
        };
        self.open.take().map(|(request, _)| (request, path))
    }

    /// hase's own dialog, while it is open.
    pub fn browser(&self) -> Option<&FileBrowser> {
        self.open.as_ref().map(|(_, b)| b)
    }
}

/// The title of hase's own dialog.
fn title(request: &FileRequest) -> &'static str {
    use hase_editor::run::ReplayFile;
    use hase_editor::tasks::{FilePurpose, FileTarget};
    match &request.target {
        FileTarget::Project(FilePurpose::OpenProject) => "Open a project (RON)",
        FileTarget::Project(FilePurpose::SaveProjectAs) => "Save the project as (RON)",
        FileTarget::Project(FilePurpose::ImportRon) => "Import a project (RON)",
        FileTarget::Project(FilePurpose::ImportSimgrid(_)) => "Import a SimGrid platform (XML)",
        FileTarget::Project(FilePurpose::ExportRon { .. }) => "Export the project (RON)",
        FileTarget::Project(FilePurpose::Param { .. }) => "Choose the parameter's file",
        FileTarget::Project(FilePurpose::StreamFile { .. }) => "Choose an instruction stream",
        FileTarget::Project(FilePurpose::TraceFile) => "Choose a time-independent trace",
        FileTarget::Replay(ReplayFile::ExportPng) => "Save the timing diagram (PNG)",
        FileTarget::Replay(ReplayFile::ExportCsv(_)) => "Save the O–X figures (CSV)",
        FileTarget::Replay(ReplayFile::CompareWith) => "Compare with a project file (RON)",
        FileTarget::Replay(ReplayFile::CompareTraces { chosen, wanted }) => match (chosen.len(), wanted) {
            (0, _) => "Compare traces: the left trace",
            (1, 3) => "Compare traces: the middle trace",
            _ => "Compare traces: the right trace",
        },
        FileTarget::Replay(ReplayFile::OpenRecording) => {
            "Open a recording: any file in its directory (real.htb)"
        }
        FileTarget::Replay(ReplayFile::OpenTrace) => "Open a trace",
        FileTarget::Replay(ReplayFile::ExportTrace { source: None, .. }) => {
            "Export a trace: the trace to read"
        }
        FileTarget::Replay(ReplayFile::ExportTrace { source: Some(_), .. }) => {
            "Export a trace: where to write"
        }
        FileTarget::Experiment(file) => crate::ui::experiments::file_title(file),
    }
}
