//! Workflow tests of the newcomer snags (egui_kittest): trace files (`.trace`) listed by Open
//! trace…, a trace of another design named as such, Simulate ▸ Export trace writing every format,
//! saving over a file asked first and the two CSV exports with names of their own, Escape closing
//! the window on top, a template dragged onto the canvas, and closing a comparison giving the
//! replay bar back to the design's run.

use egui::{Key, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use super::replay_views::{open_comparison_example, run_design};
use super::{harness_sized, settle, wait_for};
use crate::actions::{AppAction, HelpTopic};
use crate::app::{App, StartOptions};
use crate::file_dialog::Backend;
use hase_editor::experiments::ExperimentFileRequest;
use hase_editor::tasks::FileRequest;

/// The app with hase's own file dialog, its project file in `dir`.
fn in_dir(dir: &std::path::Path) -> Harness<'static, App> {
    let mut app = App::new(StartOptions::default());
    app.files.backend = Backend::InApp;
    app.editor.file = Some(dir.join("design.ron"));
    harness_sized(app, Vec2::new(1600.0, 1000.0))
}

fn perform(h: &mut Harness<'_, App>, action: AppAction) {
    let ctx = h.ctx.clone();
    h.state_mut().perform(&ctx, action);
    settle(h);
}

#[test]
fn open_trace_lists_trace_files_and_a_trace_of_another_design_is_named() {
    let dir = tempfile::tempdir().unwrap();
    // `hase run --trace run.trace` of the binary tree.
    let binary = hase_library::examples::binary_tree_allreduce().unwrap().project;
    let options = hase_library::runner::RunOptions {
        trace: hase_library::runner::TraceTarget::File(dir.path().join("run.trace")),
        ..Default::default()
    };
    hase_library::runner::run_project(&binary, &options, |_| {}).unwrap();
    std::fs::write(dir.path().join("notes.md"), "not a trace").unwrap();
    let mut h = in_dir(dir.path());
    let design = h.state().editor.doc.project.name.clone();
    assert_ne!(design, binary.name, "the fat tree is open");
    perform(&mut h, AppAction::OpenTrace);
    wait_for(&mut h, "the dialog", |app| app.files.is_open());
    let listed = h.state().files.browser().unwrap().listed();
    assert!(listed.contains(&"run.trace".to_string()), "{listed:?}");
    assert!(!listed.contains(&"notes.md".to_string()), "{listed:?}");
    h.get_by_label("run.trace").click();
    settle(&mut h);
    h.key_press(Key::Enter);
    wait_for(&mut h, "the trace", |app| app.session.current.is_some() && app.session.live.is_empty());
    let warning = h
        .state()
        .editor
        .log
        .iter()
        .find(|l| l.text.contains("this trace is not a run of"))
        .map(|l| l.text.clone())
        .expect("the mismatch is said");
    assert!(warning.contains(&binary.name) && warning.contains("are not in it"), "{warning}");
    // A run of the design itself says nothing of the kind.
    run_design(&mut h);
    let said = h.state().editor.log.iter().filter(|l| l.text.contains("this trace is not a run of")).count();
    assert_eq!(said, 1);
}

#[test]
fn export_trace_asks_for_a_trace_then_writes_each_format_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let options = hase_library::runner::RunOptions {
        level: Some(2),
        trace: hase_library::runner::TraceTarget::File(dir.path().join("run.trace")),
        ..Default::default()
    };
    let project = hase_library::examples::binary_tree_allreduce().unwrap().project;
    hase_library::runner::run_project(&project, &options, |_| {}).unwrap();
    let mut h = in_dir(dir.path());
    for (i, exporter) in hase_engine::trace::EXPORTERS.iter().enumerate() {
        perform(&mut h, AppAction::ExportTrace(i));
        wait_for(&mut h, "the trace dialog", |app| app.files.is_open());
        h.get_by_label("run.trace").click();
        settle(&mut h);
        h.key_press(Key::Enter);
        // The second dialog proposes the trace's name with the format's extension.
        let written = dir.path().join(format!("run.{}", exporter.extensions[0]));
        wait_for(&mut h, "the output dialog", |app| app.files.is_open());
        h.key_press(Key::Enter);
        wait_for(&mut h, "the export", |app| {
            app.editor.log.iter().any(|l| l.text.contains(&format!("saved the {} export", exporter.name)))
        });
        assert!(written.is_file(), "{} wrote no {}", exporter.name, written.display());
    }
}

#[test]
fn saving_over_a_file_asks_first_and_enter_alone_never_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = in_dir(dir.path());
    let name = h.state().editor.doc.project.name.clone();
    let target = dir.path().join(format!("{name}.ron"));
    std::fs::write(&target, "kept").unwrap();
    perform(&mut h, AppAction::ExportRon);
    wait_for(&mut h, "the dialog", |app| app.files.is_open());
    // Enter twice: the question, then nothing more.
    for _ in 0..2 {
        h.key_press(Key::Enter);
        settle(&mut h);
        assert!(h.state().files.is_open(), "the dialog waits for an answer");
        assert!(h.query_by_label_contains("exists in this folder. Replace it?").is_some());
    }
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept");
    // Another name withdraws the question; the same name asks again, and Replace writes.
    h.get_by_label("Choose another name").click();
    settle(&mut h);
    assert!(h.query_by_label_contains("Replace it?").is_none());
    h.key_press(Key::Enter);
    settle(&mut h);
    h.get_by_label("Replace").click();
    wait_for(&mut h, "the export", |_| std::fs::read_to_string(&target).is_ok_and(|t| t != "kept"));
    assert!(!h.state().files.is_open());
    assert_eq!(hase_library::generated::load_project(&target).unwrap(), h.state().editor.doc.project);
    // The plot's and the results' CSV exports propose names of their own.
    let name_of = |r: ExperimentFileRequest| FileRequest::experiment(r).suggested_name().unwrap();
    assert_eq!(name_of(ExperimentFileRequest::PlotCsv(String::new())), "plot.csv");
    assert_eq!(name_of(ExperimentFileRequest::ResultsCsv(String::new())), "results.csv");
}

#[test]
fn escape_closes_the_window_on_top_then_the_next() {
    let mut h = harness_sized(App::new(StartOptions::default()), Vec2::new(1280.0, 720.0));
    perform(&mut h, AppAction::Experiments);
    h.key_press(Key::F1);
    settle(&mut h);
    assert_eq!(h.state().windows.help, Some(HelpTopic::Shortcuts));
    h.key_press(Key::Escape);
    settle(&mut h);
    assert_eq!(h.state().windows.help, None);
    assert!(h.state().windows.experiments.open, "one window a key press");
    h.key_press(Key::Escape);
    settle(&mut h);
    assert!(!h.state().windows.experiments.open);
    // The template dialog closes the same way.
    h.state_mut().windows.template.open = true;
    settle(&mut h);
    h.get_by_label("Insert network from template");
    h.key_press(Key::Escape);
    settle(&mut h);
    assert!(!h.state().windows.template.open, "Escape leaves the template dialog open");
    // With no window open, Escape clears the selection as before.
    let first = h.state().editor.doc.project.network.instances.keys().next().unwrap().clone();
    h.state_mut().editor.selection.instances.insert(first);
    h.key_press(Key::Escape);
    settle(&mut h);
    assert!(h.state().editor.selection.instances.is_empty());
}

#[test]
fn a_template_dragged_onto_the_canvas_opens_its_dialog() {
    let mut h = harness_sized(App::new(StartOptions::default()), Vec2::new(1600.0, 1400.0));
    let from = h.get_by_label("Ring").rect().center();
    let area = h.state().canvas.area;
    super::editing::drag(&mut h, from, area.center());
    assert!(h.state().windows.template.open, "the dialog opens on the drop");
    assert!(h.query_by_label("Insert network from template").is_some());
}

#[test]
fn closing_a_comparison_gives_the_replay_bar_back_to_the_designs_run() {
    let mut h = harness_sized(App::new(StartOptions::default()), Vec2::new(1600.0, 1000.0));
    run_design(&mut h);
    let design_end = h.state().session.current.as_ref().unwrap().replay.end;
    let design_speed = h.state().session.player.speed_ps_per_s;
    open_comparison_example(&mut h);
    let compare_end = h.state().session.clock_end();
    h.state_mut().session.player.time = compare_end;
    settle(&mut h);
    perform(&mut h, AppAction::CloseCompare);
    let player = &h.state().session.player;
    assert!(player.time <= design_end, "{:?} after {:?}", player.time, design_end);
    assert_eq!(player.speed_ps_per_s.to_bits(), design_speed.to_bits());
    let end_text = crate::ui::time_text::figure(compare_end);
    assert!(h.query_by_label_contains(&end_text).is_none(), "{end_text} is gone from the replay bar");
}

#[test]
fn the_processor_inspector_fits_the_default_window() {
    let size = Vec2::new(1500.0, 920.0);
    let mut h = harness_sized(App::new(StartOptions::default()), size);
    h.state_mut().editor.selection.instances.insert("p0".into());
    settle(&mut h);
    settle(&mut h);
    // Every row of the parameter grid ends inside the window, with room for its display menu
    // (52 points) after the value: nothing is cut at its right.
    for name in ["rank", "time_step", "rendezvous", "reduce_scatter_algorithm"] {
        let right = h.get_all_by_label(name).map(|n| n.rect().max.x).fold(0.0_f32, f32::max);
        assert!(right > 0.0 && right <= size.x - 52.0, "{name}'s row reaches {right} of {}", size.x);
    }
}
