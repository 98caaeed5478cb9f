//! The bottom dock: tabs for messages (the log) and statistics. Later work adds the timing diagram
//! and experiments as further tabs.

use egui::{RichText, Ui};

use crate::state::{Editor, Level};
use crate::theme::Palette;

/// The dock's tabs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DockTab {
    /// Log lines: refused edits, file operations, design checks.
    #[default]
    Messages,
    /// Run statistics (after a simulation).
    Statistics,
}

/// Dock state.
#[derive(Default)]
pub struct Dock {
    /// The open tab.
    pub tab: DockTab,
    seen: usize,
}

impl Dock {
    /// Show the dock.
    pub fn show(&mut self, ui: &mut Ui, editor: &mut Editor, palette: &Palette) {
        ui.add_space(2.0);
        ui.horizontal(|ui| {
            let unseen = editor.log.len().saturating_sub(self.seen);
            let messages = if unseen > 0 && self.tab != DockTab::Messages {
                format!("Messages ({unseen})")
            } else {
                "Messages".to_string()
            };
            ui.selectable_value(&mut self.tab, DockTab::Messages, messages);
            ui.selectable_value(&mut self.tab, DockTab::Statistics, "Statistics");
            if self.tab == DockTab::Messages {
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui.small_button("Clear").clicked() {
                        editor.log.clear();
                        self.seen = 0;
                    }
                });
            }
        });
        ui.separator();
        match self.tab {
            DockTab::Messages => {
                self.seen = editor.log.len();
                egui::ScrollArea::vertical().auto_shrink([false, false]).stick_to_bottom(true).show(
                    ui,
                    |ui| {
                        if editor.log.is_empty() {
                            ui.weak("No messages.");
                        }
                        for line in &editor.log {
                            let colour = match line.level {
                                Level::Info => palette.info,
                                Level::Warning => palette.warning,
                                Level::Error => palette.error,
                            };
                            ui.horizontal(|ui| {
                                ui.label(RichText::new(format!("{:>7.1} s", line.at_s)).monospace().weak());
                                ui.label(RichText::new(&line.text).color(colour));
                            });
                        }
                    },
                );
            }
            DockTab::Statistics => {
                ui.add_space(12.0);
                ui.vertical_centered(|ui| {
                    ui.weak("Run a simulation to see statistics.");
                });
            }
        }
    }
}
