//! The run toolbar under the menu: Run and Stop, the trace level, the seed and the run-until time
//! (with units, checked as typed), and the comparison's Close button when one is open.

use egui::{RichText, Ui};

use crate::actions::Action;
use crate::run::{RunSettings, Session, Slot};
use crate::theme::Palette;

fn level_name(level: u8) -> &'static str {
    match level {
        1 => "1 · everything",
        2 => "2 · messages",
        3 => "3 · updates",
        4 => "4 · states",
        _ => "5 · summary",
    }
}

/// Show the toolbar; returns the actions chosen.
pub fn show(ui: &mut Ui, session: &mut Session, palette: &Palette) -> Vec<Action> {
    let mut out = Vec::new();
    let comparing = session.compare.is_some();
    let running = if comparing {
        session.running(Slot::Compare(0)) || session.running(Slot::Compare(1))
    } else {
        session.running(Slot::Main)
    };
    ui.horizontal(|ui| {
        let run = ui.add_enabled(!running, egui::Button::new(RichText::new("▶ Run").monospace().strong()));
        if run
            .on_hover_text(if comparing { "Run both designs (F5)" } else { "Run the design (F5)" })
            .clicked()
        {
            out.push(Action::Run);
        }
        if ui
            .add_enabled(!session.live.is_empty(), egui::Button::new(RichText::new("■ Stop").monospace()))
            .on_hover_text("Stop the run (Shift+F5)")
            .clicked()
        {
            out.push(Action::Stop);
        }
        ui.separator();
        settings(ui, &mut session.settings, palette);
        if comparing {
            ui.separator();
            if ui.button("Close comparison").clicked() {
                out.push(Action::CloseCompare);
            }
        }
    });
    out
}

fn settings(ui: &mut Ui, s: &mut RunSettings, palette: &Palette) {
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
    let label = ui.label("seed");
    ui.add(egui::DragValue::new(&mut s.seed).speed(1.0)).labelled_by(label.id);
    ui.label("run until");
    let field = ui
        .add(egui::TextEdit::singleline(&mut s.until_text).hint_text("end (e.g. 2.5ms)").desired_width(90.0));
    match s.until() {
        Ok(_) => {
            field.on_hover_text(
                "Stop at this simulated time; empty runs to the end. Units: ps, ns, us, ms, s.",
            );
        }
        Err(e) => {
            ui.label(RichText::new(e).color(palette.error));
        }
    }
}

fn menu_item(ui: &mut Ui, text: &str, action: Action, out: &mut Vec<Action>) {
    if ui.button(text).clicked() {
        out.push(action);
        ui.close();
    }
}

/// File ▸ Open example: the ready-made comparison.
pub fn examples_menu(ui: &mut Ui, out: &mut Vec<Action>) {
    ui.menu_button("Open example", |ui| {
        menu_item(ui, "Compare: fat tree vs binary tree", Action::CompareExample, out);
    });
}

/// Simulate ▸ Open trace….
pub fn trace_item(ui: &mut Ui, out: &mut Vec<Action>) {
    menu_item(ui, "Open trace…", Action::OpenTrace, out);
}

/// Simulate ▸ Compare.
pub fn compare_menu(ui: &mut Ui, out: &mut Vec<Action>) {
    ui.menu_button("Compare", |ui| {
        menu_item(ui, "Fat tree vs binary tree (example)", Action::CompareExample, out);
        menu_item(ui, "This design with a project file…", Action::CompareWithFile, out);
        menu_item(ui, "This design with different settings…", Action::CompareVariant, out);
        menu_item(ui, "Close comparison", Action::CloseCompare, out);
    });
}

/// The run part of the status bar: a progress bar with simulated time and events per second while
/// running, the last outcome otherwise.
pub fn status(ui: &mut Ui, session: &Session) {
    if session.live.is_empty() {
        match &session.current {
            Some(run) => {
                ui.label(format!(
                    "last run: {} at {}",
                    run.stats.outcome,
                    hase_engine::time::SimTime(run.stats.makespan_ps)
                ));
            }
            None => {
                ui.weak("no simulation run");
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
