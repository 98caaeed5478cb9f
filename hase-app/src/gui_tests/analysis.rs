//! Workflow tests of the analysis views, driving the real widgets with egui_kittest:
//! phase bands on the timing diagram (toggle, click a band, the cursors on its edges), the
//! critical path (toggle, its table of blame, "Longest" putting the cursors on its longest segment), the
//! comparison's difference mode (the table's largest difference, a click going to its row), Check
//! levels on a compound, and Fit a formula in the experiments' results. Each result is checked
//! against the analysis run directly on the in-memory trace the same run writes.

use egui_kittest::kittest::Queryable;
use hase_engine::analysis::{DiffOptions, PhaseOptions, diff_traces, find_phases};
use hase_engine::model::Project;
use hase_engine::trace::Trace;
use hase_library::runner::{RunOptions, TraceTarget, run_project};

use super::replay_views::{harness_with, open_comparison_example, run_design};
use super::wait_for;
use hase_editor::run::NextRunSettings;

/// The trace of `project` run with its own settings, records kept in memory (the oracle).
fn memory_trace(project: &Project) -> Trace {
    let settings = NextRunSettings::from_project(project);
    let options = RunOptions {
        seed: Some(settings.seed),
        level: Some(settings.level),
        trace: TraceTarget::Memory,
        ..RunOptions::default()
    };
    run_project(project, &options, |_| {}).unwrap().trace.unwrap()
}

#[test]
fn phase_bands_toggle_and_a_click_puts_o_and_x_on_the_band_edges() {
    let project = hase_library::examples::binary_tree_allreduce().unwrap().project;
    let expected = find_phases(&memory_trace(&project), PhaseOptions::default());
    let mut h = harness_with(project);
    run_design(&mut h);
    assert!(h.query_by_label("2 loosely synchronous (exchange)").is_none(), "no bands before the toggle");
    h.get_by_label("Phases").click();
    // The phases are found on a worker thread; the bands come when they are.
    wait_for(&mut h, "the phases", |app| {
        app.session
            .current
            .as_ref()
            .is_some_and(|run| app.session.timing.analysis.bands.found(run.id).is_some())
    });
    // One band per allreduce call, both loosely synchronous exchanges.
    assert_eq!(expected.phases.len(), 2);
    let second = &expected.phases[1];
    h.get_by_label("1 loosely synchronous (exchange)");
    h.get_by_label("2 loosely synchronous (exchange)").click();
    h.run_steps(3);
    let cursors = h.state().session.timing.cursors;
    assert_eq!((cursors.o, cursors.x), (Some(second.start.as_ps()), Some(second.end.as_ps())));
    // Toggled off, the bands go.
    h.get_by_label("Phases").click();
    h.run_steps(3);
    assert!(h.query_by_label("2 loosely synchronous (exchange)").is_none());
}

#[test]
fn critical_path_toggle_lists_the_blame_and_longest_puts_o_and_x_on_its_longest_segment() {
    use hase_engine::analysis::critical_path;
    let project = hase_library::examples::binary_tree_allreduce().unwrap().project;
    let expected = critical_path(&memory_trace(&project)).unwrap();
    let longest = *expected.longest().unwrap();
    let mut h = harness_with(project);
    run_design(&mut h);
    assert!(h.query_by_label("time blamed per link").is_none(), "no table before the toggle");
    h.get_by_label("Critical path").click();
    // The path is found on a worker thread; the table comes when it is.
    wait_for(&mut h, "the critical path", |app| {
        app.session
            .current
            .as_ref()
            .is_some_and(|run| app.session.timing.analysis.critical.found(run.id).is_some())
    });
    for heading in ["time blamed per rank", "time blamed per link", "time blamed per router"] {
        h.get_by_label(heading);
    }
    assert!(h.state().session.timing.analysis.critical.shown);
    assert!(
        h.state().canvas.drawn_replay.critical > 0,
        "the path's links and routers are drawn on the design"
    );
    h.get_by_label("Longest").click();
    h.run_steps(3);
    let cursors = h.state().session.timing.cursors;
    assert_eq!((cursors.o, cursors.x), (Some(longest.start.as_ps()), Some(longest.end.as_ps())));
    h.get_by_label("Critical path").click();
    h.run_steps(3);
    assert!(h.query_by_label("time blamed per link").is_none(), "the table goes with the toggle");
    assert_eq!(h.state().canvas.drawn_replay.critical, 0, "and the drawing's highlight");
}

#[test]
fn difference_mode_lists_the_largest_difference_and_goes_to_its_row() {
    let fat = hase_library::examples::fat_tree_allreduce().unwrap().project;
    let binary = hase_library::examples::binary_tree_allreduce().unwrap().project;
    let oracle = diff_traces(&memory_trace(&fat), &memory_trace(&binary), DiffOptions::default());
    let largest = oracle.rows.first().unwrap().name.clone();
    assert!(oracle.rows[0].difference_ps > 0);
    let mut h = harness_with(Project::new("empty"));
    open_comparison_example(&mut h);
    h.get_by_label("Differences").click();
    wait_for(&mut h, "the comparison", |app| app.session.timing.analysis.difference.last().is_some());
    let computed = h.state().session.timing.analysis.difference.last().unwrap();
    assert_eq!(computed.diff.rows.first().map(|r| r.name.as_str()), Some(largest.as_str()));
    assert!(!computed.diff.equal);
    let fitted = h.state().session.timing.view;
    // The table's first row is the largest difference; a click goes to it in both diagrams.
    h.get_by_label(&largest).click();
    h.run_steps(3);
    let timing = &h.state().session.timing;
    assert_eq!(timing.analysis.difference.focus.as_deref(), Some(largest.as_str()));
    assert!(!timing.analysis.difference.focus_pending);
    assert_ne!(timing.view, fitted, "zoomed to where the row differs");
}

#[test]
fn check_levels_on_the_compound_from_the_inspector_shows_both_makespans() {
    use hase_library::check_levels::{CheckLevelsOptions, check_levels};
    let project = hase_library::examples::abstraction_toggle().unwrap().project;
    let options = CheckLevelsOptions { compound: Some("fabric".into()), ..CheckLevelsOptions::default() };
    let expected = check_levels(&project, &options).unwrap().remove(0);
    let mut h = harness_with(project);
    h.state_mut().editor.selection.only("fabric");
    h.run_steps(3);
    h.get_by_label("Check levels").click();
    wait_for(&mut h, "the check", |app| app.windows.levels.result.is_some());
    let shown = h.state().windows.levels.result.as_ref().unwrap().as_ref().unwrap().clone();
    assert_eq!(shown, std::slice::from_ref(&expected));
    h.get_by_label("Check levels: fabric");
    h.get_by_label("detailed makespan");
    // Contention-free: the same makespan at both levels, shown twice.
    assert_eq!(expected.detailed_ps, expected.behavioural_ps);
    let makespan = crate::ui::time_text::figure(hase_engine::time::SimTime(expected.detailed_ps));
    assert_eq!(h.get_all_by_label(&makespan).count(), 2);
    assert!(expected.verdict.starts_with("valid: "), "{}", expected.verdict);
    h.get_by_label(&expected.verdict);
}

#[test]
fn check_simultaneous_events_from_the_menu_shows_every_order_and_the_spread() {
    use hase_library::tie_check::{TieCheckOptions, check_ties};
    let project = hase_library::examples::binary_tree_allreduce().unwrap().project;
    let runs = hase_editor::analysis_views::ties::SHUFFLED_RUNS;
    let settings = NextRunSettings::from_project(&project);
    let options =
        TieCheckOptions { runs, run: RunOptions { seed: Some(settings.seed), ..RunOptions::default() } };
    let expected = check_ties(&project, &options).unwrap();
    assert!(expected.depends_on_ties(), "{expected}");
    let mut h = harness_with(project);
    h.get_by_label("Simulate").click();
    h.run_steps(2);
    h.get_by_label("Check simultaneous events…").click();
    wait_for(&mut h, "the check", |app| app.windows.ties.result.is_some());
    let shown = h.state().windows.ties.result.as_ref().unwrap().as_ref().unwrap().clone();
    assert_eq!(shown, expected);
    h.get_by_label(crate::ui::ties_window::TITLE);
    h.get_by_label("scheduled");
    h.get_by_label(&format!("shuffled, seed {runs}"));
    let (low, high) = expected.makespan_range_ps();
    let figure = |ps| crate::ui::time_text::figure(hase_engine::time::SimTime(ps));
    let range = format!("depends on the order of simultaneous events: {} to {}", figure(low), figure(high));
    assert!(h.query_by_label_contains(&range).is_some(), "no verdict with {range}");
    // Escape closes it like the other analysis windows.
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert!(!h.state().windows.ties.open);
}

#[test]
fn fit_a_formula_on_a_small_experiment_recovers_it_and_draws_the_curve() {
    use hase_library::experiment::scaling::{FitOptions, Roles, fit_experiment};
    let results = hase_editor::fixtures::known_scaling_results();
    let roles = Roles { p: Some("template.procs".into()), n: Some("workload.n".into()), g: None };
    let expected = fit_experiment(
        &results.variables,
        &results.metrics,
        &results.records,
        "makespan_ps",
        &roles,
        FitOptions::terms(3),
    )
    .unwrap();
    let best = expected.formula.as_ref().unwrap().best.clone();
    let symbols: Vec<&str> = best.terms.iter().map(|t| t.term.symbol()).collect();
    assert_eq!(symbols, ["1", "n/p"], "the known formula T = 500 + 3·n/p");
    let mut h = harness_with(Project::new("empty"));
    {
        let view = &mut h.state_mut().windows.experiments;
        view.open = true;
        view.tab = hase_editor::experiments::ExperimentsTab::Results;
        view.plot.metric = "makespan_ps".into();
        view.plot.x = "template.procs".into();
        view.plot.series = Some("workload.n".into());
        view.results = Some(results);
    }
    h.run_steps(3);
    h.get_by_label("Fit a formula…").click();
    h.run_steps(3);
    // The first variable plays p; the problem size is chosen as n.
    assert_eq!(h.state().windows.experiments.fit.p, "template.procs");
    h.state_mut().windows.experiments.fit.n = "workload.n".into();
    h.get_by_label("Fit now").click();
    h.run_steps(3);
    // The window keeps below the menu and the toolbar as the fit adds its lines.
    let top = h.get_all_by_label("Experiments").map(|n| n.rect().top()).fold(f32::INFINITY, f32::min);
    assert!(top >= h.state().below_bars.top(), "the window rose over the bars: {top}");
    // The coefficients in the metric's unit (picoseconds here).
    let formula = hase_editor::experiments::fit_text::formula_text("makespan_ps", &best);
    assert!(formula.contains(" ps"), "{formula}");
    h.get_by_label(&format!("makespan_ps ≈ {formula}"));
    h.get_by_label_contains(&format!("R² {:.6}", best.r_squared));
    // Each series fitted on its own runs too (one line each), and its curve drawn over it (the
    // legend entries).
    let fits = &h.state().windows.experiments.fit.series;
    assert_eq!(fits.len(), 2);
    assert!(fits.iter().all(|(_, f)| f.as_ref().is_ok_and(|f| f.samples.len() == 8)));
    assert_eq!(h.query_all_by_label_contains(": makespan_ps ≈").count(), 2);
    assert_eq!(h.query_all_by_label_contains("fit: ").count(), 2);

    // Extrapolated to a larger machine and problem: typed as `--predict` takes it, the line
    // printed is the library's prediction.
    let at = hase_library::fit::Point::parse("p=1024, n=1M").unwrap();
    let known = hase_editor::fixtures::known_scaling_results();
    let ahead = fit_experiment(
        &known.variables,
        &known.metrics,
        &known.records,
        "makespan_ps",
        &roles,
        FitOptions { predict: &[at], ..FitOptions::terms(3) },
    )
    .unwrap();
    h.get_by_label("predict at").click();
    h.run_steps(1);
    h.get_by_label("predict at").type_text("p=1024, n=1M");
    h.run_steps(1);
    h.get_by_label("Fit now").click();
    h.run_steps(3);
    // At the roles used (no g), the time in the metric's unit.
    let predicted = hase_editor::experiments::fit_text::prediction_text(&ahead, &ahead.predictions[0]);
    assert!(
        predicted.contains("predicted at p = 1024, n = 1048576: ") && predicted.ends_with(" ps"),
        "{predicted}"
    );
    h.get_by_label_contains(&predicted);
}

#[test]
fn two_trace_files_compared_in_difference_mode() {
    use crate::file_dialog::Backend;
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for (name, example) in [
        ("fat.htb", hase_library::examples::fat_tree_allreduce().unwrap().project),
        ("binary.htb", hase_library::examples::binary_tree_allreduce().unwrap().project),
    ] {
        let path = dir.path().join(name);
        let settings = NextRunSettings::from_project(&example);
        let options = RunOptions {
            seed: Some(settings.seed),
            level: Some(settings.level),
            trace: TraceTarget::File(path.clone()),
            ..RunOptions::default()
        };
        run_project(&example, &options, |_| {}).unwrap();
        paths.push(path);
    }
    let (a, b) = (Trace::load(&paths[0]).unwrap(), Trace::load(&paths[1]).unwrap());
    let top = hase_editor::analysis_views::difference::TABLE_ROWS;
    let oracle = diff_traces(&a, &b, DiffOptions { top, ..DiffOptions::default() });
    let mut h = harness_with(hase_library::examples::fat_tree_allreduce().unwrap().project);
    h.state_mut().editor.file = Some(dir.path().join("design.ron"));
    h.state_mut().files.backend = Backend::InApp;
    super::choose_compare_item(&mut h, "Two trace files…");
    for (title, name) in
        [("Compare traces: the left trace", "fat.htb"), ("Compare traces: the right trace", "binary.htb")]
    {
        wait_for(&mut h, title, |app| app.files.is_open());
        h.get_by_label(title);
        h.get_by_label(name).click();
        h.run_steps(2);
        h.get_by_label("Open").click();
        h.run_steps(3);
    }
    wait_for(&mut h, "both traces", |app| {
        app.session.compare.as_ref().is_some_and(|c| c.sides.iter().all(|s| s.run.is_some()))
    });
    let compare = h.state().session.compare.as_ref().unwrap();
    assert_eq!(compare.title, "Compare traces: fat.htb vs binary.htb");
    // Both sides draw on the open fat tree: the binary tree's trace is named as another design's.
    let said: Vec<&str> = h.state().editor.log.iter().map(|l| l.text.as_str()).collect();
    assert!(
        said.iter().any(|t| t.starts_with("comparison, right side: this trace is not a run of")),
        "{said:?}"
    );
    assert!(!said.iter().any(|t| t.starts_with("comparison, left side")), "{said:?}");
    assert!(compare.sides.iter().all(|s| !s.run.as_ref().unwrap().trace.records.is_empty()));
    h.get_by_label("Differences").click();
    wait_for(&mut h, "the comparison", |app| app.session.timing.analysis.difference.last().is_some());
    let computed = h.state().session.timing.analysis.difference.last().unwrap();
    assert_eq!(computed.diff, oracle, "the loaded traces are compared as they are");
    h.get_by_label(&oracle.rows[0].name);
}
