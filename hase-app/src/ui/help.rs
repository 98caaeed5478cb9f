//! The Help menu and its windows: the keyboard shortcuts (drawn from the same action table as the
//! menus, see `actions::MENUS`), a short first-steps guide, the documents shipped with hase
//! (embedded, so they are there wherever the binary is; their Markdown drawn by [`markdown`]:
//! headings, lists, code blocks, tables, links to each other and to the web), and About (version, licences).

use std::sync::Arc;

use egui::{Id, RichText, Ui, Window};

use crate::actions::{AppAction, HelpTopic, MENUS};
use crate::theme::Palette;
use crate::ui::markdown;

/// The documents shipped with hase: (menu text, file in the repository, text).
pub const DOCS: [(&str, &str, &str); 14] = [
    ("README: building, running, the command line", "README.md", include_str!("../../../README.md")),
    ("Experiments and sweeps", "docs/experiments.md", include_str!("../../../docs/experiments.md")),
    ("Trace analysis: diff, phases, stats", "docs/analysis.md", include_str!("../../../docs/analysis.md")),
    ("Python package", "docs/python.md", include_str!("../../../docs/python.md")),
    ("Trace file format", "docs/trace-format.md", include_str!("../../../docs/trace-format.md")),
    ("Instruction streams", "docs/streams.md", include_str!("../../../docs/streams.md")),
    ("SimGrid time-independent traces", "docs/ti-traces.md", include_str!("../../../docs/ti-traces.md")),
    ("SimGrid platform import", "docs/simgrid-import.md", include_str!("../../../docs/simgrid-import.md")),
    ("Collective algorithms", "docs/collectives.md", include_str!("../../../docs/collectives.md")),
    ("Data-sheet network models", "docs/datasheets.md", include_str!("../../../docs/datasheets.md")),
    ("Performance figures", "docs/performance.md", include_str!("../../../docs/performance.md")),
    (
        "The kernel: event order, runs on several cores",
        "docs/kernel.md",
        include_str!("../../../docs/kernel.md"),
    ),
    ("Input limits", "docs/limits.md", include_str!("../../../docs/limits.md")),
    ("Fuzzing", "docs/fuzzing.md", include_str!("../../../docs/fuzzing.md")),
];

/// The first-steps guide, one step a line.
pub const FIRST_STEPS: [(&str, &str); 6] = [
    (
        "Design",
        "Drag entity types or templates from the palette onto the canvas; drag from a port to a port to \
         link them. Double-click a compound to open it; the bar above the canvas leads back.",
    ),
    (
        "Run",
        "Simulate › Run (F5) runs the design; the status bar shows progress and Stop (Shift+F5) ends it. \
         A run estimated to be long or large asks first: run anyway, the first iteration only, or \
         states only. Problems are listed under Messages: click one to see its entity.",
    ),
    (
        "Play",
        "The replay bar under the canvas plays the run on the design (Space), steps event by event (left and right arrow keys) \
         and scrubs; links are tinted by their load and packets move along them.",
    ),
    (
        "Measure with O and X",
        "In the timing diagram press O and X over the bars (or click the ruler: left O, right X); the \
         readout shows both times and X − O, and 'O–X figures' the time per state between them. Click \
         a compound's triangle to unfold its rows; Fold all / Unfold all do every compound.",
    ),
    (
        "Compare",
        "Simulate › Compare shows two runs side by side on one clock: the fat tree against the binary \
         tree, this design against a project file, or this design with other settings.",
    ),
    (
        "Experiments",
        "Simulate › Experiments… sweeps parameters over ranges with repetitions and plots the results, \
         where this build has it; `hase run --set` scripts the same from the command line.",
    ),
];

/// Licences: hase's own and those of the main libraries it is built with.
pub const LICENCES: [(&str, &str); 10] = [
    ("hase", env!("CARGO_PKG_LICENSE")),
    ("egui, eframe (GUI)", "MIT OR Apache-2.0"),
    ("pulldown-cmark (documents)", "MIT"),
    ("sled (project library)", "MIT OR Apache-2.0"),
    ("rfd (desktop file dialogs)", "MIT"),
    ("serde, ron (project files)", "MIT OR Apache-2.0"),
    ("petgraph (elaboration)", "MIT OR Apache-2.0"),
    ("rayon (parallel runs)", "MIT OR Apache-2.0"),
    ("clap (command line)", "MIT OR Apache-2.0"),
    ("image (icons, screenshots)", "MIT OR Apache-2.0"),
];

/// The Help menu; returns the topic chosen.
pub fn menu(ui: &mut Ui, out: &mut Vec<AppAction>) {
    ui.menu_button("Help", |ui| {
        for topic in [HelpTopic::Shortcuts, HelpTopic::FirstSteps] {
            let action = AppAction::Help(topic);
            let mut button = egui::Button::new(action.label());
            if let Some(shortcut) = action.shortcut() {
                button = button.shortcut_text(ui.ctx().format_shortcut(&shortcut));
            }
            if ui.add(button).clicked() {
                out.push(action);
            }
        }
        ui.menu_button("Documentation", |ui| {
            for (i, (title, file, _)) in DOCS.iter().enumerate() {
                if ui.button(*title).on_hover_text(*file).clicked() {
                    out.push(AppAction::Help(HelpTopic::Doc(i)));
                }
            }
        });
        ui.separator();
        if ui.button(AppAction::Help(HelpTopic::About).label()).clicked() {
            out.push(AppAction::Help(HelpTopic::About));
        }
    });
}

/// The rows of the shortcut sheet: (menu, action, keys), keys as `ctx` writes them.
pub fn shortcut_rows(ctx: &egui::Context) -> Vec<(&'static str, &'static str, String)> {
    let mut rows = Vec::new();
    for (menu, actions) in MENUS {
        for action in actions {
            let keys: Vec<String> = [action.shortcut(), action.alternative()]
                .into_iter()
                .flatten()
                .map(|s| ctx.format_shortcut(&s))
                .collect();
            rows.push((menu, action.label(), keys.join(" or ")));
        }
    }
    rows
}

/// Show the open help window; `open` becomes `None` when it is closed.
pub fn show(ctx: &egui::Context, open: &mut Option<HelpTopic>, palette: &Palette) {
    let Some(topic) = *open else { return };
    let mut still_open = true;
    let title = match topic {
        HelpTopic::Doc(i) => DOCS.get(i).map_or("Documentation", |d| d.0),
        other => AppAction::Help(other).label(),
    };
    // Beside the palette, not over it.
    let at = ctx.content_rect().min + egui::vec2(crate::ui::palette::PALETTE_WIDTH + 16.0, 60.0);
    let mut next = None;
    Window::new(title)
        .id(Id::unique("hase-help"))
        .open(&mut still_open)
        .collapsible(false)
        .default_pos(at)
        .default_size([620.0, 520.0])
        .show(ctx, |ui| match topic {
            HelpTopic::Shortcuts => shortcuts(ui),
            HelpTopic::FirstSteps => first_steps(ui, palette),
            HelpTopic::Doc(i) => next = document(ui, i),
            HelpTopic::About => about(ui),
        });
    if !still_open {
        *open = None;
    } else if let Some(i) = next {
        // A link to another shipped document opens it in the same window.
        *open = Some(HelpTopic::Doc(i));
    }
}

fn shortcuts(ui: &mut Ui) {
    let rows = shortcut_rows(ui.ctx());
    egui::ScrollArea::vertical().show(ui, |ui| {
        egui::Grid::new("shortcut-sheet").striped(true).num_columns(3).show(ui, |ui| {
            let mut last = "";
            for (menu, label, keys) in rows {
                if menu == last {
                    ui.label("");
                } else {
                    ui.strong(menu);
                    last = menu;
                }
                ui.label(label);
                ui.monospace(keys);
                ui.end_row();
            }
        });
        ui.add_space(6.0);
        ui.weak(
            "Over the timing diagram: O and X place the cursors, Z zooms to O–X, the wheel zooms, \
             Shift+wheel pans, Alt+wheel scrolls the rows. Over the canvas: the wheel zooms about \
             the pointer, Shift+wheel pans sideways, Alt+wheel up and down, a right or middle drag \
             pans. Escape closes the window on top.",
        );
    });
}

fn first_steps(ui: &mut Ui, palette: &Palette) {
    egui::ScrollArea::vertical().show(ui, |ui| {
        for (i, (step, text)) in FIRST_STEPS.iter().enumerate() {
            ui.label(RichText::new(format!("{}. {step}", i + 1)).strong().color(palette.accent));
            ui.label(*text);
            ui.add_space(6.0);
        }
    });
}

/// Show document `index`; returns the shipped document a click on a link asks for.
fn document(ui: &mut Ui, index: usize) -> Option<usize> {
    let (_, file, text) = DOCS.get(index)?;
    ui.weak(format!("{file} (shipped with hase)"));
    ui.separator();
    // Read once per document: its blocks, with the characters egui's fonts cannot draw (maths
    // symbols, arrows) as `?` rather than as boxes.
    let id = Id::unique(("hase-doc-blocks", index));
    let blocks = ui.ctx().memory_mut(|m| m.data.get_temp::<Arc<Vec<markdown::Block>>>(id));
    let blocks = blocks.unwrap_or_else(|| {
        let read = Arc::new(markdown::blocks(&drawable_text(ui.ctx(), text)));
        ui.ctx().memory_mut(|m| m.data.insert_temp(id, Arc::clone(&read)));
        read
    });
    let clicked = egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| markdown::show(ui, &blocks))
        .inner;
    match clicked? {
        markdown::LinkClicked::Web(url) => {
            ui.ctx().open_url(egui::OpenUrl::new_tab(url));
            None
        }
        markdown::LinkClicked::Relative(path) => shipped_document(file, &path),
    }
}

/// The shipped document a relative link `path` in `from` names (`analysis.md`,
/// `docs/analysis.md#phases`, `../README.md`), if it is one.
fn shipped_document(from: &str, path: &str) -> Option<usize> {
    let path = path.split('#').next().unwrap_or(path);
    let base = std::path::Path::new(from).parent().unwrap_or(std::path::Path::new(""));
    let mut parts: Vec<&str> = base.iter().filter_map(|p| p.to_str()).collect();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    let wanted = parts.join("/");
    DOCS.iter().position(|(_, file, _)| *file == wanted)
}

/// `text` with every character egui's fonts cannot draw (in either family) replaced by `?`.
fn drawable_text(ctx: &egui::Context, text: &str) -> String {
    let fonts = [egui::FontId::monospace(12.0), egui::FontId::proportional(12.0)];
    ctx.fonts_mut(|f| {
        text.chars()
            .map(|c| if c.is_control() || fonts.iter().all(|font| f.has_glyph(font, c)) { c } else { '?' })
            .collect()
    })
}

fn about(ui: &mut Ui) {
    ui.heading(format!("hase {}", env!("CARGO_PKG_VERSION")));
    ui.label(
        "Design parallel architectures and see how parallel programs run on them before anyone runs \
         them on the real machine: a revival of HASE, the Hierarchical Architecture Simulation Environment.",
    );
    ui.add_space(8.0);
    ui.strong("Licences");
    egui::Grid::new("licences").striped(true).show(ui, |ui| {
        for (what, licence) in LICENCES {
            ui.label(what);
            ui.monospace(licence);
            ui.end_row();
        }
    });
    ui.weak("Every other dependency's licence is in its crate; `cargo about` or Cargo.lock lists them.");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_links_find_the_shipped_documents() {
        let analysis = DOCS.iter().position(|d| d.1 == "docs/analysis.md").unwrap();
        let readme = DOCS.iter().position(|d| d.1 == "README.md").unwrap();
        assert_eq!(shipped_document("README.md", "docs/analysis.md#phases"), Some(analysis));
        assert_eq!(shipped_document("docs/experiments.md", "analysis.md"), Some(analysis));
        assert_eq!(shipped_document("docs/experiments.md", "../README.md"), Some(readme));
        assert_eq!(shipped_document("docs/experiments.md", "nowhere.md"), None);
    }
}
