//! Workflow tests of running and replaying, driving the real widgets with egui_kittest: run a
//! project and read its summary, play/pause/step by keyboard, place O and X on the timing diagram
//! and read the difference, fold and unfold a compound row, reveal a problem's entity from the log,
//! and open the fat tree vs binary tree comparison.

use std::sync::atomic::Ordering;

use egui::{Key, Modifiers, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use hase_engine::time::SimTime;

use super::wait_for;
use crate::app::{App, StartOptions};
use crate::ui::time_text::{at, span};
use crate::ui::timing::LABEL_WIDTH;
use crate::ui::timing::draw::{ROW_HEIGHT, RULER_HEIGHT};
use crate::ui::timing::readout::readout;
use hase_editor::session::timing::rows::RowKind;

pub(crate) fn harness_with(project: hase_engine::model::Project) -> Harness<'static, App> {
    let mut app = App::new(StartOptions::default());
    app.editor.replace_project(project, None);
    super::harness_sized(app, Vec2::new(1500.0, 1000.0))
}

/// Press and release the primary button at `at`.
pub(crate) fn click(h: &mut Harness<'_, App>, at: egui::Pos2) {
    h.hover_at(at);
    h.step();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
    h.run_steps(3);
}

fn binary_tree() -> Harness<'static, App> {
    harness_with(hase_library::examples::binary_tree_allreduce().unwrap().project)
}

/// File ▸ Open example ▸ the fat tree vs binary tree comparison, until both runs are in.
pub(crate) fn open_comparison_example(h: &mut Harness<'_, App>) {
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Open example").hover();
    h.run_steps(2);
    h.get_by_label("Compare: fat tree vs binary tree").click();
    wait_for(h, "both runs", |app| {
        app.session.compare.as_ref().is_some_and(|c| c.sides.iter().all(|s| s.run.is_some()))
    });
}

pub(crate) fn run_design(h: &mut Harness<'_, App>) {
    h.get_by_label("▶ Run").click();
    wait_for(h, "the run", |app| app.session.current.is_some() && app.session.live.is_empty());
}

#[test]
fn run_a_project_and_see_the_summary() {
    let mut h = binary_tree();
    run_design(&mut h);
    let run = h.state().session.current.clone().unwrap();
    assert_eq!(run.stats.outcome, "completed");
    // The status bar and the statistics tab show the outcome and makespan.
    let makespan = crate::ui::time_text::figure(SimTime(run.stats.makespan_ps));
    assert_eq!(makespan, "1.156 ms");
    h.get_by_label(&format!("last run: completed at {makespan}"));
    h.get_by_label(&format!("{} events simulated", run.stats.events));
    h.get_by_label("Statistics").click();
    h.run_steps(3);
    h.get_by_label(&format!("makespan {makespan}"));
    h.get_by_label(&format!("{} events", run.stats.events));
    // The run went through the hase-sim thread and built the replay views from its records.
    assert!(!run.replay.log.events.is_empty());
    assert_eq!(run.replay.rows.len(), 15);
}

#[test]
fn toolbar_and_inspector_edit_the_same_saved_run_settings() {
    let mut h = binary_tree();
    let settings = |h: &Harness<'_, App>| h.state().editor.doc.project.settings.clone();
    // The toolbar's run-until becomes the project's (undoable, saved with it) once typed.
    h.get_by_label("run until").focus();
    h.run_steps(2);
    h.get_by_label("run until").type_text("300us");
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert_eq!(settings(&h).until, Some(SimTime::from_us(300)));
    assert!(h.state().editor.history.undo_label().is_some_and(|l| l.contains("run settings")));
    // The inspector's seed reaches the toolbar, and the run uses both.
    h.get_by_label("Seed").focus();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("Seed").type_text("42");
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert_eq!(settings(&h).seed, 42);
    assert_eq!(h.state().session.settings.seed, 42, "the toolbar follows the inspector");
    run_design(&mut h);
    let run = h.state().session.current.clone().unwrap();
    assert_eq!(run.stats.makespan_ps, SimTime::from_us(300).0, "stopped at the run-until time");
    // Undo takes both back, and the toolbar follows.
    for _ in 0..2 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run_steps(2);
    }
    assert_eq!(settings(&h), hase_engine::model::RunSettings::default());
    assert_eq!(h.state().session.settings.until_text, "");
}

#[test]
fn a_long_run_keeps_the_window_working_and_stop_ends_it() {
    let mut project = hase_library::examples::fat_tree_allreduce().unwrap().project;
    // A million iterations of the allreduce: far more than a billion events if left alone.
    let hase_engine::model::Workload::Program { params, .. } = &mut project.workload else { panic!() };
    params.insert("iterations".into(), hase_engine::model::ParamValue::Int(1_000_000));
    let mut h = harness_with(project);
    h.get_by_label("▶ Run").click();
    // The estimate says it is big: run it anyway.
    wait_for(&mut h, "the big run's question", |app| app.run_size.question.is_some());
    h.get_by_label("Run anyway").click();
    wait_for(&mut h, "progress", |app| {
        app.session.live.first().is_some_and(|l| l.progress.events.load(Ordering::Relaxed) > 100_000)
    });
    // The window answers while the worker runs: a tab switch and a selection go through.
    h.get_by_label("Statistics").click();
    h.run_steps(2);
    assert_eq!(h.state().dock.tab, crate::ui::dock::DockTab::Statistics);
    assert!(!h.state().session.live.is_empty(), "still running");
    h.get_by_label("■ Stop").click();
    wait_for(&mut h, "the stop", |app| app.session.live.is_empty() && app.session.current.is_some());
    let run = h.state().session.current.clone().unwrap();
    assert_eq!(run.stats.outcome, "cancelled");
    assert!(run.stats.events > 100_000 && run.stats.events < 1_000_000_000, "{} events", run.stats.events);
}

#[test]
fn play_pause_and_step_by_keyboard() {
    let mut h = binary_tree();
    run_design(&mut h);
    h.key_press(Key::Space);
    h.run_steps(5);
    let t = h.state().session.player.time;
    assert!(h.state().session.player.playing);
    assert!(t > SimTime::ZERO, "playing moves the clock");
    h.key_press(Key::Space);
    h.run_steps(2);
    assert!(!h.state().session.player.playing);
    let paused = h.state().session.player.time;
    h.run_steps(3);
    assert_eq!(h.state().session.player.time, paused, "paused clocks stand still");
    // Stepping lands exactly on the next and previous events of the trace.
    let log = h.state().session.current.clone().unwrap();
    let next = log.replay.log.next_event_after(paused, 2).unwrap();
    h.key_press(Key::ArrowRight);
    h.run_steps(2);
    assert_eq!(h.state().session.player.time, next);
    let previous = log.replay.log.previous_event_before(next, 2).unwrap();
    h.key_press(Key::ArrowLeft);
    h.run_steps(2);
    assert_eq!(h.state().session.player.time, previous);
    assert!(previous <= paused);
}

/// Where the timing diagrams were drawn in the last frame.
fn diagrams_area(app: &App) -> egui::Rect {
    app.dock.timing_area.unwrap_or(egui::Rect::NOTHING)
}

/// Screen x of time `t` on the (single) diagram.
pub(crate) fn diagram_x(app: &App, t: u64) -> f32 {
    let timing = &app.session.timing;
    timing.view.x_of(diagrams_area(app).min.x + LABEL_WIDTH, t)
}

/// Screen y of the middle of row `i`.
pub(crate) fn row_y(app: &App, i: usize) -> f32 {
    let timing = &app.dock.timing;
    diagrams_area(app).min.y + RULER_HEIGHT + (i as f32 + 0.5) * ROW_HEIGHT - timing.scroll
}

#[test]
fn place_o_and_x_by_key_snapping_to_state_edges_and_read_the_difference() {
    let mut h = binary_tree();
    run_design(&mut h);
    let run = h.state().session.current.clone().unwrap();
    // p0 (row 0) leaves its first ALLREDUCE and enters its second one: two state edges.
    let p0 = &run.replay.rows[0];
    let (first_end, later_edge) = (p0.end[0], p0.end[1]);
    assert!(later_edge > first_end);
    let y = row_y(h.state(), 0);
    // Two points right of each edge: the cursors snap onto the edges.
    for (t, key) in [(first_end, Key::O), (later_edge, Key::X)] {
        let x = diagram_x(h.state(), t) + 2.0;
        h.hover_at(egui::pos2(x, y));
        h.step();
        h.key_press(key);
        h.run_steps(2);
    }
    let cursors = h.state().session.timing.cursors;
    assert_eq!((cursors.o, cursors.x), (Some(first_end), Some(later_edge)));
    assert_eq!(cursors.difference(), Some(i128::from(later_edge - first_end)));
    let resolution = h.state().session.timing.resolution_ps();
    let text = readout(&cursors, resolution);
    assert!(text.contains("X − O"));
    h.get_by_label(&text);
    // The O–X figures: p0 spent the whole interval in states, and sent messages in it.
    h.get_by_label("O–X figures").click();
    h.run_steps(3);
    // The table took width and the whole run is shown in it: another resolution.
    let resolution = h.state().session.timing.resolution_ps();
    h.get_by_label(&format!(
        "{} – {}  ({})",
        at(SimTime(first_end), resolution),
        at(SimTime(later_edge), resolution),
        span(i128::from(later_edge - first_end), resolution)
    ));
}

#[test]
fn fold_and_unfold_a_compound_row() {
    let mut h = harness_with(hase_library::examples::abstraction_toggle().unwrap().project);
    run_design(&mut h);
    let run = h.state().session.current.clone().unwrap();
    assert_eq!(run.replay.header.groups.len(), 1, "the detailed fabric is one group");
    let rows = |app: &App| app.session.timing.rows_of(&app.session.current.as_ref().unwrap().replay);
    let folded = rows(h.state());
    let group_row = folded.iter().position(|r| matches!(r.kind, RowKind::Group(_))).unwrap();
    let members = run.replay.groups[0].members.len();
    assert!(members > 1);
    // Click the group's label: it unfolds into its members.
    let x = diagrams_area(h.state()).min.x + 40.0;
    let y = row_y(h.state(), group_row);
    click(&mut h, egui::pos2(x, y));
    let unfolded = rows(h.state());
    assert_eq!(unfolded.len(), folded.len() + members);
    // And folds back.
    click(&mut h, egui::pos2(x, y));
    assert_eq!(rows(h.state()).len(), folded.len());
}

#[test]
fn a_problem_in_the_log_reveals_its_entity() {
    let mut project = hase_library::examples::binary_tree_allreduce().unwrap().project;
    project.network.links.retain(|l| l.a.instance != "p3" && l.b.instance != "p3");
    let mut h = harness_with(project);
    h.get_by_label("▶ Run").click();
    wait_for(&mut h, "the refusal", |app| {
        app.session.live.is_empty() && app.editor.log.iter().any(|l| l.path.is_some())
    });
    assert!(h.state().session.current.is_none());
    let line =
        h.state().editor.log.iter().find(|l| l.path.as_deref() == Some("p3.net")).unwrap().text.clone();
    h.get_by_label(&line).click();
    h.run_steps(3);
    assert!(h.state().editor.selection.instances.contains("p3"));
}

#[test]
fn a_design_check_problem_reveals_its_entity() {
    let mut project = hase_library::examples::binary_tree_allreduce().unwrap().project;
    project.network.links.retain(|l| l.a.instance != "p5" && l.b.instance != "p5");
    let mut h = harness_with(project);
    h.key_press(Key::F7);
    h.run_steps(3);
    let line = h.state().editor.log.iter().find(|l| l.path.as_deref() == Some("p5.net")).cloned();
    let line = line.expect("the unconnected port is logged with its path").text;
    assert!(line.starts_with("p5.net: "), "{line}");
    assert!(h.state().editor.selection.instances.is_empty());
    h.get_by_label(&line).click();
    h.run_steps(3);
    assert!(h.state().editor.selection.instances.contains("p5"));
}

#[test]
fn open_the_comparison_example_and_run_both_trees() {
    let mut h = harness_with(hase_engine::model::Project::new("empty"));
    open_comparison_example(&mut h);
    let compare = h.state().session.compare.as_ref().unwrap();
    let spans: Vec<u64> = compare.sides.iter().map(|s| s.run.as_ref().unwrap().stats.makespan_ps).collect();
    // Left to right as the menu names them: the fat tree (left) is faster than the binary tree.
    assert_eq!(compare.sides[0].name(), "Allreduce on a fat tree");
    assert!(spans[1] > 2 * spans[0], "{spans:?}");
    let summary = crate::ui::compare::summary(compare);
    assert!(summary.ends_with(&format!("right / left = {:.2}×", spans[1] as f64 / spans[0] as f64)));
    h.get_by_label(&summary);
    // One clock for both: the diagrams share the view and the player spans the longer run.
    assert_eq!(h.state().session.clock_end(), SimTime(spans[1]));
    h.key_press_modifiers(Modifiers::NONE, Key::Space);
    h.run_steps(4);
    assert!(h.state().session.player.time > SimTime::ZERO);
}

#[test]
fn a_router_s_live_values_are_offered_displayed_and_replayed() {
    use hase_editor::replay::events::Change;
    use hase_engine::model::ParamDisplay;

    use hase_editor::command::EditCommand;

    let mut h = binary_tree();
    h.state_mut().editor.selection.only("s_l0_0");
    h.run_steps(3);
    // The inspector offers the router's live values for display beside its parameters.
    h.get_by_label("Live values");
    h.get_by_label("out_queue");
    let net = h.state().editor.current_net();
    for param in ["queued", "out_queue"] {
        let display = ParamDisplay::NameValue;
        let set = EditCommand::SetDisplay {
            net: net.clone(),
            instance: "s_l0_0".into(),
            param: param.into(),
            display,
        };
        assert!(h.state_mut().editor.run(set));
    }
    run_design(&mut h);
    let run = h.state().session.current.clone().unwrap();
    let e = run.replay.by_path["s_l0_0"];
    assert_eq!(*run.replay.header.entities[e as usize].params, ["queued", "out_queue"]);
    // Go to the router's first read of an output queue: the replay state has the read, and the
    // animator draws both values with marked cells.
    let read_at = run
        .replay
        .log
        .events
        .iter()
        .find_map(|ev| match run.replay.log.change(ev) {
            Change::ArrayRead { entity, .. } if entity == e => Some(SimTime(ev.time)),
            _ => None,
        })
        .expect("the router reads its output queues");
    h.state_mut().session.player.time = read_at;
    h.run_steps(3);
    let cursor = &h.state().session.cursor;
    assert!(cursor.arrays.range((e, 1, 0)..=(e, 1, u32::MAX)).any(|(_, c)| c.read_ps == Some(read_at.0)));
    let drawn = h.state().canvas.drawn_replay;
    assert_eq!(drawn.values, 2, "{drawn:?}");
    assert!(drawn.cells_written + drawn.cells_read > 0, "{drawn:?}");
}

#[test]
fn ranks_placed_on_half_the_processors_hide_the_others_in_the_timing_diagram() {
    let mut h = harness_with(hase_library::examples::fat_tree_allreduce().unwrap().project);
    h.get_by_label("Placement").click();
    h.run_steps(3);
    h.get_by_label("the first N").click();
    h.run_steps(3);
    h.get_by_label("N").focus();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("N").type_text("4");
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert_eq!(h.state().editor.doc.project.placement, hase_engine::model::Placement::First(4));
    assert!(h.query_by_label_contains("Ranks run on the first 4 processors").is_some());
    run_design(&mut h);
    let run = h.state().session.current.clone().unwrap();
    assert_eq!(run.stats.outcome, "completed");
    let rows = h.state().session.timing.rows_of(&run.replay);
    let shown: Vec<&str> = rows.iter().map(|r| r.label.as_str()).filter(|l| l.starts_with('p')).collect();
    assert_eq!(shown, ["p0", "p1", "p2", "p3"], "processors p4–p7 run nothing and are not shown");
    // The inspector says what a selected processor runs.
    h.state_mut().editor.selection.only("p5");
    h.run_steps(3);
    assert!(h.query_by_label_contains("Not used by the workload (processor rank 5)").is_some());
    h.state_mut().editor.selection.only("p2");
    h.run_steps(3);
    assert!(h.query_by_label_contains("Runs MPI rank 2 of the workload").is_some());
}

#[test]
fn a_run_reading_a_file_outside_the_project_folder_warns_once() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("project");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(dir.path().join("shared.txt"), "COMPUTE 1us\n").unwrap();
    let mut project = hase_library::examples::binary_tree_allreduce().unwrap().project;
    project.workload = hase_engine::model::Workload::Streams {
        streams: [(0, hase_engine::model::StreamSource::File("../shared.txt".into()))].into(),
    };
    let mut app = App::new(StartOptions::default());
    app.editor.replace_project(project, Some(folder.join("p.ron")));
    let mut h = super::harness_sized(app, Vec2::new(1500.0, 1000.0));
    for _ in 0..2 {
        run_design(&mut h);
        h.state_mut().session.current = None;
    }
    let warnings: Vec<&str> = h
        .state()
        .editor
        .log
        .iter()
        .filter(|l| l.level == hase_editor::state::LogLevel::Warning)
        .map(|l| l.text.as_str())
        .collect();
    let shared = dir.path().join("shared.txt").canonicalize().unwrap();
    assert_eq!(
        warnings,
        [format!(
            "{} reads {}, outside the project's folder",
            h.state().editor.doc.project.name,
            shared.display()
        )]
    );
}

/// A 48×48 torus running one halo exchange (4,608 entities), generated by the template.
fn torus_halo() -> hase_engine::model::Project {
    use hase_engine::model::{ParamValue, Workload};
    use hase_templates::{ProjectForm, TemplateSpec, Topology, template_project};
    let registry = hase_entities::catalogue::builtin_registry();
    let spec = TemplateSpec::new(Topology::Torus2D { x: 48, y: 48 });
    let mut project = template_project(&spec, &registry, "torus", &ProjectForm::Flat).unwrap();
    project.workload = Workload::Program {
        name: "halo2d".into(),
        params: [
            ("periodic".to_string(), ParamValue::Bool(true)),
            ("iterations".to_string(), ParamValue::Int(1)),
            ("compute_time".to_string(), ParamValue::Time(SimTime::from_us(1))),
        ]
        .into(),
    };
    project
}

#[test]
fn a_large_network_seen_from_far_is_one_image_that_still_shows_the_run() {
    let mut h = harness_with(torus_halo());
    let net = h.state().editor.current_net();
    h.state_mut().canvas.fit(&net);
    h.run_steps(3);
    let fitted = h.state().canvas.view(&net);
    // Zoomed out until the entities are under two points across: one image, every entity in it.
    let at_zoom = |zoom: f32| crate::ui::canvas::view::View { pan: fitted.pan * (zoom / fitted.zoom), zoom };
    let far = at_zoom(fitted.zoom.min(0.03));
    h.state_mut().canvas.set_view(&net, far);
    h.run_steps(3);
    let (drawn_far, nodes) = (h.state().canvas.drawn_far, h.state().canvas.drawn_nodes);
    assert!(drawn_far, "4,608 entities under two points across are drawn as one image ({nodes} in view)");
    assert_eq!(h.state().canvas.drawn_nodes, 4_608);
    run_design(&mut h);
    // While the faces are on their way, every entity takes its state's colour, the loaded links
    // their load's, and each message on the wire is a dot.
    let run = h.state().session.current.clone().unwrap();
    let first = run.replay.flights().iter().map(|f| f.depart.0).min().unwrap();
    let busy = run.replay.flights().iter().filter(|f| f.depart.0 <= first && first < f.arrive.0).count();
    h.state_mut().session.player.time = SimTime(first);
    h.state_mut().canvas.set_view(&net, far);
    h.run_steps(3);
    assert!(h.state().canvas.drawn_far);
    let drawn = h.state().canvas.drawn_replay;
    assert_eq!(drawn.nodes, 4_608, "{drawn:?}");
    assert_eq!(drawn.packets, busy, "{drawn:?}");
    assert!(drawn.tinted_links > 0, "{drawn:?}");
    // The image is kept while nothing it shows changes: moving the pointer over it draws none.
    let images = h.state().canvas.far_images_drawn;
    let area = h.state().canvas.area;
    for k in 1..=5 {
        h.hover_at(area.min + (area.size() * k as f32 / 6.0));
        h.run_steps(2);
    }
    assert_eq!(h.state().canvas.far_images_drawn, images, "hovering keeps the image");
    assert_eq!(h.state().canvas.drawn_replay, drawn, "and its counts");
    // Another moment of the run, or a selection, is a new image.
    h.state_mut().session.player.time = SimTime(first + 1);
    h.run_steps(2);
    assert_eq!(h.state().canvas.far_images_drawn, images + 1);
    // Each moment shows its own messages, not those kept from the moment before, and going back
    // shows the first again.
    let on_wire = |t: u64| run.replay.flights().iter().filter(|f| f.depart.0 <= t && t < f.arrive.0).count();
    assert_eq!(h.state().canvas.drawn_replay.packets, on_wire(first + 1));
    h.state_mut().session.player.time = SimTime(first);
    h.run_steps(2);
    assert_eq!(h.state().canvas.far_images_drawn, images + 2);
    assert_eq!(h.state().canvas.drawn_replay, drawn, "back at the first moment");
    h.state_mut().editor.selection.only("r_0_0");
    h.run_steps(2);
    assert_eq!(h.state().canvas.far_images_drawn, images + 3);
    // Zoomed in, the entities are shapes again, with their states and packets drawn one by one.
    let near = at_zoom(0.5);
    h.state_mut().canvas.set_view(&net, near);
    h.run_steps(3);
    assert!(!h.state().canvas.drawn_far);
    assert!(h.state().canvas.drawn_nodes < 4_608);
    assert!(h.state().canvas.drawn_replay.nodes > 0);
}
