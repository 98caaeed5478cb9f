//! Replay on a big network: the 256×256 torus running one iteration of the halo exchange
//! (`hase new --template torus2d --dims 256x256 --program halo2d`, 65,536 processors + 65,536
//! routers, 196,608 links, about 7.2 M events) run at trace level 2 as F5 runs it. Each measure is
//! what one user action costs: a scrub to a random time of the run (seek the replay there, then the
//! whole canvas frame with the overlay and tessellation), a step to the next event (the same after
//! the step), both in the exchange (after the compute phase, where packets are on the wire), and a
//! zoom step (one wheel notch about the view's centre, the frame after it), with
//! everything in view and zoomed in on the middle. Goals: a scrub or step within 0.3 s, a zoom step
//! within 0.1 s. Beside the canvas, the timing tab: a frame of the diagram after a step, and what
//! building its 131,072 rows costs.

#![allow(clippy::expect_used, reason = "setup failures in a benchmark are bugs to stop at")]

#[path = "common/timing_frame.rs"]
mod timing_frame;

use std::collections::BTreeSet;
use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use egui::{Pos2, RawInput, Rect, Vec2};
use hase_app::icons::Icons;
use hase_app::theme::{Palette, ReplayColours, ThemeChoice};
use hase_app::ui::animator::MapCache;
use hase_app::ui::animator::images::StateImages;
use hase_app::ui::canvas::view::View;
use hase_app::ui::canvas::{Canvas, CanvasContext, ReplayLayer};
use hase_app::ui::timing::TimingView;
use hase_editor::replay::events::Snapshot;
use hase_editor::run::task::{RunRequest, execute};
use hase_editor::run::{FinishedRun, NextRunSettings, RunProgress, RunSlot};
use hase_editor::session::player::Player;
use hase_editor::session::timing::TimingState;
use hase_editor::session::timing::rows::{self, RowOptions};
use hase_editor::state::Editor;
use hase_engine::model::{ParamValue, Workload};
use hase_engine::time::SimTime;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use timing_frame::timing_frame;

/// One wheel notch of zoom.
const ZOOM_STEP: f32 = 1.1;

fn big_torus_run() -> (Editor, Arc<FinishedRun>) {
    let registry = hase_entities::catalogue::builtin_registry();
    let spec = hase_templates::TemplateSpec::new(hase_templates::Topology::Torus2D { x: 256, y: 256 });
    let mut project = hase_templates::template_project(
        &spec,
        &registry,
        "Torus 256x256",
        &hase_templates::ProjectForm::Flat,
    )
    .expect("template");
    project.workload = Workload::Program {
        name: "halo2d".into(),
        params: [
            ("periodic".to_string(), ParamValue::Bool(true)),
            ("iterations".to_string(), ParamValue::Int(1)),
        ]
        .into_iter()
        .collect(),
    };
    let settings = NextRunSettings { level: 2, seed: 1, until_text: String::new() };
    let request = RunRequest { project: project.clone(), file: None, settings, slot: RunSlot::Main, id: 1 };
    let started = Instant::now();
    let run = execute(request, &Arc::new(AtomicBool::new(false)), &RunProgress::default()).expect("run");
    eprintln!(
        "256x256 halo: {} events, {} flights, {} replay events, end {}, run + replay model in {:.1} s",
        run.stats.events,
        run.replay.flights().len(),
        run.replay.log.events.len(),
        run.replay.end,
        started.elapsed().as_secs_f64()
    );
    (Editor::new(project), Arc::from(run))
}

struct Scene {
    ctx: egui::Context,
    canvas: Canvas,
    editor: Editor,
    icons: Icons,
    images: StateImages,
    cache: MapCache,
    snap: Snapshot,
    player: Player,
    colours: ReplayColours,
    palette: Palette,
    /// Frames drawn so far.
    frames: u64,
}

impl Scene {
    /// One whole frame of the canvas with the replay overlay at the player's time (the seek
    /// included, as the app seeks its cursor in the frame), tessellated.
    fn frame(&mut self, run: &FinishedRun) {
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, Vec2::new(1_600.0, 1_000.0))),
            ..RawInput::default()
        };
        let Scene { ctx, canvas, editor, icons, images, cache, snap, player, colours, palette, frames: _ } =
            self;
        let mut out = ctx.run_ui(input, |ui| {
            icons.ensure_loaded(ui.ctx());
            egui::CentralPanel::no_frame().show(ui, |ui| {
                run.replay.log.seek(snap, player.time);
                let replay = Some(ReplayLayer {
                    run,
                    snap,
                    player,
                    clock_end: run.replay.end,
                    map: cache,
                    images,
                    colours,
                    stale: false,
                    critical: None,
                });
                let cx = CanvasContext { icons, palette, replay, fit: false };
                for command in canvas.show(ui, editor, cx).commands {
                    editor.apply(command);
                }
            });
        });
        let primitives = ctx.tessellate(std::mem::take(&mut out.shapes), out.pixels_per_point);
        black_box(primitives.len());
        out.textures_delta.clear();
        self.frames += 1;
    }

    /// Frames and far-view images drawn so far.
    fn counts(&self) -> (u64, u64) {
        (self.frames, self.canvas.far_images_drawn)
    }
}

/// Say how many of the frames since `before` drew the far view's image anew: a measure that
/// claims a new moment each frame must have redrawn it each frame.
fn report_images(name: &str, before: (u64, u64), after: (u64, u64)) {
    // A measure left out by a filter drew nothing.
    if after.0 == before.0 {
        return;
    }
    eprintln!("{name}: {} frames, {} far-view images drawn anew", after.0 - before.0, after.1 - before.1);
}

fn bench_big_torus(c: &mut Criterion) {
    let (editor, run) = big_torus_run();
    let mut player = Player::default();
    player.adopt_run(run.replay.end);
    let mut scene = Scene {
        ctx: egui::Context::default(),
        canvas: Canvas::default(),
        editor,
        icons: Icons::default(),
        images: StateImages::default(),
        cache: MapCache::default(),
        snap: Snapshot::default(),
        player,
        colours: ReplayColours::for_choice(ThemeChoice::Dark),
        palette: Palette::dark(),
        frames: 0,
    };
    // The first frame fits the network in view.
    let first = Instant::now();
    scene.frame(&run);
    eprintln!("first frame {:.2} s", first.elapsed().as_secs_f64());
    let net = scene.editor.current_net();
    let fitted = scene.canvas.view(&net);
    let centre_zoom = 0.6f32;
    let views = [
        ("all_in_view", fitted),
        // The middle of the torus at 0.6 (icons and labels drawn).
        ("zoom_0.6", View { pan: Vec2::ZERO, zoom: centre_zoom }),
    ];
    let end = run.replay.end.0.max(1);
    // Scrubs land in the exchange (from the first departure on), where the drawing is busiest:
    // before it every rank only computes.
    let exchange = run.replay.flights().iter().map(|f| f.depart.0).min().unwrap_or(0).min(end - 1);
    eprintln!("exchange from {} to {}", SimTime(exchange), run.replay.end);
    let mut rng = Pcg64Mcg::seed_from_u64(29);
    for (name, view) in views {
        scene.canvas.set_view(&net, view);
        scene.player.time = SimTime(exchange);
        scene.frame(&run);
        let before = scene.counts();
        c.bench_function(&format!("big_torus_256_scrub_{name}"), |b| {
            b.iter(|| {
                scene.player.time = SimTime(rng.random_range(exchange..end));
                scene.frame(&run);
            });
        });
        report_images(&format!("scrub {name}"), before, scene.counts());
        let before = scene.counts();
        c.bench_function(&format!("big_torus_256_step_{name}"), |b| {
            b.iter(|| {
                let next = run.replay.log.next_event_after(scene.player.time, 2);
                scene.player.time = next.filter(|t| t.0 < end).unwrap_or(SimTime(exchange));
                scene.frame(&run);
            });
        });
        report_images(&format!("step {name}"), before, scene.counts());
        let before = scene.counts();
        scene.player.time = SimTime(exchange + (end - exchange) / 3);
        let mut zoom_in = true;
        c.bench_function(&format!("big_torus_256_zoom_step_{name}"), |b| {
            b.iter(|| {
                let mut v = scene.canvas.view(&net);
                let area = scene.canvas.area;
                v.zoom_about(area, area.center(), if zoom_in { ZOOM_STEP } else { 1.0 / ZOOM_STEP });
                zoom_in = !zoom_in;
                scene.canvas.set_view(&net, v);
                scene.frame(&run);
            });
        });
        report_images(&format!("zoom step {name}"), before, scene.counts());
    }
    bench_big_torus_timing(c, &run);
}

/// The timing tab beside the canvas: one whole frame of the diagram (131,072 rows, a screenful
/// drawn) at the player's time, tessellated, and what building the rows alone costs (the work the
/// rows kept between frames save).
fn bench_big_torus_timing(c: &mut Criterion, run: &FinishedRun) {
    let colours = ReplayColours::for_choice(ThemeChoice::Dark);
    let palette = Palette::dark();
    let ctx = egui::Context::default();
    let mut state = TimingState::default();
    let mut timing_view = TimingView::default();
    let end = run.replay.end.0.max(1);
    let exchange = run.replay.flights().iter().map(|f| f.depart.0).min().unwrap_or(0).min(end - 1);
    let size = Vec2::new(1_600.0, 420.0);
    let frame = |state: &mut TimingState, timing_view: &mut TimingView, now_ps: u64| {
        timing_frame(&ctx, &run.replay, (state, timing_view), (now_ps, size), (&colours, &palette));
    };
    frame(&mut state, &mut timing_view, exchange);
    let rows = state.rows_of(&run.replay).len();
    eprintln!("timing diagram: {rows} rows");
    let mut now_ps = exchange;
    c.bench_function("big_torus_256_timing_frame_step", |b| {
        b.iter(|| {
            now_ps =
                run.replay.log.next_event_after(SimTime(now_ps), 2).map_or(exchange, |t| t.0.min(end - 1));
            frame(&mut state, &mut timing_view, now_ps);
        });
    });
    let unfolded = BTreeSet::new();
    c.bench_function("big_torus_256_timing_rows_built", |b| {
        b.iter(|| {
            black_box(rows::rows(&run.replay, RowOptions { unfolded: &unfolded, filter: "", params: false }))
        });
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench_big_torus
}
criterion_main!(benches);
