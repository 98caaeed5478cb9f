//! Drawing egui shapes into an image without a window or GPU: a headless `egui::Context` lays out
//! and tessellates what a closure paints, and the triangles (with their textures: the font atlas,
//! the timing diagram's bar strips) are filled in software. Used for figures larger than the
//! window (Timing ▸ PNG… of every row).

use std::collections::BTreeMap;

use egui::epaint::{ClippedPrimitive, Primitive, Vertex};
use egui::{Color32, ColorImage, Rect, TextureId, Ui, pos2};

/// The textures a headless context has sent so far, by id.
type Textures = BTreeMap<TextureKey, ColorImage>;

/// A texture id as a sortable key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum TextureKey {
    Managed(u64),
    User(u64),
}

fn key(id: TextureId) -> TextureKey {
    match id {
        TextureId::Managed(n) => TextureKey::Managed(n),
        TextureId::User(n) => TextureKey::User(n),
    }
}

/// Paint with `paint` on a `size` (points, one pixel each) area over `background`, and return the
/// pixels. Two passes are run so that layouts settle; the second is the one drawn.
pub fn render(size: egui::Vec2, background: Color32, mut paint: impl FnMut(&mut Ui)) -> ColorImage {
    let ctx = egui::Context::default();
    let screen = Rect::from_min_size(pos2(0.0, 0.0), size);
    let mut textures = Textures::new();
    let mut shapes = Vec::new();
    for _ in 0..2 {
        let input = egui::RawInput {
            screen_rect: Some(screen),
            max_texture_side: Some(16_384),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, &mut paint);
        for (id, deltas) in &output.textures_delta.set {
            for delta in deltas {
                let egui::ImageData::Color(image) = &delta.image;
                match delta.pos {
                    None => {
                        textures.insert(key(*id), (**image).clone());
                    }
                    Some([x0, y0]) => {
                        if let Some(target) = textures.get_mut(&key(*id)) {
                            patch(target, image, x0, y0);
                        }
                    }
                }
            }
        }
        // Taken in above: the textures live in `textures` from here.
        output.textures_delta.clear();
        shapes = output.shapes;
    }
    let primitives = ctx.tessellate(shapes, 1.0);
    let [w, h] = [size.x.ceil() as usize, size.y.ceil() as usize];
    let mut out = ColorImage::new([w, h], vec![background; w * h]);
    for p in &primitives {
        fill(&mut out, p, &textures);
    }
    out
}

fn patch(target: &mut ColorImage, image: &ColorImage, x0: usize, y0: usize) {
    let [tw, th] = target.size;
    for y in 0..image.size[1] {
        for x in 0..image.size[0] {
            if x0 + x < tw && y0 + y < th {
                target.pixels[(y0 + y) * tw + x0 + x] = image.pixels[y * image.size[0] + x];
            }
        }
    }
}

fn fill(out: &mut ColorImage, p: &ClippedPrimitive, textures: &Textures) {
    let Primitive::Mesh(mesh) = &p.primitive else { return };
    let texture = textures.get(&key(mesh.texture_id));
    let [w, h] = out.size;
    let clip = p.clip_rect.intersect(Rect::from_min_size(pos2(0.0, 0.0), egui::vec2(w as f32, h as f32)));
    if !clip.is_positive() {
        return;
    }
    for tri in mesh.indices.chunks_exact(3) {
        let v = [tri[0], tri[1], tri[2]].map(|i| mesh.vertices[i as usize]);
        triangle(out, &v, clip, texture);
    }
}

/// Fill one triangle: pixel centres inside it, colour and texture coordinates interpolated, the
/// premultiplied colour blended over what is there.
fn triangle(out: &mut ColorImage, verts: &[Vertex; 3], clip: Rect, texture: Option<&ColorImage>) {
    let (p0, p1, p2) = (verts[0].pos, verts[1].pos, verts[2].pos);
    let area = (p1.x - p0.x) * (p2.y - p0.y) - (p1.y - p0.y) * (p2.x - p0.x);
    if area.abs() < 1e-6 {
        return;
    }
    let min_x = p0.x.min(p1.x).min(p2.x).max(clip.min.x).floor().max(0.0) as usize;
    let max_x = p0.x.max(p1.x).max(p2.x).min(clip.max.x).ceil().max(0.0) as usize;
    let min_y = p0.y.min(p1.y).min(p2.y).max(clip.min.y).floor().max(0.0) as usize;
    let max_y = p0.y.max(p1.y).max(p2.y).min(clip.max.y).ceil().max(0.0) as usize;
    let width = out.size[0];
    for row in min_y..max_y.min(out.size[1]) {
        let py = row as f32 + 0.5;
        for col in min_x..max_x.min(width) {
            let px = col as f32 + 0.5;
            if !clip.contains(pos2(px, py)) {
                continue;
            }
            let w0 = ((p1.x - px) * (p2.y - py) - (p1.y - py) * (p2.x - px)) / area;
            let w1 = ((p2.x - px) * (p0.y - py) - (p2.y - py) * (p0.x - px)) / area;
            let w2 = 1.0 - w0 - w1;
            if w0 < 0.0 || w1 < 0.0 || w2 < 0.0 {
                continue;
            }
            let mix = |f: fn(&Vertex) -> f32| w0 * f(&verts[0]) + w1 * f(&verts[1]) + w2 * f(&verts[2]);
            let mut src = [
                mix(|x| f32::from(x.color.r())),
                mix(|x| f32::from(x.color.g())),
                mix(|x| f32::from(x.color.b())),
                mix(|x| f32::from(x.color.a())),
            ];
            if let Some(t) = texture {
                let (u_coord, v_coord) = (mix(|x| x.uv.x), mix(|x| x.uv.y));
                let [tw, th] = t.size;
                let tx = ((u_coord * tw as f32) as usize).min(tw.saturating_sub(1));
                let ty = ((v_coord * th as f32) as usize).min(th.saturating_sub(1));
                let texel = t.pixels[ty * tw + tx].to_array();
                for (channel, t) in src.iter_mut().zip(texel) {
                    *channel *= f32::from(t) / 255.0;
                }
            }
            let dst = &mut out.pixels[row * width + col];
            let keep = 1.0 - src[3] / 255.0;
            let under = dst.to_array();
            let ch = |i: usize| (src[i] + f32::from(under[i]) * keep).round().clamp(0.0, 255.0) as u8;
            #[allow(clippy::disallowed_methods, reason = "a blended pixel, not a colour of the app")]
            let blended = Color32::from_rgba_premultiplied(ch(0), ch(1), ch(2), ch(3));
            *dst = blended;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::disallowed_methods, reason = "test colours, not the app's")]
    fn a_painted_rectangle_and_text_land_in_the_image() {
        let (bg, red) = (Color32::from_rgb(255, 255, 255), Color32::from_rgb(200, 0, 0));
        let image = render(egui::vec2(120.0, 60.0), bg, |ui| {
            ui.painter().rect_filled(Rect::from_min_max(pos2(10.0, 10.0), pos2(30.0, 30.0)), 0.0, red);
            ui.painter().text(
                pos2(40.0, 10.0),
                egui::Align2::LEFT_TOP,
                "Hg",
                egui::FontId::proportional(20.0),
                Color32::BLACK,
            );
        });
        assert_eq!(image.size, [120, 60]);
        let at = |x: usize, y: usize| image.pixels[y * 120 + x];
        assert_eq!(at(20, 20), red, "inside the rectangle");
        assert_eq!(at(5, 5), bg, "outside it");
        let dark =
            (40..80).flat_map(|x| (10..35).map(move |y| (x, y))).filter(|&(x, y)| at(x, y).r() < 100).count();
        assert!(dark > 20, "the text's glyphs are drawn: {dark} dark pixels");
    }
}
