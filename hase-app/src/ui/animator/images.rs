//! State images: while an entity is in state `S`, its icon is replaced by `<icon>/<S>.png` when its
//! type provides one (HASE's per-state bitmaps). The built-in types' images are embedded; other
//! types are looked up once in `assets/icons/<icon>/<S>.png` beside the project file and in the
//! working directory, on a worker thread (the themed colour stands in until the image arrives),
//! and misses are remembered.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError};

use egui::{ColorImage, Context, TextureHandle, TextureOptions};

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

/// A state image: being read from disk, or known (present or not).
enum Entry {
    Reading(Receiver<Option<ColorImage>>),
    Known(Option<TextureHandle>),
}

/// Loaded state images.
#[derive(Default)]
pub struct StateImages {
    cache: BTreeMap<(String, String), Entry>,
    dirs: Vec<PathBuf>,
}

impl StateImages {
    /// Look in these directories (each holding `assets/icons/…`) after the embedded images.
    pub fn set_search_dirs(&mut self, dirs: Vec<PathBuf>) {
        if dirs != self.dirs {
            self.dirs = dirs;
            self.cache.retain(|_, t| matches!(t, Entry::Known(Some(_))));
        }
    }

    /// The image of `icon` in `state`, if there is one and it has been read.
    pub fn get(&mut self, ctx: &Context, icon: &str, state: &str) -> Option<&TextureHandle> {
        let key = (icon.to_string(), state.to_string());
        let entry = match self.cache.remove(&key) {
            Some(Entry::Reading(rx)) => match rx.try_recv() {
                Ok(image) => Entry::Known(image.map(|i| texture(ctx, icon, state, i))),
                Err(TryRecvError::Empty) => Entry::Reading(rx),
                Err(TryRecvError::Disconnected) => Entry::Known(None),
            },
            Some(known) => known,
            None => self.start(ctx, icon, state),
        };
        match self.cache.entry(key).or_insert(entry) {
            Entry::Known(texture) => texture.as_ref(),
            Entry::Reading(_) => None,
        }
    }

    /// Embedded images are decoded at once; others are read and decoded on a worker thread.
    fn start(&self, ctx: &Context, icon: &str, state: &str) -> Entry {
        if let Some((_, _, bytes)) = EMBEDDED.iter().find(|(i, s, _)| *i == icon && *s == state) {
            return Entry::Known(decode(bytes).ok().map(|i| texture(ctx, icon, state, i)));
        }
        if self.dirs.is_empty() {
            return Entry::Known(None);
        }
        let paths: Vec<PathBuf> = self.dirs.iter().map(|d| state_image_path(d, icon, state)).collect();
        let (tx, rx) = std::sync::mpsc::channel();
        let repaint = ctx.clone();
        let spawned = std::thread::Builder::new().name("hase-images".into()).spawn(move || {
            let image = paths.iter().find_map(|p| std::fs::read(p).ok()).and_then(|b| decode(&b).ok());
            let _ = tx.send(image);
            repaint.request_repaint();
        });
        match spawned {
            Ok(_) => Entry::Reading(rx),
            Err(_) => Entry::Known(None),
        }
    }
}

fn texture(ctx: &Context, icon: &str, state: &str, image: ColorImage) -> TextureHandle {
    let options = TextureOptions::LINEAR.with_mipmap_mode(Some(egui::TextureFilter::Linear));
    ctx.load_texture(format!("state-{icon}-{state}"), image, options)
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
        // Read on a worker thread: absent at first, present once the read lands.
        let mut found = false;
        for _ in 0..500 {
            if images.get(&ctx, "widget", "BUSY").is_some() {
                found = true;
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(found, "the image on disk is found");
        assert!(images.get(&ctx, "widget", "IDLE").is_none());
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert!(images.get(&ctx, "widget", "IDLE").is_none(), "a miss stays a miss");
        for (icon, state, bytes) in EMBEDDED {
            let image = decode(bytes).unwrap_or_else(|e| panic!("{icon}/{state}: {e}"));
            assert_eq!(image.size, [128, 128]);
        }
    }
}
