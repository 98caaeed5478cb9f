//! Unit tests of the experiments view model: summaries over repetitions, the plotted series,
//! speedup and efficiency against a baseline, the heatmap grid, the ratio of two experiments point
//! by point, the table's order, the builder's spec and preview, and a stored sweep cancelled then
//! resumed.

#![allow(clippy::float_cmp, reason = "the values compared are exact: small integers and their halves")]

use hase_library::experiment::example::{PROJECT_TEXT, SPEC_TEXT};
use hase_library::experiment::{MetricValue, RunKey, RunRecord, RunStatus, spec_from_ron, spec_to_ron};

use super::builder::{CombineMode, SweepBuilder, VariableRow};
use super::plot::{
    MeanBand, PLOT_KINDS, PlotKind, PlotSettings, Plotted, PointSet, RatioSource, build, heatmap, lines,
    ratio,
};
use super::results::{Results, summarise};
use super::table::{SortColumn, TableSort};
use super::{ExperimentsTab, ExperimentsView};

fn record(point: u64, repetition: u32, values: &[&str], time: Option<u64>) -> RunRecord {
    RunRecord {
        key: RunKey { point, repetition },
        seed: 1,
        values: values.iter().map(|v| (*v).to_string()).collect(),
        status: if time.is_some() { RunStatus::Completed } else { RunStatus::Failed },
        detail: String::new(),
        metrics: vec![time.map(MetricValue::Int)],
        trace: None,
    }
}

/// `p` ∈ {1, 2, 4} × `net` ∈ {fat, bin}; time = 100 / p (fat) or 200 / p (bin), two repetitions
/// 10 % apart.
fn scaling(net_factor: u64) -> Results {
    let mut records = Vec::new();
    let mut point = 0;
    for net in ["fat", "bin"] {
        for p in [1u64, 2, 4] {
            let base = if net == "fat" { 100 * net_factor } else { 200 * net_factor } * 10 / p;
            let pt = p.to_string();
            records.push(record(point, 0, &[net, &pt], Some(base)));
            records.push(record(point, 1, &[net, &pt], Some(base * 11 / 10)));
            point += 1;
        }
    }
    Results {
        id: Some(1),
        name: "scaling".into(),
        variables: vec!["net".into(), "p".into()],
        metrics: vec!["makespan_ps".into()],
        runs_planned: 12,
        records,
    }
}

fn settings(kind: PlotKind) -> PlotSettings {
    PlotSettings {
        kind,
        metric: "makespan_ps".into(),
        x: "p".into(),
        series: Some("net".into()),
        band: MeanBand::MinMax,
        ..PlotSettings::default()
    }
}

#[test]
fn summaries_over_repetitions_leave_failed_runs_out() {
    let s = summarise(&[10.0, 12.0, 14.0]).unwrap();
    assert_eq!((s.mean, s.min, s.max, s.n), (12.0, 10.0, 14.0, 3));
    // Sample standard deviation 2, t(0.975, 2) = 4.303: half-width 4.303 · 2 / √3.
    assert!((s.ci95 - 4.303 * 2.0 / 3f64.sqrt()).abs() < 1e-9, "{}", s.ci95);
    assert_eq!(summarise(&[5.0]).unwrap().ci95, 0.0);
    assert!(summarise(&[]).is_none());
    let mut results = scaling(1);
    results.add(record(0, 2, &["fat", "1"], None));
    let first = &results.points()[0];
    assert_eq!((first.runs, first.failed), (3, 1));
    let m = first.metrics[0].unwrap();
    assert_eq!((m.n, m.mean, m.min, m.max), (2, 1050.0, 1000.0, 1100.0));
}

#[test]
fn lines_have_one_series_per_value_with_min_max_bands() {
    let set = PointSet::of(&scaling(1));
    let plot = lines(&set, &settings(PlotKind::Lines)).unwrap();
    let names: Vec<&str> = plot.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["net = fat", "net = bin"]);
    let fat: Vec<(f64, f64, f64, f64)> =
        plot.series[0].points.iter().map(|p| (p.x, p.y, p.lo, p.hi)).collect();
    assert_eq!(fat, [(1.0, 1050.0, 1000.0, 1100.0), (2.0, 525.0, 500.0, 550.0), (4.0, 262.5, 250.0, 275.0)]);
    assert!(plot.x_labels.is_none(), "p is numeric");
    // Without a series variable, the other variable is held at its first value.
    let mut single = settings(PlotKind::Lines);
    single.series = None;
    let plot = lines(&set, &single).unwrap();
    assert_eq!(plot.series.len(), 1);
    assert_eq!(plot.series[0].points.iter().map(|p| p.point).collect::<Vec<_>>(), [0, 1, 2]);
    single.fixed.insert("net".into(), "bin".into());
    let plot = lines(&set, &single).unwrap();
    assert_eq!(plot.series[0].points.iter().map(|p| p.point).collect::<Vec<_>>(), [3, 4, 5]);
}

#[test]
fn speedup_and_efficiency_against_the_first_point_or_a_chosen_baseline() {
    let set = PointSet::of(&scaling(1));
    let speedup = lines(&set, &settings(PlotKind::Speedup)).unwrap();
    let ys: Vec<f64> = speedup.series[0].points.iter().map(|p| p.y).collect();
    assert_eq!(ys, [1.0, 2.0, 4.0], "perfect scaling");
    let efficiency = lines(&set, &settings(PlotKind::Efficiency)).unwrap();
    assert!(efficiency.series.iter().all(|s| s.points.iter().all(|p| (p.y - 1.0).abs() < 1e-12)));
    // Against the fat tree at p = 1 (point 0), the binary tree is twice as slow everywhere.
    let mut chosen = settings(PlotKind::Speedup);
    chosen.baseline = Some(0);
    let plot = lines(&set, &chosen).unwrap();
    let bin: Vec<f64> = plot.series[1].points.iter().map(|p| p.y).collect();
    assert_eq!(bin, [0.5, 1.0, 2.0]);
    // The band flips: the fastest repetition gives the largest speedup.
    let p = &plot.series[0].points[0];
    assert!(p.lo < p.y && p.y < p.hi && (p.hi - 1050.0 / 1000.0).abs() < 1e-12);
    chosen.baseline = Some(99);
    assert!(lines(&set, &chosen).unwrap_err().to_string().contains("99"));
    let mut words = settings(PlotKind::Efficiency);
    (words.x, words.series) = ("net".into(), Some("p".into()));
    assert!(lines(&set, &words).unwrap_err().to_string().contains("numeric"));
}

#[test]
fn heatmap_grid_places_each_point_in_its_cell() {
    let set = PointSet::of(&scaling(1));
    let grid = heatmap(&set, &settings(PlotKind::Heatmap)).unwrap();
    assert_eq!(grid.x_values, ["1", "2", "4"]);
    assert_eq!(grid.y_values, ["fat", "bin"]);
    assert_eq!(
        grid.cells,
        [1050.0, 525.0, 262.5, 2100.0, 1050.0, 525.0].map(Some).to_vec(),
        "row-major, rows are the y variable"
    );
    assert_eq!(grid.points, [0, 1, 2, 3, 4, 5].map(Some).to_vec());
    let mut same = settings(PlotKind::Heatmap);
    same.series = Some("p".into());
    assert!(heatmap(&set, &same).is_err());
}

#[test]
fn ratios_match_points_within_one_experiment_and_across_two() {
    let set = PointSet::of(&scaling(1));
    let split =
        RatioSource::Split { variable: "net".into(), numerator: "fat".into(), denominator: "bin".into() };
    let r = ratio(&set, &split, None).unwrap();
    assert_eq!(r.variables, ["p"]);
    assert!(r.points.iter().all(|p| (p.metrics[0].unwrap().mean - 0.5).abs() < 1e-12));
    let mut by_p = settings(PlotKind::Ratio);
    by_p.series = None;
    let plot = lines(&r, &by_p).unwrap();
    assert_eq!(plot.series[0].points.iter().map(|p| p.x).collect::<Vec<_>>(), [1.0, 2.0, 4.0]);
    // Two experiments: the second three times slower, matched by values even with points in
    // another order and one point missing.
    let mut other = scaling(3);
    other.records.retain(|r| r.key.point != 4);
    other.records.reverse();
    for r in &mut other.records {
        r.key.point += 10;
    }
    let across = ratio(&set, &RatioSource::Experiment(2), Some(&PointSet::of(&other))).unwrap();
    assert_eq!(across.points.len(), 5, "point 4 has no partner");
    for p in &across.points {
        assert!((p.metrics[0].unwrap().mean - 1.0 / 3.0).abs() < 1e-12, "{p:?}");
    }
    let mut renamed = other.clone();
    renamed.variables[1] = "q".into();
    assert!(
        ratio(&set, &RatioSource::Experiment(2), Some(&PointSet::of(&renamed)))
            .unwrap_err()
            .to_string()
            .contains("other variables")
    );
}

#[test]
fn the_table_sorts_numbers_as_numbers_and_flips_on_a_second_click() {
    let points = scaling(1).points();
    let mut sort = TableSort::default();
    assert_eq!(sort.order(&points), [0, 1, 2, 3, 4, 5]);
    sort.click(SortColumn::Metric(0));
    let means: Vec<f64> = sort.order(&points).iter().map(|&i| points[i].metrics[0].unwrap().mean).collect();
    assert_eq!(means, [262.5, 525.0, 525.0, 1050.0, 1050.0, 2100.0]);
    sort.click(SortColumn::Metric(0));
    assert_eq!(sort.order(&points)[0], 3, "descending: the slowest first");
    sort.click(SortColumn::Variable(0));
    assert_eq!(sort.order(&points), [3, 4, 5, 0, 1, 2], "bin before fat");
}

#[test]
fn the_builder_makes_the_clis_spec_and_previews_the_example() {
    let spec = spec_from_ron(SPEC_TEXT, "example").unwrap();
    let project = hase_engine::model::project_from_ron(PROJECT_TEXT, "example.ron").unwrap();
    let builder = SweepBuilder::from_spec(&spec);
    assert_eq!(builder.to_spec(&project.name), spec, "the example round-trips through the builder");
    assert_eq!(spec_from_ron(&spec_to_ron(&builder.to_spec("x")), "s").unwrap(), spec);
    let dir = std::path::Path::new(".");
    let preview = builder.preview(&project, dir);
    assert_eq!((preview.points, preview.runs), (Some(48), Some(48)));
    assert_eq!(preview.value_counts, [Some(2), Some(4), Some(6)]);
    let mut wrong = builder.clone();
    wrong.variables[2].values = "1K..1M *lots".into();
    wrong.constraint = "bytes > 1".into();
    let preview = wrong.preview(&project, dir);
    assert!(preview.runs.is_none());
    assert!(
        preview.variable_errors[2].as_ref().is_some_and(|e| e.to_string().contains("lots")),
        "{preview:?}"
    );
    assert!(preview.variable_errors[..2].iter().all(Option::is_none));
    let mut zipped = SweepBuilder::default();
    zipped.add_variable("workload.message_bytes", "1K, 2K");
    zipped.add_variable("algorithm", "ring, reduce_bcast");
    zipped.combine = CombineMode::Zip;
    assert_eq!(zipped.preview(&project, dir).points, Some(2));
    zipped.combine = CombineMode::Groups;
    zipped.variables[1].group = zipped.variables[0].group;
    let spec = zipped.to_spec("p");
    assert_eq!(
        spec.combination,
        hase_library::experiment::Combination::Groups(vec![vec![
            "workload.message_bytes".into(),
            "algorithm".into()
        ]])
    );
    assert_eq!(zipped.preview(&project, dir).points, Some(2));
}

#[test]
fn targets_list_the_designs_parameters() {
    let project = hase_engine::model::project_from_ron(PROJECT_TEXT, "example.ron").unwrap();
    let targets = super::targets::sweep_targets(&project);
    let names: Vec<&str> = targets.iter().map(|t| t.target.as_str()).collect();
    for wanted in ["template.topology", "template.dims", "algorithm", "workload.message_bytes"] {
        assert!(names.contains(&wanted), "{wanted} missing from {names:?}");
    }
    // The collective algorithm is listed once, under its short name.
    assert!(!names.contains(&"workload.algorithm"), "the algorithm listed twice: {names:?}");
    assert!(super::targets::same_parameter("algorithm", "workload.algorithm"));
    assert!(!super::targets::same_parameter("algorithm", "workload.message_bytes"));
    assert!(names.iter().any(|n| n.starts_with("link:") && n.ends_with(".latency")), "{names:?}");
    assert!(names.iter().any(|n| n.starts_with("type:")), "{names:?}");
    let topology = targets.iter().find(|t| t.target == "template.topology").unwrap();
    assert_eq!(topology.current, "fat_tree:2x3");
    // Every listed target is one the sweep accepts with its current value.
    let builder_dir = std::path::Path::new(".");
    for t in targets.iter().filter(|t| !t.current.is_empty()) {
        let mut b = SweepBuilder::default();
        b.add_variable(&t.target, &t.current);
        let preview = b.preview(&project, builder_dir);
        assert_eq!(preview.variable_errors[0], None, "{} = {}", t.target, t.current);
    }
}

#[test]
fn a_stored_sweep_cancelled_then_resumed_runs_only_the_missing_runs() {
    let dir = tempfile::tempdir().unwrap();
    let db = hase_library::store::Database::open(dir.path()).unwrap();
    let store = hase_library::store::ExperimentStore::with_database(db).unwrap();
    let project = hase_engine::model::project_from_ron(PROJECT_TEXT, "example.ron").unwrap();
    let mut view = ExperimentsView { store: Some(store.clone()), jobs: 1, ..ExperimentsView::default() };
    view.builder.add_variable("workload.message_bytes", "1K..1M *2");
    view.builder.repetitions = 3;
    view.builder.shuffle_ties = true;
    view.start(&project, std::path::Path::new("."), "test");
    let id = view.running.as_ref().and_then(|s| s.id).unwrap();
    assert_eq!(view.tab, ExperimentsTab::Run);
    // Cancel once a few runs are in.
    let start = std::time::Instant::now();
    while view.results.as_ref().unwrap().records.len() < 2 {
        assert!(view.poll(), "ended before the cancel");
        assert!(start.elapsed().as_secs() < 60);
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    view.cancel();
    while view.poll() {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let kept = store.stored_keys(id).unwrap();
    assert!(kept.len() >= 2 && kept.len() < 33, "{} stored", kept.len());
    assert!(view.notice.as_ref().unwrap().text.contains("Resume"));
    view.resume(id);
    let resumed = view.running.as_ref().unwrap();
    assert_eq!(resumed.done_before, kept.len() as u64);
    while view.poll() {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let all = store.runs(id).unwrap();
    assert_eq!(all.len(), 33);
    assert!(store.info(id).unwrap().finished_at.is_some());
    assert_eq!(view.results.as_ref().unwrap().records, all, "the view shows every stored run");
    assert_eq!(view.tab, ExperimentsTab::Results);
    // Opened after another sweep was built, the Build tab shows the experiment opened.
    let built = view.builder.clone();
    view.builder = SweepBuilder::default();
    view.builder.add_variable("algorithm", "ring");
    view.open_stored(id);
    assert_eq!(view.builder.variables.len(), 1, "{:?}", view.builder.variables);
    assert_eq!(view.builder.variables[0].target, "workload.message_bytes");
    assert_eq!(view.builder.repetitions, 3);
    assert!(view.builder.shuffle_ties);
    assert_eq!(view.builder, built, "the spec stored and read back is the one built");
    // The resumed experiment equals one run uninterrupted (same seeds, same values).
    let mut fresh = ExperimentsView { jobs: 2, ..ExperimentsView::default() };
    fresh.builder = view.builder.clone();
    fresh.start(&project, std::path::Path::new("."), "test");
    while fresh.poll() {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let strip = |r: &[RunRecord]| -> Vec<(RunKey, u64, Option<MetricValue>)> {
        r.iter().map(|r| (r.key, r.seed, r.metrics[0])).collect()
    };
    assert_eq!(strip(&fresh.results.as_ref().unwrap().records), strip(&all));
    let point = view.point_run(3).unwrap();
    assert_eq!(point.seed, all.iter().find(|r| r.key == RunKey { point: 3, repetition: 0 }).unwrap().seed);
    assert!(point.trace.is_none(), "no traces were asked for");
}

#[test]
fn every_plot_kind_builds_from_a_small_result_set_and_is_documented() {
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/experiments.md")).unwrap();
    let results = scaling(1);
    for entry in &PLOT_KINDS {
        assert_eq!(entry.kind.label(), entry.label);
        assert!(
            docs.contains(&format!("**{}**", entry.label)),
            "docs/experiments.md describes {}",
            entry.label
        );
        let mut chosen = settings(entry.kind);
        let set = if entry.kind == PlotKind::Ratio {
            let source = RatioSource::Split {
                variable: "net".into(),
                numerator: "bin".into(),
                denominator: "fat".into(),
            };
            chosen.series = None;
            chosen.x = "p".into();
            ratio(&PointSet::of(&results), &source, None).unwrap()
        } else {
            PointSet::of(&results)
        };
        match build(&set, &chosen).unwrap() {
            Plotted::Lines(plot) => {
                assert!(!plot.series.is_empty(), "{}: no series", entry.label);
                let xs: Vec<f64> = plot.series[0].points.iter().map(|p| p.x).collect();
                assert_eq!(xs, [1.0, 2.0, 4.0], "{}: x is p", entry.label);
                // Lines keep the metric's name (the axis gives its unit); a speedup, efficiency or
                // ratio names it without `_ps`, having no unit.
                let expected = match chosen.kind {
                    PlotKind::Speedup => "speedup (makespan)",
                    PlotKind::Efficiency => "efficiency (makespan)",
                    PlotKind::Ratio => "ratio (makespan)",
                    _ => "makespan_ps",
                };
                assert_eq!(plot.y_label, expected, "{}", entry.label);
                assert!(plot.series.iter().flat_map(|s| &s.points).all(|p| p.lo <= p.y && p.y <= p.hi));
            }
            Plotted::Heatmap(grid) => {
                assert_eq!(grid.x_values, ["1", "2", "4"], "{}: columns are p", entry.label);
                assert_eq!(grid.y_values.len(), 2, "{}: rows are the networks", entry.label);
                assert!(grid.cells.iter().all(Option::is_some));
            }
        }
        assert!(!build(&set, &chosen).unwrap().csv().is_empty());
    }
}

#[test]
fn each_project_keeps_its_own_sweep_by_name() {
    let mut view = ExperimentsView::default();
    let row =
        |target: &str| VariableRow { target: target.into(), values: "1, 2".into(), ..VariableRow::default() };
    view.builder.variables.push(row("workload.message_bytes"));
    view.switch_project("fat", "binary");
    assert!(view.builder.variables.is_empty(), "a project opened for the first time starts a new sweep");
    view.builder.variables.push(row("algorithm"));
    // Another version of the same project keeps the sweep.
    view.switch_project("binary", "binary");
    assert_eq!(view.builder.variables, [row("algorithm")]);
    view.switch_project("binary", "fat");
    assert_eq!(view.builder.variables, [row("workload.message_bytes")]);
    view.switch_project("fat", "binary");
    assert_eq!(view.builder.variables, [row("algorithm")]);
    // A sweep left untouched is not kept.
    view.switch_project("binary", "untitled");
    view.switch_project("untitled", "fat");
    assert!(!view.stashed.contains_key("untitled"));
    // A point of fat's experiment opened, then another project: the sweep stays fat's.
    view.keep_sweep_of("fat");
    view.switch_project("fat (point 3)", "binary");
    assert_eq!(view.builder.variables, [row("algorithm")]);
    view.switch_project("binary", "fat");
    assert_eq!(view.builder.variables, [row("workload.message_bytes")]);
    // Back from a point to its own project: the sweep on show is that project's.
    view.keep_sweep_of("fat");
    view.switch_project("fat (point 3)", "fat");
    assert_eq!(view.builder.variables, [row("workload.message_bytes")]);
    view.switch_project("fat", "binary");
    assert_eq!(view.stashed.get("fat").map(|b| b.variables.len()), Some(1));
}
