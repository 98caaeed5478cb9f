//! "What if…": run the design again with a link, router or rank faster, from the menu of a blamed
//! row of the critical path's table or from the window the drawing's context menu opens on a link
//! or instance. Run again `n×` faster (every speed of it: a link's bandwidth and latency, an
//! instance's times and rates), one speed only, or any parameter set to a value; each is a
//! `hase run --set` line (`hase_library::what_if`) applied to a copy of the design beside the
//! design itself (`hase_editor::analysis_views::what_if`).

use egui::{RichText, Ui};
use hase_editor::analysis_views::what_if::{WhatIfMenu, WhatIfRequest};
use hase_engine::model::Project;
use hase_library::overrides::apply_set;
use hase_library::what_if::{Knob, Speed, Target, faster_line, faster_value, knobs, value_text};

use crate::theme::Palette;

/// What the what-if contents are drawn with.
pub struct WhatIfContext<'a> {
    /// The design.
    pub project: &'a Project,
    /// What the what-if changes.
    pub target: &'a Target,
    /// The menu's state.
    pub menu: &'a WhatIfMenu,
    /// Colours.
    pub palette: &'a Palette,
}

/// What the user did in the contents.
#[derive(Default)]
pub struct WhatIfAnswer {
    /// The menu's state changed (factor, typed line).
    pub menu: Option<WhatIfMenu>,
    /// Run this what-if.
    pub request: Option<WhatIfRequest>,
}

/// The typed `line`, a knob's `param=value` read as its full `--set` assignment.
fn resolve(line: &str, knobs: &[Knob]) -> String {
    let line = line.trim();
    match line.split_once('=') {
        Some((key, value)) => match knobs.iter().find(|k| k.param == key.trim()) {
            Some(k) => format!("{}={}", k.set_target, value.trim()),
            None => line.to_string(),
        },
        None => line.to_string(),
    }
}

/// The what-if choices for `cx.target`.
pub fn contents(ui: &mut Ui, cx: &WhatIfContext<'_>) -> WhatIfAnswer {
    let mut answer = WhatIfAnswer::default();
    ui.strong(format!("What if {} …", cx.target.describe()));
    let all = match knobs(cx.project, cx.target) {
        Ok(all) => all,
        Err(e) => {
            ui.label(RichText::new(e.to_string()).color(cx.palette.error));
            return answer;
        }
    };
    let mut menu = cx.menu.clone();
    ui.horizontal(|ui| {
        let label = ui.label("faster by ×");
        ui.add(egui::DragValue::new(&mut menu.factor).range(1.01..=1000.0).speed(0.05).max_decimals(2))
            .labelled_by(label.id);
    });
    let factor = menu.factor;
    let lines: Vec<String> = all.iter().filter_map(|k| faster_line(k, factor)).collect();
    let all_faster = ui
        .add_enabled(!lines.is_empty(), egui::Button::new(format!("Run again {factor}× faster")))
        .on_hover_text(format!("Every speed of it, as hase run takes them:\n{}", lines.join("\n")));
    if all_faster.clicked() {
        answer.request = Some(WhatIfRequest { lines });
        ui.close();
    }
    for knob in all.iter().filter(|k| k.speed != Speed::Other) {
        let Some(faster) = faster_value(&knob.value, knob.speed, factor) else { continue };
        let text =
            format!("only {} {} -> {}", knob.param, value_text(knob, &knob.value), value_text(knob, &faster));
        if ui.button(text).clicked() {
            answer.request = faster_line(knob, factor).map(|line| WhatIfRequest { lines: vec![line] });
            ui.close();
        }
    }
    ui.separator();
    let hint = all.first().map_or_else(String::new, |k| format!("{}={}", k.param, value_text(k, &k.value)));
    let label = ui.label("or set a parameter (param=value, or any --set line)");
    ui.add(egui::TextEdit::singleline(&mut menu.line).hint_text(hint).desired_width(300.0))
        .labelled_by(label.id);
    let line = resolve(&menu.line, &all);
    let checked = if line.is_empty() {
        None
    } else {
        Some(apply_set(&mut cx.project.clone(), &line).map(|()| line.clone()))
    };
    match &checked {
        Some(Ok(line)) => {
            ui.weak(format!("--set {line}"));
        }
        Some(Err(e)) => {
            ui.label(RichText::new(e.to_string()).color(cx.palette.error));
        }
        None => {}
    }
    if ui.add_enabled(matches!(checked, Some(Ok(_))), egui::Button::new("Run with this")).clicked()
        && let Some(Ok(line)) = checked
    {
        answer.request = Some(WhatIfRequest { lines: vec![line] });
        ui.close();
    }
    if menu != *cx.menu {
        answer.menu = Some(menu);
    }
    answer
}

/// The "What if…" window the drawing's context menu opens (for `menu.open`); returns what the
/// user did, with `menu.open` cleared when the window is closed or runs.
pub fn window(ctx: &egui::Context, project: &Project, menu: &WhatIfMenu, palette: &Palette) -> WhatIfAnswer {
    let Some(target) = &menu.open else { return WhatIfAnswer::default() };
    let mut open = true;
    let mut answer = WhatIfAnswer::default();
    egui::Window::new("What if…")
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .default_width(360.0)
        .show(ctx, |ui| answer = contents(ui, &WhatIfContext { project, target, menu, palette }));
    if !open || answer.request.is_some() {
        let mut closed = answer.menu.take().unwrap_or_else(|| menu.clone());
        closed.open = None;
        answer.menu = Some(closed);
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_parameter_name_reads_as_its_set_target() {
        let project = hase_library::examples::binary_tree_allreduce().unwrap().project;
        let (router, _) = project.network.instances.iter().find(|(_, i)| i.type_name == "Router").unwrap();
        let all = knobs(&project, &Target::Instance { path: router.clone() }).unwrap();
        assert_eq!(resolve(" routing_delay = 5ns ", &all), format!("{router}.routing_delay=5ns"));
        assert_eq!(resolve("workload.message_bytes=1K", &all), "workload.message_bytes=1K");
        assert_eq!(resolve("", &all), "");
    }
}
