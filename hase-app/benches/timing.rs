//! Replay frame costs.
//!
//! Timing diagram: 10 million state intervals (64 rows of 156,250, all rows on screen; and 1,024
//! rows of 9,766, a screenful drawn), 1,400 points wide. `timing_marks_*` times the shape building
//! of one frame (level of detail for every visible row, the bars' texels and the ticks' mesh, the
//! labels that fit); `timing_frame_*` a whole egui frame of the diagram with tessellation (the
//! bars' texture goes out as a texture delta, dropped here as a GPU upload would take it). At full
//! zoom-out, at mid zoom (1 % of the run) and deep zoom (a few intervals per row).
//!
//! Animator: a 1,024-processor fat tree (4-ary 5-tree, 2,304 entities) after an allreduce run;
//! `animator_overlay_*` times seeking the replay to the next frame's time and drawing the overlay
//! (states, packets, link load); `animator_frame_*` the whole canvas frame with the overlay and
//! tessellation.

#![allow(clippy::expect_used, reason = "setup failures in a benchmark are bugs to stop at")]

#[path = "common/timing_frame.rs"]
mod timing_frame;

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use egui::{Mesh, Pos2, RawInput, Rect, Vec2, pos2};
use hase_app::theme::{Palette, ReplayColours, ThemeChoice};
use hase_app::ui::animator::MapCache;
use hase_app::ui::animator::images::StateImages;
use hase_app::ui::canvas::{Canvas, CanvasContext, ReplayLayer};
use hase_app::ui::timing::draw::{DiagramScene, Geometry, RULER_HEIGHT, bar_shapes};
use hase_app::ui::timing::strip::BarStrip;
use hase_app::ui::timing::{LABEL_WIDTH, TimingView};
use hase_editor::replay::Replay;
use hase_editor::replay::columns::Intervals;
use hase_editor::replay::events::Snapshot;
use hase_editor::run::task::{RunRequest, execute};
use hase_editor::run::{NextRunSettings, RunProgress, RunSlot};
use hase_editor::session::player::Player;
use hase_editor::session::timing::TimingState;
use hase_editor::session::timing::rows::RowKind;
use hase_editor::session::timing::view::TimeView;
use hase_editor::state::Editor;
use hase_engine::model::{ParamValue, Workload};
use hase_engine::time::SimTime;
use hase_engine::trace::{EntityInfo, TraceHeader};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use timing_frame::timing_frame;

const WIDTH: f32 = 1_400.0;
const HEIGHT: f32 = 1_200.0;
const STATES: [&str; 6] = ["IDLE", "COMPUTE", "SEND", "RECV", "WAIT", "ALLREDUCE"];

/// `rows` rows of `per_row` intervals with random lengths (mean 100 ns) and states.
fn synthetic(rows: usize, per_row: usize) -> Replay {
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    let mut replay = Replay {
        header: TraceHeader {
            entities: (0..rows)
                .map(|i| EntityInfo {
                    path: format!("p{i}"),
                    type_name: "Processor".into(),
                    states: STATES.iter().map(|s| (*s).to_string()).collect(),
                    ..EntityInfo::default()
                })
                .collect(),
            ..TraceHeader::default()
        },
        ..Replay::default()
    };
    let mut end = 0;
    for _ in 0..rows {
        let mut row = Intervals::default();
        row.start.reserve(per_row);
        row.end.reserve(per_row);
        row.state.reserve(per_row);
        let mut t = 0u64;
        for _ in 0..per_row {
            let len = 1 + rng.random_range(0..200_000u64);
            row.push(t, t + len, rng.random_range(0..STATES.len() as u16));
            t += len;
        }
        end = end.max(t);
        row.build_levels();
        replay.rows.push(row);
    }
    replay.end = SimTime(end);
    replay.visited = vec![(1 << STATES.len()) - 1; rows];
    replay
}

fn zooms(end: u64) -> [(&'static str, TimeView); 3] {
    let mid = end / 2;
    [
        ("full", TimeView::fit(end, WIDTH)),
        ("mid", TimeView::showing(mid, mid + end / 100, WIDTH)),
        ("deep", TimeView::showing(mid, mid + 1_000_000, WIDTH)),
    ]
}

fn bench_timing(c: &mut Criterion) {
    let colours = ReplayColours::for_choice(ThemeChoice::Dark);
    let palette = Palette::dark();
    for (name, rows, per_row) in [("64x156k", 64, 156_250), ("1024x9766", 1_024, 9_766)] {
        let replay = synthetic(rows, per_row);
        eprintln!("{name}: {} intervals, run end {}", replay.interval_count(), replay.end);
        let shown: Vec<_> = (0..rows as u32)
            .map(|e| hase_editor::session::timing::rows::Row {
                kind: RowKind::Entity(e),
                depth: 0,
                label: format!("p{e}"),
            })
            .collect();
        let bars = Rect::from_min_max(pos2(LABEL_WIDTH, RULER_HEIGHT), pos2(LABEL_WIDTH + WIDTH, HEIGHT));
        let g = Geometry {
            ruler: Rect::from_min_max(pos2(LABEL_WIDTH, 0.0), pos2(LABEL_WIDTH + WIDTH, RULER_HEIGHT)),
            bars,
            scroll: 0.0,
        };
        for (zoom, view) in zooms(replay.end.0) {
            let scene = DiagramScene {
                replay: &replay,
                rows: &shown,
                view,
                cursors: hase_editor::session::timing::cursors::Cursors::default(),
                markers: &[],
                now_ps: view.left_ps,
                selected_rows: &[],
                arrows: false,
                colours: &colours,
                palette: &palette,
                strip_id: egui::Id::unique("bench bars"),
            };
            let mut mesh = Mesh::default();
            let mut labels = Vec::new();
            let visible = g.visible_rows(shown.len()).len();
            let strip = || {
                BarStrip::for_bars(bars, 1.0, 2 * visible, 2_048, Vec::new())
                    .expect("the strip fits a texture")
            };
            let mut texels = strip();
            let marks = bar_shapes(&scene, &g, Some(&mut texels), &mut mesh, &mut labels);
            eprintln!(
                "  {zoom}: {marks} marks, {} labels, {} strip rows, {} mesh vertices",
                labels.len(),
                texels.row_count(),
                mesh.vertices.len()
            );
            c.bench_function(&format!("timing_marks_{name}_{zoom}"), |b| {
                b.iter(|| {
                    mesh.clear();
                    labels.clear();
                    let mut texels = strip();
                    black_box(bar_shapes(&scene, &g, Some(&mut texels), &mut mesh, &mut labels));
                    black_box(texels)
                });
            });
        }
        let ctx = egui::Context::default();
        let mut state = TimingState::default();
        let mut timing_view = TimingView::default();
        for (zoom, view) in zooms(replay.end.0) {
            let size = Vec2::new(LABEL_WIDTH + WIDTH + 16.0, HEIGHT + 80.0);
            let frame = |state: &mut TimingState, timing_view: &mut TimingView| {
                timing_view.fitted_for = Some(1);
                state.view = view;
                let now_ps = view.left_ps;
                timing_frame(&ctx, &replay, (state, timing_view), (now_ps, size), (&colours, &palette));
            };
            frame(&mut state, &mut timing_view);
            c.bench_function(&format!("timing_frame_{name}_{zoom}"), |b| {
                b.iter(|| frame(&mut state, &mut timing_view));
            });
        }
    }
}

fn fat_tree_run() -> (Editor, Arc<hase_editor::run::FinishedRun>) {
    let topology = hase_templates::Topology::FatTree { arity: 4, levels: 5 };
    let registry = hase_library::catalogue::registry_for(&hase_engine::model::Project::new("fat"));
    let spec = hase_templates::TemplateSpec::new(topology);
    let mut project = hase_templates::template_project(
        &spec,
        &registry,
        "Fat tree 1024",
        &hase_templates::ProjectForm::Flat,
    )
    .expect("template");
    project.workload = Workload::Program {
        name: "collective_loop".into(),
        params: [
            ("operation".to_string(), ParamValue::Text("allreduce".into())),
            ("algorithm".to_string(), ParamValue::Text("recursive_doubling".into())),
            ("message_bytes".to_string(), ParamValue::Int(4096)),
            ("iterations".to_string(), ParamValue::Int(1)),
        ]
        .into_iter()
        .collect(),
    };
    let settings = NextRunSettings { level: 2, seed: 1, until_text: String::new() };
    let request = RunRequest { project: project.clone(), file: None, settings, slot: RunSlot::Main, id: 1 };
    let run = execute(request, &Arc::new(AtomicBool::new(false)), &RunProgress::default()).expect("run");
    (Editor::new(project), Arc::from(run))
}

fn bench_animator(c: &mut Criterion) {
    let (mut editor, run) = fat_tree_run();
    eprintln!(
        "fat tree: {} entities, {} links, {} events, {} flights, end {}",
        run.replay.header.entities.len(),
        run.replay.header.links.len(),
        run.replay.log.events.len(),
        run.replay.flights().len(),
        run.replay.end
    );
    let ctx = egui::Context::default();
    let colours = ReplayColours::for_choice(ThemeChoice::Dark);
    let palette = Palette::dark();
    let mut canvas = Canvas::default();
    let mut icons = hase_app::icons::Icons::default();
    let mut images = StateImages::default();
    let mut cache = MapCache::default();
    let mut snap = Snapshot::default();
    let mut player = Player::default();
    player.adopt_run(run.replay.end);
    // Playback at 60 frames per second: each frame moves 1/60 s at the default speed.
    let step = SimTime::from_f64_ps(player.speed_ps_per_s / 60.0);
    let input = || RawInput {
        screen_rect: Some(Rect::from_min_size(Pos2::ZERO, Vec2::new(1_280.0, 800.0))),
        ..RawInput::default()
    };
    // `with_replay` false: the canvas alone, for the cost the replay layers add.
    let mut frame = |with_replay: bool, player: &mut Player, editor: &mut Editor, canvas: &mut Canvas| {
        player.time = SimTime((player.time.0 + step.0) % run.replay.end.0.max(1));
        let mut drawn = None;
        let mut out = ctx.run_ui(input(), |ui| {
            icons.ensure_loaded(ui.ctx());
            egui::CentralPanel::no_frame().show(ui, |ui| {
                run.replay.log.seek(&mut snap, player.time);
                let replay = with_replay.then(|| ReplayLayer {
                    run: &run,
                    snap: &snap,
                    player,
                    clock_end: run.replay.end,
                    map: &mut cache,
                    images: &mut images,
                    colours: &colours,
                    stale: false,
                    critical: None,
                });
                let cx = CanvasContext { icons: &icons, palette: &palette, replay, fit: false };
                for command in canvas.show(ui, editor, cx).commands {
                    editor.apply(command);
                }
                drawn = Some(canvas.drawn_replay);
            });
        });
        let primitives = ctx.tessellate(std::mem::take(&mut out.shapes), out.pixels_per_point);
        black_box(primitives.len());
        out.textures_delta.clear();
        drawn
    };
    // Lay the canvas out once (fit), then measure with everything in view and zoomed in.
    frame(true, &mut player, &mut editor, &mut canvas);
    for (name, zoom) in [("all_in_view", None), ("zoom_0.6", Some(0.6f32))] {
        if let Some(z) = zoom {
            let net = editor.current_net();
            let mut v = canvas.view(&net);
            v.pan = v.pan / v.zoom * z;
            v.zoom = z;
            canvas.set_view(&net, v);
        }
        player.time = SimTime(run.replay.end.0 / 3);
        let drawn = frame(true, &mut player, &mut editor, &mut canvas);
        eprintln!("{name}: {drawn:?}");
        c.bench_function(&format!("animator_canvas_only_fat_tree_1024_{name}"), |b| {
            b.iter(|| frame(false, &mut player, &mut editor, &mut canvas));
        });
        c.bench_function(&format!("animator_frame_fat_tree_1024_{name}"), |b| {
            b.iter(|| frame(true, &mut player, &mut editor, &mut canvas));
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench_timing, bench_animator
}
criterion_main!(benches);
