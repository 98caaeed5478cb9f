//! Expected beside measured in the window: the timing diagram marks the closed form's expected
//! end on its ruler (named "expected …", the formula on hover), and an experiment's plot of the
//! makespan against the message size draws the dashed "expected" line of each series that has a
//! closed form, on the measured points, and says why the other has none.

use std::collections::BTreeMap;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use hase_engine::model::{ParamValue, Project, Workload};
use hase_engine::time::SimTime;
use hase_library::expected::expected_run;
use hase_templates::{ProjectForm, TemplateSpec, Topology, template_project};

use super::experiments::{add_variable, open_from_menu, ready, type_into};
use super::replay_views::{harness_with, run_design};
use super::{harness_on, settle, wait_for};
use crate::app::{App, StartOptions};
use hase_editor::experiments::expected_lines::expected_lines;
use hase_editor::experiments::plot::{PointSet, lines};
use hase_editor::project_store::LibraryLocation;

/// A ring of 8 routers whose ranks run one ring allreduce of 4 KiB: a design with a closed form.
fn ring_allreduce() -> Project {
    let spec = TemplateSpec::new(Topology::Ring { nodes: 8 });
    let registry = hase_library::catalogue::registry_for(&Project::new("ring"));
    let mut project = template_project(&spec, &registry, "ring", &ProjectForm::Flat).unwrap();
    let params: BTreeMap<String, ParamValue> = [
        ("operation", ParamValue::Text("allreduce".into())),
        ("algorithm", ParamValue::Text("ring".into())),
        ("message_bytes", ParamValue::Int(4096)),
        ("iterations", ParamValue::Int(2)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    project.workload = Workload::Program { name: "collective_loop".into(), params };
    project
}

/// Run `project`, check that the run's expected makespan is the simulated one, and rest the
/// pointer on the timing diagram's "expected …" mark until its tooltip shows.
fn run_and_hover_the_expected_mark(project: Project) -> Harness<'static, App> {
    let expected = expected_run(&project).expect("the design has a closed form");
    let mut h = harness_with(project);
    run_design(&mut h);
    let run = h.state().session.current.clone().unwrap();
    assert_eq!(run.expected.as_ref().map(|e| e.makespan).ok(), Some(SimTime(run.stats.makespan_ps)));
    let label = format!("expected {}", crate::ui::time_text::figure(expected.makespan));
    h.get_by_label(&label).hover();
    // A tooltip waits for the pointer to rest (egui's tooltip delay): a second of frames.
    for _ in 0..60 {
        h.step();
    }
    h
}

#[test]
fn the_timing_diagram_marks_the_expected_end_with_its_formula_on_hover() {
    let h = run_and_hover_the_expected_mark(ring_allreduce());
    assert!(
        h.query_by_label_contains("Closed form: ring allreduce on the 8-node ring").is_some(),
        "hovering the mark names the formula"
    );
}

#[test]
fn a_message_size_sweep_plots_the_expected_line_beside_the_measured_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::new(StartOptions {
        library: LibraryLocation::Dir(dir.path().to_path_buf()),
        ..StartOptions::default()
    });
    app.editor.replace_project(ring_allreduce(), None);
    let mut h = harness_on(app);
    ready(&mut h);
    open_from_menu(&mut h);
    add_variable(&mut h, "workload.message_bytes", "1K..32K *2");
    add_variable(&mut h, "algorithm", "ring, recursive_doubling");
    type_into(&mut h, "Filter", "");
    h.get_by_label("Run sweep").click();
    settle(&mut h);
    wait_for(&mut h, "the sweep to finish", |a| a.windows.experiments.running.is_none());
    settle(&mut h);
    let view = &h.state().windows.experiments;
    let results = view.results.clone().expect("results");
    let plot = lines(&PointSet::of(&results), &view.plot).unwrap();
    let drawn = expected_lines(&plot, &view.plot, &view.expected.1);
    // The ring's line lies on its measured points; recursive doubling on a ring has no closed form.
    let ring = plot.series.iter().position(|s| s.name == "algorithm = ring").expect("ring series");
    assert_eq!(drawn.lines.len(), 1, "{drawn:?}");
    let (series, points) = &drawn.lines[0];
    assert_eq!(*series, ring);
    let measured: Vec<[f64; 2]> = plot.series[ring].points.iter().map(|p| [p.x, p.y]).collect();
    assert_eq!(points, &measured, "the uncontended ring allreduce is exact");
    assert_eq!(points.len(), 6);
    let note = drawn.note.clone().expect("a note for the other series");
    assert!(note.contains("recursive_doubling allreduce on ring networks"), "{note}");
    assert!(h.query_by_label("expected").is_some(), "the legend has an expected entry");
    assert!(h.query_by_label(&note).is_some(), "the plot says why once");
}

/// The ring allreduce with its network as one data-sheet model (the compound at its behavioural
/// level, `model = datasheet`, the built-in T3D sheet).
fn ring_allreduce_on_a_sheet() -> Project {
    let spec = TemplateSpec::new(Topology::Ring { nodes: 8 });
    let registry = hase_library::catalogue::registry_for(&Project::new("ring"));
    let form = ProjectForm::Compound { type_name: spec.topology.type_name() };
    let mut project = template_project(&spec, &registry, "ring", &form).unwrap();
    project.workload = ring_allreduce().workload;
    for set in ["fabric.level=behavioural", "fabric.model=datasheet", "fabric.sheet=cray_t3d"] {
        hase_library::overrides::apply_set(&mut project, set).unwrap();
    }
    project
}

#[test]
fn on_a_data_sheet_the_timing_diagram_marks_the_sheets_expected_end() {
    let h = run_and_hover_the_expected_mark(ring_allreduce_on_a_sheet());
    assert!(
        h.query_by_label_contains("Closed form: allreduce on 8 ranks on the cray_t3d data sheet").is_some(),
        "hovering the mark names the sheet"
    );
    assert!(
        h.query_by_label_contains("every rank leaves a call at the last entry plus the sheet's t(p, d)")
            .is_some(),
        "and where the time comes from"
    );
}
