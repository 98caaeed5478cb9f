//! Workflow tests of what a newcomer meets (egui_kittest): the Help menu (the shortcut sheet from
//! the action table, first steps, the shipped documents, About), a run that goes stale when the
//! design changes and is forgotten by File ▸ New, the compound rows of the timing diagram folded
//! and unfolded, the memory in the status bar, and the replay bar and toolbar at 1280×720.

use egui::{Key, Modifiers, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use super::harness_sized;
use super::replay_views::{harness_with, run_design};
use crate::actions::HelpTopic;
use crate::app::{App, StartOptions};
use crate::ui::canvas::STALE_NOTICE;
use crate::ui::timing::panel::STALE_HINT;
use hase_editor::command::EditCommand;
use hase_editor::document::NetworkId;

fn menu(h: &mut Harness<'_, App>, path: &[&str]) {
    for (i, label) in path.iter().enumerate() {
        if i == 0 {
            // One Help window at a time: close it (the shortcut sheet lists a menu named Help too).
            h.state_mut().windows.help = None;
            h.run_steps(2);
            h.get_by_label(label).click();
        } else if i + 1 == path.len() {
            h.get_by_label(label).click();
        } else {
            h.get_by_label(label).hover();
        }
        h.run_steps(2);
    }
}

#[test]
fn help_shows_the_shortcuts_from_the_menus_table_first_steps_docs_and_about() {
    let mut h = harness_sized(App::new(StartOptions::default()), Vec2::new(1280.0, 720.0));
    // F1 opens the shortcut sheet; its rows are the action table's.
    h.key_press(Key::F1);
    h.run_steps(3);
    assert_eq!(h.state().windows.help, Some(HelpTopic::Shortcuts));
    let rows = crate::ui::help::shortcut_rows(&h.ctx);
    let save = rows.iter().find(|(menu, label, _)| *menu == "File" && *label == "Save").unwrap();
    assert_eq!(save.2, h.ctx.format_shortcut(&crate::actions::AppAction::Save.shortcut().unwrap()));
    let redo = rows.iter().find(|(_, label, _)| *label == "Redo").unwrap();
    assert!(redo.2.contains(" or "), "Redo lists both keys: {}", redo.2);
    h.get_by_label(&save.2);
    h.get_by_label("Play / pause replay");
    // The menu entries use the same labels and keys.
    menu(&mut h, &["Help", "First steps"]);
    assert_eq!(h.state().windows.help, Some(HelpTopic::FirstSteps));
    h.get_by_label("4. Measure with O and X");
    h.get_by_label("6. Experiments");
    menu(&mut h, &["Help", "Documentation", "Trace file format"]);
    let trace_format = crate::ui::help::DOCS.iter().position(|d| d.1 == "docs/trace-format.md");
    assert_eq!(h.state().windows.help, trace_format.map(HelpTopic::Doc));
    // Every document in docs/ is listed.
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs")).unwrap() {
        let name = format!("docs/{}", entry.unwrap().file_name().to_string_lossy());
        assert!(crate::ui::help::DOCS.iter().any(|d| d.1 == name), "{name} is not in Help ▸ Documentation");
    }
    h.get_by_label("docs/trace-format.md (shipped with hase)");
    // Rendered, not raw: the title is a heading without its `#`.
    let title = include_str!("../../../docs/trace-format.md").lines().next().unwrap();
    h.get_by_label(title.trim_start_matches('#').trim());
    assert!(h.query_by_label(title).is_none(), "the raw Markdown heading {title:?} is shown");
    // Every document draws (tables, code, lists) with the window's fonts.
    for i in 0..crate::ui::help::DOCS.len() {
        h.state_mut().windows.help = Some(HelpTopic::Doc(i));
        h.run_steps(2);
        h.get_by_label(&format!("{} (shipped with hase)", crate::ui::help::DOCS[i].1));
    }
    menu(&mut h, &["Help", "About hase"]);
    h.get_by_label(&format!("hase {}", env!("CARGO_PKG_VERSION")));
    assert!(h.query_all_by_label("MIT OR Apache-2.0").count() > 1, "the licences are listed");
}

#[test]
fn a_run_goes_stale_when_the_design_changes_and_new_forgets_it() {
    let mut h = harness_with(hase_library::examples::binary_tree_allreduce().unwrap().project);
    run_design(&mut h);
    assert!(!h.state().session.stale);
    assert!(h.state().canvas.drawn_replay.nodes > 0, "the run is drawn on the design");
    assert!(h.query_by_label(STALE_HINT).is_none());
    // Removing an entity the run had: the run is of an earlier design now.
    assert!(h.state_mut().editor.run(EditCommand::RemoveInstance { net: NetworkId::Top, name: "p0".into() }));
    h.run_steps(3);
    assert!(h.state().session.stale);
    assert_eq!(h.state().canvas.drawn_replay.nodes, 0, "a stale run is not drawn on the design");
    assert!(h.query_by_label(STALE_HINT).is_some(), "the timing diagram says to run again");
    // Undo: the design that ran, current again.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(3);
    assert!(!h.state().session.stale);
    // File ▸ New (the design is unchanged, so nothing is asked): the run is gone.
    let ctx = h.ctx.clone();
    h.state_mut().perform(&ctx, crate::actions::AppAction::NewProject);
    h.run_steps(3);
    assert_eq!(h.state().editor.doc.project.name, "untitled");
    assert!(h.state().session.current.is_none(), "a new project starts without the old run");
    assert!(h.query_by_label(STALE_HINT).is_none());
    assert_eq!(h.state().session.player.time, hase_engine::time::SimTime::ZERO);
    // A new p0 shows no state of the old run.
    assert!(h.state_mut().editor.run(EditCommand::AddInstance {
        net: NetworkId::Top,
        name: "p0".into(),
        instance: hase_engine::model::Instance::of("Processor"),
        pos: hase_engine::model::Pos::new(0.0, 0.0),
        displayed: std::collections::BTreeMap::new(),
    }));
    h.run_steps(3);
    assert_eq!(h.state().canvas.drawn_replay, crate::ui::animator::replay_frame::Drawn::default());
    let _ = STALE_NOTICE;
}

#[test]
fn compound_rows_fold_and_unfold_and_the_dock_fits_the_rows() {
    let mut project = hase_library::examples::abstraction_toggle().unwrap().project;
    // The compound at its detailed level: its switches are rows inside the `fabric` group.
    for instance in project.network.instances.values_mut() {
        instance.level = hase_engine::model::AbstractionLevel::Detailed;
    }
    let mut h = harness_with(project);
    run_design(&mut h);
    let run = h.state().session.current.clone().unwrap();
    assert!(!run.replay.header.groups.is_empty(), "the compound example has group rows");
    let rows = |h: &Harness<'_, App>| h.state().session.timing.rows_of(&run.replay).len();
    let folded = rows(&h);
    assert_eq!(h.state().dock.fit_rows, folded, "the dock is sized for the rows shown");
    h.get_by_label("Unfold all").click();
    h.run_steps(3);
    let unfolded = rows(&h);
    assert!(unfolded > folded, "{unfolded} rows unfolded, {folded} folded");
    h.get_by_label("Fold all").click();
    h.run_steps(3);
    assert_eq!(rows(&h), folded);
}

#[test]
fn at_1280_by_720_the_replay_bar_and_toolbar_fit_and_memory_shows() {
    let app = App::new(StartOptions::default());
    let mut h = harness_sized(app, Vec2::new(1280.0, 720.0));
    run_design(&mut h);
    // The animator's "show" selector is inside the window, and so is the run-until field.
    let show = h.get_by_label("show").rect();
    assert!(show.max.x <= 1280.0, "{show:?}");
    let until = h.get_by_label("run until").rect();
    assert!(until.max.x <= 1280.0, "{until:?}");
    assert!(h.query_by_label_contains("memory ").is_some(), "the status bar shows the memory in use");
}
