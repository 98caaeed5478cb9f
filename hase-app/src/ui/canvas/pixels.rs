//! The pixels of the far view's image (see `raster`): a [`Grid`] places screen points on an
//! image covering the canvas area, and lists which pixels a one-pixel polyline or a small square
//! covers; [`Pixels`] holds the image's colours and lays colours over those pixels. The lists can
//! be kept while the view stays and coloured again for each moment of a run.

use egui::{Color32, ColorImage, Pos2, Rect};

/// Where the pixels of an image covering a screen area lie.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    width: usize,
    height: usize,
    /// Screen position of the image's top left corner.
    origin: Pos2,
    /// Image pixels per screen point.
    scale: f32,
}

/// The part of the segment from `a` to `b` inside `[0, width] × [0, height]` (Liang–Barsky), if
/// any; `None` too for a segment with a coordinate that is not a number.
fn clip(a: (f32, f32), b: (f32, f32), width: f32, height: f32) -> Option<((f32, f32), (f32, f32))> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (p, q) in [(-dx, a.0), (dx, width - a.0), (-dy, a.1), (dy, height - a.1)] {
        if !(p.is_finite() && q.is_finite()) {
            return None;
        }
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t0 <= t1).then_some(((a.0 + t0 * dx, a.1 + t0 * dy), (a.0 + t1 * dx, a.1 + t1 * dy)))
}

/// The largest whole number not above `v` (a far view's coordinates are small: no libm call, as
/// an image of a large network asks it a million times a frame).
fn floor(v: f32) -> i64 {
    let t = v as i64;
    if (t as f32) > v { t - 1 } else { t }
}

/// The smallest whole number not below `v`.
fn ceiling(v: f32) -> i64 {
    -floor(-v)
}

impl Grid {
    /// The pixels of `area` at `scale` pixels per point.
    pub fn new(area: Rect, scale: f32) -> Self {
        let width = (area.width() * scale).round().max(1.0) as usize;
        let height = (area.height() * scale).round().max(1.0) as usize;
        Grid { width, height, origin: area.min, scale }
    }

    /// Width and height in pixels.
    pub fn size(&self) -> [usize; 2] {
        [self.width, self.height]
    }

    fn to_pixel(self, p: Pos2) -> (f32, f32) {
        ((p.x - self.origin.x) * self.scale, (p.y - self.origin.y) * self.scale)
    }

    /// The index of pixel `(x, y)`, if it is on the image.
    fn index(&self, x: i64, y: i64) -> Option<u32> {
        (x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height)
            .then(|| (y as usize * self.width + x as usize) as u32)
    }

    /// Append to `out` the pixels of a one-pixel polyline through `points` (screen points), each
    /// once, even where two steps or two segments meet in it; what falls outside the image is
    /// clipped off before stepping along.
    pub fn polyline(&self, points: &[Pos2], out: &mut Vec<u32>) {
        let mut last = None;
        for w in points.windows(2) {
            let (a, b) = (self.to_pixel(w[0]), self.to_pixel(w[1]));
            let Some(((ax, ay), (bx, by))) = clip(a, b, self.width as f32, self.height as f32) else {
                last = None;
                continue;
            };
            let steps = ceiling((bx - ax).abs().max((by - ay).abs())).max(1);
            let (dx, dy) = ((bx - ax) / steps as f32, (by - ay) / steps as f32);
            for i in 0..=steps {
                let t = i as f32;
                let pixel = (floor(ax + dx * t), floor(ay + dy * t));
                if last != Some(pixel) {
                    out.extend(self.index(pixel.0, pixel.1));
                    last = Some(pixel);
                }
            }
        }
    }

    /// Append to `out` the pixels of a square `side` points wide (at least one pixel) centred on
    /// `centre` (screen points).
    pub fn square(&self, centre: Pos2, side: f32, out: &mut Vec<u32>) {
        let (cx, cy) = self.to_pixel(centre);
        if !(cx.is_finite() && cy.is_finite()) {
            return;
        }
        let px = floor(side * self.scale + 0.5).max(1);
        let half = px as f32 / 2.0;
        let (x0, y0) = (floor(cx - half + 0.5), floor(cy - half + 0.5));
        for y in 0..px {
            for x in 0..px {
                out.extend(self.index(x0 + x, y0 + y));
            }
        }
    }
}

/// Pixels of an image covering a screen area, drawn into in screen coordinates.
pub struct Pixels {
    grid: Grid,
    colours: Vec<Color32>,
    /// Pixel lists of one shape, reused.
    scratch: Vec<u32>,
}

impl Pixels {
    /// A transparent image of `area` at `scale` pixels per point.
    #[cfg(test)]
    pub fn new(area: Rect, scale: f32) -> Self {
        Pixels::on(Grid::new(area, scale))
    }

    /// A transparent image on `grid`.
    pub fn on(grid: Grid) -> Self {
        Pixels { grid, colours: vec![Color32::TRANSPARENT; grid.width * grid.height], scratch: Vec::new() }
    }

    /// Width and height in pixels.
    pub fn size(&self) -> [usize; 2] {
        self.grid.size()
    }

    /// The colour at pixel `(x, y)`.
    #[cfg(test)]
    pub fn at(&self, x: usize, y: usize) -> Color32 {
        self.colours[y * self.grid.width + x]
    }

    /// Set the pixels `indices` (from this image's [`Grid`]) to `colour`.
    pub fn plot(&mut self, indices: &[u32], colour: Color32) {
        for &i in indices {
            if let Some(pixel) = self.colours.get_mut(i as usize) {
                *pixel = colour;
            }
        }
    }

    /// Lay `colour` (premultiplied, as `Color32` is) over the pixels `indices`.
    pub fn blend(&mut self, indices: &[u32], colour: Color32) {
        let keep = 255 - u16::from(colour.a());
        let mix =
            |over: u8, under: u8| (u16::from(over) + (u16::from(under) * keep + 127) / 255).min(255) as u8;
        for &i in indices {
            if let Some(pixel) = self.colours.get_mut(i as usize) {
                *pixel = crate::theme::premultiplied(
                    mix(colour.r(), pixel.r()),
                    mix(colour.g(), pixel.g()),
                    mix(colour.b(), pixel.b()),
                    mix(colour.a(), pixel.a()),
                );
            }
        }
    }

    /// A one-pixel line from `a` to `b` (screen points), laid over what is there (see
    /// [`Pixels::polyline`]).
    #[cfg(test)]
    pub fn line(&mut self, a: Pos2, b: Pos2, colour: Color32) {
        self.polyline(&[a, b], colour);
    }

    /// One-pixel lines through `points` (screen points), laid over what is there: lines that
    /// cross many times build up, as thin strokes do, instead of the last one hiding the others
    /// in a moiré. Each pixel of the polyline is laid once (see [`Grid::polyline`]).
    #[cfg(test)]
    pub fn polyline(&mut self, points: &[Pos2], colour: Color32) {
        let mut indices = std::mem::take(&mut self.scratch);
        indices.clear();
        self.grid.polyline(points, &mut indices);
        self.blend(&indices, colour);
        self.scratch = indices;
    }

    /// A square `side` points wide (at least one pixel) centred on `centre` (screen points).
    pub fn square(&mut self, centre: Pos2, side: f32, colour: Color32) {
        let mut indices = std::mem::take(&mut self.scratch);
        indices.clear();
        self.grid.square(centre, side, &mut indices);
        self.plot(&indices, colour);
        self.scratch = indices;
    }

    /// The image.
    pub fn into_image(self) -> ColorImage {
        ColorImage::new([self.grid.width, self.grid.height], self.colours)
    }
}

#[cfg(test)]
mod tests {
    use egui::{pos2, vec2};

    use super::*;

    fn image() -> Pixels {
        Pixels::new(Rect::from_min_size(pos2(100.0, 50.0), vec2(20.0, 10.0)), 1.0)
    }

    fn coloured(p: &Pixels) -> usize {
        let [w, h] = p.size();
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| p.at(x, y) != Color32::TRANSPARENT)
            .count()
    }

    #[test]
    fn a_line_sets_one_pixel_per_step_and_leaves_out_what_is_off_the_image() {
        let mut p = image();
        p.line(pos2(100.0, 55.0), pos2(109.0, 55.0), Color32::RED);
        assert_eq!(coloured(&p), 10);
        assert_eq!((p.at(0, 5), p.at(9, 5), p.at(10, 5)), (Color32::RED, Color32::RED, Color32::TRANSPARENT));
        // A diagonal that leaves the image at its bottom edge: only its part inside is drawn.
        let mut p = image();
        p.line(pos2(100.0, 50.0), pos2(120.0, 70.0), Color32::RED);
        assert_eq!(coloured(&p), 10);
        assert_eq!(p.at(9, 9), Color32::RED);
        // Entirely outside: nothing.
        let mut p = image();
        p.line(pos2(0.0, 0.0), pos2(90.0, 40.0), Color32::RED);
        assert_eq!(coloured(&p), 0);
    }

    #[test]
    fn each_pixel_of_a_polyline_is_laid_once_and_long_lines_are_clipped_not_thinned() {
        let half = Color32::WHITE.gamma_multiply(0.5);
        // Sub-pixel steps and a corner: every pixel laid once, so all have the same colour.
        let mut p = image();
        p.polyline(&[pos2(100.3, 50.2), pos2(107.9, 53.1), pos2(103.2, 59.6)], half);
        let [w, h] = p.size();
        let laid: Vec<Color32> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| p.at(x, y))
            .filter(|c| c.a() > 0)
            .collect();
        assert!(laid.len() > 10 && laid.iter().all(|&c| c == half), "{laid:?}");
        // A line a million points long across the image: one unbroken row of 20 pixels.
        let mut p = image();
        p.line(pos2(-1.0e6, 55.5), pos2(1.0e6, 55.5), Color32::RED);
        assert_eq!(coloured(&p), 20);
        assert!((0..20).all(|x| p.at(x, 5) == Color32::RED));
        // Coordinates that are not numbers draw nothing.
        let mut p = image();
        p.line(pos2(f32::NAN, 55.0), pos2(110.0, 55.0), Color32::RED);
        p.line(pos2(f32::INFINITY, 55.0), pos2(110.0, 55.0), Color32::RED);
        assert_eq!(coloured(&p), 0);
    }

    #[test]
    fn crossing_half_opaque_lines_build_up_where_they_cross() {
        let half = Color32::WHITE.gamma_multiply(0.5);
        let mut p = image();
        p.line(pos2(100.0, 55.0), pos2(119.0, 55.0), half);
        p.line(pos2(110.0, 50.0), pos2(110.0, 59.0), half);
        let (once, twice) = (p.at(3, 5), p.at(10, 5));
        assert_eq!(once, half);
        assert!(twice.a() > once.a() && twice.r() > once.r(), "{once:?} then {twice:?}");
        // Opaque over anything is itself.
        p.line(pos2(110.0, 50.0), pos2(110.0, 59.0), Color32::RED);
        assert_eq!(p.at(10, 5), Color32::RED);
    }

    #[test]
    fn a_square_is_at_least_a_pixel_and_scales_with_the_screen() {
        let mut p = image();
        p.square(pos2(110.5, 55.5), 0.2, Color32::GREEN);
        assert_eq!(coloured(&p), 1);
        assert_eq!(p.at(10, 5), Color32::GREEN);
        let mut p = image();
        p.square(pos2(110.0, 55.0), 3.0, Color32::GREEN);
        assert_eq!(coloured(&p), 9);
        // Twice the pixels per point: the image and the square both double.
        let mut p = Pixels::new(Rect::from_min_size(pos2(100.0, 50.0), vec2(20.0, 10.0)), 2.0);
        assert_eq!(p.size(), [40, 20]);
        p.square(pos2(110.0, 55.0), 3.0, Color32::GREEN);
        assert_eq!(coloured(&p), 36);
        // Half off the image's corner: only the quarter inside.
        let mut p = image();
        p.square(pos2(100.0, 50.0), 4.0, Color32::GREEN);
        assert_eq!(coloured(&p), 4);
    }
}
