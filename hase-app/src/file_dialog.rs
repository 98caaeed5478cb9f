//! The platform's file dialogs (rfd through the XDG desktop portal), opened off the UI thread; the
//! chosen file comes back as a `TaskOutput::FileChosen`.

use crate::tasks::{FilePurpose, TaskOutput, Tasks};

/// Open a file dialog off the UI thread.
pub fn pick_file(tasks: &Tasks, purpose: FilePurpose, extensions: Vec<String>) {
    tasks.spawn("file-dialog", move || {
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
