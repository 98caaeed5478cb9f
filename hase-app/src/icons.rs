//! Entity icons: the PNGs in `assets/icons/` embedded in the binary, decoded with `image` and
//! uploaded as egui textures on first use.

use std::collections::BTreeMap;

use egui::{ColorImage, Context, TextureHandle, TextureOptions};

/// Icon name (as in `EntityType::icon`) → PNG bytes.
const EMBEDDED: [(&str, &[u8]); 4] = [
    ("processor", include_bytes!("../../assets/icons/processor.png")),
    ("router", include_bytes!("../../assets/icons/router.png")),
    ("switch", include_bytes!("../../assets/icons/switch.png")),
    ("network", include_bytes!("../../assets/icons/network.png")),
];

/// Decode an embedded PNG into an egui image.
pub fn decode(bytes: &[u8]) -> Result<ColorImage, image::ImageError> {
    let rgba = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)?.to_rgba8();
    let size = [rgba.width() as usize, rgba.height() as usize];
    Ok(ColorImage::from_rgba_unmultiplied(size, rgba.as_raw()))
}

/// The icon textures, loaded once per context.
#[derive(Default)]
pub struct Icons {
    textures: BTreeMap<&'static str, TextureHandle>,
    loaded: bool,
}

impl Icons {
    /// Upload every embedded icon (once). Icons that fail to decode are left out and drawn with the
    /// fallback glyph.
    pub fn ensure_loaded(&mut self, ctx: &Context) {
        if self.loaded {
            return;
        }
        self.loaded = true;
        let options = TextureOptions::LINEAR.with_mipmap_mode(Some(egui::TextureFilter::Linear));
        for (name, bytes) in EMBEDDED {
            if let Ok(image) = decode(bytes) {
                self.textures.insert(name, ctx.load_texture(format!("icon-{name}"), image, options));
            }
        }
    }

    /// The texture of icon `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<&TextureHandle> {
        self.textures.get(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_icon_decodes_to_128_square() {
        for (name, bytes) in EMBEDDED {
            let image = decode(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(image.size, [128, 128], "{name}");
            // Corners are transparent, the centre is not.
            assert_eq!(image.pixels[0].a(), 0, "{name}");
            assert_eq!(image.pixels[64 * 128 + 64].a(), 255, "{name}");
        }
    }
}
