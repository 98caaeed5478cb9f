//! Per-panel kittest harnesses: each panel alone in a harness of its own, driven through its
//! context struct as the app drives it (the whole-app workflows are in the other files of `gui_tests`): the timing
//! diagram, the animator's replay bar, the inspector and the palette. Each also compares its
//! rendering with an image in `hase-app/tests/snapshots/` (wgpu on Mesa's software rasteriser;
//! `UPDATE_SNAPSHOTS=1 cargo test -p hase-app gui_tests::panels` rewrites them after a deliberate change).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use egui::{Key, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use hase_engine::model::{AbstractionLevel, Project};
use hase_engine::time::SimTime;

use crate::icons::Icons;
use crate::theme::{Palette, ReplayColours};
use crate::ui::animator::controls::{ControlsContext, show as show_controls};
use crate::ui::inspector::Inspector;
use crate::ui::palette::PalettePanel;
use crate::ui::time_text;
use crate::ui::timing::readout::readout;
use crate::ui::timing::{Diagram, TimingContext, TimingView, show as show_timing};
use hase_editor::run::task::{RunRequest, execute};
use hase_editor::run::{FinishedRun, NextRunSettings, RunProgress, RunSlot};
use hase_editor::session::Session;
use hase_editor::session::timing::TimingState;
use hase_editor::state::{Editor, ThemeChoice};
use hase_editor::tasks::Tasks;

/// The renderer of every snapshot: wgpu on OpenGL (Mesa's llvmpipe on a machine without a GPU),
/// pinned so that a Vulkan software driver installed later does not change the pixels.
pub(super) fn gl_setup() -> egui_wgpu::WgpuSetup {
    let mut setup = egui_kittest::wgpu::default_wgpu_setup();
    if let egui_wgpu::WgpuSetup::CreateNew(create) = &mut setup {
        create.instance_descriptor.backends = egui_wgpu::wgpu::Backends::GL;
    }
    setup
}

pub(super) fn run(project: Project) -> Arc<FinishedRun> {
    let settings = NextRunSettings::from_project(&project);
    let request = RunRequest { project, file: None, settings, slot: RunSlot::Main, id: 1 };
    Arc::from(execute(request, &Arc::new(AtomicBool::new(false)), &RunProgress::default()).unwrap())
}

fn compound_run() -> Arc<FinishedRun> {
    let mut project = hase_library::examples::abstraction_toggle().unwrap().project;
    for instance in project.network.instances.values_mut() {
        instance.level = AbstractionLevel::Detailed;
    }
    run(project)
}

struct TimingPanel {
    state: TimingState,
    view: TimingView,
    /// Where the diagrams were drawn in the last frame.
    area: egui::Rect,
    run: Arc<FinishedRun>,
    /// A second run: the two are shown as a comparison.
    other: Option<Arc<FinishedRun>>,
    now_ps: u64,
}

fn timing_harness(run: Arc<FinishedRun>) -> Harness<'static, TimingPanel> {
    comparison_harness(run, None)
}

fn comparison_harness(
    run: Arc<FinishedRun>,
    other: Option<Arc<FinishedRun>>,
) -> Harness<'static, TimingPanel> {
    let colours = ReplayColours::for_choice(ThemeChoice::Dark);
    let palette = Palette::dark();
    let panel = TimingPanel {
        state: TimingState::default(),
        view: TimingView::default(),
        area: egui::Rect::NOTHING,
        run,
        other,
        now_ps: 0,
    };
    let mut h = Harness::builder().wgpu_setup(gl_setup()).with_size(Vec2::new(1200.0, 600.0)).build_ui_state(
        move |ui, p: &mut TimingPanel| {
            let compared = p.other.is_some();
            let diagrams: Vec<Diagram<'_>> = std::iter::once(&p.run)
                .chain(p.other.as_ref())
                .map(|run| Diagram {
                    replay: &run.replay,
                    title: compared.then(|| run.label.clone()),
                    selected: Vec::new(),
                    source: Some((run.id, &run.trace)),
                    expected: run.expected.as_ref().ok(),
                })
                .collect();
            let cx = TimingContext {
                diagrams: &diagrams,
                key: p.run.id,
                now_ps: p.now_ps,
                stale: false,
                colours: &colours,
                palette: &palette,
                project: Some(&p.run.project),
            };
            let out = show_timing(ui, &p.state, &mut p.view, &cx);
            for command in out.commands {
                p.state.apply(command);
            }
            // The app finds critical paths, phases and comparisons on worker threads; the panel
            // alone finds them here.
            let runs: Vec<Arc<FinishedRun>> =
                std::iter::once(&p.run).chain(p.other.as_ref()).cloned().collect();
            let run_of = |id: u64| runs.iter().find(|r| r.id == id).cloned();
            for job in hase_editor::session::jobs_asked(&mut p.state.analysis, run_of) {
                p.state.apply(job.work_out());
            }
            if let Some(area) = out.area {
                p.area = area;
            }
            if let Some(t) = out.seek {
                p.now_ps = t;
            }
        },
        panel,
    );
    h.run_steps(3);
    h
}

#[test]
fn timing_panel_folds_compounds_and_reads_out_o_and_x() {
    let mut h = timing_harness(compound_run());
    let folded = h.state().state.rows_of(&h.state().run.replay).len();
    h.get_by_label("Unfold all").click();
    h.run_steps(2);
    let unfolded = h.state().state.rows_of(&h.state().run.replay).len();
    assert!(unfolded > folded);
    h.get_by_label("Fold all").click();
    h.run_steps(2);
    assert_eq!(h.state().state.rows_of(&h.state().run.replay).len(), folded);
    // O and X over the bars, then the readout in the zoom's digits.
    let bars = h.state().area;
    let y = bars.min.y + 60.0;
    for (x, key) in [(bars.min.x + 400.0, Key::O), (bars.min.x + 700.0, Key::X)] {
        h.hover_at(egui::pos2(x, y));
        h.step();
        h.key_press(key);
        h.run_steps(2);
    }
    let state = &h.state().state;
    let cursors = state.cursors;
    assert!(cursors.o.is_some() && cursors.x.is_some());
    h.get_by_label(&readout(&cursors, state.resolution_ps()));
    // Fit shows the whole run again after a zoom to O–X.
    h.get_by_label("Zoom O–X").click();
    h.run_steps(2);
    let zoomed = h.state().state.view.ps_per_pt;
    h.get_by_label("Fit").click();
    h.run_steps(2);
    assert!(h.state().state.view.ps_per_pt > zoomed);
    h.snapshot("timing_panel_o_and_x");
}

#[test]
fn timing_panel_draws_phase_bands_labelled_with_their_class() {
    let mut h = timing_harness(run(hase_library::examples::binary_tree_allreduce().unwrap().project));
    h.get_by_label("Phases").click();
    h.run_steps(3);
    // Recursive doubling called twice: two loosely synchronous exchanges, one band each.
    h.get_by_label("1 loosely synchronous (exchange)");
    h.get_by_label("2 loosely synchronous (exchange)");
    h.snapshot("timing_panel_phase_bands");
}

#[test]
fn timing_panel_outlines_the_critical_path_and_lists_its_blame() {
    let mut h = timing_harness(run(hase_library::examples::binary_tree_allreduce().unwrap().project));
    h.get_by_label("Critical path").click();
    h.run_steps(3);
    let found = h.state().state.analysis.critical.found(1).expect("the path is found and kept");
    let report = found.as_ref().as_ref().expect("a level-2 run has a path");
    assert_eq!(report.length, report.makespan);
    // The table names the heaviest rank and link.
    for name in [&report.ranks[0].name, &report.links[0].name] {
        assert!(h.query_all_by_label(name).next().is_some(), "{name} is listed");
    }
    h.get_by_label("Longest").click();
    h.run_steps(3);
    let longest = report.longest.as_ref().unwrap();
    assert_eq!(h.state().state.cursors.o, Some(longest.start.as_ps()));
    h.snapshot("timing_panel_critical_path");
}

#[test]
fn timing_panel_difference_mode_aligns_rows_and_lists_the_largest_differences() {
    let fat = run(hase_library::examples::fat_tree_allreduce().unwrap().project);
    let mut binary = run(hase_library::examples::binary_tree_allreduce().unwrap().project);
    Arc::get_mut(&mut binary).unwrap().id = 2;
    let mut h = comparison_harness(fat, Some(binary));
    h.get_by_label("Differences").click();
    h.run_steps(3);
    let computed = h.state().state.analysis.difference.last().unwrap();
    assert!(!computed.diff.equal);
    // The table beside the diagrams took width, and both runs are still shown whole.
    let p = h.state();
    let end = p.run.replay.end.0.max(p.other.as_ref().unwrap().replay.end.0);
    let whole = hase_editor::session::timing::view::TimeView::fit(end, p.view.bars_width);
    assert_eq!(p.state.view, whole);
    let first = computed.diff.rows[0].name.clone();
    h.get_by_label(&first);
    // The processes of both diagrams are in the same rows: aligned by rank.
    let rows = |i: usize| {
        let p = h.state();
        let run = if i == 0 { &p.run } else { p.other.as_ref().unwrap() };
        let c = p.state.analysis.difference.last().unwrap();
        let mut shown = p.state.rows_of(&run.replay).to_vec();
        let diagrams = [&p.run, p.other.as_ref().unwrap()].map(|r| Diagram {
            replay: &r.replay,
            title: None,
            selected: Vec::new(),
            source: Some((r.id, &r.trace)),
            expected: r.expected.as_ref().ok(),
        });
        crate::ui::timing::bands_and_differences::align_rows(&p.state, c, &diagrams, i, &mut shown);
        shown
            .iter()
            .map(|r| crate::ui::timing::bands_and_differences::row_key(c, i, &run.replay, r))
            .collect::<Vec<_>>()
    };
    let (left, right) = (rows(0), rows(1));
    let ranks = |keys: &[String]| keys.iter().take(8).cloned().collect::<Vec<_>>();
    assert_eq!(ranks(&left), ranks(&right));
    assert_eq!(left[0], "r0");
    h.snapshot("timing_panel_difference_mode");
}

struct Controls {
    session: Session,
    run: Arc<FinishedRun>,
}

#[test]
fn replay_bar_plays_steps_and_shows_the_speed_with_three_digits() {
    let run = run(hase_library::examples::binary_tree_allreduce().unwrap().project);
    let mut session = Session::default();
    session.current = Some(Arc::clone(&run));
    session.player.adopt_run(run.replay.end);
    let colours = ReplayColours::for_choice(ThemeChoice::Dark);
    let palette = Palette::dark();
    let mut h = Harness::builder().wgpu_setup(gl_setup()).with_size(Vec2::new(1280.0, 40.0)).build_ui_state(
        move |ui, c: &mut Controls| {
            let cx = ControlsContext {
                player: &c.session.player,
                log: &c.run.replay.log,
                end: c.run.replay.end,
                cursors: hase_editor::session::timing::cursors::Cursors::default(),
                markers: &[],
                colours: &colours,
                palette: &palette,
            };
            for command in show_controls(ui, &cx) {
                c.session.apply(command);
            }
        },
        Controls { session, run: Arc::clone(&run) },
    );
    h.run_steps(2);
    h.get_by_label(&time_text::rate(h.state().session.player.speed_ps_per_s));
    let end = run.replay.end;
    let res = h.state().session.player.resolution_ps(end);
    h.get_by_label(&format!("{} / {}", time_text::at(SimTime::ZERO, res), time_text::at(end, res)));
    h.get_by_label("▶|").click();
    h.run_steps(2);
    let first = h.state().session.player.time;
    assert!(first > SimTime::ZERO, "stepped to the first shown event");
    h.snapshot("replay_bar_first_event");
    h.get_by_label("▶ Play ").click();
    h.run_steps(2);
    assert!(h.state().session.player.playing);
    // The level selector is inside the bar at 1280 points.
    assert!(h.get_by_label("show").rect().max.x <= 1280.0);
}

struct InspectorPanel {
    inspector: Inspector,
    editor: Editor,
    tasks: Tasks,
}

#[test]
fn inspector_shows_a_compound_and_toggles_its_level() {
    let mut editor = Editor::new(hase_editor::fixtures::demo_project());
    let compound = hase_editor::fixtures::star_instance(&editor.doc.project).unwrap();
    editor.selection.only(&compound);
    let palette = Palette::dark();
    let mut h = Harness::builder().wgpu_setup(gl_setup()).with_size(Vec2::new(380.0, 900.0)).build_ui_state(
        move |ui, p: &mut InspectorPanel| {
            for command in p.inspector.show(ui, &p.editor, &p.tasks, &palette) {
                p.editor.apply(command);
            }
        },
        InspectorPanel { inspector: Inspector::default(), editor, tasks: Tasks::default() },
    );
    h.run_steps(2);
    h.get_by_label("Abstraction");
    h.get_by_label("behavioural").click();
    h.run_steps(2);
    let level = h.state().editor.doc.project.network.instances[&compound].level;
    assert_eq!(level, AbstractionLevel::Behavioural);
    assert!(h.state().editor.history.undo_label().is_some());
    h.snapshot("inspector_compound_behavioural");
}

struct PalettePanelState {
    panel: PalettePanel,
    editor: Editor,
    icons: Icons,
}

#[test]
fn palette_filters_types_and_arms_one_for_placing() {
    let editor = Editor::new(Project::new("empty"));
    let palette = Palette::dark();
    let mut h = Harness::builder().wgpu_setup(gl_setup()).with_size(Vec2::new(240.0, 800.0)).build_ui_state(
        move |ui, p: &mut PalettePanelState| {
            p.icons.ensure_loaded(ui.ctx());
            if let Some(command) = p.panel.show(ui, &p.editor, &p.icons, &palette) {
                p.editor.apply(command);
            }
        },
        PalettePanelState { panel: PalettePanel::default(), editor, icons: Icons::default() },
    );
    h.run_steps(2);
    assert!(h.query_by_label("Processor").is_some());
    h.get_by_label("Filter types").focus();
    h.step();
    h.get_by_label("Filter types").type_text("rout");
    h.run_steps(2);
    assert!(h.query_by_label("Processor").is_none(), "the filter hides what does not match");
    h.snapshot("palette_filtered");
    h.get_by_label("Router").click();
    h.run_steps(2);
    assert_eq!(h.state().editor.placing.as_deref(), Some("Router"));
    h.get_by_label("Router").click();
    h.run_steps(2);
    assert_eq!(h.state().editor.placing, None, "a second click disarms it");
}
