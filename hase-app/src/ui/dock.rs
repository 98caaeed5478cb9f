//! The bottom dock: tabs for messages (the log; a line about an entity reveals it when clicked),
//! the timing diagram and the run statistics. Later work adds experiments as a further tab.

use egui::{RichText, Ui};

use crate::session::Session;
use crate::state::{Editor, Level};
use crate::theme::{Palette, ReplayColours};

/// The dock's tabs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DockTab {
    /// Log lines: refused edits, file operations, design checks.
    #[default]
    Messages,
    /// Run statistics (after a simulation).
    Statistics,
    /// The timing diagram of the last run.
    Timing,
}

/// Dock state.
#[derive(Default)]
pub struct Dock {
    /// The open tab.
    pub tab: DockTab,
    /// Timing rows of the last run, which the dock is sized to show.
    pub fit_rows: usize,
    seen: usize,
}

impl Dock {
    /// Show the dock.
    pub fn show(&mut self, ui: &mut Ui, editor: &mut Editor, session: &mut Session, palette: &Palette) {
        let colours = ReplayColours::for_choice(editor.settings.theme);
        ui.add_space(2.0);
        ui.horizontal(|ui| {
            let unseen = editor.log.len().saturating_sub(self.seen);
            let messages = if unseen > 0 && self.tab != DockTab::Messages {
                format!("Messages ({unseen})")
            } else {
                "Messages".to_string()
            };
            ui.selectable_value(&mut self.tab, DockTab::Messages, messages);
            ui.selectable_value(&mut self.tab, DockTab::Timing, "Timing diagram");
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
                                match &line.path {
                                    Some(path) => {
                                        let link = ui.link(RichText::new(&line.text).color(colour));
                                        if link.on_hover_text(format!("Show {path} on the canvas")).clicked()
                                        {
                                            session.reveal_request = Some(path.clone());
                                        }
                                    }
                                    None => {
                                        ui.label(RichText::new(&line.text).color(colour));
                                    }
                                }
                            });
                        }
                    },
                );
            }
            DockTab::Statistics => {
                let run = match &session.compare {
                    Some(c) => {
                        ui.horizontal(|ui| {
                            for (i, side) in c.sides.iter().enumerate() {
                                ui.selectable_value(&mut session.stats_side, i, side.name());
                            }
                        });
                        c.sides.get(session.stats_side).and_then(|s| s.run.clone())
                    }
                    None => session.current.clone(),
                };
                crate::ui::stats::show(ui, run.as_deref(), &mut session.stats_view, &colours, palette);
            }
            DockTab::Timing => crate::ui::timing::tab::show_tab(ui, session, editor, &colours, palette),
        }
    }
}
