//! State bars painted as texels. The bars of a row whose marks all share one height (entity and
//! parameter rows) are coloured into one texel per physical pixel column of a texture that holds
//! every visible row, and drawn as one textured quad per row with nearest sampling. A pixel takes
//! the colour of the mark that covers its centre, which is the pixel the rasteriser fills for a
//! rectangle of the same edges: the same picture as a rectangle per mark, from four vertices per
//! row instead of four per mark (at mid zoom a dense row has a mark per point, and the vertices,
//! 5.8 MB for 64 rows, were a third of the frame). Group rows, whose bar heights vary, stay in the
//! mesh, as does everything when the strip would be wider than the GPU's largest texture. The
//! activity ticks over merged marks get a texel row of their own in the rows that have any. The
//! texels of the last frame are written over in the next once the renderer has let go of them, so
//! a frame does not fault in fresh pages for them.

use std::sync::Arc;

use egui::{
    Color32, ColorImage, Context, Id, ImageData, Mesh, Pos2, Rect, Shape, TextureHandle, TextureOptions, pos2,
};

/// The texels of the visible rows of one diagram's bars for one frame.
#[derive(Debug)]
pub struct BarStrip {
    /// Physical pixel column of the first texel.
    first_column_px: f32,
    /// Texels per row.
    width_px: usize,
    /// Physical pixels per point.
    pixels_per_point: f32,
    /// Row after row of `width_px` texels; transparent where no mark is.
    texels: Vec<Color32>,
    /// Top and bottom (points) of each texel row's quad.
    rows: Vec<(f32, f32)>,
}

impl BarStrip {
    /// A strip for `bars` (points) holding up to `rows` rows, or `None` when a row would be wider
    /// than `max_texture_side` texels (the caller then draws rectangles). `texels` is a buffer to
    /// reuse (see [`recycled_texels`]).
    pub fn for_bars(
        bars: Rect,
        pixels_per_point: f32,
        rows: usize,
        max_texture_side: usize,
        mut texels: Vec<Color32>,
    ) -> Option<Self> {
        let first = (bars.min.x * pixels_per_point).floor();
        let last = (bars.max.x * pixels_per_point).ceil();
        let width_px = (last - first).max(0.0) as usize;
        if width_px == 0 || width_px > max_texture_side || rows > max_texture_side {
            return None;
        }
        Some(Self {
            first_column_px: first,
            width_px,
            pixels_per_point,
            texels: {
                texels.clear();
                texels.reserve(width_px * rows);
                texels
            },
            rows: Vec::with_capacity(rows),
        })
    }

    /// Start a row whose bars run from `top` to `bottom` (points); returns its number.
    pub fn begin_row(&mut self, top: f32, bottom: f32) -> usize {
        self.texels.resize(self.texels.len() + self.width_px, Color32::TRANSPARENT);
        self.rows.push((top, bottom));
        self.rows.len() - 1
    }

    /// The texels whose pixel centres lie in `x0..x1` (screen points, left edge included).
    fn columns(&self, x0: f32, x1: f32) -> std::ops::Range<usize> {
        // The first texel whose pixel centre is at or right of `x`: the number of centres left of
        // it, counted without `ceil` (a call into libm on the baseline x86-64 target).
        let texel = |x: f32| {
            let v = (x * self.pixels_per_point - self.first_column_px - 0.5).max(0.0);
            let whole = v as usize;
            (whole + usize::from((whole as f32) < v)).min(self.width_px)
        };
        texel(x0)..texel(x1)
    }

    /// Colour the part of row `row` from `x0` to `x1` (screen points); returns the texel columns
    /// coloured, for [`fill_columns`](Self::fill_columns) of another row.
    pub fn fill(&mut self, row: usize, x0: f32, x1: f32, colour: Color32) -> std::ops::Range<usize> {
        let columns = self.columns(x0, x1);
        self.fill_columns(row, columns.clone(), colour);
        columns
    }

    /// Colour texel columns `columns` of row `row`.
    pub fn fill_columns(&mut self, row: usize, columns: std::ops::Range<usize>, colour: Color32) {
        let base = row * self.width_px;
        self.texels[base + columns.start..base + columns.end].fill(colour);
    }

    /// The colour of row `row` at the pixel column whose centre is nearest to the right of `x`
    /// (what the tests compare with the rectangles).
    #[cfg(test)]
    pub fn colour_at(&self, row: usize, x: f32) -> Option<Color32> {
        let column = self.columns(x, x).start;
        (column < self.width_px).then(|| self.texels[row * self.width_px + column])
    }

    /// Rows started.
    pub fn row_count(&self) -> usize {
        self.rows.len()
    }

    /// Upload the texels into the texture kept under `id` (made on first use) and return the quads
    /// that show them; `None` when no row was started.
    pub fn into_shape(self, ctx: &Context, id: Id) -> Option<Shape> {
        if self.rows.is_empty() {
            return None;
        }
        let height = self.rows.len();
        let image = Arc::new(ColorImage::new([self.width_px, height], self.texels));
        let texture = match ctx.data_mut(|d| d.get_temp::<StripTexture>(id)) {
            Some(StripTexture { mut texture, .. }) => {
                texture.set(ImageData::Color(Arc::clone(&image)), TextureOptions::NEAREST);
                texture
            }
            None => {
                ctx.load_texture("timing bars", ImageData::Color(Arc::clone(&image)), TextureOptions::NEAREST)
            }
        };
        ctx.data_mut(|d| d.insert_temp(id, StripTexture { texture: texture.clone(), image: Some(image) }));
        let mut mesh = Mesh::with_texture(texture.id());
        let left = self.first_column_px / self.pixels_per_point;
        let right = (self.first_column_px + self.width_px as f32) / self.pixels_per_point;
        for (row, &(top, bottom)) in self.rows.iter().enumerate() {
            // Every sample of the quad reads the middle of its texel row.
            let v = (row as f32 + 0.5) / height as f32;
            mesh.add_rect_with_uv(
                Rect::from_min_max(pos2(left, top), pos2(right, bottom)),
                Rect::from_min_max(Pos2::new(0.0, v), Pos2::new(1.0, v)),
                Color32::WHITE,
            );
        }
        Some(Shape::mesh(mesh))
    }
}

/// A diagram's bar texture and the texels last sent to it, kept in egui's memory between frames.
#[derive(Clone)]
struct StripTexture {
    texture: TextureHandle,
    /// Shared with the texture update until the renderer has applied it; `None` once taken back.
    image: Option<Arc<ColorImage>>,
}

/// The texel buffer of the diagram's last frame under `id` when the renderer no longer holds it
/// (empty, with its room kept), or a new empty one.
pub fn recycled_texels(ctx: &Context, id: Id) -> Vec<Color32> {
    let image = ctx.data_mut(|d| {
        let kept = d.get_temp::<StripTexture>(id)?;
        d.insert_temp(id, StripTexture { texture: kept.texture, image: None });
        kept.image
    });
    image.and_then(|image| Arc::try_unwrap(image).ok()).map(|image| image.pixels).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use egui::epaint::textures::TexturesDelta;

    use super::*;

    /// One frame's strip of one row, red from 20 to 40 points, sent to the texture under `id`.
    fn send_one_row(ctx: &Context, id: Id) -> usize {
        let bars = Rect::from_min_max(pos2(10.0, 0.0), pos2(110.0, 50.0));
        let texels = recycled_texels(ctx, id);
        let room = texels.capacity();
        let mut strip = BarStrip::for_bars(bars, 1.0, 1, 2_048, texels).expect("fits");
        let row = strip.begin_row(2.0, 16.0);
        strip.fill(row, 20.0, 40.0, Color32::RED);
        assert!(strip.into_shape(ctx, id).is_some());
        room
    }

    /// The image of the one update of the strip's texture under `id` in `delta`.
    fn the_image(ctx: &Context, id: Id, delta: &TexturesDelta) -> Arc<ColorImage> {
        let texture = ctx.data_mut(|d| d.get_temp::<StripTexture>(id)).expect("a texture").texture.id();
        let updates: Vec<_> = delta.set.get(&texture).into_iter().flatten().collect();
        let [update] = updates[..] else { panic!("one texture update, not {}", updates.len()) };
        let ImageData::Color(image) = &update.image;
        Arc::clone(image)
    }

    #[test]
    fn the_texels_go_out_as_one_update_and_come_back_once_the_renderer_lets_go() {
        let ctx = Context::default();
        let id = Id::unique("strip test");
        assert_eq!(send_one_row(&ctx, id), 0, "the first frame has nothing to reuse");
        let mut held = ctx.tex_manager().write().take_delta();
        let image = the_image(&ctx, id, &held);
        assert_eq!(image.size, [100, 1]);
        // Texel k is the pixel column 10 + k, centre 10.5 + k: red from 20 up to 40.
        assert_eq!(image.pixels[9], Color32::TRANSPARENT);
        assert!(image.pixels[10..30].iter().all(|&c| c == Color32::RED));
        assert_eq!(image.pixels[30], Color32::TRANSPARENT);
        drop(image);
        // While the renderer holds the last update, a frame writes into a new buffer.
        assert_eq!(send_one_row(&ctx, id), 0);
        held.clear();
        ctx.tex_manager().write().take_delta().clear();
        // Once it has let go, the next frame reuses the last buffer.
        assert!(send_one_row(&ctx, id) >= 100);
        let mut again = ctx.tex_manager().write().take_delta();
        assert_eq!(the_image(&ctx, id, &again).pixels[10], Color32::RED);
        again.clear();
    }
}
