//! Canvas frame cost on a 1,024-processor network: a 32×32 mesh of routers with one processor each
//! (2,048 entities, 3,008 links). Measures rebuilding the scene after an edit, and whole egui frames
//! of the canvas (layout, culling, shapes, text) with everything in view and zoomed in.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use egui::{Pos2, RawInput, Rect, Vec2};
use hase_app::document::{Document, NetworkId};
use hase_app::icons::Icons;
use hase_app::state::Editor;
use hase_app::theme::Palette;
use hase_app::ui::canvas::Canvas;
use hase_app::ui::canvas::geometry::Scene;
use hase_app::ui::canvas::view::View;
use hase_engine::SimTime;
use hase_engine::model::{Instance, Link, ParamValue, PortRef, Pos, Project};

const SIDE: usize = 32;

fn mesh_project() -> Project {
    let mut p = Project::new("mesh1024");
    let net = &mut p.network;
    let pos = &mut p.layout.top.positions;
    let r = |x: usize, y: usize| format!("r{}", y * SIDE + x);
    for y in 0..SIDE {
        for x in 0..SIDE {
            let i = y * SIDE + x;
            net.instances
                .insert(r(x, y), Instance::of("Router").with("radix", ParamValue::Int(5)));
            net.instances.insert(format!("p{i}"), Instance::of("Processor"));
            pos.insert(r(x, y), Pos::new(x as f32 * 200.0, y as f32 * 200.0));
            pos.insert(
                format!("p{i}"),
                Pos::new(x as f32 * 200.0 + 90.0, y as f32 * 200.0 - 90.0),
            );
            let link = |a: PortRef, b: PortRef| Link::new(a, b, SimTime::from_ns(50), 1_000_000_000);
            net.links.push(link(
                PortRef::new(&format!("p{i}"), "net"),
                PortRef::new(&r(x, y), "p4"),
            ));
            if x + 1 < SIDE {
                net.links.push(link(
                    PortRef::new(&r(x, y), "p0"),
                    PortRef::new(&r(x + 1, y), "p1"),
                ));
            }
            if y + 1 < SIDE {
                net.links.push(link(
                    PortRef::new(&r(x, y), "p2"),
                    PortRef::new(&r(x, y + 1), "p3"),
                ));
            }
        }
    }
    p
}

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
    black_box(out.shapes.len());
    out.textures_delta.clear();
}

fn bench(c: &mut Criterion) {
    let project = mesh_project();
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
    // First frame fits everything in view.
    frame(&ctx, &mut canvas, &mut editor, &mut icons, &palette);
    c.bench_function("frame_all_in_view_2048_nodes", |b| {
        b.iter(|| frame(&ctx, &mut canvas, &mut editor, &mut icons, &palette));
    });
    canvas.set_view(
        &NetworkId::Top,
        View {
            pan: Vec2::new(-1000.0, -1000.0),
            zoom: 1.0,
        },
    );
    c.bench_function("frame_zoomed_in_2048_nodes", |b| {
        b.iter(|| frame(&ctx, &mut canvas, &mut editor, &mut icons, &palette));
    });
    canvas.set_view(
        &NetworkId::Top,
        View {
            pan: Vec2::ZERO,
            zoom: 0.35,
        },
    );
    c.bench_function("frame_mid_zoom_2048_nodes", |b| {
        b.iter(|| frame(&ctx, &mut canvas, &mut editor, &mut icons, &palette));
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
