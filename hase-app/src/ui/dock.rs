//! The bottom dock: tabs for messages (the log; a line about an entity reveals it when clicked),
//! the timing diagram and the run statistics. What the tabs ask of the session comes back as
//! commands.

use egui::{Rect, RichText, Ui};
use hase_editor::run::FinishedRun;
use hase_editor::session::compare::Compare;
use hase_editor::session::stats_order::StatsOrder;
use hase_editor::session::timing::TimingState;
use hase_editor::session::{Reveal, SessionCommand};
use hase_editor::state::{Editor, LogLevel};
use hase_engine::time::SimTime;

use crate::theme::{Palette, ReplayColours};
use crate::ui::stats::StatsContext;
use crate::ui::timing::TimingView;
use crate::ui::timing::tab::TabContext;

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
    /// Screen area of the timing diagrams in the last frame they were shown (what a PNG export
    /// saves).
    pub timing_area: Option<Rect>,
    /// The timing diagram's own view state (scroll, drag, what was fitted and highlighted).
    pub timing: TimingView,
    /// The dock's panel (its id: what it shows, and the rows it was sized for) in the last frame:
    /// when it changes, the canvas above changes size and the design is fitted into it again.
    pub shown: Option<(&'static str, usize)>,
    seen: usize,
}

/// What the dock shows: the editor's log and the session's runs, read only.
pub struct DockContext<'a> {
    /// The editor (its log, its selection).
    pub editor: &'a Editor,
    /// The design's run.
    pub current: Option<&'a FinishedRun>,
    /// The comparison, when open.
    pub compare: Option<&'a Compare>,
    /// The animator's time.
    pub now: SimTime,
    /// The design's run is of an earlier version of the design.
    pub stale: bool,
    /// The statistics tables' order.
    pub stats_order: &'a StatsOrder,
    /// Which comparison side the statistics tab shows.
    pub stats_side: usize,
    /// The timing diagram's state kept in the session.
    pub timing: &'a TimingState,
    /// Editor colours.
    pub palette: &'a Palette,
}

/// What the dock asks for this frame.
#[derive(Debug, Default)]
pub struct DockOutput {
    /// Changes of the session.
    pub commands: Vec<SessionCommand>,
    /// The user cleared the log.
    pub clear_log: bool,
}

impl Dock {
    /// Show the dock.
    pub fn show(&mut self, ui: &mut Ui, cx: &DockContext<'_>) -> DockOutput {
        let DockContext { editor, palette, .. } = *cx;
        let mut out = DockOutput::default();
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
                        out.clear_log = true;
                        self.seen = 0;
                    }
                });
            }
        });
        ui.separator();
        match self.tab {
            DockTab::Messages => {
                self.seen = editor.log.len();
                messages(ui, editor, palette, &mut out.commands);
            }
            DockTab::Statistics => {
                let run = match cx.compare {
                    Some(c) => {
                        ui.horizontal(|ui| {
                            for (i, side) in c.sides.iter().enumerate() {
                                if ui.selectable_label(cx.stats_side == i, side.name()).clicked() {
                                    out.commands.push(SessionCommand::ShowStatsOf(i));
                                }
                            }
                        });
                        c.sides.get(cx.stats_side).and_then(|s| s.run.as_deref())
                    }
                    None => cx.current,
                };
                let cx = StatsContext { run, order: cx.stats_order, colours: &colours, palette };
                out.commands.extend(crate::ui::stats::show(ui, &cx));
            }
            DockTab::Timing => {
                let cx_timing = cx.timing;
                let cx = TabContext {
                    current: cx.current,
                    compare: cx.compare,
                    editor,
                    now: cx.now,
                    stale: cx.stale,
                    colours: &colours,
                    palette,
                };
                let (commands, area) =
                    crate::ui::timing::tab::show_tab(ui, (cx_timing, &mut self.timing), &cx);
                out.commands.extend(commands);
                if area.is_some() {
                    self.timing_area = area;
                }
            }
        }
        out
    }
}

/// The log, newest at the bottom; a line about an entity is a link that reveals it.
fn messages(ui: &mut Ui, editor: &Editor, palette: &Palette, commands: &mut Vec<SessionCommand>) {
    egui::ScrollArea::vertical().auto_shrink([false, false]).stick_to_bottom(true).show(ui, |ui| {
        if editor.log.is_empty() {
            ui.weak("No messages.");
        }
        for line in &editor.log {
            let colour = match line.level {
                LogLevel::Info => palette.info,
                LogLevel::Warning => palette.warning,
                LogLevel::Error => palette.error,
            };
            ui.horizontal(|ui| {
                ui.label(RichText::new(format!("{:>7.1} s", line.at_s)).monospace().weak());
                match &line.path {
                    Some(path) => {
                        let link = ui.link(RichText::new(&line.text).color(colour));
                        if link.on_hover_text(format!("Show {path} on the canvas")).clicked() {
                            commands.push(SessionCommand::Reveal(Reveal { side: None, path: path.clone() }));
                        }
                    }
                    None => {
                        ui.label(RichText::new(&line.text).color(colour));
                    }
                }
            });
        }
    });
}
