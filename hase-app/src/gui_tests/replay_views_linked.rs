//! Workflow tests of comparisons and linked views, driving the real widgets with egui_kittest:
//! compare the design with itself under another collective algorithm (through the dialog), a bad
//! override refused with its reason, an entity selected on the canvas highlighting its timing row,
//! a click in the timing diagram moving the animator, and a toast in a comparison placed in the
//! right canvas's corner.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use hase_engine::model::{ParamValue, Workload};
use hase_engine::time::SimTime;

use super::replay_views::{click, diagram_x, row_y, run_design};
use super::wait_for;
use crate::app::{App, StartOptions};
use crate::ui::time_text::figure;
use hase_editor::document::NetworkId;

/// The application as it starts: the default project (allreduce on a fat tree).
fn default_app() -> Harness<'static, App> {
    let app = App::new(StartOptions::default());
    assert_eq!(app.editor.doc.project.name, "Allreduce on a fat tree");
    super::harness_on(app)
}

/// Simulate ▸ Compare ▸ This design with different settings…
fn open_variant_dialog(h: &mut Harness<'_, App>) {
    h.get_by_label("Simulate").click();
    h.run_steps(2);
    h.get_by_label("Compare").hover();
    h.run_steps(2);
    h.get_by_label("This design with different settings…").click();
    h.run_steps(3);
    assert!(h.state().windows.variant.open);
}

/// Type `text` into the overrides box.
fn type_overrides(h: &mut Harness<'_, App>, text: &str) {
    h.get_by_label("overrides, one per line (as `hase run --set`)").focus();
    h.run_steps(1);
    h.get_by_label("overrides, one per line (as `hase run --set`)").type_text(text);
    h.run_steps(3);
}

fn algorithm_of(project: &hase_engine::model::Project) -> String {
    match &project.workload {
        Workload::Program { params, .. } => match &params["algorithm"] {
            ParamValue::Text(t) => t.clone(),
            other => format!("{other:?}"),
        },
        _ => String::new(),
    }
}

#[test]
fn compare_the_design_with_another_collective_algorithm() {
    let mut h = default_app();
    open_variant_dialog(&mut h);
    type_overrides(&mut h, "workload.algorithm=ring");
    // The dialog says what the right-hand side will be before anything runs.
    h.get_by_label("right: this design, algorithm=ring");
    assert!(h.state().session.compare.is_none());
    h.get_by_label("Run both").click();
    wait_for(&mut h, "both runs", |app| {
        app.session.compare.as_ref().is_some_and(|c| c.sides.iter().all(|s| s.run.is_some()))
    });
    assert!(!h.state().windows.variant.open);
    let compare = h.state().session.compare.as_ref().unwrap();
    let names: Vec<&str> =
        compare.sides.iter().map(hase_editor::session::compare::CompareSide::name).collect();
    assert_eq!(names, ["this design", "this design, algorithm=ring"]);
    let runs: Vec<_> = compare.sides.iter().map(|s| s.run.clone().unwrap()).collect();
    // Each side ran its own project: the same design, with the default and the ring algorithm.
    assert_eq!(algorithm_of(&runs[0].project), "recursive_doubling");
    assert_eq!(algorithm_of(&runs[1].project), "ring");
    assert_eq!(runs[0].settings.seed, runs[1].settings.seed);
    let spans: Vec<u64> = runs.iter().map(|r| r.stats.makespan_ps).collect();
    assert!(spans.iter().all(|&s| s > 0), "{spans:?}");
    assert_ne!(spans[0], spans[1], "a different algorithm takes a different time");
    // The summary shows both makespans, the change from left to right and their ratio.
    let summary = crate::ui::compare::summary(compare);
    let change = crate::ui::compare::change(hase_editor::analysis_views::what_if::MakespanChange {
        before: SimTime(spans[0]),
        after: SimTime(spans[1]),
    });
    let (a, b) = (spans[0] as f64, spans[1] as f64);
    let ratio = if a >= b {
        format!("left / right = {:.2}×", a / b)
    } else {
        format!("right / left = {:.2}×", b / a)
    };
    assert_eq!(
        summary,
        format!(
            "{change}   ·   this design: {}   ·   this design, algorithm=ring: {}   ·   {ratio}",
            figure(SimTime(spans[0])),
            figure(SimTime(spans[1])),
        )
    );
    h.get_by_label(&summary);
    // Both canvases say which side they are.
    h.get_by_label(&format!("this design, algorithm=ring — makespan {}", figure(SimTime(spans[1]))));
    // Run again: each side keeps its own settings (the right-hand side is still the ring).
    h.get_by_label("▶ Run").click();
    wait_for(&mut h, "the second runs", |app| {
        app.session.live.is_empty()
            && app.session.compare.as_ref().is_some_and(|c| {
                c.sides.iter().all(|s| s.run.as_ref().is_some_and(|r| r.id > runs[0].id.max(runs[1].id)))
            })
    });
    let again = h.state().session.compare.as_ref().unwrap();
    let spans_again: Vec<u64> =
        again.sides.iter().map(|s| s.run.as_ref().unwrap().stats.makespan_ps).collect();
    assert_eq!(spans_again, spans, "the same settings give the same runs");
}

#[test]
fn a_bad_override_is_refused_with_its_reason() {
    let mut h = default_app();
    open_variant_dialog(&mut h);
    type_overrides(&mut h, "workload.algoritm=ring");
    // The reason names the line, the key and the parameters there are.
    let app = h.state();
    let reason = hase_editor::session::variant::build_variant(
        &app.editor.doc.project,
        &app.session.settings,
        app.session.settings.seed,
        "",
        "workload.algoritm=ring",
    )
    .unwrap_err()
    .to_string();
    assert!(reason.starts_with("line 1: `workload.algoritm`: program `collective_loop` has no parameter"));
    assert!(reason.contains("(it has: ") && reason.contains("algorithm"), "{reason}");
    h.get_by_label(&reason);
    // Nothing can be started while a line is wrong.
    assert!(h.get_by_label("Run both").accesskit_node().is_disabled());
    h.get_by_label("Run both").click();
    h.run_steps(5);
    assert!(h.state().session.compare.is_none());
    assert!(h.state().session.live.is_empty());
    assert!(h.state().windows.variant.open);
}

/// Screen position of a top-level instance's centre on the design canvas.
fn on_canvas(app: &App, instance: &str) -> egui::Pos2 {
    let at = app.editor.doc.position(&NetworkId::Top, instance);
    app.canvas.view(&NetworkId::Top).to_screen(app.canvas.area, egui::pos2(at.x, at.y))
}

#[test]
fn selecting_an_entity_on_the_canvas_highlights_its_timing_row() {
    let mut h = default_app();
    run_design(&mut h);
    assert!(h.state().dock.timing.highlighted.is_empty());
    let at = on_canvas(h.state(), "p5");
    click(&mut h, at);
    assert_eq!(h.state().editor.selection.instances.iter().collect::<Vec<_>>(), ["p5"]);
    assert_eq!(h.state().dock.timing.highlighted, ["p5"]);
    let at = on_canvas(h.state(), "p2");
    click(&mut h, at);
    assert_eq!(h.state().dock.timing.highlighted, ["p2"]);
}

#[test]
fn clicking_in_the_timing_diagram_moves_the_animator() {
    let mut h = default_app();
    run_design(&mut h);
    assert_eq!(h.state().session.player.time, SimTime::ZERO);
    let run = h.state().session.current.clone().unwrap();
    let rows = h.state().session.timing.rows_of(&run.replay);
    let row = rows
        .iter()
        .position(|r| hase_editor::session::timing::rows::row_path(&run.replay, r.kind) == "p3")
        .unwrap();
    let target = run.replay.end.0 * 3 / 5;
    let at = egui::pos2(diagram_x(h.state(), target), row_y(h.state(), row));
    click(&mut h, at);
    let player = &h.state().session.player;
    assert!(!player.playing);
    // Within one point of where the click landed.
    let tolerance = h.state().session.timing.view.ps_per_pt.ceil() as u64;
    assert!(player.time.0.abs_diff(target) <= tolerance, "{} vs {target} (±{tolerance})", player.time.0);
    // The clicked row's entity is selected on the canvas too.
    assert!(h.state().editor.selection.instances.contains("p3"));
}

#[test]
fn the_right_hand_side_runs_with_its_own_run_until_time() {
    let mut h = default_app();
    assert_eq!(h.state().session.settings.until_text, "");
    open_variant_dialog(&mut h);
    h.get_by_label("right run until").focus();
    h.run_steps(1);
    h.get_by_label("right run until").type_text("50us");
    h.run_steps(3);
    h.get_by_label("right: this design, until 50 us");
    h.get_by_label("Run both").click();
    wait_for(&mut h, "both runs", |app| {
        app.session.compare.as_ref().is_some_and(|c| c.sides.iter().all(|s| s.run.is_some()))
    });
    let compare = h.state().session.compare.as_ref().unwrap();
    let runs: Vec<_> = compare.sides.iter().map(|s| s.run.clone().unwrap()).collect();
    assert_eq!((runs[0].settings.until_text.as_str(), runs[0].outcome.word()), ("", "completed"));
    assert_eq!((runs[1].settings.until_text.as_str(), runs[1].outcome.word()), ("50us", "reached-until"));
    assert!(runs[1].stats.makespan_ps <= 50_000_000 && runs[0].stats.makespan_ps > 50_000_000);
}

#[test]
fn a_toast_in_a_comparison_sits_in_the_right_canvas_corner() {
    let mut h = default_app();
    h.run_steps(3);
    let design_canvas = h.state().canvas.area;
    super::replay_views::open_comparison_example(&mut h);
    h.state_mut().editor.notify(hase_editor::state::LogLevel::Warning, "a toast while comparing");
    h.run_steps(2);
    let app = h.state();
    let sides: Vec<egui::Rect> = app.compare_views.sides.iter().map(|v| v.canvas.area).collect();
    assert_eq!(sides.len(), 2);
    assert!(sides[1].min.x > sides[0].max.x, "{sides:?}");
    // Not the design canvas the comparison replaced (it reaches down into today's dock).
    assert_ne!(design_canvas, sides[1]);
    let area = app.toast_area();
    assert_eq!(area, sides[1]);
    let placed = crate::ui::toasts::placements(area, &[egui::vec2(300.0, 40.0)]);
    assert!(placed.len() == 1 && sides[1].contains_rect(placed[0]), "{placed:?} in {:?}", sides[1]);
}
