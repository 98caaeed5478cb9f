//! Workflow tests of the size check before a run: F5 on a design whose estimate is big shows the
//! estimate and asks; "First iteration only" runs one iteration without changing the document,
//! Cancel runs nothing; a small design starts at once.

use egui::Key;
use egui_kittest::kittest::Queryable;
use hase_engine::model::{ParamValue, Project, Workload};

use super::replay_views::harness_with;
use super::wait_for;

/// The fat-tree allreduce repeated `iterations` times.
fn fat_tree_allreduce(iterations: i64) -> Project {
    let mut project = hase_library::examples::fat_tree_allreduce().unwrap().project;
    let Workload::Program { params, .. } = &mut project.workload else { panic!("a program") };
    params.insert("iterations".into(), ParamValue::Int(iterations));
    project
}

fn iterations(project: &Project) -> Option<&ParamValue> {
    match &project.workload {
        Workload::Program { params, .. } => params.get("iterations"),
        _ => None,
    }
}

#[test]
fn f5_on_a_big_design_asks_and_first_iteration_only_runs_one() {
    // 20,000 allreduces: about 250 M events, two minutes at the default rates.
    let mut h = harness_with(fat_tree_allreduce(20_000));
    h.key_press(Key::F5);
    wait_for(&mut h, "the big run's question", |app| app.run_size.question.is_some());
    assert!(h.state().session.live.is_empty(), "nothing runs before the answer");
    h.get_by_label("Big run");
    h.get_by_label("Run anyway");
    h.get_by_label("Trace level 4");
    let question = h.state().run_size.question.as_ref().unwrap();
    assert!(question.estimate.wall_s > 10.0, "{}", question.estimate.summary());
    assert_eq!(question.iterations(), Some(20_000));
    h.get_by_label("First iteration only").click();
    wait_for(&mut h, "the run", |app| app.session.current.is_some() && app.session.live.is_empty());
    let run = h.state().session.current.clone().unwrap();
    assert_eq!(iterations(&run.project), Some(&ParamValue::Int(1)), "the run did one iteration");
    assert_eq!(
        iterations(&h.state().editor.doc.project),
        Some(&ParamValue::Int(20_000)),
        "the document keeps its count"
    );
    // One allreduce of the example is a fraction of its two (25,504 events).
    assert!(run.stats.events > 5_000 && run.stats.events < 25_504, "{} events", run.stats.events);
    assert!(h.state().run_size.question.is_none());
    assert!(
        !h.state().session.stale,
        "a run of the first iteration is a run of this design, not an earlier one"
    );
}

#[test]
fn cancel_runs_nothing_and_a_small_design_starts_at_once() {
    let mut h = harness_with(fat_tree_allreduce(20_000));
    h.key_press(Key::F5);
    wait_for(&mut h, "the big run's question", |app| app.run_size.question.is_some());
    h.get_by_label("Cancel").click();
    h.run_steps(3);
    assert!(h.state().run_size.question.is_none() && h.state().session.live.is_empty());
    assert!(h.state().session.current.is_none());
    // Two allreduces: no question, the run starts and its rates join the history.
    let mut h = harness_with(fat_tree_allreduce(2));
    h.key_press(Key::F5);
    wait_for(&mut h, "the run", |app| app.session.current.is_some() && app.session.live.is_empty());
    assert!(h.state().run_size.question.is_none());
    let rates = &h.state().run_size.book.history.runs;
    assert_eq!(rates.len(), 1);
    assert_eq!(rates[0].events, 25_504);
}
