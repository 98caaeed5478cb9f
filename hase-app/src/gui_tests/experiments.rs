//! Workflow tests of the experiments view (egui_kittest, real widgets, a sled store in a
//! temporary directory): build a sweep by clicking parameters and typing values, run it to the
//! end, see the plot (its series in the model, its widgets by name), open a point in the replay
//! views (the sweep built stays); cancel a sweep mid-run and resume it, running only the missing
//! runs; the example experiment from File ▸ Open example, and each project's own sweep kept when
//! another project is opened.

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use super::{harness_on, settle, wait_for};
use crate::app::{App, StartOptions};
use hase_editor::experiments::ExperimentsTab;
use hase_editor::experiments::plot::{PlotError, PlotKind, PointSet, RatioSource, lines};
use hase_editor::experiments::quantity::value_text;
use hase_editor::project_store::{LibraryLocation, LibraryStatus};

pub(crate) fn app_in(dir: &std::path::Path) -> App {
    let mut app = App::new(StartOptions {
        library: LibraryLocation::Dir(dir.to_path_buf()),
        ..StartOptions::default()
    });
    let project = hase_engine::model::project_from_ron(
        hase_library::experiment::example::PROJECT_TEXT,
        "allreduce_trees.ron",
    )
    .unwrap();
    app.editor.replace_project(project, None);
    app
}

pub(crate) fn ready(h: &mut Harness<'_, App>) {
    wait_for(h, "the library to open", |a| matches!(a.library.status, LibraryStatus::Open(_)));
    wait_for(h, "the experiment store", |a| a.windows.experiments.store.is_some());
}

/// Replace the text of the field labelled `label`.
pub(crate) fn type_into(h: &mut Harness<'_, App>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    settle(h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label(label).type_text(text);
    settle(h);
}

pub(crate) fn open_from_menu(h: &mut Harness<'_, App>) {
    h.get_by_label("Simulate").click();
    settle(h);
    h.get_by_label("Experiments…").click();
    settle(h);
    assert!(h.state().windows.experiments.open);
}

pub(crate) fn add_variable(h: &mut Harness<'_, App>, target: &str, values: &str) {
    type_into(h, "Filter", target);
    h.get_by_label(&format!("+ {target}")).click();
    settle(h);
    type_into(h, &format!("{target} ="), values);
}

#[test]
fn build_a_sweep_run_it_plot_it_and_open_a_point_in_the_replay() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness_on(app_in(dir.path()));
    ready(&mut h);
    open_from_menu(&mut h);
    add_variable(&mut h, "workload.message_bytes", "1K..16K *4");
    add_variable(&mut h, "algorithm", "ring, recursive_doubling");
    // A wrong value is named at its variable, and the sweep cannot start.
    type_into(&mut h, "algorithm =", "ring, telepathy");
    assert!(h.query_by_label_contains("telepathy").is_some(), "the error names the value");
    assert!(h.state().windows.experiments.preview.variable_errors[1].is_some());
    type_into(&mut h, "algorithm =", "ring, recursive_doubling");
    type_into(&mut h, "Filter", "");
    // Keep a trace of each run (opened at once in the replay).
    h.get_by_label("Traces").click();
    settle(&mut h);
    h.get_by_label("level 2").click();
    settle(&mut h);
    assert!(h.query_by_label("3 points × 1 repetition = 3 runs").is_none());
    assert!(h.query_by_label("6 points × 1 repetition = 6 runs").is_some(), "the preview counts points");
    h.get_by_label("Run sweep").click();
    settle(&mut h);
    assert!(h.state().windows.experiments.running.is_some());
    wait_for(&mut h, "the sweep to finish", |a| a.windows.experiments.running.is_none());
    let view = &h.state().windows.experiments;
    assert_eq!(view.tab, ExperimentsTab::Results, "{:?}", view.notice);
    let results = view.results.clone().unwrap();
    assert_eq!(results.records.len(), 6);
    assert!(results.records.iter().all(|r| r.status.is_success() && r.trace.is_some()));
    let id = results.id.expect("stored");
    assert_eq!(view.store.as_ref().unwrap().runs(id).unwrap(), results.records);
    // The plot: makespan against message size, one line per algorithm, three points each.
    assert_eq!(view.plot.kind, PlotKind::Lines);
    assert_eq!(
        (view.plot.x.as_str(), view.plot.series.as_deref()),
        ("workload.message_bytes", Some("algorithm"))
    );
    let plot = lines(&PointSet::of(&results), &view.plot).unwrap();
    let names: Vec<&str> = plot.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["algorithm = ring", "algorithm = recursive_doubling"]);
    for s in &plot.series {
        assert_eq!(s.points.iter().map(|p| p.x).collect::<Vec<_>>(), [1024.0, 4096.0, 16384.0]);
        assert!(s.points.windows(2).all(|w| w[0].y < w[1].y), "larger messages take longer: {s:?}");
    }
    for label in ["Export plot PNG…", "Export plot CSV…", "Lines", "Metric", "Speedup", "Heatmap", "Ratio"]
    {
        assert!(h.query_by_label(label).is_some(), "{label} missing");
    }
    assert!(h.query_by_label("algorithm = ring").is_some(), "the legend names the series");
    // Speedup over the first point of each line, then a heatmap over both variables.
    h.get_by_label("Speedup").click();
    settle(&mut h);
    let view = &h.state().windows.experiments;
    let speedup = lines(&PointSet::of(&results), &view.plot).unwrap();
    assert!(speedup.series.iter().all(|s| (s.points[0].y - 1.0).abs() < 1e-12 && s.points[2].y < 1.0));
    h.get_by_label("Heatmap").click();
    settle(&mut h);
    let grid =
        hase_editor::experiments::plot::heatmap(&PointSet::of(&results), &h.state().windows.experiments.plot)
            .unwrap();
    assert_eq!(grid.cells.iter().filter(|c| c.is_some()).count(), 6);
    // Ratio: the variable the lines were drawn per is the one divided, so the first click draws.
    h.get_by_label("Ratio").click();
    settle(&mut h);
    let view = &h.state().windows.experiments;
    assert_eq!(view.plot.series, None);
    assert!(
        matches!(&view.plot.ratio, Some(RatioSource::Split { variable, .. }) if variable == "algorithm"),
        "{:?}",
        view.plot.ratio
    );
    assert_eq!(view.plotted_set().expect("the first ratio draws").points.len(), 3);
    // Lines per the divided variable again: the message says so.
    h.state_mut().windows.experiments.plot.series = Some("algorithm".into());
    settle(&mut h);
    assert!(matches!(
        h.state().windows.experiments.plotted_set(),
        Err(PlotError::RatioVariableShown { role: "Lines per", .. })
    ));
    assert!(h.query_by_label_contains("cannot also be Lines per").is_some());
    h.state_mut().windows.experiments.plot.series = None;
    h.get_by_label("Lines").click();
    settle(&mut h);
    h.state_mut().windows.experiments.plot.series = Some("algorithm".into());
    settle(&mut h);
    // Export plot PNG… draws a figure: title, the plot with its axes (the unit in the title of
    // each), and where the numbers come from.
    let dir_png = tempfile::tempdir().unwrap();
    let figure = crate::ui::experiments::figure::FigureExport::new(dir_png.path().join("plot.png"));
    h.state_mut().windows.figure = Some(figure);
    h.step();
    let title = crate::ui::experiments::figure::title(&h.state().windows.experiments);
    assert!(title.starts_with("makespan_ps against workload.message_bytes"), "{title}");
    assert_eq!(h.state().windows.figure.as_ref().map(|f| f.frames), Some(1), "the figure is drawn");
    let provenance = crate::ui::experiments::figure::provenance_line(&h.state().windows.experiments);
    for part in [format!("experiment {id}"), "seed".into(), format!("hase {}", env!("CARGO_PKG_VERSION"))] {
        assert!(provenance.contains(&part), "{part} not in {provenance}");
    }
    h.step();
    // eframe takes a screenshot while painting the frame after the one that asked for it, so
    // the figure is still drawn after asking.
    let asked = h.state().windows.figure.as_ref().map(|f| f.requested);
    assert_eq!(asked, Some(true), "the figure stays drawn once its screenshot is asked for");
    wait_for(&mut h, "the figure's screenshot", |a| a.windows.figure.is_none());
    // The file is the figure, not the window under it: a page-width image, light where the
    // window is dark.
    let said = || h.state().editor.log.iter().map(|l| l.text.clone()).collect::<Vec<_>>();
    let png = image::open(dir_png.path().join("plot.png"));
    let png = png.unwrap_or_else(|e| panic!("the plot was not saved: {e}; log: {:?}", said())).to_luma8();
    let (w, hgt) = png.dimensions();
    let ppp = f64::from(h.ctx.pixels_per_point());
    let want = crate::ui::experiments::figure::FIGURE_SIZE;
    assert!(f64::from(w) >= f64::from(want.x) * ppp * 0.9, "{w} px wide");
    assert!(f64::from(hgt) >= f64::from(want.y) * ppp * 0.9, "{hgt} px high");
    let mean = png.pixels().map(|p| f64::from(p.0[0])).sum::<f64>() / f64::from(w * hgt);
    assert!(h.state().windows.experiments.figure_light, "figures are light unless asked");
    assert!(mean > 180.0, "the saved image is the light figure, not the dark window (mean grey {mean:.0})");
    // The table writes sizes and times in units.
    assert!(h.query_all_by_label("16 KiB").count() >= 2, "message sizes in KiB, at each algorithm");
    let first = &results.points()[0];
    let makespan = value_text("makespan_ps", first.metrics[0].unwrap().mean);
    assert!(makespan.ends_with(" us") || makespan.ends_with(" ms"), "{makespan}");
    assert!(h.query_by_label(&makespan).is_some(), "{makespan} in the table");
    // Any cell of a row selects it, not only its point number.
    h.get_by_label(&makespan).click();
    settle(&mut h);
    assert_eq!(h.state().windows.experiments.selected_point, Some(first.point), "a click on its makespan");
    // Sort the table by the metric (largest first), then select the slowest point and open it.
    h.get_by_label("makespan_ps").click();
    settle(&mut h);
    h.get_by_label("makespan_ps (asc)").click();
    settle(&mut h);
    let slowest = results
        .points()
        .into_iter()
        .max_by(|a, b| a.metrics[0].unwrap().mean.total_cmp(&b.metrics[0].unwrap().mean))
        .unwrap();
    h.get_all_by_label(&slowest.point.to_string()).next().unwrap().click();
    settle(&mut h);
    assert_eq!(h.state().windows.experiments.selected_point, Some(slowest.point));
    h.get_by_label("Open point's run").click();
    wait_for(&mut h, "the point's trace to load", |a| a.session.current.is_some());
    let app = h.state();
    let run = app.session.current.as_ref().unwrap();
    assert_eq!(run.trace.header.seed, slowest_seed(&results, slowest.point));
    assert_eq!(
        run.replay.end.0,
        slowest.metrics[0].unwrap().mean as u64,
        "the replay ends at the point's makespan"
    );
    let wanted = format!("point {}", slowest.point);
    assert!(app.editor.log.iter().any(|l| l.text.contains(&wanted)), "the design is the point's");
    // It is named after the point and unsaved: Save asks a name, not the experiment's project's
    // next version.
    assert!(app.editor.doc.project.name.contains(&wanted), "{}", app.editor.doc.project.name);
    assert!(app.editor.is_dirty());
    assert_eq!(app.library.version, None);
    // The sweep the point came from is still the one being built, and it stays the experiment
    // project's when that project is opened again.
    assert_eq!(app.windows.experiments.builder.variables.len(), 2);
    open_example(&mut h, "Allreduce on a binary tree (8 processors)");
    // The point's design was never saved: the question first.
    h.get_by_label("Discard changes").click();
    settle(&mut h);
    assert!(h.state().windows.experiments.builder.variables.is_empty());
    open_example(&mut h, "Allreduce, fat tree vs binary tree (experiment project)");
    assert_eq!(h.state().windows.experiments.builder.variables.len(), 2);
}

fn slowest_seed(results: &hase_editor::experiments::results::Results, point: u64) -> u64 {
    results.records.iter().find(|r| r.key.point == point && r.key.repetition == 0).unwrap().seed
}

#[test]
fn cancel_mid_run_then_resume_runs_only_the_missing_runs() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness_on(app_in(dir.path()));
    ready(&mut h);
    open_from_menu(&mut h);
    h.state_mut().windows.experiments.jobs = 1;
    add_variable(&mut h, "workload.message_bytes", "1K..1M *2");
    add_variable(&mut h, "algorithm", "ring, recursive_doubling, reduce_bcast");
    assert!(h.query_by_label("33 points × 1 repetition = 33 runs").is_some());
    h.get_by_label("Run sweep").click();
    wait_for(&mut h, "a few runs", |a| {
        a.windows.experiments.running.as_ref().is_some_and(|s| s.finished >= 3)
    });
    h.get_by_label("Cancel").click();
    wait_for(&mut h, "the cancel", |a| a.windows.experiments.running.is_none());
    let view = &h.state().windows.experiments;
    let id = view.results.as_ref().unwrap().id.unwrap();
    let store = view.store.clone().unwrap();
    let kept = store.stored_keys(id).unwrap();
    assert!(kept.len() >= 3 && kept.len() < 33, "{} runs kept", kept.len());
    // The stored list shows it interrupted; Resume there runs only the missing runs.
    h.get_by_label("Stored").click();
    settle(&mut h);
    assert!(h.query_by_label("interrupted").is_some());
    h.get_by_label(&id.to_string()).click();
    settle(&mut h);
    h.get_by_label("Resume").click();
    settle(&mut h);
    let resumed = h.state().windows.experiments.running.as_ref().expect("resumed");
    assert_eq!((resumed.done_before, resumed.total_runs), (kept.len() as u64, 33));
    wait_for(&mut h, "the resume", |a| a.windows.experiments.running.is_none());
    let all = store.runs(id).unwrap();
    assert_eq!(all.len(), 33);
    for r in all.iter().filter(|r| kept.contains(&r.key)) {
        assert_eq!(
            Some(r),
            h.state().windows.experiments.results.as_ref().unwrap().records.iter().find(|x| x.key == r.key)
        );
    }
    assert!(store.info(id).unwrap().finished_at.is_some());
    settle(&mut h);
    h.get_by_label("Stored").click();
    settle(&mut h);
    assert!(h.query_by_label("finished").is_some());
}

#[test]
fn the_example_experiment_opens_from_the_file_menu_with_its_spec() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness_on(App::new(StartOptions {
        library: LibraryLocation::Dir(dir.path().to_path_buf()),
        ..StartOptions::default()
    }));
    ready(&mut h);
    open_example(&mut h, "Experiment: allreduce, fat tree vs binary tree (48 runs)");
    let app = h.state();
    assert_eq!(app.editor.doc.project.name, "Allreduce: fat tree vs binary tree");
    assert!(app.windows.experiments.open);
    assert_eq!(app.windows.experiments.builder.variables.len(), 3);
    assert!(h.query_by_label("48 points × 1 repetition = 48 runs").is_some());
    // Another project: its own sweep (a new one), not the experiment's variables.
    open_example(&mut h, "Allreduce on a binary tree (8 processors)");
    assert!(h.state().windows.experiments.builder.variables.is_empty());
    assert!(h.query_by_label("48 points × 1 repetition = 48 runs").is_none());
    add_variable(&mut h, "workload.message_bytes", "1K, 2K");
    assert!(h.query_by_label("2 points × 1 repetition = 2 runs").is_some());
    // Back to the experiment's project: its sweep as it was left, then the binary tree's.
    open_example(&mut h, "Allreduce, fat tree vs binary tree (experiment project)");
    assert_eq!(h.state().windows.experiments.builder.variables.len(), 3);
    assert!(h.query_by_label("48 points × 1 repetition = 48 runs").is_some());
    open_example(&mut h, "Allreduce on a binary tree (8 processors)");
    let variables = &h.state().windows.experiments.builder.variables;
    assert_eq!((variables.len(), variables[0].values.as_str()), (1, "1K, 2K"));
}

/// File ▸ Open example ▸ `title`.
fn open_example(h: &mut Harness<'_, App>, title: &str) {
    h.get_by_label("File").click();
    settle(h);
    h.get_by_label("Open example").click();
    settle(h);
    h.get_by_label(title).click();
    settle(h);
}

#[test]
fn the_builder_can_shuffle_simultaneous_events_in_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness_on(app_in(dir.path()));
    ready(&mut h);
    open_from_menu(&mut h);
    assert!(!h.state().windows.experiments.builder.shuffle_ties);
    h.get_by_label("Shuffle simultaneous events").click();
    settle(&mut h);
    let builder = &h.state().windows.experiments.builder;
    assert!(builder.shuffle_ties);
    assert!(builder.to_spec("p").shuffle_ties, "the spec saved or run carries it");
}
