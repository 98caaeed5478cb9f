//! The status bar: project and unsaved mark, where in the hierarchy, selection, zoom, the
//! process's memory, background tasks, and the run state (progress of a run in progress, or the
//! last run's outcome).

use std::time::{Duration, Instant};

use egui::Ui;

use hase_editor::session::Session;
use hase_editor::state::Editor;

/// The process's resident memory, read at most once a second (Linux: `/proc/self/status`).
#[derive(Debug, Default)]
pub struct MemoryGauge {
    read_at: Option<Instant>,
    bytes: Option<u64>,
}

impl MemoryGauge {
    /// Resident bytes (`None` where the system does not say).
    pub fn resident_bytes(&mut self) -> Option<u64> {
        if self.read_at.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
            self.read_at = Some(Instant::now());
            self.bytes = std::fs::read_to_string("/proc/self/status").ok().as_deref().and_then(vm_rss_bytes);
        }
        self.bytes
    }
}

/// The `VmRSS` line of a `/proc/<pid>/status` text, in bytes.
pub fn vm_rss_bytes(status: &str) -> Option<u64> {
    hase_library::process_memory::status_bytes(status, "VmRSS:")
}

/// Bytes with a binary prefix and three significant digits: `2.30 GiB`, `412 MiB`.
pub fn bytes_text(bytes: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    let decimals = if unit == 0 || value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.decimals$} {}", units[unit])
}

/// Show the status bar.
pub fn show(
    ui: &mut Ui,
    editor: &Editor,
    zoom: f32,
    running_tasks: usize,
    estimating: bool,
    session: &Session,
    memory: &mut MemoryGauge,
) {
    ui.horizontal(|ui| {
        let dirty = if editor.is_dirty() { " *" } else { "" };
        ui.label(format!("{}{dirty}", editor.doc.project.name));
        ui.separator();
        let mut path = vec!["top".to_string()];
        path.extend(editor.crumbs.iter().map(|c| c.instance.clone()));
        ui.label(path.join(" / "));
        ui.separator();
        let sel = &editor.selection;
        let selection = match (sel.instances.len(), sel.links.len()) {
            (0, 0) => "nothing selected".to_string(),
            (1, 0) => format!("selected: {}", sel.instances.iter().next().map_or("", String::as_str)),
            (n, 0) => format!("{n} entities selected"),
            (0, l) => format!("{l} link{} selected", if l == 1 { "" } else { "s" }),
            (n, l) => format!("{n} entities, {l} links selected"),
        };
        ui.label(selection);
        if let Some(t) = &editor.placing {
            ui.separator();
            ui.label(format!("placing {t}: click the canvas (Esc cancels)"));
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.label(format!("zoom {:.0}%", zoom * 100.0));
            ui.separator();
            if let Some(bytes) = memory.resident_bytes() {
                ui.label(format!("memory {}", bytes_text(bytes)))
                    .on_hover_text("Resident memory of hase (the traces of the runs shown are kept in it)");
                ui.separator();
            }
            crate::ui::run_bar::status(ui, session);
            if estimating {
                // A large design takes seconds to estimate before its run starts or asks.
                ui.separator();
                ui.spinner();
                ui.label("estimating the run…");
            }
            if running_tasks > 0 {
                ui.separator();
                ui.spinner();
                ui.label(format!(
                    "{running_tasks} task{} running",
                    if running_tasks == 1 { "" } else { "s" }
                ));
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_is_read_from_the_status_file_and_shown_with_three_digits() {
        let status = "Name:\thase\nVmPeak:\t 9000 kB\nVmRSS:\t 2411724 kB\nThreads:\t4\n";
        assert_eq!(vm_rss_bytes(status), Some(2_411_724 * 1024));
        assert_eq!(vm_rss_bytes("Name: x\n"), None);
        assert_eq!(bytes_text(2_411_724 * 1024), "2.30 GiB");
        assert_eq!(bytes_text(412 * 1024 * 1024), "412 MiB");
        assert_eq!(bytes_text(15_360), "15.0 KiB");
        assert_eq!(bytes_text(512), "512 B");
        // This process has a resident size where /proc exists.
        if std::path::Path::new("/proc/self/status").exists() {
            assert!(MemoryGauge::default().resident_bytes().is_some_and(|b| b > 0));
        }
    }
}
