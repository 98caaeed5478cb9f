//! State images: while an entity is in state `S`, its icon is replaced by `<icon>/<S>.png` when its
//! type provides one (HASE's per-state bitmaps). The built-in types' images are embedded; other
//! types are looked up once in `assets/icons/<icon>/<S>.png` beside the project file and in the
//! working directory, and misses are remembered.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use egui::{Context, TextureHandle, TextureOptions};

use crate::icons::decode;

/// (icon, state) → PNG bytes of the built-in state images.
const EMBEDDED: [(&str, &str, &[u8]); 4] = [
    ("router", "BUSY", include_bytes!("../../../../assets/icons/router/BUSY.png")),
    ("router", "BLOCKED", include_bytes!("../../../../assets/icons/router/BLOCKED.png")),
    ("processor", "COMPUTE", include_bytes!("../../../../assets/icons/processor/COMPUTE.png")),
    ("processor", "ALLREDUCE", include_bytes!("../../../../assets/icons/processor/ALLREDUCE.png")),
];

/// The file a state image of `icon` is looked for under `dir`.
pub fn state_image_path(dir: &Path, icon: &str, state: &str) -> PathBuf {
    dir.join("assets").join("icons").join(icon).join(format!("{state}.png"))
}

/// Loaded state images.
#[derive(Default)]
pub struct StateImages {
    cache: BTreeMap<(String, String), Option<TextureHandle>>,
    dirs: Vec<PathBuf>,
}

impl StateImages {
    /// Look in these directories (each holding `assets/icons/…`) after the embedded images.
    pub fn set_search_dirs(&mut self, dirs: Vec<PathBuf>) {
        if dirs != self.dirs {
            self.dirs = dirs;
            self.cache.retain(|_, t| t.is_some());
        }
    }

    /// The image of `icon` in `state`, if there is one.
    pub fn get(&mut self, ctx: &Context, icon: &str, state: &str) -> Option<&TextureHandle> {
        let key = (icon.to_string(), state.to_string());
        if !self.cache.contains_key(&key) {
            let loaded = self.load(ctx, icon, state);
            self.cache.insert(key.clone(), loaded);
        }
        self.cache.get(&key).and_then(Option::as_ref)
    }

    fn load(&self, ctx: &Context, icon: &str, state: &str) -> Option<TextureHandle> {
        let embedded =
            EMBEDDED.iter().find(|(i, s, _)| *i == icon && *s == state).map(|(_, _, b)| b.to_vec());
        let bytes = embedded.or_else(|| {
            self.dirs.iter().find_map(|dir| std::fs::read(state_image_path(dir, icon, state)).ok())
        })?;
        let image = decode(&bytes).ok()?;
        let options = TextureOptions::LINEAR.with_mipmap_mode(Some(egui::TextureFilter::Linear));
        Some(ctx.load_texture(format!("state-{icon}-{state}"), image, options))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_images_load_and_project_images_are_found_on_disk() {
        let ctx = Context::default();
        let mut images = StateImages::default();
        assert!(images.get(&ctx, "router", "BUSY").is_some());
        assert!(images.get(&ctx, "router", "DANCING").is_none());
        let dir = tempfile::tempdir().unwrap();
        let path = state_image_path(dir.path(), "widget", "BUSY");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, EMBEDDED[0].2).unwrap();
        assert!(images.get(&ctx, "widget", "BUSY").is_none(), "not searched yet");
        images.set_search_dirs(vec![dir.path().to_path_buf()]);
        assert!(images.get(&ctx, "widget", "BUSY").is_some());
        for (icon, state, bytes) in EMBEDDED {
            let image = decode(bytes).unwrap_or_else(|e| panic!("{icon}/{state}: {e}"));
            assert_eq!(image.size, [128, 128]);
        }
    }
}
