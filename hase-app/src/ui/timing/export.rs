//! Exporting the timing diagram as an image: a screenshot of the window (requested from egui)
//! cropped to the diagram's screen area and saved as PNG; the outcome waits in an
//! [`ExportResult`] for the next frame to report it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use egui::{Color32, ColorImage, Rect};

/// Why an image (the timing diagram, a plot) could not be saved as PNG.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct PngExportError {
    /// The file asked for.
    pub path: PathBuf,
    /// What the PNG encoder or the file system said.
    #[source]
    pub source: image::ImageError,
}

/// The outcome of the last export, written by the screenshot callback (on egui's side) and taken
/// by the frame that reports it.
#[derive(Clone, Debug, Default)]
pub struct ExportResult(Arc<Mutex<Option<Result<PathBuf, PngExportError>>>>);

impl ExportResult {
    /// The outcome, once, when there is a new one.
    pub fn take(&self) -> Option<Result<PathBuf, PngExportError>> {
        self.0.lock().ok().and_then(|mut slot| slot.take())
    }

    /// Store `outcome` for the next frame to report.
    pub fn put(&self, outcome: Result<PathBuf, PngExportError>) {
        if let Ok(mut slot) = self.0.lock() {
            *slot = Some(outcome);
        }
    }
}

/// The part of `image` (physical pixels) under `rect` (points) at `pixels_per_point`.
pub fn crop(image: &ColorImage, rect: Rect, pixels_per_point: f32) -> ColorImage {
    let [w, h] = image.size;
    let to_px = |v: f32, max: usize| ((v * pixels_per_point).round().max(0.0) as usize).min(max);
    let (x0, x1) = (to_px(rect.min.x, w), to_px(rect.max.x, w));
    let (y0, y1) = (to_px(rect.min.y, h), to_px(rect.max.y, h));
    let (cw, ch) = (x1.saturating_sub(x0), y1.saturating_sub(y0));
    let mut pixels = Vec::with_capacity(cw * ch);
    for y in y0..y1 {
        pixels.extend_from_slice(&image.pixels[y * w + x0..y * w + x1]);
    }
    ColorImage::new([cw, ch], pixels)
}

/// Save `image` as PNG.
pub fn save_png(image: &ColorImage, path: &Path) -> Result<(), PngExportError> {
    let bytes: Vec<u8> = image.pixels.iter().flat_map(Color32::to_array).collect();
    let [w, h] = image.size;
    image::save_buffer(path, &bytes, w as u32, h as u32, image::ExtendedColorType::Rgba8)
        .map_err(|source| PngExportError { path: path.to_path_buf(), source })
}

/// Ask egui for a screenshot and save the part under `rect` to `path`; the outcome is stored in
/// `result` for the UI to report.
pub fn request(ctx: &egui::Context, rect: Rect, path: PathBuf, result: &ExportResult) {
    let ppp = ctx.pixels_per_point();
    let repaint = ctx.clone();
    let result = result.clone();
    ctx.request_screenshot(move |image| {
        let cropped = crop(&image, rect, ppp);
        result.put(save_png(&cropped, &path).map(|()| path));
        repaint.request_repaint();
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::disallowed_methods, reason = "pixels numbered by their red channel, not a colour")]
    fn crops_points_to_pixels_and_saves() {
        // 4×3 pixels, each pixel's red channel its index.
        let pixels = (0..12u8).map(|i| Color32::from_rgb(i, 0, 0)).collect();
        let image = ColorImage::new([4, 3], pixels);
        // Points (0.5, 0.5)–(1.5, 1.5) at 2 pixels per point: pixels x 1..3, y 1..3.
        let c = crop(&image, Rect::from_min_max(egui::pos2(0.5, 0.5), egui::pos2(1.5, 1.5)), 2.0);
        assert_eq!(c.size, [2, 2]);
        let reds: Vec<u8> = c.pixels.iter().map(egui::Color32::r).collect();
        assert_eq!(reds, vec![5, 6, 9, 10]);
        // A rectangle hanging off the image is clipped.
        let c = crop(&image, Rect::from_min_max(egui::pos2(1.0, 1.0), egui::pos2(9.0, 9.0)), 2.0);
        assert_eq!(c.size, [2, 1]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.png");
        save_png(&c, &path).unwrap();
        let back = image::open(&path).unwrap();
        assert_eq!((back.width(), back.height()), (2, 1));
    }
}
