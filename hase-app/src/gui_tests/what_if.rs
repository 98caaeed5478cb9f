//! Workflow tests of the what-if from the critical path, driving the real widgets with
//! egui_kittest: the most blamed link's "what if…" menu in the path's table runs the design again
//! with that link twice as fast beside the design as it is (a comparison with both paths and a
//! smaller makespan on the right), and the drawing's "What if…" on a router opens the window whose
//! typed assignment runs. The open design never changes.

use egui_kittest::kittest::{NodeT, Queryable};
use hase_engine::time::SimTime;

use super::replay_views::{harness_with, run_design};
use super::wait_for;
use crate::actions::AppAction;
use crate::app::App;
use hase_editor::session::compare::CompareSide;

fn both_runs(app: &App) -> bool {
    app.session.live.is_empty()
        && app.session.compare.as_ref().is_some_and(|c| c.sides.iter().all(|s| s.run.is_some()))
}

#[test]
fn a_blamed_links_what_if_opens_the_comparison_with_a_smaller_makespan() {
    let project = hase_library::examples::binary_tree_allreduce().unwrap().project;
    let mut h = harness_with(project.clone());
    run_design(&mut h);
    h.get_by_label("Critical path").click();
    let run = h.state().session.current.clone().unwrap();
    wait_for(&mut h, "the critical path", |app| app.session.timing.analysis.critical.found(run.id).is_some());
    let found = h.state().session.timing.analysis.critical.found(run.id).unwrap();
    let report = found.as_ref().as_ref().unwrap();
    // The two root links carry all traffic of the last rounds: a link heads the blame.
    let link = &report.links[0];
    assert!(link.share > 0.05, "{link:?}");
    // A click on the link's name in the table opens its what-if menu (the table scrolls: the row
    // is brought into view first).
    h.get_by_label(&link.name).scroll_to_me();
    h.run_steps(3);
    h.get_by_label(&link.name).click();
    h.run_steps(3);
    let heading = format!("What if {} …", what_if_heading(&link.name));
    h.get_by_label(&heading);
    // Its text field takes a click without closing it.
    h.get_by_label("or set a parameter (param=value, or any --set line)").click();
    h.run_steps(3);
    assert!(h.query_by_label(&heading).is_some(), "a click on the menu's field closed it");
    h.get_by_label("Run again 2× faster").click();
    wait_for(&mut h, "both runs of the what-if", both_runs);
    let app = h.state();
    assert_eq!(app.editor.doc.project, project, "the what-if runs a copy: the design is unchanged");
    assert!(!app.editor.is_dirty());
    let compare = app.session.compare.as_ref().unwrap();
    let names: Vec<&str> = compare.sides.iter().map(CompareSide::name).collect();
    assert_eq!(names[0], "this design");
    assert!(names[1].contains("bandwidth=") && names[1].contains("latency="), "{names:?}");
    let spans: Vec<u64> = compare.sides.iter().map(|s| s.run.as_ref().unwrap().stats.makespan_ps).collect();
    assert_eq!(spans[0], run.stats.makespan_ps, "the left side is the design as it is");
    assert!(spans[1] < spans[0], "the most blamed link twice as fast ends earlier: {spans:?}");
    // The strip says by how much, and both diagrams outline their paths.
    let change = crate::ui::compare::change(hase_editor::analysis_views::what_if::MakespanChange {
        before: SimTime(spans[0]),
        after: SimTime(spans[1]),
    });
    assert!(change.starts_with("Δ -"), "{change}");
    assert!(crate::ui::compare::summary(compare).contains(&change));
    assert!(app.session.timing.analysis.critical.shown);
    let ids: Vec<u64> = compare.sides.iter().map(|s| s.run.as_ref().unwrap().id).collect();
    wait_for(&mut h, "both critical paths", |app| {
        ids.iter().all(|&id| app.session.timing.analysis.critical.found(id).is_some())
    });
    let app = h.state();
    for side in &app.session.compare.as_ref().unwrap().sides {
        let id = side.run.as_ref().unwrap().id;
        assert!(app.session.timing.analysis.critical.found(id).is_some(), "both paths are found");
    }
    assert!(
        app.compare_views.sides.iter().all(|v| v.canvas.drawn_replay.critical > 0),
        "both canvases draw their paths"
    );
}

/// The window's heading for the blame row `name` (`link a.p0 — b.p1`).
fn what_if_heading(name: &str) -> String {
    hase_library::what_if::Target::from_blame_name(name).unwrap().describe()
}

#[test]
fn the_drawings_what_if_on_a_router_runs_a_typed_assignment() {
    let project = hase_library::examples::binary_tree_allreduce().unwrap().project;
    let (router, _) = project.network.instances.iter().find(|(_, i)| i.type_name == "Router").unwrap();
    let router = router.clone();
    let mut h = harness_with(project.clone());
    run_design(&mut h);
    h.state_mut().editor.selection.only(&router);
    h.state_mut().perform(&egui::Context::default(), AppAction::WhatIf);
    h.run_steps(3);
    h.get_by_label(&format!("What if {router} …"));
    let field = "or set a parameter (param=value, or any --set line)";
    h.get_by_label(field).focus();
    h.run_steps(1);
    h.get_by_label(field).type_text("routing_delay=bogus");
    h.run_steps(3);
    assert!(
        h.get_by_label("Run with this").accesskit_node().is_disabled(),
        "a value that does not read cannot run"
    );
    h.get_by_label(field).focus();
    for _ in 0.."bogus".len() {
        h.key_press(egui::Key::Backspace);
    }
    h.get_by_label(field).type_text("1ns");
    h.run_steps(3);
    h.get_by_label(&format!("--set {router}.routing_delay=1ns"));
    h.get_by_label("Run with this").click();
    wait_for(&mut h, "both runs of the what-if", both_runs);
    let app = h.state();
    assert!(app.session.timing.analysis.what_if.open.is_none(), "the window closes when it runs");
    assert_eq!(app.editor.doc.project, project, "the design is unchanged");
    let right = &app.session.compare.as_ref().unwrap().sides[1];
    let ran = &right.run.as_ref().unwrap().project;
    assert_eq!(
        ran.network.instances[&router].params["routing_delay"],
        hase_engine::model::ParamValue::Time(SimTime::from_ns(1))
    );
}
