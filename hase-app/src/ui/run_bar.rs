//! The run toolbar under the menu: Run and Stop, the trace level, the seed and the run-until time
//! (with units, checked as typed), and the comparison's Close button when one is open. The settings
//! are the project's own: a finished edit comes back as new project settings for the app to apply
//! as a command (so it is undoable, saved with the project and shared with the inspector).

use egui::{RichText, Ui};

use hase_engine::model::RunSettings as ProjectRunSettings;

use crate::actions::AppAction;
use crate::theme::Palette;
use hase_editor::run::{NextRunSettings, RunSlot};
use hase_editor::session::{Session, SessionCommand};

fn level_name(level: u8) -> &'static str {
    match level {
        1 => "1 · everything",
        2 => "2 · messages",
        3 => "3 · updates",
        4 => "4 · states",
        _ => "5 · summary",
    }
}

/// What the toolbar asks for this frame.
#[derive(Debug, Default)]
pub struct ToolbarOutput {
    /// Actions chosen.
    pub actions: Vec<AppAction>,
    /// Changes of the session (the next run's settings as typed).
    pub commands: Vec<SessionCommand>,
    /// New project run settings, when an edit was finished (not while typing or dragging).
    pub settings: Option<ProjectRunSettings>,
}

/// Show the toolbar over the project's run settings `current`.
pub fn show(
    ui: &mut Ui,
    session: &Session,
    current: &ProjectRunSettings,
    palette: &Palette,
) -> ToolbarOutput {
    let mut out = Vec::new();
    let mut edited = None;
    let mut commands = Vec::new();
    let comparing = session.compare.is_some();
    let running = if comparing {
        session.running(RunSlot::Compare(0)) || session.running(RunSlot::Compare(1))
    } else {
        session.running(RunSlot::Main)
    };
    ui.horizontal(|ui| {
        let run = ui.add_enabled(!running, egui::Button::new(RichText::new("▶ Run").monospace().strong()));
        if run
            .on_hover_text(if comparing { "Run both designs (F5)" } else { "Run the design (F5)" })
            .clicked()
        {
            out.push(AppAction::Run);
        }
        if ui
            .add_enabled(!session.live.is_empty(), egui::Button::new(RichText::new("■ Stop").monospace()))
            .on_hover_text("Stop the run (Shift+F5)")
            .clicked()
        {
            out.push(AppAction::Stop);
        }
        ui.separator();
        let mut typed = session.settings.clone();
        edited = settings(ui, &mut typed, current, palette);
        if typed != session.settings {
            commands.push(SessionCommand::SetRunSettings(typed));
        }
        if comparing {
            ui.separator();
            if ui.button("Close comparison").clicked() {
                out.push(AppAction::CloseCompare);
            }
        }
    });
    ToolbarOutput { actions: out, commands, settings: edited }
}

/// The toolbar's fields; returns the project settings once an edit is finished and valid.
fn settings(
    ui: &mut Ui,
    s: &mut NextRunSettings,
    current: &ProjectRunSettings,
    palette: &Palette,
) -> Option<ProjectRunSettings> {
    let mut edited = None;
    let before_level = s.level;
    let label = ui.label("trace level");
    egui::ComboBox::from_id_salt("run-level")
        .width(110.0)
        .selected_text(level_name(s.level))
        .show_ui(ui, |ui| {
            for level in 1..=5 {
                ui.selectable_value(&mut s.level, level, level_name(level));
            }
        })
        .response
        .labelled_by(label.id);
    if s.level != before_level {
        edited = Some(ProjectRunSettings { trace_level: s.level, ..current.clone() });
    }
    let label = ui.label("seed");
    let seed = ui.add(egui::DragValue::new(&mut s.seed).speed(1.0)).labelled_by(label.id);
    let seed_done = seed.drag_stopped() || (seed.changed() && !seed.dragged()) || seed.lost_focus();
    if seed_done && s.seed != current.seed {
        edited = Some(ProjectRunSettings { seed: s.seed, ..current.clone() });
    }
    let label = ui.label("run until");
    let field = ui
        .add(
            egui::TextEdit::singleline(&mut s.until_text).hint_text("the end, or 2.5ms").desired_width(130.0),
        )
        .labelled_by(label.id);
    let until_done = field.lost_focus();
    match s.until() {
        Ok(until) => {
            field.on_hover_text(
                "Stop at this simulated time; empty runs to the end. Units: ps, ns, us, ms, s.",
            );
            if until_done && until != current.until {
                edited = Some(ProjectRunSettings { until, ..current.clone() });
            }
        }
        Err(e) => {
            ui.label(RichText::new(e.to_string()).color(palette.error));
        }
    }
    edited
}

fn menu_item(ui: &mut Ui, text: &str, action: AppAction, out: &mut Vec<AppAction>) {
    if ui.button(text).clicked() {
        out.push(action);
        ui.close();
    }
}

/// Simulate ▸ Open trace….
pub fn trace_item(ui: &mut Ui, out: &mut Vec<AppAction>) {
    menu_item(ui, "Open trace…", AppAction::OpenTrace, out);
}

/// Simulate ▸ Export trace ▸ one item per export format: asks for a trace file, then where to write.
pub fn export_trace_menu(ui: &mut Ui, out: &mut Vec<AppAction>) {
    ui.menu_button("Export trace", |ui| {
        for (i, e) in hase_engine::trace::EXPORTERS.iter().enumerate() {
            menu_item(ui, &format!("{}…", e.name), AppAction::ExportTrace(i), out);
        }
    });
}

/// Simulate ▸ Compare.
pub fn compare_menu(ui: &mut Ui, out: &mut Vec<AppAction>) {
    ui.menu_button("Compare", |ui| {
        menu_item(ui, "Fat tree vs binary tree (example)", AppAction::CompareExample, out);
        menu_item(ui, "This design with a project file…", AppAction::CompareWithFile, out);
        menu_item(ui, "This design with different settings…", AppAction::CompareVariant, out);
        menu_item(ui, "Two trace files…", AppAction::CompareTraces, out);
        menu_item(ui, "Three trace files…", AppAction::CompareThreeTraces, out);
        menu_item(ui, "Open recording…", AppAction::OpenRecording, out);
        menu_item(ui, "Close comparison", AppAction::CloseCompare, out);
    });
}

/// The run part of the status bar: a progress bar with simulated time and events per second while
/// running, the last outcome otherwise.
pub fn status(ui: &mut Ui, session: &Session) {
    if session.live.is_empty() {
        let shown = match &session.compare {
            Some(c) => c.sides.iter().filter_map(|s| s.run.as_ref()).collect::<Vec<_>>(),
            None => session.current.iter().collect(),
        };
        if shown.is_empty() {
            ui.weak("no simulation run");
        }
        // Right to left: the last run's events, then its outcome and end time.
        for run in shown.iter().rev() {
            let makespan = crate::ui::time_text::figure(hase_engine::time::SimTime(run.stats.makespan_ps));
            if session.compare.is_some() {
                // Both runs of a comparison, compactly (the bar is shared with the selection).
                ui.label(format!(
                    "{}: {} at {makespan} · {} events",
                    run.label, run.stats.outcome, run.stats.events
                ));
            } else {
                ui.weak(format!("{} events simulated", run.stats.events));
                ui.label(format!("last run: {} at {makespan}", run.stats.outcome));
            }
        }
        return;
    }
    for live in &session.live {
        let text = live.describe();
        match live.fraction() {
            Some(f) => {
                ui.add(egui::ProgressBar::new(f).desired_width(140.0).show_percentage());
            }
            None => {
                ui.spinner();
            }
        }
        ui.label(text);
    }
}
