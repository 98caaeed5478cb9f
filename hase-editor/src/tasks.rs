//! Background work: anything that may take longer than a frame (file dialogs, reading and writing
//! project files; later simulation runs and sweeps) runs on its own thread and reports back through
//! a channel that the app polls every frame. Nothing here blocks the UI thread; a finished task
//! wakes the UI through the [`Waker`] the app installs (egui's repaint request).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};

use hase_engine::model::Project;

use crate::document::NetworkId;
use crate::experiments::ExperimentFileRequest;
use crate::run::ReplayFile;
use hase_engine::model::ProjectFileError;

/// What a file chosen in a dialog is for.
#[derive(Clone, Debug, PartialEq)]
pub enum FilePurpose {
    /// Open it as a project.
    OpenProject,
    /// Save the project to it.
    SaveProjectAs,
    /// Set a file parameter of these instances to it.
    Param {
        /// Network of the instances.
        net: NetworkId,
        /// Instances whose parameter is set.
        instances: Vec<String>,
        /// Parameter name.
        param: String,
    },
    /// Read it and store it in the project library (or open it, without a library).
    ImportRon,
    /// Write the project to it as RON.
    ExportRon {
        /// File name the dialog suggests.
        file_name: String,
    },
    /// Bind it as the instruction stream of a rank.
    StreamFile {
        /// The rank.
        rank: u32,
    },
    /// Use it as the SimGrid time-independent trace workload.
    TraceFile,
    /// Import it as a SimGrid platform, paying routes' latency as `latency` says.
    ImportSimgrid(hase_library::import::simgrid::LatencyModel),
}

/// What a file dialog is for: the project and its workload, or the replay views.
#[derive(Clone, Debug, PartialEq)]
pub enum FileTarget {
    /// Project files, parameters and workload files.
    Project(FilePurpose),
    /// Exports of the timing diagram, a project to compare with, a trace to open.
    Replay(ReplayFile),
    /// Specs, exports and imports of the experiments view.
    Experiment(crate::experiments::ExperimentFileRequest),
}

/// A file dialog to open.
#[derive(Clone, Debug, PartialEq)]
pub struct FileRequest {
    /// What the file is for.
    pub target: FileTarget,
    /// File extensions offered (empty: any file).
    pub extensions: Vec<String>,
}

impl FileRequest {
    /// A dialog for a project file of `purpose`, offering `extensions`.
    pub fn project(purpose: FilePurpose, extensions: Vec<String>) -> Self {
        FileRequest { target: FileTarget::Project(purpose), extensions }
    }

    /// A dialog for a file of the replay views.
    pub fn replay(purpose: ReplayFile) -> Self {
        let extensions: &[&str] = match &purpose {
            ReplayFile::ExportPng => &["png"],
            ReplayFile::ExportCsv(_) => &["csv"],
            ReplayFile::CompareWith => &["ron"],
            ReplayFile::ExportTrace { format, source: Some(_) } => {
                hase_engine::trace::exporter(format).map_or(&[][..], |e| &e.extensions[..1])
            }
            ReplayFile::OpenTrace
            | ReplayFile::CompareTraces { .. }
            | ReplayFile::ExportTrace { source: None, .. } => &["trace", "htrace", "htb", "gz", "txt"],
            ReplayFile::OpenRecording => &["htb", "ti", "csv"],
        };
        FileRequest {
            target: FileTarget::Replay(purpose),
            extensions: extensions.iter().map(|e| (*e).to_string()).collect(),
        }
    }

    /// True if the dialog chooses a file to write (else one to read).
    pub fn saves(&self) -> bool {
        matches!(
            self.target,
            FileTarget::Project(FilePurpose::SaveProjectAs | FilePurpose::ExportRon { .. })
                | FileTarget::Replay(
                    ReplayFile::ExportPng
                        | ReplayFile::ExportCsv(_)
                        | ReplayFile::ExportTrace { source: Some(_), .. }
                )
                | FileTarget::Experiment(
                    ExperimentFileRequest::SaveSpec
                        | ExperimentFileRequest::ExportCsv(_)
                        | ExperimentFileRequest::ExportRon(_)
                        | ExperimentFileRequest::PlotPng
                        | ExperimentFileRequest::PlotCsv(_)
                        | ExperimentFileRequest::ResultsCsv(_)
                )
        )
    }

    /// A dialog for a file of the experiments view.
    pub fn experiment(purpose: ExperimentFileRequest) -> Self {
        let extension = match &purpose {
            ExperimentFileRequest::SaveSpec
            | ExperimentFileRequest::LoadSpec
            | ExperimentFileRequest::ExportRon(_)
            | ExperimentFileRequest::Import
            | ExperimentFileRequest::SlurmJob => "ron",
            ExperimentFileRequest::ExportCsv(_)
            | ExperimentFileRequest::PlotCsv(_)
            | ExperimentFileRequest::ResultsCsv(_) => "csv",
            ExperimentFileRequest::PlotPng => "png",
        };
        FileRequest { target: FileTarget::Experiment(purpose), extensions: vec![extension.to_string()] }
    }

    /// The file name a save dialog suggests.
    pub fn suggested_name(&self) -> Option<String> {
        match &self.target {
            FileTarget::Project(FilePurpose::SaveProjectAs) => Some("project.ron".into()),
            FileTarget::Project(FilePurpose::ExportRon { file_name }) => Some(file_name.clone()),
            FileTarget::Replay(ReplayFile::ExportPng) => Some("timing.png".into()),
            FileTarget::Replay(ReplayFile::ExportCsv(_)) => Some("interval.csv".into()),
            FileTarget::Replay(ReplayFile::ExportTrace { format, source: Some(source) }) => {
                let stem = source.file_stem().map_or("trace".into(), |s| s.to_string_lossy().into_owned());
                let ext = hase_engine::trace::exporter(format).map_or("out", |e| e.extensions[0]);
                Some(format!("{stem}.{ext}"))
            }
            FileTarget::Experiment(ExperimentFileRequest::SaveSpec) => Some("experiment.sweep.ron".into()),
            FileTarget::Experiment(ExperimentFileRequest::ExportCsv(id)) => {
                Some(format!("experiment-{id}.csv"))
            }
            FileTarget::Experiment(ExperimentFileRequest::ExportRon(id)) => {
                Some(format!("experiment-{id}.ron"))
            }
            FileTarget::Experiment(ExperimentFileRequest::PlotPng) => Some("plot.png".into()),
            FileTarget::Experiment(ExperimentFileRequest::PlotCsv(_)) => Some("plot.csv".into()),
            FileTarget::Experiment(ExperimentFileRequest::ResultsCsv(_)) => Some("results.csv".into()),
            _ => None,
        }
    }
}

/// What a finished task reports.
#[derive(Debug)]
pub enum TaskOutput {
    /// A view asked for a file: the app opens the dialog (the desktop's or its own).
    FileWanted(FileRequest),
    /// A desktop file dialog closed.
    FileDialogClosed {
        /// What it was opened for.
        request: FileRequest,
        /// The chosen file (`None`: cancelled, or no dialog could be shown).
        path: Option<PathBuf>,
        /// False if it closed without a file faster than a person answers: the desktop has no
        /// dialog to show (no XDG desktop portal), so the app falls back to its own.
        shown: bool,
    },
    /// A project file was read.
    ProjectOpened {
        /// The file.
        path: PathBuf,
        /// The project, or why it could not be read.
        result: Result<Box<Project>, ProjectFileError>,
    },
    /// A SimGrid platform was imported.
    PlatformImported {
        /// The platform file.
        path: PathBuf,
        /// The project, its summary and notes (`file:line: note`), or why it could not be imported.
        result: Result<(Box<Project>, String, Vec<String>), ImportTaskError>,
    },
    /// Background work of the runs and replay views (see `run::ReplayOutput`).
    Replay(Box<crate::run::ReplayOutput>),
    /// An analysis the timing diagram asked for, worked out (`session::AnalysisJob`): the command
    /// that keeps it.
    Analysis(crate::session::timing::TimingCommand),
    /// A project file was written.
    ProjectSaved {
        /// The file.
        path: PathBuf,
        /// History revision that was saved.
        revision: u64,
        /// Success, or why it failed.
        result: Result<(), ProjectFileError>,
    },
    /// A project library task finished.
    Library(Box<crate::project_store::output::LibraryOutput>),
}

/// Why a SimGrid platform file was not imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportTaskError {
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] std::io::Error),
    /// The file is larger than the importer takes.
    #[error("{size} bytes is larger than the {limit}-byte limit")]
    TooLarge {
        /// The file's size.
        size: u64,
        /// The importer's limit.
        limit: usize,
    },
    /// The importer refused the platform (naming its line).
    #[error(transparent)]
    Import(#[from] hase_library::import::simgrid::ImportError),
}

/// Wakes the UI when a task has finished (the app installs egui's repaint request).
#[derive(Clone)]
pub struct Waker(Arc<dyn Fn() + Send + Sync>);

impl Waker {
    /// A waker that calls `wake`.
    pub fn new(wake: impl Fn() + Send + Sync + 'static) -> Self {
        Waker(Arc::new(wake))
    }

    /// Wake the UI.
    pub fn wake(&self) {
        (self.0)();
    }
}

impl Default for Waker {
    /// Wakes nothing (tests and headless use poll on their own).
    fn default() -> Self {
        Waker::new(|| {})
    }
}

impl std::fmt::Debug for Waker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Waker")
    }
}

/// Spawns tasks and collects what they report.
pub struct Tasks {
    sender: Sender<TaskOutput>,
    receiver: Receiver<TaskOutput>,
    running: Arc<AtomicUsize>,
    waker: Waker,
}

impl Default for Tasks {
    fn default() -> Self {
        let (sender, receiver) = channel();
        Tasks { sender, receiver, running: Arc::new(AtomicUsize::new(0)), waker: Waker::default() }
    }
}

impl Tasks {
    /// Wake the UI through `waker` whenever a task finishes.
    pub fn set_waker(&mut self, waker: Waker) {
        self.waker = waker;
    }

    /// Run `work` on a new thread; its output arrives through [`Tasks::poll`] and wakes the UI.
    pub fn spawn(&self, name: &str, work: impl FnOnce() -> TaskOutput + Send + 'static) {
        let sender = self.sender.clone();
        let running = Arc::clone(&self.running);
        let waker = self.waker.clone();
        running.fetch_add(1, Ordering::SeqCst);
        let spawned = std::thread::Builder::new().name(format!("hase-{name}")).spawn(move || {
            let output = work();
            running.fetch_sub(1, Ordering::SeqCst);
            // The receiver only disappears when the app is closing.
            let _ = sender.send(output);
            waker.wake();
        });
        if spawned.is_err() {
            self.running.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// Ask the app for a file dialog (reported through [`Tasks::poll`] on the next frame, so a
    /// view that holds only the tasks can ask).
    pub fn ask_file(&self, request: FileRequest) {
        // The receiver only disappears when the app is closing.
        let _ = self.sender.send(TaskOutput::FileWanted(request));
        self.waker.wake();
    }

    /// Read a project file off the UI thread.
    pub fn open_project(&self, path: PathBuf) {
        self.spawn("open", move || {
            let result = hase_library::generated::load_project(&path).map(Box::new);
            TaskOutput::ProjectOpened { path, result }
        });
    }

    /// Import a SimGrid platform file off the UI thread.
    pub fn import_simgrid(&self, path: PathBuf, latency: hase_library::import::simgrid::LatencyModel) {
        self.spawn("import", move || {
            use hase_library::import::simgrid::{ImportOptions, MAX_PLATFORM_BYTES, import_simgrid};
            let shown = path.display().to_string();
            let read = || -> Result<(Box<Project>, String, Vec<String>), ImportTaskError> {
                let size = std::fs::metadata(&path)?.len();
                if size > MAX_PLATFORM_BYTES as u64 {
                    return Err(ImportTaskError::TooLarge { size, limit: MAX_PLATFORM_BYTES });
                }
                let text = hase_engine::limits::read_capped(&path, MAX_PLATFORM_BYTES as u64)
                    .map_err(hase_engine::limits::CappedReadError::into_io)?;
                let options = ImportOptions { latency, ..ImportOptions::default() };
                let imported = import_simgrid(&text, &shown, &options)?;
                let notes =
                    imported.notes.iter().map(|n| format!("{shown}:{}: {}", n.line, n.text)).collect();
                Ok((Box::new(imported.project), imported.summary, notes))
            };
            TaskOutput::PlatformImported { result: read(), path }
        });
    }

    /// Write a project file off the UI thread.
    pub fn save_project(&self, project: Project, path: PathBuf, revision: u64) {
        self.spawn("save", move || {
            let result = hase_library::generated::save_project(&project, &path);
            TaskOutput::ProjectSaved { path, revision, result }
        });
    }

    /// Everything finished since the last call.
    pub fn poll(&self) -> Vec<TaskOutput> {
        self.receiver.try_iter().collect()
    }

    /// Number of tasks still running.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::demo_project;

    fn wait(tasks: &Tasks) -> TaskOutput {
        for _ in 0..500 {
            if let Some(out) = tasks.poll().pop() {
                return out;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        panic!("task did not finish in 5 s");
    }

    #[test]
    fn saves_and_reopens_a_project_off_the_ui_thread() {
        let tasks = Tasks::default();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("demo.ron");
        tasks.save_project(demo_project(), path.clone(), 7);
        let TaskOutput::ProjectSaved { revision, result, .. } = wait(&tasks) else { panic!() };
        assert_eq!(revision, 7);
        result.unwrap();
        tasks.open_project(path);
        let TaskOutput::ProjectOpened { result, .. } = wait(&tasks) else { panic!() };
        assert_eq!(*result.unwrap(), demo_project());
        assert_eq!(tasks.running(), 0);
    }

    #[test]
    fn a_generated_network_saves_as_its_recipe_and_keeps_hand_edits() {
        use hase_engine::model::{ParamValue, Project};
        use hase_templates::{ProjectForm, TemplateSpec, Topology, template_project};

        use crate::command::{EditCommand, apply};
        use crate::document::{Document, NetworkId};

        let spec = TemplateSpec::new(Topology::Torus2D { x: 8, y: 8 });
        let registry = hase_entities::catalogue::builtin_registry();
        let generated = template_project(&spec, &registry, "torus", &ProjectForm::Flat).unwrap();
        let tasks = Tasks::default();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("torus.ron");
        let save_and_open = |project: Project| -> (String, Project) {
            tasks.save_project(project, path.clone(), 1);
            let TaskOutput::ProjectSaved { result, .. } = wait(&tasks) else { panic!() };
            result.unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            tasks.open_project(path.clone());
            let TaskOutput::ProjectOpened { result, .. } = wait(&tasks) else { panic!() };
            (text, *result.unwrap())
        };
        let (text, opened) = save_and_open(generated.clone());
        assert!(text.contains("network_from_recipe: true") && text.len() < 2_000, "{text}");
        assert_eq!(opened, generated, "the editor opens the network expanded");
        // A parameter edited in the editor is saved as a per-position override and comes back.
        let mut doc = Document::with_builtins(opened);
        let value = Some(ParamValue::Int(128));
        let edit = EditCommand::SetParam {
            net: NetworkId::Top,
            instance: "p9".into(),
            param: "max_packet".into(),
            value,
        };
        apply(&mut doc, edit).unwrap();
        let (text, opened) = save_and_open(doc.project.clone());
        assert!(text.contains("network_from_recipe: true") && text.contains("\"p9\""), "{text}");
        assert_eq!(opened.network, doc.project.network, "the edit survives saving");
        // Removing an instance is no override: the network is written in full, nothing is lost.
        let mut doc = Document::with_builtins(opened);
        apply(&mut doc, EditCommand::RemoveInstance { net: NetworkId::Top, name: "p3".into() }).unwrap();
        let (text, opened) = save_and_open(doc.project.clone());
        assert!(!text.contains("network_from_recipe"), "stored in full");
        assert!(!opened.network.instances.contains_key("p3"));
        assert_eq!(opened.network, doc.project.network);
        // A document made straight from the recipe form expands it.
        let compact = hase_library::generated::compact(&generated).unwrap();
        assert_eq!(Document::with_builtins(compact).project, generated);
    }

    #[test]
    fn a_broken_file_reports_where() {
        let tasks = Tasks::default();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.ron");
        std::fs::write(&path, "(\n  schema_version: 1,\n  name: oops\n)").unwrap();
        tasks.open_project(path);
        let TaskOutput::ProjectOpened { result, .. } = wait(&tasks) else { panic!() };
        let error = result.unwrap_err().to_string();
        assert!(error.contains("bad.ron:3:"), "{error}");
    }
}
