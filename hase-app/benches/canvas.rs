//! Canvas frame cost on a 1,024-processor network: a 32×32 mesh of routers with one processor each
//! (2,048 entities, 3,008 links). Measures rebuilding the scene after an edit, and whole egui frames
//! of the canvas (layout, culling, shapes, text) with everything in view and zoomed in.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use egui::{Pos2, RawInput, Rect, Vec2};
use hase_app::default_project::mesh_project;
use hase_app::document::{Document, NetworkId};
use hase_app::icons::Icons;
use hase_app::state::Editor;
use hase_app::theme::Palette;
use hase_app::ui::canvas::Canvas;
use hase_app::ui::canvas::geometry::Scene;
use hase_app::ui::canvas::view::View;

fn input() -> RawInput {
    RawInput {
        screen_rect: Some(Rect::from_min_size(Pos2::ZERO, Vec2::new(1280.0, 800.0))),
        ..RawInput::default()
    }
}

fn frame(
    ctx: &egui::Context,
    canvas: &mut Canvas,
    editor: &mut Editor,
    icons: &mut Icons,
    palette: &Palette,
) {
    let mut out = ctx.run_ui(input(), |ui| {
        icons.ensure_loaded(ui.ctx());
        egui::CentralPanel::no_frame().show(ui, |ui| canvas.show(ui, editor, icons, palette));
    });
    // Tessellation is part of a frame's CPU cost (the integration does it before painting).
    let primitives = ctx.tessellate(std::mem::take(&mut out.shapes), out.pixels_per_point);
    black_box(primitives.len());
    out.textures_delta.clear();
}

fn bench(c: &mut Criterion) {
    let project = mesh_project(32);
    let doc = Document::with_builtins(project.clone());
    c.bench_function("scene_build_2048_nodes", |b| {
        b.iter(|| black_box(Scene::build(&doc, &NetworkId::Top)));
    });

    let ctx = egui::Context::default();
    let palette = Palette::dark();
    let mut icons = Icons::default();
    let mut editor = Editor::new(project);
    editor.settings.grid = true;
    let mut canvas = Canvas::default();
    // First frame fits everything in view (LOD: plain squares, no ports or labels).
    frame(&ctx, &mut canvas, &mut editor, &mut icons, &palette);
    eprintln!("all in view: {} entities drawn", canvas.drawn_nodes);
    c.bench_function("frame_all_in_view_2048_nodes", |b| {
        b.iter(|| frame(&ctx, &mut canvas, &mut editor, &mut icons, &palette));
    });
    // Centred on the middle of the mesh (routers every 200 units, 32 per side).
    let centre = Vec2::splat(31.0 * 200.0 / 2.0);
    for (name, zoom) in [
        ("frame_zoom_0.35_icons_and_ports", 0.35),
        ("frame_zoom_0.6_with_labels", 0.6),
        ("frame_zoom_1.0", 1.0),
    ] {
        canvas.set_view(&NetworkId::Top, View { pan: -centre * zoom, zoom });
        frame(&ctx, &mut canvas, &mut editor, &mut icons, &palette);
        eprintln!("zoom {zoom}: {} entities drawn", canvas.drawn_nodes);
        c.bench_function(name, |b| {
            b.iter(|| frame(&ctx, &mut canvas, &mut editor, &mut icons, &palette));
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
