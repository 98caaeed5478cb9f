//! hase's own file dialog, for desktops without one (no XDG desktop portal): a modal window with the
//! folder (typed, or stepped through with Up and double clicks), its sub-folders and the files
//! with the accepted extensions, the file name, and Save/Open and Cancel; Enter confirms, Escape
//! cancels. Saving over a file that exists asks first (Replace, or choose another name). It draws with egui's own fonts only (the registry's egui 0.37 dialogs put emoji in
//! their titles that those fonts lack).

use std::path::{Path, PathBuf};

use egui::{Id, Key, Modal, Modifiers, RichText};

use crate::theme::Palette;

/// One line of the listing.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    name: String,
    is_dir: bool,
}

/// The dialog's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrowserAnswer {
    /// This file was chosen.
    Chosen(PathBuf),
    /// The dialog was closed without a file.
    Cancel,
}

/// State of the dialog while it is open.
#[derive(Clone, Debug)]
pub struct FileBrowser {
    /// Heading.
    pub title: String,
    /// Choosing a file to write (else one to read, which must exist).
    pub save: bool,
    /// The folder listed.
    pub dir: PathBuf,
    /// The folder as typed.
    pub dir_text: String,
    /// The file name field.
    pub name: String,
    extensions: Vec<String>,
    entries: Vec<Entry>,
    error: Option<String>,
    /// Shown under the heading: why this dialog and not the desktop's (the first time only).
    pub notice: Option<String>,
    /// A file to save that exists, waiting for "Replace".
    pub replace_asked: Option<PathBuf>,
}

impl FileBrowser {
    /// A dialog listing `dir` (files with one of `extensions`, all when empty), with `name` typed.
    pub fn new(title: &str, save: bool, dir: PathBuf, name: String, extensions: Vec<String>) -> Self {
        let mut browser = FileBrowser {
            title: title.to_string(),
            save,
            dir: PathBuf::new(),
            dir_text: String::new(),
            name,
            extensions,
            entries: Vec::new(),
            error: None,
            notice: None,
            replace_asked: None,
        };
        browser.enter(dir);
        browser
    }

    /// List `dir` (the current one stays when it cannot be read, and the reason is shown).
    pub fn enter(&mut self, dir: PathBuf) {
        match std::fs::read_dir(&dir) {
            Ok(read) => {
                let mut entries: Vec<Entry> = read
                    .filter_map(Result::ok)
                    .filter_map(|e| {
                        let name = e.file_name().to_string_lossy().into_owned();
                        let is_dir = e.path().is_dir();
                        (!name.starts_with('.') && (is_dir || self.accepts(&e.path())))
                            .then_some(Entry { name, is_dir })
                    })
                    .collect();
                entries.sort_by(|a, b| b.is_dir.cmp(&a.is_dir).then_with(|| a.name.cmp(&b.name)));
                self.entries = entries;
                self.dir_text = dir.display().to_string();
                self.dir = dir;
                self.error = None;
            }
            Err(e) => {
                self.dir_text = self.dir.display().to_string();
                self.error = Some(format!("cannot list {}: {e}", dir.display()));
            }
        }
    }

    fn accepts(&self, path: &Path) -> bool {
        self.extensions.is_empty()
            || path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| self.extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
    }

    /// Names listed (folders first, with a trailing `/`), for tests.
    pub fn listed(&self) -> Vec<String> {
        self.entries.iter().map(|e| if e.is_dir { format!("{}/", e.name) } else { e.name.clone() }).collect()
    }

    /// The chosen path if the name can be used: a file to read must exist.
    fn confirm(&mut self) -> Option<PathBuf> {
        let name = self.name.trim();
        if name.is_empty() {
            self.error = Some("type a file name or pick one from the list".into());
            return None;
        }
        let path = self.dir.join(name);
        if path.is_dir() {
            self.enter(path);
            self.name.clear();
            return None;
        }
        if !self.save && !path.is_file() {
            self.error = Some(format!("{} does not exist", path.display()));
            return None;
        }
        if self.save && path.is_file() && self.replace_asked.as_ref() != Some(&path) {
            self.replace_asked = Some(path);
            return None;
        }
        Some(path)
    }

    /// Show the dialog; returns the answer once given.
    pub fn show(&mut self, ctx: &egui::Context, palette: &Palette) -> Option<BrowserAnswer> {
        let mut answer = None;
        let response = Modal::new(Id::unique("hase-file-browser")).show(ctx, |ui| {
            ui.set_width(560.0);
            ui.heading(&self.title);
            if let Some(notice) = &self.notice {
                ui.label(RichText::new(notice).color(palette.info));
            }
            // Enter confirms; taken before the fields, which would only give up their focus.
            let enter = ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Enter));
            ui.horizontal(|ui| {
                let up = self.dir.parent().map(Path::to_path_buf);
                if ui
                    .add_enabled(up.is_some(), egui::Button::new("Up"))
                    .on_hover_text("The parent folder")
                    .clicked()
                    && let Some(up) = up
                {
                    self.enter(up);
                }
                let field = ui
                    .add(egui::TextEdit::singleline(&mut self.dir_text).desired_width(f32::INFINITY))
                    .accessible_name("Folder");
                if field.lost_focus() && self.dir_text != self.dir.display().to_string() {
                    self.enter(PathBuf::from(self.dir_text.trim()));
                }
            });
            let mut enter_dir = None;
            let mut pick = None;
            egui::ScrollArea::vertical().max_height(300.0).auto_shrink([false, false]).show(ui, |ui| {
                if self.entries.is_empty() {
                    ui.weak("(no folders or matching files here)");
                }
                for entry in &self.entries {
                    let text = if entry.is_dir { format!("{}/", entry.name) } else { entry.name.clone() };
                    let selected = !entry.is_dir && entry.name == self.name;
                    let row = ui.selectable_label(selected, text);
                    if entry.is_dir && row.double_clicked() {
                        enter_dir = Some(self.dir.join(&entry.name));
                    } else if !entry.is_dir && row.double_clicked() {
                        pick = Some(entry.name.clone());
                    } else if !entry.is_dir && row.clicked() {
                        self.name.clone_from(&entry.name);
                        // The error was about the name before.
                        self.error = None;
                    }
                }
            });
            if let Some(dir) = enter_dir {
                self.enter(dir);
            }
            ui.horizontal(|ui| {
                let label = ui.label("File name");
                let field = ui
                    .add(egui::TextEdit::singleline(&mut self.name).desired_width(f32::INFINITY))
                    .labelled_by(label.id);
                if field.changed() {
                    self.error = None;
                }
            });
            if let Some(e) = &self.error {
                ui.label(RichText::new(e).color(palette.error).small());
            }
            // A typed name other than the one asked about withdraws the question.
            if self.replace_asked.as_ref().is_some_and(|p| p != &self.dir.join(self.name.trim())) {
                self.replace_asked = None;
            }
            // Enter alone never replaces a file: the question stays until Replace is clicked.
            let enter = enter && self.replace_asked.is_none();
            if let Some(path) = self.replace_asked.clone() {
                let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                ui.add_space(6.0);
                ui.label(
                    RichText::new(format!("{file} exists in this folder. Replace it?"))
                        .color(palette.warning),
                );
                ui.horizontal(|ui| {
                    if ui.button(RichText::new("Replace").strong()).clicked() {
                        answer = Some(BrowserAnswer::Chosen(path));
                    }
                    if ui.button("Choose another name").clicked() {
                        self.replace_asked = None;
                    }
                });
            }
            ui.add_space(6.0);
            let confirm = ui
                .horizontal(|ui| {
                    let verb = if self.save { "Save" } else { "Open" };
                    let confirm = ui.button(RichText::new(verb).strong()).clicked();
                    if ui.button("Cancel").clicked() {
                        answer = Some(BrowserAnswer::Cancel);
                    }
                    confirm
                })
                .inner;
            // A double-clicked file is chosen at once.
            let picked = pick.is_some();
            if let Some(name) = pick {
                self.name = name;
            }
            if (confirm || enter || picked)
                && answer.is_none()
                && let Some(path) = self.confirm()
            {
                answer = Some(BrowserAnswer::Chosen(path));
            }
        });
        if response.should_close() && answer.is_none() {
            answer = Some(BrowserAnswer::Cancel);
        }
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_folders_first_then_accepted_files_and_checks_what_is_chosen() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("runs")).unwrap();
        for name in ["b.ron", "a.RON", "notes.txt", ".hidden.ron"] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        let mut open =
            FileBrowser::new("Open", false, dir.path().to_path_buf(), String::new(), vec!["ron".into()]);
        assert_eq!(open.listed(), ["runs/", "a.RON", "b.ron"]);
        assert_eq!(open.confirm(), None, "nothing typed");
        open.name = "missing.ron".into();
        assert_eq!(open.confirm(), None, "a file to open must exist");
        assert!(open.error.as_deref().is_some_and(|e| e.contains("does not exist")));
        open.name = "b.ron".into();
        assert_eq!(open.confirm(), Some(dir.path().join("b.ron")));
        // A folder typed as the name is entered.
        open.name = "runs".into();
        assert_eq!(open.confirm(), None);
        assert_eq!(open.dir, dir.path().join("runs"));
        // A folder that cannot be read keeps the listing and says why.
        open.enter(dir.path().join("nowhere"));
        assert_eq!(open.dir, dir.path().join("runs"));
        assert!(open.error.as_deref().is_some_and(|e| e.contains("cannot list")));
        let mut save = FileBrowser::new("Save", true, dir.path().to_path_buf(), "new.ron".into(), Vec::new());
        assert_eq!(save.listed(), ["runs/", "a.RON", "b.ron", "notes.txt"]);
        assert_eq!(save.confirm(), Some(dir.path().join("new.ron")), "a file to write need not exist");
        // Saving over a file asks first; confirming the same name again is the answer Replace.
        save.name = "b.ron".into();
        assert_eq!(save.confirm(), None, "an existing file is not replaced unasked");
        assert_eq!(save.replace_asked, Some(dir.path().join("b.ron")));
        assert_eq!(save.confirm(), Some(dir.path().join("b.ron")));
    }
}
