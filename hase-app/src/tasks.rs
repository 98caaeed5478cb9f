//! Background work: anything that may take longer than a frame (file dialogs, reading and writing
//! project files; later simulation runs and sweeps) runs on its own thread and reports back through
//! a channel that the app polls every frame. Nothing here blocks the UI thread.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};

use hase_engine::model::Project;

use crate::document::NetworkId;

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
    /// Import it as a SimGrid platform.
    ImportSimgrid,
}

/// What a finished task reports.
#[derive(Debug)]
pub enum TaskOutput {
    /// A file dialog closed (`None` if cancelled).
    FileChosen {
        /// What the file is for.
        purpose: FilePurpose,
        /// The chosen file.
        path: Option<PathBuf>,
    },
    /// A project file was read.
    ProjectOpened {
        /// The file.
        path: PathBuf,
        /// The project, or why it could not be read.
        result: Result<Box<Project>, String>,
    },
    /// A SimGrid platform was imported.
    PlatformImported {
        /// The platform file.
        path: PathBuf,
        /// The project, its summary and notes (`file:line: note`), or why it could not be imported.
        result: Result<(Box<Project>, String, Vec<String>), String>,
    },
    /// Background work of the runs and replay views (see `run::ReplayOutput`).
    Replay(Box<crate::run::ReplayOutput>),
    /// A project file was written.
    ProjectSaved {
        /// The file.
        path: PathBuf,
        /// History revision that was saved.
        revision: u64,
        /// Success, or why it failed.
        result: Result<(), String>,
    },
    /// A project library task finished.
    Library(Box<crate::library::LibraryOutput>),
}

/// Spawns tasks and collects what they report.
pub struct Tasks {
    sender: Sender<TaskOutput>,
    receiver: Receiver<TaskOutput>,
    running: Arc<AtomicUsize>,
}

impl Default for Tasks {
    fn default() -> Self {
        let (sender, receiver) = channel();
        Tasks { sender, receiver, running: Arc::new(AtomicUsize::new(0)) }
    }
}

impl Tasks {
    /// Run `work` on a new thread; its output arrives through [`Tasks::poll`] and wakes the UI.
    pub fn spawn(&self, ctx: &egui::Context, name: &str, work: impl FnOnce() -> TaskOutput + Send + 'static) {
        let sender = self.sender.clone();
        let running = Arc::clone(&self.running);
        let ctx = ctx.clone();
        running.fetch_add(1, Ordering::SeqCst);
        let spawned = std::thread::Builder::new().name(format!("hase-{name}")).spawn(move || {
            let output = work();
            running.fetch_sub(1, Ordering::SeqCst);
            // The receiver only disappears when the app is closing.
            let _ = sender.send(output);
            ctx.request_repaint();
        });
        if spawned.is_err() {
            self.running.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// Open a file dialog off the UI thread.
    pub fn pick_file(&self, ctx: &egui::Context, purpose: FilePurpose, extensions: Vec<String>) {
        self.spawn(ctx, "file-dialog", move || {
            let mut dialog = rfd::FileDialog::new();
            if !extensions.is_empty() {
                dialog = dialog.add_filter("accepted", &extensions);
            }
            let path = match &purpose {
                FilePurpose::SaveProjectAs => dialog.set_file_name("project.ron").save_file(),
                FilePurpose::ExportRon { file_name } => dialog.set_file_name(file_name).save_file(),
                _ => dialog.pick_file(),
            };
            TaskOutput::FileChosen { purpose, path }
        });
    }

    /// Read a project file off the UI thread.
    pub fn open_project(&self, ctx: &egui::Context, path: PathBuf) {
        self.spawn(ctx, "open", move || {
            let result = hase_engine::model::load_project(&path).map(Box::new).map_err(|e| e.to_string());
            TaskOutput::ProjectOpened { path, result }
        });
    }

    /// Import a SimGrid platform file off the UI thread.
    pub fn import_simgrid(&self, ctx: &egui::Context, path: PathBuf) {
        self.spawn(ctx, "import", move || {
            use hase_library::import::simgrid::{ImportOptions, MAX_PLATFORM_BYTES, import_simgrid};
            let shown = path.display().to_string();
            let read = || -> Result<(Box<Project>, String, Vec<String>), String> {
                let size = std::fs::metadata(&path).map_err(|e| e.to_string())?.len();
                if size > MAX_PLATFORM_BYTES as u64 {
                    return Err(format!("{size} bytes is larger than the {MAX_PLATFORM_BYTES}-byte limit"));
                }
                let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
                let imported =
                    import_simgrid(&text, &shown, &ImportOptions::default()).map_err(|e| e.to_string())?;
                let notes =
                    imported.notes.iter().map(|n| format!("{shown}:{}: {}", n.line, n.text)).collect();
                Ok((Box::new(imported.project), imported.summary, notes))
            };
            TaskOutput::PlatformImported { result: read(), path }
        });
    }

    /// Write a project file off the UI thread.
    pub fn save_project(&self, ctx: &egui::Context, project: Project, path: PathBuf, revision: u64) {
        self.spawn(ctx, "save", move || {
            let result = hase_engine::model::save_project(&project, &path).map_err(|e| e.to_string());
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
        let ctx = egui::Context::default();
        let tasks = Tasks::default();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("demo.ron");
        tasks.save_project(&ctx, demo_project(), path.clone(), 7);
        let TaskOutput::ProjectSaved { revision, result, .. } = wait(&tasks) else { panic!() };
        assert_eq!(revision, 7);
        result.unwrap();
        tasks.open_project(&ctx, path);
        let TaskOutput::ProjectOpened { result, .. } = wait(&tasks) else { panic!() };
        assert_eq!(*result.unwrap(), demo_project());
        assert_eq!(tasks.running(), 0);
    }

    #[test]
    fn a_broken_file_reports_where() {
        let ctx = egui::Context::default();
        let tasks = Tasks::default();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.ron");
        std::fs::write(&path, "(\n  schema_version: 1,\n  name: oops\n)").unwrap();
        tasks.open_project(&ctx, path);
        let TaskOutput::ProjectOpened { result, .. } = wait(&tasks) else { panic!() };
        let error = result.unwrap_err();
        assert!(error.contains("bad.ron:3:"), "{error}");
    }
}
