//! Per-panel snapshot harnesses at the two window sizes a newcomer tries, 1600×1000 and 1280×720:
//! the experiments window (Results: a heatmap with its colour bar), the inspector (a processor
//! selected), the timing diagram (phase bands, their labels above the first row) and a comparison
//! (both canvases under their headings, the stacked diagrams in a dock sized as the app sizes it).
//! Each panel is laid out as the app lays it out in a window of that size, and each test checks
//! what the window must show there before comparing the picture with
//! `hase-app/tests/snapshots/<panel>_<size>.png`.
//!
//! The pictures are deterministic: the runs are simulations with fixed seeds, the sweep's metric
//! is simulated time, the fonts are egui's own, the renderer is pinned (see `panels::gl_setup`) and
//! nothing drawn shows a wall clock. After a deliberate change of a panel's look,
//! `UPDATE_SNAPSHOTS=1 cargo test -p hase-app gui_tests::panel_sizes` rewrites the images (look at
//! each before committing it).

use std::sync::Arc;

use egui::{Panel, Vec2};
use egui_kittest::kittest::Queryable;
use egui_kittest::{Harness, SnapshotResults};
use hase_editor::experiments::plot::PlotKind;
use hase_editor::experiments::{ExperimentsTab, ExperimentsView};
use hase_editor::session::compare::thesis_example;
use hase_editor::session::{Session, SessionCommand};
use hase_editor::state::{Editor, ThemeChoice};
use hase_editor::tasks::Tasks;
use hase_engine::model::Project;

use super::panels::{gl_setup, run};
use crate::icons::Icons;
use crate::theme::{Palette, ReplayColours};
use crate::ui::animator::images::StateImages;
use crate::ui::compare::{CompareContext, CompareViews};
use crate::ui::experiments::ExperimentsContext;
use crate::ui::inspector::Inspector;
use crate::ui::timing::TimingView;
use crate::ui::timing::draw::ROW_HEIGHT;
use crate::ui::timing::tab::{TabContext, show_tab};

/// The window sizes every panel is drawn at, with the names their snapshots carry.
const SIZES: [(&str, Vec2); 2] =
    [("1600x1000", Vec2::new(1600.0, 1000.0)), ("1280x720", Vec2::new(1280.0, 720.0))];

fn harness<S>(
    size: Vec2,
    state: S,
    draw: impl FnMut(&mut egui::Ui, &mut S) + 'static,
) -> Harness<'static, S> {
    let mut h = Harness::builder().wgpu_setup(gl_setup()).with_size(size).build_ui_state(draw, state);
    h.run_steps(4);
    h
}

struct ExperimentsPanel {
    view: ExperimentsView,
    project: Project,
}

/// The fat tree's allreduce swept over message size × algorithm (makespan only), run to the end
/// in memory, its Results tab showing the heatmap.
fn swept_view(project: &Project) -> ExperimentsView {
    let mut view = ExperimentsView::default();
    (view.jobs, view.open) = (2, true);
    view.builder.add_variable("workload.message_bytes", "1K, 16K, 256K");
    view.builder.add_variable("algorithm", "ring, recursive_doubling");
    view.builder.metrics = vec!["makespan_ps".into()];
    view.start(project, std::path::Path::new("."), "the harness");
    let start = std::time::Instant::now();
    while view.poll() {
        assert!(start.elapsed() < std::time::Duration::from_mins(2), "the sweep did not finish");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(view.tab, ExperimentsTab::Results, "{:?}", view.notice);
    view.plot.kind = PlotKind::Heatmap;
    view.plot.metric = "makespan_ps".into();
    view.plot.x = "workload.message_bytes".into();
    view.plot.series = Some("algorithm".into());
    view
}

#[test]
fn experiments_window_heatmap_with_its_colour_bar_at_both_sizes() {
    let project = hase_library::examples::fat_tree_allreduce().unwrap().project;
    let view = swept_view(&project);
    // One result for every size (kittest wants a test's snapshots merged).
    let mut snapshots = SnapshotResults::new();
    for (name, size) in SIZES {
        let palette = Palette::dark();
        let panel = ExperimentsPanel { view: copy_of(&view), project: project.clone() };
        let mut h = harness(size, panel, move |ui, p: &mut ExperimentsPanel| {
            let cx = ExperimentsContext {
                project: &p.project,
                file: None,
                generation: 0,
                no_store: Some("the harness keeps no store".into()),
                palette: &palette,
                area: ui.ctx().content_rect(),
            };
            crate::ui::experiments::show(ui.ctx(), &mut p.view, &cx);
        });
        // The colour bar is titled with the metric in its unit; the window stays inside the screen.
        assert!(h.query_by_label("Results").is_some());
        let plot = h.state().view.plot_rect.expect("the heatmap is drawn");
        assert!(plot[2] <= size.x && plot[3] <= size.y, "{name}: the plot {plot:?} leaves the window");
        snapshots.add(h.try_snapshot(format!("experiments_heatmap_{name}")));
    }
}

/// A copy of `view`'s results and plot choices in a fresh, open view (a view holds a sweep's
/// channels and is not cloned).
fn copy_of(view: &ExperimentsView) -> ExperimentsView {
    let mut copy = ExperimentsView::default();
    (copy.open, copy.tab) = (true, ExperimentsTab::Results);
    copy.results.clone_from(&view.results);
    copy.plot.clone_from(&view.plot);
    copy.builder.clone_from(&view.builder);
    copy
}

struct InspectorPanel {
    inspector: Inspector,
    editor: Editor,
    tasks: Tasks,
}

#[test]
fn inspector_of_a_processor_at_both_sizes_keeps_its_width() {
    // One result for every size (kittest wants a test's snapshots merged).
    let mut snapshots = SnapshotResults::new();
    for (name, size) in SIZES {
        let editor = Editor::new(hase_library::examples::fat_tree_allreduce().unwrap().project);
        let palette = Palette::dark();
        let state = InspectorPanel { inspector: Inspector::default(), editor, tasks: Tasks::default() };
        let mut h = harness(size, state, move |ui, p: &mut InspectorPanel| {
            Panel::right("inspector").resizable(true).default_size(360.0).size_range(240.0..=600.0).show(
                ui,
                |ui| {
                    for command in p.inspector.show(ui, &p.editor, &p.tasks, &palette) {
                        p.editor.apply(command);
                    }
                },
            );
            // The canvas's right edge is the inspector's left one.
            egui::CentralPanel::default().show(ui, |ui| {
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Min), |ui| ui.label("canvas"))
            });
        });
        // The panel keeps the width it was given: selecting a router, then a processor (a wide
        // parameter grid with units) does not widen it, and every parameter row ends inside it.
        let canvas_right = |h: &Harness<'_, InspectorPanel>| h.get_by_label("canvas").rect().max.x;
        let before = canvas_right(&h);
        for entity in ["s_l0_0", "p0"] {
            h.state_mut().editor.selection.only(entity);
            h.run_steps(3);
            assert!(
                (canvas_right(&h) - before).abs() < 0.01,
                "{name}: the inspector changed width when {entity} was selected ({} to {})",
                before,
                canvas_right(&h)
            );
        }
        for row in ["rank", "eager_limit", "flops_per_s"] {
            let right = h.get_all_by_label(row).map(|n| n.rect().max.x).fold(0.0_f32, f32::max);
            assert!(right > 0.0 && right <= size.x, "{name}: {row} reaches {right}");
        }
        snapshots.add(h.try_snapshot(format!("inspector_processor_{name}")));
    }
}

struct TimingPanel {
    session: Session,
    view: TimingView,
    editor: Editor,
    area: Option<egui::Rect>,
    /// Rows revealed by a click on their label.
    revealed: Vec<String>,
}

fn show_dock_tab(ui: &mut egui::Ui, p: &mut TimingPanel, colours: &ReplayColours, palette: &Palette) {
    let cx = TabContext {
        current: p.session.current.as_deref(),
        compare: p.session.compare.as_ref(),
        editor: &p.editor,
        now: p.session.player.time,
        stale: false,
        colours,
        palette,
    };
    let (commands, area) = show_tab(ui, (&p.session.timing, &mut p.view), &cx);
    for command in commands {
        match command {
            SessionCommand::Reveal(reveal) => p.revealed.push(reveal.path),
            SessionCommand::Timing(_) => p.session.apply(command),
            _ => {}
        }
    }
    // The app works out the analyses asked for on worker threads; the panel alone does it here.
    for job in p.session.analysis_work() {
        p.session.apply(SessionCommand::Timing(job.work_out()));
    }
    p.area = area.or(p.area);
}

#[test]
fn timing_diagram_with_phase_labels_above_the_first_row_at_both_sizes() {
    let run = run(hase_library::examples::fat_tree_allreduce().unwrap().project);
    // One result for every size (kittest wants a test's snapshots merged).
    let mut snapshots = SnapshotResults::new();
    for (name, size) in SIZES {
        let mut session = Session::default();
        session.current = Some(Arc::clone(&run));
        session.player.adopt_run(run.replay.end);
        let editor = Editor::new(run.project.clone());
        let (colours, palette) = (ReplayColours::for_choice(ThemeChoice::Dark), Palette::dark());
        let state =
            TimingPanel { session, view: TimingView::default(), editor, area: None, revealed: Vec::new() };
        let mut h =
            harness(size, state, move |ui, p: &mut TimingPanel| show_dock_tab(ui, p, &colours, &palette));
        h.get_by_label("Phases").click();
        h.run_steps(4);
        // Each band's label sits above the first row (p0), not over it: a click on the row
        // labels' column at the height of a phase label finds no row, one just under it finds p0.
        let area = h.state().area.expect("the diagram is drawn");
        let label = h.get_by_label("1 loosely synchronous (exchange)").rect();
        assert!(label.min.y >= area.min.y, "{name}: the phase label leaves the diagram");
        let x = area.min.x + 20.0;
        click_at(&mut h, egui::pos2(x, label.center().y));
        assert_eq!(h.state().revealed, Vec::<String>::new(), "{name}: a row lies under the phase label");
        click_at(&mut h, egui::pos2(x, label.max.y + ROW_HEIGHT / 2.0 + 1.0));
        assert_eq!(h.state().revealed, ["p0"], "{name}: p0 is not the row under the phase labels");
        snapshots.add(h.try_snapshot(format!("timing_phases_{name}")));
    }
}

/// A click (press and release) at `pos`.
fn click_at<S>(h: &mut Harness<'_, S>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.step();
    h.drag_at(pos);
    h.step();
    h.drop_at(pos);
    h.run_steps(2);
}

struct ComparePanel {
    timing: TimingPanel,
    views: CompareViews,
    icons: Icons,
    images: StateImages,
}

#[test]
fn comparison_labels_both_canvases_and_shows_several_rows_of_each_run_at_both_sizes() {
    let mut compare = thesis_example().unwrap();
    for side in &mut compare.sides {
        side.run = Some(run(side.editor.doc.project.clone()));
    }
    Arc::get_mut(compare.sides[1].run.as_mut().unwrap()).unwrap().id = 2;
    let names: Vec<String> = compare.sides.iter().map(|s| s.name().to_string()).collect();
    // One result for every size (kittest wants a test's snapshots merged).
    let mut snapshots = SnapshotResults::new();
    for (name, size) in SIZES {
        let mut session = Session::default();
        let mut copy = thesis_example().unwrap();
        for (to, from) in copy.sides.iter_mut().zip(&compare.sides) {
            to.run.clone_from(&from.run);
        }
        session.player.adopt_run(copy.end());
        session.compare = Some(copy);
        let editor = Editor::new(Project::new("harness"));
        let (colours, palette) = (ReplayColours::for_choice(ThemeChoice::Dark), Palette::dark());
        let timing =
            TimingPanel { session, view: TimingView::default(), editor, area: None, revealed: Vec::new() };
        let state = ComparePanel {
            timing,
            views: CompareViews::default(),
            icons: Icons::default(),
            images: StateImages::default(),
        };
        let mut h = harness(size, state, move |ui, p: &mut ComparePanel| {
            p.icons.ensure_loaded(ui.ctx());
            // As the app: the dock at the bottom sized for the comparison, the canvases above.
            let sides = p.timing.session.compare.as_ref().map_or(2, |c| c.sides.len());
            let height = crate::ui::timing::compare_dock_height(sides, ui.available_height());
            Panel::bottom("dock-compare").resizable(true).default_size(height).show(ui, |ui| {
                show_dock_tab(ui, &mut p.timing, &colours, &palette);
            });
            egui::CentralPanel::default().show(ui, |ui| {
                let Some(compare) = p.timing.session.compare.as_ref() else { return };
                let cx = CompareContext {
                    player: &p.timing.session.player,
                    icons: &p.icons,
                    images: &mut p.images,
                    colours: &colours,
                    palette: &palette,
                    critical: None,
                };
                let _ = crate::ui::compare::show(ui, compare, &mut p.views, cx);
            });
        });
        h.run_steps(4);
        // Each canvas says which run it shows.
        for side in &names {
            let headings = h.query_all_by_label_contains(&format!("{side} — makespan")).count();
            assert_eq!(headings, 1, "{name}: {side} is named once over its canvas");
        }
        // Each run's diagram shows several rows: the dock has room for them, the two diagrams
        // side by side.
        let area = h.state().timing.area.expect("the diagrams are drawn");
        let panes = crate::ui::timing::diagrams::pane_rects(area, names.len());
        assert!(
            (panes[0].min.y - panes[1].min.y).abs() < 0.5 && panes[0].max.x < panes[1].min.x,
            "{name}: the diagrams are stacked at {} wide",
            area.width()
        );
        let rows = ((panes[0].height() - 18.0 - crate::ui::timing::draw::RULER_HEIGHT) / ROW_HEIGHT).floor();
        assert!(rows >= 6.0, "{name}: each diagram shows {rows} rows");
        for side in &h.state().views.sides {
            assert!(
                side.canvas.area.height() >= 180.0,
                "{name}: a canvas is {} high",
                side.canvas.area.height()
            );
        }
        snapshots.add(h.try_snapshot(format!("comparison_{name}")));
    }
}
