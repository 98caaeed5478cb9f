//! The state of the windows and dialogs over the main window ([`Windows`]: the template dialog, the
//! project browser, the Save-as name, the comparison's variant form, Help, Experiments, Check
//! levels …) and of a project waiting in them to replace the document ([`Incoming`]).

use std::path::PathBuf;

use hase_engine::model::Project;

use crate::ui::library_browser::LibraryBrowser;
use crate::ui::library_dialogs::SaveAsPrompt;
use crate::ui::template_dialog::TemplateDialog;

/// State of the windows the app shows over its panels.
#[derive(Default)]
pub struct Windows {
    /// Insert ▸ Network from template.
    pub template: TemplateDialog,
    /// File ▸ Open from library.
    pub browser: LibraryBrowser,
    /// File ▸ Save as (library).
    pub save_as: Option<SaveAsPrompt>,
    /// A project waiting to replace the document (after the unsaved-changes question).
    pub incoming: Option<Incoming>,
    /// Simulate ▸ Compare ▸ This design with different settings.
    pub variant: crate::ui::variant_dialog::VariantDialog,
    /// A network model's data sheet (inspector ▸ sheet ▸ View…).
    pub sheet_viewer: crate::ui::sheet_viewer::SheetViewer,
    /// The Help window open, if any.
    pub help: Option<crate::actions::HelpTopic>,
    /// Simulate ▸ Experiments.
    pub experiments: hase_editor::experiments::ExperimentsView,
    /// A point of an experiment waiting to open until its project has replaced the design
    /// (after the unsaved-changes question).
    pub pending_point: Option<hase_editor::experiments::PointRun>,
    /// Check levels on a compound (canvas menu, inspector).
    pub levels: hase_editor::analysis_views::LevelsCheck,
    /// Simulate ▸ Check simultaneous events.
    pub ties: hase_editor::analysis_views::TiesCheck,
    /// Where the plot's PNG export reports (written from the screenshot callback).
    pub plot_export: crate::ui::timing::export::ExportResult,
    /// The plot being drawn as a figure for Export plot PNG….
    pub figure: Option<crate::ui::experiments::figure::FigureExport>,
}

/// A project about to replace the document.
#[derive(Debug)]
pub struct Incoming {
    /// The project.
    pub project: Project,
    /// The RON file it was read from, if it lives in a file.
    pub file: Option<PathBuf>,
    /// The stored version it is (name, version), if it came from the library.
    pub version: Option<(String, u64)>,
    /// It holds changes never saved (a restored autosave).
    pub unsaved: bool,
    /// What to log once it is open.
    pub message: String,
    /// What the experiments view builds once it is open.
    pub sweep: SweepOnOpen,
}

/// What the experiments view builds once an incoming project is the design.
#[derive(Debug, Default)]
pub enum SweepOnOpen {
    /// The sweep last built for that project (told apart by name), or a new one.
    #[default]
    ItsOwn,
    /// The sweep being built stays (a point of the experiment, opened to look at).
    Keep,
    /// This spec (the example experiment's).
    Spec(Box<hase_library::experiment::SweepSpec>),
}
